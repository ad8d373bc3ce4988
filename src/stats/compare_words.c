/* compare_words.c - a comparison's changes and outcomes in words. */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>

#include "compare.h"

/* A percentage ("12", "0.4") or a factor ("2.6", "35.0", "120"), never "-0". */
static void fmt_num(char *buf, size_t len, double x, bool factor)
{
	if (fabs(x) < 0.05)
		x = 0;
	snprintf(buf, len, fabs(x) >= (factor ? 100 : 1) || x == 0 ? "%.0f" : "%.1f", x);
}

/* A ratio and its interval as a change in words, up and down naming the
 * two directions ("faster", "slower"); compare_change_words. */
static const char *change_words(double ratio, double lo, double hi, const char *up,
				const char *down, char *buf, size_t len)
{
	char r[16], a[16], b[16];
	const char *how;
	double x, xl, xh;
	bool factor;

	buf[0] = '\0';
	if (!(ratio > 0) || !isfinite(ratio))
		return buf;
	if (ratio >= 1) {
		how = up;
		factor = ratio >= 2;
		x = factor ? ratio : (ratio - 1) * 100;
		xl = factor ? lo : (lo - 1) * 100;
		xh = factor ? hi : (hi - 1) * 100;
	} else {
		how = down;
		factor = ratio <= 0.5;
		x = factor ? 1 / ratio : (1 - ratio) * 100;
		xl = factor ? 1 / hi : (1 - hi) * 100;
		xh = factor ? 1 / lo : (1 - lo) * 100;
	}
	fmt_num(r, sizeof(r), x, factor);
	if (!isfinite(xl) || !isfinite(xh)) {
		snprintf(buf, len, "%s%s %s", r, factor ? "x" : " %", how);
		return buf;
	}
	fmt_num(a, sizeof(a), xl, factor);
	fmt_num(b, sizeof(b), xh, factor);
	snprintf(buf, len, "%s%s %s [%s, %s]", r, factor ? "x" : " %", how, a, b);
	return buf;
}

const char *compare_change_words(double ratio, double lo, double hi, char *buf, size_t len)
{
	return change_words(ratio, lo, hi, "faster", "slower", buf, len);
}

const char *compare_metric_words(enum compare_metric m, double ratio, char *buf, size_t len)
{
	bool up = m < CMP_NMETRICS && compare_metrics[m].higher_better;

	if (ratio > 0 && fabs(ratio - 1) < 0.0005) {
		snprintf(buf, len, "same");
		return buf;
	}
	return change_words(ratio, NAN, NAN, up ? "faster" : "higher", up ? "slower" : "lower",
			    buf, len);
}

const char *compare_outcome_key(enum compare_outcome o)
{
	switch (o) {
	case CMP_OUT_SAME: return "unchanged";
	case CMP_OUT_BETTER: return "better";
	case CMP_OUT_WORSE: return "worse";
	case CMP_OUT_MIXED: return "mixed";
	default: return "not judged";
	}
}

const char *compare_outcome_title(enum compare_outcome o)
{
	switch (o) {
	case CMP_OUT_SAME: return "No significant change";
	case CMP_OUT_BETTER: return "Better";
	case CMP_OUT_WORSE: return "Worse";
	case CMP_OUT_MIXED: return "Mixed";
	default: return "Not judged";
	}
}

const char *compare_made_by(const struct run_result *r, char *buf, size_t len)
{
	const struct result_origin *o = &r->imported_from;

	if (!o->tool[0])
		snprintf(buf, len, "diskbench %s", r->tool_version ? r->tool_version : "?");
	else if (o->version[0])
		snprintf(buf, len, "%.*s %.*s (imported)", (int)sizeof(o->tool), o->tool,
			 (int)sizeof(o->version), o->version);
	else
		snprintf(buf, len, "%.*s, version not given (imported)", (int)sizeof(o->tool),
			 o->tool);
	return buf;
}
