/* test_plan.c - plan_build: profiles and options into test specs, with what
 * was left out as data, table-driven; bad rows each with their message. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "plan.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* A target of the given kind with room to spare. */
static void target(struct target_info *ti, enum target_kind kind)
{
	memset(ti, 0, sizeof(*ti));
	ti->kind = kind;
	snprintf(ti->path, sizeof(ti->path), "%s", kind == TARGET_DIR ? "/srv" : "/dev/sdz");
	snprintf(ti->resolved, sizeof(ti->resolved), "%s", ti->path);
	ti->logical_block_size = 512;
	ti->physical_block_size = 4096;
	ti->size_bytes = kind == TARGET_DIR ? 0 : 64ull << 30;
	ti->free_bytes = 500ull << 30;
	ti->fs_size_bytes = 1000ull << 30;
}

struct row {
	const char *what;
	const char *profile;
	const char *argv;		/* options, space separated */
	enum target_kind kind;
	bool writes;			/* the gate allows writes */
	const char *engine;
	int ret;			/* plan_build's return */
	const char *names;		/* the tests, "|"-separated, or the error's words */
	const char *skipped_writes, *skipped_fs, *skipped_io;	/* plan_skipped, or NULL */
	unsigned nclamps;
	uint64_t interval_ns;		/* every spec's (0: the default rule) */
	/* --verify per spec, "|"-separated: "V4096" reads back, stamping 4 KiB
	 * units; "S512" stamps 512-byte ones only; "-" neither. NULL: any */
	const char *verify;
	/* each spec's runtime and passes, "ms/passes" "|"-separated; NULL: any */
	const char *runtimes;
};

static const struct row rows[] = {
	{ .what = "sustained-write: one pass, bounded by 100 s unless told", .profile = "quick",
	  .argv = "--test sustained-write,seq-write,buffered-read --qd 1", .kind = TARGET_BLOCK,
	  .writes = true, .engine = "sync",
	  .names = "sustained-write 1m qd1|seq-write 1m qd1|buffered-read 1m qd1 buffered",
	  .runtimes = "100000/1|5000/0|5000/1" },
	{ .what = "sustained-write: --runtime bounds it", .profile = "quick",
	  .argv = "--test sustained-write --runtime 7s", .kind = TARGET_BLOCK,
	  .writes = true, .engine = "sync", .names = "sustained-write 1m qd1",
	  .runtimes = "7000/1" },
	{ .what = "--verify: writers read back, readers not", .profile = "quick",
	  .argv = "--test seq-write,rand-read,rand-write --qd 1 --verify", .kind = TARGET_DIR,
	  .writes = true, .engine = "sync",
	  .names = "seq-write 1m qd1|rand-read 4k qd1|rand-write 4k qd1",
	  .verify = "V4096|-|V4096" },
	{ .what = "a verify test stamps the writers before it", .profile = "quick",
	  .argv = "--test rand-write,verify,seq-write --bs 4k --qd 1", .kind = TARGET_DIR,
	  .writes = true, .engine = "sync",
	  .names = "rand-write 4k qd1|verify|seq-write 4k qd1", .verify = "S4096|-|-" },
	{ .what = "a 512-byte block makes every unit 512 bytes", .profile = "quick",
	  .argv = "--test seeks,rand-write --bs 4k,512 --verify", .kind = TARGET_BLOCK,
	  .writes = true, .engine = "sync",
	  .names = "seeks 4k qd1|seeks 512 qd1|rand-write 4k qd1|rand-write 512 qd1",
	  .nclamps = 1, .verify = "V512|V512|V512|V512" },
	{ .what = "--verify: a block of no multiple of 512", .profile = "quick",
	  .argv = "--test seq-write --bs 1000 --buffered --verify", .kind = TARGET_DIR,
	  .writes = true, .engine = "sync", .ret = -EINVAL,
	  .names = "--verify: --bs 1000 is not a multiple of 512 bytes" },
	{ .what = "quick in a directory", .profile = "quick", .argv = "", .kind = TARGET_DIR,
	  .writes = true, .engine = "sync", .names = "seq-read 1m qd1|seq-write 1m qd1|"
	  "rand-read 4k qd1|rand-write 4k qd1", .nclamps = 4 },
	{ .what = "quick, null engine", .profile = "quick", .argv = "", .kind = TARGET_DIR,
	  .writes = true, .engine = "null", .names = "seq-read 1m qd8|seq-write 1m qd8|"
	  "rand-read 4k qd1|rand-read 4k qd32|rand-write 4k qd1|rand-write 4k qd32" },
	{ .what = "quick on a device, read-only", .profile = "quick", .argv = "",
	  .kind = TARGET_BLOCK, .writes = false, .engine = "null",
	  .names = "seq-read 1m qd8|rand-read 4k qd1|rand-read 4k qd32",
	  .skipped_writes = "seq-write, rand-write" },
	{ .what = "--test picks and orders", .profile = "quick",
	  .argv = "--test rand-read,seq-read --qd 4", .kind = TARGET_DIR, .writes = true,
	  .engine = "null", .names = "rand-read 4k qd4|seq-read 1m qd4" },
	{ .what = "--interval reaches every test", .profile = "quick",
	  .argv = "--test rand-read --qd 1 --interval 250ms", .kind = TARGET_DIR, .writes = true,
	  .engine = "null", .names = "rand-read 4k qd1", .interval_ns = 250000000 },
	{ .what = "--test outside the profile takes [profile]", .profile = "quick",
	  .argv = "--test seeks --bs 8k", .kind = TARGET_DIR, .writes = true, .engine = "null",
	  .names = "seeks 8k qd1" },
	{ .what = "two groups with the same test: once", .profile = "hdparm",
	  .argv = "--direct", .kind = TARGET_BLOCK, .writes = false, .engine = "null",
	  .names = "cached-read 2m qd1|buffered-read 2m qd1" },
	{ .what = "hdparm: direct and buffered variants", .profile = "hdparm", .argv = "",
	  .kind = TARGET_BLOCK, .writes = false, .engine = "null",
	  .names = "cached-read 2m qd1|buffered-read 2m qd1|cached-read 2m qd1 direct|"
	  "buffered-read 2m qd1 direct" },
	{ .what = "bonnie on a device: file tests need a file system", .profile = "bonnie",
	  .argv = "", .kind = TARGET_BLOCK, .writes = false, .engine = "sync",
	  .names = "seq-read 8k qd1",
	  /* a test that writes is left out for that first */
	  .skipped_writes = "char-write, seq-write, rewrite, seeks, meta-create, meta-delete, "
	  "meta-create-rand, meta-delete-rand",
	  .skipped_fs = "char-read, meta-stat, meta-stat-rand" },
	{ .what = "the null engine cannot stand in for own I/O", .profile = "quick",
	  .argv = "--test char-read,rand-read", .kind = TARGET_DIR, .writes = true,
	  .engine = "null", .names = "rand-read 4k qd1|rand-read 4k qd32",
	  .skipped_io = "char-read" },
	/* bad rows */
	{ .what = "a --test write on a read-only target", .profile = "quick",
	  .argv = "--test seq-write", .kind = TARGET_BLOCK, .writes = false, .engine = "null",
	  .ret = -EPERM, .names = "refusing to write to /dev/sdz (seq-write): no writes here" },
	{ .what = "nothing left to run", .profile = "quick", .argv = "--test char-write",
	  .kind = TARGET_BLOCK, .writes = true, .engine = "null", .ret = -EPERM,
	  .names = "nothing to run on block /dev/sdz: every test of the plan was left out" },
	{ .what = "bs not a multiple of the logical block", .profile = "quick",
	  .argv = "--bs 1000", .kind = TARGET_DIR, .writes = true, .engine = "null",
	  .ret = -EINVAL, .names = "--bs: 1000 is not a multiple of the target's logical block "
	  "size (512 bytes), which O_DIRECT requires" },
	{ .what = "bs larger than the working set", .profile = "quick",
	  .argv = "--size 64k --bs 1m --test seq-read", .kind = TARGET_DIR, .writes = true,
	  .engine = "null", .ret = -EINVAL,
	  .names = "--bs: 1048576 is larger than the working set (65536 bytes)" },
	{ .what = "an unknown --test", .profile = "quick", .argv = "--test seq-reed",
	  .kind = TARGET_DIR, .writes = true, .engine = "null", .ret = -EINVAL,
	  .names = "--test: unknown test 'seq-reed' (see: diskbench list tests)" },
	{ .what = "a size larger than the device", .profile = "quick", .argv = "--size 1t",
	  .kind = TARGET_BLOCK, .writes = false, .engine = "null", .ret = -EINVAL,
	  .names = "--size: 1099511627776 bytes is larger than /dev/sdz" },
};

/* "--a b --c" into argv (at most 15 words, in a buffer of the caller's). */
static int split(const char *line, char *buf, size_t len, char **argv)
{
	int argc = 0;

	snprintf(buf, len, "%s", line);
	argv[argc++] = "diskbench";
	for (char *t = strtok(buf, " "); t && argc < 15; t = strtok(NULL, " "))
		argv[argc++] = t;
	argv[argc] = NULL;
	return argc;
}

static void check(const struct row *r)
{
	static struct plan p;
	struct settings cli, run;
	struct profile prof;
	struct target_info ti;
	struct safety_verdict v = { .allowed = r->writes };
	char buf[256], err[512], names[1024], got[1024];
	const char *pos[1];
	char *argv[16];
	size_t npos, used = 0;
	int argc, ret;

	snprintf(v.reason, sizeof(v.reason), "no writes here");
	target(&ti, r->kind);
	opts_defaults(&cli);
	argc = split(r->argv, buf, sizeof(buf), argv);
	if (opts_parse(&cli, argc, argv, pos, 1, &npos, err, sizeof(err)))
		fail_msg("%s: options: %s", r->what, err);
	if (profile_load(&prof, r->profile, err, sizeof(err)))
		fail_msg("%s: profile: %s", r->what, err);
	run = prof.s;
	opts_override(&run, &cli);
	struct plan_in in = { .prof = &prof, .cli = &cli, .run = &run,
			      .e = engine_find(r->engine), .ti = &ti, .writes = &v };
	assert_non_null(in.e);
	ret = plan_build(&p, &in, err, sizeof(err));
	if (ret != r->ret)
		fail_msg("%s: plan_build %d, want %d (%s)", r->what, ret, r->ret, ret ? err : "");
	if (ret) {
		if (!strstr(err, r->names))
			fail_msg("%s: '%s' does not say '%s'", r->what, err, r->names);
		profile_free(&prof);
		return;
	}
	got[0] = '\0';
	for (unsigned i = 0; i < p.n; i++) {
		plan_spec_name(&p.specs[i], run.direct, names, sizeof(names));
		assert_string_equal(names, p.names[i]);
		assert_int_equal(p.specs[i].interval_ns, r->interval_ns);
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%s", i ? "|" : "",
					 p.names[i]);
	}
	if (strcmp(got, r->names))
		fail_msg("%s: tests '%s', want '%s'", r->what, got, r->names);
	used = 0;
	got[0] = '\0';
	for (unsigned i = 0; r->verify && i < p.n; i++) {
		const struct test_spec *t = &p.specs[i];

		if (t->stamp)
			used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%c%u",
						 i ? "|" : "", t->verify ? 'V' : 'S', t->unit);
		else
			used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%s",
						 i ? "|" : "", t->verify ? "V?" : "-");
	}
	if (r->verify && strcmp(got, r->verify))
		fail_msg("%s: verify '%s', want '%s'", r->what, got, r->verify);
	used = 0;
	got[0] = '\0';
	for (unsigned i = 0; r->runtimes && i < p.n; i++)
		used += (size_t)snprintf(got + used, sizeof(got) - used, "%s%llu/%u", i ? "|" : "",
					 (unsigned long long)(p.specs[i].runtime_ns / 1000000),
					 p.specs[i].passes);
	if (r->runtimes && strcmp(got, r->runtimes))
		fail_msg("%s: runtimes '%s', want '%s'", r->what, got, r->runtimes);
	const char *want[] = { r->skipped_writes, r->skipped_fs, r->skipped_io };
	const enum plan_skip_why why[] = { PLAN_SKIP_WRITES, PLAN_SKIP_NEEDS_FS,
					   PLAN_SKIP_OWN_IO };
	for (size_t k = 0; k < 3; k++) {
		unsigned n = plan_skipped(&p, why[k], names, sizeof(names));

		if (!want[k] ? n != 0 : strcmp(names, want[k]))
			fail_msg("%s: skipped (%zu) '%s', want '%s'", r->what, k, names,
				 want[k] ? want[k] : "");
	}
	if (p.nclamps != r->nclamps)
		fail_msg("%s: %u clamps, want %u", r->what, p.nclamps, r->nclamps);
	profile_free(&prof);
}

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		check(&rows[i]);
}

/* The canonical key tells apart what makes tests different, and only that. */
static void test_key(void **state)
{
	struct test_spec a = { .wl = wl_find("rand-read"), .bs = 4096, .qd = 1, .jobs = 1,
			       .runtime_ns = 1, .size = 1 << 20, .seed = 42 };
	struct test_spec b = a;
	char ka[512], kb[512];
	int dummy;

	(void)state;
	b.cpus = &dummy;	/* run-wide, not part of a test */
	b.progress_arg = &dummy;
	plan_spec_key(&a, ka, sizeof(ka));
	plan_spec_key(&b, kb, sizeof(kb));
	assert_string_equal(ka, kb);
	b = a;
	b.params.nfiles = 7;
	plan_spec_key(&b, kb, sizeof(kb));
	assert_string_not_equal(ka, kb);
	b = a;
	b.seed = 43;
	plan_spec_key(&b, kb, sizeof(kb));
	assert_string_not_equal(ka, kb);
	b = a;
	b.direct = true;
	plan_spec_key(&b, kb, sizeof(kb));
	assert_string_not_equal(ka, kb);
	b = a;
	b.interval_ns = 200000000;
	plan_spec_key(&b, kb, sizeof(kb));
	assert_string_not_equal(ka, kb);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_key),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
