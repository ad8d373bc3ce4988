/* strutil.c - small string helpers shared by the probes. */
#include <ctype.h>
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
