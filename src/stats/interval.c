/* interval.c - confidence intervals: Student's t for few samples, the seeded percentile
 * bootstrap, the exact rank interval of a ratio of two samples. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"
#include "workload.h"

double stats_geomean(const double *x, unsigned n)
{
	double s = 0;

	if (!n)
		return 0;
	for (unsigned i = 0; i < n; i++)
		s += log(x[i]);
	return exp(s / n);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double stats_median(const double *x, unsigned n)
{
	double *s, m;

	if (!n)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, x, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_double);
	m = n % 2 ? s[n / 2] : (s[n / 2 - 1] + s[n / 2]) / 2;
	free(s);
	return m;
}

/* The q-quantile of sorted s[0..n), interpolated between neighbours. */
static double quantile(const double *s, unsigned n, double q)
{
	double pos = q * (n - 1);
	unsigned i = (unsigned)pos;

	if (i + 1 >= n)
		return s[n - 1];
	return s[i] + (pos - i) * (s[i + 1] - s[i]);
}

/* One resample: n draws of x[0..n) with replacement into draw. */
static void resample(struct wl_rng *rng, const double *x, unsigned n, double *draw)
{
	for (unsigned i = 0; i < n; i++)
		draw[i] = x[wl_rng_below(rng, n)];
}

/* The level interval of the sorted stats[0..n) into *lo, *hi. */
static void percentiles(double *stats, unsigned n, double level, double *lo, double *hi)
{
	qsort(stats, n, sizeof(*stats), cmp_double);
	*lo = quantile(stats, n, (1 - level) / 2);
	*hi = quantile(stats, n, (1 + level) / 2);
}

int stats_bootstrap(const double *x, unsigned n, stats_fn stat, double level, unsigned resamples,
		    uint64_t seed, double *lo, double *hi)
{
	struct wl_rng rng;
	double *draw, *stats;

	if (n <= 1 || !resamples) {
		*lo = *hi = n ? stat(x, n) : 0;
		return 0;
	}
	draw = malloc(n * sizeof(*draw));
	stats = malloc(resamples * sizeof(*stats));
	if (!draw || !stats) {
		free(draw);
		free(stats);
		return -ENOMEM;
	}
	wl_rng_seed(&rng, seed);
	for (unsigned r = 0; r < resamples; r++) {
		resample(&rng, x, n, draw);
		stats[r] = stat(draw, n);
	}
	percentiles(stats, resamples, level, lo, hi);
	free(draw);
	free(stats);
	return 0;
}

/*
 * U, the pairs (x from a sample of n, y from one of m) with x > y, over the
 * C(n + m, n) equally likely orders of the two samples when they are alike:
 * c[u] ways to get U = u, u = 0..n m. They are the coefficients of the
 * Gaussian binomial [n + m, n]_q = prod over i = 1..n of (1 - q^(m + i)) /
 * (1 - q^i), multiplied in factor by factor, each step a Gaussian binomial
 * again (its coefficients no larger than the result's), which keeps the
 * doubles' cancellation small.
 */
static void rank_counts(unsigned n, unsigned m, double *c)
{
	unsigned top = n * m, i, u;

	memset(c, 0, (top + 1) * sizeof(*c));
	c[0] = 1;
	for (i = 1; i <= n; i++) {
		for (u = i; u <= top; u++)	/* times 1 / (1 - q^i) */
			c[u] += c[u - i];
		for (u = top; u >= m + i; u--)	/* times 1 - q^(m + i) */
			c[u] -= c[u - m - i];
	}
}

int stats_rank_ratio(const double *a, unsigned na, const double *b, unsigned nb, double level,
		     double *lo, double *hi, double *held)
{
	unsigned top, k, i, j, n = 0;
	double *d, *c, total = 0, tail;

	*lo = *hi = NAN;
	*held = 0;
	if (!na || !nb || na > STATS_RANK_MAX || nb > STATS_RANK_MAX)
		return -EINVAL;
	top = na * nb;
	d = malloc(top * sizeof(*d));
	c = malloc((top + 1) * sizeof(*c));
	if (!d || !c) {
		free(d);
		free(c);
		return -ENOMEM;
	}
	for (i = 0; i < na; i++)
		for (j = 0; j < nb && a[i] > 0 && isfinite(a[i]) && isfinite(b[j]); j++)
			d[n++] = b[j] / a[i];
	if (n < top) {
		free(d);
		free(c);
		return -EDOM;
	}
	qsort(d, top, sizeof(*d), cmp_double);
	rank_counts(na, nb, c);
	for (i = 0; i <= top; i++)
		total += c[i];
	/* tail = P(U <= k - 1); the interval [d(k), d(top + 1 - k)] misses
	 * with 2 tail: grow k while it still holds at level */
	tail = c[0] / total;
	for (k = 1; 2 * (k + 1) <= top + 1 && 1 - 2 * (tail + c[k] / total) >= level; k++)
		tail += c[k] / total;
	*lo = d[k - 1];
	*hi = d[top - k];
	*held = fmax(0, 1 - 2 * tail);
	free(d);
	free(c);
	return 0;
}

/* ln Beta(a, b) */
static double log_beta(double a, double b)
{
	return lgamma(a) + lgamma(b) - lgamma(a + b);
}

/* The continued fraction of the incomplete beta function (modified Lentz),
 * for x < (a + 1) / (a + b + 2) where it converges fast. */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h, num, del;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (int m = 1; m <= 300; m++) {
		/* the even step, then the odd one */
		num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		d = fabs(d) < tiny ? 1 / tiny : 1 / d;
		c = 1 + num / c;
		if (fabs(c) < tiny)
			c = tiny;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b). */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(a * log(x) + b * log1p(-x) - log_beta(a, b));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - exp(b * log1p(-x) + a * log(x) - log_beta(a, b)) * beta_cf(b, a, 1 - x) / b;
}

/* P(T <= t) for Student's t with df degrees of freedom. */
static double t_cdf(double t, double df)
{
	double tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));

	return t >= 0 ? 1 - tail : tail;
}

double stats_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6, mid;

	if (p <= 0 || p >= 1 || df < 1)
		return NAN;
	for (int i = 0; i < 200 && hi - lo > 1e-10 * (1 + fabs(lo)); i++) {
		mid = (lo + hi) / 2;
		if (t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

void stats_t_interval(const double *x, unsigned n, double level, double *mean, double *lo,
		      double *hi)
{
	double m = 0, ss = 0, half;

	for (unsigned i = 0; i < n; i++)
		m += x[i];
	m = n ? m / n : 0;
	*mean = m;
	if (n < 2) {
		*lo = *hi = m;
		return;
	}
	for (unsigned i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	half = stats_t_quantile(1 - (1 - level) / 2, n - 1) * sqrt(ss / (n - 1) / n);
	*lo = m - half;
	*hi = m + half;
}
