/* html_ranks.c - the HTML report's section on a coordinated run's ranks. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "html_run.h"
#include "json_writer.h"
#include "report.h"

/* A number cell keyed by its path from the document's root. */
static void num_cell(struct svg *w, const char *key, double v, int decimals, const char *text)
{
	char b[64];

	svg_printf(w, "<td class=\"num\" data-key=\"%s\" data-value=\"%s\">", key,
		   jw_num_fixed(v, decimals, b, sizeof(b)));
	svg_esc(w, text, strlen(text));
	svg_printf(w, "</td>");
}

static void rate_text(const struct rank_imbalance *im, double rate, char *buf, size_t len)
{
	char n[32];

	if (im->by_ops)
		snprintf(buf, len, "%s IOPS", report_fmt_count(rate, n, sizeof(n)));
	else
		snprintf(buf, len, "%s MB/s", report_fmt_dec3(rate / 1e6, n, sizeof(n)));
}

void html_run_ranks(struct svg *w, const struct run_result *r)
{
	const struct result_ranks *rr = r->ranks;
	char key[96], text[64];

	if (!rr || !rr->n)
		return;
	svg_printf(w, "<section id=\"ranks\">\n<h2>Ranks</h2>\n<p>%u rank%s on %u host%s. "
		   "Totals are every rank's sum over the slowest rank's window; latency "
		   "percentiles are over every I/O of every rank (histograms summed); spread = "
		   "(fastest &#8722; slowest) / fastest.</p>\n", rr->n, rr->n == 1 ? "" : "s",
		   rr->nhosts, rr->nhosts == 1 ? "" : "s");
	svg_printf(w, "<table id=\"ranks-imbalance\">\n<thead><tr><th>test</th><th>slowest rank"
		   "</th><th class=\"num\">rate</th><th>fastest rank</th><th class=\"num\">rate"
		   "</th><th class=\"num\">spread</th></tr></thead>\n<tbody>\n");
	for (unsigned i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];
		const struct rank_imbalance *im = &t->imbalance;

		if (!t->nranks)
			continue;
		svg_printf(w, "<tr><td>");
		svg_esc(w, t->name, sizeof(t->name));
		svg_printf(w, "</td>");
		const struct {
			const char *key;
			double v;
			int decimals;
		} cells[] = {
			{ .key = "slowest_rank", .v = im->slowest },
			{ .key = "slowest", .v = im->slowest_rate, .decimals = 3 },
			{ .key = "fastest_rank", .v = im->fastest },
			{ .key = "fastest", .v = im->fastest_rate, .decimals = 3 },
			{ .key = "spread", .v = im->spread, .decimals = 4 },
		};

		for (size_t k = 0; k < sizeof(cells) / sizeof(cells[0]); k++) {
			snprintf(key, sizeof(key), "tests.%u.imbalance.%s", i, cells[k].key);
			if (!strcmp(cells[k].key, "spread"))
				snprintf(text, sizeof(text), "%.1f %%", 100 * cells[k].v);
			else if (cells[k].decimals)
				rate_text(im, cells[k].v, text, sizeof(text));
			else
				snprintf(text, sizeof(text), "%.0f", cells[k].v);
			num_cell(w, key, cells[k].v, cells[k].decimals, text);
		}
		svg_printf(w, "</tr>\n");
	}
	svg_printf(w, "</tbody>\n</table>\n<table id=\"ranks-hosts\">\n<thead><tr><th>rank</th>"
		   "<th>host</th><th>local rank</th><th>kernel</th><th>diskbench</th>"
		   "<th>target</th></tr></thead>\n<tbody>\n");
	for (unsigned i = 0; i < rr->n; i++) {
		const struct rank_info *ri = &rr->info[i];

		svg_printf(w, "<tr><td>%u</td><td>", ri->rank);
		svg_esc(w, ri->hostname, sizeof(ri->hostname));
		svg_printf(w, "</td><td>%u</td><td>", ri->local_rank);
		svg_esc(w, ri->kernel, sizeof(ri->kernel));
		svg_printf(w, "</td><td>");
		svg_esc(w, ri->version, sizeof(ri->version));
		svg_printf(w, "</td><td>");
		svg_esc(w, ri->target, sizeof(ri->target));
		svg_printf(w, "</td></tr>\n");
	}
	svg_printf(w, "</tbody>\n</table>\n</section>\n");
}
