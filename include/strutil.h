/* strutil.h - small string helpers shared by the probes and the checks. */
#ifndef DISKBENCH_STRUTIL_H
#define DISKBENCH_STRUTIL_H

#include <stddef.h>
#include <stdint.h>

/* Copy src to dst (dstlen > 0) without leading and trailing white space,
 * truncated to fit and always terminated. */
void str_copy_trimmed(char *dst, size_t dstlen, const char *src);

/* bytes for a message, in binary units with one decimal: "1.0 GiB",
 * "512 B". Returns buf. */
const char *str_bytes_iec(uint64_t bytes, char *buf, size_t len);

/*
 * The words argv[0..argc) as one line a POSIX shell reads back as the same
 * words: a word of only safe characters (letters, digits, and
 * "%+,-./:=@_") as it is, any other in single quotes ('\'' for a quote),
 * an empty word as ''. Truncated at a word boundary with " ..." when buf is
 * too small (len >= 8). Returns buf.
 */
const char *str_shell_join(char *buf, size_t len, int argc, char *const *argv);

#endif
