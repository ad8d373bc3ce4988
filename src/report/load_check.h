/* load_check.h - what a loaded result may hold: every figure within what a run can measure. */
#ifndef DISKBENCH_LOAD_CHECK_H
#define DISKBENCH_LOAD_CHECK_H

#include <stddef.h>

#include "result.h"

/*
 * The limits a loaded figure must keep (issue 27): far beyond any device
 * or host, and small enough that no renderer's arithmetic (sums over
 * 10^5 tests, squares for a stdev, x 1e9 for a rate) leaves the doubles.
 */
#define LOAD_MAX_IOPS 1e15	/* a billion ops a second on each of a million jobs */
#define LOAD_MAX_BPS 1e21	/* a zettabyte a second */
#define LOAD_MAX_PCT 1e7	/* CPU %: 100 on each of 100,000 CPUs */
#define LOAD_MAX_USEC 1e12	/* CPU microseconds per op: 11 days */
#define LOAD_MAX_RATIO 1e9	/* a score, a steady-state range or slope */
#define LOAD_MAX_RUNTIME_NS 31622400000000000ull /* a year */

/*
 * Is test t, loaded and derived (result_finish, repeat_finish), one a run
 * could have measured? No runtime of 0 with ops or bytes, no rate that is
 * NaN, negative or past the limits above, no latency min above its max or
 * outside its histogram, no p50 above its p99, no steady-state window
 * outside its rounds, no rank whose window ends before it starts. CPU
 * figures may be NaN (the writer's null: not measured). idx is t's index
 * in "tests". Returns 0, or -EINVAL with the key path in where
 * ("tests[2].runs[1]") and what is wrong in msg, naming the key, its value
 * and the test. Never prints.
 */
int load_check_test(const struct test_result *t, unsigned idx, char *where, size_t wlen,
		    char *msg, size_t mlen);

/* The same for the Xbench scores ("xbench" in where). */
int load_check_xbench(const struct xbench_scores *x, char *where, size_t wlen, char *msg,
		      size_t mlen);

#endif
