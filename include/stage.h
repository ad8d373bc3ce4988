/* stage.h - where a plan runs: the device claim, the scratch directory, the working set, O_DIRECT. */
#ifndef DISKBENCH_STAGE_H
#define DISKBENCH_STAGE_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "plan.h"
#include "runner.h"
#include "target.h"

/* A plan's stage, set up by run_stage and given back by stage_release. */
struct stage {
	struct run_target where;	/* what runner_run is given */
	int claim;			/* O_EXCL descriptor held on a device that is
					 * written; -1 */
	char scratch[PATH_MAX];		/* the scratch directory, "" when none */
	bool direct_refused;		/* the file system refused O_DIRECT, or serves
					 * it through the page cache (target_info.
					 * direct_via_cache): every test of the plan
					 * was made buffered */
	/* stage_in.lay_out: the working set written before the tests */
	uint64_t laid_out_bytes, laid_out_ns;
	int released;			/* what stage_release found, when not 0 */
};

struct stage_in {
	struct plan *plan;		/* specs[].direct cleared when O_DIRECT is refused */
	const struct engine_ops *e;
	const struct target_info *ti;
	uint64_t size;			/* the working set to lay out, bytes */
	uint64_t seed;			/* of its data */
	bool checkable;			/* lay it out with --verify's headers (a plan
					 * with the verify test) */
	bool lay_out;			/* a device or file target: lay out [0, size)
					 * too (--destructive, before read tests, so
					 * that they read data, not holes); the caller
					 * decides that writes are allowed */
	const volatile sig_atomic_t *stop;	/* stops the layout; may be NULL */
	/* How long the layout may go without writing anything (nor the
	 * device's counters moving), and the scratch directory's removal
	 * without removing anything, before it is left (target_bounded,
	 * target_scratch_bound: a device that no longer answers); 0: 5 s */
	uint64_t io_timeout_ns;
	/* Optional: how far the layout is (bytes written, of total). */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
};

/*
 * Set the stage for in->plan: claim a block device that the plan writes
 * (O_EXCL, held until stage_release: the kernel's last word on "mounted or
 * in use"), make the scratch directory in a directory target and lay out
 * the data file when a test reads or rewrites it (and, in->lay_out, write
 * [0, size) of a device or file target), and find out whether the
 * data takes O_DIRECT (if not, the plan's tests go buffered and
 * st->direct_refused says so). An engine that moves no data needs none of
 * it. The layout is written by a child process, watched (target_bounded):
 * one that stops making progress is left to the kernel. Returns 0 with st
 * filled, or -errno with a one-line reason in err:
 *   -EBUSY       the kernel refused the exclusive claim (a safety refusal)
 *   -EINTR       *in->stop was raised during the layout
 *   -ETIMEDOUT   the layout made no progress for in->io_timeout_ns (the
 *                device stopped answering; err names the byte it was at)
 *   -EOPNOTSUPP  O_DIRECT refused, and the engine works only with it
 *   other        the scratch directory or the layout failed
 * What was taken is given back on failure (stage_release, whose result a
 * later call still returns). Never prints. Install any
 * SIGINT handler of your own before: target_scratch_create leaves handled
 * signals to their handler (which must call target_scratch_cleanup).
 */
int run_stage(struct stage *st, const struct stage_in *in, char *err, size_t errlen);

/* Give back the claim and remove the scratch directory; idempotent (a
 * later call returns what the first found). Returns -EXDEV when the
 * scratch directory had been moved away (its files were removed, the
 * empty directory is left where it went), -ETIMEDOUT when its file system
 * stopped answering (st->scratch is left, with what was not removed;
 * target_scratch_stuck() names the entry the removal was at), else 0. */
int stage_release(struct stage *st);

#endif
