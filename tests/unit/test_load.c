/* test_load.c - a result saved as JSON and loaded back renders the same. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "annotate.h"
#include "load.h"
#include "repeat.h"
#include "report.h"

static char path[64];

/* A render of r as one malloc'd string. */
static char *render(int (*fn)(FILE *, const struct run_result *), const struct run_result *r)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(fn(f, r), 0);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void save(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fputs(text, f) >= 0, 1);
	assert_int_equal(fclose(f), 0);
}

/* A timeline of 5 + seed points holding t's ops and bytes: flat, but for
 * seed 7 the second half of the points gets half as many ops. */
static void add_timeline(struct test_result *t, unsigned seed)
{
	struct timeline *tl = &t->timeline;
	unsigned n = 5 + seed;
	uint64_t left = t->ops, per = t->ops / n;

	tl->interval_ns = 100000000ull * seed;
	tl->merges = seed % 2;
	tl->n = n;
	tl->p = calloc(n, sizeof(*tl->p));
	assert_non_null(tl->p);
	for (unsigned i = 0; i < n; i++) {
		struct timeline_point *p = &tl->p[i];

		p->t_ns = (i + 1) * tl->interval_ns - (i ? 0 : 1234);
		p->ops = i + 1 < n ? (seed == 7 && i >= n / 2 ? per / 2 : per) : left;
		left -= p->ops;
		p->bytes = p->ops * t->bs;
		p->lat_p50_ns = 1000 + i;
		p->lat_p99_ns = 5000 + 7 * i;
		p->lat_max_ns = 90000 + 11 * i * seed;
	}
}

static void assert_timeline_equal(const struct timeline *a, const struct timeline *b)
{
	assert_int_equal(a->interval_ns, b->interval_ns);
	assert_int_equal(a->merges, b->merges);
	assert_int_equal(a->n, b->n);
	if (a->n)
		assert_memory_equal(a->p, b->p, a->n * sizeof(*a->p));
}

/* One run of a test: n latencies spread over the histogram's range, some
 * large enough that their squares sum past 64 bits; and a timeline. */
static void one_run(struct test_result *t, const char *workload, unsigned seed, uint64_t n)
{
	uint64_t x = seed * 2654435761u + 1, v;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s 4k", workload);
	t->workload = workload;
	t->engine = "sync";
	t->bs = 4096;
	t->qd = 1;
	t->jobs = 1;
	t->runtime_ns = 1000000007ull + seed;
	t->ops = n;
	t->bytes = n * 4096;
	t->lat = malloc(sizeof(*t->lat));
	assert_non_null(t->lat);
	hist_init(t->lat);
	for (uint64_t i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		v = (x % 1000) < 3 ? 5000000000ull + x % 999983 : 50 + x % 3000000;
		hist_add(t->lat, v);
	}
	t->cpu_user_pct = 1.0 / 3 + seed;
	t->cpu_sys_pct = 2.0 / 7;
	t->usec_per_op = 1.0 / 9;
	t->cpu_job_max_pct = 12.5 + seed;
	t->syscalls_valid = true;
	t->syscalls = n * 3 / 2 + seed;
	t->dev_valid = true;
	t->dev_read_bytes = t->bytes / 3;
	result_finish(t);
	add_timeline(t, seed);
}

static void build(struct run_result *r)
{
	struct test_result acc, run;

	memset(r, 0, sizeof(*r));
	r->tool_version = "9.9";
	snprintf(r->started_at, sizeof(r->started_at), "2026-01-02T03:04:05Z");
	snprintf(r->label, sizeof(r->label), "a \"label\"\twith, comma");
	snprintf(r->host.hostname, sizeof(r->host.hostname), "box");
	r->host.cpus = 2;
	snprintf(r->target.path, sizeof(r->target.path), "/srv/x");
	r->target.kind = TARGET_DIR;
	r->target.rotational = -1;
	r->target.read_ahead_kb = 128;
	r->target.nr_requests = -1;
	r->target.max_sectors_kb = -1;
	r->target.write_cache = 1;
	r->target.discard = -1;
	snprintf(r->target.schedulers, sizeof(r->target.schedulers), "none mq-deadline");
	snprintf(r->target.stack, sizeof(r->target.stack), "dm-crypt, LVM");
	r->target.logical_block_size = 512;
	r->target.physical_block_size = 4096;
	result_add_setting(r, "seed", "18446744073709551615");
	result_add_setting(r, "size", "1073741824");
	result_add_setting(r, "direct", "true");

	/* Three runs merged, as --repeat 3 does (and result_annotate). */
	memset(&acc, 0, sizeof(acc));
	for (unsigned i = 0; i < 3; i++) {
		one_run(&run, "rand-read", i + 1, 20000 + 1000 * i);
		/* two jobs, watched for stalls; run 2 had two, one of them
		 * where its offset was not known */
		run.jobs = 2;
		run.stall_bound_ns = 1000000000;
		run.window_span_ns = run.runtime_ns;
		if (i == 1) {
			run.window_span_ns += 4000000000ull;
			run.stalls[0] = (struct result_stall){ .job = 1, .start_ns = 800000001,
							      .ns = 4000000000ull,
							      .offset_valid = true,
							      .offset = 8192 };
			run.stalls[1] = (struct result_stall){ .job = 0, .start_ns = 5,
							      .ns = 1250000000 };
			run.nstalls = 2;
		}
		assert_int_equal(repeat_add(&acc, &run), 0);
	}
	repeat_finish(&acc);
	result_drift(&acc);
	assert_int_equal(result_add_test(r, &acc), 0);

	/* One run of a metadata test, with an error. */
	memset(&acc, 0, sizeof(acc));
	one_run(&run, "meta-create", 7, 333);
	run.params = (struct wl_params){ .nfiles = 2048, .file_max = 1000, .ndirs = 4 };
	run.errors = 2;
	run.syscalls_valid = false;	/* a workload that does not count */
	run.first_errno = EIO;
	run.first_error_offset = 4096;
	assert_int_equal(repeat_add(&acc, &run), 0);
	repeat_finish(&acc);
	result_drift(&acc);
	assert_int_equal(result_add_test(r, &acc), 0);

	r->xbench.valid = true;
	snprintf(r->xbench.source, sizeof(r->xbench.source), "somewhere");
	r->xbench.tests[0] = (struct xbench_score){ "Random Uncached Read 4k", 1.5e7 / 7,
						    1e6 / 3, 642.857142857, false };
	r->xbench.n = 1;
	r->xbench.random = r->xbench.total = 642.857142857;
	result_add_warning(r, "something odd");
	/* as result_annotate would, what renderers read (annotate.h) */
	for (unsigned i = 0; i < r->ntests; i++)
		result_test_flags(&r->tests[i]);
}

static void test_round_trip(void **state)
{
	int (*fns[])(FILE *, const struct run_result *) = {
		report_json, report_text, report_csv, report_bonnie_csv,
	};
	struct run_result a, b;
	char err[256], *x, *y;
	unsigned i;

	(void)state;
	build(&a);
	assert_true(a.tests[0].lat->sumsq > UINT64_MAX);
	x = render(report_json, &a);
	save(x);
	free(x);
	if (result_load(path, &b, err, sizeof(err)))
		fail_msg("%s", err);
	for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		x = render(fns[i], &a);
		y = render(fns[i], &b);
		assert_string_equal(x, y);
		free(x);
		free(y);
	}
	/* the stalls, with their run */
	assert_int_equal(b.tests[0].nstalls, 2);
	for (i = 0; i < 2; i++) {
		const struct result_stall *sa = &a.tests[0].stalls[i], *sb = &b.tests[0].stalls[i];

		assert_int_equal(sb->run, 1);
		assert_int_equal(sb->job, sa->job);
		assert_true(sb->start_ns == sa->start_ns && sb->ns == sa->ns);
		assert_int_equal(sb->offset_valid, sa->offset_valid);
		assert_true(sb->offset == sa->offset);
	}
	assert_true(b.tests[0].window_span_ns == a.tests[0].window_span_ns);
	assert_true(b.tests[0].stall_bound_ns == 1000000000);
	assert_int_equal(b.tests[1].nstalls, 0);
	/* kept as its buckets, which expand to the histogram that was saved */
	assert_null(b.tests[0].lat);
	assert_non_null(b.tests[0].lat_sparse);
	assert_int_equal(b.tests[0].lat_sparse->sumsq == a.tests[0].lat->sumsq, 1);
	{
		struct hist *h = malloc(sizeof(*h));

		assert_non_null(h);
		hist_sparse_expand(b.tests[1].lat_sparse, h);
		assert_memory_equal(h, a.tests[1].lat, sizeof(*h));
		free(h);
	}
	assert_int_equal(b.tests[1].params.nfiles, 2048);
	/* the tool's own cost: summed over the runs, or not counted */
	assert_true(b.tests[0].syscalls_valid);
	assert_int_equal(b.tests[0].syscalls, a.tests[0].syscalls);
	assert_int_equal(a.tests[0].syscalls, (20000 + 21000 + 22000) * 3 / 2 + 1 + 2 + 3);
	assert_true(b.tests[0].syscalls_per_op == a.tests[0].syscalls_per_op);
	assert_true(b.tests[0].cpu_job_max_pct == 12.5 + 3);
	assert_false(b.tests[1].syscalls_valid);
	/* the drift, from the loaded timelines: flat runs, and one that fell
	 * by half */
	for (i = 0; i < 3; i++) {
		assert_true(b.tests[0].runs[i].drift_valid);
		assert_true(fabs(b.tests[0].runs[i].drift) < 0.01);
	}
	assert_true(b.tests[0].drift_valid);
	assert_false(b.tests[0].drifted);
	assert_true(b.tests[1].drifted);
	/* 27 ops per interval, then 13 */
	assert_true(fabs(b.tests[1].drift - (13.0 / 27 - 1)) < 1e-4);
	/* (a drift is a warning, made when the run is annotated, not a note) */
	/* every run's timeline: the --repeat runs' own, the single run's from
	 * the test's "timeline" */
	for (unsigned k = 0; k < a.ntests; k++) {
		assert_int_equal(a.tests[k].nruns, b.tests[k].nruns);
		for (i = 0; i < a.tests[k].nruns; i++) {
			assert_true(a.tests[k].runs[i].timeline.n > 0);
			assert_timeline_equal(&a.tests[k].runs[i].timeline,
					      &b.tests[k].runs[i].timeline);
		}
	}
	result_free(&a);
	result_free(&b);
}

/* The rendered document of build(), parsed, for editing. */
static json_t *parsed(void)
{
	struct run_result a;
	json_error_t jerr;
	json_t *root;
	char *x;

	build(&a);
	x = render(report_json, &a);
	result_free(&a);
	root = json_loads(x, 0, &jerr);
	free(x);
	assert_non_null(root);
	return root;
}

static void save_json(json_t *root)
{
	assert_int_equal(json_dump_file(root, path, 0), 0);
	json_decref(root);
}

static json_t *timeline_of(json_t *root, size_t test, int run)
{
	json_t *t = json_array_get(json_object_get(root, "tests"), test);

	if (run >= 0)
		t = json_array_get(json_object_get(t, "runs"), (size_t)run);
	return json_object_get(t, "timeline");
}

/* A later version may add columns, in any order: the points are found by
 * their names. A document without timelines (or with null) has none. */
static void test_timeline_columns(void **state)
{
	struct run_result a, b;
	json_t *root, *tl, *cols, *row;
	char err[256];
	size_t i;

	(void)state;
	build(&a);
	root = parsed();
	tl = timeline_of(root, 1, -1);
	cols = json_array();
	json_array_append_new(cols, json_string("lat_max_ns"));
	json_array_append_new(cols, json_string("queue_depth"));
	for (i = 0; i < 5; i++)
		json_array_append_new(cols, json_string(timeline_columns[i]));
	json_object_set_new(tl, "columns", cols);
	json_array_foreach(json_object_get(tl, "points"), i, row) {
		json_t *max = json_incref(json_array_get(row, 5));

		json_array_remove(row, 5);
		json_array_insert_new(row, 0, json_integer(8));
		json_array_insert_new(row, 0, max);
	}
	save_json(root);
	if (result_load(path, &b, err, sizeof(err)))
		fail_msg("%s", err);
	assert_timeline_equal(&a.tests[1].runs[0].timeline, &b.tests[1].runs[0].timeline);
	result_free(&b);

	root = parsed();
	json_object_set_new(json_array_get(json_object_get(root, "tests"), 1), "timeline",
			    json_null());
	json_object_del(json_array_get(json_object_get(root, "tests"), 0), "timeline");
	for (i = 0; i < 3; i++)
		json_object_del(json_array_get(json_object_get(json_array_get(
			json_object_get(root, "tests"), 0), "runs"), i), "timeline");
	save_json(root);
	if (result_load(path, &b, err, sizeof(err)))
		fail_msg("%s", err);
	for (unsigned k = 0; k < b.ntests; k++)
		for (i = 0; i < b.tests[k].nruns; i++) {
			assert_int_equal(b.tests[k].runs[i].timeline.interval_ns, 0);
			assert_null(b.tests[k].runs[i].timeline.p);
		}
	result_free(&b);
	result_free(&a);
}

/* A bad timeline: the error names the test, the run and the point. */
static void test_bad_timeline(void **state)
{
	static const struct {
		size_t test;
		int run;
		const char *msg;
	} cases[] = {
		{ 1, -1, ": tests[1].timeline.points[1]: t_ns is not after the previous point's" },
		{ 0, 2, ": tests[0].runs[2].timeline: no column \"bytes\"" },
		{ 1, -1, ": tests[1].timeline.points[3]: not a row of 6 unsigned integers" },
		{ 0, 1, ": tests[0].runs[1].timeline: key \"interval_ns\" is not a positive" },
		{ 1, -1, ": tests[1].timeline.points[0]: not a row of 6 unsigned integers" },
		{ 1, -1, ": tests[1]: key \"timeline\" is not an object or null" },
	};
	struct run_result b;
	char err[256];

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		json_t *root = parsed(), *tl = timeline_of(root, cases[c].test, cases[c].run);
		json_t *pts = json_object_get(tl, "points");

		switch (c) {
		case 0:
			json_array_set_new(json_array_get(pts, 1), 0, json_integer(5));
			break;
		case 1:
			json_array_set_new(json_object_get(tl, "columns"), 2, json_string("byte"));
			break;
		case 2:
			json_array_append_new(json_array_get(pts, 3), json_integer(1));
			break;
		case 3:
			json_object_set_new(tl, "interval_ns", json_integer(0));
			break;
		case 4:
			json_array_set_new(json_array_get(pts, 0), 4, json_integer(-1));
			break;
		case 5:
			json_object_set_new(json_array_get(json_object_get(root, "tests"), 1),
					    "timeline", json_integer(1));
			break;
		}
		save_json(root);
		assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
		if (!strstr(err, cases[c].msg))
			fail_msg("case %zu: got \"%s\", want \"%s\"", c, err, cases[c].msg);
		assert_int_equal(b.ntests, 0);
	}
}

/* Every value the writer emits parses again as the same number (a 1e100
 * was once written as a 63-digit integer that did not load); within the
 * loader's limits it loads and round-trips, past them (a CPU % of 1e100,
 * DBL_MAX) it is refused by name (issue 27). */
static void test_extreme_values(void **state)
{
	static const struct { double v; bool loads; } vals[] = {
		{ 1e100, false }, { 1.7976931348623157e308, false }, { 1e7, true },
		{ 999999.9999999999, true }, { 1e-300, true }, { 0, true }, { 123456.0005, true },
	};
	struct run_result a, b;
	char err[256], *x, *y;
	json_error_t jerr;
	json_t *root;

	(void)state;
	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]); i++) {
		double v = vals[i].v;

		build(&a);
		a.tests[1].runs[0].usec_per_op = v;
		a.tests[1].runs[0].cpu_user_pct = v;
		a.xbench.tests[0].baseline = v;
		x = render(report_json, &a);
		root = json_loads(x, 0, &jerr);
		if (!root)
			fail_msg("%g: %s", v, jerr.text);
		assert_true(json_number_value(json_object_get(json_array_get(json_object_get(
			json_array_get(json_object_get(root, "tests"), 1), "runs"), 0),
			"cpu_usec_per_op")) == v);
		json_decref(root);
		save(x);
		free(x);
		if (!vals[i].loads) {
			assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
			if (!strstr(err, ": tests[1].runs[0]: \"cpu_user_pct\" is ") ||
			    !strstr(err, "outside what a run can measure") ||
			    !strstr(err, "(test \"meta-create 4k\")"))
				fail_msg("%g: %s", v, err);
			result_free(&a);
			continue;
		}
		if (result_load(path, &b, err, sizeof(err)))
			fail_msg("%g: %s", v, err);
		/* what was loaded is written again, loads, and comes out the same */
		x = render(report_json, &b);
		save(x);
		result_free(&b);
		if (result_load(path, &b, err, sizeof(err)))
			fail_msg("%g, twice: %s", v, err);
		y = render(report_json, &b);
		assert_string_equal(x, y);
		free(x);
		free(y);
		result_free(&a);
		result_free(&b);
	}
}

static json_t *test_of(json_t *root, size_t i)
{
	return json_array_get(json_object_get(root, "tests"), i);
}

static json_t *run_of(json_t *root, size_t i, size_t k)
{
	return json_array_get(json_object_get(test_of(root, i), "runs"), k);
}

/*
 * A crafted figure no run can measure (issue 27: an IOPS of 1.7e308 hung
 * the HTML report) is refused at load, naming the key, the test and what
 * is wrong, so that no renderer sees it.
 */
static void test_hostile_values(void **state)
{
	static const char *const msgs[] = {
		": tests[0].runs[1]: \"iops\" is 1.7e+308, outside what a run can measure "
		"(0 to 1e+15) (test \"rand-read 4k\")",
		": tests[0].runs[0]: \"iops\" is null, not a number",
		": tests[0].runs[2]: \"bytes_per_sec\" is -1, outside",
		": tests[1]: \"runtime_ns\" is 0 with 333 ops and 1363968 bytes in it",
		": tests[0].runs[0]: percentiles out of order: \"lat_p50_ns\" 9000000 is above "
		"\"lat_p99_ns\"",
		": tests[1].lat_ns: \"min\" 900000000000 is above \"max\"",
		": tests[1].lat_ns: \"min\" 1 and \"max\"",
		": tests[1]: 9000000000000000000 ops in 1000000014 ns is more than 1e+15 IOPS",
		": xbench.tests[0]: \"score\" is 1e+300, outside",
		": tests[1].lat_ns: the mean from \"sum\"",
		": tests[1].runs[0]: \"runtime_ns\" is 9223372036854775807, more than a year",
		": tests[1].cpu: \"job_max_pct\" is -5, outside",
	};
	struct run_result b;
	char err[256];

	(void)state;
	for (size_t c = 0; c < sizeof(msgs) / sizeof(msgs[0]); c++) {
		json_t *root = parsed(), *t1 = test_of(root, 1);

		switch (c) {
		case 0:
			json_object_set_new(run_of(root, 0, 1), "iops", json_real(1.7e308));
			break;
		case 1:
			json_object_set_new(run_of(root, 0, 0), "iops", json_null());
			break;
		case 2:
			json_object_set_new(run_of(root, 0, 2), "bytes_per_sec", json_real(-1));
			break;
		case 3:
			json_object_set_new(t1, "runtime_ns", json_integer(0));
			break;
		case 4:
			json_object_set_new(run_of(root, 0, 0), "lat_p50_ns", json_integer(9000000));
			break;
		case 5:
			json_object_set_new(json_object_get(t1, "lat_ns"), "min",
					    json_integer(900000000000));
			break;
		case 6:
			json_object_set_new(json_object_get(t1, "lat_ns"), "min", json_integer(1));
			break;
		case 7:
			json_object_set_new(t1, "ops", json_integer(9000000000000000000));
			break;
		case 8:
			json_object_set_new(json_array_get(json_object_get(json_object_get(
				root, "xbench"), "tests"), 0), "score", json_real(1e300));
			break;
		case 9:
			json_object_set_new(json_object_get(t1, "lat_ns"), "sum",
					    json_integer(INT64_MAX));
			break;
		case 10:
			json_object_set_new(run_of(root, 1, 0), "runtime_ns",
					    json_integer(INT64_MAX));
			break;
		case 11:
			json_object_set_new(json_object_get(t1, "cpu"), "job_max_pct",
					    json_real(-5));
			break;
		}
		save_json(root);
		assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
		if (!strstr(err, msgs[c]))
			fail_msg("case %zu: got \"%s\", want \"%s\"", c, err, msgs[c]);
		assert_int_equal(b.ntests, 0);
	}
}

/* A document from before "sum", "sumsq" and "files": mean and stdev come
 * back from the rounded ones. */
static void test_old_document(void **state)
{
	struct run_result a, b;
	char err[256], *x, *p, *q;

	(void)state;
	build(&a);
	x = render(report_json, &a);
	for (unsigned i = 0; i < 3; i++) {	/* their lines, each a key: value, */
		static const char *const keys[] = { "\"sum\":", "\"sumsq\":", "\"files\":" };

		while ((p = strstr(x, keys[i]))) {
			q = strchr(p, '\n');
			memmove(p, q + 1, strlen(q + 1) + 1);
		}
	}
	save(x);
	free(x);
	if (result_load(path, &b, err, sizeof(err)))
		fail_msg("%s", err);
	assert_true(b.tests[0].lat_sum.mean > a.tests[0].lat_sum.mean - 0.06 &&
		    b.tests[0].lat_sum.mean < a.tests[0].lat_sum.mean + 0.06);
	assert_true(b.tests[0].lat_sum.stdev > a.tests[0].lat_sum.stdev * 0.999 &&
		    b.tests[0].lat_sum.stdev < a.tests[0].lat_sum.stdev * 1.001);
	assert_int_equal(b.tests[0].lat_sum.pct[4], a.tests[0].lat_sum.pct[4]);
	assert_int_equal(b.tests[1].params.nfiles, 0);
	result_free(&a);
	result_free(&b);
}

/* Each bad document: its error names the file and the key. */
static void test_errors(void **state)
{
	static const struct {
		const char *doc, *msg;
	} bad[] = {
		{ "[1, 2", ":1:5: not a JSON document" },
		{ "{\"schema\": \"diskbench/2\"}", "not a diskbench result" },
		{ "{\"schema\": \"diskbench-tune/1\"}",
		  "a \"diskbench-tune/1\" document, not a run's result" },
		{ "{\"schema\": \"diskbench/1\"}", ": missing key \"tool\"" },
		{ "{\"schema\": \"diskbench/1\", \"tool\": {\"version\": 3}}",
		  ": tool: key \"version\" is not a string or null" },
		/* the document is read member by member, "tests" test by test */
		{ "{\"schema\": \"diskbench/1\", \"a\": 1, \"a\": 2}", ": key \"a\" twice" },
		{ "{\"tests\": [], \"tests\": []}", ": key \"tests\" twice" },
		{ "{\"schema\": \"diskbench/1\"} x", ":1:27: not a JSON document: text after" },
		{ "{\"schema\": \"diskbench/1\", }", ":1:27: not a JSON document: a string key" },
		{ "{\"schema\": \"diskbench/1\"", ":1:24: not a JSON document: the text ends" },
		{ "{\"schema\": \"diskbench/1\",\n \"x\": [1, 2}", ":2:12: not a JSON document: ',' or" },
		{ "{\"schema\": \"diskbench/1\",\n\n \"x\": 1e999}", ":3:12: not a JSON document: real "
		  "number overflow" },
		{ "{\"schema\": \"diskbench/1\", \"x\": \"\\ud800\"}", ":1:40: not a JSON document: invalid Unicode" },
		{ "  ", ":1:2: not a JSON document: no document" },
		{ "\"just a string\"", "not a diskbench result" },
		{ "[[[[[[[[", ":1:8: not a JSON document: the text ends" },
		/* text of no format at all says so, not where its JSON breaks */
		{ "hello, world\n", ": none of the formats diskbench reads" },
	};
	struct run_result b;
	char err[256];

	(void)state;
	for (unsigned i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		save(bad[i].doc);
		assert_int_not_equal(result_load(path, &b, err, sizeof(err)), 0);
		if (strncmp(err, path, strlen(path)) || !strstr(err, bad[i].msg))
			fail_msg("%s: got \"%s\", want \"%s\"", bad[i].doc, err, bad[i].msg);
		assert_int_equal(b.ntests, 0);
	}
	assert_int_equal(result_load("/nonexistent/x.json", &b, err, sizeof(err)), -ENOENT);
	assert_int_equal(result_load("/", &b, err, sizeof(err)), -EISDIR);
	/* deeper than the scanner goes: refused, not a stack overflow */
	{
		size_t n = 100000;
		char *deep = malloc(n + 1);

		assert_non_null(deep);
		memset(deep, '[', n);
		deep[n] = '\0';
		assert_int_equal(result_load_buf("deep", deep, n, &b, err, sizeof(err)), -EINVAL);
		if (!strstr(err, "deep:1:513: not a JSON document: brackets nested too deep"))
			fail_msg("%s", err);
		free(deep);
	}
}

/* "tests" missing or not an array; the whole of a document in memory
 * (result_load_buf); a file past the limit, refused by its size. */
static void test_tests_member(void **state)
{
	struct run_result a, b;
	json_t *root;
	char err[256], *x;
	size_t len;

	(void)state;
	root = parsed();
	json_object_del(root, "tests");
	save_json(root);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	if (!strstr(err, ": missing key \"tests\""))
		fail_msg("%s", err);
	root = parsed();
	json_object_set_new(root, "tests", json_object());
	save_json(root);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	if (!strstr(err, ": key \"tests\" is not an array"))
		fail_msg("%s", err);

	build(&a);
	x = render(report_json, &a);
	len = strlen(x);
	if (result_load_buf("mem", x, len, &b, err, sizeof(err)))
		fail_msg("%s", err);
	assert_int_equal(b.ntests, a.ntests);
	result_free(&b);
	/* a test's own syntax error: named by the file's line */
	{
		char *y = strdup(x), *p, want[64];
		int line = 1;

		assert_non_null(y);
		p = strstr(strstr(y, "\"tests\""), "\"bs\": 4096");
		assert_non_null(p);
		memcpy(p + 6, "tru ", 4);
		for (char *q = y; q < p; q++)
			line += *q == '\n';
		assert_int_equal(result_load_buf("mem", y, len, &b, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "mem:%d:", line);
		if (strncmp(err, want, strlen(want)) ||
		    !strstr(err, ": not a JSON document: invalid token"))
			fail_msg("%s, want %s", err, want);
		free(y);
	}
	save(x);
	assert_int_equal(result_load_max(path, len - 1, &b, err, sizeof(err)), -EFBIG);
	if (!strstr(err, "more than") || !strstr(err, "--max-input SIZE raises it"))
		fail_msg("%s", err);
	assert_int_equal(b.ntests, 0);
	if (result_load_max(path, len, &b, err, sizeof(err)))
		fail_msg("%s", err);
	result_free(&b);
	free(x);
	result_free(&a);
}

/* A test with a missing key or a histogram bucket that is no bucket's
 * lower bound: the error names the test's index and the key. */
static void test_bad_test(void **state)
{
	struct run_result a, b;
	char err[256], *x, *y, *p;

	(void)state;
	build(&a);
	x = render(report_json, &a);
	p = strstr(strstr(x, "meta-create"), "\"ops\"");
	memcpy(p, "\"opz\"", 5);
	save(x);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ": tests[1]: missing key \"ops\""));
	memcpy(p, "\"ops\"", 5);
	/* a stall of a job the test does not have */
	p = strstr(x, "\"job\": 1,");
	assert_non_null(p);
	p[7] = '7';
	save(x);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	if (!strstr(err, ": tests[0].stalls[0]: job 7 of run 1 is not one of the test's"))
		fail_msg("%s", err);
	p[7] = '1';
	/* 129 ns: from 128 up buckets are 2 ns wide, so no bucket starts there */
	p = strstr(x, "\"histogram\": [") + strlen("\"histogram\": [");
	y = malloc(strlen(x) + 16);
	assert_non_null(y);
	sprintf(y, "%.*s[129, 1], %s", (int)(p - x), x, p);
	save(y);
	free(y);
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	if (!strstr(err, ": tests[0].lat_ns: histogram[0]: 129 is not the lower bound"))
		fail_msg("%s", err);
	free(x);
	result_free(&a);
}

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_load.XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_timeline_columns),
		cmocka_unit_test(test_bad_timeline),
		cmocka_unit_test(test_extreme_values),
		cmocka_unit_test(test_hostile_values),
		cmocka_unit_test(test_old_document),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_tests_member),
		cmocka_unit_test(test_bad_test),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
