/* xbench.h - Xbench-style scores: 100 x measured / baseline, per test and grouped. */
#ifndef DISKBENCH_XBENCH_H
#define DISKBENCH_XBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

/* The eight Xbench disk tests: sequential and random, write and read, 4k and
 * 256k, uncached. */
#define XBENCH_NTESTS 8

/* One test's baseline throughput in bytes per second (0 = none). */
struct xbench_baseline {
	char source[256];	/* where the figures come from, for the report */
	double bytes_per_sec[XBENCH_NTESTS];
};

/* The built-in baseline: Xbench's own reference figures (xbench.c says how
 * they were derived). */
void xbench_default_baseline(struct xbench_baseline *b);

/* A baseline from a saved diskbench JSON result (its xbench tests). Returns
 * 0, or -errno with "FILE: problem" in err (not JSON, not diskbench/1, no
 * xbench test in it). Never prints. */
int xbench_load_baseline(const char *path, struct xbench_baseline *b, char *err, size_t errlen);

/* Score the run's xbench tests (matched by workload, bs and direct I/O)
 * into r->xbench. Tests without a baseline figure are left out; groups and
 * the total are harmonic means of their members, as Xbench computes them. */
void xbench_score(struct run_result *r, const struct xbench_baseline *b);

#endif
