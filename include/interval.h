/* interval.h - confidence intervals: Student's t for few samples, the seeded percentile bootstrap. */
#ifndef DISKBENCH_INTERVAL_H
#define DISKBENCH_INTERVAL_H

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

/*
 * The percentile bootstrap interval of stat(b) / stat(a) for two
 * independent samples a[0..na) and b[0..nb): each resample draws na values
 * of a and nb of b with replacement (seeded: reproducible). Returns 0,
 * -EINVAL (an empty sample, no resamples), -ENOMEM, or -EDOM when a
 * resample's stat(a) is not > 0 (no ratio exists); *lo = *hi = NaN then.
 */
int stats_bootstrap_ratio(const double *a, unsigned na, const double *b, unsigned nb,
			  stats_fn stat, double level, unsigned resamples, uint64_t seed,
			  double *lo, double *hi);

/* The p-quantile of Student's t distribution with df degrees of freedom
 * (0 < p < 1, df >= 1), to 1e-10: from the regularized incomplete beta
 * function by bisection. */
double stats_t_quantile(double p, double df);

/*
 * The interval of the mean of x[0..n) at level from Student's t (n >= 2;
 * n = 1 gives [x0, x0]): mean -+ t(1 - (1 - level) / 2, n - 1) s / sqrt(n).
 * Where samples are few (the blocks of a sweep) this is the honest one: a
 * percentile bootstrap of 5 values cannot reach beyond their min and max,
 * and claims more confidence than 5 values hold.
 */
void stats_t_interval(const double *x, unsigned n, double level, double *mean, double *lo,
		      double *hi);

#endif
