/* tune_plan.c - tune's sweeps planned: each knob's values, workload and tests, the CPUs, the cost. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "pin.h"
#include "tune_cli.h"

/* Start-up, the cache drop and the teardown around each test of a trial. */
#define TRIAL_OVERHEAD_NS 300000000ull

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
	const char *given = c->cli.workload;
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
int tune_cli_plan_sweeps(struct tune_ctx *c)
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
void tune_cli_announce(struct tune_ctx *c)
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
	if (c->cli.quiet)
		return;
	fprintf(stderr, "diskbench tune %s: %s; %u blocks, %" PRIu64 " trials, about %.1f "
		"min\n", c->r.queue.disk, what, c->a.blocks, trials, (double)ns / 60e9);
	for (unsigned k = 0; k < KNOB_COUNT; k++)
		if (c->r.skipped[k])
			fprintf(stderr, "  not swept: --%s (swept by default; add --%s %s to sweep it "
				"too)\n", tune_knob_option((enum tune_knob)k),
				tune_knob_option((enum tune_knob)k), c->r.skipped[k]);
}

/* The CPUs every trial's jobs run on: --cpus, or by default the ones
 * pin_default_cpus ranks, job i always on the i-th (the same CPU in every
 * trial, so that a trial measures the setting, not where the scheduler
 * put the job). */
int tune_cli_pin_trials(struct tune_ctx *c)
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

/* The union of the sweeps' plans, for the stage (layout, O_DIRECT). */
uint64_t tune_cli_union_plan(struct tune_ctx *c)
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
