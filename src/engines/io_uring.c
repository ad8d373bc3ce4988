/* io_uring.c - the io_uring engine (liburing): one enter per request submitted, batched reaping. */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/uio.h>
#include <unistd.h>

#include "engine.h"

struct uring_priv {
	struct io_uring ring;
	int sqe_fd;		/* 0 (registered-file index) or the real fd */
	unsigned char sqe_flags; /* IOSQE_FIXED_FILE when the fd is registered */
	bool fixed_bufs;	/* the slots' buffers are registered: READ/WRITE_FIXED */
	bool disabled;		/* created R_DISABLED: enable on the first submit() */
	int err;		/* a hard submit failure, reported by the next submit() */
};

/*
 * Ring setups, best first; the kernel refuses flags it does not know with
 * -EINVAL, so each older kernel lands on the best it has.
 *  - DEFER_TASKRUN (6.1+, needs SINGLE_ISSUER) runs completion work only
 *    when we wait for it, in our own thread, in one batch: no IPIs and no
 *    interrupted user code. It is what fio uses too, and measured ~10%
 *    more IOPS at QD32 here. TASKRUN_FLAG tells liburing (via the SQ
 *    flags) that such work is pending, so a min == 0 reap still enters.
 *  - SINGLE_ISSUER binds the ring to the task that enables it. R_DISABLED
 *    delays that binding to the first submit(), so init() may run on
 *    another thread than the I/O loop.
 *  - SUBMIT_ALL (5.18+) keeps a bad SQE from stopping those behind it
 *    when one enter carries several (reap()'s enter pushes what a failed
 *    submit left in the ring).
 */
static const unsigned uring_setups[] = {
	IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG |
		IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED,
	IORING_SETUP_SUBMIT_ALL,
	0,
};
#define NSETUPS (sizeof(uring_setups) / sizeof(uring_setups[0]))

/* kernel.io_uring_disabled (Linux 6.6+): 0 on, 1 group only, 2 off; -1 when absent. */
static int uring_sysctl_disabled(void)
{
	char buf[16];
	ssize_t n;
	int fd;

	fd = open("/proc/sys/kernel/io_uring_disabled", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	return atoi(buf);
}

/* Does the kernel charge pinned memory to RLIMIT_MEMLOCK? Yes unless the
 * process has CAP_IPC_LOCK (bit 14 of CapEff in /proc/self/status). */
static bool memlock_charged(void)
{
	unsigned long long eff = 0;
	char line[128];
	bool found = false;
	FILE *f;

	f = fopen("/proc/self/status", "re");
	if (!f)
		return true;
	while (!found && fgets(line, sizeof(line), f))
		found = sscanf(line, "CapEff: %llx", &eff) == 1;
	fclose(f);
	return !found || !(eff & (1ull << 14));
}

/* Does RLIMIT_MEMLOCK bind this process (a limit, and no CAP_IPC_LOCK)?
 * Then *kib is the limit in KiB. */
static bool memlock_limit(unsigned long long *kib)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_MEMLOCK, &rl) || rl.rlim_cur == RLIM_INFINITY || !memlock_charged())
		return false;
	*kib = (unsigned long long)rl.rlim_cur / 1024;
	return true;
}

/* Why buffers cannot be registered (err: -errno of the registration),
 * in words. */
static void fixed_bufs_why(int err, char *why, size_t whylen)
{
	struct rlimit rl;

	if ((err == -ENOMEM || err == -EPERM) && !getrlimit(RLIMIT_MEMLOCK, &rl) &&
	    rl.rlim_cur != RLIM_INFINITY)
		snprintf(why, whylen, "fixed buffers off: registering them failed (%s): "
			 "RLIMIT_MEMLOCK is %llu KiB (ulimit -l)", strerror(-err),
			 (unsigned long long)rl.rlim_cur / 1024);
	else
		snprintf(why, whylen, "fixed buffers off: registering them failed (%s)",
			 strerror(-err));
}

/* Can buffers be registered here? Never fails the probe: a note in why,
 * also when they can but RLIMIT_MEMLOCK bounds how many (a run whose
 * buffers, qd x bs per job, exceed it goes on without: its note says so). */
static int uring_probe_fixed(struct io_uring *ring, char *why, size_t whylen)
{
	struct iovec iov = { .iov_len = 4096 };
	unsigned long long kib;
	int ret;

	if (posix_memalign(&iov.iov_base, 4096, iov.iov_len))
		return 0;
	ret = io_uring_register_buffers(ring, &iov, 1);
	if (ret < 0) {
		fixed_bufs_why(ret, why, whylen);
	} else {
		io_uring_unregister_buffers(ring);
		if (memlock_limit(&kib))
			snprintf(why, whylen, "fixed buffers only within RLIMIT_MEMLOCK, %llu KiB"
				 " (ulimit -l), which every job's qd x bs counts against:"
				 " beyond it, I/O goes unregistered", kib);
	}
	free(iov.iov_base);
	return 0;
}

static int uring_probe(char *why, size_t whylen)
{
	struct io_uring_probe *probe;
	struct io_uring ring;
	unsigned long long kib;
	int ret, disabled;

	ret = io_uring_queue_init(2, &ring, 0);
	if (ret < 0) {
		disabled = uring_sysctl_disabled();
		if (disabled == 2)
			snprintf(why, whylen, "io_uring_setup: %s (kernel.io_uring_disabled=2)",
				 strerror(-ret));
		else if (disabled == 1)
			snprintf(why, whylen, "io_uring_setup: %s (kernel.io_uring_disabled=1: "
				 "only for kernel.io_uring_group)", strerror(-ret));
		else if (ret == -ENOSYS)
			snprintf(why, whylen, "io_uring_setup: %s (kernel without "
				 "CONFIG_IO_URING, or blocked by seccomp?)", strerror(-ret));
		else if (ret == -EPERM)
			snprintf(why, whylen, "io_uring_setup: %s (blocked by seccomp?)",
				 strerror(-ret));
		else if (ret == -ENOMEM && memlock_limit(&kib))
			snprintf(why, whylen, "io_uring_setup: %s (its rings are locked memory,"
				 " and RLIMIT_MEMLOCK is %llu KiB: raise ulimit -l)",
				 strerror(-ret), kib);
		else
			snprintf(why, whylen, "io_uring_setup: %s", strerror(-ret));
		return ret;
	}
	/* io_uring exists since 5.1, but IORING_OP_READ/WRITE only since 5.6. */
	probe = io_uring_get_probe_ring(&ring);
	if (!probe || !io_uring_opcode_supported(probe, IORING_OP_READ) ||
	    !io_uring_opcode_supported(probe, IORING_OP_WRITE)) {
		snprintf(why, whylen,
			 "io_uring: kernel lacks IORING_OP_READ/WRITE (needs Linux 5.6+)");
		ret = -EOPNOTSUPP;
	}
	if (probe)
		io_uring_free_probe(probe);
	if (!ret)
		ret = uring_probe_fixed(&ring, why, whylen);
	io_uring_queue_exit(&ring);
	return ret;
}

/*
 * Register the slots' buffers: a READ_FIXED or WRITE_FIXED then skips
 * pinning and mapping the pages on every I/O (fio's --fixedbufs cuts its
 * CPU per op by 15-25 % here). The kernel charges them to RLIMIT_MEMLOCK
 * unless the caller has CAP_IPC_LOCK; when it refuses, the I/O goes on
 * unregistered and ctx->note says why.
 */
static void uring_fix_buffers(struct engine_ctx *ctx, struct uring_priv *p)
{
	struct iovec *iov;
	int ret;

	if (!ctx->bufs || !ctx->buf_len)
		return;
	iov = calloc(ctx->qd, sizeof(*iov));
	if (!iov)
		return;
	for (unsigned i = 0; i < ctx->qd; i++) {
		iov[i].iov_base = (char *)ctx->bufs + (size_t)i * ctx->buf_len;
		iov[i].iov_len = ctx->buf_len;
	}
	ret = io_uring_register_buffers(&p->ring, iov, ctx->qd);
	free(iov);
	if (ret < 0)
		fixed_bufs_why(ret, ctx->note, sizeof(ctx->note));
	else
		p->fixed_bufs = true;
}

static int uring_init(struct engine_ctx *ctx)
{
	struct uring_priv *p;
	size_t i;
	int ret;

	ctx->priv = NULL;
	if (!ctx->qd)
		return -EINVAL;
	p = calloc(1, sizeof(*p));
	if (!p)
		return -ENOMEM;
	/*
	 * The kernel rounds entries up to a power of two, and the runner
	 * never has more than qd in flight, so the SQ cannot fill and the CQ
	 * (twice the SQ) cannot overflow.
	 */
	ret = -EINVAL;
	for (i = 0; i < NSETUPS && ret == -EINVAL; i++)
		ret = io_uring_queue_init(ctx->qd, &p->ring, uring_setups[i] |
					  (ctx->hipri ? IORING_SETUP_IOPOLL : 0));
	if (ret < 0) {
		free(p);
		return ret;
	}
	p->disabled = p->ring.flags & IORING_SETUP_R_DISABLED;
	/* A registered file skips the fd table lookup and refcount per I/O. */
	if (!io_uring_register_files(&p->ring, &ctx->fd, 1)) {
		p->sqe_fd = 0;
		p->sqe_flags = IOSQE_FIXED_FILE;
	} else {
		p->sqe_fd = ctx->fd;
		p->sqe_flags = 0;
	}
	uring_fix_buffers(ctx, p);
	ctx->priv = p;
	return 0;
}

/*
 * Will liburing's submit (waiting for wait_nr) enter the kernel? liburing
 * 2.x makes the system call only when there is something to submit, to
 * wait for, or completion work the kernel flagged in the SQ flags (task
 * work pending, a CQ overflow), and otherwise returns at once (queue.c,
 * __io_uring_submit; we never use SQPOLL). Asked just before the call, so
 * ctx->syscalls counts the io_uring_enter calls made, not the calls to
 * liburing; only a flag the kernel sets in between can make it one off.
 */
static inline bool uring_will_enter(const struct io_uring *ring, unsigned wait_nr)
{
	return wait_nr || io_uring_sq_ready(ring) || (ring->flags & IORING_SETUP_IOPOLL) ||
	       (IO_URING_READ_ONCE(*ring->sq.kflags) & (IORING_SQ_CQ_OVERFLOW | IORING_SQ_TASKRUN));
}

/* Once per ring: the calling thread becomes its single issuer. The raw
 * register call, as Debian's liburing.so.2.3 lacks the
 * io_uring_enable_rings() its header declares. */
static int uring_enable(struct engine_ctx *ctx, struct uring_priv *p)
{
	int ret;

	if (__builtin_expect(!p->disabled, 1))
		return 0;
	ctx->syscalls++;
	ret = io_uring_register(p->ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, NULL, 0);
	if (ret < 0)
		return ret;
	p->disabled = false;
	return 0;
}

/*
 * With ctx->batch N (--batch; 8 by default), an enter goes out once N
 * requests are ready, and what is short of N stays in the ring for
 * reap()'s submit-and-wait: at N >= qd one system call per round of
 * completions, the floor's loop (bench/floor.c). The kernel plugs a
 * submission of more than two requests and issues none of them to the
 * device until all are queued, so a large N idles the device while we
 * prepare; N = 1 submits each request with its own enter, as soon as it
 * is prepared (fio's default, iodepth_batch_submit=1). Measured against
 * the floor (bench/floor.sh, 7 alternating rounds of 5 s, loop device over
 * /dev/shm, one job; CPU per I/O / IOPS, each over the floor's): QD32 at
 * 1 1.27x / 1.12x, at 8 1.04x / 1.12x, at 32 1.06x / 0.97x; QD128 at 1
 * 1.64x / 0.91x, at 8 1.04x / 1.07x, at 128 0.99x / 1.03x. 8 costs what
 * the floor costs and loses no IOPS at either depth: the default.
 */
static int uring_submit(struct engine_ctx *ctx, struct io_req **reqs, unsigned n)
{
	struct uring_priv *p = ctx->priv;
	struct io_uring_sqe *sqe;
	struct io_req *r;
	unsigned i;
	int ret;

	if (p->err)
		return p->err;
	ret = uring_enable(ctx, p);
	if (ret < 0)
		return ret;
	for (i = 0; i < n; i++) {
		sqe = io_uring_get_sqe(&p->ring);
		if (!sqe)
			break;
		r = reqs[i];
		if (p->fixed_bufs && r->dir == IO_WRITE)
			io_uring_prep_write_fixed(sqe, p->sqe_fd, r->buf, r->len, r->offset,
						  (int)r->idx);
		else if (p->fixed_bufs)
			io_uring_prep_read_fixed(sqe, p->sqe_fd, r->buf, r->len, r->offset,
						 (int)r->idx);
		else if (r->dir == IO_WRITE)
			io_uring_prep_write(sqe, p->sqe_fd, r->buf, r->len, r->offset);
		else
			io_uring_prep_read(sqe, p->sqe_fd, r->buf, r->len, r->offset);
		/* After prep, which clears flags. */
		sqe->flags |= p->sqe_flags;
		io_uring_sqe_set_data(sqe, r);
		/* A predicted branch at the default of 1. */
		if (ctx->batch > 1 && io_uring_sq_ready(&p->ring) < ctx->batch)
			continue;
		ctx->syscalls += uring_will_enter(&p->ring, 0);
		ret = io_uring_submit(&p->ring);
		/*
		 * A failed enter leaves the SQE in the ring, where reap()'s
		 * next enter pushes it: it is taken either way, and so are
		 * those submitted before it. A transient failure needs nothing
		 * more; a hard one is reported by the next submit (taking
		 * nothing), so the runner stops and reaps what is in flight.
		 */
		if (ret < 0 && ret != -EAGAIN && ret != -EBUSY && ret != -EINTR) {
			p->err = ret;
			return (int)(i + 1);
		}
	}
	return (int)i;
}

/* Moves up to max CQEs to out; the rest stay in the ring for the next call. */
static unsigned uring_drain(struct io_uring *ring, struct io_req **out, unsigned max)
{
	struct io_uring_cqe *cqe;
	struct io_req *r;
	unsigned head, n = 0;

	io_uring_for_each_cqe(ring, head, cqe) {
		if (n == max)
			break;
		r = io_uring_cqe_get_data(cqe);
		r->result = cqe->res;
		out[n++] = r;
	}
	/* One store to the CQ head for the whole batch. */
	io_uring_cq_advance(ring, n);
	return n;
}

static int uring_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out, unsigned max)
{
	struct uring_priv *p = ctx->priv;
	unsigned got = 0, got_now;
	int ret;

	if (min > max)
		min = max;
	ret = uring_enable(ctx, p);
	if (ret < 0)
		return ret;
	/*
	 * Submit-and-wait can come back before min completions are there: a
	 * signal (-EINTR, or a positive count if it struck after submitting),
	 * a kernel short of memory (-EAGAIN), or CQ backpressure (-EBUSY). So
	 * loop until min are in hand, asking only for the ones still missing.
	 * When liburing sees nothing to submit and nothing to wait for, it
	 * makes no system call at all, so a min == 0 poll is cheap.
	 */
	for (;;) {
		ctx->syscalls += uring_will_enter(&p->ring, min - got);
		ret = io_uring_submit_and_wait(&p->ring, min - got);
		if (ret < 0 && ret != -EINTR && ret != -EAGAIN && ret != -EBUSY)
			return got ? (int)got : ret;
		got_now = uring_drain(&p->ring, out + got, max - got);
		got += got_now;
		if (got >= min)
			return (int)got;
		/* Rare resource shortage with nothing completed: let others run. */
		if (!got_now && (ret == -EAGAIN || ret == -EBUSY))
			sched_yield();
	}
}

static void uring_cleanup(struct engine_ctx *ctx)
{
	struct uring_priv *p = ctx->priv;

	if (!p)
		return;
	/* Closing the ring also drops the registered file. */
	io_uring_queue_exit(&p->ring);
	free(p);
	ctx->priv = NULL;
}

const struct engine_ops engine_io_uring = {
	.name = "io_uring",
	.desc = "io_uring via liburing: registered file and buffers, one system call "
		"submits each request, batched reaping",
	.flags = ENGINE_F_POLLS,
	.probe = uring_probe,
	.init = uring_init,
	.submit = uring_submit,
	.reap = uring_reap,
	.cleanup = uring_cleanup,
	.batch = 8,	/* submit() comment: CPU per I/O at the floor's */
};
