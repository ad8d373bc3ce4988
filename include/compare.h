/* compare.h - before/after comparison of saved results: ratios, changes, what differs. */
#ifndef DISKBENCH_COMPARE_H
#define DISKBENCH_COMPARE_H

#include <stdbool.h>
#include <stdio.h>

#include "result.h"

/* The metrics compared per test, in this order. */
enum compare_metric {
	CMP_IOPS,
	CMP_BYTES_PER_SEC,
	CMP_LAT_P50,
	CMP_LAT_P99,
	CMP_LAT_P999,
	CMP_CPU_PER_OP,
	CMP_NMETRICS
};

struct compare_metric_info {
	const char *key;	/* JSON key: "iops", "lat_p99_ns", ... */
	const char *title;	/* text: "IOPS", "p99", ... */
	bool higher_better;	/* IOPS, MB/s; latency and CPU: lower is better */
};
extern const struct compare_metric_info compare_metrics[CMP_NMETRICS];

/*
 * One metric of one test on both sides. ratio = after / before, NaN when
 * before is 0 (no ratio exists). change_pct = (ratio - 1) x 100 for a
 * metric where higher is better and (1 - ratio) x 100 where lower is, so a
 * positive change is always an improvement and a negative one a penalty;
 * NaN with ratio. within_noise: 1 when both sides have repeats (nruns > 1)
 * with a spread for this metric and |ratio - 1| < COMPARE_NOISE_K x the
 * larger of the two coefficients of variation, 0 when it is larger, -1
 * when nothing can be said (no repeats, no spread kept for the metric,
 * no ratio).
 */
struct compare_value {
	double before, after, ratio, change_pct;
	int within_noise;
};

#define COMPARE_NOISE_K 2.0

/* One test present on both sides (matched by name). */
struct compare_test {
	const struct test_result *before, *after;
	struct compare_value m[CMP_NMETRICS];
	/* The parameters that make two tests comparable and differ here, e.g.
	 * "engine sync -> io_uring, jobs 1 -> 4"; "" when none does. */
	char mismatch[256];
};

/* A fact or setting that differs between the two results. before or after
 * is "" when that side does not have it. */
struct compare_diff {
	char key[48];		/* "label", "host.kernel", "target.scheduler", "settings.runtime" */
	char before[192], after[192];
};

/* One compared file against the baseline. */
struct compare_pair {
	const struct run_result *after;
	const char *file, *label;	/* label: the result's label, else the file name */
	struct compare_test *tests;	/* in the baseline's order */
	unsigned ntests;
	const struct test_result **only_before, **only_after;
	unsigned nonly_before, nonly_after;
	struct compare_diff *diffs;
	unsigned ndiffs;
	/* Over the matched tests with an IOPS ratio > 0: their count, the
	 * geometric mean of those ratios (NaN when none), and the index in
	 * tests[] of the lowest and the highest ratio (-1 when none). */
	unsigned nratios;
	double geomean_iops;
	int worst, best;
	bool repeats;		/* every matched test has nruns > 1 on both sides */
};

struct compare {
	const struct run_result *base;
	const char *base_file, *base_label;
	struct compare_pair *pairs;
	unsigned npairs;
};

/*
 * Compare results[1..n) each against results[0], the baseline. files[i]
 * names results[i] (its label when it has none). c keeps pointers into
 * results and files: both must outlive it. Returns 0 or -ENOMEM (c then
 * holds nothing); free with compare_free. Never prints.
 */
int compare_build(struct compare *c, const struct run_result *results,
		  const char *const *files, unsigned n);
void compare_free(struct compare *c);

/* The text report (fits 100 columns) and the JSON document, schema
 * "diskbench-compare/1" (README.md: Comparing results). 0 or -errno. */
int report_compare_text(FILE *f, const struct compare *c);
int report_compare_json(FILE *f, const struct compare *c);

#endif
