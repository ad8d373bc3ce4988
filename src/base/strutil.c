/* strutil.c - small string helpers shared by the probes and the checks. */
#include <ctype.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "strutil.h"

void str_copy_trimmed(char *dst, size_t dstlen, const char *src)
{
	size_t len;

	while (isspace((unsigned char)*src))
		src++;
	len = strlen(src);
	while (len && isspace((unsigned char)src[len - 1]))
		len--;
	if (len >= dstlen)
		len = dstlen - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

const char *str_bytes_iec(uint64_t bytes, char *buf, size_t len)
{
	static const char *const units[] = { "B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB" };
	double x = (double)bytes;
	unsigned u = 0;

	while (x >= 1024 && u + 1 < sizeof(units) / sizeof(units[0])) {
		x /= 1024;
		u++;
	}
	if (u == 0)
		snprintf(buf, len, "%" PRIu64 " B", bytes);
	else
		snprintf(buf, len, "%.1f %s", x, units[u]);
	return buf;
}

static int shell_safe(const char *w)
{
	if (!*w)
		return 0;
	for (; *w; w++)
		if (!isalnum((unsigned char)*w) && !strchr("%+,-./:=@_", *w))
			return 0;
	return 1;
}

const char *str_shell_join(char *buf, size_t len, int argc, char *const *argv)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int i = 0; i < argc; i++) {
		char word[4096];
		size_t n = 0;
		const char *p;

		if (shell_safe(argv[i])) {
			n = (size_t)snprintf(word, sizeof(word), "%s", argv[i]);
		} else {
			word[n++] = '\'';
			for (p = argv[i]; *p && n + 6 < sizeof(word); p++) {
				if (*p == '\'') {
					memcpy(word + n, "'\\''", 4);
					n += 4;
				} else {
					word[n++] = *p;
				}
			}
			word[n++] = '\'';
			word[n] = '\0';
		}
		if (used + (i ? 1 : 0) + n + 5 > len) {
			/* " ..." at a word boundary, never half a word */
			if (used + 5 <= len)
				memcpy(buf + used, " ...", 5);
			return buf;
		}
		used += (size_t)snprintf(buf + used, len - used, "%s%s", i ? " " : "", word);
	}
	return buf;
}
