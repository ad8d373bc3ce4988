/* test_profile.c - table-driven tests for profile_load: good files, bad ones, the built-ins. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "profile.h"
#include "settings_diff.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static char dir[256];	/* a private temporary directory */
static char path[300];	/* the profile file of the row under test, in dir */

/* Write len bytes of text to the row's file. */
static void save(const char *text, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(text, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* Workload names of a group, comma-separated. */
static void group_tests(const struct profile_group *g, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = 0;
	for (unsigned i = 0; i < g->nwl && used < len; i++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "",
					 g->wls[i]->name);
}

/* ---- good profiles: what every group's settings become ------------------ */

struct want_group {
	const char *name;
	unsigned line;		/* of its [NAME] header */
	const char *tests;	/* its workloads, comma-separated */
	const char *diff;	/* its settings that are not the defaults (settings_diff.h) */
};

struct good_row {
	const char *what;
	const char *text;
	const char *description;
	const char *diff;	/* [profile]'s settings that are not the defaults */
	struct want_group groups[5];	/* up to the first with a NULL name */
};

#define X10 "xxxxxxxxxx"
#define X50 X10 X10 X10 X10 X10

static const struct good_row good_rows[] = {
	{
		.what = "defaults < [profile] < group",
		.text = "[profile]\n"
			"description = precedence\n"
			"runtime = 2s\n"
			"bs = 64k\n"
			"qd = 4\n"
			"jobs = 2\n"
			"\n"
			"[override]\n"
			"test = seq-read\n"
			"runtime = 500ms\n"
			"bs = 4k,8k\n"
			"seed = 7\n"
			"\n"
			"[inherit]\n"
			"test = rand-read, rand-write\n",
		.description = "precedence",
		.diff = "bs=64k qd=4 jobs=2 runtime=2s",
		.groups = {
			{ "override", 8, "seq-read", "bs=4k,8k qd=4 jobs=2 runtime=500ms seed=7" },
			{ "inherit", 14, "rand-read,rand-write", "bs=64k qd=4 jobs=2 runtime=2s" },
		},
	},
	{
		.what = "[profile] after the groups still sits below them",
		.text = "[g]\n"
			"test = seq-write\n"
			"ramp = 0\n"
			"\n"
			"[profile]\n"
			"ramp = 2s\n"
			"size = 1g\n",
		.description = "",
		.diff = "ramp=2s size=1g",
		.groups = {
			{ "g", 1, "seq-write", "ramp=0s size=1g" },
		},
	},
	{
		.what = "direct and buffered, in different sections",
		.text = "[profile]\n"
			"engine = sync\n"
			"buffered = true\n"
			"\n"
			"[inherits buffered]\n"
			"test = seq-read\n"
			"\n"
			"[direct again]\n"
			"test = seq-read\n"
			"direct = yes\n"
			"\n"
			"[buffered off]\n"
			"test = seq-write\n"
			"buffered = off\n"
			"\n"
			"[direct false]\n"
			"test = rand-write\n"
			"direct = 0\n",
		.description = "",
		.diff = "engine=sync direct=false",
		.groups = {
			{ "inherits buffered", 5, "seq-read", "engine=sync direct=false" },
			{ "direct again", 8, "seq-read", "engine=sync" },
			{ "buffered off", 12, "seq-write", "engine=sync" },
			{ "direct false", 16, "rand-write", "engine=sync direct=false" },
		},
	},
	{
		.what = "run-wide keys and the classic workloads' parameters",
		.text = "[profile]\n"
			"repeat = 3\n"
			"max-fill = 50\n"
			"drop-caches = on\n"
			"cpus = 0-2,5\n"
			"label = nightly\n"
			"\n"
			"[meta]\n"
			"test = meta-create, meta-stat, meta-delete\n"
			"files = 1024\n"
			"file-size = 1k-16k\n"
			"dirs = 8\n"
			"fsync = true\n"
			"\n"
			"[chars]\n"
			"test = char-write, char-read\n"
			"char-mode = syscall\n"
			"file-size = 4k\n",
		.description = "",
		.diff = "repeat=3 max-fill=50 drop-caches=true cpus=0,1,2,5 label=nightly",
		.groups = {
			{ "meta", 8, "meta-create,meta-stat,meta-delete",
			  "repeat=3 files=1024 file-size=1k-16k dirs=8 fsync=true max-fill=50 "
			  "drop-caches=true cpus=0,1,2,5 label=nightly" },
			{ "chars", 15, "char-write,char-read",
			  "repeat=3 char-mode=syscall file-size=4k max-fill=50 drop-caches=true "
			  "cpus=0,1,2,5 label=nightly" },
		},
	},
	{
		.what = "BOM, comments, continuation lines, repeated test, ':' and no spaces",
		.text = "\xEF\xBB\xBF; a comment\n"
			"# another\n"
			"[profile]\n"
			"description = syntax ; an inline comment\n"
			"\n"
			"[lists]\n"
			"test = seq-read,\n"
			"  seq-write\n"
			"test = rand-read ,rand-write\n"
			"qd: 1,32\n"
			"bs=4k\n"
			"    ; an indented comment\n"
			"[Sequential Output Per Chr]\n"
			"test = char-write",
		.description = "syntax",
		.diff = "",
		.groups = {
			{ "lists", 6, "seq-read,seq-write,rand-read,rand-write", "bs=4k qd=1,32" },
			{ "Sequential Output Per Chr", 13, "char-write", "" },
		},
	},
	{
		.what = "the longest section name and the longest line",
		.text = "[profile]\n"
			/* 14 + 184 = 198 characters, the most a line may have */
			"description = " X50 X50 X50 X10 X10 X10 "xxxx\n"
			"[" X50 "]\n"
			"test = seq-read\n",
		.description = X50 X50 X50 X10 X10 X10 "xxxx",
		.diff = "",
		.groups = {
			{ X50, 3, "seq-read", "" },
		},
	},
};

static int check_good(const struct good_row *r)
{
	struct profile p;
	char err[512] = "", got[1024];
	unsigned n, bad = 0;
	int rc;

	save(r->text, strlen(r->text));
	rc = profile_load(&p, path, err, sizeof(err));
	if (rc) {
		print_error("%s: profile_load = %d (%s), want 0\n", r->what, rc, err);
		return 1;
	}
	for (n = 0; n < ARRAY_SIZE(r->groups) && r->groups[n].name; n++)
		;
	if (strcmp(p.name, path) || strcmp(p.description, r->description)) {
		print_error("%s: name '%s', description '%s'; want '%s', '%s'\n", r->what,
			    p.name, p.description, path, r->description);
		bad++;
	}
	settings_diff(&p.s, got, sizeof(got));
	if (strcmp(got, r->diff)) {
		print_error("%s: [profile]: '%s', want '%s'\n", r->what, got, r->diff);
		bad++;
	}
	if (p.ngroups != n) {
		print_error("%s: %u groups, want %u\n", r->what, p.ngroups, n);
		bad++;
		n = p.ngroups < n ? p.ngroups : n;
	}
	for (unsigned i = 0; i < n; i++) {
		const struct profile_group *g = &p.groups[i];
		const struct want_group *w = &r->groups[i];

		if (strcmp(g->name, w->name) || g->line != w->line) {
			print_error("%s: group %u is [%s] on line %u, want [%s] on line %u\n",
				    r->what, i, g->name, g->line, w->name, w->line);
			bad++;
		}
		group_tests(g, got, sizeof(got));
		if (strcmp(got, w->tests)) {
			print_error("%s: [%s] tests '%s', want '%s'\n", r->what, w->name, got,
				    w->tests);
			bad++;
		}
		settings_diff(&g->s, got, sizeof(got));
		if (strcmp(got, w->diff)) {
			print_error("%s: [%s]: '%s', want '%s'\n", r->what, w->name, got, w->diff);
			bad++;
		}
	}
	profile_free(&p);
	return bad != 0;
}

static void test_good(void **state)
{
	unsigned bad = 0;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(good_rows); i++)
		bad += check_good(&good_rows[i]);
	assert_int_equal(bad, 0);
}

/* The strings the settings point to belong to the profile, not to the text
 * that was read (profile_load frees it), and profile_free leaves p empty. */
static void test_strings_owned(void **state)
{
	static const char text[] = "[profile]\nengine = sync\nlabel = mine\n"
				   "[g]\ntest = char-read\nchar-mode = stdio\n";
	struct profile p;
	char err[512] = "";

	(void)state;
	save(text, strlen(text));
	assert_int_equal(profile_load(&p, path, err, sizeof(err)), 0);
	assert_int_equal(unlink(path), 0);
	assert_string_equal(p.s.engine, "sync");
	assert_string_equal(p.groups[0].s.engine, "sync");
	assert_string_equal(p.groups[0].s.label, "mine");
	assert_string_equal(p.groups[0].s.char_mode, "stdio");
	assert_null(p.s.char_mode);
	assert_true(opts_given(&p.groups[0].s, "char-mode"));
	assert_true(opts_given(&p.groups[0].s, "engine"));
	assert_false(opts_given(&p.s, "char-mode"));
	profile_free(&p);
	assert_null(p.groups);
	assert_null(p.strings);
	assert_int_equal(p.ngroups, 0);
	assert_int_equal(p.nstrings, 0);
}

/* ---- bad profiles: -EINVAL and "FILE:LINE: message" ---------------------- */

struct bad_row {
	const char *text;
	unsigned line;
	const char *msg;	/* after "FILE:LINE: " */
};

#define G "[g]\ntest = seq-read\n"	/* a valid group, lines 1 and 2 */
#define T4 "test = seq-read\ntest = seq-read\ntest = seq-read\ntest = seq-read\n"
#define T32 T4 T4 T4 T4 T4 T4 T4 T4
#define G4 G G G G
#define G64 G4 G4 G4 G4 G4 G4 G4 G4 G4 G4 G4 G4 G4 G4 G4 G4
#define SIZE_HINT " (use e.g. 4k, 256k, 1m, 1g; k/m/g/t are powers of 1024)"
#define NO_TEST ": no 'test =' line (which workloads this group runs)"

static const struct bad_row bad_rows[] = {
	/* keys that are no option, or not allowed where they are */
	{ G "frobnicate = 1", 3, "unknown key 'frobnicate' (keys are the long options of "
	  "diskbench --help, without the dashes)" },
	{ G "--bs = 4k", 3, "unknown key '--bs' (keys are the long options of "
	  "diskbench --help, without the dashes)" },
	{ "[profile]\ntest = seq-read\n" G, 2,
	  "'test' belongs in a test group ([NAME] section), not in [profile]" },
	{ G "engine = sync", 3, "'engine' applies to the whole run: set it in [profile]" },
	{ G "max-fill = 50", 3, "'max-fill' applies to the whole run: set it in [profile]" },
	{ G "label = x", 3, "'label' applies to the whole run: set it in [profile]" },
	{ "[profile]\njson = x.json\n" G, 2,
	  "'json' is a command-line option only, not a profile key" },
	{ "[profile]\nprofile = quick\n" G, 2,
	  "'profile' is a command-line option only, not a profile key" },
	{ G "destructive = true", 3,
	  "'destructive' is a command-line option only, not a profile key" },
	{ G "quiet = yes", 3, "'quiet' is a command-line option only, not a profile key" },
	{ G "description = a group has none", 3, "unknown key 'description' (keys are the "
	  "long options of diskbench --help, without the dashes)" },
	{ "runtime = 1s\n" G, 1,
	  "'runtime' outside a section (start with [profile] or a [NAME] test group)" },

	/* bad values: the option's own message, without the dashes */
	{ "; c\n" G "bs = 4q", 4, "bs: invalid size '4q'" SIZE_HINT },
	{ G "bs = 4k,,8k", 3, "bs: invalid size '4k,,8k'" SIZE_HINT },
	{ G "bs = 256", 3, "bs: block size out of range (512 to 64m): '256'" },
	{ G "bs = 4k,128m", 3, "bs: block size out of range (512 to 64m): '4k,128m'" },
	{ G "qd = 0", 3, "qd: value out of range: '0'" },
	{ G "jobs = 0", 3, "jobs: value out of range: '0' (1 to 1024)" },
	{ G "jobs = many", 3, "jobs: invalid number 'many'" },
	{ G "runtime = 5x", 3, "runtime: invalid duration '5x' (use e.g. 500ms, 5s, 2m)" },
	{ G "runtime = 0", 3, "runtime: value out of range: '0'" },
	{ G "ramp = 2h", 3, "ramp: value out of range: '2h'" },
	{ G "size = 1k", 3, "size: value out of range: '1k'" },
	{ G "seed = 18446744073709551616", 3,
	  "seed: value out of range: '18446744073709551616'" },
	{ G "direct = maybe", 3, "direct: invalid value 'maybe' (use true or false)" },
	{ G "fsync =", 3, "fsync: invalid value '' (use true or false)" },
	{ G "char-mode = fast", 3, "char-mode: invalid value 'fast' (one of: stdio|syscall)" },
	{ G "char-mode = stdio|syscall", 3,
	  "char-mode: invalid value 'stdio|syscall' (one of: stdio|syscall)" },
	{ G "file-size = 16k-1k", 3, "file-size: invalid size '16k-1k'" SIZE_HINT },
	{ G "file-size = 2t", 3, "file-size: value out of range: '2t'" },
	{ "[profile]\nengine =\n" G, 2, "engine: empty value" },
	{ "[profile]\ncpus = 3-1\n" G, 2, "cpus: invalid CPU list '3-1' (use e.g. 0-3,6)" },
	{ "[profile]\nmax-fill = 101\n" G, 2, "max-fill: value out of range: '101' (1 to 100)" },

	/* a key twice, and keys that contradict each other */
	{ G "bs = 4k\nbs = 8k", 4, "'bs' given twice in [g] (first on line 3)" },
	{ "[profile]\nruntime = 1s\n\nruntime = 2s\n" G, 4,
	  "'runtime' given twice in [profile] (first on line 2)" },
	{ "[profile]\ndescription = a\ndescription = b\n" G, 3,
	  "'description' given twice in [profile]" },
	/* inih hands a continuation line over as the same key once more */
	{ "[profile]\ndescription = one line\n  and another\n" G, 3,
	  "'description' given twice in [profile]" },
	{ G "direct = true\nbuffered = true", 4,
	  "'buffered' and 'direct' (line 3) exclude each other in [g]" },
	{ G "buffered = no\ndirect = no", 4,
	  "'direct' and 'buffered' (line 3) exclude each other in [g]" },
	{ "[profile]\nbuffered = true\ndirect = false\n" G, 3,
	  "'direct' and 'buffered' (line 2) exclude each other in [profile]" },

	/* test = */
	{ "[g]\ntest = seq-read, nope", 2,
	  "test: unknown test 'nope' (see: diskbench list tests)" },
	{ "[g]\ntest = seq-read seq-write", 2,
	  "test: unknown test 'seq-read seq-write' (see: diskbench list tests)" },
	{ "[g]\ntest = " X50 X10 X10, 2,
	  "test: unknown test '" X50 X10 X10 "' (see: diskbench list tests)" },
	{ "[g]\ntest = seq-read,,seq-write", 2, "test: empty name in 'seq-read,,seq-write'" },
	{ "[g]\ntest = ,seq-read", 2, "test: empty name in ',seq-read'" },
	{ "[g]\ntest =", 2, "test: empty name in ''" },
	{ "[g]\n" T32 "test = seq-write\n", 34, "test: too many tests in [g] (at most 32)" },

	/* groups */
	{ G "[empty]\n[h]\ntest = seq-read\n", 3, "[empty]" NO_TEST },
	{ G "[empty]\n", 3, "[empty]" NO_TEST },
	{ G "[empty]", 3, "[empty]" NO_TEST },
	{ "[profile]\nruntime = 1s\n\n[g]\nbs = 4k\n\n" G, 4, "[g]" NO_TEST },
	{ G "[h]\nbs = 4k\n", 3, "[h]" NO_TEST },
	{ "[profile]\ndescription = nothing to run", 2,
	  "no test groups (a [NAME] section with test = WORKLOAD[,...])" },
	{ "[profile]\n", 1, "no test groups (a [NAME] section with test = WORKLOAD[,...])" },
	{ "", 1, "no test groups (a [NAME] section with test = WORKLOAD[,...])" },
	{ "; only a comment\n", 1, "no test groups (a [NAME] section with test = WORKLOAD[,...])" },
	{ G64 G, 129, "too many test groups (at most 64)" },

	/* syntax */
	{ "[g\ntest = seq-read\n", 1,
	  "syntax error (want [SECTION], KEY = VALUE, or a comment starting with ; or #)" },
	{ G "[h\ntest = seq-write\n", 3,
	  "syntax error (want [SECTION], KEY = VALUE, or a comment starting with ; or #)" },
	{ G "this is not ini", 3,
	  "syntax error (want [SECTION], KEY = VALUE, or a comment starting with ; or #)" },
	/* inih takes "= 4k" for a key without a name */
	{ G "= 4k", 3, "unknown key '' (keys are the long options of diskbench --help, "
	  "without the dashes)" },
	{ "[]\ntest = seq-read\n", 1, "empty section name" },
	{ "[" X50 "x]\ntest = seq-read\n", 1, "section name too long (at most 50 characters)" },
	{ G "  [h]\ntest = seq-read\n", 3,
	  "a section header must start at the beginning of its line" },
	/* inih reads lines into 200 bytes: a line of 199 characters is one too
	 * many, so a description of more than 184 can never be read. */
	{ "[profile]\ndescription = " X50 X50 X50 X10 X10 X10 "xxxxx\n" G, 2,
	  "line too long (at most 198 characters)" },
	{ "[profile]\ndescription = " X50 X50 X50 X50 X50 X10 "\n" G, 2,
	  "line too long (at most 198 characters)" },
	{ G "bs = 4k\n; " X50 X50 X50 X10 X10 X10 X10 "xxxxxxx", 4,
	  "line too long (at most 198 characters)" },
};

static void test_bad(void **state)
{
	struct profile p;
	char err[512], want[700];
	unsigned bad = 0;
	int rc;

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(bad_rows); i++) {
		const struct bad_row *r = &bad_rows[i];

		snprintf(want, sizeof(want), "%s:%u: %s", path, r->line, r->msg);
		save(r->text, strlen(r->text));
		memset(&p, 0x5a, sizeof(p));
		err[0] = 0;
		rc = profile_load(&p, path, err, sizeof(err));
		if (rc != -EINVAL || strcmp(err, want)) {
			print_error("row %zu: profile_load = %d, '%s'\n"
				    "        want %d, '%s'\n", i, rc, err, -EINVAL, want);
			bad++;
		}
		if (!rc)
			profile_free(&p);
		else if (p.groups || p.strings || p.ngroups || p.nstrings) {
			print_error("row %zu: failed, but left something to free\n", i);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

/* Files that are no profile text, and names that are no profile. */
static void test_bad_files(void **state)
{
	struct profile p;
	char err[512], want[700], sub[300];
	char *big;

	(void)state;
	save("[g]\0test = seq-read\n", 20);
	assert_int_equal(profile_load(&p, path, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s:1: a NUL byte: not a text file", path);
	assert_string_equal(err, want);

	big = malloc((1u << 20) + 1);
	assert_non_null(big);
	memset(big, '\n', (1u << 20) + 1);
	memcpy(big, G, strlen(G));
	save(big, (1u << 20) + 1);
	free(big);
	assert_int_equal(profile_load(&p, path, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s: too big for a profile (more than 1048576 bytes)", path);
	assert_string_equal(err, want);

	snprintf(sub, sizeof(sub), "%s/missing.ini", dir);
	assert_int_equal(profile_load(&p, sub, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "--profile: cannot read '%s': No such file or directory",
		 sub);
	assert_string_equal(err, want);

	snprintf(sub, sizeof(sub), "%s/", dir);
	assert_int_equal(profile_load(&p, sub, err, sizeof(err)), -EIO);
	snprintf(want, sizeof(want), "--profile: cannot read '%s': Is a directory", sub);
	assert_string_equal(err, want);

	assert_int_equal(profile_load(&p, "nope", err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "--profile: unknown profile 'nope' (see: diskbench list "
			    "profiles; a file needs a '/' or the .ini suffix)");
	/* Neither a built-in nor, without a '/' or .ini, a file. */
	assert_int_equal(profile_load(&p, "quick.txt", err, sizeof(err)), -ENOENT);
}

/* ---- the built-in profiles ------------------------------------------------ */

static void test_builtins(void **state)
{
	static const char *const names[] = {
		"quick", "bonnie", "hdparm", "xbench", "crystal", "crystal-nvme", "devbuild",
	};
	const struct profile_text *b;
	size_t n, found = 0;
	unsigned bad = 0;

	(void)state;
	b = profile_builtins(&n);
	assert_true(n >= ARRAY_SIZE(names));
	assert_string_equal(b[0].name, "quick");	/* the default plan comes first */
	for (size_t i = 0; i < n; i++) {
		struct profile p;
		char err[512] = "", desc[256];
		unsigned with_tests = 0;
		int rc;

		for (size_t k = 0; k < ARRAY_SIZE(names); k++)
			found += !strcmp(names[k], b[i].name);
		rc = profile_load(&p, b[i].name, err, sizeof(err));
		if (rc) {
			print_error("built-in %s: profile_load = %d (%s)\n", b[i].name, rc, err);
			bad++;
			continue;
		}
		for (unsigned g = 0; g < p.ngroups; g++)
			with_tests += p.groups[g].nwl > 0;
		profile_description(b[i].text, desc, sizeof(desc));
		if (!p.ngroups || with_tests != p.ngroups || strcmp(p.name, b[i].name) ||
		    !p.description[0] || strcmp(desc, p.description)) {
			print_error("built-in %s: %u groups, %u with tests, name '%s', "
				    "description '%s' ('%s' for listing)\n", b[i].name,
				    p.ngroups, with_tests, p.name, p.description, desc);
			bad++;
		}
		profile_free(&p);
	}
	assert_int_equal(found, ARRAY_SIZE(names));
	assert_int_equal(bad, 0);
}

/* quick is the default plan: its shape as quick.ini's comments describe it. */
static void test_builtin_quick(void **state)
{
	struct profile p;
	char err[512] = "", got[512];

	(void)state;
	assert_int_equal(profile_load(&p, "quick", err, sizeof(err)), 0);
	assert_int_equal(p.ngroups, 2);
	group_tests(&p.groups[0], got, sizeof(got));
	assert_string_equal(got, "seq-read,seq-write");
	settings_diff(&p.groups[0].s, got, sizeof(got));
	assert_string_equal(got, "bs=1m qd=8");
	group_tests(&p.groups[1], got, sizeof(got));
	assert_string_equal(got, "rand-read,rand-write");
	settings_diff(&p.groups[1].s, got, sizeof(got));
	assert_string_equal(got, "bs=4k qd=1,32");
	profile_free(&p);
}

struct path_row {
	const char *arg;
	bool path;
};

static void test_is_path(void **state)
{
	static const struct path_row rows[] = {
		{ "quick", false }, { "crystal-nvme", false }, { "quick.ini", true },
		{ "./quick", true }, { "/etc/x", true }, { ".ini", false }, { "a.ini", true },
		{ "x.INI", false }, { "ini", false },
	};

	(void)state;
	for (size_t i = 0; i < ARRAY_SIZE(rows); i++)
		if (profile_is_path(rows[i].arg) != rows[i].path)
			fail_msg("profile_is_path(\"%s\") != %d", rows[i].arg, rows[i].path);
}

static int setup(void **state)
{
	const char *tmp = getenv("TMPDIR");

	(void)state;
	snprintf(dir, sizeof(dir), "%s/test_profile.XXXXXX", tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/p.ini", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_good),
		cmocka_unit_test(test_strings_owned),
		cmocka_unit_test(test_bad),
		cmocka_unit_test(test_bad_files),
		cmocka_unit_test(test_builtins),
		cmocka_unit_test(test_builtin_quick),
		cmocka_unit_test(test_is_path),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
