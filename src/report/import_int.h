/* import_int.h - what the importers (import_*.c) share (private to src/report). */
#ifndef DISKBENCH_IMPORT_INT_H
#define DISKBENCH_IMPORT_INT_H

#include <stddef.h>

#include "result.h"

/* Start r as a result tool made (version "" when it names none), read
 * from file name: its origin, and a target of kind whose every fact is
 * unknown until the importer sets it. */
void import_begin(struct run_result *r, const char *tool, const char *version,
		  const char *name, enum target_kind kind);

/* Keep test t in r when ret (what reading it returned) is 0. On an error,
 * t's own memory is freed and, when out of memory, err says so for
 * name. Returns 0 or the error. */
int import_keep(struct run_result *r, struct test_result *t, int ret, const char *name,
		char *err, size_t errlen);

/* The end of an importer: on an error (ret != 0) r is freed and left
 * empty, as import_load promises. Returns ret. */
int import_end(struct run_result *r, int ret);

#endif
