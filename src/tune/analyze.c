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

int tune_analyze(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed)
{
	const unsigned nc = s->nconfig;
	double *m, *p, base[TUNE_DRIFT_MAX], best = 0;
	unsigned nbase;
	char drift_words[256] = "";
	unsigned used = 0;

	s->analyzed = false;
	s->recommended = -1;
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
	if (!m || !p) {
		free(m);
		free(p);
		return -ENOMEM;
	}
	s->ncompared = (nc - 1) * s->ntests;
	s->drifted = false;
	for (unsigned t = 0; t < s->ntests; t++) {
		gather(s, t, 1, p, base, &nbase);
		gather(s, t, 0, m, base, &nbase);
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
	s->analyzed = true;

	if (s->drifted) {
		snprintf(s->reason, sizeof(s->reason), "the device drifted during the sweep (%s "
			 "from the first to the second half of the current setting's runs): nothing is "
			 "recommended; run tune again on a quiet machine", drift_words);
		return 0;
	}
	/* Better on a test and worse on none; a control (the current value
	 * again) shows the noise and is never the answer. */
	for (unsigned k = 1; k < nc; k++) {
		bool better = false, worse = false;
		double logsum = 0, g;

		if (!strcmp(s->configs[k], s->configs[0]))
			continue;
		for (unsigned t = 0; t < s->ntests; t++) {
			better |= s->cells[k][t].thr.verdict > 0;
			worse |= s->cells[k][t].thr.verdict < 0;
			logsum += log(s->cells[k][t].thr.ratio);
		}
		g = exp(logsum / s->ntests);
		if (better && !worse && g > best) {
			best = g;
			s->recommended = (int)k;
		}
	}
	if (s->recommended < 0)
		snprintf(s->reason, sizeof(s->reason), "no significant difference: keep %s (no "
			 "other value is better beyond the noise on a test without being worse on "
			 "another)", s->configs[0]);
	else
		snprintf(s->reason, sizeof(s->reason), "%s: better than %s (the current value) on "
			 "at least one test and worse on none; %.2fx over all tests (geometric mean)",
			 s->configs[s->recommended], s->configs[0], best);
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
