/* load.c - a saved "diskbench/1" JSON result (or an HTML report's) read back into a run_result. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "annotate.h"
#include "import.h"
#include "load.h"
#include "load_check.h"
#include "load_scan.h"
#include "parse.h"
#include "repeat.h"

/* The file being read and the first error, for one-line messages. */
struct ld {
	const char *path;
	char *err;
	size_t errlen;
	struct run_result *r;
	/* The file's text; the JSON is buf[0..end) from off (after a BOM, in
	 * an HTML report the embedded element's text), which starts on the
	 * file's line line0. "tests" is not built as one tree: its span is
	 * tests_off .. tests_end, each test parsed in turn (load_tests). */
	const char *buf;
	size_t off, end;
	int line0;
	bool has_tests;
	size_t tests_off, tests_end;
};

/* "FILE: WHERE: message" (WHERE is the key path, e.g. "tests[2].lat_ns";
 * empty at the top level). Returns ret. */
static int fail(struct ld *l, int ret, const char *where, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(struct ld *l, int ret, const char *where, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(l->err, l->errlen, "%s: %s%s%s", l->path, where, *where ? ": " : "", msg);
	return ret;
}

static int wrong(struct ld *l, const char *where, const char *key, const char *what)
{
	return fail(l, -EINVAL, where, "key \"%s\" is not %s", key, what);
}

static json_t *member(struct ld *l, const char *where, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		fail(l, -EINVAL, where, "missing key \"%s\"", key);
	return v;
}

static int get_u64(struct ld *l, const char *where, json_t *obj, const char *key, uint64_t *out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	/* Above INT64_MAX jansson already refused the document ("too big"). */
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return wrong(l, where, key, "an unsigned integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* An unsigned integer, or null (given as 0). */
static int get_u64_or_null(struct ld *l, const char *where, json_t *obj, const char *key,
			   uint64_t *out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	*out = 0;
	return json_is_null(v) ? 0 : get_u64(l, where, obj, key, out);
}

static int get_u32(struct ld *l, const char *where, json_t *obj, const char *key, uint32_t *out)
{
	uint64_t v;
	int ret = get_u64(l, where, obj, key, &v);

	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return wrong(l, where, key, "a 32-bit unsigned integer");
	*out = (uint32_t)v;
	return 0;
}

/* A non-negative int, or null for unknown (-1). */
static int get_int_or_null(struct ld *l, const char *where, json_t *obj, const char *key,
			   int *out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (json_is_null(v)) {
		*out = -1;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT_MAX)
		return wrong(l, where, key, "a non-negative integer or null");
	*out = (int)json_integer_value(v);
	return 0;
}

static int get_bool(struct ld *l, const char *where, json_t *obj, const char *key, bool *out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (!json_is_boolean(v))
		return wrong(l, where, key, "true or false");
	*out = json_is_true(v);
	return 0;
}

/* true, false or null (unknown): 1, 0, -1. */
static int get_tristate(struct ld *l, const char *where, json_t *obj, const char *key, int *out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (json_is_null(v))
		*out = -1;
	else if (json_is_boolean(v))
		*out = json_is_true(v);
	else
		return wrong(l, where, key, "true, false or null");
	return 0;
}

/* A number; null (how the writer spells NaN and Inf) gives NaN. */
static int get_real(struct ld *l, const char *where, json_t *obj, const char *key, double *out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (json_is_null(v))
		*out = NAN;
	else if (json_is_number(v))
		*out = json_number_value(v);
	else
		return wrong(l, where, key, "a number or null");
	return 0;
}

/* A string into a fixed array (cut to fit, as the run's own was). */
static int get_str(struct ld *l, const char *where, json_t *obj, const char *key, char *buf,
		   size_t len)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (!json_is_string(v))
		return wrong(l, where, key, "a string");
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

/* A string the result owns, or null (NULL). */
static int get_owned(struct ld *l, const char *where, json_t *obj, const char *key,
		     const char **out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	*out = NULL;
	if (json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return wrong(l, where, key, "a string or null");
	*out = result_strdup(l->r, json_string_value(v));
	return *out ? 0 : fail(l, -ENOMEM, where, "out of memory");
}

/* An array of strings joined with sep into buf (the writer split them). */
static int get_list(struct ld *l, const char *where, json_t *obj, const char *key, char *buf,
		    size_t len, const char *sep)
{
	json_t *v = member(l, where, obj, key), *item;
	size_t i, used = 0;
	int n;

	if (!v)
		return -EINVAL;
	if (!json_is_array(v))
		return wrong(l, where, key, "an array of strings");
	buf[0] = '\0';
	json_array_foreach(v, i, item) {
		if (!json_is_string(item))
			return wrong(l, where, key, "an array of strings");
		n = snprintf(buf + used, len - used, "%s%s", i ? sep : "",
			     json_string_value(item));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return 0;
}

/* An object member (or, with null_ok, null: *out = NULL). */
static int get_obj(struct ld *l, const char *where, json_t *obj, const char *key, bool null_ok,
		   json_t **out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	*out = NULL;
	if (null_ok && json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return wrong(l, where, key, null_ok ? "an object or null" : "an object");
	*out = v;
	return 0;
}

static int get_arr(struct ld *l, const char *where, json_t *obj, const char *key, json_t **out)
{
	json_t *v = member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (!json_is_array(v))
		return wrong(l, where, key, "an array");
	*out = v;
	return 0;
}

/* A key path below where: "tests[2]" + "lat_ns" -> "tests[2].lat_ns". */
static const char *sub(char *buf, size_t len, const char *where, const char *key)
{
	snprintf(buf, len, "%s%s%s", where, *where ? "." : "", key);
	return buf;
}

/* ---- the parts ------------------------------------------------------------ */

static int load_host(struct ld *l, json_t *root, struct host_info *h)
{
	json_t *o;

	if (get_obj(l, "", root, "host", false, &o) ||
	    get_str(l, "host", o, "hostname", h->hostname, sizeof(h->hostname)) ||
	    get_str(l, "host", o, "kernel", h->kernel, sizeof(h->kernel)) ||
	    get_str(l, "host", o, "cpu_model", h->cpu_model, sizeof(h->cpu_model)) ||
	    get_u32(l, "host", o, "cpus", &h->cpus) ||
	    get_u64(l, "host", o, "memory_bytes", &h->memory_bytes))
		return -EINVAL;
	return 0;
}

static int load_target(struct ld *l, json_t *root, struct target_info *t)
{
	const char *w = "target";
	char kind[32];
	json_t *o;

	if (get_obj(l, "", root, w, false, &o) ||
	    get_str(l, w, o, "path", t->path, sizeof(t->path)) ||
	    get_str(l, w, o, "resolved_path", t->resolved, sizeof(t->resolved)) ||
	    get_str(l, w, o, "kind", kind, sizeof(kind)))
		return -EINVAL;
	if (!strcmp(kind, target_kind_name(TARGET_BLOCK)))
		t->kind = TARGET_BLOCK;
	else if (!strcmp(kind, target_kind_name(TARGET_FILE)))
		t->kind = TARGET_FILE;
	else if (!strcmp(kind, target_kind_name(TARGET_DIR)))
		t->kind = TARGET_DIR;
	else
		return wrong(l, w, "kind", "\"block\", \"file\" or \"directory\"");
	if (get_str(l, w, o, "kind_detail", t->kind_detail, sizeof(t->kind_detail)) ||
	    get_str(l, w, o, "device", t->device, sizeof(t->device)) ||
	    get_str(l, w, o, "disk", t->disk, sizeof(t->disk)) ||
	    get_str(l, w, o, "model", t->model, sizeof(t->model)) ||
	    get_str(l, w, o, "vendor", t->vendor, sizeof(t->vendor)) ||
	    get_str(l, w, o, "serial", t->serial, sizeof(t->serial)) ||
	    get_u64(l, w, o, "size_bytes", &t->size_bytes) ||
	    get_str(l, w, o, "fs_type", t->fs_type, sizeof(t->fs_type)) ||
	    get_str(l, w, o, "mount_options", t->mount_options, sizeof(t->mount_options)) ||
	    get_str(l, w, o, "mount_point", t->mount_point, sizeof(t->mount_point)) ||
	    get_u64_or_null(l, w, o, "fs_size_bytes", &t->fs_size_bytes) ||
	    get_u64_or_null(l, w, o, "free_bytes", &t->free_bytes) ||
	    get_tristate(l, w, o, "rotational", &t->rotational) ||
	    get_str(l, w, o, "scheduler", t->scheduler, sizeof(t->scheduler)) ||
	    get_list(l, w, o, "schedulers", t->schedulers, sizeof(t->schedulers), " ") ||
	    get_int_or_null(l, w, o, "read_ahead_kb", &t->read_ahead_kb) ||
	    get_int_or_null(l, w, o, "nr_requests", &t->nr_requests) ||
	    get_int_or_null(l, w, o, "max_sectors_kb", &t->max_sectors_kb) ||
	    get_tristate(l, w, o, "write_cache", &t->write_cache) ||
	    get_tristate(l, w, o, "discard", &t->discard) ||
	    (json_object_get(o, "io_poll") && get_tristate(l, w, o, "io_poll", &t->io_poll)) ||
	    (json_object_get(o, "discard_granularity") &&
	     get_u64(l, w, o, "discard_granularity", &t->discard_granularity)) ||
	    (json_object_get(o, "discard_max_bytes") &&
	     get_u64(l, w, o, "discard_max_bytes", &t->discard_max_bytes)) ||
	    (json_object_get(o, "transport") &&
	     get_str(l, w, o, "transport", t->transport, sizeof(t->transport))) ||
	    (json_object_get(o, "transport_bytes_per_sec") &&
	     get_u64(l, w, o, "transport_bytes_per_sec", &t->transport_bps)) ||
	    get_u32(l, w, o, "logical_block_size", &t->logical_block_size) ||
	    get_u32(l, w, o, "physical_block_size", &t->physical_block_size) ||
	    /* probe.c joins the layers with ", " */
	    get_list(l, w, o, "stack", t->stack, sizeof(t->stack), ", ") ||
	    get_bool(l, w, o, "encrypted", &t->encrypted) ||
	    get_bool(l, w, o, "cow", &t->cow))
		return -EINVAL;
	/* newer than the rest, and only for a loop device */
	t->loop_dio = -1;
	if (json_object_get(o, "loop_direct_io") &&
	    get_tristate(l, w, o, "loop_direct_io", &t->loop_dio))
		return -EINVAL;
	t->backing_rotational = -1;
	if ((json_object_get(o, "loop_backing_disk") &&
	     get_str(l, w, o, "loop_backing_disk", t->backing_disk, sizeof(t->backing_disk))) ||
	    (json_object_get(o, "loop_backing_rotational") &&
	     get_tristate(l, w, o, "loop_backing_rotational", &t->backing_rotational)) ||
	    (json_object_get(o, "io_limit") &&
	     get_str(l, w, o, "io_limit", t->io_limit, sizeof(t->io_limit))))
		return -EINVAL;
	/* newer still (the honesty flags follow from these; "flags" is
	 * derived, so it is not read back) */
	t->direct_io = -1;
	if ((json_object_get(o, "compression") &&
	     get_str(l, w, o, "compression", t->compression, sizeof(t->compression))) ||
	    (json_object_get(o, "zfs_arc") && get_bool(l, w, o, "zfs_arc", &t->arc)) ||
	    (json_object_get(o, "direct_via_page_cache") &&
	     get_bool(l, w, o, "direct_via_page_cache", &t->direct_via_cache)) ||
	    (json_object_get(o, "direct_io") &&
	     get_tristate(l, w, o, "direct_io", &t->direct_io)))
		return -EINVAL;
	/* several devices are the members; one is the device itself */
	if (json_object_get(o, "devices") && json_array_size(json_object_get(o, "devices")) > 1 &&
	    get_list(l, w, o, "devices", t->members, sizeof(t->members), " "))
		return -EINVAL;
	return 0;
}

static int load_settings(struct ld *l, json_t *root, struct run_result *r)
{
	const char *key;
	json_t *o, *v;
	int ret = 0;

	if (get_obj(l, "", root, "settings", false, &o))
		return -EINVAL;
	/* jansson iterates an object in the order of the document. */
	json_object_foreach(o, key, v) {
		if (json_is_string(v))
			ret = result_add_setting(r, key, "%s", json_string_value(v));
		else if (json_is_integer(v))	/* the writer's plain integers */
			ret = result_add_setting(r, key, "%" JSON_INTEGER_FORMAT,
						 json_integer_value(v));
		else
			return wrong(l, "settings", key, "a string or an integer");
		if (ret)
			return fail(l, ret, "settings", "more than %d settings",
				    RESULT_MAX_SETTINGS);
	}
	return 0;
}

/* Decimal digits into a 128-bit unsigned integer; false if not one. */
static bool parse_u128(const char *s, unsigned __int128 *out)
{
	unsigned __int128 v = 0, max = ~(unsigned __int128)0;

	if (!*s)
		return false;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > (max - (unsigned)(*s - '0')) / 10)
			return false;
		v = v * 10 + (unsigned)(*s - '0');
	}
	*out = v;
	return true;
}

/*
 * The histogram from its [bucket_low_ns, count] pairs (a bucket's lower
 * bound maps back to that bucket), exact min and max, and the exact moments
 * "sum" and "sumsq"; without those (a document written before they were),
 * moments that give the rounded mean and stdev.
 */
static int load_lat(struct ld *l, const char *w, json_t *o, struct hist *h)
{
	json_t *hg, *pair, *jsum, *jsq;
	uint64_t min, max, low, count;
	double mean, stdev;
	unsigned idx;
	size_t i;

	hist_init(h);
	min = max = 0;	/* null: another tool's result that gave no latency */
	if (get_u64_or_null(l, w, o, "min", &min) || get_u64_or_null(l, w, o, "max", &max) ||
	    get_real(l, w, o, "mean", &mean) || get_real(l, w, o, "stdev", &stdev) ||
	    get_arr(l, w, o, "histogram", &hg))
		return -EINVAL;
	json_array_foreach(hg, i, pair) {
		if (!json_is_array(pair) || json_array_size(pair) != 2 ||
		    !json_is_integer(json_array_get(pair, 0)) ||
		    !json_is_integer(json_array_get(pair, 1)) ||
		    json_integer_value(json_array_get(pair, 0)) < 0 ||
		    json_integer_value(json_array_get(pair, 1)) < 0)
			return fail(l, -EINVAL, w, "histogram[%zu] is not a [bucket_low_ns, count] "
				    "pair", i);
		low = (uint64_t)json_integer_value(json_array_get(pair, 0));
		count = (uint64_t)json_integer_value(json_array_get(pair, 1));
		idx = hist_index(low);
		if (hist_bucket_low(idx) != low)
			return fail(l, -EINVAL, w, "histogram[%zu]: %" PRIu64 " is not the lower "
				    "bound of a bucket", i, low);
		if (__builtin_add_overflow(h->count[idx], count, &h->count[idx]) ||
		    __builtin_add_overflow(h->n, count, &h->n))
			return fail(l, -EINVAL, w, "histogram[%zu]: count overflows", i);
	}
	if (h->n) {
		h->min = min;
		h->max = max;
	}
	jsum = json_object_get(o, "sum");
	jsq = json_object_get(o, "sumsq");
	if (jsum || jsq) {
		if (get_u64(l, w, o, "sum", &h->sum) || !member(l, w, o, "sumsq"))
			return -EINVAL;
		if (!json_is_string(jsq) || !parse_u128(json_string_value(jsq), &h->sumsq))
			return wrong(l, w, "sumsq", "a string of decimal digits");
	} else if (h->n && isfinite(mean) && isfinite(stdev)) {
		long double n = (long double)h->n, m = mean, s = stdev;

		/* beyond max the moments would overflow their integers */
		if (!(mean >= 0 && mean <= (double)max + 1))
			return fail(l, -EINVAL, w, "\"mean\" %.6g is outside min .. max", mean);
		if (!(stdev >= 0 && stdev <= (double)max + 1))
			return fail(l, -EINVAL, w, "\"stdev\" %.6g is more than max", stdev);

		h->sum = (uint64_t)llroundl(m * n);
		h->sumsq = (unsigned __int128)((s * s + m * m) * n);
	}
	return 0;
}

/*
 * Percentiles with no histogram: another tool's own figures (import.h),
 * kept as given; a null one is missing. Nothing when there is a histogram.
 */
static int load_given(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	json_t *p = json_object_get(o, "percentiles"), *v;
	struct lat_summary *ls = &t->lat_sum;
	unsigned i;

	if (t->lat->n || !json_is_object(p))
		return 0;
	for (i = 0; i < RESULT_NPCT; i++) {
		v = json_object_get(p, result_pct_keys[i]);
		if (!v || json_is_null(v))
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return fail(l, -EINVAL, w, "percentile \"%s\" is not an unsigned integer "
				    "or null", result_pct_keys[i]);
		ls->pct[i] = (uint64_t)json_integer_value(v);
		t->lat_pct_given |= (uint16_t)(1u << i);
	}
	if (!t->lat_pct_given)
		return 0;
	if (get_u64(l, w, o, "min", &ls->min) || get_u64(l, w, o, "max", &ls->max) ||
	    get_real(l, w, o, "mean", &ls->mean) || get_real(l, w, o, "stdev", &ls->stdev))
		return -EINVAL;
	return 0;
}

/*
 * A "timeline" member of o, when there is one (a document written before
 * timelines has none: *tl is left empty), or null. Its points are rows of
 * its "columns", found by name so that a later version may add columns;
 * t_ns must rise from point to point. On error *tl is left empty too.
 */
static int load_timeline(struct ld *l, const char *where, json_t *o, struct timeline *tl)
{
	json_t *v = json_object_get(o, "timeline"), *cols, *pts, *row, *x;
	size_t col[TIMELINE_NCOLUMNS], ncols, i, c, k;
	struct timeline t = { 0 };
	char w[80], wp[112];
	uint64_t merges = 0;

	*tl = (struct timeline){ 0 };
	if (!v || json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return wrong(l, where, "timeline", "an object or null");
	sub(w, sizeof(w), where, "timeline");
	if (get_u64(l, w, v, "interval_ns", &t.interval_ns) || get_arr(l, w, v, "columns", &cols) ||
	    get_arr(l, w, v, "points", &pts))
		return -EINVAL;
	if (!t.interval_ns)
		return wrong(l, w, "interval_ns", "a positive integer");
	if (json_object_get(v, "merges") && get_u64(l, w, v, "merges", &merges))
		return -EINVAL;
	if (merges > 64)
		return wrong(l, w, "merges", "at most 64");
	t.merges = (unsigned)merges;
	ncols = json_array_size(cols);
	for (c = 0; c < TIMELINE_NCOLUMNS; c++) {
		for (k = 0; k < ncols; k++) {
			x = json_array_get(cols, k);
			if (json_is_string(x) && !strcmp(json_string_value(x), timeline_columns[c]))
				break;
		}
		if (k == ncols)
			return fail(l, -EINVAL, w, "no column \"%s\"", timeline_columns[c]);
		col[c] = k;
	}
	if (json_array_size(pts) > TIMELINE_MAX_POINTS)
		return fail(l, -EINVAL, w, "more than %u points", TIMELINE_MAX_POINTS);
	if (json_array_size(pts)) {
		t.p = calloc(json_array_size(pts), sizeof(*t.p));
		if (!t.p)
			return fail(l, -ENOMEM, w, "out of memory");
	}
	json_array_foreach(pts, i, row) {
		char *p = (char *)&t.p[i];

		snprintf(wp, sizeof(wp), "%s.points[%zu]", w, i);
		if (!json_is_array(row) || json_array_size(row) != ncols)
			goto bad;
		for (c = 0; c < TIMELINE_NCOLUMNS; c++) {
			x = json_array_get(row, col[c]);
			if (!json_is_integer(x) || json_integer_value(x) < 0)
				goto bad;
			*(uint64_t *)(p + timeline_column_offsets[c]) = (uint64_t)json_integer_value(x);
		}
		if (i && t.p[i].t_ns <= t.p[i - 1].t_ns) {
			free(t.p);
			return fail(l, -EINVAL, wp, "t_ns is not after the previous point's");
		}
		t.n = (unsigned)i + 1;
	}
	*tl = t;
	return 0;
bad:
	free(t.p);
	return fail(l, -EINVAL, wp, "not a row of %zu unsigned integers (\"columns\")", ncols);
}

static int load_run(struct ld *l, const char *w, json_t *o, struct test_run *run)
{
	json_t *dev;

	if (!json_is_object(o))
		return fail(l, -EINVAL, w, "not an object");
	if (get_u64(l, w, o, "runtime_ns", &run->runtime_ns) ||
	    get_u64(l, w, o, "ops", &run->ops) ||
	    get_u64(l, w, o, "bytes", &run->bytes) ||
	    get_real(l, w, o, "iops", &run->iops) ||
	    get_real(l, w, o, "bytes_per_sec", &run->bytes_per_sec) ||
	    get_u64(l, w, o, "lat_p50_ns", &run->lat_p50_ns) ||
	    get_u64(l, w, o, "lat_p99_ns", &run->lat_p99_ns) ||
	    get_real(l, w, o, "cpu_user_pct", &run->cpu_user_pct) ||
	    get_real(l, w, o, "cpu_sys_pct", &run->cpu_sys_pct) ||
	    get_real(l, w, o, "cpu_usec_per_op", &run->usec_per_op) ||
	    get_obj(l, w, o, "device", true, &dev) ||
	    get_u64(l, w, o, "errors", &run->errors))
		return -EINVAL;
	run->dev_valid = dev != NULL;
	if (dev) {
		char w2[64];

		sub(w2, sizeof(w2), w, "device");
		if (get_u64(l, w2, dev, "read_bytes", &run->dev_read_bytes) ||
		    get_u64(l, w2, dev, "write_bytes", &run->dev_write_bytes))
			return -EINVAL;
	}
	return load_timeline(l, w, o, &run->timeline);
}

/* "verify" of a test (newer than the rest: absent when nothing was checked). */
static int load_verify(struct ld *l, const char *w, json_t *o, struct verify_sum *v)
{
	json_t *vo = json_object_get(o, "verify"), *fb, *e;
	char w2[64], field[16];
	int f;

	if (!vo)
		return 0;
	snprintf(w2, sizeof(w2), "%s.verify", w);
	if (!json_is_object(vo))
		return wrong(l, w, "verify", "an object");
	if (get_u64(l, w2, vo, "blocks", &v->blocks) || get_u64(l, w2, vo, "bad", &v->bad) ||
	    get_u64(l, w2, vo, "bytes", &v->bytes) || get_u64(l, w2, vo, "time_ns", &v->time_ns) ||
	    get_obj(l, w2, vo, "first_bad", true, &fb))
		return -EINVAL;
	v->done = true;
	if (json_object_get(vo, "timed") && get_bool(l, w2, vo, "timed", &v->timed))
		return -EINVAL;
	if (!fb)
		return 0;
	snprintf(w2, sizeof(w2), "%s.verify.first_bad", w);
	if (get_u64(l, w2, fb, "offset", &v->first.offset) ||
	    get_str(l, w2, fb, "field", field, sizeof(field)) ||
	    get_u64(l, w2, fb, "expected", &v->first.expected) ||
	    get_u64(l, w2, fb, "found", &v->first.found))
		return -EINVAL;
	f = verify_field_parse(field);
	if (f < 0)
		return wrong(l, w2, "field", "one of magic, len, offset, seed, crc, read");
	v->first.field = (enum verify_field)f;
	e = json_object_get(fb, "errno");
	if (e) {
		if (!json_is_integer(e) || json_integer_value(e) < 0 ||
		    json_integer_value(e) > INT_MAX)
			return wrong(l, w2, "errno", "a non-negative integer");
		v->read_errno = (int)json_integer_value(e);
	}
	return 0;
}

/* "unwritten" of a read test (newer than the rest: absent in older
 * results and for tests that read no data). */
static int load_unwritten(struct ld *l, const char *w, json_t *o, struct unwritten *u)
{
	json_t *uo = json_object_get(o, "unwritten"), *iv, *ls;
	char w2[64];

	if (!uo)
		return 0;
	snprintf(w2, sizeof(w2), "%s.unwritten", w);
	if (!json_is_object(uo))
		return wrong(l, w, "unwritten", "an object");
	u->applies = true;
	if (get_bool(l, w2, uo, "checked", &u->checked) ||
	    get_u64(l, w2, uo, "region_bytes", &u->region_bytes) ||
	    get_bool(l, w2, uo, "flagged", &u->flagged))
		return -EINVAL;
	ls = json_object_get(uo, "layout_share");
	u->layout_valid = ls && !json_is_null(ls);
	if (u->layout_valid && get_real(l, w2, uo, "layout_share", &u->layout_share))
		return -EINVAL;
	if (u->layout_valid && !(u->layout_share >= 0 && u->layout_share <= 1))
		return wrong(l, w2, "layout_share", "a share in [0, 1] or null");
	if (!u->checked)
		return get_str(l, w2, uo, "reason", u->why, sizeof(u->why)) ? -EINVAL : 0;
	if (get_real(l, w2, uo, "share", &u->share) ||
	    get_u32(l, w2, uo, "sampled_blocks", &u->sampled) ||
	    get_u32(l, w2, uo, "blank_blocks", &u->blank) ||
	    get_u32(l, w2, uo, "block_bytes", &u->block_bytes) ||
	    get_arr(l, w2, uo, "interval", &iv))
		return -EINVAL;
	if (json_array_size(iv) != 2 || !json_is_number(json_array_get(iv, 0)) ||
	    !json_is_number(json_array_get(iv, 1)))
		return wrong(l, w2, "interval", "two numbers");
	u->lo = json_number_value(json_array_get(iv, 0));
	u->hi = json_number_value(json_array_get(iv, 1));
	if (!(u->share >= 0 && u->share <= 1) || !(u->lo >= 0 && u->lo <= u->hi && u->hi <= 1))
		return wrong(l, w2, "share", "a share in [0, 1] within its interval");
	if (u->blank > u->sampled)
		return wrong(l, w2, "blank_blocks", "at most sampled_blocks");
	return 0;
}

/* A coordinated run's test (diskbench-mpi): each rank's share, when the
 * result has them (newer than the rest, and only from diskbench-mpi). */
static int load_test_ranks(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	json_t *a = json_object_get(o, "ranks"), *v, *lat;
	char w2[64];
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return wrong(l, w, "ranks", "an array");
	if (!json_array_size(a))
		return 0;
	t->ranks = calloc(json_array_size(a), sizeof(*t->ranks));
	if (!t->ranks)
		return fail(l, -ENOMEM, w, "out of memory");
	json_array_foreach(a, i, v) {
		struct rank_test *rt = &t->ranks[i];

		snprintf(w2, sizeof(w2), "%s.ranks[%zu]", w, i);
		t->nranks = (unsigned)i + 1;
		if (!json_is_object(v))
			return fail(l, -EINVAL, w2, "not an object");
		if (get_u64(l, w2, v, "ops", &rt->ops) || get_u64(l, w2, v, "bytes", &rt->bytes) ||
		    get_u64(l, w2, v, "runtime_ns", &rt->runtime_ns) ||
		    get_real(l, w2, v, "bytes_per_sec", &rt->bytes_per_sec) ||
		    get_u64(l, w2, v, "errors", &rt->errors) ||
		    get_u64(l, w2, v, "start_ns", &rt->start_ns) ||
		    get_u64(l, w2, v, "end_ns", &rt->end_ns) ||
		    get_obj(l, w2, v, "lat_ns", false, &lat) ||
		    get_u64(l, w2, lat, "n", &rt->lat_n) || get_u64(l, w2, lat, "min", &rt->lat_min) ||
		    get_u64(l, w2, lat, "max", &rt->lat_max) ||
		    get_u64(l, w2, lat, "sum", &rt->lat_sum))
			return -EINVAL;
	}
	return 0;
}

/* Who ran a coordinated run: "mpi", absent for a single process. */
static int load_mpi(struct ld *l, json_t *root, struct run_result *r)
{
	json_t *o = json_object_get(root, "mpi"), *a, *v;
	struct result_ranks *rr;
	char w[32];
	size_t i;

	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return wrong(l, "", "mpi", "an object");
	if (get_arr(l, "mpi", o, "rank_info", &a))
		return -EINVAL;
	rr = calloc(1, sizeof(*rr));
	if (!rr || !(rr->info = calloc(json_array_size(a) + 1, sizeof(*rr->info)))) {
		free(rr);
		return fail(l, -ENOMEM, "mpi", "out of memory");
	}
	r->ranks = rr;	/* result_free frees what is loaded */
	json_array_foreach(a, i, v) {
		struct rank_info *ri = &rr->info[i];

		snprintf(w, sizeof(w), "mpi.rank_info[%zu]", i);
		if (!json_is_object(v))
			return fail(l, -EINVAL, w, "not an object");
		if (get_u32(l, w, v, "rank", &ri->rank) ||
		    get_u32(l, w, v, "local_rank", &ri->local_rank) ||
		    get_str(l, w, v, "hostname", ri->hostname, sizeof(ri->hostname)) ||
		    get_str(l, w, v, "kernel", ri->kernel, sizeof(ri->kernel)) ||
		    get_str(l, w, v, "version", ri->version, sizeof(ri->version)) ||
		    get_str(l, w, v, "target", ri->target, sizeof(ri->target)))
			return -EINVAL;
		rr->n = (unsigned)i + 1;
	}
	result_ranks_summarize(rr);
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].nranks != rr->n && r->tests[i].nranks)
			return fail(l, -EINVAL, "mpi", "tests[%zu] has %u ranks, rank_info %u", i,
				    r->tests[i].nranks, rr->n);
	return 0;
}

/* Newer than the rest, absent in older results (nothing was watched):
 * "window" and "stalls" (json.c's json_window). */
static int load_stalls(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	char w2[96];
	json_t *win = json_object_get(o, "window"), *a, *v;
	uint64_t run, job, missed = 0;
	double sec;
	size_t i;

	if (!win)
		return 0;
	sub(w2, sizeof(w2), w, "window");
	if (!json_is_object(win))
		return wrong(l, w, "window", "an object");
	if (get_u64(l, w2, win, "span_ns", &t->window_span_ns) ||
	    get_u64(l, w2, win, "stall_bound_ns", &t->stall_bound_ns) ||
	    get_arr(l, w, o, "stalls", &a) ||
	    (json_object_get(o, "stalls_missed") &&
	     get_u64(l, w, o, "stalls_missed", &missed)))
		return -EINVAL;
	t->stalls_missed = missed > UINT32_MAX ? UINT32_MAX : (unsigned)missed;
	json_array_foreach(a, i, v) {
		struct result_stall *st = &t->stalls[t->nstalls];
		json_t *off;

		snprintf(w2, sizeof(w2), "%s.stalls[%zu]", w, i);
		if (!json_is_object(v))
			return wrong(l, w, "stalls", "an array of objects");
		if (t->nstalls >= RESULT_MAX_STALLS) {
			t->stalls_missed++;
			continue;
		}
		if (get_u64(l, w2, v, "run", &run) || get_u64(l, w2, v, "job", &job) ||
		    get_real(l, w2, v, "seconds", &sec) ||
		    get_u64(l, w2, v, "start_ns", &st->start_ns))
			return -EINVAL;
		if (run >= REPEAT_MAX || job >= t->jobs)
			return fail(l, -EINVAL, w2, "job %" PRIu64 " of run %" PRIu64 " is not "
				    "one of the test's", job, run);
		/* at most a day: a test's runtime is */
		if (!(sec >= 0 && sec <= 86400))
			return wrong(l, w2, "seconds", "a number of seconds from 0 to 86400");
		/* a coordinated run's: whose job */
		st->rank = 0;
		if (json_object_get(v, "rank")) {
			uint64_t rank;

			if (get_u64(l, w2, v, "rank", &rank))
				return -EINVAL;
			if (rank > INT_MAX)
				return wrong(l, w2, "rank", "a rank number");
			st->rank = (unsigned)rank;
		}
		off = json_object_get(v, "offset");
		st->offset_valid = off && !json_is_null(off);
		if (st->offset_valid && get_u64(l, w2, v, "offset", &st->offset))
			return -EINVAL;
		st->run = (unsigned)run;
		st->job = (unsigned)job;
		st->ns = (uint64_t)(sec * 1e9 + 0.5);
		t->nstalls++;
	}
	return 0;
}

static int load_test(struct ld *l, unsigned idx, json_t *o, struct test_result *t)
{
	char w[32], w2[64], s[16], msg[256];
	json_t *files, *trim, *steady, *lat, *cpu, *dev, *sc, *ferr, *runs, *v;
	double user, sys, usec;
	size_t i;

	snprintf(w, sizeof(w), "tests[%u]", idx);
	if (!json_is_object(o))
		return fail(l, -EINVAL, w, "not an object");
	if (get_str(l, w, o, "name", t->name, sizeof(t->name)) ||
	    get_owned(l, w, o, "workload", &t->workload) ||
	    get_owned(l, w, o, "engine", &t->engine) ||
	    get_u32(l, w, o, "bs", &t->bs) || get_u32(l, w, o, "qd", &t->qd) ||
	    get_u32(l, w, o, "jobs", &t->jobs) || get_bool(l, w, o, "direct", &t->direct) ||
	    get_bool(l, w, o, "drop_behind", &t->drop_behind))
		return -EINVAL;
	if (get_str(l, w, o, "pattern", s, sizeof(s)))
		return -EINVAL;
	if (strcmp(s, "seq") && strcmp(s, "rand"))
		return wrong(l, w, "pattern", "\"seq\" or \"rand\"");
	t->random = !strcmp(s, "rand");
	if (get_str(l, w, o, "rw", s, sizeof(s)))
		return -EINVAL;
	if (strcmp(s, "read") && strcmp(s, "write"))
		return wrong(l, w, "rw", "\"read\" or \"write\"");
	t->is_write = !strcmp(s, "write");
	if (get_u64(l, w, o, "runtime_ns", &t->runtime_ns) ||
	    get_u64(l, w, o, "ramp_ns", &t->ramp_ns) ||
	    get_u64(l, w, o, "size_bytes", &t->size) ||
	    get_u64(l, w, o, "ops", &t->ops) ||
	    get_u64(l, w, o, "bytes", &t->bytes))
		return -EINVAL;

	/* Newer than the rest: a document without it has no file parameters. */
	files = json_object_get(o, "files");
	if (files && !json_is_null(files)) {
		sub(w2, sizeof(w2), w, "files");
		if (!json_is_object(files))
			return wrong(l, w, "files", "an object or null");
		if (get_u64(l, w2, files, "count", &t->params.nfiles) ||
		    get_u64(l, w2, files, "min_bytes", &t->params.file_min) ||
		    get_u64(l, w2, files, "max_bytes", &t->params.file_max) ||
		    get_u32(l, w2, files, "dirs", &t->params.ndirs))
			return -EINVAL;
	}

	if (get_obj(l, w, o, "lat_ns", false, &lat))
		return -EINVAL;
	t->lat = malloc(sizeof(*t->lat));
	if (!t->lat)
		return fail(l, -ENOMEM, w, "out of memory");
	if (load_lat(l, sub(w2, sizeof(w2), w, "lat_ns"), lat, t->lat) ||
	    load_given(l, w2, lat, t))
		return -EINVAL;

	if (get_obj(l, w, o, "cpu", false, &cpu) ||
	    get_real(l, sub(w2, sizeof(w2), w, "cpu"), cpu, "user_pct", &user) ||
	    get_real(l, w2, cpu, "sys_pct", &sys) ||
	    get_real(l, w2, cpu, "usec_per_op", &usec))
		return -EINVAL;

	if (get_obj(l, w, o, "device", true, &dev))
		return -EINVAL;
	t->dev_valid = dev != NULL;
	if (dev && (get_u64(l, sub(w2, sizeof(w2), w, "device"), dev, "read_bytes",
			    &t->dev_read_bytes) ||
		    get_u64(l, w2, dev, "write_bytes", &t->dev_write_bytes)))
		return -EINVAL;

	/* Newer than the rest: absent in older results (not counted, unknown). */
	if (json_object_get(cpu, "job_max_pct") &&
	    get_real(l, sub(w2, sizeof(w2), w, "cpu"), cpu, "job_max_pct", &t->cpu_job_max_pct))
		return -EINVAL;
	if (json_object_get(o, "syscalls")) {
		if (get_obj(l, w, o, "syscalls", true, &sc))
			return -EINVAL;
		t->syscalls_valid = sc != NULL;
		if (sc && get_u64(l, sub(w2, sizeof(w2), w, "syscalls"), sc, "total", &t->syscalls))
			return -EINVAL;
	}

	if (json_object_get(o, "tool_bound") && get_bool(l, w, o, "tool_bound", &t->tool_bound))
		return -EINVAL;

	/* Newer than the rest: absent in older results (false). */
	if (json_object_get(o, "implausible") &&
	    get_bool(l, w, o, "implausible", &t->implausible))
		return -EINVAL;
	/* Newer: older results wrote random data. */
	if (json_object_get(o, "data")) {
		if (get_str(l, w, o, "data", s, sizeof(s)))
			return -EINVAL;
		if (strcmp(s, "zero") && strcmp(s, "random"))
			return wrong(l, w, "data", "\"zero\" or \"random\"");
		t->zero_data = !strcmp(s, "zero");
	}
	/* Newer: older results have neither (their tests ran to the runtime). */
	if (json_object_get(o, "passes") && get_u32(l, w, o, "passes", &t->passes))
		return -EINVAL;
	if (json_object_get(o, "passes_done") &&
	    get_bool(l, w, o, "passes_done", &t->passes_done))
		return -EINVAL;
	if (json_object_get(o, "direct_refused") &&
	    get_bool(l, w, o, "direct_refused", &t->direct_refused))
		return -EINVAL;
	/* Newer than the rest: only for a test run in rounds. */
	steady = json_object_get(o, "steady_state");
	if (steady) {
		json_t *win;
		uint64_t max, first, n;
		bool ok;

		sub(w2, sizeof(w2), w, "steady_state");
		if (!json_is_object(steady))
			return wrong(l, w, "steady_state", "an object");
		if (get_u64(l, w2, steady, "max_rounds", &max) ||
		    get_bool(l, w2, steady, "steady", &ok) ||
		    get_obj(l, w2, steady, "window", true, &win))
			return -EINVAL;
		if (max > REPEAT_MAX)
			return fail(l, -EINVAL, w2, "\"max_rounds\" is %" PRIu64 ", more than %d",
				    max, REPEAT_MAX);
		t->steady_max_rounds = (unsigned)max;
		t->steady = ok;
		if (win && (get_u64(l, w2, win, "first", &first) ||
			    get_u64(l, w2, win, "rounds", &n) ||
			    get_real(l, w2, win, "average_iops", &t->steady_window.average) ||
			    get_real(l, w2, win, "range", &t->steady_window.range) ||
			    get_real(l, w2, win, "excursion", &t->steady_window.excursion) ||
			    get_real(l, w2, win, "slope", &t->steady_window.slope)))
			return -EINVAL;
		if (win && (first > REPEAT_MAX || n > REPEAT_MAX))
			return wrong(l, w2, "window", "rounds within max_rounds");
		if (win) {
			t->steady_window.first = (unsigned)first;
			t->steady_window.n = (unsigned)n;
			t->steady_window.steady = t->steady;
		}
	}
	/* Newer than the rest: absent when the engine had nothing to say. */
	if (json_object_get(o, "engine_note") &&
	    get_str(l, w, o, "engine_note", t->engine_note, sizeof(t->engine_note)))
		return -EINVAL;
	/* Newer than the rest: absent when nothing was trimmed. */
	trim = json_object_get(o, "trim");
	if (trim) {
		sub(w2, sizeof(w2), w, "trim");
		if (!json_is_object(trim))
			return wrong(l, w, "trim", "an object");
		if (get_owned(l, w2, trim, "method", &t->trim.method) ||
		    get_u64(l, w2, trim, "bytes", &t->trim.bytes))
			return -EINVAL;
	}

	if (load_verify(l, w, o, &t->verify) || load_stalls(l, w, o, t) ||
	    load_unwritten(l, w, o, &t->unwritten))
		return -EINVAL;

	if (get_u64(l, w, o, "errors", &t->errors) ||
	    get_obj(l, w, o, "first_error", true, &ferr))
		return -EINVAL;
	if (ferr) {
		sub(w2, sizeof(w2), w, "first_error");
		v = member(l, w2, ferr, "errno");
		if (!v)
			return -EINVAL;
		if (!json_is_integer(v) || json_integer_value(v) < 0 ||
		    json_integer_value(v) > INT_MAX)
			return wrong(l, w2, "errno", "a non-negative integer");
		t->first_errno = (int)json_integer_value(v);
		if (get_u64(l, w2, ferr, "offset", &t->first_error_offset))
			return -EINVAL;
	}

	if (get_arr(l, w, o, "runs", &runs))
		return -EINVAL;
	if (json_array_size(runs) > REPEAT_MAX)
		return fail(l, -EINVAL, w, "more than %d runs", REPEAT_MAX);
	if (json_array_size(runs)) {
		t->runs = calloc(json_array_size(runs), sizeof(*t->runs));
		if (!t->runs)
			return fail(l, -ENOMEM, w, "out of memory");
	}
	json_array_foreach(runs, i, v) {
		snprintf(w2, sizeof(w2), "%s.runs[%zu]", w, i);
		t->nruns = (unsigned)i + 1;	/* result_free frees what it holds */
		if (load_run(l, w2, v, &t->runs[i]))
			return -EINVAL;
	}
	/* The first run's timeline, unless that run had its own (--repeat). */
	{
		struct timeline *tl = t->nruns ? &t->runs[0].timeline : &t->timeline;

		if (!tl->interval_ns && load_timeline(l, w, o, tl))
			return -EINVAL;
	}

	/*
	 * The shown figures come from the raw ones by the run's own code. One
	 * run: as the runner finished it, with its CPU figures (the runs keep
	 * them in full, "cpu" only to 3 decimals). Several: repeat_finish
	 * merges them again (medians, CPU from the summed time). Either way
	 * repeat_finish gives the summary from the runs.
	 */
	t->cpu_user_pct = user;
	t->cpu_sys_pct = sys;
	t->usec_per_op = usec;
	if (t->nruns == 1) {
		t->cpu_user_pct = t->runs[0].cpu_user_pct;
		t->cpu_sys_pct = t->runs[0].cpu_sys_pct;
		t->usec_per_op = t->runs[0].usec_per_op;
	}
	if (load_test_ranks(l, w, o, t))
		return -EINVAL;
	if (t->nruns <= 1)
		result_finish(t);
	else
		result_ranks_finish(t);
	repeat_finish(t);
	result_drift(t);
	result_cliff(t);
	/* Renderers are total on what passes (issue 27): no NaN, no DBL_MAX. */
	if (load_check_test(t, idx, w2, sizeof(w2), msg, sizeof(msg)))
		return fail(l, -EINVAL, w2, "%s", msg);
	/* Derived: from here on the histogram is kept as its buckets (a
	 * struct hist is 30 KB, most of a test's memory). */
	t->lat_sparse = hist_sparse_of(t->lat);
	if (!t->lat_sparse)
		return fail(l, -ENOMEM, w, "out of memory");
	free(t->lat);
	t->lat = NULL;
	return 0;
}

/* "FILE:LINE:COLUMN: not a JSON document: why" for the byte at buf[at]
 * (at == end: the text ended there). Returns -EINVAL. */
static int syntax(struct ld *l, size_t at, const char *why)
{
	int line = l->line0, col = 1;

	for (size_t i = l->off; i < at && i < l->end; i++) {
		if (l->buf[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (at >= l->end && col > 1)
		col--;	/* as jansson counts: the last byte it read */
	snprintf(l->err, l->errlen, "%s:%d:%d: not a JSON document: %s", l->path, line, col, why);
	return -EINVAL;
}

/* A piece of the document: the text of one value, at most LOAD_MAX_PIECE
 * bytes (what is at stake: its tree takes about 10 times its text). */
#define LOAD_MAX_PIECE (32u << 20)

/* The value at buf[from..to) as a tree (jansson), or NULL with err set. */
static json_t *piece(struct ld *l, const char *where, size_t from, size_t to)
{
	json_error_t jerr;
	json_t *v;

	if (to - from > LOAD_MAX_PIECE) {
		fail(l, -EINVAL, where, "%zu MiB of JSON, more than a result's part may hold "
		     "(%u MiB)", (to - from) >> 20, LOAD_MAX_PIECE >> 20);
		return NULL;
	}
	v = json_loadb(l->buf + from, to - from, JSON_DECODE_ANY, &jerr);
	if (!v)
		syntax(l, from + (size_t)(jerr.position > 0 ? jerr.position : 0), jerr.text);
	return v;
}

/* Every element of "tests", one tree at a time: the whole array as one
 * tree took 10 times the file (issue 27). */
static int load_tests(struct ld *l, struct run_result *r)
{
	size_t pos, next, n = 0, i;
	const char *why;
	char w[32];

	if (!l->has_tests)
		return fail(l, -EINVAL, "", "missing key \"tests\"");
	if (l->buf[l->tests_off] != '[')
		return wrong(l, "", "tests", "an array");
	/* how many (the scan is linear and allocates nothing), then each */
	for (int pass = 0; pass < 2; pass++) {
		pos = scan_ws(l->buf, l->tests_end, l->tests_off + 1);
		for (i = 0; pos < l->tests_end && l->buf[pos] != ']'; i++) {
			if (scan_value(l->buf, l->tests_end, pos, &next, &why))
				return syntax(l, next, why);
			if (pass) {
				json_t *o;
				int ret;

				snprintf(w, sizeof(w), "tests[%zu]", i);
				o = piece(l, w, pos, next);
				if (!o)
					return -EINVAL;
				ret = load_test(l, (unsigned)i, o, &r->tests[i]);
				json_decref(o);
				if (ret)
					return ret;
			}
			pos = scan_ws(l->buf, l->tests_end, next);
			if (pos < l->tests_end && l->buf[pos] == ',')
				pos = scan_ws(l->buf, l->tests_end, pos + 1);
		}
		if (pass || !i)
			break;
		n = i;
		if (n > UINT_MAX)
			return fail(l, -EINVAL, "", "more than %u tests", UINT_MAX);
		r->tests = calloc(n, sizeof(*r->tests));
		if (!r->tests)
			return fail(l, -ENOMEM, "", "out of memory");
		r->ntests = (unsigned)n;	/* zeroed: result_free frees what is loaded */
	}
	return 0;
}

static int load_xbench(struct ld *l, json_t *root, struct xbench_scores *x)
{
	const unsigned max = sizeof(x->tests) / sizeof(x->tests[0]);
	char w[32], msg[256];
	json_t *o, *a, *t;
	size_t i;

	if (get_obj(l, "", root, "xbench", true, &o))
		return -EINVAL;
	if (!o)
		return 0;
	if (get_str(l, "xbench", o, "baseline", x->source, sizeof(x->source)) ||
	    get_arr(l, "xbench", o, "tests", &a))
		return -EINVAL;
	if (json_array_size(a) > max)
		return fail(l, -EINVAL, "xbench", "more than %u tests", max);
	json_array_foreach(a, i, t) {
		struct xbench_score *s = &x->tests[i];

		snprintf(w, sizeof(w), "xbench.tests[%zu]", i);
		if (!json_is_object(t))
			return fail(l, -EINVAL, w, "not an object");
		if (get_owned(l, w, t, "name", &s->name) ||
		    get_real(l, w, t, "bytes_per_sec", &s->measured) ||
		    get_real(l, w, t, "baseline_bytes_per_sec", &s->baseline) ||
		    get_real(l, w, t, "score", &s->score))
			return -EINVAL;
		if (!s->name)
			return wrong(l, w, "name", "a string");
		x->n = (unsigned)i + 1;
	}
	if (get_real(l, "xbench", o, "sequential", &x->sequential) ||
	    get_real(l, "xbench", o, "random", &x->random) ||
	    get_real(l, "xbench", o, "total", &x->total))
		return -EINVAL;
	if (load_check_xbench(x, w, sizeof(w), msg, sizeof(msg)))
		return fail(l, -EINVAL, w, "%s", msg);
	x->valid = true;
	return 0;
}

/* "precondition": newer than the rest, only when --precondition ran. */
static int load_precondition(struct ld *l, json_t *root, struct run_precondition *p)
{
	const char *w = "precondition";
	json_t *o = json_object_get(root, w), *dev;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return wrong(l, "", w, "an object");
	if (get_u32(l, w, o, "bs", &p->bs) || get_u32(l, w, o, "qd", &p->qd) ||
	    get_u32(l, w, o, "passes", &p->passes) ||
	    get_u64(l, w, o, "region_bytes", &p->region) || get_u64(l, w, o, "bytes", &p->bytes) ||
	    get_u64(l, w, o, "time_ns", &p->time_ns) || get_bool(l, w, o, "complete", &p->complete))
		return -EINVAL;
	dev = json_object_get(o, "device_write_bytes");
	p->dev_valid = dev && !json_is_null(dev);
	if (p->dev_valid && get_u64(l, w, o, "device_write_bytes", &p->dev_write_bytes))
		return -EINVAL;
	p->done = true;
	return 0;
}

/* "read_layout": newer than the rest, only with read tests. */
static int load_read_layout(struct ld *l, json_t *root, struct read_layout *p)
{
	const char *w = "read_layout";
	json_t *o = json_object_get(root, w), *lo;

	if (!o)
		return 0;
	if (!json_is_object(o))
		return wrong(l, "", w, "an object");
	if (get_bool(l, w, o, "checked", &p->checked) ||
	    get_str(l, w, o, "source", p->source, sizeof(p->source)) ||
	    get_str(l, w, o, "file", p->file, sizeof(p->file)) ||
	    get_u64(l, w, o, "offset_bytes", &p->offset) ||
	    (!p->checked && get_str(l, w, o, "reason", p->why, sizeof(p->why))) ||
	    get_obj(l, w, o, "laid_out", true, &lo))
		return -EINVAL;
	if (lo && (get_u64(l, "read_layout.laid_out", lo, "bytes", &p->laid_out_bytes) ||
		   get_u64(l, "read_layout.laid_out", lo, "time_ns", &p->laid_out_ns)))
		return -EINVAL;
	p->laid_out = lo != NULL;
	p->known = true;
	return 0;
}

static int load_warnings(struct ld *l, json_t *root, struct run_result *r)
{
	json_t *a, *v;
	size_t i;

	if (get_arr(l, "", root, "warnings", &a))
		return -EINVAL;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return fail(l, -EINVAL, "", "warnings[%zu] is not a string", i);
		if (result_add_warning(r, "%s", json_string_value(v)))
			return fail(l, -ENOMEM, "", "out of memory");
	}
	return 0;
}

static int load_root(struct ld *l, json_t *root, struct run_result *r)
{
	json_t *schema = json_is_object(root) ? json_object_get(root, "schema") : NULL, *tool;

	/* diskbench's other documents (a tune's, a comparison's): say which */
	if (json_is_string(schema) && !strncmp(json_string_value(schema), "diskbench-", 10))
		return fail(l, -EINVAL, "", "a \"%s\" document, not a run's result "
			    "(\"diskbench/1\"): report and compare read the JSON of runs",
			    json_string_value(schema));
	if (!json_is_string(schema) || strcmp(json_string_value(schema), "diskbench/1"))
		return fail(l, -EINVAL, "", "not a diskbench result (no \"schema\": "
			    "\"diskbench/1\")");
	if (get_obj(l, "", root, "tool", false, &tool) ||
	    get_owned(l, "tool", tool, "version", &r->tool_version) ||
	    get_str(l, "", root, "started_at", r->started_at, sizeof(r->started_at)) ||
	    get_str(l, "", root, "label", r->label, sizeof(r->label)) ||
	    load_host(l, root, &r->host) ||
	    load_target(l, root, &r->target) ||
	    load_settings(l, root, r) ||
	    get_u64(l, "", root, "clock_overhead_ns", &r->clock_overhead_ns))
		return -EINVAL;
	/* newer than the rest: absent in older results */
	if (json_object_get(root, "command_line") &&
	    get_str(l, "", root, "command_line", r->command_line, sizeof(r->command_line)))
		return -EINVAL;
	if (json_object_get(root, "imported_from")) {	/* another tool's (import.h) */
		json_t *o;
		const char *w = "imported_from";

		if (get_obj(l, "", root, w, false, &o) ||
		    get_str(l, w, o, "tool", r->imported_from.tool, sizeof(r->imported_from.tool)) ||
		    get_str(l, w, o, "version", r->imported_from.version,
			    sizeof(r->imported_from.version)) ||
		    get_str(l, w, o, "file", r->imported_from.file, sizeof(r->imported_from.file)))
			return -EINVAL;
	}
	if (load_tests(l, r) || load_mpi(l, root, r) || load_xbench(l, root, &r->xbench) ||
	    load_precondition(l, root, &r->precondition) ||
	    load_read_layout(l, root, &r->read_layout) || load_warnings(l, root, r))
		return -EINVAL;
	return 0;
}

/*
 * The file at path in *buf (malloc'd, NUL-terminated), its size in *len:
 * -EFBIG past max bytes, found by reading (a FIFO, /dev/zero) or, for a
 * regular file, by its size (*file_size; 0 for any other) before anything
 * is read.
 */
static int read_bounded(const char *path, uint64_t max, char **buf, size_t *len,
			uint64_t *file_size)
{
	size_t cap, want;
	struct stat st;
	char *p = NULL, *q;
	ssize_t got;
	int fd, ret = 0;

	*buf = NULL;
	*len = 0;
	*file_size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto out;
	}
	if (S_ISREG(st.st_mode))
		*file_size = (uint64_t)st.st_size;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		ret = -EFBIG;
		goto out;
	}
	/* A regular file's size (+1 to see its end; it may grow), else 64 KiB
	 * to begin with, doubled up to max + 1: one byte past max is enough
	 * to refuse, whatever the file. */
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1 << 16;
	if (cap > max + 1)
		cap = (size_t)max + 1;
	for (;;) {
		if (!p || *len == cap) {
			want = !p ? cap : cap < SIZE_MAX / 4 ? cap * 2 : SIZE_MAX / 2;
			if (want > max + 1)
				want = (size_t)max + 1;
			q = realloc(p, want + 1);	/* + the NUL */
			if (!q) {
				ret = -ENOMEM;
				goto out;
			}
			p = q;
			cap = want;
		}
		got = read(fd, p + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			goto out;
		}
		if (!got)
			break;
		*len += (size_t)got;
		if (*len > max) {
			ret = -EFBIG;
			goto out;
		}
	}
	p[*len] = '\0';
out:
	close(fd);
	if (ret) {
		free(p);
		p = NULL;
		*len = 0;
	}
	*buf = p;
	return ret;
}
/*
 * The document in l->buf, as a tree of its top-level members but "tests",
 * whose span is kept in l (load_tests reads it test by test). The file is
 * JSON, or an HTML report that embeds it (result_find_json). 0, or -errno
 * with err set.
 */
static int load_doc(struct ld *l, size_t len, json_t **rootp)
{
	size_t pos, next, key_end, n, off;
	json_t *root, *k, *v;
	const char *why;
	int ret, line;

	*rootp = NULL;
	ret = result_find_json(l->buf, len, &off, &n, &line);
	if (ret) {
		snprintf(l->err, l->errlen, ret == -ENOENT ? "%s: an HTML page with no diskbench "
			 "result in it (a report written by --html holds one)" : "%s: an HTML report "
			 "whose embedded result is cut short", l->path);
		return -EINVAL;
	}
	l->off = off;
	l->end = off + n;
	l->line0 = line;
	pos = scan_ws(l->buf, l->end, l->off);
	if (pos >= l->end)
		return syntax(l, l->end, "no document in it");
	if (l->buf[pos] != '{') {
		/* JSON maybe, but no result: its syntax first, without a tree */
		if (scan_value(l->buf, l->end, pos, &next, &why))
			return syntax(l, next, why);
		if (scan_ws(l->buf, l->end, next) < l->end)
			return syntax(l, scan_ws(l->buf, l->end, next), "text after the document");
		return fail(l, -EINVAL, "", "not a diskbench result (no \"schema\": "
			    "\"diskbench/1\")");
	}
	root = json_object();
	if (!root)
		return fail(l, -ENOMEM, "", "out of memory");
	pos = scan_ws(l->buf, l->end, pos + 1);
	while (pos < l->end && l->buf[pos] != '}') {
		/* "key": value */
		if (l->buf[pos] != '"')
			goto bad_key;
		if (scan_value(l->buf, l->end, pos, &key_end, &why)) {
			ret = syntax(l, key_end, why);
			goto out;
		}
		k = piece(l, "", pos, key_end);
		if (!k) {
			ret = -EINVAL;
			goto out;
		}
		pos = scan_ws(l->buf, l->end, key_end);
		if (pos >= l->end || l->buf[pos] != ':') {
			json_decref(k);
			ret = syntax(l, pos, "':' expected after a key");
			goto out;
		}
		pos = scan_ws(l->buf, l->end, pos + 1);
		if (scan_value(l->buf, l->end, pos, &next, &why)) {
			json_decref(k);
			ret = syntax(l, next, why);
			goto out;
		}
		if (json_object_get(root, json_string_value(k)) ||
		    (l->has_tests && !strcmp(json_string_value(k), "tests"))) {
			ret = fail(l, -EINVAL, "", "key \"%s\" twice", json_string_value(k));
			json_decref(k);
			goto out;
		}
		if (!strcmp(json_string_value(k), "tests")) {
			l->has_tests = true;
			l->tests_off = pos;
			l->tests_end = next;
		} else {
			v = piece(l, json_string_value(k), pos, next);
			if (!v || json_object_set_new(root, json_string_value(k), v)) {
				ret = v ? fail(l, -ENOMEM, "", "out of memory") : -EINVAL;
				json_decref(k);
				goto out;
			}
		}
		json_decref(k);
		pos = scan_ws(l->buf, l->end, next);
		if (pos < l->end && l->buf[pos] == ',') {
			pos = scan_ws(l->buf, l->end, pos + 1);
			if (pos < l->end && l->buf[pos] == '}')
				goto bad_key;
		} else if (pos < l->end && l->buf[pos] != '}') {
			ret = syntax(l, pos, "',' or '}' expected");
			goto out;
		}
	}
	if (pos >= l->end) {
		ret = syntax(l, l->end, "the text ends inside the document");
		goto out;
	}
	pos = scan_ws(l->buf, l->end, pos + 1);
	if (pos < l->end) {
		ret = syntax(l, pos, "text after the document");
		goto out;
	}
	*rootp = root;
	return 0;
bad_key:
	ret = syntax(l, pos, "a string key expected");
out:
	json_decref(root);
	return ret;
}

/* The result in buf[0..len) (no NUL needed: every reader takes len),
 * named name in errors. */
static int load_text(const char *name, const char *buf, size_t len, struct run_result *r,
		     char *err, size_t errlen)
{
	struct ld l = { .path = name, .err = err, .errlen = errlen, .r = r, .buf = buf };
	enum import_format fmt = import_detect(buf, len);
	json_t *root;
	int ret;

	memset(r, 0, sizeof(*r));
	if (fmt != IMPORT_NONE)	/* another tool's result, by its content */
		return import_load(fmt, name, buf, len, r, err, errlen);
	ret = load_doc(&l, len, &root);
	if (ret)
		return ret;
	ret = load_root(&l, root, r);
	json_decref(root);
	if (ret) {
		result_free(r);
		memset(r, 0, sizeof(*r));
	}
	return ret;
}

int result_load_buf(const char *name, const char *buf, size_t len, struct run_result *r,
		    char *err, size_t errlen)
{
	return load_text(name, buf, len, r, err, errlen);
}

int result_load_max(const char *path, uint64_t max_bytes, struct run_result *r, char *err,
		    size_t errlen)
{
	char size[32], *buf;
	uint64_t file_size;
	size_t len;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = read_bounded(path, max_bytes, &buf, &len, &file_size);
	if (ret == -EISDIR) {
		snprintf(err, errlen, "%s: is a directory, not a JSON result", path);
		return ret;
	}
	if (ret == -EFBIG && file_size) {
		snprintf(err, errlen, "%s: %" PRIu64 " %s, more than %s, the limit for a result "
			 "file (--max-input SIZE raises it)", path,
			 file_size >= 10 << 20 ? file_size >> 20 : file_size,
			 file_size >= 10 << 20 ? "MiB" : "bytes",
			 format_size(max_bytes, size, sizeof(size)));
		return ret;
	}
	if (ret == -EFBIG) {
		snprintf(err, errlen, "%s: more than %s read from it, the limit for a result "
			 "(--max-input SIZE raises it)", path, format_size(max_bytes, size,
									   sizeof(size)));
		return ret;
	}
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = load_text(path, buf, len, r, err, errlen);
	free(buf);
	return ret;
}

int result_load(const char *path, struct run_result *r, char *err, size_t errlen)
{
	return result_load_max(path, LOAD_MAX_BYTES, r, err, errlen);
}
