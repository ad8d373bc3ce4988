/* cmd_run.c - "diskbench [run] [OPTIONS] [TARGET]": plan, safety, run, report. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/statvfs.h>
#include <time.h>
#include <unistd.h>

#include "annotate.h"
#include "budget.h"
#include "cli.h"
#include "clock.h"
#include "engine.h"
#include "estimate.h"
#include "host.h"
#include "load.h"
#include "opts.h"
#include "pin.h"
#include "parse.h"
#include "plan.h"
#include "profile.h"
#include "repeat.h"
#include "report.h"
#include "runner.h"
#include "safety.h"
#include "stage.h"
#include "strutil.h"
#include "target.h"
#include "unwritten.h"
#include "version.h"
#include "workload.h"
#include "xbench.h"

#define DEFAULT_PROFILE "quick"

static void usage(FILE *f, const char *head)
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
static void note_leftovers(const struct target_info *ti, struct run_result *r)
{
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

/* Every CPU of --cpus must be one this process may run on. */
static int check_cpus(const struct settings *s, char *err, size_t errlen)
{
	return pin_check_cpus(s->cpus, s->ncpus, err, errlen);
}

/*
 * The first SIGINT asks the running test to stop and the run to report what
 * it measured; the second stops at once, still removing scratch files
 * (target_scratch_cleanup is async-signal-safe). SIGTERM and SIGHUP keep the
 * scratch module's handlers: clean up and die.
 */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	if (interrupted) {
		target_scratch_cleanup();
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	interrupted = 1;
}

static void catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
}

/* Everything one run holds, from the options to the reports. */
struct run_ctx {
	struct settings cli, s;
	struct profile prof;
	const struct engine_ops *e;
	struct xbench_baseline baseline;
	struct target_info ti;
	struct safety_verdict writes;
	struct plan plan;
	struct test_spec pre;		/* --precondition's test */
	struct stage stage;
	struct run_result r;
	struct cli_output outs[CLI_RESULT_OUTPUTS];
	bool on_stdout, progress, failed, trim_warned;
	uint64_t size;			/* the working set laid out */
	unsigned done, pass, npass;	/* tests done in the last pass; passes */
	unsigned cur;			/* --steady-state: the test in rounds */
	char cut_in_setup[64];		/* the test Ctrl-C stopped while it set up */
	bool cut_kept;			/* the last run, cut short, was kept */
	const struct cli_run_hooks *h;	/* a coordinated run's, or NULL */
	bool silent;			/* a rank that does not report */
	bool pinned_by_default;		/* --repeat without --cpus: pin_default_cpus */
	const char *given;		/* TARGET as typed */
	int layout_fd;			/* where the data's allocation is read; -1 */
	/* The last read test's check, for the next over the same region while
	 * no test has written since (a disk seeks 256 times per check) */
	bool checked_valid;
	struct read_extent checked_extent;
	uint64_t checked_seed;
	struct unwritten checked;
};

/* Stage results besides exit statuses: stop here, all is well (--help). */
#define RUN_DONE (-1)

/* The words typed, into the result: "diskbench [run] ARGS..." */
static void record_command(struct run_result *r, int argc, char **argv)
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
			usage(stdout, c->h ? c->h->usage : NULL);
		return RUN_DONE;
	}
	if (c->cli.version) {
		char v[1024];

		version_text(v, sizeof(v));
		if (!c->silent)
			fputs(v, stdout);
		return RUN_DONE;
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
	if (ret >= 0)
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
	if (c->s.repeat > 1 && !c->s.ncpus && !c->h) {
		c->s.ncpus = pin_default_cpus_here(c->s.cpus, OPTS_MAX_CPUS, NULL, 0);
		c->pinned_by_default = c->s.ncpus > 0;
	}
	/* A rank that does not report writes no file and no table. */
	if (c->silent) {
		c->s.json = c->s.csv = c->s.bonnie_csv = c->s.html = NULL;
		c->s.quiet = 1;
	}
	/* Where the reports go is checked before a minute of measuring. */
	cli_result_outputs(c->outs, &(struct cli_result_paths){
		.json = c->s.json, .csv = c->s.csv, .bonnie_csv = c->s.bonnie_csv,
		.html = c->s.html });
	ret = cli_check_outputs(c->outs, CLI_RESULT_OUTPUTS, &c->on_stdout);
	if (ret != EXIT_OK)
		return ret;
	if (opts_check(&c->s, &c->cli, c->e, geteuid() == 0, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* --trim where it can work, before anything runs: a block device that
 * takes discards and may be written, a file system with FITRIM. */
static int check_trim(struct run_ctx *c)
{
	int fd, ret;

	switch (c->ti.kind) {
	case TARGET_FILE:
		cli_error("--trim: %s is a file: only a directory's file system (fstrim) or a "
			  "block device can be trimmed", c->ti.path);
		return EXIT_USAGE;
	case TARGET_BLOCK:
		if (!c->writes.allowed) {
			cli_error("--trim: writes to %s are not allowed, and a discard destroys "
				  "data as a write does: %s", c->ti.path, c->writes.reason);
			return EXIT_REFUSED;
		}
		if (c->ti.discard == 0) {
			cli_error("--trim: %s takes no discard (queue/discard_max_bytes is 0)",
				  c->ti.path);
			return EXIT_USAGE;
		}
		return EXIT_OK;
	case TARGET_DIR:
		fd = open(c->ti.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		ret = fd < 0 ? -errno : target_trim_supported(fd);
		if (fd >= 0)
			close(fd);
		if (ret == -EOPNOTSUPP) {
			cli_error("--trim: the file system of %s (%s) takes no FITRIM", c->ti.path,
				  c->ti.fs_type[0] ? c->ti.fs_type : "unknown");
			return EXIT_USAGE;
		}
		if (ret) {
			cli_error("--trim: FITRIM on %s: %s", c->ti.path, strerror(-ret));
			return EXIT_USAGE;
		}
		return EXIT_OK;
	}
	return EXIT_OK;
}

/* What the target is, whether writes are allowed, the result's header. */
static int do_probe(struct run_ctx *c, const char *target)
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
	if (c->s.trim) {
		ret = check_trim(c);
		if (ret != EXIT_OK)
			return ret;
	}
	if (c->ti.kind == TARGET_DIR)
		note_leftovers(&c->ti, &c->r);
	c->r.tool_version = PACKAGE_VERSION;
	cli_now_iso(c->r.started_at, sizeof(c->r.started_at));
	if (c->s.label)
		snprintf(c->r.label, sizeof(c->r.label), "%s", c->s.label);
	host_probe(&c->r.host);
	c->r.target = c->ti;
	c->r.clock_overhead_ns = clock_overhead_ns();
	return EXIT_OK;
}

/* What the plan left out or changed, in words. */
static void word_plan(struct run_ctx *c)
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
}

/*
 * --verify needs a test whose blocks it can check: none left because the
 * target may not be written is the safety gate's refusal (3); none in the
 * plan at all is a usage error (2). Write tests doing their own I/O are
 * run unchecked, and the run says so.
 */
static int check_verify(struct run_ctx *c)
{
	const struct plan *p = &c->plan;
	char reads[512], own[512], skipped[512];
	unsigned nreads = plan_unverified(p, false, reads, sizeof(reads));
	unsigned nown = plan_unverified(p, true, own, sizeof(own));

	if (plan_verified(p)) {
		if (nown)
			result_add_warning(&c->r, "--verify: not checked, doing their own I/O: %s",
					   own);
		return EXIT_OK;
	}
	if (plan_skipped(p, PLAN_SKIP_WRITES, skipped, sizeof(skipped))) {
		cli_error("--verify: writes to %s are not allowed (%s), and the tests that write "
			  "blocks to check were left out: %s", c->ti.path, c->writes.reason,
			  skipped);
		return EXIT_REFUSED;
	}
	cli_error("--verify: no test writes blocks it could check (%s%s%s%s); to check what an "
		  "earlier run wrote, use --test verify", reads, nreads && nown ? ", " : "", own,
		  nown ? " doing its own I/O" : "");
	return EXIT_USAGE;
}

/* --hipri where it can work, before anything runs: io_uring, O_DIRECT,
 * and a device with poll queues (NVMe with nvme.poll_queues=N). */
static int check_hipri(struct run_ctx *c)
{
	const char *dev = c->ti.disk[0] ? c->ti.disk : c->ti.path;

	if (!(c->e->flags & ENGINE_F_POLLS)) {
		cli_error("--hipri: only the io_uring engine polls for completions (not %s)",
			  c->e->name);
		return EXIT_USAGE;
	}
	for (unsigned i = 0; i < c->plan.n; i++) {
		if (!c->plan.specs[i].direct && c->plan.specs[i].wl->kind == WL_BLOCK) {
			cli_error("--hipri: polled completions need O_DIRECT, and %s is buffered",
				  c->plan.names[i]);
			return EXIT_USAGE;
		}
	}
	if (c->ti.io_poll != 1) {
		cli_error("--hipri: %s has no poll queues (queue/io_poll is %s): polling needs "
			  "a device that has them, such as NVMe loaded with nvme.poll_queues=N",
			  dev, c->ti.io_poll == 0 ? "0" : "unknown");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* The tests, what was left out and why, and whether the machine, the
 * file system and the process limits can take them. */
static int do_plan(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	struct plan_in in = { .prof = &c->prof, .cli = &c->cli, .run = &c->s, .e = c->e,
			      .ti = &c->ti, .writes = &c->writes };
	struct budget_need need;
	struct budget_mem mem;
	char err[768];
	int ret;

	ret = plan_build(p, &in, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -EPERM || ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
	}
	if (c->s.verify) {
		ret = check_verify(c);
		if (ret != EXIT_OK)
			return ret;
	}
	word_plan(c);
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
	/* Lay out enough for the largest working set of the plan. */
	c->size = 0;
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].size > c->size)
			c->size = p->specs[i].size;
	if (c->s.hipri) {
		ret = check_hipri(c);
		if (ret != EXIT_OK)
			return ret;
	}
	if (c->s.precondition &&
	    plan_precondition(&c->s, c->e, &c->ti, c->size, &c->pre, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	budget_plan(p->specs, p->n, c->ti.kind == TARGET_DIR && plan_needs_data(p) &&
		    !(c->e->flags & ENGINE_F_NO_IO) ? c->size : 0, &need);
	ret = budget_memory(&mem) ? 0 : budget_check_memory(&need, p->specs, &mem, err,
							    sizeof(err));
	if (!ret)
		ret = budget_check_fds(&need, p->specs, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (!(c->e->flags & ENGINE_F_NO_IO) &&
	    budget_check_space(&need, p->specs, p->n, &c->ti, (unsigned)c->s.max_fill, err,
			       sizeof(err))) {
		cli_error("%s", err);
		return EXIT_REFUSED;
	}
	return EXIT_OK;
}

/* Does a test of the plan read the data (the unwritten check's tests)? */
static bool plan_reads_data(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (wl_reads_data(p->specs[i].wl))
			return true;
	return false;
}

/*
 * --destructive on a device or file: write the working set before the
 * read tests, so that they read data rather than holes or trimmed blocks
 * (a directory's data file is laid out always). Not after --precondition,
 * which writes all of it anyway.
 */
static bool lay_out_reads(const struct run_ctx *c)
{
	return c->ti.kind != TARGET_DIR && c->s.destructive && c->writes.allowed &&
	       !c->s.precondition && !(c->e->flags & ENGINE_F_NO_IO) &&
	       plan_reads_data(&c->plan);
}

/* Where the read tests' allocation is read from (unwritten.h), once the
 * data is in place: into the result, the descriptor kept for the run. */
static void open_layout(struct run_ctx *c)
{
	struct read_layout *lay = &c->r.read_layout;

	if ((c->e->flags & ENGINE_F_NO_IO) || !plan_reads_data(&c->plan))
		return;
	c->layout_fd = unwritten_layout_open(&c->ti, &c->stage.where.data, lay);
	if (c->ti.kind == TARGET_DIR)
		snprintf(lay->file, sizeof(lay->file), "%.*s/%s", PATH_MAX - 16,
			 c->stage.scratch, c->stage.where.data.name);
	lay->laid_out = c->stage.laid_out_ns > 0;
	lay->laid_out_bytes = c->stage.laid_out_bytes;
	lay->laid_out_ns = c->stage.laid_out_ns;
}

/* Before a minute of measuring: how long it will take (tune says so too).
 * On stderr, unless --quiet; the layout and setup are named, not timed. */
static void word_estimate(const struct run_ctx *c)
{
	struct plan_estimate e;
	unsigned passes = c->s.steady_state ? (c->s.max_rounds ? (unsigned)c->s.max_rounds : 25) :
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
	     !(c->e->flags & ENGINE_F_NO_IO)) || lay_out_reads(c))
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

/* The stage (claim, scratch, layout, O_DIRECT), and the settings echo. */
static int do_stage(struct run_ctx *c)
{
	struct stage_in in = { .plan = &c->plan, .e = c->e, .ti = &c->ti, .size = c->size,
			       .seed = c->s.seed, .checkable = plan_checks(&c->plan),
			       .lay_out = lay_out_reads(c), .stop = &interrupted,
			       .progress = c->progress ? cli_progress_layout : NULL,
			       .progress_arg = (void *)c->ti.path };
	char err[768];
	int ret;

	/* Before the scratch directory: the first Ctrl-C is ours. */
	catch_sigint();
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
	if (c->stage.direct_refused) {
		c->s.direct = 0;
		/* the stage tried the data file itself: its word is final */
		c->ti.direct_io = c->r.target.direct_io = 0;
	}
	open_layout(c);
	c->s.size = c->size;	/* echo the working set used, not "0" for the default */
	opts_echo(&c->s, &c->r);
	result_add_setting(&c->r, "engine_resolved", "%s", c->e->name);
	/* settings.cpus is then the list pin_default_cpus chose */
	if (c->pinned_by_default)
		result_add_setting(&c->r, "pinning", "default (--repeat): job i on the i-th of cpus");
	return EXIT_OK;
}

/* --precondition, after the stage and before the first test: what it
 * wrote goes into the result, also when Ctrl-C cut it short. */
static int do_precondition(struct run_ctx *c)
{
	struct run_precondition *out = &c->r.precondition;
	struct test_spec *t = &c->pre;
	struct cli_progress ps = { 0 };
	struct test_result tr;
	char err[512];
	int ret;

	t->direct = c->s.direct;	/* the stage may have found O_DIRECT refused */
	if (c->progress) {
		snprintf(ps.head, sizeof(ps.head), "precondition");
		t->progress = cli_progress_test;
		t->progress_arg = &ps;
		fprintf(stderr, "\r\033[K%s", ps.head);
	}
	t->stop = &interrupted;
	ret = runner_run(t, &c->stage.where, &tr, err, sizeof(err));
	t->progress = NULL;
	if (c->progress)
		cli_progress_clear();
	if (ret == -EINTR && interrupted) {
		result_add_warning(&c->r, "interrupted while setting up the precondition");
		return 128 + SIGINT;
	}
	if (ret) {
		cli_error("precondition: %s", err);
		return EXIT_RUNTIME;
	}
	*out = (struct run_precondition){
		.done = true, .complete = tr.passes_done, .bs = t->bs, .qd = t->qd,
		.passes = t->passes, .region = t->size, .bytes = tr.bytes,
		.time_ns = tr.runtime_ns, .dev_valid = tr.dev_valid,
		.dev_write_bytes = tr.dev_write_bytes,
	};
	if (tr.errors)
		result_add_warning(&c->r, "precondition: %" PRIu64 " I/O errors, first: %s at "
				   "offset %" PRIu64 "; the tests did not run", tr.errors,
				   strerror(tr.first_errno), tr.first_error_offset);
	else if (!out->complete)
		result_add_warning(&c->r, "precondition: cut short after %" PRIu64 " of %" PRIu64
				   " bytes%s", out->bytes, (uint64_t)t->passes * t->size,
				   interrupted ? " (interrupted)" : " (its 24 h bound)");
	ret = tr.errors ? EXIT_RUNTIME : interrupted ? 128 + SIGINT : EXIT_OK;
	result_test_free(&tr);
	return ret;
}

/*
 * --settle: what hdparm does before it times (prepare_timing_buf): write
 * back everything dirty, system-wide, and leave the machine idle a while,
 * so that neither writeback nor the I/O just before runs into the window.
 * Ctrl-C ends the pause.
 */
static void settle(uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	sync();
	while (!interrupted && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --trim before a write test. A failure costs a warning (once), not the
 * test; out->method is then NULL. */
static void trim_before(struct run_ctx *c, const struct test_spec *t, const char *name,
			struct target_trim *out)
{
	bool dir = c->ti.kind == TARGET_DIR;
	int fd = dir ? c->stage.where.scratch_fd : target_open(&c->stage.where.data, O_WRONLY);
	int ret = fd < 0 ? fd : target_trim(c->ti.kind, fd, t->size, out);

	if (!dir && fd >= 0)
		close(fd);
	if (!ret)
		return;
	out->method = NULL;
	if (!c->trim_warned)
		result_add_warning(&c->r, "--trim: nothing was trimmed before %s: %s", name,
				   ret == -EOPNOTSUPP ? "the file system or device takes no "
				   "discard" : strerror(-ret));
	c->trim_warned = true;
}

/* After a read test's first run: did its reads go over unwritten space?
 * What could not be checked says why (the result keeps it). */
static void check_unwritten(struct run_ctx *c, const struct test_spec *t,
			    struct test_result *tr)
{
	struct unwritten *u = &tr->unwritten;
	const struct read_extent *x = &tr->read_extent;

	if (wl_writes(t->wl))
		c->checked_valid = false;
	if (!wl_reads_data(t->wl))
		return;
	if (c->e->flags & ENGINE_F_NO_IO) {
		*u = (struct unwritten){ .applies = true };
		snprintf(u->why, sizeof(u->why), "the %s engine moves no data", c->e->name);
		return;
	}
	if (c->checked_valid && c->checked_seed == t->seed && x->parts == c->checked_extent.parts &&
	    x->stride == c->checked_extent.stride && x->span == c->checked_extent.span) {
		*u = c->checked;	/* the same blocks would be read again */
		return;
	}
	unwritten_check(&c->stage.where.data, c->layout_fd, &c->r.read_layout, x,
			c->ti.logical_block_size, t->seed, u);
	c->checked_valid = true;
	c->checked_extent = *x;
	c->checked_seed = t->seed;
	c->checked = *u;
}

/* One test of one pass into the result: 0, -EINTR (stopped; a short run
 * after pass 1 is dropped), or -errno after saying why it could not run. */
static int run_one(struct run_ctx *c, unsigned i)
{
	struct test_spec *t = &c->plan.specs[i];
	struct cli_progress ps = { 0 };
	struct test_result tr, acc;
	struct target_trim trim = { 0 };
	char name[64], err[512];
	int ret;

	plan_spec_name(t, c->s.direct, name, sizeof(name));
	if (c->progress) {
		if (c->npass > 1)
			snprintf(ps.head, sizeof(ps.head), "[%u/%u] %s %u/%u %s", i + 1,
				 c->plan.n, c->s.steady_state ? "round" : "pass", c->pass + 1,
				 c->npass, name);
		else
			snprintf(ps.head, sizeof(ps.head), "[%u/%u] %s", i + 1, c->plan.n, name);
		t->progress = cli_progress_test;
		t->progress_arg = &ps;
		fprintf(stderr, "\r\033[K%s", ps.head);
	}
	if (c->s.drop_caches)
		ret = target_drop_all_caches();
	else if (!t->direct && !(c->e->flags & ENGINE_F_NO_IO))
		ret = target_drop_file_cache(&c->stage.where.data, c->ti.kind);
	else
		ret = 0;
	if (ret)
		result_add_warning(&c->r, "%s: %s", c->s.drop_caches ? "--drop-caches" :
				   "could not drop cached pages", strerror(-ret));
	if (c->s.trim && wl_writes(t->wl))
		trim_before(c, t, name, &trim);
	if (t->settle_ns)
		settle(t->settle_ns);
	t->stop = &interrupted;
	if (c->h)
		c->h->test_start(c->h->arg);
	ret = runner_run(t, &c->stage.where, &tr, err, sizeof(err));
	if (c->h)
		ret = c->h->test_done(c->h->arg, ret, &tr, err, sizeof(err));
	tr.trim = trim;
	tr.direct_refused = c->stage.direct_refused;
	t->progress = NULL;
	if (ret == -EINTR && interrupted) {
		snprintf(c->cut_in_setup, sizeof(c->cut_in_setup), "%s", name);
		return -EINTR;
	}
	if (ret) {
		/* What was measured before stays: the failure is reported
		 * with it, in every output, and the exit status says so. */
		if (c->progress)
			cli_progress_clear();
		cli_error("%s: %s", name, err);
		result_add_warning(&c->r, "%s could not run: %s; the tests before it are "
				   "reported, the rest of the plan was not run", name, err);
		return ret;
	}
	snprintf(tr.name, sizeof(tr.name), "%s", name);
	result_finish(&tr);
	if (!c->pass)
		check_unwritten(c, t, &tr);
	/*
	 * Ctrl-C cut this run short. In pass 1 it is the test's only run and
	 * is kept, as without --repeat: what was measured is reported. In a
	 * later pass the test has whole runs already, and a short one would
	 * only skew their median: it is dropped. Every run that completed is
	 * kept, also those of a pass that did not finish.
	 */
	if (c->pass && interrupted) {
		result_test_free(&tr);
		return -EINTR;
	}
	c->cut_kept = interrupted;
	if (!c->pass) {
		memset(&acc, 0, sizeof(acc));
		ret = repeat_add(&acc, &tr);
		if (!ret && result_add_test(&c->r, &acc)) {
			result_test_free(&acc);
			ret = -ENOMEM;
		}
	} else {
		ret = repeat_add(&c->r.tests[i], &tr);
	}
	if (ret) {
		result_test_free(&tr);
		cli_error("out of memory");
		return ret;
	}
	c->done++;
	return 0;
}

/*
 * --repeat N runs the whole plan N times, pass after pass, so that slow
 * drift of a shared machine spreads over every test instead of hitting one
 * test's runs. Pass 1 adds the tests to r in plan order; later passes add a
 * run to each (r.tests[i] is plan.specs[i] then).
 */
/*
 * --steady-state: each test in rounds, back to back, until its rounds'
 * IOPS reach steady state or max_rounds have run (result_steady decides,
 * after each round from the fifth on). The rounds are the test's runs.
 */
static int do_rounds(struct run_ctx *c)
{
	unsigned max = c->s.max_rounds ? (unsigned)c->s.max_rounds : 25;
	int ret = 0;

	c->npass = max;
	for (unsigned i = 0; i < c->plan.n && !interrupted && !ret; i++) {
		struct test_spec *t = &c->plan.specs[i];

		if (c->s.round_ns)
			t->runtime_ns = c->s.round_ns;
		c->cur = i;
		c->done = 0;
		for (c->pass = 0; c->pass < max && !interrupted && !ret; c->pass++) {
			ret = run_one(c, i);
			if (ret || c->r.ntests <= i)
				break;
			c->r.tests[i].steady_max_rounds = max;
			result_steady(&c->r.tests[i]);
			if (c->r.tests[i].steady)
				break;
		}
	}
	if (ret == -EINTR || (interrupted && !ret))
		return 128 + SIGINT;
	return ret ? EXIT_RUNTIME : EXIT_OK;
}

static int do_passes(struct run_ctx *c)
{
	int ret = 0;

	if (c->s.steady_state)
		return do_rounds(c);
	c->npass = (unsigned)c->s.repeat;
	for (c->pass = 0; c->pass < c->npass && !interrupted && !ret; c->pass++) {
		c->done = 0;
		for (unsigned i = 0; i < c->plan.n && !interrupted && !ret; i++)
			ret = run_one(c, i);
	}
	if (ret == -EINTR || (interrupted && !ret))
		return 128 + SIGINT;
	return ret ? EXIT_RUNTIME : EXIT_OK;
}

/* How far an interrupted --steady-state run got: the test in rounds
 * (c->cur), how many of its rounds it keeps, the tests done before it. */
static void word_rounds(struct run_ctx *c)
{
	struct run_result *r = &c->r;
	unsigned rounds = r->ntests > c->cur ? r->tests[c->cur].nruns : 0;
	char name[64];

	plan_spec_name(&c->plan.specs[c->cur], c->s.direct, name, sizeof(name));
	if (!rounds)
		result_add_warning(r, "interrupted in round 1 of %s, before it measured "
				   "anything; %u of %u tests ran their rounds before it", name,
				   c->cur, c->plan.n);
	else if (c->cut_kept)
		result_add_warning(r, "interrupted in round 1 of %s: it reports that round, cut "
				   "short; %u of %u tests ran their rounds before it", name, c->cur,
				   c->plan.n);
	else
		result_add_warning(r, "interrupted in round %u of %s: the round cut short is left "
				   "out, and it reports the %u round%s that completed; %u of %u tests "
				   "ran their rounds before it", rounds + 1, name, rounds,
				   rounds == 1 ? "" : "s", c->cur, c->plan.n);
}

/* How far an interrupted run got, in words: passes (--repeat) or rounds
 * (--steady-state) each in their own. */
static void word_interrupt(struct run_ctx *c)
{
	struct run_result *r = &c->r;

	if (c->s.steady_state)
		word_rounds(c);
	else if (c->npass == 1 && c->cut_in_setup[0])
		result_add_warning(r, "interrupted: %u of %u tests ran; %s was stopped while it "
				   "set up, before it measured anything", c->done, c->plan.n,
				   c->cut_in_setup);
	else if (c->npass == 1)
		result_add_warning(r, "interrupted: %u of %u tests ran, the last one cut short",
				   c->done, c->plan.n);
	else if (c->pass <= 1)
		result_add_warning(r, "interrupted in pass 1 of %u: %u of %u tests ran once, the "
				   "last one cut short", c->npass, c->done, c->plan.n);
	else
		result_add_warning(r, "interrupted in pass %u of %u: %u of %u tests ran in it "
				   "(the run cut short is left out); each test reports the runs "
				   "that completed", c->pass, c->npass, c->done, c->plan.n);
}

/* Release the device and the scratch directory, then say what was
 * measured: warnings, the table, every report file. Nothing measured
 * (Ctrl-C during the layout or the first setup): no report to write, and
 * none to overwrite an older one with. */
static int do_report(struct run_ctx *c, int status)
{
	bool text;

	if (stage_release(&c->stage) == -EXDEV)
		result_add_warning(&c->r, "the scratch directory %s was moved or replaced during "
				   "the run (by someone who can write %s): its files were removed "
				   "through diskbench's handle on it, and nothing was followed "
				   "through the name; the empty directory is left where it went",
				   c->stage.scratch, c->ti.path);
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

/* A coordinated run's say before anything is written: every rank's
 * status in, the run's out. */
static int do_prepare(struct run_ctx *c, int status)
{
	struct cli_run_point pt = { .given = c->given ? c->given : ".", .s = &c->s, .ti = &c->ti,
				    .plan = &c->plan, .seed = &c->s.seed, .r = &c->r };

	return c->h->prepare(c->h->arg, status, &pt);
}

int cmd_run(int argc, char **argv)
{
	return cli_run(argc, argv, NULL);
}

int cli_run(int argc, char **argv, const struct cli_run_hooks *h)
{
	/* static: a plan holds 256 specs, a result many settings */
	static struct run_ctx c;
	const char *target = ".";
	int status;

	memset(&c, 0, sizeof(c));
	c.stage.claim = -1;
	c.layout_fd = -1;
	c.h = h;
	c.silent = h && !h->root;
	record_command(&c.r, argc, argv);
	status = do_options(&c, argc, argv, &target);
	if (status == EXIT_OK)
		status = do_probe(&c, target);
	if (status == EXIT_OK)
		status = do_plan(&c);
	/* Every rank's verdict is the run's: no rank writes unless all may. */
	if (h)
		status = do_prepare(&c, status);
	c.progress = isatty(STDERR_FILENO) && !c.s.quiet;
	if (status == EXIT_OK && !c.s.quiet && !c.silent)
		word_estimate(&c);
	if (status == EXIT_OK) {
		status = do_stage(&c);
		if (status == EXIT_OK && c.s.precondition)
			status = do_precondition(&c);
		if (h)
			status = h->agree(h->arg, status);
	}
	if (status == EXIT_OK) {
		struct annotate_in a = {
			.moves_data = !(c.e->flags & ENGINE_F_NO_IO),
			/* a profile that asks for scores (xbench's), or --baseline */
			.score = c.s.scores || c.s.baseline ? &c.baseline : NULL,
		};

		status = do_passes(&c);
		a.interrupted = status == 128 + SIGINT;
		if (h)
			h->finish(h->arg, &c.r);
		c.failed = result_annotate(&c.r, &a);
		if (status == 128 + SIGINT)
			word_interrupt(&c);
	}
	if (status == EXIT_OK || status == EXIT_RUNTIME || status == 128 + SIGINT)
		status = do_report(&c, status);
	/* One way out: whatever was taken is given back. */
	if (c.layout_fd >= 0)
		close(c.layout_fd);
	stage_release(&c.stage);
	result_free(&c.r);
	profile_free(&c.prof);
	return status == RUN_DONE ? EXIT_OK : status;
}
