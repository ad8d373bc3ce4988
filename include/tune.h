/* tune.h - a block device's queue settings: read, change, journal and restore them. */
#ifndef DISKBENCH_TUNE_H
#define DISKBENCH_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "target.h"

/* The queue settings tune knows, in the order they are applied: the
 * scheduler first, because setting it resets nr_requests. */
enum tune_knob {
	KNOB_SCHEDULER,		/* queue/scheduler: the active one, by name */
	KNOB_READ_AHEAD,	/* queue/read_ahead_kb: KiB */
	KNOB_NR_REQUESTS,	/* queue/nr_requests */
	KNOB_MAX_SECTORS,	/* queue/max_sectors_kb: KiB */
	KNOB_NOMERGES,		/* queue/nomerges: 0, 1 or 2 */
	KNOB_WBT,		/* queue/wbt_lat_usec: us, 0 off, -1 the default */
	KNOB_COUNT
};

/* "scheduler", "read_ahead_kb", ... (the sysfs name under queue/) and
 * "scheduler", "read-ahead", ... (the option, without "--"). */
const char *tune_knob_attr(enum tune_knob k);
const char *tune_knob_option(enum tune_knob k);

#define TUNE_VALUE_MAX 64

/* The queue tune changes, and its settings as they were read. */
struct tune_queue {
	char disk[64];		/* its sysfs name: "sda", "loop3" */
	dev_t devno;		/* the disk's device number (the journal checks it) */
	char why[256];		/* which queue this is and why, for a person: "sda1 is
				 * a partition: its disk's queue, sda" */
	bool have[KNOB_COUNT];	/* the attribute exists (wbt_lat_usec may not) */
	char value[KNOB_COUNT][TUNE_VALUE_MAX];	/* as read; the active scheduler
						 * without brackets */
	char schedulers[128];	/* every scheduler offered, space separated */
	char max_hw_sectors_kb[32];	/* the largest max_sectors_kb may be */
};

/*
 * The queue behind target ti: the device itself, a partition's disk, the
 * device under a file or directory. Fills q with its current settings.
 * Returns 0, or -errno with a one-line reason in err:
 *   -ENODEV      no block device queue (tmpfs, overlay, a network file system)
 *   -EOPNOTSUPP  a zoned device (its writes depend on its scheduler)
 * Never prints, changes nothing.
 */
int tune_queue_probe(const struct target_info *ti, struct tune_queue *q, char *err,
		     size_t errlen);

/*
 * Is value one the knob can take on q (a scheduler q offers, a number in the
 * kernel's range)? 0, or -EINVAL with the reason in err. Writes nothing.
 */
int tune_knob_check(const struct tune_queue *q, enum tune_knob k, const char *value, char *err,
		    size_t errlen);

/*
 * Set each knob of q to values[k] (NULL: leave it) in the order of enum
 * tune_knob, then read every one back; a knob set earlier in the call that
 * the scheduler reset is set again. Returns 0; -EACCES/-EROFS when sysfs
 * cannot be written; -EINVAL when the kernel refuses or changes a value (err
 * names the knob, the value and what the kernel said or kept).
 */
int tune_apply(const struct tune_queue *q, const char *const values[KNOB_COUNT], char *err,
	       size_t errlen);

/* Read knob k of q now into buf. 0 or -errno. */
int tune_knob_read(const struct tune_queue *q, enum tune_knob k, char *buf, size_t len);

/*
 * The journal: before tune changes anything, the settings it found go to
 * TUNE_JOURNAL_DIR/<disk>.journal (written to a temporary file, synced,
 * renamed), with the process id and the time; tune_restore() puts them back
 * and the journal is removed only once every value reads back as it was.
 * The directory may be moved for tests with $DISKBENCH_TUNE_JOURNALS.
 */
#define TUNE_JOURNAL_DIR "/run/diskbench"

struct tune_journal {
	struct tune_queue saved;	/* disk, devno, have[] and value[] */
	pid_t pid;			/* the tune that wrote it */
	char started[32];		/* ISO 8601 UTC */
	char path[512];			/* where it is */
};

/* The journal directory in use (TUNE_JOURNAL_DIR or the environment's). */
const char *tune_journal_dir(void);

/* Write q's settings as the journal of q->disk. -EEXIST (err says whose,
 * since when, and the command to restore) when one is there already;
 * other -errno when it cannot be written. */
int tune_journal_write(const struct tune_queue *q, struct tune_journal *j, char *err,
		       size_t errlen);

/* Read the journal of disk. 0; -ENOENT when there is none; -EINVAL for a
 * corrupt one (err: FILE:LINE: what is wrong); -ESTALE for a foreign one
 * (it names another device number than disk has now). Nothing is guessed. */
int tune_journal_read(const char *disk, struct tune_journal *j, char *err, size_t errlen);

/* The disks that have a journal, space separated, into buf; their count. */
int tune_journal_list(char *buf, size_t len);

/*
 * Put back what j saved: the scheduler first (it resets nr_requests), then
 * the others; then read every one back. Returns 0 and removes the journal
 * when all read back as saved; else -EIO with the knobs that differ in err,
 * the journal kept.
 */
int tune_restore(struct tune_journal *j, char *err, size_t errlen);

/* For a signal handler: tune_restore_arm() prepares the writes of j (in
 * static storage); tune_restore_now() makes them with open/write/close only,
 * async-signal-safe, without reading back or removing the journal (a later
 * tune --restore does that). tune_restore_disarm() after a normal restore. */
void tune_restore_arm(const struct tune_journal *j);
void tune_restore_now(void);
void tune_restore_disarm(void);

#endif
