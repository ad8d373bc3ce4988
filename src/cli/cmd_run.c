/* cmd_run.c - "diskbench [run] [OPTIONS] [TARGET]": plan, safety, run, report. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "annotate.h"
#include "load.h"
#include "pin.h"
#include "report.h"
#include "run_int.h"
#include "version.h"

#define DEFAULT_PROFILE "quick"

/* Every CPU of --cpus must be one this process may run on. */
static int check_cpus(const struct settings *s, char *err, size_t errlen)
{
	return pin_check_cpus(s->cpus, s->ncpus, err, errlen);
}

/* Options, profile, engine and where the reports go: nothing touched yet. */
static int do_options(struct run_ctx *c, int argc, char **argv, const char **target)
{
	const char *pos[2];
	char err[512];
	size_t npos;
	int ret;

	opts_defaults(&c->cli);
	if (opts_parse(&c->cli, argc, argv, pos, 1, &npos, err, sizeof(err))) {
		cli_error("%s", err);
		fprintf(stderr, "Try 'diskbench --help'.\n");
		return EXIT_USAGE;
	}
	if (c->cli.help) {
		if (!c->silent)
			run_usage(stdout, c->h ? c->h->usage : NULL);
		return STEP_DONE;
	}
	if (c->cli.version) {
		char v[1024];

		version_text(v, sizeof(v));
		if (!c->silent)
			fputs(v, stdout);
		return STEP_DONE;
	}
	*target = c->given = npos ? pos[0] : ".";
	if (c->h && c->h->target) {
		static char mine[PATH_MAX];

		ret = c->h->target(c->h->arg, *target, mine, sizeof(mine));
		if (ret != EXIT_OK)
			return ret;
		*target = mine;
	}
	ret = cli_load_profile(c->cli.profile ? c->cli.profile : DEFAULT_PROFILE, &c->prof);
	if (ret != EXIT_OK)
		return ret;
	/* The run's settings: defaults < [profile] < the command line. */
	c->s = c->prof.s;
	opts_override(&c->s, &c->cli);
	c->s.profile = c->prof.name;
	if (c->s.baseline) {
		if (result_load_baseline(c->s.baseline, &c->baseline, err, sizeof(err))) {
			cli_error("--baseline %s", err);
			return EXIT_USAGE;
		}
	} else {
		xbench_default_baseline(&c->baseline);
	}
	ret = engine_pick(c->s.engine, &c->e, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	if (check_cpus(&c->s, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	/* --repeat N makes samples that compare judges: each pass's jobs on
	 * the same CPU by default, so that a pass measures the setting, not
	 * where the scheduler put a QD1 job (pin.h); not for a coordinated
	 * run, whose ranks would all pick the same CPU of a node */
	if ((c->s.repeat > 1 || c->s.append) && !c->s.ncpus && !c->h) {
		c->s.ncpus = pin_default_cpus_here(c->s.cpus, OPTS_MAX_CPUS, NULL, 0);
		c->pinned_by_default = c->s.ncpus > 0;
	}
	/* A rank that does not report writes no file and no table. */
	if (c->silent) {
		c->s.json = c->s.csv = c->s.bonnie_csv = c->s.html = c->s.lat_log = NULL;
		c->s.append = NULL;
		c->s.quiet = 1;
	}
	/* Where the reports go is checked before a minute of measuring. */
	cli_result_outputs(c->outs, &(struct cli_result_paths){
		.json = c->s.json, .csv = c->s.csv, .bonnie_csv = c->s.bonnie_csv,
		.html = c->s.html });
	c->outs[CLI_RESULT_OUTPUTS] = (struct cli_output){ .opt = "--lat-log",
							   .path = c->s.lat_log };
	c->outs[CLI_RESULT_OUTPUTS + 1] = (struct cli_output){ .opt = "--append",
							       .path = c->s.append,
							       .render = c->outs[0].render };
	ret = cli_check_outputs(c->outs, CLI_RESULT_OUTPUTS + 2, &c->on_stdout);
	if (ret != EXIT_OK)
		return ret;
	if (opts_check(&c->s, &c->cli, c->e, geteuid() == 0, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* After each run kept: its requests (--lat-log), the drive's health. */
static int run_tested(void *arg, unsigned i, const struct test_result *tr)
{
	run_reqlog_tested(arg, i, tr);
	return run_health_tested(arg, i, tr);
}

/* The precondition and the tests, then what they mean (annotate). */
static int do_session(struct run_ctx *c)
{
	const struct session_coord *h = c->h;
	struct session_in in = {
		.plan = &c->plan, .stage = &c->stage, .e = c->e, .ti = &c->ti, .r = &c->r,
		.run_direct = c->s.direct, .repeat = (unsigned)c->s.repeat,
		.steady_state = c->s.steady_state, .max_rounds = (unsigned)c->s.max_rounds,
		.round_ns = c->s.round_ns, .pre = c->s.precondition ? &c->pre : NULL,
		.trim = c->s.trim, .drop_all = c->s.drop_caches, .keep_cut = true,
		.check_unwritten = true, .layout_fd = c->layout_fd, .stop = c->stop,
		.on_error_continue = c->s.on_error && !strcmp(c->s.on_error, "continue"),
		.io_timeout_ns = c->s.io_timeout_ns,
		.coord = h,
	};
	struct session_hooks hooks = { .arg = c, .begin = c->progress ? run_begin : NULL,
				       .progress = c->progress ? cli_progress_test : NULL,
				       .progress_arg = &c->ps, .note = run_note,
				       .tested = run_tested };
	struct annotate_in a = {
		.moves_data = !(c->e->flags & ENGINE_F_NO_IO),
		/* a profile that asks for scores (xbench's), or --baseline */
		.score = c->s.scores || c->s.baseline ? &c->baseline : NULL,
	};
	int status, health;

	status = run_word_end(c, session_run(&in, &hooks, &c->end));
	health = run_health_after(c);
	if (c->end.in_precondition)
		return status;
	a.interrupted = status == 128 + SIGINT;
	if (h)
		h->finish(h->arg, &c->r);
	c->failed = result_annotate(&c->r, &a) || health != EXIT_OK;
	if (status == 128 + SIGINT)
		run_word_interrupt(c);
	return status;
}

/* Release the device and the scratch directory (one left on a file system
 * that stopped answering fails the run, said), then say what was
 * measured: warnings, the table, every report file. Nothing measured
 * (Ctrl-C during the layout or the first setup): no report to write, and
 * none to overwrite an older one with. */
static int do_report(struct run_ctx *c, int status)
{
	bool text;
	int ret = stage_release(&c->stage);

	if (ret == -EXDEV)
		run_word_moved(c);
	if (ret == -ETIMEDOUT) {
		run_word_left(c);
		if (status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	if (c->progress)
		cli_progress_clear();
	if (c->silent)
		return status;
	text = c->r.ntests && !c->s.quiet && !c->on_stdout;
	/* Once: the report under the table says them where stderr goes too;
	 * --quiet and a document on stdout leave them to stderr. */
	if (!text || !cli_stdout_is_stderr())
		for (unsigned i = 0; i < c->r.nwarnings; i++)
			cli_warn("%s", c->r.warnings[i]);
	if (!c->r.ntests)
		return status;
	if (text)
		report_text(stdout, &c->r);
	if (cli_write_outputs(c->outs, CLI_RESULT_OUTPUTS, &c->r) != EXIT_OK && status == EXIT_OK)
		status = EXIT_RUNTIME;
	if (c->failed && status == EXIT_OK)
		status = EXIT_RUNTIME;
	return status;
}

int cmd_run(int argc, char **argv)
{
	return cli_run(argc, argv, NULL);
}

int cli_run(int argc, char **argv, const struct session_coord *h)
{
	/* static: a plan holds 256 specs, a result many settings */
	static struct run_ctx c;
	const char *target = ".";
	int status, ret;

	memset(&c, 0, sizeof(c));
	c.stage.claim = -1;
	c.layout_fd = -1;
	c.h = h;
	c.silent = h && !h->root;
	run_record_command(&c.r, argc, argv);
	status = do_options(&c, argc, argv, &target);
	if (status == EXIT_OK)
		status = run_probe(&c, target);
	if (status == EXIT_OK)
		status = run_plan(&c);
	/* Every rank's verdict is the run's: no rank writes unless all may. */
	if (h)
		status = h->prepare(h->arg, status, &(struct session_point){
			.given = c.given ? c.given : ".", .s = &c.s, .ti = &c.ti,
			.plan = &c.plan, .seed = &c.s.seed, .r = &c.r });
	if (status == EXIT_OK)
		status = run_append_open(&c);
	if (status == EXIT_OK)
		status = run_reqlog_open(&c);
	c.progress = isatty(STDERR_FILENO) && !c.s.quiet;
	if (status == EXIT_OK && !c.s.quiet && !c.silent)
		run_word_estimate(&c);
	if (status == EXIT_OK) {
		/* Before the scratch directory: the first Ctrl-C is ours. */
		c.stop = session_catch_sigint();
		/* before the layout, which the drive counts among its writes */
		run_health_before(&c);
		status = run_stage_set(&c);
		if (status == EXIT_OK)
			status = run_append_check(&c);
		if (h)
			status = h->agree(h->arg, status);
	}
	if (status == EXIT_OK)
		status = do_session(&c);
	if (status == EXIT_OK || status == EXIT_RUNTIME || status == 128 + SIGINT)
		status = do_report(&c, status);
	if (status == EXIT_OK)
		status = run_append_write(&c);
	/* what was measured is logged, as it is reported */
	ret = run_reqlog_close(&c, c.r.ntests && (status == EXIT_OK || status == EXIT_RUNTIME ||
						 status == 128 + SIGINT));
	if (ret != EXIT_OK && status == EXIT_OK)
		status = ret;
	/* One way out: whatever was taken is given back. */
	if (c.layout_fd >= 0)
		close(c.layout_fd);
	stage_release(&c.stage);
	run_append_close(&c);
	result_free(&c.r);
	profile_free(&c.prof);
	return step_exit(status);
}
