/* annotate.h - the warnings and flags derived from a finished run, made once for every reporter. */
#ifndef DISKBENCH_ANNOTATE_H
#define DISKBENCH_ANNOTATE_H

#include <stdbool.h>

#include "result.h"
#include "xbench.h"

/* A job whose own CPU (user + sys) was at least this percent of its
 * window kept a core busy: its result may be bounded by the tool. */
#define ANNOTATE_TOOL_BOUND_PCT 90.0

/* A write test this many times faster than the read of the same pattern
 * (O_DIRECT, same bs, qd and jobs), on a device that reports a write-back
 * cache, measured the cache: flagged. Well beyond the spread of repeated
 * runs; a cache answers several times faster than the medium. */
#define ANNOTATE_WRITE_FASTER 1.5

struct annotate_in {
	bool moves_data;	/* the engine moved data (not the null engine): device
				 * counters are to be expected */
	const struct xbench_baseline *score; /* score the tests against this
					      * (Xbench-style); NULL: no scores */
	bool interrupted;	/* Ctrl-C ended the run: a test whose rounds stopped
				 * short of steady_max_rounds was interrupted (else
				 * a round failed) */
};

/*
 * Finish each test over its runs (repeat_finish: medians, sums, spread;
 * result_drift), then add to r's warnings what the numbers themselves say,
 * one warning per cause over all the tests it concerns (I/O errors and bad
 * blocks: one per test, with its first errno or block): read tests whose
 * reads did not reach the device (not a workload that reads the cache on
 * purpose, wl->cache_ok), runs that spread too widely for their median to
 * hold, throughput that drifted during a test's window, random reads too
 * fast for a store that says it spins (a loop device: its backing disk), a
 * target with no device counters, tests where a job's own CPU was near a
 * full core (ANNOTATE_TOOL_BOUND_PCT: the tool, not the device, may bound
 * them; not for the null engine, whose runs measure exactly that, nor a
 * workload that measures that CPU, wl->cpu_bound), read tests that read
 * unwritten space (unwritten.flagged: UNWRITTEN_FLAG or more of their
 * region unallocated or blank), writes faster than reads of the same
 * pattern (ANNOTATE_WRITE_FASTER) on a device with a write-back cache, a
 * cgroup I/O limit on the target; and score the tests when in->score is
 * given. Returns true when a test had I/O errors (the run failed). Never
 * prints.
 */
bool result_annotate(struct run_result *r, const struct annotate_in *in);

/*
 * t's drift figures (struct test_result: drift_valid, drift, drift_run,
 * drifted; each run's drift_valid and drift) from its runs' timelines (the
 * test's own when it has no runs), by timeline_drift's rule. A saved result
 * gets them from its saved timelines the same way (result_load).
 */
void result_drift(struct test_result *t);

/*
 * A test run in rounds (t->steady_max_rounds > 0): whether its rounds'
 * IOPS reached steady state (steady_detect with the PTS criteria), the
 * window, and iops and bytes_per_sec set to the window's averages over its
 * rounds. Does nothing for another test or with fewer rounds than a window.
 */
void result_steady(struct test_result *t);

/*
 * A test whose workload looks for the write cliff (wl->finds_cliff):
 * cliff_find over its last run's timeline (the test's own when it has no
 * runs) into t->cliff, and cliff_valid set. Nothing for another test. A
 * saved result gets it from its saved timeline the same way.
 */
void result_cliff(struct test_result *t);

/*
 * t's flags that follow from its workload and its runs (struct
 * test_result: unreliable, cache_ok, per_char, moves_files,
 * hdparm_line), for every
 * renderer to read. result_annotate sets them; result_load sets them for
 * a saved or imported result; a result built by hand calls it. A
 * workload this version does not know gives none.
 */
void result_test_flags(struct test_result *t);

#endif
