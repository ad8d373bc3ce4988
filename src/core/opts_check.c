/* opts_check.c - the rules between options: what needs what, what excludes what. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"
#include "opts_int.h"

/* What a rule asks of its option (when the option is set, in the run's
 * settings: a profile may set it as well as the command line). */
enum rule_kind {
	NEEDS,		/* also the option other */
	ONE_PASS,	/* no --repeat above 1: msg says why */
	ROOT,		/* root: msg is the whole message */
	MOVES_DATA,	/* an engine that moves data: msg says why */
};

struct rule {
	const char *opt;
	enum rule_kind kind;
	const char *other;	/* NEEDS */
	const char *msg;	/* NEEDS: none, "--OPT: only with --OTHER" */
};

/*
 * In the order they are checked: the first broken one is said. Between
 * the two --precondition rules and the rest, --precondition turns
 * --steady-state on (opts_check).
 */
static const struct rule rules_pre[] = {
	{ "drop-caches", ROOT, NULL,
	  "--drop-caches: needs root (it writes /proc/sys/vm/drop_caches)" },
	{ "precondition-size", NEEDS, "precondition", NULL },
	{ "precondition", ONE_PASS, NULL,
	  "runs each test in steady-state rounds" },
	{ "precondition", MOVES_DATA, NULL,
	  "it cannot write the device" },
};

static const struct rule rules_post[] = {
	{ "round", NEEDS, "steady-state", NULL },
	{ "lat-log-max", NEEDS, "lat-log", NULL },
	{ "max-rounds", NEEDS, "steady-state", NULL },
	{ "steady-state", ONE_PASS, NULL,
	  "runs each test in rounds itself" },
	{ "verify", MOVES_DATA, NULL,
	  "there is nothing to read back" },
	{ "trim", ROOT, NULL, "--trim: needs root (FITRIM and BLKDISCARD do)" },
};

/* Is the run's row of name set to anything but nothing (opt_is_on)? A
 * profile may set it as well as the command line. */
static bool is_on(const struct settings *s, const char *name)
{
	for (size_t i = 0; i < opts_nrows; i++)
		if (!strcmp(opts_rows[i].name, name) && (opts_rows[i].cmds & OPTS_CMD_RUN))
			return opt_is_on(&opts_rows[i], s);
	return false;
}

/* The first rule of r[0..n) that s breaks: -EINVAL with err said. */
static int check_rules(const struct rule *r, size_t n, const struct settings *s,
		       const struct engine_ops *e, bool root, char *err, size_t errlen)
{
	for (size_t i = 0; i < n; i++) {
		if (!is_on(s, r[i].opt))
			continue;
		switch (r[i].kind) {
		case NEEDS:
			if (is_on(s, r[i].other))
				continue;
			snprintf(err, errlen, "--%s: only with --%s", r[i].opt, r[i].other);
			return -EINVAL;
		case ONE_PASS:
			if (s->repeat <= 1)
				continue;
			snprintf(err, errlen, "--%s %s: it does not take --repeat %" PRIu64,
				 r[i].opt, r[i].msg, s->repeat);
			return -EINVAL;
		case ROOT:
			if (root)
				continue;
			snprintf(err, errlen, "%s", r[i].msg);
			return -EINVAL;
		case MOVES_DATA:
			if (!(e->flags & ENGINE_F_NO_IO))
				continue;
			snprintf(err, errlen, "--%s: the %s engine moves no data: %s", r[i].opt,
				 e->name, r[i].msg);
			return -EINVAL;
		}
	}
	return 0;
}

int opts_check(struct settings *s, const struct settings *cli, const struct engine_ops *e,
	       bool root, char *err, size_t errlen)
{
	int ret;

	/* given on the command line: a profile's buffered tests are the
	 * profile's to answer for (plan_build refuses them per test) */
	if (!s->direct && opts_given(cli, "buffered") &&
	    (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY))) {
		snprintf(err, errlen, "--buffered: the %s engine only works with O_DIRECT "
			 "(use --engine io_uring or sync for buffered I/O)", e->name);
		return -EINVAL;
	}
	if (e->flags & ENGINE_F_FORCE_DIRECT)
		s->direct = 1;
	ret = check_rules(rules_pre, sizeof(rules_pre) / sizeof(rules_pre[0]), s, e, root, err,
			  errlen);
	if (ret)
		return ret;
	/* the SNIA PTS: after the device is written, each test until steady */
	if (s->precondition)
		s->steady_state = true;
	ret = check_rules(rules_post, sizeof(rules_post) / sizeof(rules_post[0]), s, e, root, err,
			  errlen);
	if (ret)
		return ret;
	if (s->steady_state && s->max_rounds && s->max_rounds < 5) {
		snprintf(err, errlen, "--max-rounds %" PRIu64 ": a steady-state window is 5 rounds, "
			 "more than the round limit", s->max_rounds);
		return -EINVAL;
	}
	return 0;
}
