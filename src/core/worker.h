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
 * One worker: a thread (or, spec->procs, a process: jobs.h) with its own
 * fd, engine context, request slots, buffers, offsets and histogram.
 * Nothing in it is shared, so the hot loop takes no lock; the runner's
 * thread reads the totals after the worker is done (torn_down, or joined).
 * While it runs, the runner's thread only loads what the worker stores with
 * relaxed atomics (ops, bytes of a WL_OPS job, the histogram's counts:
 * hist_add; at; prog; t_end, with release), for progress, the timeline and
 * the stall watch (sampler.h): single-writer values, each read whole. It
 * never reads the worker's own state (its generator, its requests).
 *
 * The hot loop (WL_BLOCK) refills every free slot, submits the batch, reaps
 * at least one completion, and times and counts it, with one clock read
 * per batch on each side. Its window opens at the first completion after
 * the ramp once the device counters' start sample is taken (*sampled), and
 * closes at the first completion after the runtime, when its passes are
 * done, at a stop or at an I/O error; it ends with nothing in flight. A
 * workload with write_pct > 0 draws each request's direction (the fd is
 * then opened read-write); one with fixed_size uses [0, fixed_size) for
 * every job instead of size. A WL_OPS job calls ops->op() in a loop,
 * timing every call; one whose op returns WL_OP_DONE ends its window there
 * (a finite workload has no ramp: spec_ramp).
 *
 * Drop-behind (w->drop_behind, dropbehind.h): a buffered test (not direct,
 * and not a workload that measures the cache itself, wl->cache_ok) is run
 * as if its file were larger than RAM, which is how bonnie++ keeps the page
 * cache out of its numbers (a file of 2 x RAM). Pages a job has read are
 * dropped (POSIX_FADV_DONTNEED) once done with, so a wrapped sequential
 * pass or a random re-visit reads from the device again, readahead still
 * working ahead of the reader; written ranges are written back while the
 * job goes on and dropped once on the device (write-behind: at most two
 * ranges of 4 MiB or two requests dirty), so each byte written reaches the
 * device once; and what is still dirty when the window closes at the
 * runtime is written back inside the window (fdatasync, or ops->flush). A
 * test of one pass that only reads (hdparm -t) re-reads nothing, and drops
 * nothing behind it either: its read-ahead and its filling of the page
 * cache are what it measures.
 *
 * --verify (spec->verify, spec->stamp; verify.h): each write is stamped
 * just before it is submitted (its payload's CRC was computed at setup,
 * again after a read overwrote its slot) and, once complete, marked in the
 * job's map of blocks written (written), ramp included; the runner reads
 * them back after the test (runner.c). A WL_OPS workload with ops->checked
 * (the verify test) leaves its sums in checked at teardown.
 *
 * --lat-log (spec->reqlog, reqlog.h): a block job logs each request as it
 * completes (and each that a failed submit() ended), with the times the
 * histogram used, its slot and whether it completed in the ramp, the
 * window or after it; into memory the caller laid out before the test
 * (shared with job processes), never an allocation or a write(2) in the
 * loop; without it the loop pays one predicted branch a completion.
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
	int *halt;			/* run_shared.halt: raised by the first error
					 * of a job under --on-error stop (atomic) */
	struct wl_progress prog;	/* setup and teardown work (WL_OPS) */

	struct engine_ctx ctx;
	bool engine_ready;
	struct io_req *reqs;
	struct io_req **freel, **batch, **done;
	void *bufs;
	size_t bufs_len;
	bool bufs_numa;
	struct wl_offsets gen;
	/* Its last request's offset, for the stall watch: stored (relaxed)
	 * once a batch, after the refill; UINT64_MAX, as the runner's thread
	 * sets it before the job starts: none yet (a WL_OPS job never has one) */
	uint64_t at;
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
	bool drop_behind;		/* see above (spec_drop_behind) */
	struct drop_behind db;		/* its ranges (dropbehind.h) */

	struct reqlog_job *rlog;	/* its part of spec->reqlog; NULL: no log */

	struct wl_job job;		/* WL_OPS */
	/* The call it is in (wl_job.at): stored (relaxed) by its workload;
	 * WL_AT_NONE, as the runner's thread sets it before the job starts:
	 * none yet. Read by the hang watch (jobs.h), and to name a call
	 * that never returned (wl_ops.name_at). */
	uint64_t op_at;
	void *ops_state;
	bool ops_ready;

	struct hist *lat;
	uint64_t ops, bytes, errors;
	int first_errno;
	uint64_t first_error_offset;
	/* its first errors, at_ns monotonic (runner.c makes it relative) */
	struct result_io_error errs[RESULT_MAX_IO_ERRORS];
	unsigned nerrs;
	uint64_t t_start, t_end;	/* measured window */
	bool opened;			/* the window opened (t_start is its start) */
	uint64_t cpu_user_ns, cpu_sys_ns;
	/* The time it waited on a run queue for a CPU in the window (the
	 * reading at its opening, then the difference); cpu_wait_valid false
	 * when the kernel does not say (no /proc/thread-self/schedstat).
	 * cpu_wait_span_ns: the time from before the first reading to after
	 * the second (the clock at opening, then the difference), what that
	 * wait is a share of: a wait before the second reading but after the
	 * window's end is in both, so the share stays at most 100 % */
	uint64_t cpu_wait_ns, cpu_wait_span_ns;
	bool cpu_wait_valid;
	/* System calls in the window: the count (engine_ctx.syscalls, or the
	 * workload's wl_ops.syscalls) at its opening, then the difference */
	uint64_t syscalls;

	int err;			/* setup failure: -errno */
	char errmsg[200];
	bool ready;			/* at the start gate, its setup over (atomic) */
	bool torn_down;		/* what it counted is final */
	bool abandoned;		/* stuck past the deadline: left (jobs_abandon) */
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
