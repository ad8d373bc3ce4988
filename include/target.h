/* target.h - what a target is, its device counters, scratch space. */
#ifndef DISKBENCH_TARGET_H
#define DISKBENCH_TARGET_H

#include <limits.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

enum target_kind { TARGET_BLOCK, TARGET_FILE, TARGET_DIR };

/* Facts about a target. Strings are empty and numbers -1 (or 0 for sizes)
 * when unknown. */
struct target_info {
	char path[PATH_MAX];	/* as given */
	char resolved[PATH_MAX]; /* realpath(): symlinks followed */
	enum target_kind kind;
	char device[64];	/* sysfs name of the block device holding the data
				 * (the device itself, or the one under the fs):
				 * "vda", "sda1", "loop3"; "" when none (tmpfs) */
	char disk[64];		/* its whole disk ("sda" for "sda1") for queue/ */
	char model[128];
	uint64_t size_bytes;	/* device size, or file size; 0 for a directory */
	char fs_type[32];	/* for a file or directory */
	char mount_point[PATH_MAX];
	char mount_options[256];
	int rotational;		/* 1, 0, or -1 unknown */
	char scheduler[32];	/* the active one, without brackets */
	int read_ahead_kb;	/* -1 unknown */
	int nr_requests;	/* -1 unknown */
	uint32_t logical_block_size;	/* bytes; 512 when unknown */
	uint32_t physical_block_size;
	uint64_t free_bytes;	/* for a directory: bytes available to us */
	uint64_t fs_size_bytes;	/* for a file or directory: size of its file system */

	/* What exactly it is, for `diskbench info` and every report. */
	char kind_detail[32];	/* "whole disk", "partition", "loop", "device-mapper",
				 * "md", "regular file", "directory" */
	char vendor[64];
	char serial[128];
	char schedulers[128];	/* every available one, space separated */
	int max_sectors_kb;	/* -1 unknown */
	int write_cache;	/* 1 write back, 0 write through, -1 unknown */
	int discard;		/* 1 the device discards, 0 not, -1 unknown */
	int io_poll;		/* 1 it has poll queues (queue/io_poll), 0 not, -1 unknown */
	uint64_t discard_granularity; /* bytes (queue/discard_granularity); 0 unknown */
	uint64_t discard_max_bytes;   /* per request (queue/discard_max_bytes); 0 none */
	/* The link the disk is on (transport.h): "SATA 6.0 Gbps", "" unknown,
	 * and the most it carries, bytes/s (0 unknown). */
	char transport[32];
	uint64_t transport_bps;
	/* A loop device (the target's disk): 1 it reads and writes its
	 * backing file with direct I/O, 0 through the file's page cache (then
	 * O_DIRECT on the loop device is served from that cache), -1 not a
	 * loop device or unknown. */
	int loop_dio;
	/* A loop device: the whole disk its backing file is on ("vda"),
	 * followed through loop devices stacked on loop devices, and that
	 * disk's queue/rotational (1, 0, -1 unknown). "" and -1 when the file
	 * is on no block device (tmpfs), is gone, or the target is no loop
	 * device. A loop device's own rotational flag is the kernel's default
	 * or a copy taken at setup: it says nothing of the store below. */
	char backing_disk[64];
	int backing_rotational;
	/* The cgroup I/O limits on the target's devices that this process
	 * runs under (iolimit.h), in words: "loop3: read 2000 IOPS (blkio
	 * /bench)"; "" when none. Its figures may be the limit's. */
	char io_limit[256];
	/* Layers under the data that change results, comma separated, e.g.
	 * "dm-crypt", "fscrypt", "ecryptfs", "btrfs copy-on-write",
	 * "btrfs compression", "zfs"; "" when none was found. */
	char stack[160];
	bool encrypted;		/* some layer encrypts */
	bool cow;		/* copy-on-write or compressing file system */
	/* btrfs compresses new data: how, "compress=zstd:3" or
	 * "compress-force=lzo" (mount option) or "directory property"
	 * (btrfs property / chattr +c on the target directory); "" when not */
	char compression[48];
	bool arc;		/* ZFS: its ARC caches reads in RAM */
	bool direct_via_cache;	/* O_DIRECT is accepted but served through the page
				 * cache: fscrypt without inline encryption (ext4
				 * and f2fs fall back to buffered I/O for it) */
	/* The data takes O_DIRECT: 1 yes, 0 the file system refuses it
	 * (EINVAL: ramfs, some FUSE), -1 unknown (a block device, a
	 * directory we may not write) */
	int direct_io;
	/* A btrfs over several devices: each member's sysfs name, space
	 * separated ("loop3 loop4"); device is the first of them and the
	 * device counters are their sum. "" for one device or another fs. */
	char members[128];
	/* The drive's firmware revision (NVMe device/firmware_rev, SCSI and
	 * ATA device/rev) and its world-wide name as sysfs spells it
	 * ("eui.0025388b...", "naa.5000c500..."); "" when sysfs has none. */
	char firmware[64];
	char wwn[128];
};

/*
 * The honesty flags: facts about a target's stack that make its numbers
 * something other than the disk's, each with a reason for a person.
 * Indexes 0 .. TARGET_NFLAGS-1, in the order reports list them.
 */
enum target_flag {
	TARGET_FLAG_COMPRESSION,	/* btrfs compression */
	TARGET_FLAG_COW,		/* copy-on-write overwrites */
	TARGET_FLAG_ENCRYPTION,		/* dm-crypt, fscrypt, ecryptfs */
	TARGET_FLAG_ZFS_ARC,		/* ZFS: reads from its ARC */
	TARGET_FLAG_O_DIRECT_REFUSED,	/* the file system refuses O_DIRECT */
	TARGET_NFLAGS
};

/* The flag's JSON name ("compression", "copy_on_write", "encryption",
 * "zfs_arc", "o_direct_refused"); a static string. */
const char *target_flag_name(enum target_flag f);

/* Does flag f concern a test that writes (is_write) or reads? The
 * copy-on-write flag concerns writes only. */
bool target_flag_applies(enum target_flag f, bool is_write);

/* Is layer ("fscrypt") one of the ", "-separated names of a stack? */
bool target_stack_has(const char *stack, const char *layer);

/* Has t flag f? If so its reason (one sentence, no newline) goes to
 * reason (len > 0), cut to fit. Pure: saved results get the same flags. */
bool target_flag(const struct target_info *t, enum target_flag f, char *reason, size_t len);

const char *target_kind_name(enum target_kind k); /* "block" "file" "directory" */

/* Probe path. Returns 0, or -errno with a one-line reason in err (e.g.
 * "no such file or directory", "character device: not a disk or a
 * file system"). Never prints. */
int target_probe(const char *path, struct target_info *t, char *err, size_t errlen);

/* Bytes the device has really moved since boot, from /sys/block/.../stat
 * (sector counts x 512), summed over t->members when it has several.
 * valid is false when the target has no device. */
struct dev_counters {
	bool valid;
	uint64_t read_bytes, write_bytes;
};
void target_dev_counters(const struct target_info *t, struct dev_counters *c);

/*
 * Where a test's I/O goes: a file named relative to a directory descriptor.
 * For a device or a file target, dirfd is AT_FDCWD and name its resolved
 * path; in a directory target, dirfd is the scratch directory's descriptor
 * and name a file in it ("data"), opened with O_NOFOLLOW: whatever someone
 * renames or plants in the target directory, nothing goes through it.
 */
struct target_file {
	int dirfd;
	const char *name;
};

/* openat(f->dirfd, f->name, flags | O_CLOEXEC), O_NOFOLLOW added when
 * dirfd is a directory descriptor. Returns the fd or -errno. */
int target_open(const struct target_file *f, int flags);

/*
 * Scratch space. target_scratch_create() makes a private directory
 * "diskbench.XXXXXX" (mode 0700) under dir and holds a descriptor of it
 * (target_scratch_fd(), -1 when there is none) and of dir: every later
 * open, create, stat and unlink in it is relative to that descriptor, never
 * to a path another user could swap. The directory is flock()ed while the
 * run lives. target_scratch_file() creates a file in it (O_EXCL |
 * O_NOFOLLOW) and fills out (name must outlive it). target_scratch_cleanup()
 * empties the directory recursively through its descriptor and removes it
 * by name only while that name still is the same directory; it is
 * idempotent, async-signal-safe (getdents/unlinkat/fstatat on fixed
 * buffers), and run from the SIGINT/SIGTERM/SIGHUP handlers installed by
 * target_scratch_create(), which then re-raise the signal with the default
 * action so the exit status still says what killed us. Only signals at
 * their default action get that handler: one the caller handles stays the
 * caller's (its handler must call target_scratch_cleanup before it ends
 * the process), one that is ignored stays ignored. It returns -EXDEV
 * when the directory had been moved away (its contents were removed, the
 * empty directory is left where it went), -ETIMEDOUT when the file system
 * did not answer (below), else 0. The others return 0 or -errno; the
 * created path goes to out.
 */
int target_scratch_create(const char *dir, char *out, size_t outlen);
int target_scratch_fd(void);
int target_scratch_file(const char *name, struct target_file *out);
int target_scratch_cleanup(void);

/*
 * The removal (target_scratch_cleanup) runs in a child process, so that a
 * file system whose device stopped answering cannot hold the run: an
 * unlink there may wait in the kernel for ever, out of any signal's
 * reach. It is waited for as long as it goes on; one that has gone to no
 * new entry for ns (target_scratch_bound; 0, and by default: 5 s) is
 * killed and left to the kernel, and target_scratch_cleanup returns
 * -ETIMEDOUT: the directory is left, with what was not removed.
 * target_scratch_stuck() then says the entry it was at, relative to the
 * directory ("" the directory itself); NULL when no removal was left.
 * Where the C library has no async-signal-safe fork (_Fork), the removal
 * is done in this process, with no bound.
 */
void target_scratch_bound(uint64_t ns);
const char *target_scratch_stuck(void);

/* Scratch directories in dir that no running diskbench holds (a killed
 * run's), at most 8 names space-separated into names. Returns how many
 * there are, or -errno. */
int target_scratch_leftovers(const char *dir, char *names, size_t len);

/* Write len bytes of incompressible data to f (created earlier by
 * target_scratch_file), then fdatasync, so read tests never read holes.
 * bs is the write size. checkable: every 4 KiB (512 bytes in a shorter
 * tail) carries --verify's header (verify.h) for seed, so that a verify
 * test finds the layout good where no test wrote. When stop is given and becomes non-zero, stops
 * within one chunk and returns -EINTR; progress (may be NULL) is called
 * after every chunk with the bytes written so far. Returns 0 or -errno. */
int target_layout(const struct target_file *f, uint64_t len, uint32_t bs, uint64_t seed,
		  bool checkable, const volatile sig_atomic_t *stop,
		  void (*progress)(void *arg, uint64_t done, uint64_t total), void *arg);

/* Drop the target's cached pages for fd: fdatasync + POSIX_FADV_DONTNEED
 * for a file, BLKFLSBUF for a block device. Returns 0 or -errno. */
int target_drop_cache(int fd, enum target_kind kind);

/* The same for the file f names. Returns 0 or -errno. */
int target_drop_file_cache(const struct target_file *f, enum target_kind kind);

/* sync, then drop the page cache, dentries and inodes (root only: it
 * writes /proc/sys/vm/drop_caches). Returns 0 or -errno. */
int target_drop_all_caches(void);

/* What target_trim did: method "fitrim" or "blkdiscard" (NULL: nothing
 * tried), bytes the kernel says it trimmed (FITRIM) or the range
 * discarded (BLKDISCARD). */
struct target_trim {
	const char *method;
	uint64_t bytes;
};

/*
 * --trim, just before a write test, so that an SSD starts it from the
 * state a trim leaves rather than from whatever the last test left: on a
 * directory, FITRIM of its file system's free space (what fstrim does;
 * fd: any descriptor in it, the scratch directory); on a block device,
 * BLKDISCARD of [0, len), the test's working set (fd open for writing;
 * only where the safety gate allows writes, since a discard destroys what
 * the range held). Other kinds, a device or file system without discard:
 * -EOPNOTSUPP. Needs CAP_SYS_ADMIN for FITRIM (-EPERM). 0 or -errno.
 */
int target_trim(enum target_kind kind, int fd, uint64_t len, struct target_trim *out);

/* Does the file system of fd take FITRIM (and its device discards)? Asked
 * without trimming anything. 0 yes, -EOPNOTSUPP no, -EPERM, or -errno. */
int target_trim_supported(int fd);

#endif
