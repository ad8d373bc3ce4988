/* test_offsets.c - tests for the workload table, PRNG, offset generators and data fill. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "workload.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_find(void **state)
{
	static const char *const names[] = { "seq-read", "seq-write", "rand-read", "rand-write" };
	const struct workload *w, *tab;
	size_t i, n = 0;

	for (i = 0; i < ARRAY_SIZE(names); i++) {
		w = wl_find(names[i]);
		assert_non_null(w);
		assert_string_equal(w->name, names[i]);
		assert_non_null(w->desc);
		assert_true(strlen(w->desc) > 0);
		assert_int_equal(w->dir, strstr(names[i], "read") ? IO_READ : IO_WRITE);
		assert_int_equal(w->pattern, strncmp(names[i], "seq", 3) == 0 ? WL_SEQ : WL_RAND);
	}
	assert_null(wl_find("nope"));
	assert_null(wl_find(""));
	assert_null(wl_find("seq-read "));
	assert_null(wl_find(NULL));

	tab = wl_table(&n);
	assert_true(n >= 4);	/* the classic workloads follow (test_workloads.c) */
	for (i = 0; i < n; i++)
		assert_ptr_equal(wl_find(tab[i].name), &tab[i]);
}

static void test_rng_seed(void **state)
{
	struct wl_rng a, b;
	uint64_t x, y;
	int i, same = 0;

	/* splitmix64's first output from state 0 (reference implementation) */
	wl_rng_seed(&a, 0);
	assert_true(a.s[0] == 0xe220a8397b1dcdafULL);
	assert_false(a.s[0] == 0 && a.s[1] == 0 && a.s[2] == 0 && a.s[3] == 0);
	x = wl_rng_next(&a);
	y = wl_rng_next(&a);
	assert_true(x != 0 || y != 0);
	assert_true(x != y);

	/* same seed, same stream; neighbouring seeds, unrelated streams */
	wl_rng_seed(&a, 42);
	wl_rng_seed(&b, 42);
	for (i = 0; i < 1000; i++)
		assert_true(wl_rng_next(&a) == wl_rng_next(&b));
	wl_rng_seed(&b, 43);
	for (i = 0; i < 1000; i++)
		same += wl_rng_next(&a) == wl_rng_next(&b);
	assert_int_equal(same, 0);
}

static void test_init_rejects(void **state)
{
	struct wl_offsets g;

	assert_int_equal(wl_offsets_init(&g, WL_SEQ, 0, 1 << 20, 0, 1), -EINVAL);
	assert_int_equal(wl_offsets_init(&g, WL_RAND, 0, 1 << 20, 0, 1), -EINVAL);
	assert_int_equal(wl_offsets_init(&g, WL_SEQ, 0, 4095, 4096, 1), -EINVAL);
	assert_int_equal(wl_offsets_init(&g, WL_RAND, 0, 4095, 4096, 1), -EINVAL);
	assert_int_equal(wl_offsets_init(&g, WL_SEQ, 0, 0, 4096, 1), -EINVAL);
	assert_int_equal(wl_offsets_init(&g, WL_SEQ, UINT64_MAX - 4095, 8192, 4096, 1),
			 -EINVAL);
	assert_int_equal(wl_offsets_init(&g, (enum wl_pattern)7, 0, 8192, 4096, 1), -EINVAL);

	/* exactly one block is enough; a partial tail block is dropped */
	assert_int_equal(wl_offsets_init(&g, WL_SEQ, 0, 4096, 4096, 1), 0);
	assert_int_equal(g.nblocks, 1);
	assert_int_equal(wl_offsets_init(&g, WL_RAND, 0, 10 * 4096 + 7, 4096, 1), 0);
	assert_int_equal(g.nblocks, 10);
}

static void test_sequential(void **state)
{
	const uint64_t base = 3 * 1048576ULL + 512, bs = 4096, n = 10;
	struct wl_offsets g;
	uint64_t i, off;

	assert_int_equal(wl_offsets_init(&g, WL_SEQ, base, n * bs + 100, bs, 99), 0);
	assert_false(g.random);
	/* three laps: 0..n-1 in order, then wrap back to block 0 */
	for (i = 0; i < 3 * n; i++) {
		off = wl_offsets_next(&g);
		assert_int_equal(off, base + (i % n) * bs);
	}

	/* a single block repeats forever */
	assert_int_equal(wl_offsets_init(&g, WL_SEQ, base, bs, bs, 0), 0);
	for (i = 0; i < 5; i++)
		assert_int_equal(wl_offsets_next(&g), base);
}

static void test_random_range_and_alignment(void **state)
{
	const uint64_t base = 7 * 1048576ULL, bs = 65536, len = 1000 * bs + 4095;
	struct wl_offsets g;
	uint64_t off;
	int i;

	assert_int_equal(wl_offsets_init(&g, WL_RAND, base, len, bs, 1), 0);
	assert_true(g.random);
	for (i = 0; i < 100000; i++) {
		off = wl_offsets_next(&g);
		assert_true(off >= base);
		assert_true(off < base + 1000 * bs);
		assert_int_equal((off - base) % bs, 0);
	}

	/* near the top of the offset space: no wrap to small offsets */
	assert_int_equal(wl_offsets_init(&g, WL_RAND, UINT64_MAX - 8 * 4096 + 1, 8 * 4096,
					 4096, 5), 0);
	for (i = 0; i < 1000; i++)
		assert_true(wl_offsets_next(&g) >= UINT64_MAX - 8 * 4096 + 1);
}

static void test_random_reproducible(void **state)
{
	struct wl_offsets a, b;
	int i, same = 0;

	assert_int_equal(wl_offsets_init(&a, WL_RAND, 0, 1ULL << 30, 4096, 1234), 0);
	assert_int_equal(wl_offsets_init(&b, WL_RAND, 0, 1ULL << 30, 4096, 1234), 0);
	for (i = 0; i < 10000; i++)
		assert_int_equal(wl_offsets_next(&a), wl_offsets_next(&b));

	assert_int_equal(wl_offsets_init(&a, WL_RAND, 0, 1ULL << 30, 4096, 1234), 0);
	assert_int_equal(wl_offsets_init(&b, WL_RAND, 0, 1ULL << 30, 4096, 1235), 0);
	for (i = 0; i < 10000; i++)
		same += wl_offsets_next(&a) == wl_offsets_next(&b);
	/* 262144 blocks: a chance match is ~4e-6 per draw */
	assert_true(same < 5);
}

static void test_random_uniform(void **state)
{
	unsigned hits[64] = { 0 };
	struct wl_offsets g;
	uint64_t seed;
	int i;

	/* expected 1000 per block, sd ~31: [700, 1300] is ~10 sd wide */
	for (seed = 0; seed < 4; seed++) {
		memset(hits, 0, sizeof(hits));
		assert_int_equal(wl_offsets_init(&g, WL_RAND, 0, 64 * 512, 512, seed), 0);
		for (i = 0; i < 64000; i++)
			hits[wl_offsets_next(&g) / 512]++;
		for (i = 0; i < 64; i++) {
			assert_in_range(hits[i], 700, 1300);
		}
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void test_fill_incompressible(void **state)
{
	const size_t len = 1 << 20, blk = 4096, nblk = len / blk;
	unsigned count[256] = { 0 };
	unsigned char *buf = malloc(len);
	uint64_t firsts[256];
	const double mean = (double)len / 256;
	struct wl_rng r;
	size_t i, j;

	assert_non_null(buf);
	wl_rng_seed(&r, 7);
	wl_fill_random(buf, len, &r);
	for (i = 0; i < len; i++)
		count[buf[i]]++;
	for (i = 0; i < 256; i++) {
		assert_true(count[i] > 0.8 * mean);
		assert_true(count[i] < 1.2 * mean);
	}

	/* no two 4 KiB blocks equal: sort the first 8 bytes of each block and
	 * compare whole blocks for any neighbours that tie */
	for (i = 0; i < nblk; i++)
		memcpy(&firsts[i], buf + i * blk, 8);
	qsort(firsts, nblk, sizeof(firsts[0]), cmp_u64);
	for (i = 1; i < nblk; i++)
		assert_true(firsts[i] != firsts[i - 1]);
	/* and the direct check on a sample, independent of the trick above */
	for (i = 0; i < 64; i++)
		for (j = i + 1; j < 64; j++)
			assert_true(memcmp(buf + i * blk, buf + j * blk, blk) != 0);
	free(buf);
}

/* The tail (len % 8 != 0) is filled and nothing past it is touched. */
static void test_fill_tail(void **state)
{
	unsigned char ref[64], buf[64 + 8];
	struct wl_rng r;
	size_t len;

	for (len = 0; len <= 64; len++) {
		wl_rng_seed(&r, 99);
		wl_fill_random(ref, sizeof(ref), &r);
		memset(buf, 0xa5, sizeof(buf));
		wl_rng_seed(&r, 99);
		/* odd start: buf need not be aligned */
		wl_fill_random(buf + 1, len, &r);
		assert_int_equal(buf[0], 0xa5);
		assert_memory_equal(buf + 1, ref, len);
		assert_int_equal(buf[1 + len], 0xa5);
	}
	/* a tail on a heap buffer of the exact size (ASan checks the bound) */
	{
		unsigned char *p = malloc(13);

		assert_non_null(p);
		wl_rng_seed(&r, 99);
		wl_fill_random(p, 13, &r);
		assert_memory_equal(p, ref, 13);
		free(p);
	}
}

static void test_stamp(void **state)
{
	const uint32_t len = 64 * 1024;
	unsigned char *a = malloc(len), *b = malloc(len);
	struct wl_rng r;
	uint32_t off;

	assert_non_null(a);
	assert_non_null(b);
	wl_rng_seed(&r, 5);
	wl_fill_random(a, len, &r);
	memcpy(b, a, len);

	wl_stamp(a, len, 1000);
	wl_stamp(b, len, 2000);
	for (off = 0; off < len; off += 512) {
		/* every sector differs, only in its first 8 bytes */
		assert_true(memcmp(a + off, b + off, 512) != 0);
		assert_memory_equal(a + off + 8, b + off + 8, 504);
	}
	/* within one buffer the stamps are consecutive, so sectors differ too */
	for (off = 512; off < len; off += 512)
		assert_true(memcmp(a + off - 512, a + off, 8) != 0);

	/* a short tail sector with room for the stamp is stamped; a tail
	 * shorter than 8 bytes is left alone */
	memcpy(b, a, len);
	wl_stamp(b, 1000, 1);
	assert_true(memcmp(a + 512, b + 512, 8) != 0);
	memcpy(b, a, len);
	wl_stamp(b, 512 + 7, 1);
	assert_memory_equal(a + 512, b + 512, 7);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_rng_seed),
		cmocka_unit_test(test_init_rejects),
		cmocka_unit_test(test_sequential),
		cmocka_unit_test(test_random_range_and_alignment),
		cmocka_unit_test(test_random_reproducible),
		cmocka_unit_test(test_random_uniform),
		cmocka_unit_test(test_fill_incompressible),
		cmocka_unit_test(test_fill_tail),
		cmocka_unit_test(test_stamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
