/* run_int.h - the run subcommand's state, shared by cmd_run.c and its words (run_words.c). */
#ifndef DISKBENCH_RUN_INT_H
#define DISKBENCH_RUN_INT_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "cli.h"
#include "engine.h"
#include "opts.h"
#include "plan.h"
#include "outfile.h"
#include "profile.h"
#include "reqlog.h"
#include "result.h"
#include "safety.h"
#include "session.h"
#include "stage.h"
#include "target.h"
#include "xbench.h"

/* Everything one run holds, from the options to the reports. */
struct run_ctx {
	struct settings cli, s;
	struct profile prof;
	const struct engine_ops *e;
	struct xbench_baseline baseline;
	struct target_info ti;
	struct safety_verdict writes;
	struct plan plan;
	struct test_spec pre;		/* --precondition's test */
	struct stage stage;
	struct run_result r;
	/* the reports, then --lat-log's file (checked with them, written
	 * as the tests go: run_reqlog.c) and --append's (run_append.c) */
	struct cli_output outs[CLI_RESULT_OUTPUTS + 2];
	bool on_stdout, progress, failed;
	bool lay_out;			/* a device or file: its working set laid out */
	uint64_t size;			/* the working set laid out */
	struct session_end end;		/* where the session ended */
	struct cli_progress ps;		/* the progress line's */
	const struct session_coord *h;	/* a coordinated run's, or NULL */
	bool silent;			/* a rank that does not report */
	bool pinned_by_default;		/* --repeat without --cpus: pin_default_cpus */
	const char *given;		/* TARGET as typed */
	int layout_fd;			/* where the data's allocation is read; -1 */
	const volatile sig_atomic_t *stop;	/* raised by the first Ctrl-C */
	/* The drive's health (run_health.c): smartctl answered before the
	 * run, so it is asked after each test; its latest reading; each
	 * test's thermal verdict (health_thermal: -1, 0, 1) by plan index. */
	bool health_on;
	char health_dev[80];
	struct health_snap health_last;
	signed char thermal[MAX_PLAN];
	/* --lat-log (run_reqlog.c): the log's memory, its file, the runs
	 * written of each test, the errno of a write that failed (0: none) */
	struct reqlog reqlog;
	struct outfile_stream latlog;
	unsigned reqlog_runs[MAX_PLAN];
	int latlog_err;
	/* --append (run_append.c): the result the file holds (loaded: it
	 * existed) */
	struct run_result prior;
	bool prior_loaded;
};

/* run_steps.c: what the target is (the result's header), the plan and
 * whether it can run, the stage and the settings echo. Each EXIT_OK, or
 * the exit status after saying why. */
int run_probe(struct run_ctx *c, const char *target);
int run_plan(struct run_ctx *c);
int run_stage_set(struct run_ctx *c);

/* run_health.c: the drive's health. Before the session: the first
 * reading into c->r.health (or why there is none). tested: session_hooks'
 * tested, a reading after each run and its thermal verdict. After: the
 * last reading, each test's thermal flag, and the warnings; returns
 * EXIT_RUNTIME when the drive counted new media errors, else EXIT_OK. */
void run_health_before(struct run_ctx *c);
int run_health_tested(void *arg, unsigned i, const struct test_result *tr);
int run_health_after(struct run_ctx *c);

/* run_reqlog.c: --lat-log. open: after the plan, before anything is
 * written: the log laid out for the plan's block tests (each spec given
 * it) and its file opened (a temporary file beside it until the close);
 * EXIT_OK, or the exit status after saying why (no memory: EXIT_USAGE).
 * tested: part of session_hooks' tested, run i of test i's requests into
 * the file. close: the file put in place when keep (something was
 * measured), else removed, and the memory freed; EXIT_OK, or EXIT_RUNTIME
 * after saying why when the file could not be written. */
int run_reqlog_open(struct run_ctx *c);
void run_reqlog_tested(struct run_ctx *c, unsigned i, const struct test_result *tr);
int run_reqlog_close(struct run_ctx *c, bool keep);

/* run_append.c: --append. open: after the plan, the file's result
 * loaded when it exists and checked against the plan and target; check:
 * after the stage, its settings against this run's; write: after the
 * reports, this run's runs added to it (or this run alone when it did
 * not exist) and the file written all or nothing, then said. Each
 * EXIT_OK, or the exit status after saying why (a file that cannot take
 * this run: EXIT_USAGE). close: frees what open loaded. */
int run_append_open(struct run_ctx *c);
int run_append_check(struct run_ctx *c);
int run_append_write(struct run_ctx *c);
void run_append_close(struct run_ctx *c);

/* run_words.c: what a run says. */

/* The words typed, into the result: "diskbench [run] ARGS..." */
void run_record_command(struct run_result *r, int argc, char **argv);

/* --help: head (a coordinated run's) instead of diskbench's own. */
void run_usage(FILE *f, const char *head);

/* Into c->r's warnings: the scratch directories of killed runs; what the
 * plan left out or changed; O_DIRECT refused by the stage. */
void run_word_leftovers(struct run_ctx *c);
void run_word_plan(struct run_ctx *c);
void run_word_stage(struct run_ctx *c);
void run_word_moved(struct run_ctx *c);	/* the scratch directory was */
/* The scratch directory was left: its file system stopped answering (an
 * error on stderr, and a warning). */
void run_word_left(struct run_ctx *c);

/* On stderr, before a minute of measuring: how long it will take. */
void run_word_estimate(const struct run_ctx *c);

/* session_hooks' begin (the progress line's head) and note (warnings). */
void run_begin(void *arg, const struct session_at *at);
void run_note(void *arg, const struct session_note *n);

/* session_run's ret, said: the exit status (128 + SIGINT when stopped). */
int run_word_end(struct run_ctx *c, int ret);

/* How far an interrupted run got, into c->r's warnings. */
void run_word_interrupt(struct run_ctx *c);

#endif
