/* run.c - "diskbench [run] [OPTIONS] [TARGET]": plan, safety, run, report. */
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

#include "cli.h"
#include "plan.h"
#include "engine.h"
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

static const char *engine_pick(const struct settings *s, const struct engine_ops **out)
{
	static char why[256];
	char reason[200] = "";
	size_t n;
	const struct engine_entry *t;

	if (!strcmp(s->engine, "auto")) {
		*out = engine_auto();
		return *out ? NULL : "--engine auto: no engine works on this machine";
	}
	t = engine_table(&n);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(t[i].name, s->engine))
			continue;
		if (!t[i].ops) {
			snprintf(why, sizeof(why), "--engine %s: %s", s->engine, t[i].missing);
			return why;
		}
		if (t[i].ops->probe(reason, sizeof(reason)) < 0) {
			snprintf(why, sizeof(why), "--engine %s does not work here: %s",
				 s->engine, reason);
			return why;
		}
		*out = t[i].ops;
		return NULL;
	}
	snprintf(why, sizeof(why), "--engine: unknown engine '%s' (see: diskbench list engines)",
		 s->engine);
	return why;
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

static void show_progress(void *arg, uint64_t elapsed_ns, uint64_t total_ns, uint64_t ops,
			  uint64_t bytes)
{
	struct progress_state *p = arg;
	double dt = (double)(elapsed_ns - p->last_ns) / 1e9;
	char iops[32];

	if (!ops) {
		fprintf(stderr, "\r\033[K%s  %.1fs / %.1fs  ramp", p->head,
			(double)elapsed_ns / 1e9, (double)total_ns / 1e9);
	} else if (dt > 0) {
		report_fmt_count((double)(ops - p->last_ops) / dt, iops, sizeof(iops));
		fprintf(stderr, "\r\033[K%s  %.1fs / %.1fs  %s IOPS  %.1f MB/s", p->head,
			(double)elapsed_ns / 1e9, (double)total_ns / 1e9, iops,
			(double)(bytes - p->last_bytes) / dt / 1e6);
	}
	p->last_ns = elapsed_ns;
	p->last_ops = ops;
	p->last_bytes = bytes;
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

int cmd_run(int argc, char **argv)
{
	static struct run_result r;
	static struct plan plan;
	static struct profile prof;
	struct settings s, cli;
	struct target_info ti;
	const struct engine_ops *e = NULL;
	const char *pos[2], *target, *why;
	struct run_target where;
	struct safety_verdict writes;
	struct xbench_baseline baseline;
	struct plan_in in;
	struct cli_output outs[3];
	char err[512], scratch[PATH_MAX];
	bool progress, failed = false, on_stdout;
	uint64_t size = 0;
	size_t npos;
	int direct, ret, status = EXIT_OK, claim = -1;
	unsigned done = 0, pass = 0, npass;

	opts_defaults(&cli);
	if (opts_parse(&cli, argc, argv, pos, 1, &npos, err, sizeof(err))) {
		cli_error("%s", err);
		fprintf(stderr, "Try 'diskbench --help'.\n");
		return EXIT_USAGE;
	}
	if (cli.help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (cli.version) {
		printf("diskbench %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	target = npos ? pos[0] : ".";
	ret = load_profile(&cli, &prof);
	if (ret >= 0)
		return ret;
	/* The run's settings: defaults < [profile] < the command line. */
	s = prof.s;
	opts_override(&s, &cli);
	s.profile = prof.name;
	if (s.baseline) {
		ret = xbench_load_baseline(s.baseline, &baseline, err, sizeof(err));
		if (ret) {
			cli_error("--baseline %s", err);
			ret = EXIT_USAGE;
			goto out_profile;
		}
	} else {
		xbench_default_baseline(&baseline);
	}

	why = engine_pick(&s, &e);
	if (why) {
		cli_error("%s", why);
		ret = strstr(why, "unknown") ? EXIT_USAGE : EXIT_RUNTIME;
		goto out_profile;
	}
	direct = s.direct;
	if (e->flags & ENGINE_F_FORCE_DIRECT)
		direct = 1;
	if (!s.direct && opts_given(&cli, "buffered") &&
	    (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY))) {
		cli_error("--buffered: the %s engine only works with O_DIRECT "
			  "(use --engine io_uring or sync for buffered I/O)", e->name);
		ret = EXIT_USAGE;
		goto out_profile;
	}
	if (check_cpus(&s, err, sizeof(err))) {
		cli_error("%s", err);
		ret = EXIT_USAGE;
		goto out_profile;
	}
	/* Where the reports go is checked before a minute of measuring. */
	cli_result_outputs(outs, s.json, s.csv, s.bonnie_csv);
	ret = cli_check_outputs(outs, 3, &on_stdout);
	if (ret != EXIT_OK)
		goto out_profile;
	if (s.drop_caches && geteuid() != 0) {
		cli_error("--drop-caches: needs root (it writes /proc/sys/vm/drop_caches)");
		ret = EXIT_USAGE;
		goto out_profile;
	}
	ret = target_probe(target, &ti, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", target, err);
		ret = EXIT_USAGE;
		goto out_profile;
	}
	ret = check_dir_writable(&ti, err, sizeof(err));
	if (!ret)
		ret = plan_pick_size(&s, &ti, &size, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		ret = ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
		goto out_profile;
	}
	writes_verdict(&s, &ti, &writes);
	if (ti.kind == TARGET_DIR)
		note_leftovers(&ti, &r);

	r.tool_version = PACKAGE_VERSION;
	now_iso(r.started_at, sizeof(r.started_at));
	if (s.label)
		snprintf(r.label, sizeof(r.label), "%s", s.label);
	host_probe(&r.host);
	r.target = ti;
	r.clock_overhead_ns = clock_overhead_ns();

	in = (struct plan_in){ .prof = &prof, .cli = &cli, .run = &s, .e = e, .ti = &ti,
			       .writes = &writes, .r = &r };
	ret = plan_build(&plan, &in, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		result_free(&r);
		ret = ret == -EPERM || ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
		goto out_profile;
	}
	/* Lay out enough for the largest working set of the plan. */
	size = 0;
	for (unsigned i = 0; i < plan.n; i++)
		if (plan.specs[i].size > size)
			size = plan.specs[i].size;
	if (plan.skipped_writes)
		result_add_warning(&r, "skipped %s on %s: %s", plan.skipped_names, ti.path,
				   writes.reason);
	if (plan.skipped_fs[0])
		result_add_warning(&r, "skipped %s on %s %s: they need a file system (give a "
				   "directory on it as the target)", plan.skipped_fs,
				   target_kind_name(ti.kind), ti.path);
	if (plan.skipped_ops[0])
		result_add_warning(&r, "skipped %s: they do their own I/O, which the %s engine "
				   "cannot stand in for", plan.skipped_ops, e->name);
	/* Last line of defence before writing to a device: an exclusive open,
	 * which the kernel refuses while anything has it mounted or claimed.
	 * Held until the end of the run. */
	if (ti.kind == TARGET_BLOCK && plan_writes(&plan) && !(e->flags & ENGINE_F_NO_IO)) {
		claim = safety_claim(ti.resolved);
		if (claim < 0) {
			cli_error("refusing to write to %s: the kernel refuses exclusive access "
				  "(%s): it is mounted or in use", ti.path, strerror(-claim));
			result_free(&r);
			ret = EXIT_REFUSED;
			goto out_profile;
		}
	}

	/* Where the I/O goes: a laid-out scratch file, or the target itself. */
	where = (struct run_target){ .ti = &ti, .data = { AT_FDCWD, ti.resolved },
				     .scratch_fd = -1 };
	if (ti.kind == TARGET_DIR && !(e->flags & ENGINE_F_NO_IO)) {
		ret = target_scratch_create(ti.resolved, scratch, sizeof(scratch));
		if (!ret)
			ret = target_scratch_file("data", &where.data);
		if (ret) {
			cli_error("%s: cannot create scratch files: %s", ti.path, strerror(-ret));
			target_scratch_cleanup();
			result_free(&r);
			ret = EXIT_RUNTIME;
			goto out_profile;
		}
		where.scratch_fd = target_scratch_fd();
		/* Only tests that read or rewrite the data file need it
		 * written out first; file tests and per-char writes make
		 * their own files. */
		progress = isatty(STDERR_FILENO) && !s.quiet && plan_needs_data(&plan);
		if (progress)
			fprintf(stderr, "laying out %" PRIu64 " MiB in %s ...", size >> 20,
				scratch);
		if (plan_needs_data(&plan))
			ret = target_layout(&where.data, size, 1u << 20, s.seed, NULL, NULL, NULL);
		if (ret) {
			cli_error("%s/data: laying out the working set: %s", scratch, strerror(-ret));
			target_scratch_cleanup();
			result_free(&r);
			ret = EXIT_RUNTIME;
			goto out_profile;
		}
	}
	if (plan_direct(&plan) && !(e->flags & ENGINE_F_NO_IO) && !direct_works(&where.data)) {
		if (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY)) {
			cli_error("%s: the file system refuses O_DIRECT, which the %s engine needs",
				  ti.path, e->name);
			target_scratch_cleanup();
			result_free(&r);
			ret = EXIT_RUNTIME;
			goto out_profile;
		}
		result_add_warning(&r, "%s refuses O_DIRECT (%s): tests run buffered, as if "
				   "their file were larger than RAM (see --buffered)",
				   ti.path, ti.fs_type[0] ? ti.fs_type : "unknown fs");
		direct = 0;
		for (unsigned i = 0; i < plan.n; i++)
			plan.specs[i].direct = false;
	}
	s.direct = direct;
	s.size = size;	/* echo the working set used, not "0" for the default */
	opts_echo(&s, &r);
	result_add_setting(&r, "engine_resolved", "%s", e->name);

	progress = isatty(STDERR_FILENO) && !s.quiet;
	npass = (unsigned)s.repeat;
	catch_sigint();
	/*
	 * --repeat N runs the whole plan N times, pass after pass, so that slow
	 * drift of a shared machine spreads over every test instead of hitting
	 * one test's runs. Pass 1 adds the tests to r in plan order; later
	 * passes add a run to each (r.tests[i] is plan.specs[i] then).
	 */
	for (pass = 0; pass < npass && !interrupted && status == EXIT_OK; pass++) {
		done = 0;
		for (unsigned i = 0; i < plan.n && !interrupted; i++) {
			struct test_spec *t = &plan.specs[i];
			struct test_result tr, acc;
			struct progress_state ps = { 0 };
			char name[64];

			plan_spec_name(t, direct, name, sizeof(name));
			if (progress) {
				if (npass > 1)
					snprintf(ps.head, sizeof(ps.head), "[%u/%u] pass %u/%u %s",
						 i + 1, plan.n, pass + 1, npass, name);
				else
					snprintf(ps.head, sizeof(ps.head), "[%u/%u] %s", i + 1,
						 plan.n, name);
				t->progress = show_progress;
				t->progress_arg = &ps;
				fprintf(stderr, "\r\033[K%s", ps.head);
			}
			if (s.drop_caches) {
				ret = drop_all_caches();
				if (ret)
					result_add_warning(&r, "--drop-caches: %s", strerror(-ret));
			} else if (!t->direct && !(e->flags & ENGINE_F_NO_IO)) {
				drop_cache(&where, &r);
			}
			t->stop = &interrupted;
			ret = runner_run(t, &where, &tr, err, sizeof(err));
			if (ret) {
				if (progress)
					fputc('\n', stderr);
				cli_error("%s: %s", name, err);
				status = EXIT_RUNTIME;
				break;
			}
			snprintf(tr.name, sizeof(tr.name), "%s", name);
			result_finish(&tr);
			/*
			 * Ctrl-C cut this run short. In pass 1 it is the test's
			 * only run and is kept, as without --repeat: what was
			 * measured is reported. In a later pass the test has
			 * whole runs already, and a short one would only skew
			 * their median: it is dropped. Every run that completed
			 * is kept, also those of a pass that did not finish.
			 */
			if (pass && interrupted) {
				free(tr.lat);
				break;
			}
			if (!pass) {
				memset(&acc, 0, sizeof(acc));
				ret = repeat_add(&acc, &tr);
				if (!ret && result_add_test(&r, &acc)) {
					free(acc.lat);
					free(acc.runs);
					ret = -ENOMEM;
				}
			} else {
				ret = repeat_add(&r.tests[i], &tr);
			}
			if (ret) {
				free(tr.lat);
				cli_error("out of memory");
				status = EXIT_RUNTIME;
				break;
			}
			done++;
		}
	}
	/* Each test over its runs: the medians, the sums, the spread. */
	for (unsigned i = 0; i < r.ntests; i++) {
		struct test_result *tr = &r.tests[i];

		repeat_finish(tr);
		if (tr->errors) {
			failed = true;
			result_add_warning(&r, "%s: %" PRIu64 " I/O errors, first: %s at offset %"
					   PRIu64, tr->name, tr->errors, strerror(tr->first_errno),
					   tr->first_error_offset);
		}
		if (tr->cached)
			result_add_warning(&r, "%s: reads did not reach the device (page cache?)",
					   tr->name);
		if (repeat_unreliable(tr))
			result_add_warning(&r, "%s: runs spread widely (CV %.1f %% over %u runs): "
					   "the median is not reliable; see the runs in --json",
					   tr->name, 100 * tr->summary.iops.cv, tr->nruns);
	}
	if (r.ntests && !r.tests[0].dev_valid && !(e->flags & ENGINE_F_NO_IO))
		result_add_warning(&r, "%s has no block device counters (%s): whether the I/O "
				   "reached a disk cannot be checked", ti.path,
				   ti.fs_type[0] ? ti.fs_type : "no device");
	/* Scores: for the xbench profile against Xbench's reference, or
	 * against the saved result given with --baseline. */
	if (r.ntests && (s.baseline || !strcmp(prof.name, "xbench")))
		xbench_score(&r, &baseline);
	if (interrupted && status == EXIT_OK) {
		if (npass == 1)
			result_add_warning(&r, "interrupted: %u of %u tests ran, the last one cut "
					   "short", done, plan.n);
		else if (pass <= 1)
			result_add_warning(&r, "interrupted in pass 1 of %u: %u of %u tests ran "
					   "once, the last one cut short", npass, done, plan.n);
		else
			result_add_warning(&r, "interrupted in pass %u of %u: %u of %u tests ran "
					   "in it (the run cut short is left out); each test "
					   "reports the runs that completed", pass, npass, done,
					   plan.n);
		status = 128 + SIGINT;
	}
	if (claim >= 0)
		close(claim);
	if (target_scratch_cleanup() == -EXDEV)
		result_add_warning(&r, "the scratch directory %s was moved or replaced during the "
				   "run (by someone who can write %s): its files were removed "
				   "through diskbench's handle on it, and nothing was followed "
				   "through the name; the empty directory is left where it went",
				   scratch, ti.path);
	if (progress)
		fprintf(stderr, "\r\033[K");

	for (unsigned i = 0; i < r.nwarnings; i++)
		cli_warn("%s", r.warnings[i]);
	if (status == EXIT_OK || status == 128 + SIGINT) {
		if (!s.quiet && !on_stdout)
			report_text(stdout, &r);
		if (cli_write_outputs(outs, 3, &r) != EXIT_OK)
			status = EXIT_RUNTIME;
		if (failed && status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	result_free(&r);
	profile_free(&prof);
	return status;

out_profile:
	profile_free(&prof);
	return ret;
}
