/* iolimit.h - the cgroup I/O limits (v1 blkio throttle, v2 io.max) the process runs under. */
#ifndef DISKBENCH_IOLIMIT_H
#define DISKBENCH_IOLIMIT_H

#include <stddef.h>
#include <sys/types.h>

/*
 * The I/O limits that the cgroups of a process put on devices devs[0..n)
 * (names[i] the sysfs name of devs[i], for the words), in words, into out
 * (len > 0): "loop3: read 2000 IOPS, write 50.0 MB/s (blkio
 * /bench)"; rules for several devices are joined with "; ". "" when none
 * applies. A limit set on an ancestor binds its children, so every cgroup
 * from the process's own up to the root is read; each rule is said with
 * the cgroup that sets it.
 *
 * cgroup is the process's membership file (/proc/self/cgroup), root the
 * cgroup mounts' top (/sys/fs/cgroup); a tree rooted elsewhere works the
 * same, for tests. cgroup v1: the "blkio" hierarchy under root/blkio, its
 * blkio.throttle.{read,write}_{bps,iops}_device files; cgroup v2: io.max
 * ("MAJ:MIN rbps=max wbps=max riops=2000 wiops=max") under root (or
 * root/unified in a hybrid layout). Returns 0, or -errno when cgroup
 * cannot be read (out is then "").
 */
int iolimit_probe(const char *cgroup, const char *root, const dev_t *devs,
		  const char *const *names, unsigned n, char *out, size_t len);

#endif
