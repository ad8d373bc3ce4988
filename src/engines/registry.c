/* registry.c - the table of engines, in "auto" preference order, and lookups. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "engine.h"

static const struct engine_entry engines[] = {
#ifdef HAVE_LIBURING
	{ .name = "io_uring", .ops = &engine_io_uring },
#else
	{ .name = "io_uring", .missing = "not built: configure found no liburing" },
#endif
#ifdef HAVE_LIBAIO
	{ .name = "libaio", .ops = &engine_libaio },
#else
	{ .name = "libaio", .missing = "not built: configure found no libaio" },
#endif
	{ .name = "sync", .ops = &engine_sync },
	{ .name = "direct", .ops = &engine_direct },
	{ .name = "null", .ops = &engine_null },
};
#define NENGINES (sizeof(engines) / sizeof(engines[0]))

/* Rows "auto" may pick: asynchronous first, sync as the fallback that always works. */
static const char *const auto_order[] = { "io_uring", "libaio", "sync" };
#define NAUTO (sizeof(auto_order) / sizeof(auto_order[0]))

const struct engine_entry *engine_table(size_t *n)
{
	*n = NENGINES;
	return engines;
}

unsigned engine_batch(const struct engine_ops *e, unsigned batch, unsigned qd, bool seq)
{
	unsigned b = batch ? batch : e->batch && !seq ? e->batch : 1;

	return b < qd ? b : qd ? qd : 1;
}

const struct engine_ops *engine_find(const char *name)
{
	size_t i;

	for (i = 0; i < NENGINES; i++)
		if (!strcmp(engines[i].name, name))
			return engines[i].ops;
	return NULL;
}

const struct engine_ops *engine_auto(void)
{
	const struct engine_ops *ops;
	char why[256];
	size_t i;

	for (i = 0; i < NAUTO; i++) {
		ops = engine_find(auto_order[i]);
		if (ops && !ops->probe(why, sizeof(why)))
			return ops;
	}
	return NULL;
}

int engine_pick(const char *name, const struct engine_ops **out, char *why, size_t whylen)
{
	char reason[200] = "";

	if (!strcmp(name, "auto")) {
		*out = engine_auto();
		if (*out)
			return 0;
		snprintf(why, whylen, "--engine auto: no engine works on this machine");
		return -ENODEV;
	}
	for (size_t i = 0; i < NENGINES; i++) {
		if (strcmp(engines[i].name, name))
			continue;
		if (!engines[i].ops) {
			snprintf(why, whylen, "--engine %s: %s", name, engines[i].missing);
			return -ENODEV;
		}
		if (engines[i].ops->probe(reason, sizeof(reason)) < 0) {
			snprintf(why, whylen, "--engine %s does not work here: %s", name, reason);
			return -ENODEV;
		}
		*out = engines[i].ops;
		return 0;
	}
	snprintf(why, whylen, "--engine: unknown engine '%s' (see: diskbench list engines)", name);
	return -ENOENT;
}
