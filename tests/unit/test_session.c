/* test_session.c - session_run over the null engine: passes in plan order,
 * rounds within their bound, and which runs a stop keeps. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "session.h"

#define MS 1000000ull

/* One session's fixture: a plan of two tests on /dev/null, and what the
 * hooks saw. */
static struct fix {
	struct plan plan;
	struct stage stage;
	struct target_info ti;
	struct run_result r;
	struct session_in in;
	volatile sig_atomic_t stop;
	unsigned tested[16], ntested;	/* i of each run kept, in order */
	unsigned begun;
	int stop_at_begin;		/* raise stop when this many began; -1 never */
	int stop_at_tested;		/* likewise, when this many were kept */
} f;

static void begin(void *arg, const struct session_at *at)
{
	(void)arg;
	(void)at;
	if ((int)++f.begun == f.stop_at_begin)
		f.stop = 1;
}

static int tested(void *arg, unsigned i, const struct test_result *tr)
{
	(void)arg;
	assert_true(tr->name[0] != '\0');
	if (f.ntested < 16)
		f.tested[f.ntested] = i;
	if ((int)++f.ntested == f.stop_at_tested)
		f.stop = 1;
	return 0;
}

static const struct session_hooks hooks = { .begin = begin, .tested = tested };

static void spec(struct test_spec *t, const char *wl)
{
	*t = (struct test_spec){ .wl = wl_find(wl), .engine = engine_find("null"), .bs = 4096,
				 .qd = 1, .jobs = 1, .runtime_ns = 5 * MS, .size = 1u << 20,
				 .seed = 1 };
	assert_non_null(t->wl);
	assert_non_null(t->engine);
}

static int setup(void **state)
{
	(void)state;
	memset(&f, 0, sizeof(f));
	f.ti.kind = TARGET_FILE;
	snprintf(f.ti.path, sizeof(f.ti.path), "/dev/null");
	f.ti.logical_block_size = 512;
	f.stage = (struct stage){ .where = { .ti = &f.ti, .data = { AT_FDCWD, "/dev/null" },
					     .scratch_fd = -1 },
				  .claim = -1 };
	spec(&f.plan.specs[0], "rand-read");
	spec(&f.plan.specs[1], "seq-read");
	f.plan.n = 2;
	f.in = (struct session_in){ .plan = &f.plan, .stage = &f.stage,
				    .e = engine_find("null"), .ti = &f.ti, .r = &f.r,
				    .repeat = 1, .keep_cut = true, .check_unwritten = true,
				    .layout_fd = -1, .stop = &f.stop };
	f.stop_at_begin = f.stop_at_tested = -1;
	alarm(20);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	result_free(&f.r);
	return 0;
}

/* --repeat 3: pass after pass, each test once per pass, in plan order. */
static void test_passes(void **state)
{
	struct session_end end;

	(void)state;
	f.in.repeat = 3;
	assert_int_equal(session_run(&f.in, &hooks, &end), 0);
	assert_int_equal(end.npass, 3);
	assert_int_equal(f.r.ntests, 2);
	assert_int_equal(f.r.tests[0].nruns, 3);
	assert_int_equal(f.r.tests[1].nruns, 3);
	assert_int_equal(f.ntested, 6);
	for (unsigned k = 0; k < 6; k++)
		assert_int_equal(f.tested[k], k % 2);
	/* the null engine moves no data: the unwritten check says so */
	assert_true(f.r.tests[0].unwritten.applies);
	assert_false(f.r.tests[0].unwritten.checked);
}

/* A stop between tests keeps every whole run, and says where it was. */
static void test_stop_between(void **state)
{
	struct session_end end;

	(void)state;
	f.in.repeat = 3;
	f.stop_at_tested = 3;		/* after test 0 of pass 2 */
	assert_int_equal(session_run(&f.in, &hooks, &end), -EINTR);
	assert_int_equal(end.pass, 2);
	assert_int_equal(end.done, 1);
	assert_false(end.cut);
	assert_int_equal(f.r.tests[0].nruns, 2);
	assert_int_equal(f.r.tests[1].nruns, 1);
}

/* A run cut short after pass 1 would skew the median: dropped. */
static void test_cut_later_dropped(void **state)
{
	struct session_end end;

	(void)state;
	f.in.repeat = 3;
	f.stop_at_begin = 4;		/* test 1 of pass 2 starts stopped */
	assert_int_equal(session_run(&f.in, &hooks, &end), -EINTR);
	assert_true(end.cut);
	assert_false(end.cut_kept);
	assert_int_equal(end.cur, 1);
	assert_int_equal(f.r.tests[0].nruns, 2);
	assert_int_equal(f.r.tests[1].nruns, 1);
	assert_int_equal(f.ntested, 3);
}

/* In pass 1 a cut run is the test's only one: kept, unless told not to. */
static void test_cut_first(void **state)
{
	struct session_end end;

	(void)state;
	f.stop_at_begin = 1;
	assert_int_equal(session_run(&f.in, &hooks, &end), -EINTR);
	assert_true(end.cut);
	if (end.cut_in_setup) {		/* stopped before it measured: nothing to keep */
		assert_int_equal(f.r.ntests, 0);
		return;
	}
	assert_true(end.cut_kept);
	assert_int_equal(f.r.ntests, 1);
	assert_int_equal(f.r.tests[0].nruns, 1);
	assert_int_equal(end.done, 1);
}

static void test_cut_first_not_kept(void **state)
{
	struct session_end end;

	(void)state;
	f.in.keep_cut = false;
	f.stop_at_begin = 1;
	assert_int_equal(session_run(&f.in, &hooks, &end), -EINTR);
	assert_true(end.cut);
	assert_false(end.cut_kept);
	assert_int_equal(f.r.ntests, 0);
	assert_int_equal(f.ntested, 0);
}

/* --steady-state: rounds of each test within max_rounds, the rounds its
 * runs, one test after the other. */
static void test_rounds(void **state)
{
	struct session_end end;

	(void)state;
	f.in.steady_state = true;
	f.in.max_rounds = 5;
	f.in.round_ns = 2 * MS;
	assert_int_equal(session_run(&f.in, &hooks, &end), 0);
	assert_int_equal(end.npass, 5);
	assert_int_equal(f.r.ntests, 2);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(f.plan.specs[i].runtime_ns, 2 * MS);
		assert_int_equal(f.r.tests[i].steady_max_rounds, 5);
		assert_in_range(f.r.tests[i].nruns, 1, 5);
	}
	/* each test's rounds are back to back */
	for (unsigned k = 1; k < f.ntested; k++)
		assert_true(f.tested[k] >= f.tested[k - 1]);
}

/* No result kept (tune's trials): each run goes to tested, then away. */
static void test_no_result(void **state)
{
	struct session_end end;

	(void)state;
	f.in.r = NULL;
	assert_int_equal(session_run(&f.in, &hooks, &end), 0);
	assert_int_equal(f.ntested, 2);
	assert_int_equal(end.done, 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_passes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stop_between, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cut_later_dropped, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cut_first, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cut_first_not_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rounds, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_result, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
