/* timeline.h - a test's progress over its measured window, interval by interval. */
#ifndef DISKBENCH_TIMELINE_H
#define DISKBENCH_TIMELINE_H

#include <stdint.h>

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
 */
struct timeline {
	uint64_t interval_ns;
	unsigned n;
	struct timeline_point *p;
};

void timeline_free(struct timeline *tl);

#endif
