/* cmd_tune.c - "diskbench tune TARGET": sweep queue settings, say what is significant, put them back. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "clock.h"
#include "engine.h"
#include "host.h"
#include "opts.h"
#include "parse.h"
#include "pin.h"
#include "plan.h"
#include "profile.h"
#include "report.h"
#include "runner.h"
#include "safety.h"
#include "session.h"
#include "stage.h"
#include "tune.h"
#include "tune_result.h"

#define DEFAULT_BLOCKS 5
#define DEFAULT_NOISE 0.03
#define DEFAULT_READ_AHEAD "0,128,512,2048,8192"
/* Start-up, the cache drop and the teardown around each test of a trial. */
#define TRIAL_OVERHEAD_NS 300000000ull

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
		"test (throughput or p99) and worse on none, and the control is neither.\n"
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

struct tune_args {
	const char *lists[KNOB_COUNT];	/* --scheduler LIST ...; NULL: not given */
	const char *workload;
	unsigned blocks;
	double noise;
	bool apply, restore, quiet, help;
	const char *json, *html;
};

/* Tune's own options out of the settings the one parser filled. */
static void tune_args_from(struct tune_args *a, const struct settings *s)
{
	_Static_assert(TUNE_MAX_BLOCKS == 100, "--blocks' row in opts_table.c says 100");
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		a->lists[k] = opts_get_str(s, tune_knob_option((enum tune_knob)k));
	a->workload = s->workload;
	a->blocks = s->blocks ? (unsigned)s->blocks : DEFAULT_BLOCKS;
	a->noise = s->noise >= 0 ? s->noise : DEFAULT_NOISE;
	a->apply = s->apply;
	a->restore = s->restore;
	a->quiet = s->quiet;
	a->help = s->help;
	a->json = s->json;
	a->html = s->html;
}

/* Everything one tune holds. */
struct tune_ctx {
	struct tune_args a;
	struct settings cli;
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

static volatile sig_atomic_t stop_signal;

/* The first signal stops the sweep, which then restores and reports; a
 * second one restores at once (open/write/close only) and dies. */
static void on_signal(int sig)
{
	if (stop_signal) {
		tune_restore_now();
		target_scratch_cleanup();
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	stop_signal = sig;
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

/* "128", "128k", "1m": KiB. 0 or -EINVAL. */
static int parse_kib(const char *v, char *out, size_t len)
{
	uint64_t bytes;
	char *end;
	unsigned long long n = strtoull(v, &end, 10);

	if (end != v && !*end) {
		snprintf(out, len, "%llu", n);
		return 0;
	}
	if (parse_size(v, &bytes) || bytes % 1024)
		return -EINVAL;
	snprintf(out, len, "%" PRIu64, bytes / 1024);
	return 0;
}

/* One sweep's values: configs[0] the current value, then the list. */
static int sweep_values(struct tune_ctx *c, enum tune_knob k, const char *list,
			struct tune_sweep *s)
{
	const struct tune_queue *q = &c->r.queue;
	char buf[512], *save = NULL, *tok, val[TUNE_VALUE_MAX], err[300];

	s->knob = k;
	s->nconfig = 1;
	snprintf(s->configs[0], sizeof(s->configs[0]), "%s", q->value[k]);
	if (snprintf(buf, sizeof(buf), "%s", list) >= (int)sizeof(buf)) {
		cli_error("--%s: list too long", tune_knob_option(k));
		return EXIT_USAGE;
	}
	for (tok = strtok_r(buf, k == KNOB_SCHEDULER ? ", " : ",", &save); tok;
	     tok = strtok_r(NULL, k == KNOB_SCHEDULER ? ", " : ",", &save)) {
		if (k == KNOB_READ_AHEAD || k == KNOB_MAX_SECTORS) {
			if (parse_kib(tok, val, sizeof(val))) {
				cli_error("--%s: '%s' is not a size in KiB (e.g. 128, 128k, 1m)",
					  tune_knob_option(k), tok);
				return EXIT_USAGE;
			}
		} else {
			/* the scheduler list may come from "[none] mq-deadline" */
			snprintf(val, sizeof(val), "%s", tok + (tok[0] == '['));
			val[strcspn(val, "]")] = '\0';
		}
		if (tune_knob_check(q, k, val, err, sizeof(err))) {
			cli_error("%s", err);
			return EXIT_USAGE;
		}
		if (s->nconfig >= TUNE_MAX_CONFIGS) {
			cli_error("--%s: at most %d values", tune_knob_option(k),
				  TUNE_MAX_CONFIGS - 1);
			return EXIT_USAGE;
		}
		snprintf(s->configs[s->nconfig++], TUNE_VALUE_MAX, "%s", val);
	}
	if (s->nconfig < 2) {
		cli_error("--%s: no value to try", tune_knob_option(k));
		return EXIT_USAGE;
	}
	/* every sweep runs the current value again, the A/A control that
	 * shows the noise and vetoes a verdict it would not survive */
	for (unsigned j = 1; j < s->nconfig; j++)
		if (tune_is_control(s, j))
			return EXIT_OK;
	if (s->nconfig >= TUNE_MAX_CONFIGS) {
		cli_error("--%s: at most %d values besides the current one", tune_knob_option(k),
			  TUNE_MAX_CONFIGS - 2);
		return EXIT_USAGE;
	}
	/* memcpy: snprintf within one object is a -Wrestrict error */
	memcpy(s->configs[s->nconfig++], s->configs[0], sizeof(s->configs[0]));
	return EXIT_OK;
}

/* Knob k's list of values: the one given, or with none given (given
 * false) the default sweeps' (the scheduler's, when the disk offers more
 * than one, and the readahead's); NULL: not swept. A default sweep left
 * out because another knob was named is noted in the result, with how to
 * add it. */
static const char *sweep_list(struct tune_ctx *c, unsigned k, bool given)
{
	const struct tune_queue *q = &c->r.queue;

	if (!given && k == KNOB_SCHEDULER) {
		if (!strchr(q->schedulers, ' ')) {
			tune_warn(&c->r, "%s offers only the scheduler \"%s\": nothing to sweep "
				  "there", q->disk, q->value[KNOB_SCHEDULER]);
			return NULL;
		}
		return q->schedulers;
	}
	if (!given && k == KNOB_READ_AHEAD)
		return DEFAULT_READ_AHEAD;
	if (given && !c->a.lists[k] && k == KNOB_SCHEDULER && strchr(q->schedulers, ' '))
		c->r.skipped[k] = q->schedulers;
	if (given && !c->a.lists[k] && k == KNOB_READ_AHEAD)
		c->r.skipped[k] = DEFAULT_READ_AHEAD;
	return c->a.lists[k];
}

/* Knob k's workload into c->prof[k]: its own profile, or the user's
 * (--workload a profile), or tests of its own profile (--workload tests,
 * set in cli). *wl: the name said in errors. EXIT_OK, or the exit status
 * after saying why. */
static int sweep_profile(struct tune_ctx *c, unsigned k, struct settings *cli, const char **wl)
{
	const char *given = c->a.workload;
	char err[768];
	int ret;

	*wl = k == KNOB_READ_AHEAD ? "tune-readahead" : "tune-scheduler";
	if (given && (profile_is_path(given) ||
		      !profile_load(&c->prof[k], given, err, sizeof(err)))) {
		/* a profile: by name (loaded above) or by path */
		*wl = given;
		if (profile_is_path(given)) {
			ret = cli_load_profile(given, &c->prof[k]);
			if (ret != EXIT_OK)
				return ret;
		}
	} else {
		/* tests, with the settings of the knob's own profile */
		if (given && opts_set(cli, "test", given, OPTS_CLI, err, sizeof(err))) {
			cli_error("--workload: %s", err);
			return EXIT_USAGE;
		}
		ret = cli_load_profile(*wl, &c->prof[k]);
		if (ret != EXIT_OK)
			return ret;
	}
	c->prof_loaded[k] = true;
	return EXIT_OK;
}

/* Sweep s (the i-th, of knob k) planned: its workload's tests and their
 * names, what it will cost in trials. EXIT_OK, or the exit status after
 * saying why. */
static int sweep_plan(struct tune_ctx *c, unsigned i, unsigned k, struct tune_sweep *s)
{
	struct settings cli = c->cli;
	struct plan *p = &c->plans[i];
	struct plan_in in;
	char err[768];
	const char *wl;
	int ret;

	ret = sweep_profile(c, k, &cli, &wl);
	if (ret != EXIT_OK)
		return ret;
	snprintf(s->workload, sizeof(s->workload), "%s", c->prof[k].name);
	c->run[k] = c->prof[k].s;
	opts_override(&c->run[k], &cli);
	in = (struct plan_in){ .prof = &c->prof[k], .cli = &cli, .run = &c->run[k],
			       .e = c->e, .ti = &c->ti, .writes = &c->writes };
	ret = plan_build(p, &in, err, sizeof(err));
	if (ret) {
		cli_error("%s (the %s sweep's workload %s)", err, tune_knob_option(k), wl);
		return ret == -EPERM || ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
	}
	s->ntests = p->n;
	if (s->ntests > TUNE_MAX_TESTS) {
		cli_error("the %s sweep's workload has %u tests (at most %d)",
			  tune_knob_option(k), s->ntests, TUNE_MAX_TESTS);
		return EXIT_USAGE;
	}
	for (unsigned t = 0; t < s->ntests; t++) {
		/* both 64 bytes, terminated (memcpy: snprintf within one
		 * object is a -Wrestrict error to some compilers) */
		_Static_assert(sizeof(s->tests[t]) == sizeof(c->plans[0].names[t]),
			       "test name sizes");
		memcpy(s->tests[t], p->names[t], sizeof(s->tests[t]));
		s->random[t] = p->specs[t].wl->pattern == WL_RAND;
	}
	s->planned = (c->a.blocks * s->nconfig + 2) * s->ntests;
	s->max_blocks = s->nblocks_run = c->a.blocks;
	return EXIT_OK;
}

/* The knobs to sweep, their values and their workloads' plans. */
static int plan_sweeps(struct tune_ctx *c)
{
	const struct tune_queue *q = &c->r.queue;
	bool given = false;
	int ret;

	for (unsigned k = 0; k < KNOB_COUNT; k++)
		given |= c->a.lists[k] != NULL;
	for (unsigned k = 0; k < KNOB_COUNT; k++) {
		const char *list = sweep_list(c, k, given);
		struct tune_sweep *s = &c->r.sweeps[c->r.nsweeps];

		if (!list)
			continue;
		if (!q->have[k]) {
			cli_error("--%s: %s has no queue/%s", tune_knob_option(k), q->disk,
				  tune_knob_attr(k));
			return EXIT_USAGE;
		}
		ret = sweep_values(c, k, list, s);
		if (ret)
			return ret;
		if (c->a.blocks < tune_min_blocks(s->nconfig)) {
			cli_error("tune: --blocks %u: the %s sweep's %u values (the control included) "
				  "need at least %u blocks for its randomization test to find anything",
				  c->a.blocks, tune_knob_option(k), s->nconfig,
				  tune_min_blocks(s->nconfig));
			return EXIT_USAGE;
		}
		ret = sweep_plan(c, c->r.nsweeps, k, s);
		if (ret)
			return ret;
		c->r.nsweeps++;
	}
	if (!c->r.nsweeps) {
		cli_error("%s: nothing to sweep", c->ti.path);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* What the sweep will cost, said before it starts. */
static void announce(struct tune_ctx *c)
{
	uint64_t ns = 0, trials = 0;
	char what[512] = "";
	size_t used = 0;

	for (unsigned i = 0; i < c->r.nsweeps; i++) {
		const struct tune_sweep *s = &c->r.sweeps[i];
		const struct plan *p = &c->plans[i];
		uint64_t per = 0;

		for (unsigned t = 0; t < p->n; t++)
			per += p->specs[t].ramp_ns + p->specs[t].runtime_ns + TRIAL_OVERHEAD_NS;
		trials += s->planned;
		ns += (c->a.blocks * s->nconfig + 2) * per;
		if (used < sizeof(what))
			used += (size_t)snprintf(what + used, sizeof(what) - used, "%s%s: %u values x "
						 "%u tests", used ? "; " : "",
						 tune_knob_option(s->knob), s->nconfig, s->ntests);
	}
	if (c->a.quiet)
		return;
	fprintf(stderr, "diskbench tune %s: %s; %u blocks, %" PRIu64 " trials, about %.1f "
		"min\n", c->r.queue.disk, what, c->a.blocks, trials, (double)ns / 60e9);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (c->r.skipped[k])
			fprintf(stderr, "  not swept: --%s (swept by default; add --%s %s to sweep it "
				"too)\n", tune_knob_option((enum tune_knob)k),
				tune_knob_option((enum tune_knob)k), c->r.skipped[k]);
}

/* Not root, or sysfs read-only: show what would happen, change nothing. */
static int cannot_change(struct tune_ctx *c, const char *why)
{
	cli_error("refusing to tune %s: %s", c->r.queue.disk, why);
	if (!c->a.quiet) {
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

/* The settings of configuration k of sweep s: the found ones, with the
 * swept knob at its value. */
static void config_values(const struct tune_ctx *c, const struct tune_sweep *s, unsigned k,
			  const char *values[KNOB_COUNT])
{
	for (unsigned j = 0; j < KNOB_COUNT; j++)
		values[j] = c->r.queue.have[j] ? c->r.queue.value[j] : NULL;
	values[s->knob] = s->configs[k];
	/* Another scheduler comes with its own queue depth (256 under bfq is
	 * no depth "none" can take): the kernel's, as a switch gives it; the
	 * current scheduler keeps the depth it has. */
	if (s->knob == KNOB_SCHEDULER && k && strcmp(s->configs[k], s->configs[0]))
		values[KNOB_NR_REQUESTS] = TUNE_AS_KERNEL;
}

/* The trials every sweep plans: one test of one value in one block, as
 * the progress line, the text, the JSON and the HTML count them. */
static unsigned total_trials(const struct tune_ctx *c)
{
	unsigned total = 0;

	for (unsigned i = 0; i < c->r.nsweeps; i++)
		total += c->r.sweeps[i].planned;
	return total;
}

/* Stop the sweep at trial n of total: why, and what to do, kept in the
 * result (its JSON, text and HTML) and among its warnings. Returns
 * status, for the caller to return. */
static int stop_at(struct tune_ctx *c, unsigned n, unsigned total, int status, const char *todo,
		   const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static int stop_at(struct tune_ctx *c, unsigned n, unsigned total, int status, const char *todo,
		   const char *fmt, ...)
{
	struct tune_stop *st = &c->r.stop;
	char w[700];
	va_list ap;

	if (c->progress)
		cli_progress_clear();
	st->stopped = true;
	st->trial = n;
	st->total = total;
	va_start(ap, fmt);
	vsnprintf(st->reason, sizeof(st->reason), fmt, ap);
	va_end(ap);
	snprintf(st->todo, sizeof(st->todo), "%s", todo);
	tune_stop_warning(&c->r, w, sizeof(w));
	cli_error("%s; %s", w, st->todo);
	tune_warn(&c->r, "%s", w);
	return status;
}

/* What the kernel moved beside the swept knob, once per configuration. */
static void note_effects(struct tune_sweep *s, unsigned k, const struct tune_effects *fx)
{
	for (unsigned i = 0; i < fx->n; i++) {
		bool seen = false;

		for (unsigned j = 0; j < s->neffects && !seen; j++)
			seen = s->effects[j].config == k && s->effects[j].fx.knob == fx->e[i].knob;
		if (!seen && s->neffects < TUNE_MAX_EFFECTS)
			s->effects[s->neffects++] = (struct tune_sweep_effect){ .config = k,
										.fx = fx->e[i] };
	}
}

/* Every knob of q as it reads now, into v ("" for one q lacks or that
 * cannot be read). */
static void read_all(const struct tune_queue *q, char v[KNOB_COUNT][TUNE_VALUE_MAX])
{
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (!q->have[k] || tune_knob_read(q, (enum tune_knob)k, v[k], TUNE_VALUE_MAX))
			v[k][0] = '\0';
}

/* The knobs that read otherwise now than in was, "scheduler is none, not
 * bfq", into buf; false when none does. */
static bool moved_since(const struct tune_queue *q, char was[KNOB_COUNT][TUNE_VALUE_MAX],
			char *buf, size_t len)
{
	char now[KNOB_COUNT][TUNE_VALUE_MAX];
	size_t used = 0;

	buf[0] = '\0';
	read_all(q, now);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (strcmp(now[k], was[k]) && used + 1 < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s is %s, not %s",
						 used ? ", " : "", tune_knob_attr((enum tune_knob)k),
						 now[k][0] ? now[k] : "(unreadable)", was[k]);
	return used > 0;
}

/* One trial's place, for the session's hooks. */
struct trial_at {
	struct tune_ctx *c;
	struct tune_sweep *s;
	unsigned k, block, n, total;	/* configuration, block, first trial's number */
	unsigned added;			/* trials taken */
	bool cut;			/* a signal cut the last one short */
	struct cli_progress ps;
};

/* session_hooks.begin: the trial's progress line. */
static void trial_begin(void *arg, const struct session_at *at)
{
	struct trial_at *ta = arg;

	memset(&ta->ps, 0, sizeof(ta->ps));
	snprintf(ta->ps.head, sizeof(ta->ps.head), "[trial %u/%u] %s=%s %s", ta->n + at->i,
		 ta->total, tune_knob_option(ta->s->knob), ta->s->configs[ta->k],
		 ta->s->tests[at->i]);
}

/* session_hooks.tested: a whole trial into the sweep. 0, or the exit
 * status after saying why (the result's stop). */
static int trial_tested(void *arg, unsigned t, const struct test_result *tr)
{
	struct trial_at *ta = arg;
	struct tune_ctx *c = ta->c;
	struct tune_sweep *s = ta->s;
	const struct test_spec *spec = &c->plans[s - c->r.sweeps].specs[t];
	struct tune_trial trial = { .config = ta->k, .block = ta->block, .test = t,
				    .iops = tr->iops, .bytes_per_sec = tr->bytes_per_sec,
				    .lat_p99_ns = tr->lat_sum.pct[8], .runtime_ns = tr->runtime_ns,
				    .ops = tr->ops, .errors = tr->errors };
	char gone[256];

	/* a test of passes, or one that runs until it is done, ends when it
	 * is: its runtime is a bound, not a plan */
	if (!tune_trial_judge(&trial, spec->passes || spec->wl->whole ? 0 : spec->runtime_ns)) {
		s->ninvalid++;
		tune_warn(&c->r, "trial %u, %s (%s=%s): %s; left out of the analysis", ta->n + t,
			  s->tests[t], tune_knob_option(s->knob), s->configs[ta->k], trial.invalid);
	}
	if (tune_add_trial(s, &trial)) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	ta->added++;
	/* a device that went away fails every trial after: stop */
	if (trial.invalid[0] && tune_queue_present(&c->r.queue, gone, sizeof(gone)))
		return stop_at(c, ta->n + t, ta->total, EXIT_RUNTIME, "check the device (dmesg), "
			       "then run tune again", "%s", gone);
	return 0;
}

/* Every test of sweep i's plan under configuration k, each trial cold
 * (readahead works on the cache): 0, -EINTR (a signal), or the exit
 * status after saying why (the result's stop). */
static int run_tests(struct trial_at *ta, unsigned i)
{
	struct tune_ctx *c = ta->c;
	struct session_in in = { .plan = &c->plans[i], .stage = &c->stage, .e = c->e,
				 .ti = &c->ti, .run_direct = c->run[i].direct, .repeat = 1,
				 .drop_always = true, .layout_fd = -1, .stop = &stop_signal };
	struct session_hooks h = { .arg = ta, .begin = c->progress ? trial_begin : NULL,
				   .progress = c->progress ? cli_progress_test : NULL,
				   .progress_arg = &ta->ps, .tested = trial_tested };
	struct session_end end;
	struct tune_sweep *s = ta->s;
	char gone[256];
	int ret = session_run(&in, &h, &end);

	ta->cut = end.cut;
	if (ret <= 0 || !end.could_not_run)
		return ret;
	if (tune_queue_present(&c->r.queue, gone, sizeof(gone)))
		return stop_at(c, ta->n + end.cur, ta->total, EXIT_RUNTIME, "check the device "
			       "(dmesg), then run tune again", "%s (%s: %s)", gone,
			       s->tests[end.cur], end.err);
	return stop_at(c, ta->n + end.cur, ta->total, EXIT_RUNTIME, "check the device (dmesg) "
		       "and the run options, then run tune again", "%s (%s=%s): %s",
		       s->tests[end.cur], tune_knob_option(s->knob), s->configs[ta->k], end.err);
}

/* The trials of configuration k of sweep i in one block: every test of
 * its plan, numbered from n. 0, -EINTR (a signal), or the exit status
 * after saying why (the result's stop). */
static int run_trial(struct tune_ctx *c, unsigned i, unsigned k, unsigned block, unsigned n,
		     unsigned total)
{
	struct tune_sweep *s = &c->r.sweeps[i];
	struct trial_at ta = { .c = c, .s = s, .k = k, .block = block, .n = n, .total = total };
	const char *values[KNOB_COUNT];
	char err[512], gone[256], set[KNOB_COUNT][TUNE_VALUE_MAX];
	struct tune_effects fx;
	int ret;

	config_values(c, s, k, values);
	ret = tune_apply_fx(&c->r.queue, values, &fx, err, sizeof(err));
	if (ret == -EACCES || ret == -EROFS)
		return stop_at(c, n, total, EXIT_REFUSED, "run tune as root on a writable /sys",
			       "%s", err);
	if (ret && tune_queue_present(&c->r.queue, gone, sizeof(gone)))
		return stop_at(c, n, total, EXIT_RUNTIME, "check the device (dmesg), then run "
			       "tune again", "%s", gone);
	if (ret)
		return stop_at(c, n, total, EXIT_RUNTIME, "leave that value out of the sweep "
			       "(give the list of values with its option), or report it with the "
			       "kernel version", "%s=%s cannot be set: %s", tune_knob_option(s->knob),
			       s->configs[k], err);
	note_effects(s, k, &fx);
	/* what the trial measures under, to see at its end that nobody
	 * changed it meanwhile */
	read_all(&c->r.queue, set);
	ret = run_tests(&ta, i);
	/* a trial cut short is not a whole one: no more to check */
	if (ret > 0 || (ret == -EINTR && ta.cut))
		return ret;
	/* another program (a udev rule, a tuned profile, a person) changed
	 * the queue under the trial: what it measured is no setting's */
	if (moved_since(&c->r.queue, set, err, sizeof(err))) {
		for (unsigned t = s->ntrials - ta.added; t < s->ntrials; t++) {
			s->ninvalid += !s->trials[t].invalid[0];
			snprintf(s->trials[t].invalid, sizeof(s->trials[t].invalid), "the queue "
				 "changed during the trial, not by tune");
		}
		return stop_at(c, n, total, EXIT_RUNTIME, "find what else sets this queue (udev "
			       "rules, tuned, another tool) and stop it during the tune", "the queue "
			       "changed during the trial, not by tune: %s", err);
	}
	return stop_signal ? -EINTR : 0;
}

/* After trial t of design d: a look of the sequential design, when t
 * ends a block that has one. True when every verdict is settled: the
 * sweep stops early, its plan cut to the blocks run and the last
 * baseline run (which the caller runs next). */
static bool stop_early(struct tune_ctx *c, struct tune_sweep *s, const struct sweep_design *d,
		       unsigned t, uint64_t seed)
{
	unsigned b = d->block[t];

	if (b == SWEEP_OUTSIDE || (t + 1 < d->ntrials && d->block[t + 1] == b) ||
	    !tune_look(s, b + 1, c->a.noise, seed))
		return false;
	s->stopped_early = true;
	s->nblocks_run = b + 1;
	s->planned = ((b + 1) * s->nconfig + 2) * s->ntests;
	return true;
}

/* Every sweep, trial after trial, in its randomised block order; a sweep
 * whose verdicts are settled at a look goes on to its last baseline run. */
static int run_sweeps(struct tune_ctx *c)
{
	unsigned n = 0;
	int ret = 0;

	for (unsigned i = 0; i < c->r.nsweeps && !ret; i++) {
		struct tune_sweep *s = &c->r.sweeps[i];
		struct sweep_design d;

		if (sweep_design(&d, s->nconfig, c->a.blocks, c->r.seed + i)) {
			cli_error("out of memory");
			return EXIT_RUNTIME;
		}
		for (unsigned t = 0; t < d.ntrials && !ret; t++, n += c->plans[i].n) {
			ret = run_trial(c, i, d.config[t], d.block[t], n + 1, total_trials(c));
			if (!ret && t + 1 < d.ntrials && stop_early(c, s, &d, t, c->r.seed + i))
				t = d.ntrials - 2;	/* on to the last baseline run */
		}
		sweep_design_free(&d);
	}
	if (c->progress)
		cli_progress_clear();
	return ret;
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

/* The CPUs every trial's jobs run on: --cpus, or by default the ones
 * pin_default_cpus ranks, job i always on the i-th (the same CPU in every
 * trial, so that a trial measures the setting, not where the scheduler
 * put the job). */
static int pin_trials(struct tune_ctx *c)
{
	struct tune_result *r = &c->r;
	char err[256];
	size_t used;

	if (opts_given(&c->cli, "cpus")) {
		if (pin_check_cpus(c->cli.cpus, c->cli.ncpus, err, sizeof(err))) {
			cli_error("tune: %s", err);
			return EXIT_USAGE;
		}
		r->cpus_given = true;
		r->ncpus = c->cli.ncpus < TUNE_MAX_CPUS ? (unsigned)c->cli.ncpus : TUNE_MAX_CPUS;
		memcpy(r->cpus, c->cli.cpus, r->ncpus * sizeof(r->cpus[0]));
		used = (size_t)snprintf(r->cpus_why, sizeof(r->cpus_why), "--cpus ");
		for (unsigned i = 0; i < r->ncpus && used < sizeof(r->cpus_why); i++)
			used += (size_t)snprintf(r->cpus_why + used, sizeof(r->cpus_why) - used,
						 "%s%d", i ? "," : "", r->cpus[i]);
		if (used < sizeof(r->cpus_why))
			snprintf(r->cpus_why + used, sizeof(r->cpus_why) - used, ": job i on the "
				 "i-th CPU of the list");
		return EXIT_OK;	/* the plans have them from the run options */
	}
	r->ncpus = pin_default_cpus_here(r->cpus, TUNE_MAX_CPUS, r->cpus_why, sizeof(r->cpus_why));
	for (unsigned i = 0; i < r->nsweeps; i++) {
		for (unsigned t = 0; t < c->plans[i].n; t++) {
			c->plans[i].specs[t].cpus = r->ncpus ? r->cpus : NULL;
			c->plans[i].specs[t].ncpus = r->ncpus;
		}
	}
	return EXIT_OK;
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
	if (c->a.help) {
		usage(stdout);
		return STEP_DONE;
	}
	if (c->a.restore) {
		ret = restore_leftovers(c, npos ? pos[0] : NULL);
		return ret == EXIT_OK ? STEP_DONE : ret;
	}
	if (!npos) {
		cli_error("tune: which TARGET? (a block device, or a file or directory on one)");
		return EXIT_USAGE;
	}
	target = pos[0];
	c->out[0] = (struct cli_output){ .opt = "--json", .path = c->a.json,
					 .render = render_tune_json };
	c->out[1] = (struct cli_output){ .opt = "--html", .path = c->a.html,
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
	ret = plan_sweeps(c);
	return ret ? ret : pin_trials(c);
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

/* The union of the sweeps' plans, for the stage (layout, O_DIRECT). */
static uint64_t union_plan(struct tune_ctx *c)
{
	uint64_t size = 0;

	c->all.n = 0;
	for (unsigned i = 0; i < c->r.nsweeps; i++) {
		for (unsigned t = 0; t < c->plans[i].n && c->all.n < MAX_PLAN; t++) {
			c->all.specs[c->all.n++] = c->plans[i].specs[t];
			if (c->plans[i].specs[t].size > size)
				size = c->plans[i].specs[t].size;
		}
	}
	return size;
}

/* Journal, stage, sweeps, restore: 0, 128 + signal, or an exit status. */
static int sweep(struct tune_ctx *c)
{
	struct stage_in in = { .plan = &c->all, .e = c->e, .ti = &c->ti, .stop = &stop_signal };
	char err[768];
	int ret, status;

	in.size = union_plan(c);
	in.seed = c->cli.seed;
	catch_signals();
	ret = tune_journal_write(&c->r.queue, &c->journal, err, sizeof(err));
	c->r.untouched = ret != 0;
	if (ret == -EEXIST)
		return stop_at(c, 0, total_trials(c), EXIT_REFUSED, "let the other tune finish, "
			       "then try again", "%s", err);
	if (ret)
		return stop_at(c, 0, total_trials(c), EXIT_RUNTIME, "make the journal directory "
			       "writable for root ($DISKBENCH_TUNE_JOURNALS moves it)", "%s", err);
	/* what was read before the journal took the disk may be another
	 * tune's trial (one that ended between): the journal must hold what
	 * is there now that nobody else may change it */
	ret = settings_unchanged(c, "the settings changed since tune read them (another tune "
				 "just ended?): ", err, sizeof(err));
	if (ret) {
		tune_journal_discard(&c->journal);
		c->r.untouched = true;
		return stop_at(c, 0, total_trials(c), EXIT_REFUSED, "nothing was changed: try "
			       "again", "refusing to tune %s: %s", c->r.queue.disk, err);
	}
	c->journaled = true;
	tune_restore_arm(&c->journal);
	ret = run_stage(&c->stage, &in, err, sizeof(err));
	if (ret == -EINTR) {
		c->r.interrupted = true;
		put_back(c);
		return 128 + (int)stop_signal;
	}
	if (ret) {
		status = stop_at(c, 0, total_trials(c), ret == -EBUSY ? EXIT_REFUSED : EXIT_RUNTIME,
				 "fix what the message names, then run tune again", "%s", err);
		put_back(c);
		return status;
	}
	if (c->stage.direct_refused)
		for (unsigned i = 0; i < c->r.nsweeps; i++)
			for (unsigned t = 0; t < c->plans[i].n; t++)
				c->plans[i].specs[t].direct = false;
	announce(c);
	status = run_sweeps(c);
	stage_release(&c->stage);
	if (status == -EINTR) {
		c->r.interrupted = true;
		status = 128 + (int)stop_signal;
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
	c.progress = isatty(STDERR_FILENO) && !c.a.quiet;
	if (status == EXIT_OK)
		status = may_change(&c);
	if (status == EXIT_OK) {
		status = sweep(&c);
		/* an interrupted or failed sweep is not analyzed: nothing claimed */
		for (unsigned i = 0; i < c.r.nsweeps; i++)
			tune_analyze(&c.r.sweeps[i], c.r.sweeps[i].nblocks_run, c.a.noise,
				     c.r.seed + i);
		if (c.a.apply && !c.r.interrupted && status == EXIT_OK)
			status = keep_recommended(&c);
		if (!c.a.quiet && !c.on_stdout)
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
