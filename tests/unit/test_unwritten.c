/* test_unwritten.c - the unwritten-space check: its interval, its blank blocks, a file of known holes. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "annotate.h"
#include "unwritten.h"

#define MIB (1u << 20)

static void near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.6f, want %.6f (+- %g)", got, want, tol);
}

/* Wilson's score interval against values worked by hand (z = 1.96). */
static void test_wilson(void **state)
{
	double lo, hi;

	(void)state;
	unwritten_wilson(0, 256, &lo, &hi);
	assert_true(lo == 0);
	near(hi, 3.8415 / (256 + 3.8415), 1e-4);	/* z^2 / (n + z^2) */
	unwritten_wilson(256, 256, &lo, &hi);
	near(lo, 256 / (256 + 3.8415), 1e-4);
	assert_true(hi == 1);
	unwritten_wilson(50, 100, &lo, &hi);
	near(lo, 0.4038, 1e-4);
	near(hi, 0.5962, 1e-4);
	unwritten_wilson(0, 0, &lo, &hi);	/* nothing sampled: nothing known */
	assert_true(lo == 0 && hi == 1);
}

static void test_blank(void **state)
{
	static uint64_t b[512];
	const uint64_t pat = 0xdeadbeefcafef00dull;

	(void)state;
	memset(b, 0, sizeof(b));
	assert_true(unwritten_blank(b, sizeof(b)));
	memset(b, 0xff, sizeof(b));
	assert_true(unwritten_blank(b, sizeof(b)));
	for (unsigned i = 0; i < 512; i++)
		b[i] = pat;
	assert_true(unwritten_blank(b, sizeof(b)));
	b[511] ^= 1;				/* one bit of data at its end */
	assert_false(unwritten_blank(b, sizeof(b)));
	memset(b, 0, sizeof(b));
	((unsigned char *)b)[9] = 1;
	assert_false(unwritten_blank(b, sizeof(b)));
}

static char path[64];
static struct target_file file;

/* A sparse file of 4 MiB whose first MiB and [2 MiB, 2.5 MiB) hold data. */
static int setup(void **state)
{
	char *buf = malloc(MIB);
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_unwritten.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0 || !buf)
		return -1;
	for (unsigned i = 0; i < MIB; i++)
		buf[i] = (char)(i * 2654435761u >> 13);
	if (ftruncate(fd, 4 * MIB) || pwrite(fd, buf, MIB, 0) != MIB ||
	    pwrite(fd, buf, MIB / 2, 2 * MIB) != MIB / 2 || fsync(fd))
		return -1;
	close(fd);
	free(buf);
	file = (struct target_file){ AT_FDCWD, path };
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void check(const struct read_extent *x, double want)
{
	struct target_info ti = { .kind = TARGET_FILE, .logical_block_size = 512 };
	struct read_layout lay;
	struct unwritten u;
	int fd;

	snprintf(ti.resolved, sizeof(ti.resolved), "%s", path);
	fd = unwritten_layout_open(&ti, &file, &lay);
	assert_true(fd >= 0);
	assert_true(lay.known && lay.checked);
	assert_string_equal(lay.source, "target file");
	assert_int_equal(unwritten_check(&file, fd, &lay, x, 512, 42, &u, NULL, NULL), 0);
	close(fd);
	assert_true(u.applies && u.checked && u.layout_valid);
	assert_int_equal(u.block_bytes, UNWRITTEN_BLOCK);
	assert_int_equal(u.region_bytes, read_extent_bytes(x));
	/* the allocation is exact (the file system may round to its blocks) */
	near(u.layout_share, want, 0.002);
	/* one block per stratum, the written ranges whole strata: exact too */
	assert_int_equal(u.sampled, UNWRITTEN_SAMPLES);
	near(u.share, want, 1e-9);
	assert_true(u.lo <= u.share && u.share <= u.hi);
}

/* A random test's one part over the whole file: 1.5 of 4 MiB written. */
static void test_file_whole(void **state)
{
	(void)state;
	check(&(struct read_extent){ .stride = 4 * MIB, .span = 4 * MIB, .parts = 1 }, 0.625);
}

/* Two sequential jobs, each 1 MiB into its 2 MiB slice: [0, 1M) written,
 * [2M, 3M) half. */
static void test_file_slices(void **state)
{
	(void)state;
	check(&(struct read_extent){ .stride = 2 * MIB, .span = MIB, .parts = 2 }, 0.25);
}

/* What cannot be checked says why, never claims a share. */
static void test_not_checked(void **state)
{
	struct target_info ti = { .kind = TARGET_BLOCK };
	struct read_layout lay;
	struct unwritten u;

	(void)state;
	assert_int_equal(unwritten_check(&file, -1, NULL, &(struct read_extent){ 0 }, 512, 1, &u,
					 NULL, NULL),
			 -EINVAL);
	assert_true(u.applies && !u.checked && !u.layout_valid && u.why[0]);
	snprintf(ti.path, sizeof(ti.path), "/dev/sdz");
	snprintf(ti.disk, sizeof(ti.disk), "sdz");
	assert_int_equal(unwritten_layout_open(&ti, &file, &lay), -1);
	assert_true(lay.known && !lay.checked && strstr(lay.why, "not a file or a loop device"));
	/* a file that is gone: the reason names it */
	assert_int_equal(unwritten_check(&(struct target_file){ AT_FDCWD, "/nonexistent/x" }, -1,
					 NULL, &(struct read_extent){ MIB, MIB, 1 }, 512, 1, &u,
					 NULL, NULL),
			 -ENOENT);
	assert_true(!u.checked && strstr(u.why, "/nonexistent/x"));
}

/* result_annotate's rule: flagged from UNWRITTEN_FLAG by either share,
 * only what was checked, one warning naming the flagged tests. */
static void test_flag_rule(void **state)
{
	static const struct {
		const char *name;
		struct unwritten u;
		bool flagged;
	} cases[] = {
		{ "sampled 10 %", { .applies = true, .checked = true, .share = 0.10 }, true },
		{ "sampled 4 %", { .applies = true, .checked = true, .share = 0.04 }, false },
		{ "holes 5 %", { .applies = true, .checked = true, .share = 0,
				 .layout_valid = true, .layout_share = 0.05 }, true },
		{ "holes 1 %", { .applies = true, .layout_valid = true, .layout_share = 0.01 },
		  false },
		/* not checked: nothing claimed, whatever the fields hold */
		{ "not checked", { .applies = true, .share = 1 }, false },
		{ "a write", { .share = 1, .checked = true }, false },
	};
	const unsigned n = sizeof(cases) / sizeof(cases[0]);
	struct run_result r = { 0 };
	struct annotate_in in = { .moves_data = true };
	unsigned warned = 0;

	(void)state;
	r.target.loop_dio = -1;
	for (unsigned i = 0; i < n; i++) {
		struct test_result t = { .runtime_ns = 1000000000, .ops = 1, .dev_valid = true };

		snprintf(t.name, sizeof(t.name), "%s", cases[i].name);
		t.workload = "seq-read";
		t.unwritten = cases[i].u;
		assert_int_equal(result_add_test(&r, &t), 0);
	}
	result_annotate(&r, &in);
	for (unsigned i = 0; i < n; i++)
		if (r.tests[i].unwritten.flagged != cases[i].flagged)
			fail_msg("%s: flagged %d", cases[i].name, r.tests[i].unwritten.flagged);
	for (unsigned i = 0; i < r.nwarnings; i++) {
		if (!strstr(r.warnings[i], "read unwritten space"))
			continue;
		warned++;
		assert_non_null(strstr(r.warnings[i], "sampled 10 % (10 %)"));
		assert_non_null(strstr(r.warnings[i], "holes 5 % (5 %)"));
		assert_null(strstr(r.warnings[i], "sampled 4 %"));
	}
	assert_int_equal(warned, 1);
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_wilson),
		cmocka_unit_test(test_blank),
		cmocka_unit_test(test_file_whole),
		cmocka_unit_test(test_file_slices),
		cmocka_unit_test(test_not_checked),
		cmocka_unit_test(test_flag_rule),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
