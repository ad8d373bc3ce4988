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
 * baseline), all > 0. The interval is a percentile bootstrap over blocks
 * (10000 resamples of the blocks with replacement, seeded) of the geometric
 * mean of the paired ratios, at the level that keeps the chance of any
 * false alarm among ncompared configurations at 5 %. With few blocks it is
 * wide, as it should be: five blocks at 99 % is about [min, max].
 */
void sweep_compare(const double *m, unsigned nblocks, unsigned nconfig, unsigned c,
		   double noise, unsigned ncompared, uint64_t seed, struct sweep_verdict *v);

/*
 * Did the device drift during the sweep? first and last are the baseline's
 * runs outside the blocks; it drifted when they differ by more than the
 * noise band and by more than 2.5 coefficients of variation of the
 * baseline's runs in the blocks (what a repeat of it moves by anyway).
 * *change = last / first - 1.
 */
bool sweep_drifted(double first, double last, const double *m, unsigned nblocks,
		   unsigned nconfig, double noise, double *change);

#endif
