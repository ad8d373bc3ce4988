/* html.h - what every HTML report shares: the page, its style, facts, the embedded JSON (private to src/report). */
#ifndef DISKBENCH_HTML_H
#define DISKBENCH_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "svg.h"

/*
 * The pages are polyglot: valid HTML5 and well-formed XML at once (every
 * element closed, attributes quoted, only XML's five entities), so that
 * xmllint can check their structure where no browser is at hand. They
 * load nothing: a Content-Security-Policy of default-src 'none' says so to
 * the browser, and no element has a src or href that leaves the page.
 */

/* Colours for series i (CSS classes c0..c7, dashed from the 9th on). */
#define HTML_NCOLOURS 8
const char *html_series(unsigned i, char *buf, size_t len);	/* "c3" or "c3 d1" */

/* <!DOCTYPE html> up to <body>: the title (escaped), the style sheet. */
void html_begin(struct svg *w, const char *title);

/*
 * The page's end, after the caller opened <footer> and said what it holds:
 * the JSON document render(f, arg) writes, embedded in
 * <script type="application/json" id="ID"> from the line after the tag,
 * then </footer>, the sorting script (a table of class "sortable" sorts by
 * a click on a column's head, by data-value where cells have one) and
 * </html>. In the JSON '<', '>' and '&' (which JSON has only inside
 * strings) are written as \u003c, \u003e and \u0026: the same JSON, which
 * can neither close the script element nor break the XML reading of the
 * page. Returns 0 or -errno: the render's error, out of memory, or the
 * first write error of the page (svg_finish).
 */
int html_close(struct svg *w, const char *id, int (*render)(FILE *, const void *),
	       const void *arg);

/* A table of facts: html_facts_open(w, caption), then rows, then
 * html_facts_close. A row is <tr><th>name</th><td data-key="KEY">value</td>:
 * KEY is the fact's path in the embedded JSON ("host.kernel"; NULL: none),
 * value is escaped; html_fact_num also gives the exact JSON number as
 * data-value (value is then the human form of it). */
void html_facts_open(struct svg *w, const char *caption);
void html_facts_close(struct svg *w);
void html_fact(struct svg *w, const char *name, const char *key, const char *value, size_t n);
void html_fact_num(struct svg *w, const char *name, const char *key, const char *value,
		   const char *json_number);

/* <section id="warnings">: each of warnings[0..n) (escaped; NULL as
 * empty) as an <li class="warning">, or "No warnings." */
void html_warnings(struct svg *w, char *const *warnings, unsigned n);

/* A legend: one entry per series, a swatch of its colour and its name. */
void html_legend(struct svg *w, const char *const *names, unsigned n);

/* ---- html_ratio.c: a ratio plot ---------------------------------------------- */

/* A row's verdict, already read in the plot's direction: better is good. */
enum html_verdict { HTML_SAME, HTML_BETTER, HTML_WORSE, HTML_UNJUDGED };

/* One row: a ratio to 1.0 and its interval. */
struct html_ratio_row {
	const char *label;	/* at the left (escaped when written) */
	double ratio;		/* the dot; none where not > 0 or not finite */
	double lo, hi;		/* its interval; no bar where lo is not > 0 or either
				 * is not finite */
	enum html_verdict verdict;	/* the colour: better green, worse red, else grey */
	bool dashed;		/* the bar is a range (low confidence), not an interval */
	const char *attrs;	/* attributes the dot carries first ("data-test=\"3\"");
				 * NULL: none */
	const char *note;	/* the absolute figures beside the ratio ("11.1M -> 4.43M
				 * IOPS", escaped); NULL: none */
};

/* A plot of n rows, top to bottom. */
struct html_ratio_plot {
	const char *id;		/* the <svg>'s id */
	const char *title;	/* its <title> */
	const char *axis;	/* the x axis's title: "IOPS after / before" */
	double noise;		/* the band: 0.03 shades 0.97x .. 1.03x */
	bool lower_better;	/* the direction: left (a ratio < 1) is better */
	const struct html_ratio_row *rows;
	unsigned n;
};

/*
 * <svg class="chart ratio" id=ID>: a log axis of ratios reaching at least
 * 0.8x .. 1.25x and every drawn ratio and interval, its ticks on a fixed
 * ladder of steps (0.5x 0.9x 1x 1.1x 2x ...), titled "AXIS (log scale;
 * right is better)" (left when lower_better); the noise band shaded (a
 * <rect class="band"> with data-lo and data-hi: 1 -+ noise, as JSON
 * numbers), a line at 1.0; per row its label, its interval as a
 * horizontal error bar (class "err VERDICT", "range" too when dashed), a
 * dot (class "dot VERDICT", with the row's attrs, then data-value,
 * data-lo, data-hi: ratio, lo, hi as JSON numbers, null when not finite,
 * and data-verdict: better, worse, ~ or none) and the ratio as "1.23x".
 * VERDICT is better, worse or same (for ~ and unjudged alike). Where a
 * row has a note the plot is wider and of class "chart ratio notes": the
 * ratios and the notes stand in two columns right of the axis (<text
 * class="vlabel"> and <text class="note">), in a larger type, for a page
 * that gives the plot a row of its own. Writes through w (its error
 * sticks there).
 */
void html_ratio_plot(struct svg *w, const struct html_ratio_plot *p);

/* ---- html_overlay.c: before against after, latency percentiles --------------- */

#include "result.h"

/* One test's chart. */
struct html_overlay {
	const char *id;		/* the <svg>'s id */
	const char *title;	/* its <title> */
	const char *name;	/* the test, written at the top left */
	const char *change;	/* the p99 change in words, at the top right; NULL: none */
	const char *before_label, *after_label;	/* the legend's names of the sides */
	const struct test_result *before, *after;
	unsigned test;		/* the test's index in the comparison, for data-test */
};

/* Has either side a latency curve to draw (p50 backed by an op)? */
bool html_overlay_has(const struct test_result *before, const struct test_result *after);

/*
 * <svg class="chart overlay" id=ID>: both sides' latency percentiles from
 * p50 up to the last one an op backs (p99.99 needs 10000), on a
 * percentile axis (svg_pctl_pos) against a log axis of latency; before a
 * solid line of series c0, after a dashed one of c4, each with a dot per
 * percentile carrying data-test, data-which ("before", "after"),
 * data-pct (the JSON's key, "99.9") and data-value (the ns the side's
 * lat_ns.percentiles holds). Nothing when neither side has a curve.
 */
void html_overlay(struct svg *w, const struct html_overlay *o);

#endif
