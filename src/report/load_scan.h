/* load_scan.h - where a JSON value ends, found without building it (result_load's pieces). */
#ifndef DISKBENCH_LOAD_SCAN_H
#define DISKBENCH_LOAD_SCAN_H

#include <stddef.h>

/* Past white space (space, tab, CR, LF) from buf[pos]: the next offset. */
size_t scan_ws(const char *buf, size_t len, size_t pos);

/*
 * The end of the JSON value that starts at buf[pos] (no white space
 * before it): the offset just past it, in *end. Its brackets must match
 * (at most SCAN_MAX_DEPTH deep), its strings end; what lies between is
 * only skipped (a number, a literal, an escape are checked by whoever
 * parses the span, jansson in result_load). Returns 0, or -EINVAL with
 * *end the offset of the byte that cannot be there (len: the text ended)
 * and *why what was wrong. Time linear in the span, no memory.
 */
#define SCAN_MAX_DEPTH 512
int scan_value(const char *buf, size_t len, size_t pos, size_t *end, const char **why);

#endif
