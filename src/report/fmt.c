/* fmt.c - human-readable latencies, counts, capacities and notes shared by the renderers. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report.h"

/*
 * Decimals that show x (>= 1, < 999.5) with 3 significant digits. The
 * thresholds are the midpoints where printf's rounding would add a digit
 * ("9.996" -> "10.00"), so the output never grows to 4 digits.
 */
static int sig3_decimals(double x)
{
	if (x < 9.995)
		return 2;
	if (x < 99.95)
		return 1;
	return 0;
}

const char *report_fmt_ns(double ns, char *buf, size_t len)
{
	static const char *const units[] = { "us", "ms", "s" };
	unsigned u;
	double x;

	if (!len)
		return buf;
	if (isnan(ns) || isinf(ns) || ns < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	/* Below a microsecond the clock itself costs tens of ns: no decimals. */
	if (ns < 999.5) {
		snprintf(buf, len, "%.0fns", ns);
		return buf;
	}
	x = ns / 1000;
	for (u = 0; u < 2 && x >= 999.5; u++)
		x /= 1000;
	if (x >= 999.5)		/* seconds do not grow into ks */
		snprintf(buf, len, "%.0f%s", x, units[u]);
	else
		snprintf(buf, len, "%.*f%s", sig3_decimals(x), x, units[u]);
	return buf;
}

const char *report_fmt_dec3(double x, char *buf, size_t len)
{
	if (isnan(x) || isinf(x))
		snprintf(buf, len, "-");
	else if (x >= 99.95 || x == 0)
		snprintf(buf, len, "%.0f", x);
	else if (x >= 9.995)
		snprintf(buf, len, "%.1f", x);
	else
		snprintf(buf, len, "%.2f", x);
	return buf;
}

const char *report_fmt_count(double v, char *buf, size_t len)
{
	static const char *const units[] = { "k", "M", "G", "T", "P", "E" };
	unsigned u;
	double x;

	if (!len)
		return buf;
	if (isnan(v) || isinf(v) || v < 0) {
		snprintf(buf, len, "-");
		return buf;
	}
	if (v < 999.5) {
		if (v == (double)(unsigned)v)
			snprintf(buf, len, "%u", (unsigned)v);
		else if (v < 1)
			snprintf(buf, len, "%.3g", v);
		else
			snprintf(buf, len, "%.*f", sig3_decimals(v), v);
		return buf;
	}
	x = v / 1000;
	for (u = 0; u < 5 && x >= 999.5; u++)
		x /= 1000;
	if (x >= 999.5)
		snprintf(buf, len, "%.0f%s", x, units[u]);
	else
		snprintf(buf, len, "%.*f%s", sig3_decimals(x), x, units[u]);
	return buf;
}

const char *report_fmt_capacity(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double x = (double)bytes / 1024;
	unsigned u;

	if (!len)
		return buf;
	if (bytes < 1024) {
		snprintf(buf, len, "%" PRIu64 " B", bytes);
		return buf;
	}
	/* 1023.5 KiB would print as "1024 KiB": that is 1.00 MiB */
	for (u = 0; u < 5 && x >= 1023.5; u++)
		x /= 1024;
	snprintf(buf, len, "%.*f %s", sig3_decimals(x), x, units[u]);
	return buf;
}

/* v as a saved result holds it: written with decimals places (jw_fixed),
 * read back by strtod. A figure the JSON keeps only so (cpu.job_max_pct)
 * is shown from this, so that a run's own text and the report of its
 * saved result round alike (49.4996 would show as 49 in one, 50 in the
 * other). */
static double as_saved(double v, int decimals)
{
	char b[64];

	snprintf(b, sizeof(b), "%.*f", decimals, v);
	return strtod(b, NULL);
}

const char *report_cost_note(const struct test_result *t, char *buf, size_t len)
{
	buf[0] = '\0';
	if (t->syscalls_valid)
		snprintf(buf, len, "tool's own cost: %.2f system calls and %.3f us CPU per op (%"
			 PRIu64 " calls), busiest job %.0f %% of a CPU", t->syscalls_per_op,
			 t->usec_per_op, t->syscalls, as_saved(t->cpu_job_max_pct, 3));
	/* the machine's load as the jobs felt it (compare bands by it) */
	if (t->syscalls_valid && t->cpu_wait_valid)
		snprintf(buf + strlen(buf), len - strlen(buf), ", jobs waited for a CPU %.1f %% "
			 "of the time", t->cpu_wait_pct);
	return buf;
}

const char *report_unwritten_note(const struct test_result *t, const struct read_layout *l,
				  char *buf, size_t len)
{
	const struct unwritten *u = &t->unwritten;
	char lay[PATH_MAX + 160] = "", smp[200] = "";

	buf[0] = '\0';
	if (!u->applies)
		return buf;
	if (u->layout_valid)
		snprintf(lay, sizeof(lay), "%.1f %% of its region unallocated in %s (%s)",
			 100 * u->layout_share, l && l->file[0] ? l->file : "its file",
			 l && l->source[0] ? l->source : "allocation");
	if (u->checked)
		snprintf(smp, sizeof(smp), "%u of %u sampled blocks blank, zeros or one "
			 "pattern (%.1f %%, 95 %% CI %.1f-%.1f %%)", u->blank, u->sampled,
			 100 * u->share, 100 * u->lo, 100 * u->hi);
	else
		snprintf(smp, sizeof(smp), "sample not checked: %s", u->why);
	if (u->flagged)
		snprintf(buf, len, "UNWRITTEN: %s%s%s", lay, lay[0] ? "; " : "", smp);
	else if (!u->checked && !u->layout_valid)
		snprintf(buf, len, "unwritten space: not checked: %s", u->why);
	else
		snprintf(buf, len, "unwritten space: %s%s%s", lay, lay[0] ? "; " : "", smp);
	return buf;
}

const char *report_verify_note(const struct test_result *t, char *buf, size_t len)
{
	const struct verify_sum *v = &t->verify;
	char first[160], mb[32];

	buf[0] = '\0';
	if (!v->done)
		return buf;
	verify_first_bad(v, first, sizeof(first));
	snprintf(buf, len, "blocks read back and checked: %" PRIu64 ", %" PRIu64 " bad%s%s (%s MB "
		 "in %.2f s%s)", v->blocks, v->bad, v->bad ? ", the first " : "", first,
		 report_fmt_dec3((double)v->bytes / 1e6, mb, sizeof(mb)), (double)v->time_ns / 1e9,
		 v->timed ? "" : ", after the window, untimed");
	return buf;
}
