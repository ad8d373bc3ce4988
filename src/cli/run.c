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
#include "profile.h"
#include "report.h"
#include "runner.h"
#include "safety.h"
#include "target.h"
#include "workload.h"
#include "xbench.h"

#define MAX_PLAN 256
#define DEFAULT_DIR_SIZE (1ull << 30)

#define DEFAULT_PROFILE "quick"

struct plan {
	struct test_spec specs[MAX_PLAN];
	char names[MAX_PLAN][64];
	unsigned n;
	unsigned skipped_writes;	/* profile writes left out (read-only target) */
	char skipped_names[256];
	char skipped_fs[256];		/* tests that need a directory target */
	char skipped_ops[256];		/* tests doing their own I/O, under --engine null */
};

/* What plan_build works from. */
struct plan_in {
	const struct profile *prof;
	const struct settings *cli;	/* the command line alone (its given mask) */
	const struct settings *run;	/* defaults < [profile] < command line */
	const struct engine_ops *e;
	const struct target_info *ti;
	const struct safety_verdict *writes;
	struct run_result *r;
};

static void usage(FILE *f)
{
	fprintf(f,
		"usage: diskbench [run] [OPTIONS] [TARGET]\n"
		"       diskbench info [--json FILE] [--destructive[=DEV]] TARGET\n"
		"       diskbench list engines|profiles|tests\n"
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

static int pick_size(const struct settings *s, const struct target_info *ti, uint64_t *size,
		     char *err, size_t errlen);

/* The workloads of --test, in order. */
static int cli_workloads(const char *tests, const struct workload **wls, unsigned *n,
			 char *err, size_t errlen)
{
	char buf[512], *save = NULL, *tok;

	*n = 0;
	if (snprintf(buf, sizeof(buf), "%s", tests) >= (int)sizeof(buf)) {
		snprintf(err, errlen, "--test: list too long");
		return -EINVAL;
	}
	if (buf[0] == ',' || buf[strlen(buf) - 1] == ',' || strstr(buf, ",,")) {
		snprintf(err, errlen, "--test: empty name in '%s'", tests);
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

/* "rand-read 4k qd32", with " j4" for several jobs, and " direct" or
 * " buffered" when the test's I/O differs from the run's setting (hdparm's
 * O_DIRECT variants). Tests doing their own I/O show their block size only
 * when it is their I/O size (rewrite), never a queue depth. */
static void spec_name(const struct test_spec *t, bool run_direct, char *buf, size_t len)
{
	char bs[32];
	size_t n;

	format_size(t->bs, bs, sizeof(bs));
	if (t->wl->kind == WL_OPS) {
		struct wl_job job = { .bs = t->bs, .char_mode = t->char_mode,
				      .pattern = t->wl->pattern, .direct = t->direct };
		struct wl_desc d = { .engine = "-", .io_size = 0 };

		if (t->wl->ops && t->wl->ops->describe)
			t->wl->ops->describe(&job, &d);
		if (d.io_size == t->bs)
			snprintf(buf, len, "%s %s", t->wl->name, bs);
		else
			snprintf(buf, len, "%s", t->wl->name);
	} else {
		snprintf(buf, len, "%s %s qd%u", t->wl->name, bs, t->qd);
	}
	n = strlen(buf);
	if (t->jobs > 1)
		n += (size_t)snprintf(buf + n, len - n, " j%u", t->jobs);
	if (n < len && t->direct != run_direct)
		snprintf(buf + n, len - n, " %s", t->direct ? "direct" : "buffered");
}

/* Same test twice (a workload in two groups with the same settings)? */
static bool plan_has(const struct plan *p, const struct test_spec *t, const char *name)
{
	for (unsigned i = 0; i < p->n; i++) {
		const struct test_spec *o = &p->specs[i];

		if (!strcmp(p->names[i], name) && o->wl == t->wl && o->bs == t->bs &&
		    o->qd == t->qd && o->jobs == t->jobs && o->direct == t->direct &&
		    o->runtime_ns == t->runtime_ns && o->ramp_ns == t->ramp_ns &&
		    o->size == t->size && o->seed == t->seed && o->char_mode == t->char_mode &&
		    o->nfiles == t->nfiles && o->file_min == t->file_min &&
		    o->file_max == t->file_max && o->ndirs == t->ndirs && o->fsync == t->fsync)
			return true;
	}
	return false;
}

static void note_skip(char *buf, size_t len, const char *name)
{
	size_t used = strlen(buf);

	if (strstr(buf, name))
		return;
	snprintf(buf + used, len - used, "%s%s", used ? ", " : "", name);
}

/*
 * One workload of one group (g NULL: a --test workload the profile does not
 * have, with the [profile] settings) x its block sizes x queue depths into
 * the plan. Returns 0, -EINVAL (usage, message in err), -EPERM (refused
 * for safety) or -ENOSPC (no room for the working set).
 */
static int plan_add(struct plan *p, const struct plan_in *in, const struct profile_group *g,
		    const struct workload *w, char *err, size_t errlen)
{
	const struct engine_ops *e = in->e;
	const struct target_info *ti = in->ti;
	struct settings gs = g ? g->s : in->prof->s;
	bool ops = w->kind == WL_OPS, explicit_io;
	uint64_t def_bs = w->pattern == WL_SEQ ? 1u << 20 : 4096, one = 1, size;
	const uint64_t *bss, *qds;
	size_t nbs, nqd;
	int direct, ret;

	/* The command line wins over the group, key by key. */
	opts_override(&gs, in->cli);
	if (wl_writes(w) && !in->writes->allowed) {
		if (opts_given(in->cli, "test")) {
			snprintf(err, errlen, "refusing to write to %s (%s): %s", ti->path,
				 w->name, in->writes->reason);
			return -EPERM;
		}
		p->skipped_writes++;
		note_skip(p->skipped_names, sizeof(p->skipped_names), w->name);
		return 0;
	}
	if (w->needs_fs && ti->kind != TARGET_DIR) {
		note_skip(p->skipped_fs, sizeof(p->skipped_fs), w->name);
		return 0;
	}
	if (ops && (e->flags & ENGINE_F_NO_IO)) {
		note_skip(p->skipped_ops, sizeof(p->skipped_ops), w->name);
		return 0;
	}

	/* O_DIRECT: the user's choice (command line or profile), else the
	 * workload's policy (hdparm's reads are buffered), else the default. */
	explicit_io = opts_given(&gs, "direct") || opts_given(&gs, "buffered");
	direct = gs.direct;
	if (!explicit_io && w->force_direct >= 0)
		direct = w->force_direct;
	if (!ops && !direct && (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY))) {
		snprintf(err, errlen, "%s%s%s: buffered I/O, which the %s engine cannot do (it "
			 "only works with O_DIRECT; use --engine io_uring or sync)",
			 g ? "[" : "", g ? g->name : "", g ? "] " : "", e->name);
		return -EINVAL;
	}
	if (!ops && (e->flags & ENGINE_F_FORCE_DIRECT))
		direct = 1;

	ret = pick_size(&gs, ti, &size, err, errlen);
	if (ret)
		return ret;
	bss = gs.nbs ? gs.bs : &def_bs;
	nbs = gs.nbs ? gs.nbs : 1;
	qds = gs.nqd && !ops ? gs.qd : &one;
	nqd = gs.nqd && !ops ? gs.nqd : 1;

	for (size_t b = 0; b < nbs; b++) {
		uint64_t bs = bss[b], ws = w->fixed_size && w->fixed_size < size ?
			      w->fixed_size : size;

		if (direct && bs % ti->logical_block_size) {
			snprintf(err, errlen,
				 "--bs: %" PRIu64 " is not a multiple of the target's "
				 "logical block size (%u bytes), which O_DIRECT requires",
				 bs, ti->logical_block_size);
			return -EINVAL;
		}
		if (bs > ws) {
			snprintf(err, errlen, "--bs: %" PRIu64 " is larger than the working "
				 "set (%" PRIu64 " bytes)", bs, ws);
			return -EINVAL;
		}
		for (size_t q = 0; q < nqd; q++) {
			struct test_spec t = {
				.wl = w,
				.engine = e,
				.bs = (uint32_t)bs,
				.qd = (uint32_t)qds[q],
				.jobs = (uint32_t)gs.jobs,
				.direct = direct,
				.runtime_ns = gs.runtime_ns,
				.ramp_ns = gs.ramp_ns,
				.size = size,
				.seed = gs.seed,
				.cpus = in->run->ncpus ? in->run->cpus : NULL,
				.ncpus = (unsigned)in->run->ncpus,
				.char_mode = gs.char_mode && !strcmp(gs.char_mode, "syscall") ?
					     WL_CHAR_SYSCALL : WL_CHAR_STDIO,
				.nfiles = gs.files,
				.file_min = gs.nfile_size ? gs.file_size[0] : 0,
				.file_max = gs.nfile_size ? gs.file_size[1] : 0,
				.ndirs = (uint32_t)gs.dirs,
				.fsync = gs.fsync,
			};
			char name[64];

			if (!ops && (e->flags & ENGINE_F_SYNC) && t.qd > 1) {
				result_add_warning(in->r, "%s: the %s engine does one request at "
						   "a time: qd %u runs as qd 1", w->name, e->name,
						   t.qd);
				t.qd = 1;
			}
			spec_name(&t, in->run->direct, name, sizeof(name));
			if (plan_has(p, &t, name))
				continue;
			if (p->n >= MAX_PLAN) {
				snprintf(err, errlen, "too many tests (at most %d)", MAX_PLAN);
				return -EINVAL;
			}
			snprintf(p->names[p->n], sizeof(p->names[p->n]), "%s", name);
			p->specs[p->n++] = t;
		}
	}
	return 0;
}

/*
 * The plan: every group of the profile x its workloads x block sizes x
 * queue depths, in file order. --test picks workloads instead, in its
 * order, each with the settings of every group that has it (or of
 * [profile] when none has). Returns as plan_add.
 */
static int plan_build(struct plan *p, const struct plan_in *in, char *err, size_t errlen)
{
	const struct profile *prof = in->prof;
	const struct workload *wls[32];
	unsigned nwl, i, j, k;
	int ret;

	memset(p, 0, sizeof(*p));
	if (opts_given(in->cli, "test")) {
		ret = cli_workloads(in->cli->tests, wls, &nwl, err, errlen);
		if (ret)
			return ret;
		for (i = 0; i < nwl; i++) {
			bool found = false;

			for (j = 0; j < prof->ngroups; j++) {
				const struct profile_group *g = &prof->groups[j];

				for (k = 0; k < g->nwl; k++) {
					if (g->wls[k] != wls[i])
						continue;
					found = true;
					ret = plan_add(p, in, g, wls[i], err, errlen);
					if (ret)
						return ret;
				}
			}
			if (!found) {
				ret = plan_add(p, in, NULL, wls[i], err, errlen);
				if (ret)
					return ret;
			}
		}
	} else {
		for (j = 0; j < prof->ngroups; j++) {
			const struct profile_group *g = &prof->groups[j];

			for (k = 0; k < g->nwl; k++) {
				ret = plan_add(p, in, g, g->wls[k], err, errlen);
				if (ret)
					return ret;
			}
		}
	}
	if (!p->n) {
		snprintf(err, errlen, "nothing to run on %s %s: every test of the plan %s",
			 target_kind_name(in->ti->kind), in->ti->path,
			 p->skipped_writes ? "writes" : "was left out");
		return -EPERM;
	}
	return 0;
}

static bool plan_writes(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (wl_writes(p->specs[i].wl))
			return true;
	return false;
}

static bool plan_direct(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].direct)
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
static int check_output(const char *opt, const char *path, char *err, size_t errlen)
{
	char dir[PATH_MAX];

	if (!path || !strcmp(path, "-"))
		return 0;
	snprintf(dir, sizeof(dir), "%s", path);
	if (access(dirname(dir), W_OK)) {
		snprintf(err, errlen, "%s: cannot write to '%s': %s", opt, path, strerror(errno));
		return -EINVAL;
	}
	return 0;
}

static bool to_stdout(const char *path)
{
	return path && !strcmp(path, "-");
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
	const char *pos[2], *target, *path, *why;
	struct safety_verdict writes;
	struct xbench_baseline baseline;
	struct plan_in in;
	char err[512], data[PATH_MAX], scratch[PATH_MAX];
	bool progress, failed = false;
	uint64_t size = 0;
	size_t npos;
	int direct, ret, status = EXIT_OK, claim = -1;
	unsigned done = 0;

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
	if (check_cpus(&s, err, sizeof(err)) || check_output("--json", s.json, err, sizeof(err)) ||
	    check_output("--csv", s.csv, err, sizeof(err)) ||
	    check_output("--bonnie-csv", s.bonnie_csv, err, sizeof(err))) {
		cli_error("%s", err);
		ret = EXIT_USAGE;
		goto out_profile;
	}
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
		ret = pick_size(&s, &ti, &size, err, sizeof(err));
	if (ret) {
		cli_error("%s", err);
		ret = ret == -ENOSPC ? EXIT_REFUSED : EXIT_USAGE;
		goto out_profile;
	}
	writes_verdict(&s, &ti, &writes);

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
	path = ti.resolved;
	if (ti.kind == TARGET_DIR && !(e->flags & ENGINE_F_NO_IO)) {
		ret = target_scratch_create(ti.resolved, scratch, sizeof(scratch));
		if (!ret)
			ret = target_scratch_file("data", data, sizeof(data));
		if (ret) {
			cli_error("%s: cannot create scratch files: %s", ti.path, strerror(-ret));
			target_scratch_cleanup();
			result_free(&r);
			ret = EXIT_RUNTIME;
			goto out_profile;
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
			ret = EXIT_RUNTIME;
			goto out_profile;
		}
		path = data;
		for (unsigned i = 0; i < plan.n; i++)
			plan.specs[i].scratch_dir = scratch;
	}
	if (plan_direct(&plan) && !(e->flags & ENGINE_F_NO_IO) && !direct_works(path)) {
		if (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY)) {
			cli_error("%s: the file system refuses O_DIRECT, which the %s engine needs",
				  ti.path, e->name);
			target_scratch_cleanup();
			result_free(&r);
			ret = EXIT_RUNTIME;
			goto out_profile;
		}
		result_add_warning(&r, "%s refuses O_DIRECT (%s): tests run buffered, and "
				   "their page-cache pages are dropped before each test",
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
	catch_sigint();
	for (unsigned i = 0; i < plan.n && !interrupted; i++) {
		struct test_spec *t = &plan.specs[i];
		struct test_result tr;
		struct progress_state ps = { 0 };
		char name[64];

		spec_name(t, direct, name, sizeof(name));
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
	/* Scores: for the xbench profile against Xbench's reference, or
	 * against the saved result given with --baseline. */
	if (done && (s.baseline || !strcmp(prof.name, "xbench")))
		xbench_score(&r, &baseline);
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
		if (!s.quiet && !to_stdout(s.json) && !to_stdout(s.csv) &&
		    !to_stdout(s.bonnie_csv))
			report_text(stdout, &r);
		if (s.json) {
			ret = cli_write_json(s.json, &r);
			if (ret) {
				cli_error("--json %s: %s", s.json, strerror(-ret));
				status = EXIT_RUNTIME;
			}
		}
		if (s.csv) {
			ret = cli_write_csv(s.csv, &r);
			if (ret) {
				cli_error("--csv %s: %s", s.csv, strerror(-ret));
				status = EXIT_RUNTIME;
			}
		}
		if (s.bonnie_csv) {
			ret = cli_write_bonnie_csv(s.bonnie_csv, &r);
			if (ret) {
				cli_error("--bonnie-csv %s: %s", s.bonnie_csv, strerror(-ret));
				status = EXIT_RUNTIME;
			}
		}
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
