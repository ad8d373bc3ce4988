/* test_xbench.c - Xbench scores reproduce Xbench's own published reports. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "xbench.h"

/* One published Xbench 1.3 disk report (shared/seeds/003, the SSD laptop):
 * measured MB/sec and the score Xbench printed, in xbench.c's test order. */
static const double ssd_mb_s[8] = { 84.61, 60.91, 11.00, 97.95, 5.13, 13.91, 4.05, 76.91 };
static const double ssd_score[8] = { 137.80, 107.65, 37.58, 194.89, 48.42, 43.44, 571.17,
				     414.46 };
/* The other report (the 5400 rpm disk). */
static const double hdd_mb_s[8] = { 43.35, 38.65, 18.84, 40.19, 1.12, 19.34, 0.47, 18.28 };
static const double hdd_score[8] = { 70.61, 68.32, 64.36, 79.97, 10.62, 60.40, 66.27, 98.54 };

static const char *const wl[8] = { "seq-write", "seq-write", "seq-read", "seq-read",
				   "rand-write", "rand-write", "rand-read", "rand-read" };
static const unsigned bs[8] = { 4096, 262144, 4096, 262144, 4096, 262144, 4096, 262144 };

static void fill(struct run_result *r, const double *mb_s)
{
	memset(r, 0, sizeof(*r));
	for (unsigned i = 0; i < 8; i++) {
		struct test_result t;

		memset(&t, 0, sizeof(t));
		t.workload = wl[i];
		t.bs = bs[i];
		t.direct = true;
		t.ops = 1;
		t.bytes_per_sec = mb_s[i] * 1e6;
		assert_int_equal(result_add_test(r, &t), 0);
	}
}

/* The report's rounding of MB/sec to two decimals bounds the agreement. */
static void check_report(const double *mb_s, const double *score, double seq, double rnd,
			 double total, double tol)
{
	struct run_result r;
	struct xbench_baseline b;

	xbench_default_baseline(&b);
	fill(&r, mb_s);
	xbench_score(&r, &b);
	assert_true(r.xbench.valid);
	assert_int_equal(r.xbench.n, 8);
	for (unsigned i = 0; i < 8; i++) {
		double got = r.xbench.tests[i].score;

		if (fabs(got - score[i]) > tol * score[i])
			fail_msg("%s: score %.2f, Xbench printed %.2f", r.xbench.tests[i].name, got,
				 score[i]);
	}
	assert_true(fabs(r.xbench.sequential - seq) <= tol * seq);
	assert_true(fabs(r.xbench.random - rnd) <= tol * rnd);
	assert_true(fabs(r.xbench.total - total) <= tol * total);
	result_free(&r);
}

static void test_ssd_report(void **state)
{
	check_report(ssd_mb_s, ssd_score, 82.84, 83.62, 83.23, 0.002);
}

static void test_hdd_report(void **state)
{
	/* Three-digit MB/sec figures (0.47, 1.12): up to 1 % of rounding. */
	check_report(hdd_mb_s, hdd_score, 70.37, 29.43, 41.50, 0.011);
}

static void test_partial_and_buffered(void **state)
{
	struct run_result r;
	struct xbench_baseline b;

	xbench_default_baseline(&b);
	fill(&r, ssd_mb_s);
	r.tests[0].direct = false;	/* a buffered test is not an uncached one */
	r.tests[7].ops = 0;		/* nor is a test that did nothing */
	xbench_score(&r, &b);
	assert_int_equal(r.xbench.n, 6);
	result_free(&r);

	memset(&r, 0, sizeof(r));
	xbench_score(&r, &b);
	assert_false(r.xbench.valid);
	assert_true(r.xbench.total == 0);
}

/* A baseline from a (loaded) result: each xbench test's first rate, any
 * I/O mode; none of them is an error naming the source. */
static void test_baseline_of(void **state)
{
	struct run_result r;
	struct xbench_baseline b;
	struct test_result t;
	char err[256];

	(void)state;
	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	t.workload = "rand-read";
	t.bs = 4096;
	t.bytes_per_sec = 2e6;
	assert_int_equal(result_add_test(&r, &t), 0);
	t.bytes_per_sec = 3e6;	/* the second of the same test: not taken */
	assert_int_equal(result_add_test(&r, &t), 0);
	assert_int_equal(xbench_baseline_of(&r, "a.json", &b, err, sizeof(err)), 0);
	assert_true(b.bytes_per_sec[6] == 2e6);
	assert_true(b.bytes_per_sec[0] == 0);
	assert_string_equal(b.source, "a.json");
	result_free(&r);

	memset(&r, 0, sizeof(r));
	t.workload = "seq-read";
	t.bs = 8192;	/* not one of Xbench's sizes */
	assert_int_equal(result_add_test(&r, &t), 0);
	assert_int_equal(xbench_baseline_of(&r, "b.html", &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "b.html: holds none of the xbench tests"));
	result_free(&r);
}

/* Scores carry their group: a loaded one by its name. */
static void test_groups(void **state)
{
	(void)state;
	assert_true(xbench_sequential("Sequential Uncached Read 256k"));
	assert_false(xbench_sequential("Random Uncached Read 256k"));
	assert_false(xbench_sequential(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ssd_report),
		cmocka_unit_test(test_hdd_report),
		cmocka_unit_test(test_partial_and_buffered),
		cmocka_unit_test(test_baseline_of),
		cmocka_unit_test(test_groups),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
