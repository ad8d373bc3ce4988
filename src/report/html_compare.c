/* html_compare.c - the HTML report of a comparison: both sides' facts, the table, the ratio plots. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "html.h"
#include "html_run.h"
#include "json_writer.h"
#include "report.h"

static int render_json(FILE *f, const void *c)
{
	return report_compare_json(f, c);
}

/* ---- the facts of every side --------------------------------------------------- */

/* How a side's fact is stored in struct run_result, and shown. */
enum side_kind {
	SIDE_STR,	/* a char array */
	SIDE_VERSION,	/* tool_version */
	SIDE_MADE_BY,	/* which tool made it (compare_made_by) */
	SIDE_UINT,	/* an unsigned count */
	SIDE_BYTES,	/* a uint64_t capacity: human text, its bytes in data-value */
	SIDE_INT,	/* an int, -1 unknown */
	SIDE_TRI,	/* an int flag: yes, no, -1 unknown */
};

/* The facts shown side by side: name, key in every side's JSON, where. */
static const struct side_fact {
	const char *name, *key;
	enum side_kind kind;
	size_t off, len;
} side_facts[] = {
#define AT(field) .off = offsetof(struct run_result, field), \
		  .len = sizeof(((struct run_result *)0)->field)
	{ .name = "label", .key = "label", .kind = SIDE_STR, AT(label) },
	{ .name = "started", .key = "started_at", .kind = SIDE_STR, AT(started_at) },
	{ .name = "made by", .key = "made_by", .kind = SIDE_MADE_BY },
	{ .name = "diskbench", .key = "tool.version", .kind = SIDE_VERSION },
	{ .name = "hostname", .key = "host.hostname", .kind = SIDE_STR, AT(host.hostname) },
	{ .name = "kernel", .key = "host.kernel", .kind = SIDE_STR, AT(host.kernel) },
	{ .name = "CPU", .key = "host.cpu_model", .kind = SIDE_STR, AT(host.cpu_model) },
	{ .name = "CPUs", .key = "host.cpus", .kind = SIDE_UINT, AT(host.cpus) },
	{ .name = "memory", .key = "host.memory_bytes", .kind = SIDE_BYTES, AT(host.memory_bytes) },
	{ .name = "target", .key = "target.path", .kind = SIDE_STR, AT(target.path) },
	{ .name = "kind", .key = "target.kind_detail", .kind = SIDE_STR, AT(target.kind_detail) },
	{ .name = "device", .key = "target.device", .kind = SIDE_STR, AT(target.device) },
	{ .name = "model", .key = "target.model", .kind = SIDE_STR, AT(target.model) },
	{ .name = "file system", .key = "target.fs_type", .kind = SIDE_STR, AT(target.fs_type) },
	{ .name = "mount options", .key = "target.mount_options", .kind = SIDE_STR,
	  AT(target.mount_options) },
	{ .name = "scheduler", .key = "target.scheduler", .kind = SIDE_STR, AT(target.scheduler) },
	{ .name = "read_ahead_kb", .key = "target.read_ahead_kb", .kind = SIDE_INT,
	  AT(target.read_ahead_kb) },
	{ .name = "nr_requests", .key = "target.nr_requests", .kind = SIDE_INT,
	  AT(target.nr_requests) },
	{ .name = "rotational", .key = "target.rotational", .kind = SIDE_TRI,
	  AT(target.rotational) },
	{ .name = "stack", .key = "target.stack", .kind = SIDE_STR, AT(target.stack) },
#undef AT
};

/* Fact f of r as the page shows it (the JSON's value; unknown for -1),
 * and its number for data-value ("" when the text is the value). */
static void side_value(const struct run_result *r, const struct side_fact *f, char *buf,
		       size_t len, char *num, size_t numlen)
{
	const char *p = (const char *)r + f->off;
	int v;

	num[0] = '\0';
	switch (f->kind) {
	case SIDE_STR:
		snprintf(buf, len, "%.*s", (int)f->len, p);
		break;
	case SIDE_VERSION:
		snprintf(buf, len, "%s", r->tool_version ? r->tool_version : "");
		break;
	case SIDE_MADE_BY:
		compare_made_by(r, buf, len);
		break;
	case SIDE_UINT:
		snprintf(buf, len, "%u", *(const unsigned *)(const void *)p);
		break;
	case SIDE_BYTES:
		report_fmt_capacity(*(const uint64_t *)(const void *)p, buf, len);
		snprintf(num, numlen, "%" PRIu64, *(const uint64_t *)(const void *)p);
		break;
	case SIDE_INT:
	case SIDE_TRI:
		v = *(const int *)(const void *)p;
		if (v < 0)
			snprintf(buf, len, "unknown");
		else if (f->kind == SIDE_TRI)
			snprintf(buf, len, "%s", v ? "yes" : "no");
		else
			snprintf(buf, len, "%d", v);
		break;
	}
}

/* Does any pair list key among what differs? */
static bool differs(const struct compare *c, const char *key)
{
	for (unsigned i = 0; i < c->npairs; i++)
		for (unsigned k = 0; k < c->pairs[i].ndiffs; k++)
			if (!strcmp(c->pairs[i].diffs[k].key, key))
				return true;
	return false;
}

static void page_sides(struct svg *w, const struct compare *c)
{
	char b[512], num[32];

	svg_printf(w, "<section id=\"sides\">\n<h2>Both sides</h2>\n"
		   "<table id=\"sides-table\">\n<thead><tr><th></th><th>baseline: ");
	svg_esc(w, c->base_label, strlen(c->base_label));
	svg_printf(w, "</th>");
	for (unsigned i = 0; i < c->npairs; i++) {
		svg_printf(w, "<th>");
		svg_esc(w, c->pairs[i].label, strlen(c->pairs[i].label));
		svg_printf(w, "</th>");
	}
	svg_printf(w, "</tr></thead>\n<tbody>\n");
	for (unsigned k = 0; k < sizeof(side_facts) / sizeof(side_facts[0]); k++) {
		bool diff = differs(c, side_facts[k].key), any = false;

		/* a fact no side has (no device under tmpfs): no row */
		for (unsigned i = 0; i <= c->npairs; i++) {
			side_value(i ? c->pairs[i - 1].after : c->base, &side_facts[k], b,
				   sizeof(b), num, sizeof(num));
			any |= b[0] != '\0';
		}
		if (!any)
			continue;

		svg_printf(w, "<tr%s><th>", diff ? " class=\"differs\"" : "");
		svg_esc(w, side_facts[k].name, strlen(side_facts[k].name));
		svg_printf(w, "</th>");
		for (unsigned i = 0; i <= c->npairs; i++) {
			const struct run_result *r = i ? c->pairs[i - 1].after : c->base;

			side_value(r, &side_facts[k], b, sizeof(b), num, sizeof(num));
			svg_printf(w, "<td data-side=\"%u\" data-key=\"%s\"", i, side_facts[k].key);
			if (num[0])
				svg_printf(w, " data-value=\"%s\"", num);
			svg_printf(w, ">");
			svg_esc(w, b, sizeof(b));
			svg_printf(w, "</td>");
		}
		svg_printf(w, "</tr>\n");
	}
	svg_printf(w, "</tbody>\n</table>\n<p>A row in bold differs between the sides; every "
		   "difference, the settings included, is listed with each comparison below."
		   "</p>\n</section>\n");
}

/* ---- one comparison ---------------------------------------------------------------- */

static const char *verdict_class(const struct compare_value *v)
{
	return v->verdict == CMP_BETTER ? "better" : v->verdict == CMP_WORSE ? "worse" : "same";
}

/* The ratio a plot shows for v: of the runs' medians, else of the figures. */
static double shown_ratio(const struct compare_value *v)
{
	return isfinite(v->med_ratio) && v->med_ratio > 0 ? v->med_ratio : v->ratio;
}

static enum html_verdict plot_verdict(const struct compare_value *v)
{
	return v->verdict == CMP_BETTER ? HTML_BETTER : v->verdict == CMP_WORSE ? HTML_WORSE :
	       v->verdict == CMP_SAME ? HTML_SAME : HTML_UNJUDGED;
}

/* The figure a plot's note shows for metric m of t: MB/s for a test that
 * moves bytes in sequence (its natural unit; the same ratio as its IOPS),
 * else m itself. */
static enum compare_metric note_metric(const struct compare_test *t, enum compare_metric m)
{
	return m == CMP_IOPS && !html_by_iops(t->before) && !html_by_iops(t->after) ?
	       CMP_BYTES_PER_SEC : m;
}

static const char *fmt_metric(enum compare_metric m, double v, char *buf, size_t len);

/* A row's attributes and note: the dot's test and metric, the figures the
 * note shows as JSON numbers (data-before, data-after, data-note-metric)
 * and "11.1M -> 4.43M IOPS". */
struct plot_row_text {
	char attrs[256], note[96];
};

static void row_text(const struct compare_test *t, unsigned i, enum compare_metric m,
		     struct plot_row_text *o)
{
	enum compare_metric nm = note_metric(t, m);
	const struct compare_value *v = &t->m[nm];
	char b[32], a[32], jb[64], ja[64];

	snprintf(o->attrs, sizeof(o->attrs), "data-test=\"%u\" data-metric=\"%s\" "
		 "data-note-metric=\"%s\" data-before=\"%s\" data-after=\"%s\"", i,
		 compare_metrics[m].key, compare_metrics[nm].key,
		 jw_num_double(v->before, jb, sizeof(jb)), jw_num_double(v->after, ja, sizeof(ja)));
	if (nm == CMP_BYTES_PER_SEC) {
		/* "1.12 GB/s": a rate of any size in a few characters */
		svg_label(SVG_F_SI, v->before, b, sizeof(b));
		svg_label(SVG_F_SI, v->after, a, sizeof(a));
		snprintf(o->note, sizeof(o->note), "%s%s \xe2\x86\x92 %s%s", b,
			 isfinite(v->before) ? "B/s" : "", a, isfinite(v->after) ? "B/s" : "");
		return;
	}
	snprintf(o->note, sizeof(o->note), "%s \xe2\x86\x92 %s%s", fmt_metric(nm, v->before, b,
		 sizeof(b)), fmt_metric(nm, v->after, a, sizeof(a)), nm == CMP_IOPS ? " IOPS" : "");
}

static void ratio_plot(struct svg *w, const struct compare *c, const struct compare_pair *p,
		       unsigned pi, enum compare_metric m)
{
	struct html_ratio_row *rows = calloc(p->ntests ? p->ntests : 1, sizeof(*rows));
	struct plot_row_text *txt = calloc(p->ntests ? p->ntests : 1, sizeof(*txt));
	char id[48];
	bool thr = m == CMP_IOPS;

	if (!rows || !txt) {
		if (!w->err)
			w->err = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < p->ntests; i++) {
		const struct compare_value *v = &p->tests[i].m[m];

		row_text(&p->tests[i], i, m, &txt[i]);
		rows[i] = (struct html_ratio_row){ .label = p->tests[i].before->name,
						   .ratio = shown_ratio(v), .lo = v->lo, .hi = v->hi,
						   .verdict = plot_verdict(v),
						   .dashed = v->low_confidence, .attrs = txt[i].attrs,
						   .note = txt[i].note };
	}
	snprintf(id, sizeof(id), "chart-ratio-%u-%s", pi, thr ? "iops" : "p99");
	html_ratio_plot(w, &(struct html_ratio_plot){
		.id = id, .noise = c->noise, .lower_better = !thr, .rows = rows, .n = p->ntests,
		.title = thr ? "Throughput after / before, per test" :
			 "p99 latency after / before, per test",
		.axis = thr ? "throughput after / before" : "p99 latency after / before" });
out:
	free(rows);
	free(txt);
}

/* "1.23k", "812us": the figure of metric m for people. */
static const char *fmt_metric(enum compare_metric m, double v, char *buf, size_t len)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (m == CMP_IOPS)
		report_fmt_count(v, buf, len);
	else if (m == CMP_BYTES_PER_SEC)
		report_fmt_dec3(v / 1e6, buf, len);
	else if (m == CMP_CPU_PER_OP)
		snprintf(buf, len, "%.2f", v);
	else
		report_fmt_ns(v, buf, len);
	return buf;
}

/* A cell of figure f ("before", "ratio" ...) of metric m: its JSON path
 * under compared[p].tests[i] and the JSON's number. */
static void value_cell(struct svg *w, enum compare_metric m, const char *f, double v,
		       const char *text)
{
	char num[64];

	svg_printf(w, "<td class=\"num\" data-key=\"metrics.%s.%s\" data-value=\"%s\">",
		   compare_metrics[m].key, f, jw_num_double(v, num, sizeof(num)));
	svg_esc(w, text, strlen(text));
	svg_printf(w, "</td>");
}

/* The change of metric m in words ("35.0x higher", "12 % slower"), its
 * ratio as the cell's number. */
static void change_cell(struct svg *w, enum compare_metric m, const struct compare_value *v)
{
	char c[48];

	if (!compare_metric_words(m, v->ratio, c, sizeof(c))[0])
		snprintf(c, sizeof(c), "-");
	value_cell(w, m, "ratio", v->ratio, c);
}

static void table_metric(struct svg *w, const struct compare_test *t, enum compare_metric m,
			 bool judged)
{
	const struct compare_value *v = &t->m[m];
	char b[32], c[32];

	value_cell(w, m, "before", v->before, fmt_metric(m, v->before, b, sizeof(b)));
	value_cell(w, m, "after", v->after, fmt_metric(m, v->after, b, sizeof(b)));
	change_cell(w, m, v);
	if (!judged)
		return;
	if (!isfinite(v->med_ratio))
		snprintf(c, sizeof(c), "-");
	else if (!isfinite(v->lo))
		snprintf(c, sizeof(c), "%.2f", v->med_ratio);
	else if (v->low_confidence)
		snprintf(c, sizeof(c), "%.2f (%.2f..%.2f)", v->med_ratio, v->lo, v->hi);
	else
		snprintf(c, sizeof(c), "%.2f [%.2f, %.2f]", v->med_ratio, v->lo, v->hi);
	value_cell(w, m, "median_ratio", v->med_ratio, c);
	if (t->mismatch[0] && !t->failed[0]) {
		/* measured differently: no verdict, and why */
		svg_printf(w, "<td class=\"%s\" title=\"", verdict_class(v));
		svg_esc(w, t->mismatch, sizeof(t->mismatch));
		svg_printf(w, "\">differs</td>");
		return;
	}
	if (t->failed[0]) {
		/* a failed side: no verdict, and why */
		svg_printf(w, "<td class=\"%s\" title=\"", verdict_class(v));
		svg_esc(w, t->failed, sizeof(t->failed));
		svg_printf(w, "\">failed</td>");
		return;
	}
	svg_printf(w, "<td class=\"%s\">%s</td>", verdict_class(v),
		   v->verdict == CMP_UNJUDGED ? (v->low_confidence && v->nbefore && v->nafter ?
		   "low conf." : "-") : v->verdict == CMP_SAME ? "~" :
		   m == CMP_IOPS ? (v->verdict == CMP_BETTER ? "faster" : "slower") :
		   (v->verdict == CMP_BETTER ? "lower" : "higher"));
}

static void pair_table(struct svg *w, const struct compare_pair *p, unsigned pi)
{
	svg_printf(w, "<table id=\"compare-table-%u\" class=\"sortable cmp\">\n<thead><tr>"
		   "<th>test</th><th class=\"num\">IOPS before</th><th class=\"num\">after</th>"
		   "<th class=\"num\">change</th><th class=\"num\">ratio</th><th>verdict</th>"
		   "<th class=\"num\">p99 before</th><th class=\"num\">after</th>"
		   "<th class=\"num\">change</th><th class=\"num\">ratio</th><th>verdict</th>"
		   "<th class=\"num\">CPU/op</th></tr></thead>\n<tbody>\n", pi);
	for (unsigned i = 0; i < p->ntests; i++) {
		const struct compare_test *t = &p->tests[i];

		svg_printf(w, "<tr data-pair=\"%u\" data-test=\"%u\"><td data-key=\"name\">", pi, i);
		svg_esc(w, t->before->name, sizeof(t->before->name));
		if (t->mismatch[0]) {
			svg_printf(w, " <span class=\"badge errors\" title=\"");
			svg_esc(w, t->mismatch, sizeof(t->mismatch));
			svg_printf(w, "\">not comparable</span> <small class=\"why\">measured "
				   "differently: ");
			svg_esc(w, t->mismatch, sizeof(t->mismatch));
			svg_printf(w, "; no verdict</small>");
		}
		if (t->busier && !t->mismatch[0] && !t->failed[0]) {
			char mw[48];

			compare_metric_words(CMP_IOPS, t->machine_ratio, mw, sizeof(mw));
			svg_printf(w, " <span class=\"badge errors\">CPU busier</span> <small "
				   "class=\"why\">its jobs waited for a CPU %.0f %% of the time "
				   "before, %.0f %% after, which alone could make it up to %s: the "
				   "throughput band is %+.0f %% to %+.0f %%, and p99 takes no "
				   "verdict</small>", t->wait_before, t->wait_after, mw,
				   100 * (t->band_lo - 1), 100 * (t->band_hi - 1));
		}
		svg_printf(w, "</td>");
		table_metric(w, t, CMP_IOPS, true);
		table_metric(w, t, CMP_LAT_P99, true);
		change_cell(w, CMP_CPU_PER_OP, &t->m[CMP_CPU_PER_OP]);
		svg_printf(w, "</tr>\n");
	}
	svg_printf(w, "</tbody>\n</table>\n");
}

/* Per test, both sides' latency percentile curves over each other. */
static void pair_overlays(struct svg *w, const struct compare *c, const struct compare_pair *p,
			  unsigned pi)
{
	char id[48], title[160], change[64], words[48];
	bool any = false;

	for (unsigned i = 0; i < p->ntests; i++)
		any |= html_overlay_has(p->tests[i].before, p->tests[i].after);
	if (!any)
		return;
	svg_printf(w, "<figure class=\"overlays\">\n<h3>Latency percentiles, before against "
		   "after</h3>\n<div class=\"charts\">\n");
	for (unsigned i = 0; i < p->ntests; i++) {
		const struct compare_test *t = &p->tests[i];

		if (!html_overlay_has(t->before, t->after))
			continue;
		snprintf(id, sizeof(id), "chart-lat-%u-%u", pi, i);
		snprintf(title, sizeof(title), "latency percentiles of %.*s, before and after",
			 (int)sizeof(t->before->name), t->before->name);
		change[0] = '\0';
		if (compare_metric_words(CMP_LAT_P99, t->m[CMP_LAT_P99].ratio, words,
					 sizeof(words))[0])
			snprintf(change, sizeof(change), "p99: %s", words);
		html_overlay(w, &(struct html_overlay){
			.id = id, .title = title, .name = t->before->name,
			.change = change[0] ? change : NULL, .before_label = c->base_label,
			.after_label = p->label, .before = t->before, .after = t->after, .test = i });
	}
	svg_printf(w, "</div>\n<figcaption>Each test's latency per I/O, from submission to "
		   "completion, over every I/O of every run: before (solid) and after (dashed), "
		   "p50 up to the last percentile enough I/Os back (p99.99 needs 10000). A curve "
		   "above the other is the slower side; where the two part shows which share of "
		   "the I/Os changed.</figcaption>\n</figure>\n");
}

static void pair_diffs(struct svg *w, const struct compare *c, const struct compare_pair *p)
{
	char drive[768];

	if (compare_drive_changed(c->base, p->after, drive, sizeof(drive))) {
		svg_printf(w, "<p class=\"drive\"><strong>");
		svg_esc(w, drive, strlen(drive));
		svg_printf(w, "</strong></p>\n");
	}
	if (!p->ndiffs) {
		svg_printf(w, "<p>Settings, target and host: the same.</p>\n");
		return;
	}
	svg_printf(w, "<table class=\"diffs\">\n<thead><tr><th>what differs</th><th>before</th>"
		   "<th>after</th></tr></thead>\n<tbody>\n");
	for (unsigned i = 0; i < p->ndiffs; i++) {
		const struct compare_diff *d = &p->diffs[i];

		svg_printf(w, "<tr><th>");
		svg_esc(w, d->key, sizeof(d->key));
		svg_printf(w, "</th><td>");
		svg_esc(w, d->before[0] ? d->before : "(none)", sizeof(d->before));
		svg_printf(w, "</td><td>");
		svg_esc(w, d->after[0] ? d->after : "(none)", sizeof(d->after));
		svg_printf(w, "</td></tr>\n");
	}
	svg_printf(w, "</tbody>\n</table>\n");
}

static void only_list(struct svg *w, const char *side, const struct test_result *const *t,
		      unsigned n)
{
	if (!n)
		return;
	svg_printf(w, "<p>Only in ");
	svg_esc(w, side, strlen(side));
	svg_printf(w, ":");
	for (unsigned i = 0; i < n; i++) {
		svg_printf(w, "%s ", i ? "," : "");
		svg_esc(w, t[i]->name, sizeof(t[i]->name));
	}
	svg_printf(w, "</p>\n");
}

static void page_pair(struct svg *w, const struct compare *c, const struct compare_pair *p,
		      unsigned pi)
{
	char b[64];

	svg_printf(w, "<section id=\"pair-%u\" class=\"pair\">\n<h2>", pi);
	svg_esc(w, p->label, strlen(p->label));
	svg_printf(w, " vs ");
	svg_esc(w, c->base_label, strlen(c->base_label));
	svg_printf(w, "</h2>\n<p class=\"words\">");
	svg_esc(w, p->words, sizeof(p->words));
	svg_printf(w, "</p>\n");
	pair_diffs(w, c, p);
	if (p->ntests) {
		svg_printf(w, "<figure>\n<div class=\"charts single\">\n");
		ratio_plot(w, c, p, pi, CMP_IOPS);
		ratio_plot(w, c, p, pi, CMP_LAT_P99);
		svg_printf(w, "</div>\n<figcaption>The ratio after / before of each test: of the "
			   "medians of its runs, with its interval");
		if (p->family) {
			char more[96] = "";

			if (compare_runs_too_few(p))
				snprintf(more, sizeof(more), ", the most these runs allow: --repeat "
					 "%u on both sides reaches 95 %%", p->runs_needed);
			svg_printf(w, " (the exact rank interval of the ratio, every run after against "
				   "every run before, at %.4g %% each, so that the %u verdicts hold "
				   "together at %.0f %%%s; a dashed bar: fewer than %d runs on a side, "
				   "the range of the runs' ratios)", 100 * p->level_held, p->family,
				   100 * compare_family_level(p), more, COMPARE_MIN_RUNS);
		} else {
			svg_printf(w, " where there are runs to take one (a dashed bar: fewer than "
				   "%d runs on a side, the range of the runs' ratios, not judged)",
				   COMPARE_MIN_RUNS);
		}
		svg_printf(w, ". The shaded band is the noise band (&#177;%s %%, --noise); a test "
			   "is coloured only where its whole interval lies beyond it: green better, "
			   "red worse. Beside each ratio, both sides' figures as the table shows "
			   "them: throughput the median over the runs (MB/s for a sequential test), p99 "
			   "over every I/O of every run, which is why its ratio may differ a little "
			   "from the ratio of the runs' medians.</figcaption>\n</figure>\n",
			   svg_label(SVG_F_SI,
			   100 * c->noise, b, sizeof(b)));
	}
	pair_table(w, p, pi);
	pair_overlays(w, c, p, pi);
	if (p->nratios) {
		char g[48], lo[48], hi[48];

		/* where every test lost, the best is only the least worse */
		svg_printf(w, "<p>IOPS over %u test%s: geometric mean ratio %.3f (%s); %s: ",
			   p->nratios, p->nratios == 1 ? "" : "s", p->geomean_iops,
			   compare_metric_words(CMP_IOPS, p->geomean_iops, g, sizeof(g)),
			   p->all_gained ? "least gain" : "worst");
		svg_esc(w, p->tests[p->worst].before->name, sizeof(p->tests[p->worst].before->name));
		svg_printf(w, " (%s); %s: ", compare_metric_words(CMP_IOPS,
			   p->tests[p->worst].m[CMP_IOPS].ratio, lo, sizeof(lo)),
			   p->all_lost ? "least worse" : "best");
		svg_esc(w, p->tests[p->best].before->name, sizeof(p->tests[p->best].before->name));
		svg_printf(w, " (%s).</p>\n", compare_metric_words(CMP_IOPS,
			   p->tests[p->best].m[CMP_IOPS].ratio, hi, sizeof(hi)));
	}
	only_list(w, c->base_label, p->only_before, p->nonly_before);
	only_list(w, p->label, p->only_after, p->nonly_after);
	if (!p->repeats)
		svg_printf(w, "<p class=\"none\">Without --repeat on both sides nothing tells a real "
			   "difference from noise; run each with --repeat %d (or more) to have every "
			   "change judged.</p>\n", COMPARE_MIN_RUNS);
	svg_printf(w, "</section>\n");
}

/* The colour of an outcome: green better, red worse, amber mixed. */
static const char *outcome_class(enum compare_outcome o)
{
	return o == CMP_OUT_BETTER ? "better" : o == CMP_OUT_WORSE ? "worse" :
	       o == CMP_OUT_MIXED ? "mixed" : "same";
}

/* The page's opening: each comparison's headline verdict, the outcome in
 * bold (the headline starts with its title and ": "). */
static void page_verdict(struct svg *w, const struct compare *c)
{
	svg_printf(w, "<section id=\"verdict\">\n");
	for (unsigned i = 0; i < c->npairs; i++) {
		const struct compare_pair *p = &c->pairs[i];
		const char *title = compare_outcome_title(p->outcome), *rest = p->headline;
		size_t n = strlen(title);

		if (!strncmp(rest, title, n) && !strncmp(rest + n, ": ", 2))
			rest += n + 2;
		svg_printf(w, "<div class=\"headline %s\" data-pair=\"%u\" data-outcome=\"%s\">"
			   "<p class=\"outcome\"><a href=\"#pair-%u\">", outcome_class(p->outcome), i,
			   compare_outcome_key(p->outcome), i);
		svg_esc(w, p->label, strlen(p->label));
		svg_printf(w, " vs ");
		svg_esc(w, c->base_label, strlen(c->base_label));
		svg_printf(w, "</a>: <strong>");
		svg_esc(w, title, n);
		svg_printf(w, "</strong></p>\n<p>");
		svg_esc(w, rest, strlen(rest));
		svg_printf(w, "</p></div>\n");
	}
	svg_printf(w, "</section>\n");
}

int report_compare_html(FILE *f, const struct compare *c)
{
	struct svg w = { .f = f };
	char title[512];

	snprintf(title, sizeof(title), "diskbench compare: %s vs %s%s",
		 c->npairs ? c->pairs[0].label : "-", c->base_label, c->npairs > 1 ? " ..." : "");
	html_begin(&w, title);
	svg_printf(&w, "<header>\n<h1>diskbench compare</h1>\n<p class=\"sub\">baseline (before): ");
	svg_esc(&w, c->base_label, strlen(c->base_label));
	svg_printf(&w, " (");
	svg_esc(&w, c->base_file, strlen(c->base_file));
	svg_printf(&w, ")");
	for (unsigned i = 0; i < c->npairs; i++) {
		svg_printf(&w, "; %s: ", i ? "and" : "compared with it");
		svg_esc(&w, c->pairs[i].label, strlen(c->pairs[i].label));
		svg_printf(&w, " (");
		svg_esc(&w, c->pairs[i].file, strlen(c->pairs[i].file));
		svg_printf(&w, ")");
	}
	svg_printf(&w, "</p>\n</header>\n");
	page_verdict(&w, c);
	for (unsigned i = 0; i < c->npairs; i++)
		page_pair(&w, c, &c->pairs[i], i);
	page_sides(&w, c);
	svg_printf(&w, "<footer>\n<p>A sample is one run (a --repeat pass), never one I/O or one "
		   "second. This page holds the comparison as JSON (the document "
		   "<code>compare --json</code> writes, diskbench-compare/1). It loads nothing from "
		   "anywhere.</p>\n");
	return html_close(&w, "diskbench-compare", render_json, c);
}
