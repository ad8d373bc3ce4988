/* tune_trials.c - tune's trials: a value set, its tests run by the session, checked, kept. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "session.h"
#include "sweep.h"
#include "tune_cli.h"

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

/* One trial: one test of one value in one block. */
unsigned tune_cli_total_trials(const struct tune_ctx *c)
{
	unsigned total = 0;

	for (unsigned i = 0; i < c->r.nsweeps; i++)
		total += c->r.sweeps[i].planned;
	return total;
}

int tune_cli_stop_at(struct tune_ctx *c, unsigned n, unsigned total, int status,
		     const char *todo, const char *fmt, ...)
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
		return tune_cli_stop_at(c, ta->n + t, ta->total, EXIT_RUNTIME, "check the device "
					"(dmesg), then run tune again", "%s", gone);
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
				 .drop_always = true, .layout_fd = -1, .stop = &tune_cli_stop };
	struct session_hooks h = { .arg = ta, .begin = c->progress ? trial_begin : NULL,
				   .progress = c->progress ? cli_progress_test : NULL,
				   .progress_arg = &ta->ps, .tested = trial_tested };
	struct session_end end;
	struct tune_sweep *s = ta->s;
	char gone[256];
	int ret = session_run(&in, &h, &end);

	ta->cut = end.cut;
	/* a trial that could not run (a request that never completed: the
	 * device hangs) stops the tune, which puts everything back */
	if (ret >= 0 || ret == -EINTR || !end.could_not_run)
		return ret;
	if (tune_queue_present(&c->r.queue, gone, sizeof(gone)))
		return tune_cli_stop_at(c, ta->n + end.cur, ta->total, EXIT_RUNTIME,
					"check the device (dmesg), then run tune again",
					"%s (%s: %s)", gone, s->tests[end.cur], end.err);
	return tune_cli_stop_at(c, ta->n + end.cur, ta->total, EXIT_RUNTIME, "check the device "
				"(dmesg) and the run options, then run tune again",
				"%s (%s=%s): %s", s->tests[end.cur], tune_knob_option(s->knob),
				s->configs[ta->k], end.err);
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
		return tune_cli_stop_at(c, n, total, EXIT_REFUSED, "run tune as root on a "
					"writable /sys", "%s", err);
	if (ret && tune_queue_present(&c->r.queue, gone, sizeof(gone)))
		return tune_cli_stop_at(c, n, total, EXIT_RUNTIME, "check the device (dmesg), "
					"then run tune again", "%s", gone);
	if (ret)
		return tune_cli_stop_at(c, n, total, EXIT_RUNTIME, "leave that value out of the "
					"sweep (give the list of values with its option), or "
					"report it with the kernel version", "%s=%s cannot be "
					"set: %s", tune_knob_option(s->knob), s->configs[k], err);
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
		return tune_cli_stop_at(c, n, total, EXIT_RUNTIME, "find what else sets this queue "
					"(udev rules, tuned, another tool) and stop it during the "
					"tune", "the queue changed during the trial, not by "
					"tune: %s", err);
	}
	return tune_cli_stop ? -EINTR : 0;
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
int tune_cli_run_sweeps(struct tune_ctx *c)
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
			ret = run_trial(c, i, d.config[t], d.block[t], n + 1,
					tune_cli_total_trials(c));
			if (!ret && t + 1 < d.ntrials && stop_early(c, s, &d, t, c->r.seed + i))
				t = d.ntrials - 2;	/* on to the last baseline run */
		}
		sweep_design_free(&d);
	}
	if (c->progress)
		cli_progress_clear();
	return ret;
}
