/* test_opts.c - table-driven tests for the option table: opts_parse, opts_set, opts_override. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "engine.h"
#include "opts.h"
#include "settings_diff.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define MAXARGS 8

/* ---- opts_parse ----------------------------------------------------------- */

/* A command line (after "diskbench", up to a NULL) parsed over the
 * defaults, with room for one positional argument as the CLI has: what
 * the settings become (settings_diff.h) and the positional, if any. */
struct parse_row {
	const char *args[MAXARGS];
	const char *diff;
	const char *pos;
};

/* A command line opts_parse refuses with -EINVAL, and its message. */
struct parse_bad_row {
	const char *args[MAXARGS];
	const char *err;
};

#define SIZE_HINT " (use e.g. 4k, 256k, 1m, 1g; k/m/g/t are powers of 1024)"
#define BS17 "4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k,4k"

static const struct parse_row parse_rows[] = {
	{ { NULL }, "", NULL },
	{ { "--bs", "4k,8k", "--qd=1,32", "target" }, "bs=4k,8k qd=1,32", "target" },
	{ { "target", "--runtime", "500ms" }, "runtime=500ms", "target" },
	{ { "--bs", "512,64m", "--qd", "4096", "--jobs", "1024" },
	  "bs=512,64m qd=4096 jobs=1024", NULL },
	{ { "--runtime", "1ms", "--ramp", "0", "--repeat", "100" },
	  "runtime=1ms ramp=0s repeat=100", NULL },
	{ { "--runtime", "24h", "--ramp", "1h" }, "runtime=86400s ramp=3600s", NULL },
	{ { "--interval", "200ms" }, "interval=200ms", NULL },
	{ { "--interval", "10ms", "--runtime", "2s" }, "runtime=2s interval=10ms", NULL },
	{ { "--interval", "24h" }, "interval=86400s", NULL },
	{ { "--size", "4k", "--seed", "18446744073709551615" },
	  "size=4k seed=18446744073709551615", NULL },
	{ { "--buffered" }, "direct=false", NULL },
	{ { "--direct", "--direct" }, "", NULL },
	{ { "--buffered", "--buffered" }, "direct=false", NULL },
	{ { "--char-mode", "syscall", "--files", "1", "--dirs", "1048576", "--fsync" },
	  "char-mode=syscall files=1 dirs=1048576 fsync=true", NULL },
	{ { "--char-mode", "stdio" }, "char-mode=stdio", NULL },
	{ { "--file-size", "0" }, "file-size=0", NULL },
	{ { "--file-size", "1k:16k" }, "file-size=1k-16k", NULL },
	{ { "--file-size", "1t" }, "file-size=1t", NULL },
	{ { "--cpus", "0-3,6", "--max-fill", "100", "--drop-caches" },
	  "max-fill=100 drop-caches=true cpus=0,1,2,3,6", NULL },
	{ { "--destructive", "/dev/x" }, "destructive=true", "/dev/x" },
	{ { "--destructive=/dev/x" }, "destructive=/dev/x", NULL },
	{ { "--engine", "sync", "--profile", "crystal", "--test", "seq-read" },
	  "profile=crystal engine=sync test=seq-read", NULL },
	{ { "--label", "two words", "--json", "-", "--csv=c", "--bonnie-csv", "b" },
	  "label=two words json=- csv=c bonnie-csv=b", NULL },
	{ { "--baseline", "old.json", "--quiet", "-h", "--version" },
	  "baseline=old.json quiet=true help=true version=true", NULL },
	{ { "--", "--bs" }, "", "--bs" },
	{ { "-" }, "", "-" },
};

static const struct parse_bad_row parse_bad_rows[] = {
	/* whole names only: a new option never changes what an old
	 * abbreviation meant (getopt_long alone takes a unique prefix) */
	{ { "--runt", "2s" }, "unknown option '--runt'" },
	{ { "--runt=2s" }, "unknown option '--runt=2s'" },
	{ { "--fsync=yes" }, "--fsync takes no value: '--fsync=yes'" },
	/* bad values name the option */
	{ { "--bs", "4q" }, "--bs: invalid size '4q'" SIZE_HINT },
	{ { "--bs=4q" }, "--bs: invalid size '4q'" SIZE_HINT },
	{ { "--bs", "4k,,8k" }, "--bs: invalid size '4k,,8k'" SIZE_HINT },
	{ { "--bs=" }, "--bs: invalid size ''" SIZE_HINT },
	{ { "--bs", "256" }, "--bs: block size out of range (512 to 64m): '256'" },
	{ { "--bs", "4k,128m" }, "--bs: block size out of range (512 to 64m): '4k,128m'" },
	{ { "--bs", BS17 }, "--bs: value out of range: '" BS17 "'" },
	{ { "--qd", "0" }, "--qd: value out of range: '0'" },
	{ { "--qd", "4097" }, "--qd: value out of range: '4097'" },
	{ { "--qd", "1,x" }, "--qd: invalid number '1,x'" },
	{ { "--jobs", "0" }, "--jobs: value out of range: '0' (1 to 1024)" },
	{ { "--jobs", "1025" }, "--jobs: value out of range: '1025' (1 to 1024)" },
	{ { "--jobs", "-1" }, "--jobs: invalid number '-1'" },
	{ { "--jobs", "1k" }, "--jobs: invalid number '1k'" },
	{ { "--repeat", "0" }, "--repeat: value out of range: '0' (1 to 100)" },
	{ { "--repeat", "101" }, "--repeat: value out of range: '101' (1 to 100)" },
	{ { "--max-fill", "0" }, "--max-fill: value out of range: '0' (1 to 100)" },
	{ { "--files", "0" }, "--files: value out of range: '0' (1 to 1073741824)" },
	{ { "--dirs", "1048577" }, "--dirs: value out of range: '1048577' (1 to 1048576)" },
	{ { "--seed", "18446744073709551616" },
	  "--seed: value out of range: '18446744073709551616'" },
	{ { "--runtime", "0" }, "--runtime: value out of range: '0'" },
	{ { "--runtime", "999us" }, "--runtime: value out of range: '999us'" },
	{ { "--runtime", "86401s" }, "--runtime: value out of range: '86401s'" },
	{ { "--runtime", "5x" }, "--runtime: invalid duration '5x' (use e.g. 500ms, 5s, 2m)" },
	{ { "--ramp", "3601s" }, "--ramp: value out of range: '3601s'" },
	{ { "--interval", "0" }, "--interval: value out of range: '0'" },
	{ { "--interval", "9ms" }, "--interval: value out of range: '9ms'" },
	{ { "--interval", "86401s" }, "--interval: value out of range: '86401s'" },
	{ { "--interval", "abc" }, "--interval: invalid duration 'abc' (use e.g. 500ms, 5s, 2m)" },
	{ { "--size", "4095" }, "--size: value out of range: '4095'" },
	{ { "--size", "1q" }, "--size: invalid size '1q'" SIZE_HINT },
	{ { "--file-size", "16k-1k" }, "--file-size: invalid size '16k-1k'" SIZE_HINT },
	{ { "--file-size", "2t" }, "--file-size: value out of range: '2t'" },
	{ { "--file-size", "1k-2t" }, "--file-size: value out of range: '1k-2t'" },
	{ { "--char-mode", "fast" }, "--char-mode: invalid value 'fast' (one of: stdio|syscall)" },
	{ { "--char-mode", "std" }, "--char-mode: invalid value 'std' (one of: stdio|syscall)" },
	{ { "--char-mode", "" }, "--char-mode: invalid value '' (one of: stdio|syscall)" },
	{ { "--char-mode", "stdio|syscall" },
	  "--char-mode: invalid value 'stdio|syscall' (one of: stdio|syscall)" },
	{ { "--char-mode", "syscall|" },
	  "--char-mode: invalid value 'syscall|' (one of: stdio|syscall)" },
	{ { "--cpus", "3-1" }, "--cpus: invalid CPU list '3-1' (use e.g. 0-3,6)" },
	{ { "--cpus", "4096" }, "--cpus: value out of range: '4096'" },
	{ { "--engine", "" }, "--engine: empty value" },
	{ { "--json=" }, "--json: empty value" },

	/* contradictions, unknown options, missing values, extra arguments */
	{ { "--direct", "--buffered" }, "--direct and --buffered exclude each other: give one" },
	{ { "--buffered", "t", "--direct" },
	  "--direct and --buffered exclude each other: give one" },
	{ { "--frobnicate" }, "unknown option '--frobnicate'" },
	{ { "--frob=1", "--bs", "4k" }, "unknown option '--frob=1'" },
	{ { "-x" }, "unknown option '-x'" },
	{ { "--bs" }, "option '--bs' needs a value" },
	{ { "target", "--json" }, "option '--json' needs a value" },
	/* a value is taken as it comes, even when it looks like an option */
	{ { "--bs", "--qd", "4" }, "--bs: invalid size '--qd'" SIZE_HINT },
	{ { "one", "two" }, "unexpected argument 'two'" },
};

/* argv for a row: "diskbench" then its arguments. Returns argc. */
static int row_argv(const char *const *args, char **argv)
{
	int argc = 0;

	argv[argc++] = (char *)"diskbench";
	for (size_t i = 0; i < MAXARGS && args[i]; i++)
		argv[argc++] = (char *)args[i];
	argv[argc] = NULL;
	return argc;
}

/* Parse a row's command line over the defaults into s. */
static int parse_args(const char *const *args, struct settings *s, const char **pos,
		      size_t *npos, char *err, size_t errlen)
{
	char *argv[MAXARGS + 2];
	int argc = row_argv(args, argv);

	opts_defaults(s);
	*npos = 99;
	return opts_parse(s, argc, argv, pos, 1, npos, err, errlen);
}

static void test_parse(void **state)
{
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(parse_rows); i++) {
		const struct parse_row *r = &parse_rows[i];
		char err[512] = "", diff[512];
		const char *pos[1] = { NULL };
		struct settings s;
		size_t npos;
		int rc;

		rc = parse_args(r->args, &s, pos, &npos, err, sizeof(err));
		settings_diff(&s, diff, sizeof(diff));
		if (rc || strcmp(diff, r->diff) || npos != (r->pos ? 1u : 0u) ||
		    (r->pos && strcmp(pos[0], r->pos))) {
			print_error("row %zu (%s): %d '%s', '%s', %zu positional '%s'\n"
				    "        want 0, '%s', positional '%s'\n", i,
				    r->args[0] ? r->args[0] : "", rc, err, diff, npos,
				    npos == 1 ? pos[0] : "", r->diff, r->pos ? r->pos : "");
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static void test_parse_bad(void **state)
{
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(parse_bad_rows); i++) {
		const struct parse_bad_row *r = &parse_bad_rows[i];
		char err[512] = "";
		const char *pos[1];
		struct settings s;
		size_t npos;
		int rc;

		rc = parse_args(r->args, &s, pos, &npos, err, sizeof(err));
		if (rc != -EINVAL || strcmp(err, r->err)) {
			print_error("row %zu (%s): %d '%s'\n        want %d '%s'\n", i,
				    r->args[0], rc, err, -EINVAL, r->err);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* A parse that failed inside a group of short options leaves nothing
 * behind for the next one (getopt keeps its place in static state). */
static void test_parse_again(void **state)
{
	const char *stop[MAXARGS] = { "-xh" }, *none[MAXARGS] = { NULL };
	const char *pos[1];
	struct settings s;
	char err[256], diff[512];
	size_t npos;

	(void)state;
	assert_int_equal(parse_args(stop, &s, pos, &npos, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "unknown option '-x'");
	assert_int_equal(parse_args(none, &s, pos, &npos, err, sizeof(err)), 0);
	settings_diff(&s, diff, sizeof(diff));
	assert_string_equal(diff, "");
	assert_int_equal(npos, 0);
}

/* opts_parse marks what it was given, and only that. */
static void test_parse_given(void **state)
{
	const char *args[MAXARGS] = { "--bs", "4k", "--buffered", "x" };
	const char *pos[1];
	struct settings s;
	char err[256];
	size_t npos;

	(void)state;
	assert_int_equal(parse_args(args, &s, pos, &npos, err, sizeof(err)), 0);
	assert_true(opts_given(&s, "bs"));
	assert_true(opts_given(&s, "buffered"));
	assert_false(opts_given(&s, "direct"));
	assert_false(opts_given(&s, "qd"));
	assert_false(opts_given(&s, "nope"));
}

/* Each subcommand takes the options whose row names it; another's, spelled
 * whole, is -EPERM naming whose it is. */
static void test_parse_cmd(void **state)
{
	char *run[] = { "diskbench", "--scheduler", "none", NULL };
	char *tune[] = { "tune", "--trim", "--scheduler=none,bfq", "--noise", "2.5%", "x", NULL };
	char *tune_ok[] = { "tune", "--scheduler=none,bfq", "--noise", "2.5%", "-q", "x", NULL };
	char *cmp[] = { "compare", "--noise=3", "--blocks", "3", "a", "b", NULL };
	const char *pos[2];
	struct settings s;
	char err[256];
	size_t npos;

	(void)state;
	opts_defaults(&s);
	assert_int_equal(opts_parse(&s, 3, run, pos, 1, &npos, err, sizeof(err)), -EPERM);
	assert_string_equal(err, "--scheduler is a tune option run does not take");
	opts_defaults(&s);
	assert_int_equal(opts_parse_cmd(&s, OPTS_CMD_TUNE, 6, tune, pos, 1, &npos, err,
					sizeof(err)), -EPERM);
	assert_string_equal(err, "--trim is a run option tune does not take");
	opts_defaults(&s);
	assert_int_equal(opts_parse_cmd(&s, OPTS_CMD_TUNE, 6, tune_ok, pos, 1, &npos, err,
					sizeof(err)), 0);
	assert_string_equal(opts_get_str(&s, "scheduler"), "none,bfq");
	assert_true(s.noise > 0.0249 && s.noise < 0.0251);
	assert_true(s.quiet && opts_given(&s, "quiet"));
	assert_int_equal(npos, 1);
	opts_defaults(&s);
	assert_int_equal(opts_parse_cmd(&s, OPTS_CMD_COMPARE, 6, cmp, pos, 2, &npos, err,
					sizeof(err)), -EPERM);
	assert_string_equal(err, "--blocks is a tune option compare does not take");
}

/* ---- opts_check: the rules between options ------------------------------ */

struct check_row {
	const char *args[MAXARGS];
	const char *engine;	/* "null", "sync", "direct", "libaio" (flags below) */
	bool root;
	const char *err;	/* NULL: allowed */
};

static const struct check_row check_rows[] = {
	{ { NULL }, "null", false, NULL },
	{ { "--precondition-size", "1g" }, "sync", true,
	  "--precondition-size: only with --precondition" },
	{ { "--precondition-size", "1g", "--precondition" }, "sync", true, NULL },
	{ { "--precondition", "--repeat", "2" }, "sync", true,
	  "--precondition runs each test in steady-state rounds: it does not take --repeat 2" },
	{ { "--precondition" }, "null", true,
	  "--precondition: the null engine moves no data: it cannot write the device" },
	{ { "--round", "1s" }, "null", true, "--round: only with --steady-state" },
	{ { "--max-rounds", "7" }, "null", true, "--max-rounds: only with --steady-state" },
	{ { "--round", "1s", "--max-rounds", "7" }, "null", true,
	  "--round: only with --steady-state" },
	/* --precondition is steady-state rounds: its --round is fine */
	{ { "--precondition", "--round", "1s" }, "sync", true, NULL },
	{ { "--steady-state", "--repeat", "3" }, "null", true,
	  "--steady-state runs each test in rounds itself: it does not take --repeat 3" },
	{ { "--steady-state", "--max-rounds", "4" }, "null", true,
	  "--max-rounds 4: a steady-state window is 5 rounds, more than the round limit" },
	{ { "--steady-state", "--max-rounds", "5" }, "null", true, NULL },
	{ { "--verify" }, "null", true,
	  "--verify: the null engine moves no data: there is nothing to read back" },
	{ { "--verify" }, "sync", true, NULL },
	{ { "--drop-caches" }, "null", false,
	  "--drop-caches: needs root (it writes /proc/sys/vm/drop_caches)" },
	{ { "--drop-caches", "--trim" }, "null", true, NULL },
	{ { "--trim" }, "null", false, "--trim: needs root (FITRIM and BLKDISCARD do)" },
	{ { "--buffered" }, "libaio", true, "--buffered: the libaio engine only works with "
	  "O_DIRECT (use --engine io_uring or sync for buffered I/O)" },
	{ { "--buffered" }, "direct", true, "--buffered: the direct engine only works with "
	  "O_DIRECT (use --engine io_uring or sync for buffered I/O)" },
	{ { "--buffered" }, "sync", true, NULL },
};

static void test_check(void **state)
{
	static const struct engine_ops engines[] = {
		{ .name = "null", .flags = ENGINE_F_NO_IO },
		{ .name = "sync", .flags = ENGINE_F_SYNC },
		{ .name = "direct", .flags = ENGINE_F_SYNC | ENGINE_F_FORCE_DIRECT },
		{ .name = "libaio", .flags = ENGINE_F_DIRECT_ONLY },
	};
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(check_rows); i++) {
		const struct check_row *r = &check_rows[i];
		const struct engine_ops *e = NULL;
		char err[512] = "";
		const char *pos[1];
		struct settings cli, s;
		size_t npos;
		int rc;

		for (size_t k = 0; k < ARRAY_SIZE(engines); k++)
			if (!strcmp(engines[k].name, r->engine))
				e = &engines[k];
		assert_non_null(e);
		assert_int_equal(parse_args(r->args, &cli, pos, &npos, err, sizeof(err)), 0);
		s = cli;
		rc = opts_check(&s, &cli, e, r->root, err, sizeof(err));
		if (rc != (r->err ? -EINVAL : 0) || (r->err && strcmp(err, r->err))) {
			print_error("row %zu (%s): %d '%s'\n        want '%s'\n", i,
				    r->args[0] ? r->args[0] : "", rc, rc ? err : "",
				    r->err ? r->err : "");
			bad++;
		}
		/* what it completes: the direct engine, --precondition */
		if (!rc && ((e->flags & ENGINE_F_FORCE_DIRECT) && !s.direct))
			bad++;
		if (!rc && s.precondition && !s.steady_state)
			bad++;
	}
	assert_int_equal(bad, 0);
}

/* ---- opts_set: profile keys ---------------------------------------------- */

struct set_row {
	const char *key, *value;
	enum opts_where where;
	int rc;
	const char *want;	/* rc 0: the settings diff; else the message */
};

#define UNKNOWN_KEY(k) "unknown key '" k "' (keys are the long options of diskbench " \
		       "--help, without the dashes)"
#define CLI_ONLY(k) "'" k "' is a command-line option only, not a profile key"
#define RUN_WIDE(k) "'" k "' applies to the whole run: set it in [profile]"
#define NOT_BOOL(k, v) k ": invalid value '" v "' (use true or false)"

static const struct set_row set_rows[] = {
	/* where a key may be set: its scope in the table */
	{ "json", "x", OPTS_CLI, 0, "json=x" },
	{ "json", "x", OPTS_PROFILE, -EPERM, CLI_ONLY("json") },
	{ "json", "x", OPTS_GROUP, -EPERM, CLI_ONLY("json") },
	{ "profile", "quick", OPTS_PROFILE, -EPERM, CLI_ONLY("profile") },
	{ "destructive", "true", OPTS_GROUP, -EPERM, CLI_ONLY("destructive") },
	{ "quiet", "true", OPTS_PROFILE, -EPERM, CLI_ONLY("quiet") },
	{ "csv", "-", OPTS_PROFILE, -EPERM, CLI_ONLY("csv") },
	{ "bonnie-csv", "-", OPTS_GROUP, -EPERM, CLI_ONLY("bonnie-csv") },
	{ "baseline", "b.json", OPTS_PROFILE, -EPERM, CLI_ONLY("baseline") },
	{ "help", "true", OPTS_PROFILE, -EPERM, CLI_ONLY("help") },
	{ "test", "seq-read", OPTS_PROFILE, -EPERM,
	  "'test' belongs in a test group ([NAME] section), not in [profile]" },
	{ "test", "seq-read", OPTS_GROUP, 0, "test=seq-read" },
	{ "engine", "sync", OPTS_PROFILE, 0, "engine=sync" },
	{ "engine", "sync", OPTS_GROUP, -EPERM, RUN_WIDE("engine") },
	{ "repeat", "3", OPTS_GROUP, -EPERM, RUN_WIDE("repeat") },
	{ "max-fill", "50", OPTS_GROUP, -EPERM, RUN_WIDE("max-fill") },
	{ "drop-caches", "true", OPTS_GROUP, -EPERM, RUN_WIDE("drop-caches") },
	{ "cpus", "0", OPTS_GROUP, -EPERM, RUN_WIDE("cpus") },
	{ "label", "x", OPTS_GROUP, -EPERM, RUN_WIDE("label") },
	{ "label", "x", OPTS_PROFILE, 0, "label=x" },
	{ "bs", "4k", OPTS_PROFILE, 0, "bs=4k" },
	{ "bs", "4k", OPTS_GROUP, 0, "bs=4k" },
	/* the scope is checked before the value */
	{ "json", "", OPTS_PROFILE, -EPERM, CLI_ONLY("json") },
	{ "engine", "", OPTS_GROUP, -EPERM, RUN_WIDE("engine") },

	/* keys that are no option */
	{ "frob", "1", OPTS_PROFILE, -ENOENT, UNKNOWN_KEY("frob") },
	{ "--bs", "4k", OPTS_CLI, -ENOENT, UNKNOWN_KEY("--bs") },
	{ "BS", "4k", OPTS_GROUP, -ENOENT, UNKNOWN_KEY("BS") },
	{ "", "4k", OPTS_GROUP, -ENOENT, UNKNOWN_KEY("") },

	/* bad values: the key without dashes, except for OPTS_CLI */
	{ "bs", "4q", OPTS_PROFILE, -EINVAL, "bs: invalid size '4q'" SIZE_HINT },
	{ "bs", "4q", OPTS_CLI, -EINVAL, "--bs: invalid size '4q'" SIZE_HINT },
	{ "jobs", "0", OPTS_GROUP, -EINVAL, "jobs: value out of range: '0' (1 to 1024)" },
	{ "bs", "256", OPTS_GROUP, -EINVAL, "bs: block size out of range (512 to 64m): '256'" },
	{ "runtime", "0", OPTS_GROUP, -EINVAL, "runtime: value out of range: '0'" },
	{ "interval", "5ms", OPTS_GROUP, -EINVAL, "interval: value out of range: '5ms'" },
	{ "engine", "", OPTS_PROFILE, -EINVAL, "engine: empty value" },

	/* flags take a truth value; "direct = false" is --buffered */
	{ "direct", "false", OPTS_GROUP, 0, "direct=false" },
	{ "direct", "No", OPTS_GROUP, 0, "direct=false" },
	{ "direct", "OFF", OPTS_GROUP, 0, "direct=false" },
	{ "direct", "0", OPTS_GROUP, 0, "direct=false" },
	{ "direct", "true", OPTS_GROUP, 0, "" },
	{ "buffered", "yes", OPTS_GROUP, 0, "direct=false" },
	{ "buffered", "on", OPTS_GROUP, 0, "direct=false" },
	{ "buffered", "1", OPTS_GROUP, 0, "direct=false" },
	{ "buffered", "false", OPTS_GROUP, 0, "" },
	{ "fsync", "TRUE", OPTS_GROUP, 0, "fsync=true" },
	{ "fsync", "false", OPTS_GROUP, 0, "" },
	{ "direct", "maybe", OPTS_GROUP, -EINVAL, NOT_BOOL("direct", "maybe") },
	{ "direct", "", OPTS_PROFILE, -EINVAL, NOT_BOOL("direct", "") },
	{ "direct", "2", OPTS_PROFILE, -EINVAL, NOT_BOOL("direct", "2") },
	{ "fsync", "y", OPTS_GROUP, -EINVAL, NOT_BOOL("fsync", "y") },
	/* on the command line a bare flag is given: on */
	{ "buffered", "", OPTS_CLI, 0, "direct=false" },
	{ "destructive", "", OPTS_CLI, 0, "destructive=true" },
	{ "destructive", "yes", OPTS_CLI, 0, "destructive=true" },
	{ "destructive", "no", OPTS_CLI, 0, "" },
};

static void test_set(void **state)
{
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(set_rows); i++) {
		const struct set_row *r = &set_rows[i];
		char err[512] = "", diff[512] = "";
		struct settings s;
		int rc;

		opts_defaults(&s);
		rc = opts_set(&s, r->key, r->value, r->where, err, sizeof(err));
		if (!rc)
			settings_diff(&s, diff, sizeof(diff));
		if (rc != r->rc || strcmp(rc ? err : diff, r->want) ||
		    opts_given(&s, r->key) != !rc) {
			print_error("row %zu: opts_set(%s, '%s', %d) = %d '%s', given %d\n"
				    "        want %d '%s'\n", i, r->key, r->value, r->where, rc,
				    rc ? err : diff, opts_given(&s, r->key), r->rc, r->want);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* ---- opts_exclusive and opts_override ------------------------------------ */

static void test_exclusive(void **state)
{
	(void)state;
	assert_true(opts_exclusive("direct", "buffered"));
	assert_true(opts_exclusive("buffered", "direct"));
	assert_false(opts_exclusive("direct", "direct"));
	assert_false(opts_exclusive("bs", "qd"));
	assert_false(opts_exclusive("files", "file-size"));
	assert_false(opts_exclusive("nope", "direct"));
	assert_false(opts_exclusive("direct", "nope"));
}

/* The command line wins key by key over a profile's settings: a list with
 * its count, a flag over the opposite flag; what it did not give stays. */
static void test_override(void **state)
{
	const char *args[MAXARGS] = { "--bs", "8k,16k", "--buffered", "--runtime", "1s" };
	char err[256], diff[512];
	struct settings prof, cli;
	const char *pos[1];
	size_t npos;

	(void)state;
	opts_defaults(&prof);
	assert_int_equal(opts_set(&prof, "bs", "4k,8k,16k", OPTS_PROFILE, err, sizeof(err)), 0);
	assert_int_equal(opts_set(&prof, "qd", "1,32", OPTS_PROFILE, err, sizeof(err)), 0);
	assert_int_equal(opts_set(&prof, "runtime", "2s", OPTS_PROFILE, err, sizeof(err)), 0);
	assert_int_equal(opts_set(&prof, "direct", "true", OPTS_PROFILE, err, sizeof(err)), 0);
	assert_int_equal(parse_args(args, &cli, pos, &npos, err, sizeof(err)), 0);
	opts_override(&prof, &cli);
	settings_diff(&prof, diff, sizeof(diff));
	assert_string_equal(diff, "bs=8k,16k qd=1,32 runtime=1s direct=false");
	assert_true(opts_given(&prof, "buffered"));
	assert_true(opts_given(&prof, "qd"));

	/* Nothing given: nothing changes. */
	opts_defaults(&cli);
	opts_override(&prof, &cli);
	settings_diff(&prof, diff, sizeof(diff));
	assert_string_equal(diff, "bs=8k,16k qd=1,32 runtime=1s direct=false");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_again),
		cmocka_unit_test(test_parse_given),
		cmocka_unit_test(test_parse_cmd),
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_set),
		cmocka_unit_test(test_exclusive),
		cmocka_unit_test(test_override),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
