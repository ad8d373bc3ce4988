/* interval.h - confidence intervals: Student's t for few samples, the seeded percentile
 * bootstrap, the exact rank interval of a ratio of two samples. */
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

#define STATS_RANK_MAX 100	/* values per sample stats_rank_ratio takes */

/*
 * The exact rank interval of the ratio of b[0..nb) to a[0..na), two
 * independent samples of values > 0 (Hodges and Lehmann's, from the
 * Mann-Whitney statistic U): of the na nb ratios b[j] / a[i] sorted, the
 * k-th smallest and the k-th largest into *lo and *hi, k the largest whose
 * interval misses with at most 1 - level, 2 P(U <= k - 1), into *held the
 * chance it covers, 1 - 2 P(U <= k - 1). It needs no distribution: when
 * the two samples come from one (bimodal, bursty, heavy-tailed, any), the
 * interval leaves out 1 with at most that chance. Few values cannot reach
 * every level: when even the range (k = 1, the smallest ratio to the
 * largest) covers less than level, the range is given and *held says how
 * much it covers (5 and 5 values: 1 - 2 / 252). Returns 0, -EINVAL (an
 * empty sample or one of more than STATS_RANK_MAX), -ENOMEM, or -EDOM (a
 * value of a not > 0, or one not finite); *lo = *hi = NaN, *held = 0 then.
 */
int stats_rank_ratio(const double *a, unsigned na, const double *b, unsigned nb, double level,
		     double *lo, double *hi, double *held);

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
