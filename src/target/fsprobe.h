/* fsprobe.h - what a file system says about itself: its magic, btrfs members, O_DIRECT. */
#ifndef DISKBENCH_FSPROBE_H
#define DISKBENCH_FSPROBE_H

#include <stddef.h>

#include "target.h"

/* statfs(2) f_type magics (linux/magic.h; ZFS is out of tree) */
#define FSPROBE_BTRFS_MAGIC	0x9123683eL
#define FSPROBE_ECRYPTFS_MAGIC	0xf15fL
#define FSPROBE_ZFS_MAGIC	0x2fc12fc1L

/* The statfs magic of the file system path is on, or 0 when statfs fails. */
long fsprobe_magic(const char *path);

/*
 * The member devices of the btrfs that path is on, as sysfs block names
 * ("loop3"), space separated into names, in version order (loop2 before
 * loop10): the fsid from BTRFS_IOC_FS_INFO names /sys/fs/btrfs/<fsid>/
 * devices/, whose entries are the members. Returns how many there are (0
 * when none fit names), or -errno (-ENOTTY: not btrfs).
 */
int fsprobe_btrfs_members(const char *path, char *names, size_t len);

/*
 * Does the data of t take O_DIRECT? A file is opened with it; in a
 * directory an unnamed O_TMPFILE is, which leaves nothing behind. 1 yes,
 * 0 refused (EINVAL), -1 unknown (a block device, no permission, no
 * O_TMPFILE support).
 */
int fsprobe_direct_io(const struct target_info *t);

#endif
