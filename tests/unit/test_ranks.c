/* test_ranks.c - a coordinated run's ranks: imbalance, hosts, their runs added up. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "repeat.h"
#include "result.h"

/* A test of n ranks, rank i moving bytes[i] in 1 s. */
static void make_test(struct test_result *t, unsigned n, const uint64_t *bytes)
{
	memset(t, 0, sizeof(*t));
	t->ranks = calloc(n, sizeof(*t->ranks));
	assert_non_null(t->ranks);
	t->nranks = n;
	for (unsigned i = 0; i < n; i++) {
		t->ranks[i] = (struct rank_test){ .ops = bytes[i] ? bytes[i] / 4096 : 10 + i,
						  .bytes = bytes[i], .runtime_ns = 1000000000,
						  .bytes_per_sec = (double)bytes[i] };
		t->ops += t->ranks[i].ops;
		t->bytes += bytes[i];
	}
	t->runtime_ns = 1000000000;
}

static void test_imbalance(void **state)
{
	const uint64_t bytes[] = { 400 << 20, 100 << 20, 800 << 20, 400 << 20 };
	struct test_result t;

	(void)state;
	make_test(&t, 4, bytes);
	result_finish(&t);
	assert_false(t.imbalance.by_ops);
	assert_int_equal(t.imbalance.slowest, 1);
	assert_int_equal(t.imbalance.fastest, 2);
	assert_true(t.imbalance.slowest_rate == (double)(100 << 20));
	assert_true(t.imbalance.fastest_rate == (double)(800 << 20));
	assert_true(t.imbalance.spread > 0.874 && t.imbalance.spread < 0.876);
	result_test_free(&t);
	assert_null(t.ranks);
	assert_int_equal(t.nranks, 0);
}

/* No bytes moved (metadata tests): by ops per second instead. */
static void test_imbalance_by_ops(void **state)
{
	const uint64_t none[] = { 0, 0, 0 };
	struct test_result t;

	(void)state;
	make_test(&t, 3, none);
	result_finish(&t);
	assert_true(t.imbalance.by_ops);
	assert_int_equal(t.imbalance.slowest, 0);
	assert_int_equal(t.imbalance.fastest, 2);
	assert_true(t.imbalance.fastest_rate > 11.9 && t.imbalance.fastest_rate < 12.1);
	result_test_free(&t);
}

/* --repeat: each rank's runs add up, its window from the first start to
 * the last end, and the imbalance follows. */
static void test_repeat_adds_ranks(void **state)
{
	const uint64_t one[] = { 100, 300 }, two[] = { 500, 300 };
	struct test_result acc = { 0 }, a, b;

	(void)state;
	make_test(&a, 2, one);
	a.ranks[0].start_ns = 10;
	a.ranks[0].end_ns = 20;
	a.ranks[0].lat_n = 3;
	a.ranks[0].lat_min = 7;
	make_test(&b, 2, two);
	b.ranks[0].start_ns = 30;
	b.ranks[0].end_ns = 40;
	b.ranks[0].lat_n = 2;
	b.ranks[0].lat_min = 5;
	result_finish(&a);
	result_finish(&b);
	assert_int_equal(repeat_add(&acc, &a), 0);
	assert_int_equal(repeat_add(&acc, &b), 0);
	assert_null(b.ranks);
	assert_int_equal(acc.nranks, 2);
	assert_int_equal(acc.ranks[0].bytes, 600);
	assert_int_equal(acc.ranks[1].bytes, 600);
	assert_int_equal(acc.ranks[0].runtime_ns, 2000000000);
	assert_int_equal(acc.ranks[0].start_ns, 10);
	assert_int_equal(acc.ranks[0].end_ns, 40);
	assert_int_equal(acc.ranks[0].lat_n, 5);
	assert_int_equal(acc.ranks[0].lat_min, 5);
	assert_true(acc.ranks[0].bytes_per_sec == 300.0);
	/* equal over both runs: no spread */
	assert_true(acc.imbalance.spread == 0);
	result_test_free(&acc);
}

static void test_summarize(void **state)
{
	struct rank_info info[4] = {
		{ .rank = 0, .hostname = "a", .kernel = "6.1", .version = "0.1.0" },
		{ .rank = 1, .hostname = "a", .kernel = "6.1", .version = "0.1.0" },
		{ .rank = 2, .hostname = "b", .kernel = "6.1", .version = "0.1.0" },
		{ .rank = 3, .hostname = "c", .kernel = "6.1", .version = "0.1.0" },
	};
	struct result_ranks rr = { .n = 4, .info = info };

	(void)state;
	result_ranks_summarize(&rr);
	assert_int_equal(rr.nhosts, 3);
	assert_false(rr.kernels_differ);
	assert_false(rr.versions_differ);
	snprintf(info[3].kernel, sizeof(info[3].kernel), "5.10");
	snprintf(info[2].version, sizeof(info[2].version), "0.0.9");
	result_ranks_summarize(&rr);
	assert_true(rr.kernels_differ);
	assert_true(rr.versions_differ);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_imbalance),
		cmocka_unit_test(test_imbalance_by_ops),
		cmocka_unit_test(test_repeat_adds_ranks),
		cmocka_unit_test(test_summarize),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
