/* cmd_tune.c - "diskbench tune TARGET": sweep queue settings, say what is significant, put them back. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "host.h"
#include "report.h"
#include "tune_cli.h"

#define DEFAULT_BLOCKS 5
#define DEFAULT_NOISE 0.03

static void usage(FILE *f)
{
	fprintf(f,
		"usage: diskbench tune [SWEEP OPTIONS] [RUN OPTIONS] TARGET\n"
		"       diskbench tune --restore [TARGET]\n"
		"\n"
		"Measure which queue settings suit TARGET's disk (a block device, or the disk\n"
		"under a file or directory): each knob is swept with its own workload, in\n"
		"randomised blocks, against the current settings, which are measured first\n"
		"and last, and the current value once more in every block as a control; a\n"
		"value is recommended only when it is better beyond the noise band on some\n"
		"test (throughput or p99) and worse on none, against the current value and\n"
		"against the control alike, and the control is neither.\n"
		"Every setting is put back and read back; a journal under /run/diskbench\n"
		"lets --restore finish after a kill -9.\n"
		"\n"
		"Sweep options (with none, the scheduler and the readahead are swept; the\n"
		"other knobs only when given):\n");
	opts_help_cmd(f, OPTS_CMD_TUNE, OPTS_CMD_RUN);
	fprintf(f,
		"\n"
		"Run options, applied to every trial (see diskbench --help):\n");
	opts_help_cmd(f, OPTS_CMD_TUNE | OPTS_CMD_RUN, 0);
	fprintf(f,
		"\n"
		"Changing queue settings needs root. Exit status: 0 ok, 1 runtime failure,\n"
		"2 usage error, 3 refused (not root, a journal left over, a tune running, a\n"
		"zoned device), 130 interrupted.\n");
}

/* Tune's own options out of the settings the one parser filled. */
static void tune_args_from(struct tune_args *a, const struct settings *s)
{
	_Static_assert(TUNE_MAX_BLOCKS == 100, "--blocks' row in opts_table.c says 100");
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		a->lists[k] = opts_get_str(s, tune_knob_option((enum tune_knob)k));
	a->blocks = s->blocks ? (unsigned)s->blocks : DEFAULT_BLOCKS;
	a->noise = s->noise >= 0 ? s->noise : DEFAULT_NOISE;
}

volatile sig_atomic_t tune_cli_stop;

/* The first signal stops the sweep, which then restores and reports; a
 * second one restores at once (open/write/close only) and dies. */
static void on_signal(int sig)
{
	if (tune_cli_stop) {
		tune_restore_now();
		target_scratch_cleanup();
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	tune_cli_stop = sig;
}

static void catch_signals(void)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		sigaction(sigs[i], &sa, NULL);
}

/* Not root, or sysfs read-only: show what would happen, change nothing. */
static int cannot_change(struct tune_ctx *c, const char *why)
{
	cli_error("refusing to tune %s: %s", c->r.queue.disk, why);
	if (!c->cli.quiet) {
		for (unsigned i = 0; i < c->r.nsweeps; i++) {
			const struct tune_sweep *s = &c->r.sweeps[i];

			fprintf(stderr, "  would sweep %s (now %s):", tune_knob_option(s->knob),
				s->configs[0]);
			for (unsigned k = 1; k < s->nconfig; k++)
				fprintf(stderr, " %s", s->configs[k]);
			fprintf(stderr, ", %u tests of %s\n", s->ntests, s->workload);
		}
	}
	return EXIT_REFUSED;
}

/* Does the queue read now as it did when the sweeps were planned? 0, or
 * -EBUSY with what differs in err, after head. */
static int settings_unchanged(struct tune_ctx *c, const char *head, char *err, size_t errlen)
{
	const struct tune_queue *q = &c->r.queue;
	char now[TUNE_VALUE_MAX];
	size_t used = 0;
	int ret = 0;

	err[0] = '\0';
	for (unsigned k = 0; k < KNOB_COUNT; k++) {
		if (!q->have[k])
			continue;
		if (tune_knob_read(q, (enum tune_knob)k, now, sizeof(now)))
			snprintf(now, sizeof(now), "(unreadable)");
		if (!strcmp(now, q->value[k]))
			continue;
		ret = -EBUSY;
		if (used + 1 < errlen)
			used += (size_t)snprintf(err + used, errlen - used, "%s%s is %s, not %s",
						 used ? ", " : head,
						 tune_knob_attr((enum tune_knob)k), now, q->value[k]);
	}
	return ret;
}

/* Put back what the journal holds; say so if it does not read back. */
static int put_back(struct tune_ctx *c)
{
	char err[512];

	if (!c->journaled)
		return 0;
	if (tune_restore(&c->journal, err, sizeof(err))) {
		cli_error("%s", err);
		tune_warn(&c->r, "%s", err);
		return EXIT_RUNTIME;
	}
	tune_restore_disarm();
	c->journaled = false;
	/* "put back" means as the report shows them before the sweep: what
	 * the journal saved is that, checked when the lock was taken; said
	 * again here against the report's own figures */
	if (settings_unchanged(c, "not as before the sweep, after the restore: ", err,
			       sizeof(err))) {
		cli_error("%s", err);
		tune_warn(&c->r, "%s", err);
		return EXIT_RUNTIME;
	}
	c->r.restored = true;
	return 0;
}

/* --apply: the recommended values, on purpose. */
static int keep_recommended(struct tune_ctx *c)
{
	const char *values[KNOB_COUNT] = { NULL };
	char err[512], what[256] = "";
	size_t used = 0;

	for (unsigned i = 0; i < c->r.nsweeps; i++) {
		const struct tune_sweep *s = &c->r.sweeps[i];

		if (s->recommended < 0)
			continue;
		values[s->knob] = s->configs[s->recommended];
		if (used < sizeof(what))
			used += (size_t)snprintf(what + used, sizeof(what) - used, "%s%s %s (was %s)",
						 used ? ", " : "", tune_knob_attr(s->knob),
						 values[s->knob], s->configs[0]);
	}
	if (!what[0]) {
		tune_warn(&c->r, "--apply: nothing is recommended, nothing was kept");
		return 0;
	}
	/* another scheduler with its own queue depth, as in the sweep */
	if (values[KNOB_SCHEDULER] && !values[KNOB_NR_REQUESTS])
		values[KNOB_NR_REQUESTS] = TUNE_AS_KERNEL;
	if (tune_apply(&c->r.queue, values, err, sizeof(err))) {
		cli_error("--apply: %s", err);
		return EXIT_RUNTIME;
	}
	c->r.applied = true;
	tune_warn(&c->r, "--apply: kept %s on %s, on purpose: tune will not put it back (until "
		  "a reboot, or a udev rule says otherwise)", what, c->r.queue.disk);
	return 0;
}

/* --restore [TARGET]: finish what a killed tune left. */
static int restore_leftovers(struct tune_ctx *c, const char *target)
{
	char disks[1024], err[512], *save = NULL, *tok;
	struct tune_queue q;
	int status = EXIT_OK, ret, n = 0;

	if (target) {
		ret = target_probe(target, &c->ti, err, sizeof(err));
		if (!ret)
			ret = tune_queue_probe(&c->ti, &q, err, sizeof(err));
		if (ret) {
			cli_error("%s: %s", target, err);
			return EXIT_USAGE;
		}
		snprintf(disks, sizeof(disks), "%s", q.disk);
	} else if (tune_journal_list(disks, sizeof(disks)) <= 0) {
		printf("no tune journal in %s: nothing to restore\n", tune_journal_dir());
		return EXIT_OK;
	}
	for (tok = strtok_r(disks, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		struct tune_journal j;

		ret = tune_journal_read(tok, &j, err, sizeof(err));
		/* a live tune's journal is its lock: never restored, never
		 * removed (it puts the settings back itself) */
		if (!ret)
			ret = tune_journal_claim(&j, err, sizeof(err));
		if (ret == -ENOENT) {
			printf("%s: no tune journal: nothing to restore\n", tok);
			continue;
		}
		if (!ret) {
			ret = tune_restore(&j, err, sizeof(err));
			tune_journal_release(&j);
		}
		if (ret) {
			cli_error("%s", err);
			status = ret == -EBUSY ? EXIT_REFUSED : ret == -EINVAL || ret == -ESTALE ?
				 EXIT_USAGE : EXIT_RUNTIME;
			continue;
		}
		n++;
		printf("%s: restored what tune (pid %d, started %s) changed; every setting reads back "
		       "as it was\n", tok, (int)j.pid, j.started);
	}
	(void)n;
	return status;
}

static int render_tune_json(FILE *f, const void *r)
{
	return report_tune_json(f, r);
}

static int render_tune_html(FILE *f, const void *r)
{
	return report_tune_html(f, r);
}

/* Options, the target, its queue, the sweeps' plans: nothing changed yet. */
static int prepare(struct tune_ctx *c, int argc, char **argv)
{
	const char *pos[2], *target;
	char err[512];
	size_t npos;
	int ret;

	opts_defaults(&c->cli);
	/* a run option that means nothing to a sweep is refused by its row
	 * (not a tune option), never dropped */
	ret = opts_parse_cmd(&c->cli, OPTS_CMD_TUNE, argc, argv, pos, 1, &npos, err, sizeof(err));
	if (ret == -EPERM) {
		cli_error("tune: %s (--workload, --blocks, --json and --html are tune's)", err);
		return EXIT_USAGE;
	}
	if (ret) {
		cli_error("tune: %s", err);
		fprintf(stderr, "Try 'diskbench tune --help'.\n");
		return EXIT_USAGE;
	}
	tune_args_from(&c->a, &c->cli);
	if (c->cli.help) {
		usage(stdout);
		return STEP_DONE;
	}
	if (c->cli.restore) {
		ret = restore_leftovers(c, npos ? pos[0] : NULL);
		return ret == EXIT_OK ? STEP_DONE : ret;
	}
	if (!npos) {
		cli_error("tune: which TARGET? (a block device, or a file or directory on one)");
		return EXIT_USAGE;
	}
	target = pos[0];
	c->out[0] = (struct cli_output){ .opt = "--json", .path = c->cli.json,
					 .render = render_tune_json };
	c->out[1] = (struct cli_output){ .opt = "--html", .path = c->cli.html,
					 .render = render_tune_html };
	ret = cli_check_outputs(c->out, 2, &c->on_stdout);
	if (ret)
		return ret;
	ret = engine_pick(c->cli.engine, &c->e, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	ret = target_probe(target, &c->ti, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", target, err);
		return EXIT_USAGE;
	}
	ret = tune_queue_probe(&c->ti, &c->r.queue, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", target, err);
		return ret == -EOPNOTSUPP ? EXIT_REFUSED : EXIT_USAGE;
	}
	ret = cli_check_dir_writable(&c->ti, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	cli_writes_verdict(c->cli.destructive, &c->ti, &c->writes);
	c->r.tool_version = PACKAGE_VERSION;
	cli_now_iso(c->r.started_at, sizeof(c->r.started_at));
	host_probe(&c->r.host);
	c->r.target = c->ti;
	c->r.nblocks = c->a.blocks;
	c->r.noise = c->a.noise;
	c->r.seed = c->cli.seed;
	ret = tune_cli_plan_sweeps(c);
	return ret ? ret : tune_cli_pin_trials(c);
}

/* May tune change the queue now? Root, sysfs writable, no journal left. */
static int may_change(struct tune_ctx *c)
{
	char path[256], err[512];
	struct tune_journal j;
	int ret;

	if (geteuid() != 0)
		return cannot_change(c, "changing queue settings needs root");
	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", c->r.queue.disk,
		 tune_knob_attr(c->r.sweeps[0].knob));
	if (access(path, W_OK))
		return cannot_change(c, "its queue settings cannot be written here (read-only "
				     "sysfs?)");
	ret = tune_journal_read(c->r.queue.disk, &j, err, sizeof(err));
	if (ret == -ENOENT)
		return EXIT_OK;
	if (ret) {
		cli_error("refusing to tune %s: %s", c->r.queue.disk, err);
		return EXIT_REFUSED;
	}
	/* a live tune holds its journal's lock: wait for it, not --restore */
	ret = tune_journal_claim(&j, err, sizeof(err));
	tune_journal_release(&j);
	if (ret == -ENOENT)
		return EXIT_OK;
	if (ret == -EBUSY)
		cli_error("refusing to tune %s: %s; let it finish, then try again", c->r.queue.disk,
			  err);
	else if (ret)
		cli_error("refusing to tune %s: %s", c->r.queue.disk, err);
	else
		cli_error("refusing to tune %s: an earlier tune (pid %d, started %s) that no longer "
			  "runs left its journal %s: run diskbench tune --restore %s first",
			  c->r.queue.disk, (int)j.pid, j.started, j.path, c->ti.path);
	return EXIT_REFUSED;
}

/* Journal, stage, sweeps, restore: 0, 128 + signal, or an exit status. */
static int sweep(struct tune_ctx *c)
{
	struct stage_in in = { .plan = &c->all, .e = c->e, .ti = &c->ti, .stop = &tune_cli_stop };
	/* the sweeps' plans, as planned: none has run to stop early yet */
	const unsigned total = tune_cli_total_trials(c);
	char err[768];
	int ret, status;

	in.size = tune_cli_union_plan(c);
	in.seed = c->cli.seed;
	catch_signals();
	ret = tune_journal_write(&c->r.queue, &c->journal, err, sizeof(err));
	c->r.untouched = ret != 0;
	if (ret == -EEXIST)
		return tune_cli_stop_at(c, 0, total, EXIT_REFUSED, "let the other tune finish, "
					"then try again", "%s", err);
	if (ret == -EBUSY)
		return tune_cli_stop_at(c, 0, total, EXIT_REFUSED, "let it finish, then try again",
					"refusing to tune %s: %s", c->r.queue.disk, err);
	if (ret)
		return tune_cli_stop_at(c, 0, total, EXIT_RUNTIME, "make the journal directory "
					"writable for root ($DISKBENCH_TUNE_JOURNALS moves it)",
					"%s", err);
	/* what was read before the journal took the disk may be another
	 * tune's trial (one that ended between): the journal must hold what
	 * is there now that nobody else may change it */
	ret = settings_unchanged(c, "the settings changed since tune read them (another tune "
				 "just ended?): ", err, sizeof(err));
	if (ret) {
		tune_journal_discard(&c->journal);
		c->r.untouched = true;
		return tune_cli_stop_at(c, 0, total, EXIT_REFUSED, "nothing was changed: try "
					"again", "refusing to tune %s: %s", c->r.queue.disk, err);
	}
	c->journaled = true;
	tune_restore_arm(&c->journal);
	ret = run_stage(&c->stage, &in, err, sizeof(err));
	if (ret == -EINTR) {
		c->r.interrupted = true;
		put_back(c);
		return 128 + (int)tune_cli_stop;
	}
	if (ret) {
		status = tune_cli_stop_at(c, 0, total, ret == -EBUSY ? EXIT_REFUSED : EXIT_RUNTIME,
					  "fix what the message names, then run tune again", "%s",
					  err);
		put_back(c);
		return status;
	}
	if (c->stage.direct_refused)
		for (unsigned i = 0; i < c->r.nsweeps; i++)
			for (unsigned t = 0; t < c->plans[i].n; t++)
				c->plans[i].specs[t].direct = false;
	tune_cli_announce(c);
	status = tune_cli_run_sweeps(c);
	stage_release(&c->stage);
	if (status == -EINTR) {
		c->r.interrupted = true;
		status = 128 + (int)tune_cli_stop;
	}
	ret = put_back(c);
	return status ? status : ret;
}

int cmd_tune(int argc, char **argv)
{
	/* static: plans of 256 specs, a result of every trial's cells */
	static struct tune_ctx c;
	int status;

	memset(&c, 0, sizeof(c));
	c.stage.claim = -1;
	status = prepare(&c, argc, argv);
	c.progress = isatty(STDERR_FILENO) && !c.cli.quiet;
	if (status == EXIT_OK)
		status = may_change(&c);
	if (status == EXIT_OK) {
		status = sweep(&c);
		/* an interrupted or failed sweep is not analyzed: nothing claimed */
		for (unsigned i = 0; i < c.r.nsweeps; i++)
			tune_analyze(&c.r.sweeps[i], c.r.sweeps[i].nblocks_run, c.a.noise,
				     c.r.seed + i);
		if (c.cli.apply && !c.r.interrupted && status == EXIT_OK)
			status = keep_recommended(&c);
		if (!c.cli.quiet && !c.on_stdout)
			report_tune_text(stdout, &c.r);
		else	/* the report that says them is not shown: stderr does */
			for (unsigned i = 0; i < c.r.nwarnings; i++)
				if (!tune_is_stop_warning(&c.r, c.r.warnings[i]))
					cli_warn("%s", c.r.warnings[i]);
		if (cli_write_outputs(c.out, 2, &c.r) != EXIT_OK && status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	if (c.journaled)
		put_back(&c);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (c.prof_loaded[k])
			profile_free(&c.prof[k]);
	tune_result_free(&c.r);
	return step_exit(status);
}
