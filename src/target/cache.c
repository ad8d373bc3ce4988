/* cache.c - lay out test files with real data, and drop cached pages. */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "target.h"
#include "verify.h"
#include "workload.h"

#define LAYOUT_BUF (1u << 20)
/* O_DIRECT buffer alignment: enough for any logical block size up to a page */
#define LAYOUT_ALIGN 4096

/* Leave O_DIRECT: the file system refused it or this write is unaligned. */
static int go_buffered(int fd)
{
	int fl = fcntl(fd, F_GETFL);

	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_DIRECT) < 0)
		return -errno;
	return 0;
}

/* A chunk of the layout at off, checkable: 4 KiB units, then 512-byte ones
 * for a tail shorter than 4 KiB; a tail under 512 bytes stays unstamped. */
static void layout_stamp(void *buf, size_t chunk, uint64_t off, uint64_t seed, uint32_t *crcs)
{
	size_t big = chunk / VERIFY_UNIT * VERIFY_UNIT, small = chunk - big;

	verify_payload_crcs(buf, (uint32_t)big, VERIFY_UNIT, crcs);
	verify_stamp(buf, (uint32_t)big, VERIFY_UNIT, off, seed, off / VERIFY_UNIT, crcs);
	verify_payload_crcs((char *)buf + big, (uint32_t)small, VERIFY_UNIT_MIN, crcs);
	verify_stamp((char *)buf + big, (uint32_t)small, VERIFY_UNIT_MIN, off + big, seed,
		     (off + big) / VERIFY_UNIT_MIN, crcs);
}

/*
 * Writes go out in chunks of a whole number of bs blocks, up to max(bs, 1 MiB):
 * a 4 KiB bs would otherwise take a syscall (and with O_DIRECT a device
 * round trip) per block, and the layout is not what we measure. Every chunk
 * is fresh random data, with each 512-byte sector stamped with its index in
 * the file, so neither compression nor dedup can shrink it.
 */
int target_layout(const struct target_file *f, uint64_t len, uint32_t bs, uint64_t seed,
		  bool checkable, const volatile sig_atomic_t *stop,
		  void (*progress)(void *arg, uint64_t done, uint64_t total), void *arg)
{
	size_t bufsz, chunk, done;
	struct wl_rng rng;
	uint64_t off = 0;
	bool direct = true;
	void *buf = NULL;
	uint32_t *crcs = NULL;
	ssize_t n;
	int fd, ret = 0;

	if (!f || !bs)
		return -EINVAL;
	bufsz = bs > LAYOUT_BUF ? bs : LAYOUT_BUF / bs * bs;
	if (posix_memalign(&buf, LAYOUT_ALIGN, bufsz))
		return -ENOMEM;
	if (checkable && !(crcs = calloc(bufsz / VERIFY_UNIT_MIN, sizeof(*crcs)))) {
		ret = -ENOMEM;
		goto out;
	}
	/* no O_CREAT: only files we made (target_scratch_file) get written */
	fd = target_open(f, O_WRONLY | O_DIRECT);
	if (fd == -EINVAL) {
		direct = false;
		fd = target_open(f, O_WRONLY);
	}
	if (fd < 0) {
		ret = fd;
		goto out;
	}
	wl_rng_seed(&rng, seed);
	while (off < len) {
		if (stop && *stop) {
			ret = -EINTR;
			goto out_close;
		}
		chunk = len - off < bufsz ? (size_t)(len - off) : bufsz;
		wl_fill_random(buf, chunk, &rng);
		if (checkable)
			layout_stamp(buf, chunk, off, seed, crcs);
		else
			wl_stamp(buf, (uint32_t)chunk, off / 512);
		for (done = 0; done < chunk; done += (size_t)n) {
			n = pwrite(fd, (char *)buf + done, chunk - done, (off_t)(off + done));
			if (n < 0 && errno == EINTR) {
				n = 0;
				continue;
			}
			if (n < 0 && errno == EINVAL && direct) {
				/* tail not a block multiple, or a short write left
				 * us unaligned: finish through the page cache */
				direct = false;
				ret = go_buffered(fd);
				if (ret)
					goto out_close;
				n = 0;
				continue;
			}
			if (n < 0) {
				ret = -errno;
				goto out_close;
			}
			if (n == 0) {
				ret = -EIO;
				goto out_close;
			}
		}
		off += chunk;
		if (progress)
			progress(arg, off, len);
	}
	if (fdatasync(fd) < 0) {
		ret = -errno;
		goto out_close;
	}
	/* buffered fallback left the data cached: a read test must not start warm */
	if (!direct)
		posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
out_close:
	if (close(fd) < 0 && !ret)
		ret = -errno;
out:
	free(crcs);
	free(buf);
	return ret;
}

int target_drop_cache(int fd, enum target_kind kind)
{
	int ret;

	if (kind == TARGET_BLOCK)
		return ioctl(fd, BLKFLSBUF, 0) < 0 ? -errno : 0;
	/* dirty pages are not dropped: write them out first. EINVAL is a
	 * descriptor that cannot sync, which leaves nothing to write back */
	if (fdatasync(fd) < 0 && errno != EINVAL)
		return -errno;
	ret = posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
	return -ret;
}

int target_drop_file_cache(const struct target_file *f, enum target_kind kind)
{
	int fd = target_open(f, O_RDONLY), ret;

	if (fd < 0)
		return fd;
	ret = target_drop_cache(fd, kind);
	close(fd);
	return ret;
}

int target_drop_all_caches(void)
{
	int fd, ret = 0;

	sync();
	fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, "3\n", 2) != 2)
		ret = -errno;
	close(fd);
	return ret;
}
