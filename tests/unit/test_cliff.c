/* test_cliff.c - the write-cliff finder on synthetic timelines. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cliff.h"

#define MS 1000000ull
#define MAXP 64

static struct timeline_point pts[MAXP];

/* A timeline of n points of 100 ms, point i moving rate(i) bytes/s. */
static struct timeline make(unsigned n, double (*rate)(unsigned))
{
	for (unsigned i = 0; i < n; i++)
		pts[i] = (struct timeline_point){ .t_ns = (i + 1) * 100 * MS,
						  .bytes = (uint64_t)(rate(i) / 10) };
	return (struct timeline){ .interval_ns = 100 * MS, .n = n, .p = pts };
}

static void near(double got, double want, double rel)
{
	if (fabs(got - want) > rel * want)
		fail_msg("got %.6g, want %.6g", got, want);
}

static double flat(unsigned i) { (void)i; return 400e6; }
/* 12 points at 2 GB/s (the SLC cache), then 500 MB/s */
static double step(unsigned i) { return i < 12 ? 2e9 : 500e6; }
/* +-15 %, alternating: noise, no cliff */
static double noisy(unsigned i) { return i % 2 ? 460e6 : 340e6; }
/* a slow start: a rise is never a cliff */
static double rise(unsigned i) { return i < 5 ? 100e6 : 400e6; }
/* a drop of 20 %: less than CLIFF_DROP */
static double dip(unsigned i) { return i < 10 ? 500e6 : 400e6; }

static void test_flat(void **state)
{
	struct timeline tl = make(30, flat);
	struct cliff c;

	(void)state;
	cliff_find(&tl, &c);
	assert_int_equal(c.points, 30);
	assert_false(c.found);
	near(c.rate_before, 400e6, 1e-9);
	assert_true(c.rate_after == 0 && c.bytes_before == 0);
}

/* The step is found where it is: the bytes and time before it exactly. */
static void test_step(void **state)
{
	struct timeline tl = make(40, step);
	struct cliff c;

	(void)state;
	cliff_find(&tl, &c);
	assert_true(c.found);
	assert_int_equal(c.bytes_before, 12 * (uint64_t)(2e9 / 10));
	assert_int_equal(c.ns_before, 1200 * MS);
	near(c.rate_before, 2e9, 1e-9);
	near(c.rate_after, 500e6, 1e-9);
}

static void test_no_cliff(void **state)
{
	struct timeline tl = make(30, noisy);	/* one set of points: one at a time */
	struct cliff c;

	(void)state;
	cliff_find(&tl, &c);
	assert_false(c.found);
	near(c.rate_before, 400e6, 0.01);
	tl = make(30, rise);
	cliff_find(&tl, &c);
	assert_false(c.found);
	tl = make(30, dip);
	cliff_find(&tl, &c);
	assert_false(c.found);
}

/* A short last point (the window closed 10 ms into it) weighs 10 ms. */
static void test_partial_last(void **state)
{
	struct timeline tl = make(20, step);
	struct cliff c;

	(void)state;
	pts[19].t_ns = pts[18].t_ns + 10 * MS;
	pts[19].bytes = 100e6 / 100;	/* 100 MB/s, for 10 ms */
	cliff_find(&tl, &c);
	assert_true(c.found);
	assert_int_equal(c.ns_before, 1200 * MS);
	near(c.rate_after, (7 * 50e6 + 1e6) / 0.71, 1e-9);
}

/* Too few points to tell: nothing found, nothing claimed. */
static void test_short(void **state)
{
	struct timeline tl = make(CLIFF_MIN_POINTS - 1, step), none = { 0 };
	struct cliff c;

	(void)state;
	cliff_find(&tl, &c);
	assert_int_equal(c.points, 0);
	assert_false(c.found);
	assert_true(c.rate_before == 0);
	cliff_find(&none, &c);
	assert_int_equal(c.points, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_no_cliff),
		cmocka_unit_test(test_partial_last),
		cmocka_unit_test(test_short),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
