/* cliff.h - the write cliff: where a sustained write's throughput fell, found in its timeline. */
#ifndef DISKBENCH_CLIFF_H
#define DISKBENCH_CLIFF_H

#include <stdbool.h>
#include <stdint.h>

#include "timeline.h"

/* Fewer points than this cannot tell a cliff from noise. */
#define CLIFF_MIN_POINTS 6u
/* A cliff: the rate after the drop is at most (1 - CLIFF_DROP) of the rate
 * before it. */
#define CLIFF_DROP 0.30

struct cliff {
	unsigned points;	/* timeline points looked at (0: none, or too few) */
	bool found;		/* a drop of more than CLIFF_DROP */
	uint64_t bytes_before;	/* found: written before the drop */
	uint64_t ns_before;	/* found: and how long that took */
	double rate_before;	/* bytes/s before the drop (none found: over all) */
	double rate_after;	/* found: bytes/s after it; else 0 */
};

/*
 * Where the throughput of tl (one run's timeline) fell: the split into a
 * "before" and an "after" of at least 2 points each that fits two constant
 * rates best (least squares over the points' rates, each weighted by its
 * duration), taken as a cliff when the after rate is at most 1 -
 * CLIFF_DROP of the before rate; a rise is never one. The rates are bytes
 * over time of each side. Fills out; with fewer than CLIFF_MIN_POINTS
 * points of non-zero duration, out->points is 0 and nothing else is set.
 * A pure function.
 */
void cliff_find(const struct timeline *tl, struct cliff *out);

#endif
