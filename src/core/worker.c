/* worker.c - one job of a test: its setup, hot loops and teardown, on its own thread or process. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>
#ifdef HAVE_LIBNUMA
#include <numa.h>
#endif

#include "clock.h"
#include "jobs.h"
#include "worker.h"

/* Buffers are aligned for O_DIRECT on any device we are likely to meet. */
#define BUF_ALIGN 4096

static uint64_t tv_ns(const struct timeval *tv)
{
	return (uint64_t)tv->tv_sec * 1000000000u + (uint64_t)tv->tv_usec * 1000u;
}

static void thread_cpu(uint64_t *user, uint64_t *sys)
{
	struct rusage ru;

	getrusage(RUSAGE_THREAD, &ru);
	*user = tv_ns(&ru.ru_utime);
	*sys = tv_ns(&ru.ru_stime);
}

/* The time this thread has waited on a run queue for a CPU, in ns, into
 * *ns (/proc/thread-self/schedstat's second field: CONFIG_SCHED_INFO).
 * false when the kernel does not say. Read twice a window, never per I/O. */
static bool thread_waited(uint64_t *ns)
{
	unsigned long long ran, waited;
	char buf[96];
	ssize_t n;
	int fd;

	*ns = 0;
	fd = open("/proc/thread-self/schedstat", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	if (sscanf(buf, "%llu %llu", &ran, &waited) != 2)
		return false;
	*ns = waited;
	return true;
}

static int worker_fail(struct worker *w, int err, const char *what)
{
	w->err = err;
	snprintf(w->errmsg, sizeof(w->errmsg), "%s: %s", what, strerror(-err));
	return err;
}

static void *buf_alloc(struct worker *w, size_t len)
{
	void *p = NULL;

	w->bufs_len = len;
#ifdef HAVE_LIBNUMA
	/* Pinned workers get buffers on their own node; numa_alloc_local
	 * returns page-aligned memory, good for O_DIRECT. */
	if (w->spec->cpus && numa_available() >= 0) {
		p = numa_alloc_local(len);
		if (p) {
			w->bufs_numa = true;
			return p;
		}
	}
#endif
	if (posix_memalign(&p, BUF_ALIGN, len))
		return NULL;
	return p;
}

static void buf_free(struct worker *w)
{
	if (!w->bufs)
		return;
#ifdef HAVE_LIBNUMA
	if (w->bufs_numa) {
		numa_free(w->bufs, w->bufs_len);
		w->bufs = NULL;
		return;
	}
#endif
	free(w->bufs);
	w->bufs = NULL;
}

static void pin(struct worker *w)
{
	const struct test_spec *s = w->spec;
	cpu_set_t set;

	if (!s->cpus || !s->ncpus)
		return;
	CPU_ZERO(&set);
	CPU_SET(s->cpus[w->id % s->ncpus], &set);
	/* Best effort: a CPU list naming an offline CPU is caught by the CLI. */
	pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

void runner_job_params(const struct test_spec *s, unsigned job, struct wl_job *j)
{
	*j = (struct wl_job){
		.scratch_fd = -1,
		.data = { AT_FDCWD, "" },
		.size = s->size,
		.bs = s->bs,
		.job = job,
		.jobs = s->jobs,
		.seed = s->seed,
		.direct = s->direct,
		.pattern = s->wl->pattern,
		.params = wl_params_resolve(s->params),
	};
}

/* A WL_OPS job: no engine, no fd; the workload opens what it needs. */
static int worker_setup_ops(struct worker *w)
{
	const struct test_spec *s = w->spec;
	struct wl_job *j = &w->job;
	int ret;

	pin(w);
	if (!w->lat)	/* a job process's is in the shared arena */
		w->lat = calloc(1, sizeof(*w->lat));
	if (!w->lat)
		return worker_fail(w, -ENOMEM, "allocating the histogram");
	hist_init(w->lat);
	runner_job_params(s, w->id, j);
	j->scratch_fd = w->where->scratch_fd;
	j->data = w->where->data;
	j->drop_behind = w->drop_behind;
	j->stop = w->stop;
	j->progress = &w->prog;
	j->at = &w->op_at;
	w->ops_ready = true;
	ret = s->wl->ops->init(&w->ops_state, j, w->errmsg, sizeof(w->errmsg));
	if (ret) {
		w->err = ret;
		if (ret == -EINTR)
			snprintf(w->errmsg, sizeof(w->errmsg), "interrupted while setting up %s",
				 s->wl->name);
		else if (!w->errmsg[0])
			snprintf(w->errmsg, sizeof(w->errmsg), "%s: setup: %s", s->wl->name,
				 strerror(-ret));
	}
	return ret;
}

/* --verify's buffers: the payload CRCs of every slot, computed once here
 * so that a stamp costs a header's CRC, and the slots' dirty marks of a
 * test that reads into them too. */
static int stamp_setup(struct worker *w)
{
	const struct test_spec *s = w->spec;

	w->unit = s->unit ? s->unit : verify_unit(s->bs);
	if (!w->unit || s->bs % w->unit)
		return worker_fail(w, -EINVAL, "--verify: a block size that is no multiple of 512");
	w->units = s->bs / w->unit;
	w->pcrc = calloc((size_t)s->qd * w->units, sizeof(*w->pcrc));
	if (s->wl->write_pct)
		w->dirty = calloc(s->qd, sizeof(*w->dirty));
	if (!w->pcrc || (s->wl->write_pct && !w->dirty))
		return worker_fail(w, -ENOMEM, "allocating --verify's checksums");
	for (unsigned i = 0; i < s->qd; i++)
		verify_payload_crcs(w->reqs[i].buf, s->bs, w->unit, w->pcrc + (size_t)i * w->units);
	return 0;
}

void worker_region(const struct test_spec *s, unsigned id, uint64_t *base, uint64_t *slice,
		   uint64_t *seed)
{
	uint64_t size = spec_size(s);

	if (s->wl->pattern == WL_SEQ && !s->wl->fixed_size) {
		*slice = size / s->jobs / s->bs * s->bs;
		*base = *slice * id;
		*seed = s->seed;
	} else {
		*slice = size;
		*base = 0;
		*seed = s->seed + id;
	}
}

/* Everything a worker needs before the clock starts. */
static int worker_setup(struct worker *w)
{
	const struct test_spec *s = w->spec;
	unsigned qd = s->qd;
	uint64_t slice, base, seed;
	int flags, ret;

	if (s->wl->kind == WL_OPS)
		return worker_setup_ops(w);
	pin(w);
	if (!w->lat)	/* a job process's is in the shared arena */
		w->lat = calloc(1, sizeof(*w->lat));
	w->reqs = calloc(qd, sizeof(*w->reqs));
	w->freel = calloc(qd, sizeof(*w->freel));
	w->batch = calloc(qd, sizeof(*w->batch));
	w->done = calloc(qd, sizeof(*w->done));
	if (!w->lat || !w->reqs || !w->freel || !w->batch || !w->done)
		return worker_fail(w, -ENOMEM, "allocating request slots");
	hist_init(w->lat);

	w->bufs = buf_alloc(w, (size_t)qd * s->bs);
	if (!w->bufs)
		return worker_fail(w, -ENOMEM, "allocating I/O buffers");

	/* Incompressible data, or --data zero's; reads overwrite it anyway. */
	{
		struct wl_rng rng;

		wl_rng_seed(&rng, s->seed ^ (0x9e3779b97f4a7c15ull * (w->id + 1)));
		if (s->zero_data)
			memset(w->bufs, 0, (size_t)qd * s->bs);
		else
			wl_fill_random(w->bufs, (size_t)qd * s->bs, &rng);
		/* Its own stream, so the directions do not shift the offsets. */
		wl_rng_seed(&w->dir_rng, s->seed ^ (0xa54ff53a5f1d36f1ull * (w->id + 1)));
	}
	for (unsigned i = 0; i < qd; i++) {
		struct io_req *r = &w->reqs[i];

		r->buf = (char *)w->bufs + (size_t)i * s->bs;
		r->len = s->bs;
		r->dir = (uint8_t)s->wl->dir;
		r->idx = i;
		w->freel[i] = r;
	}
	if (s->stamp) {
		ret = stamp_setup(w);
		if (ret)
			return ret;
	}

	worker_region(s, w->id, &base, &slice, &seed);
	ret = wl_offsets_init(&w->gen, s->wl->pattern, base, slice, s->bs, seed);
	if (ret)
		return worker_fail(w, ret, "working set smaller than one block per job");
	w->rlog = s->reqlog ? reqlog_job(s->reqlog, w->id) : NULL;
	w->left = s->passes ? s->passes * w->gen.nblocks : UINT64_MAX;
	w->ops_limit = w->left;
	if (s->verify && !w->written) {
		w->written = calloc(verify_map_words(w->gen.nblocks), sizeof(*w->written));
		if (!w->written)
			return worker_fail(w, -ENOMEM, "allocating the map of blocks written");
	}

	w->ctx.fd = -1;
	w->ctx.qd = qd;
	w->ctx.syscalls = 0;
	if (!(s->engine->flags & ENGINE_F_NO_IO)) {
		flags = s->wl->write_pct ? O_RDWR : s->wl->dir == IO_WRITE ? O_WRONLY : O_RDONLY;
		if (s->direct)
			flags |= O_DIRECT;
		w->ctx.fd = target_open(&w->where->data, flags);
		if (w->ctx.fd < 0)
			return worker_fail(w, w->ctx.fd, w->where->data.name);
	}
	w->db.fd = w->ctx.fd;
	w->ctx.bufs = w->ctx.fd >= 0 ? w->bufs : NULL;
	w->ctx.buf_len = s->bs;
	w->ctx.hipri = s->hipri;
	w->ctx.batch = engine_batch(s->engine, s->batch, qd, s->wl->pattern != WL_RAND);
	if (s->hipri && !(s->engine->flags & ENGINE_F_POLLS))
		return worker_fail(w, -EOPNOTSUPP, "--hipri: the engine cannot poll");
	ret = s->engine->init(&w->ctx);
	w->engine_ready = true;
	if (ret)
		return worker_fail(w, ret, "engine setup");
	return 0;
}

static void worker_teardown(struct worker *w)
{
	if (w->ops_ready && w->spec->wl->ops->checked && w->ops_state)
		w->spec->wl->ops->checked(w->ops_state, &w->checked);
	if (w->ops_ready)
		w->spec->wl->ops->cleanup(w->ops_state);
	if (w->engine_ready)
		w->spec->engine->cleanup(&w->ctx);
	if (w->ctx.fd >= 0)
		close(w->ctx.fd);
	buf_free(w);
	free(w->pcrc);
	free(w->dirty);
	free(w->reqs);
	free(w->freel);
	free(w->batch);
	free(w->done);
}

/* The system calls the job made so far: its engine's count, or its
 * workload's (0 for one that does not count: the result then says so). */
static uint64_t worker_syscalls(const struct worker *w)
{
	const struct wl_ops *ops = w->spec->wl->ops;

	if (w->spec->wl->kind != WL_OPS)
		return w->ctx.syscalls;
	return ops->syscalls && w->ops_state ? ops->syscalls(w->ops_state) : 0;
}

/* Open the measured window at now: its start, the CPU clock and the
 * system-call count. */
static void window_open(struct worker *w, uint64_t now)
{
	w->t_start = now;
	w->opened = true;
	w->syscalls = worker_syscalls(w);
	thread_cpu(&w->cpu_user_ns, &w->cpu_sys_ns);
	w->cpu_wait_span_ns = clock_ns();
	w->cpu_wait_valid = thread_waited(&w->cpu_wait_ns);
}

/* Close it at now (one never opened is empty) and publish the end last:
 * the runner's thread waits for it (wait_windows). */
static void window_close(struct worker *w, bool opened, uint64_t now)
{
	uint64_t u, sy, wt;

	if (!opened) {
		w->t_start = now;
		w->cpu_user_ns = w->cpu_sys_ns = 0;
		w->syscalls = 0;
		w->cpu_wait_ns = w->cpu_wait_span_ns = 0;
		w->cpu_wait_valid = false;
	} else {
		thread_cpu(&u, &sy);
		w->cpu_user_ns = u - w->cpu_user_ns;
		w->cpu_sys_ns = sy - w->cpu_sys_ns;
		w->syscalls = worker_syscalls(w) - w->syscalls;
		w->cpu_wait_valid = w->cpu_wait_valid && thread_waited(&wt) &&
				    wt >= w->cpu_wait_ns;
		w->cpu_wait_ns = w->cpu_wait_valid ? wt - w->cpu_wait_ns : 0;
		w->cpu_wait_span_ns = clock_ns() - w->cpu_wait_span_ns;
	}
	__atomic_store_n(&w->t_end, now, __ATOMIC_RELEASE);
}

/* The one way an error is counted: the first keeps its errno and offset,
 * the first few their time and length too (err 0: a short transfer of
 * bytes); under --on-error stop, every job's window ends with it. */
static void note_error(struct worker *w, int err, uint64_t offset, uint64_t now, uint32_t len,
		       uint32_t bytes)
{
	if (!w->errors++) {
		w->first_errno = err;
		w->first_error_offset = offset;
	}
	if (w->nerrs < RESULT_MAX_IO_ERRORS)
		w->errs[w->nerrs++] = (struct result_io_error){ .job = w->id, .at_ns = now,
								.err = err, .offset = offset,
								.len = len, .bytes = bytes };
	if (!w->spec->on_error_continue && w->halt)
		__atomic_store_n(w->halt, 1, __ATOMIC_RELAXED);
}

/* A request that did not move all its bytes: its errno, or 0 when it
 * completed short (what it moved is not counted: it is no whole block). */
static void note_req_error(struct worker *w, const struct io_req *r, uint64_t now)
{
	note_error(w, r->result < 0 ? (int)-r->result : 0, r->offset, now, r->len,
		   r->result > 0 ? (uint32_t)r->result : 0);
}

/* An error of the job, not of one request (a flush, an engine's reap). */
static void note_job_error(struct worker *w, int err, uint64_t now)
{
	note_error(w, err > 0 ? err : EIO, 0, now, 0, 0);
}

/* Did this completion end the measured window (the runtime is over, the
 * passes are done, or a stop was asked)? Writes still in the page cache go
 * out inside it. */
static bool window_ends(struct worker *w, uint64_t *now, uint64_t end)
{
	const struct test_spec *s = w->spec;
	const bool stop = w->stop && *w->stop;
	int ret;

	w->passes_done = w->ops >= w->ops_limit;
	if (*now < end && !stop && !w->passes_done)
		return false;
	if (w->drop_behind && wl_writes(s->wl) && !stop) {
		ret = drop_behind_flush(&w->db);
		*now = clock_ns();
		if (ret)
			note_job_error(w, -ret, *now);
	}
	return true;
}

/* --verify: stamp r's buffer for its offset, the payload CRCs first made
 * again if a read has overwritten the slot (a mixed test). */
static void stamp_req(struct worker *w, struct io_req *r)
{
	uint32_t *crcs = w->pcrc + (size_t)r->idx * w->units;

	if (w->dirty && w->dirty[r->idx]) {
		verify_payload_crcs(r->buf, r->len, w->unit, crcs);
		w->dirty[r->idx] = false;
	}
	verify_stamp(r->buf, r->len, w->unit, r->offset, w->spec->seed,
		     ((uint64_t)w->id << 48) + w->write_seq, crcs);
	w->write_seq += w->units;
}

/* A completed request, for --verify: a write's block is marked written, a
 * read leaves its slot's payload CRCs stale. */
static void stamp_done(struct worker *w, const struct io_req *r)
{
	if (r->dir == IO_WRITE) {
		if (w->written)
			verify_mark(w->written, (r->offset - w->gen.base) / w->spec->bs);
	} else if (w->dirty) {
		w->dirty[r->idx] = true;
	}
}

/* What the hot loop keeps in registers: the test's constants. */
struct loop_k {
	const struct engine_ops *e;
	unsigned qd, write_pct;
	bool is_write, mixed;
	uint64_t stamp_step;
};

/* Where a request completing now falls for --lat-log: the same test
 * complete() makes of the window (opened is measuring's mirror). */
static inline enum reqlog_phase phase_now(const struct worker *w)
{
	return !w->opened ? REQLOG_RAMP : w->t_end ? REQLOG_AFTER : REQLOG_WINDOW;
}

/* Refill: every free slot goes into the batch after the n pending ones;
 * returns the batch's length. */
static inline __attribute__((always_inline)) unsigned refill(struct worker *w,
							     const struct loop_k k, unsigned n,
							     unsigned *nfree, const bool stamp)
{
	while (*nfree && w->left) {
		struct io_req *r = w->freel[--*nfree];

		w->left--;
		r->offset = wl_offsets_next(&w->gen);
		/* mixed is loop-invariant: a pure-direction test pays one
		 * predicted branch here. */
		if (k.mixed)
			r->dir = wl_draw_write(&w->dir_rng, k.write_pct) ? IO_WRITE : IO_READ;
		if (k.is_write || (k.mixed && r->dir == IO_WRITE)) {
			if (stamp) {
				stamp_req(w, r);
			} else {
				wl_stamp(r->buf, r->len, ((uint64_t)w->id << 48) + w->write_seq);
				w->write_seq += k.stamp_step;
			}
		}
		w->batch[n++] = r;
	}
	return n;
}

/* Submit the batch of n (all but pending new, which get their start time
 * now): returns how many are left pending (busy), the rest in flight. A
 * batch none of which went in is n errors, and stopping. */
static inline __attribute__((always_inline)) unsigned submit(struct worker *w,
							     const struct loop_k k, unsigned n,
							     unsigned pending, unsigned *nfree,
							     unsigned *inflight, bool *stopping)
{
	uint64_t now;
	unsigned i;
	int got;

	if (n > pending) {
		now = clock_ns();
		for (i = pending; i < n; i++)
			w->batch[i]->start_ns = now;
		/* Relaxed store: a plain move, once a batch; the stall watch
		 * reads this, never the generator the loop is changing. */
		__atomic_store_n(&w->at, w->batch[n - 1]->offset, __ATOMIC_RELAXED);
	}
	if (!n)
		return 0;
	got = k.e->submit(&w->ctx, w->batch, n);
	if (got < 0) {
		/* None of this batch went in: each is an error, and what is
		 * in flight from before is still reaped. */
		now = clock_ns();
		for (i = 0; i < n; i++) {
			w->batch[i]->result = got;
			if (w->rlog)	/* its start time was set: it is logged */
				reqlog_add(w->rlog, w->batch[i], now, phase_now(w));
			note_req_error(w, w->batch[i], now);
			w->freel[(*nfree)++] = w->batch[i];
		}
		*stopping = true;
		return 0;
	}
	*inflight += (unsigned)got;
	/* Busy: keep the rest for after the reap. */
	pending = n - (unsigned)got;
	if (pending)
		memmove(w->batch, w->batch + got, pending * sizeof(*w->batch));
	return pending;
}

/* The got completions in w->done, reaped at now: back to the free list,
 * and, done in full, marked (stamp), dropped behind and, in the window
 * (measuring), timed and counted. False when one failed. */
static inline __attribute__((always_inline)) bool complete(struct worker *w, unsigned got,
							   unsigned *nfree, uint64_t now,
							   bool measuring, const bool stamp)
{
	bool ok = true;

	for (unsigned i = 0; i < got; i++) {
		struct io_req *r = w->done[i];

		w->freel[(*nfree)++] = r;
		/* NULL unless --lat-log: one predicted branch; with it, a few
		 * stores into memory laid out before the test */
		if (w->rlog)
			reqlog_add(w->rlog, r, now, phase_now(w));
		if (r->result != (int64_t)r->len) {
			note_req_error(w, r, now);
			ok = w->spec->on_error_continue;
			continue;
		}
		if (stamp)
			stamp_done(w, r);
		if (w->drop_behind) {
			if (r->dir == IO_READ)
				drop_behind_read(&w->db, r->offset, r->len);
			else
				drop_behind_write(&w->db, r->offset, r->len);
		}
		if (measuring && !w->t_end) {
			hist_add(w->lat, now - r->start_ns);
			/* Relaxed store: a plain add on x86, yet the progress
			 * reader sees a whole value. */
			__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
		}
	}
	return ok;
}

/*
 * The hot loop: refill every free slot, submit the batch, reap at least one
 * completion, time and count it. One clock read per batch on each side:
 * requests submitted together share a start time, and requests reaped
 * together share an end time, which is when we learned of them. It ends
 * only with nothing in flight, whatever stopped it, so no request is
 * abandoned to an engine being torn down. Its steps (refill, submit,
 * complete) are always_inline: one loop, as if written in one piece.
 *
 * stamp (--verify) is a constant in each of the two copies worker_loop
 * makes of it (always_inline): the copy without it is the loop as it was,
 * not one test more, and only the copy with it stamps and marks.
 */
static inline __attribute__((always_inline)) void worker_loop_as(struct worker *w,
								  const bool stamp)
{
	const struct test_spec *s = w->spec;
	const struct loop_k k = {
		.e = s->engine, .qd = s->qd, .write_pct = s->wl->write_pct,
		.is_write = s->wl->dir == IO_WRITE, .mixed = s->wl->write_pct > 0,
		.stamp_step = s->bs / 512 ? s->bs / 512 : 1,
	};
	uint64_t ramp_end = *w->t0 + spec_ramp(s), end = 0, now;
	unsigned nfree = k.qd, inflight = 0, pending = 0, n;
	bool measuring = false, stopping = false;
	int got;

	if (spec_ramp(s) == 0) {
		measuring = true;
		window_open(w, *w->t0);
		end = w->t_start + s->runtime_ns;
	}
	for (;;) {
		n = stopping ? 0 : refill(w, k, pending, &nfree, stamp);
		pending = submit(w, k, n, pending, &nfree, &inflight, &stopping);
		if (!inflight)
			break;
		got = k.e->reap(&w->ctx, 1, w->done, k.qd);
		now = clock_ns();
		if (got < 0) {
			/* The engine cannot hand back what is in flight: give
			 * up on it (its cleanup cancels the rest). */
			note_job_error(w, -got, now);
			break;
		}
		inflight -= (unsigned)got;
		if (!measuring && now >= ramp_end &&
		    __atomic_load_n(w->sampled, __ATOMIC_ACQUIRE)) {
			measuring = true;
			window_open(w, now);
			end = now + s->runtime_ns;
		}
		if (!complete(w, (unsigned)got, &nfree, now, measuring, stamp))
			stopping = true;
		if (measuring && !w->t_end && window_ends(w, &now, end)) {
			window_close(w, true, now);
			stopping = true;
		}
		if ((w->stop && *w->stop) || __atomic_load_n(w->halt, __ATOMIC_RELAXED))
			stopping = true;
		if (stopping)
			pending = 0;
	}
	/* Stopped early (an error): the window ends now. */
	if (!w->t_end)
		window_close(w, measuring, clock_ns());
	w->bytes = w->ops * s->bs;
}

static void worker_loop(struct worker *w)
{
	if (w->spec->stamp)
		worker_loop_as(w, true);
	else
		worker_loop_as(w, false);
}

/*
 * The WL_OPS loop: one op at a time, a clock read on each side of it (an op
 * is sized to cost far more than the ~20 ns read). The window opens at the
 * first op that starts after the ramp and closes at the end of the op that
 * crosses the runtime, at a stop request, at an error or when the workload
 * runs out of work (WL_OP_DONE): then the window is the time until then.
 */
static void worker_loop_ops(struct worker *w)
{
	const struct test_spec *s = w->spec;
	int64_t (*const op)(void *) = s->wl->ops->op;
	void *const state = w->ops_state;
	uint64_t ramp_end = *w->t0 + spec_ramp(s), end = 0, t1, t2;
	bool measuring = false;
	int64_t res;

	for (;;) {
		t1 = clock_ns();
		if (!measuring && t1 >= ramp_end && __atomic_load_n(w->sampled, __ATOMIC_ACQUIRE)) {
			measuring = true;
			window_open(w, t1);
			end = s->wl->whole ? UINT64_MAX : t1 + s->runtime_ns;
			t1 = clock_ns();	/* getrusage is not part of the op */
		}
		res = op(state);
		t2 = clock_ns();
		if (res < 0) {
			if (res != WL_OP_DONE)
				note_job_error(w, res >= -4095 ? (int)-res : EIO, t2);
			break;
		}
		if (measuring) {
			hist_add(w->lat, t2 - t1);
			/* Relaxed stores: plain adds, whole values for the
			 * progress reader. */
			__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
			__atomic_store_n(&w->bytes, w->bytes + (uint64_t)res, __ATOMIC_RELAXED);
			if (t2 >= end) {
				if (w->drop_behind && s->wl->ops->flush) {
					res = s->wl->ops->flush(state);
					t2 = clock_ns();
					if (res < 0)
						note_job_error(w, (int)-res, t2);
				}
				window_close(w, true, t2);
				return;
			}
		}
		if ((w->stop && *w->stop) || __atomic_load_n(w->halt, __ATOMIC_RELAXED))
			break;
	}
	window_close(w, measuring, clock_ns());
}

/* "diskbench-jN" in top -H, ps -L and /proc/PID/task/TID/comm: which
 * thread is job N (and, with --cpus, on which CPU it was pinned). */
static void name_thread(const struct worker *w)
{
	char name[16];

	snprintf(name, sizeof(name), "diskbench-j%u", w->id);
	pthread_setname_np(pthread_self(), name);
}

static void *try_unshare(void *arg)
{
	*(bool *)arg = unshare(CLONE_FILES) == 0;
	return NULL;
}

bool runner_private_files(void)
{
	static int known = -1;	/* the CLI's thread alone asks */
	pthread_t t;
	bool ok = false;

	if (known < 0) {
		if (pthread_create(&t, NULL, try_unshare, &ok) == 0)
			pthread_join(t, NULL);
		known = ok;
	}
	return known;
}

void *worker_main(void *arg)
{
	struct worker *w = arg;

	/*
	 * A private file table. In a process whose threads share one, every
	 * read()/write() takes a reference on its file, and one through the
	 * file position also takes its lock: costs a single-threaded tool
	 * (bonnie++, fio's job processes) never pays. Measured on one-byte
	 * write()/read() calls: +5 to +11 %. Everything the worker opens is
	 * its own, so the worker also closes it (worker_teardown below):
	 * the main thread's fd numbers mean other files. Failure only costs
	 * the speed.
	 */
	(void)unshare(CLONE_FILES);
	name_thread(w);
	worker_setup(w);
	__atomic_store_n(&w->ready, true, __ATOMIC_RELEASE);
	/* Everyone starts together, or nobody does. */
	if (gate_arrive(w->gate) > 0 && !w->err) {
		if (w->spec->wl->kind == WL_OPS)
			worker_loop_ops(w);
		else
			worker_loop(w);
	}
	/* The counts are the clean-up's from here */
	__atomic_store_n(&w->prog.todo, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&w->prog.done, 0, __ATOMIC_RELAXED);
	worker_teardown(w);
	w->torn_down = true;
	__atomic_add_fetch(w->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}
