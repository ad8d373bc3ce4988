/* plan.h - from a profile and the command line to the list of tests to run. */
#ifndef DISKBENCH_CLI_PLAN_H
#define DISKBENCH_CLI_PLAN_H

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

struct plan {
	struct test_spec specs[MAX_PLAN];
	char names[MAX_PLAN][64];
	unsigned n;
	unsigned skipped_writes;	/* profile writes left out (read-only target) */
	char skipped_names[256];
	char skipped_fs[256];		/* tests that need a directory target */
	char skipped_ops[256];		/* tests doing their own I/O, under --engine null */
};

/* What plan_build works from. */
struct plan_in {
	const struct profile *prof;
	const struct settings *cli;	/* the command line alone (its given mask) */
	const struct settings *run;	/* defaults < [profile] < command line */
	const struct engine_ops *e;
	const struct target_info *ti;
	const struct safety_verdict *writes;
	struct run_result *r;
};

/* The working set: what s asks for, within what the target holds (a
 * directory: at most half its free space and within --max-fill). Returns 0,
 * -EINVAL (usage) or -ENOSPC (refused), with the reason in err. */
int plan_pick_size(const struct settings *s, const struct target_info *ti, uint64_t *size,
		   char *err, size_t errlen);

/* Profile groups x tests x block sizes x queue depths, with the engine's qd
 * clamp, duplicates dropped and tests the target cannot take skipped (named
 * in p->skipped_*). Returns 0, -EINVAL (usage, message in err) or -EPERM
 * (refused for safety). Warnings go to in->r. */
int plan_build(struct plan *p, const struct plan_in *in, char *err, size_t errlen);

/* Does any test write? Does any test use O_DIRECT? Does any test use the
 * laid-out data file (a directory target)? */
bool plan_writes(const struct plan *p);
bool plan_direct(const struct plan *p);
bool plan_needs_data(const struct plan *p);

/* A test's display name: "rand-read 4k qd32", with " j4" for jobs and
 * " direct"/" buffered" when it differs from the run's setting. */
void plan_spec_name(const struct test_spec *t, bool run_direct, char *buf, size_t len);

#endif
