/* test_flags.c - the honesty flags of a target's stack, and the dm-crypt layer behind one. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "result.h"
#include "sysfs.h"
#include "target.h"

/* What target_probe leaves for a file system with nothing to say. */
static void plain(struct target_info *t, const char *fs)
{
	memset(t, 0, sizeof(*t));
	t->kind = TARGET_DIR;
	t->loop_dio = -1;
	t->direct_io = 1;
	snprintf(t->fs_type, sizeof(t->fs_type), "%s", fs);
}

/* The flags t has, by name, space separated. */
static const char *names(const struct target_info *t, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (unsigned f = 0; f < TARGET_NFLAGS; f++)
		if (target_flag(t, f, NULL, 0))
			used += (size_t)snprintf(buf + used, len - used, "%s%s", used ? " " : "",
						 target_flag_name(f));
	return buf;
}

static void test_plain_has_none(void **state)
{
	static const char *const fs[] = { "ext4", "xfs", "tmpfs" };
	struct target_info t;
	char buf[128];

	(void)state;
	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		plain(&t, fs[i]);
		assert_string_equal(names(&t, buf, sizeof(buf)), "");
		t.direct_io = -1;	/* unknown is not refused */
		assert_string_equal(names(&t, buf, sizeof(buf)), "");
	}
}

static void test_btrfs(void **state)
{
	struct target_info t;
	char buf[128], why[512];

	(void)state;
	plain(&t, "btrfs");
	snprintf(t.stack, sizeof(t.stack), "btrfs copy-on-write, btrfs compression");
	snprintf(t.compression, sizeof(t.compression), "compress=zstd:3");
	t.cow = true;
	assert_string_equal(names(&t, buf, sizeof(buf)), "compression copy_on_write");
	assert_true(target_flag(&t, TARGET_FLAG_COMPRESSION, why, sizeof(why)));
	assert_non_null(strstr(why, "(compress=zstd:3)"));
	/* a reason is cut to fit, never overflows */
	assert_true(target_flag(&t, TARGET_FLAG_COMPRESSION, why, 10));
	assert_int_equal(strlen(why), 9);
	/* nodatacow: the probe leaves neither */
	plain(&t, "btrfs");
	assert_string_equal(names(&t, buf, sizeof(buf)), "");
}

static void test_encryption_names_layers(void **state)
{
	struct target_info t;
	char why[512];

	(void)state;
	plain(&t, "ext4");
	snprintf(t.stack, sizeof(t.stack), "LVM, dm-crypt, fscrypt");
	t.encrypted = true;
	assert_true(target_flag(&t, TARGET_FLAG_ENCRYPTION, why, sizeof(why)));
	assert_int_equal(strncmp(why, "dm-crypt, fscrypt encrypts the data", 35), 0);
}

static void test_zfs_and_direct(void **state)
{
	struct target_info t;
	char buf[128], why[512];

	(void)state;
	plain(&t, "zfs");
	snprintf(t.stack, sizeof(t.stack), "zfs");
	t.cow = t.arc = true;
	assert_string_equal(names(&t, buf, sizeof(buf)), "copy_on_write zfs_arc");
	plain(&t, "ramfs");
	t.direct_io = 0;
	assert_string_equal(names(&t, buf, sizeof(buf)), "o_direct_refused");
	assert_true(target_flag(&t, TARGET_FLAG_O_DIRECT_REFUSED, why, sizeof(why)));
	assert_int_equal(strncmp(why, "ramfs refuses O_DIRECT", 22), 0);
}

/* Copy-on-write concerns writes; O_DIRECT refused, the tests that asked. */
static void test_per_test(void **state)
{
	struct target_info t;
	struct test_result rd = { .is_write = false }, wr = { .is_write = true };

	(void)state;
	plain(&t, "btrfs");
	snprintf(t.stack, sizeof(t.stack), "btrfs copy-on-write");
	t.cow = true;
	t.direct_io = 0;
	assert_true(result_test_flag(&t, &wr, TARGET_FLAG_COW));
	assert_false(result_test_flag(&t, &rd, TARGET_FLAG_COW));
	assert_false(result_test_flag(&t, &wr, TARGET_FLAG_O_DIRECT_REFUSED));
	wr.direct_refused = true;
	assert_true(result_test_flag(&t, &wr, TARGET_FLAG_O_DIRECT_REFUSED));
	assert_false(target_flag(&t, TARGET_NFLAGS, NULL, 0));
}

static void test_stack_has_whole_names(void **state)
{
	(void)state;
	assert_true(target_stack_has("btrfs copy-on-write, btrfs compression", "btrfs compression"));
	assert_true(target_stack_has("zfs", "zfs"));
	assert_false(target_stack_has("zfsx", "zfs"));
	assert_false(target_stack_has("my-zfs", "zfs"));
	assert_false(target_stack_has("", "zfs"));
}

/* dm/uuid as the tools set it; no device-mapper on the test machine, so
 * the parsing is tested here. */
static void test_dm_uuid(void **state)
{
	const struct sysfs_layer *l;

	(void)state;
	l = sysfs_dm_layer("CRYPT-LUKS2-0c1b2a3d4e5f60718293a4b5c6d7e8f9-home");
	assert_non_null(l);
	assert_string_equal(l->name, "dm-crypt");
	assert_true(l->encrypts);
	l = sysfs_dm_layer("CRYPT-PLAIN-swap");
	assert_non_null(l);
	assert_true(l->encrypts);
	l = sysfs_dm_layer("LVM-abcdefABCDEF0123456789abcdefABCDEF0123456789abcdefABCDEF012345");
	assert_non_null(l);
	assert_string_equal(l->name, "LVM");
	assert_false(l->encrypts);
	assert_null(sysfs_dm_layer(""));
	assert_null(sysfs_dm_layer("crypt-lowercase"));
	assert_null(sysfs_dm_layer("part1-CRYPT-x"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain_has_none),
		cmocka_unit_test(test_btrfs),
		cmocka_unit_test(test_encryption_names_layers),
		cmocka_unit_test(test_zfs_and_direct),
		cmocka_unit_test(test_per_test),
		cmocka_unit_test(test_stack_has_whole_names),
		cmocka_unit_test(test_dm_uuid),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
