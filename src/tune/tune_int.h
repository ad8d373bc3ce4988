/* tune_int.h - what knobs.c lends journal.c: sysfs writes and value shapes (private to tune). */
#ifndef DISKBENCH_TUNE_INT_H
#define DISKBENCH_TUNE_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "tune.h"

/* Is name a plausible sysfs block device name ("sda", "dm-0", "nvme0n1")
 * that is safe in a path: no '/', no leading '.', shorter than
 * sizeof(struct tune_queue.disk)? */
bool tune_disk_name_ok(const char *name);

/* The order tune_apply, tune_restore and tune_restore_now write knobs in
 * (the kernel's side effects decide it: see knobs.c). */
extern const enum tune_knob tune_write_order[KNOB_COUNT];

/* /sys/block/<disk>/queue/<attr of k> into path. 0 or -ENAMETOOLONG. */
int tune_knob_path(const char *disk, enum tune_knob k, char *path, size_t len);

/* Write value to knob k of disk: open, one write, close. The active
 * scheduler is not written again; nr_requests is written one off first,
 * then as asked, so the kernel resizes its tags (see knobs.c). 0 or
 * -errno. */
int tune_knob_write(const char *disk, enum tune_knob k, const char *value);

/* The value one off nr_requests value that tune_knob_write writes first,
 * into buf. 0 or -EINVAL. */
int tune_nr_nudge(const char *value, char *buf, size_t len);

/* The message for tune_knob_write's error ret, into err; returns ret,
 * with EPERM made -EACCES. */
int tune_knob_write_err(char *err, size_t errlen, const char *disk, enum tune_knob k,
			const char *value, int ret);

/* printf into err (when err and errlen), then return ret: one line for an
 * error path. */
int tune_set_err(char *err, size_t errlen, int ret, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* s as a plain decimal: an optional '-', then digits and nothing else (no
 * space, '+', "0x" or unit). 0, -EINVAL, or -ERANGE past long long; *out
 * is set only on 0. */
int tune_parse_dec(const char *s, long long *out);

/* Could knob k have read value (a journal holds what was read)? A wider
 * range than tune_knob_check's, which is for what a person asks. */
bool tune_value_valid(enum tune_knob k, const char *value);

/* Does value, read back, mean the same as wanted (numbers compared as
 * numbers; wbt_lat_usec -1, "the default", matches whatever it reads)? */
bool tune_value_same(enum tune_knob k, const char *wanted, const char *value);

#endif
