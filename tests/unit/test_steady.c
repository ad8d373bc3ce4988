/* test_steady.c - the SNIA PTS steady-state detector on synthetic series. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "steady.h"

#define N 30

static struct steady_params pts(void)
{
	struct steady_params p;

	steady_defaults(&p);
	return p;
}

static void near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.10g, want %.10g", got, want);
}

/* A flat series is steady in its first window, at its value. */
static void test_flat(void **state)
{
	struct steady_params p = pts();
	struct steady_window w;
	double x[N];

	(void)state;
	for (int i = 0; i < N; i++)
		x[i] = 50000;
	assert_int_equal(steady_detect(x, N, &p, &w), 1);
	assert_int_equal(w.first, 0);
	assert_int_equal(w.n, 5);
	near(w.average, 50000, 1e-9);
	near(w.range, 0, 1e-12);
	near(w.excursion, 0, 1e-12);
	/* fewer rounds than a window: not yet, nothing measured */
	assert_int_equal(steady_detect(x, 4, &p, &w), 0);
	assert_int_equal(w.n, 0);
}

/* The least-squares line of an exact line is that line. */
static void test_measure_line(void **state)
{
	struct steady_params p = pts();
	struct steady_window w;
	double x[] = { 7, 100, 102, 104, 106, 108 };

	(void)state;
	steady_measure(x, 1, &p, &w);
	near(w.slope, 2, 1e-12);
	near(w.intercept, 100, 1e-12);
	near(w.average, 104, 1e-12);
	near(w.range, 8.0 / 104, 1e-12);
	near(w.excursion, 8.0 / 104, 1e-12);
	assert_true(w.steady);
}

/* A ramp of 5 % per round (compounded: the same share of the level in
 * every window): a slope excursion of about 20 %, beyond the limit for
 * ever: never steady in 25 rounds. */
static void test_ramp(void **state)
{
	struct steady_params p = pts();
	struct steady_window w;
	double x[N];

	(void)state;
	for (int i = 0; i < N; i++)
		x[i] = 1000 * pow(1.05, i);
	assert_int_equal(steady_detect(x, N, &p, &w), 0);
	assert_false(w.steady);
	assert_int_equal(w.first + w.n, 25);	/* the last window looked at */
	assert_true(w.excursion > p.max_excursion);
	/* a slow ramp (1 % per round) passes: 4 % excursion */
	for (int i = 0; i < N; i++)
		x[i] = 1000 * (1 + 0.01 * i);
	assert_int_equal(steady_detect(x, N, &p, &w), 1);
	assert_int_equal(w.first, 0);
}

/* A step: steady only once the window lies wholly after it. */
static void test_step(void **state)
{
	struct steady_params p = pts();
	struct steady_window w;
	double x[N];

	(void)state;
	for (int i = 0; i < N; i++)
		x[i] = i < 3 ? 1000 : 2000;	/* a fresh drive warming up, say */
	assert_int_equal(steady_detect(x, N, &p, &w), 1);
	assert_int_equal(w.first, 3);
	near(w.average, 2000, 1e-9);
}

/* The write cliff: a write cache makes the first rounds fly, then the
 * rate falls to a third; steady state is the rate after the fall. (A cache
 * phase as long as a window would look steady itself: that is what
 * preconditioning is for.) */
static void test_cliff(void **state)
{
	struct steady_params p = pts();
	struct steady_window w;
	double x[N];

	(void)state;
	for (int i = 0; i < N; i++)
		x[i] = i < 3 ? 900e6 : 300e6 * (1 + 0.02 * ((i % 3) - 1));
	assert_int_equal(steady_detect(x, N, &p, &w), 1);
	assert_int_equal(w.first, 3);
	near(w.average, 300e6, 300e6 * 0.02);
}

/* Noise: +-5 % around a level is steady (range at most 20 %); +-15 % is
 * not, however long it runs. */
static void test_noisy(void **state)
{
	static const double e[] = { 0.3, -0.8, 1, -0.2, 0.6, -1, 0.1, 0.9, -0.5, -0.7 };
	struct steady_params p = pts();
	struct steady_window w;
	double x[N];

	(void)state;
	for (int i = 0; i < N; i++)
		x[i] = 1e4 * (1 + 0.05 * e[i % 10]);
	assert_int_equal(steady_detect(x, N, &p, &w), 1);
	assert_true(w.range <= 0.2);
	for (int i = 0; i < N; i++)
		x[i] = 1e4 * (1 + 0.15 * e[i % 10]);
	assert_int_equal(steady_detect(x, N, &p, &w), 0);
}

/* The limits are the caller's; bad ones are refused. */
static void test_params(void **state)
{
	struct steady_params p = pts();
	struct steady_window w;
	double x[N];

	(void)state;
	for (int i = 0; i < N; i++)
		x[i] = i < 22 ? 1000 * pow(1.05, i) : 2000;
	assert_int_equal(steady_detect(x, N, &p, &w), 0);	/* settles after round 25 */
	p.max_rounds = 30;
	assert_int_equal(steady_detect(x, N, &p, &w), 1);
	assert_int_equal(w.first, 22);
	p = pts();
	p.window = 26;		/* a window larger than the round limit */
	assert_int_equal(steady_detect(x, N, &p, &w), -EINVAL);
	p = pts();
	p.window = 1;
	assert_int_equal(steady_detect(x, N, &p, &w), -EINVAL);
	p = pts();
	p.max_range = 0;
	assert_int_equal(steady_detect(x, N, &p, &w), -EINVAL);
	/* all zero (a device that moved nothing) is never steady */
	for (int i = 0; i < N; i++)
		x[i] = 0;
	p = pts();
	assert_int_equal(steady_detect(x, N, &p, &w), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_flat),
		cmocka_unit_test(test_measure_line),
		cmocka_unit_test(test_ramp),
		cmocka_unit_test(test_step),
		cmocka_unit_test(test_cliff),
		cmocka_unit_test(test_noisy),
		cmocka_unit_test(test_params),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
