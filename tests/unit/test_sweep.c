/* test_sweep.c - the block design, the bootstrap and the paired verdicts on synthetic data. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "interval.h"
#include "sweep.h"
#include "workload.h"

static void test_design(void **state)
{
	struct sweep_design a, b, c;
	unsigned seen[4];

	(void)state;
	assert_int_equal(sweep_design(&a, 4, 5, 7), 0);
	assert_int_equal(a.ntrials, 22);
	assert_int_equal(a.config[0], 0);
	assert_int_equal(a.block[0], SWEEP_OUTSIDE);
	assert_int_equal(a.config[21], 0);
	assert_int_equal(a.block[21], SWEEP_OUTSIDE);
	for (unsigned blk = 0; blk < 5; blk++) {
		memset(seen, 0, sizeof(seen));
		for (unsigned k = 0; k < 4; k++) {
			unsigned t = 1 + blk * 4 + k;

			assert_int_equal(a.block[t], blk);
			seen[a.config[t]]++;
		}
		for (unsigned k = 0; k < 4; k++)
			assert_int_equal(seen[k], 1);	/* every configuration once */
	}
	/* seeded: the same seed gives the same order, another one another */
	assert_int_equal(sweep_design(&b, 4, 5, 7), 0);
	assert_memory_equal(a.config, b.config, a.ntrials * sizeof(*a.config));
	assert_int_equal(sweep_design(&c, 4, 5, 8), 0);
	assert_memory_not_equal(a.config, c.config, a.ntrials * sizeof(*a.config));
	sweep_design_free(&a);
	sweep_design_free(&b);
	sweep_design_free(&c);
	assert_int_equal(sweep_design(&a, 0, 5, 1), -EINVAL);
}

static void test_stats(void **state)
{
	const double x[] = { 1, 4, 16 }, k[] = { 2, 2, 2, 2 }, e[] = { 3, 1, 2, 4 };
	double lo, hi, lo2, hi2;

	(void)state;
	assert_float_equal(stats_geomean(x, 3), 4, 1e-12);
	assert_float_equal(stats_median(x, 3), 4, 0);
	assert_float_equal(stats_median(e, 4), 2.5, 0);
	assert_int_equal(stats_bootstrap(k, 4, stats_geomean, 0.95, 1000, 1, &lo, &hi), 0);
	assert_float_equal(lo, 2, 1e-12);
	assert_float_equal(hi, 2, 1e-12);
	/* within the sample's range, reproducible, wider at a higher level */
	assert_int_equal(stats_bootstrap(x, 3, stats_geomean, 0.95, 5000, 3, &lo, &hi), 0);
	assert_true(lo >= 1 && hi <= 16 && lo < 4 && hi > 4);
	assert_int_equal(stats_bootstrap(x, 3, stats_geomean, 0.95, 5000, 3, &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	assert_int_equal(stats_bootstrap(x, 3, stats_geomean, 0.99, 5000, 3, &lo2, &hi2), 0);
	assert_true(lo2 <= lo && hi2 >= hi);
}

/* Student's t quantiles against published tables, and the interval. */
static void test_t(void **state)
{
	static const struct { double p, df, t; } rows[] = {
		{ 0.975, 1, 12.7062047 }, { 0.975, 3, 3.1824463 }, { 0.975, 4, 2.7764451 },
		{ 0.975, 10, 2.2281389 }, { 0.995, 3, 5.8409093 },
		{ 0.5, 5, 0 }, { 0.025, 4, -2.7764451 }, { 0.975, 1e6, 1.9599664 },
	};
	const double x[] = { 1, 2, 3, 4, 5 };
	double m, lo, hi;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_float_equal(stats_t_quantile(rows[i].p, rows[i].df), rows[i].t,
				   1e-6);
	/* mean 3, s = sqrt(2.5), t(0.975, 4) = 2.7764: 3 -+ 1.9632 */
	stats_t_interval(x, 5, 0.95, &m, &lo, &hi);
	assert_float_equal(m, 3, 1e-12);
	assert_float_equal(lo, 3 - 2.7764451 * sqrt(2.5 / 5), 1e-6);
	assert_float_equal(hi, 3 + 2.7764451 * sqrt(2.5 / 5), 1e-6);
	stats_t_interval(x, 1, 0.95, &m, &lo, &hi);
	assert_float_equal(lo, 1, 0);
	assert_float_equal(hi, 1, 0);
}

/* m for nblocks x 3 configurations: the baseline, one `effect` times it,
 * one equal to it (A/A); every run moves by up to +-jitter, and the device
 * by up to +-drift between blocks (the pairing takes that out). */
static void synth(double *m, unsigned nblocks, double effect, double jitter, double drift,
		  uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	for (unsigned b = 0; b < nblocks; b++) {
		double dev = 1 + drift * ((double)wl_rng_below(&r, 2001) / 1000 - 1);

		for (unsigned k = 0; k < 3; k++) {
			double j = 1 + jitter * ((double)wl_rng_below(&r, 2001) / 1000 - 1);

			m[b * 3 + k] = 1000 * dev * j * (k == 1 ? effect : 1);
		}
	}
}

static void test_verdicts(void **state)
{
	double m[5 * 3];
	struct sweep_verdict v;
	unsigned better = 0, worse = 0, aa = 0;

	(void)state;
	/* 100 synthetic sweeps: a real 25 % gain is always found, a 25 % loss
	 * always, and the A/A arm never leaves "~", whatever the device does
	 * between blocks (20 %) with 1 % jitter per run. */
	for (uint64_t s = 1; s <= 100; s++) {
		synth(m, 5, 1.25, 0.01, 0.2, s);
		sweep_compare(m, 5, 3, 1, 0.03, 2, s, &v);
		better += v.verdict == 1;
		assert_true(v.lo <= v.ratio && v.ratio <= v.hi);
		assert_float_equal(v.level, 0.975, 1e-12);
		sweep_compare(m, 5, 3, 2, 0.03, 2, s, &v);
		aa += v.verdict != 0;
		synth(m, 5, 0.75, 0.01, 0.2, s);
		sweep_compare(m, 5, 3, 1, 0.03, 2, s, &v);
		worse += v.verdict == -1;
	}
	assert_int_equal(better, 100);
	assert_int_equal(worse, 100);
	assert_int_equal(aa, 0);
	/* an effect inside the noise band is no verdict, however sure */
	synth(m, 5, 1.02, 0.001, 0, 1);
	sweep_compare(m, 5, 3, 1, 0.03, 1, 1, &v);
	assert_int_equal(v.verdict, 0);
	assert_true(v.lo > 1.01);
}

static void test_drift(void **state)
{
	const double flat[] = { 100, 102, 99, 101, 100, 98 };
	const double step[] = { 100, 101, 99, 80, 81, 79 };
	const double odd_last[] = { 222, 217, 216, 221, 223, 170 };	/* one odd run */
	const double noisy[] = { 100, 130, 80, 110, 70, 105 };
	const double slope[] = { 100, 96, 92, 88, 84, 80, 76 };
	double change;

	(void)state;
	assert_false(sweep_drifted(flat, 6, 0.03, &change));
	assert_true(fabs(change) < 0.03);
	assert_true(sweep_drifted(step, 6, 0.03, &change));
	assert_float_equal(change, -0.2, 0.01);
	/* a single odd run at the end is no drift (a first-and-last test
	 * called this -23 %) */
	assert_false(sweep_drifted(odd_last, 6, 0.03, &change));
	/* a baseline that moves 30 % anyway: 10 % is no drift */
	assert_false(sweep_drifted(noisy, 6, 0.03, &change));
	assert_true(sweep_drifted(slope, 7, 0.03, &change));
	assert_false(sweep_drifted(flat, 3, 0.03, &change));	/* too few runs */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_design),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_t),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_drift),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
