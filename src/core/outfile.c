/* outfile.c - report files that never destroy data: the symlink rule, file types, atomic replace. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "outfile.h"
#include "safety.h"

/* As many symlinks as the kernel follows in one path (MAXSYMLINKS). */
#define MAX_LINKS 40

/* A resolved output: the directory it is in, and the object when it exists. */
struct dest {
	int dirfd;		/* O_PATH fd of the directory holding name */
	int fd;			/* O_PATH fd of the object; -1 when name is free */
	struct stat st;		/* of fd */
	bool magic;		/* reached through a /proc magic link */
	char name[NAME_MAX + 1];
};

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int fail(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return ret;
}

static void dest_close(struct dest *d)
{
	if (d->fd >= 0)
		close(d->fd);
	if (d->dirfd >= 0)
		close(d->dirfd);
	d->fd = d->dirfd = -1;
}

/* Make fd (O_PATH) the directory we are in. */
static void enter(struct dest *d, int fd)
{
	close(d->dirfd);
	d->dirfd = fd;
}

/*
 * Follow the symlink fd (O_PATH | O_NOFOLLOW) named comp in d->dirfd, if the
 * rule allows: rest (the path after comp, from its '/') is rewritten to the
 * link's text followed by rest. A /proc magic link is opened by the kernel
 * instead: *kfd gets that fd. Returns 0 or -errno with err set.
 */
static int follow(struct dest *d, int fd, const struct stat *lst, const char *comp,
		  char *rest, size_t restlen, const char **p, int *kfd, char *err, size_t errlen)
{
	char link[PATH_MAX], tmp[PATH_MAX * 2];
	struct statfs sfs;
	struct stat dst;
	ssize_t n;

	*kfd = -1;
	if (fstat(d->dirfd, &dst))
		return fail(err, errlen, -errno, "%s: %s", comp, strerror(errno));
	if (lst->st_uid != geteuid() && lst->st_uid != dst.st_uid)
		return fail(err, errlen, -EPERM, "refusing to follow the symlink '%s': it belongs "
			    "to uid %u, neither you nor the owner of its directory (uid %u): "
			    "another user may have planted it", comp, (unsigned)lst->st_uid,
			    (unsigned)dst.st_uid);
	if (!fstatfs(fd, &sfs) && sfs.f_type == PROC_SUPER_MAGIC) {
		/* /dev/stdout -> /proc/self/fd/1 -> "pipe:[1234]": only the
		 * kernel can resolve it. O_PATH opens nothing it reaches. */
		*kfd = openat(d->dirfd, comp, O_PATH | O_CLOEXEC);
		if (*kfd < 0)
			return fail(err, errlen, -errno, "%s: %s", comp, strerror(errno));
		return 0;
	}
	n = readlinkat(fd, "", link, sizeof(link));
	if (n < 0)
		return fail(err, errlen, -errno, "%s: %s", comp, strerror(errno));
	if (n == 0 || (size_t)n >= sizeof(link))
		return fail(err, errlen, n ? -ENAMETOOLONG : -ENOENT, "%s: unusable symlink", comp);
	link[n] = '\0';
	if ((size_t)snprintf(tmp, sizeof(tmp), "%s%s", link, *p) >= restlen)
		return fail(err, errlen, -ENAMETOOLONG, "%s: path too long", comp);
	memcpy(rest, tmp, strlen(tmp) + 1);
	*p = rest;
	if (link[0] == '/') {
		int root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);

		if (root < 0)
			return fail(err, errlen, -errno, "/: %s", strerror(errno));
		enter(d, root);
	}
	return 0;
}

/*
 * Resolve path into d one component at a time: every open is O_PATH |
 * O_NOFOLLOW relative to the directory reached so far, so nothing swapped in
 * between two steps is followed unchecked (see follow for the rule).
 */
static int walk(const char *path, struct dest *d, char *err, size_t errlen)
{
	char rest[PATH_MAX * 2], comp[NAME_MAX + 1];
	const char *p = rest;
	struct stat st;
	int links = 0, fd, kfd, ret;
	size_t n;
	bool last;

	d->dirfd = d->fd = -1;
	d->magic = false;
	if (!*path)
		return fail(err, errlen, -ENOENT, "empty path");
	if (strlen(path) >= sizeof(rest))
		return fail(err, errlen, -ENAMETOOLONG, "path too long");
	memcpy(rest, path, strlen(path) + 1);
	d->dirfd = open(rest[0] == '/' ? "/" : ".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d->dirfd < 0)
		return fail(err, errlen, -errno, "%s", strerror(errno));
	for (;;) {
		while (*p == '/')
			p++;
		if (!*p)
			return fail(err, errlen, -EISDIR, "is a directory");
		n = strcspn(p, "/");
		if (n > NAME_MAX)
			return fail(err, errlen, -ENAMETOOLONG, "a name in the path is too long");
		memcpy(comp, p, n);
		comp[n] = '\0';
		p += n;
		/* "name/" must be a directory: not the last component then */
		last = !*p;
		if (!strcmp(comp, ".") || !strcmp(comp, "..")) {
			if (last)
				return fail(err, errlen, -EISDIR, "is a directory");
			fd = openat(d->dirfd, comp, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return fail(err, errlen, -errno, "%s: %s", comp, strerror(errno));
			enter(d, fd);
			continue;
		}
		fd = openat(d->dirfd, comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			ret = -errno;
			if (ret == -ENOENT && last) {
				memcpy(d->name, comp, n + 1);
				return 0;
			}
			return fail(err, errlen, ret, "%s: %s", comp, strerror(-ret));
		}
		if (fstat(fd, &st)) {
			ret = -errno;
			close(fd);
			return fail(err, errlen, ret, "%s: %s", comp, strerror(-ret));
		}
		if (S_ISLNK(st.st_mode)) {
			if (++links > MAX_LINKS) {
				close(fd);
				return fail(err, errlen, -ELOOP, "too many symlinks");
			}
			ret = follow(d, fd, &st, comp, rest, sizeof(rest), &p, &kfd, err, errlen);
			close(fd);
			if (ret)
				return ret;
			if (kfd < 0)
				continue;
			fd = kfd;
			d->magic = true;
			if (fstat(fd, &st)) {
				ret = -errno;
				close(fd);
				return fail(err, errlen, ret, "%s: %s", comp, strerror(-ret));
			}
		}
		if (!last) {
			if (!S_ISDIR(st.st_mode)) {
				close(fd);
				return fail(err, errlen, -ENOTDIR, "%s: not a directory", comp);
			}
			enter(d, fd);
			continue;
		}
		d->fd = fd;
		d->st = st;
		memcpy(d->name, comp, n + 1);
		return 0;
	}
}

/* Terminals (the tty, console and pseudo-terminal majors) and /dev/null:
 * told apart by device number, since opening a device to ask it can have
 * effects of its own (a tape rewinds, a watchdog arms). */
static bool harmless_chr(dev_t rdev, bool *devnull)
{
	unsigned ma = major(rdev), mi = minor(rdev);

	*devnull = ma == 1 && mi == 3;
	return *devnull || ma == 4 || (ma == 5 && mi <= 1) || (ma >= 136 && ma <= 143);
}

/* The object of d opened with flags, the very inode d->fd holds: through
 * /proc/self/fd, else (no /proc) by name, checked. -errno on failure. */
static int reopen(const struct dest *d, int flags)
{
	char p[32];
	struct stat st;
	int fd;

	snprintf(p, sizeof(p), "/proc/self/fd/%d", d->fd);
	fd = open(p, flags | O_CLOEXEC);
	if (fd >= 0 || errno != ENOENT || d->magic)
		return fd < 0 ? -errno : fd;
	fd = openat(d->dirfd, d->name, flags | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) || st.st_dev != d->st.st_dev || st.st_ino != d->st.st_ino) {
		close(fd);
		return -ESTALE;
	}
	return fd;
}

/* What d is, whether a report may go there; fills id. */
static int classify(struct dest *d, struct outfile_id *id, char *err, size_t errlen)
{
	const struct stat *st = &d->st;
	struct safety_verdict v;
	struct stat dst;
	int fd, ret;

	memset(id, 0, sizeof(*id));
	if (d->fd < 0) {
		if (fstat(d->dirfd, &dst))
			return fail(err, errlen, -errno, "%s", strerror(errno));
		id->kind = OUTFILE_NEW;
		id->dev = dst.st_dev;
		id->ino = dst.st_ino;
		snprintf(id->name, sizeof(id->name), "%s", d->name);
		return 0;
	}
	id->dev = st->st_dev;
	id->ino = st->st_ino;
	if (S_ISDIR(st->st_mode))
		return fail(err, errlen, -EISDIR, "is a directory");
	if (S_ISBLK(st->st_mode))
		return fail(err, errlen, -EINVAL, "is a block device (%u:%u): a report is never "
			    "written to a device", major(st->st_rdev), minor(st->st_rdev));
	if (S_ISSOCK(st->st_mode))
		return fail(err, errlen, -EINVAL, "is a socket, not a file");
	if (S_ISCHR(st->st_mode)) {
		if (!harmless_chr(st->st_rdev, &id->devnull))
			return fail(err, errlen, -EINVAL, "is a character device (%u:%u), not a "
				    "terminal or /dev/null", major(st->st_rdev),
				    minor(st->st_rdev));
		id->kind = OUTFILE_STREAM;
		return 0;
	}
	if (S_ISFIFO(st->st_mode)) {
		id->kind = OUTFILE_STREAM;
		return 0;
	}
	if (!S_ISREG(st->st_mode))
		return fail(err, errlen, -EINVAL, "is a special file, not a regular file");
	id->kind = d->magic ? OUTFILE_APPEND : OUTFILE_REPLACE;
	/* A disk image, a swap file: not a report's to replace. */
	fd = reopen(d, O_RDONLY | O_NONBLOCK);
	if (fd < 0)
		return fail(err, errlen, fd, "%s", strerror(-fd));
	ret = safety_file_holds_data(fd, st, &v);
	close(fd);
	if (ret)
		return fail(err, errlen, ret, "%s", v.reason);
	if (!v.allowed)
		return fail(err, errlen, -EBUSY, "refusing to replace it: %s", v.reason);
	return 0;
}

static int resolve(const char *path, struct dest *d, struct outfile_id *id, char *err,
		   size_t errlen)
{
	int ret = walk(path, d, err, errlen);

	if (!ret)
		ret = classify(d, id, err, errlen);
	if (ret)
		dest_close(d);
	return ret;
}

/* Create "<name>.XXXXXX" in dirfd, O_EXCL | O_NOFOLLOW, mode 0600. */
static int make_temp(int dirfd, const char *name, char *tmp, size_t tmplen)
{
	static const char chars[] =
		"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	int n = (int)strlen(name), fd, tries, k;

	if (n > NAME_MAX - 7)
		n = NAME_MAX - 7;
	for (tries = 0; tries < 100; tries++) {
		if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
			uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20) ^
				     (uint64_t)tries * 0x9e3779b97f4a7c15ull;

			memcpy(r, &x, sizeof(r));
		}
		k = snprintf(tmp, tmplen, "%.*s.", n, name);
		for (size_t i = 0; i < sizeof(r) && (size_t)k + 1 < tmplen; i++)
			tmp[k++] = chars[r[i] % (sizeof(chars) - 1)];
		tmp[k] = '\0';
		fd = openat(dirfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd < 0 ? -errno : fd;
	}
	return -EEXIST;
}

static int write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* 0666 less the umask: what a new file gets (read without a lasting
 * change; we are single-threaded when reports are written). */
static mode_t new_file_mode(void)
{
	mode_t m = umask(077);

	umask(m);
	return 0666 & ~m;
}

int outfile_check(const char *path, struct outfile_id *id, char *err, size_t errlen)
{
	struct outfile_id local;
	struct stat st;
	struct dest d;
	char tmp[NAME_MAX + 1];
	int ret, fd;

	if (!id)
		id = &local;
	if (!strcmp(path, "-")) {
		memset(id, 0, sizeof(*id));
		id->kind = OUTFILE_STDOUT;
		if (!fstat(STDOUT_FILENO, &st)) {
			id->dev = st.st_dev;
			id->ino = st.st_ino;
		}
		return 0;
	}
	ret = resolve(path, &d, id, err, errlen);
	if (ret)
		return ret;
	switch (id->kind) {
	case OUTFILE_NEW:
	case OUTFILE_REPLACE:
		/* The one sure test that the rename will work: make a file. */
		fd = make_temp(d.dirfd, d.name, tmp, sizeof(tmp));
		if (fd < 0) {
			ret = fail(err, errlen, fd, "cannot create files in its directory: %s",
				   strerror(-fd));
			break;
		}
		close(fd);
		unlinkat(d.dirfd, tmp, 0);
		break;
	case OUTFILE_APPEND:
		fd = reopen(&d, O_WRONLY | O_APPEND | O_NOCTTY);
		if (fd < 0)
			ret = fail(err, errlen, fd, "%s", strerror(-fd));
		else
			close(fd);
		break;
	default:
		break;
	}
	dest_close(&d);
	return ret;
}

/* A temporary file's last steps before its rename: synced, and given the
 * owner and mode of the file it replaces (existing) or a new file's. */
static int settle_temp(int fd, const struct dest *d, bool existing)
{
	mode_t mode = new_file_mode();

	if (fsync(fd))
		return -errno;
	if (existing) {
		/* The owner and mode of the file replaced. Where we may not
		 * give it back (not root), it stays ours, and then gets no
		 * bit a new file of ours would not have. */
		if (fchown(fd, d->st.st_uid, d->st.st_gid) == 0)
			mode = d->st.st_mode & 0777;
		else
			mode &= d->st.st_mode;
	}
	return fchmod(fd, mode) ? -errno : 0;
}

/* The temporary file, written, synced, given its mode, renamed over name. */
static int replace(struct dest *d, bool existing, const void *buf, size_t len, char *err,
		   size_t errlen)
{
	char tmp[NAME_MAX + 1];
	int fd, ret;

	fd = make_temp(d->dirfd, d->name, tmp, sizeof(tmp));
	if (fd < 0)
		return fail(err, errlen, fd, "cannot create a temporary file beside it: %s",
			    strerror(-fd));
	ret = write_all(fd, buf, len);
	if (!ret)
		ret = settle_temp(fd, d, existing);
	if (close(fd) && !ret)
		ret = -errno;
	if (!ret && renameat(d->dirfd, tmp, d->dirfd, d->name))
		ret = -errno;
	if (ret) {
		unlinkat(d->dirfd, tmp, 0);
		return fail(err, errlen, ret, "%s", strerror(-ret));
	}
	return 0;
}

int outfile_write(const char *path, const void *buf, size_t len, char *err, size_t errlen)
{
	struct outfile_id id;
	struct dest d;
	int ret, fd;

	if (!strcmp(path, "-")) {
		/* after whatever the caller printed through stdio */
		if (fflush(stdout))
			return fail(err, errlen, -errno, "stdout: %s", strerror(errno));
		ret = write_all(STDOUT_FILENO, buf, len);
		return ret ? fail(err, errlen, ret, "stdout: %s", strerror(-ret)) : 0;
	}
	ret = resolve(path, &d, &id, err, errlen);
	if (ret)
		return ret;
	switch (id.kind) {
	case OUTFILE_NEW:
	case OUTFILE_REPLACE:
		ret = replace(&d, id.kind == OUTFILE_REPLACE, buf, len, err, errlen);
		break;
	default:
		fd = reopen(&d, O_WRONLY | O_NOCTTY |
			    (id.kind == OUTFILE_APPEND ? O_APPEND : 0));
		if (fd < 0) {
			ret = fail(err, errlen, fd, "%s", strerror(-fd));
			break;
		}
		ret = write_all(fd, buf, len);
		if (close(fd) && !ret)
			ret = -errno;
		if (ret)
			fail(err, errlen, ret, "%s", strerror(-ret));
		break;
	}
	dest_close(&d);
	return ret;
}

bool outfile_same(const struct outfile_id *a, const struct outfile_id *b)
{
	if (a->devnull || b->devnull)
		return false;
	if (a->kind == OUTFILE_STDOUT && b->kind == OUTFILE_STDOUT)
		return true;
	if ((a->kind == OUTFILE_NEW) != (b->kind == OUTFILE_NEW))
		return false;
	if (a->dev != b->dev || a->ino != b->ino)
		return false;
	return a->kind != OUTFILE_NEW || !strcmp(a->name, b->name);
}

/* What an open stream holds besides its FILE: the destination (d.dirfd
 * >= 0 while a temporary file waits for its rename). */
struct outfile_pending {
	struct dest d;
	bool existing;
	char tmp[NAME_MAX + 1];
};

int outfile_open(const char *path, struct outfile_stream *s, char *err, size_t errlen)
{
	struct outfile_pending *p;
	struct outfile_id id;
	int ret, fd;

	memset(s, 0, sizeof(*s));
	if (!strcmp(path, "-")) {
		s->f = stdout;
		return 0;
	}
	p = calloc(1, sizeof(*p));
	if (!p)
		return fail(err, errlen, -ENOMEM, "%s", strerror(ENOMEM));
	ret = resolve(path, &p->d, &id, err, errlen);
	if (ret) {
		free(p);
		return ret;
	}
	if (id.kind == OUTFILE_NEW || id.kind == OUTFILE_REPLACE) {
		p->existing = id.kind == OUTFILE_REPLACE;
		fd = make_temp(p->d.dirfd, p->d.name, p->tmp, sizeof(p->tmp));
		if (fd < 0) {
			p->tmp[0] = '\0';	/* none of ours by that name */
			ret = fail(err, errlen, fd, "cannot create a temporary file beside it: %s",
				   strerror(-fd));
		}
	} else {
		fd = reopen(&p->d, O_WRONLY | O_NOCTTY | (id.kind == OUTFILE_APPEND ? O_APPEND : 0));
		if (fd < 0)
			ret = fail(err, errlen, fd, "%s", strerror(-fd));
		dest_close(&p->d);	/* written as it is: nothing to rename */
	}
	if (!ret && !(s->f = fdopen(fd, "w"))) {
		ret = fail(err, errlen, -errno, "%s", strerror(errno));
		close(fd);
	}
	if (ret) {
		if (p->tmp[0])
			unlinkat(p->d.dirfd, p->tmp, 0);
		dest_close(&p->d);
		free(p);
		return ret;
	}
	s->pending = p;
	return 0;
}

int outfile_commit(struct outfile_stream *s, char *err, size_t errlen)
{
	struct outfile_pending *p = s->pending;
	int ret = 0;

	if (!s->f)
		return 0;
	if (fflush(s->f) || ferror(s->f))
		ret = errno ? -errno : -EIO;
	if (!p) {		/* stdout: the caller's to close */
		s->f = NULL;
		return ret ? fail(err, errlen, ret, "stdout: %s", strerror(-ret)) : 0;
	}
	if (!ret && p->d.dirfd >= 0)
		ret = settle_temp(fileno(s->f), &p->d, p->existing);
	if (fclose(s->f) && !ret)
		ret = -errno;
	s->f = NULL;
	if (!ret && p->d.dirfd >= 0 && renameat(p->d.dirfd, p->tmp, p->d.dirfd, p->d.name))
		ret = -errno;
	if (ret && p->d.dirfd >= 0)
		unlinkat(p->d.dirfd, p->tmp, 0);
	dest_close(&p->d);
	free(p);
	s->pending = NULL;
	return ret ? fail(err, errlen, ret, "%s", strerror(-ret)) : 0;
}

void outfile_abort(struct outfile_stream *s)
{
	struct outfile_pending *p = s->pending;

	if (!s->f)
		return;
	if (!p) {
		fflush(s->f);	/* stdout: what was written stays written */
		s->f = NULL;
		return;
	}
	fclose(s->f);
	s->f = NULL;
	if (p->d.dirfd >= 0)
		unlinkat(p->d.dirfd, p->tmp, 0);
	dest_close(&p->d);
	free(p);
	s->pending = NULL;
}
