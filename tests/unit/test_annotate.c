/* test_annotate.c - the warnings result_annotate makes: one per cause, none for a test's purpose. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate.h"
#include "hist.h"

/* A test of workload wl that ran 1 s: ops random 4 KiB reads (or writes)
 * whose latencies are all lat_ns, its busiest job at cpu_pct. */
static void add(struct run_result *r, const char *name, const char *wl, bool random,
		bool write, uint64_t lat_ns, double cpu_pct)
{
	struct test_result t = { 0 };

	snprintf(t.name, sizeof(t.name), "%s", name);
	t.workload = wl;
	t.random = random;
	t.is_write = write;
	t.direct = true;
	t.runtime_ns = 1000000000;
	t.ops = 1000;
	t.bytes = t.ops * 4096;
	t.dev_valid = true;
	t.dev_read_bytes = write ? 0 : t.bytes;
	t.dev_write_bytes = write ? t.bytes : 0;
	t.cpu_job_max_pct = cpu_pct;
	t.lat = malloc(sizeof(*t.lat));
	assert_non_null(t.lat);
	hist_init(t.lat);
	for (uint64_t i = 0; i < t.ops; i++)
		hist_add(t.lat, lat_ns);
	result_finish(&t);
	assert_int_equal(result_add_test(r, &t), 0);
}

/* How many warnings contain s. */
static unsigned said(const struct run_result *r, const char *s)
{
	unsigned n = 0;

	for (unsigned i = 0; i < r->nwarnings; i++)
		n += strstr(r->warnings[i], s) != NULL;
	return n;
}

static void no_loop(struct run_result *r)
{
	r->target.loop_dio = -1;
	r->target.backing_rotational = -1;
	r->target.rotational = 0;
}

/* Three tests whose reads missed the device: one warning, counting and
 * naming them. */
static void test_grouped(void **state)
{
	struct run_result r = { 0 };

	(void)state;
	no_loop(&r);
	add(&r, "a", "seq-read", false, false, 100000, 10);
	add(&r, "b", "seq-read", false, false, 100000, 10);
	add(&r, "c", "rand-read", true, false, 100000, 10);
	for (unsigned i = 0; i < 3; i++) {
		r.tests[i].dev_read_bytes = 0;
		r.tests[i].cached = true;
	}
	result_annotate(&r, &(struct annotate_in){ .moves_data = true });
	assert_int_equal(said(&r, "did not reach the device"), 1);
	assert_int_equal(said(&r, "3 tests: reads did not reach the device (page cache?): a, b, c"),
			 1);
	result_free(&r);
}

/* hdparm -T reads the cache, per-char and metadata tests keep a CPU busy:
 * that is what they measure, and no warning says otherwise. A block test
 * that keeps a CPU busy is still called tool-bound. */
static void test_purpose(void **state)
{
	struct run_result r = { 0 };

	(void)state;
	no_loop(&r);
	add(&r, "cached-read 2m qd1", "cached-read", false, false, 100000, 85);
	add(&r, "char-write", "char-write", false, true, 50000, 99);
	add(&r, "meta-stat", "meta-stat", false, false, 2000, 95);
	add(&r, "seq-read 8k qd1", "seq-read", false, false, 2000, 97);
	r.tests[0].dev_read_bytes = 0;
	r.tests[0].cached = true;
	result_annotate(&r, &(struct annotate_in){ .moves_data = true });
	assert_int_equal(said(&r, "did not reach the device"), 0);
	assert_int_equal(said(&r, "kept a CPU busy"), 1);
	assert_int_equal(said(&r, "seq-read 8k qd1 (97 %): diskbench kept a CPU busy"), 1);
	assert_int_equal(said(&r, "char-write"), 0);
	assert_int_equal(said(&r, "meta-stat"), 0);
	assert_false(r.tests[1].tool_bound);
	assert_false(r.tests[2].tool_bound);
	assert_true(r.tests[3].tool_bound);
	result_free(&r);
}

/* Random reads in 100 us: implausible for a disk that says it spins, not
 * for a loop device whose own flag says so (the kernel's default), and
 * again implausible for one whose backing disk says it spins. */
static void test_rotational(void **state)
{
	struct run_result r = { 0 };

	(void)state;
	no_loop(&r);
	r.target.rotational = 1;
	add(&r, "rand-read 4k qd1", "rand-read", true, false, 100000, 10);
	add(&r, "rand-read 4k qd32", "rand-read", true, false, 300000, 10);
	add(&r, "seq-read 1m qd8", "seq-read", false, false, 100000, 10);
	result_annotate(&r, &(struct annotate_in){ .moves_data = true });
	assert_true(r.tests[0].implausible);
	assert_true(r.tests[1].implausible);
	assert_false(r.tests[2].implausible);
	assert_int_equal(said(&r, "implausible"), 1);
	assert_int_equal(said(&r, "2 tests: implausible for a rotational disk"), 1);
	assert_int_equal(said(&r, ": rand-read 4k qd1 (median "), 1);
	assert_int_equal(said(&r, "), rand-read 4k qd32 (median "), 1);
	result_free(&r);

	memset(&r, 0, sizeof(r));
	r.target.rotational = 1;
	r.target.loop_dio = 1;
	r.target.backing_rotational = -1;	/* its file is on tmpfs */
	add(&r, "rand-read 4k qd1", "rand-read", true, false, 100000, 10);
	result_annotate(&r, &(struct annotate_in){ .moves_data = true });
	assert_false(r.tests[0].implausible);
	assert_int_equal(said(&r, "implausible"), 0);
	result_free(&r);

	memset(&r, 0, sizeof(r));
	r.target.rotational = 0;
	r.target.loop_dio = 1;
	r.target.backing_rotational = 1;
	snprintf(r.target.backing_disk, sizeof(r.target.backing_disk), "sdb");
	add(&r, "rand-read 4k qd1", "rand-read", true, false, 100000, 10);
	result_annotate(&r, &(struct annotate_in){ .moves_data = true });
	assert_true(r.tests[0].implausible);
	assert_int_equal(said(&r, " us): implausible: median random "
			      "reads faster than a seek, and sdb, under this loop device's backing "
			      "file, says it spins"), 1);
	result_free(&r);
}

/* Set test i's rate (bytes/s over its 1 s window). */
static void rate(struct run_result *r, unsigned i, double bps)
{
	r->tests[i].bytes = (uint64_t)bps;
	r->tests[i].bytes_per_sec = bps;
	r->tests[i].dev_read_bytes = r->tests[i].is_write ? 0 : r->tests[i].bytes;
	r->tests[i].dev_write_bytes = r->tests[i].is_write ? r->tests[i].bytes : 0;
}

/* A write 4x faster than the read of its pattern, with a write-back
 * cache: flagged, naming both; the random pair, equal, is not; without the
 * cache nothing is said. */
static void test_write_back(void **state)
{
	struct run_result r = { 0 };

	(void)state;
	for (int cache = 1; cache >= 0; cache--) {
		memset(&r, 0, sizeof(r));
		no_loop(&r);
		r.target.write_cache = cache;
		add(&r, "seq-read 1m qd8", "seq-read", false, false, 100000, 10);
		add(&r, "seq-write 1m qd8", "seq-write", false, true, 100000, 10);
		add(&r, "rand-read 4k qd1", "rand-read", true, false, 100000, 10);
		add(&r, "rand-write 4k qd1", "rand-write", true, true, 100000, 10);
		rate(&r, 0, 500e6);
		rate(&r, 1, 2000e6);
		rate(&r, 2, 40e6);
		rate(&r, 3, 41e6);
		result_annotate(&r, &(struct annotate_in){ .moves_data = true });
		assert_int_equal(said(&r, "write-back cache"), cache);
		if (cache) {
			assert_int_equal(said(&r, "seq-write 1m qd8 (2000 MB/s, 4.0x seq-read 1m qd8's "
					      "500 MB/s): writes faster than reads of the same "
					      "pattern"), 1);
			assert_int_equal(said(&r, "rand-write"), 0);
		}
		result_free(&r);
	}
}

/* The flags renderers read come from the workload, set by result_annotate:
 * hdparm -T's cache read, per-char and file tests, an unknown workload. */
static void test_flags(void **state)
{
	struct annotate_in in = { .moves_data = true };
	struct run_result r = { 0 };

	(void)state;
	no_loop(&r);
	add(&r, "cached", "cached-read", false, false, 1000, 1);
	add(&r, "disk", "buffered-read", false, false, 1000, 1);
	add(&r, "putc", "char-write", false, true, 1000, 1);
	add(&r, "create", "meta-create", false, true, 1000, 1);
	add(&r, "other", "no-such-workload", true, false, 1000, 1);
	result_annotate(&r, &in);
	assert_true(r.tests[0].cache_ok);
	assert_int_equal(r.tests[0].hdparm_line, WL_REPORT_HDPARM_CACHE);
	assert_false(r.tests[1].cache_ok);
	assert_int_equal(r.tests[1].hdparm_line, WL_REPORT_HDPARM_DISK);
	assert_true(r.tests[2].per_char);
	assert_false(r.tests[2].moves_files);
	assert_true(r.tests[3].moves_files);
	for (unsigned i = 0; i < r.ntests; i++)
		assert_false(r.tests[i].unreliable);	/* one run each */
	assert_false(r.tests[4].cache_ok || r.tests[4].per_char || r.tests[4].moves_files);
	assert_int_equal(r.tests[4].hdparm_line, WL_REPORT_NONE);
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_grouped),
		cmocka_unit_test(test_purpose),
		cmocka_unit_test(test_rotational),
		cmocka_unit_test(test_write_back),
		cmocka_unit_test(test_flags),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
