/* cli.h - the subcommands; only this layer prints and chooses exit codes. */
#ifndef DISKBENCH_CLI_H
#define DISKBENCH_CLI_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "outfile.h"
#include "result.h"
#include "runner.h"
#include "session.h"
#include "status.h"

int cmd_run(int argc, char **argv);

/* cmd_run as one rank of a coordinated run (session.h; NULL: a plain
 * run, cmd_run). */
int cli_run(int argc, char **argv, const struct session_coord *h);
int cmd_list(int argc, char **argv);
int cmd_info(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);
int cmd_tune(int argc, char **argv);

/* Print "<cli_name>: <msg>" to stderr; cli_name is "diskbench" unless a
 * program says otherwise ("diskbench-mpi: rank 2"). */
extern const char *cli_name;
void cli_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void cli_verror(const char *fmt, va_list ap);
void cli_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Do stdout and stderr reach the same place (one terminal, one file, one
 * pipe)? Then a text report on stdout that carries the warnings needs no
 * copy of them on stderr: a person reads each once. */
bool cli_stdout_is_stderr(void);

/* One report file a subcommand may write: its option, the path given (NULL:
 * not asked for), what renders the document. */
struct cli_output {
	const char *opt;	/* "--json" */
	const char *path;
	int (*render)(FILE *f, const void *arg);	/* 0 or -errno */
	struct outfile_id id;	/* filled by cli_check_outputs */
	bool to_stdout;		/* "-", /dev/stdout, ...: the text report gives way */
};

/* Check every output of o[0..n) before anything runs (outfile_check): a
 * device, a directory, a planted symlink, a disk image, a directory that
 * cannot take the file, two documents on one stdout or two outputs naming
 * one file are refused with one line. Returns EXIT_OK, EXIT_USAGE or
 * EXIT_REFUSED (said why); *on_stdout says whether a document goes to
 * stdout. */
int cli_check_outputs(struct cli_output *o, int n, bool *on_stdout);

/* Render each output asked for into memory and write it all or nothing
 * (outfile_write); one that fails is named and the others still written.
 * Returns EXIT_OK or EXIT_RUNTIME. */
int cli_write_outputs(const struct cli_output *o, int n, const void *arg);

/* The outputs of a run_result: --json, --csv, --bonnie-csv, --html (a
 * path NULL: not asked for). */
#define CLI_RESULT_OUTPUTS 4
struct cli_result_paths {
	const char *json, *csv, *bonnie_csv, *html;
};
void cli_result_outputs(struct cli_output o[CLI_RESULT_OUTPUTS],
			const struct cli_result_paths *p);

/* Flush stdout and say so when it failed (a full disk, a closed pipe).
 * Returns EXIT_OK or EXIT_RUNTIME. */
int cli_close_stdout(void);

/* common.c: what run and tune both do before they measure.
 * cli_writes_verdict: may a run write to ti (the safety gate; the reason is
 * filled even when the checks could not run). cli_check_dir_writable: a
 * directory target takes scratch files (0, or -EROFS/-EACCES with err).
 * cli_now_iso: the time as ISO 8601 UTC. cli_load_profile: EXIT_OK when
 * loaded, else the exit status after saying why. */
struct safety_verdict;
struct profile;
void cli_writes_verdict(const char *destructive, const struct target_info *ti,
			struct safety_verdict *v);
int cli_check_dir_writable(const struct target_info *ti, char *err, size_t errlen);
void cli_now_iso(char *buf, size_t len);
int cli_load_profile(const char *name, struct profile *prof);

/* progress.c: the live line on a terminal (callers check isatty and
 * --quiet). cli_progress_test is a test_spec.progress callback, its arg a
 * struct cli_progress; cli_progress_layout a stage_in.progress callback,
 * its arg the target's path; cli_progress_clear erases the line. */
struct cli_progress {
	char head[128];		/* "[2/6] seq-read 1m qd8", with " pass 2/5" under --repeat */
	uint64_t last_ns, last_ops, last_bytes;
};
void cli_progress_test(void *arg, const struct runner_progress *rp);
void cli_progress_layout(void *arg, uint64_t done, uint64_t total);
void cli_progress_clear(void);

/* inputs.c: read every saved result in paths[0..n) into *out (an array the
 * caller frees with cli_free_results), all before anything is written,
 * none larger than max_bytes (result_load_max). Returns EXIT_OK, or prints
 * why and returns EXIT_USAGE (a bad file, one too large) or EXIT_RUNTIME
 * (out of memory); *loaded says how many need freeing. */
int cli_load_results(const char *const *paths, int n, uint64_t max_bytes,
		     struct run_result **out, int *loaded);

void cli_free_results(struct run_result *r, int loaded);

#endif
