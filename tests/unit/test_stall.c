/* test_stall.c - tests for the stall watch: which jobs stood still while others went on, when, for how long. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stall.h"

#define MS 1000000ull
#define SEC 1000000000ull

/* A script of readings every 100 ms: rate[i] is what job i completes per
 * reading while it runs; it completes nothing in [stop_at[i], go_at[i])
 * (ms) and its window closes at close_at[i] (0: never). */
struct script {
	unsigned n;
	uint64_t rate[4], stop_at[4], go_at[4], close_at[4];
};

static void play(struct stall_watch *w, const struct script *sc, uint64_t until_ms)
{
	uint64_t ops[4] = { 0 };

	assert_int_equal(stall_watch_init(w, sc->n, SEC, 0), 0);
	for (uint64_t t = 100; t <= until_ms; t += 100) {
		for (unsigned i = 0; i < sc->n; i++) {
			bool closed = sc->close_at[i] && t >= sc->close_at[i];

			if (!closed && !(t > sc->stop_at[i] && t <= sc->go_at[i]))
				ops[i] += sc->rate[i];
			w->in[i] = (struct stall_reading){ .ops = ops[i], .closed = closed,
							   .offset_valid = true,
							   .offset = 4096 * i + t };
		}
		stall_watch_read(w, t * MS);
	}
}

static void test_bound(void **state)
{
	(void)state;
	assert_true(stall_bound(0) == STALL_MIN_NS);
	assert_true(stall_bound(3 * SEC) == STALL_MIN_NS);
	assert_true(stall_bound(10 * SEC) == 10 * SEC / 4);
	assert_true(stall_bound(3600 * SEC) == STALL_MAX_NS);
}

/* Job 1 of 2 stops at 1 s for 5 s (as SIGSTOP does): one stall, from the
 * reading that saw its last progress to the last one before it went on,
 * with where it was while it stood still; none for job 0. */
static void test_one_stopped(void **state)
{
	struct script sc = { .n = 2, .rate = { 10, 10 }, .stop_at = { 0, 1000 },
			     .go_at = { 0, 6000 } };
	struct stall_watch w;

	(void)state;
	play(&w, &sc, 8000);
	assert_int_equal(w.nfound, 1);
	assert_int_equal(w.found[0].job, 1);
	assert_true(w.found[0].start_ns == 1000 * MS);
	assert_true(w.found[0].end_ns == 6000 * MS);
	assert_true(w.found[0].offset_valid);
	assert_true(w.found[0].offset == 4096 + 2000);	/* read once it stood still 1 s */
	/* what it covers of a window: clipped to the window */
	assert_true(stall_overlap(&w, 1, 0, 8000 * MS) == 5000 * MS);
	assert_true(stall_overlap(&w, 1, 3000 * MS, 8000 * MS) == 3000 * MS);
	assert_true(stall_overlap(&w, 1, 7000 * MS, 8000 * MS) == 0);
	assert_true(stall_overlap(&w, 0, 0, 8000 * MS) == 0);
	stall_watch_free(&w);
}

/* While it stands still, the progress line's figure: 0 until the bound,
 * then how long so far, and which job. */
static void test_now(void **state)
{
	struct script sc = { .n = 2, .rate = { 10, 10 }, .stop_at = { 0, 1000 },
			     .go_at = { 0, 6000 } };
	struct stall_watch w;
	unsigned job = 99;

	(void)state;
	play(&w, &sc, 1500);
	assert_true(stall_watch_now(&w, &job) == 0);
	stall_watch_free(&w);
	play(&w, &sc, 4000);
	assert_true(stall_watch_now(&w, &job) == 3000 * MS);
	assert_int_equal(job, 1);
	stall_watch_free(&w);
	play(&w, &sc, 8000);	/* over: nothing standing still now */
	assert_true(stall_watch_now(&w, &job) == 0);
	stall_watch_free(&w);
}

/* Every job stands still at once (the device, not a job): no job is named;
 * nor is a lone job; nor a gap shorter than the bound. */
static void test_not_stalls(void **state)
{
	struct script all = { .n = 3, .rate = { 5, 7, 9 }, .stop_at = { 1000, 1000, 1000 },
			      .go_at = { 4000, 4000, 4000 } };
	struct script lone = { .n = 1, .rate = { 5 }, .stop_at = { 1000 }, .go_at = { 4000 } };
	struct script brief = { .n = 2, .rate = { 5, 5 }, .stop_at = { 0, 1000 },
				.go_at = { 0, 1900 } };
	struct stall_watch w;

	(void)state;
	play(&w, &all, 6000);
	assert_int_equal(w.nfound, 0);
	stall_watch_free(&w);
	play(&w, &lone, 6000);
	assert_int_equal(w.nfound, 0);
	stall_watch_free(&w);
	play(&w, &brief, 6000);
	assert_int_equal(w.nfound, 0);
	stall_watch_free(&w);
}

/* A job whose window closed (its runtime or its passes done) stops being
 * watched: the others going on after it is no stall of its. */
static void test_closed(void **state)
{
	struct script sc = { .n = 2, .rate = { 10, 10 }, .close_at = { 0, 1500 } };
	struct stall_watch w;

	(void)state;
	play(&w, &sc, 8000);
	assert_int_equal(w.nfound, 0);
	stall_watch_free(&w);
}

/* Stopped before its window opened (ops 0 from the start): named too, from
 * the watch's start. And it ends once its count moves, even when its
 * window closes in the same reading. */
static void test_before_window(void **state)
{
	struct script sc = { .n = 2, .rate = { 10, 10 }, .stop_at = { 0, 0 },
			     .go_at = { 0, 3000 }, .close_at = { 0, 3100 } };
	struct stall_watch w;

	(void)state;
	play(&w, &sc, 5000);
	assert_int_equal(w.nfound, 1);
	assert_int_equal(w.found[0].job, 1);
	assert_true(w.found[0].start_ns == 0);
	assert_true(w.found[0].end_ns == 3000 * MS);
	stall_watch_free(&w);
}

/* More stalls than kept are counted. */
static void test_missed(void **state)
{
	struct stall_watch w;
	uint64_t ops[2] = { 0 };

	(void)state;
	assert_int_equal(stall_watch_init(&w, 2, SEC, 0), 0);
	/* job 1 stands still 1.5 s of every 2 s, 12 times */
	for (uint64_t t = 100; t <= 24000; t += 100) {
		ops[0]++;
		if (t % 2000 > 1500 || t % 2000 == 0)
			ops[1]++;
		w.in[0] = (struct stall_reading){ .ops = ops[0] };
		w.in[1] = (struct stall_reading){ .ops = ops[1] };
		stall_watch_read(&w, t * MS);
	}
	assert_int_equal(w.nfound, STALL_MAX);
	assert_true(w.missed >= 3);
	assert_false(w.found[0].offset_valid);
	stall_watch_free(&w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bound),
		cmocka_unit_test(test_one_stopped),
		cmocka_unit_test(test_now),
		cmocka_unit_test(test_not_stalls),
		cmocka_unit_test(test_closed),
		cmocka_unit_test(test_before_window),
		cmocka_unit_test(test_missed),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
