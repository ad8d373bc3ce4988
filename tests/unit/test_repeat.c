/* test_repeat.c - --repeat statistics and the merge of a test's runs. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "repeat.h"

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-12 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("got %.17g, want %.17g", got, want);
}

static void test_stat_odd(void **state)
{
	double x[] = { 100, 3, 1, 4, 2 };	/* unsorted on purpose */
	struct run_stat s;
	double dev;

	(void)state;
	repeat_stat(x, 5, &s);
	near(s.median, 3);
	near(s.mean, 22);
	/* (1-22)^2 + (2-22)^2 + (3-22)^2 + (4-22)^2 + (100-22)^2, over n - 1 */
	dev = 441.0 + 400 + 361 + 324 + 6084;
	near(s.stdev, sqrt(dev / 4));
	near(s.cv, sqrt(dev / 4) / 22);
	near(s.min, 1);		/* the worst and the best run, not x[0], x[4] */
	near(s.max, 100);
}

static void test_stat_even(void **state)
{
	double x[] = { 10, 40, 20, 30 };
	struct run_stat s;

	(void)state;
	repeat_stat(x, 4, &s);
	near(s.median, 25);	/* the mean of the two middle values */
	near(s.mean, 25);
	near(s.stdev, sqrt((225.0 + 25 + 25 + 225) / 3));
	near(s.cv, s.stdev / 25);
}

static void test_stat_one_and_none(void **state)
{
	double x[] = { 7.5 }, zero[] = { 0, 0 };
	struct run_stat s;

	(void)state;
	repeat_stat(x, 1, &s);
	near(s.median, 7.5);
	near(s.mean, 7.5);
	near(s.stdev, 0);
	near(s.cv, 0);
	near(s.min, 7.5);
	near(s.max, 7.5);
	repeat_stat(zero, 2, &s);	/* mean 0: cv 0, not NaN */
	near(s.cv, 0);
	repeat_stat(NULL, 0, &s);
	near(s.median, 0);
	near(s.mean, 0);
	near(s.max, 0);
}

/* A run as the runner leaves it: ops latencies of lat_ns each. */
static void fake_run(struct test_result *t, uint64_t ops, uint64_t runtime_ns, uint64_t lat_ns,
		     double user_pct, uint64_t errors, int err)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "rand-read 4k qd1");
	t->workload = "rand-read";
	t->bs = 4096;
	t->ops = ops;
	t->bytes = ops * 4096;
	t->runtime_ns = runtime_ns;
	t->lat = malloc(sizeof(*t->lat));
	assert_non_null(t->lat);
	hist_init(t->lat);
	for (uint64_t i = 0; i < ops; i++)
		hist_add(t->lat, lat_ns);
	t->cpu_user_pct = user_pct;
	t->cpu_sys_pct = user_pct / 2;
	t->usec_per_op = (user_pct * 1.5) / 100 * (double)runtime_ns / 1000 / (double)ops;
	t->dev_valid = true;
	t->dev_read_bytes = t->bytes;
	t->errors = errors;
	t->first_errno = err;
	t->first_error_offset = errors ? ops : 0;
	result_finish(t);
}

static void test_merge_runs(void **state)
{
	struct test_result acc, run;
	struct run_result r;

	(void)state;
	memset(&acc, 0, sizeof(acc));
	/* 1000, 3000 and 2000 IOPS over 1 s each; latencies 1, 3 and 2 us. */
	fake_run(&run, 1000, 1000000000, 1000, 10, 0, 0);
	assert_int_equal(repeat_add(&acc, &run), 0);
	assert_null(run.lat);
	fake_run(&run, 3000, 1000000000, 3000, 20, 2, EIO);
	assert_int_equal(repeat_add(&acc, &run), 0);
	fake_run(&run, 2000, 1000000000, 2000, 30, 1, ENOSPC);
	assert_int_equal(repeat_add(&acc, &run), 0);
	repeat_finish(&acc);

	assert_int_equal(acc.nruns, 3);
	assert_int_equal(acc.ops, 6000);
	assert_int_equal(acc.bytes, 6000 * 4096);
	assert_int_equal(acc.runtime_ns, 3000000000);
	assert_int_equal(acc.dev_read_bytes, 6000 * 4096);
	assert_int_equal(acc.errors, 3);
	assert_int_equal(acc.first_errno, EIO);	/* the first run with an error */
	assert_int_equal(acc.lat->n, 6000);	/* every op of every run */
	assert_int_equal(acc.lat_sum.min, 1000);
	assert_int_equal(acc.lat_sum.max, 3000);
	near(acc.iops, 2000);			/* the median run */
	near(acc.bytes_per_sec, 2000.0 * 4096);
	near(acc.summary.iops.mean, 2000);
	near(acc.summary.iops.stdev, 1000);
	near(acc.summary.iops.cv, 0.5);
	near(acc.summary.lat_p50_ns.median, 2000);
	assert_int_equal(acc.runs[1].ops, 3000);	/* pass order */
	assert_int_equal(acc.runs[2].lat_p99_ns, 2000);
	/* CPU from the summed CPU time: (10 + 20 + 30) % of 1 s each, over 3 s */
	near(acc.cpu_user_pct, 20);
	near(acc.cpu_sys_pct, 10);
	near(acc.usec_per_op, (0.6 + 0.3) * 1e6 / 6000);
	assert_true(repeat_unreliable(&acc));

	/* A file's runs need not add up to its runtime_ns (a loader runs
	 * repeat_finish again on what it read): the CPU percents are over the
	 * runs' own windows, a mean of theirs, never over 100. */
	for (unsigned i = 0; i < 3; i++) {
		acc.runs[i].cpu_wait_valid = true;
		acc.runs[i].cpu_wait_pct = 70;
	}
	acc.cpu_wait_valid = true;
	acc.runtime_ns = 1000000000;
	repeat_finish(&acc);
	near(acc.cpu_wait_pct, 70);
	near(acc.cpu_user_pct, 20);

	/* The result owns the runs from here. */
	memset(&r, 0, sizeof(r));
	assert_int_equal(result_add_test(&r, &acc), 0);
	result_free(&r);
}

static void test_one_run(void **state)
{
	struct test_result acc, run;

	(void)state;
	memset(&acc, 0, sizeof(acc));
	fake_run(&run, 500, 250000000, 1500, 40, 0, 0);
	assert_int_equal(repeat_add(&acc, &run), 0);
	repeat_finish(&acc);
	assert_int_equal(acc.nruns, 1);
	near(acc.iops, 2000);			/* ops / runtime, untouched */
	near(acc.cpu_user_pct, 40);
	near(acc.summary.iops.median, 2000);
	near(acc.summary.iops.stdev, 0);
	near(acc.summary.iops.cv, 0);
	assert_false(repeat_unreliable(&acc));
	free(acc.lat);
	free(acc.runs);
}

static void test_too_many(void **state)
{
	struct test_result acc, run;

	(void)state;
	memset(&acc, 0, sizeof(acc));
	for (unsigned i = 0; i < REPEAT_MAX; i++) {
		fake_run(&run, 10, 1000000, 100, 1, 0, 0);
		assert_int_equal(repeat_add(&acc, &run), 0);
	}
	fake_run(&run, 10, 1000000, 100, 1, 0, 0);
	assert_int_equal(repeat_add(&acc, &run), -ENOSPC);
	assert_non_null(run.lat);		/* not taken */
	free(run.lat);
	repeat_finish(&acc);
	assert_int_equal(acc.nruns, REPEAT_MAX);
	assert_int_equal(acc.ops, 10 * REPEAT_MAX);
	assert_false(repeat_unreliable(&acc));
	free(acc.lat);
	free(acc.runs);
}

/* Runs added as a test of several (another file's, --append) are the same
 * as the same runs added one by one: counts, medians, histogram, and the
 * later runs' stalls and errors said with their index among all runs. */
static void test_add_runs(void **state)
{
	struct test_result one, a, b, run;
	const uint64_t ops[] = { 1000, 3000, 2000, 4000 };

	(void)state;
	memset(&one, 0, sizeof(one));
	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	for (unsigned i = 0; i < 4; i++) {
		for (unsigned k = 0; k < 2; k++) {
			fake_run(&run, ops[i], 1000000000, ops[i], 10.0 * (i + 1), i == 3, EIO);
			run.nstalls = i == 2;
			run.stalls[0] = (struct result_stall){ .job = 1, .ns = 5 };
			run.nio_errors = i == 3;
			run.io_errors[0].offset = 4096;
			assert_int_equal(repeat_add(k ? &one : i < 2 ? &a : &b, &run), 0);
		}
	}
	repeat_finish(&one);
	repeat_finish(&b);
	assert_int_equal(b.stalls[0].run, 0);
	assert_int_equal(b.io_errors[0].run, 1);
	assert_int_equal(repeat_add_runs(&a, &b), 0);
	assert_null(b.runs);
	assert_null(b.lat);
	assert_int_equal(b.nruns, 0);
	repeat_finish(&a);

	assert_int_equal(a.nruns, 4);
	assert_int_equal(a.ops, one.ops);
	assert_int_equal(a.runtime_ns, one.runtime_ns);
	assert_int_equal(a.errors, one.errors);
	assert_int_equal(a.lat->n, one.lat->n);
	assert_memory_equal(a.lat->count, one.lat->count, sizeof(a.lat->count));
	near(a.iops, one.iops);			/* the median of 4: 2500 */
	near(a.iops, 2500);
	near(a.summary.iops.stdev, one.summary.iops.stdev);
	near(a.cpu_user_pct, one.cpu_user_pct);
	for (unsigned i = 0; i < 4; i++)
		assert_int_equal(a.runs[i].ops, ops[i]);	/* a's runs first */
	assert_int_equal(a.nstalls, 1);
	assert_int_equal(a.stalls[0].run, 2);
	assert_int_equal(a.nio_errors, 1);
	assert_int_equal(a.io_errors[0].run, 3);
	assert_int_equal(a.first_errno, EIO);

	/* too many in all, or nothing to add: neither changes */
	fake_run(&run, 10, 1000000, 100, 1, 0, 0);
	assert_int_equal(repeat_add(&b, &run), 0);
	assert_int_equal(repeat_add_runs(&a, &(struct test_result){ 0 }), -EINVAL);
	a.nruns = REPEAT_MAX;	/* it claims the most: its runs are not read */
	assert_int_equal(repeat_add_runs(&a, &b), -ENOSPC);
	assert_int_equal(b.nruns, 1);
	assert_non_null(b.lat);
	a.nruns = 4;
	result_test_free(&a);
	result_test_free(&b);
	result_test_free(&one);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stat_odd),
		cmocka_unit_test(test_stat_even),
		cmocka_unit_test(test_stat_one_and_none),
		cmocka_unit_test(test_merge_runs),
		cmocka_unit_test(test_one_run),
		cmocka_unit_test(test_too_many),
		cmocka_unit_test(test_add_runs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
