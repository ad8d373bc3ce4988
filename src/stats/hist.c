/* hist.c - log-linear latency histogram: merge, bucket bounds, percentiles, moments. */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "hist.h"

void hist_init(struct hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min = UINT64_MAX;
}

void hist_merge(struct hist *dst, const struct hist *src)
{
	unsigned i;

	if (!src->n)
		return;
	for (i = 0; i < HIST_NBUCKETS; i++)
		dst->count[i] += src->count[i];
	dst->n += src->n;
	dst->sum += src->sum;
	dst->sumsq += src->sumsq;
	if (src->min < dst->min)
		dst->min = src->min;
	if (src->max > dst->max)
		dst->max = src->max;
}

void hist_merge_live(struct hist *dst, const struct hist *src)
{
	uint64_t c;

	for (unsigned i = 0; i < HIST_NBUCKETS; i++) {
		c = __atomic_load_n(&src->count[i], __ATOMIC_RELAXED);
		dst->count[i] += c;
		dst->n += c;
	}
}

/* A bucket's midpoint, as hist_percentile reports it. */
static uint64_t bucket_mid(unsigned idx)
{
	/* (width - 1) / 2, not width / 2: keeps the top bucket from overflowing */
	return hist_bucket_low(idx) + (hist_bucket_width(idx) - 1) / 2;
}

void hist_interval(struct hist *d, const struct hist *now, const struct hist *before)
{
	unsigned i, lo = HIST_NBUCKETS, hi = 0;
	uint64_t n = 0, c;

	for (i = 0; i < HIST_NBUCKETS; i++) {
		c = now->count[i] > before->count[i] ? now->count[i] - before->count[i] : 0;
		d->count[i] = c;
		if (c) {
			n += c;
			if (lo == HIST_NBUCKETS)
				lo = i;
			hi = i;
		}
	}
	d->n = n;
	d->sum = 0;
	d->sumsq = 0;
	if (!n) {
		d->min = UINT64_MAX;
		d->max = 0;
		return;
	}
	d->min = bucket_mid(lo);
	d->max = bucket_mid(hi);
	/* now's extremes bound every sample in it: when it has them (a live
	 * snapshot has not) they only move the estimates closer to the truth. */
	if (now->min <= now->max) {
		d->min = d->min < now->min ? now->min : d->min > now->max ? now->max : d->min;
		d->max = d->max < now->min ? now->min : d->max > now->max ? now->max : d->max;
	}
}

/*
 * Inverse of hist_index(): below 2 * HIST_SUB a bucket is one value. Above,
 * group g = idx / HIST_SUB (>= 2) holds [2^(g+5), 2^(g+6)) cut into HIST_SUB
 * slices of width 2^(g-1); sub-bucket s starts at (HIST_SUB + s) << (g - 1).
 */
uint64_t hist_bucket_low(unsigned idx)
{
	unsigned shift;

	if (idx < 2 * HIST_SUB)
		return idx;
	if (idx >= HIST_NBUCKETS)
		idx = HIST_NBUCKETS - 1;
	shift = idx / HIST_SUB - 1;
	return (uint64_t)(HIST_SUB + idx % HIST_SUB) << shift;
}

uint64_t hist_bucket_width(unsigned idx)
{
	if (idx < 2 * HIST_SUB)
		return 1;
	if (idx >= HIST_NBUCKETS)
		idx = HIST_NBUCKETS - 1;
	return (uint64_t)1 << (idx / HIST_SUB - 1);
}

/*
 * Rank ceil(p/100 * n) in floating point goes wrong at exact products:
 * 99.9 is not representable, and 0.999 * 1000 may come out as 999.0000001,
 * whose ceiling is 1000. Percent values are decimal, so scale p to integer
 * millionths of a percent first (finer p is rounded to that); the rank is
 * then exact integer arithmetic
 * (p <= 100 -> at most 1e8, times n < 2^64, fits in 128 bits).
 */
#define PCT_SCALE 100000000ULL	/* 100 % in millionths of a percent */

static uint64_t hist_rank(uint64_t n, double p)
{
	unsigned __int128 prod;
	uint64_t pm, rank;

	if (!(p > 0.0))		/* also catches NaN */
		return 1;
	if (p >= 100.0)
		return n;
	pm = (uint64_t)llround(p * 1e6);
	prod = (unsigned __int128)pm * n;
	rank = (uint64_t)((prod + PCT_SCALE - 1) / PCT_SCALE);
	if (rank < 1)
		rank = 1;
	if (rank > n)
		rank = n;
	return rank;
}

uint64_t hist_percentile(const struct hist *h, double p)
{
	uint64_t rank, seen = 0, v;
	unsigned i;

	if (!h->n)
		return 0;
	rank = hist_rank(h->n, p);
	/* The extreme ranks are known exactly: no need to round them to a
	 * bucket (so p100 is the true max latency, not a midpoint). */
	if (rank == h->n)
		return h->max;
	if (rank == 1)
		return h->min;
	for (i = 0; i < HIST_NBUCKETS; i++) {
		seen += h->count[i];
		if (seen >= rank)
			break;
	}
	if (i == HIST_NBUCKETS)	/* counts disagree with n: trust the extremes */
		return h->max;
	v = bucket_mid(i);
	if (v < h->min)
		v = h->min;
	if (v > h->max)
		v = h->max;
	return v;
}

double hist_mean(const struct hist *h)
{
	if (!h->n)
		return 0.0;
	return (double)((long double)h->sum / (long double)h->n);
}

double hist_stdev(const struct hist *h)
{
	unsigned __int128 nsq, ssq;
	long double var, mean;

	if (h->n < 2)
		return 0.0;
	/*
	 * n^2 * var = n * sumsq - sum^2: both terms are exact integers, so the
	 * usual catastrophic cancellation of E[x^2] - E[x]^2 cannot happen.
	 * The difference is >= 0 by Cauchy-Schwarz. Only if n * sumsq would
	 * overflow 128 bits (~10 s latencies times ~10^18 samples) do we fall
	 * back to long double.
	 */
	ssq = (unsigned __int128)h->sum * h->sum;
	if (!__builtin_mul_overflow((unsigned __int128)h->n, h->sumsq, &nsq)) {
		var = nsq > ssq ? (long double)(nsq - ssq) / h->n / h->n : 0;
	} else {
		mean = (long double)h->sum / h->n;
		var = (long double)h->sumsq / h->n - mean * mean;
		if (var < 0)
			var = 0;
	}
	return (double)sqrtl(var);
}

struct hist_sparse *hist_sparse_of(const struct hist *h)
{
	struct hist_sparse *s;
	unsigned nb = 0, i;

	for (i = 0; i < HIST_NBUCKETS; i++)
		nb += h->count[i] != 0;
	s = malloc(sizeof(*s) + (size_t)nb * sizeof(s->b[0]));
	if (!s)
		return NULL;
	s->n = h->n;
	s->min = h->min;
	s->max = h->max;
	s->sum = h->sum;
	s->sumsq = h->sumsq;
	s->nb = 0;
	for (i = 0; i < HIST_NBUCKETS; i++)
		if (h->count[i])
			s->b[s->nb++] = (struct hist_bucket){ .idx = i, .count = h->count[i] };
	return s;
}

void hist_sparse_expand(const struct hist_sparse *s, struct hist *h)
{
	hist_init(h);
	for (unsigned i = 0; i < s->nb; i++)
		h->count[s->b[i].idx] = s->b[i].count;
	h->n = s->n;
	h->min = s->min;
	h->max = s->max;
	h->sum = s->sum;
	h->sumsq = s->sumsq;
}
