/* append.h - runs of one plan made at different times, into one result (run --append). */
#ifndef DISKBENCH_APPEND_H
#define DISKBENCH_APPEND_H

#include <stddef.h>

#include "result.h"

/*
 * Why: compare judges two sides from their runs, and runs made one after
 * the other inside one process share the machine's state of that minute.
 * On a shared machine that state moves between two back-to-back sides by
 * more than a test's runs spread (bench/calibrate.sh measured it), so
 * an A/A pair of --repeat 5 runs was judged different. Runs made in turn,
 * A, B, A, B ..., each added to its side's file, share it instead.
 *
 * May the runs of a test plan named names[0..n) on target (its path as
 * resolved, realpath's) be added to prior's (a loaded result)? prior's
 * tests must be those, in that order, of the same target (its resolved
 * path, or the one given when a result has none). 0, or -EINVAL with one line
 * in err naming the first difference: "it holds 3 tests, this run has 4",
 * "its test 2 is "seq-read 1m qd8", this run's is "seq-read 1m qd32"", "it
 * holds a run of /dev/sdb, this run is of /dev/sdc". Never prints.
 */
int result_append_check(const struct run_result *prior, const char *target,
			const char *const *names, unsigned n, char *err, size_t errlen);

/*
 * And do this run's settings (now's, as run_stage_set echoes them) match
 * prior's? Every key both have must have the same value, but "repeat" and
 * "pinning" (how many runs a side has, and why its CPUs were chosen, may
 * differ: the CPUs themselves may not). 0, or -EINVAL with "its runtime
 * is 5s, this run's is 1s" in err.
 */
int result_append_check_settings(const struct run_result *prior, const struct run_result *now,
				 char *err, size_t errlen);

/*
 * Add each test's runs of now after the same test's of prior (checked
 * with the two functions above), as if one run had made them all: each
 * test's figures over all its runs again (repeat_finish: medians, spread;
 * drift, flags), now's warnings that prior does not hold added to its
 * own, and the setting "appended" (how many runs were added to the first
 * in all) counted up. prior keeps its header (when it started, label,
 * host). now's tests are left empty (result_free them). Returns 0, or
 * -ENOSPC (a test would have more than REPEAT_MAX runs: nothing changed)
 * or -ENOMEM.
 */
int result_append(struct run_result *prior, struct run_result *now);

#endif
