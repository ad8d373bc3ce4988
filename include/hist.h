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

/*
 * Record one value (hot path: no branches beyond min/max, no calls).
 *
 * The bucket count is stored with a relaxed atomic store: a plain move on
 * x86-64 and arm64, no fence, no locked instruction, so the hot loop pays
 * nothing, yet a sampler on another thread may read the counts while the
 * one writer goes on adding (hist_merge_live) without a data race: each
 * count it loads is whole, and none ever goes down. The writer's own plain
 * load is no race (it is the only thread that stores). The other fields
 * are the writer's alone until it is done (after a join, say).
 */
static inline void hist_add(struct hist *h, uint64_t v)
{
	uint64_t *c = &h->count[hist_index(v)];

	__atomic_store_n(c, *c + 1, __ATOMIC_RELAXED);
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

/*
 * dst's counts += src's, read with relaxed atomic loads while src's one
 * writer may still be adding to it (hist_add): a snapshot of what src
 * held about now, each count whole, none ahead of the writer. Only the
 * counts and n (their sum) of dst change: src's min, max and moments are
 * not read (they are not safe to read until the writer is done).
 */
void hist_merge_live(struct hist *dst, const struct hist *src);

/*
 * d = the samples of now that are not in before, where before is an
 * earlier snapshot of the same histogram (hist_merge_live, or a copy): the
 * counts now - before (a count below before's is taken as no change), n
 * their sum, sum and sumsq 0 (unknown). A snapshot cannot tell which of
 * the samples in a bucket are new, so d's min and max are the midpoints of
 * its lowest and highest non-empty buckets (within HIST_MAX_REL_ERROR of
 * the true extremes, like every percentile), clamped to now's min and max
 * when now has them (min <= max; a live snapshot has not).
 * hist_percentile(d, p) then gives the percentiles of the new samples
 * alone, at the histogram's resolution. d may be before.
 */
void hist_interval(struct hist *d, const struct hist *now, const struct hist *before);

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

/*
 * A histogram kept as its non-empty buckets only, with its exact moments:
 * how a loaded result holds one (a struct hist is 30 KB; a saved test's
 * buckets are a few hundred bytes of its file, and a result of 100,000
 * tests would need 3 GB of mostly zeros). Read-only: expand it
 * (hist_sparse_expand) to compute on it.
 */
struct hist_bucket {
	uint32_t idx;		/* bucket index (hist_index) */
	uint64_t count;		/* > 0 */
};

struct hist_sparse {
	uint64_t n, min, max, sum;
	unsigned __int128 sumsq;
	unsigned nb;		/* buckets, ascending by idx */
	struct hist_bucket b[];
};

/* h's non-empty buckets and moments, malloc'd (free it); NULL: ENOMEM. */
struct hist_sparse *hist_sparse_of(const struct hist *h);

/* h = the histogram s keeps, whole again. */
void hist_sparse_expand(const struct hist_sparse *s, struct hist *h);

#endif
