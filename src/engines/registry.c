/* registry.c - the table of engines, in "auto" preference order, and lookups. */
#include <string.h>

#include "engine.h"

static const struct engine_entry engines[] = {
#ifdef HAVE_LIBURING
	{ "io_uring", &engine_io_uring, NULL },
#else
	{ "io_uring", NULL, "not built: configure found no liburing" },
#endif
#ifdef HAVE_LIBAIO
	{ "libaio", &engine_libaio, NULL },
#else
	{ "libaio", NULL, "not built: configure found no libaio" },
#endif
	{ "sync", &engine_sync, NULL },
	{ "direct", &engine_direct, NULL },
	{ "null", &engine_null, NULL },
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
