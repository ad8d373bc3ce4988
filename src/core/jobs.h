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
 * Job processes (spec->procs): each job is a child process in a
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
 * The hang watch: are a test's jobs stuck (spec->io_timeout_ns), a call of
 * theirs waiting for a device that no longer answers? Watched from a point
 * (jobs_hang_from: the runtime's end, or the stop, halt or failed start
 * that came before it; a file test's from its start, too). A block
 * test's jobs are stuck io_timeout after it: a job still in its loop then
 * has had a request in flight that long. A file test's jobs make calls
 * the runner does not see (a create, an fsync of all that is dirty, the
 * removal of thousands of files), some long on a slow device: they are
 * stuck once, past that point, nothing has moved for io_timeout: no job's
 * counts (its ops, its setup and clean-up work, the call it says it is
 * in, its window, its teardown) and, unless the user asked to stop, not a
 * byte on the target's device (a write-back of gigabytes moves its
 * counters while the job waits for it).
 */
struct jobs_hang {
	uint64_t bound_ns;		/* spec->io_timeout_ns; 0: never stuck */
	uint64_t from;			/* monotonic ns; UINT64_MAX: not watched */
	bool files;			/* a file test: stuck by what moves */
	const struct target_info *ti;	/* a file test's device, whose counters
					 * can be read; NULL: none */
	uint64_t sig, dev;		/* what the jobs and the device showed */
	uint64_t moved;			/* when that last changed */
	uint64_t dev_next;		/* the next look at the device */
};

/* Ready h for spec's jobs on the device of ti (may be NULL; h->ti is NULL
 * unless a file test's counters can be read there): not watched until
 * jobs_hang_from. */
void jobs_hang_init(struct jobs_hang *h, const struct test_spec *spec,
		    const struct target_info *ti);

/* Watch from t (monotonic ns) on: a later point than the last one given
 * replaces it (the setup's watch gives way to the runtime's end). */
void jobs_hang_from(struct jobs_hang *h, uint64_t t);

/* Are the n jobs stuck now? Reads what they publish (worker.h) and, for a
 * file test, the device's counters at most every 100 ms: call it on every
 * wake of the runner's thread. */
bool jobs_hung(struct jobs_hang *h, const struct test_spec *spec, const struct worker *ws,
	       unsigned n);

/*
 * A job stuck past its test's deadline (a call that never returns): let
 * go of it. A job process is killed (SIGKILL; a process in the kernel
 * waiting for a block request ends once it returns, and is never waited
 * for); a thread is detached and what it may still write is pointed at
 * memory that outlives the test: the caller must not free w or its
 * histogram then (and must not abandon one that has not reached the
 * start gate, which the thread would still use). Marks w->abandoned.
 */
void jobs_abandon(struct worker *w, const struct run_shared *rs);

/* After every job finished: join the threads, or wait for the processes
 * (an abandoned one only when it has ended).
 * The caller's process must not reap its children with a wait() of any
 * child while a test runs. */
void jobs_end(struct worker *ws, unsigned n, const struct run_shared *rs);

#endif
