/* safety.c - the write gate: mounted, swap, holders and signature checks, fill, O_EXCL. */
#include <blkid/blkid.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/loop.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "mountinfo.h"
#include "safety.h"
#include "strutil.h"
#include "sysfs.h"

/* A block device the gate looks at: the target, or one of its partitions. */
struct sdev {
	dev_t dev;
	char name[64];		/* sysfs name: "loop3", "loop3p1" */
	char path[PATH_MAX];	/* for messages and probing: the target's
				 * resolved path, or /dev/<name> */
	bool has_node;		/* path is a node of this very device */
	bool partition;
	uint64_t start, size;	/* partitions: in 512-byte sectors, from sysfs */
};

#define MAX_SDEVS 256

struct sdevs {
	struct sdev d[MAX_SDEVS];
	unsigned n;
	char disk_path[PATH_MAX];	/* the target itself, to probe partitions
					 * that have no node under /dev */
};

static void verdict(struct safety_verdict *v, bool allowed, bool overridable, const char *fmt,
		    ...) __attribute__((format(printf, 4, 5)));

static void verdict(struct safety_verdict *v, bool allowed, bool overridable, const char *fmt,
		    ...)
{
	va_list ap;

	v->allowed = allowed;
	v->overridable = overridable;
	va_start(ap, fmt);
	vsnprintf(v->reason, sizeof(v->reason), fmt, ap);
	va_end(ap);
}

/* Is path a block device node for dev? */
static bool node_is(const char *path, dev_t dev)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISBLK(st.st_mode) && st.st_rdev == dev;
}

/* Add partition "name" found under the sysfs directory of the target. */
static int add_partition(struct sdevs *s, const char *sysdir, const char *name)
{
	struct sdev *d;
	int ret;

	if (s->n >= MAX_SDEVS)
		return -E2BIG;
	d = &s->d[s->n];
	memset(d, 0, sizeof(*d));
	if (strlen(name) >= sizeof(d->name))
		return -ENAMETOOLONG;	/* not a cut, wrong name */
	memcpy(d->name, name, strlen(name) + 1);
	d->partition = true;
	ret = sysfs_read_devno(&d->dev, "%s/%s/dev", sysdir, name);
	if (ret)
		return ret;
	if (sysfs_read_u64(&d->start, "%s/%s/start", sysdir, name))
		d->start = 0;
	if (sysfs_read_u64(&d->size, "%s/%s/size", sysdir, name))
		d->size = 0;
	snprintf(d->path, sizeof(d->path), "/dev/%s", name);
	d->has_node = node_is(d->path, d->dev);
	s->n++;
	return 0;
}

/*
 * The target and, when it is a whole disk, every partition of it. Found by
 * device number through /sys/dev/block/MAJ:MIN, never by name, so a symlink,
 * a /dev/mapper alias or a renamed node all land on the same sysfs entry.
 */
static int collect(const char *path, struct sdevs *s)
{
	char sysdir[64], p[PATH_MAX];
	struct sdev *d = &s->d[0];
	struct dirent *de;
	struct stat st;
	DIR *dir;
	int ret = 0;

	memset(d, 0, sizeof(*d));
	s->n = 1;
	if (stat(path, &st) < 0)
		return -errno;
	if (!S_ISBLK(st.st_mode))
		return -ENOTBLK;
	d->dev = st.st_rdev;
	d->has_node = true;
	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(s->disk_path, sizeof(s->disk_path), "%s", path);

	ret = sysfs_block_name(d->dev, d->name, sizeof(d->name));
	if (ret)
		return ret;
	snprintf(sysdir, sizeof(sysdir), "/sys/dev/block/%u:%u", major(d->dev), minor(d->dev));

	snprintf(p, sizeof(p), "%s/partition", sysdir);
	if (access(p, F_OK) == 0) {
		/* A partition is checked alone: its siblings and its disk are
		 * other people's business, and writes stay inside it. */
		d->partition = true;
		return 0;
	}
	dir = opendir(sysdir);
	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(p, sizeof(p), "%s/%s/partition", sysdir, de->d_name);
		if (access(p, F_OK))
			continue;
		ret = add_partition(s, sysdir, de->d_name);
		if (ret)
			break;
	}
	closedir(dir);
	return ret;
}

/* What find_mounted looks for, and what it found. */
struct mount_find {
	const struct sdevs *s;
	char *mnt;
	size_t mntlen;
	int found;		/* index into s, or -1 */
};

static int match_mount(const struct mnt_entry *m, void *arg)
{
	struct mount_find *mf = arg;
	const struct sdevs *s = mf->s;
	unsigned i;

	for (i = 0; i < s->n; i++) {
		if (s->d[i].dev == m->dev || (major(m->dev) == 0 && m->source[0] == '/' &&
					      node_is(m->source, s->d[i].dev))) {
			mf->found = (int)i;
			snprintf(mf->mnt, mf->mntlen, "%s", m->point);
			return 1;
		}
	}
	return 0;
}

/*
 * Where is one of s mounted? A mount's MAJ:MIN is the mounted device's,
 * but btrfs shows an anonymous 0:N there, so the mount source is also
 * stat()ed and compared by device number. Returns the index into s, or -1;
 * mnt gets the mount point.
 */
static int find_mounted(const struct sdevs *s, char *mnt, size_t mntlen)
{
	struct mount_find mf = { .s = s, .mnt = mnt, .mntlen = mntlen, .found = -1 };

	mnt_walk(match_mount, &mf);
	return mf.found;
}

/*
 * Is one of s (when blk) or the file ino on dev (when !blk) active swap?
 * /proc/swaps names the paths as given to swapon; each is stat()ed, so the
 * name it was swapped on under does not matter.
 */
static int find_swap(const struct sdevs *s, bool blk, dev_t fdev, ino_t ino)
{
	FILE *f = fopen("/proc/swaps", "re");
	char *line = NULL;
	size_t cap = 0;
	struct stat st;
	int found = -1;
	unsigned i;

	if (!f)
		return -1;
	/* the first line is the header */
	if (getline(&line, &cap, f) <= 0)
		goto out;
	while (found < 0 && getline(&line, &cap, f) > 0) {
		line[strcspn(line, " \t\n")] = '\0';
		mnt_unescape(line);
		if (stat(line, &st) < 0)
			continue;
		if (!blk) {
			if (S_ISREG(st.st_mode) && st.st_dev == fdev && st.st_ino == ino)
				found = 0;
			continue;
		}
		if (!S_ISBLK(st.st_mode))
			continue;
		for (i = 0; i < s->n && found < 0; i++)
			if (s->d[i].dev == st.st_rdev)
				found = (int)i;
	}
out:
	free(line);
	fclose(f);
	return found;
}

/* What kind of holder is /sys/class/block/<name>? */
static const char *holder_kind(const char *name)
{
	const struct sysfs_layer *layer;
	bool dm;

	layer = sysfs_layer_of(name, &dm);
	if (layer)
		return layer->name;
	return dm ? "LVM/device-mapper" : "another block device";
}

/* The holders of d, "dm-0 (LVM), md127 (md RAID)", into out. Returns their
 * count. */
static int list_holders(const struct sdev *d, char *out, size_t outlen)
{
	char p[PATH_MAX];
	struct dirent *de;
	size_t used = 0;
	int count = 0, n;
	DIR *dir;

	out[0] = '\0';
	snprintf(p, sizeof(p), "/sys/dev/block/%u:%u/holders", major(d->dev), minor(d->dev));
	dir = opendir(p);
	if (!dir)
		return 0;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		n = snprintf(out + used, outlen - used, "%s%s (%s)", count ? ", " : "",
			     de->d_name, holder_kind(de->d_name));
		if (n > 0 && (size_t)n < outlen - used)
			used += (size_t)n;
		count++;
	}
	closedir(dir);
	return count;
}

/*
 * Does something hold d exclusively? The kernel refuses O_EXCL while the
 * device is mounted (in any mount namespace, which mountinfo cannot see),
 * swapped on, or claimed by dm, md, bcache or a running mkfs. Read-only, and
 * closed at once: nothing is claimed for longer than the call.
 */
static bool busy(const struct sdev *d)
{
	int fd;

	if (!d->has_node)
		return false;
	fd = open(d->path, O_RDONLY | O_EXCL | O_CLOEXEC | O_NONBLOCK);
	if (fd >= 0) {
		close(fd);
		return false;
	}
	return errno == EBUSY;
}

/*
 * A signature on d, described into out ("ext4 file system signature"). A
 * partition without a node under /dev is probed through the whole disk at
 * its offset. Returns 1 found, 0 none, -errno when it could not be probed.
 */
static int probe_signature(const struct sdevs *s, const struct sdev *d, char *out,
			   size_t outlen)
{
	const char *type = NULL, *usage = NULL;
	blkid_probe pr = NULL;
	int fd = -1, ret, rc;

	out[0] = '\0';
	if (d->has_node) {
		pr = blkid_new_probe_from_filename(d->path);
		if (!pr)
			return errno ? -errno : -EIO;
	} else {
		fd = open(s->disk_path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		pr = blkid_new_probe();
		if (!pr || blkid_probe_set_device(pr, fd, (blkid_loff_t)(d->start * 512),
						  (blkid_loff_t)(d->size * 512))) {
			ret = -ENOMEM;
			goto out;
		}
	}
	blkid_probe_enable_superblocks(pr, 1);
	blkid_probe_set_superblocks_flags(pr, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
	blkid_probe_enable_partitions(pr, 1);
	blkid_probe_set_partitions_flags(pr, BLKID_PARTS_MAGIC);

	rc = blkid_do_safeprobe(pr);
	if (rc == -2) {
		/* several signatures that contradict each other: all the more
		 * reason not to guess that the device is free */
		snprintf(out, outlen, "conflicting signatures (more than one file system or "
			 "partition table)");
		ret = 1;
		goto out;
	}
	if (rc < 0) {
		ret = errno ? -errno : -EIO;
		goto out;
	}
	ret = 0;
	if (rc == 1)
		goto out;
	if (!blkid_probe_lookup_value(pr, "TYPE", &type, NULL) && type) {
		blkid_probe_lookup_value(pr, "USAGE", &usage, NULL);
		if (usage && !strcmp(usage, "filesystem"))
			snprintf(out, outlen, "%s file system signature", type);
		else
			snprintf(out, outlen, "%s signature", type);
		ret = 1;
	} else if (!blkid_probe_lookup_value(pr, "PTTYPE", &type, NULL) && type) {
		snprintf(out, outlen, "%s partition table", type);
		ret = 1;
	}
out:
	if (pr)
		blkid_free_probe(pr);
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Does the --destructive=DEV argument name the device dev, whose resolved
 * path is resolved? Symlinks are followed on both sides; two nodes for the
 * same device number count as the same device. */
static bool names_device(const char *arg, const char *resolved, dev_t dev)
{
	char real[PATH_MAX];

	if (realpath(arg, real) && !strcmp(real, resolved))
		return true;
	return node_is(arg, dev);
}

/*
 * The rules no flag overrides, strongest first: is one of s mounted, active
 * swap, held by another block device, or claimed exclusively? Fills v and
 * returns 1 when so, 0 when none holds.
 */
static int block_in_use(const struct sdevs *s, struct safety_verdict *v)
{
	char what[384], holders[320];
	unsigned i;
	int ret;

	ret = find_mounted(s, what, sizeof(what));
	if (ret >= 0) {
		verdict(v, false, false, "%s is mounted on %s", s->d[ret].path, what);
		return 1;
	}
	ret = find_swap(s, true, 0, 0);
	if (ret >= 0) {
		verdict(v, false, false, "%s is active swap", s->d[ret].path);
		return 1;
	}
	for (i = 0; i < s->n; i++) {
		if (list_holders(&s->d[i], holders, sizeof(holders))) {
			verdict(v, false, false, "%s is held by %s", s->d[i].path, holders);
			return 1;
		}
	}
	for (i = 0; i < s->n; i++) {
		if (busy(&s->d[i])) {
			verdict(v, false, false, "%s is in use: the kernel refuses exclusive "
				"access (mounted elsewhere, swap, or claimed by a program)",
				s->d[i].path);
			return 1;
		}
	}
	return 0;
}

static int check_block(const struct target_info *t, const char *destructive,
		       struct safety_verdict *v)
{
	static struct sdevs s;	/* PATH_MAX per partition: too big for a stack */
	char what[384];
	const char *self = t->resolved;
	unsigned i;
	int ret, sig = -1;
	bool named;

	ret = collect(t->resolved, &s);
	if (ret) {
		verdict(v, false, false, "cannot list %s and its partitions: %s", self,
			strerror(-ret));
		return ret;
	}
	if (block_in_use(&s, v))
		return 0;

	named = destructive && destructive[0];
	if (named && !names_device(destructive, self, s.d[0].dev)) {
		verdict(v, false, false, "--destructive names %s, not %s", destructive, self);
		return 0;
	}

	for (i = 0; i < s.n && sig < 0; i++) {
		ret = probe_signature(&s, &s.d[i], what, sizeof(what));
		if (ret < 0) {
			verdict(v, false, false, "cannot probe %s for signatures: %s",
				s.d[i].path, strerror(-ret));
			return ret;
		}
		if (ret)
			sig = (int)i;
	}
	if (sig >= 0 && !named) {
		verdict(v, false, true, "%s on %s; to overwrite it, name the device: "
			"--destructive=%s", what, s.d[sig].path, self);
		return 0;
	}
	if (!destructive) {
		verdict(v, false, false, "writes to a block device need --destructive");
		return 0;
	}
	if (sig >= 0)
		verdict(v, true, true, "--destructive names %s: its %s%s%s will be overwritten; "
			"not mounted, no swap, no holders", self, what,
			sig ? " on " : "", sig ? s.d[sig].path : "");
	else
		verdict(v, true, false, "blank device, not mounted, no swap, no holders, "
			"no signature");
	return 0;
}

/*
 * The loop device whose backing file is the inode st names, into loop
 * ("/dev/loop3"). The kernel's own record (LOOP_GET_STATUS64: device and
 * inode of the backing file) decides, so a renamed or re-linked image is
 * still found; a loop device without a node falls back to the path sysfs
 * shows. Returns 1 found, 0 none.
 */
static int find_loop_backing(const struct stat *st, char *loop, size_t looplen)
{
	struct loop_info64 li;
	struct dirent *de;
	struct stat bs;
	char backing[PATH_MAX];
	DIR *dir = opendir("/sys/block");
	int fd, found = 0;

	if (!dir)
		return 0;
	while (!found && (de = readdir(dir))) {
		if (strncmp(de->d_name, "loop", 4))
			continue;
		if (sysfs_read(backing, sizeof(backing), "/sys/block/%s/loop/backing_file",
			       de->d_name))
			continue;	/* not bound to a file */
		snprintf(loop, looplen, "/dev/%s", de->d_name);
		fd = open(loop, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			if (!ioctl(fd, LOOP_GET_STATUS64, &li))
				found = li.lo_device == st->st_dev && li.lo_inode == st->st_ino;
			close(fd);
			if (found)
				break;
			continue;
		}
		found = !stat(backing, &bs) && bs.st_dev == st->st_dev && bs.st_ino == st->st_ino;
	}
	closedir(dir);
	return found;
}

/* A file-system, partition-table or RAID signature in the regular file fd
 * (open for reading), described into out. 1 found, 0 none, -errno. */
static int file_signature(int fd, char *out, size_t outlen)
{
	static struct sdevs s;	/* one entry: the file, probed through fd */

	memset(&s.d[0], 0, sizeof(s.d[0]));
	s.n = 1;
	snprintf(s.disk_path, sizeof(s.disk_path), "/proc/self/fd/%d", fd);
	return probe_signature(&s, &s.d[0], out, outlen);
}

int safety_file_holds_data(int fd, const struct stat *st, struct safety_verdict *v)
{
	static struct sdevs s;
	char loop[PATH_MAX], what[384];
	int ret;

	memset(v, 0, sizeof(*v));
	if (find_swap(NULL, false, st->st_dev, st->st_ino) >= 0) {
		verdict(v, false, false, "it is an active swap file");
		return 0;
	}
	if (find_loop_backing(st, loop, sizeof(loop))) {
		ret = collect(loop, &s);
		if (!ret && block_in_use(&s, v)) {
			/* "it backs /dev/loop3, and /dev/loop3 is mounted on /mnt" */
			snprintf(what, sizeof(what), "%s", v->reason);
			verdict(v, false, false, "it backs %s, and %s", loop, what);
			return 0;
		}
		verdict(v, false, true, "it backs the loop device %s", loop);
		return 0;
	}
	ret = file_signature(fd, what, sizeof(what));
	if (ret < 0) {
		verdict(v, false, false, "it cannot be probed for signatures: %s", strerror(-ret));
		return ret;
	}
	if (ret) {
		verdict(v, false, true, "%s found in it", what);
		return 0;
	}
	verdict(v, true, false, "no loop device, swap or signature");
	return 0;
}

static int check_file(const struct target_info *t, const char *destructive,
		      struct safety_verdict *v)
{
	struct safety_verdict held;
	struct stat st;
	bool named;
	int fd, ret;

	fd = open(t->resolved, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0 || fstat(fd, &st) < 0) {
		ret = -errno;
		verdict(v, false, false, "cannot open %s: %s", t->resolved, strerror(-ret));
		if (fd >= 0)
			close(fd);
		return ret;
	}
	ret = safety_file_holds_data(fd, &st, &held);
	close(fd);
	if (ret) {
		verdict(v, false, false, "%s: %s", t->resolved, held.reason);
		return ret;
	}
	/* Never overridable: an active swap file (the kernel refuses writes
	 * to it anyway), an image under a mounted or claimed loop device. */
	if (!held.allowed && !held.overridable) {
		verdict(v, false, false, "%s: %s", t->resolved, held.reason);
		return 0;
	}
	named = destructive && destructive[0];
	if (named && !names_device(destructive, t->resolved, (dev_t)-1)) {
		verdict(v, false, false, "--destructive names %s, not %s", destructive,
			t->resolved);
		return 0;
	}
	if (!held.allowed && !named) {
		verdict(v, false, true, "%s: %s; to overwrite it, name the file: "
			"--destructive=%s", t->resolved, held.reason, t->resolved);
		return 0;
	}
	if (!destructive) {
		verdict(v, false, false, "an existing file is only written with --destructive");
		return 0;
	}
	if (!held.allowed)
		verdict(v, true, true, "--destructive names %s: it will be overwritten, though "
			"%s", t->resolved, held.reason);
	else
		verdict(v, true, false, "--destructive given: the file will be overwritten");
	return 0;
}

int safety_check_writes(const struct target_info *t, const char *destructive,
			struct safety_verdict *v)
{
	memset(v, 0, sizeof(*v));
	switch (t->kind) {
	case TARGET_BLOCK:
		return check_block(t, destructive, v);
	case TARGET_FILE:
		return check_file(t, destructive, v);
	case TARGET_DIR:
		verdict(v, true, false, "diskbench writes only its own scratch files");
		return 0;
	}
	verdict(v, false, false, "unknown kind of target");
	return -EINVAL;
}

int safety_check_fill(const struct target_info *t, uint64_t need_bytes, unsigned max_fill_pct,
		      struct safety_verdict *v)
{
	uint64_t size = t->fs_size_bytes, avail = t->free_bytes, used;
	const char *where = t->mount_point[0] ? t->mount_point : t->path;
	char need_h[32], avail_h[32];
	unsigned __int128 after;
	struct statvfs vfs;
	unsigned pct;

	memset(v, 0, sizeof(*v));
	if (max_fill_pct == 0 || max_fill_pct > 100) {
		verdict(v, false, false, "--max-fill %u: not a percentage from 1 to 100",
			max_fill_pct);
		return -EINVAL;
	}
	if (!size) {
		if (statvfs(t->resolved[0] ? t->resolved : t->path, &vfs) < 0) {
			verdict(v, false, false, "cannot measure the file system of %s: %s",
				where, strerror(errno));
			return -errno;
		}
		size = (uint64_t)vfs.f_blocks * vfs.f_frsize;
		avail = (uint64_t)vfs.f_bavail * vfs.f_frsize;
	}
	if (!size) {
		verdict(v, false, false, "the file system of %s reports no size", where);
		return -ENOSPC;
	}
	/* Space reserved for root counts as used: it is not ours to fill. */
	used = avail < size ? size - avail : 0;
	str_bytes_iec(need_bytes, need_h, sizeof(need_h));
	str_bytes_iec(avail, avail_h, sizeof(avail_h));
	if (need_bytes > avail) {
		verdict(v, false, false, "writing %s would not fit on %s (%s free)", need_h,
			where, avail_h);
		return 0;
	}
	after = (unsigned __int128)used + need_bytes;
	/* Rounded up, so a refusal never reads "90% (limit 90%)". */
	pct = (unsigned)((after * 100 + size - 1) / size);
	if (after * 100 > (unsigned __int128)max_fill_pct * size)
		verdict(v, false, false, "writing %s would fill %s to %u%% (limit %u%%, "
			"--max-fill)", need_h, where, pct, max_fill_pct);
	else
		verdict(v, true, false, "writing %s leaves %s %u%% full (limit %u%%)", need_h,
			where, pct, max_fill_pct);
	return 0;
}

int safety_claim(const char *dev_path)
{
	int fd = open(dev_path, O_WRONLY | O_EXCL | O_CLOEXEC);

	return fd < 0 ? -errno : fd;
}
