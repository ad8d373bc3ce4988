/* sync.c - the sync (pread/pwrite) and direct (the same with O_DIRECT) engines. */
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "done_fifo.h"
#include "engine.h"
#include "rawsys.h"

/*
 * Requests complete inside submit(); reap() only hands them back. The FIFO
 * holds at most ctx->qd of them, so a runner that keeps qd > 1 in flight
 * still works (it just measures back-to-back synchronous calls).
 */
struct sync_priv {
	int fd;
	struct done_fifo *fifo;
};

static int sync_probe(char *why, size_t whylen)
{
	return 0;
}

static int sync_init(struct engine_ctx *ctx)
{
	struct sync_priv *p;

	ctx->priv = NULL;
	if (!ctx->qd)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	p->fd = ctx->fd;
	p->fifo = done_fifo_new(ctx->qd);
	ctx->priv = p;
	return p->fifo ? 0 : -ENOMEM;
}

/* One transfer, as the kernel did it: a short count is data, not an error.
 * Each pread/pwrite (an EINTR retry too) counts in *calls. */
static int64_t sync_rw(int fd, const struct io_req *r, uint64_t *calls)
{
	ssize_t ret;

	do {
		++*calls;
		if (r->dir == IO_WRITE)
			ret = raw_pwrite(fd, r->buf, r->len, (off_t)r->offset);
		else
			ret = raw_pread(fd, r->buf, r->len, (off_t)r->offset);
	} while (ret < 0 && errno == EINTR);
	return ret < 0 ? -(int64_t)errno : (int64_t)ret;
}

static int sync_submit(struct engine_ctx *ctx, struct io_req **reqs, unsigned n)
{
	struct sync_priv *p = ctx->priv;
	unsigned i;

	for (i = 0; i < n && !done_fifo_full(p->fifo); i++) {
		reqs[i]->result = sync_rw(p->fd, reqs[i], &ctx->syscalls);
		done_fifo_push(p->fifo, reqs[i]);
	}
	return (int)i;
}

static int sync_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out, unsigned max)
{
	struct sync_priv *p = ctx->priv;

	return done_fifo_pop(p->fifo, out, max);
}

static void sync_cleanup(struct engine_ctx *ctx)
{
	struct sync_priv *p = ctx->priv;

	if (p)
		free(p->fifo);
	free(p);
	ctx->priv = NULL;
}

const struct engine_ops engine_sync = {
	.name = "sync",
	.desc = "pread/pwrite, one request at a time (O_DIRECT unless --buffered)",
	.flags = ENGINE_F_SYNC,
	.probe = sync_probe,
	.init = sync_init,
	.submit = sync_submit,
	.reap = sync_reap,
	.cleanup = sync_cleanup,
};

const struct engine_ops engine_direct = {
	.name = "direct",
	.desc = "sync pread/pwrite with O_DIRECT and aligned buffers (bypasses the page cache)",
	.flags = ENGINE_F_SYNC | ENGINE_F_FORCE_DIRECT,
	.probe = sync_probe,
	.init = sync_init,
	.submit = sync_submit,
	.reap = sync_reap,
	.cleanup = sync_cleanup,
};
