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
	double level;		/* sweep_compare: 1 - 0.05 / ncompared (Bonferroni);
				 * tune: 0.95 for the sweep's family of intervals
				 * (sweep_randomization) */
	int verdict;		/* +1 the whole interval above 1 + noise, -1 below
				 * 1 - noise, 0 otherwise ("~") */
	double p;		/* the randomization test's adjusted p-value
				 * (sweep_randomization), NAN when not run;
				 * tune keeps a verdict only where p < 0.05 */
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
 * The randomization test of a sweep: does a configuration differ from the
 * baseline, and by how much, whatever the shape of the noise? x[(b *
 * nconfig + k) * nstat + j] is statistic j (the logarithm of a test's
 * throughput or p99) of configuration k in block b. The design ran each
 * block's configurations in a random order, so where configuration k is
 * the baseline again their labels within a block are exchangeable: the
 * observed differences are set against those of resamples random
 * relabellings within every block (xoshiro seeded with seed). That holds
 * for bimodal, bursty or heavy-tailed noise alike, where Student's t on a
 * few blocks does not: the level comes from the randomization tune did,
 * not from a model of the noise.
 *
 * The statistic of (k, j) is |mean over the blocks of x[k] - x[0]| over
 * its standard error s_j sqrt(2 / nblocks), s_j the residual spread of
 * statistic j in the two-way layout blocks x values (block and value
 * effects removed), pooled over the values judged at that step: learnt
 * from (nblocks - 1)(nvalues - 1) degrees of freedom, not from one
 * value's nblocks - 1 (with which the relabellings' largest t on 3 or 4
 * blocks is so large that no interval is short); the largest over every
 * (k, j) is the family's (max-T). The
 * values are stepped down (Westfall-Young): the one with the largest
 * statistic is judged against relabellings among the values still in; if
 * it differs (p < alpha) it is left out and the rest judged again, else
 * every value left is judged at that step. Out, for k >= 1:
 *   padj[k * nstat + j]  the adjusted p-value: the chance of any false
 *                        alarm over all values and statistics is alpha;
 *   half[k * nstat + j]  the half-width of its interval on the log scale:
 *                        c * scale_j, c the (1 - alpha) quantile of the
 *                        largest statistic over the relabellings of its
 *                        step; mean -+ half are simultaneous intervals
 *                        (at 1 - alpha for the whole family) where no
 *                        value differs, narrower after a value that does
 *                        has been left out.
 * Returns 0, -EINVAL (fewer than 2 blocks or configurations, no statistic)
 * or -ENOMEM; padj then all 1 and half infinite.
 */
int sweep_randomization(const double *x, unsigned nblocks, unsigned nconfig, unsigned nstat,
			unsigned resamples, uint64_t seed, double alpha, double *padj,
			double *half);

/* The smallest p-value a randomization test of nconfig values over
 * nblocks blocks can give: 2 / (nconfig!)^nblocks, the observed labelling
 * and its mirror being the most extreme. Fewer blocks than make it <=
 * alpha can never find a difference. */
double sweep_min_p(unsigned nconfig, unsigned nblocks);

/* The smallest p-value it can give one value that differs from all the
 * others (the max-T test, stepped down): nconfig^(1 - nblocks), the share
 * of relabellings that keep that value's figures under one label (any of
 * the nconfig) in every block, each of which has as large a largest
 * statistic. Larger than sweep_min_p for 3 values or more; the looks of
 * the sequential design need it <= their level (sweep_look_alpha). */
double sweep_min_p_one(unsigned nconfig, unsigned nblocks);

/* The fewest blocks (at least 2) at which sweep_min_p(nconfig, .) <= alpha. */
unsigned sweep_min_blocks(unsigned nconfig, double alpha);

/*
 * A group-sequential sweep: the blocks are a budget (nmax), and the
 * sweep looks at what it has after each block from SWEEP_FIRST_LOOK on;
 * it stops at a look where every verdict is settled (tune_look), else
 * runs to nmax. Each look is a test at its own level, and the levels add
 * up to alpha (alpha spending with Bonferroni's bound: whatever the looks'
 * dependence, the chance of a false verdict at whichever look the sweep
 * stops is at most their sum). The interim looks share SWEEP_INTERIM of
 * alpha equally, the final look keeps the rest: a sweep that runs to its
 * budget loses little power, and one that stops early needed the clear
 * answer a small level gives. Only looks that can find anything count
 * (sweep_min_p_one(nconfig, n) <= their level); with none, the final look has
 * all of alpha. sweep_look_alpha: the level of the look after n of nmax
 * blocks (n == nmax: the final one), 0 for a block with no look.
 */
#define SWEEP_FIRST_LOOK 3
#define SWEEP_INTERIM 0.2
double sweep_look_alpha(unsigned nconfig, unsigned n, unsigned nmax, double alpha);

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
