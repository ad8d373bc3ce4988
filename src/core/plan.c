/* plan.c - from a profile and the command line to the list of tests to run. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"
#include "plan.h"
#include "verify.h"
#include "workload.h"

/* The working set: what the user asked for, within what the target holds. */
int plan_pick_size(const struct settings *s, const struct target_info *ti, uint64_t *size,
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
void plan_spec_name(const struct test_spec *t, bool run_direct, char *buf, size_t len)
{
	char bs[32];
	size_t n;

	format_size(t->bs, bs, sizeof(bs));
	if (t->wl->kind == WL_OPS) {
		struct wl_job job = { .bs = t->bs, .params = t->params,
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

void plan_spec_key(const struct test_spec *t, char *buf, size_t len)
{
	const struct wl_params *p = &t->params;

	snprintf(buf, len, "%s bs=%" PRIu32 " qd=%" PRIu32 " jobs=%" PRIu32 " direct=%d "
		 "runtime=%" PRIu64 " ramp=%" PRIu64 " interval=%" PRIu64 " size=%" PRIu64
		 " seed=%" PRIu64 " char=%d files=%" PRIu64 " file=%" PRIu64 "-%" PRIu64
		 " dirs=%" PRIu32 " fsync=%d zero=%d", t->wl->name, t->bs, t->qd, t->jobs,
		 t->direct, t->runtime_ns, t->ramp_ns, t->interval_ns, t->size, t->seed,
		 p->char_mode, p->nfiles, p->file_min, p->file_max, p->ndirs, p->fsync,
		 t->zero_data);
}

/* Same test twice (a workload in two groups with the same settings)? */
static bool plan_has(const struct plan *p, const struct test_spec *t)
{
	char a[512], b[512];

	plan_spec_key(t, a, sizeof(a));
	for (unsigned i = 0; i < p->n; i++) {
		plan_spec_key(&p->specs[i], b, sizeof(b));
		if (!strcmp(a, b))
			return true;
	}
	return false;
}

static void note_skip(struct plan *p, const struct workload *w, enum plan_skip_why why)
{
	for (unsigned i = 0; i < p->nskips; i++)
		if (p->skips[i].wl == w && p->skips[i].why == why)
			return;
	if (p->nskips < MAX_PLAN)
		p->skips[p->nskips++] = (struct plan_skip){ .wl = w, .why = why };
}

static void note_clamp(struct plan *p, const struct workload *w, uint32_t qd)
{
	for (unsigned i = 0; i < p->nclamps; i++)
		if (p->clamps[i].wl == w && p->clamps[i].qd == qd)
			return;
	if (p->nclamps < MAX_PLAN)
		p->clamps[p->nclamps++] = (struct plan_clamp){ .wl = w, .qd = qd };
}

int plan_precondition(const struct settings *s, const struct engine_ops *e,
		      const struct target_info *ti, uint64_t set, struct test_spec *out,
		      char *err, size_t errlen)
{
	uint64_t region = ti->kind == TARGET_DIR ? set : ti->size_bytes, total;

	if (e->flags & ENGINE_F_NO_IO) {
		snprintf(err, errlen, "--precondition: the %s engine moves no data", e->name);
		return -EINVAL;
	}
	region -= region % PRECONDITION_BS;
	if (!region) {
		snprintf(err, errlen, "--precondition: %s holds no whole %u KiB block", ti->path,
			 PRECONDITION_BS >> 10);
		return -EINVAL;
	}
	total = s->precondition_size ? s->precondition_size : 2 * region;
	/* less than the device: that much from its start, once (the option's
	 * minimum, 1 MiB, holds whole blocks) */
	if (total < region)
		region = total - total % PRECONDITION_BS;
	if ((total + region - 1) / region > 1000) {
		snprintf(err, errlen, "--precondition-size: %" PRIu64 " bytes would be more than "
			 "1000 passes over the %" PRIu64 " bytes of %s", total, region, ti->path);
		return -EINVAL;
	}
	*out = (struct test_spec){
		.wl = wl_find("seq-write"),
		.engine = e,
		.bs = PRECONDITION_BS,
		.qd = e->flags & ENGINE_F_SYNC ? 1 : 32,
		.jobs = 1,
		.direct = s->direct,
		.runtime_ns = 86400ull * 1000000000u,
		.size = region,
		.passes = (uint32_t)((total + region - 1) / region),
		.seed = s->seed,
	};
	return 0;
}

unsigned plan_skipped(const struct plan *p, enum plan_skip_why why, char *buf, size_t len)
{
	size_t used = 0;
	unsigned n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < p->nskips; i++) {
		if (p->skips[i].why != why)
			continue;
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "",
						 p->skips[i].wl->name);
		n++;
	}
	return n;
}

/* The classic workloads' parameters as the settings give them. */
static struct wl_params plan_params(const struct settings *s)
{
	return (struct wl_params){
		.char_mode = s->char_mode && !strcmp(s->char_mode, "syscall") ? WL_CHAR_SYSCALL :
			     WL_CHAR_STDIO,
		.nfiles = s->files,
		.file_min = s->nfile_size ? s->file_size[0] : 0,
		.file_max = s->nfile_size ? s->file_size[1] : 0,
		.ndirs = (uint32_t)s->dirs,
		.fsync = s->fsync,
	};
}

/* Whether w can run here at all: 1 when it is left out (the reason noted
 * in the plan), 0 when it runs, -EPERM (a --test write refused, message in
 * err). */
static int left_out(struct plan *p, const struct plan_in *in, const struct workload *w,
		    char *err, size_t errlen)
{
	const struct target_info *ti = in->ti;

	if (wl_writes(w) && !in->writes->allowed) {
		if (opts_given(in->cli, "test")) {
			snprintf(err, errlen, "refusing to write to %s (%s): %s", ti->path,
				 w->name, in->writes->reason);
			return -EPERM;
		}
		note_skip(p, w, PLAN_SKIP_WRITES);
		return 1;
	}
	if (w->needs_fs && ti->kind != TARGET_DIR) {
		note_skip(p, w, PLAN_SKIP_NEEDS_FS);
		return 1;
	}
	if (w->kind == WL_OPS && (in->e->flags & ENGINE_F_NO_IO)) {
		note_skip(p, w, PLAN_SKIP_OWN_IO);
		return 1;
	}
	return 0;
}

/* O_DIRECT for w under gs into *direct: the user's choice (command line or
 * profile), else the workload's policy (hdparm's reads are buffered), else
 * the default; then what the engine demands. 0, or -EINVAL (message in err). */
static int pick_direct(const struct settings *gs, const struct profile_group *g,
		       const struct workload *w, const struct engine_ops *e, int *direct,
		       char *err, size_t errlen)
{
	bool ops = w->kind == WL_OPS;
	bool explicit_io = opts_given(gs, "direct") || opts_given(gs, "buffered");

	*direct = gs->direct;
	if (!explicit_io && w->force_direct >= 0)
		*direct = w->force_direct;
	if (!ops && !*direct && (e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY))) {
		snprintf(err, errlen, "%s%s%s: buffered I/O, which the %s engine cannot do (it "
			 "only works with O_DIRECT; use --engine io_uring or sync)",
			 g ? "[" : "", g ? g->name : "", g ? "] " : "", e->name);
		return -EINVAL;
	}
	if (!ops && (e->flags & ENGINE_F_FORCE_DIRECT))
		*direct = 1;
	return 0;
}

/* Can block size bs run w over a working set of ws bytes? 0, or -EINVAL
 * (message in err). */
static int check_bs(const struct settings *gs, const struct target_info *ti,
		    const struct workload *w, int direct, uint64_t bs, uint64_t ws,
		    char *err, size_t errlen)
{
	if (direct && bs % ti->logical_block_size) {
		snprintf(err, errlen,
			 "--bs: %" PRIu64 " is not a multiple of the target's "
			 "logical block size (%u bytes), which O_DIRECT requires",
			 bs, ti->logical_block_size);
		return -EINVAL;
	}
	if (gs->verify && wl_verifiable(w) && !verify_unit((uint32_t)bs)) {
		snprintf(err, errlen, "--verify: --bs %" PRIu64 " is not a multiple of 512 "
			 "bytes, the smallest block it can stamp", bs);
		return -EINVAL;
	}
	if (bs > ws) {
		snprintf(err, errlen, "--bs: %" PRIu64 " is larger than the working "
			 "set (%" PRIu64 " bytes)", bs, ws);
		return -EINVAL;
	}
	return 0;
}

/* The test of w at block size bs and queue depth qd, as gs sets it. */
static struct test_spec make_spec(const struct plan_in *in, const struct settings *gs,
				  const struct workload *w, int direct, uint64_t bs, uint64_t qd,
				  uint64_t size)
{
	struct test_spec t = {
		.wl = w,
		.engine = in->e,
		.bs = (uint32_t)bs,
		.qd = (uint32_t)qd,
		.jobs = (uint32_t)gs->jobs,
		.procs = !in->run->thread,
		.direct = direct,
		.runtime_ns = gs->runtime_ns,
		.ramp_ns = gs->ramp_ns,
		.settle_ns = gs->settle_ns,
		.interval_ns = gs->interval_ns,
		.size = size,
		.passes = w->passes,
		.seed = gs->seed,
		.zero_data = gs->data && !strcmp(gs->data, "zero"),
		.hipri = in->run->hipri,
		.batch = (uint32_t)in->run->batch,
		.verify = gs->verify && wl_verifiable(w),
		.stamp = gs->verify && wl_verifiable(w),
		.cpus = in->run->ncpus ? in->run->cpus : NULL,
		.ncpus = (unsigned)in->run->ncpus,
		.params = plan_params(gs),
	};

	/* --lat-log's memory, for the budget; the CLI lays the log out */
	if (in->run->lat_log && w->kind == WL_BLOCK)
		t.reqlog_max = in->run->lat_log_max ? in->run->lat_log_max : REQLOG_DEFAULT_MAX;

	if (w->runtime_ns && !opts_given(gs, "runtime"))
		t.runtime_ns = w->runtime_ns;
	return t;
}

/* t into the plan, its queue depth clamped for a synchronous engine,
 * unless the plan has it already. 0, or -EINVAL (full, message in err). */
static int push_spec(struct plan *p, const struct plan_in *in, struct test_spec t,
		     char *err, size_t errlen)
{
	char name[64];

	if (t.wl->kind != WL_OPS && (in->e->flags & ENGINE_F_SYNC) && t.qd > 1) {
		note_clamp(p, t.wl, t.qd);
		t.qd = 1;
	}
	plan_spec_name(&t, in->run->direct, name, sizeof(name));
	if (plan_has(p, &t))
		return 0;
	if (p->n >= MAX_PLAN) {
		snprintf(err, errlen, "too many tests (at most %d)", MAX_PLAN);
		return -EINVAL;
	}
	snprintf(p->names[p->n], sizeof(p->names[p->n]), "%s", name);
	p->specs[p->n++] = t;
	return 0;
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
	struct settings gs = g ? g->s : in->prof->s;
	bool ops = w->kind == WL_OPS;
	uint64_t def_bs = w->pattern == WL_SEQ ? 1u << 20 : 4096, one = 1, size;
	const uint64_t *bss, *qds;
	size_t nbs, nqd;
	int direct, ret;

	/* The command line wins over the group, key by key. */
	opts_override(&gs, in->cli);
	ret = left_out(p, in, w, err, errlen);
	if (ret)
		return ret > 0 ? 0 : ret;
	ret = pick_direct(&gs, g, w, in->e, &direct, err, errlen);
	if (ret)
		return ret;
	ret = plan_pick_size(&gs, in->ti, &size, err, errlen);
	if (ret)
		return ret;
	bss = gs.nbs ? gs.bs : &def_bs;
	nbs = gs.nbs ? gs.nbs : 1;
	qds = gs.nqd && !ops ? gs.qd : &one;
	nqd = gs.nqd && !ops ? gs.nqd : 1;

	for (size_t b = 0; b < nbs; b++) {
		uint64_t ws = w->fixed_size && w->fixed_size < size ? w->fixed_size : size;

		ret = check_bs(&gs, in->ti, w, direct, bss[b], ws, err, errlen);
		for (size_t q = 0; q < nqd && !ret; q++)
			ret = push_spec(p, in, make_spec(in, &gs, w, direct, bss[b], qds[q], size),
					err, errlen);
		if (ret)
			return ret;
	}
	return 0;
}

/*
 * A verify test checks what the write tests before it wrote: they stamp
 * their blocks, with --verify or not. And every stamping test of the plan
 * uses one unit: a 512-byte block written into a 4 KiB unit would make it
 * fail its CRC, though nothing went wrong, so one block size that is no
 * multiple of 4 KiB makes them all stamp 512-byte units. (A block of no
 * multiple of 512, buffered, cannot be stamped: the verify test finds it.)
 */
static void plan_units(struct plan *p)
{
	uint32_t unit = VERIFY_UNIT;

	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].wl->checks)
			for (unsigned j = 0; j < i; j++)
				if (wl_verifiable(p->specs[j].wl) && verify_unit(p->specs[j].bs))
					p->specs[j].stamp = true;
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].stamp && verify_unit(p->specs[i].bs) < unit)
			unit = verify_unit(p->specs[i].bs);
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].stamp)
			p->specs[i].unit = unit;
}

/*
 * The plan: every group of the profile x its workloads x block sizes x
 * queue depths, in file order. --test picks workloads instead, in its
 * order, each with the settings of every group that has it (or of
 * [profile] when none has). Returns as plan_add.
 */
int plan_build(struct plan *p, const struct plan_in *in, char *err, size_t errlen)
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
	plan_units(p);
	if (!p->n) {
		char names[256];

		snprintf(err, errlen, "nothing to run on %s %s: every test of the plan %s",
			 target_kind_name(in->ti->kind), in->ti->path,
			 plan_skipped(p, PLAN_SKIP_WRITES, names, sizeof(names)) ? "writes" :
			 "was left out");
		return -EPERM;
	}
	return 0;
}

bool plan_writes(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (wl_writes(p->specs[i].wl))
			return true;
	return false;
}

bool plan_needs_data(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (!p->specs[i].wl->own_files)
			return true;
	return false;
}

bool plan_checks(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].wl->checks)
			return true;
	return false;
}

unsigned plan_verified(const struct plan *p)
{
	unsigned n = 0;

	for (unsigned i = 0; i < p->n; i++)
		n += p->specs[i].verify || p->specs[i].wl->checks;
	return n;
}

unsigned plan_unverified(const struct plan *p, bool writers, char *buf, size_t len)
{
	size_t used = 0;
	unsigned n = 0, j;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < p->n; i++) {
		const struct workload *w = p->specs[i].wl;

		if (p->specs[i].verify || w->checks || wl_writes(w) != writers)
			continue;
		for (j = 0; j < i && p->specs[j].wl != w; j++)
			;
		if (j < i)
			continue;	/* named already */
		if (used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s", n ? ", " : "",
						 w->name);
		n++;
	}
	return n;
}

bool plan_direct(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (p->specs[i].direct)
			return true;
	return false;
}
