/* unwritten.c - did a read test read space never written: the data's allocation, a sample of what it holds. */
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysfs.h"
#include "unwritten.h"
#include "workload.h"

void unwritten_wilson(uint32_t k, uint32_t n, double *lo, double *hi)
{
	const double z = 1.959963984540054;
	double p, d, c, h;

	if (!n) {
		*lo = 0;
		*hi = 1;
		return;
	}
	p = (double)k / n;
	d = 1 + z * z / n;
	c = (p + z * z / (2.0 * n)) / d;
	h = z / d * sqrt(p * (1 - p) / n + z * z / (4.0 * n * n));
	*lo = c - h < 0 ? 0 : c - h;
	*hi = c + h > 1 ? 1 : c + h;
	/* exact at the ends, where rounding leaves a crumb */
	if (k == 0)
		*lo = 0;
	if (k == n)
		*hi = 1;
}

bool unwritten_blank(const void *buf, size_t len)
{
	const uint64_t *w = buf;
	size_t n = len / sizeof(*w);

	for (size_t i = 1; i < n; i++)
		if (w[i] != w[0])
			return false;
	return true;
}

/* The loop device's backing file and where the target starts in it. */
static int loop_backing(const struct target_info *ti, struct read_layout *out)
{
	char buf[PATH_MAX];
	uint64_t off = 0, start = 0;
	size_t n;
	int ret;

	ret = sysfs_read(buf, sizeof(buf), "/sys/block/%s/loop/backing_file", ti->disk);
	if (ret) {
		snprintf(out->why, sizeof(out->why), "/sys/block/%s/loop/backing_file: %s",
			 ti->disk, strerror(-ret));
		return ret;
	}
	snprintf(out->file, sizeof(out->file), "%s", buf);
	n = strlen(buf);
	if (n > 10 && !strcmp(buf + n - 10, " (deleted)")) {
		snprintf(out->why, sizeof(out->why), "the backing file of %s was deleted (%s)",
			 ti->disk, buf);
		return -ENOENT;
	}
	if (sysfs_read_u64(&off, "/sys/block/%s/loop/offset", ti->disk))
		off = 0;
	/* a partition of the loop device: its start, in 512-byte sectors */
	if (strcmp(ti->device, ti->disk) &&
	    !sysfs_read_u64(&start, "/sys/class/block/%s/start", ti->device))
		off += start * 512;
	out->offset = off;
	return 0;
}

int unwritten_layout_open(const struct target_info *ti, const struct target_file *data,
			  struct read_layout *out)
{
	int fd;

	*out = (struct read_layout){ .known = true };
	switch (ti->kind) {
	case TARGET_FILE:
		snprintf(out->source, sizeof(out->source), "target file");
		snprintf(out->file, sizeof(out->file), "%s", ti->resolved);
		fd = target_open(data, O_RDONLY);
		break;
	case TARGET_DIR:
		snprintf(out->source, sizeof(out->source), "scratch data file");
		snprintf(out->file, sizeof(out->file), "%s", data->name);
		fd = target_open(data, O_RDONLY);
		break;
	case TARGET_BLOCK:
	default:
		if (strncmp(ti->disk, "loop", 4)) {
			snprintf(out->why, sizeof(out->why), "%s is not a file or a loop device: "
				 "which blocks it holds is the device's own (the sample says)",
				 ti->path);
			return -1;
		}
		snprintf(out->source, sizeof(out->source), "loop backing file");
		if (loop_backing(ti, out))
			return -1;
		fd = open(out->file, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		if (fd < 0)
			fd = -errno;
		break;
	}
	if (fd < 0) {
		snprintf(out->why, sizeof(out->why), "%s: %s", out->file, strerror(-fd));
		return -1;
	}
	/* A file system without SEEK_DATA answers EINVAL: nothing to ask. */
	if (lseek(fd, 0, SEEK_DATA) < 0 && errno != ENXIO) {
		snprintf(out->why, sizeof(out->why), "%s: SEEK_DATA: %s", out->file,
			 strerror(errno));
		close(fd);
		return -1;
	}
	out->checked = true;
	return fd;
}

/* Bytes of [from, to) of fd with no data allocated; -errno on failure.
 * Past the end of the file counts as a hole (it reads back as zeros). */
static int64_t hole_bytes(int fd, uint64_t from, uint64_t to)
{
	uint64_t pos = from, holes = 0;
	off_t d, h;

	while (pos < to) {
		d = lseek(fd, (off_t)pos, SEEK_DATA);
		if (d < 0 && errno != ENXIO)
			return -errno;
		if (d < 0 || (uint64_t)d >= to) {	/* no data up to the end */
			holes += to - pos;
			break;
		}
		holes += (uint64_t)d - pos;
		h = lseek(fd, d, SEEK_HOLE);
		if (h < 0)
			return -errno;
		pos = (uint64_t)h;
	}
	return (int64_t)holes;
}

static int layout_share(int fd, uint64_t offset, const struct read_extent *x, double *share)
{
	uint64_t holes = 0, total = read_extent_bytes(x);

	for (uint32_t i = 0; i < x->parts; i++) {
		uint64_t a = offset + (uint64_t)i * x->stride;
		int64_t h = hole_bytes(fd, a, a + x->span);

		if (h < 0)
			return (int)h;
		holes += (uint64_t)h;
	}
	*share = total ? (double)holes / (double)total : 0;
	return 0;
}

/* A sample's reads: what they read with, and who hears of each. */
struct sampler {
	int fd;
	bool direct;
	void *buf;
	void (*step)(void *arg, uint64_t done, uint64_t total);
	void *step_arg;
};

/* Read n sampled blocks, counting the blank ones. */
static int sample(const struct sampler *sp, const struct read_extent *x, uint32_t bs,
		  uint32_t n, uint64_t seed, uint32_t *blank, uint64_t *bad_off)
{
	const uint64_t total = read_extent_bytes(x), blocks = total / bs;
	struct wl_rng rng;

	wl_rng_seed(&rng, seed ^ 0x756e7772697474ull);
	*blank = 0;
	for (uint32_t k = 0; k < n; k++) {
		/* stratum k of n: blocks [k * blocks / n, (k + 1) * blocks / n) */
		uint64_t lo = (uint64_t)((unsigned __int128)k * blocks / n);
		uint64_t hi = (uint64_t)((unsigned __int128)(k + 1) * blocks / n);
		uint64_t pos = (lo + (hi > lo ? wl_rng_below(&rng, hi - lo) : 0)) * bs;
		/* pos within the concatenated slices -> offset in the data */
		uint64_t part = pos / x->span, in = pos % x->span;
		uint64_t off = part * x->stride + in;
		ssize_t got;

		if (in + bs > x->span)	/* a slice's tail shorter than a block */
			off = part * x->stride + (x->span - bs) / bs * bs;
		got = pread(sp->fd, sp->buf, bs, (off_t)off);
		if (got != (ssize_t)bs) {
			*bad_off = off;
			return got < 0 ? -errno : -EIO;
		}
		*blank += unwritten_blank(sp->buf, bs);
		if (sp->step)
			sp->step(sp->step_arg, k + 1, n);
	}
	if (!sp->direct)
		posix_fadvise(sp->fd, 0, 0, POSIX_FADV_DONTNEED);
	return 0;
}

int unwritten_check(const struct target_file *data, int layout_fd,
		    const struct read_layout *lay, const struct read_extent *x,
		    uint32_t lbs, uint64_t seed, struct unwritten *out,
		    void (*step)(void *arg, uint64_t done, uint64_t total), void *step_arg)
{
	uint32_t bs = lbs > UNWRITTEN_BLOCK ? lbs : UNWRITTEN_BLOCK;
	uint64_t total = read_extent_bytes(x), bad_off = 0;
	struct sampler sp = { .direct = true, .step = step, .step_arg = step_arg };
	uint32_t n;
	int fd, ret;

	*out = (struct unwritten){ .applies = true, .block_bytes = bs, .region_bytes = total };
	if (!x->parts || x->span < bs) {
		snprintf(out->why, sizeof(out->why), "its reads covered less than one %u-byte "
			 "block", bs);
		return -EINVAL;
	}
	if (layout_fd >= 0 && !layout_share(layout_fd, lay->offset, x, &out->layout_share))
		out->layout_valid = true;
	n = total / bs < UNWRITTEN_SAMPLES ? (uint32_t)(total / bs) : UNWRITTEN_SAMPLES;
	fd = target_open(data, O_RDONLY | O_DIRECT);
	if (fd == -EINVAL) {	/* the file system refuses O_DIRECT */
		sp.direct = false;
		fd = target_open(data, O_RDONLY);
	}
	if (fd < 0) {
		snprintf(out->why, sizeof(out->why), "opening %s to read a sample back: %s",
			 data->name, strerror(-fd));
		return fd;
	}
	if (posix_memalign(&sp.buf, 4096, bs)) {
		close(fd);
		snprintf(out->why, sizeof(out->why), "out of memory for the sample");
		return -ENOMEM;
	}
	sp.fd = fd;
	ret = sample(&sp, x, bs, n, seed, &out->blank, &bad_off);
	free(sp.buf);
	close(fd);
	if (ret) {
		snprintf(out->why, sizeof(out->why), "reading a sample back at offset %llu: %s",
			 (unsigned long long)bad_off, ret == -EIO ? "short read" : strerror(-ret));
		return ret;
	}
	out->checked = true;
	out->sampled = n;
	out->share = (double)out->blank / n;
	unwritten_wilson(out->blank, n, &out->lo, &out->hi);
	return 0;
}
