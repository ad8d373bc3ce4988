/* compare_text.c - the human before/after report of a comparison (100 columns). */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "report.h"
#include "textw.h"

#define TESTNAME_MIN 20
#define TESTNAME_MAX 32

/* "35.0x higher", "12 % slower", "same", "-" (no ratio) */
static const char *fmt_change(const struct compare_value *v, enum compare_metric m, char *buf,
			      size_t len)
{
	compare_metric_words(m, v->ratio, buf, len);
	if (!buf[0])
		snprintf(buf, len, "-");
	return buf;
}

/* "2.59 [2.41, 2.80]", "0.97 (0.91..1.05)" for a range, "-" for none */
static const char *fmt_interval(const struct compare_value *v, char *buf, size_t len)
{
	if (isnan(v->med_ratio))
		snprintf(buf, len, "-");
	else if (isnan(v->lo))
		snprintf(buf, len, "%.2f", v->med_ratio);
	else if (v->low_confidence)
		snprintf(buf, len, "%.2f (%.2f..%.2f)", v->med_ratio, v->lo, v->hi);
	else
		snprintf(buf, len, "%.2f [%.2f, %.2f]", v->med_ratio, v->lo, v->hi);
	return buf;
}

/* The verdict in a word: throughput faster/slower, latency lower/higher. */
static const char *verdict_word(const struct compare_value *v, bool throughput)
{
	switch (v->verdict) {
	case CMP_BETTER: return throughput ? "faster" : "lower";
	case CMP_WORSE: return throughput ? "SLOWER" : "HIGHER";
	case CMP_SAME: return "~";
	default: return v->low_confidence && v->nbefore && v->nafter ? "low conf." : "?";
	}
}

static unsigned name_width(const struct compare_pair *p)
{
	unsigned w = TESTNAME_MIN, i;
	size_t n;

	for (i = 0; i < p->ntests; i++) {
		n = strnlen(p->tests[i].before->name, sizeof(p->tests[i].before->name)) +
		    (p->tests[i].mismatch[0] ? 1 : 0);
		if (n > w)
			w = n > TESTNAME_MAX ? TESTNAME_MAX : (unsigned)n;
	}
	return w;
}

/* The table's columns after the test's name: per group (IOPS, p99) before,
 * after and the change in words; then the change of CPU per op. */
#define GROUP_W 29	/* "%7s %7s %13s" */
#define TABLE_REST (2 * (2 + GROUP_W) + 2 + 12)

static void text_table(struct textw *o, const struct compare_pair *p)
{
	char name[80], ib[16], ia[16], ic[24], lb[16], la[16], lc[24], cc[24];
	const struct compare_test *t;
	unsigned w = name_width(p), i;
	bool mism = false;

	/* the whole row within the 100 columns: a long name is cut */
	if (w + TABLE_REST > TEXTW_WIDTH)
		w = TEXTW_WIDTH - TABLE_REST;
	textw_raw(o, "%-*s  %-*s  %-*s  %12s", (int)w, "", GROUP_W,
		  "IOPS ------------------------", GROUP_W, "p99 latency -----------------",
		  "CPU/op");
	textw_raw(o, "%-*s  %7s %7s %13s  %7s %7s %13s  %12s", (int)w, "Test", "before", "after",
		  "change", "before", "after", "change", "change");
	for (i = 0; i < p->ntests; i++) {
		t = &p->tests[i];
		snprintf(name, sizeof(name), "%.*s%s", (int)sizeof(t->before->name),
			 t->before->name, t->mismatch[0] ? "!" : "");
		fmt_change(&t->m[CMP_IOPS], CMP_IOPS, ic, sizeof(ic));
		fmt_change(&t->m[CMP_LAT_P99], CMP_LAT_P99, lc, sizeof(lc));
		fmt_change(&t->m[CMP_CPU_PER_OP], CMP_CPU_PER_OP, cc, sizeof(cc));
		if (t->mismatch[0]) {	/* measured differently: no change to tell */
			snprintf(ic, sizeof(ic), "differs!");
			snprintf(lc, sizeof(lc), "differs!");
			snprintf(cc, sizeof(cc), "differs!");
		}
		textw_raw(o, "%-*.*s  %7s %7s %13s  %7s %7s %13s  %12s", (int)w, (int)w, name,
			  report_fmt_count(t->m[CMP_IOPS].before, ib, sizeof(ib)),
			  report_fmt_count(t->m[CMP_IOPS].after, ia, sizeof(ia)), ic,
			  report_fmt_ns(t->m[CMP_LAT_P99].before, lb, sizeof(lb)),
			  report_fmt_ns(t->m[CMP_LAT_P99].after, la, sizeof(la)), lc, cc);
		mism |= t->mismatch[0] != '\0';
	}
	if (!p->ntests)
		textw_raw(o, "(no test ran on both sides)");
	textw_raw(o, "change: after against before; from 2x on as a factor (35.0x higher), "
		  "below as a share of before");
	if (mism) {
		textw_raw(o, "! not comparable, measured differently (no verdict, not in the mean):");
		for (i = 0; i < p->ntests; i++)
			if (p->tests[i].mismatch[0])
				textw_raw(o, "  %.*s: %s", (int)sizeof(p->tests[i].before->name),
					  p->tests[i].before->name, p->tests[i].mismatch);
	}
}

/* Does any matched test have runs on both sides to take a ratio of? */
static bool any_runs(const struct compare_pair *p)
{
	for (unsigned i = 0; i < p->ntests; i++)
		if (p->tests[i].m[CMP_IOPS].nbefore > 1 && p->tests[i].m[CMP_IOPS].nafter > 1)
			return true;
	return false;
}

/* The ratios of the runs' medians with their intervals and verdicts. */
static void text_intervals(struct textw *o, const struct compare *c, const struct compare_pair *p)
{
	char name[80], ti[48], li[48], note[640];
	const struct compare_test *t;
	unsigned w = name_width(p), i;
	bool low = false;

	textw_raw(o, "%s", "");
	textw_raw(o, "%-*s %-25s %-9s %-25s %s", (int)w, "Test", "throughput after/before",
		  "verdict", "p99 after/before", "verdict");
	for (i = 0; i < p->ntests; i++) {
		t = &p->tests[i];
		snprintf(name, sizeof(name), "%.*s%s", (int)sizeof(t->before->name),
			 t->before->name, t->mismatch[0] ? "!" : "");
		textw_raw(o, "%-*.*s %-25s %-9s %-25s %s", (int)w, (int)w, name,
			  fmt_interval(&t->m[CMP_IOPS], ti, sizeof(ti)),
			  t->failed[0] ? "failed" : t->mismatch[0] ? "differs" :
			  verdict_word(&t->m[CMP_IOPS], true),
			  fmt_interval(&t->m[CMP_LAT_P99], li, sizeof(li)),
			  t->failed[0] ? "failed" : t->mismatch[0] ? "differs" :
			  verdict_word(&t->m[CMP_LAT_P99], false));
		low |= t->m[CMP_IOPS].low_confidence || t->m[CMP_LAT_P99].low_confidence;
	}
	if (p->family) {
		bool few = compare_runs_too_few(p);
		char more[96] = "";

		if (few)
			snprintf(more, sizeof(more), "; --repeat %u on both sides reaches 95 %%",
				 p->runs_needed);
		snprintf(note, sizeof(note), "after/before: the ratio of the medians of the runs; "
			 "[interval]: the exact rank interval of the ratio (every run after "
			 "against every run before, no distribution assumed), at %.4g %% each, "
			 "%sso that the %u verdicts hold together at %.0f %% (Bonferroni%s). "
			 "faster/slower, lower/higher: the whole interval lies beyond the +-%.3g %% "
			 "noise band (--noise); ~: no significant change.",
			 100 * (few ? p->level_held : 1 - 0.05 / p->family),
			 few ? "the most these runs allow, " : "", p->family,
			 100 * compare_family_level(p), more, 100 * c->noise);
	} else {
		snprintf(note, sizeof(note), "after/before: the ratio of the medians of the runs.");
	}
	textw_start(o, "");
	textw_words(o, note, " ");
	textw_nl(o);
	if (low)
		textw_raw(o, "low conf.: fewer than %d runs on a side: (min..max) of the runs' "
			  "ratios, and no verdict.", COMPARE_MIN_RUNS);
	for (i = 0; i < p->ntests; i++) {
		char mw[48];

		t = &p->tests[i];
		if (!t->busier || t->failed[0] || t->mismatch[0])
			continue;
		compare_metric_words(CMP_IOPS, t->machine_ratio, mw, sizeof(mw));
		snprintf(note, sizeof(note), "busier: %.*s: its jobs waited for a CPU %.0f %% of "
			 "the time before, %.0f %% after, which alone could make it up to %s; its "
			 "throughput takes %+.0f %% to %+.0f %% as noise, and p99 no verdict.",
			 (int)sizeof(t->before->name), t->before->name, t->wait_before,
			 t->wait_after, mw, 100 * (t->band_lo - 1), 100 * (t->band_hi - 1));
		textw_start(o, "");
		textw_words(o, note, " ");
		textw_nl(o);
	}
	for (i = 0; i < p->ntests; i++) {
		t = &p->tests[i];
		if (!t->failed[0])
			continue;
		snprintf(note, sizeof(note), "failed: %.*s: %s; its runs measured no setting, so "
			 "it takes no verdict.", (int)sizeof(t->before->name), t->before->name,
			 t->failed);
		textw_start(o, "");
		textw_words(o, note, " ");
		textw_nl(o);
	}
}

static void text_only(struct textw *o, const char *what, const struct test_result *const *t,
		      unsigned n)
{
	char b[TEXTW_WIDTH * 4];
	unsigned i;

	if (!n)
		return;
	snprintf(b, sizeof(b), "Only in %s:", what);
	for (i = 0; i < n; i++) {
		size_t len = strlen(b), add = strnlen(t[i]->name, sizeof(t[i]->name)) + 2;

		/* Wrap the list: a new line once this one is full. */
		if (len + add > TEXTW_WIDTH && len > 4) {
			textw_raw(o, "%s%s", b, i ? "," : "");
			snprintf(b, sizeof(b), "  %.*s", (int)sizeof(t[i]->name), t[i]->name);
			continue;
		}
		snprintf(b + len, sizeof(b) - len, "%s %.*s", i ? "," : "",
			 (int)sizeof(t[i]->name), t[i]->name);
	}
	textw_raw(o, "%s", b);
}

static void text_pair(struct textw *o, const struct compare *c, const struct compare_pair *p)
{
	const struct compare_diff *d;
	char w[32], bst[32], name[32], drive[768], mb[160], ma[160];
	unsigned i;

	textw_raw(o, "%s", "");
	textw_raw(o, "== %s (%s) vs %s ==", p->label, p->file, c->base_label);
	textw_raw(o, "Made by: before %s; after %s", compare_made_by(c->base, mb, sizeof(mb)),
		  compare_made_by(p->after, ma, sizeof(ma)));
	textw_start(o, "");
	textw_words(o, p->headline, " ");
	textw_nl(o);
	textw_raw(o, "%s", "");
	if (!p->ndiffs) {
		textw_raw(o, "Settings, target and host: the same.");
	} else {
		textw_raw(o, "What differs (before -> after):");
		if (compare_drive_changed(c->base, p->after, drive, sizeof(drive)))
			textw_raw(o, "  %s", drive);
		for (i = 0; i < p->ndiffs; i++) {
			d = &p->diffs[i];
			textw_raw(o, "  %-26s %s -> %s", d->key,
				  d->before[0] ? d->before : "(none)",
				  d->after[0] ? d->after : "(none)");
		}
	}
	textw_raw(o, "%s", "");
	text_table(o, p);
	if (any_runs(p))
		text_intervals(o, c, p);
	textw_raw(o, "%s", "");
	if (p->nratios) {
		compare_metric_words(CMP_IOPS, p->tests[p->worst].m[CMP_IOPS].ratio, w, sizeof(w));
		compare_metric_words(CMP_IOPS, p->tests[p->best].m[CMP_IOPS].ratio, bst, sizeof(bst));
		textw_raw(o, "IOPS over %u test%s: geometric mean ratio %.3f (%s)", p->nratios,
			  p->nratios == 1 ? "" : "s", p->geomean_iops,
			  compare_metric_words(CMP_IOPS, p->geomean_iops, name, sizeof(name)));
		/* where every test lost, the best is only the least worse */
		textw_raw(o, "  %-12s %.*s (%s)", p->all_gained ? "least gain:" : "worst:",
			  (int)sizeof(p->tests[p->worst].before->name),
			  p->tests[p->worst].before->name, w);
		textw_raw(o, "  %-12s %.*s (%s)", p->all_lost ? "least worse:" : "best:",
			  (int)sizeof(p->tests[p->best].before->name),
			  p->tests[p->best].before->name, bst);
	}
	text_only(o, c->base_label, p->only_before, p->nonly_before);
	text_only(o, p->label, p->only_after, p->nonly_after);
	textw_raw(o, "%s", "");
	textw_start(o, "");
	textw_words(o, p->words, " \t\n\r");
	textw_nl(o);
}

int report_compare_text(FILE *f, const struct compare *c)
{
	struct textw o = { .f = f };
	bool repeats = true;
	unsigned i;

	textw_raw(&o, "diskbench compare, baseline (before): %s (%s)", c->base_label, c->base_file);
	for (i = 0; i < c->npairs; i++) {
		text_pair(&o, c, &c->pairs[i]);
		repeats &= c->pairs[i].repeats;
	}
	if (!repeats) {
		textw_raw(&o, "%s", "");
		textw_raw(&o, "Note: without --repeat on both sides nothing tells a real "
			  "difference from");
		textw_raw(&o, "noise; run each with --repeat %d (or more) to have every change "
			  "judged.", COMPARE_MIN_RUNS);
	}
	return textw_finish(&o);
}
