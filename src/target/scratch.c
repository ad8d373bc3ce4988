/* scratch.c - a private scratch directory that goes away even when we are killed. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "target.h"

#define SCRATCH_MAX_FILES 64
/* Subdirectories below the scratch directory that cleanup descends into
 * (the metadata tests use two levels); deeper ones are left. */
#define SCRATCH_MAX_DEPTH 6
/* getdents64 buffer per level, on the stack of whoever cleans up (maybe a
 * signal handler on a worker thread: 8 MiB stacks, so 6 x 2 KiB is fine). */
#define DENTS_BUF 2048

/*
 * Everything the signal handler touches lives in fixed static buffers: it
 * may run at any point, including inside malloc or stdio. An entry becomes
 * visible to it only once complete, by publishing the count (or the
 * dir_ok flag) after a signal fence, so it never unlinks a half-written
 * path. Cleanup clears state only after each unlink/rmdir: if a signal
 * interrupts it, the handler simply redoes the rest (unlink of a gone file
 * is a harmless ENOENT) and the process dies as the signal asked.
 */
static char scratch_dir[PATH_MAX];
static char scratch_files[SCRATCH_MAX_FILES][PATH_MAX];
static volatile sig_atomic_t dir_ok;
static volatile sig_atomic_t nfiles;

static const int scratch_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGNALS (sizeof(scratch_signals) / sizeof(scratch_signals[0]))
static struct sigaction old_actions[NSIGNALS];
static volatile sig_atomic_t handlers_on;

/* Give the signals back to whoever had them (the CLI may stop runs on ^C). */
static void restore_handlers(void)
{
	size_t i;

	if (!handlers_on)
		return;
	handlers_on = 0;
	for (i = 0; i < NSIGNALS; i++)
		sigaction(scratch_signals[i], &old_actions[i], NULL);
}

/* struct linux_dirent64, as getdents64(2) fills it */
struct dent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/*
 * Empty the directory dfd (on device dev) of everything it holds, depth
 * levels down: async-signal-safe (system calls on stack buffers only: no
 * malloc, no opendir). Subdirectories are opened with O_NOFOLLOW and must be
 * on the same device: a symlink or a mount point inside the scratch
 * directory is never followed out of it. Removing entries while reading the
 * directory may make getdents skip some, so the directory is re-read from
 * the start until a pass finds nothing left (or nothing it can remove).
 */
static void empty_dir(int dfd, dev_t dev, int depth)
{
	char buf[DENTS_BUF] __attribute__((aligned(8)));
	struct stat sb;
	long n, off;
	int pass, removed, seen, sub;

	for (pass = 0; pass < 8; pass++) {
		removed = seen = 0;
		if (lseek(dfd, 0, SEEK_SET) < 0)
			return;
		while ((n = syscall(SYS_getdents64, dfd, buf, sizeof(buf))) > 0) {
			for (off = 0; off < n; ) {
				struct dent64 *d = (struct dent64 *)(buf + off);
				const char *name = d->d_name;

				off += d->d_reclen;
				if (name[0] == '.' && (!name[1] || (name[1] == '.' && !name[2])))
					continue;
				seen++;
				if (d->d_type != DT_DIR && !unlinkat(dfd, name, 0)) {
					removed++;
					continue;
				}
				if (d->d_type != DT_DIR && d->d_type != DT_UNKNOWN &&
				    errno != EISDIR)
					continue;
				if (depth <= 0)
					continue;
				sub = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					     O_CLOEXEC);
				if (sub < 0)
					continue;
				if (!fstat(sub, &sb) && sb.st_dev == dev)
					empty_dir(sub, dev, depth - 1);
				close(sub);
				if (!unlinkat(dfd, name, AT_REMOVEDIR))
					removed++;
			}
		}
		if (!seen || !removed)
			return;
	}
}

void target_scratch_cleanup(void)
{
	struct stat sb;
	sig_atomic_t n;
	int fd, saved = errno;

	while ((n = nfiles) > 0) {
		unlink(scratch_files[n - 1]);
		nfiles = n - 1;
	}
	if (dir_ok) {
		/* Whatever else the tests made in there (metadata trees,
		 * per-char files) goes too: by the end, or on a signal. */
		fd = open(scratch_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			if (!fstat(fd, &sb))
				empty_dir(fd, sb.st_dev, SCRATCH_MAX_DEPTH);
			close(fd);
		}
		rmdir(scratch_dir);
		dir_ok = 0;
	}
	restore_handlers();
	errno = saved;
}

static void scratch_on_signal(int sig)
{
	struct sigaction dfl;
	int saved = errno;

	target_scratch_cleanup();
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	sigaction(sig, &dfl, NULL);
	/* sig is blocked while we run: it lands, with the default action,
	 * as soon as we return, so the exit status names the signal */
	raise(sig);
	errno = saved;
}

static int install_handlers(void)
{
	struct sigaction sa;
	size_t i;

	if (handlers_on)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = scratch_on_signal;
	/* one handler at a time: SIGTERM during SIGINT's cleanup waits */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGNALS; i++)
		sigaddset(&sa.sa_mask, scratch_signals[i]);
	for (i = 0; i < NSIGNALS; i++) {
		if (sigaction(scratch_signals[i], &sa, &old_actions[i]) < 0) {
			int e = errno;

			while (i-- > 0)
				sigaction(scratch_signals[i], &old_actions[i], NULL);
			return -e;
		}
	}
	handlers_on = 1;
	return 0;
}

int target_scratch_create(const char *dir, char *out, size_t outlen)
{
	static const char name[] = "/diskbench.XXXXXX";
	size_t len;
	int ret;

	if (!dir || !*dir)
		return -EINVAL;
	if (dir_ok)
		return -EBUSY;
	len = strlen(dir);
	/* "dir/" and "dir" give the same place; keep paths tidy */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len + sizeof(name) > sizeof(scratch_dir))
		return -ENAMETOOLONG;
	if (out && outlen < len + sizeof(name))
		return -ERANGE;
	ret = install_handlers();
	if (ret)
		return ret;
	/* dir_ok is 0: the handler ignores scratch_dir while we write it */
	memcpy(scratch_dir, dir, len);
	memcpy(scratch_dir + len, name, sizeof(name));
	if (len == 1 && dir[0] == '/')
		memmove(scratch_dir, scratch_dir + 1, sizeof(name));
	if (!mkdtemp(scratch_dir)) {	/* mode 0700 */
		ret = -errno;
		restore_handlers();
		return ret;
	}
	atomic_signal_fence(memory_order_seq_cst);
	dir_ok = 1;
	if (out)
		snprintf(out, outlen, "%s", scratch_dir);
	return 0;
}

static int bad_name(const char *name)
{
	return !*name || strchr(name, '/') || strstr(name, "..") || !strcmp(name, ".");
}

int target_scratch_file(const char *name, char *out, size_t outlen)
{
	char *slot;
	sig_atomic_t n;
	int fd, ret, len;

	if (!name || bad_name(name))
		return -EINVAL;
	if (!dir_ok)
		return -ENOENT;
	n = nfiles;
	if (n >= SCRATCH_MAX_FILES)
		return -ENOSPC;
	slot = scratch_files[n];
	len = snprintf(slot, PATH_MAX, "%s/%s", scratch_dir, name);
	if (len < 0 || len >= PATH_MAX)
		return -ENAMETOOLONG;
	if (out && outlen <= (size_t)len)
		return -ERANGE;
	/* record before creating: a signal between the two still removes it */
	atomic_signal_fence(memory_order_seq_cst);
	nfiles = n + 1;
	fd = open(slot, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0) {
		ret = -errno;
		/* not ours (EEXIST) or never made: forget it, don't unlink it */
		nfiles = n;
		return ret;
	}
	close(fd);
	if (out)
		memcpy(out, slot, (size_t)len + 1);
	return 0;
}
