/* strutil.h - small string helpers shared by the probes. */
#ifndef DISKBENCH_STRUTIL_H
#define DISKBENCH_STRUTIL_H

#include <stddef.h>

/* Copy src to dst (dstlen > 0) without leading and trailing white space,
 * truncated to fit and always terminated. */
void str_copy_trimmed(char *dst, size_t dstlen, const char *src);

#endif
