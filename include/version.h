/* version.h - what this build of diskbench is: its version, the git commit
 * it was built from, and the engines and optional parts compiled in. */
#ifndef DISKBENCH_VERSION_H
#define DISKBENCH_VERSION_H

#include <stddef.h>

/* The --version text into buf (at most len bytes, always terminated):
 *   diskbench VERSION[ (git COMMIT)]
 *   engines: NAME, NAME (not built: NAME: WHY), ...
 *   optional: PART yes|no, ...
 * The first line alone is what scripts match ("^diskbench [0-9]"). The
 * commit is the one `make` saw (git describe --always --dirty), absent when
 * built from a tarball. Engines are those compiled in, not probed: whether
 * io_uring works on this kernel is `diskbench list engines`. */
void version_text(char *buf, size_t len);

#endif
