/* html_overlay.c - before against after: both sides' latency percentile curves, a chart per test. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html.h"

/* A chart of OW x OH: the title and legend above the plot, room for the
 * tick labels and axis titles in the notes' 13 px type. */
#define OW 540
#define OH 340
#define OML 76
#define OMR 18
#define OMT 58
#define OMB 50

/* The percentiles a curve goes through: p50 (result_pcts[4]) up. */
#define OPCT_FIRST 4

/* The x axis's ticks, where the curves reach them. */
static const double at[] = { 50, 90, 99, 99.9, 99.99, 99.999 };
#define NAT (sizeof(at) / sizeof(at[0]))

/* Is percentile k of t backed by data (an op above it) and measured? */
static bool pct_drawn(const struct test_result *t, unsigned k)
{
	return t->ops > 0 && (double)t->ops * (1 - result_pcts[k] / 100) >= 1 - 1e-9 &&
	       t->lat_sum.pct[k] > 0;
}

bool html_overlay_has(const struct test_result *before, const struct test_result *after)
{
	return pct_drawn(before, OPCT_FIRST) || pct_drawn(after, OPCT_FIRST);
}

/* One side's curve and dots, of series cls ("c0"), which "before" or "after". */
static void side_curve(struct svg *w, const struct svg_axis *x, const struct svg_axis *y,
		       const struct test_result *t, unsigned test, const char *which,
		       const char *cls)
{
	double xs[RESULT_NPCT], ys[RESULT_NPCT];
	char c[48], attrs[160];
	unsigned k, n = 0;

	for (k = OPCT_FIRST; k < RESULT_NPCT; k++) {
		if (!pct_drawn(t, k))
			continue;
		xs[n] = svg_pctl_pos(result_pcts[k]);
		ys[n++] = (double)t->lat_sum.pct[k];
	}
	snprintf(c, sizeof(c), "line %s", cls);
	svg_polyline(w, x, y, xs, ys, n, c, NULL);
	snprintf(c, sizeof(c), "dot %s", cls);
	for (k = OPCT_FIRST; k < RESULT_NPCT; k++) {
		if (!pct_drawn(t, k))
			continue;
		snprintf(attrs, sizeof(attrs), "data-test=\"%u\" data-which=\"%s\" data-pct=\"%s\" "
			 "data-value=\"%" PRIu64 "\"", test, which, result_pct_keys[k],
			 t->lat_sum.pct[k]);
		svg_dot(w, x, y, svg_pctl_pos(result_pcts[k]), (double)t->lat_sum.pct[k], c, attrs);
	}
}

/* A legend entry at (x, y): a short line of the series, then its name. */
static void legend(struct svg *w, double x, double y, const char *cls, const char *name)
{
	char c[48], n1[SVG_NUMLEN], n2[SVG_NUMLEN];

	snprintf(c, sizeof(c), "line %s", cls);
	svg_printf(w, "<path class=\"%s\" d=\"M%s %sh22\"/>\n", c, svg_num(x, n1),
		   svg_num(y - 4, n2));
	svg_text(w, x + 28, y, "start", "name", name);
}

void html_overlay(struct svg *w, const struct html_overlay *o)
{
	const struct test_result *side[2] = { o->before, o->after };
	double ymin = INFINITY, ymax = 0, ticks[NAT], last = 0;
	unsigned s, k, nt = 0;
	struct svg_axis x, y;
	char lb[64], la[64];

	for (s = 0; s < 2; s++)
		for (k = OPCT_FIRST; k < RESULT_NPCT; k++)
			if (pct_drawn(side[s], k)) {
				ymin = fmin(ymin, (double)side[s]->lat_sum.pct[k]);
				ymax = fmax(ymax, (double)side[s]->lat_sum.pct[k]);
				last = fmax(last, result_pcts[k]);
			}
	if (!(ymax > 0))
		return;
	for (k = 0; k < NAT && at[k] <= last + 1e-9; k++)
		ticks[nt++] = svg_pctl_pos(at[k]);
	svg_axis_ticks(&x, SVG_LIN, ticks[0] - 0.12, ticks[nt - 1] + 0.12, ticks, nt, SVG_F_PCTL);
	svg_axis_place(&x, OML, OW - OMR);
	svg_axis_log(&y, ymin, ymax, SVG_F_NS);
	svg_axis_place(&y, OH - OMB, OMT);

	svg_open(w, o->id, "chart overlay", OW, OH, o->title);
	svg_text(w, 8, 18, "start", "ctitle", o->name);
	if (o->change)
		svg_text(w, OW - OMR, 18, "end", "vlabel", o->change);
	/* the labels cut to what fits a half of the chart */
	snprintf(lb, sizeof(lb), "before: %.28s", o->before_label);
	snprintf(la, sizeof(la), "after: %.28s", o->after_label);
	legend(w, 8, 42, "c0", lb);
	legend(w, OW / 2, 42, "c4 d1", la);
	/* the y title left of the widest tick label ("100us" at 13 px), where
	 * svg_frame's place, for its 11 px, would run into it */
	svg_frame(w, &x, &y, "percentile", NULL);
	svg_printf(w, "<text class=\"atitle\" text-anchor=\"middle\" transform=\"translate(16 %d) "
		   "rotate(-90)\">latency</text>\n", (OMT + OH - OMB) / 2);
	side_curve(w, &x, &y, o->before, o->test, "before", "c0");
	side_curve(w, &x, &y, o->after, o->test, "after", "c4 d1");
	svg_close(w);
}
