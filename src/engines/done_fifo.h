/* done_fifo.h - completed requests waiting for reap(), for engines that finish
 * requests inside submit() (sync, direct, null). Private to src/engines/. */
#ifndef DISKBENCH_DONE_FIFO_H
#define DISKBENCH_DONE_FIFO_H

#include <stdlib.h>

#include "engine.h"

struct done_fifo {
	unsigned cap;		/* slots (the engine's qd) */
	unsigned head;		/* oldest completed request */
	unsigned count;		/* completed, not yet reaped */
	struct io_req *done[];
};

/* A FIFO for cap requests, or NULL. Free it with free(). */
static inline struct done_fifo *done_fifo_new(unsigned cap)
{
	struct done_fifo *f = calloc(1, sizeof(*f) + cap * sizeof(f->done[0]));

	if (f)
		f->cap = cap;
	return f;
}

static inline int done_fifo_full(const struct done_fifo *f)
{
	return f->count == f->cap;
}

/* Caller checks done_fifo_full() first. */
static inline void done_fifo_push(struct done_fifo *f, struct io_req *r)
{
	unsigned tail = f->head + f->count;

	/* Compare-and-subtract: no division per op. */
	if (tail >= f->cap)
		tail -= f->cap;
	f->done[tail] = r;
	f->count++;
}

/* Move up to max requests to out, oldest first; returns how many. Every
 * request in the FIFO is complete, so any min a reap() asks for is met. */
static inline int done_fifo_pop(struct done_fifo *f, struct io_req **out, unsigned max)
{
	unsigned i;

	for (i = 0; i < max && f->count; i++) {
		out[i] = f->done[f->head];
		if (++f->head == f->cap)
			f->head = 0;
		f->count--;
	}
	return (int)i;
}

#endif
