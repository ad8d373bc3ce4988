/* probe.c - what a target is: kind, device, queue settings, file system. */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "target.h"

const char *target_kind_name(enum target_kind k)
{
	switch (k) {
	case TARGET_BLOCK:
		return "block";
	case TARGET_FILE:
		return "file";
	case TARGET_DIR:
		return "directory";
	}
	return "unknown";
}

static int set_err(char *err, size_t errlen, int ret, const char *msg)
{
	if (err && errlen)
		snprintf(err, errlen, "%s", msg);
	return ret;
}

/* strerror() text, lower-cased first letter to match our own reasons */
static int set_errno_err(char *err, size_t errlen, int e)
{
	char buf[128];
	const char *s = strerror_r(e, buf, sizeof(buf));

	if (err && errlen) {
		snprintf(err, errlen, "%s", s);
		err[0] = (char)tolower((unsigned char)err[0]);
	}
	return -e;
}

static void copy_trimmed(char *dst, size_t dstlen, const char *src)
{
	size_t len;

	while (isspace((unsigned char)*src))
		src++;
	len = strlen(src);
	while (len && isspace((unsigned char)src[len - 1]))
		len--;
	if (len >= dstlen)
		len = dstlen - 1;
	memcpy(dst, src, len);
	dst[len] = '\0';
}

/* dst = a + b, cut to fit: model strings are informative, not exact. */
static void join2(char *dst, size_t dstlen, const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b);

	if (la >= dstlen)
		la = dstlen - 1;
	if (lb >= dstlen - la)
		lb = dstlen - la - 1;
	memcpy(dst, a, la);
	memcpy(dst + la, b, lb);
	dst[la + lb] = '\0';
}

/* Read a small sysfs attribute, whitespace-trimmed. Returns 0 or -errno. */
static int read_attr(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int read_attr(char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX], raw[512];
	va_list ap;
	ssize_t n;
	int fd, ret;

	va_start(ap, fmt);
	ret = vsnprintf(path, sizeof(path), fmt, ap);
	va_end(ap);
	if (ret < 0 || (size_t)ret >= sizeof(path))
		return -ENAMETOOLONG;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = read(fd, raw, sizeof(raw) - 1);
	ret = n < 0 ? -errno : 0;
	close(fd);
	if (ret)
		return ret;
	raw[n] = '\0';
	copy_trimmed(buf, len, raw);
	return 0;
}

/* A sysfs integer, or def when missing or not a number. */
static long long read_num(long long def, const char *dir, const char *attr)
{
	char buf[64], *end;
	long long v;

	if (read_attr(buf, sizeof(buf), "%s/%s", dir, attr))
		return def;
	errno = 0;
	v = strtoll(buf, &end, 10);
	if (errno || end == buf)
		return def;
	return v;
}

/* Last path component of s into dst; with up = 1 the one before it. */
static void path_component(char *dst, size_t dstlen, const char *s, int up)
{
	const char *end = s + strlen(s), *start;

	while (up-- >= 0) {
		while (end > s && end[-1] == '/')
			end--;
		start = end;
		while (start > s && start[-1] != '/')
			start--;
		if (up < 0) {
			snprintf(dst, dstlen, "%.*s", (int)(end - start), start);
			return;
		}
		end = start;
	}
}

/*
 * MAJ:MIN -> sysfs names. /sys/dev/block/MAJ:MIN is a symlink into
 * /sys/devices/.../block/<disk>[/<partition>]; partitions carry a
 * "partition" attribute and sit in their disk's directory.
 */
static void find_device(struct target_info *t, dev_t dev)
{
	char link[64], dest[PATH_MAX], part[96];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/dev/block/%u:%u", major(dev), minor(dev));
	n = readlink(link, dest, sizeof(dest) - 1);
	if (n <= 0)
		return;
	dest[n] = '\0';
	path_component(t->device, sizeof(t->device), dest, 0);
	snprintf(part, sizeof(part), "%s/partition", link);
	if (access(part, F_OK) == 0)
		path_component(t->disk, sizeof(t->disk), dest, 1);
	else
		snprintf(t->disk, sizeof(t->disk), "%s", t->device);
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; "none" -> "none" */
static void parse_scheduler(char *dst, size_t dstlen, const char *s)
{
	const char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close) {
		snprintf(dst, dstlen, "%.*s", (int)(close - open - 1), open + 1);
		return;
	}
	/* no brackets: a single choice (commonly "none") is the active one */
	snprintf(dst, dstlen, "%.*s", (int)strcspn(s, " \t"), s);
}

static void probe_model(struct target_info *t, const char *sys)
{
	char model[128], vendor[64], buf[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	if (!strncmp(t->disk, "loop", 4) &&
	    !read_attr(buf, sizeof(buf), "%s/loop/backing_file", sys)) {
		join2(t->model, sizeof(t->model), "loop:", buf);
		return;
	}
	if (!read_attr(buf, sizeof(buf), "%s/dm/name", sys)) {
		join2(t->model, sizeof(t->model), "dm:", buf);
		return;
	}
	if (!read_attr(buf, sizeof(buf), "%s/md/level", sys)) {
		join2(t->model, sizeof(t->model), "md:", buf);
		return;
	}
	if (!read_attr(model, sizeof(model), "%s/device/model", sys) && model[0]) {
		/* PCI-style vendors ("0x1af4") are ids, not names: skip them */
		if (!read_attr(vendor, sizeof(vendor) - 1, "%s/device/vendor", sys) &&
		    vendor[0] && strncmp(vendor, "0x", 2) &&
		    strncasecmp(model, vendor, strlen(vendor))) {
			strcat(vendor, " ");
			join2(t->model, sizeof(t->model), vendor, model);
		} else {
			snprintf(t->model, sizeof(t->model), "%s", model);
		}
		return;
	}
	/* no model (virtio, mmc without name...): the driver says what it is */
	snprintf(link, sizeof(link), "%s/device/driver", sys);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n > 0) {
		buf[n] = '\0';
		path_component(t->model, sizeof(t->model), buf, 0);
	}
}

static void probe_queue(struct target_info *t)
{
	char sys[128], buf[256];
	long long v;

	if (!t->disk[0])
		return;
	snprintf(sys, sizeof(sys), "/sys/block/%s", t->disk);
	v = read_num(-1, sys, "queue/rotational");
	t->rotational = v == 0 || v == 1 ? (int)v : -1;
	if (!read_attr(buf, sizeof(buf), "%s/queue/scheduler", sys))
		parse_scheduler(t->scheduler, sizeof(t->scheduler), buf);
	t->read_ahead_kb = (int)read_num(-1, sys, "queue/read_ahead_kb");
	t->nr_requests = (int)read_num(-1, sys, "queue/nr_requests");
	v = read_num(0, sys, "queue/logical_block_size");
	if (v > 0)
		t->logical_block_size = (uint32_t)v;
	v = read_num(0, sys, "queue/physical_block_size");
	if (v > 0)
		t->physical_block_size = (uint32_t)v;
	probe_model(t, sys);
}

/* Block device facts from the device itself; sysfs fills what this misses. */
static void probe_block_ioctls(struct target_info *t)
{
	unsigned int pbs = 0;
	uint64_t size = 0;
	char sys[128];
	int fd, lbs = 0;
	long long v;

	/* O_NONBLOCK: an empty CD drive must not make us wait */
	fd = open(t->resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0) {
		if (ioctl(fd, BLKGETSIZE64, &size) == 0)
			t->size_bytes = size;
		if (ioctl(fd, BLKSSZGET, &lbs) == 0 && lbs > 0)
			t->logical_block_size = (uint32_t)lbs;
		if (ioctl(fd, BLKPBSZGET, &pbs) == 0 && pbs > 0)
			t->physical_block_size = pbs;
		close(fd);
	}
	if (!t->size_bytes && t->device[0]) {
		/* sysfs "size" is in 512-byte sectors whatever the block size */
		snprintf(sys, sizeof(sys), "/sys/class/block/%s", t->device);
		v = read_num(0, sys, "size");
		if (v > 0)
			t->size_bytes = (uint64_t)v * 512;
	}
}

/* Undo mountinfo's octal escapes (\040 space, \011 tab, \012, \134) in place. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

/* Is mount point mp a path prefix of path ("/a" covers "/a/b", not "/ab")? */
static int covers(const char *mp, const char *path)
{
	size_t n = strlen(mp);

	if (!strcmp(mp, "/"))
		return 1;
	return !strncmp(mp, path, n) && (path[n] == '\0' || path[n] == '/');
}

/* Append the comma-separated options of add to dst, skipping repeats. */
static void merge_options(char *dst, size_t dstlen, const char *add)
{
	char tok[256];
	const char *p = add, *q;
	size_t n, len = strlen(dst);

	while (*p) {
		n = strcspn(p, ",");
		q = p + n;
		if (n && n < sizeof(tok)) {
			char *hit;
			int dup = 0;

			memcpy(tok, p, n);
			tok[n] = '\0';
			for (hit = strstr(dst, tok); hit; hit = strstr(hit + 1, tok)) {
				if ((hit == dst || hit[-1] == ',') &&
				    (hit[n] == '\0' || hit[n] == ',')) {
					dup = 1;
					break;
				}
			}
			/* whole options only: a cut "size=12" would be a lie */
			if (!dup && len + !!len + n < dstlen) {
				if (len)
					dst[len++] = ',';
				memcpy(dst + len, tok, n + 1);
				len += n;
			}
		}
		p = *q ? q + 1 : q;
	}
}

/*
 * /proc/self/mountinfo line:
 * 27 1 254:0 / / rw,relatime [optional...] - ext4 /dev/vda rw,discard
 * The longest mount point covering the path wins; on a tie the later line,
 * which is mounted on top.
 */
static void probe_mount(struct target_info *t)
{
	char *line = NULL, *f[6], *save, *sep, *fstype, *super;
	size_t cap = 0, best = 0;
	FILE *m;
	int i;

	m = fopen("/proc/self/mountinfo", "re");
	if (!m)
		return;
	while (getline(&line, &cap, m) > 0) {
		line[strcspn(line, "\n")] = '\0';
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		fstype = strtok_r(sep + 3, " ", &save);
		if (!fstype || !strtok_r(NULL, " ", &save))	/* source */
			continue;
		super = strtok_r(NULL, " ", &save);
		f[0] = strtok_r(line, " ", &save);
		for (i = 1; i < 6; i++)
			f[i] = f[i - 1] ? strtok_r(NULL, " ", &save) : NULL;
		if (!f[5])
			continue;
		unescape(f[4]);
		if (!covers(f[4], t->resolved) || strlen(f[4]) < best)
			continue;
		best = strlen(f[4]);
		snprintf(t->mount_point, sizeof(t->mount_point), "%s", f[4]);
		snprintf(t->fs_type, sizeof(t->fs_type), "%s", fstype);
		t->mount_options[0] = '\0';
		merge_options(t->mount_options, sizeof(t->mount_options), f[5]);
		if (super)
			merge_options(t->mount_options, sizeof(t->mount_options), super);
	}
	free(line);
	fclose(m);
}

int target_probe(const char *path, struct target_info *t, char *err, size_t errlen)
{
	struct statvfs vfs;
	struct stat st;
	dev_t dev;

	memset(t, 0, sizeof(*t));
	t->rotational = -1;
	t->read_ahead_kb = -1;
	t->nr_requests = -1;
	t->logical_block_size = 512;
	t->physical_block_size = 512;
	if (err && errlen)
		err[0] = '\0';

	if (!path || !*path)
		return set_err(err, errlen, -EINVAL, "empty path");
	if (strlen(path) >= sizeof(t->path))
		return set_err(err, errlen, -ENAMETOOLONG, "path too long");
	memcpy(t->path, path, strlen(path) + 1);

	if (stat(path, &st) < 0)
		return set_errno_err(err, errlen, errno);
	if (S_ISCHR(st.st_mode))
		return set_err(err, errlen, -EINVAL,
			       "character device: not a disk or a file system");
	if (S_ISFIFO(st.st_mode))
		return set_err(err, errlen, -EINVAL, "FIFO: not a disk or a file system");
	if (S_ISSOCK(st.st_mode))
		return set_err(err, errlen, -EINVAL, "socket: not a disk or a file system");
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode) && !S_ISBLK(st.st_mode))
		return set_err(err, errlen, -EINVAL, "unsupported file type");
	if (!realpath(path, t->resolved))
		return set_errno_err(err, errlen, errno);

	if (S_ISBLK(st.st_mode)) {
		t->kind = TARGET_BLOCK;
		dev = st.st_rdev;
	} else {
		t->kind = S_ISDIR(st.st_mode) ? TARGET_DIR : TARGET_FILE;
		dev = st.st_dev;
		if (t->kind == TARGET_FILE)
			t->size_bytes = (uint64_t)st.st_size;
		/* for a file too: the safety gate may need to grow it */
		if (statvfs(t->resolved, &vfs) == 0)
			t->free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	}

	/* major 0 is an anonymous device (tmpfs, overlay, btrfs): no sysfs entry */
	if (major(dev) != 0)
		find_device(t, dev);
	probe_queue(t);
	if (t->kind == TARGET_BLOCK)
		probe_block_ioctls(t);
	else
		probe_mount(t);
	return 0;
}
