/* html_tune.c - the HTML report of a tune: the verdicts, the facts, per sweep its ratio plots and table. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "json_writer.h"
#include "report.h"
#include "tune_result.h"

static int render_json(FILE *f, const void *r)
{
	return report_tune_json(f, r);
}

/* The level of s's intervals together (the sweep's family), in percent. */
static double level_pct(const struct tune_sweep *s)
{
	return 100 * (1 - (s->alpha > 0 ? s->alpha : TUNE_ALPHA));
}

/* ---- the verdicts ---------------------------------------------------------------- */

static void page_header(struct svg *w, const struct tune_result *r)
{
	char b[1024];

	svg_printf(w, "<header>\n<h1>diskbench tune: ");
	svg_esc(w, r->queue.disk, sizeof(r->queue.disk));
	svg_printf(w, "</h1>\n<p class=\"sub\">");
	snprintf(b, sizeof(b), "%.*s (%.*s) on %.*s, kernel %.*s, started %.*s, diskbench %s",
		 (int)sizeof(r->target.path), r->target.path, (int)sizeof(r->queue.why),
		 r->queue.why, (int)sizeof(r->host.hostname), r->host.hostname,
		 (int)sizeof(r->host.kernel), r->host.kernel, (int)sizeof(r->started_at),
		 r->started_at, r->tool_version ? r->tool_version : "(unknown version)");
	svg_esc(w, b, sizeof(b));
	svg_printf(w, "</p>\n</header>\n");
}

/* Put back, kept on purpose, or not: the sentence the text report ends with. */
static const char *outcome(const struct tune_result *r)
{
	return r->untouched ? "No setting was changed." :
	       r->restored ? "Every setting was put back and reads back as it was." :
	       r->applied ? "The recommended settings were kept (--apply)." :
	       "NOT every setting could be put back: see the warnings and run diskbench tune "
	       "--restore.";
}

static void page_verdicts(struct svg *w, const struct tune_result *r)
{
	char rule[512], stop[1024];

	svg_printf(w, "<section id=\"verdicts\">\n<h2>Verdict</h2>\n<ul class=\"verdicts\">\n");
	for (unsigned i = 0; i < r->nsweeps; i++) {
		const struct tune_sweep *s = &r->sweeps[i];
		const char *knob = tune_knob_option(s->knob);

		svg_printf(w, "<li data-sweep=\"%u\"><b>", i);
		svg_esc(w, knob, strlen(knob));
		svg_printf(w, "</b>: ");
		if (s->recommended >= 0) {
			svg_printf(w, "use <b data-key=\"recommended\">");
			svg_esc(w, s->configs[s->recommended], sizeof(s->configs[0]));
			svg_printf(w, "</b> &#8212; ");
		}
		svg_printf(w, "<span data-key=\"reason\">");
		svg_esc(w, s->reason, sizeof(s->reason));
		svg_printf(w, "</span></li>\n");
	}
	svg_printf(w, "</ul>\n");
	for (unsigned k = 0; k < KNOB_COUNT; k++) {
		const char *opt = tune_knob_option((enum tune_knob)k);

		if (!r->skipped[k])
			continue;
		svg_printf(w, "<p class=\"words skipped\">Not swept: <b>--");
		svg_esc(w, opt, strlen(opt));
		svg_printf(w, "</b>, which tune sweeps by default (another knob was named); add "
			   "<code>--");
		svg_esc(w, opt, strlen(opt));
		svg_printf(w, " ");
		svg_esc(w, r->skipped[k], strlen(r->skipped[k]));
		svg_printf(w, "</code> to sweep it too.</p>\n");
	}
	if (r->interrupted)
		svg_printf(w, "<p class=\"warn\">Interrupted: the sweep was cut short and nothing is "
			   "recommended.</p>\n");
	if (tune_stop_words(r, stop, sizeof(stop))) {
		svg_printf(w, "<p id=\"stopped\" class=\"warn\">");
		svg_esc(w, stop, strlen(stop));
		svg_printf(w, "</p>\n");
	}
	svg_printf(w, "<p id=\"outcome\" class=\"words%s\">",
		   r->restored || r->applied || r->untouched ? "" :
		   " warn");
	svg_esc(w, outcome(r), strlen(outcome(r)));
	svg_printf(w, "</p>\n");
	if (tune_udev_rule(r, rule, sizeof(rule))) {
		svg_printf(w, "<p>To keep it after a reboot, a udev rule (for example in "
			   "<code>/etc/udev/rules.d/60-diskbench-tune.rules</code>; elevator= on the "
			   "kernel command line does nothing on blk-mq kernels):</p>\n<pre id=\"udev\">");
		svg_esc(w, rule, sizeof(rule));
		svg_printf(w, "</pre>\n");
	}
	svg_printf(w, "</section>\n");
}

/* ---- the facts ---------------------------------------------------------------------- */

/* A fixed char array as a fact; an empty one is left out. */
static void fact_arr(struct svg *w, const char *name, const char *key, const char *s, size_t n)
{
	if (s[0])
		html_fact(w, name, key, s, n);
}

static void fact_flag(struct svg *w, const char *name, const char *key, bool v)
{
	html_fact(w, name, key, v ? "yes" : "no", 4);
}

static void facts_tune(struct svg *w, const struct tune_result *r)
{
	const char *v = r->tool_version ? r->tool_version : "";
	char human[32], num[64];

	html_facts_open(w, "Tune");
	html_fact(w, "diskbench", "tool.version", v, strlen(v));
	fact_arr(w, "started", "started_at", r->started_at, sizeof(r->started_at));
	snprintf(num, sizeof(num), "%u", r->nblocks);
	html_fact(w, "blocks", "blocks", num, sizeof(num));
	snprintf(human, sizeof(human), "\302\261%.3g %%", 100 * r->noise);
	html_fact_num(w, "noise band", "noise", human, jw_num_double(r->noise, num, sizeof(num)));
	snprintf(num, sizeof(num), "%" PRIu64, r->seed);
	html_fact(w, "seed", "seed", num, sizeof(num));
	if (r->ncpus)
		fact_arr(w, "jobs pinned", "pinning.why", r->cpus_why, sizeof(r->cpus_why));
	fact_flag(w, "put back", "restored", r->restored);
	fact_flag(w, "--apply kept", "applied", r->applied);
	fact_flag(w, "interrupted", "interrupted", r->interrupted);
	html_facts_close(w);
}

static void facts_host(struct svg *w, const struct tune_result *r)
{
	const struct host_info *h = &r->host;
	char b[32], n[24];

	html_facts_open(w, "Host");
	fact_arr(w, "hostname", "host.hostname", h->hostname, sizeof(h->hostname));
	fact_arr(w, "kernel", "host.kernel", h->kernel, sizeof(h->kernel));
	fact_arr(w, "CPU", "host.cpu_model", h->cpu_model, sizeof(h->cpu_model));
	snprintf(n, sizeof(n), "%u", h->cpus);
	if (h->cpus)
		html_fact(w, "CPUs", "host.cpus", n, sizeof(n));
	snprintf(n, sizeof(n), "%" PRIu64, h->memory_bytes);
	if (h->memory_bytes)
		html_fact_num(w, "memory", "host.memory_bytes",
			      report_fmt_capacity(h->memory_bytes, b, sizeof(b)), n);
	html_facts_close(w);
}

static void facts_target(struct svg *w, const struct tune_result *r)
{
	const struct target_info *t = &r->target;
	const char *kind = t->kind_detail[0] ? t->kind_detail : target_kind_name(t->kind);
	char b[32], n[24];

	html_facts_open(w, "Target");
	fact_arr(w, "path", "target.path", t->path, sizeof(t->path));
	html_fact(w, "kind", t->kind_detail[0] ? "target.kind_detail" : "target.kind", kind,
		  strlen(kind));
	fact_arr(w, "device", "target.device", t->device, sizeof(t->device));
	fact_arr(w, "model", "target.model", t->model, sizeof(t->model));
	snprintf(n, sizeof(n), "%" PRIu64, t->size_bytes);
	if (t->size_bytes)
		html_fact_num(w, "size", "target.size_bytes",
			      report_fmt_capacity(t->size_bytes, b, sizeof(b)), n);
	fact_arr(w, "file system", "target.fs_type", t->fs_type, sizeof(t->fs_type));
	html_facts_close(w);
}

/* The queue tune changed, and its settings as they were before the sweep. */
static void facts_queue(struct svg *w, const struct tune_result *r)
{
	const struct tune_queue *q = &r->queue;
	char key[64];

	html_facts_open(w, "Queue (before the sweep)");
	fact_arr(w, "disk", "queue.disk", q->disk, sizeof(q->disk));
	fact_arr(w, "which queue", "queue.why", q->why, sizeof(q->why));
	fact_arr(w, "schedulers", "queue.schedulers", q->schedulers, sizeof(q->schedulers));
	for (unsigned k = 0; k < KNOB_COUNT; k++) {
		const char *attr = tune_knob_attr((enum tune_knob)k);

		if (!q->have[k])
			continue;
		snprintf(key, sizeof(key), "queue.settings.%s", attr);
		html_fact(w, attr, key, q->value[k], sizeof(q->value[k]));
	}
	html_facts_close(w);
}

static void page_facts(struct svg *w, const struct tune_result *r)
{
	svg_printf(w, "<section id=\"facts\">\n<h2>Facts</h2>\n<div class=\"facts\">\n");
	facts_tune(w, r);
	facts_host(w, r);
	facts_target(w, r);
	facts_queue(w, r);
	svg_printf(w, "</div>\n</section>\n");
}

/* ---- one sweep ---------------------------------------------------------------------- */

static enum html_verdict plot_verdict(int v)
{
	return v > 0 ? HTML_BETTER : v < 0 ? HTML_WORSE : HTML_SAME;
}

/* The throughput plot of test t of sweep si, or its p99 plot: a row per
 * value against the current one. */
static void sweep_plot(struct svg *w, const struct tune_result *r, const struct tune_sweep *s,
		       unsigned si, unsigned t, bool p99)
{
	struct html_ratio_row rows[TUNE_MAX_CONFIGS];
	char labels[TUNE_MAX_CONFIGS][TUNE_VALUE_MAX + 16], attrs[TUNE_MAX_CONFIGS][96];
	char id[48], title[160], axis[64];
	unsigned n = 0;

	for (unsigned k = 1; k < s->nconfig; k++, n++) {
		const struct sweep_verdict *v = p99 ? &s->cells[k][t].p99 : &s->cells[k][t].thr;

		snprintf(attrs[n], sizeof(attrs[n]), "data-sweep=\"%u\" data-config=\"%u\" "
			 "data-test=\"%u\" data-metric=\"%s\"", si, k, t, p99 ? "lat_p99" : "throughput");
		rows[n] = (struct html_ratio_row){
			.label = tune_config_label(s, k, labels[n], sizeof(labels[n])),
			.ratio = v->ratio, .lo = v->lo, .hi = v->hi,
			/* lower p99 is better: its verdict is -1 */
			.verdict = plot_verdict(p99 ? -v->verdict : v->verdict), .attrs = attrs[n] };
	}
	snprintf(id, sizeof(id), "chart-tune-%u-%u%s", si, t, p99 ? "-p99" : "");
	snprintf(title, sizeof(title), "%s: %s of each %s / the current one's", s->tests[t],
		 p99 ? "p99 latency" : "throughput", tune_knob_option(s->knob));
	snprintf(axis, sizeof(axis), "%s / current", p99 ? "p99" : s->random[t] ? "IOPS" : "MB/s");
	html_ratio_plot(w, &(struct html_ratio_plot){ .id = id, .title = title, .axis = axis,
						      .noise = r->noise, .lower_better = p99,
						      .rows = rows, .n = n });
}

static void sweep_plots(struct svg *w, const struct tune_result *r, const struct tune_sweep *s,
			unsigned si)
{
	char b[32];

	svg_printf(w, "<figure id=\"plots-%u\">\n", si);
	for (unsigned t = 0; t < s->ntests; t++) {
		svg_printf(w, "<h3>");
		svg_esc(w, s->tests[t], sizeof(s->tests[t]));
		svg_printf(w, "</h3>\n<div class=\"charts\">\n");
		sweep_plot(w, r, s, si, t, false);
		sweep_plot(w, r, s, si, t, true);
		svg_printf(w, "</div>\n");
	}
	svg_printf(w, "<figcaption>Each value's throughput (left) and p99 latency (right) over "
		   "the current value's: the geometric mean of the ratios paired within each of "
		   "the %u blocks, with its interval from a randomization test within the blocks "
		   "(the %u intervals hold together at %.0f %%, whatever the shape of the noise). "
		   "The shaded band is the noise band (&#177;%s %%, --noise); a value is coloured "
		   "only where its whole interval lies beyond it: green better, red worse. A value "
		   "is recommended when it is better on some test (throughput or p99) and worse on "
		   "none. &#8220;(again)&#8221; is the current value run a second time, a control: "
		   "when it is coloured, nothing is recommended.</figcaption>\n</figure>\n",
		   s->nblocks_run ? s->nblocks_run : r->nblocks, s->ncompared, level_pct(s),
		   svg_label(SVG_F_SI, 100 * r->noise, b, sizeof(b)));
}

/* A cell of a results entry's figure: its key, the JSON number, the text. */
static void value_cell(struct svg *w, const char *key, double v, const char *text)
{
	char num[64];

	svg_printf(w, "<td class=\"num\" data-key=\"%s\" data-value=\"%s\">", key,
		   jw_num_double(v, num, sizeof(num)));
	svg_esc(w, text, strlen(text));
	svg_printf(w, "</td>");
}

/* A verdict's ratio with its interval, and the verdict (key: throughput
 * or lat_p99; lower_better: the verdict -1 reads "better"). */
static void verdict_cells(struct svg *w, const char *key, const struct sweep_verdict *v,
			  bool lower_better)
{
	char k[32], text[64], lo[64], hi[64];
	int good = lower_better ? -v->verdict : v->verdict;
	const char *word = good > 0 ? "better" : good < 0 ? "worse" : "~";

	snprintf(text, sizeof(text), "%.2f [%.2f, %.2f]", v->ratio, v->lo, v->hi);
	svg_printf(w, "<td class=\"num\" data-key=\"%s.ratio\" data-value=\"%s\" data-lo=\"%s\" "
		   "data-hi=\"%s\">", key, jw_num_double(v->ratio, k, sizeof(k)),
		   jw_num_double(v->lo, lo, sizeof(lo)), jw_num_double(v->hi, hi, sizeof(hi)));
	svg_esc(w, text, strlen(text));
	svg_printf(w, "</td><td data-key=\"%s.verdict\" class=\"%s\">%s</td>", key,
		   good > 0 ? "better" : good < 0 ? "worse" : "same", word);
}

static void sweep_table(struct svg *w, const struct tune_sweep *s, unsigned si)
{
	char lab[TUNE_VALUE_MAX + 16], b[40];

	svg_printf(w, "<table id=\"tune-table-%u\" class=\"sortable cmp\">\n<thead><tr>"
		   "<th>test</th><th>value</th><th class=\"num\">rate</th><th class=\"num\">p99"
		   "</th><th class=\"num\">ratio [interval]</th><th>verdict</th>"
		   "<th class=\"num\">p99 ratio [interval]</th><th>p99 verdict</th></tr></thead>\n<tbody>\n",
		   si);
	for (unsigned t = 0; t < s->ntests; t++) {
		for (unsigned k = 0; k < s->nconfig; k++) {
			const struct tune_cell *c = &s->cells[k][t];

			svg_printf(w, "<tr data-sweep=\"%u\" data-config=\"%u\" data-test=\"%u\"><td>",
				   si, k, t);
			svg_esc(w, s->tests[t], sizeof(s->tests[t]));
			svg_printf(w, "</td><td>");
			svg_esc(w, tune_config_label(s, k, lab, sizeof(lab)), sizeof(lab));
			if ((int)k == s->recommended)
				svg_printf(w, " <span class=\"badge\">recommended</span>");
			svg_printf(w, "</td>");
			if (s->random[t]) {
				report_fmt_count(c->iops, b, sizeof(b) - 5);
				strcat(b, " IOPS");
				value_cell(w, "iops", c->iops, b);
			} else {
				report_fmt_dec3(c->bytes_per_sec / 1e6, b, sizeof(b) - 5);
				strcat(b, " MB/s");
				value_cell(w, "bytes_per_sec", c->bytes_per_sec, b);
			}
			value_cell(w, "lat_p99_ns", (double)c->lat_p99_ns,
				   report_fmt_ns((double)c->lat_p99_ns, b, sizeof(b)));
			if (!k) {
				svg_printf(w, "<td class=\"num\">1 (the baseline)</td><td></td>"
					   "<td class=\"num\">1</td><td></td></tr>\n");
				continue;
			}
			if (s->unjudged[k]) {
				svg_printf(w, "<td colspan=\"4\">no verdict (trials failed)</td></tr>\n");
				continue;
			}
			verdict_cells(w, "throughput", &c->thr, false);
			verdict_cells(w, "lat_p99", &c->p99, true);
			svg_printf(w, "</tr>\n");
		}
	}
	svg_printf(w, "</tbody>\n</table>\n");
}


/* What the kernel moved beside the knob, and the trials left out. */
static void sweep_notes(struct svg *w, const struct tune_sweep *s)
{
	char words[512];

	if (!s->neffects && !s->ninvalid)
		return;
	svg_printf(w, "<ul class=\"notes\">\n");
	for (unsigned k = 1; k < s->nconfig; k++) {
		if (!s->unjudged[k])
			continue;
		svg_printf(w, "<li class=\"invalid\">");
		svg_esc(w, s->unjudged_why[k], strlen(s->unjudged_why[k]));
		svg_printf(w, "</li>\n");
	}
	for (unsigned i = 0; i < s->neffects; i++) {
		tune_effect_words(s, &s->effects[i], words, sizeof(words));
		svg_printf(w, "<li class=\"effect\">");
		svg_esc(w, words, strlen(words));
		svg_printf(w, "</li>\n");
	}
	for (unsigned i = 0; i < s->ntrials; i++) {
		const struct tune_trial *t = &s->trials[i];

		if (!t->invalid[0])
			continue;
		snprintf(words, sizeof(words), "failed trial: %s, %s=%s: %s (left out)",
			 s->tests[t->test], tune_knob_option(s->knob), s->configs[t->config],
			 t->invalid);
		svg_printf(w, "<li class=\"invalid\">");
		svg_esc(w, words, strlen(words));
		svg_printf(w, "</li>\n");
	}
	svg_printf(w, "</ul>\n");
}

/* The drift check: the current value's later runs against its earlier ones. */
static void sweep_drift(struct svg *w, const struct tune_result *r, const struct tune_sweep *s)
{
	char key[32], b[32];

	svg_printf(w, "<h3>Drift check</h3>\n<p>The current value's runs (the first, one per "
		   "block, the last): the later half against the earlier.</p>\n"
		   "<table class=\"drift\">\n<thead><tr><th>test</th><th class=\"num\">change</th><th></th></tr>"
		   "</thead>\n<tbody>\n");
	for (unsigned t = 0; t < s->ntests; t++) {
		bool beyond = s->drift[t] > r->noise || s->drift[t] < -r->noise;

		svg_printf(w, "<tr><td>");
		svg_esc(w, s->tests[t], sizeof(s->tests[t]));
		svg_printf(w, "</td>");
		snprintf(key, sizeof(key), "drift.change.%u", t);
		snprintf(b, sizeof(b), "%+.1f %%", 100 * s->drift[t]);
		value_cell(w, key, s->drift[t], b);
		svg_printf(w, "<td>%s</td></tr>\n", !beyond ? "within the noise band" :
			   s->drifted ? "drifted" : "beyond the band, not significant");
	}
	svg_printf(w, "</tbody>\n</table>\n<p>Drifted: <span data-key=\"drift.drifted\">%s</span>"
		   "%s</p>\n", s->drifted ? "yes" : "no", s->drifted ? " &#8212; nothing is "
		   "recommended from this sweep; run tune again on a quiet machine." :
		   " (a drift is a change beyond the noise band that is also significant: "
		   "Welch's t at 1 %% on the logarithms).");
}

static void page_sweep(struct svg *w, const struct tune_result *r, const struct tune_sweep *s,
		       unsigned si)
{
	const char *knob = tune_knob_option(s->knob), *attr = tune_knob_attr(s->knob);

	svg_printf(w, "<section id=\"sweep-%u\" class=\"sweep\" data-sweep=\"%u\">\n<h2>", si, si);
	svg_esc(w, knob, strlen(knob));
	svg_printf(w, " <small>(queue/");
	svg_esc(w, attr, strlen(attr));
	svg_printf(w, ")</small></h2>\n<table>\n<tbody>\n");
	html_fact(w, "workload", "workload", s->workload, sizeof(s->workload));
	svg_printf(w, "<tr><th>values</th><td>");
	for (unsigned k = 0; k < s->nconfig; k++) {
		svg_printf(w, "%s<span data-key=\"configs.%u\">", k ? ", " : "", k);
		svg_esc(w, s->configs[k], sizeof(s->configs[k]));
		svg_printf(w, "</span>");
		if (!k)
			svg_printf(w, " (current)");
		else if (tune_is_control(s, k))
			svg_printf(w, " (again: a control)");
	}
	svg_printf(w, "</td></tr>\n<tr><th>design</th><td>%u blocks, each every value once in a "
		   "seeded random order, the current value also first and last</td></tr>\n"
		   "<tr><th>trials</th><td>%u of <span data-key=\"trials_planned\">%u</span> ran "
		   "(a trial: one test of one value)</td></tr>\n", r->nblocks, s->ntrials,
		   s->planned);
	/* the sequential design: where it stopped, and why */
	svg_printf(w, "<tr><th>stopped early</th><td class=\"sequential\"><span "
		   "data-key=\"sequential.stopped_early\">%s</span>: <span "
		   "data-key=\"sequential.blocks_run\">%u</span> of <span "
		   "data-key=\"sequential.max_blocks\">%u</span> blocks run%s</td></tr>\n",
		   s->stopped_early ? "yes" : "no", s->nblocks_run, s->max_blocks,
		   s->stopped_early ? ", every verdict settled at the look after the last of "
		   "them (each interval beyond the noise band or within it)" : "");
	if (s->analyzed)
		svg_printf(w, "<tr><th>comparisons</th><td><span data-key=\"comparisons\">%u</span> "
			   "(values x tests x throughput and p99), the intervals together at %.0f %%</td></tr>\n", s->ncompared,
			   level_pct(s));
	svg_printf(w, "</tbody>\n</table>\n<p class=\"words\">%s: ", s->recommended >= 0 ?
		   "Recommended" : "Verdict");
	svg_esc(w, s->reason, sizeof(s->reason));
	svg_printf(w, "</p>\n");
	sweep_notes(w, s);
	if (!s->analyzed) {
		svg_printf(w, "<p class=\"none\">The sweep did not finish: no medians, ratios or "
			   "verdicts are claimed.</p>\n</section>\n");
		return;
	}
	sweep_plots(w, r, s, si);
	sweep_table(w, s, si);
	sweep_drift(w, r, s);
	svg_printf(w, "</section>\n");
}

int report_tune_html(FILE *f, const struct tune_result *r)
{
	struct svg w = { .f = f };
	char title[128];

	snprintf(title, sizeof(title), "diskbench tune: %.*s", (int)sizeof(r->queue.disk),
		 r->queue.disk);
	html_begin(&w, title);
	page_header(&w, r);
	page_verdicts(&w, r);
	page_facts(&w, r);
	for (unsigned i = 0; i < r->nsweeps; i++)
		page_sweep(&w, r, &r->sweeps[i], i);
	html_warnings(&w, r->warnings, r->nwarnings);
	svg_printf(&w, "<footer>\n<p>A sample is one block of a sweep (every value once), never "
		   "one I/O or one second; rates are medians over the blocks; MB/s = 10^6 bytes/s. "
		   "This page holds the tune as JSON (the document <code>tune --json</code> writes, "
		   "diskbench-tune/1). It loads nothing from anywhere.</p>\n");
	return html_close(&w, "diskbench-tune", render_json, r);
}
