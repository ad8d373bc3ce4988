/* sampler.c - the runner's own thread while a test runs: the timeline, the stall watch, progress. */
#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include "clock.h"
#include "jobs.h"
#include "sampler.h"
#include "worker.h"

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
		/* where it was: what it published (worker.h), UINT64_MAX none */
		r->offset = __atomic_load_n(&ws[i].at, __ATOMIC_RELAXED);
		r->offset_valid = r->offset != UINT64_MAX;
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
	out->io_timeout_ns = sw->slow_ns;
	out->slow_missed = sw->slow_missed;
	for (unsigned k = 0; k < sw->nslow && k < RESULT_MAX_STALLS; k++) {
		const struct stall *st = &sw->slow[k];

		out->slow[out->nslow++] = (struct result_stall){
			.job = st->job,
			.start_ns = st->start_ns > first ? st->start_ns - first : 0,
			.ns = st->end_ns - st->start_ns,
			.offset_valid = st->offset_valid, .offset = st->offset };
	}
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
	if (sm && sm->stalls.jobs) {
		struct stall slow;

		p.stalled_ns = stall_watch_now(&sm->stalls, &p.stalled_job);
		if (stall_watch_slow(&sm->stalls, &slow)) {
			p.slow_ns = slow.end_ns - slow.start_ns;
			p.slow_job = slow.job;
			p.slow_offset = slow.offset_valid ? slow.offset : UINT64_MAX;
		}
	}
	spec->progress(spec->progress_arg, &p);
}

void sampler_wait(const struct test_spec *spec, struct worker *ws, unsigned n,
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

bool sampler_wait_setup(const struct test_spec *spec, struct worker *ws, unsigned n,
			struct run_shared *rs, struct jobs_hang *hang)
{
	uint64_t next = clock_ns() + 500000000u;

	while (!gate_wait_ready(&rs->gate, n, 100000000u)) {
		/* stopped: the jobs give up their setup, or are stuck */
		if (jobs_watch(spec, ws, n, rs) && hang && hang->from == UINT64_MAX)
			jobs_hang_from(hang, clock_ns());
		if (__atomic_load_n(&rs->finished, __ATOMIC_ACQUIRE))
			break;	/* a job process that is gone never arrives */
		if (hang && jobs_hung(hang, spec, ws, n))
			return false;
		if (clock_ns() >= next) {
			next = clock_ns() + 500000000u;
			report_work(spec, ws, n, RUNNER_SETUP);
		}
	}
	return true;
}

bool sampler_wait_teardown(const struct test_spec *spec, struct worker *ws, unsigned n,
			   struct run_shared *rs, struct jobs_hang *hang)
{
	uint64_t next = clock_ns() + 20000000u;	/* said at once when it lasts */

	for (;;) {
		unsigned left = 0;

		jobs_watch(spec, ws, n, rs);	/* a job process may be gone */
		for (unsigned i = 0; i < n; i++)
			left += !ws[i].abandoned;	/* (let go in its setup) */
		if (__atomic_load_n(&rs->finished, __ATOMIC_ACQUIRE) >= left)
			return true;
		if (jobs_hung(hang, spec, ws, n))
			return false;
		sleep_until(clock_ns() + 20000000u);
		if (clock_ns() >= next) {
			next = clock_ns() + 500000000u;
			report_work(spec, ws, n, RUNNER_TEARDOWN);
		}
	}
}

/* A window closes at the first completion after the runtime, later still
 * for a drop-behind writer, which flushes inside it. */
void sampler_wait_windows(const struct test_spec *spec, struct worker *ws, unsigned n,
			  struct run_shared *rs, struct sampler *sm, struct jobs_hang *hang)
{
	uint64_t next_report = clock_ns() + 500000000u, now;

	for (;;) {
		unsigned open = 0;

		for (unsigned i = 0; i < n; i++)
			if (!__atomic_load_n(&ws[i].t_end, __ATOMIC_ACQUIRE))
				open++;
		if (jobs_watch(spec, ws, n, rs) || !open ||
		    __atomic_load_n(&rs->finished, __ATOMIC_ACQUIRE) == n ||
		    jobs_hung(hang, spec, ws, n))
			break;
		sleep_until(clock_ns() + 1000000u);
		now = clock_ns();
		sampler_poll(sm, spec, ws, n, now);
		watch_stalls(sm, ws, n, now, false);
		if (spec->progress && now >= next_report) {
			next_report = now + 500000000u;
			report_run(spec, ws, n, rs->t0, now, sm);
		}
	}
	/* a job that went on just before its window closed ends its stall */
	watch_stalls(sm, ws, n, clock_ns(), true);
}

/* The last point, where the last window closed, from the final figures;
 * the timeline moves to out, counted from the first window's opening. */
static void finish_timeline(struct sampler *sm, const struct worker *ws, unsigned n,
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

void sampler_finish(struct sampler *sm, const struct worker *ws, unsigned n,
		    struct test_result *out)
{
	finish_timeline(sm, ws, n, out);
	stalls_out(sm, ws, n, out);
}

int sampler_init(struct sampler *sm, const struct test_spec *spec)
{
	*sm = (struct sampler){ .runtime = spec->runtime_ns };
	sm->cur = malloc(sizeof(*sm->cur));
	if (!sm->cur || timeline_rec_init(&sm->rec, spec_interval(spec))) {
		free(sm->cur);
		sm->cur = NULL;
		return -ENOMEM;
	}
	return 0;
}

void sampler_start(struct sampler *sm, const struct test_spec *spec, unsigned n,
		   uint64_t origin)
{
	sm->origin = origin;
	/* no memory for the watch: nothing is watched (sm->stalls.jobs) */
	(void)stall_watch_init(&sm->stalls, n, stall_bound(spec->runtime_ns), origin);
	sm->stalls.slow_ns = spec->io_timeout_ns;
	sm->next_read = origin;
}

void sampler_free(struct sampler *sm)
{
	timeline_rec_free(&sm->rec);	/* nothing left after finish */
	stall_watch_free(&sm->stalls);
	free(sm->cur);
	sm->cur = NULL;
}
