/* null.c - the null engine: completes every request at once, moves no data. */
#include <errno.h>
#include <stdlib.h>

#include "done_fifo.h"
#include "engine.h"

/*
 * What a run on this engine measures is the runner's own cost per op
 * (offset generation, clock reads, histogram), so the engine does as
 * little as it can: one store and one FIFO push per request.
 */
static int null_probe(char *why, size_t whylen)
{
	return 0;
}

static int null_init(struct engine_ctx *ctx)
{
	ctx->priv = ctx->qd ? done_fifo_new(ctx->qd) : NULL;
	if (!ctx->qd)
		return -EINVAL;
	return ctx->priv ? 0 : -ENOMEM;
}

static int null_submit(struct engine_ctx *ctx, struct io_req **reqs, unsigned n)
{
	struct done_fifo *f = ctx->priv;
	unsigned i;

	for (i = 0; i < n && !done_fifo_full(f); i++) {
		reqs[i]->result = reqs[i]->len;
		done_fifo_push(f, reqs[i]);
	}
	return (int)i;
}

static int null_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out, unsigned max)
{
	return done_fifo_pop(ctx->priv, out, max);
}

static void null_cleanup(struct engine_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

const struct engine_ops engine_null = {
	.name = "null",
	.desc = "no I/O: completes every request at once (measures diskbench's own overhead)",
	.flags = ENGINE_F_NO_IO,
	.probe = null_probe,
	.init = null_init,
	.submit = null_submit,
	.reap = null_reap,
	.cleanup = null_cleanup,
};
