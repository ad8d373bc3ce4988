/* char.c - per-character I/O, bonnie++'s "Per Chr" tests: stdio putc/getc or 1-byte syscalls. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "rawsys.h"
#include "workload.h"

/*
 * Timing each putc would measure the clock (a call costs a few ns, a clock
 * read ~20 ns), so one op is a group of calls: 1 KiB of putc/getc, or 64
 * one-byte write()/read() system calls (each ~0.5-2 us: 64 keep an op near
 * 100 us and a run short).
 */
#define STDIO_GROUP 1024
#define SYSCALL_GROUP 64

/* The calls a job says it is in (wl_job.at). The per-char calls are said
 * once, before the first op, and no offset with them: a store in the op
 * would move the getc loop against the cache lines (see char_read_op). */
enum char_at { CHAR_AT_CREATE, CHAR_AT_OPEN, CHAR_AT_PUTC, CHAR_AT_GETC, CHAR_AT_WRITE,
	       CHAR_AT_READ, CHAR_AT_FLUSH, CHAR_AT_CLOSE, CHAR_AT_UNLINK, CHAR_AT_N };

struct char_state {
	FILE *f;		/* stdio mode */
	int fd;			/* syscall mode, or under f */
	bool syscall;
	bool writing;
	bool drop_behind;	/* wl_job.drop_behind */
	uint64_t base, len;	/* this job's region of the file */
	uint64_t pos;		/* bytes from base */
	uint64_t seq;
	/* System calls made (wl_ops.syscalls): counted as made, except
	 * stdio's own reads and writes, which happen inside getc/putc, one
	 * per buffer of __fbufsize bytes: stdio_bytes went through the FILE
	 * since the last seek or flush, char_stdio_calls makes the count. */
	uint64_t calls;
	uint64_t stdio_bytes;
	unsigned char buf[STDIO_GROUP];
	int scratch_fd;		/* char-write: where its file is (wl_job) */
	char name[32];		/* the file char-write created, to remove */
	uint64_t *at;		/* wl_job.at */
};

/* wl_ops.name_at: char-write's file is char-<job> in the scratch
 * directory, char-read's the data file. */
static void char_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out,
			 bool writing)
{
	static const char *const calls[CHAR_AT_N] = {
		[CHAR_AT_CREATE] = "create", [CHAR_AT_OPEN] = "open", [CHAR_AT_PUTC] = "putc",
		[CHAR_AT_GETC] = "getc", [CHAR_AT_WRITE] = "write", [CHAR_AT_READ] = "read",
		[CHAR_AT_FLUSH] = "fdatasync", [CHAR_AT_CLOSE] = "close",
		[CHAR_AT_UNLINK] = "unlink",
	};
	unsigned call = wl_at_call(at);

	if (call >= CHAR_AT_N)
		return;
	if (!writing) {
		wl_call_data(job, calls[call], false, 0, out);
		return;
	}
	out->call = calls[call];
	snprintf(out->file, sizeof(out->file), "char-%u", job->job);
}

static void char_write_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out)
{
	char_name_at(job, at, out, true);
}

static void char_read_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out)
{
	char_name_at(job, at, out, false);
}

static void char_describe(const struct wl_job *job, struct wl_desc *d)
{
	d->engine = job->params.char_mode == WL_CHAR_SYSCALL ? "syscall" : "stdio";
	d->io_size = 1;
	d->direct = false;	/* stdio buffers; 1-byte O_DIRECT is impossible */
}

/* The state and stdio's buffer (st_blksize; 64 KiB covers what file systems
 * report); char-write's file is its share of the working set. */
static void char_footprint(const struct wl_job *job, struct wl_footprint *fp)
{
	fp->mem_bytes = sizeof(struct char_state) + (64u << 10);
	fp->fds = 1;
	fp->disk_bytes = 0;
	fp->inodes = 0;
}

static void char_write_footprint(const struct wl_job *job, struct wl_footprint *fp)
{
	char_footprint(job, fp);
	fp->disk_bytes = (job->size / (job->jobs ? job->jobs : 1) + 4095) / 4096 * 4096;
	fp->inodes = 1;
}

static void char_cleanup(void *arg)
{
	struct char_state *st = arg;

	if (!st)
		return;
	wl_at_set(st->at, CHAR_AT_CLOSE, 0);
	if (st->f)
		fclose(st->f);
	else if (st->fd >= 0)
		close(st->fd);
	if (st->name[0]) {
		wl_at_set(st->at, CHAR_AT_UNLINK, 0);
		unlinkat(st->scratch_fd, st->name, 0);
	}
	free(st);
}

/* The file "char-<job>" in the scratch directory, made exclusively there;
 * open for writing into st->fd. A signal's cleanup empties that directory. */
static int char_create(struct char_state *st, const struct wl_job *job, char *err,
		       size_t errlen)
{
	int ret;

	snprintf(st->name, sizeof(st->name), "char-%u", job->job);
	st->scratch_fd = job->scratch_fd;
	wl_at_set(st->at, CHAR_AT_CREATE, 0);
	st->fd = openat(job->scratch_fd, st->name,
			O_CREAT | O_EXCL | O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (st->fd < 0) {
		ret = -errno;
		snprintf(err, errlen, "creating %s in the scratch directory: %s", st->name,
			 strerror(-ret));
		st->name[0] = '\0';
		return ret;
	}
	return 0;
}

static int char_init(void **state, const struct wl_job *job, bool writing, char *err,
		     size_t errlen)
{
	struct char_state *st;
	const char *path;
	int ret;

	st = wl_state_new(state, sizeof(*st), err, errlen);
	if (!st)
		return -ENOMEM;
	st->fd = -1;
	st->at = job->at;
	st->writing = writing;
	st->syscall = job->params.char_mode == WL_CHAR_SYSCALL;
	st->drop_behind = job->drop_behind;

	/* Each job works on its own share of the working set. */
	st->len = wl_job_slice(job, 1);
	if (!st->len) {
		snprintf(err, errlen, "working set smaller than one byte per job");
		return -EINVAL;
	}
	if (writing) {
		if (job->scratch_fd < 0) {
			snprintf(err, errlen, "per-char writes need a directory target");
			return -ENOTDIR;
		}
		ret = char_create(st, job, err, errlen);
		if (ret)
			return ret;
		path = st->name;
	} else {
		st->base = st->len * job->job;
		path = job->data.name;
		wl_at_set(st->at, CHAR_AT_OPEN, 0);
		st->fd = target_open(&job->data, O_RDONLY);
		if (st->fd < 0) {
			ret = st->fd;
			snprintf(err, errlen, "%s: %s", path, strerror(-ret));
			return ret;
		}
	}
	if (st->base && lseek(st->fd, (off_t)st->base, SEEK_SET) < 0) {
		ret = -errno;
		snprintf(err, errlen, "%s: seek: %s", path, strerror(-ret));
		return ret;
	}
	if (!st->syscall) {
		st->f = fdopen(st->fd, writing ? "w" : "r");
		if (!st->f) {
			ret = -errno;
			snprintf(err, errlen, "%s: fdopen: %s", path, strerror(-ret));
			return ret;
		}
	}
	if (writing) {
		struct wl_rng rng;

		wl_rng_seed(&rng, job->seed ^ (0x6a09e667f3bcc909ull * (job->job + 1)));
		wl_fill_random(st->buf, sizeof(st->buf), &rng);
		st->seq = (uint64_t)job->job << 48;
	}
	wl_at_set(st->at, writing ? (st->syscall ? CHAR_AT_WRITE : CHAR_AT_PUTC) :
		  (st->syscall ? CHAR_AT_READ : CHAR_AT_GETC), 0);
	return 0;
}

static int char_write_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	return char_init(state, job, true, err, errlen);
}

static int char_read_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	return char_init(state, job, false, err, errlen);
}

/*
 * The reads or writes stdio made for the stdio_bytes that went through the
 * FILE since its buffer was last emptied: a write each time the buffer
 * filled, and (settle: a seek or fflush empties it now) one for what is
 * left in it; a read each time it ran empty. 0 before its first I/O, when
 * it has no buffer yet.
 */
static uint64_t char_stdio_calls(const struct char_state *st, bool settle)
{
	size_t bufsz = st->f ? __fbufsize(st->f) : 0;

	if (!bufsz)
		return 0;
	if (st->writing)
		return st->stdio_bytes / bufsz + (settle && st->stdio_bytes % bufsz ? 1 : 0);
	return (st->stdio_bytes + bufsz - 1) / bufsz;
}

/* The buffer is about to be emptied (a seek, a flush): count its calls. */
static void char_settle(struct char_state *st)
{
	st->calls += char_stdio_calls(st, true);
	st->stdio_bytes = 0;
}

static uint64_t char_syscalls(const void *arg)
{
	const struct char_state *st = arg;

	return st->calls + char_stdio_calls(st, false);
}

/* Back to the start of the region: writes overwrite, reads re-read (on a
 * drop-behind run from the device again, as from a file larger than RAM). */
static int char_rewind(struct char_state *st)
{
	st->pos = 0;
	if (st->drop_behind && !st->writing) {
		st->calls++;
		posix_fadvise(st->fd, (off_t)st->base, (off_t)st->len, POSIX_FADV_DONTNEED);
	}
	st->calls++;	/* the lseek */
	if (st->f) {
		char_settle(st);
		return fseeko(st->f, (off_t)st->base, SEEK_SET) ? -errno : 0;
	}
	return lseek(st->fd, (off_t)st->base, SEEK_SET) < 0 ? -errno : 0;
}

static int64_t char_write_op(void *arg)
{
	struct char_state *st = arg;
	unsigned n = st->syscall ? SYSCALL_GROUP : STDIO_GROUP, i;
	int ret;

	if (st->pos + n > st->len && st->pos) {
		ret = char_rewind(st);
		if (ret)
			return ret;
	}
	/* Two stores per 512 bytes keep the data from repeating (dedup)
	 * without a costly refill. */
	wl_stamp(st->buf, n, st->seq);
	st->seq += (n + 511) / 512;
	if (st->syscall) {
		for (i = 0; i < n; i++) {
			ssize_t w = raw_write(st->fd, &st->buf[i], 1);

			st->calls++;
			if (w != 1)
				return w < 0 ? -errno : -EIO;
		}
	} else {
		/* The FILE is this job's alone: the unlocked putc is what a
		 * single-threaded bonnie++ gets (glibc skips the lock there). */
		for (i = 0; i < n; i++)
			if (putc_unlocked(st->buf[i], st->f) == EOF)
				return errno ? -errno : -EIO;
		st->stdio_bytes += n;
	}
	st->pos += n;
	return n;
}

/* End of file inside the region (a file shorter than the working set):
 * wrap, once per op; a second EOF means there is nothing to read. */
static int char_eof(struct char_state *st, bool *wrapped)
{
	if (*wrapped)
		return -EIO;
	*wrapped = true;
	return char_rewind(st);
}

/* Aligned: the getc loop below is a few instructions that run a billion
 * times a second, and where it falls against 64-byte lines moved its cost
 * by 14 % between two builds with the same instructions (callgrind: the
 * same 11349 per op; cpu 0.64 vs 0.73 us per op). */
__attribute__((aligned(64)))
static int64_t char_read_op(void *arg)
{
	struct char_state *st = arg;
	unsigned n = st->syscall ? SYSCALL_GROUP : STDIO_GROUP, i = 0, counted = 0;
	unsigned sum = 0;
	bool wrapped = false;
	int c, ret;

	if (st->pos + n > st->len && st->pos) {
		ret = char_rewind(st);
		if (ret)
			return ret;
	}
	if (st->syscall) {
		while (i < n) {
			unsigned char b;
			ssize_t r = raw_read(st->fd, &b, 1);

			st->calls++;
			if (r == 1) {
				sum += b;
				i++;
				continue;
			}
			if (r < 0)
				return -errno;
			ret = char_eof(st, &wrapped);
			if (ret)
				return ret;
		}
	} else {
		while (i < n) {
			c = getc_unlocked(st->f);
			if (c != EOF) {
				sum += (unsigned)c;
				i++;
				continue;
			}
			/* the read that found the end, and what came before it
			 * (counted here, not per char: this loop is the test) */
			st->calls++;
			st->stdio_bytes += i - counted;
			counted = i;
			if (ferror(st->f))
				return errno ? -errno : -EIO;
			ret = char_eof(st, &wrapped);
			if (ret)
				return ret;
		}
		st->stdio_bytes += i - counted;
	}
	/* Use what was read, or the compiler may drop the loop's work. */
	st->buf[0] = (unsigned char)sum;
	st->pos += n;
	return n;
}

/* Drop-behind: what the window wrote goes to the device inside it. */
static int char_flush(void *arg)
{
	struct char_state *st = arg;

	wl_at_set(st->at, CHAR_AT_FLUSH, 0);
	if (st->f) {
		char_settle(st);
		if (fflush(st->f))
			return errno ? -errno : -EIO;
	}
	st->calls++;
	return fdatasync(st->fd) ? -errno : 0;
}

const struct wl_ops wl_char_write_ops = {
	.init = char_write_init,
	.op = char_write_op,
	.flush = char_flush,
	.syscalls = char_syscalls,
	.cleanup = char_cleanup,
	.describe = char_describe,
	.footprint = char_write_footprint,
	.name_at = char_write_name_at,
	.unit = "1 KiB of per-char calls (64 B with --char-mode=syscall)",
};

const struct wl_ops wl_char_read_ops = {
	.init = char_read_init,
	.op = char_read_op,
	.cleanup = char_cleanup,
	.describe = char_describe,
	.footprint = char_footprint,
	.syscalls = char_syscalls,
	.name_at = char_read_name_at,
	.unit = "1 KiB of per-char calls (64 B with --char-mode=syscall)",
};
