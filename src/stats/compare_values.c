/* compare_values.c - one metric of one test on both sides: values, ratios, the runs' interval and verdict. */
#include <math.h>
#include <stdbool.h>

#include "compare_int.h"
#include "interval.h"

_Static_assert(COMPARE_MAX_RUNS <= STATS_RANK_MAX, "a side's runs must fit the rank interval");

const struct compare_metric_info compare_metrics[CMP_NMETRICS] = {
	[CMP_IOPS] = { "iops", "IOPS", true },
	[CMP_BYTES_PER_SEC] = { "bytes_per_sec", "MB/s", true },
	[CMP_LAT_P50] = { "lat_p50_ns", "p50", false },
	[CMP_LAT_P99] = { "lat_p99_ns", "p99", false },
	[CMP_LAT_P999] = { "lat_p99.9_ns", "p99.9", false },
	[CMP_CPU_PER_OP] = { "cpu_usec_per_op", "CPU/op", false },
};

/* Index of a percentile in result_pcts, -1 if it is not reported. */
static int pct_index(double pct)
{
	int i;

	for (i = 0; i < RESULT_NPCT; i++)
		if (fabs(result_pcts[i] - pct) < 1e-9)
			return i;
	return -1;
}

/* Percentile pct of t's latency; NaN when it is missing: not reported,
 * no latency measured (an imported bonnie++ or hdparm test), or a point
 * another tool's figures lack (lat_pct_given). */
static double pct_value(const struct test_result *t, double pct)
{
	int i = pct_index(pct);

	const struct hist_sparse *sp = t->lat_sparse;
	bool none = t->ops && !(t->lat ? t->lat->n : sp ? sp->n : 0);	/* as report_json */

	if (i < 0 || (t->lat_pct_given ? !(t->lat_pct_given & (1u << i)) : none))
		return NAN;
	return (double)t->lat_sum.pct[i];
}

static double metric_value(const struct test_result *t, enum compare_metric m)
{
	switch (m) {
	case CMP_IOPS: return t->iops;
	case CMP_BYTES_PER_SEC: return t->bytes_per_sec;
	case CMP_LAT_P50: return pct_value(t, 50);
	case CMP_LAT_P99: return pct_value(t, 99);
	case CMP_LAT_P999: return pct_value(t, 99.9);
	case CMP_CPU_PER_OP: return t->usec_per_op;
	default: return NAN;
	}
}

/* The coefficient of variation of metric m over t's runs; NaN when the
 * test has no repeats or the spread of m is not kept (p99.9). */
static double metric_cv(const struct test_result *t, enum compare_metric m)
{
	if (t->nruns < 2)
		return NAN;
	switch (m) {
	case CMP_IOPS: return t->summary.iops.cv;
	case CMP_BYTES_PER_SEC: return t->summary.bytes_per_sec.cv;
	case CMP_LAT_P50: return t->summary.lat_p50_ns.cv;
	case CMP_LAT_P99: return t->summary.lat_p99_ns.cv;
	case CMP_CPU_PER_OP: return t->summary.usec_per_op.cv;
	default: return NAN;
	}
}

void compare_value_of(const struct test_result *b, const struct test_result *a,
		      enum compare_metric m, struct compare_value *v)
{
	double cvb = metric_cv(b, m), cva = metric_cv(a, m);

	v->before = metric_value(b, m);
	v->after = metric_value(a, m);
	v->ratio = v->before > 0 && isfinite(v->after) ? v->after / v->before : NAN;
	if (isnan(v->ratio))
		v->change_pct = NAN;
	else if (compare_metrics[m].higher_better)
		v->change_pct = (v->ratio - 1) * 100;
	else
		v->change_pct = (1 - v->ratio) * 100;
	v->within_noise = -1;
	if (!isnan(v->ratio) && !isnan(cvb) && !isnan(cva))
		v->within_noise = fabs(v->ratio - 1) < COMPARE_NOISE_K * fmax(cvb, cva);
}

bool compare_judged(enum compare_metric m)
{
	return m == CMP_IOPS || m == CMP_BYTES_PER_SEC || m == CMP_LAT_P99;
}

/* Metric m of each of t's runs into x (at least REPEAT_MAX long); how many
 * (0 when the runs do not keep m). */
static unsigned run_values(const struct test_result *t, enum compare_metric m, double *x)
{
	unsigned i, n = t->nruns > COMPARE_MAX_RUNS ? COMPARE_MAX_RUNS : t->nruns;

	if (!t->runs)
		return 0;	/* a test built by hand */
	for (i = 0; i < n; i++) {
		const struct test_run *r = &t->runs[i];

		switch (m) {
		case CMP_IOPS: x[i] = r->iops; break;
		case CMP_BYTES_PER_SEC: x[i] = r->bytes_per_sec; break;
		case CMP_LAT_P50: x[i] = (double)r->lat_p50_ns; break;
		case CMP_LAT_P99: x[i] = (double)r->lat_p99_ns; break;
		case CMP_CPU_PER_OP: x[i] = r->usec_per_op; break;
		default: return 0;
		}
	}
	return n;
}

static double min_of(const double *x, unsigned n)
{
	double m = x[0];

	for (unsigned i = 1; i < n; i++)
		m = fmin(m, x[i]);
	return m;
}

static double max_of(const double *x, unsigned n)
{
	double m = x[0];

	for (unsigned i = 1; i < n; i++)
		m = fmax(m, x[i]);
	return m;
}

/* The runs' side of v: counts, the ratio of medians, and the range when
 * runs are too few for an interval (compare_test_interval draws the others). */
void compare_runs_of(const struct test_result *b, const struct test_result *a,
		     enum compare_metric m, struct compare_value *v)
{
	double xb[COMPARE_MAX_RUNS], xa[COMPARE_MAX_RUNS], mb, ma;

	v->nbefore = run_values(b, m, xb);
	v->nafter = run_values(a, m, xa);
	v->med_ratio = v->lo = v->hi = NAN;
	v->level = 0;
	v->verdict = CMP_UNJUDGED;
	v->low_confidence = v->nbefore < COMPARE_MIN_RUNS || v->nafter < COMPARE_MIN_RUNS;
	if (!v->nbefore || !v->nafter)
		return;
	mb = stats_median(xb, v->nbefore);
	ma = stats_median(xa, v->nafter);
	if (mb > 0 && isfinite(ma))
		v->med_ratio = ma / mb;
	if (v->low_confidence && min_of(xb, v->nbefore) > 0) {
		v->lo = min_of(xa, v->nafter) / max_of(xb, v->nbefore);
		v->hi = max_of(xa, v->nafter) / min_of(xb, v->nbefore);
	}
}

/* Does v take a verdict, an interval drawn at the family's level? */
bool compare_test_judged(const struct compare_test *t, enum compare_metric m)
{
	const struct compare_value *v = &t->m[m];

	return compare_judged(m) && !t->mismatch[0] && !t->failed[0] && !v->low_confidence &&
	       !isnan(v->med_ratio);
}

/* A side's wait for a CPU in % (the median of its runs'), NaN when
 * any run did not measure it (an older result, an import). */
static double side_wait(const struct test_result *t)
{
	double x[COMPARE_MAX_RUNS];
	unsigned n = 0;

	if (!t->cpu_wait_valid)
		return NAN;
	for (unsigned i = 0; i < t->nruns && n < COMPARE_MAX_RUNS; i++) {
		if (!t->runs[i].cpu_wait_valid)
			return NAN;
		x[n++] = t->runs[i].cpu_wait_pct;
	}
	return n ? stats_median(x, n) : t->cpu_wait_pct;
}

void compare_test_band(struct compare_test *t, double noise)
{
	double wb = side_wait(t->before), wa = side_wait(t->after), mr = 1;

	t->wait_before = wb;
	t->wait_after = wa;
	if (wb >= 0 && wb < 100 && wa >= 0 && wa < 100)
		mr = (100 - wa) / (100 - wb);
	t->machine_ratio = mr;
	t->band_lo = (1 - noise) * fmin(1, mr);
	t->band_hi = (1 + noise) * fmax(1, mr);
	t->busier = mr < 1 - noise || mr > 1 + noise;
}

/*
 * The interval and verdict of metric m of test t at level: the
 * exact rank interval of the ratio (stats_rank_ratio), which holds for
 * runs of any spread (one side's runs bimodal when a load came and went)
 * and is the same every time for the same runs. MB/s of fixed-size ops is
 * IOPS times a constant: its ratios, interval and verdict are IOPS's.
 * v->level is what the interval holds: level, or less where the runs are
 * too few to reach it (the range then).
 */
void compare_test_interval(const struct compare_test *t, enum compare_metric m, double level,
			   double noise, struct compare_value *v)
{
	double xb[COMPARE_MAX_RUNS], xa[COMPARE_MAX_RUNS], lo_edge, hi_edge;
	bool up = compare_metrics[m].higher_better;

	run_values(t->before, m, xb);
	run_values(t->after, m, xa);
	if (stats_rank_ratio(xb, v->nbefore, xa, v->nafter, level, &v->lo, &v->hi, &v->level))
		return;
	if (!compare_judged(m))
		return;
	/* the band: noise, widened where the machine's load alone could
	 * move the figure (compare_test_band); a latency moves the other
	 * way, and its tail too far to bound: unjudged when the load differed */
	if (up) {
		lo_edge = t->band_lo;
		hi_edge = t->band_hi;
	} else if (t->busier) {
		return;
	} else {
		lo_edge = (1 - noise) * fmin(1, 1 / t->machine_ratio);
		hi_edge = (1 + noise) * fmax(1, 1 / t->machine_ratio);
	}
	if (v->lo > hi_edge)
		v->verdict = up ? CMP_BETTER : CMP_WORSE;
	else if (v->hi < lo_edge)
		v->verdict = up ? CMP_WORSE : CMP_BETTER;
	else
		v->verdict = CMP_SAME;
}
