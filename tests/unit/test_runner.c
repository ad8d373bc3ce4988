/* test_runner.c - the runner against a scripted fake engine: busy, partial
 * submit, short transfer, reap error, a worker thread that cannot start,
 * the timeline it records, jobs as processes, and a job that sticks. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "runner.h"
#include "stop_later.h"

#define QD 8

/* What the engine is told to do, and what it saw. One worker at a time
 * (jobs 1) uses it, from its own thread. */
static struct fake {
	unsigned busy_every;	/* every Nth submit takes one request only (0: never) */
	unsigned fail_after;	/* the Nth submit takes `partial` requests, and every
				 * later one fails with -EIO (0: never) */
	unsigned partial;
	unsigned short_at;	/* the Nth completion moves half its bytes (0: never) */
	unsigned reap_fail_at;	/* the Nth reap fails with -EIO (0: never) */
	unsigned stall_at;	/* the Nth reap first sleeps stall_ms (0: never) */
	unsigned stall_ms;
	unsigned die_at;	/* the Nth reap kills its process (0: never) */
	bool reap_min;		/* hand back only min completions: the queue stays full */

	unsigned submits, reaps, completions, inflight, max_inflight;
	int broken;		/* the error later submits report */
	struct io_req *q[QD];	/* in flight, oldest first */
	uint64_t short_offset;	/* the offset of the short request */
	int cleanups;
	unsigned inflight_at_cleanup;
} fk;

static int fake_probe(char *why, size_t whylen)
{
	(void)why;
	(void)whylen;
	return 0;
}

/* Each job's note says where it ran: its process and session. */
static int fake_init(struct engine_ctx *ctx)
{
	ctx->priv = &fk;
	snprintf(ctx->note, sizeof(ctx->note), "pid %d sid %d", (int)getpid(), (int)getsid(0));
	return 0;
}

static int fake_submit(struct engine_ctx *ctx, struct io_req **reqs, unsigned n)
{
	struct fake *f = ctx->priv;
	unsigned take = n, i;

	f->submits++;
	ctx->syscalls++;
	if (f->broken)
		return f->broken;
	if (f->busy_every && f->submits % f->busy_every == 0)
		take = 1;
	if (f->fail_after && f->submits == f->fail_after) {
		take = n < f->partial ? n : f->partial;
		f->broken = -EIO;
	}
	for (i = 0; i < take; i++) {
		assert_true(f->inflight < QD);
		f->q[f->inflight++] = reqs[i];
	}
	if (f->inflight > f->max_inflight)
		f->max_inflight = f->inflight;
	return (int)take;
}

static int fake_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out, unsigned max)
{
	struct fake *f = ctx->priv;
	unsigned n = 0;

	f->reaps++;
	ctx->syscalls++;
	assert_true(min <= f->inflight);
	if (f->reap_fail_at && f->reaps == f->reap_fail_at)
		return -EIO;
	if (f->die_at && f->reaps == f->die_at)
		raise(SIGKILL);
	if (f->stall_at && f->reaps == f->stall_at)
		usleep(f->stall_ms * 1000u);
	if (f->reap_min)
		max = min;
	while (n < max && f->inflight) {
		struct io_req *r = f->q[0];

		memmove(f->q, f->q + 1, --f->inflight * sizeof(f->q[0]));
		r->result = r->len;
		if (++f->completions == f->short_at) {
			r->result = r->len / 2;
			f->short_offset = r->offset;
		}
		out[n++] = r;
	}
	return (int)n;
}

static void fake_cleanup(struct engine_ctx *ctx)
{
	__atomic_add_fetch(&fk.cleanups, 1, __ATOMIC_SEQ_CST);
	fk.inflight_at_cleanup = fk.inflight;
	(void)ctx;
}

static const struct engine_ops fake_engine = {
	.name = "fake",
	.desc = "a scripted engine for tests",
	.probe = fake_probe,
	.init = fake_init,
	.submit = fake_submit,
	.reap = fake_reap,
	.cleanup = fake_cleanup,
};

/* pthread_create, wrapped (-Wl,--wrap=pthread_create): fails at call
 * fail_create (1-based) when set. */
static unsigned creates, fail_create;
int __real_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);
int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg);

int __wrap_pthread_create(pthread_t *t, const pthread_attr_t *a, void *(*fn)(void *), void *arg)
{
	if (fail_create && ++creates == fail_create)
		return EAGAIN;
	return __real_pthread_create(t, a, fn, arg);
}

#define MS 1000000ull

/* How run() runs: 20 ms, no ramp, the default interval, the fake engine. */
static struct timing {
	uint64_t runtime, ramp, interval;
	uint32_t passes;
	const struct engine_ops *engine;
	bool procs;
	const volatile sig_atomic_t *stop;
} tm;

/* Run rand-read 4k QD8 on /dev/null as tm says. */
static int run(unsigned jobs, struct test_result *out, char *err, size_t errlen)
{
	struct target_info ti = { .kind = TARGET_FILE };
	struct run_target where = { .ti = &ti, .data = { AT_FDCWD, "/dev/null" },
				    .scratch_fd = -1 };
	struct test_spec spec = {
		.wl = wl_find("rand-read"),
		.engine = tm.engine ? tm.engine : &fake_engine,
		.bs = 4096,
		.qd = QD,
		.jobs = jobs,
		.runtime_ns = tm.runtime ? tm.runtime : 20 * MS,
		.ramp_ns = tm.ramp,
		.interval_ns = tm.interval,
		.size = 1u << 20,
		.passes = tm.passes,
		.seed = 1,
		.procs = tm.procs,
		.stop = tm.stop,
	};

	assert_non_null(spec.wl);
	/* a runner that hangs fails the test instead of the whole suite */
	alarm(10);
	return runner_run(&spec, &where, out, err, errlen);
}

static int reset(void **state)
{
	(void)state;
	memset(&fk, 0, sizeof(fk));
	memset(&tm, 0, sizeof(tm));
	creates = fail_create = 0;
	return 0;
}

static void test_busy(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	fk.busy_every = 2;
	fk.reap_min = true;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_true(r.ops > 0);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.bytes, r.ops * 4096);
	assert_true(fk.max_inflight <= QD);
	assert_int_equal(fk.inflight_at_cleanup, 0);
	result_test_free(&r);
}

/* With the queue kept full, the engine takes none of a batch, then fails:
 * the runner counts the batch that did not go in as errors and still reaps
 * the 7 in flight before it stops (it used to leave them to the engine's
 * teardown, their buffers freed under them). */
static void test_partial_submit(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	fk.reap_min = true;
	fk.fail_after = 50;
	fk.partial = 0;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_true(r.errors >= 1);
	assert_int_equal(r.first_errno, EIO);
	assert_int_equal(fk.inflight, 0);
	assert_int_equal(fk.inflight_at_cleanup, 0);
	assert_int_equal(fk.cleanups, 1);
	result_test_free(&r);
}

/* A short transfer is an EIO at that request's offset; the job stops, and
 * what was in flight is reaped first. */
static void test_short_transfer(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	fk.short_at = 20;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_int_equal(r.errors, 1);
	/* a short transfer is an error of errno 0, with the bytes it moved */
	assert_int_equal(r.first_errno, 0);
	assert_int_equal(r.first_error_offset, fk.short_offset);
	assert_int_equal(r.nio_errors, 1);
	assert_int_equal(r.io_errors[0].err, 0);
	assert_int_equal(r.io_errors[0].offset, fk.short_offset);
	assert_true(r.io_errors[0].bytes < r.io_errors[0].len);
	assert_int_equal(r.ops, fk.completions - 1);	/* all but the short one */
	assert_int_equal(fk.inflight_at_cleanup, 0);
	result_test_free(&r);
}

static void test_reap_error(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	fk.reap_fail_at = 3;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_int_equal(r.errors, 1);
	assert_int_equal(r.first_errno, EIO);
	assert_int_equal(fk.cleanups, 1);
	result_test_free(&r);
}

/* The third of four worker threads cannot be created: the two that were
 * wait at the start gate; they must be let go, not left waiting forever
 * (the barrier this replaced hung here). */
static void test_thread_start_failure(void **state)
{
	struct test_result r;
	char err[256] = "";

	(void)state;
	fail_create = 3;
	assert_int_equal(run(4, &r, err, sizeof(err)), -EAGAIN);
	assert_non_null(strstr(err, "cannot start job thread 3 of 4"));
	assert_int_equal(fk.cleanups, 2);	/* the two started tore down */
	assert_null(r.lat);
}

/* ---- the timeline ---------------------------------------------------------- */

/*
 * What every timeline must be: t_ns rising, ending where the window
 * closed (at or after the runtime); ops and bytes adding up to the run's
 * exactly; each point's latencies ordered and inside the run's min..max,
 * 0 for a point with no I/O.
 */
static void check_timeline(const struct test_result *r)
{
	const struct timeline *tl = &r->timeline;
	uint64_t ops = 0, bytes = 0, prev = 0;

	assert_true(tl->n > 0);
	assert_non_null(tl->p);
	assert_true(tl->n < TIMELINE_MAX_POINTS);
	for (unsigned i = 0; i < tl->n; i++) {
		const struct timeline_point *p = &tl->p[i];

		assert_true(p->t_ns > prev);
		prev = p->t_ns;
		ops += p->ops;
		bytes += p->bytes;
		if (!p->lat_max_ns) {
			assert_int_equal(p->lat_p50_ns, 0);
			assert_int_equal(p->lat_p99_ns, 0);
			continue;
		}
		assert_true(p->lat_p50_ns <= p->lat_p99_ns);
		assert_true(p->lat_p99_ns <= p->lat_max_ns);
		assert_true(p->lat_p50_ns >= r->lat->min);
		assert_true(p->lat_max_ns <= r->lat->max);
	}
	assert_int_equal(ops, r->ops);
	assert_int_equal(bytes, r->bytes);
	assert_true(tl->p[tl->n - 1].t_ns >= r->runtime_ns);
}

/* 500 ms in 50 ms intervals: ten points, each a full interval but the
 * first (the window opens at the first completion) and the last (it closes
 * at the first completion after the runtime). A sampler that wakes more
 * than an interval late takes one point for the grid points it missed
 * (timeline_rec_add), so a loaded machine (a sanitizer build under make
 * -j2 lost one) may give fewer; a window that closes late (its job kept
 * off the CPU) gives points past the runtime. What holds however loaded
 * the machine is: no point early, the sums whole. */
static void test_timeline_points(void **state)
{
	struct test_result r;
	char err[256];
	unsigned full = 0;

	(void)state;
	tm.runtime = 500 * MS;
	tm.interval = 50 * MS;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_int_equal(r.timeline.interval_ns, 50 * MS);
	assert_int_equal(r.timeline.merges, 0);
	assert_true(r.timeline.n >= 2);
	check_timeline(&r);
	for (unsigned i = 0; i + 1 < r.timeline.n; i++) {
		const uint64_t t = r.timeline.p[i].t_ns;

		full += r.timeline.p[i].ops > 0;

		/* never early: point i no sooner than grid step i + 1, and
		 * each on a later step than the one before; late by a
		 * scheduler's whim, unbounded on a loaded machine, so no
		 * upper bound is asserted (a late point is where the sampler
		 * woke, and the next is on the grid again) */
		assert_true(t >= (i + 1) * 50 * MS);
		if (i)
			assert_true(t / (50 * MS) > r.timeline.p[i - 1].t_ns / (50 * MS));
	}
	/* a job kept off the CPU for a whole interval leaves a point empty */
	assert_true(2 * full >= r.timeline.n - 1);
	result_test_free(&r);
}

/* The ramp is not in the timeline: with 200 ms of ramp, the points still
 * hold exactly the measured ops, over the measured window only. Several
 * jobs (the null engine: the fake one is for one job) are summed; the
 * default interval of a 300 ms test is 100 ms. */
static void test_timeline_ramp_jobs(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	tm.runtime = 300 * MS;
	tm.ramp = 200 * MS;
	tm.engine = engine_find("null");
	assert_non_null(tm.engine);
	assert_int_equal(run(3, &r, err, sizeof(err)), 0);
	assert_int_equal(r.timeline.interval_ns, 100 * MS);
	assert_true(r.timeline.n >= 1);	/* 3 on time; a late sampler takes fewer */
	check_timeline(&r);
	result_test_free(&r);
}

/* A window held open far past its runtime (a reap that takes 1.6 s, as a
 * flush might): the sampler goes on through it, and nothing is lost. On
 * time it takes 1600 points, more than the bound, so they are merged
 * pairwise and the interval doubles; a loaded machine's sampler wakes late
 * and may take fewer (the merging itself: test_timeline). */
static void test_timeline_bound(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	tm.runtime = 20 * MS;
	tm.interval = 1 * MS;
	fk.stall_at = 1;	/* the first: before any completion can close the
				 * window, however slow the machine (at the 100th,
				 * a loaded one had closed it at the runtime) */
	fk.stall_ms = 1600;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_true(r.runtime_ns >= 1600 * MS);
	assert_true(r.timeline.n >= 10);
	assert_true(r.timeline.p[r.timeline.n - 2].t_ns >= 1000 * MS);	/* went on */
	assert_int_equal(r.timeline.interval_ns, 1 * MS << r.timeline.merges);
	check_timeline(&r);
	result_test_free(&r);
}

/* Passes: 3 over 1 MiB of 4k blocks by each of 2 jobs is 1536 requests,
 * not one more submitted, well before the runtime, with no ramp. */
static void test_passes(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	tm.runtime = 10000 * MS;
	tm.ramp = 1000 * MS;
	tm.passes = 3;
	tm.engine = engine_find("null");
	assert_non_null(tm.engine);
	assert_int_equal(run(2, &r, err, sizeof(err)), 0);
	assert_int_equal(r.ops, 2 * 3 * 256);
	assert_int_equal(r.passes, 3);
	assert_true(r.passes_done);
	assert_int_equal(r.ramp_ns, 0);
	assert_true(r.runtime_ns < 5000 * MS);
	result_test_free(&r);

	/* one that the runtime ends first: not done */
	reset(NULL);
	tm.passes = 1000000;
	tm.engine = engine_find("null");
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_false(r.passes_done);
	assert_true(r.ops > 0 && r.ops < 1000000ull * 256);
	result_test_free(&r);
}

/*
 * The engine's system calls in the window reach the result: the fake makes
 * one per submit() and one per reap(), and the runner, with QD8 free after
 * every reap of all in flight, submits 8 and reaps 8 a round: 2 calls for
 * 8 ops. With no ramp the window holds every call; with a ramp it opens
 * just after the reap that crossed it, whose 8 completions it counts but
 * not that round's 2 calls (ops / 4 - 2). The null engine makes none.
 */
static void test_syscalls(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_true(r.syscalls_valid);
	assert_true(r.ops > 0 && r.ops % QD == 0);
	assert_int_equal(r.syscalls, r.ops / 4);
	assert_int_equal(r.syscalls, fk.submits + fk.reaps);
	assert_true(r.syscalls_per_op == 0.25);
	assert_true(r.cpu_job_max_pct > 0 && r.cpu_job_max_pct <= 105);
	result_test_free(&r);

	reset(NULL);
	tm.ramp = 10 * MS;
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	assert_int_equal(r.syscalls, r.ops / 4 - 2);
	assert_true(r.syscalls < fk.submits + fk.reaps);
	result_test_free(&r);

	reset(NULL);
	tm.engine = engine_find("null");
	assert_int_equal(run(2, &r, err, sizeof(err)), 0);
	assert_true(r.syscalls_valid && r.ops > 0);
	assert_int_equal(r.syscalls, 0);
	result_test_free(&r);
}

/* ---- jobs as processes ------------------------------------------------------ */

/* The pid and session a job's note (fake_init) names. */
static void note_ids(const struct test_result *r, int *pid, int *sid)
{
	assert_int_equal(sscanf(r->engine_note, "pid %d sid %d", pid, sid), 2);
}

/*
 * With procs, every job runs in a child process leading a session of its
 * own, and what each counted (ops, histogram, system calls, CPU) comes back
 * whole through the shared memory: the fake's 2 calls per 8 ops, as in
 * test_syscalls. Without, the job is a thread of this process. (An
 * assertion that fails in a child would go on in cmocka there: the fake's
 * asserts stay to what holds per job.)
 */
static void test_procs(void **state)
{
	struct test_result r;
	char err[256];
	int pid, sid;

	(void)state;
	tm.procs = true;
	assert_int_equal(run(3, &r, err, sizeof(err)), 0);
	note_ids(&r, &pid, &sid);
	assert_int_not_equal(pid, getpid());
	assert_int_equal(sid, pid);
	assert_true(r.ops > 0 && r.ops % QD == 0);
	assert_int_equal(r.lat->n, r.ops);
	assert_int_equal(r.errors, 0);
	assert_int_equal(r.syscalls, r.ops / 4);
	assert_true(r.cpu_job_max_pct > 0 && r.cpu_job_max_pct <= 105);
	assert_int_equal(fk.submits, 0);	/* the children's, not ours */
	result_test_free(&r);

	reset(NULL);	/* (the fake serves one thread at a time) */
	assert_int_equal(run(1, &r, err, sizeof(err)), 0);
	note_ids(&r, &pid, &sid);
	assert_int_equal(pid, getpid());
	assert_int_equal(sid, getsid(0));
	result_test_free(&r);

	/* exact counts: 3 passes of 256 blocks, each of 2 job processes */
	reset(NULL);
	tm.procs = true;
	tm.runtime = 10000 * MS;
	tm.passes = 3;
	tm.engine = engine_find("null");
	assert_int_equal(run(2, &r, err, sizeof(err)), 0);
	assert_int_equal(r.ops, 2 * 3 * 256);
	assert_int_equal(r.lat->n, r.ops);
	assert_true(r.passes_done);
	result_test_free(&r);
}

/* A job process that dies (killed, crashed) fails the test at once, saying
 * so, and the runner waits for it rather than hanging. */
static void test_procs_death(void **state)
{
	struct test_result r;
	char err[256] = "";

	(void)state;
	tm.procs = true;
	tm.runtime = 5000 * MS;
	fk.die_at = 10;
	assert_int_equal(run(2, &r, err, sizeof(err)), -ECHILD);
	assert_non_null(strstr(err, "process ended before its test did (signal 9)"));
	assert_null(r.lat);
}

/*
 * An engine that completes at once, except that job 1 (its thread is named
 * diskbench-j1, as a thread or a process) sleeps through its 20th reap for
 * 1.6 s: a job stuck while the other goes on. Its state is per thread.
 */
static __thread struct io_req *sq[QD];
static __thread unsigned sq_n, sq_reaps;

static int stuck_init(struct engine_ctx *ctx)
{
	(void)ctx;
	sq_n = sq_reaps = 0;
	return 0;
}

static int stuck_submit(struct engine_ctx *ctx, struct io_req **reqs, unsigned n)
{
	(void)ctx;
	for (unsigned i = 0; i < n; i++)
		sq[sq_n++] = reqs[i];
	return (int)n;
}

static int stuck_reap(struct engine_ctx *ctx, unsigned min, struct io_req **out, unsigned max)
{
	char name[16] = "";
	unsigned n = 0;

	(void)ctx;
	(void)min;
	if (++sq_reaps == 20 && !pthread_getname_np(pthread_self(), name, sizeof(name)) &&
	    !strcmp(name, "diskbench-j1"))
		usleep(1600000);
	while (n < max && sq_n) {
		out[n] = sq[--sq_n];
		out[n]->result = out[n]->len;
		n++;
	}
	return (int)n;
}

static void stuck_cleanup(struct engine_ctx *ctx)
{
	(void)ctx;
}

static const struct engine_ops stuck_engine = {
	.name = "stuck",
	.desc = "completes at once, but job 1 sticks for 1.6 s once",
	.probe = fake_probe,
	.init = stuck_init,
	.submit = stuck_submit,
	.reap = stuck_reap,
	.cleanup = stuck_cleanup,
};

/*
 * Job 1 stuck 1.6 s into a 1 s test while job 0 goes on, as threads and as
 * processes: named (job 1, about 1.6 s, from the start, with an offset of
 * the working set), and the window is job 0's second, not the span with
 * the stall in it (window_span_ns keeps that).
 */
static void test_stall(void **state)
{
	struct test_result r;
	char err[256];

	(void)state;
	for (int procs = 0; procs < 2; procs++) {
		reset(NULL);
		tm.procs = procs;
		tm.runtime = 1000 * MS;
		tm.engine = &stuck_engine;
		assert_int_equal(run(2, &r, err, sizeof(err)), 0);
		assert_true(r.stall_bound_ns == 1000 * MS);
		assert_int_equal(r.nstalls, 1);
		assert_int_equal(r.stalls[0].job, 1);
		if (r.stalls[0].ns < 1300 * MS || r.stalls[0].ns > 1650 * MS)
			fail_msg("procs %d: a stall of %llu ns for 1.6 s", procs,
				 (unsigned long long)r.stalls[0].ns);
		assert_true(r.stalls[0].start_ns < 300 * MS);
		assert_true(r.stalls[0].offset_valid);
		assert_true(r.stalls[0].offset % 4096 == 0 && r.stalls[0].offset < (1u << 20));
		if (r.runtime_ns < 1000 * MS || r.runtime_ns > 1300 * MS)
			fail_msg("procs %d: runtime_ns %llu", procs,
				 (unsigned long long)r.runtime_ns);
		assert_true(r.window_span_ns >= 1550 * MS);
		assert_true(r.iops > 0 && r.iops == (double)r.ops / (double)r.runtime_ns * 1e9);
		result_test_free(&r);
	}
	/* nothing stuck: nothing named, the window is the span */
	reset(NULL);
	tm.engine = engine_find("null");
	assert_int_equal(run(2, &r, err, sizeof(err)), 0);
	assert_int_equal(r.nstalls, 0);
	assert_true(r.window_span_ns == r.runtime_ns);
	result_test_free(&r);
}

/* A stop (the CLI's SIGINT flag) reaches job processes, which get no
 * terminal signals in their own sessions: a 5 s test ends soon after. */
static void test_procs_stop(void **state)
{
	struct test_result r;
	char err[256];
	pthread_t t;

	(void)state;
	stop_flag = 0;
	tm.procs = true;
	tm.runtime = 5000 * MS;
	tm.stop = &stop_flag;
	tm.engine = engine_find("null");
	assert_int_equal(__real_pthread_create(&t, NULL, raise_stop, NULL), 0);
	assert_int_equal(run(2, &r, err, sizeof(err)), 0);
	pthread_join(t, NULL);
	assert_true(r.ops > 0);
	assert_true(r.runtime_ns < 2000 * MS);
	result_test_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_busy, reset),
		cmocka_unit_test_setup(test_partial_submit, reset),
		cmocka_unit_test_setup(test_short_transfer, reset),
		cmocka_unit_test_setup(test_reap_error, reset),
		cmocka_unit_test_setup(test_thread_start_failure, reset),
		cmocka_unit_test_setup(test_timeline_points, reset),
		cmocka_unit_test_setup(test_timeline_ramp_jobs, reset),
		cmocka_unit_test_setup(test_timeline_bound, reset),
		cmocka_unit_test_setup(test_passes, reset),
		cmocka_unit_test_setup(test_syscalls, reset),
		cmocka_unit_test_setup(test_procs, reset),
		cmocka_unit_test_setup(test_procs_death, reset),
		cmocka_unit_test_setup(test_procs_stop, reset),
		cmocka_unit_test_setup(test_stall, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
