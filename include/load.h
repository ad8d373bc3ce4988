/* load.h - reading a saved "diskbench/1" result (JSON, or an HTML report) back into a run_result. */
#ifndef DISKBENCH_LOAD_H
#define DISKBENCH_LOAD_H

#include <stddef.h>
#include <stdint.h>

#include "result.h"

/*
 * Read the JSON document at path (written by report_json, or embedded in an
 * HTML report by report_html) into r, which must be zeroed. Each test's
 * latency histogram is rebuilt from its buckets and exact moments, and the
 * figures the reporters show are derived from the raw ones by the code a
 * run uses (result_finish, repeat_finish), so reporters render r exactly as
 * they rendered the run. A document from
 * before "sum"/"sumsq"/"files" existed still loads: mean and stdev then come
 * from the rounded ones, and the file-test parameters are 0.
 *
 * Returns 0, or -errno with one line in err: "FILE: problem" (not a file),
 * "FILE:LINE:COLUMN: problem" (not JSON), or naming the key, e.g.
 * "FILE: tests[2]: missing key \"ops\"". On error r holds nothing (it is
 * freed). On success free r with result_free. Never prints.
 */
int result_load(const char *path, struct run_result *r, char *err, size_t errlen);

/*
 * result_load with a limit on the file's size: larger (a regular file by
 * its size, anything else, a FIFO, /dev/zero, by reading at most one byte
 * more) is -EFBIG, "FILE: larger than 256m, the limit for a result file
 * (--max-input SIZE raises it)". result_load's limit is LOAD_MAX_BYTES.
 * The memory it takes is bounded by the file: the file's text, one test's
 * JSON tree at a time (no part of the document may be past 32 MiB), and
 * what the result holds (about the size of the text, its histograms kept
 * as their non-empty buckets); bench/report-memory.sh measures it.
 */
#define LOAD_MAX_BYTES (256ull << 20)
int result_load_max(const char *path, uint64_t max_bytes, struct run_result *r, char *err,
		    size_t errlen);

/* result_load of the text buf[0..len) (a file's whole content), called
 * name in errors: for a fuzzer, a test. */
int result_load_buf(const char *name, const char *buf, size_t len, struct run_result *r,
		    char *err, size_t errlen);

/*
 * Where the JSON is in the text buf[0..len) of a result file. A JSON file:
 * all of it (*off 0, *n len, *line 1). An HTML report (its first byte
 * other than a BOM or white space is '<'): the text of the element
 * <script type="application/json" id="diskbench-result"> that report_html
 * writes, at *off, *n bytes long, starting on line *line of the file (so
 * that a parse error names the file's own line); on a comparison's or a
 * tune's page, which have none, its id="diskbench-compare" or
 * id="diskbench-tune" document (which result_load then names as not a
 * run's result). Returns 0; -ENOENT for an
 * HTML page with no such element, -EINVAL for one it does not close.
 * result_load reads both kinds of file through it.
 */
int result_find_json(const char *buf, size_t len, size_t *off, size_t *n, int *line);

/*
 * An Xbench baseline (xbench.h) from the result at path, loaded as
 * result_load loads it (so a JSON result or an HTML report): its xbench
 * tests' rates (xbench_baseline_of), path the baseline's source. Returns
 * 0, or -errno with result_load's message or "FILE: holds none of the
 * xbench tests" in err. Never prints.
 */
struct xbench_baseline;
int result_load_baseline(const char *path, struct xbench_baseline *b, char *err, size_t errlen);

#endif
