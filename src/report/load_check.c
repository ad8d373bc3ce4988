/* load_check.c - a loaded result's figures, each within what a run can measure (load_check.h). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "hist.h"
#include "load_check.h"
#include "repeat.h"

/* Where and what, for the caller's "FILE: WHERE: message". */
struct chk {
	char *where, *msg;
	size_t wlen, mlen;
	const char *test;	/* its name, or NULL */
};

static int bad(struct chk *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int bad(struct chk *c, const char *fmt, ...)
{
	char m[160];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(m, sizeof(m), fmt, ap);
	va_end(ap);
	if (c->test)
		snprintf(c->msg, c->mlen, "%s (test \"%s\")", m, c->test);
	else
		snprintf(c->msg, c->mlen, "%s", m);
	return -EINVAL;
}

/* v in [min, max]; NaN only with nan_ok (the writer's null). */
static int real(struct chk *c, const char *key, double v, double min, double max, bool nan_ok)
{
	if (isnan(v) && nan_ok)
		return 0;
	if (isnan(v))
		return bad(c, "\"%s\" is null, not a number", key);
	if (!(v >= min && v <= max))
		return bad(c, "\"%s\" is %.6g, outside what a run can measure (%g to %g)", key, v,
			   min, max);
	return 0;
}

/* A runtime of 0 with ops or bytes in it, or one past a year. */
static int window(struct chk *c, uint64_t runtime_ns, uint64_t ops, uint64_t bytes)
{
	if (!runtime_ns && (ops || bytes))
		return bad(c, "\"runtime_ns\" is 0 with %" PRIu64 " ops and %" PRIu64 " bytes in it",
			   ops, bytes);
	if (runtime_ns > LOAD_MAX_RUNTIME_NS)
		return bad(c, "\"runtime_ns\" is %" PRIu64 ", more than a year", runtime_ns);
	/* what result_finish derives from them */
	if (runtime_ns && (double)ops / (double)runtime_ns * 1e9 > LOAD_MAX_IOPS)
		return bad(c, "%" PRIu64 " ops in %" PRIu64 " ns is more than %g IOPS", ops,
			   runtime_ns, LOAD_MAX_IOPS);
	if (runtime_ns && (double)bytes / (double)runtime_ns * 1e9 > LOAD_MAX_BPS)
		return bad(c, "%" PRIu64 " bytes in %" PRIu64 " ns is more than %g bytes/s", bytes,
			   runtime_ns, LOAD_MAX_BPS);
	return 0;
}

static int cpu(struct chk *c, const char *user_key, double user, double sys, double usec)
{
	return real(c, user_key, user, 0, LOAD_MAX_PCT, true) ||
	       real(c, "sys_pct", sys, 0, LOAD_MAX_PCT, true) ||
	       real(c, "usec_per_op", usec, 0, LOAD_MAX_USEC, true) ? -EINVAL : 0;
}

/* min <= max, both in the histogram's first and last non-empty buckets,
 * and the mean and stdev derived from the moments within them. */
static int latency(struct chk *c, const struct test_result *t)
{
	const struct hist *h = t->lat;
	const struct lat_summary *ls = &t->lat_sum;
	unsigned first = HIST_NBUCKETS, last = 0;

	if (!h || !h->n)
		return 0;
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (h->count[i]) {
			first = first < i ? first : i;
			last = i;
		}
	if (h->min > h->max)
		return bad(c, "\"min\" %" PRIu64 " is above \"max\" %" PRIu64, h->min, h->max);
	if (hist_index(h->min) != first || hist_index(h->max) != last)
		return bad(c, "\"min\" %" PRIu64 " and \"max\" %" PRIu64 " are not in the "
			   "histogram's first and last buckets (%" PRIu64 " and %" PRIu64 " ns)",
			   h->min, h->max, hist_bucket_low(first), hist_bucket_low(last));
	/* the moments: "sum" gives the mean, "sumsq" the stdev */
	if (!(ls->mean >= (double)h->min * (1 - 1e-9) - 1 &&
	      ls->mean <= (double)h->max * (1 + 1e-9) + 1))
		return bad(c, "the mean from \"sum\" (%.6g ns) is outside min .. max (%" PRIu64
			   " .. %" PRIu64 " ns)", ls->mean, h->min, h->max);
	if (!(ls->stdev >= 0 && ls->stdev <= (double)(h->max - h->min) + 1))
		return bad(c, "the stdev from \"sumsq\" (%.6g ns) is more than max - min",
			   ls->stdev);
	return 0;
}

static int run(struct chk *c, const struct test_run *r)
{
	if (window(c, r->runtime_ns, r->ops, r->bytes) ||
	    real(c, "iops", r->iops, 0, LOAD_MAX_IOPS, false) ||
	    real(c, "bytes_per_sec", r->bytes_per_sec, 0, LOAD_MAX_BPS, false) ||
	    cpu(c, "cpu_user_pct", r->cpu_user_pct, r->cpu_sys_pct, r->usec_per_op))
		return -EINVAL;
	if (r->lat_p50_ns > r->lat_p99_ns)
		return bad(c, "percentiles out of order: \"lat_p50_ns\" %" PRIu64 " is above "
			   "\"lat_p99_ns\" %" PRIu64, r->lat_p50_ns, r->lat_p99_ns);
	return 0;
}

static int rank(struct chk *c, const struct rank_test *rt)
{
	if (window(c, rt->runtime_ns, rt->ops, rt->bytes) ||
	    real(c, "bytes_per_sec", rt->bytes_per_sec, 0, LOAD_MAX_BPS, false))
		return -EINVAL;
	if (rt->end_ns < rt->start_ns)
		return bad(c, "\"end_ns\" %" PRIu64 " is before \"start_ns\" %" PRIu64, rt->end_ns,
			   rt->start_ns);
	if (rt->lat_n && rt->lat_min > rt->lat_max)
		return bad(c, "lat_ns: \"min\" %" PRIu64 " is above \"max\" %" PRIu64, rt->lat_min,
			   rt->lat_max);
	return 0;
}

static int steady(struct chk *c, const struct test_result *t)
{
	const struct steady_window *sw = &t->steady_window;
	size_t used;

	if (!t->steady_max_rounds)
		return 0;
	if (t->steady_max_rounds > REPEAT_MAX)
		return bad(c, "\"max_rounds\" is %u, more than %d", t->steady_max_rounds,
			   REPEAT_MAX);
	if (!sw->n)
		return 0;
	used = strnlen(c->where, c->wlen);
	snprintf(c->where + used, c->wlen - used, ".steady_state.window");
	if ((uint64_t)sw->first + sw->n > t->nruns)
		return bad(c, "window: rounds %u to %u of %u", sw->first + 1, sw->first + sw->n,
			   t->nruns);
	return real(c, "average_iops", sw->average, 0, LOAD_MAX_IOPS, true) ||
	       real(c, "range", sw->range, 0, LOAD_MAX_RATIO, true) ||
	       real(c, "excursion", sw->excursion, 0, LOAD_MAX_RATIO, true) ||
	       real(c, "slope", sw->slope, -LOAD_MAX_IOPS, LOAD_MAX_IOPS, true) ? -EINVAL : 0;
}

int load_check_test(const struct test_result *t, unsigned idx, char *where, size_t wlen,
		    char *msg, size_t mlen)
{
	struct chk c = { .where = where, .wlen = wlen, .msg = msg, .mlen = mlen,
			 .test = t->name };

	/* the raw figures first: a derived one is wrong because of them */
	for (unsigned i = 0; i < t->nruns; i++) {
		snprintf(where, wlen, "tests[%u].runs[%u]", idx, i);
		if (run(&c, &t->runs[i]))
			return -EINVAL;
	}
	for (unsigned i = 0; t->ranks && i < t->nranks; i++) {
		snprintf(where, wlen, "tests[%u].ranks[%u]", idx, i);
		if (rank(&c, &t->ranks[i]))
			return -EINVAL;
	}
	snprintf(where, wlen, "tests[%u]", idx);
	if (window(&c, t->runtime_ns, t->ops, t->bytes) ||
	    real(&c, "iops", t->iops, 0, LOAD_MAX_IOPS, false) ||
	    real(&c, "bytes_per_sec", t->bytes_per_sec, 0, LOAD_MAX_BPS, false) ||
	    steady(&c, t))
		return -EINVAL;
	snprintf(where, wlen, "tests[%u].cpu", idx);
	if (cpu(&c, "user_pct", t->cpu_user_pct, t->cpu_sys_pct, t->usec_per_op) ||
	    real(&c, "job_max_pct", t->cpu_job_max_pct, 0, LOAD_MAX_PCT, true) ||
	    real(&c, "wait_pct", t->cpu_wait_pct, 0, 100, true))
		return -EINVAL;
	snprintf(where, wlen, "tests[%u].lat_ns", idx);
	if (latency(&c, t))
		return -EINVAL;
	return 0;
}

int load_check_xbench(const struct xbench_scores *x, char *where, size_t wlen, char *msg,
		      size_t mlen)
{
	struct chk c = { .where = where, .wlen = wlen, .msg = msg, .mlen = mlen };

	for (unsigned i = 0; i < x->n; i++) {
		const struct xbench_score *s = &x->tests[i];

		snprintf(where, wlen, "xbench.tests[%u]", i);
		if (real(&c, "bytes_per_sec", s->measured, 0, LOAD_MAX_BPS, true) ||
		    real(&c, "baseline_bytes_per_sec", s->baseline, 0, LOAD_MAX_BPS, true) ||
		    real(&c, "score", s->score, 0, LOAD_MAX_RATIO, true))
			return -EINVAL;
	}
	snprintf(where, wlen, "xbench");
	return real(&c, "sequential", x->sequential, 0, LOAD_MAX_RATIO, true) ||
	       real(&c, "random", x->random, 0, LOAD_MAX_RATIO, true) ||
	       real(&c, "total", x->total, 0, LOAD_MAX_RATIO, true) ? -EINVAL : 0;
}
