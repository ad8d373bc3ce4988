/* result.h - the immutable outcome of a run: what reporters render. */
#ifndef DISKBENCH_RESULT_H
#define DISKBENCH_RESULT_H

#include <stdbool.h>
#include <stdint.h>

#include "cliff.h"
#include "host.h"
#include "health.h"
#include "hist.h"
#include "steady.h"
#include "target.h"
#include "timeline.h"
#include "unwritten.h"
#include "verify.h"
#include "workload.h"

/* Percentiles every test reports, in percent. */
#define RESULT_NPCT 12
extern const double result_pcts[RESULT_NPCT];	/* 1 5 10 25 50 75 90 95 99 99.9 99.99 99.999 */
extern const char *const result_pct_keys[RESULT_NPCT]; /* "1" ... "99.999" */

struct lat_summary {
	uint64_t min, max;	/* ns */
	double mean, stdev;	/* ns */
	uint64_t pct[RESULT_NPCT]; /* ns, matching result_pcts */
};

/* One run (one pass) of a test under --repeat: its own figures, kept so a
 * report can show every run (repeat.h fills these). */
struct test_run {
	uint64_t runtime_ns, ops, bytes;
	double iops, bytes_per_sec;
	uint64_t lat_p50_ns, lat_p99_ns;
	double cpu_user_pct, cpu_sys_pct, usec_per_op;
	bool cpu_wait_valid;		/* cpu_wait_pct was measured */
	double cpu_wait_pct;		/* see test_result.cpu_wait_pct */
	bool dev_valid;
	uint64_t dev_read_bytes, dev_write_bytes;
	uint64_t errors;
	struct timeline timeline;	/* this run's; owned */
	bool drift_valid;		/* its timeline could tell (result_drift) */
	double drift;			/* then its throughput's change (timeline_drift) */
};

/* The spread of one metric over a test's runs. stdev is the sample standard
 * deviation (n - 1); cv = stdev / mean; both 0 with one run (or mean 0).
 * min and max are the lowest and highest run (the best pass, which
 * CrystalDiskMark reports, is max of a rate). */
struct run_stat {
	double median, mean, stdev, cv;
	double min, max;
};

/* Over a test's runs: the metrics whose spread a report shows. */
struct repeat_summary {
	struct run_stat iops, bytes_per_sec, lat_p50_ns, lat_p99_ns, usec_per_op;
};

/* One rank's share of a test of a coordinated run (diskbench-mpi): its
 * own figures, summed over its runs under --repeat, and its window on its
 * host's CLOCK_MONOTONIC (start_ns of its first run, end_ns of its last:
 * comparable between ranks of one host only). */
struct rank_test {
	uint64_t ops, bytes, runtime_ns, errors;
	double bytes_per_sec;	/* bytes / runtime_ns */
	uint64_t start_ns, end_ns;
	/* its latency histogram's exact moments: samples, min, max, sum (ns) */
	uint64_t lat_n, lat_min, lat_max, lat_sum;
};

/* Over a test's ranks (result_ranks_finish): the slowest and the fastest
 * by bytes_per_sec (by iops when no bytes moved), and the spread,
 * (fastest - slowest) / fastest, in [0, 1]. */
struct rank_imbalance {
	unsigned slowest, fastest;	/* rank numbers */
	double slowest_rate, fastest_rate; /* bytes/s, or ops/s when bytes is 0 */
	bool by_ops;			/* the rates are ops/s */
	double spread;
};

/* A job that completed nothing for a while as the others went on (the
 * runner's stall watch, stall.h): job, in which run (index into runs[]),
 * of which rank (a coordinated run; 0 otherwise), from start_ns (from
 * that run's first window's opening on its rank) for ns; offset its last
 * request's (offset_valid). */
struct result_stall {
	unsigned run, rank, job;
	uint64_t start_ns, ns;
	bool offset_valid;
	uint64_t offset;
};

#define RESULT_MAX_STALLS 8

/* One failed or short request (the runner's first few of a test): which
 * job, in which run (index into runs[]), when it completed (ns from that
 * run's first window's opening, as the timeline counts), its errno (0: it
 * completed short, bytes of len moved: a short transfer) and its offset.
 * The count of every one is test_result.errors. */
struct result_io_error {
	unsigned run, job;
	uint64_t at_ns;
	int err;
	uint64_t offset;
	uint32_t len, bytes;
};

#define RESULT_MAX_IO_ERRORS 8

/* The call a file test's job was in when it was found stuck (the
 * workload's wl_ops.name_at) and its file's whole path; "" when unknown. */
struct result_stuck_call {
	char call[16];		/* "create", "fsync", "unlink"... */
	char path[256];
};

/* One measured test (one workload x bs x qd x jobs). Filled by the runner
 * and result_finish(); reporters only read it. */
struct test_result {
	char name[64];		/* e.g. "rand-read 4k qd32" */
	const char *workload;	/* static string: the workload name */
	const char *engine;	/* static string: the engine that ran */
	char engine_note[160];	/* what the engine could not use, and why (its
				 * workers' engine_ctx.note); "" when nothing */
	uint32_t bs, qd, jobs;
	/* The most requests one system call submitted (engine_ctx.batch, at
	 * most qd: 1 at QD1); 0 for a file test, and in a result saved before
	 * it was kept, whose tests ran at 1 (compare.c reads it so). */
	uint32_t batch;
	bool direct;		/* O_DIRECT in effect */
	bool direct_refused;	/* asked for O_DIRECT, which the file system
				 * refused: it ran buffered */
	bool drop_behind;	/* buffered, run as if the file were larger than RAM
				 * (src/core/worker.h: drop-behind) */
	uint32_t passes;	/* test_spec.passes: at most this many passes over
				 * the working set (0: none, the runtime alone) */
	bool passes_done;	/* the window closed because they were done, before
				 * the runtime */
	bool zero_data;		/* --data zero: it wrote zeros (compressible) */
	bool random;		/* random offsets */
	bool is_write;

	uint64_t runtime_ns;	/* measured phase, wall clock, ramp excluded: the
				 * longest job's window, less what stalls cover
				 * of it (below) */
	uint64_t ramp_ns;
	uint64_t size;		/* working set, bytes */
	uint64_t ops, bytes;
	double iops, bytes_per_sec;

	struct hist *lat;	/* merged over workers; owned (result_free) */
	/* A loaded result's histogram instead of lat (which is then NULL):
	 * its non-empty buckets, read by report_json; owned. NULL in a run's. */
	struct hist_sparse *lat_sparse;
	struct lat_summary lat_sum;
	/* Latency another tool gave as figures without a histogram (a fio
	 * --output-format=json import, import.h): lat_sum holds them, pct[i]
	 * given where bit i is set, the others missing. 0 for a run's. */
	uint16_t lat_pct_given;
	/* Another tool gave only the latency's maximum (a bonnie++ import):
	 * lat_sum.max holds it, the other figures are missing. */
	bool lat_max_given;

	double cpu_user_pct, cpu_sys_pct; /* CPU time / wall time x 100, all workers */
	double usec_per_op;	/* (user + sys) CPU microseconds per op */
	double cpu_job_max_pct;	/* the busiest job's (user + sys) CPU time over its
				 * window x 100: near 100, the tool (one core per
				 * job) may be what bounds the result; 0 unknown */
	bool tool_bound;	/* it was (result_annotate: ANNOTATE_TOOL_BOUND_PCT,
				 * an engine that moves data) */
	/* The share of its window the average job stood ready to run but
	 * waited for a CPU (the kernel's run-queue delay, schedstat), x 100:
	 * the machine's load as this test felt it. Over runs, the mean
	 * weighted by their windows. A QD1 job that waits w % of its time
	 * would be up to 1 / (1 - w) faster on an idle CPU: compare widens
	 * a test's band by the difference of its two sides. cpu_wait_valid
	 * false when not measured (a result saved before, an import, a
	 * kernel without schedstat). */
	bool cpu_wait_valid;
	double cpu_wait_pct;

	/* The tool's own system calls in the windows, summed over the jobs
	 * (engine_ctx.syscalls; a file test's own count, wl_ops.syscalls);
	 * syscalls_per_op = syscalls / ops (result_finish). syscalls_valid
	 * false when nothing counted them (a result saved before they were,
	 * a workload that does not count). */
	bool syscalls_valid;
	uint64_t syscalls;
	double syscalls_per_op;

	bool dev_valid;		/* device counters could be read */
	uint64_t dev_read_bytes, dev_write_bytes;
	bool cached;		/* a read test whose reads mostly missed the device */
	bool implausible;	/* faster than the kind of device can be (result_annotate:
				 * random reads from a rotational disk in under a
				 * millisecond): a cache below answered */

	/* What renderers would otherwise look up by the workload's name or
	 * derive again, set once (result_test_flags: result_annotate for a
	 * run, result_load for a saved or imported result). Not in the JSON:
	 * each follows from what is. */
	bool unreliable;	/* its runs' IOPS spread too widely (repeat_unreliable) */
	bool cache_ok;		/* its workload reads the page cache on purpose
				 * (wl->cache_ok: hdparm -T) */
	bool per_char;		/* its workload moves bytes a call at a time (WL_P_CHAR) */
	bool moves_files;	/* its workload creates, stats or deletes files
				 * (WL_P_FILES); neither has a block size */
	enum wl_report hdparm_line; /* the hdparm line its workload asks for
				     * (wl->report; WL_REPORT_NONE for most) */

	/* The file tests' parameters (bonnie++ -n), resolved; all 0 for a
	 * test whose workload has no WL_P_FILES. */
	struct wl_params params;

	uint64_t errors;	/* failed or short ops */
	int first_errno;	/* positive errno of the first error, 0 if none
				 * or a short transfer */
	uint64_t first_error_offset;
	/* The first errors (io_errors[0] is the first one above), in the order
	 * they completed; the others are counted in errors only. */
	struct result_io_error io_errors[RESULT_MAX_IO_ERRORS];
	unsigned nio_errors;

	/* Every run of the test in pass order (repeat.h): one per --repeat
	 * pass, so one for a plain run; 0 for a result built by hand. With
	 * nruns > 1 the figures above are over all runs (see repeat_finish).
	 * Owned (result_free). summary is valid when nruns > 0. */
	struct test_run *runs;
	unsigned nruns;
	struct repeat_summary summary;

	/* runner_run's timeline of this run, owned; repeat_add moves it into
	 * runs[]. Reporters read each run's: runs[i].timeline. */
	struct timeline timeline;

	/* --steady-state: steady_max_rounds > 0 for a test run in rounds (its
	 * runs[] are the rounds, in order). steady: 1 when a window of rounds
	 * met the SNIA PTS criteria, 0 when none had by the last round. The
	 * window (the first steady one, else the last one) is what iops and
	 * bytes_per_sec then are: its rounds' averages (result_steady). */
	unsigned steady_max_rounds;
	int steady;
	struct steady_window steady_window;

	/* The part of the working set its requests went over (runner_run,
	 * a block workload; its first run's), and whether that was space
	 * never written (unwritten.h: applies false for a test that reads
	 * nothing of the data, or a result saved before it was checked). */
	struct read_extent read_extent;
	struct unwritten unwritten;

	/* --trim: what was discarded before the test's (first) run; method
	 * NULL when nothing was (a read test, no --trim), a static string or
	 * one the result owns. */
	struct target_trim trim;

	/* --verify's read-back after the window, or what the verify test
	 * checked; done false when neither ran. Summed over the runs. */
	struct verify_sum verify;

	/* A workload that looks for the write cliff (wl->finds_cliff):
	 * where its throughput fell, from its (last) run's timeline
	 * (result_cliff); cliff_valid false for every other test. */
	bool cliff_valid;
	struct cliff cliff;

	/* The drive throttled for heat while the test ran (health_thermal of
	 * the smartctl readings around it, any of its runs); thermal_known
	 * false when nothing could tell (no health data, older results). */
	bool thermal_known, thermal_throttling;

	/* Jobs that stood still while the others went on (stalls[0..nstalls),
	 * stalls_missed more), by the bound stall_bound_ns (0: a result
	 * saved before, or made by hand). window_span_ns is the longest
	 * job's window with its stalls: runtime_ns when there were none. */
	struct result_stall stalls[RESULT_MAX_STALLS];
	unsigned nstalls, stalls_missed;
	uint64_t stall_bound_ns;
	uint64_t window_span_ns;

	/* Jobs with a request in flight io_timeout_ns or longer (the runner's
	 * watch, whatever the others did): when (start_ns, from the run's
	 * first window's opening) and for how long (ns) it completed nothing,
	 * and its last request's offset. stuck: a request never completed
	 * within io_timeout_ns after the runtime: the test was ended there
	 * (its job abandoned) and the request is in io_errors as ETIMEDOUT.
	 * io_timeout_ns 0: not watched (a result saved before). */
	struct result_stall slow[RESULT_MAX_STALLS];
	unsigned nslow, slow_missed;
	uint64_t io_timeout_ns;
	bool stuck;
	struct result_io_error stuck_req;	/* stuck: the request, its at_ns when
						 * the test was ended */
	struct result_stuck_call stuck_call;	/* stuck, a file test: its call */

	/* Did the throughput drift during the window (result_drift)? Over the
	 * runs whose timeline could tell (drift_valid: at least one), drift is
	 * the change (timeline_drift) of the run that changed most, drift_run
	 * its index; drifted: beyond +-TIMELINE_DRIFT_LIMIT. */
	bool drift_valid, drifted;
	double drift;
	unsigned drift_run;

	/* A coordinated run (diskbench-mpi): one entry per rank, index =
	 * rank, nranks = the run's result_ranks.n; the figures above are the
	 * sums over all ranks (runtime_ns the slowest rank's window, the
	 * histogram the sum of every rank's). NULL, 0 for a single process.
	 * Owned (result_test_free). */
	struct rank_test *ranks;
	unsigned nranks;
	struct rank_imbalance imbalance;
};

/* A key/value pair echoed into every report: every setting that shaped it. */
struct setting {
	char key[32];
	char value[128];
};

/* Xbench-style scores (xbench.h), computed once after the run. */
struct xbench_score {
	const char *name;	/* "Sequential Uncached Write 4k" */
	double measured;	/* bytes/s */
	double baseline;	/* bytes/s */
	double score;		/* 100 x measured / baseline */
	bool sequential;	/* in the Sequential group (else Random): set with
				 * the score, and on loading (xbench_sequential) */
};

struct xbench_scores {
	bool valid;		/* at least one test was scored */
	char source[256];	/* the baseline's origin */
	struct xbench_score tests[8];
	unsigned n;
	double sequential, random, total;	/* harmonic means; 0 when a group is empty */
};

#define RESULT_MAX_SETTINGS 64

/* --precondition: what was written before the tests; done false when
 * nothing was (plan_precondition says what it writes). */
struct run_precondition {
	bool done;		/* it ran */
	bool complete;		/* every pass was written (not cut short) */
	uint32_t bs, qd, passes;
	uint64_t region;	/* each pass writes [0, region) */
	uint64_t bytes;		/* written */
	uint64_t time_ns;	/* how long that took */
	bool dev_valid;		/* the device counters could be read */
	uint64_t dev_write_bytes; /* what the device moved meanwhile */
};

/* Who ran a coordinated run (diskbench-mpi): one per rank. */
struct rank_info {
	unsigned rank, local_rank;	/* local: among the ranks of its host */
	char hostname[64];
	char kernel[64];		/* uname -r */
	char version[32];		/* diskbench's */
	char target[256];		/* TARGET with its placeholders expanded */
};

/* The ranks of a coordinated run, info[i] of rank i, and the distinct
 * host names in rank order. */
struct result_ranks {
	unsigned n;
	struct rank_info *info;		/* owned */
	unsigned nhosts;
	bool kernels_differ, versions_differ;
};

struct run_result {
	const char *tool_version;
	char started_at[32];	/* ISO 8601 UTC */
	char label[128];
	/* the words that started the run, shell-quoted (str_shell_join); ""
	 * when not recorded (a result saved before it was) */
	char command_line[1024];
	struct host_info host;
	struct target_info target;
	uint64_t clock_overhead_ns; /* cost of one clock read, measured */
	struct setting settings[RESULT_MAX_SETTINGS];
	unsigned nsettings;
	struct test_result *tests;
	unsigned ntests;
	char **warnings;	/* owned strings, also shown on stderr by the CLI */
	unsigned nwarnings;
	struct xbench_scores xbench;
	struct run_precondition precondition;
	/* Where the data's allocation was read from, for the read tests'
	 * unwritten check (unwritten.h); known false when not recorded. */
	struct read_layout read_layout;
	/* A result another tool made (import.h): that tool ("fio", "hdparm"),
	 * the version it names itself ("fio-3.33"; "" when it does not) and
	 * the file it was read from. tool "" for diskbench's own. */
	struct result_origin {
		char tool[32], version[64], file[256];
	} imported_from;
	/* The drive's health before the first test and after the last
	 * (smartctl, health.h); checked false when it was not asked. */
	struct run_health health;
	/* Strings the result owns behind its `const char *` fields (a loaded
	 * result's version, workload, engine and xbench names; see
	 * result_strdup); a run's point to static strings instead. */
	char **strings;
	unsigned nstrings;
	/* A coordinated run: its ranks (owned); NULL for a single process. */
	struct result_ranks *ranks;
};

/* Derive iops, bytes_per_sec, lat_sum, syscalls_per_op and cached from the
 * raw fields. */
void result_finish(struct test_result *t);

/* Are there latencies to show: samples in t's histogram (lat, or a loaded
 * result's lat_sparse); with neither, any ops. */
bool result_has_lat(const struct test_result *t);

/* Does honesty flag f (target.h) concern test t of a run on target ti?
 * The target's flags that concern its direction (target_flag_applies);
 * O_DIRECT refused: when t itself asked for it and ran buffered. */
bool result_test_flag(const struct target_info *ti, const struct test_result *t,
		      enum target_flag f);

/* Append a test (copied; the struct's lat and runs pointers are taken over). Returns
 * 0 or -ENOMEM. */
int result_add_test(struct run_result *r, const struct test_result *t);

/* Append a setting / a warning (printf-style). 0 or -ENOMEM/-ENOSPC. */
int result_add_setting(struct run_result *r, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int result_add_warning(struct run_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The value of r's setting key, or NULL when r has none. */
const char *result_setting(const struct run_result *r, const char *key);

/* A copy of s that r owns (freed by result_free), for its `const char *`
 * fields. NULL when out of memory. */
const char *result_strdup(struct run_result *r, const char *s);

/* Free what one test owns (its histogram, its runs and their timelines,
 * its own timeline) and leave those fields empty; for a test_result that
 * is not in a run_result (runner_run's, when it is not kept). */
void result_test_free(struct test_result *t);

/* A test's imbalance from its ranks[] (nothing without them). */
void result_ranks_finish(struct test_result *t);

/* Is rank i the first (lowest) of its host in rr? */
bool result_rank_first_of_host(const struct result_ranks *rr, unsigned i);

/* Fill nhosts, kernels_differ and versions_differ of rr from its info. */
void result_ranks_summarize(struct result_ranks *rr);

/* Free what the result owns (tests, histograms, warnings, strings). */
void result_free(struct run_result *r);

#endif
