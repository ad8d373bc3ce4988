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

	/*
	 * Over the runs (the unit of a sample is one --repeat pass, never one
	 * I/O or one second): nbefore and nafter runs carry this metric (0
	 * for p99.9, whose runs are not kept). med_ratio = median of after's
	 * runs / median of before's; NaN without runs or with a median of 0.
	 * With COMPARE_MIN_RUNS runs or more on both sides, [lo, hi] is the
	 * exact rank interval of the ratio (stats_rank_ratio) at 95 %
	 * family-wise, Bonferroni over the verdicts of the pair (see
	 * compare_pair.family), level what it holds (less when the runs are
	 * too few to reach that), and low_confidence is false. With fewer on a
	 * side, low_confidence is true and [lo, hi] is the range of the runs'
	 * ratios (min after / max before .. max after / min before), level 0.
	 * lo = hi = NaN when either side has no run.
	 */
	unsigned nbefore, nafter;
	double med_ratio, lo, hi, level;
	bool low_confidence;
	/* CMP_BETTER / CMP_WORSE when the whole interval lies beyond the
	 * noise band on that side (for a metric where lower is better, a ratio
	 * below 1 - noise is better), CMP_SAME ("~") when it does not;
	 * CMP_UNJUDGED when no interval could be had (low confidence, no
	 * runs) or the metric takes no verdict (only throughput and p99 do). */
	int verdict;
};

enum compare_verdict { CMP_WORSE = -1, CMP_SAME = 0, CMP_BETTER = 1, CMP_UNJUDGED = 2 };

#define COMPARE_NOISE_K 2.0
#define COMPARE_MIN_RUNS 5	/* fewer runs on a side: low confidence */
#define COMPARE_MAX_RUNS 100	/* runs per side taken into an interval (REPEAT_MAX) */
#define COMPARE_NOISE 0.03	/* the default noise band, +-3 % */
/* The intervals were seeded bootstraps until the rank intervals came; the
 * JSON's method still names these (0 resamples now: nothing is drawn). */
#define COMPARE_RESAMPLES 0
#define COMPARE_SEED 0x6469736b62656e63ull

/* Does metric m take a verdict (throughput: IOPS, MB/s; p99)? */
bool compare_judged(enum compare_metric m);

/*
 * A ratio of throughput (after / before) and its interval in words:
 * "2.6x faster [2.4, 2.8]" from 2x on, "11 % slower [8, 14]" below, the
 * interval in the same unit as the change. buf gets "" for a ratio that
 * is not > 0. Returns buf.
 */
const char *compare_change_words(double ratio, double lo, double hi, char *buf, size_t len);

/*
 * The change of metric m from before to after in words, for a ratio
 * after / before: throughput "2.6x faster", "11 % slower"; latency and CPU
 * per op "35.0x higher", "20 % lower". From 2x (or 1/2) on, a factor with
 * one decimal (none from 100x on), else a percentage of the baseline, so a
 * figure is never below -100 % and never reads as a gain when it is a
 * loss; "same" when the ratio rounds to 1 (|ratio - 1| < 0.05 %); "" for a
 * ratio that is not > 0 or not finite. Returns buf.
 */
const char *compare_metric_words(enum compare_metric m, double ratio, char *buf, size_t len);

/* Which tool and version made result r, in words: "diskbench 0.1.0",
 * "fio fio-3.33 (imported)", "hdparm, version not given (imported)".
 * Returns buf. */
const char *compare_made_by(const struct run_result *r, char *buf, size_t len);

/* What a pair's verdicts say taken together (compare_pair.outcome). */
enum compare_outcome {
	CMP_OUT_UNJUDGED,	/* no test had an interval to judge (too few runs) */
	CMP_OUT_SAME,		/* every judged test "~" */
	CMP_OUT_BETTER,		/* some judged better, none worse */
	CMP_OUT_WORSE,		/* some judged worse, none better */
	CMP_OUT_MIXED,		/* some better, some worse */
};

/* The outcome as a word for the JSON ("not judged", "unchanged", "better",
 * "worse", "mixed") and as a title for people ("Not judged", "No
 * significant change", "Better", "Worse", "Mixed"). */
const char *compare_outcome_key(enum compare_outcome o);
const char *compare_outcome_title(enum compare_outcome o);

/* One test present on both sides (matched by name). */
struct compare_test {
	const struct test_result *before, *after;
	struct compare_value m[CMP_NMETRICS];
	/* The parameters that make two tests comparable and differ here, e.g.
	 * "engine sync -> io_uring, jobs 1 -> 4"; "" when none does. */
	char mismatch[256];
	/* Why a side's runs failed ("after: 7 I/O errors", "before: no I/O
	 * completed"), "" when neither did: a failed side measured no
	 * setting's speed, so the test takes no verdict. */
	char failed[128];
	/*
	 * The machine's load as each side's jobs felt it: the share of their
	 * window they stood ready but waited for a CPU (test_result.
	 * cpu_wait_pct, the median of a side's runs; NaN when a side did not
	 * measure it). A job that waits w % of its time would be up to
	 * 1 / (1 - w) faster on an idle CPU (exactly so at QD1, where every
	 * wait delays the next request), so the CPU alone could make the
	 * after side machine_ratio = (1 - w_after) / (1 - w_before) as fast
	 * as the before side. The throughput verdict's band is the noise
	 * band widened on that side: [band_lo, band_hi] = [(1 - noise) x
	 * min(1, machine_ratio), (1 + noise) x max(1, machine_ratio)] (the
	 * noise band itself when either wait is unknown). busier: the
	 * machine alone could move it beyond the noise band; p99, which the
	 * waits move by more than the mean, then takes no verdict.
	 */
	double wait_before, wait_after, machine_ratio;
	double band_lo, band_hi;
	bool busier;
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
	/* Over the matched tests with an IOPS ratio > 0, no failed side
	 * (compare_test.failed) and measured alike (no mismatch): their count, the
	 * geometric mean of those ratios (NaN when none), and the index in
	 * tests[] of the lowest and the highest ratio (-1 when none).
	 * all_lost: every one of those ratios is below 1, so the best is only
	 * the least worse; all_gained: every one above 1, so the worst is
	 * only the smallest gain. */
	unsigned nratios;
	double geomean_iops;
	int worst, best;
	bool all_lost, all_gained;
	bool repeats;		/* every matched test has nruns > 1 on both sides */
	/* The verdicts of this pair: family = how many intervals were drawn
	 * for a verdict (per comparable test with enough runs: throughput
	 * and p99), the number the level is corrected for; counts of the
	 * throughput verdicts (IOPS) by kind over the matched tests. */
	unsigned family;
	/* The least any of those intervals holds (compare_value.level): at
	 * least 1 - 0.05 / family, or less when the runs are too few to reach
	 * it (5 and 5 runs hold at most 1 - 2 / 252, enough for 6 verdicts).
	 * The verdicts hold together at 1 - family (1 - level_held) or
	 * better (compare_family_level). */
	double level_held;
	/* The fewest runs a side (the same on both) that hold 1 - 0.05 /
	 * family with any spread, what the text advises when level_held is
	 * short of it (0: not even COMPARE_MAX_RUNS would) */
	unsigned runs_needed;
	unsigned nbetter, nworse, nsame, nunjudged;
	unsigned nfailed;	/* of the unjudged: tests a side of which failed */
	unsigned nmismatched;	/* of the unjudged: tests measured differently on the
				 * two sides (compare_test.mismatch), none failed */
	unsigned nbusier;	/* tests whose band the machine's load widened
				 * (compare_test.busier), comparable, none failed */
	/* The same counts of the p99 verdicts (lower latency is better). */
	unsigned p99_better, p99_worse, p99_same, p99_unjudged;
	/* The throughput verdicts together, and the headline that opens the
	 * pair's report in every format: the outcome, how many tests went
	 * which way, the largest change each way with its test, the p99
	 * verdicts, e.g. "Worse: slower on 4 of 8 tests (at most 3.3x slower,
	 * rand-read 4k qd32), faster on none, 4 unchanged (~); p99 latency
	 * higher on 4 (at most 35.0x higher, rand-read 4k qd1), lower on none." */
	enum compare_outcome outcome;
	char headline[768];
	/* The throughput verdicts in words, for people: "after vs before:
	 * 2.6x faster [2.4, 2.8] on rand-read 4k qd32; 11 % slower [8, 14] on
	 * seq-write 1m; 4 tests unchanged (~)" (compare_words). */
	char words[1024];
};

/* How to compare; compare_build(..., NULL) takes the defaults. */
struct compare_opts {
	double noise;		/* the band within which a change is "~"; COMPARE_NOISE */
};

struct compare {
	double noise;		/* the band used */
	const struct run_result *base;
	const char *base_file, *base_label;
	struct compare_pair *pairs;
	unsigned npairs;
};

/*
 * Can results[0..n) be compared at all? A run on a block device and one in
 * a directory (or on a file) measure different things (a file system lies
 * between): -EINVAL and why in err, naming files[i]; else 0. A file and
 * a directory do not compare either, unless one side is another tool's
 * (fio names a file, bonnie++ a directory: both on a file system).
 */
int compare_check(const struct run_result *results, const char *const *files, unsigned n,
		  char *err, size_t errlen);

/*
 * Compare results[1..n) each against results[0], the baseline. files[i]
 * names results[i] (its label when it has none). c keeps pointers into
 * results and files: both must outlive it. o: the options, NULL for the
 * defaults. Returns 0, -EINVAL (a noise band outside [0, 1)) or -ENOMEM
 * (c then holds nothing); free with compare_free. Never prints. The same
 * inputs give the same intervals: nothing is drawn at random.
 */
int compare_build(struct compare *c, const struct run_result *results,
		  const char *const *files, unsigned n, const struct compare_opts *o);
void compare_free(struct compare *c);

/* The level at which p's verdicts hold together (Bonferroni): 0.95, or
 * less when its runs were too few for every interval to reach 1 - 0.05 /
 * family (compare_pair.level_held). 0.95 when p has no verdict. */
double compare_family_level(const struct compare_pair *p);

/* Were p's runs too few for its intervals to reach 1 - 0.05 / family
 * (level_held short of it: the reports then say so, with runs_needed)? */
bool compare_runs_too_few(const struct compare_pair *p);

/*
 * Is the drive itself another one: the model or the serial, known on both
 * sides, differs (an SSD upgrade, a result from another machine)? Then
 * words gets "different drive: MODEL (serial S) -> MODEL (serial S)",
 * else "". Pure: the renderers ask it of c->base and each pair's after.
 */
bool compare_drive_changed(const struct run_result *before, const struct run_result *after,
			   char *words, size_t len);

/* The text report (fits 100 columns) and the JSON document, schema
 * "diskbench-compare/1" (README.md: Comparing results). 0 or -errno. */
int report_compare_text(FILE *f, const struct compare *c);
int report_compare_json(FILE *f, const struct compare *c);

#endif
