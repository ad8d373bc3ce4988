/* journal_int.h - the journal's text and file, shared by journal.c, journal_text.c and restore.c (private to tune). */
#ifndef DISKBENCH_JOURNAL_INT_H
#define DISKBENCH_JOURNAL_INT_H

#include <stddef.h>

#include "tune.h"

/* what a journal of every knob holds is a few hundred bytes: more is
 * not one of ours */
#define JOURNAL_MAX 4096

/* journal_text.c: j as the text of a journal into buf. Its length, or
 * -ENAMETOOLONG. */
int tune_journal_format(const struct tune_journal *j, char *buf, size_t len);

/*
 * journal_text.c: the text of the journal of disk at path into j
 * (saved.disk, devno, have[], value[], pid, started, order); line[k] is
 * the line of knob k, *nlines the number of lines. Only the text is
 * looked at: nothing here reads the device. 0, or -EINVAL with
 * "path:LINE: what is wrong". text (n bytes, terminated) is cut up.
 */
int tune_journal_parse(char *text, size_t n, const char *disk, const char *path,
		       struct tune_journal *j, unsigned line[KNOB_COUNT], unsigned *nlines,
		       char *err, size_t errlen);

/* "path:NO: " and the printf into err (when err and errlen); returns
 * -EINVAL: one line of a journal that is not one. */
int tune_journal_bad(char *err, size_t errlen, const char *path, unsigned no, const char *fmt,
		     ...) __attribute__((format(printf, 5, 6)));

/* journal.c: the journal of j, whose settings are back, removed, and its
 * lock released (a new tune may take the disk). 0, or -errno with why in
 * err. */
int tune_journal_remove(struct tune_journal *j, char *err, size_t errlen);

/*
 * devlock.c: the exclusive flock(2) on /dev/<q->disk> (when that is the
 * disk's node), the lock systemd-udevd and util-linux's partitioning and
 * mkfs tools take, so that two tunes with other journal directories, or a
 * tune and such a tool, never change one disk at once. 0 with *fd the
 * locked descriptor, or -1 when there is no such node (the journal's lock
 * alone then); -EBUSY naming the holder (from /proc/locks) when another
 * holds it, or -errno.
 */
int tune_devlock_take(const struct tune_queue *q, int *fd, char *err, size_t errlen);

#endif
