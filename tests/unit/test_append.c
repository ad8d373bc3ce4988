/* test_append.c - run --append's library side (append.h) on a result saved by
 * an earlier version: what it takes, what it refuses and why, the merge. */
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

#include "append.h"
#include "load.h"
#include "repeat.h"

/* 3 tests of 3 runs each, of /var/tmp/fx, saved by f3e5f6a */
#define SAVED "tests/data/results/f3e5f6a-null-repeat.json"

static void load(struct run_result *r)
{
	const char *dir = getenv("srcdir");
	char path[4096], err[512];

	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", SAVED);
	memset(r, 0, sizeof(*r));
	if (result_load(path, r, err, sizeof(err)))
		fail_msg("%s", err);
}

static void set(struct run_result *r, const char *key, const char *value)
{
	for (unsigned i = 0; i < r->nsettings; i++)
		if (!strcmp(r->settings[i].key, key))
			snprintf(r->settings[i].value, sizeof(r->settings[i].value), "%s", value);
}

static void test_check(void **state)
{
	const char *names[] = { "rand-read 4k qd1", "rand-read 4k qd32", "seq-write 1m qd8" };
	const char *other[] = { "rand-read 4k qd1", "rand-read 4k qd16", "seq-write 1m qd8" };
	struct run_result prior, now;
	char err[256];

	(void)state;
	load(&prior);
	load(&now);
	assert_int_equal(result_append_check(&prior, "/var/tmp/fx", names, 3, err, sizeof(err)), 0);
	assert_int_equal(result_append_check(&prior, "/var/tmp/fx", names, 2, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "it holds 3 tests, this run has 2");
	assert_int_equal(result_append_check(&prior, "/var/tmp/fx", other, 3, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "its test 2 is \"rand-read 4k qd32\", this run's is "
			    "\"rand-read 4k qd16\"");
	assert_int_equal(result_append_check(&prior, "/srv/fx", names, 3, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "it holds a run of /var/tmp/fx, this run is of /srv/fx");
	snprintf(prior.imported_from.tool, sizeof(prior.imported_from.tool), "fio");
	assert_int_equal(result_append_check(&prior, "/var/tmp/fx", names, 3, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "it holds a result fio made, not one of diskbench's runs");

	/* settings: the same, or but how many runs and why those CPUs */
	assert_int_equal(result_append_check_settings(&prior, &now, err, sizeof(err)), 0);
	set(&now, "repeat", "1");
	assert_int_equal(result_append_check_settings(&prior, &now, err, sizeof(err)), 0);
	set(&now, "runtime", "5s");
	assert_int_equal(result_append_check_settings(&prior, &now, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "its runtime is 100ms, this run's is 5s");
	/* a setting on one side only is a difference too, either way round */
	set(&now, "runtime", "100ms");
	assert_int_equal(result_add_setting(&now, "lat_log_max", "1000"), 0);
	assert_int_equal(result_append_check_settings(&prior, &now, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "it has no lat_log_max, this run's is 1000");
	assert_int_equal(result_append_check_settings(&now, &prior, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "its lat_log_max is 1000, this run has none");
	/* but how many runs were appended, on one side only, is not */
	assert_int_equal(result_add_setting(&prior, "lat_log_max", "1000"), 0);
	assert_int_equal(result_add_setting(&prior, "appended", "2"), 0);
	assert_int_equal(result_append_check_settings(&prior, &now, err, sizeof(err)), 0);
	result_free(&prior);
	result_free(&now);
}

static void test_merge(void **state)
{
	struct run_result prior, now, more;
	double iops[6];
	uint64_t ops;

	(void)state;
	load(&prior);
	load(&now);
	load(&more);
	ops = prior.tests[1].ops;
	/* the runs made later are told apart: the second file's 10 % faster */
	for (unsigned k = 0; k < now.tests[1].nruns; k++)
		now.tests[1].runs[k].iops *= 1.1;
	assert_int_equal(result_append(&prior, &now), 0);
	assert_string_equal(result_setting(&prior, "appended"), "1");
	for (unsigned i = 0; i < prior.ntests; i++) {
		assert_int_equal(prior.tests[i].nruns, 6);
		assert_int_equal(now.tests[i].nruns, 0);
	}
	assert_int_equal(prior.tests[1].ops, 2 * ops);
	assert_non_null(prior.tests[1].lat);
	assert_int_equal(prior.tests[1].lat->n, 2 * ops);
	/* the median of all six runs, as repeat_finish takes it */
	for (unsigned k = 0; k < 6; k++)
		iops[k] = prior.tests[1].runs[k].iops;
	{
		struct run_stat s;

		repeat_stat(iops, 6, &s);
		assert_true(fabs(prior.tests[1].iops - s.median) <= 1e-9 * s.median);
		assert_true(fabs(prior.tests[1].summary.iops.stdev - s.stdev) <= 1e-9 * s.median);
	}
	/* the same warning once */
	assert_int_equal(prior.nwarnings, 1);
	assert_int_equal(result_append(&prior, &more), 0);
	assert_string_equal(result_setting(&prior, "appended"), "2");
	assert_int_equal(prior.tests[0].nruns, 9);
	result_free(&prior);
	result_free(&now);
	result_free(&more);
}

/* More than REPEAT_MAX runs of a test: refused, and nothing changed. */
static void test_too_many(void **state)
{
	struct run_result prior, now;
	unsigned n;

	(void)state;
	load(&prior);
	for (n = 3; n + 3 <= REPEAT_MAX; n += 3) {
		load(&now);
		assert_int_equal(result_append(&prior, &now), 0);
		result_free(&now);
	}
	assert_int_equal(prior.tests[0].nruns, n);
	load(&now);
	assert_int_equal(result_append(&prior, &now), -ENOSPC);
	assert_int_equal(prior.tests[0].nruns, n);
	assert_int_equal(now.tests[0].nruns, 3);
	result_free(&prior);
	result_free(&now);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_check),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_too_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
