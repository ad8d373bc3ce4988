/* test_hist.c - histogram against exact sorted statistics; result and host helpers. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "hist.h"
#include "host.h"
#include "result.h"

/* ---- fixed-seed PRNG (splitmix64): reproducible, no dependency ---------- */

static uint64_t rng_state;

static void rng_seed(uint64_t seed)
{
	rng_state = seed;
}

static uint64_t rng_next(void)
{
	uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/* uniform in [0, 1) with 53 random bits */
static double rng_unit(void)
{
	return (double)(rng_next() >> 11) * 0x1.0p-53;
}

static uint64_t rng_range(uint64_t lo, uint64_t hi)	/* inclusive */
{
	return lo + rng_next() % (hi - lo + 1);
}

static uint64_t rng_log_uniform(double lo, double hi)
{
	return (uint64_t)exp(log(lo) + rng_unit() * (log(hi) - log(lo)));
}

/* ---- sample sets ----------------------------------------------------------- */

enum dist { D_UNIFORM_SMALL, D_LOG_UNIFORM, D_BIMODAL, D_CONSTANT, D_SINGLE, D_LARGE_TIGHT };

static const char *const dist_names[] = {
	"uniform 0..200 ns", "log-uniform 1 us..10 s", "bimodal", "constant", "single sample",
	"10 s +- 1 us",
};

static uint64_t *make_samples(enum dist d, size_t *np)
{
	size_t n = d == D_SINGLE ? 1 : d == D_CONSTANT ? 1000 : 100003;
	uint64_t *v = malloc(n * sizeof(*v));
	size_t i;

	assert_non_null(v);
	rng_seed(0x5eed0000u + (unsigned)d);
	for (i = 0; i < n; i++) {
		switch (d) {
		case D_UNIFORM_SMALL:
			v[i] = rng_range(0, 200);
			break;
		case D_LOG_UNIFORM:
			v[i] = rng_log_uniform(1e3, 1e10);
			break;
		case D_BIMODAL:
			/* 90 % fast hits around 100 us, 10 % slow around 10 ms */
			if (rng_next() % 10)
				v[i] = rng_range(80000, 120000);
			else
				v[i] = rng_log_uniform(5e6, 2e7);
			break;
		case D_CONSTANT:
			v[i] = 4096017;
			break;
		case D_SINGLE:
			v[i] = 123457;
			break;
		case D_LARGE_TIGHT:
			/* large mean, tiny spread: where E[x^2] - E[x]^2 cancels */
			v[i] = 10000000000ULL + rng_range(0, 2000);
			break;
		}
	}
	*np = n;
	return v;
}

static struct hist *hist_new(void)
{
	struct hist *h = malloc(sizeof(*h));

	assert_non_null(h);
	hist_init(h);
	return h;
}

static struct hist *hist_of(const uint64_t *v, size_t n)
{
	struct hist *h = hist_new();
	size_t i;

	for (i = 0; i < n; i++)
		hist_add(h, v[i]);
	return h;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* ---- (a) bucket geometry ------------------------------------------------- */

static void check_value_in_bucket(uint64_t v)
{
	unsigned idx = hist_index(v);
	uint64_t low, width;

	assert_true(idx < HIST_NBUCKETS);
	low = hist_bucket_low(idx);
	width = hist_bucket_width(idx);
	assert_true(low <= v);
	assert_true(v - low < width);	/* v < low + width, without overflow */
}

static void test_bucket_roundtrip(void **state)
{
	uint64_t low, width, last_low = 0, last_width = 0;
	unsigned idx, k;
	int d;

	for (idx = 0; idx < HIST_NBUCKETS; idx++) {
		low = hist_bucket_low(idx);
		width = hist_bucket_width(idx);
		assert_true(width >= 1);
		assert_int_equal(hist_index(low), idx);
		assert_int_equal(hist_index(low + (width - 1)), idx);
		if (idx < 2 * HIST_SUB) {
			assert_int_equal(low, idx);
			assert_int_equal(width, 1);
		} else {
			/* the promise behind HIST_MAX_REL_ERROR */
			assert_true(width <= low / HIST_SUB);
		}
		/* buckets tile the value range with no gap and no overlap */
		if (idx)
			assert_true(low == last_low + last_width);
		last_low = low;
		last_width = width;
	}
	assert_true(last_low + (last_width - 1) == UINT64_MAX);

	for (k = 0; k < 64; k++) {
		for (d = -3; d <= 3; d++) {
			uint64_t p = (uint64_t)1 << k;

			if (d < 0 && (uint64_t)-d > p)
				continue;
			check_value_in_bucket(p + (uint64_t)(int64_t)d);
		}
		check_value_in_bucket(((uint64_t)1 << k) * 2 - 1);	/* 2^(k+1) - 1 */
	}
	check_value_in_bucket(UINT64_MAX);
}

/* ---- (b) percentiles against exact nearest rank ---------------------------- */

/* Nearest rank ceil(p/100 * n), computed from p in thousandths of a percent
 * (every result_pcts entry has at most three decimals) so it is exact. */
static uint64_t exact_rank(double p, uint64_t n)
{
	uint64_t k = (uint64_t)llround(p * 1000.0);
	uint64_t rank = (k * n + 99999) / 100000;

	return rank < 1 ? 1 : rank > n ? n : rank;
}

static void check_percentiles(enum dist d)
{
	size_t n, i;
	uint64_t *v = make_samples(d, &n);
	struct hist *h = hist_of(v, n);

	qsort(v, n, sizeof(*v), cmp_u64);
	for (i = 0; i < RESULT_NPCT; i++) {
		uint64_t exact = v[exact_rank(result_pcts[i], n) - 1];
		uint64_t got = hist_percentile(h, result_pcts[i]);
		double err = fabs((double)got - (double)exact);

		if (exact < 2 * HIST_SUB || d == D_CONSTANT || d == D_SINGLE) {
			if (got != exact)
				fail_msg("%s p%s: got %llu, exact %llu", dist_names[d],
					 result_pct_keys[i], (unsigned long long)got,
					 (unsigned long long)exact);
		} else if (err > (double)exact * HIST_MAX_REL_ERROR) {
			fail_msg("%s p%s: got %llu, exact %llu, rel err %g > %g",
				 dist_names[d], result_pct_keys[i], (unsigned long long)got,
				 (unsigned long long)exact, err / (double)exact,
				 HIST_MAX_REL_ERROR);
		}
		assert_true(got >= v[0] && got <= v[n - 1]);
	}
	/* the edge ranks are exact: p100 is the max, a tiny p the min */
	assert_int_equal(hist_percentile(h, 100.0), v[n - 1]);
	assert_int_equal(hist_percentile(h, 1e-9), v[0]);
	assert_int_equal(hist_percentile(h, 0.0), v[0]);
	free(h);
	free(v);
}

static void test_percentiles(void **state)
{
	check_percentiles(D_UNIFORM_SMALL);
	check_percentiles(D_LOG_UNIFORM);
	check_percentiles(D_BIMODAL);
	check_percentiles(D_CONSTANT);
	check_percentiles(D_SINGLE);
	check_percentiles(D_LARGE_TIGHT);
}

/* Ranks at exact decimal products: 99.9 % of 1000 samples is rank 999, not
 * 1000, even though 0.999 * 1000 is not exactly 999 in binary. */
static void test_percentile_rank_exact(void **state)
{
	struct hist *h = hist_new();
	uint64_t i;

	for (i = 1; i <= 1000; i++)
		hist_add(h, i);	/* values < 128 are exact; above, bucketed */
	assert_int_equal(hist_percentile(h, 10.0), 100);
	assert_int_equal(hist_percentile(h, 1.0), 10);
	assert_int_equal(hist_percentile(h, 5.0), 50);
	free(h);

	/* rank 999 of 1000 is the last 1; rank 1000 would be the 100 */
	h = hist_new();
	for (i = 0; i < 1000; i++)
		hist_add(h, i < 999 ? 1 : 100);
	assert_int_equal(hist_percentile(h, 99.9), 1);
	assert_int_equal(hist_percentile(h, 99.91), 100);
	free(h);

	h = hist_new();
	for (i = 0; i < 100000; i++)
		hist_add(h, i < 99990 ? 1 : 100);	/* rank 99990 is the last 1 */
	assert_int_equal(hist_percentile(h, 99.99), 1);
	assert_int_equal(hist_percentile(h, 99.991), 100);
	free(h);
}

/* ---- (c) mean and stdev --------------------------------------------------- */

static void assert_close(double got, double want, double rel)
{
	if (fabs(got - want) > rel * fabs(want) + 1e-12)
		fail_msg("got %.17g, want %.17g", got, want);
}

static void check_moments(enum dist d)
{
	long double sum = 0, mean, dev, var = 0;
	size_t n, i;
	uint64_t *v = make_samples(d, &n);
	struct hist *h = hist_of(v, n);

	/* two-pass in long double: the textbook-accurate reference */
	for (i = 0; i < n; i++)
		sum += v[i];
	mean = sum / n;
	for (i = 0; i < n; i++) {
		dev = (long double)v[i] - mean;
		var += dev * dev;
	}
	var /= n;
	assert_close(hist_mean(h), (double)mean, 1e-9);
	assert_close(hist_stdev(h), (double)sqrtl(var), 1e-9);
	free(h);
	free(v);
}

static void test_moments(void **state)
{
	struct hist *h;

	check_moments(D_UNIFORM_SMALL);
	check_moments(D_LOG_UNIFORM);
	check_moments(D_BIMODAL);
	check_moments(D_CONSTANT);
	check_moments(D_SINGLE);
	check_moments(D_LARGE_TIGHT);

	h = hist_new();
	hist_add(h, 2);
	hist_add(h, 4);
	hist_add(h, 4);
	hist_add(h, 4);
	hist_add(h, 5);
	hist_add(h, 5);
	hist_add(h, 7);
	hist_add(h, 9);
	assert_true(hist_mean(h) == 5.0);
	assert_true(hist_stdev(h) == 2.0);
	free(h);
}

/* ---- (d) merging ------------------------------------------------------------ */

static void assert_hist_equal(const struct hist *a, const struct hist *b)
{
	assert_int_equal(a->n, b->n);
	assert_int_equal(a->min, b->min);
	assert_int_equal(a->max, b->max);
	assert_int_equal(a->sum, b->sum);
	assert_true(a->sumsq == b->sumsq);
	assert_memory_equal(a->count, b->count, sizeof(a->count));
	assert_memory_equal(a, b, sizeof(*a));
}

static void test_merge(void **state)
{
	size_t n, i, cut1, cut2;
	uint64_t *v = make_samples(D_BIMODAL, &n);
	struct hist *all = hist_of(v, n), *merged = hist_new(), *part[3], *empty, *copy;

	/* three uneven parts, as threads that did unequal work */
	cut1 = n / 7;
	cut2 = n / 2 + 13;
	part[0] = hist_of(v, cut1);
	part[1] = hist_of(v + cut1, cut2 - cut1);
	part[2] = hist_of(v + cut2, n - cut2);
	for (i = 0; i < 3; i++)
		hist_merge(merged, part[i]);
	assert_hist_equal(merged, all);

	/* order does not matter */
	free(merged);
	merged = hist_new();
	for (i = 3; i-- > 0;)
		hist_merge(merged, part[i]);
	assert_hist_equal(merged, all);

	/* merging an empty histogram changes nothing, either way round */
	empty = hist_new();
	copy = malloc(sizeof(*copy));
	assert_non_null(copy);
	memcpy(copy, all, sizeof(*copy));
	hist_merge(all, empty);
	assert_hist_equal(all, copy);
	hist_merge(empty, all);
	assert_hist_equal(empty, copy);

	for (i = 0; i < 3; i++)
		free(part[i]);
	free(copy);
	free(empty);
	free(merged);
	free(all);
	free(v);
}

/* A live snapshot (hist_merge_live) holds every count of the histogram;
 * only counts and n, so min, max and the moments of dst are untouched. */
static void test_merge_live(void **state)
{
	size_t n, i;
	uint64_t *v = make_samples(D_LOG_UNIFORM, &n);
	struct hist *a = hist_of(v, n / 3), *b = hist_of(v + n / 3, n - n / 3);
	struct hist *snap = hist_new();

	(void)state;
	hist_merge_live(snap, a);
	hist_merge_live(snap, b);
	assert_int_equal(snap->n, n);
	for (i = 0; i < HIST_NBUCKETS; i++)
		assert_int_equal(snap->count[i], a->count[i] + b->count[i]);
	assert_int_equal(snap->min, UINT64_MAX);
	assert_int_equal(snap->max, 0);
	assert_int_equal(snap->sum, 0);
	free(snap);
	free(a);
	free(b);
	free(v);
}

/*
 * What is new between two snapshots of one histogram (hist_interval): its
 * percentiles are those of the new samples alone, within the histogram's
 * resolution, and inside their exact range when the later snapshot's min
 * and max are known.
 */
static void check_interval(enum dist d, bool exact_bounds)
{
	size_t n, cut, i, k;
	uint64_t *v = make_samples(d, &n);
	struct hist *h = hist_new(), *before = hist_new(), *now = hist_new(), *iv = hist_new();
	static const double ps[] = { 1, 50, 90, 99, 99.9 };

	cut = n / 3;
	for (i = 0; i < cut; i++)
		hist_add(h, v[i]);
	hist_merge_live(before, h);
	for (; i < n; i++)
		hist_add(h, v[i]);
	if (exact_bounds)
		memcpy(now, h, sizeof(*now));
	else
		hist_merge_live(now, h);
	hist_interval(iv, now, before);
	assert_int_equal(iv->n, n - cut);
	assert_int_equal(iv->sum, 0);

	qsort(v + cut, n - cut, sizeof(*v), cmp_u64);
	for (k = 0; k < sizeof(ps) / sizeof(ps[0]); k++) {
		uint64_t exact = v[cut + exact_rank(ps[k], n - cut) - 1];
		uint64_t got = hist_percentile(iv, ps[k]);
		double err = fabs((double)got - (double)exact);

		if (err > (double)exact * HIST_MAX_REL_ERROR + 0.5)
			fail_msg("%s interval p%g: got %llu, exact %llu", dist_names[d], ps[k],
				 (unsigned long long)got, (unsigned long long)exact);
		if (exact_bounds)
			assert_true(got >= h->min && got <= h->max);
	}
	/* the extremes, at the same resolution */
	assert_true(fabs((double)iv->max - (double)v[n - 1]) <=
		    (double)v[n - 1] * HIST_MAX_REL_ERROR + 0.5);
	assert_true(fabs((double)iv->min - (double)v[cut]) <=
		    (double)v[cut] * HIST_MAX_REL_ERROR + 0.5);

	/* in place (d == before), and nothing new: empty */
	hist_interval(before, now, before);
	assert_int_equal(before->n, n - cut);
	hist_interval(iv, now, now);
	assert_int_equal(iv->n, 0);
	assert_int_equal(hist_percentile(iv, 50), 0);
	/* a count that went back (never, from one writer) is no change */
	hist_interval(iv, before, now);
	assert_int_equal(iv->n, 0);
	free(iv);
	free(now);
	free(before);
	free(h);
	free(v);
}

static void test_interval(void **state)
{
	(void)state;
	check_interval(D_LOG_UNIFORM, false);
	check_interval(D_LOG_UNIFORM, true);
	check_interval(D_BIMODAL, true);
	check_interval(D_UNIFORM_SMALL, false);
	check_interval(D_LARGE_TIGHT, true);
}

/* ---- (e) empty ------------------------------------------------------------- */

static void test_empty(void **state)
{
	struct hist *h = hist_new();
	unsigned i;

	assert_int_equal(h->n, 0);
	assert_int_equal(h->min, UINT64_MAX);
	assert_int_equal(h->max, 0);
	for (i = 0; i < RESULT_NPCT; i++)
		assert_int_equal(hist_percentile(h, result_pcts[i]), 0);
	assert_true(hist_mean(h) == 0.0);
	assert_true(hist_stdev(h) == 0.0);
	free(h);
}

/* ---- result.c and host.c ------------------------------------------------- */

static void test_result_finish(void **state)
{
	struct test_result t;
	unsigned i;

	memset(&t, 0, sizeof(t));
	t.runtime_ns = 2000000000ULL;	/* 2 s */
	t.ops = 1000;
	t.bytes = 4096000;
	t.lat = hist_new();
	for (i = 1; i <= 1000; i++)
		hist_add(t.lat, i * 1000);
	t.dev_valid = true;
	t.dev_read_bytes = 4096000 / 2 - 1;
	result_finish(&t);
	assert_true(t.iops == 500.0);
	assert_true(t.bytes_per_sec == 2048000.0);
	assert_int_equal(t.lat_sum.min, 1000);
	assert_int_equal(t.lat_sum.max, 1000000);
	assert_true(t.lat_sum.mean == 500500.0);
	for (i = 0; i < RESULT_NPCT; i++)
		assert_int_equal(t.lat_sum.pct[i], hist_percentile(t.lat, result_pcts[i]));
	assert_true(t.cached);

	t.dev_read_bytes = 4096000 / 2;	/* half reached the device: not cached */
	result_finish(&t);
	assert_false(t.cached);
	t.dev_read_bytes = 0;
	t.is_write = true;		/* writes are never "cached reads" */
	result_finish(&t);
	assert_false(t.cached);
	free(t.lat);

	/* no histogram, no runtime: zeros, not NaN */
	memset(&t, 0, sizeof(t));
	result_finish(&t);
	assert_true(t.iops == 0.0 && t.bytes_per_sec == 0.0);
	assert_int_equal(t.lat_sum.min, 0);
	assert_false(t.cached);
}

static void test_result_run(void **state)
{
	struct run_result r;
	struct test_result t;
	unsigned i;

	assert_int_equal(RESULT_NPCT, sizeof(result_pcts) / sizeof(result_pcts[0]));
	assert_string_equal(result_pct_keys[0], "1");
	assert_string_equal(result_pct_keys[RESULT_NPCT - 1], "99.999");
	assert_true(result_pcts[RESULT_NPCT - 1] == 99.999);

	memset(&r, 0, sizeof(r));
	for (i = 0; i < 5; i++) {
		memset(&t, 0, sizeof(t));
		t.ops = i;
		t.lat = hist_new();	/* ownership moves to r */
		assert_int_equal(result_add_test(&r, &t), 0);
	}
	assert_int_equal(r.ntests, 5);
	assert_int_equal(r.tests[4].ops, 4);

	for (i = 0; i < RESULT_MAX_SETTINGS; i++)
		assert_int_equal(result_add_setting(&r, "bs", "%u", i), 0);
	assert_int_equal(result_add_setting(&r, "one", "too many"), -ENOSPC);
	assert_int_equal(r.nsettings, RESULT_MAX_SETTINGS);
	assert_string_equal(r.settings[7].value, "7");
	assert_string_equal(r.settings[7].key, "bs");

	assert_int_equal(result_add_warning(&r, "%s is %d%%", "cache", 42), 0);
	assert_int_equal(result_add_warning(&r, "second"), 0);
	assert_int_equal(r.nwarnings, 2);
	assert_string_equal(r.warnings[0], "cache is 42%");

	result_free(&r);
	assert_int_equal(r.ntests, 0);
	assert_int_equal(r.nwarnings, 0);
	assert_null(r.tests);
	assert_null(r.warnings);
	result_free(&r);	/* twice is fine */
}

static void test_host_probe(void **state)
{
	struct host_info h;

	host_probe(&h);
	assert_true(h.cpus >= 1);
	assert_true(h.memory_bytes > 0);
	assert_true(h.kernel[0] != '\0');
	assert_true(h.cpu_model[0] != '\0');
	assert_true(memchr(h.hostname, '\0', sizeof(h.hostname)) != NULL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bucket_roundtrip),
		cmocka_unit_test(test_percentiles),
		cmocka_unit_test(test_percentile_rank_exact),
		cmocka_unit_test(test_moments),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_merge_live),
		cmocka_unit_test(test_interval),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_result_finish),
		cmocka_unit_test(test_result_run),
		cmocka_unit_test(test_host_probe),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
