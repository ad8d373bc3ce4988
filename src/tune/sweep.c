/* sweep.c - a randomised complete block design over configurations, and paired verdicts. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "interval.h"
#include "sweep.h"
#include "workload.h"

/* the largest design sweep_randomization takes */
#define TUNE_MAX_CONFIGS_SWEEP 64
#define SWEEP_MAX_BLOCKS 1000

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
	v->p = NAN;
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

double sweep_min_p(unsigned nconfig, unsigned nblocks)
{
	double logf = lgamma((double)nconfig + 1);

	return 2 * exp(-logf * nblocks);
}

double sweep_min_p_one(unsigned nconfig, unsigned nblocks)
{
	/* one value far from the rest: every relabelling that puts its
	 * figures under one label in every block (any of the nconfig) has
	 * as large a largest statistic, nconfig^(1 - nblocks) of them */
	return nconfig < 2 ? 1 : exp((1 - (double)nblocks) * log((double)nconfig));
}

unsigned sweep_min_blocks(unsigned nconfig, double alpha)
{
	unsigned n = 2;	/* one block has no spread to judge by */

	if (nconfig < 2)
		return 0;
	while (sweep_min_p(nconfig, n) > alpha && n < 1000)
		n++;
	return n;
}

/* The interim looks of a sweep of nconfig values and nmax blocks that
 * can find anything at level a each, given that there are m of them. */
static unsigned interim_looks(unsigned nconfig, unsigned nmax, double alpha, unsigned *first)
{
	/* the level of each depends on how many there are: the largest
	 * count whose looks can all find something */
	for (unsigned m = nmax > SWEEP_FIRST_LOOK ? nmax - SWEEP_FIRST_LOOK : 0; m > 0; m--) {
		double a = alpha * SWEEP_INTERIM / m;

		*first = nmax - m;
		if (sweep_min_p_one(nconfig, *first) <= a)
			return m;
	}
	*first = nmax;
	return 0;
}

double sweep_look_alpha(unsigned nconfig, unsigned n, unsigned nmax, double alpha)
{
	unsigned first, m = interim_looks(nconfig, nmax, alpha, &first);

	if (n == nmax)
		return m ? alpha * (1 - SWEEP_INTERIM) : alpha;
	if (n < first || n > nmax)
		return 0;
	return alpha * SWEEP_INTERIM / m;
}

/* The statistics of the values in set[0..nset) (set[0] the baseline),
 * with perm(a) = set[idx[b * nset + a]] in block b (idx NULL: the labels
 * as they ran): d_b = x[perm(a)] - x[perm(0)], and t[a * nstat + j] =
 * |mean d| / se, se = s_j sqrt(2 / nblocks), s_j the residual spread of
 * statistic j in the two-way layout blocks x values (block and value
 * effects removed, (nblocks - 1)(nset - 1) degrees of freedom), pooled
 * over the values: a paired t whose spread is learnt from every value,
 * not from one value's few blocks (on 3 blocks that one has 2 degrees of
 * freedom, and the relabellings' largest t is then huge). The
 * relabellings give its distribution, not Student's. Its se into se_out
 * (may be NULL). Returns the largest. */
static double step_stats(const double *x, unsigned nblocks, unsigned nconfig, unsigned nstat,
			 const unsigned *set, unsigned nset, const uint32_t *idx, double *t,
			 double *se_out)
{
	double most = 0, colsum[TUNE_MAX_CONFIGS_SWEEP], rowsum[SWEEP_MAX_BLOCKS];
	const unsigned df = (nblocks - 1) * (nset - 1);

	for (unsigned j = 0; j < nstat; j++) {
		double grand = 0, ss = 0, se;

#define X(b, a) x[((b) * nconfig + set[idx ? idx[(b) * nset + (a)] : (a)]) * nstat + j]
		for (unsigned a = 0; a < nset; a++)
			colsum[a] = 0;
		for (unsigned b = 0; b < nblocks; b++) {
			rowsum[b] = 0;
			for (unsigned a = 0; a < nset; a++) {
				double v = X(b, a);

				rowsum[b] += v;
				colsum[a] += v;
				grand += v;
			}
		}
		for (unsigned b = 0; b < nblocks; b++) {
			for (unsigned a = 0; a < nset; a++) {
				double r = X(b, a) - rowsum[b] / nset - colsum[a] / nblocks +
					   grand / ((double)nblocks * nset);

				ss += r * r;
			}
		}
#undef X
		se = sqrt((ss > 0 ? ss : 0) / df * 2 / nblocks);
		/* identical figures in every block: a difference at all is
		 * the largest there can be */
		if (!(se > 1e-12))
			se = 1e-12;
		for (unsigned a = 1; a < nset; a++) {
			double v = fabs(colsum[a] - colsum[0]) / nblocks / se;

			if (t)
				t[a * nstat + j] = v;
			if (se_out)
				se_out[a * nstat + j] = se;
			if (v > most)
				most = v;
		}
	}
	return most;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int sweep_randomization(const double *x, unsigned nblocks, unsigned nconfig, unsigned nstat,
			unsigned resamples, uint64_t seed, double alpha, double *padj,
			double *half)
{
	unsigned *set = NULL, nset = nconfig;
	uint32_t *idx = NULL;
	double *t = NULL, *se = NULL, *most = NULL, floor_p = 0;
	struct wl_rng rng;
	int ret = -ENOMEM;

	for (unsigned i = 0; i < nconfig * nstat; i++) {
		padj[i] = 1;
		half[i] = INFINITY;
	}
	if (nblocks < 2 || nconfig < 2 || !nstat || !resamples || nconfig > TUNE_MAX_CONFIGS_SWEEP ||
	    nblocks > SWEEP_MAX_BLOCKS)
		return -EINVAL;
	set = malloc(nconfig * sizeof(*set));
	idx = malloc((size_t)nblocks * nconfig * sizeof(*idx));
	t = malloc((size_t)nconfig * nstat * sizeof(*t));
	se = malloc((size_t)nconfig * nstat * sizeof(*se));
	most = malloc(resamples * sizeof(*most));
	if (!set || !idx || !t || !se || !most)
		goto out;
	for (unsigned k = 0; k < nconfig; k++)
		set[k] = k;
	wl_rng_seed(&rng, seed);
	/* step down: the value that differs most is judged first, against
	 * relabellings among every value still in; if it differs it is left
	 * out and the rest judged again, else every value left is judged
	 * at this step */
	while (nset >= 2) {
		unsigned top = 1, q;
		double top_t = -1, p_top = 1, crit;
		bool last;

		step_stats(x, nblocks, nconfig, nstat, set, nset, NULL, t, se);
		for (unsigned a = 1; a < nset; a++)
			for (unsigned j = 0; j < nstat; j++)
				if (t[a * nstat + j] > top_t) {
					top_t = t[a * nstat + j];
					top = a;
				}
		for (unsigned r = 0; r < resamples; r++) {
			for (unsigned b = 0; b < nblocks; b++) {
				uint32_t *o = idx + b * nset;

				for (unsigned a = 0; a < nset; a++)
					o[a] = a;
				wl_permute(o, nset, &rng);
			}
			most[r] = step_stats(x, nblocks, nconfig, nstat, set, nset, idx, NULL, NULL);
		}
		qsort(most, resamples, sizeof(*most), cmp_double);
		/* the critical value: exceeded by the largest statistic in at
		 * most alpha of the labellings (the one that ran among them) */
		q = (unsigned)ceil((1 - alpha) * (resamples + 1));
		crit = q >= 1 && q <= resamples ? most[q - 1] : INFINITY;
		for (unsigned a = 1; a < nset; a++) {
			for (unsigned j = 0; j < nstat; j++) {
				/* a relabelling as extreme as what ran, to rounding */
				double obs = t[a * nstat + j] * (1 - 1e-9), p;
				unsigned lo = 0, hi = resamples;

				while (lo < hi) {	/* the first >= obs */
					unsigned mid = (lo + hi) / 2;

					if (most[mid] < obs)
						lo = mid + 1;
					else
						hi = mid;
				}
				p = (1.0 + resamples - lo) / (1.0 + resamples);
				/* step-down: never below the values judged before */
				padj[set[a] * nstat + j] = p > floor_p ? p : floor_p;
				half[set[a] * nstat + j] = crit * se[a * nstat + j];
				if (a == top && padj[set[a] * nstat + j] < p_top)
					p_top = padj[set[a] * nstat + j];
			}
		}
		last = !(p_top < alpha);
		if (last)
			break;
		floor_p = p_top;
		set[top] = set[--nset];
	}
	ret = 0;
out:
	free(set);
	free(idx);
	free(t);
	free(se);
	free(most);
	return ret;
}
