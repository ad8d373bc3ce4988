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

#include "budget.h"
#include "cli.h"
#include "clock.h"
#include "plan.h"
#include "engine.h"
#include "host.h"
#include "opts.h"
#include "parse.h"
#include "profile.h"
#include "repeat.h"
#include "report.h"
#include "runner.h"
#include "safety.h"
#include "target.h"
#include "workload.h"
#include "xbench.h"

#define DEFAULT_PROFILE "quick"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: diskbench [run] [OPTIONS] [TARGET]\n"
		"       diskbench info [--json FILE] [--destructive[=DEV]] TARGET\n"
		"       diskbench list engines|profiles|tests\n"
		"       diskbench report [OPTIONS] RESULT.json...\n"
		"       diskbench compare [--json FILE] [--quiet] BEFORE.json AFTER.json...\n"
		"\n"
		"Benchmark TARGET: a directory (default: the current one; scratch files\n"
		"in a private diskbench.XXXXXX directory, always removed), a block device\n"
		"or a regular file (both read-only without --destructive). With no options\n"
		"it runs the quick profile: seq read/write 1m QD8, rand read/write 4k QD1\n"
		"and QD32. Options given here override the profile's, in every group.\n"
		"\n"
		"Options:\n");
	opts_help(f);
	fprintf(f,
		"\n"
		"Sizes: k/m/g/t and KiB/MiB/GiB/TiB are powers of 1024, kB/MB/GB/TB of 1000.\n"
		"Durations: ns, us, ms, s, m, h. Exit status: 0 ok, 1 runtime failure,\n"
		"2 usage error, 3 refused for safety, 130 interrupted.\n");
}

/* The engine of --engine: 0, or -ENOENT (no such engine: a usage error)
 * or -ENODEV (known, but not built or not working here), said in why. */
static int engine_pick(const struct settings *s, const struct engine_ops **out, char *why,
		       size_t whylen)
{
	char reason[200] = "";
	size_t n;
	const struct engine_entry *t;

	if (!strcmp(s->engine, "auto")) {
		*out = engine_auto();
		if (*out)
			return 0;
		snprintf(why, whylen, "--engine auto: no engine works on this machine");
		return -ENODEV;
	}
	t = engine_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, s->engine))
			continue;
		if (!t[i].ops) {
			snprintf(why, whylen, "--engine %s: %s", s->engine, t[i].missing);
			return -ENODEV;
		}
		if (t[i].ops->probe(reason, sizeof(reason)) < 0) {
			snprintf(why, whylen, "--engine %s does not work here: %s", s->engine,
				 reason);
			return -ENODEV;
		}
		*out = t[i].ops;
		return 0;
	}
	snprintf(why, whylen, "--engine: unknown engine '%s' (see: diskbench list engines)",
		 s->engine);
	return -ENOENT;
}

/* May this run write to the target? Block devices and files go through the
 * safety gate; a directory gets its own scratch files. */
static void writes_verdict(const struct settings *s, const struct target_info *ti,
			   struct safety_verdict *v)
{
	int ret = safety_check_writes(ti, s->destructive, v);

	if (ret && !v->reason[0])
		snprintf(v->reason, sizeof(v->reason), "the safety checks failed: %s",
			 strerror(-ret));
	if (ret)
		v->allowed = false;
}

/* A directory target is written to (scratch files): say so now, clearly,
 * rather than failing on the first create. */
static int check_dir_writable(const struct target_info *ti, char *err, size_t errlen)
{
	struct statvfs sv;

	if (ti->kind != TARGET_DIR)
		return 0;
	if (!statvfs(ti->resolved, &sv) && (sv.f_flag & ST_RDONLY)) {
		snprintf(err, errlen, "%s is on a read-only file system: diskbench writes its "
			 "scratch files in a directory target (to read a device, name the "
			 "device)", ti->path);
		return -EROFS;
	}
	if (access(ti->resolved, W_OK | X_OK)) {
		snprintf(err, errlen, "%s: cannot create scratch files here: %s", ti->path,
			 strerror(errno));
		return -EACCES;
	}
	return 0;
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
	cpu_set_t allowed;

	if (!s->ncpus)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	for (size_t i = 0; i < s->ncpus; i++) {
		if (s->cpus[i] >= CPU_SETSIZE || !CPU_ISSET(s->cpus[i], &allowed)) {
			snprintf(err, errlen, "--cpus: CPU %d is not online or not allowed for this "
				 "process (%d CPUs usable)", s->cpus[i], CPU_COUNT(&allowed));
			return -EINVAL;
		}
	}
	return 0;
}

/* O_DIRECT is an open flag that some file systems (tmpfs, some FUSE) refuse. */
static bool direct_works(const struct target_file *f)
{
	int fd = target_open(f, O_RDONLY | O_DIRECT);

	if (fd < 0)
		return fd != -EINVAL;
	close(fd);
	return true;
}

static void drop_cache(const struct run_target *where, struct run_result *r)
{
	int fd = target_open(&where->data, O_RDONLY), ret;

	if (fd < 0)
		return;
	ret = target_drop_cache(fd, where->ti->kind);
	if (ret)
		result_add_warning(r, "could not drop cached pages of %s: %s", where->ti->path,
				   strerror(-ret));
	close(fd);
}

/* Live progress on a terminal: one line, rewritten in place. */
struct progress_state {
	char head[128];		/* "[2/6] seq-read 1m qd8", with " pass 2/5" under --repeat */
	uint64_t last_ns, last_ops, last_bytes;
};

static void show_progress(void *arg, const struct runner_progress *rp)
{
	struct progress_state *p = arg;
	double dt = (double)(rp->elapsed_ns - p->last_ns) / 1e9;
	char iops[32];

	if (rp->phase != RUNNER_RUN) {
		const char *what = rp->phase == RUNNER_SETUP ? "setting up" : "cleaning up";

		if (rp->todo)
			fprintf(stderr, "\r\033[K%s  %s: %" PRIu64 " of %" PRIu64 " files", p->head,
				what, rp->done, rp->todo);
		else
			fprintf(stderr, "\r\033[K%s  %s", p->head, what);
		return;
	}
	if (!rp->ops) {
		fprintf(stderr, "\r\033[K%s  %.1fs / %.1fs  ramp", p->head,
			(double)rp->elapsed_ns / 1e9, (double)rp->total_ns / 1e9);
	} else if (dt > 0) {
		report_fmt_count((double)(rp->ops - p->last_ops) / dt, iops, sizeof(iops));
		fprintf(stderr, "\r\033[K%s  %.1fs / %.1fs  %s IOPS  %.1f MB/s", p->head,
			(double)rp->elapsed_ns / 1e9, (double)rp->total_ns / 1e9, iops,
			(double)(rp->bytes - p->last_bytes) / dt / 1e6);
	}
	p->last_ns = rp->elapsed_ns;
	p->last_ops = rp->ops;
	p->last_bytes = rp->bytes;
}

/* The layout's progress: "laying out 1024 MiB in DIR: 45 %". */
static void show_layout(void *arg, uint64_t done, uint64_t total)
{
	static uint64_t last;
	uint64_t now = clock_ns();

	if (now - last < 500000000u && done < total)
		return;
	last = now;
	fprintf(stderr, "\r\033[Klaying out %" PRIu64 " MiB in %s: %u %%", total >> 20,
		(const char *)arg, (unsigned)(100 * done / (total ? total : 1)));
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

/* sync, then drop the page cache, dentries and inodes (root only). */
static int drop_all_caches(void)
{
	int fd, ret = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}

static void now_iso(char *buf, size_t len)
{
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%dT%H:%M:%SZ", &tm);
}

/* Load the profile of --profile (default: quick): exit status or -1. */
static int load_profile(const struct settings *cli, struct profile *prof)
{
	const char *name = cli->profile ? cli->profile : DEFAULT_PROFILE;
	char err[600];
	int ret = profile_load(prof, name, err, sizeof(err));

	if (!ret)
		return -1;
	cli_error("%s", err);
	return ret == -ENOMEM || ret == -EIO ? EXIT_RUNTIME : EXIT_USAGE;
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
	struct run_result r;
	struct run_target where;
	struct cli_output outs[3];
	bool on_stdout, progress, failed;
	char cut_in_setup[64];		/* the test Ctrl-C stopped while it set up */
	int direct, claim;
	uint64_t size;			/* the working set laid out */
	char scratch[PATH_MAX];
	unsigned done, pass, npass;	/* tests done in the last pass; passes */
};

/* Stage results besides exit statuses: stop here, all is well (--help). */
#define RUN_DONE (-1)

/* Options, profile, engine and where the reports go: nothing touched yet. */
static int run_options(struct run_ctx *c, int argc, char **argv, const char **target)
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
		usage(stdout);
		return RUN_DONE;
	}
	if (c->cli.version) {
		printf("diskbench %s\n", PACKAGE_VERSION);
		return RUN_DONE;
	}
	*target = npos ? pos[0] : ".";
	ret = load_profile(&c->cli, &c->prof);
	if (ret >= 0)
		return ret;
	/* The run's settings: defaults < [profile] < the command line. */
	c->s = c->prof.s;
	opts_override(&c->s, &c->cli);
	c->s.profile = c->prof.name;
	if (c->s.baseline) {
		if (xbench_load_baseline(c->s.baseline, &c->baseline, err, sizeof(err))) {
			cli_error("--baseline %s", err);
			return EXIT_USAGE;
		}
	} else {
		xbench_default_baseline(&c->baseline);
	}
	ret = engine_pick(&c->s, &c->e, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -ENOENT ? EXIT_USAGE : EXIT_RUNTIME;
	}
	c->direct = c->s.direct;
	if (c->e->flags & ENGINE_F_FORCE_DIRECT)
		c->direct = 1;
	if (!c->s.direct && opts_given(&c->cli, "buffered") &&
	    (c->e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY))) {
		cli_error("--buffered: the %s engine only works with O_DIRECT "
			  "(use --engine io_uring or sync for buffered I/O)", c->e->name);
		return EXIT_USAGE;
	}
	if (check_cpus(&c->s, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	/* Where the reports go is checked before a minute of measuring. */
	cli_result_outputs(c->outs, c->s.json, c->s.csv, c->s.bonnie_csv);
	ret = cli_check_outputs(c->outs, 3, &c->on_stdout);
	if (ret != EXIT_OK)
		return ret;
	if (c->s.drop_caches && geteuid() != 0) {
		cli_error("--drop-caches: needs root (it writes /proc/sys/vm/drop_caches)");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

/* What the target is, whether writes are allowed, the result's header. */
static int run_probe(struct run_ctx *c, const char *target)
{
	char err[512];
	int ret;

	ret = target_probe(target, &c->ti, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", target, err);
		return EXIT_USAGE;
	}
	ret = check_dir_writable(&c->ti, err, sizeof(err));
	if (!ret)
		ret = plan_pick_size(&c->s, &c->ti, &c->size, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
	}
	writes_verdict(&c->s, &c->ti, &c->writes);
	if (c->ti.kind == TARGET_DIR)
		note_leftovers(&c->ti, &c->r);
	c->r.tool_version = PACKAGE_VERSION;
	now_iso(c->r.started_at, sizeof(c->r.started_at));
	if (c->s.label)
		snprintf(c->r.label, sizeof(c->r.label), "%s", c->s.label);
	host_probe(&c->r.host);
	c->r.target = c->ti;
	c->r.clock_overhead_ns = clock_overhead_ns();
	return EXIT_OK;
}

/* The tests, what was left out and why, and whether the machine, the
 * file system and the process limits can take them. */
static int run_plan(struct run_ctx *c)
{
	struct plan *p = &c->plan;
	struct plan_in in = { .prof = &c->prof, .cli = &c->cli, .run = &c->s, .e = c->e,
			      .ti = &c->ti, .writes = &c->writes, .r = &c->r };
	struct budget_need need;
	struct budget_mem mem;
	char err[768];
	int ret;

	ret = plan_build(p, &in, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -EPERM || ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
	}
	/* Lay out enough for the largest working set of the plan. */
	c->size = 0;
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].size > c->size)
			c->size = p->specs[i].size;
	if (p->skipped_writes)
		result_add_warning(&c->r, "skipped %s on %s: %s", p->skipped_names, c->ti.path,
				   c->writes.reason);
	if (p->skipped_fs[0])
		result_add_warning(&c->r, "skipped %s on %s %s: they need a file system (give a "
				   "directory on it as the target)", p->skipped_fs,
				   target_kind_name(c->ti.kind), c->ti.path);
	if (p->skipped_ops[0])
		result_add_warning(&c->r, "skipped %s: they do their own I/O, which the %s engine "
				   "cannot stand in for", p->skipped_ops, c->e->name);

	budget_plan(p->specs, p->n, c->ti.kind == TARGET_DIR && plan_needs_data(p) &&
		    !(c->e->flags & ENGINE_F_NO_IO) ? c->size : 0, &need);
	if (!budget_memory(&mem) && budget_check_memory(&need, p->specs, &mem, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (budget_check_fds(&need, p->specs, err, sizeof(err))) {
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

/* Claim the device, make the scratch directory, lay out the working set,
 * fall back from O_DIRECT: where the I/O goes. Ctrl-C works from here. */
static int run_stage(struct run_ctx *c)
{
	const bool io = !(c->e->flags & ENGINE_F_NO_IO);
	struct plan *p = &c->plan;
	int ret = 0;

	/* Last line of defence before writing to a device: an exclusive open,
	 * which the kernel refuses while anything has it mounted or claimed.
	 * Held until the end of the run. */
	if (c->ti.kind == TARGET_BLOCK && plan_writes(p) && io) {
		c->claim = safety_claim(c->ti.resolved);
		if (c->claim < 0) {
			cli_error("refusing to write to %s: the kernel refuses exclusive access "
				  "(%s): it is mounted or in use", c->ti.path, strerror(-c->claim));
			return EXIT_REFUSED;
		}
	}
	/* Where the I/O goes: a laid-out scratch file, or the target itself. */
	c->where = (struct run_target){ .ti = &c->ti, .data = { AT_FDCWD, c->ti.resolved },
					.scratch_fd = -1 };
	if (c->ti.kind == TARGET_DIR && io) {
		ret = target_scratch_create(c->ti.resolved, c->scratch, sizeof(c->scratch));
		if (!ret)
			ret = target_scratch_file("data", &c->where.data);
		if (ret) {
			cli_error("%s: cannot create scratch files: %s", c->ti.path, strerror(-ret));
			return EXIT_RUNTIME;
		}
		c->where.scratch_fd = target_scratch_fd();
	}
	/* After the scratch module's handlers: the first Ctrl-C is ours. */
	catch_sigint();
	/* Only tests that read or rewrite the data file need it written out
	 * first; file tests and per-char writes make their own files. */
	if (c->where.scratch_fd >= 0 && plan_needs_data(p)) {
		ret = target_layout(&c->where.data, c->size, 1u << 20, c->s.seed, &interrupted,
				    c->progress ? show_layout : NULL, c->scratch);
		if (c->progress)
			fputs("\r\033[K", stderr);
		if (ret == -EINTR) {
			result_add_warning(&c->r, "interrupted while laying out the working set: "
					   "nothing was measured");
			return 128 + SIGINT;
		}
		if (ret) {
			cli_error("%s/data: laying out the working set: %s", c->scratch,
				  strerror(-ret));
			return EXIT_RUNTIME;
		}
	}
	if (plan_direct(p) && io && !direct_works(&c->where.data)) {
		if (c->e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY)) {
			cli_error("%s: the file system refuses O_DIRECT, which the %s engine needs",
				  c->ti.path, c->e->name);
			return EXIT_RUNTIME;
		}
		result_add_warning(&c->r, "%s refuses O_DIRECT (%s): tests run buffered, as if "
				   "their file were larger than RAM (see --buffered)",
				   c->ti.path, c->ti.fs_type[0] ? c->ti.fs_type : "unknown fs");
		c->direct = 0;
		for (unsigned i = 0; i < p->n; i++)
			p->specs[i].direct = false;
	}
	c->s.direct = c->direct;
	c->s.size = c->size;	/* echo the working set used, not "0" for the default */
	opts_echo(&c->s, &c->r);
	result_add_setting(&c->r, "engine_resolved", "%s", c->e->name);
	return EXIT_OK;
}

/* One test of one pass into the result: 0, -EINTR (stopped before it
 * measured anything), or -errno after saying why it could not run. */
static int run_one(struct run_ctx *c, unsigned i)
{
	struct test_spec *t = &c->plan.specs[i];
	struct progress_state ps = { 0 };
	struct test_result tr, acc;
	char name[64], err[512];
	int ret;

	plan_spec_name(t, c->direct, name, sizeof(name));
	if (c->progress) {
		if (c->npass > 1)
			snprintf(ps.head, sizeof(ps.head), "[%u/%u] pass %u/%u %s", i + 1,
				 c->plan.n, c->pass + 1, c->npass, name);
		else
			snprintf(ps.head, sizeof(ps.head), "[%u/%u] %s", i + 1, c->plan.n, name);
		t->progress = show_progress;
		t->progress_arg = &ps;
		fprintf(stderr, "\r\033[K%s", ps.head);
	}
	if (c->s.drop_caches) {
		ret = drop_all_caches();
		if (ret)
			result_add_warning(&c->r, "--drop-caches: %s", strerror(-ret));
	} else if (!t->direct && !(c->e->flags & ENGINE_F_NO_IO)) {
		drop_cache(&c->where, &c->r);
	}
	t->stop = &interrupted;
	ret = runner_run(t, &c->where, &tr, err, sizeof(err));
	t->progress = NULL;
	if (ret == -EINTR && interrupted) {
		snprintf(c->cut_in_setup, sizeof(c->cut_in_setup), "%s", name);
		return -EINTR;
	}
	if (ret) {
		/* What was measured before stays: the failure is reported
		 * with it, in every output, and the exit status says so. */
		if (c->progress)
			fputs("\r\033[K", stderr);
		cli_error("%s: %s", name, err);
		result_add_warning(&c->r, "%s could not run: %s; the tests before it are "
				   "reported, the rest of the plan was not run", name, err);
		return ret;
	}
	snprintf(tr.name, sizeof(tr.name), "%s", name);
	result_finish(&tr);
	/*
	 * Ctrl-C cut this run short. In pass 1 it is the test's only run and
	 * is kept, as without --repeat: what was measured is reported. In a
	 * later pass the test has whole runs already, and a short one would
	 * only skew their median: it is dropped. Every run that completed is
	 * kept, also those of a pass that did not finish.
	 */
	if (c->pass && interrupted) {
		free(tr.lat);
		return -EINTR;
	}
	if (!c->pass) {
		memset(&acc, 0, sizeof(acc));
		ret = repeat_add(&acc, &tr);
		if (!ret && result_add_test(&c->r, &acc)) {
			free(acc.lat);
			free(acc.runs);
			ret = -ENOMEM;
		}
	} else {
		ret = repeat_add(&c->r.tests[i], &tr);
	}
	if (ret) {
		free(tr.lat);
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
static int run_passes(struct run_ctx *c)
{
	int ret = 0;

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

/* Warnings and scores derived from what was measured. */
static void run_annotate(struct run_ctx *c, int status)
{
	struct run_result *r = &c->r;

	/* Each test over its runs: the medians, the sums, the spread. */
	for (unsigned i = 0; i < r->ntests; i++) {
		struct test_result *tr = &r->tests[i];

		repeat_finish(tr);
		if (tr->errors) {
			c->failed = true;
			result_add_warning(r, "%s: %" PRIu64 " I/O errors, first: %s at offset %"
					   PRIu64, tr->name, tr->errors, strerror(tr->first_errno),
					   tr->first_error_offset);
		}
		if (tr->cached)
			result_add_warning(r, "%s: reads did not reach the device (page cache?)",
					   tr->name);
		if (repeat_unreliable(tr))
			result_add_warning(r, "%s: runs spread widely (CV %.1f %% over %u runs): "
					   "the median is not reliable; see the runs in --json",
					   tr->name, 100 * tr->summary.iops.cv, tr->nruns);
	}
	if (r->ntests && !r->tests[0].dev_valid && !(c->e->flags & ENGINE_F_NO_IO))
		result_add_warning(r, "%s has no block device counters (%s): whether the I/O "
				   "reached a disk cannot be checked", c->ti.path,
				   c->ti.fs_type[0] ? c->ti.fs_type : "no device");
	/* Scores: for a profile that asks for them against Xbench's
	 * reference, or against the saved result given with --baseline. */
	if (r->ntests && (c->s.baseline || !strcmp(c->prof.name, "xbench")))
		xbench_score(r, &c->baseline);
	if (status != 128 + SIGINT)
		return;
	if (c->npass == 1 && c->cut_in_setup[0])
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
 * measured: warnings, the table, every report file. */
static int run_report(struct run_ctx *c, int status)
{
	if (c->claim >= 0)
		close(c->claim);
	c->claim = -1;
	if (target_scratch_cleanup() == -EXDEV)
		result_add_warning(&c->r, "the scratch directory %s was moved or replaced during "
				   "the run (by someone who can write %s): its files were removed "
				   "through diskbench's handle on it, and nothing was followed "
				   "through the name; the empty directory is left where it went",
				   c->scratch, c->ti.path);
	if (c->progress)
		fputs("\r\033[K", stderr);
	for (unsigned i = 0; i < c->r.nwarnings; i++)
		cli_warn("%s", c->r.warnings[i]);
	/* Nothing measured (Ctrl-C during the layout or the first setup):
	 * no report to write, and none to overwrite an older one with. */
	if (!c->r.ntests)
		return status;
	if (!c->s.quiet && !c->on_stdout)
		report_text(stdout, &c->r);
	if (cli_write_outputs(c->outs, 3, &c->r) != EXIT_OK && status == EXIT_OK)
		status = EXIT_RUNTIME;
	if (c->failed && status == EXIT_OK)
		status = EXIT_RUNTIME;
	return status;
}

int cmd_run(int argc, char **argv)
{
	/* static: a plan holds 256 specs, a result many settings */
	static struct run_ctx c;
	const char *target = ".";
	int status;

	memset(&c, 0, sizeof(c));
	c.claim = -1;
	status = run_options(&c, argc, argv, &target);
	if (status == EXIT_OK)
		status = run_probe(&c, target);
	if (status == EXIT_OK)
		status = run_plan(&c);
	c.progress = isatty(STDERR_FILENO) && !c.s.quiet;
	if (status == EXIT_OK)
		status = run_stage(&c);
	if (status == EXIT_OK) {
		status = run_passes(&c);
		run_annotate(&c, status);
		status = run_report(&c, status);
	} else if (status == 128 + SIGINT) {
		status = run_report(&c, status);
	}
	/* One way out: whatever was taken is given back. */
	if (c.claim >= 0)
		close(c.claim);
	target_scratch_cleanup();
	result_free(&c.r);
	profile_free(&c.prof);
	return status == RUN_DONE ? EXIT_OK : status;
}
