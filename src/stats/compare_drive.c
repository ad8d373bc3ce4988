/* compare_drive.c - did the drive itself change between two results (compare.h). */
#include <stdio.h>
#include <string.h>

#include "compare.h"

/* Two fixed arrays, both known, and not the same string. */
static bool known_and_differ(const char *x, const char *y, size_t len)
{
	return x[0] && y[0] && strncmp(x, y, len);
}

/* "MODEL (serial S)", the parts that are known. */
static void who(char *out, size_t len, const struct target_info *t)
{
	snprintf(out, len, "%.*s%s(serial %.*s)", (int)sizeof(t->model),
		 t->model[0] ? t->model : "unknown model", " ", (int)sizeof(t->serial),
		 t->serial[0] ? t->serial : "unknown");
}

bool compare_drive_changed(const struct run_result *before, const struct run_result *after,
			   char *words, size_t len)
{
	const struct target_info *b = &before->target, *a = &after->target;
	char x[320], y[320];

	if (!known_and_differ(b->serial, a->serial, sizeof(b->serial)) &&
	    !known_and_differ(b->model, a->model, sizeof(b->model))) {
		if (len)
			words[0] = '\0';
		return false;
	}
	who(x, sizeof(x), b);
	who(y, sizeof(y), a);
	snprintf(words, len, "different drive: %s -> %s", x, y);
	return true;
}
