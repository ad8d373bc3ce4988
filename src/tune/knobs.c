/* knobs.c - a block device's queue settings: which queue, read, checked, written back. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "sysfs.h"
#include "tune.h"
#include "tune_int.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * What each knob takes. min..max is what a person may ask for (the kernel's
 * own limits, so a refusal comes with a reason rather than a bare EINVAL);
 * rmin..rmax what a read of it may show, which the journal parser accepts:
 * a device may start below what may be asked (nr_requests 2 on a queue of
 * depth 2), and must be restorable to it.
 */
struct knob_def {
	const char *attr, *option;
	const char *what;	/* "a number of KiB", for "'abc' is not ..." */
	const char *unit;	/* " KiB" after a number, or "" */
	long long min, max;
	long long rmin, rmax;
};

static const struct knob_def knobs[KNOB_COUNT] = {
	[KNOB_SCHEDULER] = { .attr = "scheduler", .option = "scheduler",
			     .what = "a scheduler name", .unit = "" },
	/* the kernel keeps pages: what is not a multiple of one reads back
	 * rounded down, which tune_apply reports */
	[KNOB_READ_AHEAD] = { .attr = "read_ahead_kb", .option = "read-ahead",
			      .what = "a number of KiB", .unit = " KiB",
			      .min = 0, .max = 1ll << 31, .rmin = 0, .rmax = UINT_MAX },
	/* below 4 (BLKDEV_MIN_RQ) the kernel silently keeps 4 */
	[KNOB_NR_REQUESTS] = { .attr = "nr_requests", .option = "nr-requests",
			       .what = "a number of requests", .unit = "",
			       .min = 4, .max = 1ll << 20, .rmin = 1, .rmax = UINT_MAX },
	/* min..max: a page .. max_hw_sectors_kb, from the queue (0 would
	 * mean "the default" to a recent kernel: not a size) */
	[KNOB_MAX_SECTORS] = { .attr = "max_sectors_kb", .option = "max-sectors",
			       .what = "a number of KiB", .unit = " KiB",
			       .min = 4, .max = UINT_MAX, .rmin = 1, .rmax = UINT_MAX },
	/* 0 merges, 1 only simple one-hit merges, 2 none */
	[KNOB_NOMERGES] = { .attr = "nomerges", .option = "nomerges",
			    .what = "0, 1 or 2 (0 merges, 1 tries only simple merges, 2 never merges)",
			    .unit = "", .min = 0, .max = 2, .rmin = 0, .rmax = 2 },
	/* -1 puts back the kernel's default, 0 turns throttling off */
	[KNOB_WBT] = { .attr = "wbt_lat_usec", .option = "wbt",
		       .what = "a latency in us (0 off, -1 the default)", .unit = " us",
		       .min = -1, .max = 1ll << 30, .rmin = -1, .rmax = LLONG_MAX / 1000 },
};

const char *tune_knob_attr(enum tune_knob k)
{
	return (unsigned)k < KNOB_COUNT ? knobs[k].attr : NULL;
}

const char *tune_knob_option(enum tune_knob k)
{
	return (unsigned)k < KNOB_COUNT ? knobs[k].option : NULL;
}

int tune_set_err(char *err, size_t errlen, int ret, const char *fmt, ...)
{
	va_list ap;

	if (err && errlen) {
		va_start(ap, fmt);
		vsnprintf(err, errlen, fmt, ap);
		va_end(ap);
	}
	return ret;
}

int tune_parse_dec(const char *s, long long *out)
{
	const char *p = s;
	long long v = 0;
	int d;

	if (*p == '-')
		p++;
	if (!*p)
		return -EINVAL;
	for (; *p; p++) {
		if (*p < '0' || *p > '9')
			return -EINVAL;
		d = *p - '0';
		if (v > (LLONG_MAX - d) / 10)
			return -ERANGE;
		v = v * 10 + d;
	}
	*out = s[0] == '-' ? -v : v;
	return 0;
}

/* A scheduler name as the kernel spells them: "mq-deadline", "bfq". */
static bool sched_name_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n >= TUNE_VALUE_MAX)
		return false;
	return strspn(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") == n;
}

/* Is word one of the space-separated words of list? */
static bool word_in(const char *list, const char *word)
{
	size_t n = strlen(word);
	const char *p = list;

	while (*p) {
		p += strspn(p, " ");
		if (strcspn(p, " ") == n && !strncmp(p, word, n))
			return true;
		p += strcspn(p, " ");
	}
	return false;
}

/* "none [mq-deadline] kyber" -> "mq-deadline"; a list without brackets
 * (a single "none") -> its first word. */
static void sched_active(char *dst, size_t len, const char *s)
{
	const char *open = strchr(s, '['), *close = open ? strchr(open, ']') : NULL;

	if (open && close)
		snprintf(dst, len, "%.*s", (int)(close - open - 1), open + 1);
	else
		snprintf(dst, len, "%.*s", (int)strcspn(s, " \t"), s);
}

/* "none [mq-deadline] kyber" -> "none mq-deadline kyber" */
static void sched_list(char *dst, size_t len, const char *s)
{
	size_t n = 0;

	for (; *s && n + 1 < len; s++)
		if (*s != '[' && *s != ']')
			dst[n++] = *s;
	dst[n] = '\0';
}

bool tune_disk_name_ok(const char *name)
{
	size_t n = strlen(name);

	return n > 0 && n < sizeof(((struct tune_queue *)0)->disk) && name[0] != '.' &&
	       strspn(name, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			    "_.:+-!") == n;
}

/* Scheduler first: it resets nr_requests. max_sectors_kb before
 * read_ahead_kb: a change of the queue's limits raises read-ahead to at
 * least 128 KiB (the kernel never lowers it there). */
const enum tune_knob tune_write_order[KNOB_COUNT] = {
	KNOB_SCHEDULER, KNOB_MAX_SECTORS, KNOB_READ_AHEAD, KNOB_NR_REQUESTS, KNOB_NOMERGES,
	KNOB_WBT,
};

int tune_knob_path(const char *disk, enum tune_knob k, char *path, size_t len)
{
	int n;

	if ((unsigned)k >= KNOB_COUNT)
		return -EINVAL;
	n = snprintf(path, len, "/sys/block/%s/queue/%s", disk, knobs[k].attr);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

/* Knob k of disk as the file has it (the scheduler with its brackets),
 * without a cut: -EOVERFLOW when it does not fit. */
static int read_raw(const char *disk, enum tune_knob k, char *buf, size_t len)
{
	char path[PATH_MAX];
	int ret;

	ret = tune_knob_path(disk, k, path, sizeof(path));
	if (ret)
		return ret;
	ret = sysfs_read(buf, len, "%s", path);
	if (ret)
		return ret;
	return strlen(buf) + 1 >= len ? -EOVERFLOW : 0;
}

/* The value of knob k of disk: for the scheduler, the active one. */
static int read_value(const char *disk, enum tune_knob k, char *buf, size_t len)
{
	char raw[256], active[256];
	const char *v = raw;
	int ret;

	ret = read_raw(disk, k, raw, sizeof(raw));
	if (ret)
		return ret;
	if (k == KNOB_SCHEDULER) {
		sched_active(active, sizeof(active), raw);
		v = active;
	}
	if (strlen(v) >= len)
		return -EOVERFLOW;
	memcpy(buf, v, strlen(v) + 1);
	return 0;
}

int tune_knob_read(const struct tune_queue *q, enum tune_knob k, char *buf, size_t len)
{
	if ((unsigned)k >= KNOB_COUNT || !len)
		return -EINVAL;
	return read_value(q->disk, k, buf, len);
}

int tune_queue_present(const struct tune_queue *q, char *err, size_t errlen)
{
	uint64_t sectors;
	dev_t now;

	if (sysfs_read_devno(&now, "/sys/block/%s/dev", q->disk))
		return tune_set_err(err, errlen, -ENODEV, "%s is gone from /sys/block (removed?)",
				    q->disk);
	if (now != q->devno)
		return tune_set_err(err, errlen, -ENODEV, "%s is another device now (%u:%u, not "
				    "%u:%u): the one tuned was removed", q->disk, major(now),
				    minor(now), major(q->devno), minor(q->devno));
	/* a loop device outlives its backing file: detached, it reads 0 */
	if (!sysfs_read_u64(&sectors, "/sys/block/%s/size", q->disk) && !sectors)
		return tune_set_err(err, errlen, -ENODEV, "%s has no medium any more (size 0: a "
				    "loop device detached, a drive ejected?)", q->disk);
	return 0;
}

/* value to knob k of disk: open, one write, close. 0 or -errno. */
static int write_attr(const char *disk, enum tune_knob k, const char *value)
{
	char path[PATH_MAX];
	size_t n = strlen(value);
	ssize_t w;
	int fd, ret;

	ret = tune_knob_path(disk, k, path, sizeof(path));
	if (ret)
		return ret;
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	/* one write: sysfs takes a store whole, and a second one would be
	 * a second store */
	w = write(fd, value, n);
	ret = w < 0 ? -errno : (size_t)w != n ? -EIO : 0;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int tune_nr_nudge(const char *value, char *buf, size_t len)
{
	long long v;
	int n;

	if (tune_parse_dec(value, &v) || v < 1 || v >= LLONG_MAX)
		return -EINVAL;
	n = snprintf(buf, len, "%lld", v > 4 ? v - 1 : v + 1);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int tune_knob_write(const char *disk, enum tune_knob k, const char *value)
{
	char now[TUNE_VALUE_MAX];

	/* the active scheduler is not written again: the kernel takes that
	 * as a switch, which on a queue without one (none) resets
	 * nr_requests to the tag set's depth and leaves the tags as they
	 * were (below) */
	if (k == KNOB_SCHEDULER && !read_value(disk, k, now, sizeof(now)) && !strcmp(now, value))
		return 0;
	/*
	 * A queue switched back to "none" reads nr_requests as its tag
	 * set's depth while its tags keep the depth an earlier write gave
	 * them (6.18: nr_requests 4, a switch to none, and nr_requests
	 * reads 128 while the queue still holds 4 requests at a time). A
	 * write of the value read is then no resize: the kernel compares
	 * with the number, not the tags. Another value first makes the
	 * second write a real one; a refusal of that first one (a depth
	 * already at its least or most) is harmless.
	 */
	if (k == KNOB_NR_REQUESTS && !tune_nr_nudge(value, now, sizeof(now)))
		write_attr(disk, k, now);
	return write_attr(disk, k, value);
}

int tune_knob_write_err(char *err, size_t errlen, const char *disk, enum tune_knob k,
			const char *value, int ret)
{
	switch (ret) {
	case -EROFS:
		return tune_set_err(err, errlen, ret, "cannot change queue settings of %s: /sys is "
			       "read-only", disk);
	case -EACCES:
	case -EPERM:
		return tune_set_err(err, errlen, -EACCES, "cannot change queue settings of %s: "
			       "permission denied (it takes root)", disk);
	case -ENOENT:
		return tune_set_err(err, errlen, ret, "%s has no queue/%s", disk, knobs[k].attr);
	case -EINVAL:
		return tune_set_err(err, errlen, ret, "the kernel refuses %s %s: %s", knobs[k].attr,
			       value, strerror(-ret));
	}
	return tune_set_err(err, errlen, ret, "cannot write %s to queue/%s of %s: %s", value,
		       knobs[k].attr, disk, strerror(-ret));
}

bool tune_value_valid(enum tune_knob k, const char *value)
{
	long long v;

	if ((unsigned)k >= KNOB_COUNT)
		return false;
	if (k == KNOB_SCHEDULER)
		return sched_name_ok(value);
	return !tune_parse_dec(value, &v) && v >= knobs[k].rmin && v <= knobs[k].rmax;
}

bool tune_value_same(enum tune_knob k, const char *wanted, const char *value)
{
	long long a, b;

	if (k == KNOB_SCHEDULER)
		return !strcmp(wanted, value);
	if (tune_parse_dec(wanted, &a) || tune_parse_dec(value, &b))
		return false;
	/* -1 asks for the default, which reads back as what it is */
	if (k == KNOB_WBT && a == -1)
		return b >= 0;
	return a == b;
}

int tune_knob_check(const struct tune_queue *q, enum tune_knob k, const char *value, char *err,
		    size_t errlen)
{
	const struct knob_def *d;
	long long v, min, max;
	uint64_t hw;
	long page;
	int ret;

	if (err && errlen)
		err[0] = '\0';
	if ((unsigned)k >= KNOB_COUNT)
		return tune_set_err(err, errlen, -EINVAL, "no such queue setting");
	d = &knobs[k];
	if (!q->have[k])
		return tune_set_err(err, errlen, -EINVAL, "--%s: %s has no queue/%s", d->option,
			       q->disk, d->attr);
	if (!value || !*value)
		return tune_set_err(err, errlen, -EINVAL, "--%s: no value", d->option);
	if (k == KNOB_SCHEDULER) {
		if (!sched_name_ok(value) || !word_in(q->schedulers, value))
			return tune_set_err(err, errlen, -EINVAL, "--scheduler: '%s' is not one %s "
				       "offers (%s)", value, q->disk, q->schedulers);
		return 0;
	}
	ret = tune_parse_dec(value, &v);
	if (ret == -EINVAL || (k == KNOB_NOMERGES && (ret || v < d->min || v > d->max)))
		return tune_set_err(err, errlen, -EINVAL, "--%s: '%s' is not %s", d->option, value,
			       d->what);
	min = d->min;
	max = d->max;
	if (k == KNOB_MAX_SECTORS) {
		page = sysconf(_SC_PAGESIZE);
		if (page >= 1024)
			min = page / 1024;
		if (q->max_hw_sectors_kb[0]) {
			if (sscanf(q->max_hw_sectors_kb, "%" SCNu64, &hw) == 1 && hw <= UINT_MAX)
				max = (long long)hw;
		}
		if (ret == -ERANGE || v > max)
			return tune_set_err(err, errlen, -EINVAL, "--max-sectors: %s KiB is more than "
				       "%s takes (max_hw_sectors_kb %lld)", value, q->disk, max);
		if (v < min)
			return tune_set_err(err, errlen, -EINVAL, "--max-sectors: %s KiB is less "
				       "than a page, %lld KiB", value, min);
		return 0;
	}
	if (ret == -ERANGE || v > max)
		return tune_set_err(err, errlen, -EINVAL, "--%s: %s%s is more than the kernel "
			       "takes, %lld%s", d->option, value, d->unit, max, d->unit);
	if (v < min) {
		if (k == KNOB_NR_REQUESTS)
			return tune_set_err(err, errlen, -EINVAL, "--nr-requests: %s is fewer than "
				       "4, the kernel's least (it would keep 4 without a word)",
				       value);
		return tune_set_err(err, errlen, -EINVAL, "--%s: '%s' is not %s", d->option, value,
			       d->what);
	}
	return 0;
}

/* Does /sys/block/<disk>/slaves list any device? */
static bool has_slaves(const char *disk)
{
	char path[PATH_MAX];
	struct dirent *de;
	bool any = false;
	DIR *d;

	snprintf(path, sizeof(path), "/sys/block/%s/slaves", disk);
	d = opendir(path);
	if (!d)
		return false;
	while (!any && (de = readdir(d)))
		any = strcmp(de->d_name, ".") && strcmp(de->d_name, "..");
	closedir(d);
	return any;
}

/* What kind of stacked device disk is, "a device-mapper device (LVM)",
 * into buf; NULL for a device not built on others. */
static const char *stacked_kind(const char *disk, char *buf, size_t len)
{
	const struct sysfs_layer *layer;
	bool dm;

	layer = sysfs_layer_of(disk, &dm);
	if (dm && layer)
		snprintf(buf, len, "a device-mapper device (%s)", layer->name);
	else if (dm)
		snprintf(buf, len, "a device-mapper device");
	else if (layer)
		/* "md RAID", "bcache": the article follows the sound */
		snprintf(buf, len, "%s %s device", layer->name[0] == 'm' ? "an" : "a",
			 layer->name);
	else if (has_slaves(disk))
		snprintf(buf, len, "a stacked device");
	else
		return NULL;
	return buf;
}

/* q->why: which queue this is and why, for a person. */
static void describe(const struct target_info *ti, struct tune_queue *q)
{
	char kind[96], on[160] = "", what[192];
	const char *stacked = stacked_kind(q->disk, kind, sizeof(kind));
	char path[PATH_MAX];
	bool loop;

	if (ti->kind != TARGET_BLOCK)
		snprintf(on, sizeof(on), "a %s on %s%s%s%s; ",
			 ti->kind == TARGET_DIR ? "directory" : "file", ti->device,
			 ti->fs_type[0] ? " (" : "", ti->fs_type, ti->fs_type[0] ? ")" : "");
	if (stacked)
		snprintf(what, sizeof(what), "%s is %s: its own queue is tuned, not those of the "
			 "disks under it, whose I/O it shapes", q->disk, stacked);
	else {
		snprintf(path, sizeof(path), "/sys/block/%s/loop", q->disk);
		loop = !access(path, F_OK);
		snprintf(what, sizeof(what), "%s is %s: its own queue", q->disk,
			 loop ? "a loop device" : "a whole disk");
	}
	if (ti->device[0] && strcmp(ti->device, q->disk))
		snprintf(q->why, sizeof(q->why), "%s%s is a partition: its disk's queue, %s%s%s",
			 on, ti->device, q->disk, stacked ? "; " : "", stacked ? what : "");
	else
		snprintf(q->why, sizeof(q->why), "%s%s", on, what);
}

int tune_queue_probe(const struct target_info *ti, struct tune_queue *q, char *err, size_t errlen)
{
	char raw[256], val[256], path[PATH_MAX];
	enum tune_knob k;
	int ret;

	memset(q, 0, sizeof(*q));
	if (err && errlen)
		err[0] = '\0';
	if (!ti->disk[0]) {
		if (ti->fs_type[0])
			return tune_set_err(err, errlen, -ENODEV, "no block device queue behind %s "
				       "(%s): nothing to tune", ti->path, ti->fs_type);
		return tune_set_err(err, errlen, -ENODEV, "no block device queue behind %s: nothing "
			       "to tune", ti->path);
	}
	if (!tune_disk_name_ok(ti->disk))
		return tune_set_err(err, errlen, -EINVAL, "'%s' is not a block device name", ti->disk);
	memcpy(q->disk, ti->disk, strlen(ti->disk) + 1);

	ret = sysfs_read_devno(&q->devno, "/sys/block/%s/dev", q->disk);
	if (ret)
		return tune_set_err(err, errlen, ret == -ENOENT ? -ENODEV : ret, "no device number "
			       "for %s in /sys/block: %s", q->disk, strerror(-ret));
	/* zoned writes must reach the device in order, which its scheduler
	 * (mq-deadline's zone locking) sees to: not a knob to sweep */
	if (!sysfs_read(raw, sizeof(raw), "/sys/block/%s/queue/zoned", q->disk) &&
	    strcmp(raw, "none"))
		return tune_set_err(err, errlen, -EOPNOTSUPP, "%s is a zoned device (%s): its "
			       "writes must reach it in order, which its scheduler ensures; "
			       "tune leaves its queue alone", q->disk, raw);

	for (k = 0; k < KNOB_COUNT; k++) {
		ret = read_raw(q->disk, k, raw, sizeof(raw));
		if (ret == -ENOENT)
			continue;	/* wbt_lat_usec needs CONFIG_BLK_WBT */
		if (!ret && k == KNOB_SCHEDULER) {
			sched_list(q->schedulers, sizeof(q->schedulers), raw);
			if (strlen(q->schedulers) + 1 >= sizeof(q->schedulers))
				ret = -EOVERFLOW;
			sched_active(val, sizeof(val), raw);
		} else if (!ret) {
			memcpy(val, raw, strlen(raw) + 1);
		}
		if (!ret && strlen(val) >= sizeof(q->value[k]))
			ret = -EOVERFLOW;
		else if (!ret && !tune_value_valid(k, val))
			ret = -EINVAL;
		if (ret) {
			tune_knob_path(q->disk, k, path, sizeof(path));
			return tune_set_err(err, errlen, ret, "cannot read %s: %s", path,
				       ret == -EINVAL ? "not a value tune knows" :
				       ret == -EOVERFLOW ? "longer than tune takes" :
				       strerror(-ret));
		}
		memcpy(q->value[k], val, strlen(val) + 1);
		q->have[k] = true;
	}
	if (sysfs_read(q->max_hw_sectors_kb, sizeof(q->max_hw_sectors_kb),
		       "/sys/block/%s/queue/max_hw_sectors_kb", q->disk))
		q->max_hw_sectors_kb[0] = '\0';
	describe(ti, q);
	return 0;
}

/* Checks tune_apply makes before it writes anything: a value for every
 * knob q has, of a shape sysfs takes as one store. */
static int apply_precheck(const struct tune_queue *q, const char *const values[KNOB_COUNT],
			  char *err, size_t errlen)
{
	enum tune_knob k;
	const char *v;

	for (k = 0; k < KNOB_COUNT; k++) {
		v = values[k];
		if (!v || !*v)	/* not asked for, or TUNE_AS_KERNEL */
			continue;
		if (!q->have[k])
			return tune_set_err(err, errlen, -EINVAL, "%s has no queue/%s", q->disk,
				       knobs[k].attr);
		/* a newline or space would make the kernel see another value
		 * than the one read back and reported */
		if (!*v || strlen(v) >= TUNE_VALUE_MAX ||
		    strcspn(v, " \t\n\r\v\f") != strlen(v))
			return tune_set_err(err, errlen, -EINVAL, "%s: '%.*s' is not a value",
				       knobs[k].attr, TUNE_VALUE_MAX, v);
	}
	return 0;
}

/* Which knob other than k is given a value other than the one q found:
 * the scheduler first (its switch moves the most), KNOB_COUNT if none. */
static enum tune_knob moved_by(const struct tune_queue *q, const char *const values[KNOB_COUNT],
			       enum tune_knob k)
{
	enum tune_knob j, found = KNOB_COUNT;

	for (j = 0; j < KNOB_COUNT && found == KNOB_COUNT; j++) {
		if (j == k || !values[j] || !*values[j] || !q->have[j])
			continue;
		if (!tune_value_same(j, q->value[j], values[j]))
			found = j;
	}
	return found;
}

/* Read back what tune_apply wrote; the differences into err, "; "-separated,
 * but those fx takes as side effects (see tune_apply_fx). 0 or -EINVAL. */
static int read_back(const struct tune_queue *q, const char *const values[KNOB_COUNT],
		     const char *const written[KNOB_COUNT], struct tune_effects *fx, char *err,
		     size_t errlen)
{
	char now[TUNE_VALUE_MAX], *p;
	size_t used = 0;
	enum tune_knob k, cause;
	int ret = 0;

	for (k = 0; k < KNOB_COUNT; k++) {
		if (!written[k])
			continue;
		if (read_value(q->disk, k, now, sizeof(now)))
			snprintf(now, sizeof(now), "(unreadable)");
		if (tune_value_same(k, written[k], now))
			continue;
		cause = moved_by(q, values, k);
		if (fx && strcmp(now, "(unreadable)") && tune_value_same(k, q->value[k], written[k]) &&
		    cause < KNOB_COUNT && fx->n < KNOB_COUNT) {
			struct tune_effect *e = &fx->e[fx->n++];

			e->knob = k;
			e->cause = cause;
			snprintf(e->wanted, sizeof(e->wanted), "%s", written[k]);
			snprintf(e->kept, sizeof(e->kept), "%s", now);
			continue;
		}
		ret = -EINVAL;
		if (!err || !errlen || used + 1 >= errlen)
			continue;
		p = err + used;
		snprintf(p, errlen - used, "%s%s: wrote %s, the kernel keeps %s", used ? "; " : "",
			 knobs[k].attr, written[k], now);
		used += strlen(p);
	}
	if (ret && fx)
		fx->n = 0;
	return ret;
}

int tune_apply(const struct tune_queue *q, const char *const values[KNOB_COUNT], char *err,
	       size_t errlen)
{
	return tune_apply_fx(q, values, NULL, err, errlen);
}

int tune_apply_fx(const struct tune_queue *q, const char *const values[KNOB_COUNT],
		  struct tune_effects *fx, char *err, size_t errlen)
{
	char before[KNOB_COUNT][TUNE_VALUE_MAX], now[TUNE_VALUE_MAX];
	const char *written[KNOB_COUNT] = { NULL };
	bool keep[KNOB_COUNT] = { false };
	enum tune_knob k;
	const char *v;
	int ret, i;

	if (err && errlen)
		err[0] = '\0';
	if (fx)
		fx->n = 0;
	ret = apply_precheck(q, values, err, errlen);
	if (ret)
		return ret;
	/* what is not asked for stays as it is, though a write of another
	 * knob moves it: a new scheduler resets nr_requests to its own
	 * default, a new max_sectors_kb raises read_ahead_kb to 128 KiB */
	keep[KNOB_NR_REQUESTS] = values[KNOB_SCHEDULER] && !values[KNOB_NR_REQUESTS];
	keep[KNOB_READ_AHEAD] = values[KNOB_MAX_SECTORS] && !values[KNOB_READ_AHEAD];
	if (keep[KNOB_NR_REQUESTS] && q->have[KNOB_SCHEDULER]) {
		ret = read_value(q->disk, KNOB_SCHEDULER, now, sizeof(now));
		if (ret)
			return tune_set_err(err, errlen, ret, "cannot read queue/scheduler of %s: %s",
				       q->disk, strerror(-ret));
		/* the same scheduler is not written again: nothing is reset */
		keep[KNOB_NR_REQUESTS] = strcmp(now, values[KNOB_SCHEDULER]) != 0;
	}
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!keep[k] || !q->have[k]) {
			keep[k] = false;
			continue;
		}
		ret = read_value(q->disk, k, before[k], sizeof(before[k]));
		if (ret)
			return tune_set_err(err, errlen, ret, "cannot read queue/%s of %s: %s",
				       knobs[k].attr, q->disk, strerror(-ret));
	}

	for (i = 0; i < KNOB_COUNT; i++) {
		k = tune_write_order[i];
		if (!values[k] || !*values[k])
			continue;
		ret = tune_knob_write(q->disk, k, values[k]);
		if (ret)
			return tune_knob_write_err(err, errlen, q->disk, k, values[k], ret);
		written[k] = values[k];
	}
	for (k = 0; k < KNOB_COUNT; k++) {
		if (!keep[k])
			continue;
		v = before[k];
		/* nr_requests even when it reads as before: after a switch to
		 * none that number may not be what the tags hold (see
		 * tune_knob_write) */
		if (k != KNOB_NR_REQUESTS && !read_value(q->disk, k, now, sizeof(now)) &&
		    !strcmp(now, v))
			continue;
		ret = tune_knob_write(q->disk, k, v);
		if (ret) {
			tune_knob_write_err(err, errlen, q->disk, k, v, ret);
			if (ret == -EINVAL && err && errlen)
				snprintf(err + strlen(err), errlen - strlen(err), " (what it was "
					 "before; give --%s)", knobs[k].option);
			return ret == -EPERM ? -EACCES : ret;
		}
		written[k] = v;
	}
	/* the kernel may keep another value than it was given without an
	 * error (nr_requests 3 reads back 4): every knob is read back */
	return read_back(q, values, written, fx, err, errlen);
}
