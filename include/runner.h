/* runner.h - run one test: its jobs (threads or processes), ramp, timed phase, CPU cost. */
#ifndef DISKBENCH_RUNNER_H
#define DISKBENCH_RUNNER_H

#include <stdbool.h>
#include <signal.h>
#include <stdint.h>

#include "engine.h"
#include "reqlog.h"
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
	uint64_t slow_ns;	/* RUNNER_RUN: job slow_job has had a request in
				 * flight this long, at least spec->io_timeout_ns,
				 * its last one at slow_offset; 0: none */
	unsigned slow_job;
	uint64_t slow_offset;
};

/* Everything that defines one test. */
struct test_spec {
	const struct workload *wl;
	const struct engine_ops *engine;
	uint32_t bs;		/* bytes, a multiple of the logical block size */
	uint32_t qd;		/* requests in flight per job (1 for sync engines) */
	uint32_t jobs;		/* workers */
	bool procs;		/* each job a process of its own, in a session
				 * (and so a scheduler autogroup) of its own, as
				 * fio's jobs are: block and file tests alike, so
				 * that a job stuck in the kernel can be let go;
				 * else threads of this process (--thread) */
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
	uint32_t batch;		/* --batch: engine_ctx.batch; 0: the engine's
				 * default (engine_batch) */
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
	/* --on-error continue: a failed or short request is counted (and the
	 * first few named: test_result.io_errors) and the test goes on; false
	 * (stop, the default): the first one ends every job's window, and the
	 * test returns what was measured up to it, the error with it. Set by
	 * the session (session_in.on_error_continue). */
	bool on_error_continue;
	/* The bound on a request's age (--io-timeout; the session's default):
	 * a job with a request in flight this long is named in out->slow
	 * while the test goes on; a job whose request has not completed this
	 * long after the runtime (or after *stop) ends the test: it is
	 * abandoned (a job process killed, a thread left to the kernel), its
	 * request counted as an error of ETIMEDOUT at its offset and
	 * out->stuck set. A file test's jobs are stuck once nothing has moved
	 * that long past the runtime: none of their counts, nor the call they
	 * say they are in, nor (unless stopped) the device's counters; the
	 * call is named in out->stuck_call (jobs.h: the hang watch). A job
	 * process stuck in its setup (a file test's, where the device's
	 * counters can be read; any, once stopped) is let go too: the test
	 * fails with -ETIMEDOUT (-EINTR once stopped), the call named in err.
	 * 0: no bound (the jobs are waited for). */
	uint64_t io_timeout_ns;
	/* --lat-log: a block test's jobs log every request they complete,
	 * ramp and drain included, job i into its part of reqlog (reqlog.h),
	 * which the caller made for at least jobs jobs, laid out before the
	 * test and reads after it; NULL: no log (a WL_OPS test keeps none
	 * either). reqlog_max: its entries per job, counted in the test's
	 * memory (runner_footprint); 0 with no log. */
	struct reqlog *reqlog;
	uint64_t reqlog_max;

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
	const char *scratch;		/* its path, to name a file in it; may be
					 * NULL */
};

/*
 * Run spec against where->data (a file or a block device; ignored by
 * ENGINE_F_NO_IO engines), on the device of where->ti. Returns 0 with out
 * filled (and result_finish()ed), or -errno with a one-line reason in err;
 * never prints. An I/O error is not a failure of the run: it is counted in
 * out (errors, first_errno, first_error_offset, the first few in
 * io_errors) and, unless spec->on_error_continue, ends the test there (every
 * job's window closes at its next completion). A short transfer is an
 * error of errno 0, never a whole block: its bytes are not counted. A job
 * that cannot be started or set up fails the test (-EAGAIN or the job's
 * error, with its message), setup interrupted by *stop with -EINTR, a
 * job process stuck in its setup with -ETIMEDOUT (spec->io_timeout_ns) and
 * a job process that ends before its test does with -ECHILD.
 *
 * Each job (src/core/worker.h) has its own fd, engine context, buffers and
 * histogram; sequential jobs get a slice of the working set each, random
 * jobs the whole set with seed + job. A WL_OPS workload uses no engine
 * (spec->engine may be NULL): out->engine, bs and direct come from
 * ops->describe(), qd is 1, bytes are what the ops returned. A buffered
 * test runs drop-behind (worker.h). The jobs start together through a gate
 * that can be called off, as threads or processes (jobs.h); the timeline,
 * the stalls and the progress are taken on the caller's thread
 * (sampler.h). The device counters are sampled around the measured windows
 * only, and --verify's read-back comes after them, timed apart (runner.c).
 * The caller's process must not reap its children with a wait() of any
 * child while this runs.
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
