/* import_fio.c - fio 3.x JSON output (--output-format=json / json+) read into a run_result. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <jansson.h>

#include "annotate.h"
#include "import.h"
#include "import_int.h"
#include "load_check.h"
#include "parse.h"
#include "repeat.h"

/* The file being read and the first error. */
struct fio {
	const char *name;
	char *err;
	size_t errlen;
	json_t *doc, *global;	/* the document read, its "global options" (or NULL) */
	bool no_bins_warned;
};

static int fail(struct fio *f, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int fail(struct fio *f, const char *fmt, ...)
{
	char msg[320];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(f->err, f->errlen, "%s: %s", f->name, msg);
	return -EINVAL;
}

/* A job's option as fio echoed it (its "job options", else the file's
 * "global options"); NULL when neither sets it (fio's default then). */
static const char *opt(struct fio *f, json_t *job, const char *key)
{
	json_t *v = json_object_get(json_object_get(job, "job options"), key);

	if (!v && f->global)
		v = json_object_get(f->global, key);
	return json_is_string(v) ? json_string_value(v) : NULL;
}

/* A non-negative integer member, or -1 when missing or not one. */
static int64_t num(json_t *o, const char *key)
{
	json_t *v = json_object_get(o, key);

	if (json_is_integer(v) && json_integer_value(v) >= 0)
		return json_integer_value(v);
	return -1;
}

/*
 * fio's size for a direction: "4k", or "4k,64k" (read,write[,trim]). fio's
 * default kb_base=1024 reads "kB" as 1024 like "k", unlike parse_size.
 */
static int fio_size(struct fio *f, const char *job, const char *key, const char *s,
		    bool write, uint64_t *out)
{
	char buf[64], *comma;
	size_t n;

	snprintf(buf, sizeof(buf), "%s", s);
	comma = strchr(buf, ',');
	if (comma) {
		*comma = '\0';
		if (write && comma[1]) {
			memmove(buf, comma + 1, strlen(comma + 1) + 1);
			comma = strchr(buf, ',');
			if (comma)
				*comma = '\0';
		}
	}
	n = strlen(buf);
	if (n >= 2 && (buf[n - 1] == 'b' || buf[n - 1] == 'B') && strchr("kKmMgGtT", buf[n - 2]))
		buf[n - 1] = '\0';
	if (parse_size(buf, out) || !*out || *out > UINT32_MAX)
		return fail(f, "job \"%s\": %s=%s is not a block size diskbench reads", job, key, s);
	return 0;
}

/* The part of fio's "rw" diskbench can keep as one test, or an error that
 * says why not. */
static int fio_rw(struct fio *f, const char *job, const char *rw, bool *write, bool *random)
{
	static const struct {
		const char *rw;
		bool write, random;
	} one[] = {
		{ .rw = "read" }, { .rw = "randread", .random = true },
		{ .rw = "write", .write = true }, { .rw = "randwrite", .write = true, .random = true },
	};

	for (size_t i = 0; i < sizeof(one) / sizeof(one[0]); i++)
		if (!strcmp(rw, one[i].rw)) {
			*write = one[i].write;
			*random = one[i].random;
			return 0;
		}
	if (!strcmp(rw, "rw") || !strcmp(rw, "readwrite") || !strcmp(rw, "randrw"))
		return fail(f, "job \"%s\": rw=%s is a mixed read/write job, which diskbench "
			    "cannot keep as one test (run fio with a read job and a write job)",
			    job, rw);
	if (strstr(rw, "trim"))
		return fail(f, "job \"%s\": rw=%s trims, a workload diskbench cannot represent",
			    job, rw);
	return fail(f, "job \"%s\": rw=%s is not a workload diskbench can represent", job, rw);
}

/* json+: the clat_ns bins ({"value_ns": count}) into h, min and max from
 * fio's own, the moments from its mean and stddev. false without bins. */
static bool fio_bins(json_t *clat, struct hist *h)
{
	json_t *bins = json_object_get(clat, "bins"), *v;
	const char *key;
	double mean, sd;

	hist_init(h);
	if (!json_is_object(bins) || !json_object_size(bins))
		return false;
	json_object_foreach(bins, key, v) {
		char *end;
		unsigned long long ns = strtoull(key, &end, 10);

		if (*end || !json_is_integer(v) || json_integer_value(v) <= 0)
			continue;
		h->count[hist_index(ns)] += (uint64_t)json_integer_value(v);
		h->n += (uint64_t)json_integer_value(v);
	}
	if (!h->n)
		return false;
	h->min = num(clat, "min") >= 0 ? (uint64_t)num(clat, "min") : 0;
	h->max = num(clat, "max") >= 0 ? (uint64_t)num(clat, "max") : 0;
	mean = json_number_value(json_object_get(clat, "mean"));
	sd = json_number_value(json_object_get(clat, "stddev"));
	h->sum = (uint64_t)llround(mean * (double)h->n);
	h->sumsq = (unsigned __int128)(((long double)sd * sd + (long double)mean * mean) *
				       (long double)h->n);
	return true;
}

/* Plain json: fio's own clat percentiles, at the points diskbench
 * reports that fio has too ("50.000000"), and its min, max, mean and
 * stddev, kept as given (lat_pct_given). Returns true (warn). */
static bool fio_given(json_t *clat, struct test_result *t)
{
	json_t *p = json_object_get(clat, "percentile"), *v;
	char key[32];

	for (unsigned i = 0; json_is_object(p) && i < RESULT_NPCT; i++) {
		snprintf(key, sizeof(key), "%f", result_pcts[i]);
		v = json_object_get(p, key);
		if (json_is_integer(v) && json_integer_value(v) >= 0) {
			t->lat_sum.pct[i] = (uint64_t)json_integer_value(v);
			t->lat_pct_given |= (uint16_t)(1u << i);
		}
	}
	if (t->lat_pct_given && num(clat, "min") >= 0 && num(clat, "max") >= 0 &&
	    json_is_number(json_object_get(clat, "mean"))) {
		t->lat_sum.min = (uint64_t)num(clat, "min");
		t->lat_sum.max = (uint64_t)num(clat, "max");
		t->lat_sum.mean = json_number_value(json_object_get(clat, "mean"));
		t->lat_sum.stdev = json_number_value(json_object_get(clat, "stddev"));
	} else {
		t->lat_pct_given = 0;
		memset(&t->lat_sum, 0, sizeof(t->lat_sum));
	}
	return true;
}

/* Refuse a job whose workload diskbench cannot represent: an offset
 * modifier, trim, mixed, zoned, verify-only, kb_base=1000, several block
 * sizes. Sets *write and *random from its rw. */
static int fio_refuse(struct fio *f, json_t *job, const char *jn, const char *rw, bool *write,
		      bool *random)
{
	const char *s;

	if (strchr(rw, ':'))
		return fail(f, "job \"%s\": rw=%s has an offset modifier, a pattern diskbench "
			    "cannot represent", jn, rw);
	if (fio_rw(f, jn, rw, write, random))
		return -EINVAL;
	if ((s = opt(f, job, "zonemode")) && strcmp(s, "none"))
		return fail(f, "job \"%s\": zonemode=%s, a zoned workload diskbench cannot "
			    "represent", jn, s);
	if ((s = opt(f, job, "verify_only")) && strcmp(s, "0"))
		return fail(f, "job \"%s\": a verify-only job, which measures no workload", jn);
	if ((s = opt(f, job, "kb_base")) && !strcmp(s, "1000"))
		return fail(f, "job \"%s\": kb_base=1000, whose sizes diskbench does not read", jn);
	if (opt(f, job, "bssplit") || opt(f, job, "bsrange") || opt(f, job, "blocksize_range"))
		return fail(f, "job \"%s\": several block sizes (bssplit/bsrange), which "
			    "diskbench keeps as one test each", jn);
	return 0;
}

/* How the job ran into t: its workload, bs, iodepth, jobs (group: fio's
 * figures are the sum over its numjobs clones, group_reporting), engine,
 * O_DIRECT and name. */
static int fio_method(struct fio *f, struct run_result *r, json_t *job, const char *jn,
		      unsigned clone, bool group, struct test_result *t)
{
	bool write = false, random = false;
	uint64_t bs = 4096, v, numjobs = 1;	/* fio's default bs */
	const char *rw, *s, *engine;

	rw = opt(f, job, "rw");
	if (!rw)
		rw = opt(f, job, "readwrite");
	if (!rw)
		rw = "read";	/* fio's default */
	if (fio_refuse(f, job, jn, rw, &write, &random))
		return -EINVAL;
	s = opt(f, job, "bs");
	if (!s)
		s = opt(f, job, "blocksize");
	if (s && fio_size(f, jn, "bs", s, write, &bs))
		return -EINVAL;
	t->bs = (uint32_t)bs;
	t->qd = 1;
	if ((s = opt(f, job, "iodepth"))) {
		if (parse_count(s, 1, 65536, &v))
			return fail(f, "job \"%s\": iodepth=%s is not a queue depth", jn, s);
		t->qd = (uint32_t)v;
	}
	if ((s = opt(f, job, "numjobs")) && parse_count(s, 1, 65536, &numjobs))
		return fail(f, "job \"%s\": numjobs=%s is not a count of jobs", jn, s);
	t->jobs = group ? (uint32_t)numjobs : 1;
	engine = opt(f, job, "ioengine");
	t->engine = result_strdup(r, engine ? engine : "psync");	/* fio 3.x's default */
	t->direct = (s = opt(f, job, "direct")) && strcmp(s, "0");
	t->random = random;
	t->is_write = write;
	t->workload = random ? (write ? "rand-write" : "rand-read")
			     : (write ? "seq-write" : "seq-read");
	if (clone)
		snprintf(t->name, sizeof(t->name), "%.40s.%u:%s", jn, clone, rw);
	else
		snprintf(t->name, sizeof(t->name), "%.40s:%s", jn, rw);
	return t->engine ? 0 : -ENOMEM;
}

/* The job's latency into t: json+'s histogram, else fio's own figures
 * (warned of once per file). */
static int fio_latency(struct fio *f, struct run_result *r, json_t *dir, struct test_result *t)
{
	json_t *clat = json_object_get(dir, "clat_ns");

	t->lat = malloc(sizeof(*t->lat));
	if (!t->lat)
		return -ENOMEM;
	if (fio_bins(clat, t->lat) || !fio_given(clat, t) || f->no_bins_warned)
		return 0;
	f->no_bins_warned = true;
	if (result_add_warning(r, "%s: fio's --output-format=json has no latency "
			       "histogram: %s", f->name, t->lat_pct_given ?
			       "the percentiles are fio's own, at its points (p25, p75 "
			       "and p99.999 missing; json+ has them all)" :
			       "latency is shown as missing (json+ has it)"))
		return -ENOMEM;
	return 0;
}

/* What the job measured, in its direction, into t. */
static int fio_figures(struct fio *f, struct run_result *r, json_t *job, const char *jn,
		       struct test_result *t)
{
	const char *what = t->is_write ? "write" : "read";
	json_t *dir = json_object_get(job, what);
	int64_t ops = num(dir, "total_ios"), bytes = num(dir, "io_bytes");
	int64_t ms = num(dir, "runtime");
	double usr, sys;

	if (ops < 0 || bytes < 0 || ms < 0)
		return fail(f, "job \"%s\": no \"%s\" figures (total_ios, io_bytes, runtime)",
			    jn, what);
	if (!ops || !ms)
		return fail(f, "job \"%s\": did no %s I/O", jn, what);
	t->ops = (uint64_t)ops;
	t->bytes = (uint64_t)bytes;
	t->runtime_ns = (uint64_t)ms * 1000000u;	/* fio's runtime is in ms */
	t->errors = 0;
	t->first_errno = num(job, "error") > 0 ? (int)num(job, "error") : 0;
	if (fio_latency(f, r, dir, t))
		return -ENOMEM;
	/* fio's CPU figures are one job's; a group's are not a sum of ours */
	usr = json_number_value(json_object_get(job, "usr_cpu"));
	sys = json_number_value(json_object_get(job, "sys_cpu"));
	if (t->jobs == 1 && json_is_number(json_object_get(job, "usr_cpu")) &&
	    json_is_number(json_object_get(job, "sys_cpu"))) {
		t->cpu_user_pct = usr;
		t->cpu_sys_pct = sys;
		t->usec_per_op = (usr + sys) / 100.0 * (double)ms * 1000.0 / (double)ops;
	} else {
		t->cpu_user_pct = t->cpu_sys_pct = t->usec_per_op = NAN;
	}
	t->cpu_job_max_pct = 0;
	return 0;
}

/* One fio job (one direction of it) into t. group: the job's figures are
 * fio's sum over its numjobs clones (group_reporting). */
static int fio_job(struct fio *f, struct run_result *r, json_t *job, unsigned idx,
		   unsigned clone, bool group, struct test_result *t)
{
	const char *jobname = json_string_value(json_object_get(job, "jobname"));
	char jn[40], msg[256], w[32];
	int ret;

	snprintf(jn, sizeof(jn), "%s", jobname ? jobname : "?");
	memset(t, 0, sizeof(*t));
	ret = fio_method(f, r, job, jn, clone, group, t);
	if (!ret)
		ret = fio_figures(f, r, job, jn, t);
	if (ret)
		return ret;
	result_finish(t);
	repeat_finish(t);
	if (load_check_test(t, idx, w, sizeof(w), msg, sizeof(msg)))
		return fail(f, "job \"%s\": %s", jn, msg);
	return 0;
}

/* Every document of buf (--status-interval writes one per interval, the
 * last with the final figures): the last, and how many there were. */
static int fio_parse(struct fio *f, const char *buf, size_t len, unsigned *ndocs)
{
	size_t pos = 0;
	int line = 1;

	*ndocs = 0;
	for (;;) {
		json_error_t je;
		json_t *d;

		while (pos < len && strchr(" \t\r\n", buf[pos])) {
			if (buf[pos] == '\n')
				line++;
			pos++;
		}
		if (pos >= len)
			break;
		if (buf[pos] != '{')
			return fail(f, "line %d: text after fio's JSON document", line);
		d = json_loadb(buf + pos, len - pos, JSON_DISABLE_EOF_CHECK, &je);
		if (!d)
			return fail(f, "line %d: fio JSON cut short or broken: %s",
				    line + je.line - 1, je.text);
		if (!json_is_string(json_object_get(d, "fio version")) ||
		    !json_is_array(json_object_get(d, "jobs"))) {
			json_decref(d);
			return fail(f, "line %d: a fio document without \"fio version\" and "
				    "\"jobs\"", line);
		}
		for (size_t i = 0; i < (size_t)je.position && pos + i < len; i++)
			if (buf[pos + i] == '\n')
				line++;
		pos += je.position;
		json_decref(f->doc);
		f->doc = d;
		(*ndocs)++;
	}
	if (!f->doc)
		return fail(f, "no fio document in it");
	return 0;
}

/* How many entries of jobs have job's name and group: numjobs clones
 * reported one by one, or (one entry) summed by group_reporting. */
static unsigned same_job(json_t *jobs, json_t *job)
{
	const char *name = json_string_value(json_object_get(job, "jobname"));
	json_t *o;
	unsigned n = 0;
	size_t i;

	json_array_foreach(jobs, i, o)
		if (name && json_string_value(json_object_get(o, "jobname")) &&
		    !strcmp(name, json_string_value(json_object_get(o, "jobname"))) &&
		    num(o, "groupid") == num(job, "groupid"))
			n++;
	return n;
}

/* Which of its name's clones jobs[i] is, from 1. */
static unsigned clone_no(json_t *jobs, size_t i)
{
	json_t *job = json_array_get(jobs, i);
	unsigned n = 1;

	for (size_t k = 0; k < i; k++) {
		json_t *o = json_array_get(jobs, k);
		const char *a = json_string_value(json_object_get(o, "jobname"));
		const char *b = json_string_value(json_object_get(job, "jobname"));

		if (a && b && !strcmp(a, b) && num(o, "groupid") == num(job, "groupid"))
			n++;
	}
	return n;
}

int import_fio(const char *name, const char *buf, size_t len, struct run_result *r,
	       char *err, size_t errlen)
{
	struct fio f = { .name = name, .err = err, .errlen = errlen };
	struct test_result t;
	json_t *jobs, *job;
	const char *fname = NULL, *s;
	unsigned ndocs;
	int ret;
	size_t i;

	memset(r, 0, sizeof(*r));
	ret = fio_parse(&f, buf, len, &ndocs);
	if (ret)
		goto out;
	f.global = json_object_get(f.doc, "global options");
	jobs = json_object_get(f.doc, "jobs");
	s = json_string_value(json_object_get(f.doc, "fio version"));
	if (!strncmp(s, "fio-", 4) && s[4] >= '0' && s[4] <= '2' && s[5] == '.') {
		/* fio 2.x: io_bytes in KiB, latency in usec ("clat", not "clat_ns") */
		ret = fail(&f, "%s's JSON, whose units (KiB sizes, usec latency) are "
			   "fio 2's: diskbench reads fio 3.x", s);
		goto out;
	}
	if (!json_array_size(jobs)) {
		ret = fail(&f, "a fio document with no jobs");
		goto out;
	}
	import_begin(r, "fio", json_string_value(json_object_get(f.doc, "fio version")), name,
		     TARGET_FILE);
	if (num(f.doc, "timestamp") >= 0) {
		time_t ts = (time_t)num(f.doc, "timestamp");
		struct tm tm;

		if (gmtime_r(&ts, &tm))
			strftime(r->started_at, sizeof(r->started_at), "%Y-%m-%dT%H:%M:%SZ", &tm);
	}
	if (ndocs > 1 && result_add_warning(r, "%s: %u fio documents (--status-interval): the "
					    "last, fio's final figures, is the one imported",
					    name, ndocs)) {
		ret = -ENOMEM;
		goto out;
	}
	json_array_foreach(jobs, i, job) {
		unsigned n = same_job(jobs, job);
		uint64_t numjobs = 1;

		if ((s = opt(&f, job, "numjobs")))
			parse_count(s, 1, 65536, &numjobs);
		if (!fname)
			fname = opt(&f, job, "filename");
		ret = fio_job(&f, r, job, (unsigned)i, n > 1 ? clone_no(jobs, i) : 0,
			      n == 1 && numjobs > 1, &t);
		ret = import_keep(r, &t, ret, name, err, errlen);
		if (ret)
			goto out;
	}
	if (fname) {
		snprintf(r->target.path, sizeof(r->target.path), "%s", fname);
		if (!strncmp(fname, "/dev/", 5))
			r->target.kind = TARGET_BLOCK;
	}
	ret = 0;
out:
	json_decref(f.doc);
	return import_end(r, ret);
}
