/* tune_fmt.c - what the tune reporters say alike: a value's label, the udev rule that keeps a recommendation. */
#include <stdio.h>
#include <string.h>

#include "tune_result.h"

const char *tune_config_label(const struct tune_sweep *s, unsigned k, char *buf, size_t len)
{
	if (!k)
		snprintf(buf, len, "%s (current)", s->configs[0]);
	else if (tune_is_control(s, k))
		snprintf(buf, len, "%s (again)", s->configs[k]);
	else
		snprintf(buf, len, "%s", s->configs[k]);
	return buf;
}

bool tune_is_control(const struct tune_sweep *s, unsigned k)
{
	return k && k < s->nconfig && !strcmp(s->configs[k], s->configs[0]);
}

bool tune_udev_rule(const struct tune_result *r, char *buf, size_t len)
{
	size_t used;
	bool any = false;

	used = (size_t)snprintf(buf, len, "ACTION==\"add|change\", KERNEL==\"%s\"", r->queue.disk);
	for (unsigned i = 0; i < r->nsweeps; i++) {
		const struct tune_sweep *s = &r->sweeps[i];

		if (s->recommended < 0 || used >= len)
			continue;
		any = true;
		used += (size_t)snprintf(buf + used, len - used, ", ATTR{queue/%s}=\"%s\"",
					 tune_knob_attr(s->knob), s->configs[s->recommended]);
	}
	return any;
}
