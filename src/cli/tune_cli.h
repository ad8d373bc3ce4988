/* tune_cli.h - the tune subcommand's state: cmd_tune.c, tune_plan.c, tune_trials.c. */
#ifndef DISKBENCH_TUNE_CLI_H
#define DISKBENCH_TUNE_CLI_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "cli.h"
#include "engine.h"
#include "opts.h"
#include "plan.h"
#include "profile.h"
#include "safety.h"
#include "stage.h"
#include "target.h"
#include "tune.h"
#include "tune_result.h"

#define DEFAULT_READ_AHEAD "0,128,512,2048,8192"

/* What tune makes of its own options; the rest (--workload, --apply,
 * --json ...) it reads from the settings the one parser filled. */
struct tune_args {
	const char *lists[KNOB_COUNT];	/* --scheduler LIST ...; NULL: not given */
	unsigned blocks;		/* --blocks, or its default */
	double noise;			/* --noise, or its default */
};

/* Everything one tune holds. */
struct tune_ctx {
	struct tune_args a;
	struct settings cli;			/* the options as parsed */
	struct settings run[KNOB_COUNT];	/* each sweep's: its specs point into them */
	const struct engine_ops *e;
	struct target_info ti;
	struct safety_verdict writes;
	struct tune_journal journal;
	bool journaled;
	struct profile prof[KNOB_COUNT];
	bool prof_loaded[KNOB_COUNT];
	struct plan plans[KNOB_COUNT];	/* per sweep, in r.sweeps order */
	struct plan all;		/* every test of every sweep: the stage's */
	struct stage stage;
	struct tune_result r;
	struct cli_output out[2];	/* --json, --html */
	bool on_stdout, progress;
};

/* Raised by the first signal (cmd_tune.c's handler): the sweep stops. */
extern volatile sig_atomic_t tune_cli_stop;

/* tune_plan.c: the knobs to sweep, their values and their workloads'
 * plans, into c->r.sweeps and c->plans. EXIT_OK, or the exit status
 * after saying why. */
int tune_cli_plan_sweeps(struct tune_ctx *c);

/* tune_plan.c: the CPUs every trial's jobs run on: --cpus, or by default
 * the ones pin_default_cpus ranks, job i always on the i-th. EXIT_OK or
 * EXIT_USAGE after saying why. */
int tune_cli_pin_trials(struct tune_ctx *c);

/* tune_plan.c: the union of the sweeps' plans into c->all, for the stage
 * (layout, O_DIRECT); returns the largest working set. */
uint64_t tune_cli_union_plan(struct tune_ctx *c);

/* tune_plan.c: on stderr (unless --quiet), what the sweep will cost. */
void tune_cli_announce(struct tune_ctx *c);

/* tune_trials.c: the trials every sweep plans, as the progress line, the
 * text, the JSON and the HTML count them. */
unsigned tune_cli_total_trials(const struct tune_ctx *c);

/* tune_trials.c: stop the sweep at trial n of total: why (fmt), and what
 * to do, kept in the result (its JSON, text and HTML) and among its
 * warnings, and said on stderr. Returns status, for the caller to
 * return. */
int tune_cli_stop_at(struct tune_ctx *c, unsigned n, unsigned total, int status,
		     const char *todo, const char *fmt, ...)
	__attribute__((format(printf, 6, 7)));

/* tune_trials.c: every sweep, trial after trial, in its randomised block
 * order. 0, -EINTR (a signal), or the exit status after saying why (the
 * result's stop). */
int tune_cli_run_sweeps(struct tune_ctx *c);

#endif
