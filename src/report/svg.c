/* svg.c - charts as inline SVG: axes, nice ticks, log scales, SI labels; byte-reproducible. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "json_writer.h"	/* utf8_seq */
#include "svg.h"

/* ---- the writer ------------------------------------------------------------- */

static void svg_fail(struct svg *w)
{
	if (!w->err)
		w->err = errno ? -errno : -EIO;
}

void svg_printf(struct svg *w, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (w->err)
		return;
	errno = 0;
	va_start(ap, fmt);
	n = vfprintf(w->f, fmt, ap);
	va_end(ap);
	if (n < 0)
		svg_fail(w);
}

static void svg_put(struct svg *w, const char *s, size_t n)
{
	if (w->err || !n)
		return;
	errno = 0;
	if (fwrite(s, 1, n, w->f) != n)
		svg_fail(w);
}

void svg_esc(struct svg *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	size_t i = 0, run = 0, k;
	const char *ent;

	if (!s)
		return;
	n = strnlen(s, n);
	while (i < n) {
		switch (p[i]) {
		case '&': ent = "&amp;"; break;
		case '<': ent = "&lt;"; break;
		case '>': ent = "&gt;"; break;
		case '"': ent = "&quot;"; break;
		case '\'': ent = "&#39;"; break;
		default:
			/* XML 1.0 has no place for control characters */
			ent = p[i] < 0x20 || p[i] == 0x7f ? " " : NULL;
			break;
		}
		k = ent ? 0 : utf8_seq(p + i, n - i);
		if (!ent && k) {
			run += k;
			i += k;
			continue;
		}
		svg_put(w, s + i - run, run);
		run = 0;
		if (ent)
			svg_put(w, ent, strlen(ent));
		else
			svg_put(w, "\xef\xbf\xbd", 3);	/* U+FFFD for a bad byte */
		i++;
	}
	svg_put(w, s + i - run, run);
}

int svg_finish(struct svg *w)
{
	errno = 0;
	if (!w->err && fflush(w->f) == EOF)
		svg_fail(w);
	if (!w->err && ferror(w->f))
		w->err = -EIO;
	return w->err;
}

const char *svg_num(double v, char *buf)
{
	/* Far outside any page: a bug upstream, kept finite and short. */
	if (!isfinite(v) || fabs(v) < 0.05)
		v = 0;
	else if (v > 1e6)
		v = 1e6;
	else if (v < -1e6)
		v = -1e6;
	snprintf(buf, SVG_NUMLEN, "%.1f", v);
	return buf;
}

/* ---- axes -------------------------------------------------------------------- */

double svg_nice(double x, bool round)
{
	double e, f, nf;

	if (!(x > 0) || !isfinite(x))
		return 0;
	e = floor(log10(x));
	f = x / pow(10, e);	/* in [1, 10) */
	if (round)
		nf = f < 1.5 ? 1 : f < 3 ? 2 : f < 7 ? 5 : 10;
	else
		nf = f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10;
	return nf * pow(10, e);
}

static void axis_init(struct svg_axis *a, enum svg_scale scale, enum svg_fmt fmt)
{
	memset(a, 0, sizeof(*a));
	a->scale = scale;
	a->fmt = fmt;
	a->p1 = 1;
}

/*
 * An axis spans at most +-AXIS_MAX (a log one down to 1 / AXIS_MAX): past
 * it a range, or the nice step above a range, overflows to inf and every
 * tick with it. No measured figure comes near; a crafted one is cut here.
 */
#define AXIS_MAX 1e300

static double axis_clamp(double v, double min, double max)
{
	return !(v >= min) ? min : v > max ? max : v;	/* NaN: min */
}

/* The two ends as the only ticks: the axis of last resort. */
static void axis_ends(struct svg_axis *a, double lo, double hi)
{
	a->lo = lo;
	a->hi = hi;
	a->tick[0] = lo;
	a->tick[1] = hi;
	a->nticks = 2;
}

void svg_axis_lin(struct svg_axis *a, double lo, double hi, unsigned want, enum svg_fmt fmt)
{
	double step, k0 = 0, k1 = 0;
	unsigned tries, n;

	axis_init(a, SVG_LIN, fmt);
	lo = isfinite(lo) ? axis_clamp(lo, -AXIS_MAX, AXIS_MAX) : 0;
	hi = isfinite(hi) ? axis_clamp(hi, -AXIS_MAX, AXIS_MAX) : lo;
	/* A range lost in lo's last digits is no range either: k * step
	 * would not tell its ticks apart. */
	if (!(hi - lo > fabs(lo) * 1e-9)) {
		/* one value: half of it either side; 0 (or next to it) alone:
		 * 0 to 1 */
		double half = fabs(lo) / 2;
		bool zero = fabs(lo) < 1 / AXIS_MAX;

		hi = zero ? 1 : lo + half;
		lo = zero ? 0 : lo - half;
	}
	if (want < 2)
		want = 2;
	if (want > SVG_MAXTICKS)
		want = SVG_MAXTICKS;
	step = svg_nice(svg_nice(hi - lo, false) / (want - 1), true);
	/* Each try widens the step by 1.5 at least: 64 cover any range
	 * within AXIS_MAX; a step that is not a number ends it too. */
	for (tries = 0; tries < 64 && step > 0 && isfinite(step); tries++) {
		/* the slack keeps 0.30000000000000004 from adding a tick */
		k0 = floor(lo / step + 1e-9);
		k1 = ceil(hi / step - 1e-9);
		if (k1 - k0 + 1 <= SVG_MAXTICKS)
			break;
		step = svg_nice(step * 1.5, false);
	}
	if (!(step > 0) || !isfinite(step) || !(k1 - k0 + 1 <= SVG_MAXTICKS)) {
		axis_ends(a, lo, hi);
		return;
	}
	if (k1 <= k0)
		k1 = k0 + 1;
	a->lo = k0 * step;
	a->hi = k1 * step;
	/* counted in integers: k0 + i is exact, k++ on a double may not be */
	n = (unsigned)(k1 - k0);
	for (unsigned i = 0; i <= n && a->nticks < SVG_MAXTICKS; i++) {
		double v = (k0 + i) * step;

		a->tick[a->nticks++] = v == 0 ? 0 : v;	/* never -0 */
	}
}

void svg_axis_log(struct svg_axis *a, double lo, double hi, enum svg_fmt fmt)
{
	static const double m125[] = { 1, 2, 5 };
	int d0, d1, every, d;

	axis_init(a, SVG_LOG, fmt);
	if (!(hi > 0) || !isfinite(hi))
		hi = 1;
	if (!(lo > 0) || !isfinite(lo) || lo > hi)
		lo = hi / 10;
	/* decades from -300 to 300: pow(10, d) is a normal number for each */
	hi = axis_clamp(hi, 1 / AXIS_MAX, AXIS_MAX);
	lo = axis_clamp(lo, 1 / AXIS_MAX, hi);
	d0 = (int)floor(log10(lo) + 1e-9);
	d1 = (int)ceil(log10(hi) - 1e-9);
	if (d1 <= d0)
		d1 = d0 + 1;
	if (d1 - d0 <= 2) {
		a->lo = pow(10, d0);
		a->hi = pow(10, d1);
		for (d = d0; d <= d1; d++)
			for (unsigned m = 0; m < 3; m++)
				if (d < d1 || m == 0)
					a->tick[a->nticks++] = m125[m] * pow(10, d);
		return;
	}
	/* at most 8 labelled decades, the last one on a tick */
	every = (d1 - d0 + 7) / 8;
	d1 = d0 + (d1 - d0 + every - 1) / every * every;
	a->lo = pow(10, d0);
	a->hi = pow(10, d1);
	for (d = d0; d <= d1 && a->nticks < SVG_MAXTICKS; d += every)
		a->tick[a->nticks++] = pow(10, d);
}

void svg_axis_ticks(struct svg_axis *a, enum svg_scale scale, double lo, double hi,
		    const double *ticks, unsigned n, enum svg_fmt fmt)
{
	axis_init(a, scale, fmt);
	lo = axis_clamp(lo, -AXIS_MAX, AXIS_MAX);
	hi = isfinite(hi) ? axis_clamp(hi, -AXIS_MAX, AXIS_MAX) : lo;
	if (scale == SVG_LOG && !(lo > 0))
		lo = hi > 0 ? hi / 10 : 1;
	if (scale == SVG_LOG)
		lo = axis_clamp(lo, 1 / AXIS_MAX, AXIS_MAX / 10);
	if (!(hi > lo))
		hi = scale == SVG_LOG ? lo * 10 : lo + fmax(1, fabs(lo));
	a->lo = lo;
	a->hi = hi;
	for (unsigned i = 0; i < n && a->nticks < SVG_MAXTICKS; i++)
		if (ticks[i] >= lo && ticks[i] <= hi)
			a->tick[a->nticks++] = ticks[i];
}

void svg_axis_place(struct svg_axis *a, double p0, double p1)
{
	a->p0 = p0;
	a->p1 = p1;
}

double svg_axis_px(const struct svg_axis *a, double v)
{
	double t;

	if (a->scale == SVG_LOG)
		t = v > 0 ? (log10(v) - log10(a->lo)) / (log10(a->hi) - log10(a->lo)) : 0;
	else
		t = (v - a->lo) / (a->hi - a->lo);
	if (!(t > 0))	/* NaN too */
		t = 0;
	if (t > 1)
		t = 1;
	return a->p0 + t * (a->p1 - a->p0);
}

double svg_pctl_pos(double p)
{
	return p >= 100 ? 6 : -log10(1 - p / 100);
}

/*
 * v scaled by factor^k (the largest k < nunits with v / factor^k >= 1) and
 * printed with at most 3 significant digits and the unit: a value that
 * rounds up to factor moves to the next unit ("999.7" -> "1k").
 */
static const char *fmt_units(double v, double factor, const char *const *units,
			     unsigned nunits, char *buf, size_t len)
{
	const char *sign = v < 0 ? "-" : "";
	unsigned u = 0;
	char num[32];

	v = fabs(v);
	while (u + 1 < nunits && v >= factor * (1 - 5e-4)) {
		v /= factor;
		u++;
	}
	snprintf(num, sizeof(num), "%.3g", v);
	/* "%.3g" writes 1000 as "1e+03": past three digits, whole units */
	if (strchr(num, 'e') && v >= 1)
		snprintf(num, sizeof(num), "%.0f", v);
	snprintf(buf, len, "%s%s%s", sign, num, units[u]);
	return buf;
}

const char *svg_label(enum svg_fmt fmt, double v, char *buf, size_t len)
{
	static const char *const si[] = { "", "k", "M", "G", "T", "P", "E" };
	static const char *const ns[] = { "ns", "us", "ms", "s" };
	char num[32];

	if (!len)
		return buf;
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v == 0 && fmt != SVG_F_PCTL) {
		snprintf(buf, len, "0");
		return buf;
	}
	switch (fmt) {
	case SVG_F_NS:
		return fmt_units(v, 1000, ns, 4, buf, len);
	case SVG_F_PCTL:
		snprintf(num, sizeof(num), "%.6g", 100 * (1 - pow(10, -v)));
		snprintf(buf, len, "p%s", num);
		return buf;
	case SVG_F_RATIO:
		snprintf(buf, len, "%.3gx", v);
		return buf;
	case SVG_F_SI:
	default:
		return fmt_units(v, 1000, si, 7, buf, len);
	}
}

/* ---- drawing ------------------------------------------------------------------ */

void svg_open(struct svg *w, const char *id, const char *cls, int width, int height,
	      const char *title)
{
	svg_printf(w, "<svg id=\"");
	svg_esc(w, id, strlen(id));
	svg_printf(w, "\" class=\"%s\" viewBox=\"0 0 %d %d\" width=\"%d\" height=\"%d\" "
		   "role=\"img\"><title>", cls, width, height, width, height);
	svg_esc(w, title, strlen(title));
	svg_printf(w, "</title>\n");
}

void svg_close(struct svg *w)
{
	svg_printf(w, "</svg>\n");
}

static void tick_labels(struct svg *w, const struct svg_axis *a, bool xaxis, double at)
{
	char b[48], n1[SVG_NUMLEN], n2[SVG_NUMLEN];

	svg_printf(w, "<g class=\"ticks\" text-anchor=\"%s\">", xaxis ? "middle" : "end");
	for (unsigned i = 0; i < a->nticks; i++) {
		double p = svg_axis_px(a, a->tick[i]);

		svg_label(a->fmt, a->tick[i], b, sizeof(b));
		if (xaxis)
			svg_printf(w, "<text x=\"%s\" y=\"%s\">", svg_num(p, n1), svg_num(at, n2));
		else
			svg_printf(w, "<text x=\"%s\" y=\"%s\">", svg_num(at, n1),
				   svg_num(p + 4, n2));
		svg_esc(w, b, sizeof(b));
		svg_printf(w, "</text>");
	}
	svg_printf(w, "</g>\n");
}

void svg_frame(struct svg *w, const struct svg_axis *x, const struct svg_axis *y,
	       const char *xtitle, const char *ytitle)
{
	double left = x->p0, right = x->p1, bottom = y->p0, top = y->p1;
	char n1[SVG_NUMLEN], n2[SVG_NUMLEN], n3[SVG_NUMLEN];
	unsigned i;

	/* the grid as one path: a line per tick of either axis */
	svg_printf(w, "<path class=\"grid\" d=\"");
	for (i = 0; i < y->nticks; i++)
		svg_printf(w, "M%s %sH%s", svg_num(left, n1), svg_num(svg_axis_px(y, y->tick[i]), n2),
			   svg_num(right, n3));
	for (i = 0; i < x->nticks; i++)
		svg_printf(w, "M%s %sV%s", svg_num(svg_axis_px(x, x->tick[i]), n1),
			   svg_num(bottom, n2), svg_num(top, n3));
	svg_printf(w, "\"/>\n");
	svg_printf(w, "<path class=\"axis\" d=\"M%s %sV%sH", svg_num(left, n1), svg_num(top, n2),
		   svg_num(bottom, n3));
	svg_printf(w, "%s\"/>\n", svg_num(right, n1));
	tick_labels(w, x, true, bottom + 15);
	tick_labels(w, y, false, left - 5);
	if (xtitle)
		svg_text(w, (left + right) / 2, bottom + 32, "middle", "atitle", xtitle);
	if (ytitle) {
		svg_printf(w, "<text class=\"atitle\" text-anchor=\"middle\" "
			   "transform=\"translate(%s %s) rotate(-90)\">", svg_num(left - 46, n1),
			   svg_num((top + bottom) / 2, n2));
		svg_esc(w, ytitle, strlen(ytitle));
		svg_printf(w, "</text>\n");
	}
}

static void attrs_tail(struct svg *w, const char *cls, const char *attrs)
{
	if (cls)
		svg_printf(w, " class=\"%s\"", cls);
	if (attrs)
		svg_printf(w, " %s", attrs);
	svg_printf(w, "/>\n");
}

void svg_polyline(struct svg *w, const struct svg_axis *x, const struct svg_axis *y,
		  const double *xs, const double *ys, unsigned n, const char *cls,
		  const char *attrs)
{
	char n1[SVG_NUMLEN], n2[SVG_NUMLEN];

	if (!n)
		return;
	svg_printf(w, "<polyline points=\"");
	for (unsigned i = 0; i < n; i++)
		svg_printf(w, "%s%s,%s", i ? " " : "", svg_num(svg_axis_px(x, xs[i]), n1),
			   svg_num(svg_axis_px(y, ys[i]), n2));
	svg_printf(w, "\"");
	attrs_tail(w, cls, attrs);
}

void svg_dot(struct svg *w, const struct svg_axis *x, const struct svg_axis *y, double xv,
	     double yv, const char *cls, const char *attrs)
{
	char n1[SVG_NUMLEN], n2[SVG_NUMLEN];

	svg_printf(w, "<circle cx=\"%s\" cy=\"%s\" r=\"3\"", svg_num(svg_axis_px(x, xv), n1),
		   svg_num(svg_axis_px(y, yv), n2));
	attrs_tail(w, cls, attrs);
}

void svg_rect(struct svg *w, double x0, double y0, double x1, double y1, const char *cls,
	      const char *attrs)
{
	char n1[SVG_NUMLEN], n2[SVG_NUMLEN], n3[SVG_NUMLEN], n4[SVG_NUMLEN];

	svg_printf(w, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\"",
		   svg_num(fmin(x0, x1), n1), svg_num(fmin(y0, y1), n2),
		   svg_num(fabs(x1 - x0), n3), svg_num(fabs(y1 - y0), n4));
	attrs_tail(w, cls, attrs);
}

void svg_line(struct svg *w, double x0, double y0, double x1, double y1, const char *cls)
{
	char n1[SVG_NUMLEN], n2[SVG_NUMLEN], n3[SVG_NUMLEN], n4[SVG_NUMLEN];

	svg_printf(w, "<path d=\"M%s %sL%s %s\"", svg_num(x0, n1), svg_num(y0, n2),
		   svg_num(x1, n3), svg_num(y1, n4));
	attrs_tail(w, cls, NULL);
}

void svg_errbar(struct svg *w, bool vertical, double c, double a, double b, double cap,
		const char *cls)
{
	char n1[SVG_NUMLEN], n2[SVG_NUMLEN], n3[SVG_NUMLEN], n4[SVG_NUMLEN];
	char n5[SVG_NUMLEN];

	/* the bar and its two caps, one path */
	if (vertical)
		svg_printf(w, "<path d=\"M%s %sV%sM%s %sH%sM%s %sH%s\"", svg_num(c, n1),
			   svg_num(a, n2), svg_num(b, n3), svg_num(c - cap, n4), n2,
			   svg_num(c + cap, n5), n4, n3, n5);
	else
		svg_printf(w, "<path d=\"M%s %sH%sM%s %sV%sM%s %sV%s\"", svg_num(a, n1),
			   svg_num(c, n2), svg_num(b, n3), n1, svg_num(c - cap, n4),
			   svg_num(c + cap, n5), n3, n4, n5);
	attrs_tail(w, cls, NULL);
}

void svg_text(struct svg *w, double x, double y, const char *anchor, const char *cls,
	      const char *text)
{
	char n1[SVG_NUMLEN], n2[SVG_NUMLEN];

	svg_printf(w, "<text x=\"%s\" y=\"%s\"", svg_num(x, n1), svg_num(y, n2));
	if (anchor && strcmp(anchor, "start"))
		svg_printf(w, " text-anchor=\"%s\"", anchor);
	if (cls)
		svg_printf(w, " class=\"%s\"", cls);
	svg_printf(w, ">");
	svg_esc(w, text, strlen(text));
	svg_printf(w, "</text>\n");
}
