/* test_compare.c - the before/after comparison: ratios, signs, noise rule, matching, differences. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare.h"

static void near(double got, double want)
{
	if (fabs(got - want) > 1e-12 * (fabs(want) > 1 ? fabs(want) : 1))
		fail_msg("got %.17g, want %.17g", got, want);
}

static int pct(double p)
{
	int i;

	for (i = 0; i < RESULT_NPCT; i++)
		if (fabs(result_pcts[i] - p) < 1e-9)
			return i;
	fail_msg("no percentile %g", p);
	return 0;
}

/* A hand-made test; cv > 0 makes it look like a --repeat 3 test. */
static void add(struct run_result *r, const char *name, double iops, uint64_t p99,
		double cpu, double cv)
{
	struct test_result t = { 0 };

	snprintf(t.name, sizeof(t.name), "%s", name);
	t.engine = "sync";
	t.bs = 4096;
	t.qd = 1;
	t.jobs = 1;
	t.iops = iops;
	t.bytes_per_sec = iops * 4096;
	t.lat_sum.pct[pct(50)] = p99 / 2;
	t.lat_sum.pct[pct(99)] = p99;
	t.lat_sum.pct[pct(99.9)] = p99 * 2;
	t.usec_per_op = cpu;
	if (cv > 0) {
		t.nruns = 3;
		t.summary.iops.cv = cv;
		t.summary.bytes_per_sec.cv = cv;
		t.summary.lat_p50_ns.cv = cv;
		t.summary.lat_p99_ns.cv = cv;
		t.summary.usec_per_op.cv = cv;
	} else {
		t.nruns = 1;
	}
	assert_int_equal(result_add_test(r, &t), 0);
}

static void test_ratios_and_lists(void **state)
{
	struct run_result r[2] = { 0 };
	const char *files[] = { "a.json", "b.json" };
	struct compare c;
	const struct compare_pair *p;
	const struct compare_test *t;

	(void)state;
	snprintf(r[0].host.kernel, sizeof(r[0].host.kernel), "6.1.0");
	snprintf(r[1].host.kernel, sizeof(r[1].host.kernel), "6.18.0");
	snprintf(r[1].label, sizeof(r[1].label), "new");
	snprintf(r[0].target.scheduler, sizeof(r[0].target.scheduler), "none");
	snprintf(r[1].target.scheduler, sizeof(r[1].target.scheduler), "none");
	assert_int_equal(result_add_setting(&r[0], "runtime", "5s"), 0);
	assert_int_equal(result_add_setting(&r[1], "runtime", "5s"), 0);
	assert_int_equal(result_add_setting(&r[1], "qd", "32"), 0);
	add(&r[0], "rand-read 4k qd1", 1000, 100000, 10, 0);
	add(&r[0], "seq-read 1m qd8", 500, 2000000, 40, 0);
	add(&r[0], "gone", 1, 1, 1, 0);
	add(&r[1], "seq-read 1m qd8", 1000, 1000000, 50, 0);
	add(&r[1], "rand-read 4k qd1", 750, 200000, 8, 0);
	add(&r[1], "new test", 1, 1, 1, 0);
	r[1].tests[1].engine = "io_uring";
	r[1].tests[1].qd = 32;

	assert_int_equal(compare_build(&c, r, files, 2), 0);
	assert_string_equal(c.base_label, "a.json");	/* no label: the file */
	assert_int_equal(c.npairs, 1);
	p = &c.pairs[0];
	assert_string_equal(p->label, "new");
	assert_int_equal(p->ntests, 2);
	/* In the baseline's order, whatever the other file's order. */
	t = &p->tests[0];
	assert_string_equal(t->before->name, "rand-read 4k qd1");
	near(t->m[CMP_IOPS].ratio, 0.75);
	near(t->m[CMP_IOPS].change_pct, -25);		/* fewer IOPS: a penalty */
	near(t->m[CMP_LAT_P99].ratio, 2);
	near(t->m[CMP_LAT_P99].change_pct, -100);	/* twice the latency: a penalty */
	near(t->m[CMP_CPU_PER_OP].change_pct, 20);	/* less CPU per op: better */
	near(t->m[CMP_LAT_P999].before, 200000);
	assert_int_equal(t->m[CMP_IOPS].within_noise, -1);	/* no repeats: unknown */
	assert_string_equal(t->mismatch, "engine sync -> io_uring, qd 1 -> 32");
	t = &p->tests[1];
	near(t->m[CMP_IOPS].change_pct, 100);
	near(t->m[CMP_BYTES_PER_SEC].ratio, 2);
	near(t->m[CMP_LAT_P99].change_pct, 50);
	near(t->m[CMP_CPU_PER_OP].change_pct, -25);
	assert_string_equal(t->mismatch, "");
	/* Summary: geometric mean of 0.75, 2 and nothing else. */
	assert_int_equal(p->nratios, 2);
	near(p->geomean_iops, sqrt(0.75 * 2));
	assert_int_equal(p->worst, 0);
	assert_int_equal(p->best, 1);
	assert_false(p->repeats);
	assert_int_equal(p->nonly_before, 1);
	assert_string_equal(p->only_before[0]->name, "gone");
	assert_int_equal(p->nonly_after, 1);
	assert_string_equal(p->only_after[0]->name, "new test");
	/* Differences: label, kernel, the setting only one side has; not the
	 * scheduler or runtime, which are the same. */
	assert_int_equal(p->ndiffs, 3);
	assert_string_equal(p->diffs[0].key, "label");
	assert_string_equal(p->diffs[0].before, "");
	assert_string_equal(p->diffs[1].key, "host.kernel");
	assert_string_equal(p->diffs[1].before, "6.1.0");
	assert_string_equal(p->diffs[1].after, "6.18.0");
	assert_string_equal(p->diffs[2].key, "settings.qd");
	assert_string_equal(p->diffs[2].after, "32");
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

static void test_noise(void **state)
{
	struct run_result r[2] = { 0 };
	const char *files[] = { "a.json", "b.json" };
	struct compare c;
	const struct compare_test *t;

	(void)state;
	/* |ratio - 1| = 0.05: within 2 x 0.03, not within 2 x 0.02. */
	add(&r[0], "x", 1000, 1000, 1, 0.03);
	add(&r[1], "x", 1050, 1000, 1, 0.01);
	add(&r[0], "y", 1000, 1000, 1, 0.02);
	add(&r[1], "y", 950, 1000, 1, 0.01);
	add(&r[0], "z", 1000, 1000, 1, 0.05);
	add(&r[1], "z", 1000, 1000, 1, 0);	/* one run: nothing to say */
	assert_int_equal(compare_build(&c, r, files, 2), 0);
	t = c.pairs[0].tests;
	assert_int_equal(t[0].m[CMP_IOPS].within_noise, 1);
	assert_int_equal(t[0].m[CMP_LAT_P999].within_noise, -1);	/* no spread kept */
	assert_int_equal(t[1].m[CMP_IOPS].within_noise, 0);
	assert_int_equal(t[1].m[CMP_LAT_P99].within_noise, 1);	/* ratio 1 */
	assert_int_equal(t[2].m[CMP_IOPS].within_noise, -1);
	assert_false(c.pairs[0].repeats);
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

static void test_zero_before(void **state)
{
	struct run_result r[2] = { 0 };
	const char *files[] = { "a.json", "b.json" };
	struct compare c;

	(void)state;
	add(&r[0], "x", 0, 0, 0, 0);
	add(&r[1], "x", 10, 10, 1, 0);
	assert_int_equal(compare_build(&c, r, files, 2), 0);
	assert_true(isnan(c.pairs[0].tests[0].m[CMP_IOPS].ratio));
	assert_true(isnan(c.pairs[0].tests[0].m[CMP_IOPS].change_pct));
	assert_int_equal(c.pairs[0].nratios, 0);
	assert_true(isnan(c.pairs[0].geomean_iops));
	assert_int_equal(c.pairs[0].worst, -1);
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ratios_and_lists),
		cmocka_unit_test(test_noise),
		cmocka_unit_test(test_zero_before),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
