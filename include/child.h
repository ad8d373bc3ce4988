/* child.h - a child process that may be left in the kernel: what it holds, what it hears. */
#ifndef DISKBENCH_CHILD_H
#define DISKBENCH_CHILD_H

#include <stdbool.h>
#include <sys/types.h>

/*
 * Set up a child of fork() whose call may wait in the kernel for ever on
 * a device that stopped answering, and be left there by its parent (a
 * job process, jobs.c; a watched call on the target, bounded.c): SIGINT
 * ignored (the parent relays a stop its own way), SIGTERM and SIGHUP at
 * their defaults, its standard descriptors on /dev/null, so that it holds
 * no pipe of the user's (a `diskbench ... 2>&1 | tee log` would wait for
 * it; a sanitizer build keeps stderr, for its report), and killed when
 * its parent dies. Returns false when the parent, parent, died before
 * that took hold: the child should _exit(0) at once.
 */
bool child_detach(pid_t parent);

#endif
