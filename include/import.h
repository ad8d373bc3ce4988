/* import.h - other tools' results (fio JSON, hdparm text, bonnie++ CSV) read into a run_result. */
#ifndef DISKBENCH_IMPORT_H
#define DISKBENCH_IMPORT_H

#include <stddef.h>

#include "result.h"

/* The formats import_load reads, told apart by content, never by name. */
enum import_format {
	IMPORT_NONE = 0,	/* none of them: a diskbench result, or nothing known */
	IMPORT_FIO_JSON,	/* fio 3.x --output-format=json or json+ */
	IMPORT_HDPARM,		/* hdparm -t / -T text output */
	IMPORT_BONNIE_CSV,	/* a bonnie++ CSV line, format 1.96 to 2.00 */
};

/* Which format the text buf[0..len) is in (a file's whole content). */
enum import_format import_detect(const char *buf, size_t len);

/*
 * Read buf[0..len), in format fmt, into r (zeroed by the caller): one test
 * per measurement the other tool made, with r->imported_from naming the
 * tool, its version and the file (name). A figure the tool did not give is
 * left missing (an empty histogram, NaN CPU), never 0. Returns 0, or
 * -EINVAL with one line in err, "NAME: what is wrong" (r then holds
 * nothing), or -ENOMEM. Never prints.
 */
int import_load(enum import_format fmt, const char *name, const char *buf, size_t len,
		struct run_result *r, char *err, size_t errlen);

/* The per-format readers behind import_load, same contract. */
int import_fio(const char *name, const char *buf, size_t len, struct run_result *r,
	       char *err, size_t errlen);
int import_hdparm(const char *name, const char *buf, size_t len, struct run_result *r,
		  char *err, size_t errlen);
int import_bonnie(const char *name, const char *buf, size_t len, struct run_result *r,
		  char *err, size_t errlen);

#endif
