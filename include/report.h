/* report.h - renderers of a finished run_result. They never run anything. */
#ifndef DISKBENCH_REPORT_H
#define DISKBENCH_REPORT_H

#include <stdio.h>

#include "reqlog.h"
#include "result.h"
#include "safety.h"

/* Human table, fits 100 columns. Returns 0 or -errno (write error). */
int report_text(FILE *f, const struct run_result *r);

/* One JSON document, schema "diskbench/1" (DESIGN.md section 4). Contains
 * no log text. Returns 0 or -errno. */
int report_json(FILE *f, const struct run_result *r);

/* A header row and one row per test; the columns are stable (csv.c lists
 * them, README.md documents them). Returns 0 or -errno. */
int report_csv(FILE *f, const struct run_result *r);

/* One line of bonnie++'s CSV format 1.98 (50 fields), which bonnie++'s
 * bon_csv2txt and bon_csv2html read; tests map by workload name
 * (bonnie_csv.c documents the fields). Returns 0 or -errno. */
int report_bonnie_csv(FILE *f, const struct run_result *r);

/*
 * One self-contained HTML page: the run's facts (tool, host, target, queue,
 * file system, settings), every warning and note, a summary table (with
 * the spread of the runs under --repeat), MB/s per test, IOPS and p99
 * against queue depth where tests differ only in it, latency percentile
 * curves on log axes, each test's timeline, and the JSON report_json writes,
 * embedded in <script type="application/json" id="diskbench-result"> so
 * that `diskbench report FILE.html` renders it again (result_load reads
 * it). The page is valid HTML5 and well-formed XML, loads nothing (no URL;
 * a Content-Security-Policy of default-src 'none'), reads without
 * JavaScript, prints, and is the same bytes for the same result. Each chart
 * is an <svg class="chart"> with a stable id, and each figure shown for a
 * test carries its JSON number in data-value (src/report/html_run.h).
 * Returns 0 or -errno.
 */
int report_html(FILE *f, const struct run_result *r);

/*
 * A comparison (compare.h) as one HTML page like report_html's: the facts
 * of every side side by side (a row that differs marked), and per compared
 * result what differs, the summary in words, a table of IOPS, p99 and CPU
 * per op before and after with their ratios, intervals and verdicts, and
 * two ratio plots (<svg class="chart ratio" id="chart-ratio-P-iops"> and
 * "-p99" for compared result P): per test the ratio after / before of the
 * medians of its runs on a log axis, its interval as an error bar (dashed
 * for a low-confidence min-max range), a line at 1.0 and the noise band
 * shaded, coloured (class better / worse) only where the verdict is. The
 * diskbench-compare/1 JSON (report_compare_json) is embedded in
 * <script type="application/json" id="diskbench-compare">. Returns 0 or
 * -errno.
 */
struct compare;
int report_compare_html(FILE *f, const struct compare *c);

/*
 * A tune (tune_result.h; its text and JSON reporters are declared there)
 * as one HTML page like report_html's: what was tuned and why that queue,
 * the verdict of every sweep in words (the value recommended, or to keep,
 * and the reason), whether every setting was put back (or --apply kept
 * the recommendation, or a signal cut the sweep short) and the udev rule
 * that keeps a recommendation; the facts (tune, host, target, the queue's
 * settings before the sweep); per sweep what was swept with which
 * workload, the drift check of the current value's runs, per test a ratio
 * plot of each value's throughput and one of its p99 against the current
 * value (<svg class="chart ratio" id="chart-tune-S-T"> and
 * "chart-tune-S-T-p99" for sweep S, test T; html_ratio_plot: the
 * interval, the noise band, coloured only where the verdict is; the
 * control, the current value again, is a row too), and a table of values
 * x tests (rate, p99, ratio [interval], verdict). A sweep that did not
 * finish shows how far it came and no figure. Each figure carries its
 * JSON number in data-value and its key in data-key, looked up in the
 * object its nearest data-sweep (sweeps[S]) or data-sweep + data-config +
 * data-test (that sweep's results entry) names, else the document's
 * root. The diskbench-tune/1 JSON (report_tune_json) is embedded in
 * <script type="application/json" id="diskbench-tune">. Renders r only,
 * runs nothing. Returns 0 or -errno.
 */
struct tune_result;
int report_tune_html(FILE *f, const struct tune_result *r);

/* `diskbench info`: every fact about t, then "writes allowed: yes/no,
 * because ..." from now (the options given) and, when it differs, what
 * --destructive would change (with_destructive). Text, or one JSON document
 * {"schema": "diskbench/1", "target": {...same keys as in a run...},
 *  "writes": {"allowed", "reason", "overridable",
 *             "with_destructive": {"allowed", "reason"}}}.
 * Return 0 or -errno. */
int report_info_text(FILE *f, const struct target_info *t, const struct safety_verdict *now,
		     const struct safety_verdict *with_destructive);
int report_info_json(FILE *f, const struct target_info *t, const struct safety_verdict *now,
		     const struct safety_verdict *with_destructive);

/*
 * The per-request log (--lat-log) as text (doc/json.md, "The per-request
 * log"): report_reqlog_head once at the top (what the columns are), then
 * report_reqlog after each run of a test: a "# test" line (the test's
 * 1-based number in the plan, its run (pass or round), its jobs, how many
 * requests they logged and could not hold, its name; a job that could
 * not hold some gets a line saying how many), then every request of the
 * first jobs parts of l, job by job, each job's in the order they
 * completed, every one of bs bytes. logged false (a test of its own I/O,
 * which keeps no log): the line alone, saying so. Returns 0 or -EIO (a
 * write error).
 */
struct report_reqlog_run {
	unsigned test, run, jobs;
	uint32_t bs;
	const char *name;
	bool logged;
};
int report_reqlog_head(FILE *f);
int report_reqlog(FILE *f, const struct reqlog *l, const struct report_reqlog_run *t);

/* Human-readable helpers shared by renderers. */
const char *report_fmt_ns(double ns, char *buf, size_t len);	/* "812us", "1.20ms" */
const char *report_fmt_count(double v, char *buf, size_t len);	/* "12.3k" */
/* x with 3 significant digits, no exponent, plain digits from 100 up:
 * "0.52", "12.3", "2048" (MB/s in the tables); "-" when not finite. */
const char *report_fmt_dec3(double x, char *buf, size_t len);
/* Capacities in binary units with 3 significant digits, as lsblk and df -h
 * show them: "512 B", "3.84 GiB", "20.0 GiB". (Messages use str_bytes_iec.) */
const char *report_fmt_capacity(uint64_t bytes, char *buf, size_t len);
/* t's --verify note, without its name: "blocks read back and checked:
 * 4096, 0 bad (16.8 MB in 0.01 s, after the window, untimed)", the first
 * bad unit named when there is one; "" when nothing was checked. */
const char *report_verify_note(const struct test_result *t, char *buf, size_t len);
/* t's unwritten-space note, without its name, for a test the check
 * applies to (t->unwritten.applies; "" otherwise), with l the result's
 * read_layout: flagged, "UNWRITTEN: 100.0 % of its region unallocated in
 * /x.img (loop backing file); 256 of 256 sampled blocks blank, zeros or
 * one pattern (100.0 %, 95 % CI 98.5-100.0 %)"; else the same figures
 * after "unwritten space: ", or "unwritten space: not checked: WHY". */
const char *report_unwritten_note(const struct test_result *t, const struct read_layout *l,
				  char *buf, size_t len);
/* t's own-cost note, without its name: "tool's own cost: 1.06 system
 * calls and 0.811 us CPU per op (384743 calls), busiest job 80 % of a CPU",
 * then ", jobs waited for a CPU 2.1 % of the time" when that was measured;
 * "" when its system calls were not counted. */
const char *report_cost_note(const struct test_result *t, char *buf, size_t len);

/* The drive's health in words (health_words.c). One reading: "NVMe, 45 C
 * (warning at 70 C), 3 % used, 1204 power-on hours, 0 media errors, 12.3
 * TB written, 10.1 TB read"; what is unknown left out. */
const char *report_health_snap(const struct health_snap *s, char *buf, size_t len);
/* The run's change: the bytes the drive counted written and read against
 * what diskbench wrote (its write tests, precondition and layout), new
 * media and CRC errors, the temperature; "" without both readings. */
const char *report_health_delta(const struct run_result *r, char *buf, size_t len);
/* A write cliff's likely cause, for a test with t->cliff.found: thermal
 * throttling, the drive's cache filling, or that health cannot tell. */
const char *report_cliff_cause(const struct run_result *r, const struct test_result *t);

#endif
