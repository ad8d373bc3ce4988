/* libaio.c - the libaio engine: Linux native AIO (io_submit/io_getevents). */
#include <errno.h>
#include <libaio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"

/*
 * The completion ring the kernel maps into our address space at the
 * io_context_t (fs/aio.c; an ABI, not in the uapi headers). The kernel
 * writes events and then tail; head is ours to advance once we have
 * copied the events before it, which frees their slots for the kernel
 * (it rereads head when it runs short: user_refill_reqs_available).
 */
struct laio_ring {
	unsigned id;
	unsigned nr;		/* events in the ring, >= what io_setup asked */
	unsigned head;
	unsigned tail;
	unsigned magic;
	unsigned compat_features;
	unsigned incompat_features;
	unsigned header_length;
	struct io_event events[];
};

#define LAIO_RING_MAGIC 0xa10a10a1u

struct laio_priv {
	io_context_t ioctx;
	int fd;
	unsigned qd;
	struct laio_ring *ring;	/* NULL: reap only with io_getevents */
	struct iocb *iocbs;	/* one per request slot, indexed by io_req.idx */
	struct iocb **cbs;	/* a batch for io_submit (engine_ctx.batch) */
	unsigned batch;
	struct io_event *events;
};

static int laio_probe(char *why, size_t whylen)
{
	io_context_t ioctx = 0;
	const char *hint;
	int ret;

	/* libaio returns -errno itself; it does not set errno. */
	ret = io_setup(1, &ioctx);
	if (!ret) {
		io_destroy(ioctx);
		return 0;
	}
	switch (-ret) {
	case ENOSYS:
		hint = "kernel built without CONFIG_AIO";
		break;
	case EAGAIN:
		hint = "aio context limit reached: see /proc/sys/fs/aio-max-nr and aio-nr";
		break;
	case EPERM:
		hint = "blocked by seccomp?";
		break;
	default:
		hint = "aio disabled: /proc/sys/fs/aio-max-nr?";
		break;
	}
	snprintf(why, whylen, "io_setup failed: %s (%s)", strerror(-ret), hint);
	return ret;
}

static void laio_cleanup(struct engine_ctx *ctx)
{
	struct laio_priv *p = ctx->priv;

	if (!p)
		return;
	if (p->ioctx)
		io_destroy(p->ioctx);
	free(p->iocbs);
	free(p->events);
	free(p->cbs);
	free(p);
	ctx->priv = NULL;
}

static int laio_init(struct engine_ctx *ctx)
{
	struct laio_priv *p;
	int ret;

	ctx->priv = NULL;
	if (!ctx->qd)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	ctx->priv = p;
	p->fd = ctx->fd;
	p->qd = ctx->qd;
	p->iocbs = calloc(p->qd, sizeof(*p->iocbs));
	p->events = calloc(p->qd, sizeof(*p->events));
	p->batch = ctx->batch ? ctx->batch : 1;
	p->cbs = calloc(p->batch < p->qd ? p->batch : p->qd, sizeof(*p->cbs));
	if (!p->iocbs || !p->events || !p->cbs) {
		ret = -ENOMEM;
		goto fail;
	}
	ret = io_setup((int)p->qd, &p->ioctx);
	if (ret) {
		p->ioctx = 0;
		goto fail;
	}
	p->ring = (struct laio_ring *)p->ioctx;
	if (p->ring->magic != LAIO_RING_MAGIC || p->ring->incompat_features ||
	    p->ring->header_length != sizeof(*p->ring) || !p->ring->nr)
		p->ring = NULL;
	return 0;
fail:
	laio_cleanup(ctx);
	return ret;
}

/*
 * Up to batch (--batch; 8 by default) iocbs per io_submit. A batch of more
 * than two iocbs is plugged: the kernel issues none of them until all are
 * queued, which idles the device while we prepare, so a whole queue's
 * worth loses IOPS (at QD32, one io_submit per round: 0.16 calls per op,
 * 30 % fewer IOPS at the same CPU per op), and one call per request (fio's
 * default) pays a system call for each. 8 against 1, on a loop device over
 * /dev/shm, one job, 9 alternating rounds of 4 s: at QD32 0.25 calls per op
 * against 1.02, CPU per op 0.81x [0.67-0.92], IOPS 0.98x [0.87-1.10]; at
 * QD128 0.16 calls per op, CPU per op 0.69x [0.64-0.79], IOPS 1.07x
 * [1.01-1.21].
 */
static int laio_submit(struct engine_ctx *ctx, struct io_req **reqs, unsigned n)
{
	struct laio_priv *p = ctx->priv;
	struct iocb *cb;
	unsigned i, k;
	int ret;

	if (n > p->qd)
		n = p->qd;
	for (i = 0; i < n; i += k) {
		for (k = 0; k < p->batch && i + k < n; k++) {
			struct io_req *r = reqs[i + k];

			if (r->idx >= p->qd)
				return i ? (int)i : -EINVAL;
			cb = &p->iocbs[r->idx];
			if (r->dir == IO_WRITE)
				io_prep_pwrite(cb, p->fd, r->buf, r->len, (long long)r->offset);
			else
				io_prep_pread(cb, p->fd, r->buf, r->len, (long long)r->offset);
			/* After prep: it zeroes the iocb. Brings the request
			 * back in reap. */
			cb->data = r;
			p->cbs[k] = cb;
		}
		ctx->syscalls++;
		ret = io_submit(p->ioctx, (long)k, p->cbs);
		/*
		 * -EAGAIN: the kernel took none (busy); fewer than k: it took
		 * those (busy for the rest); report what it took. Anything
		 * else is an iocb the kernel refused outright (bad fd, bad
		 * opcode): every request would fail the same way. Errors of
		 * the I/O itself (EIO, EINVAL for a misaligned O_DIRECT)
		 * arrive later, as events.
		 */
		if (ret == -EAGAIN)
			return (int)i;
		if (ret < 0)
			return i ? (int)i : ret;
		if ((unsigned)ret < k)
			return (int)(i + (unsigned)ret);
	}
	return (int)n;
}

/* The request an event completes, its result set. */
static struct io_req *laio_done(const struct io_event *ev)
{
	struct io_req *r = ev->obj->data;

	/* res is an unsigned long carrying bytes or -errno. */
	r->result = (long)ev->res;
	return r;
}

/*
 * Takes up to max events from the ring without a system call, if at least
 * min are there; else takes none. Returns the count. One reaper per ring
 * (the worker's thread), so head is ours between the loads and the store.
 */
static unsigned laio_ring_reap(struct laio_ring *ring, unsigned min, struct io_req **out,
			       unsigned max)
{
	unsigned head = ring->head, nr = ring->nr, tail, avail, i;

	/* Acquire: the events before tail are written before tail is. */
	tail = __atomic_load_n(&ring->tail, __ATOMIC_ACQUIRE);
	avail = tail >= head ? tail - head : nr - head + tail;
	if (!avail || avail < min)
		return 0;
	if (avail > max)
		avail = max;
	for (i = 0; i < avail; i++) {
		out[i] = laio_done(&ring->events[head]);
		if (++head == nr)
			head = 0;
	}
	/* Release: our reads of the events come before the kernel may
	 * reuse their slots. */
	__atomic_store_n(&ring->head, head, __ATOMIC_RELEASE);
	return avail;
}

/*
 * Reaps from the ring in user space when min events are already there
 * (fio's userspace_reap, here whenever it can: a loaded queue has
 * completions waiting at most of its reaps, and each reap that finds
 * them there is a system call not made); otherwise waits in io_getevents.
 */
static int laio_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out, unsigned max)
{
	struct laio_priv *p = ctx->priv;
	unsigned got;
	int i, ret;

	if (max > p->qd)
		max = p->qd;
	if (min > max)
		min = max;
	if (p->ring) {
		got = laio_ring_reap(p->ring, min ? min : 1, out, max);
		if (got || !min)
			return (int)got;
	}
	do {
		ctx->syscalls++;
		ret = io_getevents(p->ioctx, (long)min, (long)max, p->events, NULL);
	} while (ret == -EINTR);
	for (i = 0; i < ret; i++)
		out[i] = laio_done(&p->events[i]);
	return ret;
}

const struct engine_ops engine_libaio = {
	.name = "libaio",
	.desc = "Linux native AIO (io_submit/io_getevents); asynchronous only with O_DIRECT",
	.flags = ENGINE_F_DIRECT_ONLY,
	.probe = laio_probe,
	.init = laio_init,
	.submit = laio_submit,
	.reap = laio_reap,
	.cleanup = laio_cleanup,
	.batch = 8,	/* laio_submit's comment */
};
