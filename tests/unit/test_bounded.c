/* test_bounded.c - a call in a watched child: its result back, or left once it stops making progress. */
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "bounded.h"
#include "clock.h"
#include "stop_later.h"

#define MS 1000000ull

/* A call: steps (each after step_ms), then hangs (pause: what a request
 * that never completes looks like from here) or returns ret with out. */
struct fake {
	unsigned steps, step_ms;
	bool hang, honour_stop, die;
	int ret;
};

static int fake_call(void *arg, const struct bounded_call *c, void *out)
{
	const struct fake *f = arg;

	for (unsigned i = 1; i <= f->steps; i++) {
		if (f->honour_stop && *c->stop)
			return -EINTR;
		usleep(f->step_ms * 1000);
		c->step(c->step_arg, i, f->steps);
	}
	if (f->die)
		raise(SIGKILL);
	while (f->hang)
		pause();
	snprintf(out, 16, "handed back");
	return f->ret;
}

static uint64_t seen_done, seen_total;
static unsigned seen_calls;

static void progress(void *arg, uint64_t done, uint64_t total)
{
	(void)arg;
	seen_done = done;
	seen_total = total;
	seen_calls++;
}

/* Its return and out come back; its steps are seen here as they come. */
static void test_returns(void **state)
{
	struct fake f = { .steps = 3, .step_ms = 30, .ret = -EIO };
	struct bounded b = { .bound_ns = 2000 * MS, .progress = progress };
	char out[16] = "";

	(void)state;
	seen_calls = 0;
	assert_int_equal(target_bounded(&b, fake_call, &f, out, sizeof(out)), -EIO);
	assert_true(b.returned);
	assert_string_equal(out, "handed back");
	assert_true(seen_calls >= 1);
	assert_true(seen_done >= 1 && seen_total == 3);
	assert_int_equal(b.done, 3);
	assert_int_equal(b.total, 3);
}

/* One that hangs after two steps is left after the bound, not before,
 * and says where it was. */
static void test_hangs(void **state)
{
	struct fake f = { .steps = 2, .step_ms = 10, .hang = true };
	struct bounded b = { .bound_ns = 200 * MS };
	char out[16] = "untouched";
	uint64_t t0 = clock_ns(), took;

	(void)state;
	assert_int_equal(target_bounded(&b, fake_call, &f, out, sizeof(out)), -ETIMEDOUT);
	took = clock_ns() - t0;
	assert_false(b.returned);
	assert_true(took >= 200 * MS && took < 1500 * MS);
	assert_int_equal(b.done, 2);
	assert_int_equal(b.total, 2);
	assert_string_equal(out, "untouched");
}

/* A slow call that keeps moving is waited for well past the bound. */
static void test_slow_moves_on(void **state)
{
	struct fake f = { .steps = 8, .step_ms = 80 };
	struct bounded b = { .bound_ns = 200 * MS };
	char out[16];
	uint64_t t0 = clock_ns();

	(void)state;
	assert_int_equal(target_bounded(&b, fake_call, &f, out, sizeof(out)), 0);
	assert_true(clock_ns() - t0 >= 600 * MS);
	assert_int_equal(b.done, 8);
}

/* A stop is relayed: a call that heeds it ends with its -EINTR at once;
 * one that cannot (it hangs) is left within the bound of the stop, even
 * while it still moves. */
static void test_stop(void **state)
{
	struct fake heeds = { .steps = 1000, .step_ms = 5, .honour_stop = true };
	struct fake hangs = { .steps = 1000, .step_ms = 5 };
	struct bounded b = { .bound_ns = 300 * MS, .stop = &stop_flag };
	char out[16];
	pthread_t t;
	uint64_t t0;

	(void)state;
	stop_flag = 0;
	assert_int_equal(pthread_create(&t, NULL, raise_stop, NULL), 0);
	t0 = clock_ns();
	assert_int_equal(target_bounded(&b, fake_call, &heeds, out, sizeof(out)), -EINTR);
	assert_true(b.returned);
	assert_true(clock_ns() - t0 < 300 * MS);
	pthread_join(t, NULL);

	stop_flag = 0;
	assert_int_equal(pthread_create(&t, NULL, raise_stop, NULL), 0);
	t0 = clock_ns();
	assert_int_equal(target_bounded(&b, fake_call, &hangs, out, sizeof(out)), -EINTR);
	assert_false(b.returned);
	assert_true(clock_ns() - t0 >= 400 * MS && clock_ns() - t0 < 2000 * MS);
	pthread_join(t, NULL);
}

/* A child killed by someone else did not return: nothing it said counts. */
static void test_dies(void **state)
{
	struct fake f = { .steps = 1, .step_ms = 1, .die = true };
	struct bounded b = { .bound_ns = 2000 * MS };
	char out[16] = "untouched";

	(void)state;
	assert_int_equal(target_bounded(&b, fake_call, &f, out, sizeof(out)), -ECHILD);
	assert_false(b.returned);
	assert_string_equal(out, "untouched");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_returns),
		cmocka_unit_test(test_hangs),
		cmocka_unit_test(test_slow_moves_on),
		cmocka_unit_test(test_stop),
		cmocka_unit_test(test_dies),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
