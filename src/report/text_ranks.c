/* text_ranks.c - the text report's section on a coordinated run's ranks. */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report.h"
#include "textw.h"

/* "ranks: 4 on 2 hosts: a (ranks 0-1), b (ranks 2-3)" in words. */
static void ranks_hosts(struct textw *w, const struct result_ranks *rr)
{
	textw_start(w, "");
	w->indent = 7;
	textw_itemf(w, "", "ranks: %u on %u host%s:", rr->n, rr->nhosts,
		    rr->nhosts == 1 ? "" : "s");
	for (unsigned i = 0; i < rr->n; i++) {
		unsigned count = 0;
		bool more = false;

		if (!result_rank_first_of_host(rr, i))
			continue;
		for (unsigned j = i; j < rr->n; j++) {
			count += !strcmp(rr->info[j].hostname, rr->info[i].hostname);
			more = more || (j > i && result_rank_first_of_host(rr, j));
		}
		textw_itemf(w, " ", "%s (%u rank%s)%s", rr->info[i].hostname, count,
			    count == 1 ? "" : "s", more ? "," : "");
	}
	textw_nl(w);
}

void report_text_ranks(struct textw *w, const struct run_result *r)
{
	const struct result_ranks *rr = r->ranks;
	char a[32], b[32];

	if (!rr || !rr->n)
		return;
	textw_nl(w);
	ranks_hosts(w, rr);
	textw_raw(w, "%-28s  %-20s  %-20s  %s", "imbalance per test", "slowest rank",
		  "fastest rank", "spread");
	for (unsigned i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];
		const struct rank_imbalance *im = &t->imbalance;
		const char *unit = im->by_ops ? "IOPS" : "MB/s";
		double div = im->by_ops ? 1 : 1e6;

		if (!t->nranks)
			continue;
		if (im->by_ops) {
			report_fmt_count(im->slowest_rate, a, sizeof(a));
			report_fmt_count(im->fastest_rate, b, sizeof(b));
		} else {
			report_fmt_dec3(im->slowest_rate / div, a, sizeof(a));
			report_fmt_dec3(im->fastest_rate / div, b, sizeof(b));
		}
		textw_raw(w, "%-28.28s  %-5u %9s %-4s  %-5u %9s %-4s  %5.1f %%", t->name,
			  im->slowest, a, unit, im->fastest, b, unit, 100 * im->spread);
	}
	textw_start(w, "");
	w->indent = 0;
	textw_words(w, "Totals are every rank's sum over the slowest rank's window; latency "
		    "percentiles are over every I/O of every rank (histograms summed); spread "
		    "= (fastest - slowest) / fastest.", " ");
	textw_nl(w);
}
