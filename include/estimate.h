/* estimate.h - how long a plan will take, said before it starts. */
#ifndef DISKBENCH_ESTIMATE_H
#define DISKBENCH_ESTIMATE_H

#include <stdbool.h>
#include <stdint.h>

struct plan;

struct plan_estimate {
	uint64_t ns;		/* the ramps and windows of every test of every pass */
	unsigned runs;		/* tests x passes */
	unsigned open_ended;	/* runs of a test that goes on until it is done
				 * (wl->whole: the verify test), not in ns */
	bool bound;		/* ns is an upper bound, not an expectation
				 * (--steady-state stops once rounds settle) */
};

/*
 * What p's tests take, run passes times each (--repeat; for --steady-state
 * its most rounds, each round round_ns when not 0, and bound set). A test
 * that may end early (out of work, or at the end of its passes) counts its
 * whole runtime: the estimate errs long. Setup (files of the metadata
 * tests, a layout, a precondition) is not in it. Pure.
 */
void plan_estimate(const struct plan *p, unsigned passes, uint64_t round_ns, bool rounds,
		   struct plan_estimate *e);

#endif
