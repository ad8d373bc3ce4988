/* html_ratio.c - a ratio plot: a row per label, each ratio on a log axis with its interval, the noise band. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "html.h"
#include "json_writer.h"

/* Names at the left, a log axis of ratios, a row per label. With notes:
 * wider, taller rows, and two columns of text at the right (the ratio,
 * then the note) instead of a ratio beside each bar. */
#define RW 560
#define ROWH 26
#define RTOP 10
#define RBOTTOM 44
#define NW 940		/* the width with notes */
#define NROWH 30
#define NCOLS 250	/* the ratio and note columns */
#define NCHAR 7.6	/* a name's character at the notes' 13 px */

/* The ratios an axis may have a tick at; the fine ones only over a narrow range. */
static const double ladder[] = { 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 1, 1.1,
				 1.25, 1.5, 2, 3, 5, 10, 20, 50, 100 };
#define NLADDER (sizeof(ladder) / sizeof(ladder[0]))

/* [lo, hi] widened to the ladder's steps around them (within its ends). */
static void ratio_ends(double *lo, double *hi)
{
	unsigned i;

	for (i = NLADDER; i-- > 0;)
		if (ladder[i] <= *lo) {
			*lo = ladder[i];
			break;
		}
	for (i = 0; i < NLADDER; i++)
		if (ladder[i] >= *hi) {
			*hi = ladder[i];
			break;
		}
}

/* The ticks of [lo, hi]: over more than two decades (a tune's few blocks
 * give wide intervals) only 0.1x, 0.5x, 1x, 2x and the powers of ten, or
 * their labels run into each other. */
static unsigned ratio_ticks(double lo, double hi, double *t)
{
	static const double fine[] = { 0.8, 0.9, 1.1, 1.25, 1.5, 3 };
	static const double coarse[] = { 0.02, 0.05, 0.2, 5, 20, 50 };
	bool wide = hi / lo > 6, vast = hi / lo > 100;
	unsigned n = 0, i, k;

	for (i = 0; i < NLADDER && n < SVG_MAXTICKS; i++) {
		bool skip = false;

		for (k = 0; wide && k < sizeof(fine) / sizeof(fine[0]); k++)
			skip |= ladder[i] == fine[k];
		for (k = 0; vast && k < sizeof(coarse) / sizeof(coarse[0]); k++)
			skip |= ladder[i] == coarse[k];
		if (!skip && ladder[i] >= lo && ladder[i] <= hi)
			t[n++] = ladder[i];
	}
	return n;
}

/* Of the ascending ticks t[0..n) on a log axis [lo, hi] drawn over width
 * pixels, those whose labels do not run into a neighbour's: 1x always, then
 * outward from it, each at least its label's width (about 7 px a character,
 * and a gap) from the last one kept. How wide the range is decides which
 * ticks ratio_ticks offers; how narrow the plot is decides this. */
static unsigned ratio_ticks_fit(double *t, unsigned n, double lo, double hi, double width)
{
	double kept[SVG_MAXTICKS], last, scale = width / log(hi / lo);
	unsigned one = 0, i, m = 0, lo_n = 0;
	char lab[32];

	for (i = 0; i < n; i++)
		if (fabs(t[i] - 1) < fabs(t[one] - 1))
			one = i;
	if (n == 0)
		return 0;
	/* downward from 1x, into kept[] in descending order */
	last = t[one];
	kept[m++] = t[one];
	for (i = one; i-- > 0;) {
		double need;

		snprintf(lab, sizeof(lab), "%gx", t[i]);
		need = 7.0 * (double)strlen(lab) + 6;
		if (scale * log(last / t[i]) >= need) {
			kept[m++] = t[i];
			last = t[i];
		}
	}
	lo_n = m;
	for (i = 0; i < lo_n; i++)	/* ascending again */
		t[i] = kept[lo_n - 1 - i];
	last = t[lo_n - 1];
	for (i = one + 1; i < n; i++) {
		double need;

		snprintf(lab, sizeof(lab), "%gx", t[i]);
		need = 7.0 * (double)strlen(lab) + 6;
		if (scale * log(t[i] / last) >= need) {
			t[m++] = t[i];
			last = t[i];
		}
	}
	return m;
}

static const char *verdict_class(enum html_verdict v)
{
	return v == HTML_BETTER ? "better" : v == HTML_WORSE ? "worse" : "same";
}

static const char *verdict_word(enum html_verdict v)
{
	return v == HTML_BETTER ? "better" : v == HTML_WORSE ? "worse" :
	       v == HTML_SAME ? "~" : "none";
}

static bool drawn(double r)
{
	return r > 0 && isfinite(r);
}

static bool has_interval(const struct html_ratio_row *row)
{
	return row->lo > 0 && isfinite(row->lo) && isfinite(row->hi);
}

void html_ratio_plot(struct svg *w, const struct html_ratio_plot *p)
{
	double lo = 1 - p->noise, hi = 1 + p->noise, ticks[SVG_MAXTICKS], left, cy, x0, x1, right;
	unsigned maxname = 4, nt, i, width = RW, rowh = ROWH, top = RTOP;
	struct svg_axis x, y;
	char attrs[512], n1[64], n2[64], n3[64], cls[32], lab[32], axis[256];
	bool notes = false;

	for (i = 0; i < p->n; i++) {
		const struct html_ratio_row *row = &p->rows[i];
		size_t len = strlen(row->label);

		notes |= row->note != NULL;
		if (len > maxname)
			maxname = (unsigned)len;
		if (drawn(row->ratio)) {
			lo = fmin(lo, row->ratio);
			hi = fmax(hi, row->ratio);
		}
		if (has_interval(row)) {
			lo = fmin(lo, row->lo);
			hi = fmax(hi, row->hi);
		}
	}
	/* at least 0.8x .. 1.25x, a little room beyond the extremes, the ends
	 * on ticks */
	lo = fmin(lo / 1.04, 0.8);
	hi = fmax(hi * 1.04, 1.25);
	ratio_ends(&lo, &hi);
	if (notes) {
		width = NW;
		rowh = NROWH;
		top = 26;	/* the columns' heads */
		left = fmin(300, fmax(110, 16 + NCHAR * maxname));
		right = NW - NCOLS;
	} else {
		left = fmin(230, fmax(90, 14 + 6.3 * maxname));
		right = RW - 44;	/* room for the last value label */
	}
	nt = ratio_ticks(lo, hi, ticks);
	nt = ratio_ticks_fit(ticks, nt, lo, hi, right - left);
	svg_axis_ticks(&x, SVG_LOG, lo, hi, ticks, nt, SVG_F_RATIO);
	svg_axis_place(&x, left, right);
	svg_axis_ticks(&y, SVG_LIN, 0, p->n, NULL, 0, SVG_F_SI);
	svg_axis_place(&y, top + rowh * p->n, top);

	svg_open(w, p->id, notes ? "chart ratio notes" : "chart ratio", (int)width,
		 (int)(top + rowh * p->n) + RBOTTOM + (notes ? 8 : 0), p->title);
	if (notes) {
		svg_text(w, right + 14, top - 9, "start", "chead", "ratio");
		svg_text(w, right + 80, top - 9, "start", "chead", "before \xe2\x86\x92 after");
	}
	/* the noise band, then the grid over it, then the line at 1.0 */
	x0 = svg_axis_px(&x, 1 - p->noise);
	x1 = svg_axis_px(&x, 1 + p->noise);
	snprintf(attrs, sizeof(attrs), "data-lo=\"%s\" data-hi=\"%s\"",
		 jw_num_double(1 - p->noise, n1, sizeof(n1)),
		 jw_num_double(1 + p->noise, n2, sizeof(n2)));
	svg_rect(w, x0, y.p1, x1, y.p0, "band", attrs);
	snprintf(axis, sizeof(axis), "%s (log scale; %s is better)", p->axis,
		 p->lower_better ? "left" : "right");
	svg_frame(w, &x, &y, axis, NULL);
	svg_line(w, svg_axis_px(&x, 1), y.p1, svg_axis_px(&x, 1), y.p0, "one");
	for (i = 0; i < p->n; i++) {
		const struct html_ratio_row *row = &p->rows[i];
		double r = row->ratio;

		cy = top + rowh * (i + 0.5);
		svg_text(w, left - 6, cy + 4, "end", "name", row->label);
		if (row->note)
			svg_text(w, right + 80, cy + 4, "start", "note", row->note);
		if (!drawn(r))
			continue;
		snprintf(cls, sizeof(cls), "err %s%s", verdict_class(row->verdict),
			 row->dashed ? " range" : "");
		/* a range of one run a side is a point: no bar, whose caps
		 * would blot the dot */
		if (has_interval(row) && row->hi > row->lo * (1 + 1e-9))
			svg_errbar(w, false, cy, svg_axis_px(&x, row->lo), svg_axis_px(&x, row->hi), 5,
				   cls);
		snprintf(attrs, sizeof(attrs), "%s%sdata-value=\"%s\" data-lo=\"%s\" data-hi=\"%s\" "
			 "data-verdict=\"%s\"", row->attrs ? row->attrs : "", row->attrs ? " " : "",
			 jw_num_double(r, n1, sizeof(n1)), jw_num_double(row->lo, n2, sizeof(n2)),
			 jw_num_double(row->hi, n3, sizeof(n3)), verdict_word(row->verdict));
		snprintf(cls, sizeof(cls), "dot %s", verdict_class(row->verdict));
		/* row i from the top: y runs from 0 at the bottom to n */
		svg_dot(w, &x, &y, r, p->n - (i + 0.5), cls, attrs);
		snprintf(lab, sizeof(lab), "%.2fx", r);
		if (notes)
			svg_text(w, right + 14, cy + 4, "start", "vlabel", lab);
		else
			svg_text(w, svg_axis_px(&x, isfinite(row->hi) && row->hi > r ? row->hi : r) +
				 8, cy + 4, "start", "vlabel", lab);
	}
	svg_close(w);
}
