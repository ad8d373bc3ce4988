/* annotate.c - the warnings and flags derived from a finished run, made once for every reporter. */
#include <inttypes.h>
#include <string.h>

#include "annotate.h"
#include "repeat.h"

bool result_annotate(struct run_result *r, const struct annotate_in *in)
{
	const struct target_info *ti = &r->target;
	bool failed = false;

	for (unsigned i = 0; i < r->ntests; i++) {
		struct test_result *t = &r->tests[i];

		repeat_finish(t);
		if (t->errors) {
			failed = true;
			result_add_warning(r, "%s: %" PRIu64 " I/O errors, first: %s at offset %"
					   PRIu64, t->name, t->errors, strerror(t->first_errno),
					   t->first_error_offset);
		}
		if (t->cached)
			result_add_warning(r, "%s: reads did not reach the device (page cache?)",
					   t->name);
		if (repeat_unreliable(t))
			result_add_warning(r, "%s: runs spread widely (CV %.1f %% over %u runs): "
					   "the median is not reliable; see the runs in --json",
					   t->name, 100 * t->summary.iops.cv, t->nruns);
	}
	if (r->ntests && !r->tests[0].dev_valid && in->moves_data)
		result_add_warning(r, "%s has no block device counters (%s): whether the I/O "
				   "reached a disk cannot be checked", ti->path,
				   ti->fs_type[0] ? ti->fs_type : "no device");
	if (r->ntests && in->score)
		xbench_score(r, in->score);
	return failed;
}
