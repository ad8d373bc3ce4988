/* sysfs.c - small sysfs, cgroup and /proc files read as values; what a block device is. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "strutil.h"
#include "sysfs.h"

/* The path fmt and ap make into path. Returns 0 or -ENAMETOOLONG. */
static int make_path(char path[PATH_MAX], const char *fmt, va_list ap)
	__attribute__((format(printf, 2, 0)));

static int make_path(char path[PATH_MAX], const char *fmt, va_list ap)
{
	int n = vsnprintf(path, PATH_MAX, fmt, ap);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

static int vread(char *buf, size_t len, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

static int vread(char *buf, size_t len, const char *fmt, va_list ap)
{
	/* a sysfs attribute is at most a page; a loop device's backing file
	 * path can take most of one */
	char path[PATH_MAX], raw[4096 + 1];
	ssize_t n;
	int fd, ret;

	ret = make_path(path, fmt, ap);
	if (ret)
		return ret;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, raw, sizeof(raw) - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	raw[n] = '\0';
	str_copy_trimmed(buf, len, raw);
	return 0;
}

int sysfs_read(char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

int sysfs_read_u64(uint64_t *out, const char *fmt, ...)
{
	unsigned long long v;
	char buf[64], *end;
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	if (!strcmp(buf, "max")) {
		*out = UINT64_MAX;
		return 0;
	}
	errno = 0;
	v = strtoull(buf, &end, 10);
	if (errno || end == buf)
		return -EINVAL;
	*out = v;
	return 0;
}

int sysfs_read_devno(dev_t *out, const char *fmt, ...)
{
	unsigned maj, min;
	char buf[64];
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vread(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ret)
		return ret;
	if (sscanf(buf, "%u:%u", &maj, &min) != 2)
		return -EINVAL;
	*out = makedev(maj, min);
	return 0;
}

int sysfs_block_name(dev_t dev, char *name, size_t len)
{
	char link[64], dest[PATH_MAX];
	const char *base;
	ssize_t n;

	/* a link into /sys/devices/.../block/<disk>[/<partition>] */
	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, dest, sizeof(dest) - 1);
	if (n <= 0)
		return n < 0 ? -errno : -ENOENT;
	dest[n] = '\0';
	base = strrchr(dest, '/');
	base = base ? base + 1 : dest;
	if (strlen(base) >= len)
		return -ENAMETOOLONG;
	memcpy(name, base, strlen(base) + 1);
	return 0;
}

/* dm/uuid prefixes, set by the tool that made the mapping. */
static const struct {
	const char *prefix;
	struct sysfs_layer layer;
} dm_layers[] = {
	{ .prefix = "CRYPT-", .layer = { .name = "dm-crypt", .encrypts = true } },
	{ .prefix = "LVM-", .layer = { .name = "LVM" } },
	{ .prefix = "mpath-", .layer = { .name = "multipath" } },
	{ .prefix = "VERITY-", .layer = { .name = "dm-verity" } },
	{ .prefix = "INTEGRITY-", .layer = { .name = "dm-integrity" } },
};

static const struct sysfs_layer md_layer = { .name = "md RAID" };
static const struct sysfs_layer bcache_layer = { .name = "bcache" };

const struct sysfs_layer *sysfs_dm_layer(const char *uuid)
{
	for (size_t i = 0; i < sizeof(dm_layers) / sizeof(dm_layers[0]); i++)
		if (!strncmp(uuid, dm_layers[i].prefix, strlen(dm_layers[i].prefix)))
			return &dm_layers[i].layer;
	return NULL;	/* linear, kpartx partitions: they only move blocks */
}

const struct sysfs_layer *sysfs_layer_of(const char *name, bool *dm)
{
	char buf[256];

	if (dm)
		*dm = false;
	if (!sysfs_read(buf, sizeof(buf), "/sys/class/block/%s/dm/uuid", name)) {
		if (dm)
			*dm = true;
		return sysfs_dm_layer(buf);
	}
	if (!sysfs_read(buf, sizeof(buf), "/sys/class/block/%s/md/level", name))
		return &md_layer;
	if (!strncmp(name, "bcache", 6))
		return &bcache_layer;
	return NULL;
}
