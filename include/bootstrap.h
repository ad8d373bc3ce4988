/* bootstrap.h - percentile bootstrap intervals, seeded so that a report is reproducible. */
#ifndef DISKBENCH_BOOTSTRAP_H
#define DISKBENCH_BOOTSTRAP_H

#include <stdint.h>

/* A statistic of x[0..n). */
typedef double (*stats_fn)(const double *x, unsigned n);

/* The geometric mean of x[0..n) (all > 0); 0 when n is 0. */
double stats_geomean(const double *x, unsigned n);

/* The median of x[0..n) (x is not changed); 0 when n is 0. */
double stats_median(const double *x, unsigned n);

/*
 * The percentile bootstrap interval of stat(x): resamples draws of n values
 * of x with replacement (xoshiro256** seeded with seed), the stat of each,
 * and the (1 - level) / 2 and (1 + level) / 2 quantiles of those into *lo
 * and *hi. n = 1 gives [x0, x0]. Returns 0 or -ENOMEM.
 */
int stats_bootstrap(const double *x, unsigned n, stats_fn stat, double level, unsigned resamples,
		    uint64_t seed, double *lo, double *hi);

#endif
