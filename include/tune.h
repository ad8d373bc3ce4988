/* tune.h - a block device's queue settings: read, change, journal and restore them. */
#ifndef DISKBENCH_TUNE_H
#define DISKBENCH_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "target.h"

/* The queue settings tune knows, in the order a journal lists them. They
 * are written in another: the scheduler first, because setting it resets
 * nr_requests; max_sectors_kb before read_ahead_kb, because a change of the
 * queue's limits raises read-ahead to at least 128 KiB. */
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
 * "scheduler", "read-ahead", "nr-requests", "max-sectors", "nomerges",
 * "wbt" (the option, without "--"). NULL for k out of range. */
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
 * device under a file or directory; for a stacked device (device-mapper,
 * md) its own queue, not those under it. Fills q with its current settings
 * (every knob that exists; a device offering the "none" scheduler only is
 * no error here). Returns 0, or -errno with a one-line reason in err:
 *   -ENODEV      no block device queue (tmpfs, overlay, a network file system)
 *   -EOPNOTSUPP  a zoned device (its writes depend on its scheduler)
 * Never prints, changes nothing.
 */
int tune_queue_probe(const struct target_info *ti, struct tune_queue *q, char *err,
		     size_t errlen);

/*
 * Is value one the knob can take on q (a scheduler q offers, a plain decimal
 * in the kernel's range: read_ahead_kb 0..2^31 KiB, nr_requests 4..2^20,
 * max_sectors_kb a page..max_hw_sectors_kb, nomerges 0..2, wbt_lat_usec -1
 * or 0..2^30)? 0, or -EINVAL with the reason in err, naming the option
 * ("--read-ahead: 'abc' is not a number of KiB"). Writes nothing.
 */
int tune_knob_check(const struct tune_queue *q, enum tune_knob k, const char *value, char *err,
		    size_t errlen);

/*
 * Set each knob of q to values[k] (NULL: leave it as it is) in the order
 * given at enum tune_knob, every value given written even if it looks
 * unchanged, but for the scheduler: the active one is not written again,
 * which the kernel would take as a switch. A knob left NULL that another
 * write moves is put back as it was before the call: nr_requests after a
 * new scheduler, read_ahead_kb after a new max_sectors_kb; one given as
 * TUNE_AS_KERNEL is neither written nor put back (the scheduler sweep's
 * nr_requests: each scheduler with the depth the kernel gives it, as a
 * switch would). nr_requests is
 * written one off before its value, as a switch back to "none" can leave
 * the queue's tags at another depth than nr_requests reads (see
 * tune_knob_write in src/tune/knobs.c); tune_restore and tune_restore_now
 * do the same. Then every knob written is read back (wbt_lat_usec -1, "the
 * default", matches what it reads as). The values are not checked against
 * tune_knob_check (the caller does that), only for being one word.
 * Returns 0; -EACCES/-EROFS when sysfs cannot be written; -EINVAL when the
 * kernel refuses or changes a value (err names the knob, the value and
 * what the kernel said or kept: "nr_requests: wrote 3, the kernel keeps
 * 4"); -ENOENT for a knob q does not have. After an error the queue may be
 * changed part-way: restore it from the journal.
 */
#define TUNE_AS_KERNEL ""
int tune_apply(const struct tune_queue *q, const char *const values[KNOB_COUNT], char *err,
	       size_t errlen);

/* A knob the kernel keeps otherwise than it was given because another
 * knob of the same tune_apply_fx moved it: bfq turns writeback throttling
 * off, so wbt_lat_usec 2000 reads back 0 while bfq is the scheduler. */
struct tune_effect {
	enum tune_knob knob;		/* the knob moved */
	enum tune_knob cause;		/* the knob whose new value moved it */
	char wanted[TUNE_VALUE_MAX];	/* what was written: the value found */
	char kept[TUNE_VALUE_MAX];	/* what the kernel keeps */
};

struct tune_effects {
	unsigned n;
	struct tune_effect e[KNOB_COUNT];
};

/*
 * tune_apply, but a knob given the value q found (q->value[k]) that
 * reads back otherwise, while another knob given is set to a value other
 * than the one q found, is the kernel's side effect of that other knob:
 * recorded in *fx (the scheduler named as the cause when it is one of
 * them), not an error. The knob a trial is about must still read back as
 * given: a value other than q's that does not is -EINVAL as before.
 * fx->n is 0 after an error.
 */
int tune_apply_fx(const struct tune_queue *q, const char *const values[KNOB_COUNT],
		  struct tune_effects *fx, char *err, size_t errlen);

/* Is q's disk still the device q probed, with a medium? 0, or -ENODEV
 * with the reason in err ("loop3 has no medium any more (size 0: a loop
 * device detached?)"). Reads sysfs only. */
int tune_queue_present(const struct tune_queue *q, char *err, size_t errlen);

/* Read knob k of q now into buf (the scheduler: the active one). 0 or
 * -errno; -EOVERFLOW when it does not fit len. */
int tune_knob_read(const struct tune_queue *q, enum tune_knob k, char *buf, size_t len);

/*
 * The journal: before tune changes anything, the settings it found go to
 * TUNE_JOURNAL_DIR/<disk>.journal (written to a temporary file, synced,
 * renamed), with the process id and the time; tune_restore() puts them back
 * and the journal is removed only once every value reads back as it was.
 * The directory may be moved for tests with $DISKBENCH_TUNE_JOURNALS.
 *
 * The journal is also the disk's lock: its writer holds an exclusive
 * flock(2) on it from before the rename until it has put the settings back
 * (or dies: the kernel drops the lock, so a kill -9 leaves a journal that
 * is free to claim). Only who holds the lock restores or removes it; a
 * journal whose lock is held belongs to a live tune. Beside it the writer
 * (or claimer) holds an exclusive flock on the disk's node, /dev/<disk>,
 * for as long: journals in two directories are two locks, the node is
 * one (-EBUSY, naming its holder, for the second).
 */
#define TUNE_JOURNAL_DIR "/run/diskbench"

struct tune_journal {
	struct tune_queue saved;	/* disk, devno, have[] and value[] */
	pid_t pid;			/* the tune that wrote it */
	char started[32];		/* ISO 8601 UTC */
	/* the order the restore writes the knobs in (every knob once): the
	 * one that makes each read back as saved despite the kernel's side
	 * effects, kept with the values (format 1: tune_write_order) */
	enum tune_knob order[KNOB_COUNT];
	char path[512];			/* where it is */
	bool locked;			/* lock_fd holds the journal's lock */
	int lock_fd;
	/* with the journal's lock, the disk's own (flock on /dev/<disk>,
	 * when there is such a node): tunes with other journal
	 * directories, and tools that honour it, keep off the disk */
	bool dev_locked;
	int dev_fd;
};

/* The journal directory in use (TUNE_JOURNAL_DIR or the environment's). */
const char *tune_journal_dir(void);

/* Write q's settings as the journal of q->disk and describe it in j,
 * its lock held (j->locked) until tune_restore, tune_journal_discard or
 * tune_journal_release. -EEXIST when one is there already (err says
 * whose, since when, and: that tune is running, let it finish; or it no
 * longer runs, the command to restore); -EPERM when the directory is not
 * this user's alone (owner, no group or other write); other -errno when
 * it cannot be written. */
int tune_journal_write(const struct tune_queue *q, struct tune_journal *j, char *err,
		       size_t errlen);

/* Read the journal of disk. 0; -ENOENT when there is none; -EINVAL for a
 * corrupt one (err: FILE:LINE: what is wrong), including one whose knob
 * lines are not those disk has now; -ESTALE for a foreign one (it names
 * another device number than disk has now, or disk is gone); -EPERM as
 * for tune_journal_write. Nothing is guessed. */
int tune_journal_read(const char *disk, struct tune_journal *j, char *err, size_t errlen);

/*
 * Take the lock of the journal j that tune_journal_read read, then read it
 * again into j (the lock held, nobody else may change or remove it).
 * 0 (j->locked); -EBUSY when a live tune holds it (err: "a tune is
 * running (pid N, since T)"; nothing may be restored); -ENOENT when it
 * was removed meanwhile (a tune that ended put its settings back); or
 * tune_journal_read's errors.
 */
int tune_journal_claim(struct tune_journal *j, char *err, size_t errlen);

/* Let go of j's lock, if held; the journal stays. */
void tune_journal_release(struct tune_journal *j);

/* Remove the journal j holds the lock of without restoring anything (its
 * writer changed nothing yet), and let go of the lock. 0 or -errno. */
int tune_journal_discard(struct tune_journal *j);

/* The disks that have a journal, sorted and space separated, into buf;
 * their count, or -errno (none, and no directory: 0). A name that does not
 * fit len is left out whole, but counted. */
int tune_journal_list(char *buf, size_t len);

/*
 * Put back what j saved, in j->order (the scheduler first: it resets
 * nr_requests, and bfq turns the default wbt off); then read every one
 * back.
 * Returns 0 and removes the journal when all read back as saved (and lets
 * go of its lock, if j holds it); else, the journal kept: -EIO with the
 * knobs that differ in err ("read_ahead_kb is 4, not 7"); -EACCES/-EROFS
 * when nothing could be written; -ESTALE when the disk's device number is
 * no longer the journal's. The caller holds the lock (tune_journal_write
 * or tune_journal_claim), or knows no tune runs (a test).
 */
int tune_restore(struct tune_journal *j, char *err, size_t errlen);

/* For a signal handler: tune_restore_arm() prepares the writes of j (in
 * static storage; one journal at a time, a later arm replaces it);
 * tune_restore_now() makes them with open/write/close only, in j->order
 * as tune_restore does, async-signal-safe (errno kept), without reading
 * back or removing the journal (a later tune --restore does that).
 * tune_restore_disarm() after a normal restore. */
void tune_restore_arm(const struct tune_journal *j);
void tune_restore_now(void);
void tune_restore_disarm(void);

#endif
