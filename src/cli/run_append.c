/* run_append.c - --append FILE: this run's runs added to a saved result's (append.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "append.h"
#include "load.h"
#include "repeat.h"
#include "run_int.h"

/* The output --append writes (cmd_run.c checks it with the others). */
static const struct cli_output *out_of(const struct run_ctx *c)
{
	return &c->outs[CLI_RESULT_OUTPUTS + 1];
}

int run_append_open(struct run_ctx *c)
{
	const char *path = c->s.append, *names[MAX_PLAN];
	static char name[MAX_PLAN][64];
	char err[1024];
	struct stat st;

	if (!path)
		return EXIT_OK;
	if (c->outs[CLI_RESULT_OUTPUTS + 1].to_stdout) {
		cli_error("--append %s: needs a file to read the earlier runs from and write "
			  "back, not stdout", path);
		return EXIT_USAGE;
	}
	/* a test in rounds until steady, or after a precondition, is no
	 * run of a side: its rounds are */
	if (c->s.steady_state) {
		cli_error("--append: not with --steady-state or --precondition (a test's "
			  "rounds there are not runs of it to add)");
		return EXIT_USAGE;
	}
	if (stat(path, &st) && errno == ENOENT)
		return EXIT_OK;	/* made by this run */
	if (result_load_max(path, LOAD_MAX_BYTES, &c->prior, err, sizeof(err))) {
		cli_error("--append %s", err);
		return EXIT_USAGE;
	}
	c->prior_loaded = true;
	for (unsigned i = 0; i < c->plan.n; i++) {
		plan_spec_name(&c->plan.specs[i], c->s.direct, name[i], sizeof(name[i]));
		names[i] = name[i];
	}
	if (result_append_check(&c->prior, c->ti.resolved[0] ? c->ti.resolved : c->ti.path,
				names, c->plan.n, err, sizeof(err))) {
		cli_error("--append %s: cannot take this run's: %s", path, err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int run_append_check(struct run_ctx *c)
{
	char err[512];

	if (!c->prior_loaded ||
	    !result_append_check_settings(&c->prior, &c->r, err, sizeof(err)))
		return EXIT_OK;
	cli_error("--append %s: cannot take this run's: %s (give the options its runs had)",
		  c->s.append, err);
	return EXIT_USAGE;
}

int run_append_write(struct run_ctx *c)
{
	const struct run_result *r = c->prior_loaded ? &c->prior : &c->r;
	int ret;

	if (!c->s.append || !c->r.ntests)
		return EXIT_OK;
	/* every test of the plan, whole: a side short of a test is no side */
	if (c->r.ntests != c->plan.n) {
		cli_error("--append %s: left as it was: this run did not run every test",
			  c->s.append);
		return EXIT_RUNTIME;
	}
	if (c->prior_loaded) {
		ret = result_append(&c->prior, &c->r);
		if (ret == -ENOSPC) {
			cli_error("--append %s: left as it was: a test would have more than "
				  "%d runs", c->s.append, REPEAT_MAX);
			return EXIT_RUNTIME;
		}
		if (ret) {
			cli_error("--append %s: out of memory", c->s.append);
			return EXIT_RUNTIME;
		}
	}
	if (cli_write_outputs(out_of(c), 1, r) != EXIT_OK)
		return EXIT_RUNTIME;
	if (!c->s.quiet)
		fprintf(stderr, "%s: --append %s: %u run%s of each test\n", cli_name, c->s.append,
			r->tests[0].nruns, r->tests[0].nruns == 1 ? "" : "s");
	return EXIT_OK;
}

void run_append_close(struct run_ctx *c)
{
	if (c->prior_loaded)
		result_free(&c->prior);
	c->prior_loaded = false;
}
