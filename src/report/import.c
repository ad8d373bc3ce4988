/* import.c - which other tool's result a file is, by its content; the dispatch to its reader. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "import.h"
#include "import_int.h"

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

void import_begin(struct run_result *r, const char *tool, const char *version,
		  const char *name, enum target_kind kind)
{
	r->tool_version = PACKAGE_VERSION;
	snprintf(r->imported_from.tool, sizeof(r->imported_from.tool), "%s", tool);
	snprintf(r->imported_from.version, sizeof(r->imported_from.version), "%s",
		 version ? version : "");
	snprintf(r->imported_from.file, sizeof(r->imported_from.file), "%s", name);
	r->target.kind = kind;
	r->target.rotational = r->target.write_cache = r->target.discard = -1;
	r->target.io_poll = r->target.direct_io = r->target.loop_dio = -1;
	r->target.backing_rotational = -1;
	r->target.read_ahead_kb = r->target.nr_requests = r->target.max_sectors_kb = -1;
}

int import_keep(struct run_result *r, struct test_result *t, int ret, const char *name,
		char *err, size_t errlen)
{
	if (!ret)
		ret = result_add_test(r, t);
	if (ret) {
		result_test_free(t);
		if (ret == -ENOMEM)
			snprintf(err, errlen, "%s: out of memory", name);
	}
	return ret;
}

int import_end(struct run_result *r, int ret)
{
	if (ret) {
		result_free(r);
		memset(r, 0, sizeof(*r));
	}
	return ret;
}
