/* sweep.c - a randomised complete block design over configurations, and paired verdicts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "bootstrap.h"
#include "sweep.h"
#include "workload.h"

#define RESAMPLES 10000

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
	for (unsigned b = 0; b < nblocks; b++)
		r[b] = m[b * nconfig + c] / m[b * nconfig];
	v->ratio = stats_geomean(r, nblocks);
	if (!stats_bootstrap(r, nblocks, stats_geomean, v->level, RESAMPLES, seed ^ c, &v->lo,
			     &v->hi))
		v->verdict = v->lo > 1 + noise ? 1 : v->hi < 1 - noise ? -1 : 0;
	free(r);
}

bool sweep_drifted(double first, double last, const double *m, unsigned nblocks,
		   unsigned nconfig, double noise, double *change)
{
	double mean = 0, var = 0, cv;

	*change = first > 0 ? last / first - 1 : 0;
	for (unsigned b = 0; b < nblocks; b++)
		mean += m[b * nconfig];
	mean /= nblocks ? nblocks : 1;
	for (unsigned b = 0; b < nblocks; b++)
		var += (m[b * nconfig] - mean) * (m[b * nconfig] - mean);
	cv = nblocks > 1 && mean > 0 ? sqrt(var / (nblocks - 1)) / mean : 0;
	return fabs(*change) > noise && fabs(*change) > 2.5 * cv;
}
