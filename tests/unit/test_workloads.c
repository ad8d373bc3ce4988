/* test_workloads.c - the classic workloads: table, shuffles, mixed draws, timed ops, cleanup. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner.h"
#include "target.h"
#include "workload.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static void test_table(void **state)
{
	static const char *const fs[] = {
		"char-write", "char-read", "meta-create", "meta-stat", "meta-delete",
		"meta-create-rand", "meta-stat-rand", "meta-delete-rand",
	};
	const struct workload *w, *tab;
	size_t i, n;

	tab = wl_table(&n);
	for (i = 0; i < n; i++) {
		w = &tab[i];
		assert_true(w->kind == WL_BLOCK || w->kind == WL_OPS);
		assert_true((w->kind == WL_OPS) == (w->ops != NULL));
		assert_true(w->force_direct >= -1 && w->force_direct <= 1);
		assert_true(w->write_pct <= 100);
		if (w->ops) {
			assert_non_null(w->ops->init);
			assert_non_null(w->ops->op);
			assert_non_null(w->ops->cleanup);
			assert_non_null(w->ops->unit);
		}
		/* only ops run out of work; only block tests mix directions */
		assert_true(!w->finite || w->kind == WL_OPS);
		assert_true(!w->write_pct || w->kind == WL_BLOCK);
	}
	for (i = 0; i < ARRAY_SIZE(fs); i++) {
		w = wl_find(fs[i]);
		assert_non_null(w);
		assert_true(w->needs_fs);
		assert_int_equal(w->kind, WL_OPS);
		assert_int_equal(w->pattern, strstr(fs[i], "-rand") ? WL_RAND : WL_SEQ);
	}
	w = wl_find("seeks");
	assert_int_equal(w->write_pct, 10);
	assert_int_equal(w->pattern, WL_RAND);
	assert_true(wl_writes(w));
	assert_false(wl_writes(wl_find("seq-read")));
	assert_true(wl_writes(wl_find("rewrite")));
	assert_false(wl_find("rewrite")->needs_fs);
	assert_int_equal(wl_find("cached-read")->fixed_size, 2u << 20);
	assert_int_equal(wl_find("cached-read")->force_direct, 0);
	assert_int_equal(wl_find("buffered-read")->force_direct, 0);
	assert_int_equal(wl_find("buffered-read")->fixed_size, 0);
	assert_int_equal(wl_find("seq-read")->force_direct, -1);
	assert_true(wl_find("meta-create")->finite && wl_find("meta-delete-rand")->finite);
	assert_false(wl_find("meta-stat")->finite);
}

static void test_permute(void **state)
{
	enum { N = 1000 };
	uint32_t a[N], b[N];
	unsigned char seen[N];
	struct wl_rng r;
	size_t i, fixed = 0, diff = 0;

	for (i = 0; i < N; i++)
		a[i] = b[i] = (uint32_t)i;
	wl_rng_seed(&r, 7);
	wl_permute(a, N, &r);
	wl_rng_seed(&r, 7);
	wl_permute(b, N, &r);
	assert_memory_equal(a, b, sizeof(a));	/* seeded: reproducible */

	memset(seen, 0, sizeof(seen));
	for (i = 0; i < N; i++) {
		assert_true(a[i] < N);
		assert_false(seen[a[i]]);		/* a permutation */
		seen[a[i]] = 1;
		fixed += a[i] == i;
	}
	assert_true(fixed < 10);	/* ~1 expected for a random permutation */

	for (i = 0; i < N; i++)
		b[i] = (uint32_t)i;
	wl_rng_seed(&r, 8);
	wl_permute(b, N, &r);
	for (i = 0; i < N; i++)
		diff += a[i] != b[i];
	assert_true(diff > N / 2);	/* another seed, another order */

	/* degenerate sizes do nothing */
	wl_permute(a, 0, &r);
	b[0] = 5;
	wl_permute(b, 1, &r);
	assert_int_equal(b[0], 5);
}

static void test_draw_write(void **state)
{
	enum { DRAWS = 200000 };
	struct wl_rng r;
	unsigned i, w = 0;

	wl_rng_seed(&r, 42);
	for (i = 0; i < DRAWS; i++)
		w += wl_draw_write(&r, 10);
	/* 10 % of 200000 = 20000, sd ~134: +-1000 is > 7 sd */
	assert_in_range(w, 19000, 21000);
	for (i = 0; i < 1000; i++) {
		assert_false(wl_draw_write(&r, 0));
		assert_true(wl_draw_write(&r, 100));
	}
}

/* ---- the runner on real files, in a private temporary directory ------------- */

static char tmp[64];

static int tmpfd = -1;	/* tmp, as the scratch directory the runner is given */

static int setup_tmp(void **state)
{
	snprintf(tmp, sizeof(tmp), "/tmp/test_workloads.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	tmpfd = open(tmp, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return tmpfd < 0 ? -1 : 0;
}

static int teardown_tmp(void **state)
{
	close(tmpfd);
	return rmdir(tmp);
}

static unsigned count_entries(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	unsigned n = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		n += strcmp(e->d_name, ".") && strcmp(e->d_name, "..");
	closedir(d);
	return n;
}

static void run_ops(const char *name, const char *data, uint64_t nfiles, uint64_t runtime_ns,
		    struct test_result *out)
{
	struct target_info ti;
	struct test_spec spec = {
		.wl = wl_find(name),
		.bs = 4096,
		.qd = 1,
		.jobs = 1,
		.runtime_ns = runtime_ns,
		.size = 1u << 20,
		.seed = 1,
		.params = { .nfiles = nfiles, .ndirs = 3, .file_min = 0, .file_max = 600 },
	};
	char err[256] = "";
	int ret;

	struct run_target where = { .ti = &ti, .data = { tmpfd, "data" }, .scratch_fd = tmpfd };

	memset(&ti, 0, sizeof(ti));
	ti.kind = TARGET_DIR;
	assert_non_null(spec.wl);
	(void)data;
	ret = runner_run(&spec, &where, out, err, sizeof(err));
	if (ret)
		fail_msg("%s: %s", name, err);
}

static void test_meta(void **state)
{
	static const char *const names[] = {
		"meta-create", "meta-create-rand", "meta-delete", "meta-delete-rand",
	};
	struct test_result r;
	size_t i;

	/* finite: all 200 files, then the test ends well before its 5 s */
	for (i = 0; i < ARRAY_SIZE(names); i++) {
		run_ops(names[i], "", 200, 5000000000ull, &r);
		assert_int_equal(r.ops, 200);
		assert_int_equal(r.errors, 0);
		assert_true(r.runtime_ns < 2000000000ull);
		assert_true(r.lat->n == 200);
		assert_string_equal(r.engine, "posix");
		if (strstr(names[i], "create"))
			assert_true(r.bytes > 0 && r.bytes <= 200 * 600);
		else
			assert_int_equal(r.bytes, 0);
		result_test_free(&r);
		assert_int_equal(count_entries(tmp), 0);	/* the tree is gone */
	}
	/* stat cycles endlessly: more ops than files in 100 ms */
	run_ops("meta-stat-rand", "", 50, 100000000ull, &r);
	assert_true(r.ops > 50);
	assert_int_equal(r.errors, 0);
	assert_true(r.runtime_ns >= 100000000ull);
	result_test_free(&r);
	assert_int_equal(count_entries(tmp), 0);
}

static void test_char_and_rewrite(void **state)
{
	char data[128];
	struct test_result r;
	int fd;

	/* a 1 MiB data file, as the CLI lays it out */
	snprintf(data, sizeof(data), "%s/data", tmp);
	fd = open(data, O_CREAT | O_EXCL | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(target_layout(&(struct target_file){ tmpfd, "data" }, 1u << 20, 1u << 16,
				       3, false, NULL, NULL, NULL), 0);

	run_ops("char-write", data, 0, 50000000ull, &r);
	assert_true(r.ops > 0);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.bytes, r.ops * 1024);	/* one op = 1 KiB of putc */
	assert_int_equal(r.bs, 1);
	assert_string_equal(r.engine, "stdio");
	result_test_free(&r);
	assert_int_equal(count_entries(tmp), 1);	/* its file is gone */

	run_ops("char-read", data, 0, 50000000ull, &r);
	assert_true(r.ops > 1024);	/* wrapped past the 1 MiB end */
	assert_int_equal(r.errors, 0);
	result_test_free(&r);

	run_ops("rewrite", data, 0, 50000000ull, &r);
	assert_true(r.ops > 0);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.bytes, r.ops * 4096);
	assert_string_equal(r.engine, "sync");
	result_test_free(&r);
	fd = open(data, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(lseek(fd, 0, SEEK_END), 1u << 20);	/* in place */
	close(fd);
	assert_int_equal(unlink(data), 0);
}

/* One job of workload name, driven by hand: its calls said in *at, in
 * words from the parameters alone (wl_ops.name_at). */
static void test_name_at(void **state)
{
	struct wl_job job = {
		.scratch_fd = tmpfd, .data = { tmpfd, "data" }, .size = 1u << 20, .bs = 4096,
		.job = 0, .jobs = 1, .seed = 7, .pattern = WL_SEQ,
		.params = wl_params_resolve((struct wl_params){ .nfiles = 40, .ndirs = 4 }),
	};
	const struct wl_ops *ops = wl_find("meta-create")->ops;
	uint64_t at = WL_AT_NONE;
	struct wl_call c;
	struct stat sb;
	char err[256], path[256];
	void *st;

	job.at = &at;
	assert_int_equal(ops->init(&st, &job, err, sizeof(err)), 0);
	memset(&c, 0, sizeof(c));
	ops->name_at(&job, at, &c);	/* its last directory made */
	assert_string_equal(c.call, "mkdir");
	assert_string_equal(c.file, "meta-0/d3");
	for (int i = 0; i < 25; i++)
		assert_true(ops->op(st) >= 0);
	memset(&c, 0, sizeof(c));
	ops->name_at(&job, at, &c);	/* the 25th file, which is there */
	assert_string_equal(c.call, "create");
	assert_false(c.has_offset);
	assert_int_equal(strncmp(c.file, "meta-0/d2/", 10), 0);
	snprintf(path, sizeof(path), "%s/%s", tmp, c.file);
	assert_int_equal(stat(path, &sb), 0);
	ops->cleanup(st);
	memset(&c, 0, sizeof(c));
	ops->name_at(&job, at, &c);	/* the clean-up's last call */
	assert_string_equal(c.call, "rmdir");
	assert_string_equal(c.file, "meta-0");
	assert_int_equal(count_entries(tmp), 0);

	/* meta-stat-rand: the file of the last stat, random-first names */
	job.pattern = WL_RAND;
	ops = wl_find("meta-stat-rand")->ops;
	assert_int_equal(ops->init(&st, &job, err, sizeof(err)), 0);
	for (int i = 0; i < 7; i++)
		assert_true(ops->op(st) >= 0);
	memset(&c, 0, sizeof(c));
	ops->name_at(&job, at, &c);
	assert_string_equal(c.call, "stat");
	snprintf(path, sizeof(path), "%s/%s", tmp, c.file);
	assert_int_equal(stat(path, &sb), 0);
	ops->cleanup(st);

	/* char-write: its own file, the per-char call */
	ops = wl_find("char-write")->ops;
	assert_int_equal(ops->init(&st, &job, err, sizeof(err)), 0);
	memset(&c, 0, sizeof(c));
	ops->name_at(&job, at, &c);
	assert_string_equal(c.call, "putc");
	assert_string_equal(c.file, "char-0");
	ops->cleanup(st);
	assert_int_equal(count_entries(tmp), 0);

	/* no workload's value: nothing said */
	memset(&c, 0, sizeof(c));
	ops->name_at(&job, (uint64_t)200 << WL_AT_SHIFT, &c);
	assert_null(c.call);
}

/* The signal-safe cleanup removes a whole tree in the scratch directory. */
static void test_scratch_recursive(void **state)
{
	char dir[256], p[512];
	int fd, i;

	assert_int_equal(target_scratch_create(tmp, dir, sizeof(dir)), 0);
	snprintf(p, sizeof(p), "%s/a", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	snprintf(p, sizeof(p), "%s/a/b", dir);
	assert_int_equal(mkdir(p, 0700), 0);
	for (i = 0; i < 300; i++) {	/* more than one getdents buffer */
		snprintf(p, sizeof(p), "%s/a/b/file-with-a-long-name-%04d", dir, i);
		fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	snprintf(p, sizeof(p), "%s/a/link", dir);
	assert_int_equal(symlink("/", p), 0);	/* removed, never followed */
	assert_int_equal(target_scratch_file("data", NULL), 0);
	assert_int_equal(target_scratch_cleanup(), 0);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(count_entries(tmp), 0);
	assert_int_equal(target_scratch_cleanup(), 0);	/* idempotent */
}

/*
 * Someone who can write the target directory renames the scratch directory
 * and puts a symlink to a victim directory in its place: files made later
 * still land in the real one, and cleanup empties that one through its
 * descriptor, removes nothing through the link, and says it was moved.
 */
static void test_scratch_swapped(void **state)
{
	char dir[256], moved[512], victim[512], p[600];
	struct target_file f;
	int fd;

	assert_int_equal(target_scratch_create(tmp, dir, sizeof(dir)), 0);
	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	assert_int_equal(mkdir(victim, 0700), 0);
	snprintf(p, sizeof(p), "%s/data", victim);
	fd = open(p, O_CREAT | O_EXCL | O_WRONLY, 0600);
	assert_true(fd >= 0);
	close(fd);
	snprintf(moved, sizeof(moved), "%s/moved", tmp);
	assert_int_equal(rename(dir, moved), 0);
	assert_int_equal(symlink(victim, dir), 0);

	assert_int_equal(target_scratch_file("data", &f), 0);
	fd = target_open(&f, O_RDONLY);
	assert_true(fd >= 0);
	close(fd);
	snprintf(p, sizeof(p), "%s/data", moved);
	assert_int_equal(access(p, F_OK), 0);	/* made in the real one */

	assert_int_equal(target_scratch_cleanup(), -EXDEV);
	assert_int_equal(count_entries(moved), 0);	/* emptied */
	snprintf(p, sizeof(p), "%s/data", victim);
	assert_int_equal(access(p, F_OK), 0);	/* the victim's file stays */
	assert_int_equal(unlink(p), 0);
	assert_int_equal(rmdir(victim), 0);
	assert_int_equal(unlink(dir), 0);
	assert_int_equal(rmdir(moved), 0);
}

/* A killed run's scratch directory is found; a running one's is not. */
static void test_scratch_leftovers(void **state)
{
	char dir[256], left[512], names[128];

	snprintf(left, sizeof(left), "%s/diskbench.abcdef", tmp);
	assert_int_equal(mkdir(left, 0700), 0);
	assert_int_equal(target_scratch_create(tmp, dir, sizeof(dir)), 0);
	assert_int_equal(target_scratch_leftovers(tmp, names, sizeof(names)), 1);
	assert_string_equal(names, "diskbench.abcdef");
	assert_int_equal(target_scratch_cleanup(), 0);
	assert_int_equal(rmdir(left), 0);
	assert_int_equal(target_scratch_leftovers(tmp, names, sizeof(names)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_permute),
		cmocka_unit_test(test_draw_write),
		cmocka_unit_test(test_meta),
		cmocka_unit_test(test_char_and_rewrite),
		cmocka_unit_test(test_name_at),
		cmocka_unit_test(test_scratch_recursive),
		cmocka_unit_test(test_scratch_swapped),
		cmocka_unit_test(test_scratch_leftovers),
	};

	return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}
