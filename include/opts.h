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
#define OPTS_MAX_OPTS 128	/* room in the "given" bitmap */

/* Every setting a run can have. Strings point into argv or a loaded profile
 * (not owned). A field that is still at its "unset" value means "use the
 * default". */
struct settings {
	const char *profile;	/* --profile NAME|FILE; NULL = "quick" */
	const char *engine;	/* "auto" */
	const char *tests;	/* comma list of workloads; NULL = the profile's */
	uint64_t bs[OPTS_MAX_LIST];	/* bytes; nbs == 0: per-workload default */
	size_t nbs;
	uint64_t qd[OPTS_MAX_LIST];	/* nqd == 0: per-workload default */
	size_t nqd;
	uint64_t jobs;		/* jobs per test (test_spec.jobs, .procs) */
	uint64_t runtime_ns;	/* measured phase per test */
	uint64_t ramp_ns;	/* warm-up per test, not measured */
	uint64_t settle_ns;	/* before each test: sync() and this long idle, as
				 * hdparm pauses before it times (0: none) */
	uint64_t interval_ns;	/* timeline interval per test; 0 = the default
				 * rule (timeline_interval) */
	uint64_t repeat;	/* passes over the whole plan (1 .. REPEAT_MAX) */
	uint64_t size;		/* working set, bytes; 0 = default for the target */
	uint64_t seed;
	int direct;		/* 1 O_DIRECT (default), 0 buffered */
	/* Parameters of the classic workloads; unset = the workload's default. */
	const char *char_mode;	/* char-*: "stdio" (putc/getc) or "syscall" */
	const char *data;	/* block tests' write data: "random" (default) or
				 * "zero" (compressible) */
	uint64_t files;		/* meta-*: number of files; 0 = unset */
	uint64_t file_size[2];	/* meta-*: min and max bytes of each file */
	size_t nfile_size;	/* 0 = unset, else 2 (min == max for one size) */
	uint64_t dirs;		/* meta-*: directories the files spread over; 0 = unset */
	bool fsync;		/* meta-*: fsync each file after writing it */
	int cpus[OPTS_MAX_CPUS];
	size_t ncpus;
	const char *on_error;	/* "stop" (NULL: the default) or "continue" */
	uint64_t io_timeout_ns;	/* --io-timeout; 0: the default (session.h) */
	bool thread;		/* --jobs as threads of one process, not
				 * processes (test_spec.procs) */
	const char *destructive; /* NULL: not given; "": --destructive; else
				  * the device named by --destructive=DEV */
	uint64_t max_fill;	/* percent a directory's fs may be filled to */
	bool drop_caches;	/* sync + drop the page cache before each test */
	bool trim;		/* discard before each write test (target_trim) */
	bool hipri;		/* io_uring: polled completions (IORING_SETUP_IOPOLL) */
	uint64_t batch;		/* --batch: most requests one system call submits
				 * (engine_ctx.batch); 0 = unset, 1 */
	bool verify;		/* write self-checking blocks, read them back after
				 * each write test's window (runner.h) */
	/* --steady-state: each test in rounds until SNIA PTS steady state
	 * (steady.h), at most max_rounds (0: 25) of round_ns (0: --runtime) */
	bool steady_state;
	uint64_t round_ns;
	uint64_t max_rounds;
	/* --precondition: before the tests, write the device (a directory:
	 * the working set) sequentially, precondition_size bytes (0: twice
	 * its size), then every test in steady-state rounds */
	bool precondition;
	uint64_t precondition_size;
	const char *json;	/* file, "-" = stdout, NULL = none */
	const char *append;	/* --append: this run's runs added to the
				 * result in this file (made when missing) */
	const char *csv;	/* a CSV row per test to this file ("-" = stdout) */
	const char *bonnie_csv;	/* bonnie++'s CSV line to this file */
	const char *html;	/* the HTML report to this file ("-" = stdout) */
	/* --lat-log: every request of each block test, one line each, to this
	 * file (reqlog.h, report_reqlog); lat_log_max entries per job at
	 * most (0: REQLOG_DEFAULT_MAX), the rest counted */
	const char *lat_log;
	uint64_t lat_log_max;
	const char *scores;	/* "xbench": score the tests as Xbench does (the
				 * xbench profile says so); NULL: no scores */
	const char *baseline;	/* a saved result to score xbench tests against
				 * (implies scores = xbench) */
	/* "bonnie" or "crystal": the text report adds that tool's own table
	 * (bonnie++'s layout, CrystalDiskMark's grid); NULL: none. Echoed,
	 * so a saved result renders the same. */
	const char *figures;
	const char *label;
	bool quiet;
	bool help, version;
	/* The other subcommands' own (opts_parse_cmd). tune: the value lists
	 * of its sweeps (by option name: opts_get_str), the trials' workload,
	 * blocks (0: unset), --apply, --restore; tune and compare: the noise
	 * band as a fraction (-1: unset); compare and report: --max-input
	 * (0: unset). */
	const char *sweep[8];
	const char *workload;
	uint64_t blocks;
	double noise;
	bool apply, restore;
	uint64_t max_input;
	/* Bit i set: option i of the table was given (opts_parse, opts_set).
	 * The command line is parsed into its own struct so that it can be
	 * laid over a profile's settings last (opts_override). */
	uint8_t given[OPTS_MAX_OPTS / 8];
};

/* The subcommands, as bits: each option's row says which take it. */
enum opts_cmd {
	OPTS_CMD_RUN = 1u << 0,
	OPTS_CMD_TUNE = 1u << 1,
	OPTS_CMD_COMPARE = 1u << 2,
	OPTS_CMD_REPORT = 1u << 3,
	OPTS_CMD_INFO = 1u << 4,
	OPTS_CMD_LIST = 1u << 5,
	OPTS_CMD_ALL = (1u << 6) - 1,
};

/* Where a key is set, which decides which keys are allowed. */
enum opts_where {
	OPTS_CLI,	/* the command line: every option */
	OPTS_PROFILE,	/* a profile's [profile] section: not "test", nothing
			 * command-line only (json, destructive, quiet ...) */
	OPTS_GROUP,	/* a profile's test group: per-test keys only */
};

/* Defaults: engine auto, jobs 1, runtime 5s, ramp 1s, repeat 1, seed 42,
 * direct, max-fill 90. */
void opts_defaults(struct settings *s);

/*
 * Parse argv[first..] into s (which holds defaults or a profile's values:
 * the command line overrides them). Non-option arguments are returned in
 * *positional (pointers into argv, at most maxpos; *npos set). Returns 0, or
 * -EINVAL with a one-line message naming the option and the bad value in
 * err ("--bs: invalid size '4q' (use e.g. 4k, 256k, 1m)"; "--direct and
 * --buffered exclude each other"). Never prints.
 */
int opts_parse(struct settings *s, int argc, char **argv, const char **positional,
	       size_t maxpos, size_t *npos, char *err, size_t errlen);

/*
 * opts_parse for subcommand cmd (one OPTS_CMD_* bit): only the options whose
 * row has cmd are taken. One spelled exactly as another subcommand's option
 * is -EPERM, with err "--trim is a run option tune does not take" (the
 * caller may add what to use instead); any other failure is -EINVAL as for
 * opts_parse. Long options are matched whole: no abbreviations, so that a
 * new option never changes what an old command line means.
 */
int opts_parse_cmd(struct settings *s, unsigned cmd, int argc, char **argv,
		   const char **positional, size_t maxpos, size_t *npos, char *err, size_t errlen);

/* A string option's value by long name ("scheduler"), NULL when unset or
 * when key is no string option. */
const char *opts_get_str(const struct settings *s, const char *key);

/* The subcommands' names, for messages and listings: "run", "tune", ...;
 * cmd is one OPTS_CMD_* bit. */
const char *opts_cmd_name(unsigned cmd);

/* One line per option for completions and scripts, in a stable format:
 * "--name<TAB>ARG<TAB>run,tune\n", ARG empty for a flag, and "[=DEV]" for
 * a value that is optional and must then be attached with '='. An option
 * of several rows (one per subcommand) is one line, its subcommands joined
 * in the order run, tune, compare, report, info, list. */
void opts_list(FILE *f);

/*
 * Apply one option by its long name (no "--") and value text through the
 * same parser and validation as the command line, and mark it given. A flag
 * takes true/false/yes/no/1/0 ("direct = false" is --buffered). value must
 * outlive s (strings are not copied). Returns 0; -ENOENT for a key that is
 * no option, -EPERM for a key not allowed at where, -EINVAL for a bad value;
 * err gets a one-line message naming the key ("bs: invalid size '4q' ...").
 */
int opts_set(struct settings *s, const char *key, const char *value, enum opts_where where,
	     char *err, size_t errlen);

/* Do keys a and b set the same setting in opposite ways ("direct" and
 * "buffered"), so that giving both is a contradiction? */
bool opts_exclusive(const char *a, const char *b);

/* Was option key (long name) given, on the command line or by opts_set? */
bool opts_given(const struct settings *s, const char *key);

/* Copy into dst every option marked given in src (and mark it given in dst):
 * the command line overrides a profile key by key. */
void opts_override(struct settings *dst, const struct settings *src);

/* Write the options' help lines (one per option, from the table) to f:
 * the run's (opts_help), or those of the rows taken by every subcommand of
 * all_of and by none of none_of (tune's own: OPTS_CMD_TUNE, OPTS_CMD_RUN). */
void opts_help(FILE *f);
void opts_help_cmd(FILE *f, unsigned all_of, unsigned none_of);

/*
 * The rules between a run's options, checked on its settings s (defaults <
 * profile < command line; cli is the command line alone) with the engine
 * e picked and root whether the run is root's: --precondition-size only
 * with --precondition, --round and --max-rounds only with --steady-state,
 * neither --precondition nor --steady-state with --repeat, --verify and
 * --precondition not with an engine that moves no data, --drop-caches and
 * --trim as root only, --buffered not with an O_DIRECT-only engine. The
 * first broken rule is -EINVAL with a one-line message naming the
 * option(s) in err (exit status 2 to the CLI). Also completes s: the
 * direct engine is O_DIRECT, --precondition runs in steady-state rounds.
 * Never prints.
 */
struct engine_ops;
int opts_check(struct settings *s, const struct settings *cli, const struct engine_ops *e,
	       bool root, char *err, size_t errlen);

/* The options' documentation from the table: the body of the man page's
 * OPTIONS (roff, one .TP entry an option) or doc/options.md's tables
 * (markdown), the run's options first, then the other subcommands'. */
enum opts_doc_format { OPTS_DOC_MAN, OPTS_DOC_MARKDOWN };
void opts_doc(FILE *f, enum opts_doc_format fmt);

/* Echo every option's effective value into the result's settings. */
void opts_echo(const struct settings *s, struct run_result *r);

#endif
