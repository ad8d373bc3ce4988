/* journal.c - the settings tune found, kept on disk until they are back; the signal-time restore. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "sysfs.h"
#include "tune.h"
#include "tune_int.h"

/*
 * The journal is text, one "key value" line each, every line ended:
 *
 *	diskbench-tune-journal 2
 *	disk loop3
 *	devno 7:3
 *	pid 1234
 *	started 2026-01-02T03:04:05Z
 *	order scheduler,max_sectors_kb,read_ahead_kb,nr_requests,nomerges,wbt_lat_usec
 *	scheduler mq-deadline
 *	read_ahead_kb 128
 *	...
 *
 * the knobs in enum order, one line for each the disk has. "order" is the
 * order the restore writes them in (every knob once): the one that puts
 * every setting back as it read, the kernel's side effects considered
 * (the scheduler first: it resets nr_requests, and bfq turns the default
 * wbt off; wbt_lat_usec last). Format 1, without it, is still read (its
 * restore order is tune_write_order, the same). The reader takes exactly
 * that and nothing else: a restore from a guess would write values nobody
 * saved.
 */
#define JOURNAL_MAGIC "diskbench-tune-journal"
#define JOURNAL_VERSION "2"
#define JOURNAL_SUFFIX ".journal"
/* what a journal of every knob holds is a few hundred bytes: more is
 * not one of ours */
#define JOURNAL_MAX 4096

/* The lines after the first, in the order they must come ("order" in
 * format 2 only); the knobs follow, in enum order, one line for each the
 * disk has. */
static const char *const head_keys[] = { "disk", "devno", "pid", "started", "order" };
#define NHEAD_V1 4u
#define NHEAD (sizeof(head_keys) / sizeof(head_keys[0]))

/* Append to the "; "-separated list in err (errlen > 0). */
static void add_err(char *err, size_t errlen, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void add_err(char *err, size_t errlen, const char *fmt, ...)
{
	size_t used = strlen(err);
	va_list ap;

	if (used && used + 2 < errlen) {
		memcpy(err + used, "; ", 3);
		used += 2;
	}
	if (used + 1 >= errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(err + used, errlen - used, fmt, ap);
	va_end(ap);
}

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

/* Does s match pat, where '0' stands for any digit? */
static bool shaped(const char *s, const char *pat)
{
	for (; *pat; s++, pat++)
		if (*pat == '0' ? !(*s >= '0' && *s <= '9') : *s != *pat)
			return false;
	return !*s;
}

/* "MAJ:MIN", plain decimals, into *dev. */
static bool parse_devno(const char *s, dev_t *dev)
{
	char maj[16], min[16];
	const char *colon = strchr(s, ':');
	long long a, b;

	if (!colon || colon == s || (size_t)(colon - s) >= sizeof(maj) ||
	    strlen(colon + 1) >= sizeof(min))
		return false;
	memcpy(maj, s, colon - s);
	maj[colon - s] = '\0';
	strcpy(min, colon + 1);
	if (maj[0] == '-' || min[0] == '-' || tune_parse_dec(maj, &a) || tune_parse_dec(min, &b) ||
	    a > UINT_MAX || b > UINT_MAX)
		return false;
	*dev = makedev((unsigned)a, (unsigned)b);
	return true;
}

/* Which knob attr names, or KNOB_COUNT. */
static enum tune_knob knob_of(const char *attr)
{
	enum tune_knob k;

	for (k = 0; k < KNOB_COUNT; k++)
		if (!strcmp(attr, tune_knob_attr(k)))
			break;
	return k;
}

static bool is_head_key(const char *key)
{
	size_t i;

	for (i = 0; i < NHEAD; i++)
		if (!strcmp(key, head_keys[i]))
			return true;
	return false;
}

#define BAD(no, ...) bad(err, errlen, path, no, __VA_ARGS__)

static int bad(char *err, size_t errlen, const char *path, unsigned no, const char *fmt, ...)
	__attribute__((format(printf, 5, 6)));

static int bad(char *err, size_t errlen, const char *path, unsigned no, const char *fmt, ...)
{
	size_t used;
	va_list ap;

	if (err && errlen) {
		snprintf(err, errlen, "%s:%u: ", path, no);
		used = strlen(err);
		va_start(ap, fmt);
		vsnprintf(err + used, errlen - used, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

/* "scheduler,max_sectors_kb,...": every knob once, into order. */
static bool parse_order(const char *val, enum tune_knob order[KNOB_COUNT])
{
	char attr[32];
	bool seen[KNOB_COUNT] = { false };
	const char *p = val;
	enum tune_knob k;
	unsigned n = 0;
	size_t len;

	for (;;) {
		len = strcspn(p, ",");
		if (!len || len >= sizeof(attr) || n >= KNOB_COUNT)
			return false;
		memcpy(attr, p, len);
		attr[len] = '\0';
		k = knob_of(attr);
		if (k == KNOB_COUNT || seen[k])
			return false;
		seen[k] = true;
		order[n++] = k;
		if (!p[len])
			break;
		p += len + 1;
	}
	return n == KNOB_COUNT;
}

/* One value of the first lines into j; 0 or the message's -EINVAL. */
static int head_value(struct tune_journal *j, const char *disk, const char *path, unsigned no,
		      const char *key, const char *val, char *err, size_t errlen)
{
	long long v;

	if (!strcmp(key, "disk")) {
		if (strcmp(val, disk))
			return BAD(no, "names disk %.64s, but the file is %s's", val, disk);
		memcpy(j->saved.disk, disk, strlen(disk) + 1);
	} else if (!strcmp(key, "devno")) {
		if (!parse_devno(val, &j->saved.devno))
			return BAD(no, "'%.40s' is not a device number MAJ:MIN", val);
	} else if (!strcmp(key, "pid")) {
		if (tune_parse_dec(val, &v) || v < 1 || v > INT_MAX)
			return BAD(no, "'%.40s' is not a process id", val);
		j->pid = (pid_t)v;
	} else if (!strcmp(key, "order")) {
		if (!parse_order(val, j->order))
			return BAD(no, "'%.100s' is not every queue setting once, comma separated",
				   val);
	} else {
		if (!shaped(val, "0000-00-00T00:00:00Z"))
			return BAD(no, "'%.40s' is not a UTC time YYYY-MM-DDTHH:MM:SSZ", val);
		memcpy(j->started, val, strlen(val) + 1);
	}
	return 0;
}

/*
 * The text of the journal of disk at path into j (saved.disk, devno,
 * have[], value[], pid, started); line[k] is the line of knob k, *nlines
 * the number of lines. Only the text is looked at: nothing here reads
 * the device. 0, or -EINVAL with "path:LINE: what is wrong".
 */
static int parse(char *text, size_t n, const char *disk, const char *path, struct tune_journal *j,
		 unsigned line[KNOB_COUNT], unsigned *nlines, char *err, size_t errlen)
{
	char *p = text, *nl, *sp, *key, *val;
	enum tune_knob k, next = 0;
	unsigned no = 0, nhead = NHEAD;
	int ret;

	if (!n)
		return BAD(1, "empty: not a diskbench tune journal");
	while (p < text + n) {
		no++;
		nl = memchr(p, '\n', text + n - p);
		if (!nl)
			return BAD(no, "the line has no end: a cut journal");
		*nl = '\0';
		if (strlen(p) != (size_t)(nl - p))
			return BAD(no, "a NUL byte: not a journal");
		key = p;
		p = nl + 1;
		sp = strchr(key, ' ');
		if (no == 1 && (!sp || strncmp(key, JOURNAL_MAGIC " ", sizeof(JOURNAL_MAGIC))))
			return BAD(no, "not a diskbench tune journal");
		if (!sp || sp == key || !sp[1] || strchr(sp + 1, ' '))
			return BAD(no, "'%.40s' is not KEY VALUE", key);
		*sp = '\0';
		val = sp + 1;
		if (no == 1) {
			if (!strcmp(val, "1")) {
				/* before the order was written: the one it was */
				nhead = NHEAD_V1;
				memcpy(j->order, tune_write_order, sizeof(j->order));
			} else if (strcmp(val, JOURNAL_VERSION)) {
				return BAD(no, "journal format '%.16s'; this diskbench reads formats "
					   "1 and " JOURNAL_VERSION, val);
			}
			continue;
		}
		if (no - 2 < nhead) {
			if (strcmp(key, head_keys[no - 2])) {
				if (is_head_key(key) || knob_of(key) < KNOB_COUNT)
					return BAD(no, "%s where the %s line belongs", key,
						   head_keys[no - 2]);
				return BAD(no, "unknown key '%.40s'", key);
			}
			ret = head_value(j, disk, path, no, key, val, err, errlen);
			if (ret)
				return ret;
			continue;
		}
		k = knob_of(key);
		if (k == KNOB_COUNT) {
			if (is_head_key(key))
				return BAD(no, "%s twice", key);
			return BAD(no, "unknown key '%.40s'", key);
		}
		if (k < next)
			return BAD(no, "%s out of order or twice", key);
		if (!tune_value_valid(k, val))
			return BAD(no, "'%.40s' is not a %s value", val, key);
		memcpy(j->saved.value[k], val, strlen(val) + 1);
		j->saved.have[k] = true;
		line[k] = no;
		next = k + 1;
	}
	if (no < 1 + nhead)
		return BAD(no, "ends before its %s line", head_keys[no - 1]);
	*nlines = no;
	return 0;
}

/* j as the text of a journal into buf. Its length, or -ENAMETOOLONG. */
static int format(const struct tune_journal *j, char *buf, size_t len)
{
	const struct tune_queue *q = &j->saved;
	size_t used;
	enum tune_knob k;
	int n;

	n = snprintf(buf, len, JOURNAL_MAGIC " " JOURNAL_VERSION "\ndisk %s\ndevno %u:%u\n"
		     "pid %d\nstarted %s\norder", q->disk, major(q->devno), minor(q->devno),
		     (int)j->pid, j->started);
	for (k = 0; k < KNOB_COUNT && n >= 0 && (size_t)n < len; k++) {
		used = (size_t)n;
		n = snprintf(buf + used, len - used, "%c%s", k ? ',' : ' ',
			     tune_knob_attr(j->order[k]));
		if (n >= 0)
			n += (int)used;
	}
	if (n >= 0 && (size_t)n + 1 < len) {
		buf[n++] = '\n';
		buf[n] = '\0';
	}
	for (k = 0; k < KNOB_COUNT && n >= 0 && (size_t)n < len; k++) {
		if (!q->have[k])
			continue;
		used = (size_t)n;
		n = snprintf(buf + used, len - used, "%s %s\n", tune_knob_attr(k), q->value[k]);
		if (n >= 0)
			n += (int)used;
	}
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : n;
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
		ret = parse(text, n, disk, path, &other, line, &nlines, why, sizeof(why));
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
	n = format(j, text, sizeof(text));
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
	close(dfd);
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
	const char *path = j->path;	/* for BAD() */
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
	ret = parse(text, n, disk, j->path, j, line, &nlines, err, errlen);
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
			return BAD(line[k], "%s has no queue/%s", disk, tune_knob_attr(k));
		if (!j->saved.have[k] && exists)
			return BAD(nlines, "no %s line, but %s has queue/%s", tune_knob_attr(k),
				   disk, tune_knob_attr(k));
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
	if (ret) {
		close(fd);
		return ret;
	}
	j->lock_fd = fd;
	j->locked = true;
	return 0;
}

void tune_journal_release(struct tune_journal *j)
{
	if (!j->locked)
		return;
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

int tune_restore(struct tune_journal *j, char *err, size_t errlen)
{
	const struct tune_queue *q = &j->saved;
	char now[TUNE_VALUE_MAX], diff[1024] = "", name[96];
	bool wrote = false;
	enum tune_knob k;
	dev_t dev;
	int ret, dfd, i;

	if (err && errlen)
		err[0] = '\0';
	if (!tune_disk_name_ok(q->disk))
		return tune_set_err(err, errlen, -EINVAL, "'%.64s' is not a block device name", q->disk);
	if (sysfs_read_devno(&dev, "/sys/block/%s/dev", q->disk) || dev != q->devno)
		return tune_set_err(err, errlen, -ESTALE, "%s is not the device %u:%u the journal %s "
			       "saved; not restored", q->disk, major(q->devno), minor(q->devno),
			       j->path);
	/* in the journal's order: the scheduler before nr_requests, which it
	 * resets, and before wbt_lat_usec, whose default bfq turns off;
	 * max_sectors_kb before read_ahead_kb, which it raises */
	for (i = 0; i < KNOB_COUNT; i++) {
		k = j->order[i];
		if (!q->have[k])
			continue;
		ret = tune_knob_write(q->disk, k, q->value[k]);
		if ((ret == -EACCES || ret == -EPERM || ret == -EROFS) && !wrote)
			return tune_knob_write_err(err, errlen, q->disk, k, q->value[k], ret);
		if (!ret)
			wrote = true;
	}
	/* what did not take shows as a difference; a write error only
	 * says why */
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!q->have[k])
			continue;
		ret = tune_knob_read(q, k, now, sizeof(now));
		if (ret)
			add_err(diff, sizeof(diff), "%s cannot be read: %s", tune_knob_attr(k),
				strerror(-ret));
		else if (!tune_value_same(k, q->value[k], now))
			add_err(diff, sizeof(diff), "%s is %s, not %s", tune_knob_attr(k), now,
				q->value[k]);
	}
	if (diff[0])
		return tune_set_err(err, errlen, -EIO, "%s is not back as %s saved it: %s; the journal "
			       "is kept", q->disk, j->path, diff);

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

/*
 * The writes tune_restore_now() makes, in the journal's order. Built outside the
 * handler, read inside it: narmed is set last, behind a signal fence, so
 * a handler never sees a half-built entry.
 */
static struct {
	char path[128];
	char value[TUNE_VALUE_MAX];
	size_t len;
	char first[TUNE_VALUE_MAX];	/* nr_requests: one off, written before */
	size_t first_len;
	bool scheduler;			/* skipped when it is the active one */
} armed[KNOB_COUNT];
static volatile sig_atomic_t narmed;

void tune_restore_arm(const struct tune_journal *j)
{
	const struct tune_queue *q = &j->saved;
	enum tune_knob k;
	int n = 0, i;

	narmed = 0;
	atomic_signal_fence(memory_order_seq_cst);
	for (i = 0; i < KNOB_COUNT; i++) {
		k = j->order[i];
		if (!q->have[k] ||
		    tune_knob_path(q->disk, k, armed[n].path, sizeof(armed[n].path)))
			continue;
		armed[n].len = strlen(q->value[k]);
		memcpy(armed[n].value, q->value[k], armed[n].len + 1);
		armed[n].first_len = 0;
		if (k == KNOB_NR_REQUESTS &&
		    !tune_nr_nudge(q->value[k], armed[n].first, sizeof(armed[n].first)))
			armed[n].first_len = strlen(armed[n].first);
		armed[n].scheduler = k == KNOB_SCHEDULER;
		n++;
	}
	atomic_signal_fence(memory_order_seq_cst);
	narmed = n;
}

/* Is name (len bytes) the bracketed, active one in the scheduler file at
 * path? read(2) and byte compares only: for the signal handler. */
static bool sched_active_sigsafe(const char *path, const char *name, size_t len)
{
	char buf[256];
	ssize_t n;
	size_t i, k;
	int fd;

	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf));
	close(fd);
	for (i = 0; n > 0 && i < (size_t)n; i++) {
		if (buf[i] != '[')
			continue;
		for (k = 0; k < len && i + 1 + k < (size_t)n && buf[i + 1 + k] == name[k]; k++)
			;
		return k == len && i + 1 + k < (size_t)n && buf[i + 1 + k] == ']';
	}
	return false;
}

/* Write len bytes of value to path: open, write, close. */
static void write_sigsafe(const char *path, const char *value, size_t len)
{
	ssize_t w;
	int fd;

	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	w = write(fd, value, len);
	(void)w;	/* nothing to do about it here; tune --restore sees it */
	close(fd);
}

void tune_restore_now(void)
{
	int saved_errno = errno, i, n = narmed;

	atomic_signal_fence(memory_order_seq_cst);
	for (i = 0; i < n; i++) {
		/* as tune_knob_write does: no switch to the active scheduler,
		 * nr_requests one off first */
		if (armed[i].scheduler &&
		    sched_active_sigsafe(armed[i].path, armed[i].value, armed[i].len))
			continue;
		if (armed[i].first_len)
			write_sigsafe(armed[i].path, armed[i].first, armed[i].first_len);
		write_sigsafe(armed[i].path, armed[i].value, armed[i].len);
	}
	errno = saved_errno;
}

void tune_restore_disarm(void)
{
	narmed = 0;
}
