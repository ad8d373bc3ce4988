/* null.c - the null engine: completes every request at once, moves no data. */
#include <errno.h>
#include <stdlib.h>

#include "engine.h"

/*
 * What a run on this engine measures is the runner's own cost per op
 * (offset generation, clock reads, histogram), so the engine does as
 * little as it can: one store and one FIFO push per request.
 */
struct null_priv {
	unsigned cap;		/* slots in done[] (ctx->qd) */
	unsigned head;		/* oldest completed request */
	unsigned count;		/* completed, not yet reaped */
	struct io_req *done[];
};

static int null_probe(char *why, size_t whylen)
{
	return 0;
}

static int null_init(struct engine_ctx *ctx)
{
	struct null_priv *p;

	ctx->priv = NULL;
	if (!ctx->qd)
		return -EINVAL;
	p = calloc(1, sizeof(*p) + ctx->qd * sizeof(p->done[0]));
	if (!p)
		return -ENOMEM;
	p->cap = ctx->qd;
	ctx->priv = p;
	return 0;
}

static int null_submit(struct engine_ctx *ctx, struct io_req **reqs, unsigned n)
{
	struct null_priv *p = ctx->priv;
	unsigned i, tail;

	for (i = 0; i < n && p->count < p->cap; i++) {
		reqs[i]->result = reqs[i]->len;
		tail = p->head + p->count;
		if (tail >= p->cap)
			tail -= p->cap;
		p->done[tail] = reqs[i];
		p->count++;
	}
	return (int)i;
}

static int null_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out, unsigned max)
{
	struct null_priv *p = ctx->priv;
	unsigned i;

	for (i = 0; i < max && p->count; i++) {
		out[i] = p->done[p->head];
		if (++p->head == p->cap)
			p->head = 0;
		p->count--;
	}
	return (int)i;
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
