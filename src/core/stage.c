/* stage.c - where a plan runs: the device claim, the scratch directory, the working set, O_DIRECT. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "bounded.h"
#include "clock.h"
#include "safety.h"
#include "stage.h"

/* O_DIRECT is an open flag that some file systems (tmpfs, some FUSE) refuse. */
static bool direct_works(const struct target_file *f)
{
	int fd = target_open(f, O_RDONLY | O_DIRECT);

	if (fd < 0)
		return fd != -EINVAL;
	close(fd);
	return true;
}

static int stage_fail(struct stage *st, int ret)
{
	stage_release(st);
	return ret;
}

struct layout_args {
	const struct target_file *f;
	const struct stage_in *in;
};

static int layout_call(void *arg, const struct bounded_call *c, void *out)
{
	const struct layout_args *a = arg;

	(void)out;
	return target_layout(a->f, a->in->size, 1u << 20, a->in->seed, a->in->checkable, c->stop,
			     c->step, c->step_arg);
}

/*
 * Write the working set (what: "the working set", "the read region") in a
 * child process: on a device that stopped answering a write or the final
 * fdatasync waits in the kernel for ever, and this process must still end
 * the run. It is watched as the scratch removal is: left once neither its
 * bytes nor the device's counters moved for --io-timeout (target_bounded).
 * Returns 0, or -errno with err said.
 */
static int lay_out(struct stage *st, const struct stage_in *in, const char *what, char *err,
		   size_t errlen)
{
	struct bounded b = { .bound_ns = in->io_timeout_ns ? in->io_timeout_ns :
				 BOUNDED_DEFAULT_NS, .ti = in->ti, .stop = in->stop,
			     .progress = in->progress, .progress_arg = in->progress_arg };
	struct layout_args a = { .f = &st->where.data, .in = in };
	const char *at = in->ti->kind == TARGET_DIR ? st->scratch : in->ti->path;
	const char *data = in->ti->kind == TARGET_DIR ? "/data" : "";
	int ret = target_bounded(&b, layout_call, &a, NULL, 0);

	if (ret == -EINTR)
		snprintf(err, errlen, "interrupted while laying out %s: nothing was measured", what);
	else if (ret == -ETIMEDOUT && !b.returned)
		snprintf(err, errlen, "%s%s: laying out %s: no progress for %.1f s at byte %" PRIu64
			 " of %" PRIu64 " (--io-timeout): the device stopped answering", at, data,
			 what, (double)b.bound_ns / 1e9, b.done, in->size);
	else if (ret == -ECHILD && !b.returned)
		snprintf(err, errlen, "%s%s: laying out %s: its process was killed at byte %"
			 PRIu64 " of %" PRIu64, at, data, what, b.done, in->size);
	else if (ret)
		snprintf(err, errlen, "%s%s: laying out %s: %s", at, data, what, strerror(-ret));
	return ret;
}

int run_stage(struct stage *st, const struct stage_in *in, char *err, size_t errlen)
{
	const bool io = !(in->e->flags & ENGINE_F_NO_IO);
	const struct target_info *ti = in->ti;
	struct plan *p = in->plan;
	int ret = 0;

	*st = (struct stage){
		.where = { .ti = ti, .data = { AT_FDCWD, ti->resolved }, .scratch_fd = -1 },
		.claim = -1,
	};
	if (!io)
		return 0;
	/* The last line of defence before writing to a device: an exclusive
	 * open, which the kernel refuses while anything has it mounted or
	 * claimed. */
	if (ti->kind == TARGET_BLOCK && plan_writes(p)) {
		st->claim = safety_claim(ti->resolved);
		if (st->claim < 0) {
			ret = st->claim;
			st->claim = -1;
			snprintf(err, errlen, "refusing to write to %s: the kernel refuses exclusive "
				 "access (%s): it is mounted or in use", ti->path, strerror(-ret));
			return -EBUSY;
		}
	}
	if (ti->kind == TARGET_DIR) {
		target_scratch_bound(in->io_timeout_ns);
		ret = target_scratch_create(ti->resolved, st->scratch, sizeof(st->scratch));
		if (!ret)
			ret = target_scratch_file("data", &st->where.data);
		if (ret) {
			snprintf(err, errlen, "%s: cannot create scratch files: %s", ti->path,
				 strerror(-ret));
			return stage_fail(st, ret);
		}
		st->where.scratch_fd = target_scratch_fd();
		st->where.scratch = st->scratch;
		/* Only tests that read or rewrite the data file need it written
		 * out first; file tests and per-char writes make their own. */
		if (plan_needs_data(p) && (ret = lay_out(st, in, "the working set", err, errlen)))
			return stage_fail(st, ret);
	}
	if (in->lay_out && ti->kind != TARGET_DIR) {
		uint64_t t0 = clock_ns();

		ret = lay_out(st, in, "the read region", err, errlen);
		if (ret)
			return stage_fail(st, ret);
		st->laid_out_bytes = in->size;
		st->laid_out_ns = clock_ns() - t0;
	}
	if (plan_direct(p) && (ti->direct_via_cache || !direct_works(&st->where.data))) {
		if (in->e->flags & (ENGINE_F_FORCE_DIRECT | ENGINE_F_DIRECT_ONLY)) {
			snprintf(err, errlen, "%s: the file system %s O_DIRECT, which the %s "
				 "engine needs", ti->path, ti->direct_via_cache ?
				 "serves through the page cache (fscrypt without inlinecrypt)" :
				 "refuses", in->e->name);
			return stage_fail(st, -EOPNOTSUPP);
		}
		st->direct_refused = true;
		for (unsigned i = 0; i < p->n; i++)
			p->specs[i].direct = false;
	}
	return 0;
}

int stage_release(struct stage *st)
{
	int ret;

	if (st->claim >= 0)
		close(st->claim);
	st->claim = -1;
	st->where.scratch_fd = -1;
	/* run_stage releases what it took when it fails: its caller still
	 * learns, from its own call, that the directory was left */
	ret = target_scratch_cleanup();
	if (ret)
		st->released = ret;
	return st->released;
}
