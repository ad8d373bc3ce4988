/* mountinfo.h - the mounts of /proc/self/mountinfo, one parsed line at a time. */
#ifndef DISKBENCH_MOUNTINFO_H
#define DISKBENCH_MOUNTINFO_H

#include <sys/types.h>

/*
 * One line of /proc/self/mountinfo (proc(5)):
 * 27 1 254:0 / / rw,relatime [optional...] - ext4 /dev/vda rw,discard
 * The strings point into the line and live until the callback returns.
 */
struct mnt_entry {
	dev_t dev;		/* MAJ:MIN of the mounted file system; major 0 is
				 * anonymous (tmpfs, overlay, btrfs) */
	const char *root;	/* the mount's root within its file system */
	const char *point;	/* mount point, unescaped */
	const char *options;	/* per-mount options: "rw,relatime" */
	const char *fstype;
	const char *source;	/* "/dev/vda", "tmpfs"; unescaped */
	const char *super;	/* per-superblock options; "" when none */
};

/*
 * Call fn(entry, arg) for every mount, in mountinfo's order (a later line
 * on the same mount point is mounted on top of an earlier one), until fn
 * returns non-zero; a line that does not parse is passed over. Returns
 * what fn returned to stop, 0 at the end of the table, or -errno when
 * mountinfo cannot be read (fn should stop with a positive value).
 */
int mnt_walk(int (*fn)(const struct mnt_entry *m, void *arg), void *arg);

/* Undo, in place, the octal escapes the kernel writes in mountinfo and
 * /proc/swaps paths: \040 space, \011 tab, \012 newline, \134 backslash. */
void mnt_unescape(char *s);

#endif
