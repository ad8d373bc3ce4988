/* bonnie_line.c - a run's bonnie++ result line: which test fills which field. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bonnie_line.h"

/* bonnie++'s tests, in its field order, by the workload that does each. */
static const char *const io_tests[BONNIE_NIO] = {
	"char-write", "seq-write", "rewrite", "char-read", "seq-read", "seeks",
};
static const char *const file_tests[BONNIE_NFILE] = {
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

void bonnie_line_of(const struct run_result *r, struct bonnie_line *b)
{
	const struct test_result *block, *meta = NULL;
	unsigned i;

	memset(b, 0, sizeof(*b));
	b->host = r->host.hostname;
	b->seed = result_setting(r, "seed");
	for (i = 0; i < BONNIE_NIO; i++)
		b->io[i] = find(r, io_tests[i]);
	for (i = 0; i < BONNIE_NFILE; i++) {
		b->file[i] = find(r, file_tests[i]);
		if (b->file[i] && !meta)
			meta = b->file[i];
	}
	block = b->io[1] ? b->io[1] : b->io[4];
	if (block) {
		b->has_size = true;
		b->size_mib = block->size >> 20;
		b->chunk = block->bs;
	}
	if (b->io[5])
		b->seekers = b->io[5]->jobs;
	if (meta) {
		b->has_files = true;
		b->files_k = meta->params.nfiles / 1024;
		b->file_max = meta->params.file_max;
		b->file_min = meta->params.file_min;
		b->ndirs = meta->params.ndirs;
	}
}

int bonnie_cpu(const struct test_result *t)
{
	double v = t->cpu_user_pct + t->cpu_sys_pct;

	return isfinite(v) ? (int)lround(v) : 0;
}

void bonnie_latency(const struct test_result *t, char *buf, size_t len)
{
	uint64_t us;

	if (!t) {
		snprintf(buf, len, "%s", "");
		return;
	}
	us = t->lat_sum.max / 1000;
	if (us < 100000)
		snprintf(buf, len, "%" PRIu64 "us", us);
	else if (us / 1000 < 100000)
		snprintf(buf, len, "%" PRIu64 "ms", us / 1000);
	else
		snprintf(buf, len, "%" PRIu64 "s", us / 1000000);
}
