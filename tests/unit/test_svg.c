/* test_svg.c - the chart module: nice ticks, log scales, labels, escaping, byte-reproducible output. */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "svg.h"

static void test_nice(void **state)
{
	static const struct { double x; bool round; double want; } rows[] = {
		{ 1, false, 1 }, { 1.01, false, 2 }, { 2, false, 2 }, { 2.1, false, 5 },
		{ 7, false, 10 }, { 1234, false, 2000 }, { 0.03, false, 0.05 },
		{ 1.2, true, 1 }, { 1.6, true, 2 }, { 2.9, true, 2 }, { 3.1, true, 5 },
		{ 6.9, true, 5 }, { 7.1, true, 10 }, { 450, true, 500 }, { 0.0012, true, 0.001 },
		{ 0, true, 0 }, { -5, false, 0 }, { NAN, true, 0 }, { INFINITY, false, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		double got = svg_nice(rows[i].x, rows[i].round);

		if (fabs(got - rows[i].want) > 1e-12 * fmax(1, rows[i].want))
			fail_msg("svg_nice(%g, %d) = %g, want %g", rows[i].x, rows[i].round, got,
				 rows[i].want);
	}
}

static void expect_ticks(const struct svg_axis *a, const double *want, unsigned n)
{
	assert_int_equal(a->nticks, n);
	for (unsigned i = 0; i < n; i++)
		if (fabs(a->tick[i] - want[i]) > 1e-9 * fmax(1, fabs(want[i])))
			fail_msg("tick %u = %.17g, want %g", i, a->tick[i], want[i]);
	assert_true(a->lo <= a->tick[0] + 1e-12);
	assert_true(a->hi >= a->tick[n - 1] - 1e-12);
}

static void test_linear(void **state)
{
	static const double t1[] = { 0, 2, 4, 6, 8, 10 };
	static const double t2[] = { 0, 500, 1000, 1500 };
	static const double t3[] = { 0.2, 0.3, 0.4, 0.5, 0.6, 0.7 };
	static const double t4[] = { 0, 0.5, 1 };
	static const double t5[] = { -20, -10, 0, 10, 20, 30 };
	struct svg_axis a;

	(void)state;
	svg_axis_lin(&a, 0, 9.3, 6, SVG_F_SI);
	expect_ticks(&a, t1, 6);
	assert_true(a.lo == 0 && a.hi == 10);
	svg_axis_lin(&a, 0, 1234, 5, SVG_F_SI);
	expect_ticks(&a, t2, 4);
	/* 0.1 steps: no 0.30000000000000004 tick past the end, no lost one */
	svg_axis_lin(&a, 0.2, 0.7, 6, SVG_F_SI);
	expect_ticks(&a, t3, 6);
	/* no range at all: a unit-wide one */
	svg_axis_lin(&a, 0, 0, 3, SVG_F_SI);
	expect_ticks(&a, t4, 3);
	svg_axis_lin(&a, -17, 25, 6, SVG_F_SI);
	expect_ticks(&a, t5, 6);
	/* a zero tick is +0, never -0 (which would print "-0") */
	for (unsigned i = 0; i < a.nticks; i++)
		if (a.tick[i] == 0)
			assert_false(signbit(a.tick[i]));
	/* many wanted ticks over a huge range: never more than the array */
	svg_axis_lin(&a, 0, 1e12, 100, SVG_F_SI);
	assert_true(a.nticks <= SVG_MAXTICKS && a.nticks >= 2);
	svg_axis_lin(&a, NAN, INFINITY, 5, SVG_F_SI);
	assert_true(a.nticks >= 2 && isfinite(a.lo) && isfinite(a.hi) && a.hi > a.lo);
}

static void test_log(void **state)
{
	static const double dec[] = { 1e4, 1e5, 1e6, 1e7 };
	static const double m125[] = { 10, 20, 50, 100, 200, 500, 1000 };
	static const double every3[] = { 1, 1e3, 1e6, 1e9, 1e12, 1e15, 1e18 };
	struct svg_axis a;

	(void)state;
	svg_axis_log(&a, 23e3, 4.1e6, SVG_F_NS);
	expect_ticks(&a, dec, 4);
	assert_true(a.lo == 1e4 && a.hi == 1e7);
	/* two decades or less: 1, 2, 5 of each */
	svg_axis_log(&a, 31, 512, SVG_F_NS);
	expect_ticks(&a, m125, 7);
	/* a value on a decade is its own end */
	svg_axis_log(&a, 100, 1000, SVG_F_SI);
	assert_true(a.lo == 100 && a.hi == 1000);
	/* one value: a decade around it */
	svg_axis_log(&a, 500, 500, SVG_F_SI);
	assert_true(a.lo == 100 && a.hi == 1000);
	/* many decades: at most 8 labelled, the last on a tick */
	svg_axis_log(&a, 1, 3e17, SVG_F_SI);
	expect_ticks(&a, every3, 7);
	assert_true(a.hi == 1e18);
	svg_axis_log(&a, 1, 2e19, SVG_F_SI);
	assert_true(a.hi == 1e21 && a.nticks == 8);
	/* lo <= 0 is hi / 10 */
	svg_axis_log(&a, 0, 50, SVG_F_SI);
	assert_true(a.lo == 1 && a.hi == 100);

	/* pixels: decades equally spaced, clamped outside */
	svg_axis_log(&a, 1e3, 1e6, SVG_F_NS);
	svg_axis_place(&a, 300, 0);
	assert_true(fabs(svg_axis_px(&a, 1e3) - 300) < 1e-9);
	assert_true(fabs(svg_axis_px(&a, 1e4) - 200) < 1e-9);
	assert_true(fabs(svg_axis_px(&a, 1e5) - 100) < 1e-9);
	assert_true(fabs(svg_axis_px(&a, sqrt(10) * 1e3) - 250) < 1e-9);
	assert_true(svg_axis_px(&a, 1e9) == 0);
	assert_true(svg_axis_px(&a, 0) == 300);
	assert_true(svg_axis_px(&a, -5) == 300);

	svg_axis_lin(&a, 0, 10, 6, SVG_F_SI);
	svg_axis_place(&a, 50, 550);
	assert_true(svg_axis_px(&a, 5) == 300);
	assert_true(svg_axis_px(&a, NAN) == 50);
}

/* An axis of finite ascending ticks within a finite lo < hi. */
static void expect_sane(const struct svg_axis *a, const char *what, double lo, double hi)
{
	if (!(a->nticks >= 1 && a->nticks <= SVG_MAXTICKS && isfinite(a->lo) &&
	      isfinite(a->hi) && a->lo < a->hi))
		fail_msg("%s(%g, %g): %u ticks over [%g, %g]", what, lo, hi, a->nticks, a->lo,
			 a->hi);
	for (unsigned i = 0; i < a->nticks; i++)
		if (!isfinite(a->tick[i]) || (i && !(a->tick[i] >= a->tick[i - 1])))
			fail_msg("%s(%g, %g): tick %u = %g", what, lo, hi, i, a->tick[i]);
	if (a->scale == SVG_LOG && !(a->lo > 0))
		fail_msg("%s(%g, %g): log axis from %g", what, lo, hi, a->lo);
}

/* Every pair of hostile doubles gives an axis, at once (issue 27: a
 * result's IOPS of 1.7e308 looped svg_axis_lin forever). */
static void test_total(void **state)
{
	static const double v[] = {
		0, -0.0, 1, -1, 1e17, 1e17 + 16, 9.3, DBL_MAX, -DBL_MAX, 1.7e308, 1e300,
		-1e300, DBL_MIN, 4.9e-324, -4.9e-324, NAN, INFINITY, -INFINITY,
		(double)UINT64_MAX, 1e-300, 123456789.123,
	};
	static const unsigned wants[] = { 0, 1, 2, 6, 16, 100 };
	static const double given[] = { -DBL_MAX, -1e300, -1, 0, 1e-300, 1, 1e17, DBL_MAX };
	const size_t n = sizeof(v) / sizeof(v[0]), ng = sizeof(given) / sizeof(given[0]);
	struct svg_axis a;

	(void)state;
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < n; j++) {
			for (size_t k = 0; k < sizeof(wants) / sizeof(wants[0]); k++) {
				svg_axis_lin(&a, v[i], v[j], wants[k], SVG_F_SI);
				expect_sane(&a, "svg_axis_lin", v[i], v[j]);
				assert_true(a.nticks >= 2);
			}
			svg_axis_log(&a, v[i], v[j], SVG_F_NS);
			expect_sane(&a, "svg_axis_log", v[i], v[j]);
			/* the given ticks may all fall outside */
			svg_axis_ticks(&a, SVG_LOG, v[i], v[j], given, (unsigned)ng, SVG_F_SI);
			if (a.nticks)
				expect_sane(&a, "svg_axis_ticks log", v[i], v[j]);
			assert_true(isfinite(a.lo) && a.lo > 0 && isfinite(a.hi) && a.lo < a.hi);
			svg_axis_ticks(&a, SVG_LIN, v[i], v[j], given, (unsigned)ng, SVG_F_SI);
			if (a.nticks)
				expect_sane(&a, "svg_axis_ticks", v[i], v[j]);
			assert_true(isfinite(a.lo) && isfinite(a.hi) && a.lo < a.hi);
		}
}

static void test_ticks_given(void **state)
{
	static const double qd[] = { 1, 4, 32, 1000 };
	struct svg_axis a;

	(void)state;
	svg_axis_ticks(&a, SVG_LOG, 0.5, 64, qd, 4, SVG_F_SI);
	assert_int_equal(a.nticks, 3);	/* 1000 is outside */
	assert_true(a.tick[2] == 32);
	svg_axis_ticks(&a, SVG_LOG, 0, 0, NULL, 0, SVG_F_SI);
	assert_true(a.lo > 0 && a.hi > a.lo);
}

static void test_labels(void **state)
{
	static const struct { enum svg_fmt f; double v; const char *want; } rows[] = {
		{ SVG_F_SI, 0, "0" }, { SVG_F_SI, 250, "250" }, { SVG_F_SI, 1000, "1k" },
		{ SVG_F_SI, 1500, "1.5k" }, { SVG_F_SI, 2e6, "2M" }, { SVG_F_SI, 12.5e9, "12.5G" },
		{ SVG_F_SI, 999.7e3, "1M" }, { SVG_F_SI, 0.5, "0.5" }, { SVG_F_SI, 0.3 + 1e-16, "0.3" },
		{ SVG_F_SI, -2000, "-2k" }, { SVG_F_SI, 999, "999" }, { SVG_F_SI, 123456, "123k" },
		{ SVG_F_SI, 5e21, "5000E" }, { SVG_F_SI, NAN, "-" },
		{ SVG_F_NS, 500, "500ns" }, { SVG_F_NS, 1000, "1us" }, { SVG_F_NS, 1.5e6, "1.5ms" },
		{ SVG_F_NS, 2e9, "2s" }, { SVG_F_NS, 20e3, "20us" }, { SVG_F_NS, 0, "0" },
		{ SVG_F_NS, 3600e9, "3600s" },
		{ SVG_F_PCTL, 0, "p0" }, { SVG_F_PCTL, 1, "p90" }, { SVG_F_PCTL, 2, "p99" },
		{ SVG_F_PCTL, 3, "p99.9" }, { SVG_F_PCTL, 4, "p99.99" },
		{ SVG_F_RATIO, 1, "1x" }, { SVG_F_RATIO, 1.25, "1.25x" }, { SVG_F_RATIO, 0.5, "0.5x" },
	};
	char b[32];

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_string_equal(svg_label(rows[i].f, rows[i].v, b, sizeof(b)), rows[i].want);
	assert_string_equal(svg_label(SVG_F_PCTL, svg_pctl_pos(50), b, sizeof(b)), "p50");
	assert_string_equal(svg_label(SVG_F_PCTL, svg_pctl_pos(99.99), b, sizeof(b)), "p99.99");
	assert_true(fabs(svg_pctl_pos(99.9) - 3) < 1e-9);
	assert_true(svg_pctl_pos(100) == 6);
	/* a tiny buffer: cut, terminated */
	svg_label(SVG_F_NS, 1.5e6, b, 3);
	assert_string_equal(b, "1.");
}

static void test_num(void **state)
{
	char b[SVG_NUMLEN];

	(void)state;
	assert_string_equal(svg_num(12.25, b), "12.2");	/* round half to even, as printf */
	assert_string_equal(svg_num(12.26, b), "12.3");
	assert_string_equal(svg_num(-0.01, b), "0.0");	/* never "-0.0" */
	assert_string_equal(svg_num(-0.0, b), "0.0");
	assert_string_equal(svg_num(NAN, b), "0.0");
	assert_string_equal(svg_num(INFINITY, b), "0.0");
	assert_string_equal(svg_num(-3.5, b), "-3.5");
	assert_string_equal(svg_num(1e300, b), "1000000.0");
}

/* What fn draws, as one malloc'd string. */
static char *draw(void (*fn)(struct svg *), int *err)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	struct svg w = { .f = f };

	assert_non_null(f);
	fn(&w);
	*err = svg_finish(&w);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void chart(struct svg *w)
{
	static const double xs[] = { 1, 2, 4, 8, 16, 32 };
	static const double ys[] = { 12e3, 23.5e3, 41e3, 70e3, 88e3, 90.1e3 };
	struct svg_axis x, y;

	svg_axis_ticks(&x, SVG_LOG, 0.7, 45, xs, 6, SVG_F_SI);
	svg_axis_place(&x, 60, 540);
	svg_axis_lin(&y, 0, 90.1e3, 6, SVG_F_SI);
	svg_axis_place(&y, 260, 10);
	svg_open(w, "chart-t", "chart", 560, 300, "IOPS <&> \"depth\"");
	svg_frame(w, &x, &y, "queue depth", "IOPS");
	svg_polyline(w, &x, &y, xs, ys, 6, "line c0", NULL);
	for (unsigned i = 0; i < 6; i++)
		svg_dot(w, &x, &y, xs[i], ys[i], "dot c0", "data-value=\"1\"");
	svg_errbar(w, true, 100, 50, 80, 4, "err");
	svg_errbar(w, false, 100, 50, 80, 4, "err");
	svg_rect(w, 80, 20, 60, 10, "bar", NULL);
	svg_text(w, 10, 20, "end", "name", "rand-read 4k");
	svg_close(w);
}

static void test_chart(void **state)
{
	int e1, e2;
	char *a = draw(chart, &e1), *b = draw(chart, &e2);

	(void)state;
	assert_int_equal(e1, 0);
	assert_int_equal(e2, 0);
	/* the same input, the same bytes */
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "<svg id=\"chart-t\" class=\"chart\" viewBox=\"0 0 560 300\" "
			       "width=\"560\" height=\"300\" role=\"img\"><title>IOPS &lt;&amp;&gt; "
			       "&quot;depth&quot;</title>"));
	/* the ticks and labels of both axes */
	assert_non_null(strstr(a, ">20k</text>"));
	assert_non_null(strstr(a, ">100k</text>"));
	assert_non_null(strstr(a, ">32</text>"));
	/* y = 0 at the bottom (260), 100k at the top (10): 20k at 210 */
	assert_non_null(strstr(a, "M60.0 210.0H540.0"));
	/* a polyline of 6 points, starting at x = 1 on its pixel */
	/* x = 1 on a log axis from 0.7 to 45 over 60..540; y = 12k */
	assert_non_null(strstr(a, "<polyline points=\"101.1,230.0 "));
	assert_non_null(strstr(a, "\" class=\"line c0\"/>"));
	assert_non_null(strstr(a, "M100.0 50.0V80.0M96.0 50.0H104.0M96.0 80.0H104.0"));
	assert_non_null(strstr(a, "M50.0 100.0H80.0M50.0 96.0V104.0M80.0 96.0V104.0"));
	assert_non_null(strstr(a, "<rect x=\"60.0\" y=\"10.0\" width=\"20.0\" height=\"10.0\" "
			       "class=\"bar\"/>"));
	assert_non_null(strstr(a, "text-anchor=\"end\" class=\"name\">rand-read 4k</text>"));
	assert_null(strstr(a, "nan"));
	assert_null(strstr(a, "-0.0"));
	assert_int_equal(strncmp(a + strlen(a) - 7, "</svg>\n", 7), 0);
	free(a);
	free(b);
}

static void esc(struct svg *w)
{
	/* markup, a quote, a control character, bad UTF-8, good UTF-8 */
	static const char s[] = "<a href='x'>&\"\x01\xff\xc3\xa9\xe2\x80\x93z";

	svg_esc(w, s, sizeof(s));
	svg_esc(w, "cut here", 3);
	svg_esc(w, NULL, 5);
}

static void test_escape(void **state)
{
	int err;
	char *a = draw(esc, &err);

	(void)state;
	assert_int_equal(err, 0);
	assert_string_equal(a, "&lt;a href=&#39;x&#39;&gt;&amp;&quot; \xef\xbf\xbd\xc3\xa9"
			       "\xe2\x80\x93zcut");
	free(a);
}

static void test_write_error(void **state)
{
	FILE *f = fopen("/dev/full", "w");
	struct svg w = { .f = f };

	(void)state;
	if (!f)
		skip();
	setvbuf(f, NULL, _IONBF, 0);
	svg_printf(&w, "<svg>");
	svg_printf(&w, "more");
	assert_int_equal(svg_finish(&w), -ENOSPC);
	fclose(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nice),
		cmocka_unit_test(test_linear),
		cmocka_unit_test(test_log),
		cmocka_unit_test(test_total),
		cmocka_unit_test(test_ticks_given),
		cmocka_unit_test(test_labels),
		cmocka_unit_test(test_num),
		cmocka_unit_test(test_chart),
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_write_error),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
