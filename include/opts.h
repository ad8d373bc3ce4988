/* opts.h - the one option table: parsing, --help, profile keys, settings echo. */
#ifndef DISKBENCH_OPTS_H
#define DISKBENCH_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "result.h"

#define OPTS_MAX_LIST 16
#define OPTS_MAX_CPUS 256

/* Every setting a run can have. Strings point into argv (not owned). A
 * field that is still at its "unset" value means "use the default". */
struct settings {
	const char *engine;	/* "auto" */
	const char *tests;	/* comma list of workloads; NULL = default plan */
	uint64_t bs[OPTS_MAX_LIST];	/* bytes; nbs == 0: per-workload default */
	size_t nbs;
	uint64_t qd[OPTS_MAX_LIST];	/* nqd == 0: per-workload default */
	size_t nqd;
	uint64_t jobs;		/* worker threads per test */
	uint64_t runtime_ns;	/* measured phase per test */
	uint64_t ramp_ns;	/* warm-up per test, not measured */
	uint64_t size;		/* working set, bytes; 0 = default for the target */
	uint64_t seed;
	int direct;		/* 1 O_DIRECT (default), 0 buffered */
	int cpus[OPTS_MAX_CPUS];
	size_t ncpus;
	const char *destructive; /* NULL: not given; "": --destructive; else
				  * the device named by --destructive=DEV */
	uint64_t max_fill;	/* percent a directory's fs may be filled to */
	bool drop_caches;	/* sync + drop the page cache before each test */
	const char *json;	/* file, "-" = stdout, NULL = none */
	const char *label;
	bool quiet;
	bool help, version;
};

/* Defaults: engine auto, jobs 1, runtime 5s, ramp 1s, seed 42, direct,
 * max-fill 90. */
void opts_defaults(struct settings *s);

/*
 * Parse argv[first..] into s (which holds defaults or a profile's values:
 * the command line overrides them). Non-option arguments are returned in
 * *positional (pointers into argv, at most maxpos; *npos set). Returns 0, or
 * -EINVAL with a one-line message naming the option and the bad value in
 * err ("--bs: invalid size '4q' (use e.g. 4k, 256k, 1m)"). Never prints.
 */
int opts_parse(struct settings *s, int argc, char **argv, const char **positional,
	       size_t maxpos, size_t *npos, char *err, size_t errlen);

/* Write the options' help lines (one per option, from the table) to f. */
void opts_help(FILE *f);

/* Echo every option's effective value into the result's settings. */
void opts_echo(const struct settings *s, struct run_result *r);

#endif
