/* steady.h - steady state over a test's rounds, as the SNIA Performance Test Specification defines it. */
#ifndef DISKBENCH_STEADY_H
#define DISKBENCH_STEADY_H

#include <stdbool.h>

/* The criteria; steady_defaults() gives the PTS's. */
struct steady_params {
	unsigned window;	/* rounds in the measurement window: 5 */
	double max_range;	/* max - min of the window, a fraction of its average: 0.20 */
	double max_excursion;	/* |slope| x (window - 1) of its least-squares line, likewise: 0.10 */
	unsigned max_rounds;	/* give up after this many rounds: 25 */
};

void steady_defaults(struct steady_params *p);

/* One window of rounds, measured. range and excursion are fractions of the
 * average (0 when the average is 0). */
struct steady_window {
	unsigned first, n;	/* rounds [first, first + n) */
	double average, range, excursion, slope, intercept;
	bool steady;		/* both within the criteria */
};

/*
 * The window x[first .. first + p->window) of a per-round metric x (IOPS,
 * MB/s: one value per round, in round order): its average, its range
 * (max - min), and the least-squares line y = intercept + slope * k over
 * k = 0 .. window - 1, whose excursion across the window is |slope| x
 * (window - 1). Needs first + window <= n.
 */
void steady_measure(const double *x, unsigned first, const struct steady_params *p,
		    struct steady_window *out);

/*
 * The first window of x[0..n) that is at steady state, into *out (steady
 * true), scanning windows that end at round window - 1, window, ... n - 1:
 * what a run that checks after every round would find, so it stops there.
 * With none, *out is the last window measured (steady false), or all zero
 * with fewer than window rounds. Rounds past max_rounds are not looked at.
 * Returns 1 steady, 0 not (yet), -EINVAL for criteria that cannot work (a
 * window under 2 rounds or above max_rounds, a limit not above 0). A pure
 * function: no clock, no I/O.
 */
int steady_detect(const double *x, unsigned n, const struct steady_params *p,
		  struct steady_window *out);

#endif
