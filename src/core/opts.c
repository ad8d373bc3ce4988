/* opts.c - the one parser built from the option table (opts_table.c). */
#include <errno.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "opts_int.h"
#include "parse.h"

#define opt_table opts_rows
#define NOPTS opts_nrows

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
	s->noise = -1;
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

/* A percentage in [min, max] (max excluded when max_open) into *out as a
 * fraction. */
static int apply_percent(const struct opt_def *o, double *out, const char *val, const char *pfx,
			 char *err, size_t errlen)
{
	double pct;

	if (parse_percent(val, &pct) || pct < (double)o->min || pct > (double)o->max ||
	    (o->max_open && pct == (double)o->max)) {
		snprintf(err, errlen, "%s%s: '%s' is not a percentage from %" PRIu64 " to %" PRIu64
			 " (e.g. 3)", pfx, o->name, val, o->min, o->max);
		return -EINVAL;
	}
	*out = pct / 100;
	return 0;
}

/*
 * Apply one option's value to s; a flag is set (on) or cleared (!on: the
 * opposite value, so "direct = false" means buffered). pfx is "--" on the
 * command line and "" in a profile, for the messages. Returns 0 or -errno
 * with err set.
 */
static int opt_apply_kind(const struct opt_def *o, struct settings *s, const char *val, bool on,
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
	case OPT_PERCENT:
		return apply_percent(o, (double *)(base + o->off), val, pfx, err, errlen);
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

/* opt_apply_kind, with the row's own message for a bad value. */
static int opt_apply(const struct opt_def *o, struct settings *s, const char *val, bool on,
		     const char *pfx, char *err, size_t errlen)
{
	int ret = opt_apply_kind(o, s, val, on, pfx, err, errlen);

	if (ret && o->bad)
		snprintf(err, errlen, "%s%s: '%s' %s", pfx, o->name, val, o->bad);
	return ret;
}

static const char *const cmd_names[] = { "run", "tune", "compare", "report", "info", "list" };

const char *opts_cmd_name(unsigned cmd)
{
	for (size_t i = 0; i < sizeof(cmd_names) / sizeof(cmd_names[0]); i++)
		if (cmd == 1u << i)
			return cmd_names[i];
	return "?";
}

/* typed ("--trim", "--trim=x", "--tr") is no option of cmd: say which
 * subcommand's it is, if it is spelled whole, else that it is unknown. */
static int refuse(const char *typed, unsigned cmd, char *err, size_t errlen)
{
	size_t n = strcspn(typed + 2, "=");

	for (size_t i = 0; typed[0] == '-' && typed[1] == '-' && i < NOPTS; i++) {
		const struct opt_def *o = &opt_table[i];
		unsigned first = o->cmds & -o->cmds;	/* the lowest bit: run before tune */

		if (strlen(o->name) != n || strncmp(o->name, typed + 2, n))
			continue;
		if (o->cmds & cmd) {	/* "--quiet=yes": its flag takes no value */
			snprintf(err, errlen, "--%s takes no value: '%s'", o->name, typed);
			return -EINVAL;
		}
		snprintf(err, errlen, "--%s is a%s %s option %s does not take", o->name,
			 first == OPTS_CMD_INFO ? "n" : "", opts_cmd_name(first), opts_cmd_name(cmd));
		return -EPERM;
	}
	snprintf(err, errlen, "unknown option '%s'", typed);
	return -EINVAL;
}

/* The option getopt_long matched at argv[optind - 1 or 2], as typed: what
 * was typed must be its whole name (getopt also takes an abbreviation). */
static const char *typed_option(int argc, char **argv)
{
	const char *a = argv[optind - 1];

	if (optarg && optarg == a && optind >= 2 && optind - 2 < argc)
		a = argv[optind - 2];	/* "--bs 4k": the value was the next word */
	return a;
}

static bool spelled_whole(const struct opt_def *o, const char *typed)
{
	size_t n = strlen(o->name);

	return typed[0] == '-' && typed[1] == '-' && !strncmp(typed + 2, o->name, n) &&
	       (typed[2 + n] == '\0' || typed[2 + n] == '=');
}

/* getopt_long's table of cmd's options; map[k] is the row of lopts[k]. */
static void cmd_longopts(unsigned cmd, struct option *lopts, size_t *map)
{
	size_t k = 0;

	for (size_t i = 0; i < NOPTS; i++) {
		if (!(opt_table[i].cmds & cmd))
			continue;
		lopts[k].name = opt_table[i].name;
		lopts[k].has_arg = opt_table[i].kind == OPT_OPT_STR ? optional_argument :
				   opt_table[i].arg ? required_argument : no_argument;
		lopts[k].flag = NULL;
		lopts[k].val = 256 + (int)k;
		map[k++] = i;
	}
	memset(&lopts[k], 0, sizeof(lopts[k]));
}

int opts_parse_cmd(struct settings *s, unsigned cmd, int argc, char **argv,
		   const char **positional, size_t maxpos, size_t *npos, char *err, size_t errlen)
{
	struct option lopts[OPTS_MAX_OPTS + 1];
	size_t map[OPTS_MAX_OPTS], i;
	int c, idx;

	cmd_longopts(cmd, lopts, map);
	*npos = 0;
	/* 0, not 1: glibc then forgets a previous parse as well, which may
	 * have stopped inside a group of short options ("-xh") and would
	 * otherwise go on from there, in an argv that may be gone. */
	optind = 0;
	opterr = 0;
	/* "+" would stop at the first non-option; we allow options after the
	 * target like most GNU tools, so use the default permuting mode.
	 * -q is --quiet where a subcommand has one. */
	while ((c = getopt_long(argc, argv, ":hq", lopts, &idx)) != -1) {
		const struct opt_def *o;

		if (c == 'h') {
			s->help = true;
			continue;
		}
		if (c == 'q' && !(cmd & OPTS_CMD_RUN)) {
			for (i = 0; i < NOPTS; i++)
				if ((opt_table[i].cmds & cmd) && !strcmp(opt_table[i].name, "quiet"))
					mark_given(s, i);
			s->quiet = true;
			continue;
		}
		if (c == '?' || c == 'q') {
			if (c == 'q' || (optopt && optopt < 256)) {
				snprintf(err, errlen, "unknown option '-%c'", c == 'q' ? 'q' : optopt);
				return -EINVAL;
			}
			return refuse(argv[optind - 1], cmd, err, errlen);
		}
		if (c == ':') {
			snprintf(err, errlen, "option '%s' needs a value", argv[optind - 1]);
			return -EINVAL;
		}
		if (c < 256 || c >= 256 + (int)NOPTS) {
			snprintf(err, errlen, "internal error parsing options");
			return -EINVAL;
		}
		o = &opt_table[map[c - 256]];
		if (!spelled_whole(o, typed_option(argc, argv)))
			return refuse(typed_option(argc, argv), cmd, err, errlen);
		if (opt_apply(o, s, optarg ? optarg : "", true, "--", err, errlen) < 0)
			return -EINVAL;
		mark_given(s, map[c - 256]);
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

int opts_parse(struct settings *s, int argc, char **argv, const char **positional,
	       size_t maxpos, size_t *npos, char *err, size_t errlen)
{
	return opts_parse_cmd(s, OPTS_CMD_RUN, argc, argv, positional, maxpos, npos, err, errlen);
}

void opts_help_cmd(FILE *f, unsigned all_of, unsigned none_of)
{
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *o = &opt_table[i];
		char lhs[40];

		if ((o->cmds & all_of) != all_of || (o->cmds & none_of))
			continue;
		snprintf(lhs, sizeof(lhs), "--%s%s%s", o->name,
			 o->arg && o->kind != OPT_OPT_STR ? " " : "", o->arg ? o->arg : "");
		fprintf(f, "  %-20s %s\n", lhs, o->help);
	}
}

void opts_help(FILE *f)
{
	opts_help_cmd(f, OPTS_CMD_RUN, 0);
}

void opts_list(FILE *f)
{
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *o = &opt_table[i];
		unsigned cmds = 0;
		const char *sep = "";

		for (size_t k = 0; k < i && cmds != ~0u; k++)
			if (!strcmp(opt_table[k].name, o->name))
				cmds = ~0u;	/* listed with its first row */
		if (cmds)
			continue;
		for (size_t k = i; k < NOPTS; k++)
			if (!strcmp(opt_table[k].name, o->name))
				cmds |= opt_table[k].cmds;
		fprintf(f, "--%s\t%s\t", o->name, o->arg ? o->arg : "");
		for (size_t b = 0; b < sizeof(cmd_names) / sizeof(cmd_names[0]); b++) {
			if (cmds & (1u << b)) {
				fprintf(f, "%s%s", sep, cmd_names[b]);
				sep = ",";
			}
		}
		fputc('\n', f);
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
	case OPT_PERCENT:
		snprintf(buf, len, "%g", *(const double *)(base + o->off) * 100);
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

bool opt_is_on(const struct opt_def *o, const struct settings *s)
{
	const char *field = (const char *)s + o->off;

	switch (o->kind) {
	case OPT_SET_BOOL:
		return *(const bool *)field;
	case OPT_SET_INT:
		return *(const int *)field != 0;
	case OPT_SIZE:
	case OPT_DURATION:
	case OPT_COUNT:
		return *(const uint64_t *)field != 0;
	case OPT_STR:
	case OPT_OPT_STR:
	case OPT_CHOICE:
		return *(const char *const *)field != NULL;
	case OPT_PERCENT:
		return *(const double *)field >= 0;
	case OPT_SIZE_RANGE:
	case OPT_SIZE_LIST:
	case OPT_COUNT_LIST:
	case OPT_CPU_LIST:
		return *(const size_t *)((const char *)s + o->count_off) != 0;
	}
	return false;
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
		if (!val[0] || (o->echo_set && !opt_is_on(o, s)))
			continue;
		result_add_setting(r, o->name, "%s", val);
	}
}

/* The run's row of option key (the one a profile key names). */
static const struct opt_def *opt_find(const char *key, size_t *idx)
{
	for (size_t i = 0; i < NOPTS; i++) {
		if (!strcmp(opt_table[i].name, key) && (opt_table[i].cmds & OPTS_CMD_RUN)) {
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
	for (size_t i = 0; i < NOPTS; i++)
		if (!strcmp(opt_table[i].name, key) && is_given(s, i))
			return true;
	return false;
}

const char *opts_get_str(const struct settings *s, const char *key)
{
	for (size_t i = 0; i < NOPTS; i++) {
		const struct opt_def *o = &opt_table[i];

		if (!strcmp(o->name, key) && (o->kind == OPT_STR || o->kind == OPT_OPT_STR ||
					      o->kind == OPT_CHOICE))
			return *(const char *const *)((const char *)s + o->off);
	}
	return NULL;
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
	case OPT_PERCENT:
		return sizeof(double);
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
