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
