/* repeat.h - --repeat: a test's runs, their spread, and its figures over all runs. */
#ifndef DISKBENCH_REPEAT_H
#define DISKBENCH_REPEAT_H

#include "result.h"

/* --repeat takes 1 .. REPEAT_MAX; repeat_add keeps at most that many runs. */
#define REPEAT_MAX 100

/* Above this IOPS coefficient of variation (stdev / mean over the runs) a
 * test's median is called unreliable: on a quiet machine runs of the same
 * test differ by a few percent, so 10 % means something disturbed them. */
#define REPEAT_CV_WARN 0.10

/*
 * Median, mean, sample standard deviation (n - 1), cv = stdev / mean, min
 * and max of x[0..n): the median of an even count is the mean of the two middle
 * values; with n = 1 (or a mean of 0) stdev and cv are 0; n = 0 gives all
 * zeros. Sorts x in place.
 */
void repeat_stat(double *x, unsigned n, struct run_stat *out);

/*
 * Add one run of a test (a runner_run() result, result_finish()ed) to acc,
 * the test's result over its runs. The first run (acc->nruns == 0, acc
 * zeroed) is copied whole; a later one is merged into acc: ops, bytes,
 * runtime_ns, device bytes and errors add up, the latency histograms merge
 * (exactly), the first error stays the first one, run's stalls are added
 * with their run's index (those past RESULT_MAX_STALLS counted in
 * stalls_missed). Either way run->lat is
 * taken over (run->lat is set to NULL) and run's figures are appended to
 * acc->runs, its timeline moved into them (run's and acc's are left empty). Returns 0, or -ENOMEM / -ENOSPC (more than REPEAT_MAX runs),
 * in which case neither acc nor run changed.
 */
int repeat_add(struct test_result *acc, struct test_result *run);

/*
 * Add every run of more (a test of one or more runs: repeat_add's, or a
 * loaded result's) after acc's, as if repeat_add had added each in turn:
 * more's runs (their timelines too) and histogram (lat; a loaded result's
 * lat_sparse must be expanded into lat first, both sides) are taken over,
 * its counts added, its stalls and errors said with their index among
 * acc's runs; more's runs, lat and ranks are left empty (more's own
 * timeline stays more's). Both must have runs. Then repeat_finish(acc).
 * Returns 0, or -EINVAL (either has no run), -ENOSPC (more than REPEAT_MAX
 * runs in all) or -ENOMEM, in which case neither changed.
 */
int repeat_add_runs(struct test_result *acc, struct test_result *more);

/*
 * After the last repeat_add of a test: fill acc->summary and, with more
 * than one run, the figures over all runs: latency summary and cached
 * from the merged histogram and summed bytes (result_finish), CPU user/sys
 * percent and usec_per_op from the summed CPU time, ops and runtime, the
 * system calls summed (valid when every run's were), the busiest job's CPU
 * the highest of the runs', and
 * iops and bytes_per_sec = the MEDIAN of the runs (robust to one disturbed
 * pass; so iops is not ops / runtime_ns then). One run: only the summary.
 */
void repeat_finish(struct test_result *acc);

/* Does the spread of acc's runs make its median unreliable (more than one
 * run and IOPS cv above REPEAT_CV_WARN)? */
bool repeat_unreliable(const struct test_result *acc);

#endif
