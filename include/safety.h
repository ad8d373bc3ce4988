/* safety.h - the write gate: may diskbench write to this target, and why. */
#ifndef DISKBENCH_SAFETY_H
#define DISKBENCH_SAFETY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>

#include "target.h"

/* A verdict, with the reason written for a person: "yes, because ..." or
 * "no, because ...", without the yes/no. */
struct safety_verdict {
	bool allowed;		/* writes (and discards) may go ahead */
	bool overridable;	/* refused only for a signature, which naming the
				 * exact device (--destructive=/dev/X) lifts */
	char reason[512];
};

/*
 * May tests write to target t? destructive is NULL when --destructive was
 * not given, "" for a plain --destructive, and the device path for
 * --destructive=DEV. The rules (DESIGN.md section 5):
 *  - a directory: always (its own scratch files; fill is checked apart);
 *  - a regular file: only with --destructive, and never when it is active
 *    swap or backs a loop device that is mounted, swap or held; one that
 *    backs an unused loop device or carries a signature is refused unless
 *    destructive names this exact file (see safety_file_holds_data);
 *  - a block device: only with --destructive, and never when it or any of
 *    its partitions is mounted, is active swap, or has holders (LVM, md,
 *    dm-crypt, bcache) - those are not overridable; a file-system,
 *    partition-table or RAID signature (libblkid) on it or a partition
 *    refuses too, unless destructive names this exact device (symlinks
 *    resolved on both sides).
 * Fills v; returns 0, or -errno when the checks themselves could not run
 * (then v says why and allowed is false). Never prints.
 */
int safety_check_writes(const struct target_info *t, const char *destructive,
			struct safety_verdict *v);

/*
 * Does the regular file st (open for reading as fd) hold data that a
 * benchmark or a report must not overwrite? It does when it is an active
 * swap file, backs a loop device (found by device and inode, whatever its
 * name), or carries a file-system, partition-table or RAID signature. Fills
 * v: allowed when none holds; else the reason ("it backs /dev/loop3, and
 * /dev/loop3 is mounted on /mnt"), overridable unless it is swap or its
 * loop device is in use. Returns 0, or -errno when the probe could not run.
 */
int safety_file_holds_data(int fd, const struct stat *st, struct safety_verdict *v);

/*
 * For a directory: would writing need_bytes leave the file system more than
 * max_fill_pct percent full? Fills v (allowed or not, and why, with the
 * numbers). Returns 0 or -errno.
 */
int safety_check_fill(const struct target_info *t, uint64_t need_bytes, unsigned max_fill_pct,
		      struct safety_verdict *v);

/*
 * The last line of defence: open a block device O_WRONLY | O_EXCL, which the
 * kernel refuses (EBUSY) while anything has it mounted or claimed. Keep the
 * fd open while tests write: it holds the claim. Returns the fd or -errno.
 */
int safety_claim(const char *dev_path);

#endif
