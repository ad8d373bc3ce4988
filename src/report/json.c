/* json.c - the "diskbench/1" JSON document of a run (DESIGN.md section 4). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json_writer.h"
#include "report.h"
#include "schema.h"

static void json_fields(struct jw *w, const struct sfield *f, const void *obj,
			const void *ctx);

/* ---- the document --------------------------------------------------------- */

/*
 * Settings are stored as strings; a plain decimal integer is emitted as a
 * JSON number so consumers can compare it. Only up to 15 digits: anything
 * longer might not survive a parser that reads numbers as doubles (jq,
 * JavaScript), and a 64-bit seed must come back exact, so it stays a string.
 * No leading zeros ("0755" is not a JSON number, and not meant as 755).
 */
static bool plain_integer(const char *s, size_t n)
{
	size_t i = 0, digits;

	n = strnlen(s, n);
	if (i < n && s[i] == '-')
		i++;
	digits = n - i;
	if (digits == 0 || digits > 15 || (s[i] == '0' && digits > 1))
		return false;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static void json_settings(struct jw *w, const struct run_result *r)
{
	const struct setting *s;
	unsigned i;

	jw_open(w, "settings", '{', false);
	for (i = 0; i < r->nsettings && i < RESULT_MAX_SETTINGS; i++) {
		s = &r->settings[i];
		jw_key(w, NULL);
		jw_string(w, s->key, sizeof(s->key));
		jw_put(w, ": ");
		if (plain_integer(s->value, sizeof(s->value)))
			jw_put(w, s->value);
		else
			jw_string(w, s->value, sizeof(s->value));
	}
	jw_close(w, '}');
}

/* A bool where -1 means unknown. */
static void jw_tristate(struct jw *w, const char *key, int v)
{
	if (v < 0)
		jw_null(w, key);
	else
		jw_bool(w, key, v != 0);
}

/* An array of the items of the list s (at most n bytes): split at sep, each
 * item without surrounding blanks, empty ones dropped. */
static void jw_list(struct jw *w, const char *key, const char *s, size_t n, int sep)
{
	size_t i = 0, start, end;

	n = strnlen(s, n);
	jw_open(w, key, '[', true);
	while (i < n) {
		start = i;
		while (i < n && s[i] != sep)
			i++;
		end = i++;
		while (start < end && (s[start] == ' ' || s[start] == '\t'))
			start++;
		while (end > start && (s[end - 1] == ' ' || s[end - 1] == '\t'))
			end--;
		if (end > start)
			jw_str(w, NULL, s + start, end - start);
	}
	jw_close(w, ']');
}

/* v in decimal, in buf (at least 40 bytes: 2^128 has 39 digits). */
static const char *u128_str(unsigned __int128 v, char *buf, size_t len)
{
	char *p = buf + len;

	*--p = '\0';
	do {
		*--p = (char)('0' + (unsigned)(v % 10));
		v /= 10;
	} while (v && p > buf);
	return p;
}

/* One [bucket_low_ns, count] pair of "histogram". */
static void json_bucket(struct jw *w, unsigned idx, uint64_t count)
{
	jw_open(w, NULL, '[', true);
	jw_u64(w, NULL, hist_bucket_low(idx));
	jw_u64(w, NULL, count);
	jw_close(w, ']');
}

static void json_latency(struct jw *w, const struct test_result *t)
{
	const struct hist_sparse *sp = t->lat_sparse;
	const struct lat_summary *ls = &t->lat_sum;
	char b[48];
	unsigned i;

	/* Ops with no latency: another tool's result that gave none
	 * (import.h; a run times every op). Missing, never 0. */
	bool none = t->ops && !(t->lat ? t->lat->n : sp ? sp->n : 0) && !t->lat_pct_given;

	jw_open(w, "lat_ns", '{', false);
	if (none) {
		jw_null(w, "min");
		jw_null(w, "mean");
		jw_null(w, "stdev");
		if (t->lat_max_given)	/* bonnie++'s: the maximum alone */
			jw_u64(w, "max", ls->max);
		else
			jw_null(w, "max");
	} else {
		jw_u64(w, "min", ls->min);
		jw_fixed(w, "mean", ls->mean, 1);
		jw_fixed(w, "stdev", ls->stdev, 1);
		jw_u64(w, "max", ls->max);
	}
	/* The histogram's exact moments, so a saved result can be read back
	 * (diskbench report) with the same mean and stdev to the last digit.
	 * The sum of squares may need more than 64 bits: a decimal string. */
	jw_u64(w, "sum", t->lat ? t->lat->sum : sp ? sp->sum : 0);
	jw_key(w, "sumsq");
	jw_putc(w, '"');
	jw_put(w, u128_str(t->lat ? t->lat->sumsq : sp ? sp->sumsq : 0, b, sizeof(b)));
	jw_putc(w, '"');
	jw_open(w, "percentiles", '{', false);
	for (i = 0; i < RESULT_NPCT; i++)
		if (none || (t->lat_pct_given && !(t->lat_pct_given & (1u << i))))
			jw_null(w, result_pct_keys[i]);
		else
			jw_u64(w, result_pct_keys[i], ls->pct[i]);
	jw_close(w, '}');
	jw_open(w, "histogram", '[', false);
	for (i = 0; t->lat && i < HIST_NBUCKETS; i++)
		if (t->lat->count[i])
			json_bucket(w, i, t->lat->count[i]);
	/* a loaded result's (result_load) */
	for (i = 0; !t->lat && sp && i < sp->nb; i++)
		json_bucket(w, sp->b[i].idx, sp->b[i].count);
	jw_close(w, ']');
	jw_close(w, '}');
}

/* "xbench": null, or the scores with their baseline (rates in bytes/s). */
static void json_xbench(struct jw *w, const struct xbench_scores *x)
{
	if (!x->valid) {
		jw_null(w, "xbench");
		return;
	}
	jw_open(w, "xbench", '{', false);
	jw_cstr(w, "baseline", x->source);
	jw_open(w, "tests", '[', false);
	for (unsigned i = 0; i < x->n; i++) {
		jw_open(w, NULL, '{', false);
		jw_cstr(w, "name", x->tests[i].name);
		jw_fixed(w, "bytes_per_sec", x->tests[i].measured, 3);
		jw_fixed(w, "baseline_bytes_per_sec", x->tests[i].baseline, 3);
		jw_fixed(w, "score", x->tests[i].score, 2);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_fixed(w, "sequential", x->sequential, 2);
	jw_fixed(w, "random", x->random, 2);
	jw_fixed(w, "total", x->total, 2);
	jw_close(w, '}');
}

static void json_stat(struct jw *w, const char *key, const struct run_stat *st)
{
	jw_open(w, key, '{', true);
	jw_double(w, "median", st->median);
	jw_double(w, "mean", st->mean);
	jw_double(w, "stdev", st->stdev);
	jw_double(w, "cv", st->cv);
	jw_double(w, "min", st->min);
	jw_double(w, "max", st->max);
	jw_close(w, '}');
}

/* "timeline": a run's points, each a row of the "columns" (timeline.h
 * says what each figure is); null when the run has none (saved before). */
static void json_timeline(struct jw *w, const struct timeline *tl)
{
	unsigned i, c;

	if (!tl->interval_ns) {
		jw_null(w, "timeline");
		return;
	}
	jw_open(w, "timeline", '{', false);
	jw_u64(w, "interval_ns", tl->interval_ns);
	jw_u64(w, "merges", tl->merges);
	jw_open(w, "columns", '[', true);
	for (c = 0; c < TIMELINE_NCOLUMNS; c++)
		jw_cstr(w, NULL, timeline_columns[c]);
	jw_close(w, ']');
	jw_open(w, "points", '[', false);
	for (i = 0; i < tl->n; i++) {
		const char *p = (const char *)&tl->p[i];

		jw_open(w, NULL, '[', true);
		for (c = 0; c < TIMELINE_NCOLUMNS; c++)
			jw_u64(w, NULL, *(const uint64_t *)(p + timeline_column_offsets[c]));
		jw_close(w, ']');
	}
	jw_close(w, ']');
	jw_close(w, '}');
}

/* "runs": every run in pass order (one without --repeat), each with its
 * timeline when there are several; "summary": the spread of the main
 * figures over them ({} when there are no runs). */
static void json_runs(struct jw *w, const struct test_result *t)
{
	const struct repeat_summary *s = &t->summary;

	jw_open(w, "runs", '[', false);
	for (unsigned i = 0; i < t->nruns; i++) {
		jw_open(w, NULL, '{', false);
		json_fields(w, schema_test_run, &t->runs[i], t);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_open(w, "summary", '{', false);
	if (t->nruns) {
		jw_u64(w, "runs", t->nruns);
		json_stat(w, "iops", &s->iops);
		json_stat(w, "bytes_per_sec", &s->bytes_per_sec);
		json_stat(w, "lat_p50_ns", &s->lat_p50_ns);
		json_stat(w, "lat_p99_ns", &s->lat_p99_ns);
		json_stat(w, "cpu_usec_per_op", &s->usec_per_op);
	}
	jw_close(w, '}');
}

/* A coordinated run's test: each rank's share ("ranks", index = rank;
 * start_ns/end_ns on its host's CLOCK_MONOTONIC) and the "imbalance". */
static void json_test_ranks(struct jw *w, const struct test_result *t)
{
	const struct rank_imbalance *im = &t->imbalance;

	jw_open(w, "ranks", '[', false);
	for (unsigned i = 0; i < t->nranks; i++) {
		const struct rank_test *rt = &t->ranks[i];

		jw_open(w, NULL, '{', true);
		jw_u64(w, "rank", i);
		jw_u64(w, "ops", rt->ops);
		jw_u64(w, "bytes", rt->bytes);
		jw_u64(w, "runtime_ns", rt->runtime_ns);
		jw_fixed(w, "bytes_per_sec", rt->bytes_per_sec, 3);
		jw_u64(w, "errors", rt->errors);
		jw_u64(w, "start_ns", rt->start_ns);
		jw_u64(w, "end_ns", rt->end_ns);
		jw_open(w, "lat_ns", '{', true);
		jw_u64(w, "n", rt->lat_n);
		jw_u64(w, "min", rt->lat_min);
		jw_u64(w, "max", rt->lat_max);
		jw_u64(w, "sum", rt->lat_sum);
		jw_close(w, '}');
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_open(w, "imbalance", '{', false);
	jw_cstr(w, "by", im->by_ops ? "iops" : "bytes_per_sec");
	jw_u64(w, "slowest_rank", im->slowest);
	jw_fixed(w, "slowest", im->slowest_rate, 3);
	jw_u64(w, "fastest_rank", im->fastest);
	jw_fixed(w, "fastest", im->fastest_rate, 3);
	jw_fixed(w, "spread", im->spread, 4);
	jw_close(w, '}');
}

/* "mpi": who ran a coordinated run; absent for a single process. */
static void json_mpi(struct jw *w, const struct result_ranks *rr)
{
	jw_open(w, "mpi", '{', false);
	jw_u64(w, "ranks", rr->n);
	jw_open(w, "hosts", '[', true);
	for (unsigned i = 0; i < rr->n; i++)
		if (result_rank_first_of_host(rr, i))
			jw_field(w, NULL, rr->info[i].hostname);
	jw_close(w, ']');
	jw_bool(w, "kernels_differ", rr->kernels_differ);
	jw_bool(w, "versions_differ", rr->versions_differ);
	jw_open(w, "rank_info", '[', false);
	for (unsigned i = 0; i < rr->n; i++) {
		jw_open(w, NULL, '{', true);
		json_fields(w, schema_rank_info, &rr->info[i], NULL);
		jw_close(w, '}');
	}
	jw_close(w, ']');
	jw_close(w, '}');
}

/* One member of "stalls" or "slow_requests": its run, the rank of a
 * coordinated run's job (with_rank), its job, for how many seconds, when
 * it began and its last request's offset (null: not known). */
static void json_stall(struct jw *w, const struct result_stall *st, bool with_rank)
{
	jw_open(w, NULL, '{', true);
	jw_u64(w, "run", st->run);
	if (with_rank)
		jw_u64(w, "rank", st->rank);
	jw_u64(w, "job", st->job);
	jw_fixed(w, "seconds", (double)st->ns / 1e9, 3);
	jw_u64(w, "start_ns", st->start_ns);
	if (st->offset_valid)
		jw_u64(w, "offset", st->offset);
	else
		jw_null(w, "offset");
	jw_close(w, '}');
}

/* "io_timeout_ns" and "slow_requests": the jobs that had a request in
 * flight that long (each with its run, job, when its last completion was,
 * for how many seconds nothing completed, its last request's offset), and
 * "stuck": a request never completed and the test was ended (its request
 * is in "io_errors" as ETIMEDOUT), with, for a file test whose job said
 * which call it was in, "stuck_call": {"call", "path"}. Absent from a
 * result that never watched. */
static void json_slow(struct jw *w, const struct test_result *t)
{
	if (!t->io_timeout_ns)
		return;
	jw_u64(w, "io_timeout_ns", t->io_timeout_ns);
	jw_open(w, "slow_requests", '[', false);
	for (unsigned k = 0; k < t->nslow; k++)
		json_stall(w, &t->slow[k], false);
	jw_close(w, ']');
	jw_u64(w, "slow_requests_missed", t->slow_missed);
	jw_bool(w, "stuck", t->stuck);
	if (!t->stuck || !t->stuck_call.call[0])
		return;
	jw_open(w, "stuck_call", '{', false);
	jw_field(w, "call", t->stuck_call.call);
	jw_field(w, "path", t->stuck_call.path);
	jw_close(w, '}');
}

/* "window": how runtime_ns was taken (runner.c's merge: span_ns is the
 * longest job window with its stalls), and "stalls":
 * the jobs that stood still while the others went on, each with its run,
 * when it began (ns from that run's first window's opening), for how many
 * seconds, and its last request's offset (null: not known). Neither for a
 * result that never watched (saved before, made by hand). */
static void json_window(struct jw *w, const struct test_result *t)
{
	if (!t->stall_bound_ns)
		return;
	jw_open(w, "window", '{', true);
	jw_cstr(w, "method", t->window_span_ns > t->runtime_ns ?
		"longest job window less its stalls" : "longest job window");
	jw_u64(w, "span_ns", t->window_span_ns);
	jw_u64(w, "stall_bound_ns", t->stall_bound_ns);
	jw_close(w, '}');
	jw_open(w, "stalls", '[', false);
	for (unsigned k = 0; k < t->nstalls; k++)
		json_stall(w, &t->stalls[k], t->nranks > 0);
	jw_close(w, ']');
	jw_u64(w, "stalls_missed", t->stalls_missed);
	json_slow(w, t);
}

/* "unwritten": did a read test read space never written (unwritten.h);
 * absent for a test that reads no data. share and interval are the
 * sample's (Wilson 95 %), layout_share the region's allocation (null when
 * it could not be read). */
static void json_unwritten(struct jw *w, const struct unwritten *u)
{
	jw_open(w, "unwritten", '{', false);
	jw_bool(w, "checked", u->checked);
	jw_cstr(w, "method", !u->checked ? (u->layout_valid ? "seek_hole" : "none") :
		u->layout_valid ? "seek_hole+sample" : "sample");
	if (u->checked) {
		jw_fixed(w, "share", u->share, 4);
		jw_open(w, "interval", '[', true);
		jw_fixed(w, NULL, u->lo, 4);
		jw_fixed(w, NULL, u->hi, 4);
		jw_close(w, ']');
		jw_u64(w, "sampled_blocks", u->sampled);
		jw_u64(w, "blank_blocks", u->blank);
		jw_u64(w, "block_bytes", u->block_bytes);
	} else {
		jw_field(w, "reason", u->why);
	}
	jw_u64(w, "region_bytes", u->region_bytes);
	if (u->layout_valid)
		jw_fixed(w, "layout_share", u->layout_share, 6);
	else
		jw_null(w, "layout_share");
	jw_bool(w, "flagged", u->flagged);
	jw_close(w, '}');
}

/* "steady_state" (--steady-state): the rounds are the runs, the figures
 * the window's. */
static void json_steady(struct jw *w, const struct test_result *t)
{
	const struct steady_window *sw = &t->steady_window;

	if (!t->steady_max_rounds)
		return;
	jw_open(w, "steady_state", '{', false);
	jw_u64(w, "max_rounds", t->steady_max_rounds);
	jw_u64(w, "rounds", t->nruns);
	jw_bool(w, "steady", t->steady);
	if (sw->n) {
		jw_open(w, "window", '{', true);
		jw_u64(w, "first", sw->first);
		jw_u64(w, "rounds", sw->n);
		jw_double(w, "average_iops", sw->average);
		jw_double(w, "range", sw->range);
		jw_double(w, "excursion", sw->excursion);
		jw_double(w, "slope", sw->slope);
		jw_close(w, '}');
	} else {
		jw_null(w, "window");
	}
	jw_close(w, '}');
}

/* "first_bad" of "verify": the lowest offset that did not match */
static void json_first_bad(struct jw *w, const struct verify_sum *v)
{
	if (!v->bad) {
		jw_null(w, "first_bad");
		return;
	}
	jw_open(w, "first_bad", '{', true);
	jw_u64(w, "offset", v->first.offset);
	jw_cstr(w, "field", verify_field_name(v->first.field));
	jw_u64(w, "expected", v->first.expected);
	jw_u64(w, "found", v->first.found);
	if (v->read_errno)
		jw_i64(w, "errno", v->read_errno);
	jw_close(w, '}');
}

static void json_first_error(struct jw *w, const struct test_result *t)
{
	if (!t->errors) {
		jw_null(w, "first_error");
		return;
	}
	jw_open(w, "first_error", '{', false);
	jw_i64(w, "errno", t->first_errno);
	/* errno 0 with errors: the op completed short, no error code */
	jw_cstr(w, "message", t->first_errno ? strerror(t->first_errno) : "short transfer");
	jw_u64(w, "offset", t->first_error_offset);
	jw_close(w, '}');
}

/* "io_errors": the first few failed or short requests (the count of all
 * is "errors"), each with its run, job, when (ns from that run's first
 * window's opening), errno (0: it completed short, "bytes" of "len"),
 * offset and length. Absent from a result saved before. */
static void json_io_errors(struct jw *w, const struct test_result *t)
{
	jw_open(w, "io_errors", '[', false);
	for (unsigned k = 0; k < t->nio_errors; k++) {
		const struct result_io_error *e = &t->io_errors[k];

		jw_open(w, NULL, '{', true);
		jw_u64(w, "run", e->run);
		jw_u64(w, "job", e->job);
		jw_u64(w, "at_ns", e->at_ns);
		jw_i64(w, "errno", e->err);
		jw_cstr(w, "message", e->err ? strerror(e->err) : "short transfer");
		jw_u64(w, "offset", e->offset);
		jw_u64(w, "len", e->len);
		jw_u64(w, "bytes", e->bytes);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

static void json_target_flags(struct jw *w, const struct target_info *t)
{
	jw_open(w, "flags", '[', false);
	for (unsigned f = 0; f < TARGET_NFLAGS; f++) {
		char why[512];

		if (!target_flag(t, f, why, sizeof(why)))
			continue;
		jw_open(w, NULL, '{', true);
		jw_cstr(w, "name", target_flag_name(f));
		jw_cstr(w, "reason", why);
		jw_close(w, '}');
	}
	jw_close(w, ']');
}

/* The hand-written members of a run's document (schema.h: SF_HAND). */
static void json_hand_run(struct jw *w, enum schema_hand h, const struct run_result *r)
{
	unsigned i;

	switch (h) {
	case SH_SCHEMA:
		jw_cstr(w, "schema", "diskbench/1");
		break;
	case SH_TOOL:
		jw_open(w, "tool", '{', false);
		jw_cstr(w, "name", "diskbench");
		jw_cstr(w, "version", r->tool_version);
		jw_close(w, '}');
		break;
	case SH_SETTINGS:
		json_settings(w, r);
		break;
	case SH_MPI:
		if (r->ranks)
			json_mpi(w, r->ranks);
		break;
	case SH_TESTS:
		jw_open(w, "tests", '[', false);
		for (i = 0; i < r->ntests; i++) {
			jw_open(w, NULL, '{', false);
			json_fields(w, schema_test, &r->tests[i], &r->target);
			jw_close(w, '}');
		}
		jw_close(w, ']');
		break;
	case SH_XBENCH:
		json_xbench(w, &r->xbench);
		break;
	case SH_WARNINGS:
		jw_open(w, "warnings", '[', false);
		for (i = 0; i < r->nwarnings; i++)
			jw_cstr(w, NULL, r->warnings[i]);
		jw_close(w, ']');
		break;
	default:
		break;
	}
}

/* A test's hand-written members; ti is its run's target. */
static void json_hand_test(struct jw *w, enum schema_hand h, const struct test_result *t,
			   const struct target_info *ti)
{
	switch (h) {
	case SH_TEST_WINDOW:
		json_window(w, t);
		break;
	case SH_TEST_LAT:
		json_latency(w, t);
		break;
	case SH_TEST_FLAGS:
		jw_open(w, "flags", '[', true);
		for (unsigned f = 0; f < TARGET_NFLAGS; f++)
			if (result_test_flag(ti, t, f))
				jw_cstr(w, NULL, target_flag_name(f));
		jw_close(w, ']');
		break;
	case SH_TEST_STEADY:
		json_steady(w, t);
		break;
	case SH_TEST_UNWRITTEN:
		if (t->unwritten.applies)
			json_unwritten(w, &t->unwritten);
		break;
	case SH_TEST_FIRST_ERROR:
		json_first_error(w, t);
		json_io_errors(w, t);
		break;
	case SH_TEST_RUNS:
		json_runs(w, t);
		break;
	case SH_TEST_RANKS:
		if (t->nranks && t->ranks)
			json_test_ranks(w, t);
		break;
	case SH_TEST_TIMELINE:
		json_timeline(w, t->nruns && t->runs ? &t->runs[0].timeline : &t->timeline);
		break;
	default:
		break;
	}
}

/* Every SF_HAND row: obj is the struct of its table, ctx what json_fields got. */
static void json_hand(struct jw *w, const struct sfield *f, const void *obj, const void *ctx)
{
	const struct target_info *ti = obj;
	const struct read_layout *l = obj;
	const struct test_run *run = obj;
	const struct test_result *t = ctx;

	switch (f->hand) {
	case SH_TARGET_DEVICES:
		jw_list(w, "devices", ti->members[0] ? ti->members : ti->device,
			ti->members[0] ? sizeof(ti->members) : sizeof(ti->device), ' ');
		break;
	case SH_TARGET_FLAGS:
		json_target_flags(w, ti);
		break;
	case SH_LAYOUT_REASON:
		if (!l->checked)
			jw_field(w, "reason", l->why);
		break;
	case SH_RUN_TIMELINE:
		if (t->nruns > 1) {
			json_timeline(w, &run->timeline);
			jw_fixed(w, "timeline_drift", run->drift_valid ? run->drift : NAN, 4);
		}
		break;
	case SH_VERIFY_FIRST_BAD:
		json_first_bad(w, obj);
		break;
	default:
		if (f->hand >= SH_TEST_WINDOW)
			json_hand_test(w, f->hand, obj, ctx);
		else
			json_hand_run(w, f->hand, obj);
		break;
	}
}

/* The value of an SF_NAME member of size bytes. */
static unsigned name_value(const void *p, size_t size)
{
	return size == 1 ? *(const unsigned char *)p : *(const unsigned *)p;
}

/* One row's value, there to be written (json_fields). */
static void json_value(struct jw *w, const struct sfield *f, const void *p, const void *ctx)
{
	unsigned v;

	switch (f->type) {
	case SF_STR:
		if (!(f->flags & SF_OMIT_EMPTY) || *(const char *)p)
			jw_str(w, f->key, p, f->size);
		break;
	case SF_CSTR:
		jw_cstr(w, f->key, *(const char *const *)p);
		break;
	case SF_U64:
		jw_u64(w, f->key, *(const uint64_t *)p);
		break;
	case SF_U32:
		jw_u64(w, f->key, *(const uint32_t *)p);
		break;
	case SF_BOOL:
		jw_bool(w, f->key, *(const bool *)p);
		break;
	case SF_TRI:
		jw_tristate(w, f->key, *(const int *)p);
		break;
	case SF_INT:
		jw_int_or_null(w, f->key, *(const int *)p);
		break;
	case SF_I64:
		if (*(const int64_t *)p < 0)
			jw_null(w, f->key);
		else
			jw_u64(w, f->key, (uint64_t)*(const int64_t *)p);
		break;
	case SF_FIXED:
		jw_fixed(w, f->key, *(const double *)p, f->decimals);
		break;
	case SF_DOUBLE:
		jw_double(w, f->key, *(const double *)p);
		break;
	case SF_LIST:
		jw_list(w, f->key, p, f->size, f->sep);
		break;
	case SF_NAME:
		v = name_value(p, f->size);
		jw_cstr(w, f->key, v < f->nnames ? f->names[v] : NULL);
		break;
	case SF_OBJECT:
		jw_open(w, f->key, '{', f->flags & SF_INLINE);
		json_fields(w, f->sub, p, ctx);
		jw_close(w, '}');
		break;
	default:
		break;
	}
}

/* The members of obj that the table f describes, in its order (schema.h). */
static void json_fields(struct jw *w, const struct sfield *f, const void *obj, const void *ctx)
{
	for (; f->type != SF_END; f++) {
		const char *p = (const char *)obj + f->off;
		bool there = !(f->flags & SF_VALID) || *(const bool *)((const char *)obj + f->valid);

		if (there && f->null_if && f->null_if(obj))
			there = false;
		if (f->type == SF_HAND)
			json_hand(w, f, obj, ctx);
		else if (there)
			json_value(w, f, p, ctx);
		else if (!(f->flags & SF_OMIT))
			jw_null(w, f->key);
	}
}

void report_json_host(struct jw *w, const struct host_info *h)
{
	jw_open(w, "host", '{', false);
	json_fields(w, schema_host, h, NULL);
	jw_close(w, '}');
}

void report_json_target(struct jw *w, const struct target_info *t)
{
	jw_open(w, "target", '{', false);
	json_fields(w, schema_target, t, NULL);
	jw_close(w, '}');
}

int report_json(FILE *f, const struct run_result *r)
{
	struct jw w = { .f = f };

	jw_open(&w, NULL, '{', false);
	json_fields(&w, schema_run, r, NULL);
	jw_close(&w, '}');
	jw_putc(&w, '\n');
	return jw_finish(&w);
}
