/* meta.c - file create/stat/delete in name or random order: bonnie++ -n semantics. */
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
/* "f" and ten digits: every uint32_t index, zero-padded (names sort as numbers) */
#define NAME_LEN 11

enum meta_mode { META_CREATE, META_STAT, META_DELETE };

/*
 * One job's tree: <scratch>/meta-<job>/d<k>/f<10 digits>. File i lives in
 * directory i * ndirs / nfiles: contiguous runs, so the name order walks
 * one directory after the other as a real tree would. Every operation is
 * relative to an open directory fd (openat, fstatat, unlinkat): no path
 * walk from the root per file, as bonnie++ avoids by chdir()ing into its
 * directory.
 */
struct meta_state {
	enum meta_mode mode;
	int topfd, rootfd;
	int *dirfd;
	uint32_t ndirs, nfiles;
	uint32_t *order;	/* indices in the order of the test */
	uint32_t pos;		/* next place in order */
	bool all_made;		/* init created every file (stat, delete) */
	uint32_t made;		/* files init created, in name order, when it failed */
	uint64_t min_size, max_size;
	bool fsync;
	struct wl_rng rng;
	unsigned char *data;
	size_t datalen;
	uint64_t seq;
	char root[32];
};

static void meta_describe(const struct wl_job *job, struct wl_desc *d)
{
	d->engine = "posix";
	d->io_size = job->max_size > UINT32_MAX ? UINT32_MAX : (uint32_t)job->max_size;
	d->direct = false;
}

static void meta_name(uint32_t i, char name[NAME_LEN + 1])
{
	int k;

	/* snprintf would cost more than a cached stat */
	name[0] = 'f';
	for (k = NAME_LEN - 1; k >= 1; k--, i /= 10)
		name[k] = (char)('0' + i % 10);
	name[NAME_LEN] = '\0';
}

static int meta_dir(const struct meta_state *st, uint32_t i)
{
	return st->dirfd[(uint64_t)i * st->ndirs / st->nfiles];
}

/* Create file i with its data; 0 or -errno; *bytes gets the size written. */
static int meta_make(struct meta_state *st, uint32_t i, bool sync, uint64_t *bytes)
{
	char name[NAME_LEN + 1];
	uint64_t size = st->min_size, left;
	int fd, ret = 0;

	meta_name(i, name);
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
		w = raw_write(fd, st->data, n);
		if (w <= 0) {
			ret = w < 0 ? -errno : -EIO;
			break;
		}
		left -= (uint64_t)w;
	}
	if (!ret && sync && fsync(fd))
		ret = -errno;
	if (raw_close(fd) && !ret)
		ret = -errno;
	*bytes = size - left;
	return ret;
}

static void meta_unlink(struct meta_state *st, uint32_t from, uint32_t to)
{
	char name[NAME_LEN + 1];

	for (uint32_t p = from; p < to; p++) {
		meta_name(st->order[p], name);
		unlinkat(meta_dir(st, st->order[p]), name, 0);
	}
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
			unlinkat(st->rootfd, name, AT_REMOVEDIR);
		}
	}
	if (st->rootfd >= 0) {
		close(st->rootfd);
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

static int meta_init(void **state, const struct wl_job *job, enum meta_mode mode, char *err,
		     size_t errlen)
{
	struct meta_state *st;
	char name[32];
	uint64_t bytes;
	int ret;

	*state = NULL;
	if (!job->scratch_dir || !job->scratch_dir[0]) {
		snprintf(err, errlen, "file tests need a directory target (a file system)");
		return -ENOTDIR;
	}
	if (!job->nfiles || job->nfiles > UINT32_MAX || !job->ndirs ||
	    job->ndirs > job->nfiles) {
		snprintf(err, errlen, "bad file-test parameters: %llu files in %u directories",
			 (unsigned long long)job->nfiles, job->ndirs);
		return -EINVAL;
	}
	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	*state = st;
	st->mode = mode;
	st->topfd = st->rootfd = -1;
	st->nfiles = (uint32_t)job->nfiles;
	st->ndirs = job->ndirs;
	st->min_size = job->min_size;
	st->max_size = job->max_size > job->min_size ? job->max_size : job->min_size;
	st->fsync = job->fsync;
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
	wl_rng_seed(&st->rng, job->seed ^ (0x3c6ef372fe94f82bull * (job->job + 1)));
	wl_fill_random(st->data, st->datalen, &st->rng);
	st->seq = (uint64_t)job->job << 48;
	for (uint32_t i = 0; i < st->nfiles; i++)
		st->order[i] = i;

	st->topfd = open(job->scratch_dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (st->topfd < 0)
		return meta_fail(err, errlen, -errno, "opening", job->scratch_dir);
	snprintf(st->root, sizeof(st->root), "meta-%u", job->job);
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

	if (mode != META_CREATE) {
		/* The files the test stats or deletes, made before the clock
		 * starts, in name order; then on disk, as bonnie++'s would be
		 * after its create phase. */
		for (uint32_t i = 0; i < st->nfiles; i++) {
			ret = meta_make(st, i, false, &bytes);
			if (ret) {
				st->made = i + 1;	/* the i-th may exist, half written */
				meta_name(i, name);
				return meta_fail(err, errlen, ret, "creating file", name);
			}
		}
		st->all_made = true;
		if (syncfs(st->rootfd))
			return meta_fail(err, errlen, -errno, "syncing", st->root);
	}
	/* The random order: a seeded shuffle, outside the timed ops. */
	if (job->pattern == WL_RAND)
		wl_permute(st->order, st->nfiles, &st->rng);
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

/* Endlessly, in the test's order. */
static int64_t meta_stat_op(void *arg)
{
	struct meta_state *st = arg;
	char name[NAME_LEN + 1];
	struct stat sb;
	uint32_t i = st->order[st->pos];

	if (++st->pos == st->nfiles)
		st->pos = 0;
	meta_name(i, name);
	if (fstatat(meta_dir(st, i), name, &sb, AT_SYMLINK_NOFOLLOW))
		return -errno;
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
	meta_name(i, name);
	if (unlinkat(meta_dir(st, i), name, 0))
		return -errno;
	return 0;
}

const struct wl_ops wl_meta_create_ops = {
	.init = meta_create_init,
	.op = meta_create_op,
	.cleanup = meta_cleanup,
	.describe = meta_describe,
	.unit = "file created",
};

const struct wl_ops wl_meta_stat_ops = {
	.init = meta_stat_init,
	.op = meta_stat_op,
	.cleanup = meta_cleanup,
	.describe = meta_describe,
	.unit = "file stat'ed",
};

const struct wl_ops wl_meta_delete_ops = {
	.init = meta_delete_init,
	.op = meta_delete_op,
	.cleanup = meta_cleanup,
	.describe = meta_describe,
	.unit = "file deleted",
};
