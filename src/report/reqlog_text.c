/* reqlog_text.c - the per-request log (--lat-log) as text: one line a request, after each test. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

static const char *const phase_word[] = {
	[REQLOG_RAMP] = "ramp", [REQLOG_WINDOW] = "window", [REQLOG_AFTER] = "after",
};

int report_reqlog_head(FILE *f)
{
	fprintf(f, "# diskbench %s per-request log (--lat-log): one line per completed request.\n"
		"# Times in ns of CLOCK_MONOTONIC (clock_gettime(2)), comparable with another\n"
		"# log of the same boot on that clock; LAT_NS = COMPLETE_NS - SUBMIT_NS, what\n"
		"# the histogram counted.\n"
		"# SLOT is the queue slot (and buffer) the request used: a slot's requests run one\n"
		"# after another. RESULT is the bytes moved or -errno. PHASE: ramp (not counted),\n"
		"# window (counted in the histogram when RESULT = BYTES, else an error), after\n"
		"# (completed after its job's window closed, not counted). A test's requests\n"
		"# follow its '# test' line, job by job, each job's in the order they completed.\n"
		"# TEST RUN JOB SLOT OP OFFSET BYTES SUBMIT_NS COMPLETE_NS LAT_NS RESULT PHASE\n",
		PACKAGE_VERSION);
	return ferror(f) ? -EIO : 0;
}

/* v in decimal at p; returns the end. */
static char *put_u64(char *p, uint64_t v)
{
	char tmp[20];
	int n = 0;

	do {
		tmp[n++] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

static char *put_str(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

/* One request's line (at most 12 fields of 20 digits: 300 bytes). */
static size_t line(char *buf, const struct report_reqlog_run *t, unsigned job,
		   const struct reqlog_entry *e)
{
	char *p = buf;

	p = put_u64(p, t->test);
	*p++ = ' ';
	p = put_u64(p, t->run);
	*p++ = ' ';
	p = put_u64(p, job);
	*p++ = ' ';
	p = put_u64(p, e->slot);
	p = put_str(p, e->dir == IO_WRITE ? " write " : " read ");
	p = put_u64(p, e->offset);
	*p++ = ' ';
	p = put_u64(p, t->bs);
	*p++ = ' ';
	p = put_u64(p, e->submit_ns);
	*p++ = ' ';
	p = put_u64(p, e->complete_ns);
	*p++ = ' ';
	p = put_u64(p, e->complete_ns - e->submit_ns);
	*p++ = ' ';
	if (e->result < 0)
		*p++ = '-';
	p = put_u64(p, e->result < 0 ? (uint64_t)-(int64_t)e->result : (uint64_t)e->result);
	*p++ = ' ';
	p = put_str(p, e->phase < 3 ? phase_word[e->phase] : "?");
	*p++ = '\n';
	return (size_t)(p - buf);
}

int report_reqlog(FILE *f, const struct reqlog *l, const struct report_reqlog_run *t)
{
	unsigned jobs = t->logged && l && t->jobs <= l->jobs ? t->jobs : 0;
	uint64_t logged = 0, dropped = 0;
	char buf[320];

	for (unsigned j = 0; j < jobs; j++) {
		logged += l->job[j].n;
		dropped += l->job[j].dropped;
	}
	fprintf(f, "# test %u run %u jobs %u logged %" PRIu64 " dropped %" PRIu64 ": %s%s\n",
		t->test, t->run, t->jobs, logged, dropped, t->name,
		t->logged ? "" : " (its own I/O, not block requests: not logged)");
	for (unsigned j = 0; j < jobs; j++)
		if (l->job[j].dropped)
			fprintf(f, "# test %u run %u job %u: %" PRIu64 " requests not logged, after "
				"its first %" PRIu64 " (--lat-log-max)\n", t->test, t->run, j,
				l->job[j].dropped, l->job[j].n);
	for (unsigned j = 0; j < jobs && !ferror(f); j++)
		for (uint64_t k = 0; k < l->job[j].n; k++)
			fwrite(buf, 1, line(buf, t, j, &l->job[j].e[k]), f);
	return ferror(f) ? -EIO : 0;
}
