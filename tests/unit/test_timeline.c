/* test_timeline.c - the timeline's interval rule, its points from snapshots, merging and drift. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "annotate.h"
#include "timeline.h"

#define MS 1000000ull
#define SEC 1000000000ull

static void test_interval_rule(void **state)
{
	static const struct {
		uint64_t requested, runtime, want;
	} rows[] = {
		{ 0, 5 * SEC, 500 * MS },	/* short: a tenth of the runtime */
		{ 0, 2 * SEC, 200 * MS },
		{ 0, 500 * MS, 100 * MS },	/* ... at least 100 ms */
		{ 0, 1 * MS, 100 * MS },
		{ 0, 10 * SEC, 1 * SEC },	/* 10 s and up: 1 s */
		{ 0, 600 * SEC, 1 * SEC },	/* 10 minutes: 600 points */
		{ 0, 1023 * SEC, 1 * SEC },	/* 1023 points still fit */
		{ 0, 1024 * SEC, 2 * SEC },	/* 1024 would merge: doubled */
		{ 0, 86400 * SEC, 128 * SEC },	/* a day: 675 points */
		{ 200 * MS, 2 * SEC, 200 * MS },	/* --interval is taken as given */
		{ 10 * MS, 5 * SEC, 10 * MS },
		{ 10 * MS, 60 * SEC, 80 * MS },	/* ... but doubled to fit */
		{ 5 * SEC, 2 * SEC, 5 * SEC },	/* longer than the test: one point */
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		uint64_t got = timeline_interval(rows[i].requested, rows[i].runtime);

		if (got != rows[i].want)
			fail_msg("row %zu: interval %llu, want %llu", i, (unsigned long long)got,
				 (unsigned long long)rows[i].want);
		assert_true((rows[i].runtime + got - 1) / got < TIMELINE_MAX_POINTS);
	}
}

/* ---- a simulated run: a cumulative histogram fed point by point --------- */

struct sim {
	struct hist *cum;
	uint64_t ops, bytes;
	struct timeline_rec rec;
};

static void sim_init(struct sim *s, uint64_t interval)
{
	memset(s, 0, sizeof(*s));
	s->cum = malloc(sizeof(*s->cum));
	assert_non_null(s->cum);
	hist_init(s->cum);
	assert_int_equal(timeline_rec_init(&s->rec, interval), 0);
}

/* n I/Os of lat ns each, of bs bytes */
static void sim_io(struct sim *s, uint64_t n, uint64_t lat, uint64_t bs)
{
	for (uint64_t i = 0; i < n; i++)
		hist_add(s->cum, lat);
	s->ops += n;
	s->bytes += n * bs;
}

/* a live-style snapshot: counts only, as the runner takes them */
static void sim_point(struct sim *s, uint64_t t)
{
	struct hist *snap = malloc(sizeof(*snap));

	assert_non_null(snap);
	hist_init(snap);
	hist_merge_live(snap, s->cum);
	timeline_rec_add(&s->rec, t, s->ops, s->bytes, snap);
	free(snap);
}

static void sim_finish(struct sim *s, uint64_t close, uint64_t start, struct timeline *out)
{
	timeline_rec_finish(&s->rec, close, start, s->ops, s->bytes, s->cum, out);
	free(s->cum);
}

static void check_sums(const struct timeline *tl, uint64_t ops, uint64_t bytes)
{
	uint64_t o = 0, b = 0, prev = 0;

	for (unsigned i = 0; i < tl->n; i++) {
		o += tl->p[i].ops;
		b += tl->p[i].bytes;
		if (i)
			assert_true(tl->p[i].t_ns > prev);
		prev = tl->p[i].t_ns;
	}
	assert_int_equal(o, ops);
	assert_int_equal(b, bytes);
}

/* Ten intervals of 100 ms: ten points, each with its own ops and its own
 * latency, the last up to the close; the sums are the run's. */
static void test_points(void **state)
{
	struct timeline tl;
	struct sim s;
	uint64_t t;

	(void)state;
	sim_init(&s, 100 * MS);
	for (t = 1; t <= 9; t++) {
		sim_io(&s, 100 * t, 10000 * t, 4096);
		sim_point(&s, t * 100 * MS + 37000);	/* the sampler wakes a bit late */
		assert_int_equal(s.rec.next_ns, (t + 1) * 100 * MS);
	}
	sim_io(&s, 1000, 100000, 4096);
	sim_finish(&s, 1000 * MS + 120000, 0, &tl);

	assert_int_equal(tl.n, 10);
	assert_int_equal(tl.interval_ns, 100 * MS);
	assert_int_equal(tl.merges, 0);
	check_sums(&tl, s.ops, s.bytes);
	assert_int_equal(tl.p[9].t_ns, 1000 * MS + 120000);
	for (unsigned i = 0; i < 10; i++) {
		uint64_t lat = 10000 * (i + 1);

		assert_int_equal(tl.p[i].ops, 100 * (i + 1));
		/* one latency per interval: every figure is that one, at the
		 * histogram's resolution; the run's min and max are exact */
		assert_true(fabs((double)tl.p[i].lat_p50_ns - (double)lat) <=
			    (double)lat * HIST_MAX_REL_ERROR);
		assert_true(fabs((double)tl.p[i].lat_p99_ns - (double)lat) <=
			    (double)lat * HIST_MAX_REL_ERROR);
		assert_true(fabs((double)tl.p[i].lat_max_ns - (double)lat) <=
			    (double)lat * HIST_MAX_REL_ERROR);
		assert_true(tl.p[i].lat_p50_ns >= 10000 && tl.p[i].lat_max_ns <= 100000);
	}
	timeline_free(&tl);
}

/* Points that end before the window opened hold nothing and go; the rest
 * count from the window's start. An interval with no I/O has 0 latency. */
static void test_rebase(void **state)
{
	struct timeline tl;
	struct sim s;

	(void)state;
	sim_init(&s, 100 * MS);
	sim_point(&s, 100 * MS);	/* before the window (start at 250 ms) */
	sim_point(&s, 200 * MS);
	sim_io(&s, 10, 5000, 512);
	sim_point(&s, 300 * MS);
	sim_point(&s, 400 * MS);	/* nothing completed: a stall */
	sim_io(&s, 10, 7000, 512);
	sim_finish(&s, 480 * MS, 250 * MS, &tl);
	assert_int_equal(tl.n, 3);
	assert_int_equal(tl.p[0].t_ns, 50 * MS);
	assert_int_equal(tl.p[1].t_ns, 150 * MS);
	assert_int_equal(tl.p[2].t_ns, 230 * MS);
	assert_int_equal(tl.p[1].ops, 0);
	assert_int_equal(tl.p[1].lat_p50_ns, 0);
	assert_int_equal(tl.p[1].lat_max_ns, 0);
	check_sums(&tl, 20, 20 * 512);
	timeline_free(&tl);

	/* a window that closed at its last point: what is left joins it */
	sim_init(&s, 100 * MS);
	sim_io(&s, 5, 5000, 512);
	sim_point(&s, 100 * MS);
	sim_io(&s, 3, 9000, 512);
	sim_finish(&s, 100 * MS, 0, &tl);
	assert_int_equal(tl.n, 1);
	check_sums(&tl, 8, 8 * 512);
	assert_int_equal(tl.p[0].lat_max_ns, 9000);
	timeline_free(&tl);

	/* ... or before it (a stop the sampler had not seen yet): the point
	 * ends where the window did */
	sim_init(&s, 100 * MS);
	sim_io(&s, 5, 5000, 512);
	sim_point(&s, 100 * MS);
	sim_io(&s, 5, 5000, 512);
	sim_point(&s, 200 * MS);
	sim_finish(&s, 199 * MS, 0, &tl);
	assert_int_equal(tl.n, 2);
	assert_int_equal(tl.p[1].t_ns, 199 * MS);
	check_sums(&tl, 10, 10 * 512);
	timeline_free(&tl);

	/* never opened: no points, the interval still says what it was */
	sim_init(&s, 100 * MS);
	sim_finish(&s, 0, 0, &tl);
	assert_int_equal(tl.n, 0);
	assert_null(tl.p);
	assert_int_equal(tl.interval_ns, 100 * MS);
	timeline_free(&tl);
}

/* A window far longer than planned: the points never pass the bound,
 * merging keeps every op and byte and the largest latencies, and each
 * merge doubles the interval. */
static void test_merge_bound(void **state)
{
	const uint64_t iv = 10 * MS, total = 5000;
	struct timeline tl;
	struct sim s;
	uint64_t t, worst_p99 = 0, max_lat = 0;

	(void)state;
	sim_init(&s, iv);
	for (t = 1; s.rec.next_ns < total * iv; t++) {
		uint64_t lat = 1000 + (t * 7919) % 100000;

		sim_io(&s, t % 13, lat, 4096);
		if (t % 13 && lat > max_lat)
			max_lat = lat;
		sim_point(&s, s.rec.next_ns);
		assert_true(s.rec.tl.n < TIMELINE_MAX_POINTS);
	}
	sim_io(&s, 3, 50, 4096);
	sim_finish(&s, total * iv, 0, &tl);
	assert_true(tl.n < TIMELINE_MAX_POINTS);
	assert_true(tl.n > TIMELINE_MAX_POINTS / 4);
	assert_int_equal(tl.merges, 3);		/* 5000 -> 625 points of 8 intervals */
	assert_int_equal(tl.interval_ns, iv << tl.merges);
	check_sums(&tl, s.ops, s.bytes);
	assert_int_equal(tl.p[tl.n - 1].t_ns, total * iv);
	for (unsigned i = 0; i < tl.n; i++) {
		assert_true(tl.p[i].lat_p50_ns <= tl.p[i].lat_p99_ns);
		assert_true(tl.p[i].lat_p99_ns <= tl.p[i].lat_max_ns);
		assert_true(tl.p[i].lat_max_ns <= max_lat);
		if (tl.p[i].lat_p99_ns > worst_p99)
			worst_p99 = tl.p[i].lat_p99_ns;
		/* every full merged point covers 8 intervals */
		if (i && i + 1 < tl.n)
			assert_int_equal(tl.p[i].t_ns - tl.p[i - 1].t_ns, tl.interval_ns);
	}
	assert_true(fabs((double)worst_p99 - (double)max_lat) <= max_lat * HIST_MAX_REL_ERROR);
	timeline_free(&tl);
}

/* ---- drift ------------------------------------------------------------------- */

/* A timeline of n points of iv ns with the given bytes per point. */
static struct timeline synth(const uint64_t *bytes, unsigned n, uint64_t iv, uint64_t last_dur)
{
	struct timeline tl = { .interval_ns = iv, .n = n };

	tl.p = calloc(n, sizeof(*tl.p));
	assert_non_null(tl.p);
	for (unsigned i = 0; i < n; i++) {
		tl.p[i].t_ns = (i + 1) * iv;
		tl.p[i].ops = bytes[i] / 4096;
		tl.p[i].bytes = bytes[i];
	}
	if (last_dur)
		tl.p[n - 1].t_ns = (n - 1) * iv + last_dur;
	return tl;
}

static void check_drift(const uint64_t *bytes, unsigned n, uint64_t last_dur, bool valid,
			double want)
{
	struct timeline tl = synth(bytes, n, SEC, last_dur);
	double change = NAN;
	bool got = timeline_drift(&tl, &change);

	if (got != valid)
		fail_msg("%u points: drift %s, want %s", n, got ? "given" : "none",
			 valid ? "given" : "none");
	if (valid && fabs(change - want) > 1e-9)
		fail_msg("%u points: change %g, want %g", n, change, want);
	timeline_free(&tl);
}

static void test_drift(void **state)
{
	static const uint64_t flat[] = { 100, 102, 98, 101, 99, 100, 100, 104, 97 };
	/* a write cache filling up: 400 MB/s, then 100 */
	static const uint64_t fall[] = { 400, 410, 390, 400, 250, 100, 100, 105, 95 };
	static const uint64_t rise[] = { 100, 100, 100, 150, 150, 150, 200, 200, 200 };
	/* one outlier per third changes no median */
	static const uint64_t spike[] = { 100, 900, 100, 100, 100, 100, 100, 5, 100 };
	/* the last point is a sliver with almost nothing in it */
	static const uint64_t sliver[] = { 100, 100, 100, 100, 100, 100, 1 };
	static const uint64_t stalled[] = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint64_t wakes[] = { 0, 0, 0, 0, 0, 0, 9, 9, 9 };
	uint64_t none[9] = { 0 };

	(void)state;
	check_drift(flat, 9, 0, true, 0);
	check_drift(flat, 8, 0, true, 102.0 / 101 - 1);
	check_drift(fall, 9, 0, true, 100.0 / 400 - 1);
	check_drift(rise, 9, 0, true, 200.0 / 100 - 1);
	check_drift(spike, 9, 0, true, 0);
	/* too short to tell: 5 points; 6 is enough */
	check_drift(fall, 5, 0, false, 0);
	check_drift(rise, 6, 0, true, 150.0 / 100 - 1);
	/* a partial last interval (0.1 s of 1 s) is left out ... */
	check_drift(sliver, 7, SEC / 10, true, 0);
	/* ... leaving 5 of 6: too short */
	check_drift(sliver, 6, SEC / 10, false, 0);
	/* a last interval of 95 % is whole */
	check_drift(rise, 6, SEC * 95 / 100, true, (150 + 150 / 0.95) / 2 / 100 - 1);
	check_drift(stalled, 9, 0, true, 0);
	check_drift(wakes, 9, 0, false, 0);
	/* a test that moves no bytes (meta-*): its ops per second */
	{
		struct timeline tl = synth(none, 9, SEC, 0);
		double change = 0;

		for (unsigned i = 0; i < 9; i++)
			tl.p[i].ops = i < 3 ? 1000 : 500;
		assert_true(timeline_drift(&tl, &change));
		assert_true(fabs(change + 0.5) < 1e-9);
		/* not a timeline: time going back */
		tl.p[4].t_ns = tl.p[2].t_ns;
		assert_false(timeline_drift(&tl, &change));
		timeline_free(&tl);
	}
	{
		struct timeline empty = { 0 };
		double change = 0;

		assert_false(timeline_drift(&empty, &change));
	}
}

/* A test's drift is its runs' that changed most, flagged beyond 20 %, and
 * said in a warning naming the run. */
static void test_result_drift(void **state)
{
	static const uint64_t flat[] = { 100, 100, 100, 100, 100, 100, 100, 100, 100 };
	static const uint64_t fall[] = { 400, 400, 400, 300, 200, 100, 100, 100, 100 };
	static const uint64_t mild[] = { 100, 100, 100, 105, 110, 110, 115, 115, 115 };
	struct run_result r = { 0 };
	struct test_result t = { 0 };
	bool found = false;

	(void)state;
	t.runs = calloc(4, sizeof(*t.runs));
	assert_non_null(t.runs);
	t.nruns = 4;
	t.runs[0].timeline = synth(flat, 9, SEC, 0);
	t.runs[1].timeline = synth(fall, 9, SEC, 0);
	t.runs[2].timeline = synth(fall, 4, SEC, 0);	/* too short */
	t.runs[3].timeline = synth(mild, 9, SEC, 0);
	result_drift(&t);
	assert_true(t.drift_valid);
	assert_true(t.drifted);
	assert_int_equal(t.drift_run, 1);
	assert_true(fabs(t.drift + 0.75) < 1e-9);
	assert_true(t.runs[0].drift_valid && t.runs[3].drift_valid);
	assert_false(t.runs[2].drift_valid);
	assert_true(fabs(t.runs[3].drift - 0.15) < 1e-9);

	snprintf(t.name, sizeof(t.name), "seq-write 1m");
	assert_int_equal(result_add_test(&r, &t), 0);
	result_annotate(&r, &(struct annotate_in){ 0 });
	for (unsigned i = 0; i < r.nwarnings; i++)
		found |= strstr(r.warnings[i], "seq-write 1m (fell 75 % in run 2 of 4): "
				"throughput moved") != NULL;
	assert_true(found);

	/* 15 % is not a drift; the same timelines without runs[1] and [2] */
	timeline_free(&r.tests[0].runs[1].timeline);
	r.tests[0].runs[1].timeline = synth(mild, 9, SEC, 0);
	result_drift(&r.tests[0]);
	assert_true(r.tests[0].drift_valid);
	assert_false(r.tests[0].drifted);
	result_free(&r);

	/* no runs (a result built by hand): the test's own timeline */
	memset(&t, 0, sizeof(t));
	t.timeline = synth(fall, 9, SEC, 0);
	result_drift(&t);
	assert_true(t.drifted);
	timeline_free(&t.timeline);
	result_drift(&t);
	assert_false(t.drift_valid);
	assert_false(t.drifted);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_interval_rule),
		cmocka_unit_test(test_points),
		cmocka_unit_test(test_rebase),
		cmocka_unit_test(test_merge_bound),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_result_drift),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
