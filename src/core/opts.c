/* opts.c - the option table and the one parser built from it. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opts.h"
#include "parse.h"
#include "repeat.h"

enum opt_kind {
	OPT_STR,	/* const char * */
	OPT_OPT_STR,	/* const char *, optional value: "" when given bare */
	OPT_CHOICE,	/* const char *, one of the '|'-separated words of arg */
	OPT_SIZE,	/* uint64_t bytes */
	OPT_SIZE_RANGE,	/* uint64_t[2] min, max from "SIZE" or "MIN-MAX"; count = 2 */
	OPT_DURATION,	/* uint64_t ns */
	OPT_COUNT,	/* uint64_t in [min, max] */
	OPT_SIZE_LIST,	/* uint64_t[] + size_t count right after */
	OPT_COUNT_LIST,
	OPT_CPU_LIST,
	OPT_SET_INT,	/* flag: int field = min */
	OPT_SET_BOOL,	/* flag: bool field = true */
};

/* Where an option may be set besides the command line. */
enum opt_scope {
	SC_CLI,		/* command line only: what to do with this run's output
			 * or safety, never something a profile file decides */
	SC_RUN,		/* also [profile]: one value for the whole run */
	SC_TEST,	/* also [profile] and test groups */
	SC_GROUP,	/* also test groups, not [profile] ("test") */
};

struct opt_def {
	const char *name;
	const char *arg;	/* metavar for --help; NULL for flags */
	enum opt_kind kind;
	size_t off;		/* field in struct settings */
	size_t count_off;	/* list kinds: the count field */
	uint64_t min, max;
	bool echo;		/* shapes results: echoed into every report */
	enum opt_scope scope;
	const char *help;
};

#define F(field) offsetof(struct settings, field)
#define SEC 1000000000ull

/*
 * One row per option, in --help order. Fields left out are zero: no count
 * field, no range, not echoed. scope is always spelled out, SC_CLI too: it
 * decides what a profile file may set. An OPT_SET_INT flag stores .min in
 * its field, which is why "buffered" spells out .min = 0.
 */
static const struct opt_def opt_table[] = {
	{ .name = "profile", .arg = "NAME|FILE", .kind = OPT_STR, .off = F(profile),
	  .echo = true, .scope = SC_CLI,
	  .help = "the plan: a profile of 'diskbench list profiles' or an .ini file "
		  "(default: quick)" },
	{ .name = "engine", .arg = "NAME", .kind = OPT_STR, .off = F(engine),
	  .echo = true, .scope = SC_RUN,
	  .help = "io_uring, libaio, sync, direct, null or auto (default: auto)" },
	{ .name = "test", .arg = "LIST", .kind = OPT_STR, .off = F(tests),
	  .echo = true, .scope = SC_GROUP,
	  .help = "only these workloads, with the profile's settings (see: diskbench list tests)" },
	{ .name = "bs", .arg = "LIST", .kind = OPT_SIZE_LIST, .off = F(bs), .count_off = F(nbs),
	  .min = 512, .max = 64u << 20, .echo = true, .scope = SC_TEST,
	  .help = "block sizes, e.g. 4k,256k,1m (default: the profile's, else 1m seq, 4k rand)" },
	{ .name = "qd", .arg = "LIST", .kind = OPT_COUNT_LIST, .off = F(qd), .count_off = F(nqd),
	  .min = 1, .max = 4096, .echo = true, .scope = SC_TEST,
	  .help = "queue depths per job, e.g. 1,32 (default: the profile's, else 1)" },
	{ .name = "jobs", .arg = "N", .kind = OPT_COUNT, .off = F(jobs),
	  .min = 1, .max = 1024, .echo = true, .scope = SC_TEST,
	  .help = "jobs per test, each with its own queue; two or more are processes of "
		  "their own (default: 1)" },
	{ .name = "runtime", .arg = "TIME", .kind = OPT_DURATION, .off = F(runtime_ns),
	  .min = 1000000, .max = 86400 * SEC, .echo = true, .scope = SC_TEST,
	  .help = "measured time per test: 500ms, 5s, 2m (default: 5s)" },
	{ .name = "ramp", .arg = "TIME", .kind = OPT_DURATION, .off = F(ramp_ns),
	  .max = 3600 * SEC, .echo = true, .scope = SC_TEST,
	  .help = "unmeasured warm-up per test (default: 1s)" },
	{ .name = "settle", .arg = "TIME", .kind = OPT_DURATION, .off = F(settle_ns),
	  .max = 60 * SEC, .echo = true, .scope = SC_TEST,
	  .help = "before each test, sync() and stay idle this long, as hdparm does before it "
		  "times (default: 0; the hdparm profile: 3s)" },
	{ .name = "interval", .arg = "TIME", .kind = OPT_DURATION, .off = F(interval_ns),
	  .min = TIMELINE_MIN_INTERVAL_NS, .max = 86400 * SEC, .echo = true, .scope = SC_TEST,
	  .help = "timeline interval (default: 1s; runtime/10 under 10s, at least 100ms)" },
	{ .name = "repeat", .arg = "N", .kind = OPT_COUNT, .off = F(repeat),
	  .min = 1, .max = REPEAT_MAX, .echo = true, .scope = SC_RUN,
	  .help = "run the whole plan N times, in passes; report the median (default: 1)" },
	{ .name = "size", .arg = "SIZE", .kind = OPT_SIZE, .off = F(size),
	  .min = 4096, .max = UINT64_MAX, .echo = true, .scope = SC_TEST,
	  .help = "working set, e.g. 1g (default: 1g in a directory, all of a device or file)" },
	{ .name = "seed", .arg = "N", .kind = OPT_COUNT, .off = F(seed),
	  .max = UINT64_MAX, .echo = true, .scope = SC_TEST,
	  .help = "seed for random offsets and data (default: 42)" },
	/* Two flags on one field: giving both is a contradiction (opts_exclusive). */
	{ .name = "direct", .kind = OPT_SET_INT, .off = F(direct),
	  .min = 1, .echo = true, .scope = SC_TEST,
	  .help = "O_DIRECT: bypass the page cache (default)" },
	{ .name = "buffered", .kind = OPT_SET_INT, .off = F(direct),
	  .min = 0, .scope = SC_TEST,
	  .help = "go through the page cache as if the file were larger than RAM (drop-behind)" },
	{ .name = "data", .arg = "random|zero", .kind = OPT_CHOICE, .off = F(data),
	  .echo = true, .scope = SC_TEST,
	  .help = "what block tests write: incompressible (default) or zeros, which "
		  "compression and dedup shrink" },
	{ .name = "char-mode", .arg = "stdio|syscall", .kind = OPT_CHOICE, .off = F(char_mode),
	  .echo = true, .scope = SC_TEST,
	  .help = "char-*: putc/getc through stdio (default) or one-byte read/write" },
	{ .name = "files", .arg = "N", .kind = OPT_COUNT, .off = F(files),
	  .min = 1, .max = 1u << 30, .echo = true, .scope = SC_TEST,
	  .help = "meta-*: number of files to create, stat and delete" },
	{ .name = "file-size", .arg = "SIZE|MIN-MAX", .kind = OPT_SIZE_RANGE, .off = F(file_size),
	  .count_off = F(nfile_size), .max = 1ull << 40, .echo = true, .scope = SC_TEST,
	  .help = "meta-*: size of each file, or a range, e.g. 0, 4k, 1k-16k" },
	{ .name = "dirs", .arg = "N", .kind = OPT_COUNT, .off = F(dirs),
	  .min = 1, .max = 1u << 20, .echo = true, .scope = SC_TEST,
	  .help = "meta-*: directories the files are spread over" },
	{ .name = "fsync", .kind = OPT_SET_BOOL, .off = F(fsync),
	  .echo = true, .scope = SC_TEST,
	  .help = "meta-*: fsync each file after writing it" },
	{ .name = "destructive", .arg = "[=DEV]", .kind = OPT_OPT_STR, .off = F(destructive),
	  .echo = true, .scope = SC_CLI,
	  .help = "allow writes to a device or an existing file, laying out the read tests' region "
		  "first; =DEV also overrides a signature" },
	{ .name = "max-fill", .arg = "PCT", .kind = OPT_COUNT, .off = F(max_fill),
	  .min = 1, .max = 100, .echo = true, .scope = SC_RUN,
	  .help = "never fill a directory's fs (space, inodes) past PCT % (default: 90)" },
	{ .name = "drop-caches", .kind = OPT_SET_BOOL, .off = F(drop_caches),
	  .echo = true, .scope = SC_RUN,
	  .help = "sync and drop the page cache before each test (root)" },
	{ .name = "trim", .kind = OPT_SET_BOOL, .off = F(trim),
	  .echo = true, .scope = SC_RUN,
	  .help = "discard before each write test: fstrim a directory's fs, or the "
		  "test's range of a device (root)" },
	{ .name = "verify", .kind = OPT_SET_BOOL, .off = F(verify),
	  .echo = true, .scope = SC_RUN,
	  .help = "self-checking writes (offset, seed, crc32c), read back after each write test" },
	{ .name = "hipri", .kind = OPT_SET_BOOL, .off = F(hipri),
	  .echo = true, .scope = SC_RUN,
	  .help = "io_uring: poll for completions, on a device with poll queues (NVMe "
		  "with nvme.poll_queues)" },
	{ .name = "steady-state", .kind = OPT_SET_BOOL, .off = F(steady_state),
	  .echo = true, .scope = SC_RUN,
	  .help = "run each test in rounds until steady (SNIA PTS: 5 rounds within 20 %, "
		  "slope within 10 %)" },
	{ .name = "round", .arg = "TIME", .kind = OPT_DURATION, .off = F(round_ns),
	  .min = 1000000, .max = 86400 * SEC, .echo = true, .scope = SC_RUN,
	  .help = "--steady-state: the length of a round (default: --runtime)" },
	{ .name = "max-rounds", .arg = "N", .kind = OPT_COUNT, .off = F(max_rounds),
	  .min = 1, .max = REPEAT_MAX, .echo = true, .scope = SC_RUN,
	  .help = "--steady-state: give up after N rounds (default: 25)" },
	{ .name = "precondition", .kind = OPT_SET_BOOL, .off = F(precondition),
	  .echo = true, .scope = SC_RUN,
	  .help = "first write the device (or working set) twice over in 128k sequential "
		  "writes, then run each test until steady (SNIA PTS)" },
	{ .name = "precondition-size", .arg = "SIZE", .kind = OPT_SIZE,
	  .off = F(precondition_size), .min = 1u << 20, .max = UINT64_MAX, .echo = true,
	  .scope = SC_RUN,
	  .help = "--precondition: write this much (default: twice the device or working set)" },
	{ .name = "cpus", .arg = "LIST", .kind = OPT_CPU_LIST, .off = F(cpus),
	  .count_off = F(ncpus), .echo = true, .scope = SC_RUN,
	  .help = "pin job i to the i-th CPU of a list like 0-3,6" },
	{ .name = "thread", .kind = OPT_SET_BOOL, .off = F(thread),
	  .echo = true, .scope = SC_RUN,
	  .help = "--jobs: run the jobs as threads of one process (fio's --thread)" },
	{ .name = "scores", .arg = "xbench", .kind = OPT_CHOICE, .off = F(scores),
	  .scope = SC_RUN,
	  .help = "score the tests as Xbench does (against its reference, or --baseline)" },
	{ .name = "figures", .arg = "bonnie|crystal", .kind = OPT_CHOICE, .off = F(figures),
	  .echo = true, .scope = SC_RUN,
	  .help = "also print the classic tool's own table: bonnie++'s layout or "
		  "CrystalDiskMark's grid (the bonnie and crystal profiles say so)" },
	{ .name = "label", .arg = "TEXT", .kind = OPT_STR, .off = F(label),
	  .scope = SC_RUN,
	  .help = "a label stored in the report" },
	{ .name = "json", .arg = "FILE", .kind = OPT_STR, .off = F(json),
	  .scope = SC_CLI,
	  .help = "write the result as JSON to FILE (- = stdout)" },
	{ .name = "csv", .arg = "FILE", .kind = OPT_STR, .off = F(csv),
	  .scope = SC_CLI,
	  .help = "write a CSV row per test to FILE (- = stdout)" },
	{ .name = "bonnie-csv", .arg = "FILE", .kind = OPT_STR, .off = F(bonnie_csv),
	  .scope = SC_CLI,
	  .help = "write bonnie++'s CSV line (for bon_csv2txt, bon_csv2html) to FILE" },
	{ .name = "html", .arg = "FILE", .kind = OPT_STR, .off = F(html),
	  .scope = SC_CLI,
	  .help = "write one self-contained HTML report with charts to FILE" },
	{ .name = "baseline", .arg = "FILE", .kind = OPT_STR, .off = F(baseline),
	  .scope = SC_CLI,
	  .help = "score xbench tests against a saved diskbench result instead of Xbench's" },
	{ .name = "quiet", .kind = OPT_SET_BOOL, .off = F(quiet),
	  .scope = SC_CLI,
	  .help = "no progress or table; warnings stay on stderr (2>/dev/null drops them)" },
	{ .name = "help", .kind = OPT_SET_BOOL, .off = F(help),
	  .scope = SC_CLI,
	  .help = "this help" },
	{ .name = "version", .kind = OPT_SET_BOOL, .off = F(version),
	  .scope = SC_CLI,
	  .help = "print the version" },
};
#define NOPTS (sizeof(opt_table) / sizeof(opt_table[0]))
_Static_assert(NOPTS <= OPTS_MAX_OPTS, "grow OPTS_MAX_OPTS: the given bitmap is too small");

static void mark_given(struct settings *s, size_t i)
{
	s->given[i / 8] |= (uint8_t)(1u << (i % 8));
}

static bool is_given(const struct settings *s, size_t i)
{
	return s->given[i / 8] & (1u << (i % 8));
}

void opts_defaults(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->engine = "auto";
	s->jobs = 1;
	s->runtime_ns = 5ull * 1000000000;
	s->ramp_ns = 1ull * 1000000000;
	s->repeat = 1;
	s->seed = 42;
	s->direct = 1;
	s->max_fill = 90;
}

/* What a value of this kind is, and an example, for error messages. */
static void kind_hint(enum opt_kind k, const char **noun, const char **hint)
{
	*hint = "";
	switch (k) {
	case OPT_SIZE:
	case OPT_SIZE_RANGE:
	case OPT_SIZE_LIST:
		*noun = "size";
		*hint = " (use e.g. 4k, 256k, 1m, 1g; k/m/g/t are powers of 1024)";
		break;
	case OPT_DURATION:
		*noun = "duration";
		*hint = " (use e.g. 500ms, 5s, 2m)";
		break;
	case OPT_COUNT:
	case OPT_COUNT_LIST:
		*noun = "number";
		break;
	case OPT_CPU_LIST:
		*noun = "CPU list";
		*hint = " (use e.g. 0-3,6)";
		break;
	default:
		*noun = "value";
	}
}

/* "a|b|c" contains word exactly? The word "a|b" is none of them, though
 * it matches a stretch of the list. */
static bool choice_ok(const char *choices, const char *word)
{
	size_t n = strlen(word);
	const char *p = choices;

	if (strchr(word, '|'))
		return false;
	while (n && p) {
		if (!strncmp(p, word, n) && (p[n] == '|' || !p[n]))
			return true;
		p = strchr(p, '|');
		if (p)
			p++;
	}
	return false;
}

/* "SIZE", "MIN-MAX" or "MIN:MAX" (as bonnie++ -n) into out[0..1]. */
static int parse_size_range(const char *val, uint64_t out[2])
{
	char buf[64], *dash;
	int ret;

	if (snprintf(buf, sizeof(buf), "%s", val) >= (int)sizeof(buf))
		return -EINVAL;
	dash = strpbrk(buf, "-:");
	if (!dash) {
		ret = parse_size(buf, &out[0]);
		out[1] = out[0];
		return ret;
	}
	*dash = 0;
	ret = parse_size(buf, &out[0]);
	if (!ret)
		ret = parse_size(dash + 1, &out[1]);
	if (!ret && out[0] > out[1])
		ret = -EINVAL;
	return ret;
}

/*
 * Apply one option's value to s; a flag is set (on) or cleared (!on: the
 * opposite value, so "direct = false" means buffered). pfx is "--" on the
 * command line and "" in a profile, for the messages. Returns 0 or -errno
 * with err set.
 */
static int opt_apply(const struct opt_def *o, struct settings *s, const char *val, bool on,
		     const char *pfx, char *err, size_t errlen)
{
	char *base = (char *)s;
	uint64_t *u64 = (uint64_t *)(base + o->off);
	size_t *cnt = (size_t *)(base + o->count_off);
	int ret = 0;

	switch (o->kind) {
	case OPT_STR:
		if (!*val) {
			snprintf(err, errlen, "%s%s: empty value", pfx, o->name);
			return -EINVAL;
		}
		*(const char **)(base + o->off) = val;
		return 0;
	case OPT_OPT_STR:
		*(const char **)(base + o->off) = val;
		return 0;
	case OPT_CHOICE:
		if (!choice_ok(o->arg, val)) {
			snprintf(err, errlen, "%s%s: invalid value '%s' (one of: %s)", pfx,
				 o->name, val, o->arg);
			return -EINVAL;
		}
		*(const char **)(base + o->off) = val;
		return 0;
	case OPT_SET_INT:
		*(int *)(base + o->off) = on ? (int)o->min : !o->min;
		return 0;
	case OPT_SET_BOOL:
		*(bool *)(base + o->off) = on;
		return 0;
	case OPT_SIZE:
		ret = parse_size(val, u64);
		break;
	case OPT_SIZE_RANGE:
		ret = parse_size_range(val, u64);
		if (!ret)
			*cnt = 2;
		break;
	case OPT_DURATION:
		ret = parse_duration(val, u64);
		break;
	case OPT_COUNT:
		ret = parse_count(val, o->min, o->max, u64);
		break;
	case OPT_SIZE_LIST:
		ret = parse_size_list(val, u64, OPTS_MAX_LIST, cnt);
		break;
	case OPT_COUNT_LIST:
		ret = parse_count_list(val, o->min, o->max, u64, OPTS_MAX_LIST, cnt);
		break;
	case OPT_CPU_LIST:
		ret = parse_cpu_list(val, (int *)(base + o->off), OPTS_MAX_CPUS, cnt);
		break;
	}
	if (ret == -EINVAL) {
		const char *noun, *hint;

		kind_hint(o->kind, &noun, &hint);
		snprintf(err, errlen, "%s%s: invalid %s '%s'%s", pfx, o->name, noun, val, hint);
		return ret;
	}
	if (ret < 0 && o->kind == OPT_COUNT && o->max != UINT64_MAX) {
		snprintf(err, errlen, "%s%s: value out of range: '%s' (%" PRIu64 " to %" PRIu64 ")",
			 pfx, o->name, val, o->min, o->max);
		return ret;
	}
	if (ret < 0) {
		snprintf(err, errlen, "%s%s: value out of range: '%s'", pfx, o->name, val);
		return ret;
	}
	/* Range checks the parsers cannot know about. */
	if (o->kind == OPT_SIZE || o->kind == OPT_DURATION || o->kind == OPT_SIZE_RANGE) {
		if (*u64 < o->min || *u64 > o->max ||
		    (o->kind == OPT_SIZE_RANGE && u64[1] > o->max)) {
			snprintf(err, errlen, "%s%s: value out of range: '%s'", pfx, o->name, val);
			return -ERANGE;
		}
	}
	if (o->kind == OPT_SIZE_LIST) {
		for (size_t i = 0; i < *cnt; i++) {
			if (u64[i] < o->min || u64[i] > o->max) {
				snprintf(err, errlen, "%s%s: block size out of range (512 to 64m): '%s'",
					 pfx, o->name, val);
				return -ERANGE;
			}
		}
	}
	return 0;
}

int opts_parse(struct settings *s, int argc, char **argv, const char **positional,
	       size_t maxpos, size_t *npos, char *err, size_t errlen)
{
	struct option lopts[NOPTS + 1];
	size_t i;
	int c, idx;

	for (i = 0; i < NOPTS; i++) {
		lopts[i].name = opt_table[i].name;
		lopts[i].has_arg = opt_table[i].kind == OPT_OPT_STR ? optional_argument :
				   opt_table[i].arg ? required_argument : no_argument;
		lopts[i].flag = NULL;
		lopts[i].val = 256 + (int)i;
	}
	memset(&lopts[NOPTS], 0, sizeof(lopts[NOPTS]));

	*npos = 0;
	/* 0, not 1: glibc then forgets a previous parse as well, which may
	 * have stopped inside a group of short options ("-xh") and would
	 * otherwise go on from there, in an argv that may be gone. */
	optind = 0;
	opterr = 0;
	/* "+" would stop at the first non-option; we allow options after the
	 * target like most GNU tools, so use the default permuting mode. */
	while ((c = getopt_long(argc, argv, ":h", lopts, &idx)) != -1) {
		if (c == 'h') {
			s->help = true;
			continue;
		}
		if (c == '?') {
			if (optopt && optopt < 256)
				snprintf(err, errlen, "unknown option '-%c'", optopt);
			else
				snprintf(err, errlen, "unknown option '%s'", argv[optind - 1]);
			return -EINVAL;
		}
		if (c == ':') {
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		}
		if (c < 256 || c >= 256 + (int)NOPTS) {
			snprintf(err, errlen, "internal error parsing options");
			return -EINVAL;
		}
		if (opt_apply(&opt_table[c - 256], s, optarg ? optarg : "", true, "--", err,
			      errlen) < 0)
			return -EINVAL;
		mark_given(s, (size_t)(c - 256));
	}
	/* Two options that set one field (--direct, --buffered) contradict. */
	for (i = 0; i < NOPTS; i++) {
		for (size_t k = i + 1; k < NOPTS; k++) {
			if (is_given(s, i) && is_given(s, k) && opt_table[i].off == opt_table[k].off) {
				snprintf(err, errlen, "--%s and --%s exclude each other: give one",
					 opt_table[i].name, opt_table[k].name);
				return -EINVAL;
			}
		}
	}
	for (; optind < argc; optind++) {
		if (*npos >= maxpos) {
			snprintf(err, errlen, "unexpected argument '%s'", argv[optind]);
			return -EINVAL;
		}
		positional[(*npos)++] = argv[optind];
	}
	return 0;
}

void opts_help(FILE *f)
{
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *o = &opt_table[i];
		char lhs[40];

		snprintf(lhs, sizeof(lhs), "--%s%s%s", o->name,
			 o->arg && o->kind != OPT_OPT_STR ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-20s %s\n", lhs, o->help);
	}
}

/* Render one option's value as text that the parser reads back. */
static void opt_value(const struct opt_def *o, const struct settings *s, char *buf, size_t len)
{
	const char *base = (const char *)s;
	const uint64_t *u64 = (const uint64_t *)(base + o->off);
	const size_t *cnt = (const size_t *)(base + o->count_off);
	size_t used = 0;
	char tmp[32];

	buf[0] = 0;
	switch (o->kind) {
	case OPT_STR: {
		const char *v = *(const char *const *)(base + o->off);
		snprintf(buf, len, "%s", v ? v : "");
		break;
	}
	case OPT_OPT_STR: {
		const char *v = *(const char *const *)(base + o->off);
		snprintf(buf, len, "%s", !v ? "" : *v ? v : "true");
		break;
	}
	case OPT_CHOICE: {
		const char *v = *(const char *const *)(base + o->off);
		snprintf(buf, len, "%s", v ? v : "");
		break;
	}
	case OPT_SIZE_RANGE:
		if (!*cnt)
			break;
		format_size(u64[0], buf, len);
		if (u64[1] != u64[0]) {
			format_size(u64[1], tmp, sizeof(tmp));
			used = strlen(buf);
			snprintf(buf + used, len - used, "-%s", tmp);
		}
		break;
	case OPT_SET_INT:
		snprintf(buf, len, "%d", *(const int *)(base + o->off));
		break;
	case OPT_SET_BOOL:
		snprintf(buf, len, "%s", *(const bool *)(base + o->off) ? "true" : "false");
		break;
	case OPT_SIZE:
		format_size(*u64, buf, len);
		break;
	case OPT_DURATION:
		if (*u64 % 1000000000 == 0)
			snprintf(buf, len, "%" PRIu64 "s", *u64 / 1000000000);
		else if (*u64 % 1000000 == 0)
			snprintf(buf, len, "%" PRIu64 "ms", *u64 / 1000000);
		else
			snprintf(buf, len, "%" PRIu64 "ns", *u64);
		break;
	case OPT_COUNT:
		snprintf(buf, len, "%" PRIu64, *u64);
		break;
	case OPT_SIZE_LIST:
	case OPT_COUNT_LIST:
		for (size_t i = 0; i < *cnt && used + 1 < len; i++) {
			if (o->kind == OPT_SIZE_LIST)
				format_size(u64[i], tmp, sizeof(tmp));
			else
				snprintf(tmp, sizeof(tmp), "%" PRIu64, u64[i]);
			used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? "," : "", tmp);
		}
		break;
	case OPT_CPU_LIST: {
		const int *cpus = (const int *)(base + o->off);
		for (size_t i = 0; i < *cnt && used + 1 < len; i++)
			used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "",
						 cpus[i]);
		break;
	}
	}
}

void opts_echo(const struct settings *s, struct run_result *r)
{
	char val[128];

	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *o = &opt_table[i];

		if (!o->echo)
			continue;
		opt_value(o, s, val, sizeof(val));
		if (!strcmp(o->name, "direct")) {
			result_add_setting(r, "direct", "%s", s->direct ? "true" : "false");
			continue;
		}
		/* An unset count or flag of the classic workloads says nothing,
		 * nor does an unset interval (each timeline says its own). */
		if (!val[0] || ((o->off == F(files) || o->off == F(dirs)) && !strcmp(val, "0")) ||
		    (o->off == F(fsync) && !s->fsync) || (o->off == F(interval_ns) && !s->interval_ns) ||
		    (o->off == F(settle_ns) && !s->settle_ns) ||
		    (o->off == F(trim) && !s->trim) || (o->off == F(hipri) && !s->hipri) ||
		    (o->off == F(thread) && !s->thread) || (o->off == F(verify) && !s->verify) ||
		    (o->off == F(steady_state) && !s->steady_state) ||
		    (o->off == F(round_ns) && !s->round_ns) ||
		    (o->off == F(max_rounds) && !s->max_rounds) ||
		    (o->off == F(precondition) && !s->precondition) ||
		    (o->off == F(precondition_size) && !s->precondition_size))
			continue;
		result_add_setting(r, o->name, "%s", val);
	}
}

static const struct opt_def *opt_find(const char *key, size_t *idx)
{
	for (size_t i = 0; i < NOPTS; i++) {
		if (!strcmp(opt_table[i].name, key)) {
			*idx = i;
			return &opt_table[i];
		}
	}
	return NULL;
}

/* A flag's value in a profile. */
static int parse_bool(const char *v, bool *out)
{
	static const char *const yes[] = { "true", "yes", "1", "on" };
	static const char *const no[] = { "false", "no", "0", "off" };

	for (size_t i = 0; i < sizeof(yes) / sizeof(yes[0]); i++) {
		if (!strcasecmp(v, yes[i])) {
			*out = true;
			return 0;
		}
		if (!strcasecmp(v, no[i])) {
			*out = false;
			return 0;
		}
	}
	return -EINVAL;
}

int opts_set(struct settings *s, const char *key, const char *value, enum opts_where where,
	     char *err, size_t errlen)
{
	const struct opt_def *o;
	size_t idx;
	bool on = true;
	int ret;

	o = opt_find(key, &idx);
	if (!o) {
		snprintf(err, errlen, "unknown key '%s' (keys are the long options of "
			 "diskbench --help, without the dashes)", key);
		return -ENOENT;
	}
	if (where != OPTS_CLI && o->scope == SC_CLI) {
		snprintf(err, errlen, "'%s' is a command-line option only, not a profile key",
			 key);
		return -EPERM;
	}
	if (where == OPTS_PROFILE && o->scope == SC_GROUP) {
		snprintf(err, errlen, "'%s' belongs in a test group ([NAME] section), not in "
			 "[profile]", key);
		return -EPERM;
	}
	if (where == OPTS_GROUP && o->scope == SC_RUN) {
		snprintf(err, errlen, "'%s' applies to the whole run: set it in [profile]", key);
		return -EPERM;
	}
	if (!o->arg || o->kind == OPT_OPT_STR) {
		if (where == OPTS_CLI && !*value) {
			on = true;
		} else if (parse_bool(value, &on)) {
			snprintf(err, errlen, "%s: invalid value '%s' (use true or false)", key,
				 value);
			return -EINVAL;
		}
		if (o->kind == OPT_OPT_STR)
			value = on ? "" : NULL;
	}
	ret = opt_apply(o, s, value ? value : "", on, where == OPTS_CLI ? "--" : "", err,
			errlen);
	if (ret)
		return ret == -ERANGE ? -EINVAL : ret;
	if (o->kind == OPT_OPT_STR && !value)
		*(const char **)((char *)s + o->off) = NULL;
	mark_given(s, idx);
	return 0;
}

bool opts_exclusive(const char *a, const char *b)
{
	size_t ia, ib;

	return opt_find(a, &ia) && opt_find(b, &ib) && ia != ib &&
	       opt_table[ia].off == opt_table[ib].off;
}

bool opts_given(const struct settings *s, const char *key)
{
	size_t idx;

	return opt_find(key, &idx) && is_given(s, idx);
}

/* Bytes of the value (and of its count) an option of this kind stores. */
static size_t kind_bytes(enum opt_kind k)
{
	switch (k) {
	case OPT_STR:
	case OPT_OPT_STR:
	case OPT_CHOICE:
		return sizeof(const char *);
	case OPT_SIZE:
	case OPT_DURATION:
	case OPT_COUNT:
		return sizeof(uint64_t);
	case OPT_SIZE_RANGE:
		return 2 * sizeof(uint64_t);
	case OPT_SIZE_LIST:
	case OPT_COUNT_LIST:
		return OPTS_MAX_LIST * sizeof(uint64_t);
	case OPT_CPU_LIST:
		return OPTS_MAX_CPUS * sizeof(int);
	case OPT_SET_INT:
		return sizeof(int);
	case OPT_SET_BOOL:
		return sizeof(bool);
	}
	return 0;
}

void opts_override(struct settings *dst, const struct settings *src)
{
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *o = &opt_table[i];

		if (!is_given(src, i))
			continue;
		memcpy((char *)dst + o->off, (const char *)src + o->off, kind_bytes(o->kind));
		if (o->count_off)
			memcpy((char *)dst + o->count_off, (const char *)src + o->count_off,
			       sizeof(size_t));
		mark_given(dst, i);
	}
}
