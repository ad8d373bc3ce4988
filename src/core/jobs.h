/* jobs.h - a test's jobs: the start gate, threads or processes, their shared arena, the watch (private to the runner). */
#ifndef DISKBENCH_JOBS_H
#define DISKBENCH_JOBS_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "runner.h"

struct worker;

/*
 * The start gate: every worker sets up, says it is ready, and waits for the
 * verdict - go, or give up - which the runner's thread gives once all are
 * ready, or at once when a thread could not be created or a job's setup
 * failed. (A barrier cannot be called off: with one thread missing, the
 * others would wait forever.)
 */
struct gate {
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned ready;
	int verdict;		/* 0 waiting, 1 go, -1 give up */
};

/* pshared: the workers are processes, and g is in memory they share. */
void gate_init(struct gate *g, bool pshared);
void gate_destroy(struct gate *g);
/* A worker is ready; returns the verdict (1 go, -1 give up) once there is one. */
int gate_arrive(struct gate *g);
/* Wait up to timeout_ns for n workers to be ready; true when they are. */
bool gate_wait_ready(struct gate *g, unsigned n, uint64_t timeout_ns);
/* Give every worker, arrived or to come, the verdict. */
void gate_open(struct gate *g, int verdict);

/*
 * What the runner's thread and the jobs share: the start gate, the common
 * start, the device counters' start flag, the count of jobs done, and the
 * relay of spec->stop to job processes. With spec->procs it lives in the
 * shared mapping made before the fork (jobs_arena), with the workers, their
 * histograms and their maps of blocks written.
 */
struct run_shared {
	struct gate gate;
	uint64_t t0;
	int sampled;
	unsigned finished;
	volatile sig_atomic_t stop;
	int halt;		/* a job met an error under --on-error stop: every
				 * job ends its window (atomic) */
	bool procs;
};

/*
 * Job processes (spec->procs, WL_BLOCK): each job is a child process in a
 * session of its own (setsid), named diskbench-jN; what the runner reads of
 * it (counts, histogram, map of blocks written, its engine's note) is in
 * memory shared before the fork: the arena, n workers (zeroed) with their
 * lat and written set, and the run_shared, at *rs and *ws. The whole
 * mapping is *len bytes at the returned address (munmap it after the
 * jobs); NULL when there is no memory.
 */
void *jobs_arena(const struct test_spec *s, unsigned n, struct run_shared **rs,
		 struct worker **ws, size_t *len);

/* Start job w: a thread, or (rs->procs) a process running worker_main;
 * 0 or -errno. */
int jobs_start(struct worker *w, const struct run_shared *rs);

/*
 * The watch, called by the runner's thread whenever it wakes (at least
 * every 100 ms while jobs run): relays a stop to job processes (a job is
 * out of its terminal's session and gets none of its signals), and takes
 * back the ones that ended without finishing (killed, or crashed): each is
 * counted finished then, with its window closed and w->err -ECHILD saying
 * how it ended, and the others are stopped. A job process dies with the
 * process that started it. True when the user asked for a stop
 * (spec->stop). Threads: only that answer.
 */
bool jobs_watch(const struct test_spec *spec, struct worker *ws, unsigned n,
		struct run_shared *rs);

/*
 * A job stuck past its test's deadline (a request that never completes):
 * let go of it. A job process is killed (SIGKILL; a process in the kernel
 * waiting for a block request ends once it returns, and is never waited
 * for); a thread is detached and what it may still write is pointed at
 * memory that outlives the test: the caller must not free w or its
 * histogram then. Marks w->abandoned.
 */
void jobs_abandon(struct worker *w, const struct run_shared *rs);

/* After every job finished: join the threads, or wait for the processes
 * (an abandoned one only when it has ended).
 * The caller's process must not reap its children with a wait() of any
 * child while a test runs. */
void jobs_end(struct worker *ws, unsigned n, const struct run_shared *rs);

#endif
