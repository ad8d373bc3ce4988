/* check.c - the verify test: read the working set once and check what --verify wrote. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "verify.h"
#include "workload.h"

/* Aligned for O_DIRECT on any device we are likely to meet. */
#define BUF_ALIGN 4096

/* The calls a job says it is in (wl_job.at): a read with its offset. */
enum verify_at { VERIFY_AT_OPEN, VERIFY_AT_READ, VERIFY_AT_N };

struct verify_state {
	int fd;
	void *buf;
	uint64_t pos, end;	/* what is left of the job's slice */
	uint64_t seed;
	uint32_t unit;		/* of a unit whose header does not say its size */
	struct verify_sum sum;
	uint64_t *at;		/* wl_job.at */
};

static void verify_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out)
{
	unsigned call = wl_at_call(at);

	if (call < VERIFY_AT_N)
		wl_call_data(job, call == VERIFY_AT_READ ? "pread" : "open",
			     call == VERIFY_AT_READ, wl_at_arg(at), out);
}

static void verify_describe(const struct wl_job *job, struct wl_desc *d)
{
	d->engine = "pread";
	d->io_size = VERIFY_CHUNK;
	d->direct = job->direct;
}

static void verify_footprint(const struct wl_job *job, struct wl_footprint *fp)
{
	(void)job;
	*fp = (struct wl_footprint){ .mem_bytes = sizeof(struct verify_state) + VERIFY_CHUNK,
				     .fds = 1 };
}

static void verify_cleanup(void *arg)
{
	struct verify_state *st = arg;

	if (st)
		wl_release(st, st->fd, st->buf);
}

/*
 * Each job checks one slice of [0, size), 4 KiB-aligned, the last one up to
 * the working set's last whole 512 bytes. A unit whose header says its size
 * is checked at that size (the writers' block sizes may have differed);
 * one that says nothing (no header) at --bs's unit.
 */
static int verify_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	struct verify_state *st;
	unsigned jobs = job->jobs ? job->jobs : 1;
	uint64_t slice = wl_job_slice(job, VERIFY_UNIT);

	st = wl_state_new(state, sizeof(*st), err, errlen);
	if (!st)
		return -ENOMEM;
	st->fd = -1;
	st->at = job->at;
	st->seed = job->seed;
	st->unit = verify_unit(job->bs) ? verify_unit(job->bs) : VERIFY_UNIT;
	st->pos = slice * job->job;
	st->end = job->job + 1 == jobs ? job->size / VERIFY_UNIT_MIN * VERIFY_UNIT_MIN :
	       st->pos + slice;
	st->sum.done = true;
	if (posix_memalign(&st->buf, BUF_ALIGN, VERIFY_CHUNK))
		return -ENOMEM;
	wl_at_set(st->at, VERIFY_AT_OPEN, 0);
	st->fd = target_open(&job->data, O_RDONLY | (job->direct ? O_DIRECT : 0));
	if (st->fd < 0) {
		snprintf(err, errlen, "verify: opening %s: %s", job->data.name,
			 strerror(-st->fd));
		return st->fd;
	}
	return 0;
}

/* One chunk read and checked: its bytes, WL_OP_DONE at the slice's end, or
 * the read's -errno (its units are counted bad as well). */
static int64_t verify_op(void *arg)
{
	struct verify_state *st = arg;
	size_t len;
	int ret;

	if (st->pos >= st->end)
		return WL_OP_DONE;
	len = st->end - st->pos < VERIFY_CHUNK ? (size_t)(st->end - st->pos) : VERIFY_CHUNK;
	wl_at_set(st->at, VERIFY_AT_READ, st->pos);
	ret = verify_read(st->fd, st->buf, st->pos, len, st->unit, true, st->seed, &st->sum);
	if (ret)
		return ret;
	st->pos += len;
	return (int64_t)len;
}

static void verify_checked(void *arg, struct verify_sum *out)
{
	const struct verify_state *st = arg;

	if (st)
		*out = st->sum;
}

const struct wl_ops wl_verify_ops = {
	.init = verify_init,
	.op = verify_op,
	.cleanup = verify_cleanup,
	.describe = verify_describe,
	.footprint = verify_footprint,
	.checked = verify_checked,
	.name_at = verify_name_at,
	.unit = "MiB checked",
};
