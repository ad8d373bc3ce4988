/* text_classic.c - the text report's tables in a classic tool's own layout: bonnie++'s, CrystalDiskMark's. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "bonnie_line.h"
#include "report.h"
#include "textw.h"

/* Running text, wrapped at white space, on its own line(s). */
static void words(struct textw *w, const char *s)
{
	textw_start(w, "");
	textw_words(w, s, " \t\n\r");
	textw_nl(w);
}

/* ---- bonnie++ ---------------------------------------------------------------- */

/*
 * A K/sec rate as bonnie++ 2.00 prints it in 5 columns: K/sec below 10000,
 * then MiB/s ("m", one decimal below 100), then GiB/s ("g"), from the
 * whole K/sec the CSV holds, so that this and bon_csv2txt on our
 * --bonnie-csv line print the same cell.
 */
static void bonnie_speed(double bytes_per_sec, char *buf, size_t len)
{
	double k = round(bytes_per_sec / 1024), m = k / 1024;

	if (k < 10000)
		snprintf(buf, len, "%.0fk", k);
	else if (m < 100)
		snprintf(buf, len, "%.1fm", m);
	else if (m < 1000)
		snprintf(buf, len, "%.0fm", floor(m + 0.5));
	else
		snprintf(buf, len, "%.1fg", m / 1024);
}

/* An ops/sec rate (seeks, files) in 5 columns. */
static void bonnie_ops(double ops, char *buf, size_t len)
{
	if (ops < 99.95)
		snprintf(buf, len, "%.1f", ops);
	else if (ops < 99999.5)
		snprintf(buf, len, "%.0f", ops);
	else
		snprintf(buf, len, "%.0fk", ops / 1000);
}

/* The first column: the name cut so that name, a space and what follows
 * (the size, or the files) fit 18 columns, as bon_csv2txt does, right-
 * aligned in 19. */
static void bonnie_desc(const char *name, const char *what, char *buf, size_t len)
{
	size_t n = strlen(what);
	int room = n < 18 ? (int)(18 - n) : 0;

	if (room)
		snprintf(buf, len, "%-*.*s %s", room, room, name, what);
	else
		snprintf(buf, len, "%s", what);
}

/* One row of six tests: rate and %CP each, "-" for a test that did not run. */
static void bonnie_row(struct textw *w, const char *desc, const struct test_result *const t[6],
		       bool bytes_at[6])
{
	char c[6][2][16];

	for (unsigned i = 0; i < 6; i++) {
		if (!t[i]) {
			snprintf(c[i][0], sizeof(c[i][0]), "-");
			snprintf(c[i][1], sizeof(c[i][1]), "-");
			continue;
		}
		if (bytes_at[i])
			bonnie_speed(t[i]->bytes_per_sec, c[i][0], sizeof(c[i][0]));
		else
			bonnie_ops(t[i]->iops, c[i][0], sizeof(c[i][0]));
		snprintf(c[i][1], sizeof(c[i][1]), "%d", bonnie_cpu(t[i]));
	}
	textw_raw(w, "%19s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s %5s %3s", desc,
		  c[0][0], c[0][1], c[1][0], c[1][1], c[2][0], c[2][1], c[3][0], c[3][1],
		  c[4][0], c[4][1], c[5][0], c[5][1]);
}

/* The slowest op of each test (bonnie++'s only latency), "-" where none ran. */
static void bonnie_latencies(struct textw *w, const struct test_result *const t[6])
{
	char c[6][24];

	for (unsigned i = 0; i < 6; i++) {
		bonnie_latency(t[i], c[i], sizeof(c[i]));
		if (!t[i])
			snprintf(c[i], sizeof(c[i]), "-");
	}
	textw_raw(w, "Latency           %9s %9s %9s %9s %9s %9s", c[0], c[1], c[2], c[3], c[4],
		  c[5]);
}

static bool any(const struct test_result *const t[6])
{
	for (unsigned i = 0; i < 6; i++)
		if (t[i])
			return true;
	return false;
}

/*
 * bonnie++'s two tables, laid out as bonnie++ 2.00 (and bon_csv2txt on
 * our --bonnie-csv line) prints them, from the same fields as the CSV.
 */
static void text_bonnie(struct textw *w, const struct run_result *r)
{
	bool io_bytes[6] = { true, true, true, true, true, false }, file_bytes[6] = { false };
	struct bonnie_line b;
	char size[96], desc[128], files[96];
	size_t n;

	bonnie_line_of(r, &b);
	if (!any(b.io) && !any(b.file))
		return;
	textw_nl(w);
	words(w, "bonnie++'s layout (as bonnie++ 2.00 and bon_csv2txt print it): /sec is K/sec "
	      "for the byte tests, shown in k, m or g (KiB, MiB or GiB per second), and per "
	      "second for seeks and files; %CP the CPU use; Latency the slowest op; - a test "
	      "that did not run. Every figure was measured: no +++++.");
	if (any(b.io)) {
		/* size:chunk:seeks:seekers, empty fields kept inside, trailing
		 * ones dropped, as bon_csv2txt joins them */
		n = 0;
		if (b.has_size)
			n += (size_t)snprintf(size, sizeof(size), "%" PRIu64 "M:%u:", b.size_mib,
					      b.chunk);
		else
			n += (size_t)snprintf(size, sizeof(size), "::");
		if (b.seekers)
			snprintf(size + n, sizeof(size) - n, ":%u", b.seekers);
		n = strlen(size);
		while (n && size[n - 1] == ':')
			size[--n] = '\0';
		textw_raw(w, "Version %9s   ------Sequential Output------ --Sequential Input- "
			  "--Random-", r->tool_version ? r->tool_version : "");
		textw_raw(w, "                    -Per Chr- --Block-- -Rewrite- -Per Chr- "
			  "--Block-- --Seeks--");
		textw_raw(w, "Name:Size etc        /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  "
			  "/sec %%CP  /sec %%CP");
		bonnie_desc(b.host, size, desc, sizeof(desc));
		bonnie_row(w, desc, b.io, io_bytes);
		bonnie_latencies(w, b.io);
	}
	if (any(b.file)) {
		n = (size_t)snprintf(files, sizeof(files), "%" PRIu64, b.files_k);
		if (b.file_max)
			n += (size_t)snprintf(files + n, sizeof(files) - n, ":%" PRIu64, b.file_max);
		if (b.file_min)
			n += (size_t)snprintf(files + n, sizeof(files) - n, ":%" PRIu64, b.file_min);
		if (b.ndirs > 1)
			snprintf(files + n, sizeof(files) - n, "/%u", b.ndirs);
		textw_raw(w, "                    ------Sequential Create------ --------Random "
			  "Create--------");
		textw_raw(w, "                    -Create-- --Read--- -Delete-- -Create-- --Read--- "
			  "-Delete--");
		textw_raw(w, "      files:max:min  /sec %%CP  /sec %%CP  /sec %%CP  /sec %%CP  "
			  "/sec %%CP  /sec %%CP");
		bonnie_desc(b.host, files, desc, sizeof(desc));
		bonnie_row(w, desc, b.file, file_bytes);
		bonnie_latencies(w, b.file);
	}
}

/* ---- CrystalDiskMark ------------------------------------------------------------ */

#define CRYSTAL_MAX_ROWS 16

/* A row of the grid: one setting (SEQ1M Q8T1), its read and its write. */
struct crystal_row {
	char label[32];
	const struct test_result *read, *write;
};

/* The block tests CrystalDiskMark's grid is made of. */
static bool crystal_test(const struct test_result *t)
{
	static const char *const wls[] = { "seq-read", "seq-write", "rand-read", "rand-write" };

	for (unsigned i = 0; i < sizeof(wls) / sizeof(wls[0]); i++)
		if (t->workload && !strcmp(t->workload, wls[i]))
			return true;
	return false;
}

/* "SEQ1M Q8T1", "RND4K Q32T16": pattern, block size in K or M, queue
 * depth, threads (jobs), as CrystalDiskMark names its tests. */
static void crystal_label(const struct test_result *t, char *buf, size_t len)
{
	char bs[16];

	if (t->bs >= (1u << 20) && !(t->bs & ((1u << 20) - 1)))
		snprintf(bs, sizeof(bs), "%uM", t->bs >> 20);
	else if (!(t->bs & 1023))
		snprintf(bs, sizeof(bs), "%uK", t->bs >> 10);
	else
		snprintf(bs, sizeof(bs), "%uB", t->bs);
	snprintf(buf, len, "%s%s Q%uT%u", t->random ? "RND" : "SEQ", bs, t->qd, t->jobs);
}

/* A cell: the best pass in MB/s, and with several passes their mean. */
static void crystal_cell(const struct test_result *t, bool passes, char *buf, size_t len)
{
	double best, mean;

	if (!t) {
		snprintf(buf, len, "-");
		return;
	}
	best = t->nruns ? t->summary.bytes_per_sec.max : t->bytes_per_sec;
	mean = t->nruns ? t->summary.bytes_per_sec.mean : t->bytes_per_sec;
	if (passes)
		snprintf(buf, len, "%.2f [%.2f]", best / 1e6, mean / 1e6);
	else
		snprintf(buf, len, "%.2f", best / 1e6);
}

/*
 * CrystalDiskMark's grid: a row per setting, read and write in MB/s, each
 * the best of its passes, as CrystalDiskMark reports (and KDiskMark's Peak
 * and Real World profiles; its Default profile reports the mean, shown in
 * brackets). A pass is one run of --repeat.
 */
static void text_crystal(struct textw *w, const struct run_result *r)
{
	struct crystal_row rows[CRYSTAL_MAX_ROWS];
	unsigned nrows = 0, passes = 0, i, k;
	char label[32], rd[48], wr[48], head[256];

	for (i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];

		if (!crystal_test(t))
			continue;
		crystal_label(t, label, sizeof(label));
		for (k = 0; k < nrows && strcmp(rows[k].label, label); k++)
			;
		if (k == nrows) {
			if (nrows == CRYSTAL_MAX_ROWS)
				continue;
			memset(&rows[k], 0, sizeof(rows[k]));
			snprintf(rows[k].label, sizeof(rows[k].label), "%s", label);
			nrows++;
		}
		if (t->is_write && !rows[k].write)
			rows[k].write = t;
		else if (!t->is_write && !rows[k].read)
			rows[k].read = t;
		if (t->nruns > passes)
			passes = t->nruns;
	}
	if (!nrows)
		return;
	textw_nl(w);
	if (passes > 1)
		snprintf(head, sizeof(head), "CrystalDiskMark's grid (MB/s = 10^6 bytes/s): each "
			 "figure is the best of its %u passes, as CrystalDiskMark reports it; in "
			 "brackets their mean, as KDiskMark's Default profile reports it.", passes);
	else
		snprintf(head, sizeof(head), "CrystalDiskMark's grid (MB/s = 10^6 bytes/s), from "
			 "one pass: CrystalDiskMark reports the best of 5 (--repeat 5).");
	words(w, head);
	textw_raw(w, "  %-14s %22s %22s", "", "Read", "Write");
	for (k = 0; k < nrows; k++) {
		crystal_cell(rows[k].read, passes > 1, rd, sizeof(rd));
		crystal_cell(rows[k].write, passes > 1, wr, sizeof(wr));
		textw_raw(w, "  %-14s %22s %22s", rows[k].label, rd, wr);
	}
}

/* ---- dispatch --------------------------------------------------------------------- */

static const struct {
	const char *name;	/* the value of the "figures" setting */
	void (*render)(struct textw *w, const struct run_result *r);
} figures[] = {
	{ .name = "bonnie", .render = text_bonnie },
	{ .name = "crystal", .render = text_crystal },
};

void report_text_figures(struct textw *w, const struct run_result *r)
{
	const char *want = result_setting(r, "figures");

	if (!want)
		return;
	for (unsigned i = 0; i < sizeof(figures) / sizeof(figures[0]); i++)
		if (!strcmp(figures[i].name, want))
			figures[i].render(w, r);
}
