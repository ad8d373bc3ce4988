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
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "target.h"

/* Subdirectories below the scratch directory that cleanup descends into
 * (the metadata tests use two levels); deeper ones are left. */
#define SCRATCH_MAX_DEPTH 6
/* getdents64 buffer per level, on the stack of whoever cleans up (maybe a
 * signal handler on a worker thread: 8 MiB stacks, so 6 x 2 KiB is fine). */
#define DENTS_BUF 2048
#define SCRATCH_PREFIX "diskbench."
#define SCRATCH_NAME_LEN (sizeof(SCRATCH_PREFIX) - 1 + 6)
/* The entry the removal is at, below the scratch directory ("meta-0/d0/x"). */
#define SCRATCH_AT_LEN 512

/*
 * Everything the signal handler touches lives in fixed static storage: it
 * may run at any point, including inside malloc or stdio. The scratch
 * directory is reached only through scratch_fd, an O_DIRECTORY descriptor
 * taken when it was made, and its name only relative to parent_fd: a user
 * who can write the target directory may rename it and plant a symlink or
 * another directory in its place, and nothing we do then goes through that
 * name. The state becomes visible to the handler only once complete (the
 * fds are published after a signal fence); cleanup closes them last, so a
 * signal during cleanup simply redoes the rest (removing what is gone is a
 * harmless ENOENT) and the process dies as the signal asked.
 */
static volatile sig_atomic_t scratch_fd = -1, parent_fd = -1;
static char scratch_name[SCRATCH_NAME_LEN + 1];
static char scratch_path[PATH_MAX];
static dev_t scratch_dev;
static ino_t scratch_ino;
static volatile sig_atomic_t scratch_moved;

/*
 * The removal runs in a child process (scratch_remove): on a file system
 * whose device stopped answering an unlink can wait in the kernel for
 * ever, where no signal reaches it, and the run must still end. The child
 * says how far it got in a page it shares with us, made with the
 * directory (a signal handler cannot map one): the entry it is at, and
 * how many it went to. in_remover: this process is that child.
 */
struct scratch_share {
	uint64_t steps;			/* entries gone to (atomic) */
	int done;			/* it ran to its end (atomic) */
	int moved;			/* it found the directory moved away */
	char at[SCRATCH_AT_LEN];	/* the entry it is at */
};
static struct scratch_share *share;	/* MAP_SHARED; NULL: removed here */
static uint64_t scratch_bound_ns = 5000000000ull;
static char stuck_at[SCRATCH_AT_LEN];	/* where a removal was left */
static volatile sig_atomic_t stuck, in_remover;

static const int scratch_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define NSIGNALS (sizeof(scratch_signals) / sizeof(scratch_signals[0]))
static struct sigaction old_actions[NSIGNALS];
static bool installed[NSIGNALS];	/* ours replaced old_actions[i] */
static volatile sig_atomic_t handlers_on;

/* Give the signals back to whoever had them (the CLI may stop runs on ^C). */
static void restore_handlers(void)
{
	size_t i;

	if (!handlers_on)
		return;
	handlers_on = 0;
	for (i = 0; i < NSIGNALS; i++)
		if (installed[i])
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

/* The removal goes to entry name of the directory at[0..used) ("" or
 * "a/b/"): said in at (may be NULL), and counted. */
static void walk_to(char *at, size_t used, const char *name)
{
	size_t n = strlen(name);

	if (share)
		__atomic_add_fetch(&share->steps, 1, __ATOMIC_RELAXED);
	if (!at || used >= SCRATCH_AT_LEN)
		return;
	if (n > SCRATCH_AT_LEN - 1 - used)
		n = SCRATCH_AT_LEN - 1 - used;
	memcpy(at + used, name, n);
	at[used + n] = '\0';
}

/* The removal goes into directory name of at[0..used): returns the
 * length of its entries' path, "name/" after at's. */
static size_t walk_into(char *at, size_t used, const char *name)
{
	size_t in;

	walk_to(at, used, name);
	if (!at || used >= SCRATCH_AT_LEN)
		return used;
	in = strlen(at);
	if (in + 1 < SCRATCH_AT_LEN) {
		at[in++] = '/';
		at[in] = '\0';
	}
	return in;
}

/*
 * Empty the directory dfd (on device dev) of everything it holds, depth
 * levels down: async-signal-safe (system calls on stack buffers only: no
 * malloc, no opendir). Subdirectories are opened with O_NOFOLLOW and must be
 * on the same device: a symlink or a mount point inside the scratch
 * directory is never followed out of it. Removing entries while reading the
 * directory may make getdents skip some, so the directory is re-read from
 * the start until a pass finds nothing left (or nothing it can remove).
 * Each entry is said in at (walk_to) before it is removed: dfd's own path
 * is at[0..used).
 */
static void empty_dir(int dfd, dev_t dev, int depth, char *at, size_t used)
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
				walk_to(at, used, name);
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
					empty_dir(sub, dev, depth - 1, at, walk_into(at, used, name));
				close(sub);
				walk_to(at, used, name);
				if (!unlinkat(dfd, name, AT_REMOVEDIR))
					removed++;
			}
		}
		if (!seen || !removed)
			return;
	}
}

/* Whatever the tests made in the directory fd (the data file, metadata
 * trees, per-char files) goes, then its name, but only while it still is
 * our directory: one moved away is left, empty, where it went (true). */
static bool remove_here(int fd, int pfd, char *at)
{
	struct stat sb;

	empty_dir(fd, scratch_dev, SCRATCH_MAX_DEPTH, at, 0);
	walk_to(at, 0, "");
	if (!fstatat(pfd, scratch_name, &sb, AT_SYMLINK_NOFOLLOW) &&
	    S_ISDIR(sb.st_mode) && sb.st_dev == scratch_dev && sb.st_ino == scratch_ino) {
		unlinkat(pfd, scratch_name, AT_REMOVEDIR);
		return false;
	}
	return true;
}

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* The removal's child: deaf to the signals that end the run (its parent
 * watches it and kills it when it must), its standard descriptors on
 * /dev/null (it never prints, and one left in the kernel must not hold a
 * pipe of the user's), system calls only. */
static _Noreturn void remover(int fd, int pfd)
{
	struct sigaction ign;
	int null;

	in_remover = 1;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	for (size_t i = 0; i < NSIGNALS; i++)
		sigaction(scratch_signals[i], &ign, NULL);
	null = open("/dev/null", O_RDWR);
	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDOUT_FILENO);
		dup2(null, STDERR_FILENO);
		close(null);
	}
	share->moved = remove_here(fd, pfd, share->at);
	__atomic_store_n(&share->done, 1, __ATOMIC_RELEASE);
	_exit(0);
}

/*
 * Remove the directory fd (its name in pfd) in a child, waiting as long
 * as it moves on: one that has gone to no new entry for scratch_bound_ns
 * waits for a file system that does not answer, and is killed and left
 * (it ends once its call returns): -ETIMEDOUT, the entry in stuck_at.
 * Async-signal-safe (_Fork, waitpid, nanosleep, kill). Without a shared
 * page or _Fork, or when the child cannot be made, it is done here.
 */
static int scratch_remove(int fd, int pfd)
{
	const struct timespec nap = { .tv_nsec = 5000000 };
	uint64_t steps = 0, since = mono_ns(), now;
	pid_t pid = -1, got;

#ifdef HAVE__FORK
	if (share) {
		share->steps = 0;
		share->done = share->moved = 0;
		share->at[0] = '\0';
		pid = _Fork();
	}
#endif
	if (pid < 0) {
		if (remove_here(fd, pfd, NULL))
			scratch_moved = 1;
		return 0;
	}
	if (!pid)
		remover(fd, pfd);
	for (;;) {
		got = waitpid(pid, NULL, WNOHANG);
		if (got == pid || (got < 0 && errno != EINTR))
			break;	/* (ECHILD: reaped by someone else) */
		now = mono_ns();
		if (__atomic_load_n(&share->steps, __ATOMIC_RELAXED) != steps) {
			steps = __atomic_load_n(&share->steps, __ATOMIC_RELAXED);
			since = now;
		} else if (now - since >= scratch_bound_ns) {
			kill(pid, SIGKILL);
			(void)waitpid(pid, NULL, WNOHANG);
			memcpy(stuck_at, share->at, sizeof(stuck_at));
			stuck_at[sizeof(stuck_at) - 1] = '\0';
			stuck = 1;
			return -ETIMEDOUT;
		}
		nanosleep(&nap, NULL);
	}
	/* killed before its end (by someone else: it answered), or done */
	if (!__atomic_load_n(&share->done, __ATOMIC_ACQUIRE))
		share->moved = remove_here(fd, pfd, NULL);
	if (share->moved)
		scratch_moved = 1;
	return 0;
}

int target_scratch_cleanup(void)
{
	int fd = scratch_fd, pfd = parent_fd, saved = errno, ret = 0;

	if (in_remover)		/* its parent does this */
		return 0;
	if (fd >= 0) {
		ret = scratch_remove(fd, pfd);
		scratch_fd = -1;
		close(fd);
		parent_fd = -1;
		close(pfd);
	}
	if (!ret && scratch_moved)
		ret = -EXDEV;
	restore_handlers();
	errno = saved;
	return ret;
}

void target_scratch_bound(uint64_t ns)
{
	scratch_bound_ns = ns ? ns : 5000000000ull;
}

const char *target_scratch_stuck(void)
{
	return stuck ? stuck_at : NULL;
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
	int ret;

	if (handlers_on)
		return 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = scratch_on_signal;
	/* one handler at a time: SIGTERM during SIGINT's cleanup waits */
	sigemptyset(&sa.sa_mask);
	for (i = 0; i < NSIGNALS; i++)
		sigaddset(&sa.sa_mask, scratch_signals[i]);
	/* Only signals left at their default action: a handler the caller
	 * installed is theirs (and calls target_scratch_cleanup), and an
	 * ignored signal (nohup) stays ignored. */
	for (i = 0; i < NSIGNALS; i++) {
		installed[i] = false;
		if (sigaction(scratch_signals[i], NULL, &old_actions[i]) < 0)
			goto fail;
		if (old_actions[i].sa_handler != SIG_DFL)
			continue;
		if (sigaction(scratch_signals[i], &sa, NULL) < 0)
			goto fail;
		installed[i] = true;
	}
	handlers_on = 1;
	return 0;
fail:
	ret = -errno;
	while (i-- > 0)
		if (installed[i])
			sigaction(scratch_signals[i], &old_actions[i], NULL);
	return ret;
}

/* "diskbench." and six random characters. */
static void scratch_make_name(char *name, unsigned attempt)
{
	static const char chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char r[6];
	size_t i, n = sizeof(SCRATCH_PREFIX) - 1;

	if (getrandom(r, sizeof(r), GRND_NONBLOCK) != (ssize_t)sizeof(r)) {
		uint64_t x = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 24) ^
			     (uint64_t)attempt * 0x9e3779b97f4a7c15ull;

		memcpy(r, &x, sizeof(r));
	}
	memcpy(name, SCRATCH_PREFIX, n);
	for (i = 0; i < sizeof(r); i++)
		name[n + i] = chars[r[i] % (sizeof(chars) - 1)];
	name[n + i] = '\0';
}

int target_scratch_create(const char *dir, char *out, size_t outlen)
{
	char name[SCRATCH_NAME_LEN + 1];
	struct stat sb;
	size_t len;
	int pfd, fd = -1, ret;
	unsigned attempt;

	if (!dir || !*dir)
		return -EINVAL;
	if (scratch_fd >= 0)
		return -EBUSY;
	len = strlen(dir);
	/* "dir/" and "dir" give the same place; keep paths tidy */
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len + 1 + sizeof(name) > sizeof(scratch_path))
		return -ENAMETOOLONG;
	if (out && outlen < len + 1 + sizeof(name))
		return -ERANGE;
	pfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (pfd < 0)
		return -errno;
	for (attempt = 0; attempt < 100; attempt++) {
		scratch_make_name(name, attempt);
		if (!mkdirat(pfd, name, 0700))
			break;
		if (errno != EEXIST) {
			ret = -errno;
			close(pfd);
			return ret;
		}
	}
	if (attempt == 100) {
		close(pfd);
		return -EEXIST;
	}
	fd = openat(pfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	/* Still the directory we made: ours, 0700 (a swap between the mkdir
	 * and the open could only put in someone else's). */
	if (fd < 0 || fstat(fd, &sb) || sb.st_uid != geteuid() || (sb.st_mode & 0777) != 0700) {
		ret = fd < 0 ? -errno : -EPERM;
		if (fd >= 0)
			close(fd);
		close(pfd);
		return ret;
	}
	/* Held while the run lives: the next run in this directory tells a
	 * killed run's leftovers (unlocked) from a running one's. */
	flock(fd, LOCK_EX | LOCK_NB);
	if (!share) {
		share = mmap(NULL, sizeof(*share), PROT_READ | PROT_WRITE,
			     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (share == MAP_FAILED)
			share = NULL;	/* removed in this process, unbounded */
	}
	stuck = 0;
	ret = install_handlers();
	if (ret) {
		close(fd);
		unlinkat(pfd, name, AT_REMOVEDIR);
		close(pfd);
		return ret;
	}
	memcpy(scratch_name, name, sizeof(name));
	memcpy(scratch_path, dir, len);
	snprintf(scratch_path + len, sizeof(scratch_path) - len, "%s%s",
		 len == 1 && dir[0] == '/' ? "" : "/", name);
	scratch_dev = sb.st_dev;
	scratch_ino = sb.st_ino;
	scratch_moved = 0;
	atomic_signal_fence(memory_order_seq_cst);
	parent_fd = pfd;
	scratch_fd = fd;
	if (out)
		snprintf(out, outlen, "%s", scratch_path);
	return 0;
}

int target_scratch_fd(void)
{
	return scratch_fd;
}

static int bad_name(const char *name)
{
	return !*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..");
}

int target_scratch_file(const char *name, struct target_file *out)
{
	int fd;

	if (!name || bad_name(name))
		return -EINVAL;
	if (scratch_fd < 0)
		return -ENOENT;
	fd = openat(scratch_fd, name, O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	close(fd);
	if (out)
		*out = (struct target_file){ .dirfd = scratch_fd, .name = name };
	return 0;
}

/* Is name one of ours: "diskbench." and six characters? */
static bool scratch_like(const char *name)
{
	size_t n = sizeof(SCRATCH_PREFIX) - 1;

	return strlen(name) == SCRATCH_NAME_LEN && !strncmp(name, SCRATCH_PREFIX, n);
}

int target_scratch_leftovers(const char *dir, char *names, size_t len)
{
	struct dirent *de;
	size_t used = 0;
	int dfd, fd, count = 0;
	DIR *d;

	if (len)
		names[0] = '\0';
	dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	d = fdopendir(dfd);
	if (!d) {
		close(dfd);
		return -errno;
	}
	while ((de = readdir(d))) {
		if (!scratch_like(de->d_name) || (scratch_fd >= 0 &&
						  !strcmp(de->d_name, scratch_name)))
			continue;
		fd = openat(dfd, de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			continue;
		/* A running diskbench holds its lock: not a leftover. */
		if (!flock(fd, LOCK_EX | LOCK_NB)) {
			flock(fd, LOCK_UN);
			if (count++ < 8 && used < len) {
				int n = snprintf(names + used, len - used, "%s%s", used ? " " : "",
						 de->d_name);

				if (n > 0)
					used += (size_t)n < len - used ? (size_t)n : len - used - 1;
			}
		}
		close(fd);
	}
	closedir(d);
	return count;
}

int target_open(const struct target_file *f, int flags)
{
	int fd;

	if (f->dirfd != AT_FDCWD)
		flags |= O_NOFOLLOW;
	fd = openat(f->dirfd, f->name, flags | O_CLOEXEC);
	return fd < 0 ? -errno : fd;
}
