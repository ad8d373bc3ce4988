/* analyze.c - a sweep's trials into medians, paired verdicts, drift and a recommendation. */
#include <errno.h>
#include <limits.h>
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

/* The baseline's valid runs of test in the order they ran, into base
 * (the drift check: a failed run measured nothing). */
static void gather_base(const struct tune_sweep *s, unsigned test, int metric, double *base,
			unsigned *nbase)
{
	*nbase = 0;
	for (unsigned i = 0; i < s->ntrials && *nbase < TUNE_DRIFT_MAX; i++) {
		const struct tune_trial *t = &s->trials[i];
		double v = metric ? (double)t->lat_p99_ns : t->bytes_per_sec;

		if (t->test == test && !t->config && !t->invalid[0])
			base[(*nbase)++] = v > 0 ? v : 1e-9;
	}
}

/* The median of a metric (0: throughput, 1: p99, 2: IOPS) over value k's
 * valid trials of test in the blocks with in[b] (in NULL: every block). */
static double cell_median(const struct tune_sweep *s, unsigned k, unsigned test, int metric,
			  const bool *in)
{
	double col[TUNE_MAX_BLOCKS];
	unsigned n = 0;

	for (unsigned i = 0; i < s->ntrials && n < TUNE_MAX_BLOCKS; i++) {
		const struct tune_trial *t = &s->trials[i];

		if (t->config != k || t->test != test || t->block == SWEEP_OUTSIDE ||
		    t->block >= TUNE_MAX_BLOCKS || t->invalid[0] || (in && !in[t->block]))
			continue;
		col[n++] = metric == 2 ? t->iops : metric ? (double)t->lat_p99_ns :
			   t->bytes_per_sec;
	}
	return n ? stats_median(col, n) : 0;
}

/* ok[b * nconfig + k]: every test's trial of value k in block b is valid. */
static void valid_cells(const struct tune_sweep *s, unsigned nblocks, bool *ok)
{
	for (unsigned i = 0; i < nblocks * s->nconfig; i++)
		ok[i] = true;
	for (unsigned i = 0; i < s->ntrials; i++) {
		const struct tune_trial *t = &s->trials[i];

		if (t->invalid[0] && t->block < nblocks && t->config < s->nconfig)
			ok[t->block * s->nconfig + t->config] = false;
	}
}

/*
 * Which values are judged, and on which blocks. The randomization test
 * relabels the values within each block, so every block it uses must hold
 * a valid trial of every value it judges: it uses only the blocks complete
 * for the values judged (the baseline included). Those values' relative
 * order in such a block is as random as the whole block's was, so the
 * relabellings stay exact. A value whose trials (or the baseline's beside
 * them) failed in too many blocks is left without a verdict, the one
 * valid in the fewest blocks first (ties: the later value), until the
 * complete blocks are enough: need, at least tune_min_blocks(nconfig) and
 * half the blocks. Only which trials failed decides this, never what any
 * trial measured, so the test's level holds. Sets s->unjudged[] and
 * in[b] (a block used); returns how many blocks are used.
 */
static unsigned choose(struct tune_sweep *s, unsigned nblocks, const bool *ok, unsigned need,
		       bool *in)
{
	const unsigned nc = s->nconfig;

	for (;;) {
		unsigned nused = 0, worst = 0, worst_n = UINT_MAX;

		for (unsigned b = 0; b < nblocks; b++) {
			in[b] = true;
			for (unsigned k = 0; k < nc; k++)
				if (!s->unjudged[k] && !ok[b * nc + k])
					in[b] = false;
			nused += in[b];
		}
		if (nused >= need)
			return nused;
		for (unsigned k = 1; k < nc; k++) {
			unsigned n = 0;

			if (s->unjudged[k])
				continue;
			for (unsigned b = 0; b < nblocks; b++)
				n += ok[b * nc] && ok[b * nc + k];
			if (n <= worst_n) {
				worst_n = n;
				worst = k;
			}
		}
		if (!worst)
			return nused;
		s->unjudged[worst] = true;
	}
}

/* Why value k has no verdict, naming its failed trials and the
 * baseline's, into s->unjudged_why[k]. */
static void unjudged_words(struct tune_sweep *s, unsigned k, unsigned nblocks, const bool *ok,
			   unsigned need)
{
	char *buf = s->unjudged_why[k];
	const size_t len = sizeof(s->unjudged_why[k]);
	unsigned both = 0, listed = 0, more = 0;
	size_t used;

	for (unsigned b = 0; b < nblocks; b++)
		both += ok[b * s->nconfig] && ok[b * s->nconfig + k];
	used = (size_t)snprintf(buf, len, "%s: no verdict: its trials and those of %s (the "
				"current value) are valid together in %u of %u blocks, and a "
				"verdict needs %u blocks where every value judged has valid trials; "
				"failed:", s->configs[k], s->configs[0], both, nblocks, need);
	for (unsigned i = 0; i < s->ntrials && used < len; i++) {
		const struct tune_trial *t = &s->trials[i];

		if (!t->invalid[0] || (t->config != k && t->config) || t->block >= nblocks)
			continue;
		/* the first few by name, the rest counted: the JSON has them all */
		if (++listed > 6) {
			more++;
			continue;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s %s %s in block %u: %s",
					 listed > 1 ? ";" : "", s->configs[t->config],
					 s->tests[t->test], t->block + 1, t->invalid);
	}
	if (more && used < len)
		snprintf(buf + used, len - used, "; and %u more", more);
}

unsigned tune_min_blocks(unsigned nconfig)
{
	unsigned n = sweep_min_blocks(nconfig, TUNE_ALPHA);

	/* the final look of a budget of n blocks may have less than alpha
	 * (interim looks spent some): it must still be able to find one */
	while (n < 1000 && sweep_min_p(nconfig, n) > sweep_look_alpha(nconfig, n, n, TUNE_ALPHA))
		n++;
	return n;
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

/* v's interval and verdict from the randomization test (v->ratio set):
 * its adjusted p and log half-width h, or none when the test failed
 * (failed: no interval, p NaN, ~). A verdict needs p < alpha and the whole
 * interval beyond the noise band. */
static void randomized_verdict(struct sweep_verdict *v, bool failed, double p, double h,
			       double alpha, double noise)
{
	v->level = 1 - alpha;
	v->p = failed ? NAN : p;
	v->lo = failed ? 0 : v->ratio * exp(-h);
	v->hi = failed ? INFINITY : v->ratio * exp(h);
	/* NAN (no test) fails this too: nothing claimed */
	v->verdict = !(v->p < alpha) ? 0 : v->lo > 1 + noise ? 1 : v->hi < 1 - noise ? -1 : 0;
}

/* The randomization test over every value judged, test and metric of
 * the sweep (sweep_randomization): x holds the nk values kk[] (kk[0] = 0,
 * the baseline) over nused blocks; its simultaneous intervals replace
 * Student's, and a verdict needs the whole interval beyond the band and
 * p < alpha. */
static int randomize(struct tune_sweep *s, const double *x, unsigned nused, const unsigned *kk,
		     unsigned nk, double noise, uint64_t seed, double alpha)
{
	const unsigned nstat = 2 * s->ntests;
	double *padj = malloc((size_t)nk * nstat * sizeof(*padj));
	double *half = malloc((size_t)nk * nstat * sizeof(*half));
	int ret = -ENOMEM;

	if (!padj || !half)
		goto out;
	s->resamples = TUNE_RESAMPLES;
	ret = sweep_randomization(x, nused, nk, nstat, TUNE_RESAMPLES, seed, alpha, padj, half);
	for (unsigned a = 1; a < nk; a++) {
		for (unsigned t = 0; t < s->ntests; t++) {
			struct sweep_verdict *v[2] = { &s->cells[kk[a]][t].thr,
						       &s->cells[kk[a]][t].p99 };

			for (unsigned j = 0; j < 2; j++)
				randomized_verdict(v[j], ret, padj[a * nstat + 2 * t + j],
						   half[a * nstat + 2 * t + j], alpha, noise);
		}
	}
	ret = ret == -ENOMEM ? ret : 0;
out:
	free(padj);
	free(half);
	return ret;
}

/* The recommendation, or the reason there is none, from the verdicts
 * on nused of the sweep's nblocks blocks. */
static void recommend(struct tune_sweep *s, unsigned nused, unsigned nblocks)
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
		if (s->unjudged[k]) {	/* no check of the noise: nothing claimed */
			snprintf(s->reason, sizeof(s->reason), "the control (%s again) has no "
				 "verdict (its trials failed in too many blocks), so this machine's "
				 "noise is not checked; nothing is recommended: run tune again",
				 s->configs[0]);
			return;
		}
		for (unsigned t = 0; t < s->ntests; t++) {
			if (!control_words(s, k, t, words, sizeof(words)))
				continue;
			s->vetoed = true;
			snprintf(s->reason, sizeof(s->reason), "the control (%s again) differs from %s "
				 "(the current value) on %s: identical settings must not differ, so "
				 "this machine's noise is beyond what %u blocks can tell apart; nothing "
				 "is recommended: run tune again on a quieter machine, or with more "
				 "--blocks than %u", s->configs[0], s->configs[0], words, nused,
				 nblocks);
			return;
		}
	}
	for (unsigned k = 1; k < s->nconfig; k++) {
		bool better = false, worse = false;
		double logsum = 0, logp99 = 0, g, g99;

		if (tune_is_control(s, k) || s->unjudged[k])
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

/* "; 1 verdict against 2560 is not claimed: the control (2560 again) did
 * not bear it out (128 on rand-read 4k qd32: throughput R against 2560,
 * R' [lo, hi] against the control)", the first such, at the end of
 * s->reason. */
static void note_dropped(struct tune_sweep *s)
{
	size_t used = strlen(s->reason);

	if (!s->ndropped || used >= sizeof(s->reason))
		return;
	for (unsigned k = 1; k < s->nconfig; k++) {
		for (unsigned t = 0; t < s->ntests; t++) {
			const struct tune_cell *c = &s->cells[k][t];
			bool thr = c->thr_dropped;
			const struct sweep_verdict *b = thr ? &c->thr : &c->p99;
			const struct sweep_verdict *v = thr ? &c->thr_ctl : &c->p99_ctl;

			if (!c->thr_dropped && !c->p99_dropped)
				continue;
			snprintf(s->reason + used, sizeof(s->reason) - used, "; %u verdict%s against "
				 "%s %s not claimed: the control (%s again) did not bear %s out (%s on "
				 "%s: %s %.2fx against %s, %.2fx [%.2f, %.2f] against the control)",
				 s->ndropped, s->ndropped > 1 ? "s" : "", s->configs[0],
				 s->ndropped > 1 ? "are" : "is", s->configs[0],
				 s->ndropped > 1 ? "them" : "it", s->configs[k], s->tests[t],
				 thr ? "throughput" : "p99", b->ratio, s->configs[0], v->ratio, v->lo,
				 v->hi);
			return;
		}
	}
}

/* "; no verdict for 128 and 256 (trials failed in too many blocks)" at
 * the end of s->reason, when some value has none. */
static void note_unjudged(struct tune_sweep *s)
{
	char list[256];
	unsigned n = 0;
	size_t used = strlen(s->reason);

	for (unsigned k = 1; k < s->nconfig; k++)
		n += s->unjudged[k];
	if (!n || used >= sizeof(s->reason))
		return;
	list_values(s, s->unjudged, list, sizeof(list));
	snprintf(s->reason + used, sizeof(s->reason) - used, "; no verdict for %s (trials failed "
		 "in too many blocks)", list);
}

/* The intervals of values judged that reach across an edge of the band:
 * neither a verdict nor wholly within it. */
static unsigned count_unsettled(const struct tune_sweep *s, double noise)
{
	unsigned n = 0;

	for (unsigned k = 1; k < s->nconfig; k++) {
		for (unsigned t = 0; t < s->ntests && !s->unjudged[k]; t++) {
			const struct sweep_verdict *v[2] = { &s->cells[k][t].thr, &s->cells[k][t].p99 };

			for (unsigned j = 0; j < 2; j++)
				n += !v[j]->verdict && !(v[j]->lo >= 1 - noise && v[j]->hi <= 1 + noise);
		}
	}
	return n;
}

/* "; 5 blocks (the budget, --blocks) settled not every verdict ..." at
 * the end of s->reason, when nothing is recommended and some are not. */
static void note_unsettled(struct tune_sweep *s, unsigned nblocks)
{
	size_t used = strlen(s->reason);

	if (s->recommended >= 0 || s->vetoed || !s->unsettled || used >= sizeof(s->reason))
		return;
	snprintf(s->reason + used, sizeof(s->reason) - used, "; within its budget of %u blocks "
		 "(--blocks) not every verdict is settled (%u interval%s reach%s across an edge of "
		 "the noise band), so the current settings stay; more --blocks can settle them",
		 nblocks, s->unsettled, s->unsettled == 1 ? "" : "s", s->unsettled == 1 ? "es" : "");
}

static int analyze(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed,
		   bool final);

int tune_analyze(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed)
{
	return analyze(s, nblocks, noise, seed, true);
}

bool tune_look(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed)
{
	if (nblocks >= s->max_blocks ||
	    !sweep_look_alpha(s->nconfig, nblocks, s->max_blocks, TUNE_ALPHA) ||
	    analyze(s, nblocks, noise, seed, false))
		return false;
	if (s->vetoed)
		return true;
	for (unsigned k = 1; k < s->nconfig; k++)
		if (s->unjudged[k])
			return false;
	return !s->unsettled;
}

/* Which values and blocks the verdicts use, and where each lands in the
 * matrices sweep_compare and randomize take (row: block, column: value). */
struct judged {
	unsigned need, nused, nk;		/* blocks needed, used; values judged */
	unsigned kk[TUNE_MAX_CONFIGS];		/* column a: value kk[a] (0: the current) */
	unsigned kat[TUNE_MAX_CONFIGS];		/* value k: its column, or UINT_MAX */
	unsigned at[TUNE_MAX_BLOCKS];		/* block b: its row, or UINT_MAX */
	bool in[TUNE_MAX_BLOCKS];		/* block b used */
};

/* The sweep's analysis undone, its level (alpha) and its control set.
 * 0, or -EINVAL with the reason when the trials are not those planned
 * (final) or not nblocks' (a look). */
static int start_over(struct tune_sweep *s, unsigned nblocks, bool final)
{
	const unsigned nc = s->nconfig;

	s->analyzed = false;
	s->recommended = -1;
	s->vetoed = false;
	s->control = -1;
	s->ndropped = 0;
	s->nused = 0;
	s->unsettled = 0;
	/* the look's level: stopped early at nblocks of a larger budget, or
	 * the final look of the budget */
	s->alpha = sweep_look_alpha(nc, nblocks, s->max_blocks > nblocks ? s->max_blocks :
				    nblocks, TUNE_ALPHA);
	memset(s->unjudged, 0, sizeof(s->unjudged));
	memset(s->unjudged_why, 0, sizeof(s->unjudged_why));
	for (unsigned k = 1; k < nc && s->control < 0; k++)
		if (tune_is_control(s, k))
			s->control = (int)k;
	if ((final ? s->ntrials != s->planned :
		     s->ntrials != (1 + nblocks * nc) * s->ntests) || !nblocks ||
	    nblocks > TUNE_MAX_BLOCKS || nc < 2 || nc > TUNE_MAX_CONFIGS || !(s->alpha > 0)) {
		snprintf(s->reason, sizeof(s->reason), "%s", nc < 2 ? "nothing to compare the current "
			 "setting with" : "the sweep did not finish: nothing is claimed");
		return -EINVAL;
	}
	return 0;
}

/* The values judged and the blocks used, into j (s->unjudged[] and their
 * words set). A failed trial measured no setting: it is left out, and
 * with it its block for the values compared (choose); a value that failed
 * in too many blocks gets no verdict, the others are still judged. */
static void judge_which(struct tune_sweep *s, unsigned nblocks, struct judged *j)
{
	const unsigned nc = s->nconfig;
	bool ok[TUNE_MAX_BLOCKS * TUNE_MAX_CONFIGS];

	s->ninvalid = 0;
	for (unsigned i = 0; i < s->ntrials; i++)
		s->ninvalid += s->trials[i].invalid[0] != '\0';
	valid_cells(s, nblocks, ok);
	j->need = tune_min_blocks(nc);
	if (j->need < (nblocks + 1) / 2)
		j->need = (nblocks + 1) / 2;
	if (j->need > nblocks)
		j->need = nblocks;
	j->nused = choose(s, nblocks, ok, j->need, j->in);
	j->nk = 0;
	j->kk[j->nk++] = 0;
	for (unsigned k = 1; k < nc; k++) {
		if (s->unjudged[k])
			unjudged_words(s, k, nblocks, ok, j->need);
		else
			j->kk[j->nk++] = k;
	}
	for (unsigned k = 0; k < nc; k++)
		j->kat[k] = UINT_MAX;
	for (unsigned a = 0; a < j->nk; a++)
		j->kat[j->kk[a]] = a;
	for (unsigned b = 0, u = 0; b < nblocks; b++)
		j->at[b] = j->in[b] ? u++ : UINT_MAX;
}

/* Every cell's medians: of a value judged, over the blocks its verdicts
 * use; of one without, over whatever trials of it are valid. Its
 * verdicts reset to none. */
static void cell_medians(struct tune_sweep *s, const struct judged *j)
{
	for (unsigned k = 0; k < s->nconfig; k++) {
		for (unsigned t = 0; t < s->ntests; t++) {
			struct tune_cell *c = &s->cells[k][t];
			const bool *where = s->unjudged[k] ? NULL : j->in;

			c->bytes_per_sec = cell_median(s, k, t, 0, where);
			c->lat_p99_ns = (uint64_t)cell_median(s, k, t, 1, where);
			c->iops = cell_median(s, k, t, 2, where);
			c->thr = c->p99 = (struct sweep_verdict){ .ratio = NAN, .lo = 0,
								  .hi = INFINITY,
								  .level = 1 - s->alpha,
								  .p = NAN };
			c->thr_ctl = c->p99_ctl = c->thr;
			c->has_ctl = c->thr_dropped = c->p99_dropped = false;
		}
	}
}

/* Test t's trials in the blocks and values used, into m (throughput) and
 * p (p99) at [row * nk + column], and their logarithms into x, two
 * columns a test of nstat. */
static void fill_test(const struct tune_sweep *s, unsigned nblocks, const struct judged *j,
		      unsigned t, double *m, double *p, double *x, unsigned nstat)
{
	for (unsigned i = 0; i < s->ntrials; i++) {
		const struct tune_trial *tr = &s->trials[i];
		unsigned cell;

		if (tr->test != t || tr->block >= nblocks || j->at[tr->block] == UINT_MAX ||
		    j->kat[tr->config] == UINT_MAX)
			continue;
		cell = j->at[tr->block] * j->nk + j->kat[tr->config];
		/* a zero (nothing measured) must not make an infinite ratio */
		m[cell] = tr->bytes_per_sec > 0 ? tr->bytes_per_sec : 1e-9;
		p[cell] = tr->lat_p99_ns ? (double)tr->lat_p99_ns : 1e-9;
	}
	for (unsigned i = 0; i < j->nused * j->nk; i++) {
		x[i * nstat + 2 * t] = log(m[i]);
		x[i * nstat + 2 * t + 1] = log(p[i]);
	}
}

/* Did the baseline of test t drift beyond the noise? Sets s->drift[t]
 * and s->drifted, and adds "test +12 %" to words (used bytes of len). */
static void check_drift(struct tune_sweep *s, unsigned t, double noise, char *words,
			size_t len, size_t *used)
{
	double base[TUNE_DRIFT_MAX];
	unsigned nbase;

	gather_base(s, t, 0, base, &nbase);
	s->drift[t] = 0;
	if (!sweep_drifted(base, nbase, noise, &s->drift[t]))
		return;
	s->drifted = true;
	if (*used < len)
		*used += (size_t)snprintf(words + *used, len - *used, "%s%s %+.0f %%",
					  *used ? ", " : "", s->tests[t], 100 * s->drift[t]);
}

/*
 * Every value judged other than the control, against the control: the
 * current value's second measurement, in the same blocks. A sweep's
 * values are all compared with one baseline, so a baseline that ran slow
 * in most blocks makes every value look better at once, and the best of
 * them is picked; the A/A calibration showed it (doc/tune.md). So a
 * verdict against the baseline stands only where the value differs from
 * the control the same way, by the same randomization test (its own
 * family at the sweep's level): the current value measured twice must
 * both lose to it, or both beat it. x: the sweep's log values, kk its
 * columns (compare_all). 0, or -ENOMEM.
 */
static int against_control(struct tune_sweep *s, const double *x, const struct judged *j,
			   double noise, uint64_t seed)
{
	const unsigned nstat = 2 * s->ntests, nused = j->nused;
	unsigned col[TUNE_MAX_CONFIGS], nk = 0, ac;
	double *x2, *padj, *half;
	int ret;

	if (s->control < 0 || j->kat[s->control] == UINT_MAX)
		return 0;
	/* the control first; the baseline stays in as a value (its own
	 * verdict is the control's, in the other family): relabellings among
	 * as many values as the baseline's family has keep the test as fine */
	ac = j->kat[s->control];
	col[nk++] = ac;
	for (unsigned a = 0; a < j->nk; a++)
		if (a != ac)
			col[nk++] = a;
	if (nk < 3)
		return 0;
	x2 = malloc((size_t)nused * nk * nstat * sizeof(*x2));
	padj = malloc((size_t)nk * nstat * sizeof(*padj));
	half = malloc((size_t)nk * nstat * sizeof(*half));
	ret = -ENOMEM;
	if (!x2 || !padj || !half)
		goto out;
	for (unsigned r = 0; r < nused; r++)
		for (unsigned a = 0; a < nk; a++)
			memcpy(&x2[(r * nk + a) * nstat], &x[(r * j->nk + col[a]) * nstat],
			       nstat * sizeof(*x2));
	ret = sweep_randomization(x2, nused, nk, nstat, TUNE_RESAMPLES, seed ^ 0xc0417201u,
				  s->alpha, padj, half);
	for (unsigned a = 2; a < nk; a++) {	/* 1: the baseline */
		for (unsigned t = 0; t < s->ntests; t++) {
			struct tune_cell *c = &s->cells[j->kk[col[a]]][t];
			struct sweep_verdict *v[2] = { &c->thr_ctl, &c->p99_ctl };
			struct sweep_verdict *base[2] = { &c->thr, &c->p99 };
			bool *dropped[2] = { &c->thr_dropped, &c->p99_dropped };

			c->has_ctl = true;
			for (unsigned st = 0; st < 2; st++) {
				unsigned i = 2 * t + st;
				double sum = 0;

				for (unsigned r = 0; r < nused; r++)
					sum += x2[(r * nk + a) * nstat + i] - x2[r * nk * nstat + i];
				v[st]->ratio = exp(sum / nused);
				randomized_verdict(v[st], ret, padj[a * nstat + i], half[a * nstat + i],
						   s->alpha, noise);
				if (base[st]->verdict && v[st]->verdict != base[st]->verdict) {
					base[st]->verdict = 0;
					*dropped[st] = true;
					s->ndropped++;
				}
			}
		}
	}
	ret = ret == -ENOMEM ? ret : 0;
out:
	free(x2);
	free(padj);
	free(half);
	return ret;
}

/* Every value judged against the current one, on every test, twice
 * (throughput and p99), then all of them at once (randomize); the drift
 * check of a final analysis into drift_words. 0 or -ENOMEM. */
static int compare_all(struct tune_sweep *s, unsigned nblocks, const struct judged *j,
		       double noise, uint64_t seed, bool final, char *drift_words, size_t len)
{
	const unsigned nk = j->nk, nused = j->nused, nstat = 2 * s->ntests;
	double *m, *p, *x;
	size_t used = 0;
	int ret;

	m = calloc((size_t)nused * nk, sizeof(*m));
	p = calloc((size_t)nused * nk, sizeof(*p));
	x = calloc((size_t)nused * nk * nstat, sizeof(*x));
	if (!m || !p || !x) {
		free(m);
		free(p);
		free(x);
		return -ENOMEM;
	}
	s->ncompared = 2 * (nk - 1) * s->ntests;
	s->drifted = false;
	for (unsigned t = 0; t < s->ntests; t++) {
		fill_test(s, nblocks, j, t, m, p, x, nstat);
		if (final)
			check_drift(s, t, noise, drift_words, len, &used);
		else
			s->drift[t] = 0;
		for (unsigned a = 1; a < nk; a++) {
			struct tune_cell *c = &s->cells[j->kk[a]][t];

			sweep_compare(m, nused, nk, a, noise, s->ncompared, seed + t, &c->thr);
			sweep_compare(p, nused, nk, a, noise, s->ncompared, seed + t, &c->p99);
		}
	}
	ret = randomize(s, x, nused, j->kk, nk, noise, seed, s->alpha);
	if (!ret)
		ret = against_control(s, x, j, noise, seed);
	free(x);
	free(m);
	free(p);
	return ret;
}

/* The analysis after nblocks blocks: final, every planned trial in (the
 * drift check too); else a look of the sequential design. */
static int analyze(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed,
		   bool final)
{
	char drift_words[256] = "";
	struct judged j;
	int ret;

	ret = start_over(s, nblocks, final);
	if (ret)
		return ret;
	judge_which(s, nblocks, &j);
	s->nused = j.nused;
	cell_medians(s, &j);
	if (j.nk < 2 || j.nused < j.need) {
		snprintf(s->reason, sizeof(s->reason), "%u of %u trials failed and are left out: "
			 "no value has valid trials, with the current value's, in %u of the %u "
			 "blocks; no verdict for any value, nothing is claimed", s->ninvalid,
			 s->ntrials, j.need, nblocks);
		return -EINVAL;
	}
	ret = compare_all(s, nblocks, &j, noise, seed, final, drift_words, sizeof(drift_words));
	if (ret)
		return ret;
	s->analyzed = true;
	s->unsettled = count_unsettled(s, noise);

	if (s->drifted) {
		snprintf(s->reason, sizeof(s->reason), "the device drifted during the sweep (%s "
			 "from the first to the second half of the current setting's runs): nothing is "
			 "recommended; run tune again on a quiet machine", drift_words);
		note_unjudged(s);
		return 0;
	}
	recommend(s, j.nused, nblocks);
	note_dropped(s);
	note_unjudged(s);
	note_unsettled(s, nblocks);
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
