/* run_reqlog.c - --lat-log: the per-request log laid out before the tests, written after each run. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "outfile.h"
#include "report.h"
#include "run_int.h"
#include "strutil.h"

int run_reqlog_open(struct run_ctx *c)
{
	const uint64_t cap = c->s.lat_log_max ? c->s.lat_log_max : REQLOG_DEFAULT_MAX;
	unsigned jobs = 0;
	char err[512], sz[32];
	int ret;

	if (!c->s.lat_log)
		return EXIT_OK;
	for (unsigned i = 0; i < c->plan.n; i++)
		if (c->plan.specs[i].reqlog_max && c->plan.specs[i].jobs > jobs)
			jobs = c->plan.specs[i].jobs;
	if (jobs) {
		/* the memory check (session_check_budget) counted it: this
		 * fails only when the memory went meanwhile */
		ret = reqlog_create(&c->reqlog, jobs, cap);
		if (ret) {
			cli_error("--lat-log %s: no memory for %" PRIu64 " requests of each of %u "
				  "jobs (%s): lower --lat-log-max", c->s.lat_log, cap, jobs,
				  str_bytes_iec(reqlog_bytes(jobs, cap), sz, sizeof(sz)));
			return EXIT_USAGE;
		}
		for (unsigned i = 0; i < c->plan.n; i++)
			if (c->plan.specs[i].reqlog_max)
				c->plan.specs[i].reqlog = &c->reqlog;
	}
	ret = outfile_open(c->s.lat_log, &c->latlog, err, sizeof(err));
	if (!ret)
		ret = report_reqlog_head(c->latlog.f);
	if (ret) {
		cli_error("--lat-log %s: %s", c->s.lat_log, ret == -EIO ? strerror(EIO) : err);
		outfile_abort(&c->latlog);
		reqlog_free(&c->reqlog);
		return ret == -EPERM || ret == -EBUSY ? EXIT_REFUSED : EXIT_USAGE;
	}
	return EXIT_OK;
}

void run_reqlog_tested(struct run_ctx *c, unsigned i, const struct test_result *tr)
{
	const struct test_spec *t = i < c->plan.n ? &c->plan.specs[i] : NULL;

	if (!c->latlog.f || !t || c->latlog_err)
		return;
	if (report_reqlog(c->latlog.f, &c->reqlog, &(struct report_reqlog_run){
			.test = i + 1, .run = ++c->reqlog_runs[i], .jobs = t->jobs, .bs = t->bs,
			.name = tr->name, .logged = t->reqlog != NULL }))
		c->latlog_err = errno ? errno : EIO;	/* said once, at the end */
}

int run_reqlog_close(struct run_ctx *c, bool keep)
{
	char err[512];
	int status = EXIT_OK;

	if (c->latlog.f && keep && !c->latlog_err) {
		if (outfile_commit(&c->latlog, err, sizeof(err))) {
			cli_error("--lat-log %s: %s", c->s.lat_log, err);
			status = EXIT_RUNTIME;
		}
	} else if (c->latlog.f) {
		if (c->latlog_err) {
			cli_error("--lat-log %s: a write failed: %s", c->s.lat_log,
				  strerror(c->latlog_err));
			status = EXIT_RUNTIME;
		}
		outfile_abort(&c->latlog);
	}
	reqlog_free(&c->reqlog);
	return status;
}
