/* html_charts.c - the HTML report's charts of a run: MB/s, queue depth, percentiles, timelines. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"
#include "html_run.h"
#include "json_writer.h"
#include "parse.h"
#include "report.h"

/* Chart sizes (px of the viewBox): two charts side by side, or one wide. */
#define CW 560
#define CH 300
#define WIDE 1040

/* result_pcts[PCT_P99] is 99 (result.h lists them). */
#define PCT_P99 8

/* The plot area of a CW x CH chart: room for tick labels and titles. */
#define ML 62
#define MR 14
#define MT 12
#define MB 44

bool html_by_iops(const struct test_result *t)
{
	return t->random || !t->bytes;
}

bool html_runs_range(const struct test_result *t, enum html_run_fig which, double *lo,
		     double *hi)
{
	/* a hand-built test may claim runs it does not hold */
	for (unsigned i = 0; t->runs && i < t->nruns; i++) {
		const struct test_run *run = &t->runs[i];
		double v = which == HTML_FIG_IOPS ? run->iops : which == HTML_FIG_BPS ?
			   run->bytes_per_sec : (double)run->lat_p99_ns;

		if (!i || v < *lo)
			*lo = v;
		if (!i || v > *hi)
			*hi = v;
	}
	return t->runs && t->nruns > 0;
}

static bool has_lat(const struct test_result *t)
{
	return result_has_lat(t);
}

/* ---- MB/s per test ------------------------------------------------------------ */

static void chart_throughput(struct svg *w, const struct run_result *r)
{
	double max = 0, lo, hi, rowh = 22, left, top = 8, cy;
	unsigned n = 0, maxname = 4, row = 0, i;
	bool runs = false;
	struct svg_axis x, y;
	char attrs[160], num[64], lab[32], cls[16];

	for (i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];
		size_t len = strnlen(t->name, sizeof(t->name));

		if (!t->bytes)
			continue;
		n++;
		if (len > maxname)
			maxname = (unsigned)len;
		if (t->bytes_per_sec > max)
			max = t->bytes_per_sec;
		runs |= t->nruns > 1;
		if (html_runs_range(t, HTML_FIG_BPS, &lo, &hi) && t->nruns > 1 && hi > max)
			max = hi;
	}
	if (!n) {
		svg_printf(w, "<p class=\"none\">No test moved data (the file tests count "
			   "operations: see the table).</p>\n");
		return;
	}
	/* the names at the left, about 6.3 px a character at 11 px */
	left = fmin(300, fmax(90, 14 + 6.3 * maxname));
	svg_axis_lin(&x, 0, max / 1e6, 7, SVG_F_SI);
	svg_axis_place(&x, left, WIDE - 70);
	svg_axis_ticks(&y, SVG_LIN, 0, n, NULL, 0, SVG_F_SI);
	svg_axis_place(&y, top + rowh * n, top);

	svg_printf(w, "<figure>\n");
	svg_open(w, "chart-throughput", "chart", WIDE, (int)(top + rowh * n + MB), "MB/s per test");
	svg_frame(w, &x, &y, "MB/s (10^6 bytes/s)", NULL);
	for (i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];
		double v = t->bytes_per_sec / 1e6, px;

		if (!t->bytes)
			continue;
		cy = top + rowh * (row + 0.5);
		px = svg_axis_px(&x, v);
		snprintf(attrs, sizeof(attrs), "data-test=\"%u\" data-value=\"%s\"", i,
			 jw_num_fixed(t->bytes_per_sec, 3, num, sizeof(num)));
		snprintf(cls, sizeof(cls), "bar %s", html_series(i, lab, sizeof(lab)));
		svg_rect(w, x.p0, cy - rowh * 0.31, px, cy + rowh * 0.31, cls, attrs);
		svg_text(w, left - 6, cy + 4, "end", "name", t->name);
		if (t->nruns > 1 && html_runs_range(t, HTML_FIG_BPS, &lo, &hi)) {
			svg_errbar(w, false, cy, svg_axis_px(&x, lo / 1e6), svg_axis_px(&x, hi / 1e6),
				   4, "err");
			px = fmax(px, svg_axis_px(&x, hi / 1e6));
		}
		svg_text(w, px + 5, cy + 4, "start", "vlabel", report_fmt_dec3(v, lab, sizeof(lab)));
		row++;
	}
	svg_close(w);
	svg_printf(w, "<figcaption>MB/s of each test that moves data%s.</figcaption>\n</figure>\n",
		   runs ?
		   "; the median of its runs, the bar across it from the slowest run to the fastest" :
		   "");
}

/* ---- IOPS and p99 against queue depth ------------------------------------------ */

/* Tests that differ only in queue depth: one workload, bs, jobs, engine and
 * I/O mode. */
struct qd_group {
	unsigned first;		/* the test that named it */
	unsigned n;
	unsigned *idx;		/* its tests, by queue depth */
};

static bool same_group(const struct test_result *a, const struct test_result *b)
{
	return a->bs == b->bs && a->jobs == b->jobs && a->direct == b->direct &&
	       !strcmp(a->workload ? a->workload : "", b->workload ? b->workload : "") &&
	       !strcmp(a->engine ? a->engine : "", b->engine ? b->engine : "");
}

/* idx[0..n) in order of their tests' queue depth (a few: insertion sort,
 * stable, so equal depths keep the plan's order). */
static void sort_by_qd(const struct run_result *r, unsigned *idx, unsigned n)
{
	for (unsigned i = 1; i < n; i++)
		for (unsigned k = i; k > 0 && r->tests[idx[k - 1]].qd > r->tests[idx[k]].qd; k--) {
			unsigned tmp = idx[k];

			idx[k] = idx[k - 1];
			idx[k - 1] = tmp;
		}
}

/* The groups with at least two queue depths, in order of their first test;
 * returns how many (0 when out of memory too: the charts are left out). */
static unsigned qd_groups(const struct run_result *r, struct qd_group *g, unsigned *idx)
{
	unsigned ng = 0, used = 0, i, k;

	for (i = 0; i < r->ntests; i++) {
		for (k = 0; k < i && !same_group(&r->tests[k], &r->tests[i]); k++)
			;
		if (k < i)
			continue;	/* in the group of test k */
		g[ng] = (struct qd_group){ .first = i, .idx = idx + used };
		for (k = i; k < r->ntests; k++)
			if (same_group(&r->tests[i], &r->tests[k]))
				g[ng].idx[g[ng].n++] = k;
		used += g[ng].n;
		sort_by_qd(r, g[ng].idx, g[ng].n);
		if (r->tests[g[ng].idx[0]].qd != r->tests[g[ng].idx[g[ng].n - 1]].qd)
			ng++;
		else
			used -= g[ng].n;
	}
	return ng;
}

/* "rand-read 4k", with jobs, engine and buffered when they tell groups apart. */
static void group_name(const struct run_result *r, const struct qd_group *g, char *buf,
		       size_t len)
{
	const struct test_result *t = &r->tests[g->first];
	bool engines = false;
	char bs[24];
	size_t n;

	for (unsigned i = 0; i < r->ntests; i++)
		if (strcmp(r->tests[i].engine ? r->tests[i].engine : "", t->engine ? t->engine : ""))
			engines = true;
	format_size(t->bs, bs, sizeof(bs));
	n = (size_t)snprintf(buf, len, "%s %s", t->workload ? t->workload : "?", bs);
	if (n < len && t->jobs > 1)
		n += (size_t)snprintf(buf + n, len - n, " %u jobs", t->jobs);
	if (n < len && engines)
		n += (size_t)snprintf(buf + n, len - n, " %s", t->engine ? t->engine : "?");
	if (n < len && !t->direct)
		snprintf(buf + n, len - n, " buffered");
}

/* One chart of a figure against queue depth, a line per group. */
static void chart_qd_one(struct svg *w, const struct run_result *r, const struct qd_group *g,
			 unsigned ng, bool p99)
{
	double ticks[SVG_MAXTICKS], lo = 0, hi = 0, ymin = INFINITY, ymax = 0, rlo, rhi;
	double xs[256], ys[256];
	unsigned nt = 0, i, k;
	struct svg_axis x, y;
	char attrs[160], num[64], cls[32], ser[16];

	for (i = 0; i < ng; i++) {
		for (k = 0; k < g[i].n; k++) {
			const struct test_result *t = &r->tests[g[i].idx[k]];
			double v = p99 ? (double)t->lat_sum.pct[PCT_P99] : t->iops;
			unsigned j;

			for (j = 0; j < nt && ticks[j] != t->qd; j++)
				;
			if (j == nt && nt < SVG_MAXTICKS)
				ticks[nt++] = t->qd;
			if (!lo || t->qd < lo)
				lo = t->qd;
			if (t->qd > hi)
				hi = t->qd;
			if (t->nruns > 1 && html_runs_range(t, p99 ? HTML_FIG_P99 : HTML_FIG_IOPS,
							    &rlo, &rhi)) {
				ymin = fmin(ymin, rlo);
				ymax = fmax(ymax, rhi);
			}
			ymin = fmin(ymin, v);
			ymax = fmax(ymax, v);
		}
	}
	/* ascending ticks (a few: insertion sort) */
	for (i = 1; i < nt; i++)
		for (k = i; k > 0 && ticks[k - 1] > ticks[k]; k--) {
			double tmp = ticks[k];

			ticks[k] = ticks[k - 1];
			ticks[k - 1] = tmp;
		}
	svg_axis_ticks(&x, SVG_LOG, fmax(lo, 1) / 1.5, fmax(hi, 1) * 1.5, ticks, nt, SVG_F_SI);
	svg_axis_place(&x, ML, CW - MR);
	if (p99)
		svg_axis_log(&y, ymin, ymax, SVG_F_NS);
	else
		svg_axis_lin(&y, 0, ymax, 6, SVG_F_SI);
	svg_axis_place(&y, CH - MB, MT);

	svg_open(w, p99 ? "chart-qd-p99" : "chart-qd-iops", "chart", CW, CH,
		 p99 ? "p99 latency against queue depth" : "IOPS against queue depth");
	svg_frame(w, &x, &y, "queue depth", p99 ? "p99 latency" : "IOPS");
	for (i = 0; i < ng; i++) {
		html_series(i, ser, sizeof(ser));
		for (k = 0; k < g[i].n && k < 256; k++) {
			const struct test_result *t = &r->tests[g[i].idx[k]];

			xs[k] = t->qd;
			ys[k] = p99 ? (double)t->lat_sum.pct[PCT_P99] : t->iops;
		}
		snprintf(cls, sizeof(cls), "line %s", ser);
		svg_polyline(w, &x, &y, xs, ys, k, cls, NULL);
		snprintf(cls, sizeof(cls), "dot %s", ser);
		for (k = 0; k < g[i].n && k < 256; k++) {
			const struct test_result *t = &r->tests[g[i].idx[k]];

			if (t->nruns > 1 && html_runs_range(t, p99 ? HTML_FIG_P99 : HTML_FIG_IOPS,
							    &rlo, &rhi))
				svg_errbar(w, true, svg_axis_px(&x, xs[k]), svg_axis_px(&y, rlo),
					   svg_axis_px(&y, rhi), 4, "err");
			if (p99)
				snprintf(num, sizeof(num), "%" PRIu64, t->lat_sum.pct[PCT_P99]);
			else
				jw_num_fixed(t->iops, 3, num, sizeof(num));
			snprintf(attrs, sizeof(attrs), "data-test=\"%u\" data-value=\"%s\"",
				 g[i].idx[k], num);
			svg_dot(w, &x, &y, xs[k], ys[k], cls, attrs);
		}
	}
	svg_close(w);
}

static void chart_qd(struct svg *w, const struct run_result *r)
{
	struct qd_group *g = calloc(r->ntests ? r->ntests : 1, sizeof(*g));
	unsigned *idx = calloc(r->ntests ? r->ntests : 1, sizeof(*idx)), ng = 0;
	const char **names = calloc(r->ntests ? r->ntests : 1, sizeof(*names));
	char (*nb)[96] = calloc(r->ntests ? r->ntests : 1, sizeof(*nb));
	bool runs = false;

	svg_printf(w, "<section id=\"queue-depth\">\n<h2>IOPS and p99 against queue depth</h2>\n");
	if (g && idx && names && nb)
		ng = qd_groups(r, g, idx);
	if (!ng) {
		svg_printf(w, "<p class=\"none\">No test ran at several queue depths.</p>\n");
		goto out;
	}
	for (unsigned i = 0; i < ng; i++) {
		group_name(r, &g[i], nb[i], sizeof(nb[i]));
		names[i] = nb[i];
		for (unsigned k = 0; k < g[i].n; k++)
			runs |= r->tests[g[i].idx[k]].nruns > 1;
	}
	svg_printf(w, "<figure>\n<div class=\"charts\">\n");
	chart_qd_one(w, r, g, ng, false);
	chart_qd_one(w, r, g, ng, true);
	svg_printf(w, "</div>\n");
	html_legend(w, names, ng);
	svg_printf(w, "<figcaption>Each line is one test at several queue depths (log scale)%s."
		   "</figcaption>\n</figure>\n",
		   runs ? "; the bars span the slowest and the fastest run" : "");
out:
	svg_printf(w, "</section>\n");
	free(g);
	free(idx);
	free(names);
	free(nb);
}

/* ---- latency percentiles ------------------------------------------------------- */

/* The percentiles a curve goes through: p50 to p99.99 (result_pcts[4..10]). */
#define PCT_FIRST 4
#define PCT_LAST 10

/* Is percentile k of t backed by data: at least one op above it? */
static bool pct_drawn(const struct test_result *t, unsigned k)
{
	return (double)t->ops * (1 - result_pcts[k] / 100) >= 1 - 1e-9;
}

static void chart_latency(struct svg *w, const struct run_result *r)
{
	static const double at[] = { 50, 90, 99, 99.9, 99.99 };
	double ticks[5], ymin = INFINITY, ymax = 0, xs[RESULT_NPCT], ys[RESULT_NPCT];
	const char **names = calloc(r->ntests ? r->ntests : 1, sizeof(*names));
	char attrs[160], cls[32], ser[16];
	struct svg_axis x, y;
	unsigned i, k, n, nn = 0;

	svg_printf(w, "<section id=\"latency\">\n<h2>Latency percentiles</h2>\n");
	for (i = 0; i < r->ntests; i++)
		for (k = PCT_FIRST; k <= PCT_LAST; k++)
			if (has_lat(&r->tests[i]) && pct_drawn(&r->tests[i], k) &&
			    r->tests[i].lat_sum.pct[k]) {
				ymin = fmin(ymin, (double)r->tests[i].lat_sum.pct[k]);
				ymax = fmax(ymax, (double)r->tests[i].lat_sum.pct[k]);
			}
	if (!names || !(ymax > 0)) {
		svg_printf(w, "<p class=\"none\">No latencies in this result.</p>\n</section>\n");
		free(names);
		return;
	}
	for (k = 0; k < 5; k++)
		ticks[k] = svg_pctl_pos(at[k]);
	svg_axis_ticks(&x, SVG_LIN, ticks[0] - 0.12, ticks[4] + 0.12, ticks, 5, SVG_F_PCTL);
	svg_axis_place(&x, ML, WIDE / 2 + 200 - MR);
	svg_axis_log(&y, ymin, ymax, SVG_F_NS);
	svg_axis_place(&y, CH + 40 - MB, MT);

	svg_printf(w, "<figure>\n");
	svg_open(w, "chart-latency", "chart", WIDE / 2 + 200, CH + 40,
		 "latency percentiles per test");
	svg_frame(w, &x, &y, "percentile (log scale of 1 / (1 - p))", "latency");
	for (i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];

		names[nn++] = t->name;
		if (!has_lat(t))
			continue;
		html_series(i, ser, sizeof(ser));
		for (n = 0, k = PCT_FIRST; k <= PCT_LAST; k++) {
			if (!pct_drawn(t, k) || !t->lat_sum.pct[k])
				continue;
			xs[n] = svg_pctl_pos(result_pcts[k]);
			ys[n++] = (double)t->lat_sum.pct[k];
		}
		snprintf(cls, sizeof(cls), "line %s", ser);
		svg_polyline(w, &x, &y, xs, ys, n, cls, NULL);
		snprintf(cls, sizeof(cls), "dot %s", ser);
		for (k = PCT_FIRST; k <= PCT_LAST; k++) {
			if (!pct_drawn(t, k) || !t->lat_sum.pct[k])
				continue;
			snprintf(attrs, sizeof(attrs), "data-test=\"%u\" data-pct=\"%s\" "
				 "data-value=\"%" PRIu64 "\"", i, result_pct_keys[k], t->lat_sum.pct[k]);
			svg_dot(w, &x, &y, svg_pctl_pos(result_pcts[k]), (double)t->lat_sum.pct[k],
				cls, attrs);
		}
	}
	svg_close(w);
	html_legend(w, names, nn);
	svg_printf(w, "<figcaption>Latency per I/O from submission to completion, p50 to p99.99, "
		   "over every I/O of every run. A percentile is drawn where the test completed "
		   "enough I/Os to have one above it (p99.99 needs 10000).</figcaption>\n"
		   "</figure>\n</section>\n");
	free(names);
}

/* ---- timelines --------------------------------------------------------------------- */

/* At most this many points per line: longer timelines merge neighbours. */
#define TL_MAXP 200

struct tl_pts {
	unsigned n, merged;	/* points; intervals merged into each */
	double t[TL_MAXP], rate[TL_MAXP], p50[TL_MAXP], p99[TL_MAXP];
};

/*
 * A run's timeline as points to draw: the rate (IOPS, or MB/s) of each
 * interval from its own length (the last one may be shorter), its p50 and
 * p99. Merged intervals add their ops and bytes and keep the worst p50 and
 * p99 of the ones merged.
 */
static void tl_points(const struct timeline *tl, bool iops, struct tl_pts *o)
{
	unsigned k = (tl->n + TL_MAXP - 1) / TL_MAXP, i, j;
	uint64_t prev = 0;

	o->n = 0;
	o->merged = k ? k : 1;
	for (i = 0; i < tl->n && o->n < TL_MAXP; i += k) {
		uint64_t ops = 0, bytes = 0, p50 = 0, p99 = 0, end;
		unsigned last = i + k < tl->n ? i + k : tl->n;

		for (j = i; j < last; j++) {
			ops += tl->p[j].ops;
			bytes += tl->p[j].bytes;
			if (tl->p[j].lat_p50_ns > p50)
				p50 = tl->p[j].lat_p50_ns;
			if (tl->p[j].lat_p99_ns > p99)
				p99 = tl->p[j].lat_p99_ns;
		}
		end = tl->p[last - 1].t_ns;
		o->t[o->n] = (double)end;
		o->rate[o->n] = end > prev ? (iops ? (double)ops : (double)bytes / 1e6) * 1e9 /
					     (double)(end - prev) : 0;
		o->p50[o->n] = (double)p50;
		o->p99[o->n] = (double)p99;
		prev = end;
		o->n++;
	}
}

/* Only the points with a latency (an interval where no I/O completed has
 * none): into xs, ys; returns how many. */
static unsigned tl_lat(const struct tl_pts *p, const double *lat, double *xs, double *ys)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->n; i++)
		if (lat[i] > 0) {
			xs[n] = p->t[i];
			ys[n++] = lat[i];
		}
	return n;
}

static void chart_timeline(struct svg *w, const struct test_result *t, unsigned idx,
			   struct tl_pts *pts)
{
	double tmax = 0, rmax = 0, lmin = INFINITY, lmax = 0, xs[TL_MAXP], ys[TL_MAXP];
	bool iops = html_by_iops(t);
	struct svg_axis x, yr, yl;
	char id[32], title[128], attrs[64], cls[40], ser[16], iv[32], lab[24];
	const char **names = calloc(t->nruns, sizeof(*names));
	char (*nb)[16] = calloc(t->nruns, sizeof(*nb));
	unsigned k, i, merged = 1, nn = 0;

	for (k = 0; k < t->nruns; k++) {
		tl_points(&t->runs[k].timeline, iops, &pts[k]);
		if (pts[k].merged > merged)
			merged = pts[k].merged;
		for (i = 0; i < pts[k].n; i++) {
			tmax = fmax(tmax, pts[k].t[i]);
			rmax = fmax(rmax, pts[k].rate[i]);
			if (pts[k].p50[i] > 0)
				lmin = fmin(lmin, pts[k].p50[i]);
			lmax = fmax(lmax, pts[k].p99[i]);
			if (pts[k].p99[i] > 0)
				lmin = fmin(lmin, pts[k].p99[i]);
		}
	}
	svg_axis_lin(&x, 0, tmax, 7, SVG_F_NS);
	svg_axis_place(&x, ML, CW - MR);
	svg_axis_lin(&yr, 0, rmax, 5, SVG_F_SI);
	svg_axis_place(&yr, 138, MT);
	svg_axis_log(&yl, lmin, lmax, SVG_F_NS);
	svg_axis_place(&yl, 290, 178);

	snprintf(id, sizeof(id), "chart-timeline-%u", idx);
	snprintf(title, sizeof(title), "%.*s over time", (int)sizeof(t->name), t->name);
	svg_printf(w, "<figure>\n");
	svg_open(w, id, "chart timeline", CW, 336, title);
	svg_frame(w, &x, &yr, NULL, iops ? "IOPS" : "MB/s");
	svg_frame(w, &x, &yl, "time in the measured window", "p50, p99");
	for (k = 0; k < t->nruns; k++) {
		if (!pts[k].n)
			continue;
		html_series(k, ser, sizeof(ser));
		snprintf(cls, sizeof(cls), "line %s", ser);
		snprintf(attrs, sizeof(attrs), "data-run=\"%u\" data-points=\"%u\"", k + 1,
			 t->runs[k].timeline.n);
		svg_polyline(w, &x, &yr, pts[k].t, pts[k].rate, pts[k].n, cls, attrs);
		snprintf(cls, sizeof(cls), "line thin %s", ser);
		i = tl_lat(&pts[k], pts[k].p99, xs, ys);
		svg_polyline(w, &x, &yl, xs, ys, i, cls, NULL);
		snprintf(cls, sizeof(cls), "line thin dash %s", ser);
		i = tl_lat(&pts[k], pts[k].p50, xs, ys);
		svg_polyline(w, &x, &yl, xs, ys, i, cls, NULL);
		if (names && nb) {
			snprintf(nb[nn], sizeof(nb[nn]), "run %u", k + 1);
			names[nn] = nb[nn];
			nn++;
		}
	}
	svg_close(w);
	if (t->nruns > 1)
		html_legend(w, names, nn);
	free(names);
	free(nb);
	for (k = 0; k < t->nruns && !t->runs[k].timeline.interval_ns; k++)
		;
	report_fmt_ns(k < t->nruns ? (double)t->runs[k].timeline.interval_ns : 0, iv, sizeof(iv));
	svg_printf(w, "<figcaption>");
	svg_esc(w, t->name, sizeof(t->name));
	svg_printf(w, ": %s per %s interval", iops ? "IOPS" : "MB/s", iv);
	if (merged > 1) {
		snprintf(lab, sizeof(lab), "%u", merged);
		svg_printf(w, " (every %s intervals merged into one point, with the worst latency "
			   "of them)", lab);
	}
	svg_printf(w, "; below, the p99 (solid) and p50 (dashed) of the I/Os completed in each."
		   "</figcaption>\n</figure>\n");
}

static bool has_timeline(const struct test_result *t)
{
	for (unsigned k = 0; t->runs && k < t->nruns; k++)
		if (t->runs[k].timeline.n && t->runs[k].timeline.p)
			return true;
	return false;
}

static void chart_timelines(struct svg *w, const struct run_result *r)
{
	struct tl_pts *pts = NULL;
	unsigned i, most = 0;
	bool any = false;

	svg_printf(w, "<section id=\"timelines\">\n<h2>Timelines</h2>\n");
	for (i = 0; i < r->ntests; i++) {
		any |= has_timeline(&r->tests[i]);
		if (r->tests[i].nruns > most)
			most = r->tests[i].nruns;
	}
	if (any)
		pts = calloc(most, sizeof(*pts));
	if (!pts) {
		svg_printf(w, "<p class=\"none\" id=\"timeline-none\">No timeline in this result: "
			   "its runs hold no figures interval by interval.</p>\n</section>\n");
		return;
	}
	svg_printf(w, "<div class=\"charts\">\n");
	for (i = 0; i < r->ntests; i++) {
		if (has_timeline(&r->tests[i])) {
			chart_timeline(w, &r->tests[i], i, pts);
			continue;
		}
		svg_printf(w, "<p class=\"none\" id=\"timeline-none-%u\">", i);
		svg_esc(w, r->tests[i].name, sizeof(r->tests[i].name));
		svg_printf(w, ": no timeline.</p>\n");
	}
	svg_printf(w, "</div>\n</section>\n");
	free(pts);
}

void html_run_charts(struct svg *w, const struct run_result *r)
{
	svg_printf(w, "<section id=\"throughput\">\n<h2>Throughput</h2>\n");
	chart_throughput(w, r);
	svg_printf(w, "</section>\n");
	chart_qd(w, r);
	chart_latency(w, r);
	chart_timelines(w, r);
}
