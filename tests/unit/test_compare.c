/* test_compare.c - the before/after comparison: ratios, signs, noise rule, matching, differences. */
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

#include "compare.h"
#include "interval.h"

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

	assert_int_equal(compare_build(&c, r, files, 2, NULL), 0);
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
	/* Summary: the geometric mean of 2 alone, test 0 measured differently
	 * (another engine and queue depth) telling no change. */
	assert_int_equal(p->nratios, 1);
	near(p->geomean_iops, 2);
	assert_int_equal(p->worst, 1);
	assert_int_equal(p->best, 1);
	assert_int_equal(p->nmismatched, 1);
	assert_false(p->repeats);
	assert_true(p->all_gained);	/* the one ratio in the mean is 2 */
	/* no runs to judge: the figures alone, said to be unjudged; the test
	 * measured differently is not among them */
	assert_int_equal(p->outcome, CMP_OUT_UNJUDGED);
	assert_string_equal(p->headline, "Not judged: 1 of 2 tests measured differently on the "
			    "two sides (block size, queue depth, jobs, engine or O_DIRECT), so they "
			    "take no verdict; the others: fewer than 5 runs on a side, so no change "
			    "is told from noise. The figures alone: IOPS higher on 1 of 1 tests, "
			    "lower on none (geometric mean 2.00x). Run both sides with --repeat 5 to "
			    "have them judged.");
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
	assert_int_equal(compare_build(&c, r, files, 2, NULL), 0);
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
	assert_int_equal(compare_build(&c, r, files, 2, NULL), 0);
	assert_true(isnan(c.pairs[0].tests[0].m[CMP_IOPS].ratio));
	assert_true(isnan(c.pairs[0].tests[0].m[CMP_IOPS].change_pct));
	assert_int_equal(c.pairs[0].nratios, 0);
	assert_true(isnan(c.pairs[0].geomean_iops));
	assert_int_equal(c.pairs[0].worst, -1);
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

/* ---- intervals and verdicts over the runs ---------------------------------- */

/* A test with n runs: IOPS iops[k] and p99 p99[k] of run k. */
static void add_runs(struct run_result *r, const char *name, const double *iops,
		     const double *p99, unsigned n)
{
	struct test_result t = { 0 };

	snprintf(t.name, sizeof(t.name), "%s", name);
	t.engine = "sync";
	t.bs = 4096;
	t.qd = t.jobs = 1;
	t.nruns = n;
	t.runs = calloc(n, sizeof(*t.runs));
	assert_non_null(t.runs);
	for (unsigned k = 0; k < n; k++) {
		t.runs[k].iops = iops[k];
		t.runs[k].bytes_per_sec = iops[k] * 4096;
		t.runs[k].lat_p50_ns = (uint64_t)p99[k] / 2;
		t.runs[k].lat_p99_ns = (uint64_t)p99[k];
		t.runs[k].usec_per_op = 1;
	}
	t.iops = iops[n / 2];
	t.bytes_per_sec = t.iops * 4096;
	t.lat_sum.pct[pct(99)] = (uint64_t)p99[n / 2];
	assert_int_equal(result_add_test(r, &t), 0);
}

static const double base5[] = { 1000, 1010, 990, 1005, 995 };
static const double twice5[] = { 2000, 2020, 1980, 2010, 1990 };
static const double lat5[] = { 100e3, 101e3, 99e3, 100.5e3, 99.5e3 };
static const double half5[] = { 50e3, 50.5e3, 49.5e3, 50.2e3, 49.8e3 };

static void build2(struct compare *c, struct run_result *r, double noise)
{
	static const char *files[] = { "before.json", "after.json" };
	struct compare_opts o = { .noise = noise };

	assert_int_equal(compare_build(c, r, files, 2, &o), 0);
}

/* Twice the IOPS at half the p99: faster and lower, with intervals that
 * hold the true ratios; the same runs again: "~". */
static void test_verdicts(void **state)
{
	struct run_result r[2] = { 0 };
	const struct compare_value *v;
	struct compare c;

	(void)state;
	add_runs(&r[0], "x", base5, lat5, 5);
	add_runs(&r[1], "x", twice5, half5, 5);
	add_runs(&r[0], "same", base5, lat5, 5);
	add_runs(&r[1], "same", base5, lat5, 5);
	build2(&c, r, 0.03);
	v = &c.pairs[0].tests[0].m[CMP_IOPS];
	near(v->med_ratio, 2.0);
	assert_false(v->low_confidence);
	assert_true(v->lo <= 2.0 && v->hi >= 2.0);
	assert_true(v->lo > 1.9 && v->hi < 2.1);
	assert_int_equal(v->verdict, CMP_BETTER);
	assert_int_equal(c.pairs[0].tests[0].m[CMP_BYTES_PER_SEC].verdict, CMP_BETTER);
	v = &c.pairs[0].tests[0].m[CMP_LAT_P99];
	assert_true(v->lo <= 0.5 && v->hi >= 0.5);
	assert_int_equal(v->verdict, CMP_BETTER);	/* lower latency */
	assert_int_equal(c.pairs[0].tests[0].m[CMP_LAT_P50].verdict, CMP_UNJUDGED);
	v = &c.pairs[0].tests[1].m[CMP_IOPS];
	near(v->med_ratio, 1.0);
	assert_true(v->lo <= 1.0 && v->hi >= 1.0);
	assert_int_equal(v->verdict, CMP_SAME);
	assert_int_equal(c.pairs[0].tests[1].m[CMP_LAT_P99].verdict, CMP_SAME);
	/* two tests, throughput and p99 each: four verdicts, Bonferroni */
	assert_int_equal(c.pairs[0].family, 4);
	/* asked 1 - 0.05 / 4; 5 and 5 runs hold the range at 1 - 2 / 252 */
	near(c.pairs[0].tests[0].m[CMP_IOPS].level, 1 - 2.0 / 252);
	assert_int_equal(c.pairs[0].nbetter, 1);
	assert_int_equal(c.pairs[0].nsame, 1);
	assert_string_equal(c.pairs[0].words, "after.json vs before.json: 2.0x faster [2.0, 2.0] "
			    "on x; 1 test unchanged (~)");
	assert_int_equal(c.pairs[0].outcome, CMP_OUT_BETTER);
	assert_int_equal(c.pairs[0].p99_better, 1);
	assert_int_equal(c.pairs[0].p99_same, 1);
	assert_string_equal(c.pairs[0].headline, "Better: faster on 1 of 2 tests (2.0x faster, x), "
			    "slower on none, 1 unchanged (~); p99 latency lower on 1 (2.0x lower, "
			    "x), higher on none.");
	assert_false(c.pairs[0].all_lost);
	compare_free(&c);
	/* the other way round: a penalty, in words */
	build2(&c, (struct run_result[]){ r[1], r[0] }, 0.03);
	assert_int_equal(c.pairs[0].tests[0].m[CMP_IOPS].verdict, CMP_WORSE);
	assert_int_equal(c.pairs[0].tests[0].m[CMP_LAT_P99].verdict, CMP_WORSE);
	assert_non_null(strstr(c.pairs[0].words, ": 2.0x slower [2.0, 2.0] on x;"));
	assert_int_equal(c.pairs[0].outcome, CMP_OUT_WORSE);
	assert_string_equal(c.pairs[0].headline, "Worse: slower on 1 of 2 tests (2.0x slower, x), "
			    "faster on none, 1 unchanged (~); p99 latency higher on 1 (2.0x higher, "
			    "x), lower on none.");
	compare_free(&c);
	/* only the same runs: no significant change */
	build2(&c, (struct run_result[]){ r[0], r[0] }, 0.03);
	assert_int_equal(c.pairs[0].outcome, CMP_OUT_SAME);
	assert_string_equal(c.pairs[0].headline, "No significant change: throughput unchanged "
			    "(~) on 2 of 2 tests, no interval wholly beyond the +-3 % noise band; "
			    "p99 latency unchanged (~) on 2.");
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

/* A small, sure change is "~" inside the noise band and a verdict outside. */
static void test_noise_band(void **state)
{
	static const double tight[] = { 1000, 1001, 999, 1000.5, 999.5 };
	static const double up2[] = { 1020, 1021.02, 1018.98, 1020.51, 1019.49 };
	struct run_result r[2] = { 0 };
	struct compare c;

	(void)state;
	add_runs(&r[0], "x", tight, lat5, 5);
	add_runs(&r[1], "x", up2, lat5, 5);
	build2(&c, r, 0.03);
	near(c.pairs[0].tests[0].m[CMP_IOPS].med_ratio, 1.02);
	assert_int_equal(c.pairs[0].tests[0].m[CMP_IOPS].verdict, CMP_SAME);
	compare_free(&c);
	build2(&c, r, 0.005);
	assert_true(c.pairs[0].tests[0].m[CMP_IOPS].lo > 1.005);
	assert_int_equal(c.pairs[0].tests[0].m[CMP_IOPS].verdict, CMP_BETTER);
	assert_non_null(strstr(c.pairs[0].words, ": 2 % faster ["));
	compare_free(&c);
	/* a band of 100 % or more is refused */
	assert_int_equal(compare_build(&c, r, (const char *[]){ "a", "b" }, 2,
				       &(struct compare_opts){ .noise = 1 }), -EINVAL);
	result_free(&r[0]);
	result_free(&r[1]);
}

/* Test i of r waited for a CPU w % of each run's window. */
static void set_wait(struct run_result *r, unsigned i, double w)
{
	struct test_result *t = &r->tests[i];

	t->cpu_wait_valid = true;
	t->cpu_wait_pct = w;
	for (unsigned k = 0; k < t->nruns; k++) {
		t->runs[k].cpu_wait_valid = true;
		t->runs[k].cpu_wait_pct = w;
	}
}

/* The machine's load differs: the band widens on the side the wait for a
 * CPU alone could move a test, and only there; p99 takes no verdict. */
static void test_busier(void **state)
{
	static const double up25[] = { 1250, 1262.5, 1237.5, 1256.25, 1243.75 };
	struct run_result r[2] = { 0 };
	const struct compare_test *t;
	struct compare c;

	(void)state;
	add_runs(&r[0], "x", base5, lat5, 5);
	add_runs(&r[1], "x", up25, lat5, 5);
	/* before waited 30 %, after 10 %: the CPU alone could make after
	 * 0.9 / 0.7 = 1.29x as fast, so 1.25x faster is no verdict */
	set_wait(&r[0], 0, 30);
	set_wait(&r[1], 0, 10);
	build2(&c, r, 0.03);
	t = &c.pairs[0].tests[0];
	near(t->wait_before, 30);
	near(t->wait_after, 10);
	near(t->machine_ratio, 0.9 / 0.7);
	near(t->band_lo, 0.97);
	near(t->band_hi, 1.03 * 0.9 / 0.7);
	assert_true(t->busier);
	assert_true(t->m[CMP_IOPS].lo > 1.2);
	assert_int_equal(t->m[CMP_IOPS].verdict, CMP_SAME);
	assert_int_equal(t->m[CMP_LAT_P99].verdict, CMP_UNJUDGED);
	assert_int_equal(c.pairs[0].nbusier, 1);
	assert_non_null(strstr(c.pairs[0].headline, "(1 with the CPU busier on one side: band "
				"widened)"));
	compare_free(&c);
	/* after waited more and was faster all the same: the band widens
	 * towards slower only, and faster stands */
	set_wait(&r[0], 0, 10);
	set_wait(&r[1], 0, 30);
	build2(&c, r, 0.03);
	t = &c.pairs[0].tests[0];
	near(t->band_lo, 0.97 * 0.7 / 0.9);
	near(t->band_hi, 1.03);
	assert_int_equal(t->m[CMP_IOPS].verdict, CMP_BETTER);
	compare_free(&c);
	/* a side that did not measure it (an older result): the noise band */
	r[0].tests[0].cpu_wait_valid = false;
	set_wait(&r[1], 0, 10);
	build2(&c, r, 0.03);
	t = &c.pairs[0].tests[0];
	assert_true(isnan(t->wait_before));
	near(t->machine_ratio, 1);
	assert_false(t->busier);
	assert_int_equal(t->m[CMP_IOPS].verdict, CMP_BETTER);
	assert_int_equal(t->m[CMP_LAT_P99].verdict, CMP_SAME);
	assert_int_equal(c.pairs[0].nbusier, 0);
	compare_free(&c);
	/* waits a little apart: within the noise, p99 judged as before */
	set_wait(&r[0], 0, 11);
	set_wait(&r[1], 0, 12);
	build2(&c, r, 0.03);
	assert_false(c.pairs[0].tests[0].busier);
	assert_int_equal(c.pairs[0].tests[0].m[CMP_LAT_P99].verdict, CMP_SAME);
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

/* Fewer than 5 runs on a side: the range, low confidence, no verdict. */
static void test_low_confidence(void **state)
{
	struct run_result r[2] = { 0 };
	const struct compare_value *v;
	struct compare c;

	(void)state;
	add_runs(&r[0], "x", base5, lat5, 3);	/* 1000 1010 990 */
	add_runs(&r[1], "x", twice5, half5, 5);
	build2(&c, r, 0.03);
	v = &c.pairs[0].tests[0].m[CMP_IOPS];
	assert_true(v->low_confidence);
	assert_int_equal(v->nbefore, 3);
	assert_int_equal(v->nafter, 5);
	near(v->lo, 1980.0 / 1010);
	near(v->hi, 2020.0 / 990);
	assert_int_equal(v->verdict, CMP_UNJUDGED);
	assert_int_equal(c.pairs[0].family, 0);
	assert_int_equal(c.pairs[0].nunjudged, 1);
	assert_non_null(strstr(c.pairs[0].words, "1 not judged (fewer than 5 runs on a side)"));
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

/* More verdicts, wider intervals (the correction); the same inputs, the
 * same intervals; a test run differently takes no verdict. */
static void test_family_and_seed(void **state)
{
	static const double noisy_a[] = { 1000, 1080, 940, 1030, 970, 1010, 990 };
	static const double noisy_b[] = { 1100, 1190, 1020, 1150, 1060, 1120, 1080 };
	struct run_result one[2] = { 0 }, many[2] = { 0 };
	struct compare c1, c2, cm;
	char name[16];

	(void)state;
	add_runs(&one[0], "t0", noisy_a, lat5, 5);
	add_runs(&one[1], "t0", noisy_b, lat5, 5);
	for (int i = 0; i < 10; i++) {
		snprintf(name, sizeof(name), "t%d", i);
		add_runs(&many[0], name, noisy_a, lat5, 5);
		add_runs(&many[1], name, noisy_b, lat5, 5);
	}
	many[1].tests[9].engine = "io_uring";
	build2(&c1, one, 0.03);
	build2(&c2, one, 0.03);
	build2(&cm, many, 0.03);
	assert_int_equal(c1.pairs[0].family, 2);
	assert_int_equal(cm.pairs[0].family, 18);	/* t9 is not comparable */
	assert_int_equal(cm.pairs[0].tests[9].m[CMP_IOPS].verdict, CMP_UNJUDGED);
	/* 2 verdicts: 5 and 5 runs reach 97.5 %; 18 need more than 5 and 5
	 * can hold (1 - 2 / 252 each), and the family's level says so */
	assert_true(c1.pairs[0].level_held >= 1 - 0.05 / 2);
	assert_true(fabs(compare_family_level(&c1.pairs[0]) - 0.95) < 1e-12);
	assert_true(fabs(cm.pairs[0].level_held - (1 - 2.0 / 252)) < 1e-12);
	assert_true(fabs(compare_family_level(&cm.pairs[0]) - (1 - 18 * 2.0 / 252)) < 1e-12);
	/* 6 and 6 runs: 2 / 924 <= 0.05 / 18 */
	assert_int_equal(cm.pairs[0].runs_needed, 6);
	assert_int_equal(c1.pairs[0].runs_needed, 5);	/* 2 / 70 > 0.05 / 2 >= 2 / 252 */
	assert_true(c1.pairs[0].tests[0].m[CMP_IOPS].lo == c2.pairs[0].tests[0].m[CMP_IOPS].lo);
	assert_true(c1.pairs[0].tests[0].m[CMP_IOPS].hi == c2.pairs[0].tests[0].m[CMP_IOPS].hi);
	assert_true(cm.pairs[0].tests[0].m[CMP_IOPS].lo <= c1.pairs[0].tests[0].m[CMP_IOPS].lo);
	assert_true(cm.pairs[0].tests[0].m[CMP_IOPS].hi >= c1.pairs[0].tests[0].m[CMP_IOPS].hi);
	/* MB/s of 4k ops is IOPS x 4096: the same ratios give it the very
	 * interval and verdict of IOPS, in every test */
	for (int i = 0; i < 9; i++) {
		const struct compare_value *io = &cm.pairs[0].tests[i].m[CMP_IOPS];
		const struct compare_value *mb = &cm.pairs[0].tests[i].m[CMP_BYTES_PER_SEC];

		assert_true(io->lo == mb->lo && io->hi == mb->hi);
		assert_int_equal(io->verdict, mb->verdict);
	}
	/* an interval lies within the runs' extreme ratios */
	assert_true(c1.pairs[0].tests[0].m[CMP_IOPS].lo >= 1020.0 / 1080 - 1e-12);
	assert_true(c1.pairs[0].tests[0].m[CMP_IOPS].hi <= 1190.0 / 940 + 1e-12);
	compare_free(&c1);
	compare_free(&c2);
	compare_free(&cm);
	result_free(&one[0]);
	result_free(&one[1]);
	result_free(&many[0]);
	result_free(&many[1]);
}

/* P(U <= u) for samples of n and m by counting: every way to pick which n
 * of the n + m ranks are the first sample's (n + m <= 16), the pairs in
 * which the first sample's value is the larger. */
static double brute_tail(unsigned n, unsigned m, unsigned u)
{
	unsigned long hits = 0, all = 0;

	for (unsigned mask = 0; mask < 1u << (n + m); mask++) {
		unsigned ones = 0, pairs = 0;

		if ((unsigned)__builtin_popcount(mask) != n)
			continue;
		for (unsigned r = 0; r < n + m; r++) {	/* rank r from the smallest */
			if (mask >> r & 1)
				pairs += r - ones++;	/* the second sample's below it */
		}
		all++;
		hits += pairs <= u;
	}
	return (double)hits / all;
}

/* The exact rank interval: its order statistics and what it holds, checked
 * against counting every order of small samples; a side whose runs are
 * bimodal (a load that came and went) is no significant change; few runs
 * give the range and say what it holds; many runs stay finite. */
static void test_rank_interval(void **state)
{
	static const double flat[] = { 33000, 33400, 32800, 33100, 32900 };
	static const double bimodal[] = { 16000, 16200, 33200, 15900, 33050 };
	double a[100], b[100], lo, hi, held;
	unsigned sizes[][2] = { { 5, 5 }, { 4, 7 }, { 8, 8 }, { 3, 10 } };

	(void)state;
	for (unsigned s = 0; s < 4; s++) {
		unsigned n = sizes[s][0], m = sizes[s][1], k = 1;

		for (unsigned i = 0; i < n; i++)
			a[i] = 100 + i;
		for (unsigned j = 0; j < m; j++)
			b[j] = 100.5 + j;
		assert_int_equal(stats_rank_ratio(a, n, b, m, 0.95, &lo, &hi, &held), 0);
		while (1 - 2 * brute_tail(n, m, k) >= 0.95)
			k++;	/* the largest k with 1 - 2 P(U <= k - 1) >= 0.95 */
		assert_true(fabs(held - (1 - 2 * brute_tail(n, m, k - 1))) < 1e-12);
		assert_true(held >= 0.95);
		/* 5 and 5 at 95 %: the 3rd smallest and largest of 25 ratios */
		if (n == 5 && m == 5) {
			assert_int_equal(k, 3);
			assert_true(fabs(held - (1 - 8.0 / 252)) < 1e-12);
			assert_true(fabs(lo - 101.5 / 104) < 1e-12);	/* 3 ratios <= it */
			assert_true(fabs(hi - 104.5 / 101) < 1e-12);
		}
	}
	/* runs 2-4 slow on one side: the median ratio is 2x, but every
	 * order that puts 3 runs low is as likely under no change: ~ */
	assert_int_equal(stats_rank_ratio(bimodal, 5, flat, 5, 1 - 0.05 / 6, &lo, &hi, &held), 0);
	assert_true(lo < 1 && hi > 2);
	/* 6 verdicts: 5 and 5 runs reach 1 - 0.05 / 6 with the range; 10 do not */
	assert_int_equal(stats_rank_ratio(flat, 5, bimodal, 5, 1 - 0.05 / 10, &lo, &hi, &held), 0);
	assert_true(fabs(held - (1 - 2.0 / 252)) < 1e-12 && held < 1 - 0.05 / 10);
	assert_true(fabs(lo - 15900.0 / 33400) < 1e-12 && fabs(hi - 33200.0 / 32800) < 1e-12);
	/* 100 and 100: the counts stay finite, the level is met, the interval
	 * of two interleaved samples holds 1 */
	for (unsigned i = 0; i < 100; i++) {
		a[i] = 1000 + i;
		b[i] = 1000.5 + i;
	}
	assert_int_equal(stats_rank_ratio(a, 100, b, 100, 1 - 0.05 / 18, &lo, &hi, &held), 0);
	assert_true(held >= 1 - 0.05 / 18 && held < 1 && lo < 1 && hi > 1);
	assert_true(hi / lo < 1.1);
	/* bad input */
	assert_int_equal(stats_rank_ratio(a, 0, b, 5, 0.95, &lo, &hi, &held), -EINVAL);
	assert_int_equal(stats_rank_ratio(a, 101, b, 5, 0.95, &lo, &hi, &held), -EINVAL);
	a[0] = 0;
	assert_int_equal(stats_rank_ratio(a, 5, b, 5, 0.95, &lo, &hi, &held), -EDOM);
	assert_true(isnan(lo) && isnan(hi) && held == 0);
}

/* A test's batch (--batch) is how it was measured: an old result's (0)
 * ran at 1, as does one at --batch 1; 1 against 8 is not judged. */
static void test_batch_mismatch(void **state)
{
	struct run_result r[2] = { 0 };
	struct compare c;

	(void)state;
	add_runs(&r[0], "old", base5, lat5, 5);
	add_runs(&r[1], "old", twice5, lat5, 5);
	add_runs(&r[0], "new", base5, lat5, 5);
	add_runs(&r[1], "new", twice5, lat5, 5);
	r[0].tests[0].batch = 0;	/* saved before tests kept it */
	r[1].tests[0].batch = 1;
	r[0].tests[1].batch = 1;
	r[1].tests[1].batch = 8;
	build2(&c, r, 0.03);
	assert_string_equal(c.pairs[0].tests[0].mismatch, "");
	assert_int_equal(c.pairs[0].tests[0].m[CMP_IOPS].verdict, CMP_BETTER);
	assert_string_equal(c.pairs[0].tests[1].mismatch, "batch 1 -> 8");
	assert_int_equal(c.pairs[0].tests[1].m[CMP_IOPS].verdict, CMP_UNJUDGED);
	assert_int_equal(c.pairs[0].nmismatched, 1);
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

static void test_change_words(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(compare_change_words(2.6, 2.4, 2.8, b, sizeof(b)),
			    "2.6x faster [2.4, 2.8]");
	assert_string_equal(compare_change_words(0.89, 0.86, 0.92, b, sizeof(b)),
			    "11 % slower [8, 14]");
	assert_string_equal(compare_change_words(1.23, 1.19, 1.27, b, sizeof(b)),
			    "23 % faster [19, 27]");
	assert_string_equal(compare_change_words(0.25, 0.2, 0.3125, b, sizeof(b)),
			    "4.0x slower [3.2, 5.0]");
	assert_string_equal(compare_change_words(1.004, 1.002, 1.006, b, sizeof(b)),
			    "0.4 % faster [0.2, 0.6]");
	assert_string_equal(compare_change_words(NAN, 1, 1, b, sizeof(b)), "");
}

/* Latency and CPU per op read as "higher" / "lower", from 2x on as a
 * factor: never a share below -100 %. */
static void test_metric_words(void **state)
{
	char b[64];

	(void)state;
	assert_string_equal(compare_metric_words(CMP_LAT_P99, 35.0, b, sizeof(b)), "35.0x higher");
	assert_string_equal(compare_metric_words(CMP_LAT_P99, 3.3, b, sizeof(b)), "3.3x higher");
	assert_string_equal(compare_metric_words(CMP_LAT_P99, 1.2, b, sizeof(b)), "20 % higher");
	assert_string_equal(compare_metric_words(CMP_LAT_P99, 0.8, b, sizeof(b)), "20 % lower");
	assert_string_equal(compare_metric_words(CMP_LAT_P50, 0.25, b, sizeof(b)), "4.0x lower");
	assert_string_equal(compare_metric_words(CMP_CPU_PER_OP, 250, b, sizeof(b)), "250x higher");
	assert_string_equal(compare_metric_words(CMP_IOPS, 0.4, b, sizeof(b)), "2.5x slower");
	assert_string_equal(compare_metric_words(CMP_IOPS, 0.9, b, sizeof(b)), "10 % slower");
	assert_string_equal(compare_metric_words(CMP_BYTES_PER_SEC, 2, b, sizeof(b)), "2.0x faster");
	assert_string_equal(compare_metric_words(CMP_IOPS, 1.0002, b, sizeof(b)), "same");
	assert_string_equal(compare_metric_words(CMP_LAT_P99, NAN, b, sizeof(b)), "");
	assert_string_equal(compare_metric_words(CMP_LAT_P99, 0, b, sizeof(b)), "");
	assert_string_equal(compare_outcome_key(CMP_OUT_MIXED), "mixed");
	assert_string_equal(compare_outcome_title(CMP_OUT_UNJUDGED), "Not judged");
}

/* Every test lost: the best is only the least worse; both ways in one
 * pair: mixed. */
static void test_all_lost_and_mixed(void **state)
{
	static const double less5[] = { 800, 808, 792, 804, 796 };
	struct run_result r[2] = { 0 };
	struct compare c;

	(void)state;
	add_runs(&r[0], "x", twice5, lat5, 5);
	add_runs(&r[1], "x", base5, lat5, 5);
	add_runs(&r[0], "y", base5, lat5, 5);
	add_runs(&r[1], "y", less5, lat5, 5);
	build2(&c, r, 0.03);
	assert_true(c.pairs[0].all_lost);
	assert_false(c.pairs[0].all_gained);
	assert_int_equal(c.pairs[0].best, 1);	/* 0.8x: the least worse */
	assert_int_equal(c.pairs[0].outcome, CMP_OUT_WORSE);
	assert_non_null(strstr(c.pairs[0].headline, "slower on 2 of 2 tests (at most 2.0x slower, "
			       "x), faster on none;"));
	compare_free(&c);
	build2(&c, (struct run_result[]){ r[1], r[0] }, 0.03);
	assert_true(c.pairs[0].all_gained);
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
	memset(r, 0, sizeof(r));
	add_runs(&r[0], "x", base5, lat5, 5);
	add_runs(&r[1], "x", twice5, lat5, 5);
	add_runs(&r[0], "y", base5, lat5, 5);
	add_runs(&r[1], "y", less5, lat5, 5);
	build2(&c, r, 0.03);
	assert_false(c.pairs[0].all_lost || c.pairs[0].all_gained);
	assert_int_equal(c.pairs[0].outcome, CMP_OUT_MIXED);
	assert_non_null(strstr(c.pairs[0].headline, "Mixed: slower on 1 of 2 tests (20 % slower, y), "
			       "faster on 1 (2.0x faster, x);"));
	compare_free(&c);
	result_free(&r[0]);
	result_free(&r[1]);
}

/* A side whose runs failed (I/O errors, no I/O) takes no verdict, is
 * left out of the mean, and the headline says why; the others still do. */
static void test_failed_side(void **state)
{
	struct run_result r[2] = { 0 };
	const struct compare_pair *p;
	struct compare c;

	(void)state;
	add_runs(&r[0], "x", base5, lat5, 5);
	add_runs(&r[1], "x", twice5, half5, 5);
	add_runs(&r[0], "y", base5, lat5, 5);
	add_runs(&r[1], "y", twice5, half5, 5);
	r[1].tests[0].errors = 7;
	build2(&c, r, 0.03);
	p = &c.pairs[0];
	assert_string_equal(p->tests[0].failed, "after: 7 I/O errors");
	assert_int_equal(p->tests[0].m[CMP_IOPS].verdict, CMP_UNJUDGED);
	assert_int_equal(p->tests[0].m[CMP_LAT_P99].verdict, CMP_UNJUDGED);
	assert_string_equal(p->tests[1].failed, "");
	assert_int_equal(p->tests[1].m[CMP_IOPS].verdict, CMP_BETTER);
	assert_int_equal(p->nfailed, 1);
	assert_int_equal(p->nunjudged, 1);
	assert_int_equal(p->family, 2);
	assert_int_equal(p->nratios, 1);
	assert_int_equal(p->worst, 1);
	assert_non_null(strstr(p->headline, ", 1 not judged (1 failed on a side)"));
	assert_non_null(strstr(p->words, "1 not judged (a side's runs failed: I/O errors or no "
			       "I/O)"));
	compare_free(&c);
	/* every test failed on a side (no I/O at all before): no verdict */
	r[1].tests[0].errors = 0;
	for (unsigned i = 0; i < 2; i++) {
		r[0].tests[i].ops = 0;
		r[0].tests[i].iops = 0;
	}
	build2(&c, r, 0.03);
	p = &c.pairs[0];
	assert_string_equal(p->tests[0].failed, "before: no I/O completed");
	assert_int_equal(p->outcome, CMP_OUT_UNJUDGED);
	assert_int_equal(p->nbetter + p->nworse + p->nsame, 0);
	assert_int_equal(p->nratios, 0);
	assert_string_equal(p->headline, "Not judged: 2 of 2 tests failed on a side (I/O errors or "
			    "no I/O), so they take no verdict; run them again on a working device.");
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
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_noise_band),
		cmocka_unit_test(test_busier),
		cmocka_unit_test(test_low_confidence),
		cmocka_unit_test(test_family_and_seed),
		cmocka_unit_test(test_rank_interval),
		cmocka_unit_test(test_batch_mismatch),
		cmocka_unit_test(test_change_words),
		cmocka_unit_test(test_metric_words),
		cmocka_unit_test(test_all_lost_and_mixed),
		cmocka_unit_test(test_failed_side),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
