/* plan.h - from a profile and the command line to the list of tests to run. */
#ifndef DISKBENCH_PLAN_H
#define DISKBENCH_PLAN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "opts.h"
#include "profile.h"
#include "result.h"
#include "runner.h"
#include "safety.h"
#include "target.h"

#define MAX_PLAN 256
#define DEFAULT_DIR_SIZE (1ull << 30)

/* Why a workload of the profile was left out of the plan. */
enum plan_skip_why {
	PLAN_SKIP_WRITES,	/* it writes, and the target may not be written */
	PLAN_SKIP_NEEDS_FS,	/* it needs a file system: the target is a device or file */
	PLAN_SKIP_OWN_IO,	/* it does its own I/O, which an ENGINE_F_NO_IO engine
				 * cannot stand in for */
};

struct plan_skip {
	const struct workload *wl;
	enum plan_skip_why why;
};

/* A queue depth the engine cannot keep: asked for qd, it runs at 1. */
struct plan_clamp {
	const struct workload *wl;
	uint32_t qd;
};

/* The tests to run, in order, and what was left out or changed, as data:
 * the caller words it. Each workload appears once per reason in skips,
 * once per queue depth in clamps. */
struct plan {
	struct test_spec specs[MAX_PLAN];
	char names[MAX_PLAN][64];
	unsigned n;
	struct plan_skip skips[MAX_PLAN];
	unsigned nskips;
	struct plan_clamp clamps[MAX_PLAN];
	unsigned nclamps;
};

/* What plan_build works from. */
struct plan_in {
	const struct profile *prof;
	const struct settings *cli;	/* the command line alone (its given mask) */
	const struct settings *run;	/* defaults < [profile] < command line */
	const struct engine_ops *e;
	const struct target_info *ti;
	const struct safety_verdict *writes;
};

/* The working set: what s asks for, within what the target holds (a
 * directory: at most half its free space and within --max-fill). Returns 0,
 * -EINVAL (usage) or -ENOSPC (refused), with the reason in err. */
int plan_pick_size(const struct settings *s, const struct target_info *ti, uint64_t *size,
		   char *err, size_t errlen);

/*
 * Profile groups x tests x block sizes x queue depths, with the engine's qd
 * clamp (p->clamps), duplicates dropped (same plan_spec_key) and tests the
 * target or engine cannot take left out (p->skips). --test picks
 * workloads instead, in its order, each with the settings of every group
 * that has it (or of [profile] when none has); a --test workload that may
 * not write is refused. Returns 0, -EINVAL (usage, message in err), -EPERM
 * (refused for safety: writes, or nothing left to run) or -ENOSPC (no room
 * for the working set). Never prints.
 */
int plan_build(struct plan *p, const struct plan_in *in, char *err, size_t errlen);

/* --precondition: 128 KiB, the SNIA PTS's block for it. */
#define PRECONDITION_BS (128u << 10)

/*
 * The test that preconditions for s (--precondition): sequential 128 KiB
 * writes from offset 0 of where->data, over the device or file (ti's size)
 * or, in a directory, the working set of set bytes, in passes until
 * s->precondition_size bytes are written (0: two passes), with no ramp
 * and at most 24 hours; engine e at QD 32 (1 for a sync one), O_DIRECT as
 * s says, seed s->seed. Fills out; 0, or -EINVAL (e moves no data, or no
 * whole block fits) with the reason in err.
 */
int plan_precondition(const struct settings *s, const struct engine_ops *e,
		      const struct target_info *ti, uint64_t set, struct test_spec *out,
		      char *err, size_t errlen);

/* The names of the workloads skipped for why, ", "-separated, into buf.
 * Returns how many there are. */
unsigned plan_skipped(const struct plan *p, enum plan_skip_why why, char *buf, size_t len);

/* One canonical text for everything that defines test t (workload, sizes,
 * depths, jobs, I/O mode, times, seed, parameters): two tests with the
 * same key are the same test. */
void plan_spec_key(const struct test_spec *t, char *buf, size_t len);

/* Does any test write? Does any test use O_DIRECT? Does any test use the
 * laid-out data file (a directory target)? */
bool plan_writes(const struct plan *p);
bool plan_direct(const struct plan *p);
bool plan_needs_data(const struct plan *p);

/* Does any test check the working set (the verify test)? */
bool plan_checks(const struct plan *p);

/* --verify's tests: how many read back their blocks or check the working
 * set; and the names (each once, ", "-separated, into buf) of those it
 * leaves unchecked, writers doing their own I/O (writers true) or tests
 * that write nothing (writers false). Returns how many names. */
unsigned plan_verified(const struct plan *p);
unsigned plan_unverified(const struct plan *p, bool writers, char *buf, size_t len);

/* A test's display name: "rand-read 4k qd32", with " j4" for jobs and
 * " direct"/" buffered" when it differs from the run's setting. */
void plan_spec_name(const struct test_spec *t, bool run_direct, char *buf, size_t len);

#endif
