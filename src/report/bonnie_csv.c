/* bonnie_csv.c - one line in bonnie++'s CSV format 1.98, for bon_csv2txt/html. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "bonnie_line.h"
#include "report.h"

/*
 * bonnie++ 2.00's CSV line has 50 fields: format version, bonnie version,
 * machine name, concurrency, seed, size, chunk size, seeks (its seek-count
 * setting), seekers; then rate and %CPU for putc, block write, rewrite,
 * getc, block read and seeks; then the file-test parameters (files in
 * multiples of 1024, max size, min size, directories, chunk size) and rate
 * and %CPU for sequential create, stat ("read") and delete and the same in
 * random order; last the twelve latencies in the same test order.
 * bon_csv2txt only checks the first field.
 *
 * bonnie_line.h says which test fills which field, and leaves a field
 * empty when no test of that workload ran, as bonnie++ does for a skipped
 * test. Rates: K/sec (1024 bytes) for the byte tests and ops/sec for seeks
 * and files, as bonnie++. Latency: bonnie++ keeps only the maximum, so
 * that is what goes here (the JSON has the percentiles). There is never a
 * "+++++": every test ran for its full time and has a number.
 */

/* A name field must not hold the separator. */
static void name_field(FILE *f, const char *s)
{
	for (; *s; s++)
		putc(*s == ',' || *s == '\n' || *s == '\r' ? '_' : *s, f);
}

int report_bonnie_csv(FILE *f, const struct run_result *r)
{
	struct bonnie_line b;
	char lat[32];
	unsigned i;

	bonnie_line_of(r, &b);
	fprintf(f, "1.98,diskbench-%s,", r->tool_version ? r->tool_version : "");
	name_field(f, b.host);
	fprintf(f, ",1,%s,", b.seed ? b.seed : "");
	if (b.has_size)
		fprintf(f, "%" PRIu64 "M,%u,", b.size_mib, b.chunk);
	else
		fputs(",,", f);
	/* the seek count: a setting diskbench does not have (bonnie_line.h) */
	putc(',', f);
	if (b.seekers)
		fprintf(f, "%u", b.seekers);

	for (i = 0; i < BONNIE_NIO; i++) {
		const struct test_result *t = b.io[i];

		if (!t)
			fputs(",,", f);
		else if (i == 5)
			fprintf(f, ",%.1f,%d", t->iops, bonnie_cpu(t));
		else
			fprintf(f, ",%.0f,%d", t->bytes_per_sec / 1024.0, bonnie_cpu(t));
	}

	/* Files: bonnie++ counts them in multiples of 1024 and, like it,
	 * leaves zero sizes and a single directory empty. */
	if (b.has_files) {
		fprintf(f, ",%" PRIu64 ",", b.files_k);
		if (b.file_max)
			fprintf(f, "%" PRIu64, b.file_max);
		putc(',', f);
		if (b.file_min)
			fprintf(f, "%" PRIu64, b.file_min);
		putc(',', f);
		if (b.ndirs > 1)
			fprintf(f, "%u", b.ndirs);
		putc(',', f);
	} else {
		fputs(",,,,,", f);
	}
	for (i = 0; i < BONNIE_NFILE; i++) {
		if (b.file[i])
			fprintf(f, ",%.0f,%d", b.file[i]->iops, bonnie_cpu(b.file[i]));
		else
			fputs(",,", f);
	}
	for (i = 0; i < BONNIE_NIO; i++) {
		bonnie_latency(b.io[i], lat, sizeof(lat));
		fprintf(f, ",%s", lat);
	}
	for (i = 0; i < BONNIE_NFILE; i++) {
		bonnie_latency(b.file[i], lat, sizeof(lat));
		fprintf(f, ",%s", lat);
	}
	putc('\n', f);
	if (fflush(f) || ferror(f))
		return errno ? -errno : -EIO;
	return 0;
}
