/* hist.h - log-linear latency histogram in nanoseconds, mergeable. */
#ifndef DISKBENCH_HIST_H
#define DISKBENCH_HIST_H

#include <stdint.h>

/*
 * Values below 128 ns get a bucket each. Above, every power of two
 * [2^k, 2^(k+1)) is split into HIST_SUB = 64 equal sub-buckets, so a bucket
 * is at most 1/64 of its lower bound wide. Reporting a bucket's midpoint
 * is therefore within HIST_MAX_REL_ERROR = 1/128 (0.78 %) of any value that
 * fell into it. Counts are exact, so merging (threads, repeats, hosts) is
 * plain addition and loses nothing.
 */
#define HIST_SUB_BITS 6
#define HIST_SUB (1u << HIST_SUB_BITS)
#define HIST_NBUCKETS ((64 - HIST_SUB_BITS) * HIST_SUB + HIST_SUB)
#define HIST_MAX_REL_ERROR (1.0 / (2.0 * HIST_SUB))

struct hist {
	uint64_t n;		/* samples */
	uint64_t min, max;	/* exact, ns; min is UINT64_MAX when empty */
	uint64_t sum;		/* exact sum, ns */
	unsigned __int128 sumsq; /* exact sum of squares, for stdev */
	uint64_t count[HIST_NBUCKETS];
};

/* Bucket index of a value: exact below 128, log-linear above. */
static inline unsigned hist_index(uint64_t v)
{
	unsigned msb, shift;

	if (v < 2 * HIST_SUB)
		return (unsigned)v;
	msb = 63u - (unsigned)__builtin_clzll(v);
	shift = msb - HIST_SUB_BITS;
	return (shift + 1) * HIST_SUB + (unsigned)((v >> shift) & (HIST_SUB - 1));
}

/* Record one value (hot path: no branches beyond min/max, no calls). */
static inline void hist_add(struct hist *h, uint64_t v)
{
	h->count[hist_index(v)]++;
	h->n++;
	h->sum += v;
	h->sumsq += (unsigned __int128)v * v;
	if (v < h->min)
		h->min = v;
	if (v > h->max)
		h->max = v;
}

/* Empty histogram. */
void hist_init(struct hist *h);

/* dst += src. Exact. */
void hist_merge(struct hist *dst, const struct hist *src);

/* Lowest value that maps to bucket idx, and the bucket's width (>= 1). */
uint64_t hist_bucket_low(unsigned idx);
uint64_t hist_bucket_width(unsigned idx);

/* Nearest-rank percentile, p in (0, 100]: the value of the sample of rank
 * ceil(p/100 * n) (computed in integers, so p99.9 of 1000 samples is rank
 * 999, not 1000), reported as its bucket's midpoint clamped to [min, max];
 * ranks 1 and n report the exact min and max. Within HIST_MAX_REL_ERROR of
 * the exact answer. 0 when empty. */
uint64_t hist_percentile(const struct hist *h, double p);

/* Exact mean and population standard deviation in ns; 0 when empty. */
double hist_mean(const struct hist *h);
double hist_stdev(const struct hist *h);

#endif
