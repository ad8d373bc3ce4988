/* sysfs.h - small sysfs, cgroup and /proc files read as values; what a block device is. */
#ifndef DISKBENCH_SYSFS_H
#define DISKBENCH_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * The text of the small file whose path fmt makes (a sysfs attribute, a
 * cgroup or /proc value), without leading and trailing white space, into
 * buf (len > 0), truncated to fit. One read(2) of at most a page, which
 * sysfs answers whole. Returns 0 (an empty file gives "") or -errno;
 * -ENAMETOOLONG when the path does not fit PATH_MAX.
 */
int sysfs_read(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* The same file as an unsigned decimal ("128", "128 kB"); "max" (cgroup
 * v2: no limit) is UINT64_MAX. Returns 0, -EINVAL when it holds no number
 * or one out of range, or sysfs_read's error; *out is set only on 0. */
int sysfs_read_u64(uint64_t *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The same file as a device number "MAJ:MIN" (a sysfs "dev" attribute).
 * Returns 0, -EINVAL or sysfs_read's error; *out is set only on 0. */
int sysfs_read_devno(dev_t *out, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* The sysfs name of block device dev into name ("sda", "nvme0n1p2",
 * "dm-0"), found by number through the /sys/dev/block/MAJ:MIN link, so a
 * symlink, a /dev/mapper alias or a renamed node all give the same name.
 * Returns 0, -ENAMETOOLONG (never a cut, wrong name) or -errno. */
int sysfs_block_name(dev_t dev, char *name, size_t len);

/* A layer a block device adds over the devices it is built on. */
struct sysfs_layer {
	const char *name;	/* "LVM", "dm-crypt", "md RAID", "bcache"... */
	bool encrypts;
};

/*
 * The layer block device <name> (a sysfs name, "dm-0", "md127") adds: for
 * device-mapper the one its dm/uuid prefix names (the tool that made the
 * mapping sets it: "LVM-", "CRYPT-", "mpath-", "VERITY-", "INTEGRITY-"),
 * md RAID, bcache. NULL for anything else: a disk, a partition, a loop
 * device, or a mapping that only moves blocks (linear, kpartx partitions),
 * for which *dm (when dm is not NULL) says device-mapper.
 */
const struct sysfs_layer *sysfs_layer_of(const char *name, bool *dm);

/* The layer a device-mapper device adds, from its dm/uuid text
 * ("CRYPT-LUKS2-<uuid>-<name>": dm-crypt, which encrypts); NULL for a
 * mapping that only moves blocks or an unknown prefix. Pure. */
const struct sysfs_layer *sysfs_dm_layer(const char *uuid);

#endif
