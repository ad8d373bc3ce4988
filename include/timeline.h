/* timeline.h - a test's progress over its measured window, interval by interval. */
#ifndef DISKBENCH_TIMELINE_H
#define DISKBENCH_TIMELINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"

/* What completed in one interval of a test's measured window. */
struct timeline_point {
	uint64_t t_ns;		/* end of the interval, from the window's start */
	uint64_t ops, bytes;	/* completed in it, all workers */
	/* latency of the I/Os completed in it (ns); all 0 when none did */
	uint64_t lat_p50_ns, lat_p99_ns, lat_max_ns;
};

/*
 * A run's timeline: n points, each interval_ns long (the last one may be
 * shorter; its t_ns says where the window closed). The points are owned by
 * whoever holds the struct (a test_result or a test_run): result_free and
 * timeline_free release them. interval_ns = 0 and n = 0: no timeline (a
 * result saved before timelines existed, or one built by hand).
 *
 * What a point's figures are: ops and bytes are exact (they add up to the
 * run's). t_ns is when the point was taken (the sampler's clock, so within
 * a fraction of a millisecond of the nominal multiple of interval_ns).
 * lat_p50_ns, lat_p99_ns and lat_max_ns are those of the I/Os completed in
 * the interval, from the difference of the jobs' merged histograms at its
 * two ends: at the histogram's resolution (a bucket's midpoint, within
 * HIST_MAX_REL_ERROR, 0.78 %), clamped to the run's exact min and max.
 *
 * merges: how many times the timeline was halved because a window lasted
 * longer than TIMELINE_MAX_POINTS intervals (each time adjacent points are
 * merged and interval_ns doubles). 0: every point is one measured interval.
 * Above 0, each point merges 2^merges measured intervals: its ops and bytes
 * are still exact sums and its lat_max_ns is the largest of theirs (the
 * merged interval's max, as exact as theirs), but percentiles cannot be
 * merged, so its lat_p50_ns and lat_p99_ns are the largest of the merged
 * intervals' own: an upper bound of the merged interval's percentile, never
 * below it.
 */
struct timeline {
	uint64_t interval_ns;
	unsigned n;
	struct timeline_point *p;
	unsigned merges;
};

/* A point's fields in the order of the JSON's "columns": their names, and
 * where each (a uint64_t) is in struct timeline_point. */
#define TIMELINE_NCOLUMNS 6
extern const char *const timeline_columns[TIMELINE_NCOLUMNS];
extern const size_t timeline_column_offsets[TIMELINE_NCOLUMNS];

/* At most this many points per run; reaching it merges them pairwise. */
#define TIMELINE_MAX_POINTS 1024u
/* --interval's range, and the default rule's (timeline_interval). */
#define TIMELINE_MIN_INTERVAL_NS 10000000ull		/* 10 ms */
#define TIMELINE_DEFAULT_INTERVAL_NS 1000000000ull	/* 1 s */
#define TIMELINE_SHORT_FLOOR_NS 100000000ull		/* 100 ms */

void timeline_free(struct timeline *tl);

/*
 * The interval a run of runtime_ns gets: requested_ns when given (non-0),
 * else 1 s, or for a test shorter than 10 s a tenth of its runtime but at
 * least 100 ms (a 2 s test gets 200 ms, a 500 ms one 100 ms). Either is
 * then doubled until the runtime takes fewer than TIMELINE_MAX_POINTS
 * intervals, so that a time-bound test never needs a merge (its
 * percentiles stay exact per interval); only a window that outlasts its
 * runtime by far can still be merged.
 */
uint64_t timeline_interval(uint64_t requested_ns, uint64_t runtime_ns);

/*
 * Recording a timeline from cumulative snapshots: the caller (the runner's
 * own thread) gives, at the end of each interval, how far the run is - its
 * ops, bytes and merged latency histogram since the window opened - and
 * the recorder keeps the difference from the previous snapshot as a point.
 * Times are ns from an origin of the caller's choice (timeline_rec_finish
 * moves them to the window's start).
 */
struct timeline_rec {
	struct timeline tl;	/* the points so far */
	uint64_t next_ns;	/* when the next point is due */
	uint64_t ops, bytes;	/* at the last point */
	struct hist *prev;	/* the histogram at the last point; owned */
	struct hist *diff;	/* scratch: what is new since; owned */
};

/* Set up r for points every interval_ns (> 0): all the memory it will need
 * (TIMELINE_MAX_POINTS points and a histogram) is taken now. Returns 0 or
 * -ENOMEM (r is then empty, timeline_rec_free is still fine). */
int timeline_rec_init(struct timeline_rec *r, uint64_t interval_ns);

/*
 * A point ending at t_ns (after the previous one's), given the run's
 * cumulative ops, bytes and histogram at t_ns (cum: only its counts are
 * read, and its min and max when cum->n says they are valid; see
 * hist_interval). Figures below the previous snapshot's count as no
 * change. When the points reach TIMELINE_MAX_POINTS they are merged
 * pairwise (see struct timeline). Sets r->next_ns to the first multiple of
 * the (possibly doubled) interval after t_ns.
 */
void timeline_rec_add(struct timeline_rec *r, uint64_t t_ns, uint64_t ops, uint64_t bytes,
		      const struct hist *cum);

/*
 * The last point, up to where the window closed (close_ns), from the run's
 * final figures (final: its exact histogram), then the timeline moved to
 * out: every t_ns less start_ns (the window's start; points that end at or
 * before it, which can hold nothing, are dropped), every latency clamped to
 * final's exact min and max, the points array cut to size. A close at or
 * before the last point adds what is left to that point (as a merge would)
 * instead of a point of its own, and that point then ends at close_ns. r's
 * memory is freed; out is the caller's (timeline_free).
 */
void timeline_rec_finish(struct timeline_rec *r, uint64_t close_ns, uint64_t start_ns,
			 uint64_t ops, uint64_t bytes, const struct hist *final,
			 struct timeline *out);

/* Free what r holds (after init, instead of finish). */
void timeline_rec_free(struct timeline_rec *r);

/*
 * Did the throughput drift during the window? The rule: of the timeline's
 * points, leave out a last one shorter than 90 % of interval_ns (a partial
 * interval); with at least TIMELINE_DRIFT_MIN_POINTS left, take each
 * point's throughput (bytes / its duration, or ops / its duration for a
 * test that moves no bytes), and compare the median of the last third of
 * the points with the median of the first third. Returns true with *change
 * = last / first - 1 (-0.38: fell 38 %), or false when the timeline is too
 * short to tell or the first third's median is 0. A change beyond
 * +-TIMELINE_DRIFT_LIMIT flags the test (result_drift, annotate.h).
 */
#define TIMELINE_DRIFT_MIN_POINTS 6u
#define TIMELINE_DRIFT_LIMIT 0.20
bool timeline_drift(const struct timeline *tl, double *change);

#endif
