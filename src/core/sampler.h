/* sampler.h - the runner's own thread while a test runs: the timeline, the stall watch, progress (private to the runner). */
#ifndef DISKBENCH_SAMPLER_H
#define DISKBENCH_SAMPLER_H

#include <stdbool.h>
#include <stdint.h>

#include "hist.h"
#include "result.h"
#include "runner.h"
#include "stall.h"
#include "timeline.h"

struct jobs_hang;
struct run_shared;
struct worker;

/*
 * Everything here runs on the runner's thread, never on a worker, and only
 * loads what the workers publish (worker.h): relaxed atomic loads of their
 * single-writer counts, so the workers' loops pay nothing for it.
 *
 * The timeline (out->timeline, timeline.h): a point at every multiple of
 * timeline_interval(spec->interval_ns, spec->runtime_ns) (a test of passes
 * with no interval given: of runtime / 1000, at least 10 ms) after the
 * ramp (origin), before the runtime is over (and on the same grid from one
 * interval past it, should a window stay open that long: a flush), and the
 * last one where the last window closes (sampler_finish); t_ns counts from
 * the first window's opening. A point is the difference of two snapshots
 * of the jobs' histogram counts and ops, so the points' ops and bytes add
 * up exactly to out's, and their latencies are those of the I/Os completed
 * in each interval, over all jobs.
 *
 * Stalls (stall.h): from origin on, the jobs' counts are read (every 100
 * ms, then each few ms while the windows close, and once after): a job that
 * completed nothing for stall_bound(runtime) or more while another job went
 * on (stopped by SIGSTOP, stuck in the kernel) is named in out->stalls,
 * when (from the first window's opening), for how long (to within a
 * reading, never more than it stood still) and its last request's offset.
 *
 * Progress: spec->progress, about twice a second, with where the test is
 * (struct runner_progress).
 */
struct sampler {
	struct timeline_rec rec;
	struct hist *cur;	/* scratch: the jobs' merged counts */
	uint64_t origin;	/* monotonic ns: t0 + ramp */
	uint64_t runtime;
	/* The jobs' counts, read for jobs that stand still from origin on,
	 * on each wake of the runner's thread (every 100 ms in the runtime,
	 * and at most every STALL_READ_NS while the windows close), and once
	 * they have; jobs NULL: not watched (no memory) */
	struct stall_watch stalls;
	uint64_t next_read;
};

/* Ready sm for spec, before its jobs start: 0, or -ENOMEM (sm then holds
 * nothing to free). */
int sampler_init(struct sampler *sm, const struct test_spec *spec);

/* The jobs are let go: points and readings count from origin (monotonic
 * ns, where the windows may open). With no memory for the watch, nothing
 * is watched. */
void sampler_start(struct sampler *sm, const struct test_spec *spec, unsigned n,
		   uint64_t origin);

/* Until the n jobs are all at the start gate (jobs.h), or one of them is
 * gone, reporting the setup's progress (the file tests may make many files
 * first); false when hang (may be NULL; watched from a stop on, if not
 * before) found them stuck first. */
bool sampler_wait_setup(const struct test_spec *spec, struct worker *ws, unsigned n,
			struct run_shared *rs, struct jobs_hang *hang);

/* Sleep until t (monotonic ns), calling spec->progress every 500 ms on
 * the way (elapsed from t0) and taking the timeline's points and the
 * watch's readings (sm, unless NULL) when due; back early when spec->stop
 * is raised or every worker is done. */
void sampler_wait(const struct test_spec *spec, struct worker *ws, unsigned n,
		  struct run_shared *rs, uint64_t t0, uint64_t t, struct sampler *sm);

/* Until every window has closed (or the workers ended, or a stop, or hang
 * found them stuck: a call that never returns): the device counters' end
 * sample waits for it, so it covers what the windows counted. The
 * timeline goes on, and the progress line too when it lasts (a job that
 * stands still). Ends with the watch's last reading. */
void sampler_wait_windows(const struct test_spec *spec, struct worker *ws, unsigned n,
			  struct run_shared *rs, struct sampler *sm, struct jobs_hang *hang);

/* Until every worker not abandoned has torn down (the file tests remove
 * their files: seconds for many), reporting how far they are; false when
 * hang found them stuck first. */
bool sampler_wait_teardown(const struct test_spec *spec, struct worker *ws, unsigned n,
			   struct run_shared *rs, struct jobs_hang *hang);

/* After the jobs, with out's figures merged: the last point, where the last
 * window closed, and the timeline and the stalls found into out, counted
 * from the first window's opening. */
void sampler_finish(struct sampler *sm, const struct worker *ws, unsigned n,
		    struct test_result *out);

/* What sampler_init took. */
void sampler_free(struct sampler *sm);

#endif
