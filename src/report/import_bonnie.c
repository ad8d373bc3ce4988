/* import_bonnie.c - a bonnie++ CSV line (format 1.96 to 1.98: bonnie++ 1.96 to 2.00) read into a run_result. */
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
#include "parse.h"
#include "repeat.h"

#define BON_FIELDS 50	/* format 1.97 and 1.98 (bonnie++ 2.00 writes 1.98) */
#define BON_FIELDS_196 48	/* format 1.96: no seeks and seekers fields */
/* Format 1.96 does not say how many seeks by how many processes: bonnie++
 * 1.96 had them built in (bonnie.h Seeks 8192, SeekProcCount 5), the
 * defaults of -s size:chunk:seeks:seekers since 1.97. */
#define BON_SEEKS_196 8192
#define BON_SEEKERS_196 5
#define BON_LATENCY 38	/* the twelve tests' latencies, in the tests' order */

/* The twelve tests in the line's order: the rate's field, what it is. */
static const struct {
	unsigned field;
	const char *workload, *engine;
	enum { BYTE, CHAR, SEEK, FILES } kind;
	bool write, random;
} tests[] = {
	{ .field = 9, .workload = "char-write", .engine = "stdio", .kind = CHAR, .write = true },
	{ .field = 11, .workload = "seq-write", .engine = "sync", .kind = BYTE, .write = true },
	{ .field = 13, .workload = "rewrite", .engine = "sync", .kind = BYTE, .write = true },
	{ .field = 15, .workload = "char-read", .engine = "stdio", .kind = CHAR },
	{ .field = 17, .workload = "seq-read", .engine = "sync", .kind = BYTE },
	{ .field = 19, .workload = "seeks", .engine = "sync", .kind = SEEK, .random = true },
	{ .field = 26, .workload = "meta-create", .engine = "posix", .kind = FILES, .write = true },
	{ .field = 28, .workload = "meta-stat", .engine = "posix", .kind = FILES },
	{ .field = 30, .workload = "meta-delete", .engine = "posix", .kind = FILES, .write = true },
	{ .field = 32, .workload = "meta-create-rand", .engine = "posix", .kind = FILES,
	  .write = true, .random = true },
	{ .field = 34, .workload = "meta-stat-rand", .engine = "posix", .kind = FILES,
	  .random = true },
	{ .field = 36, .workload = "meta-delete-rand", .engine = "posix", .kind = FILES,
	  .write = true, .random = true },
};

static int fail(const char *name, char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(const char *name, char *err, size_t errlen, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(err, errlen, "%s: %s", name, msg);
	return -EINVAL;
}

/* A whole number field; false when empty or not one. */
static bool field_u64(const char *s, uint64_t *out)
{
	char *end;

	if (!*s || *s < '0' || *s > '9')
		return false;
	*out = strtoull(s, &end, 10);
	return !*end;
}

/* The line's parameters of its tests: bonnie++ -s size:chunk, its seek
 * count and seekers, -n files (in multiples of 1024). */
struct bon_params {
	uint64_t size, chunk, seeks, seekers, files_k;
};

/* buf's one line into line (NUL-terminated, its CR dropped), split at its
 * commas into f[0..BON_FIELDS). */
static int bon_split(const char *name, const char *buf, size_t len, char *line, size_t linelen,
		     char **f, char *err, size_t errlen)
{
	static char empty[] = "";
	size_t n = 0, i;
	unsigned nf = 0, want;
	char *p;

	while (n < len && buf[n] != '\n')
		n++;
	for (i = n; i < len; i++)
		if (!strchr(" \t\r\n", buf[i]))
			return fail(name, err, errlen, "more than one bonnie++ line (bonnie++ -x): "
				    "diskbench reads one line per file");
	if (n >= linelen)
		return fail(name, err, errlen, "a bonnie++ line longer than %zu bytes",
			    linelen - 1);
	memcpy(line, buf, n);
	line[n] = '\0';
	if (n && line[n - 1] == '\r')
		line[n - 1] = '\0';
	for (p = line; nf <= BON_FIELDS; nf++) {
		f[nf] = p;
		p = strchr(p, ',');
		if (!p) {
			nf++;
			break;
		}
		*p++ = '\0';
	}
	want = strcmp(f[0], "1.96") ? BON_FIELDS : BON_FIELDS_196;
	if (nf != want)
		return fail(name, err, errlen, "a bonnie++ CSV line (format %s) of %s%u fields, "
			    "not %u", f[0], nf > BON_FIELDS ? "more than " : "",
			    nf > BON_FIELDS ? BON_FIELDS : nf, want);
	if (want == BON_FIELDS_196) {
		/* format 1.96 has no seeks and seekers fields (7, 8): put them,
		 * empty, where 1.97 has them */
		memmove(&f[9], &f[7], (BON_FIELDS_196 - 7) * sizeof(*f));
		f[7] = f[8] = empty;
	}
	return 0;
}

/* The fields that say how the tests ran into pp. */
static int bon_params(const char *name, char *const *f, struct bon_params *pp, char *err,
		      size_t errlen)
{
	*pp = (struct bon_params){ .chunk = 8192, .seekers = 1 };
	if (strcmp(f[3], "1") && *f[3])
		return fail(name, err, errlen, "concurrency %s (bonnie++ -c): diskbench cannot "
			    "tell one process's rate from the sum", f[3]);
	if (*f[5] && parse_size(f[5], &pp->size))
		return fail(name, err, errlen, "file size \"%s\" is not a size", f[5]);
	if (*f[6] && parse_size(f[6], &pp->chunk))
		return fail(name, err, errlen, "chunk size \"%s\" is not a size", f[6]);
	if (*f[7] && !field_u64(f[7], &pp->seeks))
		return fail(name, err, errlen, "seeks \"%s\" is not a count", f[7]);
	if (*f[8] && !field_u64(f[8], &pp->seekers))
		return fail(name, err, errlen, "seekers \"%s\" is not a count", f[8]);
	if (!strcmp(f[0], "1.96"))
		*pp = (struct bon_params){ .size = pp->size, .chunk = pp->chunk,
					   .seeks = BON_SEEKS_196, .seekers = BON_SEEKERS_196 };
	if (*f[21] && !field_u64(f[21], &pp->files_k))
		return fail(name, err, errlen, "files \"%s\" is not a count", f[21]);
	return 0;
}

/* The size, ops and window of test i, whose rate is rate, into t. */
static int bon_amounts(const char *name, char *const *f, const struct bon_params *pp,
		       unsigned i, double rate, struct test_result *t, char *err, size_t errlen)
{
	uint64_t v;
	char bs[16];

	format_size(pp->chunk, bs, sizeof(bs));
	switch (tests[i].kind) {
	case CHAR:
	case BYTE:
		if (!pp->size)
			return fail(name, err, errlen, "%s: a rate but no file size",
				    tests[i].workload);
		t->bs = tests[i].kind == CHAR ? 1 : (uint32_t)pp->chunk;
		t->bytes = pp->size;
		t->ops = pp->size / t->bs;
		/* K/sec, K = 1024 bytes: the window the rate took */
		t->runtime_ns = (uint64_t)llround((double)pp->size / (rate * 1024) * 1e9);
		if (tests[i].kind == CHAR)
			snprintf(t->name, sizeof(t->name), "%s", t->workload);
		else if (!strcmp(t->workload, "rewrite"))
			snprintf(t->name, sizeof(t->name), "rewrite %s", bs);
		else
			snprintf(t->name, sizeof(t->name), "%s %s qd1", t->workload, bs);
		break;
	case SEEK:
		if (!pp->seeks)
			return fail(name, err, errlen, "seeks: a rate but no seek count");
		t->bs = (uint32_t)pp->chunk;
		t->jobs = (uint32_t)pp->seekers;
		t->ops = pp->seeks;
		t->bytes = pp->seeks * pp->chunk;
		t->runtime_ns = (uint64_t)llround((double)pp->seeks / rate * 1e9);
		snprintf(t->name, sizeof(t->name), "seeks %s qd1 j%u", bs, t->jobs);
		break;
	case FILES:
		if (!pp->files_k)
			return fail(name, err, errlen, "%s: a rate but no file count",
				    tests[i].workload);
		t->ops = pp->files_k * 1024;
		t->params.nfiles = t->ops;
		if (field_u64(f[22], &v))
			t->params.file_max = v;
		if (field_u64(f[23], &v))
			t->params.file_min = v;
		if (field_u64(f[24], &v))
			t->params.ndirs = (uint32_t)v;
		t->runtime_ns = (uint64_t)llround((double)t->ops / rate * 1e9);
		snprintf(t->name, sizeof(t->name), "%s", t->workload);
		break;
	}
	return 0;
}

/*
 * Test i's %CP (the field after its rate) and latency (bonnie++'s maximum,
 * "8147us", "240ms", "2s") into t. bonnie++'s %CP is user + sys in one: it
 * is kept as the CPU per op, user and sys missing. An empty field (or
 * "+++") is missing, never 0.
 */
static int bon_cpu_lat(const char *name, char *const *f, unsigned i, struct test_result *t,
		       char *err, size_t errlen)
{
	const char *cp = f[tests[i].field + 1], *lat = f[BON_LATENCY + i];
	double v;
	char *end;

	t->cpu_user_pct = t->cpu_sys_pct = t->usec_per_op = NAN;
	if (*cp && strspn(cp, "+") != strlen(cp)) {
		v = strtod(cp, &end);
		if (*end || !(v >= 0) || v > 100000)
			return fail(name, err, errlen, "%s: %%CP \"%s\" is not a percentage",
				    tests[i].workload, cp);
		t->usec_per_op = v / 100 * ((double)t->runtime_ns / 1e3) / (double)t->ops;
	}
	if (!*lat)
		return 0;
	v = strtod(lat, &end);
	if (end == lat || !(v >= 0) || v > 1e9 || (strcmp(end, "us") && strcmp(end, "ms") &&
						   strcmp(end, "s")))
		return fail(name, err, errlen, "%s: latency \"%s\" is not a time in us, ms or s",
			    tests[i].workload, lat);
	v *= !strcmp(end, "us") ? 1e3 : !strcmp(end, "ms") ? 1e6 : 1e9;
	t->lat_sum.max = (uint64_t)llround(v);
	t->lat_max_given = true;
	return 0;
}

/* Test i of the line into t: 0, 1 when the line has no figure for it
 * (empty: not run; "+++++": too fast to time, named in a warning), or an
 * error. */
static int bon_test(const char *name, char *const *f, const struct bon_params *pp, unsigned i,
		    struct run_result *r, struct test_result *t, char *err, size_t errlen)
{
	const char *rate_s = f[tests[i].field];
	char msg[256], w[32], *end;
	double rate;
	int ret;

	memset(t, 0, sizeof(*t));
	if (!*rate_s)
		return 1;	/* not run (bonnie++ leaves it empty) */
	if (strspn(rate_s, "+") == strlen(rate_s))
		/* bonnie++'s "+++++": done in under 0.5 s, no figure */
		return result_add_warning(r, "%s: %s: bonnie++ printed \"%s\" (too fast for it "
					  "to time): no figure", name, tests[i].workload,
					  rate_s) ? -ENOMEM : 1;
	rate = strtod(rate_s, &end);
	if (*end || !(rate > 0) || !isfinite(rate))
		return fail(name, err, errlen, "%s: rate \"%s\" is not a number",
			    tests[i].workload, rate_s);
	t->workload = tests[i].workload;
	t->engine = tests[i].engine;
	t->is_write = tests[i].write;
	t->random = tests[i].random;
	t->qd = t->jobs = 1;
	ret = bon_amounts(name, f, pp, i, rate, t, err, errlen);
	if (!ret)
		ret = bon_cpu_lat(name, f, i, t, err, errlen);
	if (ret)
		return ret;
	t->lat = malloc(sizeof(*t->lat));
	if (!t->lat)
		return -ENOMEM;
	hist_init(t->lat);
	result_finish(t);
	repeat_finish(t);
	if (load_check_test(t, r->ntests, w, sizeof(w), msg, sizeof(msg)))
		return fail(name, err, errlen, "%s: %s", t->workload, msg);
	return 0;
}

int import_bonnie(const char *name, const char *buf, size_t len, struct run_result *r,
		  char *err, size_t errlen)
{
	char line[4096], *f[BON_FIELDS + 1];
	struct bon_params pp;
	struct test_result t;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = bon_split(name, buf, len, line, sizeof(line), f, err, errlen);
	if (!ret)
		ret = bon_params(name, f, &pp, err, errlen);
	if (ret)
		return ret;
	import_begin(r, "bonnie++", f[1], name, TARGET_DIR);
	snprintf(r->host.hostname, sizeof(r->host.hostname), "%s", f[2]);
	if (!strcmp(f[0], "1.96") && *f[19] && strspn(f[19], "+") != strlen(f[19]) &&
	    result_add_warning(r, "%s: seeks: format 1.96 does not record its seek count: "
			       "bonnie++ 1.96's built-in %d seeks by %d processes assumed",
			       name, BON_SEEKS_196, BON_SEEKERS_196)) {
		ret = -ENOMEM;
		goto out;
	}
	for (unsigned i = 0; i < sizeof(tests) / sizeof(tests[0]); i++) {
		ret = bon_test(name, f, &pp, i, r, &t, err, errlen);
		ret = ret == 1 ? 0 : import_keep(r, &t, ret, name, err, errlen);
		if (ret)
			goto out;
	}
	if (!r->ntests && !r->nwarnings)
		ret = fail(name, err, errlen, "a bonnie++ line with no test in it");
out:
	if (ret == -ENOMEM)
		snprintf(err, errlen, "%s: out of memory", name);
	return import_end(r, ret);
}
