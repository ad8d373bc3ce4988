/* analyze.c - a sweep's trials into medians, paired verdicts, drift and a recommendation. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interval.h"
#include "tune_result.h"

int tune_add_trial(struct tune_sweep *s, const struct tune_trial *t)
{
	struct tune_trial *n = realloc(s->trials, (s->ntrials + 1) * sizeof(*n));

	if (!n)
		return -ENOMEM;
	s->trials = n;
	s->trials[s->ntrials++] = *t;
	return 0;
}

/* m[b * nconfig + k] of one test and one metric (0: throughput, 1: p99),
 * and the baseline's runs of it in the order they ran into base. */
static void gather(const struct tune_sweep *s, unsigned test, int metric, double *m, double *base,
		   unsigned *nbase)
{
	*nbase = 0;
	for (unsigned i = 0; i < s->ntrials; i++) {
		const struct tune_trial *t = &s->trials[i];
		double v = metric ? (double)t->lat_p99_ns : t->bytes_per_sec;

		if (t->test != test)
			continue;
		/* a zero (nothing measured) must not make an infinite ratio */
		if (v <= 0)
			v = 1e-9;
		if (t->block != SWEEP_OUTSIDE)
			m[t->block * s->nconfig + t->config] = v;
		if (!t->config && *nbase < TUNE_DRIFT_MAX)
			base[(*nbase)++] = v;
	}
}

static double median_of(const double *m, unsigned nblocks, unsigned nconfig, unsigned k)
{
	double col[TUNE_MAX_BLOCKS];

	for (unsigned b = 0; b < nblocks && b < TUNE_MAX_BLOCKS; b++)
		col[b] = m[b * nconfig + k];
	return stats_median(col, nblocks);
}

unsigned tune_min_blocks(unsigned nconfig)
{
	return sweep_min_blocks(nconfig, TUNE_ALPHA);
}

/* "0", "0 and 128", "0, 128 and 512": the values k with pick[k] into buf. */
static const char *list_values(const struct tune_sweep *s, const bool *pick, char *buf,
			       size_t len)
{
	unsigned n = 0, total = 0;
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned k = 1; k < s->nconfig; k++)
		total += pick[k];
	for (unsigned k = 1; k < s->nconfig && used < len; k++) {
		if (!pick[k])
			continue;
		n++;
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
					 n == 1 ? "" : n == total ? " and " : ", ", s->configs[k]);
	}
	return buf;
}

/* "rand-read 4k qd1: throughput better 1.34x [1.15, 1.57]", the first
 * verdict of control k on test t, into buf; false when it has none there. */
static bool control_words(const struct tune_sweep *s, unsigned k, unsigned t, char *buf,
			  size_t len)
{
	const struct tune_cell *c = &s->cells[k][t];
	const struct sweep_verdict *v = c->thr.verdict ? &c->thr : c->p99.verdict ? &c->p99 : NULL;

	if (!v)
		return false;
	snprintf(buf, len, "%s: %s %s %.2fx [%.2f, %.2f]", s->tests[t], v == &c->thr ?
		 "throughput" : "p99", v == &c->thr ? (v->verdict > 0 ? "better" : "worse") :
		 (v->verdict < 0 ? "better" : "worse"), v->ratio, v->lo, v->hi);
	return true;
}

/* The randomization test over every value, test and metric of the sweep
 * (sweep_randomization): its simultaneous intervals replace Student's,
 * and a verdict needs the whole interval beyond the band and p < alpha. */
static int randomize(struct tune_sweep *s, const double *x, unsigned nblocks, double noise,
		     uint64_t seed)
{
	const unsigned nc = s->nconfig, nstat = 2 * s->ntests;
	double *padj = malloc((size_t)nc * nstat * sizeof(*padj));
	double *half = malloc((size_t)nc * nstat * sizeof(*half));
	int ret = -ENOMEM;

	if (!padj || !half)
		goto out;
	s->resamples = TUNE_RESAMPLES;
	ret = sweep_randomization(x, nblocks, nc, nstat, TUNE_RESAMPLES, seed, TUNE_ALPHA, padj,
				  half);
	for (unsigned k = 1; k < nc; k++) {
		for (unsigned t = 0; t < s->ntests; t++) {
			struct sweep_verdict *v[2] = { &s->cells[k][t].thr, &s->cells[k][t].p99 };

			for (unsigned j = 0; j < 2; j++) {
				double h = half[k * nstat + 2 * t + j];

				v[j]->level = 1 - TUNE_ALPHA;
				v[j]->p = ret ? NAN : padj[k * nstat + 2 * t + j];
				v[j]->lo = ret ? 0 : v[j]->ratio * exp(-h);
				v[j]->hi = ret ? INFINITY : v[j]->ratio * exp(h);
				/* NAN (no test) fails this too: nothing claimed */
				v[j]->verdict = !(v[j]->p < TUNE_ALPHA) ? 0 : v[j]->lo > 1 + noise ? 1 :
						v[j]->hi < 1 - noise ? -1 : 0;
			}
		}
	}
	ret = ret == -ENOMEM ? ret : 0;
out:
	free(padj);
	free(half);
	return ret;
}

/* The recommendation, or the reason there is none, from the verdicts. */
static void recommend(struct tune_sweep *s, unsigned nblocks)
{
	bool worse_any[TUNE_MAX_CONFIGS] = { false }, mixed[TUNE_MAX_CONFIGS] = { false };
	char words[256], worse_list[256], mixed_list[256];
	double best = 0, best_p99 = 0;
	unsigned nworse = 0, nmixed = 0;

	s->recommended = -1;
	s->vetoed = false;
	/* the control first: identical settings that differ mean the noise
	 * is beyond what this sweep can tell apart */
	for (unsigned k = 1; k < s->nconfig; k++) {
		if (!tune_is_control(s, k))
			continue;
		for (unsigned t = 0; t < s->ntests; t++) {
			if (!control_words(s, k, t, words, sizeof(words)))
				continue;
			s->vetoed = true;
			snprintf(s->reason, sizeof(s->reason), "the control (%s again) differs from %s "
				 "(the current value) on %s: identical settings must not differ, so "
				 "this machine's noise is beyond what %u blocks can tell apart; nothing "
				 "is recommended: run tune again on a quieter machine, or with more "
				 "--blocks than %u", s->configs[0], s->configs[0], words, nblocks,
				 nblocks);
			return;
		}
	}
	for (unsigned k = 1; k < s->nconfig; k++) {
		bool better = false, worse = false;
		double logsum = 0, logp99 = 0, g, g99;

		if (tune_is_control(s, k))
			continue;
		for (unsigned t = 0; t < s->ntests; t++) {
			const struct tune_cell *c = &s->cells[k][t];

			better |= c->thr.verdict > 0 || c->p99.verdict < 0;
			worse |= c->thr.verdict < 0 || c->p99.verdict > 0;
			logsum += log(c->thr.ratio);
			logp99 += log(c->p99.ratio);
		}
		g = exp(logsum / s->ntests);
		g99 = exp(logp99 / s->ntests);
		worse_any[k] = worse && !better;
		mixed[k] = worse && better;
		nworse += worse_any[k];
		nmixed += mixed[k];
		if (better && !worse && (g > best || (g == best && g99 < best_p99))) {
			best = g;
			best_p99 = g99;
			s->recommended = (int)k;
		}
	}
	if (s->recommended >= 0) {
		snprintf(s->reason, sizeof(s->reason), "%s: better than %s (the current value) on "
			 "at least one test (throughput or p99) and worse on none; throughput %.2fx, "
			 "p99 %.2fx over all tests (geometric means)", s->configs[s->recommended],
			 s->configs[0], best, best_p99);
		return;
	}
	list_values(s, worse_any, worse_list, sizeof(worse_list));
	list_values(s, mixed, mixed_list, sizeof(mixed_list));
	if (nworse && nmixed)
		snprintf(s->reason, sizeof(s->reason), "keep %s: %s %s worse; %s %s better on one "
			 "test but worse on another; no value is better", s->configs[0], worse_list,
			 nworse > 1 ? "are" : "is", mixed_list, nmixed > 1 ? "are" : "is");
	else if (nworse)
		snprintf(s->reason, sizeof(s->reason), "keep %s: %s %s worse; no value is better",
			 s->configs[0], worse_list, nworse > 1 ? "are" : "is");
	else if (nmixed)
		snprintf(s->reason, sizeof(s->reason), "keep %s: %s %s better on one test but worse "
			 "on another; no value is better on some test and worse on none",
			 s->configs[0], mixed_list, nmixed > 1 ? "are" : "is");
	else
		snprintf(s->reason, sizeof(s->reason), "no significant difference: keep %s (no "
			 "value is better or worse beyond the noise on any test%s)", s->configs[0],
			 s->control >= 0 ? ", and the control agrees with it" : "");
}

int tune_analyze(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed)
{
	const unsigned nc = s->nconfig;
	double *m, *p, *x, base[TUNE_DRIFT_MAX];
	unsigned nbase, nstat = 2 * s->ntests;
	char drift_words[256] = "";
	unsigned used = 0;
	int ret;

	s->analyzed = false;
	s->recommended = -1;
	s->vetoed = false;
	s->control = -1;
	for (unsigned k = 1; k < nc && s->control < 0; k++)
		if (tune_is_control(s, k))
			s->control = (int)k;
	if (s->ntrials != s->planned || !nblocks || nblocks > TUNE_MAX_BLOCKS || nc < 2) {
		snprintf(s->reason, sizeof(s->reason), "%s", nc < 2 ? "nothing to compare the current "
			 "setting with" : "the sweep did not finish: nothing is claimed");
		return -EINVAL;
	}
	/* a failed trial measured no setting: its block has no pair, and a
	 * verdict from the rest would rest on the trials that happened to
	 * work (tune_trial_judge) */
	s->ninvalid = 0;
	for (unsigned i = 0; i < s->ntrials; i++)
		s->ninvalid += s->trials[i].invalid[0] != '\0';
	if (s->ninvalid) {
		snprintf(s->reason, sizeof(s->reason), "%u of %u trials failed and are left out: "
			 "no verdict from the rest, nothing is claimed", s->ninvalid, s->ntrials);
		return -EINVAL;
	}
	m = calloc((size_t)nblocks * nc, sizeof(*m));
	p = calloc((size_t)nblocks * nc, sizeof(*p));
	x = calloc((size_t)nblocks * nc * nstat, sizeof(*x));
	if (!m || !p || !x) {
		free(m);
		free(p);
		free(x);
		return -ENOMEM;
	}
	/* every value against the current one, on every test, twice:
	 * throughput and p99 */
	s->ncompared = 2 * (nc - 1) * s->ntests;
	s->drifted = false;
	for (unsigned t = 0; t < s->ntests; t++) {
		gather(s, t, 1, p, base, &nbase);
		gather(s, t, 0, m, base, &nbase);
		for (unsigned i = 0; i < nblocks * nc; i++) {
			x[i * nstat + 2 * t] = log(m[i]);
			x[i * nstat + 2 * t + 1] = log(p[i]);
		}
		if (sweep_drifted(base, nbase, noise, &s->drift[t])) {
			s->drifted = true;
			if (used < sizeof(drift_words))
				used += (size_t)snprintf(drift_words + used, sizeof(drift_words) - used,
							 "%s%s %+.0f %%", used ? ", " : "",
							 s->tests[t], 100 * s->drift[t]);
		}
		for (unsigned k = 0; k < nc; k++) {
			struct tune_cell *c = &s->cells[k][t];

			c->bytes_per_sec = median_of(m, nblocks, nc, k);
			c->lat_p99_ns = (uint64_t)median_of(p, nblocks, nc, k);
			c->iops = 0;
			if (k) {
				sweep_compare(m, nblocks, nc, k, noise, s->ncompared, seed + t, &c->thr);
				sweep_compare(p, nblocks, nc, k, noise, s->ncompared, seed + t, &c->p99);
			}
		}
	}
	ret = randomize(s, x, nblocks, noise, seed);
	free(x);
	/* IOPS medians from the trials' own figures */
	for (unsigned k = 0; k < nc; k++) {
		for (unsigned t = 0; t < s->ntests; t++) {
			double col[TUNE_MAX_BLOCKS];
			unsigned n = 0;

			for (unsigned i = 0; i < s->ntrials; i++)
				if (s->trials[i].config == k && s->trials[i].test == t &&
				    s->trials[i].block != SWEEP_OUTSIDE && n < TUNE_MAX_BLOCKS)
					col[n++] = s->trials[i].iops;
			s->cells[k][t].iops = stats_median(col, n);
		}
	}
	free(m);
	free(p);
	if (ret)
		return ret;
	s->analyzed = true;

	if (s->drifted) {
		snprintf(s->reason, sizeof(s->reason), "the device drifted during the sweep (%s "
			 "from the first to the second half of the current setting's runs): nothing is "
			 "recommended; run tune again on a quiet machine", drift_words);
		return 0;
	}
	recommend(s, nblocks);
	return 0;
}

int tune_warn(struct tune_result *r, const char *fmt, ...)
{
	char **w, *msg = NULL;
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	if (n < 0)
		return -ENOMEM;
	w = realloc(r->warnings, (r->nwarnings + 1) * sizeof(*w));
	if (!w) {
		free(msg);
		return -ENOMEM;
	}
	r->warnings = w;
	r->warnings[r->nwarnings++] = msg;
	return 0;
}

void tune_result_free(struct tune_result *r)
{
	for (unsigned i = 0; i < r->nsweeps; i++) {
		free(r->sweeps[i].trials);
		r->sweeps[i].trials = NULL;
	}
	for (unsigned i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	r->warnings = NULL;
	r->nwarnings = 0;
}
