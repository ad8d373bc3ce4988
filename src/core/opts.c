/* opts.c - the option table and the one parser built from it. */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"
#include "parse.h"

enum opt_kind {
	OPT_STR,	/* const char * */
	OPT_OPT_STR,	/* const char *, optional value: "" when given bare */
	OPT_SIZE,	/* uint64_t bytes */
	OPT_DURATION,	/* uint64_t ns */
	OPT_COUNT,	/* uint64_t in [min, max] */
	OPT_SIZE_LIST,	/* uint64_t[] + size_t count right after */
	OPT_COUNT_LIST,
	OPT_CPU_LIST,
	OPT_SET_INT,	/* flag: int field = min */
	OPT_SET_BOOL,	/* flag: bool field = true */
};

struct opt_def {
	const char *name;
	const char *arg;	/* metavar for --help; NULL for flags */
	enum opt_kind kind;
	size_t off;		/* field in struct settings */
	size_t count_off;	/* list kinds: the count field */
	uint64_t min, max;
	bool echo;		/* shapes results: echoed into every report */
	const char *help;
};

#define F(field) offsetof(struct settings, field)
#define NONE 0

static const struct opt_def opt_table[] = {
	{ "engine", "NAME", OPT_STR, F(engine), NONE, 0, 0, true,
	  "io_uring, libaio, sync, direct, null or auto (default: auto)" },
	{ "test", "LIST", OPT_STR, F(tests), NONE, 0, 0, true,
	  "workloads to run: seq-read,seq-write,rand-read,rand-write" },
	{ "bs", "LIST", OPT_SIZE_LIST, F(bs), F(nbs), 512, 64u << 20, true,
	  "block sizes, e.g. 4k,256k,1m (default: 1m seq, 4k rand)" },
	{ "qd", "LIST", OPT_COUNT_LIST, F(qd), F(nqd), 1, 4096, true,
	  "queue depths per job, e.g. 1,32 (default: 8 seq, 1 and 32 rand)" },
	{ "jobs", "N", OPT_COUNT, F(jobs), NONE, 1, 1024, true,
	  "worker threads per test, each with its own queue (default: 1)" },
	{ "runtime", "TIME", OPT_DURATION, F(runtime_ns), NONE, 1000000, 86400ull * 1000000000, true,
	  "measured time per test: 500ms, 5s, 2m (default: 5s)" },
	{ "ramp", "TIME", OPT_DURATION, F(ramp_ns), NONE, 0, 3600ull * 1000000000, true,
	  "unmeasured warm-up per test (default: 1s)" },
	{ "size", "SIZE", OPT_SIZE, F(size), NONE, 4096, UINT64_MAX, true,
	  "working set, e.g. 1g (default: 1g in a directory, all of a device or file)" },
	{ "seed", "N", OPT_COUNT, F(seed), NONE, 0, UINT64_MAX, true,
	  "seed for random offsets and data (default: 42)" },
	{ "direct", NULL, OPT_SET_INT, F(direct), NONE, 1, 0, true,
	  "O_DIRECT: bypass the page cache (default)" },
	{ "buffered", NULL, OPT_SET_INT, F(direct), NONE, 0, 0, false,
	  "go through the page cache (its pages are dropped before each test)" },
	{ "destructive", "[=DEV]", OPT_OPT_STR, F(destructive), NONE, 0, 0, true,
	  "allow writes to a device or an existing file; =DEV also overrides a signature" },
	{ "max-fill", "PCT", OPT_COUNT, F(max_fill), NONE, 1, 100, true,
	  "never fill a directory's file system past PCT percent (default: 90)" },
	{ "drop-caches", NULL, OPT_SET_BOOL, F(drop_caches), NONE, 0, 0, true,
	  "sync and drop the page cache before each test (root)" },
	{ "cpus", "LIST", OPT_CPU_LIST, F(cpus), F(ncpus), 0, 0, true,
	  "pin job i to the i-th CPU of a list like 0-3,6" },
	{ "label", "TEXT", OPT_STR, F(label), NONE, 0, 0, false,
	  "a label stored in the report" },
	{ "json", "FILE", OPT_STR, F(json), NONE, 0, 0, false,
	  "write the result as JSON to FILE (- = stdout)" },
	{ "quiet", NULL, OPT_SET_BOOL, F(quiet), NONE, 0, 0, false,
	  "no progress, no table on stdout" },
	{ "help", NULL, OPT_SET_BOOL, F(help), NONE, 0, 0, false, "this help" },
	{ "version", NULL, OPT_SET_BOOL, F(version), NONE, 0, 0, false, "print the version" },
};
#define NOPTS (sizeof(opt_table) / sizeof(opt_table[0]))

void opts_defaults(struct settings *s)
{
	memset(s, 0, sizeof(*s));
	s->engine = "auto";
	s->jobs = 1;
	s->runtime_ns = 5ull * 1000000000;
	s->ramp_ns = 1ull * 1000000000;
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

/* Apply one option's value to s. Returns 0 or -errno with err set. */
static int opt_apply(const struct opt_def *o, struct settings *s, const char *val,
		     char *err, size_t errlen)
{
	char *base = (char *)s;
	uint64_t *u64 = (uint64_t *)(base + o->off);
	size_t *cnt = (size_t *)(base + o->count_off);
	int ret = 0;

	switch (o->kind) {
	case OPT_STR:
		if (!*val) {
			snprintf(err, errlen, "--%s: empty value", o->name);
			return -EINVAL;
		}
		*(const char **)(base + o->off) = val;
		return 0;
	case OPT_OPT_STR:
		*(const char **)(base + o->off) = val;
		return 0;
	case OPT_SET_INT:
		*(int *)(base + o->off) = (int)o->min;
		return 0;
	case OPT_SET_BOOL:
		*(bool *)(base + o->off) = true;
		return 0;
	case OPT_SIZE:
		ret = parse_size(val, u64);
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
		snprintf(err, errlen, "--%s: invalid %s '%s'%s", o->name, noun, val, hint);
		return ret;
	}
	if (ret < 0) {
		snprintf(err, errlen, "--%s: value out of range: '%s'", o->name, val);
		return ret;
	}
	/* Range checks the parsers cannot know about. */
	if (o->kind == OPT_SIZE || o->kind == OPT_DURATION) {
		if (*u64 < o->min || *u64 > o->max) {
			snprintf(err, errlen, "--%s: value out of range: '%s'", o->name, val);
			return -ERANGE;
		}
	}
	if (o->kind == OPT_SIZE_LIST) {
		for (size_t i = 0; i < *cnt; i++) {
			if (u64[i] < o->min || u64[i] > o->max) {
				snprintf(err, errlen, "--%s: block size out of range (512 to 64m): '%s'",
					 o->name, val);
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
	optind = 1;
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
		if (opt_apply(&opt_table[c - 256], s, optarg ? optarg : "", err, errlen) < 0)
			return -EINVAL;
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
		if (!val[0])
			continue;
		result_add_setting(r, o->name, "%s", val);
	}
}
