/* import_hdparm.c - hdparm -t / -T text output read into a run_result. */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "import.h"
#include "import_int.h"
#include "load_check.h"
#include "repeat.h"

/* hdparm reads 2 MiB at a time and counts its "MB" as 2^20 bytes. */
#define HDPARM_BS (2u << 20)
#define MIB (1024.0 * 1024.0)

/* hdparm's four lines: what each measured, as the hdparm profile's tests
 * (profiles/hdparm.ini) are named, so that compare pairs them. */
static const struct {
	const char *what;	/* after " Timing ", up to ':' */
	const char *workload;
	bool direct;
} lines[] = {
	{ .what = "cached reads", .workload = "cached-read" },
	{ .what = "buffered disk reads", .workload = "buffered-read" },
	{ .what = "O_DIRECT cached reads", .workload = "cached-read", .direct = true },
	{ .what = "O_DIRECT disk reads", .workload = "buffered-read", .direct = true },
};

static int fail(const char *name, char *err, size_t errlen, int line, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int fail(const char *name, char *err, size_t errlen, int line, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: line %d: %s", name, line, msg);
	return -EINVAL;
}

/*
 * One " Timing WHAT: N MB in S seconds = R MB/sec" line into t. The window
 * is N MB / R (R has 5 or more significant digits, S only 2 decimals), and
 * must agree with S, so that the derived rate is hdparm's R and the
 * seconds hdparm's S.
 */
static int timing(const char *name, char *err, size_t errlen, int ln, const char *s,
		  struct test_result *t)
{
	char what[64], unit[16];
	unsigned long long mb;
	double secs, rate, win;
	int n = 0;
	size_t i;

	memset(t, 0, sizeof(*t));
	if (sscanf(s, " Timing %63[^:]: %llu MB in %lf seconds = %lf %15s%n", what, &mb, &secs,
		   &rate, unit, &n) != 5)
		return fail(name, err, errlen, ln, "an hdparm timing line without its figures "
			    "(\"N MB in S seconds = R MB/sec\")");
	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		if (!strcmp(what, lines[i].what))
			break;
	if (i == sizeof(lines) / sizeof(lines[0]))
		return fail(name, err, errlen, ln, "\"Timing %s\" is none of hdparm -t/-T's lines",
			    what);
	if (!strcmp(unit, "kB/sec"))
		rate /= 1024;
	else if (strcmp(unit, "MB/sec"))
		return fail(name, err, errlen, ln, "rate in \"%s\", not MB/sec or kB/sec", unit);
	if (!mb || !(rate > 0) || !(secs > 0) || mb > (1ull << 40))
		return fail(name, err, errlen, ln, "no reads measured (%llu MB in %.2f seconds)",
			    mb, secs);
	win = (double)mb / rate;
	/* S is rounded to 2 decimals, R to 2: allow both roundings */
	if (fabs(win - secs) > 0.005 + 0.005 / rate * win + 1e-9)
		return fail(name, err, errlen, ln, "%llu MB in %.2f seconds is not %.2f MB/sec",
			    mb, secs, rate);
	snprintf(t->name, sizeof(t->name), "Timing %s", lines[i].what);
	t->workload = lines[i].workload;
	t->engine = "sync";	/* hdparm read()s, as diskbench's sync engine */
	t->direct = lines[i].direct;
	t->bs = HDPARM_BS;
	t->qd = t->jobs = 1;
	t->bytes = (uint64_t)mb << 20;
	t->ops = (t->bytes + HDPARM_BS - 1) / HDPARM_BS;
	t->runtime_ns = (uint64_t)llround(win * 1e9);
	t->cpu_user_pct = t->cpu_sys_pct = t->usec_per_op = NAN;	/* not measured */
	t->lat = malloc(sizeof(*t->lat));
	if (!t->lat)
		return -ENOMEM;
	hist_init(t->lat);	/* hdparm times no single read: latency missing */
	result_finish(t);
	repeat_finish(t);
	return 0;
}

int import_hdparm(const char *name, const char *buf, size_t len, struct run_result *r,
		  char *err, size_t errlen)
{
	struct test_result t;
	char line[512], msg[256], w[32];
	size_t pos = 0, n;
	int ln = 0, ret = 0;

	memset(r, 0, sizeof(*r));
	import_begin(r, "hdparm", "", name, TARGET_BLOCK);	/* hdparm names no version */
	while (pos < len) {
		const char *nl = memchr(buf + pos, '\n', len - pos);

		n = nl ? (size_t)(nl - (buf + pos)) : len - pos;
		ln++;
		snprintf(line, sizeof(line), "%.*s", (int)(n < sizeof(line) ? n : sizeof(line) - 1),
			 buf + pos);
		pos += n + 1;
		if (line[0] == '/' && n && line[strlen(line) - 1] == ':') {
			line[strlen(line) - 1] = '\0';
			if (r->target.path[0] && strcmp(r->target.path, line)) {
				ret = fail(name, err, errlen, ln, "a second device, %s (after %s): "
					   "diskbench keeps one target per result; split the file",
					   line, r->target.path);
				goto out;
			}
			snprintf(r->target.path, sizeof(r->target.path), "%s", line);
			continue;
		}
		if (strncmp(line, " Timing ", 8))
			continue;	/* hdparm's other lines (-i, warnings) */
		ret = timing(name, err, errlen, ln, line, &t);
		if (!ret && load_check_test(&t, r->ntests, w, sizeof(w), msg, sizeof(msg)))
			ret = fail(name, err, errlen, ln, "%s", msg);
		ret = import_keep(r, &t, ret, name, err, errlen);
		if (ret)
			goto out;
	}
	if (!r->ntests)
		ret = fail(name, err, errlen, ln, "no hdparm -t/-T timing line in it");
out:
	return import_end(r, ret);
}
