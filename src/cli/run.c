/* run.c - "diskbench [run] [OPTIONS] [TARGET]": plan, safety, run, report. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <libgen.h>
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
#include "engine.h"
#include "opts.h"
#include "parse.h"
#include "report.h"
#include "runner.h"
#include "safety.h"
#include "target.h"
#include "workload.h"

#define MAX_PLAN 256
#define DEFAULT_DIR_SIZE (1ull << 30)

/* The default plan ("quick"): per workload, its block sizes and depths. */
struct wl_default {
	const char *name;
	uint32_t bs;
	uint32_t qd[2];
	unsigned nqd;
};

static const struct wl_default quick_plan[] = {
	{ "seq-read", 1u << 20, { 8 }, 1 },
	{ "seq-write", 1u << 20, { 8 }, 1 },
	{ "rand-read", 4096, { 1, 32 }, 2 },
	{ "rand-write", 4096, { 1, 32 }, 2 },
};

static const struct wl_default *quick_default(const struct workload *wl)
{
	for (size_t i = 0; i < sizeof(quick_plan) / sizeof(quick_plan[0]); i++)
		if (!strcmp(quick_plan[i].name, wl->name))
			return &quick_plan[i];
	return &quick_plan[0];
}

struct plan {
	struct test_spec specs[MAX_PLAN];
	unsigned n;
	unsigned skipped_writes;	/* default-plan writes left out (read-only target) */
	char skipped_names[256];
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: diskbench [run] [OPTIONS] [TARGET]\n"
		"       diskbench info [--json FILE] [--destructive[=DEV]] TARGET\n"
		"       diskbench list engines|tests\n"
		"\n"
		"Benchmark TARGET: a directory (default: the current one; scratch files\n"
		"in a private diskbench.XXXXXX directory, always removed), a block device\n"
		"or a regular file (both read-only without --destructive). With no options\n"
		"it runs the quick plan: seq read/write 1m QD8, rand read/write 4k QD1 and\n"
		"QD32.\n"
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

/* Workloads named by --test, in order, or every workload of the quick plan. */
static int plan_workloads(const struct settings *s, const struct workload **wls, unsigned *n,
			  char *err, size_t errlen)
{
	char buf[512], *save = NULL, *tok;

	*n = 0;
	if (!s->tests) {
		for (size_t i = 0; i < sizeof(quick_plan) / sizeof(quick_plan[0]); i++)
			wls[(*n)++] = wl_find(quick_plan[i].name);
		return 0;
	}
	if (snprintf(buf, sizeof(buf), "%s", s->tests) >= (int)sizeof(buf)) {
		snprintf(err, errlen, "--test: list too long");
		return -EINVAL;
	}
	if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,")) {
		snprintf(err, errlen, "--test: empty name in '%s'", s->tests);
		return -EINVAL;
	}
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		const struct workload *w = wl_find(tok);

		if (!w) {
			snprintf(err, errlen, "--test: unknown test '%s' (see: diskbench list tests)",
				 tok);
			return -EINVAL;
		}
		if (*n >= 32) {
			snprintf(err, errlen, "--test: too many tests");
			return -EINVAL;
		}
		wls[(*n)++] = w;
	}
	return 0;
}

static bool plan_has(const struct plan *p, const struct test_spec *t)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].wl == t->wl && p->specs[i].bs == t->bs && p->specs[i].qd == t->qd)
			return true;
	return false;
}

/*
 * Cross product of workloads x block sizes x queue depths. Returns 0,
 * -EINVAL (usage, message in err) or -EPERM (refused for safety).
 */
static int plan_build(struct plan *p, const struct settings *s, const struct engine_ops *e,
		      const struct target_info *ti, const struct safety_verdict *writes,
		      int direct, uint64_t size, struct run_result *r, char *err, size_t errlen)
{
	const struct workload *wls[32];
	unsigned nwl, i;
	size_t b, q;
	int ret;

	memset(p, 0, sizeof(*p));
	ret = plan_workloads(s, wls, &nwl, err, errlen);
	if (ret)
		return ret;
	for (i = 0; i < nwl; i++) {
		const struct wl_default *d = quick_default(wls[i]);
		size_t nbs = s->nbs ? s->nbs : 1;
		size_t nqd = s->nqd ? s->nqd : d->nqd;

		if (wls[i]->dir == IO_WRITE && !writes->allowed) {
			if (s->tests) {
				snprintf(err, errlen, "refusing to write to %s (%s): %s",
					 ti->path, wls[i]->name, writes->reason);
				return -EPERM;
			}
			p->skipped_writes++;
			snprintf(p->skipped_names + strlen(p->skipped_names),
				 sizeof(p->skipped_names) - strlen(p->skipped_names), "%s%s",
				 p->skipped_names[0] ? ", " : "", wls[i]->name);
			continue;
		}
		for (b = 0; b < nbs; b++) {
			uint64_t bs = s->nbs ? s->bs[b] : d->bs;

			if (direct && bs % ti->logical_block_size) {
				snprintf(err, errlen,
					 "--bs: %" PRIu64 " is not a multiple of the target's "
					 "logical block size (%u bytes), which O_DIRECT requires",
					 bs, ti->logical_block_size);
				return -EINVAL;
			}
			if (bs > size) {
				snprintf(err, errlen, "--bs: %" PRIu64 " is larger than the working "
					 "set (%" PRIu64 " bytes)", bs, size);
				return -EINVAL;
			}
			for (q = 0; q < nqd; q++) {
				struct test_spec t = {
					.wl = wls[i],
					.engine = e,
					.bs = (uint32_t)bs,
					.qd = (uint32_t)(s->nqd ? s->qd[q] : d->qd[q]),
					.jobs = (uint32_t)s->jobs,
					.direct = direct,
					.runtime_ns = s->runtime_ns,
					.ramp_ns = s->ramp_ns,
					.size = size,
					.seed = s->seed,
					.cpus = s->ncpus ? s->cpus : NULL,
					.ncpus = (unsigned)s->ncpus,
				};

				if ((e->flags & ENGINE_F_SYNC) && t.qd > 1) {
					result_add_warning(r, "%s: the %s engine does one request at a "
							   "time: qd %u runs as qd 1", wls[i]->name,
							   e->name, t.qd);
					t.qd = 1;
				}
				if (plan_has(p, &t))
					continue;
				if (p->n >= MAX_PLAN) {
					snprintf(err, errlen, "too many tests (at most %d)", MAX_PLAN);
					return -EINVAL;
				}
				p->specs[p->n++] = t;
			}
		}
	}
	if (!p->n) {
		snprintf(err, errlen, "nothing to run on %s %s: every test of the plan writes",
			 target_kind_name(ti->kind), ti->path);
		return -EPERM;
	}
	return 0;
}

static bool plan_writes(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].wl->dir == IO_WRITE)
			return true;
	return false;
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

/* The working set: what the user asked for, within what the target holds. */
static int pick_size(const struct settings *s, const struct target_info *ti, uint64_t *size,
		     char *err, size_t errlen)
{
	if (ti->kind == TARGET_DIR) {
		/* Never take more than half of what is free: leave room for
		 * everyone else. 1 GiB defeats the OS cache with O_DIRECT and
		 * most drive caches, and lays out in seconds. */
		uint64_t room = ti->free_bytes / 2;
		struct safety_verdict v;

		*size = s->size ? s->size : DEFAULT_DIR_SIZE;
		if (!s->size && *size > room)
			*size = room / (1u << 20) * (1u << 20);
		if (*size < (1u << 20) && !s->size) {
			snprintf(err, errlen, "not enough free space in %s for a working set "
				 "(%" PRIu64 " bytes free)", ti->path, ti->free_bytes);
			return -ENOSPC;
		}
		if (safety_check_fill(ti, *size, (unsigned)s->max_fill, &v) || !v.allowed) {
			snprintf(err, errlen, "refusing to write to %s: %s", ti->path, v.reason);
			return -ENOSPC;
		}
		return 0;
	}
	if (s->size && s->size > ti->size_bytes) {
		snprintf(err, errlen, "--size: %" PRIu64 " bytes is larger than %s (%" PRIu64
			 " bytes)", s->size, ti->path, ti->size_bytes);
		return -EINVAL;
	}
	*size = s->size ? s->size : ti->size_bytes;
	if (!*size) {
		snprintf(err, errlen, "%s is empty: nothing to read", ti->path);
		return -EINVAL;
	}
	return 0;
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

/* A --json FILE whose directory we cannot write fails now, not after a
 * minute of measuring. */
static int check_output(const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];

	if (!path || !strcmp(path, "-"))
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	if (access(dirname(dir), W_OK)) {
		snprintf(err, errlen, "--json: cannot write to '%s': %s", path, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

/* O_DIRECT is an open flag that some file systems (tmpfs, some FUSE) refuse. */
static bool direct_works(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECT | O_CLOEXEC);

	if (fd < 0)
		return errno != EINVAL;
	close(fd);
	return true;
}

static void drop_cache(const char *path, enum target_kind kind, struct run_result *r)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC), ret;

	if (fd < 0)
		return;
	ret = target_drop_cache(fd, kind);
	if (ret)
		result_add_warning(r, "could not drop cached pages of %s: %s", path,
				   strerror(-ret));
	close(fd);
}

static void spec_name(const struct test_spec *t, char *buf, size_t len)
{
	char bs[32];

	format_size(t->bs, bs, sizeof(bs));
	if (t->jobs > 1)
		snprintf(buf, len, "%s %s qd%u j%u", t->wl->name, bs, t->qd, t->jobs);
	else
		snprintf(buf, len, "%s %s qd%u", t->wl->name, bs, t->qd);
}

/* Live progress on a terminal: one line, rewritten in place. */
struct progress_state {
	const char *name;
	unsigned idx, total;
	uint64_t last_ns, last_ops, last_bytes;
};

static void show_progress(void *arg, uint64_t elapsed_ns, uint64_t total_ns, uint64_t ops,
			  uint64_t bytes)
{
	struct progress_state *p = arg;
	double dt = (double)(elapsed_ns - p->last_ns) / 1e9;
	char iops[32];

	if (!ops) {
		fprintf(stderr, "\r\033[K[%u/%u] %s  %.1fs / %.1fs  ramp", p->idx, p->total,
			p->name, (double)elapsed_ns / 1e9, (double)total_ns / 1e9);
	} else if (dt > 0) {
		report_fmt_count((double)(ops - p->last_ops) / dt, iops, sizeof(iops));
		fprintf(stderr, "\r\033[K[%u/%u] %s  %.1fs / %.1fs  %s IOPS  %.1f MB/s", p->idx,
			p->total, p->name, (double)elapsed_ns / 1e9, (double)total_ns / 1e9, iops,
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

int cmd_run(int argc, char **argv)
{
	static struct run_result r;
	static struct plan plan;
	struct settings s;
	struct target_info ti;
	const struct engine_ops *e = NULL;
	const char *pos[2], *target, *path, *why;
	struct safety_verdict writes;
	char err[512], data[PATH_MAX], scratch[PATH_MAX];
	bool progress, failed = false;
	uint64_t size = 0;
	size_t npos;
	int direct, ret, status = EXIT_OK, claim = -1;
	unsigned done = 0;

	opts_defaults(&s);
	if (opts_parse(&s, argc, argv, pos, 1, &npos, err, sizeof(err))) {
		cli_error("%s", err);
		fprintf(stderr, "Try 'diskbench --help'.\n");
		return EXIT_USAGE;
	}
	if (s.help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (s.version) {
		printf("diskbench %s\n", PACKAGE_VERSION);
		return EXIT_OK;
	}
	target = npos ? pos[0] : ".";

	why = engine_pick(&s, &e);
	if (why) {
		cli_error("%s", why);
		return strstr(why, "unknown") ? EXIT_USAGE : EXIT_RUNTIME;
	}
	direct = s.direct;
	if (e->flags & ENGINE_F_FORCE_DIRECT)
		direct = 1;
	if (!s.direct && (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY))) {
		cli_error("--buffered: the %s engine only works with O_DIRECT "
			  "(use --engine io_uring or sync for buffered I/O)", e->name);
		return EXIT_USAGE;
	}
	if (check_cpus(&s, err, sizeof(err)) || check_output(s.json, err, sizeof(err))) {
		cli_error("%s", err);
		return EXIT_USAGE;
	}
	if (s.drop_caches && geteuid() != 0) {
		cli_error("--drop-caches: needs root (it writes /proc/sys/vm/drop_caches)");
		return EXIT_USAGE;
	}
	ret = target_probe(target, &ti, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", target, err);
		return EXIT_USAGE;
	}
	ret = check_dir_writable(&ti, err, sizeof(err));
	if (!ret)
		ret = pick_size(&s, &ti, &size, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		return ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
	}
	writes_verdict(&s, &ti, &writes);

	r.tool_version = PACKAGE_VERSION;
	now_iso(r.started_at, sizeof(r.started_at));
	if (s.label)
		snprintf(r.label, sizeof(r.label), "%s", s.label);
	host_probe(&r.host);
	r.target = ti;
	r.clock_overhead_ns = clock_overhead_ns();

	ret = plan_build(&plan, &s, e, &ti, &writes, direct, size, &r, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		result_free(&r);
		return ret == -EPERM ? EXIT_REFUSED : EXIT_USAGE;
	}
	if (plan.skipped_writes)
		result_add_warning(&r, "skipped %s on %s: %s", plan.skipped_names, ti.path,
				   writes.reason);
	/* Last line of defence before writing to a device: an exclusive open,
	 * which the kernel refuses while anything has it mounted or claimed.
	 * Held until the end of the run. */
	if (ti.kind == TARGET_BLOCK && plan_writes(&plan) && !(e->flags & ENGINE_F_NO_IO)) {
		claim = safety_claim(ti.resolved);
		if (claim < 0) {
			cli_error("refusing to write to %s: the kernel refuses exclusive access "
				  "(%s): it is mounted or in use", ti.path, strerror(-claim));
			result_free(&r);
			return EXIT_REFUSED;
		}
	}

	/* Where the I/O goes: a laid-out scratch file, or the target itself. */
	path = ti.resolved;
	if (ti.kind == TARGET_DIR && !(e->flags & ENGINE_F_NO_IO)) {
		ret = target_scratch_create(ti.resolved, scratch, sizeof(scratch));
		if (!ret)
			ret = target_scratch_file("data", data, sizeof(data));
		if (ret) {
			cli_error("%s: cannot create scratch files: %s", ti.path, strerror(-ret));
			target_scratch_cleanup();
			result_free(&r);
			return EXIT_RUNTIME;
		}
		progress = isatty(STDERR_FILENO) && !s.quiet;
		if (progress)
			fprintf(stderr, "laying out %" PRIu64 " MiB in %s ...", size >> 20,
				scratch);
		ret = target_layout(data, size, 1u << 20, s.seed);
		if (ret) {
			cli_error("%s: laying out the working set: %s", data, strerror(-ret));
			target_scratch_cleanup();
			result_free(&r);
			return EXIT_RUNTIME;
		}
		path = data;
	}
	if (direct && !(e->flags & ENGINE_F_NO_IO) && !direct_works(path)) {
		if (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY)) {
			cli_error("%s: the file system refuses O_DIRECT, which the %s engine needs",
				  ti.path, e->name);
			target_scratch_cleanup();
			result_free(&r);
			return EXIT_RUNTIME;
		}
		result_add_warning(&r, "%s refuses O_DIRECT (%s): tests run buffered, and "
				   "their page-cache pages are dropped before each test",
				   ti.path, ti.fs_type[0] ? ti.fs_type : "unknown fs");
		direct = 0;
		for (unsigned i = 0; i < plan.n; i++)
			plan.specs[i].direct = false;
	}
	s.direct = direct;
	opts_echo(&s, &r);
	result_add_setting(&r, "engine_resolved", "%s", e->name);

	progress = isatty(STDERR_FILENO) && !s.quiet;
	catch_sigint();
	for (unsigned i = 0; i < plan.n && !interrupted; i++) {
		struct test_spec *t = &plan.specs[i];
		struct test_result tr;
		struct progress_state ps = { 0 };
		char name[64];

		spec_name(t, name, sizeof(name));
		if (progress) {
			ps.name = name;
			ps.idx = i + 1;
			ps.total = plan.n;
			t->progress = show_progress;
			t->progress_arg = &ps;
			fprintf(stderr, "\r\033[K[%u/%u] %s", i + 1, plan.n, name);
		}
		if (s.drop_caches) {
			ret = drop_all_caches();
			if (ret)
				result_add_warning(&r, "--drop-caches: %s", strerror(-ret));
		} else if (!t->direct && !(e->flags & ENGINE_F_NO_IO)) {
			drop_cache(path, ti.kind, &r);
		}
		t->stop = &interrupted;
		ret = runner_run(t, path, &ti, &tr, err, sizeof(err));
		if (ret) {
			if (progress)
				fputc('\n', stderr);
			cli_error("%s: %s", name, err);
			status = EXIT_RUNTIME;
			break;
		}
		snprintf(tr.name, sizeof(tr.name), "%s", name);
		result_finish(&tr);
		if (tr.errors) {
			failed = true;
			result_add_warning(&r, "%s: %" PRIu64 " I/O errors, first: %s at offset %"
					   PRIu64, name, tr.errors, strerror(tr.first_errno),
					   tr.first_error_offset);
		}
		if (tr.cached)
			result_add_warning(&r, "%s: reads did not reach the device (page cache?)",
					   name);
		if (result_add_test(&r, &tr)) {
			cli_error("out of memory");
			status = EXIT_RUNTIME;
			break;
		}
		done++;
	}
	if (done && !r.tests[0].dev_valid && !(e->flags & ENGINE_F_NO_IO))
		result_add_warning(&r, "%s has no block device counters (%s): whether the I/O "
				   "reached a disk cannot be checked", ti.path,
				   ti.fs_type[0] ? ti.fs_type : "no device");
	if (interrupted && status == EXIT_OK) {
		result_add_warning(&r, "interrupted: %u of %u tests ran, the last one cut short",
				   done, plan.n);
		status = 128 + SIGINT;
	}
	if (claim >= 0)
		close(claim);
	target_scratch_cleanup();
	if (progress)
		fprintf(stderr, "\r\033[K");

	for (unsigned i = 0; i < r.nwarnings; i++)
		cli_warn("%s", r.warnings[i]);
	if (status == EXIT_OK || status == 128 + SIGINT) {
		if (!s.quiet && !(s.json && !strcmp(s.json, "-")))
			report_text(stdout, &r);
		if (s.json) {
			ret = cli_write_json(s.json, &r);
			if (ret) {
				cli_error("--json %s: %s", s.json, strerror(-ret));
				status = EXIT_RUNTIME;
			}
		}
		if (failed && status == EXIT_OK)
			status = EXIT_RUNTIME;
	}
	result_free(&r);
	return status;
}
