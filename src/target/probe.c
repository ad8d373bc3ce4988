/* probe.c - what a target is: kind, device, queue settings, file system. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/fs.h>
#include <linux/fscrypt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "fsprobe.h"
#include "iolimit.h"
#include "mountinfo.h"
#include "sysfs.h"
#include "transport.h"
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

/* A sysfs count, or def when missing, negative or not a number. */
static long long read_num(long long def, const char *dir, const char *attr)
{
	uint64_t v;

	if (sysfs_read_u64(&v, "%s/%s", dir, attr) || v > LLONG_MAX)
		return def;
	return (long long)v;
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

/* The whole disk of a sysfs block name: partitions carry a "partition"
 * attribute and sit in their disk's directory. */
static void disk_of(const char *name, char *disk, size_t len)
{
	char link[PATH_MAX], dest[PATH_MAX];
	ssize_t n;

	snprintf(link, sizeof(link), "/sys/class/block/%s/partition", name);
	if (access(link, F_OK) == 0) {
		snprintf(link, sizeof(link), "/sys/class/block/%s", name);
		n = readlink(link, dest, sizeof(dest) - 1);
		if (n > 0) {
			dest[n] = '\0';
			path_component(disk, len, dest, 1);
			return;
		}
	}
	snprintf(disk, len, "%s", name);
}

static void find_device(struct target_info *t, dev_t dev)
{
	if (sysfs_block_name(dev, t->device, sizeof(t->device)))
		return;
	disk_of(t->device, t->disk, sizeof(t->disk));
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

/* "none [mq-deadline] kyber" -> "none mq-deadline kyber" */
static void strip_brackets(char *dst, size_t dstlen, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < dstlen; s++)
		if (*s != '[' && *s != ']')
			dst[n++] = *s;
	dst[n] = '\0';
}

static void probe_model(struct target_info *t, const char *sys)
{
	char model[128], vendor[64], buf[PATH_MAX], link[PATH_MAX];
	ssize_t n;

	if (!strncmp(t->disk, "loop", 4) &&
	    !sysfs_read(buf, sizeof(buf), "%s/loop/backing_file", sys)) {
		join2(t->model, sizeof(t->model), "loop:", buf);
		return;
	}
	if (!sysfs_read(buf, sizeof(buf), "%s/dm/name", sys)) {
		join2(t->model, sizeof(t->model), "dm:", buf);
		return;
	}
	if (!sysfs_read(buf, sizeof(buf), "%s/md/level", sys)) {
		join2(t->model, sizeof(t->model), "md:", buf);
		return;
	}
	if (!sysfs_read(model, sizeof(model), "%s/device/model", sys) && model[0]) {
		/* PCI-style vendors ("0x1af4") are ids, not names: skip them */
		if (!sysfs_read(vendor, sizeof(vendor) - 1, "%s/device/vendor", sys) &&
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

/* The disk under a loop device's backing file, through stacked loop
 * devices (a few levels: a cycle cannot be built, but a bound is cheap). */
static void probe_loop_backing(struct target_info *t)
{
	char name[64], disk[64], file[PATH_MAX];
	struct stat st;
	long long v;

	snprintf(name, sizeof(name), "%s", t->disk);
	for (int depth = 0; depth < 8 && !strncmp(name, "loop", 4); depth++) {
		if (sysfs_read(file, sizeof(file), "/sys/block/%s/loop/backing_file", name) ||
		    stat(file, &st) || major(st.st_dev) == 0 ||
		    sysfs_block_name(st.st_dev, disk, sizeof(disk)))
			return;
		disk_of(disk, name, sizeof(name));
	}
	if (!strncmp(name, "loop", 4) || !strcmp(name, t->disk))
		return;
	snprintf(t->backing_disk, sizeof(t->backing_disk), "%s", name);
	snprintf(file, sizeof(file), "/sys/block/%s", name);
	v = read_num(-1, file, "queue/rotational");
	t->backing_rotational = v == 0 || v == 1 ? (int)v : -1;
}

/* The cgroup limits on the device, its disk and a btrfs's members. */
static void probe_io_limit(struct target_info *t)
{
	char names[8][64], list[sizeof(t->members)], *save = NULL, *tok;
	const char *ptrs[8];
	dev_t devs[8];
	unsigned n = 0;

	snprintf(list, sizeof(list), "%s %s %s", t->device, t->disk, t->members);
	for (tok = strtok_r(list, " ", &save); tok && n < 8; tok = strtok_r(NULL, " ", &save)) {
		bool seen = false;

		for (unsigned i = 0; i < n; i++)
			seen |= !strcmp(names[i], tok);
		if (seen || sysfs_read_devno(&devs[n], "/sys/class/block/%s/dev", tok))
			continue;
		snprintf(names[n], sizeof(names[n]), "%s", tok);
		ptrs[n] = names[n];
		n++;
	}
	if (n)
		iolimit_probe("/proc/self/cgroup", "/sys/fs/cgroup", devs, ptrs, n, t->io_limit,
			      sizeof(t->io_limit));
}

static void probe_queue(struct target_info *t)
{
	static const char *const serial_attrs[] = {
		"device/serial", "serial", "device/wwid", "wwid",
	};
	static const char *const fw_attrs[] = { "device/firmware_rev", "device/rev" };
	static const char *const wwn_attrs[] = { "wwid", "device/wwid" };
	char sys[128], buf[256];
	long long v;
	size_t i;

	if (!t->disk[0])
		return;
	snprintf(sys, sizeof(sys), "/sys/block/%s", t->disk);
	v = read_num(-1, sys, "queue/rotational");
	t->rotational = v == 0 || v == 1 ? (int)v : -1;
	if (!sysfs_read(buf, sizeof(buf), "%s/queue/scheduler", sys)) {
		parse_scheduler(t->scheduler, sizeof(t->scheduler), buf);
		strip_brackets(t->schedulers, sizeof(t->schedulers), buf);
	}
	t->read_ahead_kb = (int)read_num(-1, sys, "queue/read_ahead_kb");
	t->nr_requests = (int)read_num(-1, sys, "queue/nr_requests");
	t->max_sectors_kb = (int)read_num(-1, sys, "queue/max_sectors_kb");
	if (!sysfs_read(buf, sizeof(buf), "%s/queue/write_cache", sys))
		t->write_cache = !strcmp(buf, "write back") ? 1 :
				 !strcmp(buf, "write through") ? 0 : -1;
	v = read_num(-1, sys, "queue/io_poll");
	t->io_poll = v == 0 || v == 1 ? (int)v : -1;
	v = read_num(-1, sys, "queue/discard_max_bytes");
	t->discard = v < 0 ? -1 : v > 0;
	t->discard_max_bytes = v > 0 ? (uint64_t)v : 0;
	v = read_num(-1, sys, "queue/discard_granularity");
	t->discard_granularity = v > 0 ? (uint64_t)v : 0;
	snprintf(buf, sizeof(buf), "%s/device", sys);
	t->transport_bps = transport_probe(buf, t->transport, sizeof(t->transport));
	v = strncmp(t->disk, "loop", 4) ? -1 : read_num(-1, sys, "loop/dio");
	t->loop_dio = v == 0 || v == 1 ? (int)v : -1;
	probe_loop_backing(t);
	sysfs_read(t->vendor, sizeof(t->vendor), "%s/device/vendor", sys);
	/* SCSI/ATA keep the serial in binary VPD pages; what sysfs has as
	 * text: NVMe device/serial, virtio's own serial, or a world-wide id */
	for (i = 0; i < sizeof(serial_attrs) / sizeof(serial_attrs[0]); i++)
		if (!sysfs_read(t->serial, sizeof(t->serial), "%s/%s", sys, serial_attrs[i]) &&
		    t->serial[0])
			break;
	for (i = 0; i < sizeof(fw_attrs) / sizeof(fw_attrs[0]); i++)
		if (!sysfs_read(t->firmware, sizeof(t->firmware), "%s/%s", sys, fw_attrs[i]) &&
		    t->firmware[0])
			break;
	for (i = 0; i < sizeof(wwn_attrs) / sizeof(wwn_attrs[0]); i++)
		if (!sysfs_read(t->wwn, sizeof(t->wwn), "%s/%s", sys, wwn_attrs[i]) && t->wwn[0])
			break;
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

/* What probe_mount looks for, and the best mount so far. */
struct mount_pick {
	struct target_info *t;
	char *source;
	size_t srclen;
	size_t best;		/* length of its mount point */
};

/* The longest mount point covering the path wins; on a tie the later
 * line, which is mounted on top. */
static int pick_mount(const struct mnt_entry *m, void *arg)
{
	struct mount_pick *p = arg;
	struct target_info *t = p->t;

	if (!covers(m->point, t->resolved) || strlen(m->point) < p->best)
		return 0;
	p->best = strlen(m->point);
	snprintf(t->mount_point, sizeof(t->mount_point), "%s", m->point);
	snprintf(t->fs_type, sizeof(t->fs_type), "%s", m->fstype);
	snprintf(p->source, p->srclen, "%s", m->source);
	t->mount_options[0] = '\0';
	merge_options(t->mount_options, sizeof(t->mount_options), m->options);
	merge_options(t->mount_options, sizeof(t->mount_options), m->super);
	return 0;
}

/* The file system t is on, from mountinfo; its source ("/dev/vda") goes
 * to source. */
static void probe_mount(struct target_info *t, char *source, size_t srclen)
{
	struct mount_pick p = { .t = t, .source = source, .srclen = srclen };

	mnt_walk(pick_mount, &p);
}

/* ---- what it is, and the layers under the data ------------------------- */

/* Does the comma-separated option list opts hold name ("noatime"), or with
 * prefix an option starting with it ("compress" for "compress-force=zstd")? */
static bool has_option(const char *opts, const char *name, bool prefix)
{
	size_t n = strlen(name), len;

	while (*opts) {
		len = strcspn(opts, ",");
		if (len >= n && !strncmp(opts, name, n) &&
		    (len == n || (prefix && opts[n] != '\0')))
			return true;
		opts += len;
		if (*opts)
			opts++;
	}
	return false;
}

/* Does /sys/class/block/<name>/<sub> exist? */
static bool sys_has(const char *name, const char *sub)
{
	char p[PATH_MAX];

	snprintf(p, sizeof(p), "/sys/class/block/%s/%s", name, sub);
	return access(p, F_OK) == 0;
}

static void kind_detail_block(struct target_info *t)
{
	const char *kd = "whole disk";

	if (!t->device[0])
		kd = "block device";	/* no sysfs entry: say no more than we know */
	else if (sys_has(t->device, "partition"))
		kd = "partition";
	else if (sys_has(t->device, "loop"))
		kd = "loop";
	else if (sys_has(t->device, "dm"))
		kd = "device-mapper";
	else if (sys_has(t->device, "md"))
		kd = "md";
	snprintf(t->kind_detail, sizeof(t->kind_detail), "%s", kd);
}

/* Append layer to t->stack once; whole names only, never a cut one. */
static void stack_add(struct target_info *t, const char *layer)
{
	size_t len = strlen(t->stack), n = strlen(layer);

	if (target_stack_has(t->stack, layer))
		return;
	if (len + (len ? 2 : 0) + n >= sizeof(t->stack))
		return;
	if (len) {
		memcpy(t->stack + len, ", ", 2);
		len += 2;
	}
	memcpy(t->stack + len, layer, n + 1);
}

/*
 * Walk the device stack from the sysfs block device name down through
 * slaves/ (what it is built on). A partition is walked through its disk
 * (md0p1 -> md0). depth bounds a malformed or looping sysfs.
 */
static void walk_stack(struct target_info *t, const char *name, int depth)
{
	const struct sysfs_layer *layer;
	char sys[PATH_MAX], disk[64];
	struct dirent *de;
	DIR *d;

	if (depth > 8 || !name[0] || strchr(name, '/'))
		return;
	disk_of(name, disk, sizeof(disk));
	if (strcmp(disk, name)) {
		walk_stack(t, disk, depth + 1);
		return;
	}
	layer = sysfs_layer_of(name, NULL);
	if (layer) {
		stack_add(t, layer->name);
		t->encrypted |= layer->encrypts;
	}
	snprintf(sys, sizeof(sys), "/sys/class/block/%s/slaves", name);
	d = opendir(sys);
	if (!d)
		return;
	while ((de = readdir(d)))
		if (de->d_name[0] != '.')
			walk_stack(t, de->d_name, depth + 1);
	closedir(d);
}

/* Is the file or directory encrypted by fscrypt (ext4, f2fs, ubifs)? */
static bool fscrypt_encrypted(const char *path, int fd)
{
	struct fscrypt_get_policy_ex_arg ex = { .policy_size = sizeof(ex.policy) };
	struct fscrypt_policy_v1 pol;
	struct statx stx;

	if (statx(AT_FDCWD, path, 0, 0, &stx) == 0 &&
	    (stx.stx_attributes_mask & STATX_ATTR_ENCRYPTED))
		return stx.stx_attributes & STATX_ATTR_ENCRYPTED;
	/* older kernels: the policy ioctls succeed only on encrypted inodes;
	 * the _EX one (5.4) knows v2 policies too, which the v1 one refuses */
	if (fd < 0)
		return false;
	return ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY_EX, &ex) == 0 ||
	       ioctl(fd, FS_IOC_GET_ENCRYPTION_POLICY, &pol) == 0;
}

/* The value of the first option of opts starting with prefix
 * ("compress" finds "compress=zstd:3" and "compress-force=lzo"), whole,
 * into dst; false when there is none. */
static bool find_option(const char *opts, const char *prefix, char *dst, size_t len)
{
	size_t n = strlen(prefix), l;

	while (*opts) {
		l = strcspn(opts, ",");
		if (l >= n && !strncmp(opts, prefix, n)) {
			snprintf(dst, len, "%.*s", (int)l, opts);
			return true;
		}
		opts += l;
		if (*opts)
			opts++;
	}
	return false;
}

/* btrfs compression: the mount option, else the directory's property
 * (FS_COMPR_FL: btrfs property set ... compression, chattr +c), which new
 * files in it inherit. "compress=no" compresses nothing. */
static void btrfs_compression(struct target_info *t, int flags)
{
	char opt[sizeof(t->compression)];

	if (find_option(t->mount_options, "compress", opt, sizeof(opt)) &&
	    strcmp(opt, "compress=no") && strcmp(opt, "compress-force=no"))
		snprintf(t->compression, sizeof(t->compression), "%s", opt);
	else if (flags & FS_COMPR_FL)
		snprintf(t->compression, sizeof(t->compression), "directory property");
}

/* Layers a file system adds: encryption, copy-on-write, compression. */
static void fs_stack(struct target_info *t)
{
	const char *fs = t->fs_type, *mo = t->mount_options;
	long magic = fsprobe_magic(t->resolved);
	int fd, flags = 0;

	/* O_NONBLOCK | O_NOATIME: looking must not wait or change anything */
	fd = open(t->resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOATIME);
	if (fd < 0)
		fd = open(t->resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &flags))
		flags = 0;

	if (magic == FSPROBE_ECRYPTFS_MAGIC || !strcmp(fs, "ecryptfs")) {
		stack_add(t, "ecryptfs");
		t->encrypted = true;
	} else if (fscrypt_encrypted(t->resolved, fd)) {
		stack_add(t, "fscrypt");
		t->encrypted = true;
		/* fs/ext4, fs/f2fs: direct I/O on an encrypted file only
		 * through blk-crypto (-o inlinecrypt); else buffered */
		t->direct_via_cache = !has_option(mo, "inlinecrypt", false);
	}
	if (magic == FSPROBE_BTRFS_MAGIC || !strcmp(fs, "btrfs")) {
		/* nodatacow (or chattr +C, inherited by new files in a directory)
		 * makes btrfs overwrite in place, and then it compresses nothing */
		if (!has_option(mo, "nodatacow", false) && !(flags & FS_NOCOW_FL)) {
			stack_add(t, "btrfs copy-on-write");
			t->cow = true;
			btrfs_compression(t, flags);
		}
		if (t->compression[0]) {
			stack_add(t, "btrfs compression");
			t->cow = true;
		}
	} else if (magic == FSPROBE_ZFS_MAGIC || !strcmp(fs, "zfs")) {
		stack_add(t, "zfs");
		t->cow = true;
		t->arc = true;
	} else if (!strcmp(fs, "bcachefs")) {
		stack_add(t, "bcachefs");
		t->cow = true;
	}
	if (fd >= 0)
		close(fd);
}

/* The device stack under a file system whose st_dev is anonymous (btrfs):
 * its mount source, when that is a block device. */
static void source_stack(struct target_info *t, const char *source)
{
	char name[64];
	struct stat st;

	if (strncmp(source, "/dev/", 5) || stat(source, &st) || !S_ISBLK(st.st_mode))
		return;
	if (!sysfs_block_name(st.st_rdev, name, sizeof(name)))
		walk_stack(t, name, 0);
}

/* A btrfs has no block device of its own (st_dev is anonymous): its
 * members stand in, the first for the queue facts, all for the counters. */
static void btrfs_device(struct target_info *t)
{
	char names[sizeof(t->members)];
	int n = fsprobe_btrfs_members(t->resolved, names, sizeof(names));

	if (n <= 0)
		return;
	snprintf(t->device, sizeof(t->device), "%.*s", (int)strcspn(names, " "), names);
	disk_of(t->device, t->disk, sizeof(t->disk));
	if (n > 1)
		snprintf(t->members, sizeof(t->members), "%s", names);
}

/* Every member's stack: one dm-crypt member encrypts what lands on it. */
static void members_stack(struct target_info *t)
{
	char name[64];

	for (const char *p = t->members; *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");

		snprintf(name, sizeof(name), "%.*s", (int)n, p);
		walk_stack(t, name, 0);
		p += n;
	}
}

int target_probe(const char *path, struct target_info *t, char *err, size_t errlen)
{
	char source[PATH_MAX] = "";
	struct statvfs vfs;
	struct stat st;
	dev_t dev;

	memset(t, 0, sizeof(*t));
	t->rotational = -1;
	t->read_ahead_kb = -1;
	t->nr_requests = -1;
	t->logical_block_size = 512;
	t->physical_block_size = 512;
	t->max_sectors_kb = -1;
	t->write_cache = -1;
	t->discard = -1;
	t->io_poll = -1;
	t->loop_dio = -1;
	t->backing_rotational = -1;
	t->direct_io = -1;
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
		if (statvfs(t->resolved, &vfs) == 0) {
			t->free_bytes = (uint64_t)vfs.f_bavail * vfs.f_frsize;
			t->fs_size_bytes = (uint64_t)vfs.f_blocks * vfs.f_frsize;
		}
		snprintf(t->kind_detail, sizeof(t->kind_detail), "%s",
			 t->kind == TARGET_DIR ? "directory" : "regular file");
	}

	/* major 0 is an anonymous device (tmpfs, overlay, btrfs): no sysfs entry */
	if (major(dev) != 0)
		find_device(t, dev);
	else if (t->kind != TARGET_BLOCK && fsprobe_magic(t->resolved) == FSPROBE_BTRFS_MAGIC)
		btrfs_device(t);
	probe_queue(t);
	if (t->kind == TARGET_BLOCK) {
		probe_block_ioctls(t);
		kind_detail_block(t);
	} else {
		probe_mount(t, source, sizeof(source));
		fs_stack(t);
		t->direct_io = fsprobe_direct_io(t);
	}
	probe_io_limit(t);
	if (t->members[0])
		members_stack(t);
	else if (t->device[0])
		walk_stack(t, t->device, 0);
	else if (t->kind != TARGET_BLOCK)
		source_stack(t, source);
	return 0;
}
