/* html_run.c - the HTML report of a run: header, warnings, summary table, notes, the result embedded. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "html_run.h"
#include "json_writer.h"
#include "parse.h"
#include "repeat.h"
#include "report.h"

/* A fixed char array as "%.*s" arguments: never read past the array. */
#define FLD(arr) (int)sizeof(arr), (arr)

static int render_json(FILE *f, const void *r)
{
	return report_json(f, r);
}

static unsigned max_runs(const struct run_result *r)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->ntests; i++)
		if (r->tests[i].nruns > n)
			n = r->tests[i].nruns;
	return n;
}

static void page_header(struct svg *w, const struct run_result *r)
{
	const struct target_info *t = &r->target;
	char b[PATH_MAX + 256];

	svg_printf(w, "<header>\n<h1>diskbench report");
	if (r->label[0]) {
		svg_printf(w, ": ");
		svg_esc(w, r->label, sizeof(r->label));
	}
	svg_printf(w, "</h1>\n<p class=\"sub\">");
	snprintf(b, sizeof(b), "%.*s (%s%s%.*s) on %.*s, kernel %.*s, started %.*s, diskbench %s",
		 FLD(t->path), t->kind_detail[0] ? t->kind_detail : target_kind_name(t->kind),
		 t->fs_type[0] && t->kind != TARGET_BLOCK ? ", " : "",
		 t->kind != TARGET_BLOCK ? (int)sizeof(t->fs_type) : 0, t->fs_type,
		 FLD(r->host.hostname), FLD(r->host.kernel), FLD(r->started_at),
		 r->tool_version ? r->tool_version : "(unknown version)");
	svg_esc(w, b, sizeof(b));
	svg_printf(w, "</p>\n</header>\n");
}

/* ---- the summary table -------------------------------------------------------- */

/* A numeric cell: the human form, the JSON number (key: its path in the
 * test's JSON object; NULL: none, the value only sorts), and with a range
 * (the runs' least and most) a second line "lo - hi". */
struct cell {
	char key[40];		/* "" for none */
	char text[32], value[64];
	bool range;
	char lo[32], hi[32], lo_v[64], hi_v[64];
};

static void put_cell(struct svg *w, const struct cell *c)
{
	svg_printf(w, "<td class=\"num\"");
	if (c->key[0])
		svg_printf(w, " data-key=\"%s\"", c->key);
	svg_printf(w, " data-value=\"%s\"", c->value);
	if (c->range)
		svg_printf(w, " data-min=\"%s\" data-max=\"%s\"", c->lo_v, c->hi_v);
	svg_printf(w, ">");
	svg_esc(w, c->text, sizeof(c->text));
	if (c->range) {
		svg_printf(w, "<small>");
		svg_esc(w, c->lo, sizeof(c->lo));
		svg_printf(w, "\xe2\x80\x93");	/* en dash */
		svg_esc(w, c->hi, sizeof(c->hi));
		svg_printf(w, "</small>");
	}
	svg_printf(w, "</td>");
}

static void cell_mbs(struct cell *c, const struct test_result *t)
{
	double lo, hi;

	*c = (struct cell){ .key = "bytes_per_sec" };
	report_fmt_dec3(t->bytes_per_sec / 1e6, c->text, sizeof(c->text));
	jw_num_fixed(t->bytes_per_sec, 3, c->value, sizeof(c->value));
	if (t->nruns > 1 && html_runs_range(t, HTML_FIG_BPS, &lo, &hi)) {
		c->range = true;
		report_fmt_dec3(lo / 1e6, c->lo, sizeof(c->lo));
		report_fmt_dec3(hi / 1e6, c->hi, sizeof(c->hi));
		jw_num_double(lo, c->lo_v, sizeof(c->lo_v));
		jw_num_double(hi, c->hi_v, sizeof(c->hi_v));
	}
}

static void cell_iops(struct cell *c, const struct test_result *t)
{
	double lo, hi;

	*c = (struct cell){ .key = "iops" };
	report_fmt_count(t->iops, c->text, sizeof(c->text));
	jw_num_fixed(t->iops, 3, c->value, sizeof(c->value));
	if (t->nruns > 1 && html_runs_range(t, HTML_FIG_IOPS, &lo, &hi)) {
		c->range = true;
		report_fmt_count(lo, c->lo, sizeof(c->lo));
		report_fmt_count(hi, c->hi, sizeof(c->hi));
		jw_num_double(lo, c->lo_v, sizeof(c->lo_v));
		jw_num_double(hi, c->hi_v, sizeof(c->hi_v));
	}
}

/* Percentile k of result_pcts; with runs, p99 shows the runs' own p99s. */
static void cell_pct(struct cell *c, const struct test_result *t, unsigned k, bool lat)
{
	double lo, hi;

	*c = (struct cell){ .range = false };
	snprintf(c->key, sizeof(c->key), "lat_ns.percentiles.%s", result_pct_keys[k]);
	if (!lat) {
		snprintf(c->text, sizeof(c->text), "-");
		snprintf(c->value, sizeof(c->value), "%" PRIu64, t->lat_sum.pct[k]);
		return;
	}
	report_fmt_ns((double)t->lat_sum.pct[k], c->text, sizeof(c->text));
	snprintf(c->value, sizeof(c->value), "%" PRIu64, t->lat_sum.pct[k]);
	if (t->nruns > 1 && !strcmp(result_pct_keys[k], "99") &&
	    html_runs_range(t, HTML_FIG_P99, &lo, &hi)) {
		c->range = true;
		report_fmt_ns(lo, c->lo, sizeof(c->lo));
		report_fmt_ns(hi, c->hi, sizeof(c->hi));
		snprintf(c->lo_v, sizeof(c->lo_v), "%.0f", lo);
		snprintf(c->hi_v, sizeof(c->hi_v), "%.0f", hi);
	}
}

static unsigned pct_index(const char *key)
{
	unsigned i;

	for (i = 0; i < RESULT_NPCT - 1 && strcmp(result_pct_keys[i], key); i++)
		;
	return i;
}

static void badge(struct svg *w, const char *cls, const char *title, const char *text)
{
	svg_printf(w, "<span class=\"badge %s\" title=\"", cls);
	svg_esc(w, title, strlen(title));
	svg_printf(w, "\">");
	svg_esc(w, text, strlen(text));
	svg_printf(w, "</span>");
}

static void summary_row(struct svg *w, const struct test_result *t, unsigned idx, bool runs)
{
	static const char *const pcts[] = { "50", "99", "99.9" };
	bool lat = result_has_lat(t);
	double cpu = t->cpu_user_pct + t->cpu_sys_pct;
	struct cell c;
	char b[64];

	svg_printf(w, "<tr data-test=\"%u\"><td data-key=\"name\">", idx);
	svg_esc(w, t->name, sizeof(t->name));
	svg_printf(w, "</td><td data-key=\"engine\">");
	svg_esc(w, t->engine ? t->engine : "-", 64);
	format_size(t->bs, b, sizeof(b));
	svg_printf(w, "</td><td class=\"num\" data-key=\"bs\" data-value=\"%" PRIu32 "\">%s</td>"
		   "<td class=\"num\" data-key=\"qd\" data-value=\"%" PRIu32 "\">%" PRIu32 "</td>"
		   "<td class=\"num\" data-key=\"jobs\" data-value=\"%" PRIu32 "\">%" PRIu32 "</td>",
		   t->bs, b, t->qd, t->qd, t->jobs, t->jobs);
	cell_mbs(&c, t);
	put_cell(w, &c);
	cell_iops(&c, t);
	put_cell(w, &c);
	for (unsigned k = 0; k < 3; k++) {
		cell_pct(&c, t, pct_index(pcts[k]), lat);
		put_cell(w, &c);
	}
	c = (struct cell){ .range = false };
	if (isfinite(cpu)) {
		snprintf(c.text, sizeof(c.text), "%.1f", cpu);
		snprintf(c.value, sizeof(c.value), "%.3f", cpu);
	} else {
		snprintf(c.text, sizeof(c.text), "-");
		snprintf(c.value, sizeof(c.value), "0");
	}
	put_cell(w, &c);
	if (runs) {
		svg_printf(w, "<td class=\"num\" data-key=\"summary.runs\" data-value=\"%u\">%u</td>",
			   t->nruns, t->nruns);
		c = (struct cell){ .key = "summary.iops.cv" };
		if (t->nruns > 1)
			snprintf(c.text, sizeof(c.text), "%.1f", 100 * t->summary.iops.cv);
		else
			snprintf(c.text, sizeof(c.text), "-");
		jw_num_double(t->summary.iops.cv, c.value, sizeof(c.value));
		put_cell(w, &c);
	}
	svg_printf(w, "<td>");
	if (t->drop_behind)
		badge(w, "mode", "buffered, as if its file were larger than RAM", "drop-behind");
	else if (!t->direct)
		badge(w, "mode", "buffered I/O through the page cache", "buffered");
	if (t->cached)
		badge(w, "cached", "its reads did not reach the device: page-cache numbers",
		      "cached");
	if (t->unwritten.flagged) {
		snprintf(b, sizeof(b), "unwritten %.0f %%", 100 * unwritten_worst(&t->unwritten));
		badge(w, "errors", "it read unwritten space (holes, never-written or trimmed "
		      "blocks), which reads back as zeros without touching the disk: not the "
		      "disk's speed; write the region first, or use --destructive", b);
	}
	if (t->errors) {
		snprintf(b, sizeof(b), "%" PRIu64 " errors", t->errors);
		badge(w, "errors", "failed or short I/Os", b);
	}
	if (t->verify.bad) {
		snprintf(b, sizeof(b), "%" PRIu64 " bad blocks", t->verify.bad);
		badge(w, "errors", "blocks read back that did not match what was written", b);
	}
	if (t->tool_bound)
		badge(w, "cached", "a job of diskbench kept a CPU busy nearly all of its window: "
		      "the tool and the CPU may bound this result, not the device", "tool-bound");
	if (t->thermal_throttling)
		badge(w, "cached", "the drive throttled for heat during it: its thermal counters "
		      "rose or it reached its warning temperature (smartctl)",
		      "thermal throttling");
	if (t->unreliable)
		badge(w, "cached", "the runs' IOPS spread more than 10 % around their mean",
		      "unreliable");
	svg_printf(w, "</td></tr>\n");
}

static void page_summary(struct svg *w, const struct run_result *r)
{
	bool runs = max_runs(r) > 1;
	char b[32];

	svg_printf(w, "<section id=\"summary\">\n<h2>Summary</h2>\n");
	if (!r->ntests) {
		svg_printf(w, "<p class=\"none\">No tests were run.</p>\n</section>\n");
		return;
	}
	svg_printf(w, "<table id=\"summary-table\" class=\"sortable\">\n<thead><tr><th>test</th>"
		   "<th>engine</th><th class=\"num\">bs</th><th class=\"num\">qd</th>"
		   "<th class=\"num\">jobs</th><th class=\"num\">MB/s</th><th class=\"num\">IOPS</th>"
		   "<th class=\"num\">p50</th><th class=\"num\">p99</th>"
		   "<th class=\"num\">p99.9</th><th class=\"num\">CPU%%</th>%s<th>notes</th>"
		   "</tr></thead>\n<tbody>\n",
		   runs ? "<th class=\"num\">runs</th><th class=\"num\">CV%</th>" : "");
	for (unsigned i = 0; i < r->ntests; i++)
		summary_row(w, &r->tests[i], i, runs);
	svg_printf(w, "</tbody>\n</table>\n<p>MB/s = 10<sup>6</sup> bytes/s; latency per I/O from "
		   "submission to completion; clock cost ");
	svg_esc(w, report_fmt_ns((double)r->clock_overhead_ns, b, sizeof(b)), sizeof(b));
	svg_printf(w, ".");
	if (runs)
		svg_printf(w, " With --repeat, IOPS and MB/s are the median of each test's runs "
			   "with the slowest and the fastest run below, p99 over every I/O of every "
			   "run with the runs' own p99s below; CV%% = stdev / mean of the runs' "
			   "IOPS.");
	svg_printf(w, " Click a column's head to sort.</p>\n</section>\n");
}

/* The text report's notes, one item each. */
static void page_notes(struct svg *w, const struct run_result *r)
{
	char line[PATH_MAX], a[32], b[32];
	bool head = false;

	if (r->read_layout.laid_out) {
		svg_printf(w, "<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n<li>");
		head = true;
		snprintf(line, sizeof(line), "laid out: %s MB of %.*s written before the read "
			 "tests (--destructive), in %.1f s, so that they read data, not unwritten "
			 "space", report_fmt_dec3((double)r->read_layout.laid_out_bytes / 1e6, a,
						  sizeof(a)), PATH_MAX / 2, r->target.path,
			 (double)r->read_layout.laid_out_ns / 1e9);
		svg_esc(w, line, sizeof(line));
		svg_printf(w, "</li>\n");
	}
	for (unsigned i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];
		const char *what[7] = { NULL };
		char lines[7][PATH_MAX / 4 + 320];
		unsigned n = 0, warn = 0;

		if (t->unwritten.applies) {
			report_unwritten_note(t, &r->read_layout, lines[n], sizeof(lines[n]));
			warn |= t->unwritten.flagged ? 1u << n : 0;
			what[n] = lines[n];
			n++;
		}
		if (t->cached) {
			warn |= 1u << n;
			snprintf(lines[n], sizeof(lines[n]), "cached: reads did not reach the device "
				 "(%s MB read from the device for %s MB requested)",
				 report_fmt_dec3((double)t->dev_read_bytes / 1e6, a, sizeof(a)),
				 report_fmt_dec3((double)t->bytes / 1e6, b, sizeof(b)));
			what[n] = lines[n];
			n++;
		}
		if (t->dev_valid) {
			snprintf(lines[n], sizeof(lines[n]), "device moved: read %s MB, written %s MB%s",
				 report_fmt_dec3((double)t->dev_read_bytes / 1e6, a, sizeof(a)),
				 report_fmt_dec3((double)t->dev_write_bytes / 1e6, b, sizeof(b)),
				 t->unwritten.flagged ? " (reads of unwritten space are counted too: "
				 "no proof the disk was read)" : "");
			what[n] = lines[n];
			n++;
		}
		if (t->errors) {
			snprintf(lines[n], sizeof(lines[n]), "errors: %" PRIu64 " (first: %s at "
				 "offset %" PRIu64 ")", t->errors, t->first_errno ?
				 strerror(t->first_errno) : "short transfer", t->first_error_offset);
			what[n] = lines[n];
			n++;
		}
		if (t->verify.done) {
			report_verify_note(t, lines[n], sizeof(lines[n]));
			what[n] = lines[n];
			n++;
		}
		if (t->syscalls_valid) {
			report_cost_note(t, lines[n], sizeof(lines[n]));
			what[n] = lines[n];
			n++;
		}
		for (unsigned k = 0; k < n; k++) {
			if (!head) {
				svg_printf(w, "<section id=\"notes\">\n<h2>Notes</h2>\n<ul>\n");
				head = true;
			}
			snprintf(line, sizeof(line), "%.*s: %s", FLD(t->name), what[k]);
			svg_printf(w, "<li%s>", warn & (1u << k) ? " class=\"warn\"" : "");
			svg_esc(w, line, sizeof(line));
			svg_printf(w, "</li>\n");
		}
	}
	if (head)
		svg_printf(w, "</ul>\n</section>\n");
}

static void page_xbench(struct svg *w, const struct xbench_scores *x)
{
	char b[64];

	if (!x->valid)
		return;
	svg_printf(w, "<section id=\"xbench\">\n<h2>Xbench scores</h2>\n<p>100 = the baseline (");
	svg_esc(w, x->source, sizeof(x->source));
	svg_printf(w, "); groups and the total are harmonic means, as in Xbench.</p>\n"
		   "<table id=\"xbench-table\">\n<thead><tr><th>test</th><th class=\"num\">score"
		   "</th><th class=\"num\">MB/s</th></tr></thead>\n<tbody>\n");
	for (unsigned i = 0; i < x->n; i++) {
		svg_printf(w, "<tr><td>");
		svg_esc(w, x->tests[i].name ? x->tests[i].name : "", 128);
		svg_printf(w, "</td><td class=\"num\" data-value=\"%s\">%.2f</td>",
			   jw_num_fixed(x->tests[i].score, 2, b, sizeof(b)), x->tests[i].score);
		svg_printf(w, "<td class=\"num\">%.2f</td></tr>\n", x->tests[i].measured / 1e6);
	}
	svg_printf(w, "<tr><th>sequential</th><td class=\"num\">%.2f</td><td></td></tr>\n"
		   "<tr><th>random</th><td class=\"num\">%.2f</td><td></td></tr>\n"
		   "<tr><th>total</th><td class=\"num\">%.2f</td><td></td></tr>\n"
		   "</tbody>\n</table>\n</section>\n", x->sequential, x->random, x->total);
}

int report_html(FILE *f, const struct run_result *r)
{
	struct svg w = { .f = f };
	char title[384];

	snprintf(title, sizeof(title), "diskbench: %.*s%s%.*s", FLD(r->label),
		 r->label[0] ? " - " : "", FLD(r->target.path));
	html_begin(&w, title);
	page_header(&w, r);
	html_warnings(&w, r->warnings, r->nwarnings);
	page_summary(&w, r);
	html_run_ranks(&w, r);
	html_run_charts(&w, r);
	page_notes(&w, r);
	page_xbench(&w, &r->xbench);
	html_run_facts(&w, r);
	svg_printf(&w, "<footer>\n<p>This page holds the whole result as JSON (the same document "
		   "<code>--json</code> writes): <code>diskbench report THIS.html</code> renders it "
		   "again as text, JSON, CSV or HTML, and <code>diskbench compare</code> reads it "
		   "too. It loads nothing from anywhere.</p>\n");
	return html_close(&w, "diskbench-result", render_json, r);
}
