/* html_run.h - the parts of a run's HTML report: facts, charts (private to src/report). */
#ifndef DISKBENCH_HTML_RUN_H
#define DISKBENCH_HTML_RUN_H

#include <stdbool.h>

#include "result.h"
#include "svg.h"

/* html_facts.c: the facts tables (tool, host, target, queue, file system,
 * settings), each cell that holds a JSON value keyed by its path. */
void html_run_facts(struct svg *w, const struct run_result *r);

/* html_charts.c: MB/s per test, IOPS and p99 against queue depth, the
 * latency percentile curves and each test's timeline, as <section>s.
 * Every chart is an <svg class="chart"> with a stable id (chart-throughput,
 * chart-qd-iops, chart-qd-p99, chart-latency, chart-timeline-N for test
 * N); each drawn value carries its JSON number in data-value. */
void html_run_charts(struct svg *w, const struct run_result *r);

/* html_ranks.c: a coordinated run's imbalance per test (each figure keyed
 * by its path from the document's root, "tests.N.imbalance.spread") and
 * its ranks' hosts, kernels, versions and targets; nothing for a single
 * process. */
void html_run_ranks(struct svg *w, const struct run_result *r);

/* Is IOPS the figure of t (random offsets, or no bytes moved: the file
 * tests), rather than MB/s? */
bool html_by_iops(const struct test_result *t);

/* The least and the most of one figure over t's runs (runs[].iops,
 * .bytes_per_sec or .lat_p99_ns, by which); false without runs. */
enum html_run_fig { HTML_FIG_IOPS, HTML_FIG_BPS, HTML_FIG_P99 };
bool html_runs_range(const struct test_result *t, enum html_run_fig which, double *lo,
		     double *hi);

#endif
