/* rewrite.c - bonnie++'s "Rewrite": read a chunk, dirty it, write it back in place. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rawsys.h"
#include "workload.h"

/* Aligned for O_DIRECT on any device we are likely to meet. */
#define BUF_ALIGN 4096

/* The calls a job says it is in (wl_job.at), reads and writes with their
 * offset in the data file. */
enum rewrite_at { RW_AT_OPEN, RW_AT_READ, RW_AT_WRITE, RW_AT_FDATASYNC, RW_AT_N };

struct rewrite_state {
	int fd;
	void *buf;
	uint32_t bs;
	struct wl_offsets gen;
	uint64_t seq;
	uint64_t base;		/* the slice's first chunk: a pass wraps there */
	bool started;
	bool drop_behind;	/* wl_job.drop_behind */
	uint64_t calls;		/* system calls op() and flush() made */
	uint64_t *at;		/* wl_job.at */
};

static void rewrite_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out)
{
	static const char *const calls[RW_AT_N] = {
		[RW_AT_OPEN] = "open", [RW_AT_READ] = "pread", [RW_AT_WRITE] = "pwrite",
		[RW_AT_FDATASYNC] = "fdatasync",
	};
	unsigned call = wl_at_call(at);

	if (call < RW_AT_N)
		wl_call_data(job, calls[call], call == RW_AT_READ || call == RW_AT_WRITE,
			     wl_at_arg(at), out);
}

static uint64_t rewrite_syscalls(const void *arg)
{
	return ((const struct rewrite_state *)arg)->calls;
}

static void rewrite_describe(const struct wl_job *job, struct wl_desc *d)
{
	d->engine = "sync";
	d->io_size = job->bs;
	d->direct = job->direct;
}

static void rewrite_footprint(const struct wl_job *job, struct wl_footprint *fp)
{
	*fp = (struct wl_footprint){ .mem_bytes = sizeof(struct rewrite_state) + job->bs,
				     .fds = 1 };
}

static void rewrite_cleanup(void *arg)
{
	struct rewrite_state *st = arg;

	if (st)
		wl_release(st, st->fd, st->buf);
}

static int rewrite_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	struct rewrite_state *st;
	uint64_t slice;
	struct wl_rng rng;
	int ret;

	st = wl_state_new(state, sizeof(*st), err, errlen);
	if (!st)
		return -ENOMEM;
	st->fd = -1;
	st->at = job->at;
	st->bs = job->bs;
	if (!st->bs || posix_memalign(&st->buf, BUF_ALIGN, st->bs)) {
		snprintf(err, errlen, st->bs ? "out of memory" : "chunk size 0");
		return st->bs ? -ENOMEM : -EINVAL;
	}
	/* Like the sequential block tests: each job walks its own slice. */
	slice = wl_job_slice(job, st->bs);
	st->base = slice * job->job;
	st->drop_behind = job->drop_behind;
	ret = wl_offsets_init(&st->gen, WL_SEQ, st->base, slice, st->bs, job->seed);
	if (ret) {
		snprintf(err, errlen, "working set smaller than one chunk per job");
		return ret;
	}
	wl_at_set(st->at, RW_AT_OPEN, 0);
	st->fd = target_open(&job->data, O_RDWR | (job->direct ? O_DIRECT : 0));
	if (st->fd < 0) {
		ret = st->fd;
		snprintf(err, errlen, "%s: %s", job->data.name, strerror(-ret));
		return ret;
	}
	wl_rng_seed(&rng, job->seed ^ (0xbb67ae8584caa73bull * (job->job + 1)));
	wl_fill_random(st->buf, st->bs, &rng);
	st->seq = (uint64_t)job->job << 48;
	return 0;
}

/*
 * One op = one chunk: read it, change it (a new stamp in every 512-byte
 * sector, so the write is never a no-op a smart layer could skip), write it
 * back where it came from. Returns bs, not 2 x bs: bonnie++'s Rewrite K/sec
 * counts each chunk once, and so do we (the device moved twice that).
 */
static int64_t rewrite_op(void *arg)
{
	struct rewrite_state *st = arg;
	uint64_t off = wl_offsets_next(&st->gen);
	ssize_t n;

	/* Drop-behind: a new pass starts on a file larger than RAM, i.e.
	 * with the last pass written back and out of the cache. The op that
	 * wraps pays for it, as reclaim would make some op pay. */
	if (st->drop_behind && off == st->base && st->started) {
		st->calls += 2;	/* fdatasync, posix_fadvise */
		wl_at_set(st->at, RW_AT_FDATASYNC, 0);
		if (fdatasync(st->fd))
			return -errno;
		posix_fadvise(st->fd, 0, 0, POSIX_FADV_DONTNEED);
	}
	st->started = true;

	st->calls++;
	wl_at_set(st->at, RW_AT_READ, off);
	n = raw_pread(st->fd, st->buf, st->bs, (off_t)off);
	if (n != (ssize_t)st->bs)
		return n < 0 ? -errno : -EIO;
	wl_stamp(st->buf, st->bs, st->seq);
	st->seq += st->bs / 512 ? st->bs / 512 : 1;
	st->calls++;
	wl_at_set(st->at, RW_AT_WRITE, off);
	n = raw_pwrite(st->fd, st->buf, st->bs, (off_t)off);
	if (n != (ssize_t)st->bs)
		return n < 0 ? -errno : -EIO;
	return st->bs;
}

/* Drop-behind: what the window wrote goes to the device inside it. */
static int rewrite_flush(void *arg)
{
	struct rewrite_state *st = arg;

	st->calls++;
	wl_at_set(st->at, RW_AT_FDATASYNC, 0);
	return fdatasync(st->fd) ? -errno : 0;
}

const struct wl_ops wl_rewrite_ops = {
	.init = rewrite_init,
	.op = rewrite_op,
	.flush = rewrite_flush,
	.syscalls = rewrite_syscalls,
	.cleanup = rewrite_cleanup,
	.describe = rewrite_describe,
	.footprint = rewrite_footprint,
	.name_at = rewrite_name_at,
	.unit = "chunk read, dirtied and written back (bytes count it once)",
};
