/* compare_int.h - the parts of compare.c kept in their own files (private to src/stats). */
#ifndef DISKBENCH_COMPARE_INT_H
#define DISKBENCH_COMPARE_INT_H

#include <stdbool.h>

#include "compare.h"

/* Metric m of tests b (before) and a (after) into v: the values, their
 * ratio and change, and whether it is within the runs' noise. */
void compare_value_of(const struct test_result *b, const struct test_result *a,
		      enum compare_metric m, struct compare_value *v);

/* The runs' side of v: counts, the ratio of medians, and the range when
 * runs are too few for an interval (compare_test_interval draws the
 * others). Sets verdict to CMP_UNJUDGED. */
void compare_runs_of(const struct test_result *b, const struct test_result *a,
		     enum compare_metric m, struct compare_value *v);

/* Does metric m of t take a verdict, an interval drawn at the family's
 * level (a judged metric, sides measured alike, neither failed, enough
 * runs)? */
bool compare_test_judged(const struct compare_test *t, enum compare_metric m);

/* t's sides' waits for a CPU and the band its verdicts use
 * (compare_test.wait_before ... busier), around the noise band noise. */
void compare_test_band(struct compare_test *t, double noise);

/* The interval and verdict of metric m of a pair's test t, at level (or
 * what its runs can hold: v->level), into v (v->nbefore and v->nafter
 * from compare_runs_of). */
void compare_test_interval(const struct compare_test *t, enum compare_metric m, double level,
			   double noise, struct compare_value *v);

#endif
