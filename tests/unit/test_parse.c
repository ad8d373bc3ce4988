/* test_parse.c - table-driven tests for the size, duration, count and list parsers. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "parse.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* One row: input, expected return code, expected value when rc == 0. */
struct row {
	const char *in;
	int rc;
	uint64_t val;
};

/*
 * Every row is checked and every mismatch reported before the test fails,
 * so one run shows all the broken rows rather than the first.
 */
static void check_rows(const char *what, int (*fn)(const char *, uint64_t *),
		       const struct row *rows, size_t nrows)
{
	size_t i, bad = 0;
	uint64_t v;
	int rc;

	for (i = 0; i < nrows; i++) {
		v = 0xdeadbeef;
		rc = fn(rows[i].in, &v);
		if (rc != rows[i].rc || (rc == 0 && v != rows[i].val)) {
			print_error("%s(\"%s\") = %d, %llu; want %d, %llu\n", what, rows[i].in,
				    rc, (unsigned long long)v, rows[i].rc,
				    (unsigned long long)rows[i].val);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

#define KI (1ULL << 10)
#define MI (1ULL << 20)
#define GI (1ULL << 30)
#define TI (1ULL << 40)

static const struct row size_rows[] = {
	{ "0", 0, 0 },
	{ "1", 0, 1 },
	{ "007", 0, 7 },
	{ "4096", 0, 4096 },
	{ "1b", 0, 1 },
	{ "512B", 0, 512 },
	{ "4k", 0, 4 * KI },
	{ "4K", 0, 4 * KI },
	{ "4KiB", 0, 4 * KI },
	{ "256k", 0, 256 * KI },
	{ "1m", 0, MI },
	{ "1M", 0, MI },
	{ "1MiB", 0, MI },
	{ "1g", 0, GI },
	{ "1G", 0, GI },
	{ "1GiB", 0, GI },
	{ "1t", 0, TI },
	{ "1T", 0, TI },
	{ "1TiB", 0, TI },
	{ "1kB", 0, 1000 },
	{ "1KB", 0, 1000 },
	{ "1MB", 0, 1000000 },
	{ "1GB", 0, 1000000000 },
	{ "1TB", 0, 1000000000000ULL },
	{ "1.5k", 0, 1536 },
	{ "0.5k", 0, 512 },
	{ "1.25m", 0, 1310720 },
	{ "1.0", 0, 1 },
	{ "1.000000", 0, 1 },
	{ "0.001kB", 0, 1 },
	{ "0.0009765625k", 0, 1 },
	{ "1.5MB", 0, 1500000 },
	{ "15.999999999068677425384521484375g", 0, 16 * GI - 1 },
	{ "1.0000000000009094947017729282379150390625t", 0, TI + 1 },
	{ "18446744073709551615", 0, UINT64_MAX },
	{ "18446744073709551615b", 0, UINT64_MAX },
	{ "16777215t", 0, 16777215 * TI },
	{ "", -EINVAL, 0 },
	{ "k", -EINVAL, 0 },
	{ "b", -EINVAL, 0 },
	{ "-1", -EINVAL, 0 },
	{ "+1", -EINVAL, 0 },
	{ " 1", -EINVAL, 0 },
	{ "1 ", -EINVAL, 0 },
	{ "4 k", -EINVAL, 0 },
	{ "4k\n", -EINVAL, 0 },
	{ "4q", -EINVAL, 0 },
	{ "4kk", -EINVAL, 0 },
	{ "4kb", -EINVAL, 0 },
	{ "4Ki", -EINVAL, 0 },
	{ "4KIB", -EINVAL, 0 },
	{ "4mB", -EINVAL, 0 },
	{ "1.5.5k", -EINVAL, 0 },
	{ ".5k", -EINVAL, 0 },
	{ "1.", -EINVAL, 0 },
	{ "1.k", -EINVAL, 0 },
	{ "0x10", -EINVAL, 0 },
	{ "1e3", -EINVAL, 0 },
	{ "1.5e", -EINVAL, 0 },
	{ "0.5", -EINVAL, 0 },
	{ "1.3b", -EINVAL, 0 },
	{ "0.0001kB", -EINVAL, 0 },
	{ "18446744073709551615.5", -EINVAL, 0 },
	{ "18446744073709551616", -ERANGE, 0 },
	{ "99999999999999999999999999", -ERANGE, 0 },
	{ "16777216t", -ERANGE, 0 },
	{ "17179869184g", -ERANGE, 0 },
	{ "18446744073709551616.5k", -ERANGE, 0 },
	{ "18446744073709551TB", -ERANGE, 0 },
};

#define NS_S 1000000000ULL

static const struct row duration_rows[] = {
	{ "0", 0, 0 },
	{ "5", 0, 5 * NS_S },
	{ "5s", 0, 5 * NS_S },
	{ "500ms", 0, 500000000 },
	{ "250us", 0, 250000 },
	{ "1ns", 0, 1 },
	{ "2m", 0, 120 * NS_S },
	{ "1h", 0, 3600 * NS_S },
	{ "1.5s", 0, 1500000000 },
	{ "1.5ms", 0, 1500000 },
	{ "0.5m", 0, 30 * NS_S },
	{ "0.000000001", 0, 1 },
	{ "5124095h", 0, 5124095ULL * 3600 * NS_S },
	{ "", -EINVAL, 0 },
	{ "s", -EINVAL, 0 },
	{ "1.5ns", -EINVAL, 0 },
	{ "0.0000000001", -EINVAL, 0 },
	{ "5 s", -EINVAL, 0 },
	{ " 5s", -EINVAL, 0 },
	{ "5sec", -EINVAL, 0 },
	{ "5min", -EINVAL, 0 },
	{ "5S", -EINVAL, 0 },
	{ "5k", -EINVAL, 0 },
	{ "-5s", -EINVAL, 0 },
	{ "+5s", -EINVAL, 0 },
	{ "1e3ms", -EINVAL, 0 },
	{ "99999999999h", -ERANGE, 0 },
	{ "5124096h", -ERANGE, 0 },
	{ "18446744073709551616ns", -ERANGE, 0 },
};

static void test_size(void **state)
{
	check_rows("parse_size", parse_size, size_rows, ARRAY_SIZE(size_rows));
}

static void test_duration(void **state)
{
	check_rows("parse_duration", parse_duration, duration_rows,
		   ARRAY_SIZE(duration_rows));
}

static void test_null_input(void **state)
{
	uint64_t v, out[2];
	int cpus[2];
	size_t n;

	assert_int_equal(parse_size(NULL, &v), -EINVAL);
	assert_int_equal(parse_duration(NULL, &v), -EINVAL);
	assert_int_equal(parse_count(NULL, 0, 1, &v), -EINVAL);
	assert_int_equal(parse_size_list(NULL, out, 2, &n), -EINVAL);
	assert_int_equal(parse_count_list(NULL, 0, 1, out, 2, &n), -EINVAL);
	assert_int_equal(parse_cpu_list(NULL, cpus, 2, &n), -EINVAL);
}

struct count_row {
	const char *in;
	uint64_t min, max;
	int rc;
	uint64_t val;
};

static const struct count_row count_rows[] = {
	{ "0", 0, 10, 0, 0 },
	{ "10", 0, 10, 0, 10 },
	{ "010", 0, 10, 0, 10 },
	{ "1", 1, 1, 0, 1 },
	{ "18446744073709551615", 0, UINT64_MAX, 0, UINT64_MAX },
	{ "11", 0, 10, -ERANGE, 0 },
	{ "0", 1, 10, -ERANGE, 0 },
	{ "18446744073709551616", 0, UINT64_MAX, -ERANGE, 0 },
	{ "", 0, 10, -EINVAL, 0 },
	{ "1k", 0, 10000, -EINVAL, 0 },
	{ "1.0", 0, 10, -EINVAL, 0 },
	{ "-1", 0, 10, -EINVAL, 0 },
	{ "+1", 0, 10, -EINVAL, 0 },
	{ " 1", 0, 10, -EINVAL, 0 },
	{ "1 ", 0, 10, -EINVAL, 0 },
	{ "0x1", 0, 10, -EINVAL, 0 },
};

static void test_count(void **state)
{
	size_t i, bad = 0;
	uint64_t v;
	int rc;

	for (i = 0; i < ARRAY_SIZE(count_rows); i++) {
		const struct count_row *r = &count_rows[i];

		v = 0xdeadbeef;
		rc = parse_count(r->in, r->min, r->max, &v);
		if (rc != r->rc || (rc == 0 && v != r->val)) {
			print_error("parse_count(\"%s\", %llu, %llu) = %d, %llu; want %d\n",
				    r->in, (unsigned long long)r->min,
				    (unsigned long long)r->max, rc, (unsigned long long)v, r->rc);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

#define MAXV 8

/* A list row: input, item limit, expected rc, and on success the expected
 * item count n and the first n values. */
struct list_row {
	const char *in;
	size_t max;
	int rc;
	size_t n;
	uint64_t want[MAXV];
};

static const struct list_row size_list_rows[] = {
	{ "4k,256k,1m", 8, 0, 3, { 4 * KI, 256 * KI, MI } },
	{ "4k", 8, 0, 1, { 4 * KI } },
	{ "1,2,3", 3, 0, 3, { 1, 2, 3 } },
	{ "0,1.5k,1MB", 3, 0, 3, { 0, 1536, 1000000 } },
	{ "1,2,3", 2, -ERANGE, 0, { 0 } },
	{ "4k", 0, -ERANGE, 0, { 0 } },
	{ "1,2,x", 2, -EINVAL, 0, { 0 } },
	{ "", 8, -EINVAL, 0, { 0 } },
	{ ",", 8, -EINVAL, 0, { 0 } },
	{ "4k,", 8, -EINVAL, 0, { 0 } },
	{ ",4k", 8, -EINVAL, 0, { 0 } },
	{ "4k,,1m", 8, -EINVAL, 0, { 0 } },
	{ "4k, 8k", 8, -EINVAL, 0, { 0 } },
	{ "4k;8k", 8, -EINVAL, 0, { 0 } },
	{ "4k,0.5", 8, -EINVAL, 0, { 0 } },
	{ "1,18446744073709551616", 8, -ERANGE, 0, { 0 } },
};

static const struct list_row count_list_rows[] = {
	/* all parsed with min 1, max 64 */
	{ "1,2,64", 8, 0, 3, { 1, 2, 64 } },
	{ "32", 8, 0, 1, { 32 } },
	{ "0", 8, -ERANGE, 0, { 0 } },
	{ "1,65", 8, -ERANGE, 0, { 0 } },
	{ "1,2,3", 2, -ERANGE, 0, { 0 } },
	{ "1,,2", 8, -EINVAL, 0, { 0 } },
	{ "1,2k", 8, -EINVAL, 0, { 0 } },
	{ "", 8, -EINVAL, 0, { 0 } },
	{ "1,", 8, -EINVAL, 0, { 0 } },
};

static const struct list_row cpu_list_rows[] = {
	{ "0-3,6", 8, 0, 5, { 0, 1, 2, 3, 6 } },
	{ "0-3,6,8-9", 8, 0, 7, { 0, 1, 2, 3, 6, 8, 9 } },
	{ "5", 8, 0, 1, { 5 } },
	{ "3-3", 8, 0, 1, { 3 } },
	{ "4095", 8, 0, 1, { 4095 } },
	{ "4094-4095", 2, 0, 2, { 4094, 4095 } },
	{ "0-3", 3, -ERANGE, 0, { 0 } },
	{ "0-4095", 8, -ERANGE, 0, { 0 } },
	{ "4096", 8, -ERANGE, 0, { 0 } },
	{ "0-4096", 8, -ERANGE, 0, { 0 } },
	{ "99999999999999999999", 8, -ERANGE, 0, { 0 } },
	{ "3-1", 8, -EINVAL, 0, { 0 } },
	{ "0-", 8, -EINVAL, 0, { 0 } },
	{ "-1", 8, -EINVAL, 0, { 0 } },
	{ "-", 8, -EINVAL, 0, { 0 } },
	{ "1-2-3", 8, -EINVAL, 0, { 0 } },
	{ "1,,2", 8, -EINVAL, 0, { 0 } },
	{ "1,", 8, -EINVAL, 0, { 0 } },
	{ "", 8, -EINVAL, 0, { 0 } },
	{ "a", 8, -EINVAL, 0, { 0 } },
	{ "0 - 3", 8, -EINVAL, 0, { 0 } },
	{ "1k", 8, -EINVAL, 0, { 0 } },
};

enum list_kind { LIST_SIZE, LIST_COUNT, LIST_CPU };

static int run_list(enum list_kind kind, const struct list_row *r, uint64_t *got, size_t *n)
{
	int cpus[MAXV];
	size_t i;
	int rc;

	switch (kind) {
	case LIST_SIZE:
		return parse_size_list(r->in, got, r->max, n);
	case LIST_COUNT:
		return parse_count_list(r->in, 1, 64, got, r->max, n);
	case LIST_CPU:
	default:
		rc = parse_cpu_list(r->in, cpus, r->max, n);
		for (i = 0; rc == 0 && i < *n; i++)
			got[i] = (uint64_t)cpus[i];
		return rc;
	}
}

static void check_list_rows(enum list_kind kind, const struct list_row *rows, size_t nrows)
{
	uint64_t got[MAXV];
	size_t i, n, bad = 0;
	int rc;

	for (i = 0; i < nrows; i++) {
		const struct list_row *r = &rows[i];

		memset(got, 0, sizeof(got));
		n = 12345;
		rc = run_list(kind, r, got, &n);
		if (rc != r->rc || (rc == 0 && (n != r->n ||
		    memcmp(got, r->want, n * sizeof(got[0])) != 0))) {
			print_error("list kind %d \"%s\" max %zu = %d, n %zu; want %d, n %zu\n",
				    kind, r->in, r->max, rc, n, r->rc, r->n);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* parse_percent: "3", "2.5", "3%"; the range is the caller's. */
static void test_percent(void **state)
{
	static const struct {
		const char *in;
		int rc;
		double val;
	} rows[] = {
		{ "3", 0, 3 }, { "3%", 0, 3 }, { "2.5", 0, 2.5 }, { "2.5%", 0, 2.5 },
		{ "0", 0, 0 }, { "100", 0, 100 }, { "250%", 0, 250 }, { ".5", 0, 0.5 },
		{ "", -EINVAL, 0 }, { "%", -EINVAL, 0 }, { "-1", -EINVAL, 0 },
		{ " 3", -EINVAL, 0 }, { "3 ", -EINVAL, 0 }, { "3%%", -EINVAL, 0 },
		{ "3 %", -EINVAL, 0 }, { "nan", -EINVAL, 0 }, { "inf", -EINVAL, 0 },
		{ "0x3", -EINVAL, 0 }, { "1e400", -EINVAL, 0 }, { "abc", -EINVAL, 0 },
		{ "3x", -EINVAL, 0 },
	};
	size_t bad = 0;

	(void)state;
	assert_int_equal(parse_percent(NULL, &(double){ 0 }), -EINVAL);
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++) {
		double v = -7;
		int rc = parse_percent(rows[i].in, &v);

		if (rc != rows[i].rc || (!rc && v != rows[i].val)) {
			print_error("parse_percent(\"%s\") = %d, %g; want %d, %g\n", rows[i].in, rc, v,
				    rows[i].rc, rows[i].val);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_size_list(void **state)
{
	check_list_rows(LIST_SIZE, size_list_rows, ARRAY_SIZE(size_list_rows));
}

static void test_count_list(void **state)
{
	check_list_rows(LIST_COUNT, count_list_rows, ARRAY_SIZE(count_list_rows));
}

static void test_cpu_list(void **state)
{
	check_list_rows(LIST_CPU, cpu_list_rows, ARRAY_SIZE(cpu_list_rows));
}

/* The list never writes past max items, even when it is too long. */
static void test_list_bounds(void **state)
{
	uint64_t out[3] = { 0, 0, 7 };
	int cpus[3] = { 0, 0, 7 };
	size_t n;

	assert_int_equal(parse_size_list("1,2,3,4", out, 2, &n), -ERANGE);
	assert_int_equal(out[2], 7);
	assert_int_equal(parse_count_list("1,2,3,4", 0, 9, out, 2, &n), -ERANGE);
	assert_int_equal(out[2], 7);
	assert_int_equal(parse_cpu_list("0-100", cpus, 2, &n), -ERANGE);
	assert_int_equal(cpus[2], 7);
}

struct fmt_row {
	uint64_t in;
	const char *want;
};

static const struct fmt_row fmt_rows[] = {
	{ 0, "0" },
	{ 1, "1" },
	{ 512, "512" },
	{ 1000, "1000" },
	{ 1024, "1k" },
	{ 1536, "1536" },
	{ 4096, "4k" },
	{ 3 * 512 * KI, "1536k" },
	{ MI, "1m" },
	{ 3 * MI, "3m" },
	{ GI, "1g" },
	{ TI, "1t" },
	{ 1024 * TI, "1024t" },
	{ 1ULL << 63, "8388608t" },
	{ UINT64_MAX, "18446744073709551615" },
};

static void test_format_size(void **state)
{
	char buf[32];
	size_t i;

	for (i = 0; i < ARRAY_SIZE(fmt_rows); i++)
		assert_string_equal(format_size(fmt_rows[i].in, buf, sizeof(buf)),
				    fmt_rows[i].want);

	/* a short buffer is truncated and terminated, never overrun */
	memset(buf, 'x', sizeof(buf));
	assert_ptr_equal(format_size(4 * TI, buf, 2), buf);
	assert_string_equal(buf, "4");
	assert_int_equal(buf[2], 'x');
}

static void round_trip(uint64_t v)
{
	char buf[32];
	uint64_t back = 0;

	format_size(v, buf, sizeof(buf));
	assert_int_equal(parse_size(buf, &back), 0);
	assert_int_equal(back, v);
}

static void test_format_round_trip(void **state)
{
	uint64_t v, x = 0x243f6a8885a308d3ULL;
	unsigned s, i;

	for (v = 0; v <= 70000; v++)
		round_trip(v);
	for (s = 0; s < 64; s++) {
		round_trip(1ULL << s);
		round_trip((1ULL << s) - 1);
		round_trip((1ULL << s) + 1);
		round_trip(3ULL << (s < 62 ? s : 62));
	}
	round_trip(UINT64_MAX);
	for (i = 0; i < 100000; i++) {
		/* 64-bit LCG, shifted by a varying amount to hit every suffix */
		x = x * 6364136223846793005ULL + 1442695040888963407ULL;
		round_trip(x >> (i % 64));
		round_trip((x >> 40) << (10 * (i % 5)));
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_size),
		cmocka_unit_test(test_duration),
		cmocka_unit_test(test_null_input),
		cmocka_unit_test(test_count),
		cmocka_unit_test(test_percent),
		cmocka_unit_test(test_size_list),
		cmocka_unit_test(test_count_list),
		cmocka_unit_test(test_cpu_list),
		cmocka_unit_test(test_list_bounds),
		cmocka_unit_test(test_format_size),
		cmocka_unit_test(test_format_round_trip),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
