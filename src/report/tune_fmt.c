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

const char *tune_effect_words(const struct tune_sweep *s, const struct tune_sweep_effect *e,
			      char *buf, size_t len)
{
	const char *cause = tune_knob_attr(e->fx.cause), *knob = tune_knob_attr(e->fx.knob);

	if (e->fx.cause == s->knob)
		snprintf(buf, len, "side effect: %s %s sets %s to %s (it was %s): those trials ran "
			 "with it as the kernel sets it; it is put back after", cause,
			 s->configs[e->config], knob, e->fx.kept, e->fx.wanted);
	else
		snprintf(buf, len, "side effect: with %s=%s, a new %s sets %s to %s (it was %s): "
			 "those trials ran with it as the kernel sets it; it is put back after",
			 tune_knob_option(s->knob), s->configs[e->config], cause, knob, e->fx.kept,
			 e->fx.wanted);
	return buf;
}

/* "at trial 3 of 145", "before its first trial (of 145)" */
static const char *stop_when(const struct tune_stop *st, char *buf, size_t len)
{
	if (st->trial)
		snprintf(buf, len, "at trial %u of %u", st->trial, st->total);
	else
		snprintf(buf, len, "before its first trial (of %u)", st->total);
	return buf;
}

bool tune_stop_words(const struct tune_result *r, char *buf, size_t len)
{
	const struct tune_stop *st = &r->stop;
	char when[64];

	if (!st->stopped)
		return false;
	snprintf(buf, len, "Stopped %s, nothing is recommended: %s. What to do: %s.",
		 stop_when(st, when, sizeof(when)), st->reason, st->todo);
	return true;
}

const char *tune_stop_warning(const struct tune_result *r, char *buf, size_t len)
{
	char when[64];

	snprintf(buf, len, "tune stopped %s: %s", stop_when(&r->stop, when, sizeof(when)),
		 r->stop.reason);
	return buf;
}

bool tune_is_stop_warning(const struct tune_result *r, const char *warning)
{
	char w[640];

	if (!r->stop.stopped || !warning)
		return false;
	return !strcmp(tune_stop_warning(r, w, sizeof(w)), warning);
}
