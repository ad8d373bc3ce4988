/* bootstrap.c - percentile bootstrap intervals, seeded so that a report is reproducible. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bootstrap.h"
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
		for (unsigned i = 0; i < n; i++)
			draw[i] = x[wl_rng_below(&rng, n)];
		stats[r] = stat(draw, n);
	}
	qsort(stats, resamples, sizeof(*stats), cmp_double);
	*lo = quantile(stats, resamples, (1 - level) / 2);
	*hi = quantile(stats, resamples, (1 + level) / 2);
	free(draw);
	free(stats);
	return 0;
}
