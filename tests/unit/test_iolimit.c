/* test_iolimit.c - cgroup I/O limits read from a fake cgroup tree: v1 blkio throttle, v2 io.max. */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <cmocka.h>

#include "iolimit.h"

static char root[PATH_MAX];

/* root/rel with its directories, holding text. */
static void put(const char *rel, const char *text)
{
	char path[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (char *s = path + strlen(root) + 1; (s = strchr(s, '/')); s++) {
		*s = '\0';
		mkdir(path, 0700);
		*s = '/';
	}
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_iolimit.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

static int probe(const char *cgroup_text, char *out, size_t len)
{
	static const char *const names[] = { "loop3", "sda" };
	const dev_t devs[] = { makedev(7, 3), makedev(8, 0) };
	char cg[PATH_MAX + 16], base[PATH_MAX + 16];

	put("self-cgroup", cgroup_text);
	snprintf(cg, sizeof(cg), "%s/self-cgroup", root);
	snprintf(base, sizeof(base), "%s/fs", root);
	return iolimit_probe(cg, base, devs, names, 2, out, len);
}

/* v1: the process's own cgroup and its parent both limit loop3; another
 * device's rule and a rule of 0 are not ours */
static void test_v1(void **state)
{
	char out[512];

	(void)state;
	put("fs/blkio/a/b/blkio.throttle.read_iops_device", "7:3 2000\n7:4 10\n");
	put("fs/blkio/a/blkio.throttle.write_bps_device", "7:3 50000000\n8:0 0\n");
	assert_int_equal(probe("9:pids:/\n7:blkio:/a/b\n4:memory:/x\n", out, sizeof(out)), 0);
	assert_string_equal(out, "loop3: read 2000 IOPS (blkio /a/b), write 50.0 MB/s (blkio /a)");
	/* a joined hierarchy names blkio among others */
	assert_int_equal(probe("7:cpu,blkio:/a\n", out, sizeof(out)), 0);
	assert_string_equal(out, "loop3: write 50.0 MB/s (blkio /a)");
	/* the root cgroup: nothing set there */
	assert_int_equal(probe("7:blkio:/\n", out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

/* v2: io.max, "max" is no limit; two devices, each said */
static void test_v2(void **state)
{
	char out[512];

	(void)state;
	put("fs/cgroup.controllers", "io memory\n");
	put("fs/x/y/io.max", "7:3 rbps=max wbps=max riops=2000 wiops=max\n"
			     "8:0 rbps=100000000 wbps=max riops=max wiops=500\n");
	assert_int_equal(probe("0::/x/y\n", out, sizeof(out)), 0);
	assert_string_equal(out, "loop3: read 2000 IOPS (io.max /x/y); sda: read 100.0 MB/s, "
			    "write 500 IOPS (io.max /x/y)");
	/* no limits on the devices given */
	put("fs/z/io.max", "7:9 riops=10\n");
	assert_int_equal(probe("0::/z\n", out, sizeof(out)), 0);
	assert_string_equal(out, "");
}

/* A membership file that cannot be read: an error, and nothing said. */
static void test_missing(void **state)
{
	const dev_t devs[] = { makedev(7, 3) };
	static const char *const names[] = { "loop3" };
	char out[64] = "x";

	(void)state;
	assert_int_equal(iolimit_probe("/nonexistent/cgroup", root, devs, names, 1, out,
				       sizeof(out)), -ENOENT);
	assert_string_equal(out, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_v1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_v2, setup, teardown),
		cmocka_unit_test_setup_teardown(test_missing, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
