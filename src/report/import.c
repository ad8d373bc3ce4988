/* import.c - which other tool's result a file is, by its content; the dispatch to its reader. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "import.h"

/* Does the first n bytes of buf hold needle? (memmem, bounded) */
static bool has(const char *buf, size_t len, size_t n, const char *needle)
{
	return memmem(buf, len < n ? len : n, needle, strlen(needle)) != NULL;
}

enum import_format import_detect(const char *buf, size_t len)
{
	size_t i = 0;

	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	/* fio's JSON names itself in its first member; a diskbench result
	 * starts with "schema" and never has that key at its top. */
	if (i < len && buf[i] == '{' && has(buf + i, len - i, 256, "\"fio version\""))
		return IMPORT_FIO_JSON;
	/* hdparm's own lines (" Timing buffered disk reads: ..."), which
	 * begin no JSON document and no HTML page */
	if (i < len && buf[i] != '{' && buf[i] != '<' && has(buf, len, 4096, " Timing ") &&
	    (has(buf, len, 4096, " disk reads: ") || has(buf, len, 4096, " cached reads: ")))
		return IMPORT_HDPARM;
	/* bonnie++'s CSV line opens with its format's version */
	if (len - i > 5 && buf[i + 4] == ',' && (!memcmp(buf + i, "1.96", 4) ||
	    !memcmp(buf + i, "1.97", 4) || !memcmp(buf + i, "1.98", 4) ||
	    !memcmp(buf + i, "2.00", 4)))
		return IMPORT_BONNIE_CSV;
	return IMPORT_NONE;
}

int import_load(enum import_format fmt, const char *name, const char *buf, size_t len,
		struct run_result *r, char *err, size_t errlen)
{
	switch (fmt) {
	case IMPORT_FIO_JSON:
		return import_fio(name, buf, len, r, err, errlen);
	case IMPORT_HDPARM:
		return import_hdparm(name, buf, len, r, err, errlen);
	case IMPORT_BONNIE_CSV:
		return import_bonnie(name, buf, len, r, err, errlen);
	case IMPORT_NONE:
		break;
	}
	snprintf(err, errlen, "%s: not a result of a tool diskbench reads", name);
	return -EINVAL;
}
