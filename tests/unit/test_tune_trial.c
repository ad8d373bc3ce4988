/* test_tune_trial.c - which tune trials the statistics may use: table-driven. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "tune_result.h"

#define S 1000000000ull

struct trial_row {
	uint64_t ops, errors, runtime_ns, planned_ns;
	const char *invalid;	/* "" for a valid trial */
};

static const struct trial_row rows[] = {
	{ .ops = 1000, .runtime_ns = 1 * S, .planned_ns = 1 * S, .invalid = "" },
	{ .ops = 1000, .errors = 3, .runtime_ns = 1 * S, .planned_ns = 1 * S,
	  .invalid = "3 I/O errors" },
	{ .ops = 1000, .errors = 1, .runtime_ns = 1 * S, .planned_ns = 1 * S,
	  .invalid = "1 I/O error" },
	/* errors first: a detached device gives both */
	{ .ops = 0, .errors = 1, .runtime_ns = 1 * S, .planned_ns = 1 * S,
	  .invalid = "1 I/O error" },
	{ .ops = 0, .runtime_ns = 1 * S, .planned_ns = 1 * S, .invalid = "no I/O completed" },
	/* half the plan is still a trial; under it, not */
	{ .ops = 10, .runtime_ns = S / 2, .planned_ns = 1 * S, .invalid = "" },
	{ .ops = 10, .runtime_ns = S / 2 - 1, .planned_ns = 1 * S,
	  .invalid = "ran 0.50 s of a planned 1.00 s" },
	/* stretched: over twice the plan and 2 s beyond it */
	{ .ops = 10, .runtime_ns = 4 * S, .planned_ns = 1 * S, .invalid = "" },
	{ .ops = 10, .runtime_ns = 4 * S + 1, .planned_ns = 1 * S,
	  .invalid = "ran 4.00 s of a planned 1.00 s" },
	{ .ops = 10, .runtime_ns = 9 * S, .planned_ns = 4 * S, .invalid = "" },
	{ .ops = 10, .runtime_ns = 11 * S, .planned_ns = 4 * S,
	  .invalid = "ran 11.00 s of a planned 4.00 s" },
	/* no plan (a test of passes): the runtime is not judged */
	{ .ops = 10, .runtime_ns = 1, .planned_ns = 0, .invalid = "" },
};

static void test_judge(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct tune_trial t = { .ops = rows[i].ops, .errors = rows[i].errors,
					.runtime_ns = rows[i].runtime_ns };
		bool ok;

		/* a verdict left from before is replaced */
		snprintf(t.invalid, sizeof(t.invalid), "stale");
		ok = tune_trial_judge(&t, rows[i].planned_ns);
		if (strcmp(t.invalid, rows[i].invalid))
			fail_msg("row %zu: '%s', want '%s'", i, t.invalid, rows[i].invalid);
		assert_int_equal(ok, !rows[i].invalid[0]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_judge),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
