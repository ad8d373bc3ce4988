/* compare_text.c - the human before/after report of a comparison (100 columns). */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "compare.h"
#include "report.h"

#define TEXT_WIDTH 100
#define TESTNAME_MIN 20
#define TESTNAME_MAX 32

struct out {
	FILE *f;
	int err;
};

/* One line, at most TEXT_WIDTH bytes (cut at a UTF-8 character boundary);
 * control characters of a label or path become '?'. */
static void line(struct out *o, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void line(struct out *o, const char *fmt, ...)
{
	char b[1024];
	size_t n, i;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	n = strlen(b);
	if (n > TEXT_WIDTH) {
		n = TEXT_WIDTH;
		while (n && ((unsigned char)b[n] & 0xc0) == 0x80)
			n--;
	}
	while (n && b[n - 1] == ' ')
		n--;
	for (i = 0; i < n; i++)
		if ((unsigned char)b[i] < 0x20 || b[i] == 0x7f)
			b[i] = '?';
	b[n] = '\0';
	if (o->err)
		return;
	errno = 0;
	if (fputs(b, o->f) == EOF || putc('\n', o->f) == EOF)
		o->err = errno ? -errno : -EIO;
}

/* "+12.3%", with "~" when the change is within the noise. */
static const char *fmt_change(const struct compare_value *v, char *buf, size_t len)
{
	if (isnan(v->change_pct))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%+.1f%%%s", v->change_pct, v->within_noise == 1 ? "~" : "");
	return buf;
}

static unsigned name_width(const struct compare_pair *p)
{
	unsigned w = TESTNAME_MIN, i;
	size_t n;

	for (i = 0; i < p->ntests; i++) {
		n = strnlen(p->tests[i].before->name, sizeof(p->tests[i].before->name)) +
		    (p->tests[i].mismatch[0] ? 1 : 0);
		if (n > w)
			w = n > TESTNAME_MAX ? TESTNAME_MAX : (unsigned)n;
	}
	return w;
}

static void text_table(struct out *o, const struct compare_pair *p)
{
	char name[80], ib[16], ia[16], ic[16], lb[16], la[16], lc[16], cc[16];
	const struct compare_test *t;
	unsigned w = name_width(p), i;
	bool noise = false, mism = false;

	line(o, "%-*s %11s %8s %7s %11s %8s %7s %7s", (int)w, "Test", "IOPS before", "after",
	     "change", "p99 before", "after", "change", "CPU/op");
	for (i = 0; i < p->ntests; i++) {
		t = &p->tests[i];
		snprintf(name, sizeof(name), "%.*s%s", (int)sizeof(t->before->name),
			 t->before->name, t->mismatch[0] ? "!" : "");
		line(o, "%-*.*s %11s %8s %7s %11s %8s %7s %7s", (int)w, (int)w, name,
		     report_fmt_count(t->m[CMP_IOPS].before, ib, sizeof(ib)),
		     report_fmt_count(t->m[CMP_IOPS].after, ia, sizeof(ia)),
		     fmt_change(&t->m[CMP_IOPS], ic, sizeof(ic)),
		     report_fmt_ns(t->m[CMP_LAT_P99].before, lb, sizeof(lb)),
		     report_fmt_ns(t->m[CMP_LAT_P99].after, la, sizeof(la)),
		     fmt_change(&t->m[CMP_LAT_P99], lc, sizeof(lc)),
		     fmt_change(&t->m[CMP_CPU_PER_OP], cc, sizeof(cc)));
		noise |= t->m[CMP_IOPS].within_noise == 1 || t->m[CMP_LAT_P99].within_noise == 1 ||
			 t->m[CMP_CPU_PER_OP].within_noise == 1;
		mism |= t->mismatch[0] != '\0';
	}
	if (!p->ntests)
		line(o, "(no test ran on both sides)");
	line(o, "change: after vs before, positive = better (more IOPS, less latency and CPU per op)");
	if (noise)
		line(o, "~ within noise: |after/before - 1| < %.0f x the larger CV of the two sides' runs",
		     COMPARE_NOISE_K);
	if (mism) {
		line(o, "! not comparable, measured differently:");
		for (i = 0; i < p->ntests; i++)
			if (p->tests[i].mismatch[0])
				line(o, "  %.*s: %s", (int)sizeof(p->tests[i].before->name),
				     p->tests[i].before->name, p->tests[i].mismatch);
	}
}

static void text_only(struct out *o, const char *what, const struct test_result *const *t,
		      unsigned n)
{
	char b[TEXT_WIDTH * 4];
	unsigned i;

	if (!n)
		return;
	snprintf(b, sizeof(b), "Only in %s:", what);
	for (i = 0; i < n; i++) {
		size_t len = strlen(b), add = strnlen(t[i]->name, sizeof(t[i]->name)) + 2;

		/* Wrap the list: a new line once this one is full. */
		if (len + add > TEXT_WIDTH && len > 4) {
			line(o, "%s%s", b, i ? "," : "");
			snprintf(b, sizeof(b), "  %.*s", (int)sizeof(t[i]->name), t[i]->name);
			continue;
		}
		snprintf(b + len, sizeof(b) - len, "%s %.*s", i ? "," : "",
			 (int)sizeof(t[i]->name), t[i]->name);
	}
	line(o, "%s", b);
}

static void text_pair(struct out *o, const struct compare *c, const struct compare_pair *p)
{
	const struct compare_diff *d;
	char w[16], bst[16];
	unsigned i;

	line(o, "%s", "");
	line(o, "== %s (%s) vs %s ==", p->label, p->file, c->base_label);
	if (!p->ndiffs) {
		line(o, "Settings, target and host: the same.");
	} else {
		line(o, "What differs (before -> after):");
		for (i = 0; i < p->ndiffs; i++) {
			d = &p->diffs[i];
			line(o, "  %-26s %s -> %s", d->key, d->before[0] ? d->before : "(none)",
			     d->after[0] ? d->after : "(none)");
		}
	}
	line(o, "%s", "");
	text_table(o, p);
	if (p->nratios) {
		snprintf(w, sizeof(w), "%+.1f%%", p->tests[p->worst].m[CMP_IOPS].change_pct);
		snprintf(bst, sizeof(bst), "%+.1f%%", p->tests[p->best].m[CMP_IOPS].change_pct);
		line(o, "IOPS over %u test%s: geometric mean ratio %.3f (%+.1f%%)", p->nratios,
		     p->nratios == 1 ? "" : "s", p->geomean_iops, (p->geomean_iops - 1) * 100);
		line(o, "  worst: %.*s (%s)", (int)sizeof(p->tests[p->worst].before->name),
		     p->tests[p->worst].before->name, w);
		line(o, "  best:  %.*s (%s)", (int)sizeof(p->tests[p->best].before->name),
		     p->tests[p->best].before->name, bst);
	}
	text_only(o, c->base_label, p->only_before, p->nonly_before);
	text_only(o, p->label, p->only_after, p->nonly_after);
}

int report_compare_text(FILE *f, const struct compare *c)
{
	struct out o = { .f = f };
	bool repeats = true;
	unsigned i;

	line(&o, "diskbench compare, baseline (before): %s (%s)", c->base_label, c->base_file);
	for (i = 0; i < c->npairs; i++) {
		text_pair(&o, c, &c->pairs[i]);
		repeats &= c->pairs[i].repeats;
	}
	if (!repeats) {
		line(&o, "%s", "");
		line(&o, "Note: without --repeat on both sides nothing tells a real difference from");
		line(&o, "noise; run each with --repeat 3 (or more) to have differences within noise marked.");
	}
	errno = 0;
	if (!o.err && fflush(f) == EOF)
		o.err = errno ? -errno : -EIO;
	return o.err;
}
