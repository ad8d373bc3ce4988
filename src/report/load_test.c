/* load_test.c - one test of a saved result read back: its figures, runs, latency and checks. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "load_check.h"
#include "load_int.h"
#include "repeat.h"

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
	if (ld_u64_or_null(l, w, o, "min", &min) || ld_u64_or_null(l, w, o, "max", &max) ||
	    ld_real(l, w, o, "mean", &mean) || ld_real(l, w, o, "stdev", &stdev) ||
	    ld_arr(l, w, o, "histogram", &hg))
		return -EINVAL;
	json_array_foreach(hg, i, pair) {
		if (!json_is_array(pair) || json_array_size(pair) != 2 ||
		    !json_is_integer(json_array_get(pair, 0)) ||
		    !json_is_integer(json_array_get(pair, 1)) ||
		    json_integer_value(json_array_get(pair, 0)) < 0 ||
		    json_integer_value(json_array_get(pair, 1)) < 0)
			return ld_fail(l, -EINVAL, w, "histogram[%zu] is not a [bucket_low_ns, count] "
				    "pair", i);
		low = (uint64_t)json_integer_value(json_array_get(pair, 0));
		count = (uint64_t)json_integer_value(json_array_get(pair, 1));
		idx = hist_index(low);
		if (hist_bucket_low(idx) != low)
			return ld_fail(l, -EINVAL, w, "histogram[%zu]: %" PRIu64 " is not the lower "
				    "bound of a bucket", i, low);
		if (__builtin_add_overflow(h->count[idx], count, &h->count[idx]) ||
		    __builtin_add_overflow(h->n, count, &h->n))
			return ld_fail(l, -EINVAL, w, "histogram[%zu]: count overflows", i);
	}
	if (h->n) {
		h->min = min;
		h->max = max;
	}
	jsum = json_object_get(o, "sum");
	jsq = json_object_get(o, "sumsq");
	if (jsum || jsq) {
		if (ld_u64(l, w, o, "sum", &h->sum) || !ld_member(l, w, o, "sumsq"))
			return -EINVAL;
		if (!json_is_string(jsq) || !parse_u128(json_string_value(jsq), &h->sumsq))
			return ld_wrong(l, w, "sumsq", "a string of decimal digits");
	} else if (h->n && isfinite(mean) && isfinite(stdev)) {
		long double n = (long double)h->n, m = mean, s = stdev;

		/* beyond max the moments would overflow their integers */
		if (!(mean >= 0 && mean <= (double)max + 1))
			return ld_fail(l, -EINVAL, w, "\"mean\" %.6g is outside min .. max", mean);
		if (!(stdev >= 0 && stdev <= (double)max + 1))
			return ld_fail(l, -EINVAL, w, "\"stdev\" %.6g is more than max", stdev);

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
	/* the maximum alone (bonnie++'s): min null, max a number */
	v = json_object_get(o, "max");
	if (json_is_null(json_object_get(o, "min")) && json_is_integer(v) &&
	    json_integer_value(v) >= 0) {
		ls->max = (uint64_t)json_integer_value(v);
		t->lat_max_given = true;
	}
	for (i = 0; i < RESULT_NPCT; i++) {
		v = json_object_get(p, result_pct_keys[i]);
		if (!v || json_is_null(v))
			continue;
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return ld_fail(l, -EINVAL, w, "percentile \"%s\" is not an unsigned integer "
				    "or null", result_pct_keys[i]);
		ls->pct[i] = (uint64_t)json_integer_value(v);
		t->lat_pct_given |= (uint16_t)(1u << i);
	}
	if (!t->lat_pct_given)
		return 0;
	if (ld_u64(l, w, o, "min", &ls->min) || ld_u64(l, w, o, "max", &ls->max) ||
	    ld_real(l, w, o, "mean", &ls->mean) || ld_real(l, w, o, "stdev", &ls->stdev))
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
		return ld_wrong(l, where, "timeline", "an object or null");
	ld_sub(w, sizeof(w), where, "timeline");
	if (ld_u64(l, w, v, "interval_ns", &t.interval_ns) || ld_arr(l, w, v, "columns", &cols) ||
	    ld_arr(l, w, v, "points", &pts))
		return -EINVAL;
	if (!t.interval_ns)
		return ld_wrong(l, w, "interval_ns", "a positive integer");
	if (json_object_get(v, "merges") && ld_u64(l, w, v, "merges", &merges))
		return -EINVAL;
	if (merges > 64)
		return ld_wrong(l, w, "merges", "at most 64");
	t.merges = (unsigned)merges;
	ncols = json_array_size(cols);
	for (c = 0; c < TIMELINE_NCOLUMNS; c++) {
		for (k = 0; k < ncols; k++) {
			x = json_array_get(cols, k);
			if (json_is_string(x) && !strcmp(json_string_value(x), timeline_columns[c]))
				break;
		}
		if (k == ncols)
			return ld_fail(l, -EINVAL, w, "no column \"%s\"", timeline_columns[c]);
		col[c] = k;
	}
	if (json_array_size(pts) > TIMELINE_MAX_POINTS)
		return ld_fail(l, -EINVAL, w, "more than %u points", TIMELINE_MAX_POINTS);
	if (json_array_size(pts)) {
		t.p = calloc(json_array_size(pts), sizeof(*t.p));
		if (!t.p)
			return ld_fail(l, -ENOMEM, w, "out of memory");
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
			return ld_fail(l, -EINVAL, wp, "t_ns is not after the previous point's");
		}
		t.n = (unsigned)i + 1;
	}
	*tl = t;
	return 0;
bad:
	free(t.p);
	return ld_fail(l, -EINVAL, wp, "not a row of %zu unsigned integers (\"columns\")", ncols);
}

static int load_run(struct ld *l, const char *w, json_t *o, struct test_run *run)
{
	if (!json_is_object(o))
		return ld_fail(l, -EINVAL, w, "not an object");
	if (ld_fields(l, w, o, schema_test_run, run))
		return -EINVAL;
	return load_timeline(l, w, o, &run->timeline);
}

/* "first_bad" of a test's "verify" (ld_fields read the rest of it). */
static int load_first_bad(struct ld *l, const char *w, json_t *o, struct verify_sum *v)
{
	json_t *vo = json_object_get(o, "verify"), *fb, *e;
	char w2[64], field[16];
	int f;

	if (!v->done)
		return 0;
	snprintf(w2, sizeof(w2), "%s.verify", w);
	if (ld_obj(l, w2, vo, "first_bad", true, &fb))
		return -EINVAL;
	if (!fb)
		return 0;
	snprintf(w2, sizeof(w2), "%s.verify.first_bad", w);
	if (ld_u64(l, w2, fb, "offset", &v->first.offset) ||
	    ld_str(l, w2, fb, "field", field, sizeof(field)) ||
	    ld_u64(l, w2, fb, "expected", &v->first.expected) ||
	    ld_u64(l, w2, fb, "found", &v->first.found))
		return -EINVAL;
	f = verify_field_parse(field);
	if (f < 0)
		return ld_wrong(l, w2, "field", "one of magic, len, offset, seed, crc, read");
	v->first.field = (enum verify_field)f;
	e = json_object_get(fb, "errno");
	if (e) {
		if (!json_is_integer(e) || json_integer_value(e) < 0 ||
		    json_integer_value(e) > INT_MAX)
			return ld_wrong(l, w2, "errno", "a non-negative integer");
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
		return ld_wrong(l, w, "unwritten", "an object");
	u->applies = true;
	if (ld_bool(l, w2, uo, "checked", &u->checked) ||
	    ld_u64(l, w2, uo, "region_bytes", &u->region_bytes) ||
	    ld_bool(l, w2, uo, "flagged", &u->flagged))
		return -EINVAL;
	ls = json_object_get(uo, "layout_share");
	u->layout_valid = ls && !json_is_null(ls);
	if (u->layout_valid && ld_real(l, w2, uo, "layout_share", &u->layout_share))
		return -EINVAL;
	if (u->layout_valid && !(u->layout_share >= 0 && u->layout_share <= 1))
		return ld_wrong(l, w2, "layout_share", "a share in [0, 1] or null");
	if (!u->checked)
		return ld_str(l, w2, uo, "reason", u->why, sizeof(u->why)) ? -EINVAL : 0;
	if (ld_real(l, w2, uo, "share", &u->share) ||
	    ld_u32(l, w2, uo, "sampled_blocks", &u->sampled) ||
	    ld_u32(l, w2, uo, "blank_blocks", &u->blank) ||
	    ld_u32(l, w2, uo, "block_bytes", &u->block_bytes) ||
	    ld_arr(l, w2, uo, "interval", &iv))
		return -EINVAL;
	if (json_array_size(iv) != 2 || !json_is_number(json_array_get(iv, 0)) ||
	    !json_is_number(json_array_get(iv, 1)))
		return ld_wrong(l, w2, "interval", "two numbers");
	u->lo = json_number_value(json_array_get(iv, 0));
	u->hi = json_number_value(json_array_get(iv, 1));
	if (!(u->share >= 0 && u->share <= 1) || !(u->lo >= 0 && u->lo <= u->hi && u->hi <= 1))
		return ld_wrong(l, w2, "share", "a share in [0, 1] within its interval");
	if (u->blank > u->sampled)
		return ld_wrong(l, w2, "blank_blocks", "at most sampled_blocks");
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
		return ld_wrong(l, w, "ranks", "an array");
	if (!json_array_size(a))
		return 0;
	t->ranks = calloc(json_array_size(a), sizeof(*t->ranks));
	if (!t->ranks)
		return ld_fail(l, -ENOMEM, w, "out of memory");
	json_array_foreach(a, i, v) {
		struct rank_test *rt = &t->ranks[i];

		snprintf(w2, sizeof(w2), "%s.ranks[%zu]", w, i);
		t->nranks = (unsigned)i + 1;
		if (!json_is_object(v))
			return ld_fail(l, -EINVAL, w2, "not an object");
		if (ld_u64(l, w2, v, "ops", &rt->ops) || ld_u64(l, w2, v, "bytes", &rt->bytes) ||
		    ld_u64(l, w2, v, "runtime_ns", &rt->runtime_ns) ||
		    ld_real(l, w2, v, "bytes_per_sec", &rt->bytes_per_sec) ||
		    ld_u64(l, w2, v, "errors", &rt->errors) ||
		    ld_u64(l, w2, v, "start_ns", &rt->start_ns) ||
		    ld_u64(l, w2, v, "end_ns", &rt->end_ns) ||
		    ld_obj(l, w2, v, "lat_ns", false, &lat) ||
		    ld_u64(l, w2, lat, "n", &rt->lat_n) || ld_u64(l, w2, lat, "min", &rt->lat_min) ||
		    ld_u64(l, w2, lat, "max", &rt->lat_max) ||
		    ld_u64(l, w2, lat, "sum", &rt->lat_sum))
			return -EINVAL;
	}
	return 0;
}

/* One member of "stalls" or "slow_requests" (json.c's json_stall), at w
 * in errors, into st: its run and job (of the test's), the seconds it
 * stood (at most a day, as a test's runtime is), when it began, the rank
 * of a coordinated run's job and its offset (null: not known). */
static int load_stall(struct ld *l, const char *w, json_t *v, const struct test_result *t,
		      struct result_stall *st)
{
	uint64_t run, job;
	json_t *off;
	double sec;

	if (ld_u64(l, w, v, "run", &run) || ld_u64(l, w, v, "job", &job) ||
	    ld_real(l, w, v, "seconds", &sec) || ld_u64(l, w, v, "start_ns", &st->start_ns))
		return -EINVAL;
	if (run >= REPEAT_MAX || job >= t->jobs)
		return ld_fail(l, -EINVAL, w, "job %" PRIu64 " of run %" PRIu64 " is not "
			       "one of the test's", job, run);
	if (!(sec >= 0 && sec <= 86400))
		return ld_wrong(l, w, "seconds", "a number of seconds from 0 to 86400");
	st->rank = 0;
	if (json_object_get(v, "rank")) {
		uint64_t rank;

		if (ld_u64(l, w, v, "rank", &rank))
			return -EINVAL;
		if (rank > INT_MAX)
			return ld_wrong(l, w, "rank", "a rank number");
		st->rank = (unsigned)rank;
	}
	off = json_object_get(v, "offset");
	st->offset_valid = off && !json_is_null(off);
	if (st->offset_valid && ld_u64(l, w, v, "offset", &st->offset))
		return -EINVAL;
	st->run = (unsigned)run;
	st->job = (unsigned)job;
	st->ns = (uint64_t)(sec * 1e9 + 0.5);
	return 0;
}

/* Newer than the rest, absent in older results (nothing was watched):
 * "window" and "stalls" (json.c's json_window). */
static int load_stalls(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	char w2[96];
	json_t *win = json_object_get(o, "window"), *a, *v;
	uint64_t missed = 0;
	size_t i;

	if (!win)
		return 0;
	ld_sub(w2, sizeof(w2), w, "window");
	if (!json_is_object(win))
		return ld_wrong(l, w, "window", "an object");
	if (ld_u64(l, w2, win, "span_ns", &t->window_span_ns) ||
	    ld_u64(l, w2, win, "stall_bound_ns", &t->stall_bound_ns) ||
	    ld_arr(l, w, o, "stalls", &a) ||
	    (json_object_get(o, "stalls_missed") &&
	     ld_u64(l, w, o, "stalls_missed", &missed)))
		return -EINVAL;
	t->stalls_missed = missed > UINT32_MAX ? UINT32_MAX : (unsigned)missed;
	json_array_foreach(a, i, v) {
		struct result_stall *st = &t->stalls[t->nstalls];

		snprintf(w2, sizeof(w2), "%s.stalls[%zu]", w, i);
		if (!json_is_object(v))
			return ld_wrong(l, w, "stalls", "an array of objects");
		if (t->nstalls >= RESULT_MAX_STALLS) {
			t->stalls_missed++;
			continue;
		}
		if (load_stall(l, w2, v, t, st))
			return -EINVAL;
		t->nstalls++;
	}
	return 0;
}

/* "io_timeout_ns", "slow_requests", "slow_requests_missed", "stuck" and
 * "stuck_call" (json.c's json_slow): absent from a result saved before
 * them ("stuck_call" from any but a stuck file test's). */
static int load_slow(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	uint64_t missed = 0;
	json_t *a, *v;
	char w2[96];
	size_t i;

	if (!json_object_get(o, "io_timeout_ns"))
		return 0;
	if (ld_u64(l, w, o, "io_timeout_ns", &t->io_timeout_ns) ||
	    ld_arr(l, w, o, "slow_requests", &a) ||
	    ld_u64(l, w, o, "slow_requests_missed", &missed) || ld_bool(l, w, o, "stuck", &t->stuck))
		return -EINVAL;
	if (json_object_get(o, "stuck_call")) {
		const char *w3 = ld_sub(w2, sizeof(w2), w, "stuck_call");

		if (ld_obj(l, w, o, "stuck_call", false, &v) ||
		    ld_str(l, w3, v, "call", t->stuck_call.call, sizeof(t->stuck_call.call)) ||
		    ld_str(l, w3, v, "path", t->stuck_call.path, sizeof(t->stuck_call.path)))
			return -EINVAL;
	}
	t->slow_missed = missed > UINT32_MAX ? UINT32_MAX : (unsigned)missed;
	json_array_foreach(a, i, v) {
		struct result_stall *st = &t->slow[t->nslow];

		snprintf(w2, sizeof(w2), "%s.slow_requests[%zu]", w, i);
		if (!json_is_object(v))
			return ld_wrong(l, w, "slow_requests", "an array of objects");
		if (t->nslow >= RESULT_MAX_STALLS) {
			t->slow_missed++;
			continue;
		}
		if (load_stall(l, w2, v, t, st))
			return -EINVAL;
		t->nslow++;
	}
	return 0;
}

/* "io_errors" (json.c's json_io_errors): absent from a result saved before. */
static int load_io_errors(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	uint64_t run, job, at, off, len, bytes;
	json_t *a, *v, *e;
	char w2[96];
	size_t i;

	if (!json_object_get(o, "io_errors"))
		return 0;
	if (ld_arr(l, w, o, "io_errors", &a))
		return -EINVAL;
	json_array_foreach(a, i, v) {
		snprintf(w2, sizeof(w2), "%s.io_errors[%zu]", w, i);
		if (!json_is_object(v))
			return ld_wrong(l, w, "io_errors", "an array of objects");
		if (ld_u64(l, w2, v, "run", &run) || ld_u64(l, w2, v, "job", &job) ||
		    ld_u64(l, w2, v, "at_ns", &at) || ld_u64(l, w2, v, "offset", &off) ||
		    ld_u64(l, w2, v, "len", &len) || ld_u64(l, w2, v, "bytes", &bytes))
			return -EINVAL;
		e = json_object_get(v, "errno");
		if (!json_is_integer(e) || json_integer_value(e) < 0 || json_integer_value(e) > 4095 ||
		    run >= REPEAT_MAX || job >= t->jobs || len > UINT32_MAX || bytes > len)
			return ld_fail(l, -EINVAL, w2, "not an error of the test's jobs and runs");
		if (t->nio_errors >= RESULT_MAX_IO_ERRORS)
			continue;
		t->io_errors[t->nio_errors++] = (struct result_io_error){
			.run = (unsigned)run, .job = (unsigned)job, .at_ns = at,
			.err = (int)json_integer_value(e), .offset = off, .len = (uint32_t)len,
			.bytes = (uint32_t)bytes };
	}
	return 0;
}

/* "steady_state": only for a test run in rounds. */
static int load_steady(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	json_t *steady = json_object_get(o, "steady_state"), *win;
	uint64_t max, first, n;
	char w2[64];
	bool ok;

	if (!steady)
		return 0;
	ld_sub(w2, sizeof(w2), w, "steady_state");
	if (!json_is_object(steady))
		return ld_wrong(l, w, "steady_state", "an object");
	if (ld_u64(l, w2, steady, "max_rounds", &max) ||
	    ld_bool(l, w2, steady, "steady", &ok) ||
	    ld_obj(l, w2, steady, "window", true, &win))
		return -EINVAL;
	if (max > REPEAT_MAX)
		return ld_fail(l, -EINVAL, w2, "\"max_rounds\" is %" PRIu64 ", more than %d",
			       max, REPEAT_MAX);
	t->steady_max_rounds = (unsigned)max;
	t->steady = ok;
	if (!win)
		return 0;
	if (ld_u64(l, w2, win, "first", &first) || ld_u64(l, w2, win, "rounds", &n) ||
	    ld_real(l, w2, win, "average_iops", &t->steady_window.average) ||
	    ld_real(l, w2, win, "range", &t->steady_window.range) ||
	    ld_real(l, w2, win, "excursion", &t->steady_window.excursion) ||
	    ld_real(l, w2, win, "slope", &t->steady_window.slope))
		return -EINVAL;
	if (first > REPEAT_MAX || n > REPEAT_MAX)
		return ld_wrong(l, w2, "window", "rounds within max_rounds");
	t->steady_window.first = (unsigned)first;
	t->steady_window.n = (unsigned)n;
	t->steady_window.steady = t->steady;
	return 0;
}

/* "first_error": null, or the first error's errno and offset. */
static int load_first_error(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	json_t *ferr, *v;
	char w2[64];

	if (ld_obj(l, w, o, "first_error", true, &ferr))
		return -EINVAL;
	if (!ferr)
		return 0;
	ld_sub(w2, sizeof(w2), w, "first_error");
	v = ld_member(l, w2, ferr, "errno");
	if (!v)
		return -EINVAL;
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT_MAX)
		return ld_wrong(l, w2, "errno", "a non-negative integer");
	t->first_errno = (int)json_integer_value(v);
	return ld_u64(l, w2, ferr, "offset", &t->first_error_offset);
}

/* "runs", each in pass order, and the first run's timeline unless that run
 * had its own (--repeat). */
static int load_runs(struct ld *l, const char *w, json_t *o, struct test_result *t)
{
	json_t *runs, *v;
	char w2[64];
	size_t i;

	if (ld_arr(l, w, o, "runs", &runs))
		return -EINVAL;
	if (json_array_size(runs) > REPEAT_MAX)
		return ld_fail(l, -EINVAL, w, "more than %d runs", REPEAT_MAX);
	if (json_array_size(runs)) {
		t->runs = calloc(json_array_size(runs), sizeof(*t->runs));
		if (!t->runs)
			return ld_fail(l, -ENOMEM, w, "out of memory");
	}
	json_array_foreach(runs, i, v) {
		snprintf(w2, sizeof(w2), "%s.runs[%zu]", w, i);
		t->nruns = (unsigned)i + 1;	/* result_free frees what it holds */
		if (load_run(l, w2, v, &t->runs[i]))
			return -EINVAL;
	}
	{
		struct timeline *tl = t->nruns ? &t->runs[0].timeline : &t->timeline;

		if (!tl->interval_ns && load_timeline(l, w, o, tl))
			return -EINVAL;
	}
	return 0;
}

int ld_test(struct ld *l, unsigned idx, json_t *o, struct test_result *t)
{
	char w[32], w2[64], msg[256];
	json_t *lat;

	snprintf(w, sizeof(w), "tests[%u]", idx);
	if (!json_is_object(o))
		return ld_fail(l, -EINVAL, w, "not an object");
	/* the flat members (schema.c), then the hand-written ones */
	if (ld_fields(l, w, o, schema_test, t) || ld_obj(l, w, o, "lat_ns", false, &lat))
		return -EINVAL;
	t->lat = malloc(sizeof(*t->lat));
	if (!t->lat)
		return ld_fail(l, -ENOMEM, w, "out of memory");
	if (load_lat(l, ld_sub(w2, sizeof(w2), w, "lat_ns"), lat, t->lat) ||
	    load_given(l, w2, lat, t) || load_steady(l, w, o, t) ||
	    load_first_bad(l, w, o, &t->verify) || load_stalls(l, w, o, t) ||
	    load_slow(l, w, o, t) || load_io_errors(l, w, o, t) ||
	    load_unwritten(l, w, o, &t->unwritten) || load_first_error(l, w, o, t) ||
	    load_runs(l, w, o, t))
		return -EINVAL;

	/*
	 * The shown figures come from the raw ones by the run's own code. One
	 * run: as the runner finished it, with its CPU figures (the runs keep
	 * them in full, "cpu" only to 3 decimals). Several: repeat_finish
	 * merges them again (medians, CPU from the summed time). Either way
	 * repeat_finish gives the summary from the runs.
	 */
	if (t->nruns == 1) {
		t->cpu_user_pct = t->runs[0].cpu_user_pct;
		t->cpu_sys_pct = t->runs[0].cpu_sys_pct;
		t->usec_per_op = t->runs[0].usec_per_op;
		t->cpu_wait_valid = t->cpu_wait_valid && t->runs[0].cpu_wait_valid;
		t->cpu_wait_pct = t->runs[0].cpu_wait_pct;
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
		return ld_fail(l, -EINVAL, w2, "%s", msg);
	/* Derived: from here on the histogram is kept as its buckets (a
	 * struct hist is 30 KB, most of a test's memory). */
	t->lat_sparse = hist_sparse_of(t->lat);
	if (!t->lat_sparse)
		return ld_fail(l, -ENOMEM, w, "out of memory");
	free(t->lat);
	t->lat = NULL;
	return 0;
}
