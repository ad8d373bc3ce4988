/* test_hang.c - a file test whose call never returns: the runner lets its job go and names the call. */
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
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "runner.h"
#include "workload.h"

#define MS 1000000ull

static volatile sig_atomic_t stop_flag;
static const volatile sig_atomic_t *hang_stop;

static void *raise_stop(void *arg)
{
	(void)arg;
	usleep(100000);
	stop_flag = 1;
	return NULL;
}

/*
 * A file test's fake workload: job hang_job's op blocks for ever (a call
 * that never returns) from its hang_at-th op on, or its init does
 * (hang_at 0); every job's clean-up takes slow_ms, saying where it is
 * every 20 ms. Its calls are "wait" on hang-<job> at the op's number.
 */
static unsigned hang_job, hang_at, slow_ms;

struct hang_state {
	uint64_t *at;
	unsigned job, n;
};

static void hang_forever(void)
{
	for (;;)
		pause();
}

static int hang_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	struct hang_state *st = wl_state_new(state, sizeof(*st), err, errlen);

	if (!st)
		return -ENOMEM;
	st->at = job->at;
	st->job = job->job;
	wl_at_set(st->at, 0, 0);
	if (!hang_at && job->job == hang_job)
		hang_forever();
	return 0;
}

static int64_t hang_op(void *arg)
{
	struct hang_state *st = arg;

	wl_at_set(st->at, 0, ++st->n);
	if (st->job == hang_job && st->n == hang_at)
		hang_forever();
	return 1;
}

static void hang_cleanup(void *arg)
{
	struct hang_state *st = arg;

	for (unsigned t = 0; st && t < slow_ms; t += 20) {
		wl_at_set(st->at, 1, t);
		usleep(20000);
	}
	free(st);
}

static void hang_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out)
{
	out->call = wl_at_call(at) ? "unlink" : "wait";
	snprintf(out->file, sizeof(out->file), "hang-%u", job->job);
	out->has_offset = true;
	out->offset = wl_at_arg(at);
}

static void hang_describe(const struct wl_job *job, struct wl_desc *d)
{
	(void)job;
	d->engine = "-";
	d->io_size = 1;
}

static const struct wl_ops hang_ops = {
	.init = hang_init, .op = hang_op, .cleanup = hang_cleanup,
	.describe = hang_describe, .name_at = hang_name_at, .unit = "op",
};

static const struct workload hang_wl = {
	.name = "hang", .desc = "a file test whose call never returns", .kind = WL_OPS,
	.ops = &hang_ops,
};

/* The fake file test, 2 job processes, 200 ms, --io-timeout 300 ms, in
 * the scratch directory /scratch: its time taken into *ms. */
static int run_hang(struct test_result *out, char *err, size_t errlen, uint64_t *ms)
{
	struct target_info ti = { .kind = TARGET_DIR };
	struct run_target where = { .ti = &ti, .data = { AT_FDCWD, "/dev/null" },
				    .scratch_fd = -1, .scratch = "/scratch" };
	struct test_spec spec = {
		.wl = &hang_wl, .bs = 1, .qd = 1, .jobs = 2, .procs = true,
		.runtime_ns = 200 * MS, .size = 1u << 20, .seed = 1, .stop = hang_stop,
		.io_timeout_ns = 300 * MS,
	};
	struct timespec a, b;
	int ret;

	alarm(10);
	clock_gettime(CLOCK_MONOTONIC, &a);
	ret = runner_run(&spec, &where, out, err, errlen);
	clock_gettime(CLOCK_MONOTONIC, &b);
	*ms = (uint64_t)(b.tv_sec - a.tv_sec) * 1000 + (uint64_t)(b.tv_nsec / 1000000) -
	      (uint64_t)(a.tv_nsec / 1000000);
	return ret;
}

/*
 * A file test whose job 1 never returns from its 50th op: the test ends
 * --io-timeout after its runtime (not at once, not never), stuck, the
 * call named with its file in the scratch directory, an ETIMEDOUT at its
 * offset; job 0 is whole. A clean-up that takes 1 s but goes on is no
 * hang, though longer than --io-timeout.
 */
static void test_file_hang(void **state)
{
	struct test_result r;
	char err[256] = "";
	uint64_t ms;

	(void)state;
	hang_job = 1;
	hang_at = 50;
	assert_int_equal(run_hang(&r, err, sizeof(err), &ms), 0);
	if (ms < 450 || ms > 1500)
		fail_msg("a file test hung: ended after %llu ms (200 ms + 300 ms)",
			 (unsigned long long)ms);
	assert_true(r.stuck);
	assert_int_equal(r.stuck_req.job, 1);
	assert_string_equal(r.stuck_call.call, "wait");
	assert_string_equal(r.stuck_call.path, "/scratch/hang-1");
	assert_int_equal(r.errors, 1);
	assert_int_equal(r.io_errors[0].err, ETIMEDOUT);
	assert_int_equal(r.io_errors[0].offset, 50);
	assert_true(r.ops > 49);
	result_test_free(&r);

	hang_job = 2;	/* none */
	slow_ms = 1000;
	assert_int_equal(run_hang(&r, err, sizeof(err), &ms), 0);
	assert_false(r.stuck);
	assert_int_equal(r.errors, 0);
	assert_true(ms >= 1100);
	result_test_free(&r);
	slow_ms = 0;
}

/* A file test's job stuck in its setup, on a target with no device
 * counters: let go once the user asks to stop (-EINTR within
 * --io-timeout), its call named. */
static void test_file_hang_setup(void **state)
{
	struct test_result r;
	char err[256] = "";
	uint64_t ms;
	pthread_t t;

	(void)state;
	stop_flag = 0;
	hang_stop = &stop_flag;
	hang_job = 0;
	hang_at = 0;
	assert_int_equal(pthread_create(&t, NULL, raise_stop, NULL), 0);
	assert_int_equal(run_hang(&r, err, sizeof(err), &ms), -EINTR);
	pthread_join(t, NULL);
	if (ms > 1000)
		fail_msg("a setup stuck, then stopped: ended after %llu ms", (unsigned long long)ms);
	assert_string_equal(err, "job 0's setup: a wait of /scratch/hang-0 did not complete "
			    "within 0.3 s (--io-timeout): the device hangs");
	assert_null(r.lat);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_file_hang),
		cmocka_unit_test(test_file_hang_setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
