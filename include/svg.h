/* svg.h - charts as inline SVG: axes, nice ticks, log scales, SI labels; byte-reproducible. */
#ifndef DISKBENCH_SVG_H
#define DISKBENCH_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/*
 * A markup writer, for the charts and the HTML page around them. The first
 * write error sticks in err (-errno) and makes every later call a no-op, so
 * a renderer checks once, at the end (svg_finish).
 */
struct svg {
	FILE *f;
	int err;
};

/* Markup as it is (the caller escapes what it did not write itself). */
void svg_printf(struct svg *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* At most n bytes of s (up to a NUL) as text or an attribute value: & < >
 * " ' become entities, control characters a space, and invalid UTF-8
 * U+FFFD, so whatever a path or label holds, the document stays valid
 * (HTML and XML alike). */
void svg_esc(struct svg *w, const char *s, size_t n);

/* Flush; the first error of any call so far, 0 or -errno. */
int svg_finish(struct svg *w);

/*
 * Numbers written into markup have a fixed precision, so one input gives
 * the same bytes on every run: coordinates in pixels with one decimal
 * ("12.5"; never "-0.0", never "nan": a value that is not finite is 0).
 * buf holds at least SVG_NUMLEN bytes. Returns buf.
 */
#define SVG_NUMLEN 32
const char *svg_num(double v, char *buf);

/* ---- axes ------------------------------------------------------------------ */

enum svg_scale { SVG_LIN, SVG_LOG };

/* How an axis labels its ticks (svg_label). */
enum svg_fmt {
	SVG_F_SI,	/* counts and rates, SI prefixes (powers of 1000): 0 250 1.5k 2M */
	SVG_F_NS,	/* a time in ns: 500ns 10us 1.5ms 2s */
	SVG_F_PCTL,	/* a percentile axis: v = svg_pctl_pos(p), labelled "p99.9" */
	SVG_F_RATIO,	/* a ratio: 0.5x 1x 1.25x */
};

#define SVG_MAXTICKS 16

/* One axis: the range drawn, where it lands on the page, its ticks. */
struct svg_axis {
	enum svg_scale scale;
	enum svg_fmt fmt;
	double lo, hi;		/* lo < hi; lo > 0 on a log axis */
	double p0, p1;		/* pixels where lo and hi land (p1 < p0 for y) */
	unsigned nticks;
	double tick[SVG_MAXTICKS];	/* ascending, within [lo, hi] */
};

/*
 * Heckbert's "nice number" near x > 0: 1, 2 or 5 times a power of ten;
 * the nearest one with round, else the smallest one >= x. 0 for x <= 0 or
 * a value that is not finite.
 */
double svg_nice(double x, bool round);

/*
 * A linear axis over at least [lo, hi], with about want ticks (2 .. 16) at
 * a nice step, its ends on ticks: (0, 9.3, 6) gives 0 2 4 6 8 10. hi <= lo
 * (one value, or none) gets a unit-wide range around it. Placed at 0..1
 * until svg_axis_place. Total, like svg_axis_log and svg_axis_ticks: any
 * doubles (NaN, inf, DBL_MAX, a range below lo's precision) end at once
 * with 2 to SVG_MAXTICKS finite ascending ticks; beyond +-1e300 an axis
 * is cut (a log one below 1e-300).
 */
void svg_axis_lin(struct svg_axis *a, double lo, double hi, unsigned want, enum svg_fmt fmt);

/*
 * A log axis over at least [lo, hi] (both > 0; lo <= 0 is taken as hi /
 * 10): whole decades, a tick on each (on every second or third one when
 * there are many); within a range of at most two decades, on 1, 2 and 5
 * of each.
 */
void svg_axis_log(struct svg_axis *a, double lo, double hi, enum svg_fmt fmt);

/* An axis with the caller's range and ticks (at most SVG_MAXTICKS are
 * kept; those outside [lo, hi] are dropped): a percentile axis, queue
 * depths. */
void svg_axis_ticks(struct svg_axis *a, enum svg_scale scale, double lo, double hi,
		    const double *ticks, unsigned n, enum svg_fmt fmt);

/* Where the axis lands: lo at pixel p0, hi at p1. */
void svg_axis_place(struct svg_axis *a, double p0, double p1);

/* The pixel of v, clamped to the axis (on a log axis v <= 0 is lo). */
double svg_axis_px(const struct svg_axis *a, double v);

/* The label of v on an axis that formats as fmt: at most 3 significant
 * digits, no trailing zeros ("1.5k", "10us", "p99.99", "1.2x"). Returns
 * buf. */
const char *svg_label(enum svg_fmt fmt, double v, char *buf, size_t len);

/* A percentile's position on a percentile axis: -log10(1 - p / 100), so
 * p90, p99, p99.9 ... are evenly spaced (p50 is at 0.30). p >= 100 gives 6. */
double svg_pctl_pos(double p);

/* ---- drawing --------------------------------------------------------------- */

/* <svg> with a stable id and class, a viewBox of width x height, and a
 * <title> (escaped) for readers and screen readers; svg_close ends it. */
void svg_open(struct svg *w, const char *id, const char *cls, int width, int height,
	      const char *title);
void svg_close(struct svg *w);

/* The plot's frame: grid lines and labels at every tick of x and y, the
 * axis lines, and the axis titles (NULL: none). */
void svg_frame(struct svg *w, const struct svg_axis *x, const struct svg_axis *y,
	       const char *xtitle, const char *ytitle);

/* A polyline through n points in data units (mapped by x and y); cls and
 * attrs (more attributes, written as they are; NULL: none) on the element.
 * Draws nothing for n = 0. */
void svg_polyline(struct svg *w, const struct svg_axis *x, const struct svg_axis *y,
		  const double *xs, const double *ys, unsigned n, const char *cls,
		  const char *attrs);

/* A dot at (x, y) in data units, with cls and attrs as above. */
void svg_dot(struct svg *w, const struct svg_axis *x, const struct svg_axis *y, double xv,
	     double yv, const char *cls, const char *attrs);

/* A rectangle between two corners, in pixels (either order). */
void svg_rect(struct svg *w, double x0, double y0, double x1, double y1, const char *cls,
	      const char *attrs);

/* A line in pixels. */
void svg_line(struct svg *w, double x0, double y0, double x1, double y1, const char *cls);

/* An error bar from a to b (pixels) across the line at c: vertical
 * (x = c, y from a to b) or horizontal (y = c), with caps of half-width
 * cap. */
void svg_errbar(struct svg *w, bool vertical, double c, double a, double b, double cap,
		const char *cls);

/* Text (escaped) at a pixel position; anchor "start", "middle" or "end". */
void svg_text(struct svg *w, double x, double y, const char *anchor, const char *cls,
	      const char *text);

#endif
