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

/* A baseline from a result (a saved one, loaded by result_load: JSON or an
 * HTML report), source naming it: each xbench test's first rate in r.
 * Returns 0, or -EINVAL with "SOURCE: holds none of the xbench tests" in
 * err. Never prints. */
int xbench_baseline_of(const struct run_result *r, const char *source, struct xbench_baseline *b,
		       char *err, size_t errlen);

/* Is the xbench test of this name (xbench_score.name) in the Sequential
 * group? For a loaded result's scores, which carry only their names. */
bool xbench_sequential(const char *name);

/* Score the run's xbench tests (matched by workload, bs and direct I/O)
 * into r->xbench. Tests without a baseline figure are left out; groups and
 * the total are harmonic means of their members, as Xbench computes them. */
void xbench_score(struct run_result *r, const struct xbench_baseline *b);

#endif
