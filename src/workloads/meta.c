/* meta.c - file create/stat/delete in name or random order: bonnie++ -n semantics. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rawsys.h"
#include "workload.h"

/* File data is written from a buffer of at most this size, in turns. */
#define DATA_BUF_MAX (1u << 20)

/*
 * bonnie++ 2.00's file names (seen with strace; its readme still says 7
 * digits): the file's number in 10 hex digits and 0 to 12 random
 * alphanumerics, after the number in the name-order tests and before it in
 * the random ones, so that files made in number order land in an order that
 * looks random to the file system. The lengths matter: a directory lookup
 * compares only names of equal length, so equal-length names cost more.
 */
#define NUM_LEN 10
#define RAND_MAX_LEN 12
#define NAME_LEN (NUM_LEN + RAND_MAX_LEN)

enum meta_mode { META_CREATE, META_STAT, META_DELETE };

/* The calls a job says it is in (wl_job.at), with a file's number, or a
 * directory's: 0 the job's root, k + 1 its d<k>. */
enum meta_at { META_AT_MKDIR, META_AT_CREATE, META_AT_SYNCFS, META_AT_READDIR, META_AT_STAT,
	       META_AT_UNLINK, META_AT_RMDIR, META_AT_N };

/*
 * One job's tree: <scratch>/meta-<job>/d<k>/<name>. File i lives in
 * directory i * ndirs / nfiles: contiguous runs, so the number order walks
 * one directory after the other as a real tree would. Every operation is
 * relative to an open directory fd (openat, fstatat, unlinkat): no path
 * walk from the root per file, as bonnie++ avoids by chdir()ing into its
 * directory.
 *
 * The order of each test, as bonnie++'s:
 *   create       number order, names number-first
 *   stat/delete  readdir() order (taken before the clock starts)
 *   create-rand  number order, names random-first
 *   stat/delete-rand  a seeded random permutation, names random-first
 * A stat also reads the file's data when the files have any (-n N:MAX).
 */
struct meta_state {
	enum meta_mode mode;
	int topfd, rootfd;
	int *dirfd;
	uint32_t ndirs, nfiles;
	uint32_t *order;	/* indices in the order of the test */
	uint32_t pos;		/* next place in order */
	bool all_made;		/* init created every file (stat, delete) */
	uint32_t made;		/* files init created, in number order, when it failed */
	bool rand_first;	/* names start with the random characters */
	uint64_t name_seed;
	uint64_t min_size, max_size;
	bool fsync;
	struct wl_rng rng;
	unsigned char *data;
	size_t datalen;
	uint64_t seq;
	struct wl_progress *progress;	/* wl_job.progress: setup and clean-up */
	uint64_t *at;			/* wl_job.at */
	uint64_t calls;		/* system calls made on files (wl_ops.syscalls) */
	char root[32];
};

static uint64_t meta_syscalls(const void *arg)
{
	return ((const struct meta_state *)arg)->calls;
}

/* How often setup and clean-up look at the stop flag and count: every
 * 1024 files is well under a second even on a slow disk. */
#define META_STEP 1024u

static void meta_count(struct meta_state *st, uint64_t done, uint64_t todo)
{
	if (!st->progress)
		return;
	__atomic_store_n(&st->progress->done, done, __ATOMIC_RELAXED);
	__atomic_store_n(&st->progress->todo, todo, __ATOMIC_RELAXED);
}

static void meta_describe(const struct wl_job *job, struct wl_desc *d)
{
	d->engine = "posix";
	d->io_size = job->params.file_max > UINT32_MAX ? UINT32_MAX :
		     (uint32_t)job->params.file_max;
	d->direct = false;
}

/*
 * The name order (4 bytes a file), a descriptor per directory, the data
 * buffer; on disk, every file rounded up to 4 KiB blocks, a directory entry
 * of at most 64 bytes each (a name of up to 22 characters, hashed-tree
 * overhead), a block per directory.
 */
static void meta_footprint(const struct wl_job *job, struct wl_footprint *fp)
{
	const struct wl_params *p = &job->params;
	uint64_t max = p->file_max > p->file_min ? p->file_max : p->file_min;
	uint64_t datalen = max < DATA_BUF_MAX ? max : DATA_BUF_MAX;

	fp->mem_bytes = sizeof(struct meta_state) + p->nfiles * sizeof(uint32_t) +
			(uint64_t)p->ndirs * sizeof(int) + (datalen ? datalen : 1);
	fp->disk_bytes = p->nfiles * ((max + 4095) / 4096 * 4096 + 64) +
			 ((uint64_t)p->ndirs + 1) * 4096;
	fp->inodes = p->nfiles + p->ndirs + 1;
	fp->fds = (uint64_t)p->ndirs + 3;
}

/* splitmix64's finalizer: a file's random characters from its number. */
static inline uint64_t meta_mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ull;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebull;
	return x ^ (x >> 31);
}

/* File i's name, the same every time it is asked for (computed, not
 * stored: a table of a million names would cost a cache miss a lookup). */
static void meta_name(const struct meta_state *st, uint32_t i, char name[NAME_LEN + 1])
{
	static const char alnum[] =
		"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";
	uint64_t h = meta_mix(st->name_seed + (uint64_t)i * 0x9e3779b97f4a7c15ull);
	unsigned nrand = (unsigned)(h % (RAND_MAX_LEN + 1)), k;
	char *num = st->rand_first ? name + nrand : name;
	char *rnd = st->rand_first ? name : name + NUM_LEN;

	for (k = NUM_LEN; k-- > 0; i >>= 4)
		num[k] = "0123456789abcdef"[i & 15];
	h = meta_mix(h);
	for (k = 0; k < nrand; k++) {
		if (k == 10)	/* 62^10 < 2^64: ten characters a draw */
			h = meta_mix(h);
		rnd[k] = alnum[h % 62];
		h /= 62;
	}
	name[NUM_LEN + nrand] = '\0';
}

/* The number in one of our names; -1 for a name that is not ours. */
static int meta_parse(const struct meta_state *st, const char *name, uint32_t *i)
{
	size_t len = strlen(name);
	const char *num;
	uint64_t v = 0;

	if (len < NUM_LEN || len > NAME_LEN)
		return -1;
	num = st->rand_first ? name + len - NUM_LEN : name;
	for (unsigned k = 0; k < NUM_LEN; k++) {
		char c = num[k];

		if (c >= '0' && c <= '9')
			v = v * 16 + (uint64_t)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v = v * 16 + (uint64_t)(c - 'a' + 10);
		else
			return -1;
	}
	if (v >= st->nfiles)
		return -1;
	*i = (uint32_t)v;
	return 0;
}

/* The directory file i lives in: d<k>. */
static uint32_t meta_dir_of(const struct meta_state *st, uint32_t i)
{
	return (uint32_t)((uint64_t)i * st->ndirs / st->nfiles);
}

static int meta_dir(const struct meta_state *st, uint32_t i)
{
	return st->dirfd[meta_dir_of(st, i)];
}

/* The job's generator, seeded; its first draw is the names' seed. */
static void meta_seed(const struct wl_job *job, struct wl_rng *rng)
{
	wl_rng_seed(rng, job->seed ^ (0x3c6ef372fe94f82bull * (job->job + 1)));
}

/* Where the job is now (wl_job.at). */
static inline void meta_at(const struct meta_state *st, enum meta_at call, uint64_t x)
{
	wl_at_set(st->at, call, x);
}

/* wl_ops.name_at: the call and its file, from the job's parameters: its
 * tree meta-<job>/d<k>/<name>, the names as meta_alloc seeds them. */
static void meta_name_at(const struct wl_job *job, uint64_t at, struct wl_call *out)
{
	static const char *const calls[META_AT_N] = {
		[META_AT_MKDIR] = "mkdir", [META_AT_CREATE] = "create",
		[META_AT_SYNCFS] = "syncfs", [META_AT_READDIR] = "readdir",
		[META_AT_STAT] = "stat", [META_AT_UNLINK] = "unlink", [META_AT_RMDIR] = "rmdir",
	};
	struct meta_state st = { .nfiles = (uint32_t)job->params.nfiles,
				 .ndirs = job->params.ndirs,
				 .rand_first = job->pattern == WL_RAND };
	unsigned call = wl_at_call(at);
	uint64_t x = wl_at_arg(at);
	char name[NAME_LEN + 1];
	struct wl_rng rng;

	if (call >= META_AT_N || !st.nfiles || !st.ndirs)
		return;
	out->call = calls[call];
	if (call == META_AT_CREATE || call == META_AT_STAT || call == META_AT_UNLINK) {
		if (x >= st.nfiles)
			return;
		meta_seed(job, &rng);
		st.name_seed = wl_rng_next(&rng);
		meta_name(&st, (uint32_t)x, name);
		snprintf(out->file, sizeof(out->file), "meta-%u/d%u/%s", job->job,
			 meta_dir_of(&st, (uint32_t)x), name);
	} else if (x) {
		snprintf(out->file, sizeof(out->file), "meta-%u/d%u", job->job, (unsigned)(x - 1));
	} else {
		snprintf(out->file, sizeof(out->file), "meta-%u", job->job);
	}
}

/* Create file i with its data; 0 or -errno; *bytes gets the size written. */
static int meta_make(struct meta_state *st, uint32_t i, bool sync, uint64_t *bytes)
{
	char name[NAME_LEN + 1];
	uint64_t size = st->min_size, left;
	int fd, ret = 0;

	meta_name(st, i, name);
	meta_at(st, META_AT_CREATE, i);
	st->calls++;
	fd = raw_openat(meta_dir(st, i), name, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (st->max_size > st->min_size)
		size += wl_rng_below(&st->rng, st->max_size - st->min_size + 1);
	for (left = size; left; ) {
		size_t n = left < st->datalen ? (size_t)left : st->datalen;
		ssize_t w;

		wl_stamp(st->data, (uint32_t)n, st->seq);
		st->seq += (n + 511) / 512;
		st->calls++;
		w = raw_write(fd, st->data, n);
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		left -= (uint64_t)w;
	}
	st->calls += 1 + (!ret && sync);
	if (!ret && sync && fsync(fd))
		ret = -errno;
	if (raw_close(fd) && !ret)
		ret = -errno;
	*bytes = size - left;
	return ret;
}

/* Remove files order[from..to): clean-up runs to the end whatever stop
 * says (nothing is left behind), counting as it goes. */
static void meta_unlink(struct meta_state *st, uint32_t from, uint32_t to)
{
	char name[NAME_LEN + 1];

	for (uint32_t p = from; p < to; p++) {
		if ((p - from) % META_STEP == 0)
			meta_count(st, p - from, to - from);
		meta_name(st, st->order[p], name);
		meta_at(st, META_AT_UNLINK, st->order[p]);
		unlinkat(meta_dir(st, st->order[p]), name, 0);
	}
	meta_count(st, to - from, to - from);
}

static void meta_cleanup(void *arg)
{
	struct meta_state *st = arg;
	char name[32];

	if (!st)
		return;
	/* Remove what exists: what was created, less what was deleted. */
	if (st->order && st->dirfd) {
		if (st->all_made)
			meta_unlink(st, st->mode == META_DELETE ? st->pos : 0, st->nfiles);
		else
			meta_unlink(st, 0, st->mode == META_CREATE ? st->pos : st->made);
	}
	if (st->dirfd) {
		for (uint32_t k = 0; k < st->ndirs; k++) {
			if (st->dirfd[k] < 0)
				continue;
			close(st->dirfd[k]);
			snprintf(name, sizeof(name), "d%u", k);
			meta_at(st, META_AT_RMDIR, k + 1);
			unlinkat(st->rootfd, name, AT_REMOVEDIR);
		}
	}
	if (st->rootfd >= 0) {
		close(st->rootfd);
		meta_at(st, META_AT_RMDIR, 0);
		unlinkat(st->topfd, st->root, AT_REMOVEDIR);
	}
	/* Anything left (a file we failed to remove) goes with the scratch
	 * directory, which is removed recursively. */
	if (st->topfd >= 0)
		close(st->topfd);
	free(st->dirfd);
	free(st->order);
	free(st->data);
	free(st);
}

static int meta_fail(char *err, size_t errlen, int ret, const char *what, const char *name)
{
	snprintf(err, errlen, "%s %s: %s", what, name, strerror(-ret));
	return ret;
}

/*
 * order[] = the files in readdir() order, directory after directory: how
 * bonnie++ stats and deletes in its name-order tests (on a hashed directory,
 * such as ext4's, that is neither the number nor the creation order).
 */
static int meta_readdir_order(struct meta_state *st, char *err, size_t errlen)
{
	uint32_t n = 0, i;
	struct dirent *de;
	char name[32];
	DIR *d;
	int fd;

	for (uint32_t k = 0; k < st->ndirs; k++) {
		snprintf(name, sizeof(name), "d%u", k);
		meta_at(st, META_AT_READDIR, k + 1);
		/* A descriptor of its own: closedir() closes it. */
		fd = openat(st->rootfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0)
			return meta_fail(err, errlen, -errno, "opening", name);
		d = fdopendir(fd);
		if (!d) {
			close(fd);
			return meta_fail(err, errlen, -errno, "reading", name);
		}
		errno = 0;
		while ((de = readdir(d))) {
			if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
				continue;
			if (meta_parse(st, de->d_name, &i) || n == st->nfiles) {
				closedir(d);
				return meta_fail(err, errlen, -EEXIST, "unexpected file",
						 de->d_name);
			}
			st->order[n++] = i;
		}
		if (errno) {
			closedir(d);
			return meta_fail(err, errlen, -errno, "reading", name);
		}
		closedir(d);
	}
	if (n != st->nfiles) {
		snprintf(err, errlen, "%s: found %u of the %u files just made", st->root, n,
			 st->nfiles);
		return -EIO;
	}
	return 0;
}

/* The job's file-test parameters, checked: 0, or -ENOTDIR / -EINVAL
 * (message in err). */
static int meta_check(const struct wl_job *job, char *err, size_t errlen)
{
	if (job->scratch_fd < 0) {
		snprintf(err, errlen, "file tests need a directory target (a file system)");
		return -ENOTDIR;
	}
	if (!job->params.nfiles || job->params.nfiles > UINT32_MAX || !job->params.ndirs ||
	    job->params.ndirs > job->params.nfiles) {
		snprintf(err, errlen, "bad file-test parameters: %llu files in %u directories",
			 (unsigned long long)job->params.nfiles, job->params.ndirs);
		return -EINVAL;
	}
	return 0;
}

/* The state, its buffers and its seeded generator, into *state (freed by
 * meta_cleanup, even when this fails): 0, or -ENOMEM (message in err). */
static int meta_alloc(void **state, const struct wl_job *job, enum meta_mode mode, char *err,
		      size_t errlen)
{
	struct meta_state *st = wl_state_new(state, sizeof(*st), err, errlen);

	if (!st)
		return -ENOMEM;
	st->mode = mode;
	st->topfd = st->rootfd = -1;
	st->nfiles = (uint32_t)job->params.nfiles;
	st->ndirs = job->params.ndirs;
	st->min_size = job->params.file_min;
	st->max_size = job->params.file_max > job->params.file_min ? job->params.file_max :
		       job->params.file_min;
	st->fsync = job->params.fsync;
	st->progress = job->progress;
	st->at = job->at;
	st->datalen = st->max_size < DATA_BUF_MAX ? (size_t)st->max_size : DATA_BUF_MAX;
	st->order = malloc((size_t)st->nfiles * sizeof(*st->order));
	st->dirfd = malloc((size_t)st->ndirs * sizeof(*st->dirfd));
	st->data = malloc(st->datalen ? st->datalen : 1);
	if (!st->order || !st->dirfd || !st->data) {
		snprintf(err, errlen, "out of memory for %u file names", st->nfiles);
		return -ENOMEM;
	}
	for (uint32_t k = 0; k < st->ndirs; k++)
		st->dirfd[k] = -1;
	meta_seed(job, &st->rng);
	st->name_seed = wl_rng_next(&st->rng);
	st->rand_first = job->pattern == WL_RAND;
	wl_fill_random(st->data, st->datalen, &st->rng);
	st->seq = (uint64_t)job->job << 48;
	for (uint32_t i = 0; i < st->nfiles; i++)
		st->order[i] = i;
	return 0;
}

/* The job's own tree in the scratch directory: meta-JOB/ and its
 * directories d0..dN-1, each held open. 0, or -errno (message in err). */
static int meta_tree(struct meta_state *st, const struct wl_job *job, char *err, size_t errlen)
{
	char name[32];
	int ret;

	/* Our own descriptor of the scratch directory: cleanup closes it. */
	st->topfd = fcntl(job->scratch_fd, F_DUPFD_CLOEXEC, 0);
	if (st->topfd < 0)
		return meta_fail(err, errlen, -errno, "opening", "the scratch directory");
	snprintf(st->root, sizeof(st->root), "meta-%u", job->job);
	meta_at(st, META_AT_MKDIR, 0);
	/* mkdir fails on an existing name: the tree is ours alone. */
	if (mkdirat(st->topfd, st->root, 0700))
		return meta_fail(err, errlen, -errno, "creating directory", st->root);
	st->rootfd = openat(st->topfd, st->root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (st->rootfd < 0) {
		ret = -errno;
		unlinkat(st->topfd, st->root, AT_REMOVEDIR);
		return meta_fail(err, errlen, ret, "opening", st->root);
	}
	for (uint32_t k = 0; k < st->ndirs; k++) {
		snprintf(name, sizeof(name), "d%u", k);
		meta_at(st, META_AT_MKDIR, k + 1);
		if (mkdirat(st->rootfd, name, 0700))
			return meta_fail(err, errlen, -errno, "creating directory", name);
		st->dirfd[k] = openat(st->rootfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
				      O_CLOEXEC);
		if (st->dirfd[k] < 0) {
			ret = -errno;
			unlinkat(st->rootfd, name, AT_REMOVEDIR);
			return meta_fail(err, errlen, ret, "opening", name);
		}
	}
	return 0;
}

/* The files the test stats or deletes, made before the clock starts, in
 * number order; then on disk, as bonnie++'s would be after its create
 * phase. 0, -EINTR (stopped) or -errno (message in err). */
static int meta_populate(struct meta_state *st, const struct wl_job *job, char *err,
			 size_t errlen)
{
	char name[32];
	uint64_t bytes;
	int ret;

	for (uint32_t i = 0; i < st->nfiles; i++) {
		if (i % META_STEP == 0) {
			meta_count(st, i, st->nfiles);
			if (job->stop && *job->stop) {
				st->made = i;
				snprintf(err, errlen, "interrupted");
				return -EINTR;
			}
		}
		ret = meta_make(st, i, false, &bytes);
		if (ret) {
			st->made = i + 1;	/* the i-th may exist, half written */
			meta_name(st, i, name);
			return meta_fail(err, errlen, ret, "creating file", name);
		}
	}
	st->all_made = true;
	meta_count(st, st->nfiles, st->nfiles);
	meta_at(st, META_AT_SYNCFS, 0);
	if (syncfs(st->rootfd))
		return meta_fail(err, errlen, -errno, "syncing", st->root);
	return 0;
}

/* The set-up of the three file tests: the job's tree, and for stat and
 * delete its files made and put in order. 0, or -errno (message in err). */
static int meta_init(void **state, const struct wl_job *job, enum meta_mode mode, char *err,
		     size_t errlen)
{
	struct meta_state *st;
	int ret;

	*state = NULL;
	ret = meta_check(job, err, errlen);
	if (!ret)
		ret = meta_alloc(state, job, mode, err, errlen);
	if (ret)
		return ret;
	st = *state;
	ret = meta_tree(st, job, err, errlen);
	if (ret || mode == META_CREATE)
		return ret;
	ret = meta_populate(st, job, err, errlen);
	if (ret)
		return ret;
	/* The order, outside the timed ops: the directories' own, or a
	 * seeded shuffle. */
	if (job->pattern == WL_RAND)
		wl_permute(st->order, st->nfiles, &st->rng);
	else
		return meta_readdir_order(st, err, errlen);
	return 0;
}

static int meta_create_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	return meta_init(state, job, META_CREATE, err, errlen);
}

static int meta_stat_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	return meta_init(state, job, META_STAT, err, errlen);
}

static int meta_delete_init(void **state, const struct wl_job *job, char *err, size_t errlen)
{
	return meta_init(state, job, META_DELETE, err, errlen);
}

/* open(O_CREAT | O_EXCL), the data if any, fsync if asked, close. */
static int64_t meta_create_op(void *arg)
{
	struct meta_state *st = arg;
	uint64_t bytes = 0;
	uint32_t i;
	int ret;

	if (st->pos >= st->nfiles)
		return WL_OP_DONE;
	i = st->order[st->pos];
	ret = meta_make(st, i, st->fsync, &bytes);
	/* Counted even when it failed: cleanup must remove what may exist. */
	st->pos++;
	return ret ? ret : (int64_t)bytes;
}

/*
 * Read the size bytes of a file's data, as bonnie++'s stat test does when
 * files have any. The stat just said how many there are, so the reads stop
 * there, without the read that would return 0 at the end (bonnie++ makes
 * none either: open, one read a buffer, close); one returning 0 early (a
 * file shorter than it was) ends them too.
 */
static int64_t meta_read(struct meta_state *st, int dir, const char *name, uint64_t size)
{
	int64_t total = 0;
	ssize_t n = 0;
	int fd = raw_openat(dir, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0);

	st->calls++;
	if (fd < 0)
		return -errno;
	while ((uint64_t)total < size) {
		size_t want = size - (uint64_t)total < st->datalen ?
			      (size_t)(size - (uint64_t)total) : st->datalen;

		st->calls++;
		n = raw_read(fd, st->data, want);
		if (n <= 0)
			break;
		total += n;
	}
	if (n < 0)
		total = -errno;
	st->calls++;
	raw_close(fd);
	return total;
}

/* Endlessly, in the test's order: stat, and read the data if any. */
static int64_t meta_stat_op(void *arg)
{
	struct meta_state *st = arg;
	char name[NAME_LEN + 1];
	struct stat sb;
	uint32_t i = st->order[st->pos];
	int dir = meta_dir(st, i);

	if (++st->pos == st->nfiles)
		st->pos = 0;
	meta_name(st, i, name);
	meta_at(st, META_AT_STAT, i);
	st->calls++;
	if (fstatat(dir, name, &sb, AT_SYMLINK_NOFOLLOW))
		return -errno;
	if (st->max_size && sb.st_size)
		return meta_read(st, dir, name, (uint64_t)sb.st_size);
	return 0;
}

static int64_t meta_delete_op(void *arg)
{
	struct meta_state *st = arg;
	char name[NAME_LEN + 1];
	uint32_t i;

	if (st->pos >= st->nfiles)
		return WL_OP_DONE;
	i = st->order[st->pos++];
	meta_name(st, i, name);
	meta_at(st, META_AT_UNLINK, i);
	st->calls++;
	if (unlinkat(meta_dir(st, i), name, 0))
		return -errno;
	return 0;
}

const struct wl_ops wl_meta_create_ops = {
	.init = meta_create_init,
	.op = meta_create_op,
	.cleanup = meta_cleanup,
	.describe = meta_describe,
	.footprint = meta_footprint,
	.syscalls = meta_syscalls,
	.name_at = meta_name_at,
	.unit = "file created",
};

const struct wl_ops wl_meta_stat_ops = {
	.init = meta_stat_init,
	.op = meta_stat_op,
	.cleanup = meta_cleanup,
	.describe = meta_describe,
	.footprint = meta_footprint,
	.syscalls = meta_syscalls,
	.name_at = meta_name_at,
	.unit = "file stat'ed",
};

const struct wl_ops wl_meta_delete_ops = {
	.init = meta_delete_init,
	.op = meta_delete_op,
	.cleanup = meta_cleanup,
	.describe = meta_describe,
	.footprint = meta_footprint,
	.syscalls = meta_syscalls,
	.name_at = meta_name_at,
	.unit = "file deleted",
};
