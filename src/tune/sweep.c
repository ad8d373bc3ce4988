/* sweep.c - a randomised complete block design over configurations, and paired verdicts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "interval.h"
#include "sweep.h"
#include "workload.h"

int sweep_design(struct sweep_design *d, unsigned nconfig, unsigned nblocks, uint64_t seed)
{
	struct wl_rng rng;
	unsigned t = 0;

	*d = (struct sweep_design){ .nconfig = nconfig, .nblocks = nblocks };
	if (!nconfig || !nblocks)
		return -EINVAL;
	d->ntrials = nblocks * nconfig + 2;
	d->config = malloc(d->ntrials * sizeof(*d->config));
	d->block = malloc(d->ntrials * sizeof(*d->block));
	if (!d->config || !d->block) {
		sweep_design_free(d);
		return -ENOMEM;
	}
	wl_rng_seed(&rng, seed);
	d->config[t] = 0;
	d->block[t++] = SWEEP_OUTSIDE;
	for (unsigned b = 0; b < nblocks; b++) {
		uint32_t *order = d->config + t;

		for (unsigned k = 0; k < nconfig; k++) {
			order[k] = k;
			d->block[t + k] = b;
		}
		wl_permute(order, nconfig, &rng);
		t += nconfig;
	}
	d->config[t] = 0;
	d->block[t] = SWEEP_OUTSIDE;
	return 0;
}

void sweep_design_free(struct sweep_design *d)
{
	free(d->config);
	free(d->block);
	d->config = d->block = NULL;
}

void sweep_compare(const double *m, unsigned nblocks, unsigned nconfig, unsigned c,
		   double noise, unsigned ncompared, uint64_t seed, struct sweep_verdict *v)
{
	double *r = malloc((nblocks ? nblocks : 1) * sizeof(*r));

	v->level = 1 - 0.05 / (ncompared ? ncompared : 1);
	v->ratio = NAN;
	v->lo = 0;
	v->hi = INFINITY;	/* out of memory: claims nothing */
	v->verdict = 0;
	if (!r)
		return;
	/* the paired ratios, on a log scale: a ratio and its inverse are the
	 * same distance from 1 */
	for (unsigned b = 0; b < nblocks; b++)
		r[b] = log(m[b * nconfig + c] / m[b * nconfig]);
	stats_t_interval(r, nblocks, v->level, &v->ratio, &v->lo, &v->hi);
	v->ratio = exp(v->ratio);
	v->lo = exp(v->lo);
	v->hi = exp(v->hi);
	v->verdict = v->lo > 1 + noise ? 1 : v->hi < 1 - noise ? -1 : 0;
	(void)seed;
	free(r);
}

/* mean and sample variance of x[0..n) */
static void moments(const double *x, unsigned n, double *mean, double *var)
{
	double m = 0, ss = 0;

	for (unsigned i = 0; i < n; i++)
		m += x[i];
	m /= n;
	for (unsigned i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	*mean = m;
	*var = n > 1 ? ss / (n - 1) : 0;
}

bool sweep_drifted(const double *base, unsigned n, double noise, double *change)
{
	double l[TUNE_DRIFT_MAX], m1, m2, v1, v2, se, t, df, a, b;
	unsigned h = n / 2, k;

	*change = 0;
	if (n < 4 || n > TUNE_DRIFT_MAX)
		return false;
	for (k = 0; k < n; k++)
		l[k] = log(base[k] > 0 ? base[k] : 1e-9);
	/* the earlier half against the later one (the middle run, if any,
	 * in neither), on a log scale */
	moments(l, h, &m1, &v1);
	moments(l + n - h, h, &m2, &v2);
	*change = exp(m2 - m1) - 1;
	if (fabs(*change) <= noise)
		return false;
	a = v1 / h;
	b = v2 / h;
	se = sqrt(a + b);
	if (se == 0)
		return true;	/* two flat halves a band apart */
	t = (m2 - m1) / se;
	/* Welch's degrees of freedom */
	df = (a + b) * (a + b) / (a * a / (h - 1) + b * b / (h - 1));
	return fabs(t) > stats_t_quantile(0.995, df < 1 ? 1 : df);
}
