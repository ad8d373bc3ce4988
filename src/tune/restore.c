/* restore.c - the settings a journal saved, written back and read back; the signal-time restore. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "journal_int.h"
#include "sysfs.h"
#include "tune.h"
#include "tune_int.h"

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

int tune_restore(struct tune_journal *j, char *err, size_t errlen)
{
	const struct tune_queue *q = &j->saved;
	char now[TUNE_VALUE_MAX], diff[1024] = "";
	bool wrote = false;
	enum tune_knob k;
	dev_t dev;
	int ret, i;

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

	return tune_journal_remove(j, err, errlen);
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
