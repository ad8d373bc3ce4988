/* sweep.h - a randomised complete block design over configurations, and paired verdicts. */
#ifndef DISKBENCH_SWEEP_H
#define DISKBENCH_SWEEP_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

/*
 * The order of a sweep's trials. Configuration 0 is the baseline (the
 * settings found). Trial 0 runs the baseline; then come nblocks blocks, each
 * running every configuration once in its own random order (seeded:
 * reproducible); the last trial runs the baseline again, so that a device
 * that drifted during the sweep shows. A block is the unit of a sample:
 * configurations are compared within blocks, never across them.
 */
#define SWEEP_OUTSIDE UINT_MAX	/* block of the first and the last baseline runs */

struct sweep_design {
	unsigned nconfig, nblocks, ntrials;	/* ntrials = nblocks * nconfig + 2 */
	uint32_t *config;	/* per trial: its configuration */
	unsigned *block;	/* per trial: its block, or SWEEP_OUTSIDE */
};

/* 0 or -ENOMEM (-EINVAL for no configuration or no block). */
int sweep_design(struct sweep_design *d, unsigned nconfig, unsigned nblocks, uint64_t seed);
void sweep_design_free(struct sweep_design *d);

/* A configuration against the baseline, for one metric. */
struct sweep_verdict {
	double ratio;		/* geometric mean over the blocks of m[c] / m[0] */
	double lo, hi;		/* its interval at level */
	double level;		/* 1 - 0.05 / ncompared (Bonferroni) */
	int verdict;		/* +1 the whole interval above 1 + noise, -1 below
				 * 1 - noise, 0 otherwise ("~") */
};

/*
 * m[b * nconfig + k]: the metric of configuration k in block b (k = 0: the
 * baseline), all > 0. The ratio is the geometric mean of the paired
 * per-block ratios; its interval is Student's t on their logarithms (n =
 * nblocks, n - 1 degrees of freedom), at the level that keeps the chance
 * of any false alarm among ncompared comparisons at 5 % (Bonferroni). A
 * percentile bootstrap would be narrower, and wrong: from five blocks it
 * cannot reach beyond their min and max, and two identical settings would
 * differ "significantly" one sweep in sixteen. seed is unused (the t
 * interval needs none); it stays for a resampling method.
 */
void sweep_compare(const double *m, unsigned nblocks, unsigned nconfig, unsigned c,
		   double noise, unsigned ncompared, uint64_t seed, struct sweep_verdict *v);

/*
 * Did the device drift during the sweep? base[0..n) are the baseline's
 * runs of one test in the order they ran (the first, one per block, the
 * last). It drifted when the later half of them differs from the earlier
 * half by more than the noise band and significantly: Welch's t on the
 * logarithms, two-sided at 1 %, so that one odd run neither makes a drift
 * nor hides one. *change = geometric mean of the later half / of the
 * earlier half - 1. At least 4 runs (else: no drift, change 0).
 */
#define TUNE_DRIFT_MAX 128
bool sweep_drifted(const double *base, unsigned n, double noise, double *change);

#endif
