/* tune_result.h - what a tune found: every trial, every verdict, what it recommends. */
#ifndef DISKBENCH_TUNE_RESULT_H
#define DISKBENCH_TUNE_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "result.h"
#include "sweep.h"
#include "tune.h"

#define TUNE_MAX_CONFIGS 24
#define TUNE_MAX_TESTS 16
#define TUNE_MAX_BLOCKS 100
#define TUNE_MAX_CPUS 256

/* One trial: one test of one configuration in one block. */
struct tune_trial {
	unsigned config;	/* index into tune_sweep.configs */
	unsigned block;		/* SWEEP_OUTSIDE for the baseline's first and last runs */
	unsigned test;		/* index into tune_sweep.tests */
	double iops, bytes_per_sec;
	uint64_t lat_p99_ns, runtime_ns, ops, errors;
	char invalid[128];	/* "" a valid trial; else why it is left out:
				 * "3 I/O errors", "no I/O completed" */
};

/*
 * Is t a trial the statistics may use? Not when it had I/O errors, made
 * no I/O, or ran far from its planned measured phase (planned_ns, 0: not
 * checked): under half of it, or over twice it and 2 s. Sets t->invalid
 * to the reason (or ""); returns true for a valid trial.
 */
bool tune_trial_judge(struct tune_trial *t, uint64_t planned_ns);

/* A side effect seen when configuration config of a sweep was applied. */
struct tune_sweep_effect {
	unsigned config;
	struct tune_effect fx;
};
#define TUNE_MAX_EFFECTS (2 * TUNE_MAX_CONFIGS)

/* A configuration on a test, over the blocks: medians, and against the
 * baseline (configuration 0) its paired throughput ratio and p99 ratio.
 * With a control, a value other than it is judged against the control too
 * (thr_ctl, p99_ctl: the current value's second measurement); a verdict
 * against the baseline stands only where the one against the control
 * says the same, else it is ~ and its *_dropped is set. */
struct tune_cell {
	double iops, bytes_per_sec;	/* medians over the blocks */
	uint64_t lat_p99_ns;
	struct sweep_verdict thr;	/* throughput: +1 better */
	struct sweep_verdict p99;	/* p99 latency: -1 (lower) is better */
	struct sweep_verdict thr_ctl, p99_ctl;	/* the same against the control */
	bool has_ctl;			/* thr_ctl and p99_ctl were judged */
	bool thr_dropped, p99_dropped;	/* a verdict the control did not bear out */
};

/* One knob's sweep. */
struct tune_sweep {
	enum tune_knob knob;
	char workload[256];		/* the profile its trials ran */
	unsigned nconfig;		/* configs[0] is the baseline: the value found */
	char configs[TUNE_MAX_CONFIGS][TUNE_VALUE_MAX];
	unsigned ntests;
	char tests[TUNE_MAX_TESTS][64];	/* names, as in a run's report */
	bool random[TUNE_MAX_TESTS];	/* random I/O: shown in IOPS, else MB/s */
	struct tune_trial *trials;	/* in the order they ran; owned */
	unsigned ntrials, planned;	/* ran, and planned (fewer: interrupted) */

	/* tune_analyze fills the rest. */
	bool analyzed;			/* every trial ran: cells, verdicts, drift */
	unsigned ncompared;		/* comparisons the correction covers */
	unsigned ndropped;		/* verdicts against the baseline that the
					 * control did not bear out (tune_cell) */
	int control;			/* the A/A control (the current value again;
					 * the first, if the list has it twice),
					 * or -1: none */
	bool vetoed;			/* the control differed: nothing recommended */
	unsigned resamples;		/* relabellings of the randomization test */
	struct tune_cell cells[TUNE_MAX_CONFIGS][TUNE_MAX_TESTS];
	bool drifted;
	double drift[TUNE_MAX_TESTS];	/* last / first baseline run - 1, per test */
	int recommended;		/* the configuration to use, or -1: keep */
	char reason[512];		/* why, in words */

	/* what the kernel changed beside the knob, once per configuration
	 * and knob (bfq turns wbt off): the trials ran with it so */
	struct tune_sweep_effect effects[TUNE_MAX_EFFECTS];
	unsigned neffects;
	unsigned ninvalid;		/* trials left out (tune_trial_judge) */
	/* values without a verdict: their trials, or the baseline's in the
	 * same blocks, failed in too many blocks (tune_analyze) */
	bool unjudged[TUNE_MAX_CONFIGS];
	char unjudged_why[TUNE_MAX_CONFIGS][768];	/* why, naming the failed trials */
	unsigned nused;			/* blocks the verdicts use: complete for every
					 * value judged */

	/* The sequential design (sweep_look_alpha): max_blocks is the budget
	 * (--blocks; 0: a fixed design of the blocks analyzed), nblocks_run
	 * the blocks the sweep ran; it stopped early (stopped_early) at a
	 * look after nblocks_run < max_blocks blocks where every verdict was
	 * settled (tune_look). alpha: the level of the analysis (tune_analyze
	 * sets it: the look's it stopped at); unsettled: intervals (value x
	 * test x metric) that reach across an edge of the noise band. */
	unsigned max_blocks, nblocks_run;
	bool stopped_early;
	double alpha;
	unsigned unsettled;
};

/* Why a tune stopped before its last trial (not a signal: interrupted). */
struct tune_stop {
	bool stopped;
	unsigned trial;			/* the trial it stopped at, from 1 */
	unsigned total;			/* of how many */
	char reason[512];		/* what happened */
	char todo[256];			/* what the user can do about it */
};

struct tune_result {
	const char *tool_version;
	char started_at[32];
	struct host_info host;
	struct target_info target;
	struct tune_queue queue;	/* the queue, and its settings before the sweep */
	unsigned nblocks;
	double noise;			/* the band: 0.03 is +-3 % */
	uint64_t seed;
	struct tune_sweep sweeps[KNOB_COUNT];
	unsigned nsweeps;
	/* the sweeps tune runs by default that were left out because another
	 * knob was named: the values they would try (NULL: not left out) */
	const char *skipped[KNOB_COUNT];
	bool interrupted;		/* a signal stopped the sweep */
	struct tune_stop stop;		/* an error stopped it */
	bool restored;			/* every setting reads back as it was */
	bool untouched;			/* stopped before changing any setting */
	bool applied;			/* --apply kept the recommendations */
	/* the CPUs every trial's jobs ran on: job i on cpus[i % ncpus], the
	 * same in every trial; by default pin_default_cpus (pin.h), else
	 * --cpus (cpus_given); ncpus 0: not pinned */
	int cpus[TUNE_MAX_CPUS];
	unsigned ncpus;
	bool cpus_given;
	char cpus_why[192];		/* which, and why, for a person */
	char **warnings;		/* owned, as in run_result */
	unsigned nwarnings;
};

/*
 * Derive from s's trials (all planned ones run: s->ntrials == s->planned)
 * the medians, the paired ratios of every configuration to the baseline with
 * their intervals (sweep_randomization's, simultaneous over every
 * configuration x test x metric compared), the drift of the baseline between the first and last runs, and
 * the recommendation. One rule, for throughput and p99 alike: a verdict
 * ("better", "worse") needs the interval wholly beyond the noise band AND
 * the randomization test (sweep_randomization, over every value, test and
 * metric of the sweep) at p < 0.05; without both it is "~". A value is
 * recommended when it is better on some test (throughput up or p99 down)
 * and worse on none; of several, the best geometric-mean throughput ratio
 * over the tests, then the best p99 ratio. Nothing is recommended when the
 * device drifted, or when the A/A control (a configuration equal to the
 * baseline's value, never itself recommended) is better or worse on any
 * test: then the noise is beyond what the sweep can tell (s->vetoed, the
 * reason names the control, its ratio and interval, and what to do).
 * When none is recommended the reason says which values are worse and
 * which are better-but-worse. tune_min_blocks() gives the fewest blocks
 * the test can decide anything with.
 * Failed trials (t->invalid, counted in s->ninvalid) are left out, per
 * value: the verdicts use only the blocks where every value judged and
 * the baseline have valid trials of every test (s->nused of them), so the
 * relabelling within blocks stays exact. A value whose trials failed in
 * too many blocks (fewer than max(tune_min_blocks(nconfig), half the
 * blocks) would be left) gets no verdict (s->unjudged[k], the reason in
 * s->unjudged_why[k] naming its failed trials, its cells' verdicts "~"
 * with ratio NAN) and is never recommended; the rest are still judged.
 * A control without a verdict means nothing is recommended.
 * Sequential: with s->max_blocks > nblocks the sweep stopped early at the
 * look after nblocks blocks, and the analysis is at that look's level
 * (sweep_look_alpha), else at the final look's; s->alpha says which, and
 * s->unsettled counts the intervals across a band edge (when nothing is
 * recommended and some are, the reason says the budget did not settle
 * them and that more --blocks can). Returns 0,
 * or -EINVAL (trials missing, or no value left to judge: nothing is
 * claimed).
 */
int tune_analyze(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed);

/*
 * A look of the sequential design after the first nblocks blocks of s
 * (the first baseline run and nblocks blocks of trials are in; nblocks <
 * s->max_blocks): the analysis tune_analyze makes, at the look's level
 * (sweep_look_alpha), without the drift check (the last baseline run is
 * still to come). True when every verdict is settled: every value judged
 * (no failed trials left one without), and each of its intervals (every
 * test, throughput and p99) either wholly beyond the noise band (a
 * verdict) or wholly within it (no change, to within the band), or the
 * control vetoed. More blocks then change no verdict but by the chance
 * the level allows, so the sweep may stop: tune_analyze(s, nblocks, ...)
 * after the last baseline run gives the same verdicts, and the chance of
 * a false one over every look the sweep could stop at stays at most
 * TUNE_ALPHA. Leaves s analyzed as at that look.
 */
bool tune_look(struct tune_sweep *s, unsigned nblocks, double noise, uint64_t seed);

/* The level of every verdict of a sweep: its family-wise false-alarm rate. */
#define TUNE_ALPHA 0.05
/* Relabellings per step of the randomization test. */
#define TUNE_RESAMPLES 1999

/* The fewest blocks with which a sweep of nconfig values (the control
 * included) can find any difference at TUNE_ALPHA (sweep_min_blocks). */
unsigned tune_min_blocks(unsigned nconfig);

/* Add a trial; 0 or -ENOMEM. */
int tune_add_trial(struct tune_sweep *s, const struct tune_trial *t);

/* Add a warning (printf-style), free what r owns. */
int tune_warn(struct tune_result *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void tune_result_free(struct tune_result *r);

/* The text report (fits 100 columns) and one JSON document (schema
 * "diskbench-tune/1", README.md documents it). 0 or -errno. */
int report_tune_text(FILE *f, const struct tune_result *r);
int report_tune_json(FILE *f, const struct tune_result *r);

/* What the tune reporters say alike (src/report/tune_fmt.c).
 * tune_is_control: configuration k (> 0) of s is the current value again,
 * the A/A control. tune_config_label: "none (current)" for k = 0,
 * "none (again)" for a control, else the value; returns buf.
 * tune_udev_rule: the rule that sets every recommended value on r's disk
 * ("ACTION==\"add|change\", KERNEL==\"sdb\", ATTR{queue/scheduler}=\"none\"")
 * into buf; false (buf holds no ATTR) when nothing is recommended. */
bool tune_is_control(const struct tune_sweep *s, unsigned k);
const char *tune_config_label(const struct tune_sweep *s, unsigned k, char *buf, size_t len);
bool tune_udev_rule(const struct tune_result *r, char *buf, size_t len);

/* tune_effect_words: side effect e of sweep s for a person, into buf;
 * returns buf. tune_stop_words: why r stopped and what to do, into buf;
 * false when r did not stop. tune_is_stop_warning: is warning the one
 * the stop added to r's warnings (a report that shows the stop need not
 * say it twice)? */
const char *tune_effect_words(const struct tune_sweep *s, const struct tune_sweep_effect *e,
			      char *buf, size_t len);
bool tune_stop_words(const struct tune_result *r, char *buf, size_t len);
/* The warning the stop of r adds to its warnings, into buf; returns buf. */
const char *tune_stop_warning(const struct tune_result *r, char *buf, size_t len);
bool tune_is_stop_warning(const struct tune_result *r, const char *warning);

#endif
