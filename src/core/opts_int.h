/* opts_int.h - the option table's row, shared by the parser (opts.c) and the table (opts_table.c). */
#ifndef DISKBENCH_OPTS_INT_H
#define DISKBENCH_OPTS_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "opts.h"

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
	OPT_PERCENT,	/* double, the fraction: "3" or "3%" is 0.03; min, max in
			 * percent, max excluded when max_open */
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
	bool echo_set;		/* echoed only when set (opt_is_on): an unset count
				 * or flag of the classic workloads says nothing, nor
				 * does an unset interval (each timeline says its own) */
	enum opt_scope scope;
	unsigned cmds;		/* OPTS_CMD_* bits: the subcommands that take it */
	bool max_open;		/* OPT_PERCENT: max itself is out of range */
	const char *help;	/* one line of --help */
	/* The man page's and doc/options.md's text (opts_doc), in a little
	 * markdown: `code`, *emphasis*, [text](link.md); NULL: the help line.
	 * with_prev: documented in one entry with the row before. */
	const char *doc;
	bool with_prev;
	/* A bad value's message after "--NAME: 'VALUE' " ("is not a size of
	 * 1k or more"); NULL: the kind's ("--NAME: invalid size ..."). */
	const char *bad;
};

/* The rows, in --help order. A name may have one row per set of
 * subcommands (--json is a run's result, tune's sweep, compare's
 * comparison): the rows of one name never share a subcommand, and share
 * their arg. */
/* Is row o set in s to anything but nothing: a flag on, a number above 0,
 * a string, a list of one or more? */
bool opt_is_on(const struct opt_def *o, const struct settings *s);

extern const struct opt_def opts_rows[];
extern const size_t opts_nrows;


#endif
