/* run_words.c - what a run says: its --help, warnings, the estimate, how it ended. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "estimate.h"
#include "report.h"
#include "run_int.h"
#include "strutil.h"

/* The words typed, into the result: "diskbench [run] ARGS..." */
void run_record_command(struct run_result *r, int argc, char **argv)
{
	char **w = calloc((size_t)argc + 2, sizeof(*w));
	int n = 0;

	if (!w)
		return;
	w[n++] = "diskbench";
	if (argc && !strcmp(argv[0], "run"))
		w[n++] = "run";
	for (int i = 1; i < argc; i++)
		w[n++] = argv[i];
	str_shell_join(r->command_line, sizeof(r->command_line), n, w);
	free(w);
}

void run_word_moved(struct run_ctx *c)
{
	result_add_warning(&c->r, "the scratch directory %s was moved or replaced during the run "
			   "(by someone who can write %s): its files were removed through "
			   "diskbench's handle on it, and nothing was followed through the name; "
			   "the empty directory is left where it went", c->stage.scratch, c->ti.path);
}

void run_word_left(struct run_ctx *c)
{
	const char *at = target_scratch_stuck();
	const size_t n = at ? strlen(at) : 0;
	double bound = (double)(c->s.io_timeout_ns ? c->s.io_timeout_ns :
				SESSION_IO_TIMEOUT_NS) / 1e9;
	char where[640];

	if (n && at[n - 1] == '/')	/* in a directory, at none of its entries yet */
		snprintf(where, sizeof(where), "reading %s/%.*s to remove what is in it",
			 c->stage.scratch, (int)(n - 1), at);
	else if (n)
		snprintf(where, sizeof(where), "removing %s/%s", c->stage.scratch, at);
	else
		snprintf(where, sizeof(where), "removing it");
	cli_error("the scratch directory %s was left: its file system stopped answering "
		  "(%s did not end within %.1f s, --io-timeout); remove it once the device "
		  "answers again (rm -r %s)", c->stage.scratch, where, bound, c->stage.scratch);
	result_add_warning(&c->r, "the scratch directory %s was left, with what was still in it: "
			   "its file system stopped answering (%s did not end within %.1f s, "
			   "--io-timeout); remove it once the device answers again",
			   c->stage.scratch, where, bound);
}

void run_usage(FILE *f, const char *head)
{
	if (head) {
		fputs(head, f);
		goto options;
	}
	fprintf(f,
		"usage: diskbench [run] [OPTIONS] [TARGET]\n"
		"       diskbench info [--json FILE] [--destructive[=DEV]] TARGET\n"
		"       diskbench list engines|profiles|tests|options\n"
		"       diskbench report [OPTIONS] RESULT.json|RESULT.html...\n"
		"       diskbench compare [--noise PCT] [--json|--html FILE] [--quiet] BEFORE.json AFTER.json...\n"
		"       diskbench tune [OPTIONS] TARGET | --restore [TARGET]\n"
		"\n"
		"Benchmark TARGET: a directory (default: the current one; scratch files\n"
		"in a private diskbench.XXXXXX directory, always removed), a block device\n"
		"or a regular file (both read-only without --destructive). With no options\n"
		"it runs the quick profile: seq read/write 1m QD8, rand read/write 4k QD1\n"
		"and QD32. Options given here override the profile's, in every group.\n"
		"\n");
options:
	fprintf(f, "Options:\n");
	opts_help(f);
	fprintf(f,
		"\n"
		"Sizes: k/m/g/t and KiB/MiB/GiB/TiB are powers of 1024, kB/MB/GB/TB of 1000.\n"
		"Durations: ns, us, ms, s, m, h. Exit status: 0 ok, 1 runtime failure,\n"
		"2 usage error, 3 refused for safety, 130 interrupted.\n");
}

/* Scratch directories of killed runs (kill -9 leaves them): say where, and
 * how to remove them; never remove them unasked. */
void run_word_leftovers(struct run_ctx *c)
{
	const struct target_info *ti = &c->ti;
	struct run_result *r = &c->r;
	char names[8 * 20], cmd[sizeof(names) + 8 * (PATH_MAX / 8)], *save = NULL, *tok;
	size_t used = 0;
	int n = target_scratch_leftovers(ti->resolved, names, sizeof(names));

	if (n <= 0)
		return;
	used = (size_t)snprintf(cmd, sizeof(cmd), "rm -rf --");
	for (tok = strtok_r(names, " ", &save); tok && used < sizeof(cmd);
	     tok = strtok_r(NULL, " ", &save))
		used += (size_t)snprintf(cmd + used, sizeof(cmd) - used, " '%s/%s'", ti->resolved,
					 tok);
	result_add_warning(r, "%d scratch director%s of a killed run %s left in %s "
			   "(nothing holds %s); remove %s with: %s%s", n, n == 1 ? "y" : "ies",
			   n == 1 ? "is" : "are", ti->path, n == 1 ? "it" : "them",
			   n == 1 ? "it" : "them", cmd, n > 8 ? " (and more)" : "");
}

/* What the plan left out or changed, in words. */
void run_word_plan(struct run_ctx *c)
{
	const struct plan *p = &c->plan;
	char names[512];

	for (unsigned i = 0; i < p->nclamps; i++)
		result_add_warning(&c->r, "%s: the %s engine does one request at a time: qd %u "
				   "runs as qd 1", p->clamps[i].wl->name, c->e->name,
				   p->clamps[i].qd);
	if (plan_skipped(p, PLAN_SKIP_WRITES, names, sizeof(names)))
		result_add_warning(&c->r, "skipped %s on %s: %s", names, c->ti.path,
				   c->writes.reason);
	if (plan_skipped(p, PLAN_SKIP_NEEDS_FS, names, sizeof(names)))
		result_add_warning(&c->r, "skipped %s on %s %s: they need a file system (give a "
				   "directory on it as the target)", names,
				   target_kind_name(c->ti.kind), c->ti.path);
	if (plan_skipped(p, PLAN_SKIP_OWN_IO, names, sizeof(names)))
		result_add_warning(&c->r, "skipped %s: they do their own I/O, which the %s engine "
				   "cannot stand in for", names, c->e->name);
	/* More jobs than --cpus gives: they share, job i on the (i mod n)-th. */
	for (unsigned i = 0; c->s.ncpus && !c->pinned_by_default && i < p->n; i++) {
		if (p->specs[i].jobs <= c->s.ncpus)
			continue;
		result_add_warning(&c->r, "--cpus: %u jobs of %s on %zu CPU%s: jobs share them "
				   "(job i runs on the (i mod %zu)-th), and its numbers include "
				   "that", p->specs[i].jobs, p->names[i], c->s.ncpus,
				   c->s.ncpus == 1 ? "" : "s", c->s.ncpus);
		break;
	}
}

/* Before a minute of measuring: how long it will take (tune says so too).
 * On stderr, unless --quiet; the layout and setup are named, not timed. */
void run_word_estimate(const struct run_ctx *c)
{
	struct plan_estimate e;
	unsigned passes = c->s.steady_state ? (c->s.max_rounds ? (unsigned)c->s.max_rounds :
			  SESSION_MAX_ROUNDS) :
			  (unsigned)c->s.repeat;
	char when[32], extra[128] = "", b[32], times[48] = "";
	double secs;

	plan_estimate(&c->plan, passes, c->s.round_ns, c->s.steady_state, &e);
	if (!e.runs)
		return;
	secs = (double)e.ns / 1e9;
	if (secs < 9.5)
		snprintf(when, sizeof(when), "%.1f s", secs);
	else if (secs < 90)
		snprintf(when, sizeof(when), "%.0f s", secs);
	else
		snprintf(when, sizeof(when), "%.1f min", secs / 60);
	if ((c->ti.kind == TARGET_DIR && plan_needs_data(&c->plan) &&
	     !(c->e->flags & ENGINE_F_NO_IO)) || c->lay_out)
		snprintf(extra, sizeof(extra), ", after laying out %s",
			 report_fmt_capacity(c->size, b, sizeof(b)));
	if (passes > 1)
		snprintf(times, sizeof(times), c->s.steady_state ? ", up to %u rounds each" :
			 " x %u passes", passes);
	fprintf(stderr, "%s: %u test%s%s, %s %s%s%s%s\n", cli_name, c->plan.n,
		c->plan.n == 1 ? "" : "s", times, e.bound ? "at most" : "about", when, extra,
		c->s.precondition ? ", after the precondition" : "",
		e.open_ended ? ", and the tests that run until they are done" : "");
}

/* O_DIRECT as the stage found it. */
void run_word_stage(struct run_ctx *c)
{
	if (c->stage.direct_refused && c->ti.direct_via_cache)
		result_add_warning(&c->r, "%s is encrypted with fscrypt, and without -o inlinecrypt "
				   "the kernel serves its O_DIRECT through the page cache: tests run "
				   "buffered, as if their file were larger than RAM (see --buffered), "
				   "so that the device and the decryption are measured, not the cache",
				   c->ti.path);
	else if (c->stage.direct_refused)
		result_add_warning(&c->r, "%s refuses O_DIRECT (%s): tests run buffered, as if "
				   "their file were larger than RAM (see --buffered)",
				   c->ti.path, c->ti.fs_type[0] ? c->ti.fs_type : "unknown fs");
}

void run_begin(void *arg, const struct session_at *at)
{
	struct run_ctx *c = arg;
	struct cli_progress *ps = &c->ps;

	memset(ps, 0, sizeof(*ps));
	if (at->precondition)
		snprintf(ps->head, sizeof(ps->head), "precondition");
	else if (at->npass > 1)
		snprintf(ps->head, sizeof(ps->head), "[%u/%u] %s %u/%u %s", at->i + 1, c->plan.n,
			 c->s.steady_state ? "round" : "pass", at->pass + 1, at->npass, at->name);
	else
		snprintf(ps->head, sizeof(ps->head), "[%u/%u] %s", at->i + 1, c->plan.n, at->name);
	fprintf(stderr, "\r\033[K%s", ps->head);
}

/* What --precondition wrote, when it fell short. */
static void word_precondition(struct run_ctx *c, const struct test_result *tr)
{
	const struct run_precondition *out = &c->r.precondition;
	const struct test_spec *t = &c->pre;

	if (tr->errors)
		result_add_warning(&c->r, "precondition: %" PRIu64 " I/O errors, first: %s at "
				   "offset %" PRIu64 "; the tests did not run", tr->errors,
				   strerror(tr->first_errno), tr->first_error_offset);
	else if (!out->complete)
		result_add_warning(&c->r, "precondition: cut short after %" PRIu64 " of %" PRIu64
				   " bytes%s", out->bytes, (uint64_t)t->passes * t->size,
				   *c->stop ? " (interrupted)" : " (its 24 h bound)");
}

void run_note(void *arg, const struct session_note *n)
{
	struct run_ctx *c = arg;

	switch (n->kind) {
	case SESSION_NOTE_DROP:
		result_add_warning(&c->r, "%s: %s", c->s.drop_caches ? "--drop-caches" :
				   "could not drop cached pages", strerror(-n->err));
		break;
	case SESSION_NOTE_TRIM:
		result_add_warning(&c->r, "--trim: nothing was trimmed before %s: %s", n->name,
				   n->err == -EOPNOTSUPP ? "the file system or device takes no "
				   "discard" : strerror(-n->err));
		break;
	case SESSION_NOTE_PRECONDITION:
		word_precondition(c, n->tr);
		break;
	}
}

/* A request of the last test never completed: the test was ended at its
 * runtime plus --io-timeout and kept, and the run ended there. A file
 * test's is the call its job was in, on its file. */
static void word_stuck(struct run_ctx *c)
{
	const struct session_end *e = &c->end;
	const struct result_io_error *q = &e->stuck_req;
	char what[320];

	if (e->stuck_call.call[0])
		snprintf(what, sizeof(what), "a %s of %s", e->stuck_call.call, e->stuck_call.path);
	else
		snprintf(what, sizeof(what), "a request at offset %" PRIu64, q->offset);
	cli_error("%s: %s (job %u) did not complete within %.1f s (--io-timeout): the test was "
		  "ended there, and the run", e->name, what, q->job,
		  (double)e->io_timeout_ns / 1e9);
	result_add_warning(&c->r, "%s: %s (job %u) did not complete within %.1f s of the test's "
			   "end (--io-timeout): the device hangs; the test was ended %.1f s into "
			   "its window and its job abandoned; that test and the ones before it "
			   "are reported, the rest of the plan was not run", e->name, what, q->job,
			   (double)e->io_timeout_ns / 1e9, (double)q->at_ns / 1e9);
}

/* The session ended at a test's I/O errors: --on-error stop, or a target
 * that no longer answers. The test and the ones before it are kept. */
static void word_io_error(struct run_ctx *c)
{
	const struct session_end *e = &c->end;

	if (e->gone) {
		cli_error("%s: the device stopped answering: %s, then a read of its first block "
			  "failed (%s)", e->name, e->err, e->gone_err == -ETIMEDOUT ?
			  "no answer in 5 s" : strerror(-e->gone_err));
		result_add_warning(&c->r, "%s: the device stopped answering (after %s, a read of "
				   "its first block failed: %s): the run ended there; that test "
				   "and the ones before it are reported, the rest of the plan was "
				   "not run", e->name, e->err, e->gone_err == -ETIMEDOUT ?
				   "no answer in 5 s" : strerror(-e->gone_err));
		return;
	}
	cli_error("%s: I/O error: %s", e->name, e->err);
	result_add_warning(&c->r, "%s: the run stopped at its first I/O error (--on-error stop; "
			   "--on-error continue counts them and goes on): that test, up to the "
			   "error, and the ones before it are reported, the rest of the plan "
			   "was not run", e->name);
}

int run_word_end(struct run_ctx *c, int ret)
{
	const struct session_end *e = &c->end;

	if (ret == -EINTR) {
		if (e->stuck)	/* the stop came while a request hung */
			word_stuck(c);
		if (e->in_precondition && !c->r.precondition.done)
			result_add_warning(&c->r, "interrupted while setting up the precondition");
		return 128 + SIGINT;
	}
	if (!ret)
		return EXIT_OK;
	if (c->progress)
		cli_progress_clear();
	if (e->in_precondition && e->err[0]) {
		cli_error("precondition: %s", e->err);
	} else if (e->stuck) {
		word_stuck(c);
	} else if (e->hung_after) {
		cli_error("%s: %s", e->name, e->err);
		result_add_warning(&c->r, "%s: %s; the run ended there: that test and the ones "
				   "before it are reported, the rest of the plan was not run",
				   e->name, e->err);
	} else if (e->io_error) {
		word_io_error(c);
	} else if (e->could_not_run) {
		/* What was measured before stays: the failure is reported
		 * with it, in every output, and the exit status says so. */
		cli_error("%s: %s", e->name, e->err);
		result_add_warning(&c->r, "%s could not run: %s; the tests before it are "
				   "reported, the rest of the plan was not run", e->name, e->err);
	} else if (!e->in_precondition) {
		cli_error("%s", e->err);
	}
	return EXIT_RUNTIME;
}

/* How far an interrupted --steady-state run got: the test in rounds
 * (end->cur), how many of its rounds it keeps, the tests done before it. */
static void word_rounds(struct run_ctx *c)
{
	const struct session_end *e = &c->end;
	struct run_result *r = &c->r;
	unsigned rounds = r->ntests > e->cur ? r->tests[e->cur].nruns : 0;
	char name[64];

	plan_spec_name(&c->plan.specs[e->cur], c->s.direct, name, sizeof(name));
	if (!rounds)
		result_add_warning(r, "interrupted in round 1 of %s, before it measured "
				   "anything; %u of %u tests ran their rounds before it", name,
				   e->cur, c->plan.n);
	else if (e->cut_kept)
		result_add_warning(r, "interrupted in round 1 of %s: it reports that round, cut "
				   "short; %u of %u tests ran their rounds before it", name, e->cur,
				   c->plan.n);
	else
		result_add_warning(r, "interrupted in round %u of %s: the round cut short is left "
				   "out, and it reports the %u round%s that completed; %u of %u tests "
				   "ran their rounds before it", rounds + 1, name, rounds,
				   rounds == 1 ? "" : "s", e->cur, c->plan.n);
}

/* How far an interrupted run got, in words: passes (--repeat) or rounds
 * (--steady-state) each in their own. */
void run_word_interrupt(struct run_ctx *c)
{
	const struct session_end *e = &c->end;
	struct run_result *r = &c->r;

	if (c->s.steady_state)
		word_rounds(c);
	else if (e->npass == 1 && e->cut_in_setup)
		result_add_warning(r, "interrupted: %u of %u tests ran; %s was stopped while it "
				   "set up, before it measured anything", e->done, c->plan.n,
				   e->name);
	else if (e->npass == 1)
		result_add_warning(r, "interrupted: %u of %u tests ran, the last one cut short",
				   e->done, c->plan.n);
	else if (e->pass <= 1)
		result_add_warning(r, "interrupted in pass 1 of %u: %u of %u tests ran once, the "
				   "last one cut short", e->npass, e->done, c->plan.n);
	else
		result_add_warning(r, "interrupted in pass %u of %u: %u of %u tests ran in it "
				   "(the run cut short is left out); each test reports the runs "
				   "that completed", e->pass, e->npass, e->done, c->plan.n);
}
