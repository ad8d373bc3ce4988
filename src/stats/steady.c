/* steady.c - the SNIA PTS steady-state test: range and slope excursion over a window of rounds. */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "steady.h"

void steady_defaults(struct steady_params *p)
{
	*p = (struct steady_params){ .window = 5, .max_range = 0.20, .max_excursion = 0.10,
				     .max_rounds = 25 };
}

void steady_measure(const double *x, unsigned first, const struct steady_params *p,
		    struct steady_window *out)
{
	const unsigned w = p->window;
	double sum = 0, lo = x[first], hi = x[first], kmean = (w - 1) / 2.0, sxy = 0, sxx = 0;
	unsigned k;

	for (k = 0; k < w; k++) {
		double y = x[first + k];

		sum += y;
		lo = fmin(lo, y);
		hi = fmax(hi, y);
	}
	*out = (struct steady_window){ .first = first, .n = w, .average = sum / w };
	/* least squares over k = 0 .. w - 1 */
	for (k = 0; k < w; k++) {
		sxy += (k - kmean) * (x[first + k] - out->average);
		sxx += (k - kmean) * (k - kmean);
	}
	out->slope = sxx > 0 ? sxy / sxx : 0;
	out->intercept = out->average - out->slope * kmean;
	if (out->average > 0) {
		out->range = (hi - lo) / out->average;
		out->excursion = fabs(out->slope) * (w - 1) / out->average;
	}
	out->steady = out->average > 0 && out->range <= p->max_range &&
		      out->excursion <= p->max_excursion;
}

int steady_detect(const double *x, unsigned n, const struct steady_params *p,
		  struct steady_window *out)
{
	memset(out, 0, sizeof(*out));
	if (p->window < 2 || p->window > p->max_rounds || !(p->max_range > 0) ||
	    !(p->max_excursion > 0))
		return -EINVAL;
	if (n > p->max_rounds)
		n = p->max_rounds;
	for (unsigned end = p->window; end <= n; end++) {
		steady_measure(x, end - p->window, p, out);
		if (out->steady)
			return 1;
	}
	return 0;
}
