/* text.c - the human report: run header, one table row per test, notes. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "parse.h"
#include "repeat.h"
#include "report.h"
#include "textw.h"
#include "workload.h"

/* A fixed char array as "%.*s" arguments: never read past the array. */
#define FLD(arr) (int)sizeof(arr), (arr)

/* ---- lines ------------------------------------------------------------------ */

/* Running text is wrapped at any white space: a newline in it is a space. */
static const char text_ws[] = " \t\n\r";

/* A sentence on its own wrapped line(s), continuation indented by indent
 * (0: under the text's start). */
static void text_line(struct textw *w, const char *prefix, unsigned indent, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void text_line(struct textw *w, const char *prefix, unsigned indent, const char *fmt, ...)
{
	va_list ap;

	textw_start(w, prefix);
	if (indent)
		w->indent = indent;
	va_start(ap, fmt);
	textw_vwordsf(w, text_ws, fmt, ap);
	va_end(ap);
	textw_nl(w);
}

/* ---- number formats -------------------------------------------------------- */

static const char *fmt_mb(uint64_t bytes, char *buf, size_t len)
{
	return report_fmt_dec3((double)bytes / 1e6, buf, len);
}

/* bytes/s as MB/s */
static const char *fmt_rate(double bytes_per_sec, char *buf, size_t len)
{
	return report_fmt_dec3(bytes_per_sec / 1e6, buf, len);
}

/* ---- header ----------------------------------------------------------------- */

/* The drive's identity beyond its model, when sysfs gave any: what tells
 * one drive of a model from another (a before/after upgrade). */
static void text_drive(struct textw *w, const struct target_info *t)
{
	if (!t->serial[0] && !t->firmware[0] && !t->wwn[0] && !t->transport[0])
		return;
	textw_start(w, "drive:    ");
	if (t->serial[0])
		textw_itemf(w, ", ", "serial %.*s", FLD(t->serial));
	if (t->firmware[0])
		textw_itemf(w, ", ", "firmware %.*s", FLD(t->firmware));
	if (t->wwn[0])
		textw_itemf(w, ", ", "WWN %.*s", FLD(t->wwn));
	if (t->transport[0])
		textw_itemf(w, ", ", "transport %.*s", FLD(t->transport));
	textw_nl(w);
}

/* The target's line, its stack, flags and cgroup limit. */
static void text_target(struct textw *w, const struct target_info *t)
{
	char b[64];

	textw_start(w, "target:   ");
	textw_itemf(w, ", ", "%.*s", FLD(t->path));
	if (t->resolved[0] && strncmp(t->resolved, t->path, sizeof(t->path)))
		textw_itemf(w, ", ", "resolved %.*s", FLD(t->resolved));
	if (t->kind == TARGET_BLOCK && t->kind_detail[0])
		textw_itemf(w, ", ", "block device (%.*s)", FLD(t->kind_detail));
	else if (t->kind_detail[0])
		textw_itemf(w, ", ", "%.*s", FLD(t->kind_detail));
	else
		textw_itemf(w, ", ", "%s", t->kind == TARGET_BLOCK ? "block device" :
			    t->kind == TARGET_FILE ? "file" : "directory");
	if (t->device[0])
		textw_itemf(w, ", ", "device %.*s", FLD(t->device));
	if (t->model[0])
		textw_itemf(w, ", ", "model %.*s", FLD(t->model));
	if (t->kind != TARGET_BLOCK && t->fs_type[0]) {
		if (t->mount_point[0])
			textw_itemf(w, ", ", "%.*s on %.*s", FLD(t->fs_type), FLD(t->mount_point));
		else
			textw_itemf(w, ", ", "%.*s", FLD(t->fs_type));
		if (t->mount_options[0])
			textw_itemf(w, ", ", "(%.*s)", FLD(t->mount_options));
	}
	if (t->size_bytes)
		textw_itemf(w, ", ", "size %s", report_fmt_capacity(t->size_bytes, b, sizeof(b)));
	if (t->kind == TARGET_DIR && t->free_bytes)
		textw_itemf(w, ", ", "free %s", report_fmt_capacity(t->free_bytes, b, sizeof(b)));
	if (t->rotational >= 0)
		textw_itemf(w, ", ", "rotational %s", t->rotational ? "yes" : "no");
	if (t->scheduler[0])
		textw_itemf(w, ", ", "scheduler %.*s", FLD(t->scheduler));
	if (t->read_ahead_kb >= 0)
		textw_itemf(w, ", ", "read_ahead_kb %d", t->read_ahead_kb);
	if (t->nr_requests >= 0)
		textw_itemf(w, ", ", "nr_requests %d", t->nr_requests);
	if (t->logical_block_size)	/* 0: not known (another tool's result) */
		textw_itemf(w, ", ", "logical/physical block %" PRIu32 "/%" PRIu32,
			    t->logical_block_size, t->physical_block_size);
	textw_nl(w);
	text_drive(w, t);
	/* Encryption, copy-on-write, RAID: numbers from a different stack are
	 * not comparable, so say so where the numbers are. */
	if (t->stack[0])
		text_line(w, "stack:    ", 0, "%.*s (these layers change the results: compare only "
			  "with runs on the same stack)", FLD(t->stack));
	for (unsigned f = 0; f < TARGET_NFLAGS; f++) {
		char why[512];

		if (target_flag(t, f, why, sizeof(why)))
			text_line(w, "flag:     ", 0, "%s: %s", target_flag_name(f), why);
	}
	if (t->io_limit[0])
		text_line(w, "limit:    ", 0, "%.*s (a cgroup limit on this process)",
			  FLD(t->io_limit));
}

/* The drive's health (smartctl) around the run, or why there is none;
 * nothing for a result saved before it was asked. */
static void text_health(struct textw *w, const struct run_result *r)
{
	const struct run_health *h = &r->health;
	char b[768];

	if (!h->checked)
		return;
	if (h->before.valid)
		text_line(w, "health:   ", 10, "before: %s",
			  report_health_snap(&h->before, b, sizeof(b)));
	if (h->after.valid)
		text_line(w, "          ", 10, "after: %s",
			  report_health_snap(&h->after, b, sizeof(b)));
	if (report_health_delta(r, b, sizeof(b))[0])
		text_line(w, "          ", 10, "during the run: %s", b);
	if (h->why[0])
		text_line(w, h->before.valid ? "          " : "health:   ", 10, "%s%.*s",
			  h->before.valid ? "" : "none: ", FLD(h->why));
}

static void text_header(struct textw *w, const struct run_result *r)
{
	const struct host_info *h = &r->host;
	const struct setting *s;
	char b[64];
	unsigned i;

	textw_start(w, "");
	textw_itemf(w, "  ", "diskbench %s",
		    r->tool_version ? r->tool_version : "(unknown version)");
	if (r->started_at[0])
		textw_itemf(w, "  ", "started %.*s", FLD(r->started_at));
	if (r->label[0])
		textw_itemf(w, "  ", "label: %.*s", FLD(r->label));
	if (r->imported_from.tool[0])
		textw_itemf(w, "  ", "imported from %.*s%s%.*s (%.*s)", FLD(r->imported_from.tool),
			    r->imported_from.version[0] ? " " : "", FLD(r->imported_from.version),
			    FLD(r->imported_from.file));
	textw_nl(w);

	textw_start(w, "host:     ");
	if (h->hostname[0])
		textw_itemf(w, ", ", "%.*s", FLD(h->hostname));
	else
		textw_itemf(w, ", ", "(unknown hostname)");
	if (h->kernel[0])
		textw_itemf(w, ", ", "kernel %.*s", FLD(h->kernel));
	if (h->cpu_model[0])
		textw_itemf(w, ", ", "%.*s", FLD(h->cpu_model));
	if (h->cpus)
		textw_itemf(w, ", ", "%u cpu%s", h->cpus, h->cpus == 1 ? "" : "s");
	if (h->memory_bytes)
		textw_itemf(w, ", ", "%s memory",
			    report_fmt_capacity(h->memory_bytes, b, sizeof(b)));
	textw_nl(w);

	text_target(w, &r->target);
	text_health(w, r);

	if (!r->nsettings)
		return;
	textw_start(w, "settings: ");
	for (i = 0; i < r->nsettings && i < RESULT_MAX_SETTINGS; i++) {
		s = &r->settings[i];
		/* Quote what would not read back as one word. */
		if (!s->value[0] || strpbrk(s->value, " \t"))
			textw_itemf(w, " ", "%.*s=\"%.*s\"", FLD(s->key), FLD(s->value));
		else
			textw_itemf(w, " ", "%.*s=%.*s", FLD(s->key), FLD(s->value));
	}
	textw_nl(w);
}

/* ---- the table ---------------------------------------------------------------- */

/* C_CV, last, only when a test has several runs (--repeat). */
enum {
	C_NAME, C_ENGINE, C_BS, C_QD, C_JOBS, C_IOPS, C_MBS,
	C_P50, C_P99, C_P999, C_MAX, C_CPU, C_CV, NCOL
};

static const char *const col_head[NCOL] = {
	"test", "engine", "bs", "qd", "jobs", "IOPS", "MB/s",
	"p50", "p99", "p99.9", "max", "CPU%", "CV%",
};

struct row {
	char c[NCOL][72];
};

static int pct_index(const char *key)
{
	int i;

	for (i = 0; i < RESULT_NPCT; i++)
		if (!strcmp(result_pct_keys[i], key))
			return i;
	return -1;
}

static void fmt_pct(const struct test_result *t, bool has_lat, const char *key,
		    char *buf, size_t len)
{
	int i = pct_index(key);

	if (!has_lat || i < 0 || (t->lat_pct_given && !(t->lat_pct_given & (1u << i))))
		snprintf(buf, len, "-");
	else
		report_fmt_ns((double)t->lat_sum.pct[i], buf, len);
}

static void text_row(const struct test_result *t, struct row *row)
{
	bool has_lat = result_has_lat(t);
	double cpu = t->cpu_user_pct + t->cpu_sys_pct;
	const size_t L = sizeof(row->c[0]);

	snprintf(row->c[C_NAME], L, "%.*s", FLD(t->name));
	snprintf(row->c[C_ENGINE], L, "%s", t->engine ? t->engine : "-");
	/* A per-char test moves bytes one call at a time and a file test
	 * moves files: neither has a block size, and a file test with empty
	 * files has no MB/s (its rate is IOPS, files per second). */
	if (t->per_char || t->moves_files)
		snprintf(row->c[C_BS], L, "-");
	else
		format_size(t->bs, row->c[C_BS], L);
	snprintf(row->c[C_QD], L, "%" PRIu32, t->qd);
	snprintf(row->c[C_JOBS], L, "%" PRIu32, t->jobs);
	report_fmt_count(t->iops, row->c[C_IOPS], L);
	if (t->moves_files && !t->bytes)
		snprintf(row->c[C_MBS], L, "-");
	else
		report_fmt_dec3(t->bytes_per_sec / 1e6, row->c[C_MBS], L);
	/* beside the figure: it read unwritten space (the notes say how much) */
	if (t->unwritten.flagged) {
		strncat(row->c[C_IOPS], "!", L - strlen(row->c[C_IOPS]) - 1);
		strncat(row->c[C_MBS], "!", L - strlen(row->c[C_MBS]) - 1);
	}
	fmt_pct(t, has_lat, "50", row->c[C_P50], L);
	fmt_pct(t, has_lat, "99", row->c[C_P99], L);
	fmt_pct(t, has_lat, "99.9", row->c[C_P999], L);
	if (has_lat || t->lat_max_given)
		report_fmt_ns((double)t->lat_sum.max, row->c[C_MAX], L);
	else
		snprintf(row->c[C_MAX], L, "-");
	/* user and sys not told apart (bonnie++'s %CP): from the CPU per op */
	if (!isfinite(cpu) && isfinite(t->usec_per_op) && t->runtime_ns)
		cpu = t->usec_per_op * (double)t->ops / ((double)t->runtime_ns / 1e3) * 100;
	if (isnan(cpu) || isinf(cpu))
		snprintf(row->c[C_CPU], L, "-");
	else
		snprintf(row->c[C_CPU], L, "%.1f", cpu);
	if (t->nruns > 1)
		snprintf(row->c[C_CV], L, "%.1f", 100 * t->summary.iops.cv);
	else
		snprintf(row->c[C_CV], L, "-");
}

/* The most runs of any test: more than one shows the CV% column. */
static unsigned max_runs(const struct run_result *r)
{
	unsigned i, n = 0;

	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].nruns > n)
			n = r->tests[i].nruns;
	return n;
}

static void text_cells(struct textw *w, const char *const cell[NCOL], const unsigned width[NCOL],
		       unsigned ncol, unsigned gap)
{
	unsigned i, n;

	for (i = 0; i < ncol; i++) {
		n = (unsigned)strlen(cell[i]);
		if (i)
			textw_pad(w, gap);
		if (i == C_NAME || i == C_ENGINE) {	/* words left, numbers right */
			textw_put(w, cell[i], n);
			if (i < ncol - 1 && n < width[i])
				textw_pad(w, width[i] - n);
		} else {
			if (n < width[i])
				textw_pad(w, width[i] - n);
			textw_put(w, cell[i], n);
		}
	}
	textw_nl(w);
}

static void text_table(struct textw *w, const struct run_result *r)
{
	unsigned ncol = max_runs(r) > 1 ? NCOL : C_CV;
	unsigned width[NCOL], rest, avail, fit, gap, i, k, n;
	const char *cell[NCOL];
	char rule[NCOL][TEXTW_WIDTH + 1];
	struct row row;

	for (k = 0; k < NCOL; k++)
		width[k] = (unsigned)strlen(col_head[k]);
	for (i = 0; i < r->ntests; i++) {
		text_row(&r->tests[i], &row);
		for (k = 0; k < NCOL; k++)
			if (strlen(row.c[k]) > width[k])
				width[k] = (unsigned)strlen(row.c[k]);
	}

	/*
	 * Two spaces between columns when they fit, else one. When even then
	 * the longest test name does not fit, the name column gets the widest
	 * name that does, and longer names get a line of their own above their
	 * row (better than cutting what tells the tests apart).
	 */
	for (rest = 0, k = 0; k < ncol; k++)
		if (k != C_NAME)
			rest += width[k];
	for (gap = 2; gap >= 1; gap--)
		if (rest + gap * (ncol - 1) + width[C_NAME] <= TEXTW_WIDTH)
			break;
	if (!gap) {
		gap = 2;
		rest += gap * (ncol - 1);
		avail = rest < TEXTW_WIDTH ? TEXTW_WIDTH - rest : 0;
		fit = (unsigned)strlen(col_head[C_NAME]);
		for (i = 0; i < r->ntests; i++) {
			n = (unsigned)strnlen(r->tests[i].name, sizeof(r->tests[i].name));
			if (n <= avail && n > fit)
				fit = n;
		}
		width[C_NAME] = fit;
	}

	for (k = 0; k < NCOL; k++) {
		cell[k] = col_head[k];
		memset(rule[k], '-', width[k] < TEXTW_WIDTH ? width[k] : TEXTW_WIDTH);
		rule[k][width[k] < TEXTW_WIDTH ? width[k] : TEXTW_WIDTH] = '\0';
	}
	text_cells(w, cell, width, ncol, gap);
	for (k = 0; k < NCOL; k++)
		cell[k] = rule[k];
	text_cells(w, cell, width, ncol, gap);

	for (i = 0; i < r->ntests; i++) {
		text_row(&r->tests[i], &row);
		for (k = 0; k < NCOL; k++)
			cell[k] = row.c[k];
		if (strlen(row.c[C_NAME]) > width[C_NAME]) {
			textw_start(w, "");
			textw_item(w, "", row.c[C_NAME], strlen(row.c[C_NAME]));
			textw_nl(w);
			cell[C_NAME] = "";
		}
		text_cells(w, cell, width, ncol, gap);
	}
}

/* ---- notes, footer, warnings ---------------------------------------------- */

/* The notes that read the same for every test they concern. */
enum shared_note { NOTE_DROP_BEHIND, NOTE_BUFFERED, NOTE_ZEROS, NOTE_NSHARED };

static bool shared_note(const struct test_result *t, enum shared_note n)
{
	switch (n) {
	case NOTE_DROP_BEHIND:
		return t->drop_behind;
	case NOTE_BUFFERED:	/* empty files (bonnie++ -n): no data to buffer */
		return !t->drop_behind && !t->direct && !(t->params.nfiles && !t->params.file_max);
	case NOTE_ZEROS:
		return t->zero_data;
	default:
		return false;
	}
}

static bool has_notes(const struct test_result *t)
{
	return shared_note(t, NOTE_DROP_BEHIND) || shared_note(t, NOTE_BUFFERED) || t->cached ||
	       t->dev_valid || t->errors || t->trim.method || t->unwritten.flagged ||
	       t->verify.done || t->passes_done || t->cliff_valid || t->zero_data ||
	       t->engine_note[0] || t->steady_max_rounds || t->syscalls_valid ||
	       t->thermal_throttling;
}

/* --steady-state: the window found (or the last one) and the rounds. */
static void text_steady(struct textw *w, const struct test_result *t)
{
	const struct steady_window *sw = &t->steady_window;
	char rounds[TEXTW_WIDTH * 4] = "", v[16];
	size_t used = 0;

	if (sw->n && t->steady)
		text_line(w, "  ", 4, "%.*s: steady state in rounds %u-%u of %u (range %.1f %%, "
			  "slope excursion %.1f %% of their average; SNIA PTS: 20 %%, 10 %%): IOPS "
			  "and MB/s are those rounds' average", FLD(t->name), sw->first + 1,
			  sw->first + sw->n, t->nruns, 100 * sw->range, 100 * sw->excursion);
	else if (sw->n && t->nruns < t->steady_max_rounds)
		text_line(w, "  ", 4, "%.*s: not steady in the %u rounds it ran, cut short of %u "
			  "(the last %u: range %.1f %%, slope excursion %.1f %%): IOPS and MB/s "
			  "are their average", FLD(t->name), t->nruns, t->steady_max_rounds,
			  sw->n, 100 * sw->range, 100 * sw->excursion);
	else if (sw->n)
		text_line(w, "  ", 4, "%.*s: never steady in %u rounds (the last %u: range %.1f %%, "
			  "slope excursion %.1f %%): IOPS and MB/s are their average",
			  FLD(t->name), t->nruns, sw->n, 100 * sw->range, 100 * sw->excursion);
	else
		text_line(w, "  ", 4, "%.*s: steady state not judged: %u round%s ran, cut short "
			  "of %u", FLD(t->name), t->nruns, t->nruns == 1 ? "" : "s",
			  t->steady_max_rounds);
	for (unsigned k = 0; t->runs && k < t->nruns && used + 16 < sizeof(rounds); k++)
		used += (size_t)snprintf(rounds + used, sizeof(rounds) - used, "%s%s",
					 k ? " " : "", report_fmt_count(t->runs[k].iops, v,
									sizeof(v)));
	text_line(w, "  ", 4, "%.*s: IOPS per round: %s", FLD(t->name), rounds);
}

/* Where a sustained write fell, or that it did not. */
static void text_cliff(struct textw *w, const struct run_result *r, const struct test_result *t)
{
	const struct cliff *c = &t->cliff;
	char a[32], b[32], d[32];

	if (!c->points)
		text_line(w, "  ", 4, "%.*s: too short to look for a write cliff (under %u "
			  "timeline points; see --interval, --size)", FLD(t->name),
			  CLIFF_MIN_POINTS);
	else if (!c->found)
		text_line(w, "  ", 4, "%.*s: no write cliff: %s MB/s over all %s MB written "
			  "(%u points)", FLD(t->name), fmt_rate(c->rate_before, a, sizeof(a)),
			  fmt_mb(t->bytes, b, sizeof(b)), c->points);
	else
		text_line(w, "  ", 4, "%.*s: write cliff after %s MB (%.2f s): %s MB/s before, "
			  "%s MB/s after (%+.0f %%)", FLD(t->name),
			  fmt_mb(c->bytes_before, a, sizeof(a)), (double)c->ns_before / 1e9,
			  fmt_rate(c->rate_before, b, sizeof(b)), fmt_rate(c->rate_after, d, sizeof(d)),
			  100 * (c->rate_after / c->rate_before - 1));
	if (c->found && report_cliff_cause(r, t)[0])
		text_line(w, "  ", 4, "%.*s: the cliff's cause: %s", FLD(t->name),
			  report_cliff_cause(r, t));
}

/* Each shared note once, naming its tests in plan order: twelve bonnie++
 * tests make two lines, not twelve paragraphs. */
static void text_shared_notes(struct textw *w, const struct run_result *r)
{
	static const char *const what[NOTE_NSHARED] = {
		[NOTE_DROP_BEHIND] = "buffered, as if its file were larger than RAM: what it "
			"reads or writes is dropped from the page cache behind it, and its writes "
			"reach the device inside the window",
		[NOTE_BUFFERED] = "buffered",
		[NOTE_ZEROS] = "wrote zeros (--data zero): compression or dedup below (btrfs, ZFS, "
			"an SSD's controller) may write far less than it counts",
	};
	char names[2048];

	for (unsigned n = 0; n < NOTE_NSHARED; n++) {
		size_t used = 0;

		names[0] = '\0';
		for (unsigned i = 0; i < r->ntests && used < sizeof(names); i++)
			if (shared_note(&r->tests[i], n))
				used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%.*s",
							 used ? ", " : "", FLD(r->tests[i].name));
		if (used)
			text_line(w, "  ", 4, "%s: %s", names, what[n]);
	}
}

/* A test's own notes (text_shared_notes says the shared ones). A drift is
 * a warning, said there once. */
static void text_notes(struct textw *w, const struct run_result *r, const struct test_result *t)
{
	char a[32], b[32], line[PATH_MAX + 512];

	if (t->direct_refused)
		text_line(w, "  ", 4, "%.*s: O_DIRECT refused by the file system: it ran "
			  "buffered, through the page cache", FLD(t->name));
	if (t->passes_done)
		text_line(w, "  ", 4, "%.*s: ended at the end of its working set (%s MB, %u "
			  "pass%s), before its runtime", FLD(t->name),
			  fmt_mb(t->size, a, sizeof(a)), t->passes, t->passes == 1 ? "" : "es");
	if (t->cliff_valid)
		text_cliff(w, r, t);
	if (t->thermal_throttling)
		text_line(w, "  ", 4, "%.*s: thermal throttling: the drive's thermal counters rose "
			  "or it reached its warning temperature during the test", FLD(t->name));
	if (t->cached)
		text_line(w, "  ", 4, "%.*s: %s (%s MB read from device for %s MB requested)",
			  FLD(t->name), t->cache_ok ? "read from the page cache, as it is "
			  "built to" : "cached: reads did not reach the device",
			  fmt_mb(t->dev_read_bytes, a, sizeof(a)), fmt_mb(t->bytes, b, sizeof(b)));
	if (t->unwritten.flagged)
		text_line(w, "  ", 4, "%.*s: %s", FLD(t->name),
			  report_unwritten_note(t, &r->read_layout, line, sizeof(line)));
	if (t->steady_max_rounds)
		text_steady(w, t);
	if (t->engine_note[0])
		text_line(w, "  ", 4, "%.*s: %s: %.*s", FLD(t->name), t->engine ? t->engine : "engine",
			  FLD(t->engine_note));
	if (t->trim.method)
		text_line(w, "  ", 4, "%.*s: trimmed before it (--trim): %s MB, %s", FLD(t->name),
			  fmt_mb(t->trim.bytes, a, sizeof(a)),
			  !strcmp(t->trim.method, "fitrim") ? "the file system's free space (FITRIM)" :
			  !strcmp(t->trim.method, "blkdiscard") ? "its range of the device "
			  "(BLKDISCARD)" : t->trim.method);
	if (t->verify.done)
		text_line(w, "  ", 4, "%.*s: %s", FLD(t->name),
			  report_verify_note(t, line, sizeof(line)));
	/* what the device moved and what it cost the tool: one note */
	if (t->dev_valid || t->syscalls_valid)
		text_line(w, "  ", 4, "%.*s: %s%s%s%s%s%s%s", FLD(t->name),
			  t->dev_valid ? "device moved: read " : "",
			  t->dev_valid ? fmt_mb(t->dev_read_bytes, a, sizeof(a)) : "",
			  t->dev_valid ? " MB, written " : "",
			  t->dev_valid ? fmt_mb(t->dev_write_bytes, b, sizeof(b)) : "",
			  t->dev_valid ? (t->unwritten.flagged ? " MB (reads of unwritten space are "
					  "counted too: no proof the disk was read)" : " MB") : "",
			  t->dev_valid && t->syscalls_valid ? "; " : "",
			  t->syscalls_valid ? report_cost_note(t, line, sizeof(line)) : "");
	if (t->errors && t->first_errno)
		text_line(w, "  ", 4, "%.*s: errors: %" PRIu64 " (first: %s at offset %" PRIu64 ")",
			  FLD(t->name), t->errors, strerror(t->first_errno),
			  t->first_error_offset);
	else if (t->errors)	/* errno 0: the op completed short */
		text_line(w, "  ", 4, "%.*s: errors: %" PRIu64 " (first: short transfer at offset %"
			  PRIu64 ")", FLD(t->name), t->errors, t->first_error_offset);
}

/*
 * The read tests' unwritten-space check in a few lines: what was laid out
 * first, the tests checked and none flagged (a flagged one has its note),
 * the allocation that could not be read, and the tests not checked,
 * grouped by why.
 */
static void text_unwritten(struct textw *w, const struct run_result *r)
{
	const struct read_layout *l = &r->read_layout;
	unsigned nchecked = 0, nflagged = 0, nlay = 0;
	double most = 0;
	char a[32];

	if (l->laid_out)
		text_line(w, "", 2, "laid out: %s MB of %s written before the read tests "
			  "(--destructive), in %.1f s, so that they read data, not unwritten space",
			  fmt_mb(l->laid_out_bytes, a, sizeof(a)), r->target.path,
			  (double)l->laid_out_ns / 1e9);
	for (unsigned i = 0; i < r->ntests; i++) {
		const struct unwritten *u = &r->tests[i].unwritten;

		if (!u->applies || !(u->checked || u->layout_valid))
			continue;
		nchecked++;
		nflagged += u->flagged;
		nlay += u->layout_valid;
		if (u->checked && u->share > most)
			most = u->share;
		if (u->layout_valid && u->layout_share > most)
			most = u->layout_share;
	}
	if (nchecked && !nflagged)
		text_line(w, "", 2, "unwritten space: %u read test%s checked (%u blocks sampled "
			  "each%s%s), none flagged: at most %.1f %% of a region was unwritten "
			  "(flagged from %.0f %%)", nchecked, nchecked == 1 ? "" : "s",
			  UNWRITTEN_SAMPLES, nlay ? ", and the allocation of " : "",
			  nlay ? l->file : "", 100 * most, 100 * UNWRITTEN_FLAG);
	if (l->known && !l->checked && l->source[0])
		text_line(w, "", 2, "unwritten space: allocation not checked: %s%s", l->why,
			  nchecked ? "; the sample alone decides" : "");
	/* not checked, one line per reason */
	for (unsigned i = 0; i < r->ntests; i++) {
		const struct unwritten *u = &r->tests[i].unwritten;
		char names[512] = "";
		size_t used = 0;
		bool seen = false;

		if (!u->applies || u->checked || u->layout_valid)
			continue;
		for (unsigned k = 0; k < i && !seen; k++) {
			const struct unwritten *v = &r->tests[k].unwritten;

			seen = v->applies && !v->checked && !v->layout_valid &&
			       !strcmp(v->why, u->why);
		}
		if (seen)
			continue;
		for (unsigned k = i; k < r->ntests; k++) {
			const struct unwritten *v = &r->tests[k].unwritten;

			if (v->applies && !v->checked && !v->layout_valid &&
			    !strcmp(v->why, u->why) && used < sizeof(names))
				used += (size_t)snprintf(names + used, sizeof(names) - used,
							 "%s%.*s", used ? ", " : "",
							 FLD(r->tests[k].name));
		}
		text_line(w, "", 2, "unwritten space: not checked: %s (%s)", u->why, names);
	}
}

/* ---- hdparm's own lines ------------------------------------------------------ */

/*
 * The lines hdparm -t and -T print, from the measured bytes and window, so
 * they can be pasted next to old hdparm output. hdparm's "MB" is 2^20 bytes
 * (it counts 2 MiB reads as 2 MB) and its MB/sec likewise, unlike the
 * table's MB/s (10^6); it switches to kB/sec (2^10) at 1 MB/sec and below.
 */
static void text_hdparm(struct textw *w, const struct run_result *r)
{
	const double mib = 1024.0 * 1024.0;
	const struct test_result *t;
	bool head = false;
	double secs, rate;
	unsigned i;

	for (i = 0; i < r->ntests; i++) {
		t = &r->tests[i];
		if (t->hdparm_line == WL_REPORT_NONE || !t->runtime_ns)
			continue;
		if (!head) {
			textw_nl(w);
			text_line(w, "", 0, "hdparm's figures (MB = 2^20 bytes):");
			head = true;
		}
		secs = (double)t->runtime_ns / 1e9;
		rate = (double)t->bytes / mib / secs;
		if (t->hdparm_line == WL_REPORT_HDPARM_DISK)
			textw_raw(w, " Timing %s disk reads: %3" PRIu64 " MB in %5.2f seconds = "
				  "%6.2f %s", t->direct ? "O_DIRECT" : "buffered", t->bytes >> 20,
				  secs, rate > 1.0 ? rate : rate * 1024,
				  rate > 1.0 ? "MB/sec" : "kB/sec");
		else
			textw_raw(w, " Timing %scached reads:   %3" PRIu64 " MB in %5.2f seconds = "
				  "%6.2f %s", t->direct ? "O_DIRECT " : "", t->bytes >> 20, secs,
				  rate > 1.0 ? rate : rate * 1024,
				  rate > 1.0 ? "MB/sec" : "kB/sec");
	}
}

/* Xbench's disk-test block: a score per test, the groups and the total,
 * laid out like Xbench's own report (score, then the measured rate). */
static void text_xbench(struct textw *w, const struct xbench_scores *x)
{
	bool seq, prev_seq = false;
	unsigned i;

	if (!x->valid)
		return;
	textw_nl(w);
	text_line(w, "", 0, "Xbench scores (100 = the baseline; groups and the total are harmonic "
		  "means, as in Xbench), against %s:", x->source);
	textw_raw(w, "  %-34s %9.2f", "Disk Test", x->total);
	for (i = 0; i < x->n; i++) {
		const struct xbench_score *t = &x->tests[i];

		seq = t->sequential;
		if (i == 0 || seq != prev_seq)
			textw_raw(w, "    %-32s %9.2f", seq ? "Sequential" : "Random",
				  seq ? x->sequential : x->random);
		prev_seq = seq;
		textw_raw(w, "      %-30s %9.2f %10.2f MB/sec", t->name, t->score,
			  t->measured / 1e6);
	}
}

/* --precondition: what was written before the tests. */
static void text_precondition(struct textw *w, const struct run_precondition *p)
{
	char a[32], b[32], c[32], d[32];

	text_line(w, "", 0, "precondition: wrote %s MB sequentially in %u KiB blocks at QD %u "
		  "(%s%u pass%s over %s MB) in %.1f s, %s MB/s%s%s%s", fmt_mb(p->bytes, a, sizeof(a)),
		  p->bs >> 10, p->qd, p->complete ? "" : "cut short: of ", p->passes,
		  p->passes == 1 ? "" : "es", fmt_mb(p->region, b, sizeof(b)),
		  (double)p->time_ns / 1e9,
		  fmt_rate(p->time_ns ? (double)p->bytes * 1e9 / (double)p->time_ns : 0, c, sizeof(c)),
		  p->dev_valid ? "; the device moved " : "", p->dev_valid ?
		  fmt_mb(p->dev_write_bytes, d, sizeof(d)) : "", p->dev_valid ? " MB" : "");
	textw_nl(w);
}

int report_text(FILE *f, const struct run_result *r)
{
	struct textw w = { .f = f };
	bool notes = false, unwritten = false;
	char b[32];
	unsigned i;

	text_header(&w, r);
	textw_nl(&w);
	if (r->precondition.done)
		text_precondition(&w, &r->precondition);

	if (r->ntests)
		text_table(&w, r);
	for (i = 0; i < r->ntests; i++)
		unwritten |= r->tests[i].unwritten.flagged;
	if (unwritten)
		text_line(&w, "! ", 2, "read unwritten space (see notes): not the disk's speed; "
			  "write the region first, or use --destructive, which lays it out before "
			  "the read tests");
	if (!r->ntests)
		text_line(&w, "", 0, "no tests were run");

	for (i = 0; i < r->ntests; i++)
		notes |= has_notes(&r->tests[i]);
	if (notes) {
		textw_nl(&w);
		text_line(&w, "", 0, "notes:");
		text_shared_notes(&w, r);
		for (i = 0; i < r->ntests; i++)
			text_notes(&w, r, &r->tests[i]);
	}
	text_unwritten(&w, r);
	report_text_ranks(&w, r);
	report_text_figures(&w, r);
	text_hdparm(&w, r);
	text_xbench(&w, &r->xbench);

	textw_nl(&w);
	if (!strcmp(r->imported_from.tool, "fio"))	/* import.h: what fio's figures are */
		text_line(&w, "", 0, "MB/s = 10^6 bytes/s; latency fio's completion latency "
			  "(clat), as fio measured it");
	else if (!strcmp(r->imported_from.tool, "bonnie++"))
		text_line(&w, "", 0, "MB/s = 10^6 bytes/s; figures as bonnie++ measured them: "
			  "max its latency (the slowest op), CPU%% its %%CP (user + sys)");
	else if (r->imported_from.tool[0])
		text_line(&w, "", 0, "MB/s = 10^6 bytes/s; figures as %.*s measured them",
			  FLD(r->imported_from.tool));
	else
		text_line(&w, "", 0, "MB/s = 10^6 bytes/s; latency per op from submission to "
			  "completion; clock cost %s",
			  report_fmt_ns((double)r->clock_overhead_ns, b, sizeof(b)));
	if (r->ntests && r->tests[0].steady_max_rounds)
		text_line(&w, "", 0, "--steady-state: each test runs in rounds until 5 of them hold "
			  "steady (SNIA PTS), at most its round limit; IOPS and MB/s are the "
			  "average of the steady 5 (else of the last 5; of fewer rounds, their "
			  "median), latency and CPU%% over every op of every round");
	else if (max_runs(r) > 1)
		text_line(&w, "", 0, "--repeat: IOPS and MB/s are the median of each test's runs, "
			  "latency and CPU%% over every op of every run; CV%% = stdev / mean of "
			  "the runs' IOPS (above %.0f %% the median is flagged as not reliable)",
			  100 * REPEAT_CV_WARN);

	for (i = 0; i < r->nwarnings; i++) {
		textw_start(&w, "warning: ");
		textw_words(&w, r->warnings[i] ? r->warnings[i] : "", text_ws);
		textw_nl(&w);
	}
	return textw_finish(&w);
}
