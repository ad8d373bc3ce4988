/* runner.c - runs one test: its jobs' figures merged, the device counters, the read-back. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "clock.h"
#include "jobs.h"
#include "runner.h"
#include "sampler.h"
#include "stall.h"
#include "timeline.h"
#include "verify.h"
#include "worker.h"

/* Is spec a drop-behind test (worker.h)? Buffered, not about the cache,
 * and with reads to drop or writes to flush: the file tests (own files, no
 * flush) are neither. */
static bool spec_drop_behind(const struct test_spec *s)
{
	if (s->direct || s->wl->cache_ok)
		return false;
	/* one pass of reads: nothing is read twice (worker.h) */
	if (s->passes == 1 && !wl_writes(s->wl))
		return false;
	if (s->wl->kind == WL_BLOCK)
		return !(s->engine->flags & ENGINE_F_NO_IO);
	return !s->wl->own_files || s->wl->ops->flush;
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

/* The jobs' first errors into out, in the order they completed, their
 * times from the first window's opening (as the timeline counts). */
static void merge_errors(const struct worker *ws, unsigned n, struct test_result *out)
{
	uint64_t first = UINT64_MAX;
	unsigned next[n];

	for (unsigned i = 0; i < n; i++) {
		next[i] = 0;
		if (ws[i].opened && ws[i].t_start < first)
			first = ws[i].t_start;
	}
	while (out->nio_errors < RESULT_MAX_IO_ERRORS) {
		const struct result_io_error *e = NULL;
		unsigned from = 0;

		for (unsigned i = 0; i < n; i++) {
			const struct result_io_error *c = next[i] < ws[i].nerrs ?
							  &ws[i].errs[next[i]] : NULL;

			if (c && (!e || c->at_ns < e->at_ns)) {
				e = c;
				from = i;
			}
		}
		if (!e)
			break;
		next[from]++;
		out->io_errors[out->nio_errors] = *e;
		out->io_errors[out->nio_errors++].at_ns = first != UINT64_MAX && e->at_ns > first ?
							   e->at_ns - first : 0;
	}
	if (out->stuck)		/* its time as the list's */
		out->stuck_req.at_ns = first != UINT64_MAX && out->stuck_req.at_ns > first ?
				       out->stuck_req.at_ns - first : 0;
	if (out->nio_errors) {	/* the first of all, not of the first job */
		out->first_errno = out->io_errors[0].err;
		out->first_error_offset = out->io_errors[0].offset;
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
	uint64_t cpu_user = 0, cpu_sys = 0, window = 0, span = 0, run, waited = 0, waited_in = 0;
	const struct wl_ops *ops = ws[0].spec->wl->ops;
	bool wait_valid = true;
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
		wait_valid = wait_valid && w->cpu_wait_valid;
		waited += w->cpu_wait_ns;
		waited_in += w->cpu_wait_span_ns;
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
	merge_errors(ws, n, out);
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
	/* how much of its window the average job stood ready, not running */
	out->cpu_wait_valid = wait_valid && waited_in;
	out->cpu_wait_pct = out->cpu_wait_valid ? 100.0 * (double)waited / (double)waited_in : 0;
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
	/* --lat-log's entries, in a mapping of their own (reqlog.h) */
	if (s->wl->kind == WL_BLOCK && s->reqlog_max) {
		uint64_t log = reqlog_bytes(s->jobs, s->reqlog_max);

		fp->mem_bytes = log > UINT64_MAX - fp->mem_bytes ? UINT64_MAX : fp->mem_bytes + log;
	}
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
	bool procs;		/* job processes (jobs.h) */
	bool io;		/* the device counters move */
	struct jobs_hang hang;	/* are the jobs stuck? (jobs.h) */
	bool setup_stuck;	/* found stuck in their setup (run_start) */
	struct worker *ws;
	struct run_shared local, *rs;
	void *arena;		/* procs: ws and *rs live here (jobs_arena) */
	size_t arena_len;
	struct sampler sm;
	struct dev_counters c0, c1;
	bool leak;		/* a thread was abandoned: it may still write to ws */
	bool abandoned;		/* a job was (run_abandon) */
};

/* What the spec alone says of out, before the jobs run. */
static void result_describe(const struct test_spec *spec, struct test_result *out)
{
	const bool ops_kind = spec->wl->kind == WL_OPS;

	out->workload = spec->wl->name;
	out->engine = ops_kind ? "-" : spec->engine->name;
	out->bs = spec->bs;
	out->qd = ops_kind ? 1 : spec->qd;
	out->batch = ops_kind ? 0 : engine_batch(spec->engine, spec->batch, spec->qd,
						      spec->wl->pattern != WL_RAND);
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
	if (r->leak) {		/* what an abandoned thread may write stays */
		sampler_free(&r->sm);
		return;
	}
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

/* The call job w is in (wl_job.at), in words, its file's path whole
 * (the scratch directory's, unless absolute): "" when it said none. */
static void run_name_call(const struct run *r, const struct worker *w,
			  struct result_stuck_call *out, struct wl_call *c)
{
	const struct wl_ops *ops = r->spec->wl->ops;
	const uint64_t at = __atomic_load_n(&w->op_at, __ATOMIC_RELAXED);
	const char *dir = r->where->scratch;

	memset(c, 0, sizeof(*c));
	memset(out, 0, sizeof(*out));
	if (r->spec->wl->kind != WL_OPS || !ops->name_at || at == WL_AT_NONE)
		return;
	ops->name_at(&w->job, at, c);
	if (!c->call)
		return;
	snprintf(out->call, sizeof(out->call), "%s", c->call);
	if (c->file[0] == '/' || !dir || !dir[0])
		snprintf(out->path, sizeof(out->path), "%s", c->file);
	else
		snprintf(out->path, sizeof(out->path), "%s/%s", dir, c->file);
}

/* A job's setup stuck (a call that never returned): its -ETIMEDOUT, the
 * call named in err; -EINTR when the user asked to stop. */
static int run_stuck_setup(const struct run *r, char *err, size_t errlen)
{
	struct result_stuck_call sc;
	struct wl_call c;
	unsigned i;

	for (i = 0; i + 1 < r->n && __atomic_load_n(&r->ws[i].ready, __ATOMIC_ACQUIRE); i++)
		;	/* the first still in its setup */
	run_name_call(r, &r->ws[i], &sc, &c);
	if (sc.call[0])
		snprintf(err, errlen, "job %u's setup: a %s of %s did not complete within %.1f s "
			 "(--io-timeout): the device hangs", i, sc.call, sc.path,
			 (double)r->spec->io_timeout_ns / 1e9);
	else
		snprintf(err, errlen, "job %u's setup did not end within %.1f s (--io-timeout): "
			 "the device hangs", i, (double)r->spec->io_timeout_ns / 1e9);
	return r->spec->stop && *r->spec->stop ? -EINTR : -ETIMEDOUT;
}

/* Start the jobs and wait for their setup: 0 once every job is at the
 * gate, or the first failure's -errno (a stop's -EINTR before others; a
 * setup stuck: run_stuck_setup) with its message in err. r->started says
 * how many are to be ended. */
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
		ws[i].halt = &r->rs->halt;
		ws[i].ctx.fd = -1;
		ws[i].at = UINT64_MAX;
		ws[i].op_at = WL_AT_NONE;
		ws[i].drop_behind = drop_behind;
		ret = jobs_start(&ws[i], r->rs);
		if (ret) {
			snprintf(err, errlen, "cannot start job %s %u of %u: %s",
				 r->procs ? "process" : "thread", i + 1, r->n, strerror(-ret));
			return ret;
		}
		r->started++;
	}
	/* a thread is never let go before the gate: it would still use it */
	if (!sampler_wait_setup(r->spec, ws, r->n, r->rs, r->procs ? &r->hang : NULL)) {
		r->setup_stuck = true;
		return run_stuck_setup(r, err, errlen);
	}
	for (unsigned i = 0; i < r->n; i++) {
		if (ws[i].err && (!ret || ws[i].err == -EINTR)) {
			ret = ws[i].err;
			snprintf(err, errlen, "%s", ws[i].errmsg);
		}
	}
	return ret;
}

/* From when the jobs are watched for a hang (jobs.h): the runtime's end,
 * or now when a stop or a halt came first; after a failed start, now (a
 * thread that may not have reached the gate: never). */
static void run_hang_from(struct run *r)
{
	const struct test_spec *spec = r->spec;
	uint64_t end = r->rs->t0 + spec_ramp(spec) + spec->runtime_ns, now = clock_ns();

	if (!r->rs->t0) {
		jobs_hang_from(&r->hang, r->procs ? now : UINT64_MAX);
		return;
	}
	if ((spec->stop && *spec->stop) || r->rs->halt || now > end)
		end = end > now ? now : end;
	jobs_hang_from(&r->hang, end);
}

/*
 * The jobs still not torn down when the hang watch found them stuck (with
 * setup, only those still in their setup): each abandoned (jobs.h), its
 * window closed now, and its request in flight counted as an error of
 * ETIMEDOUT at its last offset (a file test's: its call's, when it has
 * one), the test marked stuck (out->stuck_req and, a file test,
 * out->stuck_call: the first such job's).
 */
static void run_abandon(struct run *r, struct test_result *out, bool setup)
{
	const uint64_t now = clock_ns();
	struct result_stuck_call sc;
	struct wl_call c;
	uint64_t offset;

	for (unsigned i = 0; i < r->started; i++) {
		struct worker *w = &r->ws[i];

		if (w->torn_down || w->abandoned ||
		    (setup && __atomic_load_n(&w->ready, __ATOMIC_ACQUIRE)))
			continue;
		run_name_call(r, w, &sc, &c);
		offset = c.has_offset ? c.offset : w->at == UINT64_MAX ? 0 : w->at;
		jobs_abandon(w, r->rs);
		r->abandoned = true;
		if (!r->procs)
			r->leak = true;
		if (!__atomic_load_n(&w->t_end, __ATOMIC_ACQUIRE)) {
			/* its window's CPU and calls were never taken: none */
			if (!w->opened)
				w->t_start = now;
			w->cpu_user_ns = w->cpu_sys_ns = w->syscalls = 0;
			w->cpu_wait_ns = w->cpu_wait_span_ns = 0;
			w->cpu_wait_valid = false;
			w->t_end = now;
		}
		if (!w->errors++) {
			w->first_errno = ETIMEDOUT;
			w->first_error_offset = offset;
		}
		if (w->nerrs < RESULT_MAX_IO_ERRORS)
			w->errs[w->nerrs++] = (struct result_io_error){
				.job = i, .at_ns = now, .err = ETIMEDOUT, .offset = offset,
				.len = r->spec->wl->kind == WL_OPS ? 0 : r->spec->bs };
		if (!out->stuck) {
			out->stuck_req = w->errs[w->nerrs - 1];
			out->stuck_call = sc;
		}
		out->stuck = true;
	}
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
	run_hang_from(r);
	sampler_wait_windows(spec, r->ws, r->n, rs, &r->sm, &r->hang);
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
		.procs = spec->procs,
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
	jobs_hang_init(&r.hang, spec, where->ti);
	/* A file test's setup makes files, and syncs them: watched too, where
	 * the device's counters tell a long sync from a hang */
	if (r.hang.ti)
		jobs_hang_from(&r.hang, clock_ns());

	ret = run_start(&r, out->drop_behind, err, errlen);
	if (!ret)
		run_measure(&r);
	else
		gate_open(&r.rs->gate, -1);
	/* stuck in their setup: let go now, the others given their time */
	if (r.setup_stuck)
		run_abandon(&r, out, true);
	run_hang_from(&r);
	if (!sampler_wait_teardown(spec, r.ws, r.started, r.rs, &r.hang))
		run_abandon(&r, out, false);
	jobs_end(r.ws, r.started, r.rs);
	/* one killed in the gate's wait would hold its condition for ever */
	if (!r.abandoned)
		gate_destroy(&r.rs->gate);
	/* a job process that was killed or crashed: its counts are not whole */
	for (unsigned i = 0; i < r.started && !ret; i++) {
		if (r.ws[i].err == -ECHILD && !r.ws[i].abandoned) {
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

