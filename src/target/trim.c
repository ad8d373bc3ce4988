/* trim.c - discard before a write test: FITRIM of a file system, BLKDISCARD of a device range. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "target.h"

int target_trim(enum target_kind kind, int fd, uint64_t len, struct target_trim *out)
{
	*out = (struct target_trim){ 0 };
	switch (kind) {
	case TARGET_DIR: {
		/* what fstrim does: every free extent of the file system */
		struct fstrim_range r = { .start = 0, .len = UINT64_MAX, .minlen = 0 };

		out->method = "fitrim";
		if (ioctl(fd, FITRIM, &r) < 0)
			return errno == ENOTTY ? -EOPNOTSUPP : -errno;
		out->bytes = r.len;
		return 0;
	}
	case TARGET_BLOCK: {
		uint64_t range[2] = { 0, len };

		out->method = "blkdiscard";
		if (ioctl(fd, BLKDISCARD, range) < 0)
			return errno == ENOTTY ? -EOPNOTSUPP : -errno;
		out->bytes = len;
		return 0;
	}
	default:
		return -EOPNOTSUPP;
	}
}

int target_trim_supported(int fd)
{
	/* A range shorter than a block: ext4, xfs and btrfs check for a
	 * device that discards first (-EOPNOTSUPP), then refuse the range
	 * (-EINVAL) without trimming anything; a file system without FITRIM
	 * has no such ioctl (-ENOTTY). */
	struct fstrim_range r = { .start = 0, .len = 0, .minlen = 0 };

	if (!ioctl(fd, FITRIM, &r) || errno == EINVAL)
		return 0;
	return errno == ENOTTY ? -EOPNOTSUPP : -errno;
}
