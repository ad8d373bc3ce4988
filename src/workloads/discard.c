/* discard.c - the trim test: discards of bs bytes, timed one by one, over the working set once. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "workload.h"

/* The calls a job says it is in (wl_job.at): a discard with its offset. */
enum discard_at { DISCARD_AT_OPEN, DISCARD_AT_DISCARD, DISCARD_AT_N };

struct discard_state {
	int fd;
	bool blk;		/* a block device: BLKDISCARD; a file: punch a hole */
	uint32_t bs;
	uint64_t next, end;	/* this job's slice, walked once */
	uint64_t calls;		/* system calls op() made (wl_ops.syscalls) */
	uint64_t *at;		/* wl_job.at */
};

static void discard_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out)
{
	unsigned call = wl_at_call(at);

	if (call < DISCARD_AT_N)
		wl_call_data(job, call == DISCARD_AT_DISCARD ? "discard" : "open",
			     call == DISCARD_AT_DISCARD, wl_at_arg(at), out);
}

static uint64_t discard_syscalls(const void *arg)
{
	return ((const struct discard_state *)arg)->calls;
}

static void discard_describe(const struct wl_job *job, struct wl_desc *d)
{
	d->engine = "discard";
	d->io_size = job->bs;
	d->direct = true;	/* a discard never goes through the page cache */
}

static void discard_footprint(const struct wl_job *job, struct wl_footprint *fp)
{
	(void)job;
	*fp = (struct wl_footprint){ .mem_bytes = sizeof(struct discard_state), .fds = 1 };
}

static void discard_cleanup(void *arg)
{
	struct discard_state *st = arg;

	if (st)
		wl_release(st, st->fd, NULL);
}

static int discard_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	struct discard_state *st;
	uint64_t slice;
	struct stat sb;
	int ret;

	st = wl_state_new(state, sizeof(*st), err, errlen);
	if (!st)
		return -ENOMEM;
	st->fd = -1;
	st->at = job->at;
	st->bs = job->bs;
	/* Like the sequential block tests: each job its own slice. */
	slice = wl_job_slice(job, st->bs);
	if (!slice) {
		snprintf(err, errlen, "working set smaller than one discard per job");
		return -EINVAL;
	}
	st->next = slice * job->job;
	st->end = st->next + slice;
	wl_at_set(st->at, DISCARD_AT_OPEN, 0);
	st->fd = target_open(&job->data, O_WRONLY);
	if (st->fd < 0) {
		ret = st->fd;
		snprintf(err, errlen, "%s: %s", job->data.name, strerror(-ret));
		return ret;
	}
	if (fstat(st->fd, &sb)) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", job->data.name, strerror(-ret));
		return ret;
	}
	st->blk = S_ISBLK(sb.st_mode);
	return 0;
}

/*
 * One op = one discard of bs bytes at the next offset: BLKDISCARD of the
 * range on a block device, a punched hole (the file system frees the
 * blocks, and discards them when mounted with -o discard) in a file.
 * WL_OP_DONE at the end of the slice: every block is discarded once.
 */
static int64_t discard_op(void *arg)
{
	struct discard_state *st = arg;
	uint64_t range[2] = { st->next, st->bs };
	int ret;

	if (st->next >= st->end)
		return WL_OP_DONE;
	st->calls++;
	wl_at_set(st->at, DISCARD_AT_DISCARD, st->next);
	if (st->blk)
		ret = ioctl(st->fd, BLKDISCARD, range);
	else
		ret = fallocate(st->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE,
				(off_t)st->next, (off_t)st->bs);
	if (ret)
		return -errno;
	st->next += st->bs;
	return st->bs;
}

const struct wl_ops wl_discard_ops = {
	.init = discard_init,
	.op = discard_op,
	.cleanup = discard_cleanup,
	.describe = discard_describe,
	.footprint = discard_footprint,
	.syscalls = discard_syscalls,
	.name_at = discard_name_at,
	.unit = "discard of bs bytes (BLKDISCARD on a device, a punched hole in a file)",
};
