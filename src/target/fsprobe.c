/* fsprobe.c - what a file system says about itself: its magic, btrfs members, O_DIRECT. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/btrfs.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "fsprobe.h"

long fsprobe_magic(const char *path)
{
	struct statfs sf;

	if (statfs(path, &sf))
		return 0;
	return (long)sf.f_type;
}

static int by_version(const struct dirent **a, const struct dirent **b)
{
	return strverscmp((*a)->d_name, (*b)->d_name);
}

static int not_dot(const struct dirent *de)
{
	return de->d_name[0] != '.';
}

int fsprobe_btrfs_members(const char *path, char *names, size_t len)
{
	struct btrfs_ioctl_fs_info_args fi;
	struct dirent **de = NULL;
	const unsigned char *u = fi.fsid;
	char dir[128];
	size_t used = 0, n;
	int fd, k, count = 0, ret;

	if (!len)
		return -EINVAL;
	names[0] = '\0';
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&fi, 0, sizeof(fi));
	ret = ioctl(fd, BTRFS_IOC_FS_INFO, &fi) ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	snprintf(dir, sizeof(dir), "/sys/fs/btrfs/%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-"
		 "%02x%02x%02x%02x%02x%02x/devices", u[0], u[1], u[2], u[3], u[4], u[5], u[6],
		 u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
	k = scandir(dir, &de, not_dot, by_version);
	if (k < 0)
		return -errno;
	for (int i = 0; i < k; i++) {
		n = strlen(de[i]->d_name);
		/* whole names only: a cut one would name another device */
		if (used + !!used + n < len) {
			if (used)
				names[used++] = ' ';
			memcpy(names + used, de[i]->d_name, n + 1);
			used += n;
			count++;
		}
		free(de[i]);
	}
	free(de);
	return count;
}

int fsprobe_direct_io(const struct target_info *t)
{
	int fd;

	if (t->kind == TARGET_BLOCK)
		return -1;
	/* O_TMPFILE needs write permission; asking it is no write we could
	 * leave behind: the inode goes with the descriptor */
	if (t->kind == TARGET_DIR)
		fd = open(t->resolved, O_TMPFILE | O_WRONLY | O_DIRECT | O_CLOEXEC, 0600);
	else
		fd = open(t->resolved, O_RDONLY | O_DIRECT | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	if (errno != EINVAL)
		return -1;
	/* a file system without O_TMPFILE may say EINVAL too: ask without
	 * O_DIRECT before blaming O_DIRECT */
	if (t->kind == TARGET_DIR) {
		fd = open(t->resolved, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0600);
		if (fd < 0)
			return -1;
		close(fd);
	}
	return 0;
}
