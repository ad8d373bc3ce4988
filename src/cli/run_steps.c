/* run_steps.c - the run's steps before it measures: the target, the plan, the stage. */
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "host.h"
#include "run_int.h"

/* A check of the session's: its reason said, its status. */
static int checked(int ret, const char *err)
{
	if (!ret)
		return EXIT_OK;
	cli_error("%s", err);
	return ret == -EPERM || ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
}

/* What the target is, whether writes are allowed, the result's header. */
int run_probe(struct run_ctx *c, const char *target)
{
	char err[512];
	int ret;

	ret = target_probe(target, &c->ti, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", target, err);
		return EXIT_USAGE;
	}
	ret = cli_check_dir_writable(&c->ti, err, sizeof(err));
	if (!ret)
		ret = plan_pick_size(&c->s, &c->ti, &c->size, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
	}
	cli_writes_verdict(c->s.destructive, &c->ti, &c->writes);
	if (c->s.precondition && !c->writes.allowed) {
		cli_error("refusing to precondition %s (it writes all of it): %s", c->ti.path,
			  c->writes.reason);
		return EXIT_REFUSED;
	}
	if (c->s.trim && (ret = checked(session_check_trim(&c->ti, &c->writes, err, sizeof(err)),
				      err)) != EXIT_OK)
		return ret;
	if (c->ti.kind == TARGET_DIR)
		run_word_leftovers(c);
	c->r.tool_version = PACKAGE_VERSION;
	cli_now_iso(c->r.started_at, sizeof(c->r.started_at));
	if (c->s.label)
		snprintf(c->r.label, sizeof(c->r.label), "%s", c->s.label);
	host_probe(&c->r.host);
	c->r.target = c->ti;
	c->r.clock_overhead_ns = clock_overhead_ns();
	return EXIT_OK;
}

/* The tests, what was left out and why, and whether the machine, the
 * file system and the process limits can take them. */
int run_plan(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	struct plan_in in = { .prof = &c->prof, .cli = &c->cli, .run = &c->s, .e = c->e,
			      .ti = &c->ti, .writes = &c->writes };
	char err[1600], own[512];
	int ret;

	ret = plan_build(p, &in, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -EPERM || ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
	}
	if (c->s.verify) {
		ret = checked(session_check_verify(p, &c->ti, &c->writes, own, sizeof(own), err,
						   sizeof(err)), err);
		if (ret != EXIT_OK)
			return ret;
		if (own[0])
			result_add_warning(&c->r, "--verify: not checked, doing their own I/O: %s",
					   own);
	}
	run_word_plan(c);
	/* Lay out enough for the largest working set of the plan. */
	c->size = 0;
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].size > c->size)
			c->size = p->specs[i].size;
	if (c->s.hipri &&
	    (ret = checked(session_check_hipri(p, c->e, &c->ti, err, sizeof(err)), err)) != EXIT_OK)
		return ret;
	if (c->s.precondition &&
	    plan_precondition(&c->s, c->e, &c->ti, c->size, &c->pre, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	/* --destructive on a device or file: the working set is written before
	 * the read tests, so that they read data rather than holes or trimmed
	 * blocks (a directory's data file is laid out always). Not after
	 * --precondition, which writes all of it anyway. */
	c->lay_out = c->ti.kind != TARGET_DIR && c->s.destructive && c->writes.allowed &&
		     !c->s.precondition && !(c->e->flags & ENGINE_F_NO_IO) &&
		     session_reads_data(p);
	return checked(session_check_budget(p, c->e, &c->ti, c->size, (unsigned)c->s.max_fill, err,
					    sizeof(err)), err);
}

/* The stage (claim, scratch, layout, O_DIRECT), and the settings echo. */
int run_stage_set(struct run_ctx *c)
{
	struct stage_in in = { .plan = &c->plan, .e = c->e, .ti = &c->ti, .size = c->size,
			       .seed = c->s.seed, .checkable = plan_checks(&c->plan),
			       .lay_out = c->lay_out, .stop = c->stop,
			       .io_timeout_ns = c->s.io_timeout_ns,
			       .progress = c->progress ? cli_progress_layout : NULL,
			       .progress_arg = (void *)c->ti.path };
	char err[768];
	int ret;

	ret = run_stage(&c->stage, &in, err, sizeof(err));
	if (c->progress)
		cli_progress_clear();
	if (ret == -EINTR) {
		result_add_warning(&c->r, "%s", err);
		return 128 + SIGINT;
	}
	if (ret) {
		cli_error("%s", err);
		return ret == -EBUSY ? EXIT_REFUSED : EXIT_RUNTIME;
	}
	run_word_stage(c);
	if (c->stage.direct_refused) {
		c->s.direct = 0;
		/* the stage tried the data file itself: its word is final */
		c->ti.direct_io = c->r.target.direct_io = 0;
	}
	c->layout_fd = session_layout_open(&c->plan, c->e, &c->ti, &c->stage, &c->r.read_layout);
	c->s.size = c->size;	/* echo the working set used, not "0" for the default */
	opts_echo(&c->s, &c->r);
	result_add_setting(&c->r, "engine_resolved", "%s", c->e->name);
	if (c->s.lat_log)
		result_add_setting(&c->r, "lat_log_max", "%" PRIu64,
				   c->s.lat_log_max ? c->s.lat_log_max : REQLOG_DEFAULT_MAX);
	/* settings.cpus is then the list pin_default_cpus chose */
	if (c->pinned_by_default)
		result_add_setting(&c->r, "pinning", "default (%s): job i on the i-th of cpus",
				   c->s.repeat > 1 ? "--repeat" : "--append");
	return EXIT_OK;
}
