/* health_words.c - the drive's health in words, for every report (report.h). */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* Append to buf[*used..len), keeping it terminated. */
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void add(char *buf, size_t len, size_t *used, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*used >= len)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf + *used, len - *used, fmt, ap);
	va_end(ap);
	if (n > 0)
		*used = *used + (size_t)n < len ? *used + (size_t)n : len - 1;
}

/* Decimal bytes, as drives count them: "12.3 TB", "512 MB". */
static const char *dec_bytes(int64_t v, char *b, size_t len)
{
	static const char *const unit[] = { "B", "kB", "MB", "GB", "TB", "PB" };
	double x = (double)v;
	unsigned u = 0;

	while (x >= 1000 && u + 1 < sizeof(unit) / sizeof(unit[0])) {
		x /= 1000;
		u++;
	}
	snprintf(b, len, u ? "%.3g %s" : "%.0f %s", x, unit[u]);
	return b;
}

const char *report_health_snap(const struct health_snap *s, char *buf, size_t len)
{
	const char *sep = "";
	size_t used = 0;
	char b[32];

	buf[0] = '\0';
#define ITEM(...) (add(buf, len, &used, "%s", sep), add(buf, len, &used, __VA_ARGS__), sep = ", ")
	if (s->protocol[0])
		ITEM("%.*s", (int)sizeof(s->protocol), s->protocol);
	if (s->temperature_c >= 0) {
		ITEM("%" PRId64 " C", s->temperature_c);
		if (s->temperature_warn_c > 0)
			add(buf, len, &used, " (warning at %" PRId64 " C)", s->temperature_warn_c);
	}
	if (s->percentage_used >= 0)
		ITEM("%" PRId64 " %% used", s->percentage_used);
	if (s->power_on_hours >= 0)
		ITEM("%" PRId64 " power-on hours", s->power_on_hours);
	if (s->media_errors >= 0)
		ITEM("%" PRId64 " media errors", s->media_errors);
	if (s->crc_errors >= 0)
		ITEM("%" PRId64 " CRC errors", s->crc_errors);
	if (s->written_bytes >= 0)
		ITEM("%s written", dec_bytes(s->written_bytes, b, sizeof(b)));
	if (s->read_bytes >= 0)
		ITEM("%s read", dec_bytes(s->read_bytes, b, sizeof(b)));
	if (s->thermal_transitions >= 0)
		ITEM("%" PRId64 " thermal throttling transitions", s->thermal_transitions);
#undef ITEM
	return buf;
}

/* What diskbench itself wrote: the write tests, the precondition and the
 * layout of the read tests' data. */
static uint64_t bytes_written(const struct run_result *r)
{
	uint64_t n = r->precondition.done ? r->precondition.bytes : 0;

	if (r->read_layout.laid_out)
		n += r->read_layout.laid_out_bytes;
	for (unsigned i = 0; i < r->ntests; i++)
		if (r->tests[i].is_write)
			n += r->tests[i].bytes;
	return n;
}

const char *report_health_delta(const struct run_result *r, char *buf, size_t len)
{
	const struct health_snap *a = &r->health.before, *z = &r->health.after;
	int64_t w = health_delta(a->written_bytes, z->written_bytes);
	int64_t rd = health_delta(a->read_bytes, z->read_bytes);
	int64_t me = health_delta(a->media_errors, z->media_errors);
	int64_t crc = health_delta(a->crc_errors, z->crc_errors);
	uint64_t ours = bytes_written(r);
	char b[32], d[32];
	size_t used = 0;

	buf[0] = '\0';
	if (!a->valid || !z->valid)
		return buf;
	if (w >= 0) {
		add(buf, len, &used, "the drive counted %s written against %s diskbench wrote",
		    dec_bytes(w, b, sizeof(b)), dec_bytes((int64_t)ours, d, sizeof(d)));
		if (ours)
			add(buf, len, &used, " (%.2fx%s)", (double)w / (double)ours,
			    (double)w > 1.1 * (double)ours ? ": more than was asked of it, another "
			    "writer or the drive's own" : "");
	}
	if (rd >= 0)
		add(buf, len, &used, "%s%s read", used ? ", " : "", dec_bytes(rd, b, sizeof(b)));
	if (me >= 0)
		add(buf, len, &used, "%s%" PRId64 " new media errors", used ? "; " : "", me);
	if (crc >= 0)
		add(buf, len, &used, "%s%" PRId64 " new CRC errors", used ? ", " : "", crc);
	if (a->temperature_c >= 0 && z->temperature_c >= 0)
		add(buf, len, &used, "%stemperature %" PRId64 " -> %" PRId64 " C", used ? "; " : "",
		    a->temperature_c, z->temperature_c);
	return buf;
}

const char *report_cliff_cause(const struct run_result *r, const struct test_result *t)
{
	if (t->thermal_known && t->thermal_throttling)
		return "the evidence points to thermal throttling: the drive's thermal "
		       "counters rose or it reached its warning temperature during the test";
	if (t->thermal_known)
		return "the evidence points to the drive's write cache (SLC) filling: it "
		       "reported no thermal throttling during the test";
	if (r->health.checked)
		return "no health data to tell thermal throttling from a cache filling";
	return "";
}
