/* cliff.c - the write cliff in a timeline: the best two-rate fit, and whether it fell. */
#include <stdlib.h>

#include "cliff.h"

/* One point as a rate over a duration. */
struct seg_point {
	double ns, bytes;
};

/* Sum of ns x (rate - rate of the points) ^ 2 over p[0..n): how badly one
 * constant rate fits them; the rate itself (bytes/s) into *rate. */
static double misfit(const struct seg_point *p, unsigned n, double *rate)
{
	double ns = 0, bytes = 0, sse = 0;

	for (unsigned i = 0; i < n; i++) {
		ns += p[i].ns;
		bytes += p[i].bytes;
	}
	for (unsigned i = 0; i < n; i++) {
		double d = p[i].bytes / p[i].ns - bytes / ns;

		sse += p[i].ns * d * d;
	}
	*rate = bytes / ns * 1e9;
	return sse;
}

void cliff_find(const struct timeline *tl, struct cliff *out)
{
	struct seg_point *p;
	uint64_t prev = 0;
	unsigned n = 0, best = 0;
	double best_sse = -1, before = 0, after = 0;

	*out = (struct cliff){ 0 };
	if (!tl->n || !(p = calloc(tl->n, sizeof(*p))))
		return;
	for (unsigned i = 0; i < tl->n; i++) {
		if (tl->p[i].t_ns > prev) {
			p[n].ns = (double)(tl->p[i].t_ns - prev);
			p[n++].bytes = (double)tl->p[i].bytes;
		}
		prev = tl->p[i].t_ns > prev ? tl->p[i].t_ns : prev;
	}
	if (n < CLIFF_MIN_POINTS) {
		free(p);
		return;
	}
	for (unsigned k = 2; k + 2 <= n; k++) {
		double rb, ra, sse = misfit(p, k, &rb) + misfit(p + k, n - k, &ra);

		if (best_sse < 0 || sse < best_sse) {
			best_sse = sse;
			best = k;
			before = rb;
			after = ra;
		}
	}
	out->points = n;
	if (after <= (1 - CLIFF_DROP) * before) {
		out->found = true;
		for (unsigned i = 0; i < best; i++) {
			out->bytes_before += (uint64_t)p[i].bytes;
			out->ns_before += (uint64_t)p[i].ns;
		}
		out->rate_before = before;
		out->rate_after = after;
	} else {
		misfit(p, n, &out->rate_before);
	}
	free(p);
}
