/* test_sweep.c - the block design, the paired verdicts, the randomization test and tune's
 * one rule for its verdicts, on synthetic data. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <stdio.h>
#include <cmocka.h>

#include "interval.h"
#include "sweep.h"
#include "tune_result.h"
#include "workload.h"

static void test_design(void **state)
{
	struct sweep_design a, b, c;
	unsigned seen[4];

	(void)state;
	assert_int_equal(sweep_design(&a, 4, 5, 7), 0);
	assert_int_equal(a.ntrials, 22);
	assert_int_equal(a.config[0], 0);
	assert_int_equal(a.block[0], SWEEP_OUTSIDE);
	assert_int_equal(a.config[21], 0);
	assert_int_equal(a.block[21], SWEEP_OUTSIDE);
	for (unsigned blk = 0; blk < 5; blk++) {
		memset(seen, 0, sizeof(seen));
		for (unsigned k = 0; k < 4; k++) {
			unsigned t = 1 + blk * 4 + k;

			assert_int_equal(a.block[t], blk);
			seen[a.config[t]]++;
		}
		for (unsigned k = 0; k < 4; k++)
			assert_int_equal(seen[k], 1);	/* every configuration once */
	}
	/* seeded: the same seed gives the same order, another one another */
	assert_int_equal(sweep_design(&b, 4, 5, 7), 0);
	assert_memory_equal(a.config, b.config, a.ntrials * sizeof(*a.config));
	assert_int_equal(sweep_design(&c, 4, 5, 8), 0);
	assert_memory_not_equal(a.config, c.config, a.ntrials * sizeof(*a.config));
	sweep_design_free(&a);
	sweep_design_free(&b);
	sweep_design_free(&c);
	assert_int_equal(sweep_design(&a, 0, 5, 1), -EINVAL);
}

static void test_stats(void **state)
{
	const double x[] = { 1, 4, 16 }, k[] = { 2, 2, 2, 2 }, e[] = { 3, 1, 2, 4 };
	double lo, hi, lo2, hi2;

	(void)state;
	assert_float_equal(stats_geomean(x, 3), 4, 1e-12);
	assert_float_equal(stats_median(x, 3), 4, 0);
	assert_float_equal(stats_median(e, 4), 2.5, 0);
	assert_int_equal(stats_bootstrap(k, 4, stats_geomean, 0.95, 1000, 1, &lo, &hi), 0);
	assert_float_equal(lo, 2, 1e-12);
	assert_float_equal(hi, 2, 1e-12);
	/* within the sample's range, reproducible, wider at a higher level */
	assert_int_equal(stats_bootstrap(x, 3, stats_geomean, 0.95, 5000, 3, &lo, &hi), 0);
	assert_true(lo >= 1 && hi <= 16 && lo < 4 && hi > 4);
	assert_int_equal(stats_bootstrap(x, 3, stats_geomean, 0.95, 5000, 3, &lo2, &hi2), 0);
	assert_float_equal(lo, lo2, 0);
	assert_float_equal(hi, hi2, 0);
	assert_int_equal(stats_bootstrap(x, 3, stats_geomean, 0.99, 5000, 3, &lo2, &hi2), 0);
	assert_true(lo2 <= lo && hi2 >= hi);
}

/* Student's t quantiles against published tables, and the interval. */
static void test_t(void **state)
{
	static const struct { double p, df, t; } rows[] = {
		{ 0.975, 1, 12.7062047 }, { 0.975, 3, 3.1824463 }, { 0.975, 4, 2.7764451 },
		{ 0.975, 10, 2.2281389 }, { 0.995, 3, 5.8409093 },
		{ 0.5, 5, 0 }, { 0.025, 4, -2.7764451 }, { 0.975, 1e6, 1.9599664 },
	};
	const double x[] = { 1, 2, 3, 4, 5 };
	double m, lo, hi;

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		assert_float_equal(stats_t_quantile(rows[i].p, rows[i].df), rows[i].t,
				   1e-6);
	/* mean 3, s = sqrt(2.5), t(0.975, 4) = 2.7764: 3 -+ 1.9632 */
	stats_t_interval(x, 5, 0.95, &m, &lo, &hi);
	assert_float_equal(m, 3, 1e-12);
	assert_float_equal(lo, 3 - 2.7764451 * sqrt(2.5 / 5), 1e-6);
	assert_float_equal(hi, 3 + 2.7764451 * sqrt(2.5 / 5), 1e-6);
	stats_t_interval(x, 1, 0.95, &m, &lo, &hi);
	assert_float_equal(lo, 1, 0);
	assert_float_equal(hi, 1, 0);
}

/* m for nblocks x 3 configurations: the baseline, one `effect` times it,
 * one equal to it (A/A); every run moves by up to +-jitter, and the device
 * by up to +-drift between blocks (the pairing takes that out). */
static void synth(double *m, unsigned nblocks, double effect, double jitter, double drift,
		  uint64_t seed)
{
	struct wl_rng r;

	wl_rng_seed(&r, seed);
	for (unsigned b = 0; b < nblocks; b++) {
		double dev = 1 + drift * ((double)wl_rng_below(&r, 2001) / 1000 - 1);

		for (unsigned k = 0; k < 3; k++) {
			double j = 1 + jitter * ((double)wl_rng_below(&r, 2001) / 1000 - 1);

			m[b * 3 + k] = 1000 * dev * j * (k == 1 ? effect : 1);
		}
	}
}

static void test_verdicts(void **state)
{
	double m[5 * 3];
	struct sweep_verdict v;
	unsigned better = 0, worse = 0, aa = 0;

	(void)state;
	/* 100 synthetic sweeps: a real 25 % gain is always found, a 25 % loss
	 * always, and the A/A arm never leaves "~", whatever the device does
	 * between blocks (20 %) with 1 % jitter per run. */
	for (uint64_t s = 1; s <= 100; s++) {
		synth(m, 5, 1.25, 0.01, 0.2, s);
		sweep_compare(m, 5, 3, 1, 0.03, 2, s, &v);
		better += v.verdict == 1;
		assert_true(v.lo <= v.ratio && v.ratio <= v.hi);
		assert_float_equal(v.level, 0.975, 1e-12);
		sweep_compare(m, 5, 3, 2, 0.03, 2, s, &v);
		aa += v.verdict != 0;
		synth(m, 5, 0.75, 0.01, 0.2, s);
		sweep_compare(m, 5, 3, 1, 0.03, 2, s, &v);
		worse += v.verdict == -1;
	}
	assert_int_equal(better, 100);
	assert_int_equal(worse, 100);
	assert_int_equal(aa, 0);
	/* an effect inside the noise band is no verdict, however sure */
	synth(m, 5, 1.02, 0.001, 0, 1);
	sweep_compare(m, 5, 3, 1, 0.03, 1, 1, &v);
	assert_int_equal(v.verdict, 0);
	assert_true(v.lo > 1.01);
}

static void test_drift(void **state)
{
	const double flat[] = { 100, 102, 99, 101, 100, 98 };
	const double step[] = { 100, 101, 99, 80, 81, 79 };
	const double odd_last[] = { 222, 217, 216, 221, 223, 170 };	/* one odd run */
	const double noisy[] = { 100, 130, 80, 110, 70, 105 };
	const double slope[] = { 100, 96, 92, 88, 84, 80, 76 };
	double change;

	(void)state;
	assert_false(sweep_drifted(flat, 6, 0.03, &change));
	assert_true(fabs(change) < 0.03);
	assert_true(sweep_drifted(step, 6, 0.03, &change));
	assert_float_equal(change, -0.2, 0.01);
	/* a single odd run at the end is no drift (a first-and-last test
	 * called this -23 %) */
	assert_false(sweep_drifted(odd_last, 6, 0.03, &change));
	/* a baseline that moves 30 % anyway: 10 % is no drift */
	assert_false(sweep_drifted(noisy, 6, 0.03, &change));
	assert_true(sweep_drifted(slope, 7, 0.03, &change));
	assert_false(sweep_drifted(flat, 3, 0.03, &change));	/* too few runs */
}

/* ---- noise that is not Gaussian: tune's sweeps on synthetic devices ------- */

/* How a synthetic device answers: the figure of a trial. */
struct noise {
	double bimodal;		/* share of trials in the slow mode (0: none) */
	double slow;		/* the slow mode's factor (0.5: half the rate) */
	double burst;		/* factor of the two trials in a row a burst hits (0: none) */
	double burst_p;		/* the chance of a burst in a block */
	double jitter;		/* +- uniform per trial */
	double effect[TUNE_MAX_CONFIGS];	/* each configuration's true factor (0: 1) */
	double p99_effect[TUNE_MAX_CONFIGS];	/* on p99 (0: 1) */
};

static double uniform(struct wl_rng *r)
{
	return (double)wl_rng_below(r, 1000001) / 1e6;
}

/* A sweep of nconfig values (the last the control, the current one
 * again) over nblocks blocks and 2 tests, run in sweep_design's order on
 * a device with noise n. */
static void run_synthetic(struct tune_sweep *s, unsigned nconfig, unsigned nblocks,
			  const struct noise *n, uint64_t seed)
{
	struct sweep_design d;
	struct wl_rng r;
	unsigned pos = 0, hit = 0;

	memset(s, 0, sizeof(*s));
	s->knob = KNOB_READ_AHEAD;
	s->nconfig = nconfig;
	for (unsigned k = 0; k + 1 < nconfig; k++)
		snprintf(s->configs[k], sizeof(s->configs[k]), "%u", k ? 64u << k : 2560u);
	snprintf(s->configs[nconfig - 1], sizeof(s->configs[0]), "2560");
	s->ntests = 2;
	snprintf(s->tests[0], sizeof(s->tests[0]), "seq-read 4k qd1");
	snprintf(s->tests[1], sizeof(s->tests[1]), "seq-read 128k qd1");
	s->planned = (nblocks * nconfig + 2) * s->ntests;
	assert_int_equal(sweep_design(&d, nconfig, nblocks, seed), 0);
	wl_rng_seed(&r, seed * 7919 + 1);
	for (unsigned i = 0; i < d.ntrials; i++) {
		unsigned k = d.config[i];

		/* a burst: two trials in a row of each block run slow */
		if (d.block[i] != SWEEP_OUTSIDE && pos == 0)
			hit = uniform(&r) < n->burst_p ? (unsigned)wl_rng_below(&r, nconfig - 1) :
			      UINT32_MAX - 1;
		for (unsigned t = 0; t < s->ntests; t++) {
			double f = 1 + n->jitter * (2 * uniform(&r) - 1);
			struct tune_trial tr = { .config = k, .block = d.block[i], .test = t };

			if (n->bimodal && uniform(&r) < n->bimodal)
				f *= n->slow;
			if (n->burst && d.block[i] != SWEEP_OUTSIDE && (pos == hit || pos == hit + 1))
				f *= n->burst;
			tr.bytes_per_sec = 1e8 * f * (n->effect[k] ? n->effect[k] : 1);
			tr.iops = tr.bytes_per_sec / 4096;
			tr.lat_p99_ns = (uint64_t)(1e5 / f * (n->p99_effect[k] ? n->p99_effect[k] : 1));
			assert_int_equal(tune_add_trial(s, &tr), 0);
		}
		if (d.block[i] != SWEEP_OUTSIDE)
			pos = (pos + 1) % nconfig;
	}
	sweep_design_free(&d);
}

/* Any verdict of a non-control value, or of the control. */
static bool any_verdict(const struct tune_sweep *s, bool control)
{
	for (unsigned k = 1; k < s->nconfig; k++)
		for (unsigned t = 0; t < s->ntests; t++)
			if (tune_is_control(s, k) == control &&
			    (s->cells[k][t].thr.verdict || s->cells[k][t].p99.verdict))
				return true;
	return false;
}

/* Student's t alone, as tune judged before the randomization test: its
 * Bonferroni intervals of every value on every test and metric. */
static bool t_alone_alarms(const struct tune_sweep *s, unsigned nblocks)
{
	double m[TUNE_MAX_BLOCKS * TUNE_MAX_CONFIGS];
	struct sweep_verdict v;

	for (unsigned t = 0; t < s->ntests; t++) {
		for (int metric = 0; metric < 2; metric++) {
			for (unsigned i = 0; i < s->ntrials; i++) {
				const struct tune_trial *tr = &s->trials[i];

				if (tr->test == t && tr->block != SWEEP_OUTSIDE)
					m[tr->block * s->nconfig + tr->config] = metric ?
						(double)tr->lat_p99_ns : tr->bytes_per_sec;
			}
			for (unsigned k = 1; k < s->nconfig; k++) {
				sweep_compare(m, nblocks, s->nconfig, k, 0.03,
					      (s->nconfig - 1) * s->ntests, 1, &v);
				if (v.verdict)
					return true;
			}
		}
	}
	return false;
}

static void test_bimodal_false_alarms(void **state)
{
	/* QD1 on the 2-core VM: trials at about half the rate (CPU
	 * placement), a burst of other load on two trials in a row, jitter;
	 * every value is the current one (an A/A sweep). */
	static const struct {
		unsigned nconfig, nblocks;
		struct noise n;
	} rows[] = {
		/* the default readahead sweep's shape, half the trials slow,
		 * a burst in every other block */
		{ 7, 5, { .bimodal = 0.5, .slow = 0.5, .burst = 0.6, .burst_p = 0.5,
			  .jitter = 0.02 } },
		/* none, bfq and the control over 8 blocks (tune.sh's) */
		{ 3, 8, { .bimodal = 0.5, .slow = 0.5, .jitter = 0.01 } },
		{ 3, 8, { .bimodal = 0.5, .slow = 0.6, .burst = 0.6, .burst_p = 0.5,
			  .jitter = 0.02 } },
		/* a rare slow mode: one outlier in a few blocks */
		{ 3, 5, { .bimodal = 0.2, .slow = 0.5, .jitter = 0.01 } },
		/* the control alone, at the fewest blocks it allows */
		{ 2, 6, { .bimodal = 0.5, .slow = 0.5, .jitter = 0.01 } },
	};
	const unsigned sweeps = 200;
	static struct tune_sweep s;

	(void)state;
	for (size_t row = 0; row < sizeof(rows) / sizeof(rows[0]); row++) {
		unsigned alarms = 0, t_alarms = 0, recs = 0, vetoes = 0;
		const unsigned nb = rows[row].nblocks;

		for (unsigned i = 0; i < sweeps; i++) {
			run_synthetic(&s, rows[row].nconfig, nb, &rows[row].n, 1000 + i);
			assert_int_equal(tune_analyze(&s, nb, 0.03, 1000 + i), 0);
			alarms += any_verdict(&s, false) || any_verdict(&s, true);
			t_alarms += t_alone_alarms(&s, nb);
			recs += s.recommended >= 0;
			vetoes += s.vetoed;
			free(s.trials);
		}
		printf("# A/A, %u values x 2 tests x 2 metrics, %u blocks, %.0f %% slow trials, "
		       "bursts in %.0f %% of blocks: %u of %u sweeps with a false verdict "
		       "(Student's t alone: %u), %u false recommendations, %u vetoes\n",
		       rows[row].nconfig, nb, 100 * rows[row].n.bimodal, 100 * rows[row].n.burst_p,
		       alarms, sweeps, t_alarms, recs, vetoes);
		/* the family-wise 5 %: 10 in 200 expected at most; 3 sd of slack */
		assert_true(alarms <= 20);
		/* a false verdict on a value that the control does not veto */
		assert_true(recs <= alarms);
	}
}

static void test_power(void **state)
{
	/* one value 30 % or 10 % faster, 3 % jitter; with and without a
	 * burst in one block of five; the default 5 blocks, 7 values */
	struct noise n = { .jitter = 0.03 };
	static struct tune_sweep s;

	(void)state;
	for (int bursty = 0; bursty < 2; bursty++) {
		unsigned found = 0, found10 = 0, drifts = 0;

		n.burst = bursty ? 0.7 : 0;
		n.burst_p = bursty ? 0.2 : 0;
		n.effect[2] = 1.3;
		for (unsigned i = 0; i < 100; i++) {
			run_synthetic(&s, 7, 5, &n, 5000 + i);
			assert_int_equal(tune_analyze(&s, 5, 0.03, 5000 + i), 0);
			found += s.recommended == 2;
			drifts += s.drifted;
			/* never another value */
			assert_true(s.recommended == 2 || s.recommended == -1);
			free(s.trials);
		}
		n.effect[2] = 1.1;
		for (unsigned i = 0; i < 100; i++) {
			run_synthetic(&s, 7, 5, &n, 6000 + i);
			assert_int_equal(tune_analyze(&s, 5, 0.03, 6000 + i), 0);
			found10 += s.recommended == 2;
			free(s.trials);
		}
		printf("# %s: a 30 %% gain recommended in %u of 100 sweeps (%u stopped by the "
		       "drift check), 10 %% in %u of 100\n", bursty ?
		       "3 % jitter, a burst in 1 block of 5" : "3 % jitter", found, drifts, found10);
		/* found every time, unless the drift check stopped it */
		if (!bursty)
			assert_int_equal(found + drifts, 100);
		/* a burst in a block of five costs some: most are still found */
		if (bursty)
			assert_true(found >= 60);
	}
}

static void test_rule(void **state)
{
	struct noise n = { .jitter = 0.01 };
	static struct tune_sweep s;

	(void)state;
	/* p99 better at one value, throughput the same: recommended */
	n.p99_effect[3] = 0.5;
	run_synthetic(&s, 5, 5, &n, 11);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 11), 0);
	assert_int_equal(s.control, 4);
	assert_int_equal(s.cells[3][0].p99.verdict, -1);
	assert_int_equal(s.cells[3][0].thr.verdict, 0);
	assert_int_equal(s.recommended, 3);
	free(s.trials);
	/* two values worse, none better: keep, and say so */
	n = (struct noise){ .jitter = 0.01 };
	n.effect[1] = 0.5;
	n.effect[2] = 0.7;
	run_synthetic(&s, 5, 5, &n, 12);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 12), 0);
	assert_int_equal(s.recommended, -1);
	assert_string_equal(s.reason, "keep 2560: 128 and 256 are worse; no value is better");
	free(s.trials);
	/* better on one test, worse on the other's p99: not recommended */
	n = (struct noise){ .jitter = 0.01 };
	n.effect[1] = 1.5;
	n.p99_effect[1] = 2;
	run_synthetic(&s, 5, 5, &n, 13);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 13), 0);
	assert_int_equal(s.recommended, -1);
	assert_non_null(strstr(s.reason, "128 is better on one test but worse on another"));
	free(s.trials);
	/* the control differs (the machine changed under it): a veto, even
	 * with a value that looks better */
	n = (struct noise){ .jitter = 0.01 };
	n.effect[1] = 1.5;
	n.effect[4] = 1.4;
	run_synthetic(&s, 5, 5, &n, 14);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 14), 0);
	assert_true(s.vetoed);
	assert_int_equal(s.recommended, -1);
	assert_non_null(strstr(s.reason, "the control (2560 again) differs from 2560"));
	assert_non_null(strstr(s.reason, "on seq-read 4k qd1: throughput better 1.40x ["));
	assert_non_null(strstr(s.reason, "more --blocks than 5"));
	free(s.trials);
	/* nothing differs */
	n = (struct noise){ .jitter = 0.01 };
	run_synthetic(&s, 5, 5, &n, 15);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 15), 0);
	assert_non_null(strstr(s.reason, "no significant difference: keep 2560"));
	free(s.trials);
}

/* Every trial of value k in block b fails with I/O errors, as on a
 * device that gave errors under that setting. */
static void fail_block(struct tune_sweep *s, unsigned k, unsigned b)
{
	for (unsigned i = 0; i < s->ntrials; i++) {
		struct tune_trial *t = &s->trials[i];

		if (t->config != k || t->block != b)
			continue;
		t->errors = 3;
		t->bytes_per_sec = t->iops = 0;
		t->lat_p99_ns = 0;
		assert_false(tune_trial_judge(t, 0));
	}
}

static void test_failed_value(void **state)
{
	struct noise n = { .jitter = 0.01 };
	static struct tune_sweep s;

	(void)state;
	/* 128 fails in 3 of 5 blocks: no verdict for it, named with its
	 * trials; 512, 50 % faster, is still recommended over all 5 blocks */
	n.effect[3] = 1.5;
	run_synthetic(&s, 5, 5, &n, 21);
	for (unsigned b = 0; b < 3; b++)
		fail_block(&s, 1, b);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 21), 0);
	assert_true(s.analyzed);
	assert_int_equal(s.ninvalid, 3 * 2);
	assert_true(s.unjudged[1]);
	assert_false(s.unjudged[2] || s.unjudged[3] || s.unjudged[4]);
	assert_int_equal(s.nused, 5);
	assert_int_equal(s.ncompared, 2 * 3 * 2);
	for (unsigned t = 0; t < s.ntests; t++) {
		assert_int_equal(s.cells[1][t].thr.verdict, 0);
		assert_int_equal(s.cells[1][t].p99.verdict, 0);
		assert_true(isnan(s.cells[1][t].thr.ratio));
		assert_int_equal(s.cells[3][t].thr.verdict, 1);
	}
	assert_int_equal(s.recommended, 3);
	assert_non_null(strstr(s.unjudged_why[1], "128: no verdict: its trials and those of "
				"2560 (the current value) are valid together in 2 of 5 blocks"));
	assert_non_null(strstr(s.unjudged_why[1], "128 seq-read 4k qd1 in block 1: 3 I/O errors"));
	assert_non_null(strstr(s.unjudged_why[1], "128 seq-read 128k qd1 in block 3: 3 I/O errors"));
	assert_non_null(strstr(s.reason, "512: better than 2560"));
	assert_non_null(strstr(s.reason, "; no verdict for 128 (trials failed in too many blocks)"));
	free(s.trials);

	/* 128 fails in one block: still judged, every value on the other 4 */
	run_synthetic(&s, 5, 5, &n, 22);
	fail_block(&s, 1, 4);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 22), 0);
	assert_false(s.unjudged[1]);
	assert_int_equal(s.nused, 4);
	assert_int_equal(s.recommended, 3);
	assert_null(strstr(s.reason, "no verdict"));
	free(s.trials);

	/* the control fails in 3 blocks: the noise is not checked, nothing
	 * is recommended though 512 is better */
	run_synthetic(&s, 5, 5, &n, 23);
	for (unsigned b = 2; b < 5; b++)
		fail_block(&s, 4, b);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 23), 0);
	assert_true(s.unjudged[4]);
	assert_int_equal(s.cells[3][0].thr.verdict, 1);
	assert_int_equal(s.recommended, -1);
	assert_non_null(strstr(s.reason, "the control (2560 again) has no verdict"));
	free(s.trials);

	/* the current value fails in 3 blocks: no value can be judged */
	run_synthetic(&s, 5, 5, &n, 24);
	for (unsigned b = 0; b < 3; b++)
		fail_block(&s, 0, b);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 24), -EINVAL);
	assert_false(s.analyzed);
	assert_int_equal(s.recommended, -1);
	for (unsigned k = 1; k < 5; k++)
		assert_true(s.unjudged[k]);
	assert_non_null(strstr(s.reason, "no verdict for any value"));
	free(s.trials);
}

static void test_failed_aa(void **state)
{
	/* an A/A sweep (7 values, 5 blocks, half the trials slow) where one
	 * value fails in 2 blocks and another in a third: the first gets no
	 * verdict, the rest are judged on the 4 blocks complete for them,
	 * and false verdicts stay within the family's 5 % */
	const struct noise n = { .bimodal = 0.5, .slow = 0.5, .jitter = 0.02 };
	const unsigned sweeps = 200;
	static struct tune_sweep s;
	unsigned alarms = 0;

	(void)state;
	for (unsigned i = 0; i < sweeps; i++) {
		run_synthetic(&s, 7, 5, &n, 3000 + i);
		fail_block(&s, 2, 0);
		fail_block(&s, 2, 1);
		fail_block(&s, 5, 3);
		assert_int_equal(tune_analyze(&s, 5, 0.03, 3000 + i), 0);
		assert_true(s.unjudged[2]);
		assert_false(s.unjudged[5]);
		assert_int_equal(s.nused, 4);
		alarms += any_verdict(&s, false) || any_verdict(&s, true);
		free(s.trials);
	}
	printf("# A/A with failed trials, 7 values x 5 blocks, one value without a verdict: "
	       "%u of %u sweeps with a false verdict\n", alarms, sweeps);
	assert_true(alarms <= 20);
}

/* Sweep s (run_synthetic's, every one of its nblocks blocks in) as the
 * sequential design runs it: a look after each block that has one; at the
 * first settled look it stops, its last baseline run after that block.
 * Returns the blocks run. */
static unsigned run_sequential(struct tune_sweep *s, unsigned nblocks, double noise,
			       uint64_t seed)
{
	const unsigned nt = s->ntests, full = s->ntrials;

	s->max_blocks = nblocks;
	for (unsigned n = 1; n < nblocks; n++) {
		s->ntrials = (1 + n * s->nconfig) * nt;
		if (!tune_look(s, n, noise, seed))
			continue;
		assert_true(sweep_look_alpha(s->nconfig, n, nblocks, TUNE_ALPHA) > 0);
		memmove(&s->trials[s->ntrials], &s->trials[full - nt], nt * sizeof(*s->trials));
		s->ntrials += nt;
		s->planned = s->ntrials;
		s->stopped_early = true;
		s->nblocks_run = n;
		assert_int_equal(tune_analyze(s, n, noise, seed), 0);
		assert_true(s->alpha < TUNE_ALPHA);
		return n;
	}
	s->ntrials = full;
	assert_int_equal(tune_analyze(s, nblocks, noise, seed), 0);
	return nblocks;
}

/* The levels of the looks add up to alpha at most, and each look can
 * find something; a design too short for interim looks keeps alpha. */
static void test_spending(void **state)
{
	(void)state;
	for (unsigned nc = 2; nc <= 8; nc++) {
		for (unsigned nmax = 2; nmax <= 40; nmax++) {
			double sum = 0, interim = 0;

			for (unsigned n = 1; n <= nmax; n++) {
				double a = sweep_look_alpha(nc, n, nmax, TUNE_ALPHA);

				if (a > 0 && n < nmax) {
					assert_true(n >= SWEEP_FIRST_LOOK);
					assert_true(sweep_min_p_one(nc, n) <= a);
					interim += a;
				}
				sum += a;
			}
			assert_true(sum <= TUNE_ALPHA + 1e-12);
			assert_true(interim <= TUNE_ALPHA * SWEEP_INTERIM + 1e-12);
			if (interim == 0)
				assert_true(sweep_look_alpha(nc, nmax, nmax, TUNE_ALPHA) == TUNE_ALPHA);
		}
	}
	/* the default readahead sweep (7 values): a look after block 4 of 5
	 * (after 3, 7^-2 > 0.005 could find nothing) */
	assert_true(sweep_look_alpha(7, 3, 5, TUNE_ALPHA) == 0);
	assert_true(sweep_look_alpha(7, 4, 5, TUNE_ALPHA) == TUNE_ALPHA * SWEEP_INTERIM);
	assert_true(sweep_look_alpha(7, 5, 5, TUNE_ALPHA) == TUNE_ALPHA * (1 - SWEEP_INTERIM));
	/* 4 schedulers: 4^-3 > 0.01, no look before the last of 5 blocks */
	assert_true(sweep_look_alpha(4, 4, 5, TUNE_ALPHA) == 0);
	assert_true(sweep_look_alpha(4, 5, 5, TUNE_ALPHA) == TUNE_ALPHA);
	/* the control alone over 6 blocks: no interim look can find anything */
	assert_true(sweep_look_alpha(2, 5, 6, TUNE_ALPHA) == 0);
	assert_true(sweep_look_alpha(2, 6, 6, TUNE_ALPHA) == TUNE_ALPHA);
}

/* Under the null (A/A sweeps, bimodal and bursty noise as above) a sweep
 * that may stop early has no more false verdicts than alpha allows, over
 * every look it could stop at; with little noise, identical values are
 * settled within the band and the sweep stops at the first look. */
static void test_sequential_null(void **state)
{
	static const struct {
		unsigned nconfig, nblocks;
		struct noise n;
		bool stops;	/* every sweep should stop at the first look */
	} rows[] = {
		{ 7, 5, { .bimodal = 0.5, .slow = 0.5, .burst = 0.6, .burst_p = 0.5,
			  .jitter = 0.02 }, .stops = false },
		{ 3, 8, { .bimodal = 0.5, .slow = 0.6, .burst = 0.6, .burst_p = 0.5,
			  .jitter = 0.02 }, .stops = false },
		{ 5, 10, { .bimodal = 0.2, .slow = 0.5, .jitter = 0.01 }, .stops = false },
		{ 7, 5, { .jitter = 0.003 }, .stops = true },
	};
	const unsigned sweeps = 200;
	static struct tune_sweep s;

	(void)state;
	for (size_t row = 0; row < sizeof(rows) / sizeof(rows[0]); row++) {
		unsigned alarms = 0, early = 0, recs = 0, blocks = 0;
		const unsigned nb = rows[row].nblocks;

		for (unsigned i = 0; i < sweeps; i++) {
			unsigned ran;

			run_synthetic(&s, rows[row].nconfig, nb, &rows[row].n, 7000 + i);
			ran = run_sequential(&s, nb, 0.03, 7000 + i);
			early += ran < nb;
			blocks += ran;
			alarms += any_verdict(&s, false) || any_verdict(&s, true);
			recs += s.recommended >= 0;
			free(s.trials);
		}
		printf("# sequential A/A, %u values, up to %u blocks, %.1f %% jitter, %.0f %% slow "
		       "trials: %u of %u sweeps with a false verdict, %u false recommendations, "
		       "%u stopped early (%.2f blocks on average)\n", rows[row].nconfig, nb,
		       100 * rows[row].n.jitter, 100 * rows[row].n.bimodal, alarms, sweeps, recs,
		       early, (double)blocks / sweeps);
		/* the family-wise 5 % over every look: 10 in 200 expected at most */
		assert_true(alarms <= 20);
		assert_true(recs <= alarms);
		if (rows[row].stops)	/* at the first look, after block 4 */
			assert_int_equal(blocks, sweeps * (nb - 1));
	}
}

/* A clear answer stops the sweep at the first look, with the right
 * verdicts: one value much faster, one much slower, the rest (and the
 * control) the current value's speed, little noise. */
static void test_sequential_clear(void **state)
{
	struct noise n = { .jitter = 0.004 };
	static struct tune_sweep s;
	unsigned early = 0, right = 0;

	(void)state;
	n.effect[2] = 1.5;
	n.p99_effect[2] = 0.6;
	n.effect[4] = 0.6;
	n.p99_effect[4] = 1.7;
	for (unsigned i = 0; i < 100; i++) {
		unsigned ran;

		run_synthetic(&s, 7, 5, &n, 8000 + i);
		ran = run_sequential(&s, 5, 0.03, 8000 + i);
		early += ran == 4;
		right += s.recommended == 2 && s.cells[4][0].thr.verdict < 0 &&
			 s.cells[4][1].thr.verdict < 0 && s.cells[2][0].thr.verdict > 0;
		assert_true(s.recommended == 2 || s.recommended == -1);
		free(s.trials);
	}
	printf("# a 1.5x and a 0.6x value among 7, 0.4 %% jitter, up to 5 blocks: %u of 100 "
	       "stopped after 4 blocks, %u with every verdict right\n", early, right);
	assert_true(early >= 95);
	assert_true(right >= 95);
	/* 3 % jitter: the settled verdicts take longer, and the budget's last
	 * look still finds a 30 % gain every time */
	n = (struct noise){ .jitter = 0.03 };
	n.effect[2] = 1.3;
	right = 0;
	for (unsigned i = 0; i < 100; i++) {
		run_synthetic(&s, 7, 5, &n, 9000 + i);
		run_sequential(&s, 5, 0.03, 9000 + i);
		right += s.recommended == 2 || s.drifted;
		free(s.trials);
	}
	printf("# a 30 %% gain, 3 %% jitter, sequential: recommended (or the drift check "
	       "stopped it) in %u of 100\n", right);
	assert_int_equal(right, 100);
}

/* A value better than the current one by more than the band, but not than
 * the current one's second measurement (the control, a little faster and
 * still within the band): the calibration's false recommendation, in
 * which the baseline ran slow. The control must bear a verdict out: none
 * is claimed, nothing is recommended, and the reason names the control.
 * The same trials with that last value not the current one (no control):
 * recommended, as before. */
static void test_control_bears_out(void **state)
{
	struct noise n = { .jitter = 0.003 };
	static struct tune_sweep s;

	(void)state;
	n.effect[1] = 1.045;
	n.p99_effect[1] = 1 / 1.045;
	n.effect[3] = 1.02;	/* the control: 2560 again */
	n.p99_effect[3] = 1 / 1.02;
	run_synthetic(&s, 4, 5, &n, 77);
	assert_int_equal(tune_analyze(&s, 5, 0.03, 77), 0);
	assert_int_equal(s.control, 3);
	assert_false(s.vetoed);		/* 2 %: within the band */
	for (unsigned t = 0; t < 2; t++) {
		const struct tune_cell *c = &s.cells[1][t];

		assert_true(c->thr.lo > 1.03);		/* beyond the band against 2560 */
		assert_true(c->has_ctl && c->thr_ctl.verdict == 0);
		assert_true(c->thr_dropped && c->thr.verdict == 0);
		assert_true(c->thr_ctl.ratio > 1.015 && c->thr_ctl.ratio < 1.035);
	}
	assert_true(s.ndropped >= 2);
	assert_int_equal(s.recommended, -1);
	assert_non_null(strstr(s.reason, "not claimed: the control (2560 again) did not bear"));
	free(s.trials);
	/* no control: the same figures, the value recommended */
	run_synthetic(&s, 4, 5, &n, 77);
	snprintf(s.configs[3], sizeof(s.configs[3]), "8192");
	assert_int_equal(tune_analyze(&s, 5, 0.03, 77), 0);
	assert_int_equal(s.control, -1);
	assert_int_equal(s.ndropped, 0);
	assert_int_equal(s.recommended, 1);
	free(s.trials);
}

static void test_min_blocks(void **state)
{
	(void)state;
	/* the A/A alone: 2^n labellings, 2 of them the most extreme */
	assert_int_equal(tune_min_blocks(2), 6);
	assert_true(sweep_min_p(2, 5) > TUNE_ALPHA);
	assert_true(sweep_min_p(2, 6) <= TUNE_ALPHA);
	assert_int_equal(tune_min_blocks(3), 3);
	assert_int_equal(tune_min_blocks(7), 2);
	/* one value far from the others: its figures under any one label in
	 * every block are as extreme */
	assert_true(sweep_min_p_one(3, 3) > TUNE_ALPHA);
	assert_true(sweep_min_p_one(3, 4) <= TUNE_ALPHA);
	assert_true(fabs(sweep_min_p_one(7, 4) - 1.0 / 343) < 1e-12);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_design),
		cmocka_unit_test(test_stats),
		cmocka_unit_test(test_t),
		cmocka_unit_test(test_verdicts),
		cmocka_unit_test(test_drift),
		cmocka_unit_test(test_bimodal_false_alarms),
		cmocka_unit_test(test_power),
		cmocka_unit_test(test_spending),
		cmocka_unit_test(test_sequential_null),
		cmocka_unit_test(test_sequential_clear),
		cmocka_unit_test(test_control_bears_out),
		cmocka_unit_test(test_rule),
		cmocka_unit_test(test_failed_value),
		cmocka_unit_test(test_failed_aa),
		cmocka_unit_test(test_min_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
