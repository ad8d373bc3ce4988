/* test_verify.c - CRC-32C against known vectors; self-checking blocks stamped and checked. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "crc32c.h"
#include "runner.h"
#include "verify.h"
#include "workload.h"

/* The check value of the CRC catalogue and RFC 3720's (iSCSI) test vectors. */
static void test_crc32c_vectors(void **state)
{
	unsigned char buf[48];

	(void)state;
	assert_int_equal(crc32c(0, "123456789", 9), 0xE3069283u);
	assert_int_equal(crc32c(0, "", 0), 0);
	assert_int_equal(crc32c(0, "a", 1), 0xC1D04330u);
	memset(buf, 0, 32);
	assert_int_equal(crc32c(0, buf, 32), 0x8A9136AAu);
	memset(buf, 0xff, 32);
	assert_int_equal(crc32c(0, buf, 32), 0x62A8AB43u);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)i;
	assert_int_equal(crc32c(0, buf, 32), 0x46DD794Eu);
	for (int i = 0; i < 32; i++)
		buf[i] = (unsigned char)(31 - i);
	assert_int_equal(crc32c(0, buf, 32), 0x113FDB5Cu);
}

/* Continuing a CRC equals the CRC of the whole, at every split and any
 * alignment (the slice-by-8 loop against its byte-wise tail). */
static void test_crc32c_chaining(void **state)
{
	unsigned char buf[301];
	struct wl_rng r;
	uint32_t whole;

	(void)state;
	wl_rng_seed(&r, 7);
	wl_fill_random(buf, sizeof(buf), &r);
	whole = crc32c(0, buf, sizeof(buf));
	for (size_t cut = 0; cut <= sizeof(buf); cut++)
		assert_int_equal(crc32c(crc32c(0, buf, cut), buf + cut, sizeof(buf) - cut), whole);
	/* unaligned starts: the same bytes give the same CRC */
	for (size_t a = 1; a < 8; a++) {
		unsigned char *q = malloc(sizeof(buf) + a);

		assert_non_null(q);
		memcpy(q + a, buf, sizeof(buf));
		assert_int_equal(crc32c(0, q + a, sizeof(buf)), whole);
		free(q);
	}
}

/* A block of bs bytes of random payload, stamped for offset. */
static unsigned char *stamped(uint32_t bs, uint64_t offset, uint64_t seed)
{
	uint32_t unit = verify_unit(bs), *crcs = calloc(bs / unit, sizeof(*crcs));
	unsigned char *b = malloc(bs);
	struct wl_rng r;

	assert_non_null(b);
	assert_non_null(crcs);
	wl_rng_seed(&r, offset ^ 99);
	wl_fill_random(b, bs, &r);
	verify_payload_crcs(b, bs, unit, crcs);
	verify_stamp(b, bs, unit, offset, seed, 1000, crcs);
	free(crcs);
	return b;
}

static void test_unit_sizes(void **state)
{
	(void)state;
	assert_int_equal(verify_unit(4096), 4096);
	assert_int_equal(verify_unit(1u << 20), 4096);
	assert_int_equal(verify_unit(512), 512);
	assert_int_equal(verify_unit(6144), 512);
	assert_int_equal(verify_unit(1000), 0);
	assert_int_equal(verify_unit(0), 0);
}

/* Stamp, then check: every unit is good, at 4 KiB and 512-byte units. */
static void test_round_trip(void **state)
{
	static const uint32_t sizes[] = { 512, 1536, 4096, 65536, 6144 };
	struct verify_sum sum = { 0 };

	(void)state;
	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		unsigned char *b = stamped(sizes[i], 1u << 20, 42);
		struct verify_hdr h;

		memset(&sum, 0, sizeof(sum));
		verify_buf(b, sizes[i], 1u << 20, verify_unit(sizes[i]), false, 42, &sum);
		assert_int_equal(sum.blocks, sizes[i] / verify_unit(sizes[i]));
		assert_int_equal(sum.bad, 0);
		assert_int_equal(sum.first.field, VERIFY_F_NONE);
		/* the header says where, who and which */
		memcpy(&h, b + sizes[i] - verify_unit(sizes[i]), sizeof(h));
		assert_int_equal(h.magic, VERIFY_MAGIC);
		assert_int_equal(h.offset, (1u << 20) + sizes[i] - verify_unit(sizes[i]));
		assert_int_equal(h.seed, 42);
		assert_int_equal(h.seq, 1000 + sizes[i] / verify_unit(sizes[i]) - 1);
		assert_int_equal(h.len, verify_unit(sizes[i]));
		/* the verify test reads units by their headers' size */
		memset(&sum, 0, sizeof(sum));
		verify_buf(b, sizes[i], 1u << 20, VERIFY_UNIT, true, 42, &sum);
		assert_int_equal(sum.bad, 0);
		free(b);
	}
}

/* One flipped byte anywhere in a unit - payload or header - is caught,
 * named at that unit's offset. */
static void test_flipped_byte(void **state)
{
	unsigned char *b = stamped(16384, 8192, 42);
	struct verify_sum sum;

	(void)state;
	for (uint32_t at = 0; at < 16384; at += 97) {
		b[at] ^= 0x10;
		memset(&sum, 0, sizeof(sum));
		verify_buf(b, 16384, 8192, 4096, false, 42, &sum);
		assert_int_equal(sum.blocks, 4);
		assert_int_equal(sum.bad, 1);
		assert_int_equal(sum.first.offset, 8192 + at / 4096 * 4096);
		b[at] ^= 0x10;
	}
	/* a flip in the payload: the CRC, with both values */
	b[4096 + 1000] ^= 1;
	memset(&sum, 0, sizeof(sum));
	verify_buf(b, 16384, 8192, 4096, false, 42, &sum);
	assert_int_equal(sum.first.field, VERIFY_F_CRC);
	assert_int_equal(sum.first.offset, 12288);
	assert_int_not_equal(sum.first.expected, sum.first.found);
	assert_string_equal(verify_field_name(sum.first.field), "crc");
	free(b);
}

/* A block read from where it was not written: its offset says so. */
static void test_wrong_offset(void **state)
{
	unsigned char *b = stamped(4096, 1u << 20, 42);
	struct verify_bad bad;

	(void)state;
	assert_true(verify_unit_ok(b, 4096, 1u << 20, 42, &bad));
	assert_false(verify_unit_ok(b, 4096, 2u << 20, 42, &bad));
	assert_int_equal(bad.field, VERIFY_F_OFFSET);
	assert_int_equal(bad.offset, 2u << 20);
	assert_int_equal(bad.expected, 2u << 20);
	assert_int_equal(bad.found, 1u << 20);
	free(b);
}

/* A block of another run (a lost write leaves the old one): its seed. */
static void test_stale_seed(void **state)
{
	unsigned char *b = stamped(8192, 0, 41);
	struct verify_sum sum = { 0 };

	(void)state;
	verify_buf(b, 8192, 0, 4096, false, 42, &sum);
	assert_int_equal(sum.bad, 2);
	assert_int_equal(sum.first.field, VERIFY_F_SEED);
	assert_int_equal(sum.first.offset, 0);
	assert_int_equal(sum.first.expected, 42);
	assert_int_equal(sum.first.found, 41);
	free(b);
}

/* Never written with --verify (random bytes, zeros): no header. */
static void test_no_header(void **state)
{
	unsigned char b[4096] = { 0 };
	struct verify_sum sum = { 0 };

	(void)state;
	verify_buf(b, sizeof(b), 4096, 4096, true, 42, &sum);
	assert_int_equal(sum.blocks, 1);
	assert_int_equal(sum.bad, 1);
	assert_int_equal(sum.first.field, VERIFY_F_MAGIC);
	assert_int_equal(sum.first.expected, VERIFY_MAGIC);
	assert_int_equal(sum.first.found, 0);
	/* a 512-byte unit checked as a 4 KiB one: its size */
	{
		unsigned char *s = stamped(4096, 0, 42);

		memset(&sum, 0, sizeof(sum));
		verify_buf(s, 512, 0, 512, false, 42, &sum);
		assert_int_equal(sum.first.field, VERIFY_F_LEN);
		free(s);
	}
}

/* Sums add up; the lower first bad wins; one that checked nothing adds
 * nothing. */
static void test_sum_add(void **state)
{
	struct verify_sum a = { .done = true, .blocks = 10, .bad = 1,
				.first = { .offset = 8192, .field = VERIFY_F_CRC } };
	struct verify_sum b = { .done = true, .blocks = 5, .bad = 2,
				.first = { .offset = 4096, .field = VERIFY_F_SEED } };
	struct verify_sum none = { .blocks = 99 };

	(void)state;
	verify_sum_add(&a, &b);
	verify_sum_add(&a, &none);
	assert_int_equal(a.blocks, 15);
	assert_int_equal(a.bad, 3);
	assert_int_equal(a.first.offset, 4096);
	assert_int_equal(a.first.field, VERIFY_F_SEED);
	assert_int_equal(verify_field_parse("seed"), VERIFY_F_SEED);
	assert_int_equal(verify_field_parse("nonsense"), -1);
}

/* The read-back through a file: only the blocks marked are read, and a
 * unit changed in the file is found at its offset. */
static void test_blocks_from_file(void **state)
{
	char path[] = "/tmp/test_verify.XXXXXX";
	int fd = mkstemp(path);
	uint64_t map[1] = { 0 };
	struct verify_sum sum = { 0 };

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, 64 * 8192), 0);	/* zeros: no headers */
	for (uint64_t blk = 3; blk < 9; blk++) {
		unsigned char *b = stamped(8192, blk * 8192, 42);

		assert_int_equal(pwrite(fd, b, 8192, (off_t)(blk * 8192)), 8192);
		verify_mark(map, blk);
		free(b);
	}
	verify_mark(map, 40);	/* marked, never written: found */
	assert_int_equal(verify_blocks(fd, 0, 64, 8192, 4096, map, 42, NULL, &sum), 0);
	assert_int_equal(sum.blocks, 7 * 2);
	assert_int_equal(sum.bytes, 7 * 8192);
	assert_int_equal(sum.bad, 2);
	assert_int_equal(sum.first.offset, 40 * 8192);
	assert_int_equal(sum.first.field, VERIFY_F_MAGIC);

	map[0] &= ~(1ull << 40);
	assert_int_equal(pwrite(fd, "x", 1, 5 * 8192 + 4096 + 77), 1);
	memset(&sum, 0, sizeof(sum));
	assert_int_equal(verify_blocks(fd, 0, 64, 8192, 4096, map, 42, NULL, &sum), 0);
	assert_int_equal(sum.bad, 1);
	assert_int_equal(sum.first.offset, 5 * 8192 + 4096);
	assert_int_equal(sum.first.field, VERIFY_F_CRC);
	/* a SIGINT stops it before the next read, nothing counted bad */
	{
		volatile sig_atomic_t stop = 1;

		memset(&sum, 0, sizeof(sum));
		assert_int_equal(verify_blocks(fd, 0, 64, 8192, 4096, map, 42, &stop, &sum), -EINTR);
		assert_int_equal(sum.blocks, 0);
		assert_int_equal(sum.bad, 0);
	}
	close(fd);
}

/* verify_regions: blocks spread over two regions and many parts (threads)
 * all read back once; the first bad is the lowest whichever part found it;
 * a block larger than a chunk is read in pieces. */
static void test_regions(void **state)
{
	char path[] = "/tmp/test_verify.XXXXXX";
	int fd = mkstemp(path);
	uint64_t map[2][4] = { { 0 } };
	struct verify_region r[2] = { { .base = 0, .nblocks = 256, .written = map[0] },
				      { .base = 256 * 4096, .nblocks = 256, .written = map[1] } };
	struct verify_sum sum = { .done = true };
	unsigned char *big;

	(void)state;
	assert_true(fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(fd, 8u << 20), 0);
	for (uint64_t blk = 0; blk < 512; blk += 3) {
		unsigned char *b = stamped(4096, blk * 4096, 42);

		assert_int_equal(pwrite(fd, b, 4096, (off_t)(blk * 4096)), 4096);
		verify_mark(map[blk / 256], blk % 256);
		free(b);
	}
	assert_int_equal(verify_regions(fd, r, 2, 4096, 4096, 42, NULL, &sum), 0);
	assert_int_equal(sum.blocks, (512 + 2) / 3);
	assert_int_equal(sum.bad, 0);
	/* two bad units, in different parts: the lower one is first */
	assert_int_equal(pwrite(fd, "!", 1, 300 * 4096 + 9), 1);
	assert_int_equal(pwrite(fd, "!", 1, 3 * 4096 + 99), 1);
	memset(&sum, 0, sizeof(sum));
	assert_int_equal(verify_regions(fd, r, 2, 4096, 4096, 42, NULL, &sum), 0);
	assert_int_equal(sum.bad, 2);
	assert_int_equal(sum.first.offset, 3 * 4096);

	/* one block of 3 MiB: read in three chunks, all of it checked */
	big = stamped(3u << 20, 4u << 20, 42);
	assert_int_equal(pwrite(fd, big, 3u << 20, 4 << 20), 3 << 20);
	free(big);
	memset(map, 0, sizeof(map));
	verify_mark(map[0], 0);
	memset(&sum, 0, sizeof(sum));
	assert_int_equal(verify_blocks(fd, 4u << 20, 1, 3u << 20, 4096, map[0], 42, NULL, &sum), 0);
	assert_int_equal(sum.blocks, 768);
	assert_int_equal(sum.bytes, 3u << 20);
	assert_int_equal(sum.bad, 0);
	close(fd);
}

/* A test of wl on the file at path through the sync engine. */
static struct test_result run_on(const char *path, const char *wl, uint32_t bs, unsigned jobs,
				 bool verify)
{
	struct target_info ti = { .kind = TARGET_FILE };
	struct run_target where = { .ti = &ti, .data = { AT_FDCWD, path }, .scratch_fd = -1 };
	struct test_spec spec = {
		.wl = wl_find(wl), .engine = &engine_sync, .bs = bs, .qd = 1, .jobs = jobs,
		.runtime_ns = 30000000, .ramp_ns = 10000000, .size = 1u << 20, .seed = 42,
		.verify = verify, .stamp = verify, .unit = verify ? verify_unit(bs) : 0,
	};
	struct test_result r;
	char err[256];

	assert_non_null(spec.wl);
	assert_int_equal(runner_run(&spec, &where, &r, err, sizeof(err)), 0);
	return r;
}

/* The runner end to end on a file: write tests read back what they wrote,
 * ramp included, outside the window; the verify test reads all of the
 * working set whatever the runtime, and finds a changed byte. */
static void test_runner_read_back(void **state)
{
	char path[] = "/tmp/test_verify.XXXXXX";
	int fd = mkstemp(path);
	struct test_result r;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(ftruncate(fd, 1u << 20), 0);
	r = run_on(path, "seq-write", 4096, 2, true);
	assert_true(r.verify.done);
	assert_false(r.verify.timed);
	assert_true(r.verify.blocks > 0);
	assert_int_equal(r.verify.bad, 0);
	assert_true(r.verify.time_ns > 0);
	assert_int_equal(r.errors, 0);
	result_test_free(&r);
	r = run_on(path, "rand-write", 8192, 2, true);
	assert_int_equal(r.verify.bad, 0);
	assert_true(r.verify.blocks > 0 && r.verify.blocks % 2 == 0);
	result_test_free(&r);
	/* without --verify: nothing read back */
	r = run_on(path, "rand-write", 4096, 1, false);
	assert_false(r.verify.done);
	result_test_free(&r);

	/* laid out checkable, as a plan with the verify test does; then one
	 * byte changes */
	assert_int_equal(target_layout(&(struct target_file){ AT_FDCWD, path }, 1u << 20, 1u << 20,
				       42, true, NULL, NULL, NULL), 0);
	r = run_on(path, "verify", 4096, 2, false);
	assert_true(r.verify.done && r.verify.timed);
	assert_int_equal(r.verify.blocks, 256);
	assert_int_equal(r.bytes, 1u << 20);
	result_test_free(&r);
	assert_int_equal(pwrite(fd, "?", 1, 777777), 1);
	r = run_on(path, "verify", 4096, 1, false);
	assert_int_equal(r.verify.bad, 1);
	assert_int_equal(r.verify.first.offset, 777777 / 4096 * 4096);
	result_test_free(&r);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_crc32c_vectors),
		cmocka_unit_test(test_crc32c_chaining),
		cmocka_unit_test(test_unit_sizes),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_flipped_byte),
		cmocka_unit_test(test_wrong_offset),
		cmocka_unit_test(test_stale_seed),
		cmocka_unit_test(test_no_header),
		cmocka_unit_test(test_sum_add),
		cmocka_unit_test(test_blocks_from_file),
		cmocka_unit_test(test_regions),
		cmocka_unit_test(test_runner_read_back),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
