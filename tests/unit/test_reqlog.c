/* test_reqlog.c - the per-request log (--lat-log) against the histogram of the same run: the
 * window's requests are the histogram's samples, one for one; slots, phases, the cap. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "hist.h"
#include "reqlog.h"
#include "runner.h"

#define MS 1000000ull
#define QD 4

/* rand-read 4k QD4 of jobs jobs on /dev/null with the null engine, into l:
 * a window of runtime after ramp. */
static int run(struct reqlog *l, unsigned jobs, bool procs, uint64_t ramp, uint64_t runtime,
	       struct test_result *out)
{
	struct target_info ti = { .kind = TARGET_FILE };
	struct run_target where = { .ti = &ti, .data = { AT_FDCWD, "/dev/null" },
				    .scratch_fd = -1 };
	struct test_spec spec = {
		.wl = wl_find("rand-read"),
		.engine = engine_find("null"),
		.bs = 4096,
		.qd = QD,
		.jobs = jobs,
		.procs = procs,
		.runtime_ns = runtime,
		.ramp_ns = ramp,
		.size = 1u << 20,
		.seed = 1,
		.reqlog = l,
		.reqlog_max = l->cap,
	};
	char err[256];

	assert_non_null(spec.wl);
	assert_non_null(spec.engine);
	alarm(10);
	return runner_run(&spec, &where, out, err, sizeof(err));
}

/* Each job's entries: phases in order (ramp, window, after), slots within
 * QD, each slot's requests one after another; the window's into h. */
static void check_job(const struct reqlog_job *j, struct hist *h, uint64_t *window)
{
	uint64_t last_done[QD] = { 0 };
	uint8_t phase = REQLOG_RAMP;

	for (uint64_t k = 0; k < j->n; k++) {
		const struct reqlog_entry *e = &j->e[k];

		assert_true(e->phase >= phase);
		phase = e->phase;
		assert_true(e->slot < QD);
		assert_int_equal(e->dir, IO_READ);
		assert_int_equal(e->result, 4096);
		assert_int_equal(e->offset % 4096, 0);
		assert_true(e->offset < (1u << 20));
		assert_true(e->complete_ns >= e->submit_ns);
		/* a slot is submitted again only once its request is back */
		assert_true(e->submit_ns >= last_done[e->slot]);
		last_done[e->slot] = e->complete_ns;
		if (e->phase == REQLOG_WINDOW) {
			hist_add(h, e->complete_ns - e->submit_ns);
			(*window)++;
		}
	}
}

/* The window's entries are the histogram's samples: the same counts in
 * every bucket, the same sum, min and max. The null engine does some 40M
 * requests a second per job here, and a ramp lasts until the sampler has
 * run, longer on a busy machine: a short window and a log of 4M entries a
 * job (1M overflowed beside other tests, in CI) leave room for both. */
static void check_run(unsigned jobs, bool procs, uint64_t ramp)
{
	struct reqlog l;
	struct test_result r;
	struct hist *h = calloc(1, sizeof(*h));
	uint64_t window = 0, ramped = 0;

	assert_non_null(h);
	hist_init(h);
	assert_int_equal(reqlog_create(&l, jobs, 1u << 22), 0);
	assert_int_equal(run(&l, jobs, procs, ramp, 5 * MS, &r), 0);
	for (unsigned i = 0; i < jobs; i++) {
		assert_int_equal(l.job[i].dropped, 0);
		assert_true(l.job[i].n > 0);
		check_job(&l.job[i], h, &window);
		for (uint64_t k = 0; k < l.job[i].n; k++)
			ramped += l.job[i].e[k].phase == REQLOG_RAMP;
	}
	assert_true(r.ops > 0);
	assert_int_equal(window, r.ops);
	assert_int_equal(h->n, r.lat->n);
	assert_int_equal(h->sum, r.lat->sum);
	assert_int_equal(h->min, r.lat->min);
	assert_int_equal(h->max, r.lat->max);
	assert_memory_equal(h->count, r.lat->count, sizeof(h->count));
	/* none with no ramp (with one, a job let go late may have none) */
	if (!ramp)
		assert_int_equal(ramped, 0);
	result_test_free(&r);
	reqlog_free(&l);
	free(h);
}

static void test_threads(void **state)
{
	(void)state;
	check_run(1, false, 0);
	check_run(2, false, 2 * MS);
}

static void test_procs(void **state)
{
	(void)state;
	check_run(3, true, 2 * MS);
}

/* A full part counts what it could not hold, and keeps the first. */
static void test_cap(void **state)
{
	struct reqlog l;
	struct test_result r;

	(void)state;
	assert_int_equal(reqlog_create(&l, 2, 100), 0);
	assert_int_equal(run(&l, 2, true, 0, 20 * MS, &r), 0);
	for (unsigned i = 0; i < 2; i++) {
		assert_int_equal(l.job[i].n, 100);
		assert_true(l.job[i].dropped > 0);
	}
	/* the window's first 100 of each job, the rest counted only */
	assert_true(r.ops >= 200);
	assert_true(r.ops <= 200 + l.job[0].dropped + l.job[1].dropped);
	result_test_free(&r);
	/* a new test starts each part again */
	assert_int_equal(reqlog_job(&l, 1)->n, 0);
	assert_null(reqlog_job(&l, 2));
	reqlog_free(&l);
	reqlog_free(&l);	/* twice: nothing */
}

static void test_bytes(void **state)
{
	struct reqlog l;

	(void)state;
	assert_int_equal(reqlog_bytes(0, 100), 0);
	assert_int_equal(reqlog_bytes(1, 1), 64 + 64);
	assert_int_equal(reqlog_bytes(2, 1000), 64 + 2 * 32000);
	assert_int_equal(reqlog_bytes(1024, REQLOG_MAX_MAX), 32768 + 1024ull * (32ull << 36));
	assert_int_equal(reqlog_bytes(1u << 31, UINT64_MAX / 64), UINT64_MAX);
	assert_int_equal(reqlog_bytes(4096, 1ull << 58), UINT64_MAX);
	assert_int_equal(reqlog_create(&l, 0, 10), -EINVAL);
	assert_int_equal(reqlog_create(&l, 1u << 31, UINT64_MAX / 64), -ENOMEM);
	assert_null(l.map);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_threads),
		cmocka_unit_test(test_procs),
		cmocka_unit_test(test_cap),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
