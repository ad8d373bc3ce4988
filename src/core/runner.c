/* runner.c - runs one test: worker threads or processes, ramp, timed phase, CPU cost. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef HAVE_LIBNUMA
#include <numa.h>
#endif

#include "clock.h"
#include "dropbehind.h"
#include "jobs.h"
#include "runner.h"
#include "stall.h"
#include "timeline.h"
#include "verify.h"
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

/* The timeline's interval: --interval, or the default rule; a test of
 * passes, which may end long before its runtime (that only bounds it),
 * gets a point every thousandth of it (at least 10 ms). */
static uint64_t spec_interval(const struct test_spec *s)
{
	uint64_t fine = s->runtime_ns / 1000;

	if (!s->interval_ns && s->passes)
		return timeline_interval(fine > TIMELINE_MIN_INTERVAL_NS ? fine :
					 TIMELINE_MIN_INTERVAL_NS, s->runtime_ns);
	return timeline_interval(s->interval_ns, s->runtime_ns);
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
}

/* Close it at now (one never opened is empty) and publish the end last:
 * the runner's thread waits for it (wait_windows). */
static void window_close(struct worker *w, bool opened, uint64_t now)
{
	uint64_t u, sy;

	if (!opened) {
		w->t_start = now;
		w->cpu_user_ns = w->cpu_sys_ns = 0;
		w->syscalls = 0;
	} else {
		thread_cpu(&u, &sy);
		w->cpu_user_ns = u - w->cpu_user_ns;
		w->cpu_sys_ns = sy - w->cpu_sys_ns;
		w->syscalls = worker_syscalls(w) - w->syscalls;
	}
	__atomic_store_n(&w->t_end, now, __ATOMIC_RELEASE);
}

/* The one way an error is counted: the first keeps its errno and offset. */
static void note_error(struct worker *w, int err, uint64_t offset)
{
	if (!w->errors++) {
		w->first_errno = err > 0 ? err : EIO;
		w->first_error_offset = offset;
	}
}

/* A request that did not move all its bytes: its errno, or EIO when short. */
static void note_req_error(struct worker *w, const struct io_req *r)
{
	note_error(w, r->result < 0 ? (int)-r->result : EIO, r->offset);
}

/* Is spec a drop-behind test (runner.h)? Buffered, not about the cache,
 * and with reads to drop or writes to flush: the file tests (own files, no
 * flush) are neither. */
static bool spec_drop_behind(const struct test_spec *s)
{
	if (s->direct || s->wl->cache_ok)
		return false;
	/* one pass of reads: nothing is read twice (runner.h) */
	if (s->passes == 1 && !wl_writes(s->wl))
		return false;
	if (s->wl->kind == WL_BLOCK)
		return !(s->engine->flags & ENGINE_F_NO_IO);
	return !s->wl->own_files || s->wl->ops->flush;
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
		if (ret)
			note_error(w, -ret, 0);
		*now = clock_ns();
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

/*
 * The hot loop: refill every free slot, submit the batch, reap at least one
 * completion, time and count it. One clock read per batch on each side:
 * requests submitted together share a start time, and requests reaped
 * together share an end time, which is when we learned of them. It ends
 * only with nothing in flight, whatever stopped it, so no request is
 * abandoned to an engine being torn down.
 *
 * stamp (--verify) is a constant in each of the two copies worker_loop
 * makes of it (always_inline): the copy without it is the loop as it was,
 * not one test more, and only the copy with it stamps and marks.
 */
static inline __attribute__((always_inline)) void worker_loop_as(struct worker *w,
								  const bool stamp)
{
	const struct test_spec *s = w->spec;
	const struct engine_ops *e = s->engine;
	const bool is_write = s->wl->dir == IO_WRITE;
	const unsigned write_pct = s->wl->write_pct;
	const bool mixed = write_pct > 0;
	const unsigned qd = s->qd;
	const uint64_t stamp_step = s->bs / 512 ? s->bs / 512 : 1;
	uint64_t ramp_end = *w->t0 + spec_ramp(s), end = 0, now;
	unsigned nfree = qd, inflight = 0, pending = 0, n, i;
	bool measuring = false, stopping = false;
	int got;

	if (spec_ramp(s) == 0) {
		measuring = true;
		window_open(w, *w->t0);
		end = w->t_start + s->runtime_ns;
	}

	for (;;) {
		/* Refill: everything free goes into one batch. */
		n = stopping ? 0 : pending;
		while (!stopping && nfree && w->left) {
			struct io_req *r = w->freel[--nfree];

			w->left--;
			r->offset = wl_offsets_next(&w->gen);
			/* mixed is loop-invariant: a pure-direction test pays
			 * one predicted branch here. */
			if (mixed)
				r->dir = wl_draw_write(&w->dir_rng, write_pct) ? IO_WRITE : IO_READ;
			if (is_write || (mixed && r->dir == IO_WRITE)) {
				if (stamp) {
					stamp_req(w, r);
				} else {
					wl_stamp(r->buf, r->len,
						 ((uint64_t)w->id << 48) + w->write_seq);
					w->write_seq += stamp_step;
				}
			}
			w->batch[n++] = r;
		}
		if (n > pending) {
			now = clock_ns();
			for (i = pending; i < n; i++)
				w->batch[i]->start_ns = now;
		}
		if (n) {
			got = e->submit(&w->ctx, w->batch, n);
			if (got < 0) {
				/* None of this batch went in: each is an error, and
				 * what is in flight from before is still reaped. */
				for (i = 0; i < n; i++) {
					w->batch[i]->result = got;
					note_req_error(w, w->batch[i]);
					w->freel[nfree++] = w->batch[i];
				}
				stopping = true;
				got = 0;
				n = 0;
			}
			inflight += (unsigned)got;
			/* Busy: keep the rest for after the reap. */
			pending = n - (unsigned)got;
			if (pending)
				memmove(w->batch, w->batch + got, pending * sizeof(*w->batch));
		}
		if (!inflight)
			break;

		got = e->reap(&w->ctx, 1, w->done, qd);
		now = clock_ns();
		if (got < 0) {
			/* The engine cannot hand back what is in flight: give
			 * up on it (its cleanup cancels the rest). */
			note_error(w, -got, 0);
			break;
		}
		inflight -= (unsigned)got;

		if (!measuring && now >= ramp_end &&
		    __atomic_load_n(w->sampled, __ATOMIC_ACQUIRE)) {
			measuring = true;
			window_open(w, now);
			end = now + s->runtime_ns;
		}
		for (i = 0; i < (unsigned)got; i++) {
			struct io_req *r = w->done[i];

			w->freel[nfree++] = r;
			if (r->result != (int64_t)r->len) {
				note_req_error(w, r);
				stopping = true;
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
				/* Relaxed store: a plain add on x86, yet the
				 * progress reader sees a whole value. */
				__atomic_store_n(&w->ops, w->ops + 1, __ATOMIC_RELAXED);
			}
		}
		if (measuring && !w->t_end && window_ends(w, &now, end)) {
			window_close(w, true, now);
			stopping = true;
		}
		if (w->stop && *w->stop)
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
				note_error(w, res >= -4095 ? (int)-res : EIO, 0);
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
					if (res < 0)
						note_error(w, (int)-res, 0);
					t2 = clock_ns();
				}
				window_close(w, true, t2);
				return;
			}
		}
		if (w->stop && *w->stop)
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

/*
 * How far into their parts of the working set the jobs' requests went
 * (unwritten.h: struct read_extent), ramp included, from what each was
 * left to submit: a sequential job's slice from its start, a pass that
 * wrapped counting once; a random test, or one fixed region every job
 * re-reads, has one part. Nothing for a WL_OPS workload.
 */
static void read_extent(const struct worker *ws, unsigned n, struct read_extent *x)
{
	const struct test_spec *s = ws[0].spec;
	uint64_t sum = 0, most = 0;

	*x = (struct read_extent){ 0 };
	if (s->wl->kind != WL_BLOCK || !n)
		return;
	for (unsigned i = 0; i < n; i++) {
		const struct worker *w = &ws[i];
		uint64_t issued = w->ops_limit - w->left;
		uint64_t blocks = issued < w->gen.nblocks ? issued : w->gen.nblocks;

		sum += blocks * s->bs;
		if (blocks * s->bs > most)
			most = blocks * s->bs;
	}
	if (ws[0].gen.random) {
		*x = (struct read_extent){ .stride = ws[0].gen.nblocks * s->bs,
					   .span = ws[0].gen.nblocks * s->bs, .parts = 1 };
	} else if (n > 1 && ws[1].gen.base == ws[0].gen.base) {	/* one region for all */
		*x = (struct read_extent){ .stride = ws[0].gen.nblocks * s->bs, .span = most,
					   .parts = 1 };
	} else {
		*x = (struct read_extent){ .stride = ws[0].gen.nblocks * s->bs,
					   .span = sum / n / s->bs * s->bs, .parts = n };
	}
}

/*
 * The jobs' figures into out. The window (runtime_ns) is the longest job's,
 * less what the stalls found (sw) cover of it: a job stopped for a while
 * (SIGSTOP, or stuck in the kernel while the others went on) ran for what
 * is left, and a window counted with the stop would spread the ops the
 * jobs did over time none of them was running. window_span_ns keeps the
 * longest window with its stalls.
 */
static void merge(struct worker *ws, unsigned n, const struct stall_watch *sw,
		  struct test_result *out)
{
	uint64_t cpu_user = 0, cpu_sys = 0, window = 0, span = 0, run;
	const struct wl_ops *ops = ws[0].spec->wl->ops;
	double busy;

	/* Counted: by every engine; by a file test that counts its calls. */
	out->syscalls_valid = ws[0].spec->wl->kind != WL_OPS || ops->syscalls;
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &ws[i];

		hist_merge(out->lat, w->lat);
		out->ops += w->ops;
		out->bytes += w->bytes;
		if (w->errors && !out->errors) {
			out->first_errno = w->first_errno;
			out->first_error_offset = w->first_error_offset;
		}
		out->errors += w->errors;
		if (!w->passes_done)
			out->passes_done = false;
		verify_sum_add(&out->verify, &w->checked);
		if (w->ctx.note[0] && !out->engine_note[0])
			snprintf(out->engine_note, sizeof(out->engine_note), "%s", w->ctx.note);
		cpu_user += w->cpu_user_ns;
		cpu_sys += w->cpu_sys_ns;
		out->syscalls += w->syscalls;
		/* how much of a core the job kept busy (tool-bound?) */
		if (w->t_end > w->t_start) {
			busy = 100.0 * (double)(w->cpu_user_ns + w->cpu_sys_ns) /
			       (double)(w->t_end - w->t_start);
			if (busy > out->cpu_job_max_pct)
				out->cpu_job_max_pct = busy;
		}
		run = w->t_end - w->t_start;
		if (run > span)
			span = run;
		if (sw->jobs)
			run -= stall_overlap(sw, i, w->t_start, w->t_end);
		if (run > window)
			window = run;
	}
	out->runtime_ns = window;
	out->window_span_ns = span;
	read_extent(ws, n, &out->read_extent);
	/* a checking workload's check is its window */
	if (out->verify.done) {
		out->verify.timed = true;
		out->verify.time_ns = window;
	}
	if (window) {
		out->cpu_user_pct = 100.0 * (double)cpu_user / (double)window;
		out->cpu_sys_pct = 100.0 * (double)cpu_sys / (double)window;
	}
	if (out->ops)
		out->usec_per_op = (double)(cpu_user + cpu_sys) / 1000.0 / (double)out->ops;
}


/* Sleep until the monotonic clock reads t (ns). */
static void sleep_until(uint64_t t)
{
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u),
			       .tv_nsec = (long)(t % 1000000000u) };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* The jobs' ops and bytes measured so far, read while they run. */
static void live_totals(const struct test_spec *spec, const struct worker *ws, unsigned n,
			uint64_t *ops, uint64_t *bytes)
{
	const bool ops_kind = spec->wl->kind == WL_OPS;

	*ops = *bytes = 0;
	for (unsigned i = 0; i < n; i++) {
		*ops += __atomic_load_n(&ws[i].ops, __ATOMIC_RELAXED);
		if (ops_kind)
			*bytes += __atomic_load_n(&ws[i].bytes, __ATOMIC_RELAXED);
	}
	if (!ops_kind)
		*bytes = *ops * spec->bs;
}

/*
 * The timeline's sampler, on the runner's own thread: points on a grid of
 * the interval from origin (where the windows may open), those before the
 * runtime is over, and from one interval past it on (a window held open by
 * a flush); not the one at or just after the runtime, where the windows
 * close a moment later: the last point (timeline_rec_finish) takes that.
 */
struct sampler {
	struct timeline_rec rec;
	struct hist *cur;	/* scratch: the jobs' merged counts */
	uint64_t origin;	/* monotonic ns: t0 + ramp */
	uint64_t runtime;
	/* The jobs' counts, read for jobs that stand still (stall.h) from
	 * origin on, on each wake of the runner's thread (every 100 ms in
	 * the runtime, and at most every STALL_READ_NS while the windows
	 * close), and once they have; jobs NULL: not watched (no memory) */
	struct stall_watch stalls;
	uint64_t next_read;
};

/* The stall watch's readings at most this often: each is n loads. */
#define STALL_READ_NS 10000000u

/* When (monotonic ns) the next point is due. */
static uint64_t sampler_due(const struct sampler *sm)
{
	uint64_t b = sm->rec.next_ns, iv = sm->rec.tl.interval_ns;

	if (b >= sm->runtime && b < sm->runtime + iv)
		b += iv;
	return sm->origin + b;
}

/* Take the point that is due, if it is (now: monotonic ns). */
static void sampler_poll(struct sampler *sm, const struct test_spec *spec,
			 const struct worker *ws, unsigned n, uint64_t now)
{
	uint64_t ops, bytes;

	if (!sm || now < sampler_due(sm))
		return;
	hist_init(sm->cur);
	for (unsigned i = 0; i < n; i++)
		hist_merge_live(sm->cur, ws[i].lat);
	/* The ops are the histogram's count (a job adds one to each for every
	 * op), from the same loads: a point's ops are the I/Os its latencies
	 * describe, whatever completed between two loads. */
	live_totals(spec, ws, n, &ops, &bytes);
	ops = sm->cur->n;
	if (spec->wl->kind != WL_OPS)
		bytes = ops * spec->bs;
	timeline_rec_add(&sm->rec, now - sm->origin, ops, bytes, sm->cur);
}

/* Where job w was, its generator read while it runs (wl_offsets_last):
 * the fields it changes are loaded whole, the others are set before the
 * jobs are let go. False for a job with no offsets (WL_OPS). */
static bool job_offset(const struct worker *w, uint64_t *off)
{
	struct wl_offsets g = { .base = w->gen.base, .nblocks = w->gen.nblocks,
				.bs = w->gen.bs, .random = w->gen.random };

	if (w->spec->wl->kind != WL_BLOCK || !g.nblocks)
		return false;
	g.next = __atomic_load_n(&w->gen.next, __ATOMIC_RELAXED);
	for (unsigned k = 0; k < 4; k++)
		g.rng.s[k] = __atomic_load_n(&w->gen.rng.s[k], __ATOMIC_RELAXED);
	*off = wl_offsets_last(&g);
	return true;
}

/* Read every job's count for the stall watch, when due (now: monotonic
 * ns, from origin on), or at once (last: the windows closed, and a job
 * that went on just before its window closed has its stall ended). Loads
 * only: the jobs' loops pay nothing for it. */
static void watch_stalls(struct sampler *sm, const struct worker *ws, unsigned n, uint64_t now,
			 bool last)
{
	struct stall_watch *sw = &sm->stalls;

	if (!sw->jobs || now < sm->origin || (!last && now < sm->next_read))
		return;
	sm->next_read = now + STALL_READ_NS;
	for (unsigned i = 0; i < n; i++) {
		struct stall_reading *r = &sw->in[i];

		/* the end first: a count read after it is final */
		r->closed = __atomic_load_n(&ws[i].t_end, __ATOMIC_ACQUIRE) != 0;
		r->ops = __atomic_load_n(&ws[i].ops, __ATOMIC_RELAXED);
		r->offset_valid = job_offset(&ws[i], &r->offset);
	}
	stall_watch_read(sw, now);
}

/* The stalls found, into out: from the first window's opening, as the
 * timeline counts. */
static void stalls_out(const struct sampler *sm, const struct worker *ws, unsigned n,
		       struct test_result *out)
{
	const struct stall_watch *sw = &sm->stalls;
	uint64_t first = UINT64_MAX;

	if (!sw->jobs)
		return;
	for (unsigned i = 0; i < n; i++)
		if (ws[i].opened && ws[i].t_start < first)
			first = ws[i].t_start;
	if (first == UINT64_MAX)
		first = sm->origin;
	out->stall_bound_ns = sw->bound_ns;
	out->stalls_missed = sw->missed;
	for (unsigned k = 0; k < sw->nfound && k < RESULT_MAX_STALLS; k++) {
		const struct stall *st = &sw->found[k];

		out->stalls[out->nstalls++] = (struct result_stall){
			.job = st->job,
			.start_ns = st->start_ns > first ? st->start_ns - first : 0,
			.ns = st->end_ns - st->start_ns,
			.offset_valid = st->offset_valid, .offset = st->offset };
	}
	out->stalls_missed += sw->nfound - out->nstalls;
}

/* spec->progress of the measured phase at now, with a job standing still
 * (sm's watch, unless sm is NULL). */
static void report_run(const struct test_spec *spec, const struct worker *ws, unsigned n,
		       uint64_t t0, uint64_t now, const struct sampler *sm)
{
	struct runner_progress p = {
		.phase = RUNNER_RUN, .elapsed_ns = now - t0,
		.total_ns = spec->wl->whole ? 0 : spec_ramp(spec) + spec->runtime_ns,
	};

	live_totals(spec, ws, n, &p.ops, &p.bytes);
	if (sm && sm->stalls.jobs)
		p.stalled_ns = stall_watch_now(&sm->stalls, &p.stalled_job);
	spec->progress(spec->progress_arg, &p);
}

/* Sleep until t, calling spec->progress every 500 ms on the way and taking
 * the timeline's points (sm, unless NULL) when due, and waking early when
 * spec->stop is raised or every worker is done. */
static void wait_reporting(const struct test_spec *spec, struct worker *ws, unsigned n,
			   struct run_shared *rs, uint64_t t0, uint64_t t, struct sampler *sm)
{
	const uint64_t step = 100000000u;
	uint64_t now = clock_ns(), next_report = now + 5 * step, wake;

	while (now < t) {
		if (jobs_watch(spec, ws, n, rs) || __atomic_load_n(&rs->finished, __ATOMIC_ACQUIRE) == n)
			return;
		wake = now + step < t ? now + step : t;
		if (sm && sampler_due(sm) < wake)
			wake = sampler_due(sm);
		sleep_until(wake);
		now = clock_ns();
		if (now < t)
			sampler_poll(sm, spec, ws, n, now);
		if (sm)
			watch_stalls(sm, ws, n, now, false);
		if (!spec->progress || now < next_report || now >= t)
			continue;
		next_report = now + 5 * step;
		report_run(spec, ws, n, t0, now, sm);
	}
}

/* Setup or teardown progress, summed over the jobs. */
static void report_work(const struct test_spec *spec, const struct worker *ws, unsigned n,
			enum runner_phase phase)
{
	struct runner_progress p = { .phase = phase };

	if (!spec->progress)
		return;
	for (unsigned i = 0; i < n; i++) {
		p.done += __atomic_load_n(&ws[i].prog.done, __ATOMIC_RELAXED);
		p.todo += __atomic_load_n(&ws[i].prog.todo, __ATOMIC_RELAXED);
	}
	spec->progress(spec->progress_arg, &p);
}

/* Until every worker has torn down (the file tests remove their files:
 * seconds for many), reporting how far they are. */
static void wait_teardown(const struct test_spec *spec, struct worker *ws, unsigned n,
			  struct run_shared *rs)
{
	uint64_t next = clock_ns() + 20000000u;	/* said at once when it lasts */

	for (;;) {
		jobs_watch(spec, ws, n, rs);	/* a job process may be gone */
		if (__atomic_load_n(&rs->finished, __ATOMIC_ACQUIRE) >= n)
			return;
		sleep_until(clock_ns() + 20000000u);
		if (clock_ns() >= next) {
			next = clock_ns() + 500000000u;
			report_work(spec, ws, n, RUNNER_TEARDOWN);
		}
	}
}

/* A window closes at the first completion after the runtime, later still
 * for a drop-behind writer, which flushes inside it: the device counters'
 * end sample waits for every window to close (or the workers to end, or a
 * stop), so it covers what the windows counted. The timeline goes on, and
 * the progress line too when it lasts (a job that stands still). */
static void wait_windows(const struct test_spec *spec, struct worker *ws, unsigned n,
			 struct run_shared *rs, struct sampler *sm)
{
	uint64_t next_report = clock_ns() + 500000000u, now;

	for (;;) {
		unsigned open = 0;

		for (unsigned i = 0; i < n; i++)
			if (!__atomic_load_n(&ws[i].t_end, __ATOMIC_ACQUIRE))
				open++;
		if (jobs_watch(spec, ws, n, rs) || !open ||
		    __atomic_load_n(&rs->finished, __ATOMIC_ACQUIRE) == n)
			return;
		sleep_until(clock_ns() + 1000000u);
		now = clock_ns();
		sampler_poll(sm, spec, ws, n, now);
		watch_stalls(sm, ws, n, now, false);
		if (spec->progress && now >= next_report) {
			next_report = now + 500000000u;
			report_run(spec, ws, n, rs->t0, now, sm);
		}
	}
}

/* The last point, where the last window closed, from the final figures;
 * the timeline moves to out, counted from the first window's opening. */
static void sampler_finish(struct sampler *sm, const struct worker *ws, unsigned n,
			   struct test_result *out)
{
	uint64_t start = UINT64_MAX, end = 0;

	for (unsigned i = 0; i < n; i++) {
		if (ws[i].opened && ws[i].t_start < start)
			start = ws[i].t_start;
		if (ws[i].t_end > end)
			end = ws[i].t_end;
	}
	if (start == UINT64_MAX || start < sm->origin)
		start = sm->origin;
	timeline_rec_finish(&sm->rec, end > sm->origin ? end - sm->origin : 0,
			    start - sm->origin, out->ops, out->bytes, out->lat, &out->timeline);
}

/*
 * --verify's read-back, after the windows, the device counters' end sample
 * and the jobs, so that it is in none of them: every block a job wrote is
 * read back through a descriptor of its own (O_DIRECT as the test was;
 * buffered, the target's cached pages are written back and dropped first,
 * so that the device answers, not the page cache) and checked, by
 * VERIFY_THREADS threads (verify_regions). Jobs that share the working set
 * (random ones) have their maps merged: a block two of them wrote is read
 * once.
 */
static void read_back(const struct test_spec *spec, const struct run_target *where,
		      struct worker *ws, unsigned n, struct test_result *out)
{
	const bool shared = !(spec->wl->pattern == WL_SEQ && !spec->wl->fixed_size);
	struct verify_sum sum = { .done = true };
	struct verify_region *regions = calloc(n, sizeof(*regions));
	uint64_t t = clock_ns();
	int fd, ret = 0;

	fd = regions ? target_open(&where->data, O_RDONLY | (spec->direct ? O_DIRECT : 0)) :
	     -ENOMEM;
	if (fd < 0) {
		ret = fd;
	} else {
		if (!spec->direct)
			(void)target_drop_cache(fd, where->ti->kind);	/* best effort */
		for (unsigned i = 1; shared && i < n; i++)
			for (size_t k = 0; k < verify_map_words(ws[0].gen.nblocks); k++)
				ws[0].written[k] |= ws[i].written[k];
		for (unsigned i = 0; i < n; i++)
			regions[i] = (struct verify_region){ .base = ws[i].gen.base,
							     .nblocks = ws[i].gen.nblocks,
							     .written = ws[i].written };
		ret = verify_regions(fd, regions, shared ? 1 : n, spec->bs, ws[0].unit,
				     spec->seed, spec->stop, &sum);
		close(fd);
	}
	free(regions);
	if (ret && ret != -EINTR && !sum.read_errno) {
		/* nothing could be read (no descriptor, no memory): one bad */
		sum.read_errno = -ret;
		sum.first = (struct verify_bad){ .field = VERIFY_F_READ };
		sum.bad++;
	}
	sum.time_ns = clock_ns() - t;
	out->verify = sum;
}

/* Per request besides its buffer: the slot, its place in three lists, and
 * the engine's own (an io_uring SQE and CQEs, a libaio iocb and event). */
#define REQ_OVERHEAD (sizeof(struct io_req) + 3 * sizeof(void *) + 128)
/* Per job besides its requests: its state, histogram, the engine's setup
 * (rings), and the pages of its thread's stack it touches (a job process:
 * of its stack, and of the runner's heap it writes, copied on write). */
#define JOB_OVERHEAD (sizeof(struct worker) + sizeof(struct hist) + (256u << 10))
/* Per test: the merged histogram, and the timeline's three and its points. */
#define TEST_OVERHEAD (4 * sizeof(struct hist) + \
		       TIMELINE_MAX_POINTS * sizeof(struct timeline_point))

void runner_footprint(const struct test_spec *s, struct wl_footprint *fp)
{
	struct wl_footprint one = { 0 };
	struct wl_job job;

	if (s->wl->kind == WL_OPS) {
		runner_job_params(s, 0, &job);
		if (s->wl->ops && s->wl->ops->footprint)
			s->wl->ops->footprint(&job, &one);
	} else {
		one.mem_bytes = (uint64_t)s->qd * (s->bs + REQ_OVERHEAD);
		one.fds = 2;	/* the target and the engine's ring */
		/* --verify: the payload CRCs, the dirty marks, the map */
		if (s->stamp)
			one.mem_bytes += (uint64_t)s->qd * (s->bs / VERIFY_UNIT_MIN * 4 + 1);
		if (s->verify)
			one.mem_bytes += spec_size(s) / s->bs / 8 + 8;
	}
	fp->mem_bytes = (uint64_t)s->jobs * (one.mem_bytes + JOB_OVERHEAD) + TEST_OVERHEAD;
	if (s->verify)	/* the read-back's buffers */
		fp->mem_bytes += VERIFY_THREADS * (uint64_t)VERIFY_CHUNK;
	fp->disk_bytes = (uint64_t)s->jobs * one.disk_bytes;
	fp->inodes = (uint64_t)s->jobs * one.inodes;
	fp->fds = one.fds;
}

int runner_run(const struct test_spec *spec, const struct run_target *where,
	       struct test_result *out, char *err, size_t errlen)
{
	const struct target_info *ti = where->ti;
	struct dev_counters c0 = { 0 }, c1 = { 0 };
	struct worker *ws = NULL;
	struct run_shared local = { 0 }, *rs = &local;
	struct sampler sm = { .runtime = spec->runtime_ns };
	uint64_t ramp = spec_ramp(spec);
	unsigned n = spec->jobs, started = 0, i;
	const bool ops_kind = spec->wl->kind == WL_OPS;
	/* job processes: block I/O only (runner.h) */
	const bool procs = spec->procs && !ops_kind;
	void *arena = NULL;
	size_t arena_len = 0;
	int ret = 0;

	if (!n || (ops_kind && !spec->wl->ops) || (!ops_kind && !spec->engine)) {
		snprintf(err, errlen, "%s: no jobs, engine or operations to run", spec->wl->name);
		return -EINVAL;
	}

	memset(out, 0, sizeof(*out));
	out->lat = calloc(1, sizeof(*out->lat));
	if (procs)
		arena = jobs_arena(spec, n, &rs, &ws, &arena_len);
	else
		ws = calloc(n, sizeof(*ws));
	sm.cur = malloc(sizeof(*sm.cur));
	if (!out->lat || !ws || !sm.cur ||
	    timeline_rec_init(&sm.rec, spec_interval(spec))) {
		free(sm.cur);
		if (arena)
			munmap(arena, arena_len);
		else
			free(ws);
		free(out->lat);
		out->lat = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hist_init(out->lat);
	out->workload = spec->wl->name;
	out->engine = ops_kind ? "-" : spec->engine->name;
	out->bs = spec->bs;
	out->qd = ops_kind ? 1 : spec->qd;
	out->jobs = spec->jobs;
	/* The file tests' parameters shape their numbers: the result says them. */
	if (spec->wl->params & WL_P_FILES)
		out->params = wl_params_resolve(spec->params);
	out->direct = spec->direct;
	out->drop_behind = spec_drop_behind(spec);
	out->passes = ops_kind ? 0 : spec->passes;
	out->passes_done = out->passes > 0;	/* until a job says otherwise */
	out->random = spec->wl->pattern == WL_RAND;
	out->zero_data = spec->zero_data && wl_writes(spec->wl) && !ops_kind;
	out->is_write = spec->wl->dir == IO_WRITE;
	out->ramp_ns = ramp;
	out->size = spec_size(spec);

	rs->procs = procs;
	gate_init(&rs->gate, procs);
	for (i = 0; i < n; i++) {
		ws[i].id = i;
		ws[i].spec = spec;
		ws[i].where = where;
		ws[i].gate = &rs->gate;
		ws[i].t0 = &rs->t0;
		ws[i].sampled = &rs->sampled;
		ws[i].finished = &rs->finished;
		ws[i].stop = procs ? &rs->stop : spec->stop;
		ws[i].ctx.fd = -1;
		ws[i].drop_behind = out->drop_behind;
		ret = jobs_start(&ws[i], rs);
		if (ret) {
			snprintf(err, errlen, "cannot start job %s %u of %u: %s",
				 procs ? "process" : "thread", i + 1, n, strerror(-ret));
			break;
		}
		started++;
	}
	if (!ret) {
		/* Setup: the file tests may make many files first. */
		uint64_t next = clock_ns() + 500000000u;

		while (!gate_wait_ready(&rs->gate, n, 100000000u)) {
			jobs_watch(spec, ws, n, rs);
			if (__atomic_load_n(&rs->finished, __ATOMIC_ACQUIRE))
				break;	/* a job process that is gone never arrives */
			if (clock_ns() >= next) {
				next = clock_ns() + 500000000u;
				report_work(spec, ws, n, RUNNER_SETUP);
			}
		}
		for (i = 0; i < n; i++) {
			if (ws[i].err && (!ret || ws[i].err == -EINTR)) {
				ret = ws[i].err;
				snprintf(err, errlen, "%s", ws[i].errmsg);
			}
		}
	}
	if (!ret) {
		const bool io = ops_kind || !(spec->engine->flags & ENGINE_F_NO_IO);

		/* With no ramp the windows open at t0: sample before. */
		if (io && !ramp)
			target_dev_counters(ti, &c0);
		if (!io || !ramp)
			rs->sampled = 1;
		rs->t0 = clock_ns();
		sm.origin = rs->t0 + ramp;
		/* no memory for the watch: nothing is watched (sm.stalls.jobs) */
		(void)stall_watch_init(&sm.stalls, n, stall_bound(spec->runtime_ns), sm.origin);
		sm.next_read = sm.origin;
		gate_open(&rs->gate, 1);
		/* The windows open at the first completion after the ramp,
		 * and never before this sample: a moment before the ramp ends
		 * (or late, on a loaded machine, and then the windows open
		 * late), so that the device has moved at least what they
		 * count. */
		if (io && ramp) {
			wait_reporting(spec, ws, n, rs, rs->t0,
				       rs->t0 + ramp - (ramp < 2000000u ? ramp : 2000000u), NULL);
			target_dev_counters(ti, &c0);
			__atomic_store_n(&rs->sampled, 1, __ATOMIC_RELEASE);
		}
		/* Without I/O too: the timeline and the progress are taken here;
		 * a workload that runs to its end (whole) until it is there. */
		wait_reporting(spec, ws, n, rs, rs->t0,
			       spec->wl->whole ? UINT64_MAX : rs->t0 + ramp + spec->runtime_ns, &sm);
		wait_windows(spec, ws, n, rs, &sm);
		watch_stalls(&sm, ws, n, clock_ns(), true);
		if (io)
			target_dev_counters(ti, &c1);
	} else {
		gate_open(&rs->gate, -1);
	}
	wait_teardown(spec, ws, started, rs);
	jobs_end(ws, started, rs);
	gate_destroy(&rs->gate);
	/* a job process that was killed or crashed: its counts are not whole */
	for (i = 0; i < started && !ret; i++) {
		if (ws[i].err == -ECHILD) {
			ret = ws[i].err;
			snprintf(err, errlen, "%s", ws[i].errmsg);
		}
	}

	if (!ret) {
		merge(ws, n, &sm.stalls, out);
		sampler_finish(&sm, ws, n, out);
		stalls_out(&sm, ws, n, out);
		/* interrupted: the user wants out, not a read-back (which
		 * stops at a SIGINT too, keeping what it checked) */
		if (spec->verify && !(spec->engine->flags & ENGINE_F_NO_IO) &&
		    !(spec->stop && *spec->stop))
			read_back(spec, where, ws, n, out);
		if (ops_kind) {
			struct wl_desc d = { .engine = "-", .io_size = spec->bs,
					     .direct = spec->direct };

			if (spec->wl->ops->describe)
				spec->wl->ops->describe(&ws[0].job, &d);
			out->engine = d.engine;
			out->bs = d.io_size;
			out->direct = d.direct;
		}
		out->dev_valid = c0.valid && c1.valid;
		if (out->dev_valid) {
			out->dev_read_bytes = c1.read_bytes - c0.read_bytes;
			out->dev_write_bytes = c1.write_bytes - c0.write_bytes;
		}
	}
	/* Each worker tore down its own engine, fds and buffers. */
	if (arena) {
		munmap(arena, arena_len);
	} else {
		for (i = 0; i < n; i++) {
			free(ws[i].lat);
			free(ws[i].written);
		}
		free(ws);
	}
	timeline_rec_free(&sm.rec);	/* nothing left after finish */
	stall_watch_free(&sm.stalls);
	free(sm.cur);
	if (ret) {
		free(out->lat);
		out->lat = NULL;
		return ret;
	}
	result_finish(out);
	return 0;
}
