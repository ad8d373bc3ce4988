/* journal.c - the settings tune found, kept on disk until they are back: the file, its lock, its directory. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "journal_int.h"
#include "sysfs.h"
#include "tune.h"
#include "tune_int.h"

/* The text is journal_text.c's; the restore, restore.c's. */
#define JOURNAL_SUFFIX ".journal"

const char *tune_journal_dir(void)
{
	const char *dir = getenv("DISKBENCH_TUNE_JOURNALS");

	return dir && *dir ? dir : TUNE_JOURNAL_DIR;
}

/*
 * A descriptor of the journal directory, made (0700) when create is set.
 * It must be a directory of this user that nobody else can write: a
 * journal names sysfs writes to make as root, so one planted by another
 * user must never be read. Returns the fd or -errno (-ENOENT: there is
 * none and none was to be made).
 */
static int dir_open(bool create, char *err, size_t errlen)
{
	const char *dir = tune_journal_dir();
	struct stat st;
	int fd, e;

	if (create && mkdir(dir, 0700) && errno != EEXIST) {
		e = errno;
		return tune_set_err(err, errlen, -e, "cannot create %s: %s", dir, strerror(e));
	}
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		e = errno;
		if (e == ELOOP || e == ENOTDIR)
			return tune_set_err(err, errlen, -ENOTDIR, "%s is not a directory (a symbolic "
				       "link?): not used for journals", dir);
		return tune_set_err(err, errlen, -e, "cannot open %s: %s", dir, strerror(e));
	}
	if (fstat(fd, &st)) {
		e = errno;
		close(fd);
		return tune_set_err(err, errlen, -e, "cannot stat %s: %s", dir, strerror(e));
	}
	if (st.st_uid != geteuid() || (st.st_mode & 022)) {
		close(fd);
		return tune_set_err(err, errlen, -EPERM, "%s is not a private directory of uid %u "
			       "(owner %u, mode %04o): its journals could be anybody's; not used",
			       dir, (unsigned)geteuid(), (unsigned)st.st_uid,
			       (unsigned)(st.st_mode & 07777));
	}
	return fd;
}

/* "<disk>.journal" into name, and its full path into j->path. */
static void journal_names(const char *disk, char *name, size_t len, struct tune_journal *j)
{
	snprintf(name, len, "%s" JOURNAL_SUFFIX, disk);
	if (j)
		snprintf(j->path, sizeof(j->path), "%s/%s", tune_journal_dir(), name);
}

/* The journal name in dfd into buf (size JOURNAL_MAX + 1), terminated;
 * *n its length. 0, -ENOENT, -EFBIG when too large, -EINVAL when not a
 * regular file, or -errno. */
static int read_text(int dfd, const char *name, char *buf, size_t *n)
{
	struct stat st;
	ssize_t r;
	int fd, ret = 0;

	/* O_NONBLOCK: a FIFO planted under the name must not hang us */
	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return errno == ELOOP ? -EINVAL : -errno;
	if (fstat(fd, &st))
		ret = -errno;
	else if (!S_ISREG(st.st_mode))
		ret = -EINVAL;
	else if (st.st_size > JOURNAL_MAX)
		ret = -EFBIG;
	*n = 0;
	while (!ret && *n <= JOURNAL_MAX) {
		r = read(fd, buf + *n, JOURNAL_MAX + 1 - *n);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			ret = -errno;
		else if (r == 0)
			break;
		else
			*n += (size_t)r;
	}
	if (!ret && *n > JOURNAL_MAX)
		ret = -EFBIG;	/* it grew while we read */
	close(fd);
	buf[ret ? 0 : *n] = '\0';
	return ret;
}

/* Is the lock of journal name in dfd held (by a live tune)? 1 held, 0
 * free, or -errno (-ENOENT: no such journal). The probe takes a shared
 * lock for a moment, which only an exclusive holder refuses. */
static int lock_held(int dfd, const char *name)
{
	int fd, ret;

	fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = flock(fd, LOCK_SH | LOCK_NB) ? (errno == EWOULDBLOCK ? 1 : -errno) : 0;
	close(fd);
	return ret;
}

/* "pid N" of a live owner, or why pid N may still hold the lock. */
static void owner_words(pid_t pid, char *buf, size_t len)
{
	/* EPERM: it runs, as another user */
	if (!kill(pid, 0) || errno == EPERM)
		snprintf(buf, len, "pid %d", (int)pid);
	else
		snprintf(buf, len, "pid %d, whose last job processes still hold it", (int)pid);
}

/* The -EEXIST message: whose journal is there, and what to do. */
static int exists_err(int dfd, const char *name, const char *disk, char *err, size_t errlen)
{
	char text[JOURNAL_MAX + 1], why[256], path[PATH_MAX], who[96];
	struct tune_journal other;
	unsigned line[KNOB_COUNT];
	unsigned nlines;
	size_t n;
	int ret, held;

	memset(&other, 0, sizeof(other));
	snprintf(path, sizeof(path), "%s/%s", tune_journal_dir(), name);
	ret = read_text(dfd, name, text, &n);
	if (!ret)
		ret = tune_journal_parse(text, n, disk, path, &other, line, &nlines, why,
					 sizeof(why));
	else
		snprintf(why, sizeof(why), "%s", strerror(-ret));
	held = lock_held(dfd, name);
	if (held == 1 && ret)
		return tune_set_err(err, errlen, -EEXIST, "a tune of %s is running (its journal %s "
			       "is locked): let it finish, it puts the settings back", disk, path);
	if (ret)
		return tune_set_err(err, errlen, -EEXIST, "%s has a journal already, %s, which "
			       "cannot be read (%s); run: diskbench tune --restore /dev/%s",
			       disk, path, why, disk);
	if (held == 1) {
		owner_words(other.pid, who, sizeof(who));
		return tune_set_err(err, errlen, -EEXIST, "a tune of %s is running (%s, since %s): "
			       "let it finish, it puts the settings back", disk, who,
			       other.started);
	}
	return tune_set_err(err, errlen, -EEXIST, "%s has a journal from a tune that no longer runs "
		       "(pid %d, since %s): its settings may still be changed; run: diskbench "
		       "tune --restore /dev/%s", disk, (int)other.pid, other.started, disk);
}

static int write_all(int fd, const char *buf, size_t n)
{
	ssize_t w;

	while (n) {
		w = write(fd, buf, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		buf += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Rename tmp to name in dfd unless name exists: 0, -EEXIST or -errno. */
static int rename_noreplace(int dfd, const char *tmp, const char *name)
{
	if (!renameat2(dfd, tmp, dfd, name, RENAME_NOREPLACE))
		return 0;
	if (errno != EINVAL && errno != ENOSYS)
		return -errno;
	/* a file system without RENAME_NOREPLACE: a link fails the same
	 * way on an existing name, and as atomically */
	if (linkat(dfd, tmp, dfd, name, 0))
		return -errno;
	unlinkat(dfd, tmp, 0);
	return 0;
}

int tune_journal_write(const struct tune_queue *q, struct tune_journal *j, char *err,
		       size_t errlen)
{
	char text[JOURNAL_MAX], name[96], tmp[128];
	enum tune_knob k;
	struct tm tm;
	time_t now;
	int dfd, fd, n, ret, tries;

	if (err && errlen)
		err[0] = '\0';
	if (!tune_disk_name_ok(q->disk))
		return tune_set_err(err, errlen, -EINVAL, "'%.64s' is not a block device name", q->disk);
	/* what could not be read back must not be written */
	for (k = 0; k < KNOB_COUNT; k++)
		if (q->have[k] && !tune_value_valid(k, q->value[k]))
			return tune_set_err(err, errlen, -EINVAL, "%s: '%.64s' is not a %s value",
				       q->disk, q->value[k], tune_knob_attr(k));
	memset(j, 0, sizeof(*j));
	j->saved = *q;
	memcpy(j->order, tune_write_order, sizeof(j->order));
	j->pid = getpid();
	now = time(NULL);
	if (!gmtime_r(&now, &tm) ||
	    !strftime(j->started, sizeof(j->started), "%Y-%m-%dT%H:%M:%SZ", &tm))
		return tune_set_err(err, errlen, -EINVAL, "the clock gives no time to write");
	journal_names(q->disk, name, sizeof(name), j);
	n = tune_journal_format(j, text, sizeof(text));
	if (n < 0)
		return tune_set_err(err, errlen, n, "the journal of %s does not fit %d bytes", q->disk,
			       JOURNAL_MAX);

	dfd = dir_open(true, err, errlen);
	if (dfd < 0)
		return dfd;
	/* ours alone: our pid is in the name, so one that is there was left
	 * by a killed process that had it before */
	snprintf(tmp, sizeof(tmp), ".%s.%d.tmp", name, (int)j->pid);
	for (tries = 0;; tries++) {
		fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST || tries || unlinkat(dfd, tmp, 0))
			break;
	}
	if (fd < 0) {
		ret = -errno;
		goto out_err;
	}
	ret = write_all(fd, text, (size_t)n);
	if (!ret && fsync(fd))
		ret = -errno;
	/* locked before it has its name: no one ever sees it free while
	 * this tune lives (the file is new, nobody else has it open) */
	if (!ret && flock(fd, LOCK_EX | LOCK_NB))
		ret = -errno;
	if (!ret)
		ret = rename_noreplace(dfd, tmp, name);
	if (ret) {
		close(fd);
		unlinkat(dfd, tmp, 0);
		if (ret == -EEXIST) {
			ret = exists_err(dfd, name, q->disk, err, errlen);
			close(dfd);
			return ret;
		}
		goto out_err;
	}
	/* the rename is durable once the directory is */
	if (fsync(dfd)) {
		ret = -errno;
		unlinkat(dfd, name, 0);
		close(fd);
		goto out_err;
	}
	/* a tune with another journal directory has no journal here: the
	 * disk's node is where it would hold a lock */
	ret = tune_devlock_take(q, &j->dev_fd, err, errlen);
	if (ret) {
		unlinkat(dfd, name, 0);
		fsync(dfd);
		close(fd);
		close(dfd);
		return ret;
	}
	close(dfd);
	j->dev_locked = j->dev_fd >= 0;
	j->lock_fd = fd;
	j->locked = true;
	return 0;
out_err:
	close(dfd);
	return tune_set_err(err, errlen, ret, "cannot write %s: %s", j->path, strerror(-ret));
}

int tune_journal_read(const char *disk, struct tune_journal *j, char *err, size_t errlen)
{
	char text[JOURNAL_MAX + 1], name[96], attr[PATH_MAX];
	unsigned line[KNOB_COUNT] = { 0 }, nlines = 0;
	enum tune_knob k;
	bool exists;
	dev_t now;
	size_t n;
	int dfd, ret;

	memset(j, 0, sizeof(*j));
	if (err && errlen)
		err[0] = '\0';
	if (!disk || !tune_disk_name_ok(disk))
		return tune_set_err(err, errlen, -EINVAL, "'%.64s' is not a block device name",
			       disk ? disk : "");
	journal_names(disk, name, sizeof(name), j);
	dfd = dir_open(false, err, errlen);
	if (dfd == -ENOENT)
		return tune_set_err(err, errlen, -ENOENT, "no journal of %s in %s", disk,
			       tune_journal_dir());
	if (dfd < 0)
		return dfd;
	ret = read_text(dfd, name, text, &n);
	close(dfd);
	if (ret == -ENOENT)
		return tune_set_err(err, errlen, ret, "no journal of %s in %s", disk,
			       tune_journal_dir());
	if (ret == -EFBIG)
		return tune_set_err(err, errlen, -EINVAL, "%s: larger than a journal is", j->path);
	if (ret == -EINVAL)
		return tune_set_err(err, errlen, ret, "%s: not a regular file", j->path);
	if (ret)
		return tune_set_err(err, errlen, ret, "cannot read %s: %s", j->path, strerror(-ret));
	ret = tune_journal_parse(text, n, disk, j->path, j, line, &nlines, err, errlen);
	if (ret)
		return ret;

	/* a loop device or a hot-plugged disk gets its name again for
	 * another device: the number says whether it is the same one */
	ret = sysfs_read_devno(&now, "/sys/block/%s/dev", disk);
	if (ret)
		return tune_set_err(err, errlen, -ESTALE, "%s names %s as %u:%u, but there is no %s "
			       "now: a journal from before a reboot or of a device since removed; "
			       "not restored", j->path, disk, major(j->saved.devno),
			       minor(j->saved.devno), disk);
	if (now != j->saved.devno)
		return tune_set_err(err, errlen, -ESTALE, "%s names %s as %u:%u, but %s is %u:%u now: "
			       "a journal from before a reboot or of another device; not restored",
			       j->path, disk, major(j->saved.devno), minor(j->saved.devno), disk,
			       major(now), minor(now));
	/* a journal has a line for every knob the disk has, no other */
	for (k = 0; k < KNOB_COUNT; k++) {
		if (tune_knob_path(disk, k, attr, sizeof(attr)))
			return tune_set_err(err, errlen, -ENAMETOOLONG, "%s: name too long", disk);
		exists = !access(attr, F_OK);
		if (j->saved.have[k] && !exists)
			return tune_journal_bad(err, errlen, j->path, line[k], "%s has no queue/%s",
						disk, tune_knob_attr(k));
		if (!j->saved.have[k] && exists)
			return tune_journal_bad(err, errlen, j->path, nlines, "no %s line, but %s "
						"has queue/%s", tune_knob_attr(k), disk,
						tune_knob_attr(k));
	}
	return 0;
}

int tune_journal_claim(struct tune_journal *j, char *err, size_t errlen)
{
	char disk[sizeof(j->saved.disk)], who[96];
	struct stat held, named;
	int fd, ret;

	if (err && errlen)
		err[0] = '\0';
	if (j->locked)
		return 0;
	memcpy(disk, j->saved.disk, sizeof(disk));
	fd = open(j->path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0 && errno == ENOENT)
		return tune_set_err(err, errlen, -ENOENT, "%s was removed meanwhile: the tune that "
			       "wrote it ended and put the settings back", j->path);
	if (fd < 0) {
		ret = -errno;
		return tune_set_err(err, errlen, ret, "cannot open %s: %s", j->path, strerror(-ret));
	}
	/* a tune's job processes share its lock, and die a moment after a
	 * kill -9 of the tune (PR_SET_PDEATHSIG): a dead owner's lock is
	 * waited for, 2 s at most */
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB) && errno == EWOULDBLOCK && tries < 40 &&
	     kill(j->pid, 0) && errno == ESRCH; tries++)
		usleep(50000);
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = errno == EWOULDBLOCK ? -EBUSY : -errno;
		close(fd);
		if (ret != -EBUSY)
			return tune_set_err(err, errlen, ret, "cannot lock %s: %s", j->path,
				       strerror(-ret));
		owner_words(j->pid, who, sizeof(who));
		return tune_set_err(err, errlen, -EBUSY, "a tune is running (%s, since %s) on %s: "
			       "it puts the settings back when it ends; its journal %s is left "
			       "alone", who, j->started, disk, j->path);
	}
	/* the lock is on what was opened: the journal still, or one its
	 * owner removed (and a new tune may have made another since)? */
	if (fstat(fd, &held) || stat(j->path, &named) || held.st_dev != named.st_dev ||
	    held.st_ino != named.st_ino || !held.st_nlink) {
		close(fd);
		return tune_set_err(err, errlen, -ENOENT, "%s was removed meanwhile: the tune that "
			       "wrote it ended and put the settings back", j->path);
	}
	/* held: nobody changes it now; what is restored is what it says */
	ret = tune_journal_read(disk, j, err, errlen);
	if (!ret)
		ret = tune_devlock_take(&j->saved, &j->dev_fd, err, errlen);
	if (ret) {
		close(fd);
		return ret;
	}
	j->dev_locked = j->dev_fd >= 0;
	j->lock_fd = fd;
	j->locked = true;
	return 0;
}

void tune_journal_release(struct tune_journal *j)
{
	if (!j->locked)
		return;
	if (j->dev_locked)
		close(j->dev_fd);
	j->dev_locked = false;
	j->dev_fd = -1;
	close(j->lock_fd);
	j->locked = false;
	j->lock_fd = -1;
}

int tune_journal_discard(struct tune_journal *j)
{
	int ret = 0;

	if (!j->locked)
		return -ENOLCK;
	if (unlink(j->path) && errno != ENOENT)
		ret = -errno;
	tune_journal_release(j);
	return ret;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(a, b);
}

#define LIST_MAX 256

int tune_journal_list(char *buf, size_t len)
{
	char (*names)[64] = NULL, *dot;
	size_t used = 0, nlen;
	struct dirent *de;
	int dfd, count = 0, i, kept;
	DIR *d;

	if (len)
		buf[0] = '\0';
	dfd = dir_open(false, NULL, 0);
	if (dfd == -ENOENT)
		return 0;
	if (dfd < 0)
		return dfd;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	names = calloc(LIST_MAX, sizeof(*names));
	if (!names) {
		closedir(d);
		return -ENOMEM;
	}
	while ((de = readdir(d))) {
		/* "<disk>.journal": temporaries start with a dot */
		dot = strrchr(de->d_name, '.');
		if (!dot || strcmp(dot, JOURNAL_SUFFIX) || de->d_name[0] == '.')
			continue;
		nlen = (size_t)(dot - de->d_name);
		if (nlen >= sizeof(names[0]))
			continue;
		if (count < LIST_MAX) {
			memcpy(names[count], de->d_name, nlen);
			names[count][nlen] = '\0';
			if (!tune_disk_name_ok(names[count]))
				continue;
		}
		count++;
	}
	closedir(d);
	kept = count < LIST_MAX ? count : LIST_MAX;
	qsort(names, kept, sizeof(names[0]), cmp_names);
	for (i = 0; i < kept; i++) {
		nlen = strlen(names[i]);
		if (used + !!used + nlen + 1 > len)
			break;
		if (used)
			buf[used++] = ' ';
		memcpy(buf + used, names[i], nlen + 1);
		used += nlen;
	}
	free(names);
	return count;
}

int tune_journal_remove(struct tune_journal *j, char *err, size_t errlen)
{
	const struct tune_queue *q = &j->saved;
	char name[96];
	int ret, dfd;

	journal_names(q->disk, name, sizeof(name), NULL);
	dfd = dir_open(false, err, errlen);
	if (dfd < 0)
		return dfd;
	ret = unlinkat(dfd, name, 0) && errno != ENOENT ? -errno : 0;
	if (!ret && fsync(dfd))
		ret = -errno;
	close(dfd);
	/* removed: a new tune may take the disk now */
	if (!ret)
		tune_journal_release(j);
	if (ret)
		return tune_set_err(err, errlen, ret, "%s is back as it was, but %s cannot be removed: "
			       "%s", q->disk, j->path, strerror(-ret));
	return 0;
}
