/* parse.h - strict parsers for sizes, durations, counts and lists. */
#ifndef DISKBENCH_PARSE_H
#define DISKBENCH_PARSE_H

#include <stddef.h>
#include <stdint.h>

/*
 * All parsers take the whole string (no trailing junk, no leading sign,
 * no empty string) and return 0, -EINVAL for malformed input, or -ERANGE
 * for a value that overflows or falls outside [min, max]. Never print.
 */

/* Sizes: a decimal number with an optional suffix. k/m/g/t and K/M/G/T,
 * KiB/MiB/GiB/TiB are powers of 1024 (as dd and bonnie++); kB/MB/GB/TB
 * powers of 1000; b or B or none = bytes. "4k" = 4096, "1MB" = 1000000.
 * A fraction is accepted when the result is a whole number of bytes
 * ("1.5k" = 1536, "0.5" is -EINVAL). */
int parse_size(const char *s, uint64_t *out);

/* Durations into ns: a number with ns/us/ms/s/m/h; no suffix means
 * seconds. "500ms", "5s", "2m", "1.5s". */
int parse_duration(const char *s, uint64_t *out_ns);

/* A decimal count in [min, max]. */
int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out);

/* A percentage: a decimal number, "3", "2.5" or "3%" (one form for every
 * option that takes one: --noise of tune and compare). *out is the number
 * (3 for "3%"), never negative, NaN or infinite: else -EINVAL. The caller
 * checks the range, which differs by option. */
int parse_percent(const char *s, double *out);

/* Split a comma list into at most max items, each parsed with fn (one of
 * the above with min/max folded in by the caller through a wrapper), into
 * out[]. Empty items are -EINVAL. Sets *n. */
int parse_size_list(const char *s, uint64_t *out, size_t max, size_t *n);
int parse_count_list(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     size_t max_items, size_t *n);

/* CPU list "0-3,6,8-9" into out[] (ascending as written, no duplicates
 * check); each CPU < 4096. Sets *n. */
int parse_cpu_list(const char *s, int *out, size_t max, size_t *n);

/* Render bytes as a size string that parse_size() reads back: "4k", "1m",
 * "1536", choosing the largest exact binary suffix. Returns buf. */
char *format_size(uint64_t bytes, char *buf, size_t len);

#endif
