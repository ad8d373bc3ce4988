/* compare_json.c - a comparison as one JSON document, schema "diskbench-compare/1". */
#include <math.h>
#include <stdio.h>

#include "compare.h"
#include "json_writer.h"

static void json_value(struct jw *w, const char *key, const struct compare_value *v)
{
	jw_open(w, key, '{', true);
	jw_double(w, "before", v->before);
	jw_double(w, "after", v->after);
	jw_double(w, "ratio", v->ratio);
	jw_double(w, "change_pct", v->change_pct);
	if (v->within_noise < 0)
		jw_null(w, "within_noise");
	else
		jw_bool(w, "within_noise", v->within_noise);
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
	jw_open(w, "metrics", '{', false);
	for (m = 0; m < CMP_NMETRICS; m++)
		json_value(w, compare_metrics[m].key, &t->m[m]);
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
	if (i < 0) {
		jw_null(w, key);
		return;
	}
	jw_open(w, key, '{', true);
	jw_field(w, "name", p->tests[i].before->name);
	jw_double(w, "iops_ratio", p->tests[i].m[CMP_IOPS].ratio);
	jw_double(w, "iops_change_pct", p->tests[i].m[CMP_IOPS].change_pct);
	jw_close(w, '}');
}

static void json_pair(struct jw *w, const struct compare_pair *p)
{
	unsigned i;

	jw_open(w, NULL, '{', false);
	jw_cstr(w, "label", p->label);
	jw_cstr(w, "file", p->file);
	jw_open(w, "tests", '[', false);
	for (i = 0; i < p->ntests; i++)
		json_test(w, &p->tests[i]);
	jw_close(w, ']');
	json_names(w, "only_in_baseline", p->only_before, p->nonly_before);
	json_names(w, "only_in_this", p->only_after, p->nonly_after);
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
	jw_close(w, '}');
	jw_close(w, '}');
}

int report_compare_json(FILE *f, const struct compare *c)
{
	struct jw w = { .f = f };
	unsigned i;

	jw_open(&w, NULL, '{', false);
	jw_cstr(&w, "schema", "diskbench-compare/1");
	jw_open(&w, "baseline", '{', true);
	jw_cstr(&w, "label", c->base_label);
	jw_cstr(&w, "file", c->base_file);
	jw_close(&w, '}');
	jw_open(&w, "compared", '[', false);
	for (i = 0; i < c->npairs; i++)
		json_pair(&w, &c->pairs[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_putc(&w, '\n');
	return jw_finish(&w);
}
