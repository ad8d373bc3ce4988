/* timeline.c - a run's timeline: its interval, its points from snapshots, merging, drift. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "timeline.h"

const char *const timeline_columns[TIMELINE_NCOLUMNS] = {
	"t_ns", "ops", "bytes", "lat_p50_ns", "lat_p99_ns", "lat_max_ns",
};

const size_t timeline_column_offsets[TIMELINE_NCOLUMNS] = {
	offsetof(struct timeline_point, t_ns),
	offsetof(struct timeline_point, ops),
	offsetof(struct timeline_point, bytes),
	offsetof(struct timeline_point, lat_p50_ns),
	offsetof(struct timeline_point, lat_p99_ns),
	offsetof(struct timeline_point, lat_max_ns),
};

void timeline_free(struct timeline *tl)
{
	free(tl->p);
	*tl = (struct timeline){ 0 };
}

uint64_t timeline_interval(uint64_t requested_ns, uint64_t runtime_ns)
{
	uint64_t iv = requested_ns;

	if (!iv) {
		iv = TIMELINE_DEFAULT_INTERVAL_NS;
		if (runtime_ns < 10 * TIMELINE_DEFAULT_INTERVAL_NS)
			iv = runtime_ns / 10 > TIMELINE_SHORT_FLOOR_NS ? runtime_ns / 10 :
			     TIMELINE_SHORT_FLOOR_NS;
	}
	/* ceil(runtime / iv) points, one of them maybe partial */
	while (runtime_ns / iv + (runtime_ns % iv != 0) >= TIMELINE_MAX_POINTS)
		iv *= 2;
	return iv;
}

void timeline_rec_free(struct timeline_rec *r)
{
	free(r->tl.p);
	free(r->prev);
	free(r->diff);
	memset(r, 0, sizeof(*r));
}

int timeline_rec_init(struct timeline_rec *r, uint64_t interval_ns)
{
	memset(r, 0, sizeof(*r));
	r->tl.p = calloc(TIMELINE_MAX_POINTS, sizeof(*r->tl.p));
	r->prev = malloc(sizeof(*r->prev));
	r->diff = malloc(sizeof(*r->diff));
	if (!r->tl.p || !r->prev || !r->diff || !interval_ns) {
		timeline_rec_free(r);
		return interval_ns ? -ENOMEM : -EINVAL;
	}
	hist_init(r->prev);
	r->tl.interval_ns = interval_ns;
	r->next_ns = interval_ns;
	return 0;
}

static uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/* What happened since the last snapshot, into pt (all but t_ns); the
 * snapshot moves on to cum (never back). */
static void take(struct timeline_rec *r, struct timeline_point *pt, uint64_t ops,
		 uint64_t bytes, const struct hist *cum)
{
	struct hist *d = r->diff;

	pt->ops = ops > r->ops ? ops - r->ops : 0;
	pt->bytes = bytes > r->bytes ? bytes - r->bytes : 0;
	r->ops = max_u64(r->ops, ops);
	r->bytes = max_u64(r->bytes, bytes);
	hist_interval(d, cum, r->prev);
	if (d->n) {
		pt->lat_p50_ns = hist_percentile(d, 50);
		pt->lat_p99_ns = hist_percentile(d, 99);
		pt->lat_max_ns = d->max;
	} else {
		pt->lat_p50_ns = pt->lat_p99_ns = pt->lat_max_ns = 0;
	}
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		r->prev->count[i] = max_u64(r->prev->count[i], cum->count[i]);
}

/* b's figures into a, the earlier point (the merge of struct timeline):
 * sums, and the largest of the latencies. */
static void fold(struct timeline_point *a, const struct timeline_point *b)
{
	a->ops += b->ops;
	a->bytes += b->bytes;
	a->lat_p50_ns = max_u64(a->lat_p50_ns, b->lat_p50_ns);
	a->lat_p99_ns = max_u64(a->lat_p99_ns, b->lat_p99_ns);
	a->lat_max_ns = max_u64(a->lat_max_ns, b->lat_max_ns);
}

/* Adjacent points merged pairwise; the interval doubles. */
static void halve(struct timeline *tl)
{
	unsigned i, k = 0;

	for (i = 0; i + 1 < tl->n; i += 2) {
		struct timeline_point m = tl->p[i];

		fold(&m, &tl->p[i + 1]);
		m.t_ns = tl->p[i + 1].t_ns;
		tl->p[k++] = m;
	}
	if (i < tl->n)
		tl->p[k++] = tl->p[i];
	tl->n = k;
	tl->interval_ns *= 2;
	tl->merges++;
}

void timeline_rec_add(struct timeline_rec *r, uint64_t t_ns, uint64_t ops, uint64_t bytes,
		      const struct hist *cum)
{
	struct timeline *tl = &r->tl;
	struct timeline_point pt = { .t_ns = t_ns };

	if (!tl->p)
		return;
	take(r, &pt, ops, bytes, cum);
	if (tl->n && t_ns <= tl->p[tl->n - 1].t_ns) {
		/* not after the last point: what is new joins it */
		fold(&tl->p[tl->n - 1], &pt);
	} else {
		tl->p[tl->n++] = pt;
		if (tl->n == TIMELINE_MAX_POINTS)
			halve(tl);
	}
	r->next_ns = (t_ns / tl->interval_ns + 1) * tl->interval_ns;
}

/* v clamped to [lo, hi]. */
static uint64_t clamp(uint64_t v, uint64_t lo, uint64_t hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

void timeline_rec_finish(struct timeline_rec *r, uint64_t close_ns, uint64_t start_ns,
			 uint64_t ops, uint64_t bytes, const struct hist *final,
			 struct timeline *out)
{
	struct timeline *tl = &r->tl;
	struct timeline_point carry = { 0 }, *p;
	const bool bounds = final && final->n;
	unsigned i, k = 0;

	*out = (struct timeline){ 0 };
	if (!tl->p) {
		timeline_rec_free(r);
		return;
	}
	if (tl->n || close_ns)
		timeline_rec_add(r, close_ns, ops, bytes, final);
	/* A point taken after the windows closed (before the sampler saw
	 * that they had) ends where they closed: nothing came after. */
	if (tl->n && close_ns < tl->p[tl->n - 1].t_ns &&
	    (tl->n == 1 || close_ns > tl->p[tl->n - 2].t_ns))
		tl->p[tl->n - 1].t_ns = close_ns;
	/*
	 * To the window's start. A point that ends at or before it should
	 * hold nothing (no window was open); should it hold something all
	 * the same, that goes to the next point, so the sums stay whole.
	 */
	for (i = 0; i < tl->n; i++) {
		p = &tl->p[i];
		if (p->t_ns <= start_ns) {
			fold(&carry, p);
			if (i + 1 < tl->n || (!carry.ops && !carry.bytes && !carry.lat_max_ns))
				continue;
			carry.t_ns = p->t_ns;
			*p = carry;
		} else {
			fold(p, &carry);
		}
		carry = (struct timeline_point){ 0 };
		p->t_ns = p->t_ns > start_ns ? p->t_ns - start_ns : 0;
		if (bounds && p->lat_max_ns) {
			p->lat_p50_ns = clamp(p->lat_p50_ns, final->min, final->max);
			p->lat_p99_ns = clamp(p->lat_p99_ns, final->min, final->max);
			p->lat_max_ns = clamp(p->lat_max_ns, final->min, final->max);
		}
		tl->p[k++] = *p;
	}
	tl->n = k;
	if (!k) {
		free(tl->p);
		tl->p = NULL;
	} else {
		p = realloc(tl->p, k * sizeof(*p));
		if (p)
			tl->p = p;
	}
	*out = *tl;
	tl->p = NULL;
	timeline_rec_free(r);
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median of x[0..n) (n > 0); sorts x. */
static double median(double *x, unsigned n)
{
	qsort(x, n, sizeof(*x), cmp_double);
	return n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
}

bool timeline_drift(const struct timeline *tl, double *change)
{
	double rate[TIMELINE_MAX_POINTS], first, last;
	unsigned m = tl->n, k, i;
	uint64_t prev = 0, dur;
	bool by_bytes = false;

	if (m > TIMELINE_MAX_POINTS || !tl->interval_ns)
		return false;
	if (m >= 2 && (tl->p[m - 1].t_ns - tl->p[m - 2].t_ns) * 10 < tl->interval_ns * 9)
		m--;	/* a last, partial interval */
	if (m < TIMELINE_DRIFT_MIN_POINTS)
		return false;
	for (i = 0; i < m; i++)
		by_bytes |= tl->p[i].bytes != 0;
	for (i = 0; i < m; i++) {
		if (tl->p[i].t_ns <= prev)
			return false;	/* not a timeline */
		dur = tl->p[i].t_ns - prev;
		prev = tl->p[i].t_ns;
		rate[i] = (double)(by_bytes ? tl->p[i].bytes : tl->p[i].ops) / (double)dur;
	}
	k = m / 3;
	first = median(rate, k);
	last = median(rate + m - k, k);
	if (first <= 0) {
		if (last > 0)
			return false;	/* from nothing: no ratio to give */
		*change = 0;
		return true;
	}
	*change = last / first - 1;
	return true;
}
