/* csv.c - one CSV row per test, with a header row of stable column names. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/*
 * The columns, in order. They are part of the interface: add new ones at the
 * end, never rename or reorder (doc/json.md lists them). Units are in the
 * names; latencies are nanoseconds, rates per second, MB not used at all.
 */
static const char *const csv_columns[] = {
	"label", "target", "started_at", "name", "workload", "engine", "bs", "qd", "jobs",
	"direct", "runtime_ns", "ops", "bytes", "iops", "bytes_per_sec",
	"lat_min_ns", "lat_mean_ns", "lat_stdev_ns", "lat_p50_ns", "lat_p90_ns", "lat_p99_ns",
	"lat_p99.9_ns", "lat_p99.99_ns", "lat_max_ns",
	"cpu_user_pct", "cpu_sys_pct", "cpu_usec_per_op",
	"device_read_bytes", "device_write_bytes", "cached", "errors",
	"runs", "iops_cv", "unwritten", "unwritten_share", "cpu_wait_pct",
};
#define NCOLS (sizeof(csv_columns) / sizeof(csv_columns[0]))

/* RFC 4180: quote a field holding a comma, quote, CR or LF; double quotes. */
static void csv_str(FILE *f, const char *s)
{
	if (!s)
		s = "";
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, f);
		return;
	}
	putc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			putc('"', f);
		putc(*s, f);
	}
	putc('"', f);
}

static void csv_dbl(FILE *f, double v)
{
	/* An empty field, never "nan": spreadsheets and pandas read it as missing. */
	if (isfinite(v))
		fprintf(f, "%.3f", v);
}

static uint64_t pct(const struct test_result *t, const char *key)
{
	for (unsigned i = 0; i < RESULT_NPCT; i++)
		if (!strcmp(result_pct_keys[i], key))
			return t->lat_sum.pct[i];
	return 0;
}

int report_csv(FILE *f, const struct run_result *r)
{
	for (size_t i = 0; i < NCOLS; i++)
		fprintf(f, "%s%s", i ? "," : "", csv_columns[i]);
	putc('\n', f);

	for (unsigned i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];

		csv_str(f, r->label);
		putc(',', f);
		csv_str(f, r->target.path);
		putc(',', f);
		csv_str(f, r->started_at);
		putc(',', f);
		csv_str(f, t->name);
		putc(',', f);
		csv_str(f, t->workload);
		putc(',', f);
		csv_str(f, t->engine);
		fprintf(f, ",%u,%u,%u,%s,%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",", t->bs, t->qd,
			t->jobs, t->direct ? "true" : "false", t->runtime_ns, t->ops, t->bytes);
		csv_dbl(f, t->iops);
		putc(',', f);
		csv_dbl(f, t->bytes_per_sec);
		fprintf(f, ",%" PRIu64 ",", t->lat_sum.min);
		csv_dbl(f, t->lat_sum.mean);
		putc(',', f);
		csv_dbl(f, t->lat_sum.stdev);
		fprintf(f, ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64 ",%" PRIu64
			",", pct(t, "50"), pct(t, "90"), pct(t, "99"), pct(t, "99.9"),
			pct(t, "99.99"), t->lat_sum.max);
		csv_dbl(f, t->cpu_user_pct);
		putc(',', f);
		csv_dbl(f, t->cpu_sys_pct);
		putc(',', f);
		csv_dbl(f, t->usec_per_op);
		putc(',', f);
		if (t->dev_valid)
			fprintf(f, "%" PRIu64 ",%" PRIu64, t->dev_read_bytes, t->dev_write_bytes);
		else
			putc(',', f);
		fprintf(f, ",%s,%" PRIu64 ",%u,", t->cached ? "true" : "false", t->errors,
			t->nruns);
		/* The spread of the runs' IOPS, stdev / mean (--repeat; 0 for one
		 * run, empty when the result has no runs). */
		if (t->nruns)
			fprintf(f, "%.6f", t->summary.iops.cv);
		/* Read unwritten space: true (flagged) or false, with the larger
		 * of the allocation's and the sample's share; both empty for a
		 * test that reads no data or could not be checked. */
		putc(',', f);
		if (t->unwritten.applies && (t->unwritten.checked || t->unwritten.layout_valid))
			fprintf(f, "%s,%.4f", t->unwritten.flagged ? "true" : "false",
				unwritten_worst(&t->unwritten));
		else
			putc(',', f);
		/* How much of its window the average job stood ready, not
		 * running (the machine's load as the test felt it); empty when
		 * not measured. */
		putc(',', f);
		if (t->cpu_wait_valid)
			csv_dbl(f, t->cpu_wait_pct);
		putc('\n', f);
	}
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
