/* report.h - renderers of a finished run_result. They never run anything. */
#ifndef DISKBENCH_REPORT_H
#define DISKBENCH_REPORT_H

#include <stdio.h>

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

/* Human-readable helpers shared by renderers. */
const char *report_fmt_ns(double ns, char *buf, size_t len);	/* "812us", "1.20ms" */
const char *report_fmt_count(double v, char *buf, size_t len);	/* "12.3k" */
/* Capacities in binary units with 3 significant digits, as lsblk and df -h
 * show them: "512 B", "3.84 GiB", "20.0 GiB". (Messages use str_bytes_iec.) */
const char *report_fmt_capacity(uint64_t bytes, char *buf, size_t len);

#endif
