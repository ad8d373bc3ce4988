/* worker.h - one job of a test: its setup, hot loops and teardown (private to the runner). */
#ifndef DISKBENCH_WORKER_H
#define DISKBENCH_WORKER_H

#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "dropbehind.h"
#include "engine.h"
#include "runner.h"
#include "verify.h"

struct gate;

/*
 * One worker: a thread (or, spec->procs, a process: jobs.h) with
 * its own fd, engine context, request slots, buffers, offsets and
 * histogram. Nothing in it is shared, so the hot loop takes no lock; the
 * main thread reads the totals after join. While it runs, the main thread
 * only loads what the worker stores with relaxed atomics (ops, bytes of a
 * WL_OPS job, the histogram's counts: hist_add), for progress and the
 * timeline: single-writer values, each read whole.
 */
struct worker {
	pthread_t tid;
	pid_t pid;			/* spec->procs: its process; 0 once reaped */
	unsigned id;
	const struct test_spec *spec;
	const struct run_target *where;
	struct gate *gate;
	const uint64_t *t0;		/* common start, set by the runner's thread */
	const int *sampled;		/* the device counters' start sample is taken:
					 * no window opens before (atomic) */
	unsigned *finished;		/* workers out of their loop (atomic) */
	const volatile sig_atomic_t *stop;	/* spec->stop, or its relay (procs) */
	struct wl_progress prog;	/* setup and teardown work (WL_OPS) */

	struct engine_ctx ctx;
	bool engine_ready;
	struct io_req *reqs;
	struct io_req **freel, **batch, **done;
	void *bufs;
	size_t bufs_len;
	bool bufs_numa;
	struct wl_offsets gen;
	struct wl_rng dir_rng;		/* write_pct draws */
	uint64_t write_seq;
	uint64_t left;			/* requests it may still submit (spec->passes);
					 * UINT64_MAX: no limit */
	uint64_t ops_limit;		/* its window closes at this many ops */
	bool passes_done;		/* and it did close there */
	/* --verify (spec->stamp): the unit of its blocks, the CRC of each
	 * slot's payload per unit (qd x bs / unit), which slots a read
	 * overwrote since (a mixed test; NULL otherwise), and (spec->verify)
	 * the blocks of its offsets it wrote, a bit each */
	uint32_t unit, units;
	uint32_t *pcrc;
	bool *dirty;
	uint64_t *written;
	struct verify_sum checked;	/* what a checking workload checked */
	bool drop_behind;		/* see runner.h */
	struct drop_behind db;		/* its ranges (dropbehind.h) */

	struct wl_job job;		/* WL_OPS */
	void *ops_state;
	bool ops_ready;

	struct hist *lat;
	uint64_t ops, bytes, errors;
	int first_errno;
	uint64_t first_error_offset;
	uint64_t t_start, t_end;	/* measured window */
	bool opened;			/* the window opened (t_start is its start) */
	uint64_t cpu_user_ns, cpu_sys_ns;
	/* System calls in the window: the count (engine_ctx.syscalls, or the
	 * workload's wl_ops.syscalls) at its opening, then the difference */
	uint64_t syscalls;

	int err;			/* setup failure: -errno */
	char errmsg[200];
	bool torn_down;		/* what it counted is final */
};

/* A workload that runs out of work, or a test of so many passes, gets no
 * ramp: it would eat the work. */
static inline uint64_t spec_ramp(const struct test_spec *s)
{
	return s->wl->finite || s->passes ? 0 : s->ramp_ns;
}

/* The working set: the run's, or the workload's own fixed region. */
static inline uint64_t spec_size(const struct test_spec *s)
{
	if (s->wl->fixed_size && s->wl->fixed_size < s->size)
		return s->wl->fixed_size;
	return s->size;
}

/* Job id's part of the working set, and the seed of its offsets.
 * Sequential jobs each walk their own slice; random jobs roam the whole
 * working set with their own seed. A fixed region (hdparm -T's 2 MiB) is
 * re-read whole by every job. */
void worker_region(const struct test_spec *s, unsigned id, uint64_t *base, uint64_t *slice,
		   uint64_t *seed);

/*
 * A job's whole life, on its own thread (or in its own process): set up,
 * arrive at the start gate (jobs.h), run its loop if the gate says go and
 * its setup did not fail (w->err, w->errmsg), tear down what it made, then
 * set torn_down and count itself in *finished. arg is the struct worker,
 * filled by the runner's thread with its id, spec, where, shared pointers
 * and ctx.fd = -1; always returns NULL.
 */
void *worker_main(void *arg);

#endif
