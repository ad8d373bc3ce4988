/* tune_json.c - a tune as one JSON document, schema diskbench-tune/1: every trial, every verdict. */
#include <stdio.h>

#include "host.h"
#include "json_writer.h"
#include "tune_result.h"

static const char *verdict_word(int v, bool lower_is_better)
{
	if (!v)
		return "~";
	return (v > 0) != lower_is_better ? "better" : "worse";
}

static void json_verdict(struct jw *w, const char *key, const struct sweep_verdict *v,
			 bool lower_is_better)
{
	jw_open(w, key, '{', true);
	jw_double(w, "ratio", v->ratio);
	jw_double(w, "ci_low", v->lo);
	jw_double(w, "ci_high", v->hi);
	jw_double(w, "level", v->level);
	jw_double(w, "p_value", v->p);
	jw_cstr(w, "verdict", verdict_word(v->verdict, lower_is_better));
	jw_close(w, '}');
}

/* "trials": every trial as it ran. */
static void json_trials(struct jw *w, const struct tune_sweep *s)
{
	jw_open(w, "trials", '[', false);
	for (unsigned i = 0; i < s->ntrials; i++) {
		const struct tune_trial *t = &s->trials[i];

		jw_open(w, NULL, '{', true);
		jw_u64(w, "config", t->config);
		if (t->block == SWEEP_OUTSIDE)
			jw_null(w, "block");
		else
			jw_u64(w, "block", t->block);
		jw_u64(w, "test", t->test);
		jw_double(w, "iops", t->iops);
		jw_double(w, "bytes_per_sec", t->bytes_per_sec);
		jw_u64(w, "lat_p99_ns", t->lat_p99_ns);
		jw_u64(w, "runtime_ns", t->runtime_ns);
		jw_u64(w, "ops", t->ops);
		jw_u64(w, "errors", t->errors);
		jw_bool(w, "valid", !t->invalid[0]);
		if (t->invalid[0])
			jw_field(w, "invalid", t->invalid);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

/* "sequential": the sequential design, a budget of blocks, looks, where
 * it stopped. */
static void json_sequential(struct jw *w, const struct tune_sweep *s)
{
	jw_open(w, "sequential", '{', false);
	jw_u64(w, "max_blocks", s->max_blocks);
	jw_u64(w, "blocks_run", s->nblocks_run);
	jw_bool(w, "stopped_early", s->stopped_early);
	jw_open(w, "looks", '[', true);
	for (unsigned n = 1; n < s->max_blocks; n++)
		if (sweep_look_alpha(s->nconfig, n, s->max_blocks, TUNE_ALPHA) > 0)
			jw_u64(w, NULL, n);
	jw_close(w, ']');
	jw_double(w, "interim_alpha", s->max_blocks ?
		  sweep_look_alpha(s->nconfig, s->max_blocks, s->max_blocks, TUNE_ALPHA) <
		  TUNE_ALPHA ? TUNE_ALPHA * SWEEP_INTERIM : 0 : 0);
	jw_u64(w, "unsettled", s->unsettled);
	jw_close(w, '}');
}

/* "side_effects": what the kernel set beside the knob (bfq turns wbt off). */
static void json_side_effects(struct jw *w, const struct tune_sweep *s)
{
	jw_open(w, "side_effects", '[', false);
	for (unsigned i = 0; i < s->neffects; i++) {
		const struct tune_sweep_effect *e = &s->effects[i];

		jw_open(w, NULL, '{', true);
		jw_u64(w, "config", e->config);
		jw_field(w, "value", s->configs[e->config]);
		jw_cstr(w, "cause", tune_knob_attr(e->fx.cause));
		jw_cstr(w, "attribute", tune_knob_attr(e->fx.knob));
		jw_field(w, "wanted", e->fx.wanted);
		jw_field(w, "kept", e->fx.kept);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

/* "results": every value's medians on every test, and its verdicts. */
static void json_results(struct jw *w, const struct tune_sweep *s)
{
	jw_open(w, "results", '[', false);
	for (unsigned k = 0; k < s->nconfig; k++) {
		for (unsigned t = 0; t < s->ntests; t++) {
			const struct tune_cell *c = &s->cells[k][t];

			jw_open(w, NULL, '{', false);
			jw_u64(w, "config", k);
			jw_u64(w, "test", t);
			jw_double(w, "iops", c->iops);
			jw_double(w, "bytes_per_sec", c->bytes_per_sec);
			jw_u64(w, "lat_p99_ns", c->lat_p99_ns);
			if (k)
				jw_bool(w, "judged", !s->unjudged[k]);
			if (k) {
				json_verdict(w, "throughput", &c->thr, false);
				json_verdict(w, "lat_p99", &c->p99, true);
			}
			/* against the control too: a verdict stands where both agree */
			if (k && c->has_ctl) {
				json_verdict(w, "throughput_vs_control", &c->thr_ctl, false);
				json_verdict(w, "lat_p99_vs_control", &c->p99_ctl, true);
				jw_bool(w, "throughput_dropped", c->thr_dropped);
				jw_bool(w, "lat_p99_dropped", c->p99_dropped);
			}
			jw_close(w, '}');
		}
	}
	jw_close(w, ']');
}

/* An analyzed sweep's method, verdicts and drift check. */
static void json_analysis(struct jw *w, const struct tune_sweep *s)
{
	jw_u64(w, "comparisons", s->ncompared);
	jw_u64(w, "dropped_by_control", s->ndropped);
	jw_cstr(w, "method", "randomization");
	jw_u64(w, "resamples", s->resamples);
	if (s->control >= 0)
		jw_u64(w, "control", (unsigned)s->control);
	else
		jw_null(w, "control");
	jw_bool(w, "vetoed", s->vetoed);
	jw_u64(w, "blocks_used", s->nused);
	jw_double(w, "alpha", s->alpha);
	json_results(w, s);
	jw_open(w, "drift", '{', false);
	jw_bool(w, "drifted", s->drifted);
	jw_open(w, "change", '[', true);
	for (unsigned t = 0; t < s->ntests; t++)
		jw_double(w, NULL, s->drift[t]);
	jw_close(w, ']');
	jw_close(w, '}');
}

/* "no_verdict": the values without a verdict, and why. */
static void json_no_verdict(struct jw *w, const struct tune_sweep *s)
{
	jw_open(w, "no_verdict", '[', false);
	for (unsigned k = 1; k < s->nconfig; k++) {
		if (!s->unjudged[k])
			continue;
		jw_open(w, NULL, '{', true);
		jw_u64(w, "config", k);
		jw_field(w, "value", s->configs[k]);
		jw_field(w, "reason", s->unjudged_why[k]);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

/* One sweep: its values, tests, trials, design, analysis and verdict. */
static void json_sweep(struct jw *w, const struct tune_result *r, const struct tune_sweep *s)
{
	jw_open(w, NULL, '{', false);
	jw_cstr(w, "knob", tune_knob_option(s->knob));
	jw_cstr(w, "attribute", tune_knob_attr(s->knob));
	jw_field(w, "workload", s->workload);
	jw_open(w, "configs", '[', true);
	for (unsigned k = 0; k < s->nconfig; k++)
		jw_field(w, NULL, s->configs[k]);
	jw_close(w, ']');
	jw_open(w, "tests", '[', false);
	for (unsigned t = 0; t < s->ntests; t++)
		jw_field(w, NULL, s->tests[t]);
	jw_close(w, ']');
	jw_u64(w, "trials_planned", s->planned);
	json_trials(w, s);
	jw_u64(w, "trials_invalid", s->ninvalid);
	json_sequential(w, s);
	json_side_effects(w, s);
	jw_bool(w, "analyzed", s->analyzed);
	if (s->analyzed)
		json_analysis(w, s);
	json_no_verdict(w, s);
	if (s->recommended >= 0)
		jw_field(w, "recommended", s->configs[s->recommended]);
	else
		jw_null(w, "recommended");
	jw_field(w, "reason", s->reason);
	(void)r;
	jw_close(w, '}');
}

int report_tune_json(FILE *f, const struct tune_result *r)
{
	const struct tune_queue *q = &r->queue;
	struct jw w = { .f = f };

	jw_open(&w, NULL, '{', false);
	jw_cstr(&w, "schema", "diskbench-tune/1");
	jw_open(&w, "tool", '{', false);
	jw_cstr(&w, "name", "diskbench");
	jw_cstr(&w, "version", r->tool_version);
	jw_close(&w, '}');
	jw_field(&w, "started_at", r->started_at);
	report_json_host(&w, &r->host);
	report_json_target(&w, &r->target);
	jw_open(&w, "queue", '{', false);
	jw_field(&w, "disk", q->disk);
	jw_field(&w, "why", q->why);
	jw_field(&w, "schedulers", q->schedulers);
	jw_open(&w, "settings", '{', false);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (q->have[k])
			jw_field(&w, tune_knob_attr((enum tune_knob)k), q->value[k]);
	jw_close(&w, '}');
	jw_close(&w, '}');
	jw_u64(&w, "blocks", r->nblocks);
	jw_double(&w, "noise", r->noise);
	jw_u64(&w, "seed", r->seed);
	/* the CPUs the trials' jobs were pinned to: job i on cpus[i % n] */
	jw_open(&w, "pinning", '{', false);
	jw_open(&w, "cpus", '[', true);
	for (unsigned i = 0; i < r->ncpus; i++)
		jw_u64(&w, NULL, (unsigned)r->cpus[i]);
	jw_close(&w, ']');
	jw_cstr(&w, "by", !r->ncpus ? "none" : r->cpus_given ? "--cpus" : "default");
	jw_field(&w, "why", r->cpus_why);
	jw_close(&w, '}');
	/* the default sweeps left out because another knob was named */
	jw_open(&w, "skipped", '[', false);
	for (unsigned k = 0; k < KNOB_COUNT; k++) {
		if (!r->skipped[k])
			continue;
		jw_open(&w, NULL, '{', true);
		jw_cstr(&w, "knob", tune_knob_option((enum tune_knob)k));
		jw_cstr(&w, "values", r->skipped[k]);
		jw_close(&w, '}');
	}
	jw_close(&w, ']');
	jw_open(&w, "sweeps", '[', false);
	for (unsigned i = 0; i < r->nsweeps; i++)
		json_sweep(&w, r, &r->sweeps[i]);
	jw_close(&w, ']');
	jw_bool(&w, "interrupted", r->interrupted);
	if (r->stop.stopped) {
		jw_open(&w, "stopped", '{', false);
		jw_field(&w, "reason", r->stop.reason);
		jw_u64(&w, "trial", r->stop.trial);
		jw_u64(&w, "trials", r->stop.total);
		jw_field(&w, "what_to_do", r->stop.todo);
		jw_close(&w, '}');
	} else {
		jw_null(&w, "stopped");
	}
	jw_bool(&w, "restored", r->restored);
	jw_bool(&w, "settings_changed", !r->untouched);
	jw_bool(&w, "applied", r->applied);
	jw_open(&w, "warnings", '[', false);
	for (unsigned i = 0; i < r->nwarnings; i++)
		jw_cstr(&w, NULL, r->warnings[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_putc(&w, '\n');
	return jw_finish(&w);
}
