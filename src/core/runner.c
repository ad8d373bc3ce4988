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
#include "sampler.h"
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

/* One test's run: what runner_run's steps share. */
struct run {
	const struct test_spec *spec;
	const struct run_target *where;
	unsigned n, started;
	bool procs;		/* job processes: block I/O only (jobs.h) */
	bool io;		/* the device counters move */
	struct worker *ws;
	struct run_shared local, *rs;
	void *arena;		/* procs: ws and *rs live here (jobs_arena) */
	size_t arena_len;
	struct sampler sm;
	struct dev_counters c0, c1;
};

/* What the spec alone says of out, before the jobs run. */
static void result_describe(const struct test_spec *spec, struct test_result *out)
{
	const bool ops_kind = spec->wl->kind == WL_OPS;

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
	out->ramp_ns = spec_ramp(spec);
	out->size = spec_size(spec);
}

/* The workers (in the shared arena for job processes) and the sampler's
 * memory: 0, or -ENOMEM with nothing held. */
static int run_alloc(struct run *r)
{
	r->rs = &r->local;
	if (r->procs)
		r->arena = jobs_arena(r->spec, r->n, &r->rs, &r->ws, &r->arena_len);
	else
		r->ws = calloc(r->n, sizeof(*r->ws));
	if (r->ws && !sampler_init(&r->sm, r->spec))
		return 0;
	if (r->arena)
		munmap(r->arena, r->arena_len);
	else
		free(r->ws);
	r->ws = NULL;
	r->arena = NULL;
	return -ENOMEM;
}

/* Each worker tore down its own engine, fds and buffers: what is left. */
static void run_free(struct run *r)
{
	if (r->arena) {
		munmap(r->arena, r->arena_len);
	} else {
		for (unsigned i = 0; i < r->n; i++) {
			free(r->ws[i].lat);
			free(r->ws[i].written);
		}
		free(r->ws);
	}
	sampler_free(&r->sm);
}

/* Start the jobs and wait for their setup: 0 once every job is at the
 * gate, or the first failure's -errno (a stop's -EINTR before others) with
 * its message in err. r->started says how many are to be ended. */
static int run_start(struct run *r, bool drop_behind, char *err, size_t errlen)
{
	struct worker *ws = r->ws;
	int ret = 0;

	r->rs->procs = r->procs;
	gate_init(&r->rs->gate, r->procs);
	for (unsigned i = 0; i < r->n; i++) {
		ws[i].id = i;
		ws[i].spec = r->spec;
		ws[i].where = r->where;
		ws[i].gate = &r->rs->gate;
		ws[i].t0 = &r->rs->t0;
		ws[i].sampled = &r->rs->sampled;
		ws[i].finished = &r->rs->finished;
		ws[i].stop = r->procs ? &r->rs->stop : r->spec->stop;
		ws[i].ctx.fd = -1;
		ws[i].drop_behind = drop_behind;
		ret = jobs_start(&ws[i], r->rs);
		if (ret) {
			snprintf(err, errlen, "cannot start job %s %u of %u: %s",
				 r->procs ? "process" : "thread", i + 1, r->n, strerror(-ret));
			return ret;
		}
		r->started++;
	}
	sampler_wait_setup(r->spec, ws, r->n, r->rs);
	for (unsigned i = 0; i < r->n; i++) {
		if (ws[i].err && (!ret || ws[i].err == -EINTR)) {
			ret = ws[i].err;
			snprintf(err, errlen, "%s", ws[i].errmsg);
		}
	}
	return ret;
}

/*
 * Let the jobs go and wait out the ramp and the measured phase. The device
 * counters' start sample is taken just before the windows open (before the
 * jobs are let go with no ramp, a moment before the ramp ends otherwise),
 * and no window opens before it is taken (on a loaded machine they open
 * late instead), so what the windows count never predates it; the end
 * sample waits for every window to close.
 */
static void run_measure(struct run *r)
{
	const struct test_spec *spec = r->spec;
	struct run_shared *rs = r->rs;
	const uint64_t ramp = spec_ramp(spec);

	/* With no ramp the windows open at t0: sample before. */
	if (r->io && !ramp)
		target_dev_counters(r->where->ti, &r->c0);
	if (!r->io || !ramp)
		rs->sampled = 1;
	rs->t0 = clock_ns();
	sampler_start(&r->sm, spec, r->n, rs->t0 + ramp);
	gate_open(&rs->gate, 1);
	/* The windows open at the first completion after the ramp, and never
	 * before this sample: a moment before the ramp ends (or late, on a
	 * loaded machine, and then the windows open late), so that the device
	 * has moved at least what they count. */
	if (r->io && ramp) {
		sampler_wait(spec, r->ws, r->n, rs, rs->t0,
			     rs->t0 + ramp - (ramp < 2000000u ? ramp : 2000000u), NULL);
		target_dev_counters(r->where->ti, &r->c0);
		__atomic_store_n(&rs->sampled, 1, __ATOMIC_RELEASE);
	}
	/* Without I/O too: the timeline and the progress are taken here; a
	 * workload that runs to its end (whole) until it is there. */
	sampler_wait(spec, r->ws, r->n, rs, rs->t0,
		     spec->wl->whole ? UINT64_MAX : rs->t0 + ramp + spec->runtime_ns, &r->sm);
	sampler_wait_windows(spec, r->ws, r->n, rs, &r->sm);
	if (r->io)
		target_dev_counters(r->where->ti, &r->c1);
}

/* After the jobs: their figures, the timeline and the stalls, the
 * read-back and the device counters into out. */
static void run_collect(struct run *r, struct test_result *out)
{
	const struct test_spec *spec = r->spec;

	merge(r->ws, r->n, &r->sm.stalls, out);
	sampler_finish(&r->sm, r->ws, r->n, out);
	/* interrupted: the user wants out, not a read-back (which stops at a
	 * SIGINT too, keeping what it checked) */
	if (spec->verify && !(spec->engine->flags & ENGINE_F_NO_IO) &&
	    !(spec->stop && *spec->stop))
		read_back(spec, r->where, r->ws, r->n, out);
	if (spec->wl->kind == WL_OPS) {
		struct wl_desc d = { .engine = "-", .io_size = spec->bs, .direct = spec->direct };

		if (spec->wl->ops->describe)
			spec->wl->ops->describe(&r->ws[0].job, &d);
		out->engine = d.engine;
		out->bs = d.io_size;
		out->direct = d.direct;
	}
	out->dev_valid = r->c0.valid && r->c1.valid;
	if (out->dev_valid) {
		out->dev_read_bytes = r->c1.read_bytes - r->c0.read_bytes;
		out->dev_write_bytes = r->c1.write_bytes - r->c0.write_bytes;
	}
}

int runner_run(const struct test_spec *spec, const struct run_target *where,
	       struct test_result *out, char *err, size_t errlen)
{
	const bool ops_kind = spec->wl->kind == WL_OPS;
	struct run r = {
		.spec = spec, .where = where, .n = spec->jobs,
		.procs = spec->procs && !ops_kind,
		.io = ops_kind || (spec->engine && !(spec->engine->flags & ENGINE_F_NO_IO)),
	};
	int ret;

	if (!r.n || (ops_kind && !spec->wl->ops) || (!ops_kind && !spec->engine)) {
		snprintf(err, errlen, "%s: no jobs, engine or operations to run", spec->wl->name);
		return -EINVAL;
	}
	memset(out, 0, sizeof(*out));
	out->lat = calloc(1, sizeof(*out->lat));
	if (!out->lat || run_alloc(&r)) {
		free(out->lat);
		out->lat = NULL;
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	hist_init(out->lat);
	result_describe(spec, out);

	ret = run_start(&r, out->drop_behind, err, errlen);
	if (!ret)
		run_measure(&r);
	else
		gate_open(&r.rs->gate, -1);
	sampler_wait_teardown(spec, r.ws, r.started, r.rs);
	jobs_end(r.ws, r.started, r.rs);
	gate_destroy(&r.rs->gate);
	/* a job process that was killed or crashed: its counts are not whole */
	for (unsigned i = 0; i < r.started && !ret; i++) {
		if (r.ws[i].err == -ECHILD) {
			ret = r.ws[i].err;
			snprintf(err, errlen, "%s", r.ws[i].errmsg);
		}
	}
	if (!ret)
		run_collect(&r, out);
	run_free(&r);
	if (ret) {
		free(out->lat);
		out->lat = NULL;
		return ret;
	}
	result_finish(out);
	return 0;
}
