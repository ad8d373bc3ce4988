/* trial.c - whether a tune trial measured anything the statistics may use. */
#include <inttypes.h>
#include <stdio.h>

#include "tune_result.h"

bool tune_trial_judge(struct tune_trial *t, uint64_t planned_ns)
{
	t->invalid[0] = '\0';
	/* an error is a request the device did not serve: what the trial
	 * measured is not the setting's speed */
	if (t->errors)
		snprintf(t->invalid, sizeof(t->invalid), "%" PRIu64 " I/O error%s", t->errors,
			 t->errors == 1 ? "" : "s");
	else if (!t->ops)
		snprintf(t->invalid, sizeof(t->invalid), "no I/O completed");
	/* a phase cut to under half, or stretched far past its plan (a
	 * stalled device), measured another thing than its neighbours */
	else if (planned_ns && (t->runtime_ns < planned_ns / 2 ||
				(t->runtime_ns > 2 * planned_ns &&
				 t->runtime_ns - 2 * planned_ns > 2000000000ull)))
		snprintf(t->invalid, sizeof(t->invalid), "ran %.2f s of a planned %.2f s",
			 (double)t->runtime_ns / 1e9, (double)planned_ns / 1e9);
	return !t->invalid[0];
}
