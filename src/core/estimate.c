/* estimate.c - how long a plan will take, said before it starts. */
#include <string.h>

#include "estimate.h"
#include "plan.h"
#include "workload.h"

void plan_estimate(const struct plan *p, unsigned passes, uint64_t round_ns, bool rounds,
		   struct plan_estimate *e)
{
	memset(e, 0, sizeof(*e));
	e->bound = rounds;
	for (unsigned i = 0; i < p->n; i++) {
		const struct test_spec *t = &p->specs[i];
		uint64_t window = rounds && round_ns ? round_ns : t->runtime_ns;

		e->runs += passes;
		if (t->wl && t->wl->whole) {
			e->open_ended += passes;
			continue;
		}
		e->ns += (uint64_t)passes * (t->ramp_ns + window);
	}
}
