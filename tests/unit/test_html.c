/* test_html.c - the HTML report of a hand-built result: facts, figures, charts, the embedded JSON. */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "load.h"
#include "repeat.h"
#include "report.h"
#include "tune_result.h"

static char path[64];

/* A stream into memory for a reporter (mem_open), and what it wrote once
 * the reporter returned ret (mem_done: 0 is asserted; the caller frees). */
static FILE *mem_open(char **buf, size_t *len)
{
	FILE *f;

	*buf = NULL;
	*len = 0;
	f = open_memstream(buf, len);
	assert_non_null(f);
	return f;
}

static char *mem_done(FILE *f, int ret, char *const *buf)
{
	assert_int_equal(ret, 0);
	assert_int_equal(fclose(f), 0);
	return *buf;
}

static char *render(int (*fn)(FILE *, const struct run_result *), const struct run_result *r)
{
	char *buf;
	size_t len;
	FILE *f = mem_open(&buf, &len);

	return mem_done(f, fn(f, r), &buf);
}

static void save(const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_true(fputs(text, f) >= 0);
	assert_int_equal(fclose(f), 0);
}

static void contains(const char *page, const char *want)
{
	if (!strstr(page, want))
		fail_msg("the page lacks: %s", want);
}

/* Two long texts are the same; else where they part, with some context. */
static void same(const char *what, const char *x, const char *y)
{
	size_t i = 0;

	while (x[i] && x[i] == y[i])
		i++;
	if (x[i] || y[i])
		fail_msg("%s: they differ at byte %zu: ...%.60s... vs ...%.60s...", what, i,
			 x + (i > 20 ? i - 20 : 0), y + (i > 20 ? i - 20 : 0));
}

static unsigned count(const char *page, const char *what)
{
	unsigned n = 0;

	for (const char *p = page; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* n bytes of an embedded JSON with its \u003c, \u003e and \u0026 undone
 * (for a JSON with no backslash before them); the caller frees it. */
static char *unescape(const char *s, size_t n)
{
	char *x = calloc(1, n + 1);

	assert_non_null(x);
	for (size_t i = 0, k = 0; i < n; ) {
		if (!strncmp(s + i, "\\u003c", 6) || !strncmp(s + i, "\\u003e", 6) ||
		    !strncmp(s + i, "\\u0026", 6)) {
			x[k++] = s[i + 5] == 'c' ? '<' : s[i + 5] == 'e' ? '>' : '&';
			i += 6;
		} else {
			x[k++] = s[i++];
		}
	}
	return x;
}

/* A whole page, the same bytes as again (the same input rendered once
 * more), that can load nothing and ends only its two script elements. */
static void whole_page(const char *page, const char *again)
{
	assert_int_equal(strncmp(page, "<!DOCTYPE html>\n<html lang=\"en\">", 31), 0);
	assert_int_equal(strcmp(page + strlen(page) - 8, "</html>\n"), 0);
	same("a page rendered twice", page, again);
	assert_int_equal(count(page, "src="), 0);
	assert_int_equal(count(page, "href="), 0);
	assert_int_equal(count(page, "http://"), 0);
	contains(page, "content=\"default-src 'none';");
	assert_int_equal(count(page, "</script>"), 2);
	assert_int_equal(count(page, "<!--"), 0);
}

/* A timeline of n intervals of 100 ms: rate and latency that vary. */
static void timeline(struct timeline *tl, unsigned n, unsigned seed)
{
	tl->interval_ns = 100000000;
	tl->n = n;
	tl->p = calloc(n, sizeof(*tl->p));
	assert_non_null(tl->p);
	for (unsigned i = 0; i < n; i++) {
		struct timeline_point *p = &tl->p[i];

		p->t_ns = (uint64_t)(i + 1) * tl->interval_ns - (i + 1 == n ? 30000000 : 0);
		p->ops = 1000 + 37 * ((i * 7 + seed) % 11);
		p->bytes = p->ops * 4096;
		/* one interval where nothing completed: no latency */
		if (i == 3) {
			p->ops = p->bytes = 0;
			continue;
		}
		p->lat_p50_ns = 80000 + 1000 * (i % 5);
		p->lat_p99_ns = 400000 + 20000 * ((i + seed) % 7);
		p->lat_max_ns = 2 * p->lat_p99_ns;
	}
}

/* One run of a test: n latencies spread widely. */
static void one_run(struct test_result *t, const char *workload, uint32_t qd, unsigned seed,
		    uint64_t n, unsigned tl_points)
{
	uint64_t x = seed * 2654435761u + 1;

	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "%s 4k qd%u", workload, qd);
	t->workload = workload;
	t->engine = "io_uring";
	t->bs = 4096;
	t->qd = qd;
	t->jobs = 1;
	t->direct = true;
	t->random = true;
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
		hist_add(t->lat, 20000 * qd + x % (300000 * qd));
	}
	t->cpu_user_pct = 3.5;
	t->cpu_sys_pct = 10.25;
	t->dev_valid = true;
	t->dev_read_bytes = t->bytes;
	result_finish(t);
	if (tl_points)
		timeline(&t->timeline, tl_points, seed);
}

/* A test of nruns runs (each with a timeline of tl points, 0: none). */
static void add_test(struct run_result *r, const char *workload, uint32_t qd, unsigned nruns,
		     unsigned tl)
{
	struct test_result acc, run;

	memset(&acc, 0, sizeof(acc));
	for (unsigned i = 0; i < nruns; i++) {
		one_run(&run, workload, qd, qd * 10 + i, 3000 + 500 * i * qd, tl);
		assert_int_equal(repeat_add(&acc, &run), 0);
	}
	repeat_finish(&acc);
	assert_int_equal(result_add_test(r, &acc), 0);
}

/* A host whose name holds markup. */
static void fake_host(struct host_info *h)
{
	snprintf(h->hostname, sizeof(h->hostname), "box<1>");
	snprintf(h->kernel, sizeof(h->kernel), "6.1.0-test");
	snprintf(h->cpu_model, sizeof(h->cpu_model), "Some CPU @ 2GHz");
	h->cpus = 8;
	h->memory_bytes = 16ull << 30;
}

static void build(struct run_result *r)
{
	memset(r, 0, sizeof(*r));
	r->tool_version = "9.9";
	snprintf(r->started_at, sizeof(r->started_at), "2026-01-02T03:04:05Z");
	/* what could end the script element, start a comment or an entity */
	snprintf(r->label, sizeof(r->label), "</script><!-- a & b \"q\" https://x.invalid/");
	fake_host(&r->host);
	snprintf(r->target.path, sizeof(r->target.path), "/srv/x");
	snprintf(r->target.resolved, sizeof(r->target.resolved), "/srv/x");
	r->target.kind = TARGET_DIR;
	snprintf(r->target.kind_detail, sizeof(r->target.kind_detail), "directory");
	snprintf(r->target.device, sizeof(r->target.device), "nvme0n1p2");
	snprintf(r->target.disk, sizeof(r->target.disk), "nvme0n1");
	snprintf(r->target.model, sizeof(r->target.model), "Fast SSD 1TB");
	snprintf(r->target.fs_type, sizeof(r->target.fs_type), "ext4");
	snprintf(r->target.mount_point, sizeof(r->target.mount_point), "/srv");
	snprintf(r->target.mount_options, sizeof(r->target.mount_options), "rw,noatime");
	snprintf(r->target.scheduler, sizeof(r->target.scheduler), "mq-deadline");
	snprintf(r->target.schedulers, sizeof(r->target.schedulers), "none mq-deadline");
	r->target.rotational = 0;
	r->target.read_ahead_kb = 128;
	r->target.nr_requests = -1;
	r->target.max_sectors_kb = 512;
	r->target.write_cache = 1;
	r->target.discard = -1;
	r->target.logical_block_size = 512;
	r->target.physical_block_size = 4096;
	r->target.fs_size_bytes = 1ull << 40;
	r->target.free_bytes = 1ull << 39;
	r->clock_overhead_ns = 21;
	result_add_setting(r, "profile", "quick");
	result_add_setting(r, "runtime", "1s");
	result_add_setting(r, "repeat", "3");

	add_test(r, "rand-read", 1, 3, 12);	/* timelines in every run */
	add_test(r, "rand-read", 32, 3, 0);	/* none */
	add_test(r, "rand-write", 1, 3, 450);	/* longer than a line holds */
	r->tests[1].cached = true;
	result_add_warning(r, "something <odd> & \"quoted\"");
}

static void test_page(void **state)
{
	struct run_result r;
	char want[256], num[64], *page, *again;
	const struct test_result *t;
	double lo, hi;

	(void)state;
	build(&r);
	page = render(report_html, &r);

	/* a whole page, byte-reproducible, that loads nothing; the label's URL
	 * appears only escaped, as text; the label cannot end an element or
	 * open a comment */
	again = render(report_html, &r);
	whole_page(page, again);
	free(again);
	contains(page, "&lt;/script&gt;&lt;!-- a &amp; b &quot;q&quot;");

	/* the facts, keyed by their JSON paths */
	contains(page, "data-key=\"host.kernel\">6.1.0-test</td>");
	contains(page, "data-key=\"host.hostname\">box&lt;1&gt;</td>");
	contains(page, "data-key=\"host.cpus\">8</td>");
	contains(page, "data-key=\"host.memory_bytes\" data-value=\"17179869184\">16.0 GiB</td>");
	contains(page, "data-key=\"target.scheduler\">mq-deadline</td>");
	contains(page, "data-key=\"target.read_ahead_kb\">128</td>");
	contains(page, "data-key=\"target.nr_requests\">unknown</td>");
	contains(page, "data-key=\"target.rotational\">no</td>");
	contains(page, "data-key=\"target.fs_type\">ext4</td>");
	contains(page, "data-key=\"target.model\">Fast SSD 1TB</td>");
	contains(page, "data-key=\"target.device\">nvme0n1p2</td>");
	contains(page, "data-key=\"settings.runtime\">1s</td>");
	contains(page, "data-key=\"tool.version\">9.9</td>");
	contains(page, "data-key=\"clock_overhead_ns\" data-value=\"21\"");
	contains(page, "command line</th><td>not recorded in the result");
	contains(page, "<li class=\"warning\">something &lt;odd&gt; &amp; &quot;quoted&quot;</li>");
	contains(page, "<span class=\"badge cached\"");

	/* the table's figures are the struct's, as the JSON writes them */
	for (unsigned i = 0; i < r.ntests; i++) {
		t = &r.tests[i];
		snprintf(want, sizeof(want), "<tr data-test=\"%u\"><td data-key=\"name\">%s</td>", i,
			 t->name);
		contains(page, want);
		snprintf(want, sizeof(want), "data-key=\"iops\" data-value=\"%.3f\"", t->iops);
		contains(page, want);
		snprintf(want, sizeof(want), "data-key=\"bytes_per_sec\" data-value=\"%.3f\"",
			 t->bytes_per_sec);
		contains(page, want);
		snprintf(want, sizeof(want), "data-key=\"lat_ns.percentiles.99\" data-value=\"%"
			 PRIu64 "\"", t->lat_sum.pct[8]);
		contains(page, want);
		/* the spread of the runs: the least and the most */
		lo = hi = t->runs[0].iops;
		for (unsigned k = 1; k < t->nruns; k++) {
			lo = t->runs[k].iops < lo ? t->runs[k].iops : lo;
			hi = t->runs[k].iops > hi ? t->runs[k].iops : hi;
		}
		snprintf(num, sizeof(num), "%.17g", lo);
		snprintf(want, sizeof(want), "data-key=\"iops\" data-value=\"%.3f\" data-min=\"%s\"",
			 t->iops, num);
		contains(page, want);
		snprintf(num, sizeof(num), "data-max=\"%.17g\"", hi);
		contains(page, num);
		/* each percentile on the curve, from p50 to p99.99 */
		snprintf(want, sizeof(want), "data-test=\"%u\" data-pct=\"99.9\" data-value=\"%" PRIu64
			 "\"", i, t->lat_sum.pct[9]);
		contains(page, want);
	}
	/* p99.99 needs 10000 ops: test 0 (3000..4000 ops a run, 10500 in all) has it */
	snprintf(want, sizeof(want), "data-test=\"0\" data-pct=\"99.99\"");
	contains(page, want);

	/* the charts, by their ids */
	contains(page, "<svg id=\"chart-throughput\" class=\"chart\"");
	contains(page, "<svg id=\"chart-qd-iops\" class=\"chart\"");
	contains(page, "<svg id=\"chart-qd-p99\" class=\"chart\"");
	contains(page, "<svg id=\"chart-latency\" class=\"chart\"");
	/* timelines: test 0 and 2 have them (three runs each), test 1 not */
	contains(page, "<svg id=\"chart-timeline-0\" class=\"chart timeline\"");
	contains(page, "<svg id=\"chart-timeline-2\" class=\"chart timeline\"");
	assert_null(strstr(page, "chart-timeline-1\""));
	contains(page, "id=\"timeline-none-1\">rand-read 4k qd32: no timeline.</p>");
	assert_int_equal(count(page, "data-run=\""), 6);
	contains(page, "data-run=\"1\" data-points=\"12\"");
	contains(page, "data-run=\"3\" data-points=\"450\"");
	/* 450 intervals merged 3 into 1 */
	contains(page, "every 3 intervals merged");
	/* the qd chart has one line: rand-read at qd 1 and 32 */
	contains(page, "<li><svg width=\"22\" height=\"10\" viewBox=\"0 0 22 10\"><path "
		 "class=\"line c0\" d=\"M1 5H21\"/></svg>rand-read 4k</li>");

	free(page);
	result_free(&r);
}

/* The page holds the JSON: loaded from the page, the result renders as
 * the one loaded from the JSON file does. */
static void test_embedded(void **state)
{
	int (*fns[])(FILE *, const struct run_result *) = { report_json, report_text, report_html };
	struct run_result r, a, b;
	char err[256], *json, *page, *x, *y;
	size_t off, n;
	int line, nl;

	(void)state;
	build(&r);
	json = render(report_json, &r);
	page = render(report_html, &r);
	assert_int_equal(result_find_json(page, strlen(page), &off, &n, &line), 0);
	/* the JSON less its '<', '>' and '&', which are \u escapes */
	assert_null(memchr(page + off, '<', n));
	assert_non_null(strstr(page + off, "\\u003c/script\\u003e\\u003c!-- a \\u0026 b"));
	/* from the end of the tag's line: jansson's line k is the file's line + k - 1 */
	assert_int_equal(strncmp(page + off, "\n{\n  \"schema\": \"diskbench/1\"", 28), 0);
	nl = 1;
	for (size_t i = 0; i < off; i++)
		nl += page[i] == '\n';
	assert_int_equal(nl, line);

	save(json);
	if (result_load(path, &a, err, sizeof(err)))
		fail_msg("%s", err);
	save(page);
	if (result_load(path, &b, err, sizeof(err)))
		fail_msg("%s", err);
	for (unsigned i = 0; i < sizeof(fns) / sizeof(fns[0]); i++) {
		x = render(fns[i], &a);
		y = render(fns[i], &b);
		same("loaded from the JSON and from the page", x, y);
		free(x);
		free(y);
	}
	/* and the page holds the JSON --json writes, byte for byte once its
	 * three escapes are undone (this JSON has no backslash before them) */
	x = unescape(page + off + 1, n - 1);
	same("the JSON in the page", x, json);
	free(x);
	free(json);
	free(page);
	result_free(&a);
	result_free(&b);
	result_free(&r);
}

static void test_find_json(void **state)
{
	static const char plain[] = " {\"a\": 1}";
	static const char page[] = "\xef\xbb\xbf\n<!DOCTYPE html>\n<p>x</p>\n<script type=\"application/json\" "
				   "id=\"diskbench-result\">\n{\"a\": 1}\n</script>\n";
	struct run_result b;
	char err[256];
	size_t off, n;
	int line;

	(void)state;
	assert_int_equal(result_find_json(plain, strlen(plain), &off, &n, &line), 0);
	assert_true(off == 0 && n == strlen(plain) && line == 1);
	assert_int_equal(result_find_json(page, strlen(page), &off, &n, &line), 0);
	assert_int_equal(line, 4);
	assert_int_equal((int)n, 10);
	assert_int_equal(strncmp(page + off, "\n{\"a\": 1}\n", n), 0);
	assert_int_equal(result_find_json("<html></html>", 13, &off, &n, &line), -ENOENT);
	assert_int_equal(result_find_json(page, strlen(page) - 11, &off, &n, &line), -EINVAL);

	/* the loader's words for them, and the file's own line of an error */
	save("<html><body>a page</body></html>\n");
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "an HTML page with no diskbench result in it"));
	save("<!DOCTYPE html>\n<script type=\"application/json\" id=\"diskbench-result\">\n"
	     "{\n  \"schema\": \"diskbench/1\",\n  oops\n}\n</script>\n");
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	if (strncmp(err, path, strlen(path)) || strncmp(err + strlen(path), ":5:", 3))
		fail_msg("want %s:5:..., got %s", path, err);
	save("<!DOCTYPE html>\n<script type=\"application/json\" id=\"diskbench-result\">\n{");
	assert_int_equal(result_load(path, &b, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "cut short"));
}

static void test_empty(void **state)
{
	struct run_result r;
	char *page;

	(void)state;
	memset(&r, 0, sizeof(r));
	r.target.rotational = r.target.read_ahead_kb = r.target.nr_requests = -1;
	r.target.max_sectors_kb = r.target.write_cache = r.target.discard = -1;
	page = render(report_html, &r);
	contains(page, "No tests were run.");
	contains(page, "No warnings.");
	contains(page, "id=\"timeline-none\"");
	assert_null(strstr(page, "<svg id=\"chart-"));
	assert_null(strstr(page, "nan"));
	free(page);
}

static void test_write_error(void **state)
{
	struct run_result r;
	FILE *f = fopen("/dev/full", "w");

	(void)state;
	if (!f)
		skip();
	build(&r);
	assert_int_equal(report_html(f, &r), -ENOSPC);
	fclose(f);
	result_free(&r);
}

/* ---- a tune's page ------------------------------------------------------------ */

static char *render_tune(int (*fn)(FILE *, const struct tune_result *), const struct tune_result *r)
{
	char *buf;
	size_t len;
	FILE *f = mem_open(&buf, &len);

	return mem_done(f, fn(f, r), &buf);
}

/* The page holds what a printf-style format makes. */
static void has(const char *page, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void has(const char *page, const char *fmt, ...)
{
	char want[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(want, sizeof(want), fmt, ap);
	va_end(ap);
	contains(page, want);
}

/* A verdict of a ratio with its interval: +1, -1 or 0 as given. */
static struct sweep_verdict verdict(double ratio, double spread, int v)
{
	return (struct sweep_verdict){ .ratio = ratio, .lo = ratio / spread, .hi = ratio * spread,
				       .level = 0.99, .verdict = v };
}

/* A scheduler sweep, finished: none (current), none again (the control),
 * mq-deadline (better on rand-read, recommended), bfq (worse); two tests,
 * one random. And a readahead sweep cut short. */
static void build_tune(struct tune_result *r)
{
	struct tune_sweep *s;

	memset(r, 0, sizeof(*r));
	r->tool_version = "9.9";
	snprintf(r->started_at, sizeof(r->started_at), "2026-01-02T03:04:05Z");
	fake_host(&r->host);
	snprintf(r->target.path, sizeof(r->target.path), "/dev/loop7");
	snprintf(r->target.resolved, sizeof(r->target.resolved), "/dev/loop7");
	r->target.kind = TARGET_BLOCK;
	snprintf(r->target.kind_detail, sizeof(r->target.kind_detail), "loop");
	snprintf(r->target.device, sizeof(r->target.device), "loop7");
	r->target.size_bytes = 128ull << 20;
	r->target.rotational = r->target.read_ahead_kb = r->target.nr_requests = -1;
	r->target.max_sectors_kb = r->target.write_cache = r->target.discard = -1;
	snprintf(r->queue.disk, sizeof(r->queue.disk), "loop7");
	snprintf(r->queue.why, sizeof(r->queue.why), "loop7 is a loop device: its own queue");
	snprintf(r->queue.schedulers, sizeof(r->queue.schedulers), "none mq-deadline bfq");
	r->queue.have[KNOB_SCHEDULER] = r->queue.have[KNOB_READ_AHEAD] = true;
	snprintf(r->queue.value[KNOB_SCHEDULER], TUNE_VALUE_MAX, "none");
	snprintf(r->queue.value[KNOB_READ_AHEAD], TUNE_VALUE_MAX, "128");
	r->nblocks = 5;
	r->noise = 0.03;
	r->seed = 12345;
	r->restored = true;
	r->nsweeps = 2;

	s = &r->sweeps[0];
	s->knob = KNOB_SCHEDULER;
	snprintf(s->workload, sizeof(s->workload), "tune-scheduler");
	s->nconfig = 4;
	snprintf(s->configs[0], TUNE_VALUE_MAX, "none");
	snprintf(s->configs[1], TUNE_VALUE_MAX, "none");
	snprintf(s->configs[2], TUNE_VALUE_MAX, "mq-deadline");
	snprintf(s->configs[3], TUNE_VALUE_MAX, "bfq");
	s->ntests = 2;
	snprintf(s->tests[0], sizeof(s->tests[0]), "rand-read 4k qd32");
	snprintf(s->tests[1], sizeof(s->tests[1]), "seq-read 1m qd8");
	s->random[0] = true;
	s->planned = (5 * 4 + 2) * 2;
	for (unsigned i = 0; i < s->planned; i++) {
		unsigned b = i / 2 % 22;
		struct tune_trial t = { .config = b && b < 21 ? (b - 1) % 4 : 0, .test = i % 2,
					.block = b && b < 21 ? (b - 1) / 4 : SWEEP_OUTSIDE,
					.iops = 1000 + i, .bytes_per_sec = 4096000 + i,
					.lat_p99_ns = 100000 + i, .runtime_ns = 1000000000, .ops = 1000 + i };

		assert_int_equal(tune_add_trial(s, &t), 0);
	}
	s->analyzed = true;
	s->ncompared = 6;
	for (unsigned k = 0; k < s->nconfig; k++) {
		for (unsigned t = 0; t < s->ntests; t++) {
			struct tune_cell *c = &s->cells[k][t];

			c->iops = 12345.678 * (1 + k) + t;
			c->bytes_per_sec = c->iops * (t ? 1048576 : 4096);
			c->lat_p99_ns = 250000 + 1111 * k + 7 * t;
		}
	}
	s->cells[1][0].thr = verdict(1.0123456, 1.02, 0);
	s->cells[1][1].thr = verdict(0.98765, 1.03, 0);
	s->cells[2][0].thr = verdict(1.4142, 1.05, 1);
	s->cells[2][1].thr = verdict(1.01, 1.02, 0);
	s->cells[3][0].thr = verdict(0.7071, 1.04, -1);
	s->cells[3][1].thr = verdict(0.9, 1.2, 0);
	for (unsigned k = 1; k < s->nconfig; k++)
		for (unsigned t = 0; t < s->ntests; t++)
			s->cells[k][t].p99 = verdict(1 / s->cells[k][t].thr.ratio, 1.1,
						     -s->cells[k][t].thr.verdict);
	s->drift[0] = 0.0125;
	s->drift[1] = -0.045;
	s->recommended = 2;
	snprintf(s->reason, sizeof(s->reason), "mq-deadline: better than none <on> one & worse "
		 "on none");

	s = &r->sweeps[1];
	s->knob = KNOB_READ_AHEAD;
	snprintf(s->workload, sizeof(s->workload), "tune-readahead");
	s->nconfig = 2;
	snprintf(s->configs[0], TUNE_VALUE_MAX, "128");
	snprintf(s->configs[1], TUNE_VALUE_MAX, "4096");
	s->ntests = 1;
	snprintf(s->tests[0], sizeof(s->tests[0]), "seq-read 128k qd1");
	s->planned = (5 * 2 + 2) * 1;
	s->ntrials = 0;
	s->recommended = -1;
	snprintf(s->reason, sizeof(s->reason), "the sweep did not finish: nothing is claimed");
	assert_int_equal(tune_warn(r, "a warning with <markup> & \"quotes\""), 0);
}

static void test_tune_page(void **state)
{
	struct tune_result r;
	const struct tune_sweep *s;
	struct run_result loaded;
	char *page, *again, *json, *x, n1[64], n2[64], n3[64], err[512];
	const char *start;
	unsigned values = 0;

	(void)state;
	build_tune(&r);
	page = render_tune(report_tune_html, &r);
	again = render_tune(report_tune_html, &r);
	whole_page(page, again);
	free(again);

	/* no URL at all; hostile text escaped */
	assert_int_equal(count(page, "://"), 0);
	contains(page, "<title>diskbench tune: loop7</title>");
	contains(page, "a warning with &lt;markup&gt; &amp; &quot;quotes&quot;</li>");
	contains(page, "better than none &lt;on&gt; one &amp; worse on none");

	/* the verdicts: what to use, that all was put back, how to keep it */
	contains(page, "<li data-sweep=\"0\"><b>scheduler</b>: use <b data-key=\"recommended\">"
		 "mq-deadline</b>");
	contains(page, "<li data-sweep=\"1\"><b>read-ahead</b>: <span data-key=\"reason\">the sweep did not finish");
	contains(page, "Every setting was put back and reads back as it was.");
	contains(page, "KERNEL==&quot;loop7&quot;, ATTR{queue/scheduler}=&quot;mq-deadline&quot;");

	/* the facts, keyed by their JSON paths */
	contains(page, "data-key=\"host.hostname\">box&lt;1&gt;</td>");
	contains(page, "data-key=\"queue.why\">loop7 is a loop device: its own queue</td>");
	contains(page, "data-key=\"queue.settings.scheduler\">none</td>");
	contains(page, "data-key=\"queue.settings.read_ahead_kb\">128</td>");
	contains(page, "data-key=\"restored\">yes</td>");
	contains(page, "data-key=\"applied\">no</td>");
	contains(page, "data-key=\"blocks\">5</td>");
	contains(page, "data-key=\"seed\">12345</td>");
	has(page, "data-key=\"noise\" data-value=\"%.17g\">", r.noise);
	has(page, "data-key=\"host.memory_bytes\" data-value=\"%" PRIu64 "\">16.0 GiB</td>",
	    r.host.memory_bytes);
	has(page, "data-key=\"target.size_bytes\" data-value=\"%" PRIu64 "\">", r.target.size_bytes);
	values += 3;

	/* the finished sweep: the table's figures and every dot are the struct's */
	s = &r.sweeps[0];
	contains(page, "data-key=\"workload\">tune-scheduler</td>");
	contains(page, "<span data-key=\"configs.1\">none</span> (again: a control)");
	has(page, "<span data-key=\"trials_planned\">%u</span>", s->planned);
	has(page, "<span data-key=\"comparisons\">%u</span>", s->ncompared);
	for (unsigned t = 0; t < s->ntests; t++) {
		has(page, "<svg id=\"chart-tune-0-%u\" class=\"chart ratio\"", t);
		has(page, "<svg id=\"chart-tune-0-%u-p99\" class=\"chart ratio\"", t);
		has(page, "data-key=\"drift.change.%u\" data-value=\"%.17g\"", t, s->drift[t]);
		values++;
		for (unsigned k = 0; k < s->nconfig; k++) {
			const struct tune_cell *c = &s->cells[k][t];

			has(page, "<tr data-sweep=\"0\" data-config=\"%u\" data-test=\"%u\"><td>%s</td>",
			    k, t, s->tests[t]);
			if (s->random[t])
				has(page, "data-key=\"iops\" data-value=\"%.17g\"", c->iops);
			else
				has(page, "data-key=\"bytes_per_sec\" data-value=\"%.17g\"",
				    c->bytes_per_sec);
			has(page, "data-key=\"lat_p99_ns\" data-value=\"%" PRIu64 "\"", c->lat_p99_ns);
			values += 2;
			if (!k)
				continue;
			for (int m = 0; m < 2; m++) {
				const struct sweep_verdict *v = m ? &c->p99 : &c->thr;
				int good = m ? -v->verdict : v->verdict;
				const char *word = good > 0 ? "better" : good < 0 ? "worse" : "~";

				snprintf(n1, sizeof(n1), "%.17g", v->ratio);
				snprintf(n2, sizeof(n2), "%.17g", v->lo);
				snprintf(n3, sizeof(n3), "%.17g", v->hi);
				has(page, "data-key=\"%s.ratio\" data-value=\"%s\" data-lo=\"%s\" "
				    "data-hi=\"%s\">%.2f [%.2f, %.2f]</td><td data-key=\"%s.verdict\" "
				    "class=\"%s\">%s</td>", m ? "lat_p99" : "throughput", n1, n2, n3,
				    v->ratio, v->lo, v->hi, m ? "lat_p99" : "throughput",
				    good > 0 ? "better" : good < 0 ? "worse" : "same", word);
				/* the dot of the plot, coloured as the verdict */
				has(page, "class=\"dot %s\" data-sweep=\"0\" data-config=\"%u\" "
				    "data-test=\"%u\" data-metric=\"%s\" data-value=\"%s\" data-lo=\"%s\" "
				    "data-hi=\"%s\" data-verdict=\"%s\"",
				    good > 0 ? "better" : good < 0 ? "worse" : "same", k, t,
				    m ? "lat_p99" : "throughput", n1, n2, n3, word);
				values += 2;
			}
		}
	}
	/* the control is a row of every plot; the band is the noise band */
	assert_int_equal(count(page, ">none (again)</text>"), 4);
	has(page, "class=\"band\" data-lo=\"%.17g\" data-hi=\"%.17g\"", 1 - r.noise, 1 + r.noise);
	assert_int_equal(count(page, "class=\"band\""), 4);
	contains(page, "(log scale; right is better)");
	contains(page, "(log scale; left is better)");
	/* exactly the figures checked carry a number */
	assert_int_equal(count(page, "data-value="), values);

	/* the sweep cut short: how far it came, no figure */
	contains(page, "<section id=\"sweep-1\" class=\"sweep\" data-sweep=\"1\">");
	contains(page, "0 of <span data-key=\"trials_planned\">12</span> ran");
	contains(page, "The sweep did not finish");
	assert_null(strstr(page, "chart-tune-1-"));
	assert_null(strstr(page, "data-sweep=\"1\" data-config="));

	/* the JSON tune --json writes, in the page, its three escapes aside */
	json = render_tune(report_tune_json, &r);
	contains(page, "<script type=\"application/json\" id=\"diskbench-tune\">\n{\n  "
		 "\"schema\": \"diskbench-tune/1\"");
	assert_null(strstr(page, "\"reason\": \"mq-deadline: better than none <on>"));
	contains(page, "\"reason\": \"mq-deadline: better than none \\u003con\\u003e one \\u0026 "
		 "worse on none\"");
	start = strstr(page, "id=\"diskbench-tune\">\n") + 21;
	x = unescape(start, (size_t)(strstr(start, "</script>") - start));
	same("the JSON in the tune page", x, json);
	free(x);
	/* which report and compare name as not a run's result */
	save(page);
	assert_int_equal(result_load(path, &loaded, err, sizeof(err)), -EINVAL);
	if (!strstr(err, "a \"diskbench-tune/1\" document, not a run's result"))
		fail_msg("loading a tune page: %s", err);
	free(json);
	free(page);
	tune_result_free(&r);
}

/* Not put back, or kept with --apply, or cut short: the page says which. */
static void test_tune_outcomes(void **state)
{
	struct tune_result r;
	char *page;
	FILE *f;

	(void)state;
	build_tune(&r);
	r.restored = false;
	page = render_tune(report_tune_html, &r);
	contains(page, "<p id=\"outcome\" class=\"words warn\">NOT every setting could be put back");
	free(page);
	r.applied = true;
	page = render_tune(report_tune_html, &r);
	contains(page, "The recommended settings were kept (--apply).");
	contains(page, "data-key=\"applied\">yes</td>");
	free(page);
	r.interrupted = true;
	r.sweeps[0].recommended = -1;
	page = render_tune(report_tune_html, &r);
	contains(page, "Interrupted: the sweep was cut short");
	assert_null(strstr(page, "id=\"udev\""));
	free(page);
	f = fopen("/dev/full", "w");
	if (f) {
		assert_int_equal(report_tune_html(f, &r), -ENOSPC);
		fclose(f);
	}
	tune_result_free(&r);
}

static int setup(void **state)
{
	int fd;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/test_html.XXXXXX");
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
		cmocka_unit_test(test_page),
		cmocka_unit_test(test_embedded),
		cmocka_unit_test(test_find_json),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_write_error),
		cmocka_unit_test(test_tune_page),
		cmocka_unit_test(test_tune_outcomes),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
