/* run_health.c - the drive's health around a run: smartctl before, after each test, after. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "health.h"
#include "report.h"
#include "run_int.h"

void run_health_before(struct run_ctx *c)
{
	struct run_health *h = &c->r.health;
	int ret;

	memset(c->thermal, -1, sizeof(c->thermal));
	h->checked = true;
	health_snap_init(&h->before);
	health_snap_init(&h->after);
	if (!c->ti.disk[0]) {
		snprintf(h->why, sizeof(h->why), "no block device under the target: no drive to ask");
		return;
	}
	snprintf(c->health_dev, sizeof(c->health_dev), "/dev/%.64s", c->ti.disk);
	ret = health_read(c->health_dev, HEALTH_TIMEOUT_MS, &h->before, h->why, sizeof(h->why));
	if (ret == -ETIMEDOUT)
		result_add_warning(&c->r, "health: %s: %s; the run goes on without it",
				   c->health_dev, h->why);
	if (ret)
		return;
	c->health_on = true;
	c->health_last = h->before;
}

int run_health_tested(void *arg, unsigned i, const struct test_result *tr)
{
	struct run_ctx *c = arg;
	struct health_snap now;
	char why[256];
	int ret, t;

	(void)tr;
	if (!c->health_on || i >= MAX_PLAN)
		return 0;
	ret = health_read(c->health_dev, HEALTH_TIMEOUT_MS, &now, why, sizeof(why));
	if (ret) {
		/* a drive that stops answering is not asked again in this run */
		c->health_on = false;
		result_add_warning(&c->r, "health: %s: %s", c->health_dev, why);
		return 0;
	}
	t = health_thermal(&c->health_last, &now);
	if (t > c->thermal[i])
		c->thermal[i] = (signed char)t;
	c->health_last = now;
	return 0;
}

int run_health_after(struct run_ctx *c)
{
	struct run_health *h = &c->r.health;
	int64_t media;
	char why[256];

	if (c->health_on && health_read(c->health_dev, HEALTH_TIMEOUT_MS, &h->after, why,
					sizeof(why)))
		snprintf(h->why, sizeof(h->why), "after the run: %s", why);
	for (unsigned i = 0; i < c->r.ntests && i < MAX_PLAN; i++) {
		c->r.tests[i].thermal_known = c->thermal[i] >= 0;
		c->r.tests[i].thermal_throttling = c->thermal[i] > 0;
		if (c->thermal[i] > 0)
			result_add_warning(&c->r, "%.*s: the drive throttled for heat during it "
					   "(smartctl's thermal counters or temperature): its "
					   "figures are not the drive's cool speed",
					   (int)sizeof(c->r.tests[i].name), c->r.tests[i].name);
	}
	media = health_delta(h->before.media_errors, h->after.media_errors);
	if (media > 0) {
		result_add_warning(&c->r, "health: %s counted %" PRId64 " new media error%s during "
				   "the run: back up what it holds", c->health_dev, media,
				   media == 1 ? "" : "s");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}
