/* bonnie_csv.c - one line in bonnie++'s CSV format 1.98, for bon_csv2txt/html. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/*
 * bonnie++ 2.00's CSV line has 50 fields: format version, bonnie version,
 * name, concurrency, seed, size, chunk size, seeks, seekers; then rate and
 * %CPU for putc, block write, rewrite, getc, block read and seeks; then the
 * file-test parameters (files in multiples of 1024, max size, min size,
 * directories, chunk size) and rate and %CPU for sequential create, stat
 * ("read") and delete and the same in random order; last the twelve
 * latencies in the same test order. bon_csv2txt only checks the first field.
 *
 * diskbench fills each field from the test with the matching workload (the
 * first one, when a run has several) and leaves a field empty when no test
 * of that workload ran, as bonnie++ does for a skipped test. Rates: K/sec
 * (1024 bytes) for the byte tests and ops/sec for seeks and files, as
 * bonnie++. Latency: bonnie++ keeps only the maximum, so that is what goes
 * here (the JSON has the percentiles). There is never a "+++++": every test
 * ran for its full time and has a number.
 */

/* The twelve tests of a bonnie++ line, in field order. */
static const char *const io_tests[] = {
	"char-write", "seq-write", "rewrite", "char-read", "seq-read", "seeks",
};
static const char *const file_tests[] = {
	"meta-create", "meta-stat", "meta-delete",
	"meta-create-rand", "meta-stat-rand", "meta-delete-rand",
};

static const struct test_result *find(const struct run_result *r, const char *workload)
{
	for (unsigned i = 0; i < r->ntests; i++)
		if (r->tests[i].workload && !strcmp(r->tests[i].workload, workload) &&
		    r->tests[i].ops)
			return &r->tests[i];
	return NULL;
}

static const char *setting(const struct run_result *r, const char *key)
{
	for (unsigned i = 0; i < r->nsettings; i++)
		if (!strcmp(r->settings[i].key, key))
			return r->settings[i].value;
	return NULL;
}

static int cpu_pct(const struct test_result *t)
{
	double v = t->cpu_user_pct + t->cpu_sys_pct;

	return isfinite(v) ? (int)lround(v) : 0;
}

/* bonnie++'s latency field: an integer with us, ms or s. */
static void latency(FILE *f, const struct test_result *t)
{
	uint64_t us;

	if (!t)
		return;
	us = t->lat_sum.max / 1000;
	if (us < 100000)
		fprintf(f, "%" PRIu64 "us", us);
	else if (us / 1000 < 100000)
		fprintf(f, "%" PRIu64 "ms", us / 1000);
	else
		fprintf(f, "%" PRIu64 "s", us / 1000000);
}

/* A name field must not hold the separator. */
static void name_field(FILE *f, const char *s)
{
	for (; *s; s++)
		putc(*s == ',' || *s == '\n' || *s == '\r' ? '_' : *s, f);
}

int report_bonnie_csv(FILE *f, const struct run_result *r)
{
	const struct test_result *io[6], *fl[6], *block, *seeks, *meta = NULL;
	const char *seed = setting(r, "seed");
	unsigned i;

	for (i = 0; i < 6; i++) {
		io[i] = find(r, io_tests[i]);
		fl[i] = find(r, file_tests[i]);
		if (fl[i] && !meta)
			meta = fl[i];
	}
	block = io[1] ? io[1] : io[4];
	seeks = io[5];

	fprintf(f, "1.98,diskbench-%s,", r->tool_version ? r->tool_version : "");
	name_field(f, r->label[0] ? r->label : r->host.hostname);
	fprintf(f, ",1,%s,", seed ? seed : "");
	if (block)
		fprintf(f, "%" PRIu64 "M,%u,", block->size >> 20, block->bs);
	else
		fputs(",,", f);
	if (seeks)
		fprintf(f, "%" PRIu64 ",%u", seeks->ops, seeks->jobs);
	else
		putc(',', f);

	for (i = 0; i < 6; i++) {
		const struct test_result *t = io[i];

		if (!t)
			fputs(",,", f);
		else if (i == 5)
			fprintf(f, ",%.1f,%d", t->iops, cpu_pct(t));
		else
			fprintf(f, ",%.0f,%d", t->bytes_per_sec / 1024.0, cpu_pct(t));
	}

	/* Files: bonnie++ counts them in multiples of 1024 and, like it,
	 * leaves zero sizes and a single directory empty. */
	if (meta) {
		fprintf(f, ",%" PRIu64 ",", meta->params.nfiles / 1024);
		if (meta->params.file_max)
			fprintf(f, "%" PRIu64, meta->params.file_max);
		putc(',', f);
		if (meta->params.file_min)
			fprintf(f, "%" PRIu64, meta->params.file_min);
		putc(',', f);
		if (meta->params.ndirs > 1)
			fprintf(f, "%u", meta->params.ndirs);
		putc(',', f);
	} else {
		fputs(",,,,,", f);
	}
	for (i = 0; i < 6; i++) {
		if (fl[i])
			fprintf(f, ",%.0f,%d", fl[i]->iops, cpu_pct(fl[i]));
		else
			fputs(",,", f);
	}
	for (i = 0; i < 6; i++) {
		putc(',', f);
		latency(f, io[i]);
	}
	for (i = 0; i < 6; i++) {
		putc(',', f);
		latency(f, fl[i]);
	}
	putc('\n', f);
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
