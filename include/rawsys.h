/* rawsys.h - read/write/pread/pwrite/openat/close without glibc's thread-cancellation wrapper. */
#ifndef DISKBENCH_RAWSYS_H
#define DISKBENCH_RAWSYS_H

#include <errno.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/*
 * In a process with more than one thread, glibc's read(), write(), pread(),
 * pwrite(), openat() and close() are thread-cancellation points: each call
 * switches asynchronous cancellation on before the system call and off after
 * it. A single-threaded program (bonnie++, each of fio's job processes)
 * skips that. diskbench's workers are threads and nothing ever cancels them,
 * so the hot paths make the system call themselves: the same call, the same
 * return convention (-1 and errno), without the toggle. Measured with perf
 * on one-byte write()s: the toggle was ~9 % of each call.
 *
 * On x86-64 the system call instruction inline: no call into libc, no
 * variadic argument shuffle (a few ns of a one-byte write's ~300). Elsewhere
 * syscall(2). Both return -1 with errno set on failure, as libc does.
 */
#if defined(__x86_64__)
static inline long raw_syscall3(long nr, long a, long b, long c)
{
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c)
			 : "rcx", "r11", "memory");
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}

static inline long raw_syscall4(long nr, long a, long b, long c, long d)
{
	register long r10 __asm__("r10") = d;
	long ret;

	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10)
			 : "rcx", "r11", "memory");
	if (ret < 0 && ret > -4096) {
		errno = (int)-ret;
		return -1;
	}
	return ret;
}
#else
static inline long raw_syscall3(long nr, long a, long b, long c)
{
	return syscall(nr, a, b, c);
}

static inline long raw_syscall4(long nr, long a, long b, long c, long d)
{
	return syscall(nr, a, b, c, d);
}
#endif

static inline ssize_t raw_read(int fd, void *buf, size_t len)
{
	return (ssize_t)raw_syscall3(SYS_read, fd, (long)buf, (long)len);
}

static inline ssize_t raw_write(int fd, const void *buf, size_t len)
{
	return (ssize_t)raw_syscall3(SYS_write, fd, (long)buf, (long)len);
}

/* A 64-bit offset is one argument only on a 64-bit ABI; elsewhere the
 * libc wrappers split it the way the architecture wants. */
static inline ssize_t raw_pread(int fd, void *buf, size_t len, off_t off)
{
#if defined(__LP64__)
	return (ssize_t)raw_syscall4(SYS_pread64, fd, (long)buf, (long)len, (long)off);
#else
	return pread(fd, buf, len, off);
#endif
}

static inline ssize_t raw_pwrite(int fd, const void *buf, size_t len, off_t off)
{
#if defined(__LP64__)
	return (ssize_t)raw_syscall4(SYS_pwrite64, fd, (long)buf, (long)len, (long)off);
#else
	return pwrite(fd, buf, len, off);
#endif
}

static inline int raw_openat(int dirfd, const char *name, int flags, mode_t mode)
{
	return (int)syscall(SYS_openat, dirfd, name, flags, mode);
}

static inline int raw_close(int fd)
{
	return (int)syscall(SYS_close, fd);
}

#endif
