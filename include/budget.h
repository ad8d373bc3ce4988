/* budget.h - what a plan needs (memory, space, inodes, open files) and whether it fits. */
#ifndef DISKBENCH_BUDGET_H
#define DISKBENCH_BUDGET_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

#include "runner.h"
#include "target.h"

/* The peak needs of a plan, and the test (index into the plan) that sets
 * each peak. Tests run one after another: memory peaks with the largest
 * test; on disk the laid-out data file stays for the whole run while each
 * test's own files go when it ends. */
struct budget_need {
	uint64_t mem_bytes;
	unsigned mem_test;
	uint64_t data_bytes;	/* the laid-out data file (0: none) */
	uint64_t disk_bytes;	/* directory targets: data file + largest own files */
	unsigned disk_test;	/* n when only the data file counts */
	uint64_t inodes;
	unsigned inode_test;
	uint64_t fds;		/* most descriptors one job holds */
	unsigned fd_test;
	uint64_t fds_all;	/* most all jobs of a test hold together (their
				 * need when the jobs share one table) */
	unsigned fds_all_test;
};

/* Add up specs[0..n) (runner_footprint); data_bytes is the data file the
 * plan lays out in a directory target, 0 when none. */
void budget_plan(const struct test_spec *specs, unsigned n, uint64_t data_bytes,
		 struct budget_need *need);

/* Memory the kernel can give without swapping or the OOM killer: the
 * smaller of MemAvailable and what the memory cgroup we are in (v1 or v2,
 * and its ancestors) has left, its reclaimable file cache counted as free.
 * by says which ("available memory", "memory cgroup /a/b, limit 1.0 GiB").
 * Returns 0 or -errno (no /proc/meminfo). */
struct budget_mem {
	uint64_t available;
	char by[PATH_MAX + 64];
};
int budget_memory(struct budget_mem *m);

/*
 * The checks. Each returns 0 when the plan fits, else -errno with a
 * one-line reason in err that says what was asked (the test and its
 * options), what there is, and which option to change:
 *  memory: a test takes at most half of m->available (-ENOMEM);
 *  space:  a directory target's file system stays within max_fill_pct
 *          percent of its blocks and of its inodes (-ENOSPC); targets that
 *          are devices or files need no space;
 *  fds:    a job's descriptors, with what is open now and BUDGET_FDS_RESERVE,
 *          fit RLIMIT_NOFILE, whose soft limit is raised up to the hard
 *          one when that is enough (-EMFILE). A job's are its own
 *          (runner_private_files: each job has a table of its own, a copy
 *          of the process's), else every job's of a test add up. The
 *          refusal names the need, its parts, the limit, and what lowers
 *          it: --dirs for the file tests, --jobs when the jobs share a
 *          table, else only a higher limit.
 */
#define BUDGET_FDS_RESERVE 16	/* the run's own: scratch, data file, device
				 * claim, counters, report files, read-back */
int budget_check_memory(const struct budget_need *need, const struct test_spec *specs,
			const struct budget_mem *m, char *err, size_t errlen);
int budget_check_space(const struct budget_need *need, const struct test_spec *specs,
		       unsigned n, const struct target_info *ti, unsigned max_fill_pct,
		       char *err, size_t errlen);
int budget_check_fds(const struct budget_need *need, const struct test_spec *specs, char *err,
		     size_t errlen);

#endif
