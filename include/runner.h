/* runner.h - run one test: its jobs (threads or processes), ramp, timed phase, CPU cost. */
#ifndef DISKBENCH_RUNNER_H
#define DISKBENCH_RUNNER_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>

#include "engine.h"
#include "result.h"
#include "target.h"
#include "workload.h"

#define RUNNER_MAX_CPUS 1024

/* Where a test is, for a progress line. */
enum runner_phase {
	RUNNER_SETUP,		/* jobs preparing, untimed (files being made) */
	RUNNER_RUN,		/* ramp and measured phase */
	RUNNER_TEARDOWN,	/* jobs removing what they made */
};

struct runner_progress {
	enum runner_phase phase;
	uint64_t elapsed_ns;	/* RUNNER_RUN: since the start */
	uint64_t total_ns;	/* RUNNER_RUN: ramp + runtime planned; 0 for a
				 * workload that runs to its end (wl->whole) */
	uint64_t ops, bytes;	/* RUNNER_RUN: measured so far (0 in the ramp) */
	uint64_t done, todo;	/* setup and teardown: work done and planned, summed
				 * over jobs (0, 0 when the workload does not count) */
	uint64_t stalled_ns;	/* RUNNER_RUN: job stalled_job has stood still this
				 * long while the others went on (stall.h); 0: none */
	unsigned stalled_job;
};

/* Everything that defines one test. */
struct test_spec {
	const struct workload *wl;
	const struct engine_ops *engine;
	uint32_t bs;		/* bytes, a multiple of the logical block size */
	uint32_t qd;		/* requests in flight per job (1 for sync engines) */
	uint32_t jobs;		/* workers */
	bool procs;		/* WL_BLOCK: each job a process of its own, in a
				 * session (and so a scheduler autogroup) of its
				 * own, as fio's jobs are; else threads of this
				 * process. WL_OPS jobs are always threads. */
	bool direct;		/* open with O_DIRECT */
	uint64_t runtime_ns;	/* measured phase */
	uint64_t ramp_ns;	/* unmeasured warm-up before it */
	uint64_t settle_ns;	/* the caller's: sync() and idle this long before
				 * the test (hdparm's pause); the runner ignores it */
	uint64_t interval_ns;	/* the timeline's (--interval); 0: the default
				 * rule (timeline_interval) */
	uint64_t size;		/* working set: offsets fall in [0, size) */
	uint32_t passes;	/* WL_BLOCK: end once each job has done this many
				 * passes over its part of the set (as many
				 * requests as it has blocks, each pass), or at the
				 * runtime, whichever is first; no ramp then. 0:
				 * the runtime alone. The plan takes wl->passes. */
	uint64_t seed;
	bool zero_data;		/* --data zero: the write buffers hold zeros (and
				 * the stamps), not incompressible data */
	bool hipri;		/* --hipri: the engine polls for completions
				 * (engine_ctx.hipri) */
	/* --verify: stamp every block written with a self-checking header
	 * (verify.h) and, after the measured window and the device counters'
	 * end sample, read back every block the jobs wrote and check it
	 * (out->verify; its time is its own, never the window's). stamp
	 * alone: the headers only, for a verify test later in the plan. */
	bool verify;
	bool stamp;
	uint32_t unit;		/* their units' bytes (verify.h); 0: verify_unit(bs) */
	const int *cpus;	/* pin job i to cpus[i % ncpus]; NULL = no pinning */
	unsigned ncpus;
	/* Optional: called about twice a second from the runner's own thread
	 * (never from a worker) with where the test is (struct
	 * runner_progress). */
	void (*progress)(void *arg, const struct runner_progress *p);
	void *progress_arg;
	/* Optional: when *stop becomes non-zero (a signal handler sets it),
	 * every job ends its measured phase at its next completion and the
	 * test returns what it measured so far; a setup that takes long (the
	 * file tests making their files) gives up within about a second and
	 * the test returns -EINTR. Clean-up always runs to the end. */
	const volatile sig_atomic_t *stop;

	/* The classic workloads' parameters (--char-mode, --files,
	 * --file-size, --dirs, --fsync); zero means the default. */
	struct wl_params params;
};

/* Where a test runs. */
struct run_target {
	const struct target_info *ti;	/* the target (kind, device counters) */
	struct target_file data;	/* where block I/O goes: the target itself, or
					 * the laid-out data file in the scratch dir */
	int scratch_fd;			/* the scratch directory (target_scratch_fd)
					 * for workloads that make their own files;
					 * -1 for a device or file target */
};

/*
 * Run spec against where->data (a file or a block device; ignored by
 * ENGINE_F_NO_IO engines), which lives on the device of where->ti: the
 * device counters are sampled at
 * the start and the end of the measured phase, so device bytes exclude the
 * ramp. Each job gets its own fd, engine context, aligned buffers and
 * histogram; sequential jobs get a slice of the working set each, random
 * jobs the whole set with seed + job. Returns 0 with out filled (and
 * result_finish()ed), or -errno with a one-line reason in err. An I/O error
 * is not a failure of the run: it is counted in out (errors, first_errno,
 * first_error_offset) and stops that job. Never prints.
 *
 * A WL_BLOCK workload with write_pct > 0 draws each request's direction
 * (the fd is then opened read-write); one with fixed_size uses [0,
 * fixed_size) for every job instead of size. A WL_OPS workload uses no
 * engine (spec->engine may be NULL): each job calls ops->op() in a loop and
 * times every call; out->engine, bs and direct come from ops->describe(), qd is
 * 1, bytes are what the ops returned. A finite workload skips the ramp, and
 * a job whose op returns WL_OP_DONE ends its measured phase there.
 *
 * Drop-behind: a buffered test (not direct, and not a workload that
 * measures the cache itself, wl->cache_ok) is run as if its file were larger
 * than RAM, which is how bonnie++ keeps the page cache out of its numbers
 * (a file of 2 x RAM). Pages a job has read are dropped
 * (POSIX_FADV_DONTNEED) once done with, so a wrapped sequential pass or a
 * random re-visit reads from the device again, readahead still working
 * ahead of the reader; written ranges are written back while the job goes
 * on and dropped once on the device (write-behind: at most two ranges of
 * 4 MiB or two requests dirty), so each byte written reaches the device
 * once; and what is still dirty when the window closes at the runtime is
 * written back inside the window (fdatasync, or ops->flush). The device
 * counters' end sample waits for that. out->drop_behind says it was done.
 * A test of one pass that only reads (hdparm -t) re-reads nothing, and
 * drops nothing behind it either: its read-ahead and its filling of the
 * page cache are what it measures.
 *
 * The device counters' start sample is taken just before the windows open
 * (before the jobs are let go with no ramp, a moment before the ramp ends
 * otherwise), and no window opens before it is taken (on a loaded machine
 * they open late instead), so what the windows count never predates it.
 *
 * The timeline (out->timeline, timeline.h): the runner's own thread takes
 * a point at every multiple of timeline_interval(spec->interval_ns,
 * spec->runtime_ns) (a test of passes with no interval given: of
 * runtime / 1000, at least 10 ms) after the ramp, before the runtime is
 * over (and on the
 * same grid from one interval past it, should a window stay open that
 * long), and the last one where the last window closes; t_ns counts from
 * the first window's opening. A point is the difference of two snapshots
 * of the jobs' ops, bytes and histogram counts, read with relaxed atomic
 * loads while the jobs go on (their single-writer stores are relaxed
 * atomics too: plain moves, nothing added to the hot loop), so the points'
 * ops and bytes add up exactly to out's, and their latencies are those of
 * the I/Os completed in each interval, over all jobs.
 *
 * Stalls (stall.h): on the same thread, from the first possible window
 * opening on, the jobs' counts are read (every 100 ms, then each few ms
 * while the windows close, and once after): a job that completed nothing
 * for stall_bound(runtime) or more while another job went on (stopped by
 * SIGSTOP, stuck in the kernel) is named in out->stalls, when (from the
 * first window's opening), for how long (to within a reading, never more
 * than it stood still) and its last request's offset. out->runtime_ns is
 * then the longest job window less what its stalls cover of it (the time
 * the jobs ran), so that the ops are not spread over time nobody ran;
 * out->window_span_ns keeps the longest window whole.
 *
 * --verify (spec->verify, spec->stamp; verify.h): each write is stamped
 * just before it is submitted (its payload's CRC was computed at setup,
 * again after a read overwrote its slot) and, once complete, marked in its
 * job's map of blocks written, ramp included; after the device counters'
 * end sample and the jobs' end, the marked blocks are read back through a
 * descriptor of the runner's own and checked into out->verify, whose
 * time_ns is the read-back's alone: none of it is in the window, the
 * figures or the counters. A SIGINT during the window skips it, one during
 * it ends it. A WL_OPS workload with ops->checked (the verify test) has its
 * jobs' sums added into out->verify, timed (its window is the check).
 *
 * Jobs start together through a gate that can be called off: when a thread
 * or process cannot be created or a job's setup fails, the others give up
 * and tear down (-EAGAIN or the job's error, with its message). Setup
 * interrupted by *stop returns -EINTR ("interrupted while ...").
 *
 * spec->procs (WL_BLOCK): each job is a child process in a session of its
 * own (setsid), named diskbench-jN; what the runner reads of it (counts,
 * histogram, map of blocks written, its engine's note) is in memory shared
 * before the fork. A stop reaches it through the runner's thread (within
 * 100 ms), and it dies with the process that started it. A job process that
 * ends before its test does (killed, crashed) stops the others and fails
 * the test (-ECHILD, saying how it ended). The caller's process must not
 * reap its children with a wait() of any child while this runs.
 */
int runner_run(const struct test_spec *spec, const struct run_target *where,
	       struct test_result *out, char *err, size_t errlen);

/*
 * What spec will hold at its peak, all jobs together: memory (the runner's
 * request slots, aligned buffers, histograms and timeline, and the workload's own,
 * wl_ops.footprint), and the bytes and inodes the workload's own files take;
 * fds is per job (each job has its own file table). An estimate for the
 * resource check before a run (budget.h), never below what is allocated.
 */
void runner_footprint(const struct test_spec *spec, struct wl_footprint *fp);

/* Does each job get a file table of its own here (a thread's
 * unshare(CLONE_FILES), which a seccomp filter may refuse)? Then a job's
 * descriptors count alone against RLIMIT_NOFILE, else all jobs' of a test
 * together. Job processes have their own anyway. Tried once, in a thread. */
bool runner_private_files(void);

/* Fill the parameters of job number job of spec (everything but where it
 * runs, the stop flag and the progress counters). */
void runner_job_params(const struct test_spec *spec, unsigned job, struct wl_job *out);

#endif
