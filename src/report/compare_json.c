/* compare_json.c - a comparison as one JSON document, schema "diskbench-compare/1". */
#include <math.h>
#include <stdio.h>

#include "compare.h"
#include "json_writer.h"

static void json_value(struct jw *w, enum compare_metric m, const struct compare_value *v)
{
	char words[48];

	jw_open(w, compare_metrics[m].key, '{', true);
	jw_double(w, "before", v->before);
	jw_double(w, "after", v->after);
	jw_double(w, "ratio", v->ratio);
	jw_double(w, "change_pct", v->change_pct);
	/* the change as people read it (never a share below -100 %), and the
	 * plain after vs before in percent, the sign the direction of the
	 * figure (+3400 for a latency 35x the baseline's) */
	if (isnan(v->ratio)) {
		jw_null(w, "change");
		jw_null(w, "after_vs_before_pct");
	} else {
		jw_cstr(w, "change", compare_metric_words(m, v->ratio, words, sizeof(words)));
		jw_double(w, "after_vs_before_pct", (v->ratio - 1) * 100);
	}
	if (v->within_noise < 0)
		jw_null(w, "within_noise");
	else
		jw_bool(w, "within_noise", v->within_noise);
	jw_u64(w, "runs_before", v->nbefore);
	jw_u64(w, "runs_after", v->nafter);
	jw_double(w, "median_ratio", v->med_ratio);
	/* an interval, a min-max range (low confidence) or neither */
	if (isnan(v->lo)) {
		jw_null(w, "interval");
	} else {
		jw_open(w, "interval", '{', true);
		jw_cstr(w, "kind", v->low_confidence ? "range" : "rank");
		jw_double(w, "low", v->lo);
		jw_double(w, "high", v->hi);
		if (v->low_confidence)
			jw_null(w, "level");
		else
			jw_double(w, "level", v->level);
		jw_close(w, '}');
	}
	jw_bool(w, "low_confidence", v->low_confidence);
	if (v->verdict == CMP_UNJUDGED)
		jw_null(w, "verdict");
	else
		jw_cstr(w, "verdict", v->verdict == CMP_BETTER ? "better" :
			v->verdict == CMP_WORSE ? "worse" : "~");
	jw_close(w, '}');
}

static void json_test(struct jw *w, const struct compare_test *t)
{
	unsigned m;

	jw_open(w, NULL, '{', false);
	jw_field(w, "name", t->before->name);
	jw_bool(w, "comparable", !t->mismatch[0]);
	if (t->mismatch[0])
		jw_field(w, "mismatch", t->mismatch);
	else
		jw_null(w, "mismatch");
	/* a side whose runs failed: no verdict */
	if (t->failed[0])
		jw_field(w, "failed", t->failed);
	else
		jw_null(w, "failed");
	/* the machine's load on each side, and the band it leaves a verdict */
	jw_open(w, "cpu_wait_pct", '{', true);
	jw_fixed(w, "before", t->wait_before, 3);
	jw_fixed(w, "after", t->wait_after, 3);
	jw_close(w, '}');
	jw_double(w, "machine_ratio", t->machine_ratio);
	jw_open(w, "band", '[', true);
	jw_double(w, NULL, t->band_lo);
	jw_double(w, NULL, t->band_hi);
	jw_close(w, ']');
	jw_bool(w, "busier", t->busier);
	jw_open(w, "metrics", '{', false);
	for (m = 0; m < CMP_NMETRICS; m++)
		json_value(w, m, &t->m[m]);
	jw_close(w, '}');
	jw_close(w, '}');
}

static void json_names(struct jw *w, const char *key, const struct test_result *const *t,
		       unsigned n)
{
	unsigned i;

	jw_open(w, key, '[', false);
	for (i = 0; i < n; i++)
		jw_field(w, NULL, t[i]->name);
	jw_close(w, ']');
}

static void json_extreme(struct jw *w, const char *key, const struct compare_pair *p, int i)
{
	char words[48];

	if (i < 0) {
		jw_null(w, key);
		return;
	}
	jw_open(w, key, '{', true);
	jw_field(w, "name", p->tests[i].before->name);
	jw_double(w, "iops_ratio", p->tests[i].m[CMP_IOPS].ratio);
	jw_double(w, "iops_change_pct", p->tests[i].m[CMP_IOPS].change_pct);
	jw_cstr(w, "change", compare_metric_words(CMP_IOPS, p->tests[i].m[CMP_IOPS].ratio, words,
						  sizeof(words)));
	jw_close(w, '}');
}

static void json_pair(struct jw *w, const struct compare *c, const struct compare_pair *p)
{
	char drive[768], mb[160];
	bool changed = compare_drive_changed(c->base, p->after, drive, sizeof(drive));
	unsigned i;

	jw_open(w, NULL, '{', false);
	jw_cstr(w, "label", p->label);
	jw_cstr(w, "file", p->file);
	jw_cstr(w, "made_by", compare_made_by(p->after, mb, sizeof(mb)));
	jw_open(w, "tests", '[', false);
	for (i = 0; i < p->ntests; i++)
		json_test(w, &p->tests[i]);
	jw_close(w, ']');
	json_names(w, "only_in_baseline", p->only_before, p->nonly_before);
	json_names(w, "only_in_this", p->only_after, p->nonly_after);
	/* the model or serial differs: another drive (compare_drive_changed) */
	jw_bool(w, "drive_changed", changed);
	if (changed)
		jw_field(w, "drive", drive);
	else
		jw_null(w, "drive");
	jw_open(w, "differences", '[', false);
	for (i = 0; i < p->ndiffs; i++) {
		jw_open(w, NULL, '{', true);
		jw_field(w, "key", p->diffs[i].key);
		if (p->diffs[i].before[0])
			jw_field(w, "before", p->diffs[i].before);
		else
			jw_null(w, "before");
		if (p->diffs[i].after[0])
			jw_field(w, "after", p->diffs[i].after);
		else
			jw_null(w, "after");
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_open(w, "summary", '{', false);
	jw_u64(w, "matched", p->ntests);
	jw_u64(w, "iops_ratios", p->nratios);
	jw_double(w, "iops_geomean_ratio", p->geomean_iops);
	jw_double(w, "iops_geomean_change_pct", (p->geomean_iops - 1) * 100);
	json_extreme(w, "worst", p, p->worst);
	json_extreme(w, "best", p, p->best);
	jw_bool(w, "repeats", p->repeats);
	jw_double(w, "noise_k", COMPARE_NOISE_K);
	jw_u64(w, "verdicts", p->family);
	jw_double(w, "level", 1 - 0.05 / (p->family ? p->family : 1));
	/* what the runs held: less than level and 0.95 when they were too few */
	jw_double(w, "level_held", p->family ? p->level_held : 1 - 0.05);
	jw_double(w, "family_level_held", compare_family_level(p));
	jw_u64(w, "runs_needed", p->runs_needed);
	jw_u64(w, "better", p->nbetter);
	jw_u64(w, "worse", p->nworse);
	jw_u64(w, "unchanged", p->nsame);
	jw_u64(w, "not_judged", p->nunjudged);
	jw_u64(w, "failed", p->nfailed);
	jw_u64(w, "measured_differently", p->nmismatched);
	jw_u64(w, "busier", p->nbusier);
	jw_field(w, "words", p->words);
	jw_u64(w, "p99_better", p->p99_better);
	jw_u64(w, "p99_worse", p->p99_worse);
	jw_u64(w, "p99_unchanged", p->p99_same);
	jw_u64(w, "p99_not_judged", p->p99_unjudged);
	/* every IOPS ratio below 1: the "best" is only the least worse */
	jw_bool(w, "all_lost", p->all_lost);
	jw_bool(w, "all_gained", p->all_gained);
	jw_cstr(w, "outcome", compare_outcome_key(p->outcome));
	jw_field(w, "headline", p->headline);
	jw_close(w, '}');
	jw_close(w, '}');
}

int report_compare_json(FILE *f, const struct compare *c)
{
	struct jw w = { .f = f };
	char mb[160];
	unsigned i;

	jw_open(&w, NULL, '{', false);
	jw_cstr(&w, "schema", "diskbench-compare/1");
	/* how the intervals and verdicts were made (doc/compare.md) */
	jw_open(&w, "method", '{', false);
	jw_cstr(&w, "sample", "one run (--repeat pass)");
	jw_cstr(&w, "ratio", "median of after's runs / median of before's");
	jw_cstr(&w, "interval", "exact rank (Hodges-Lehmann, Mann-Whitney)");
	jw_u64(&w, "resamples", COMPARE_RESAMPLES);
	jw_u64(&w, "seed", COMPARE_SEED);
	jw_cstr(&w, "correction", "bonferroni");
	jw_double(&w, "family_level", 0.95);
	jw_u64(&w, "min_runs", COMPARE_MIN_RUNS);
	jw_double(&w, "noise", c->noise);
	jw_close(&w, '}');
	jw_open(&w, "baseline", '{', true);
	jw_cstr(&w, "label", c->base_label);
	jw_cstr(&w, "file", c->base_file);
	jw_cstr(&w, "made_by", compare_made_by(c->base, mb, sizeof(mb)));
	jw_close(&w, '}');
	jw_open(&w, "compared", '[', false);
	for (i = 0; i < c->npairs; i++)
		json_pair(&w, c, &c->pairs[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_putc(&w, '\n');
	return jw_finish(&w);
}
