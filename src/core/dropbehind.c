/* dropbehind.c - a buffered job run as if its file were larger than RAM. */
#include <errno.h>
#include <fcntl.h>
#include <unistd.h>

#include "dropbehind.h"

/* Data is dropped in runs of at least this much: one fadvise per 4 MiB of
 * a sequential pass, one per request when they are random. */
#define DROP_BATCH (4u << 20)

/* Drop the pending read range from the page cache. */
static void drop_pending(struct drop_behind *d)
{
	if (d->drop_len)
		posix_fadvise(d->fd, (off_t)d->drop_off, (off_t)d->drop_len, POSIX_FADV_DONTNEED);
	d->drop_len = 0;
}

/* Add a read to the pending range, or drop that and start a new one. */
void drop_behind_read(struct drop_behind *d, uint64_t off, uint32_t len)
{
	if (d->drop_len && off == d->drop_off + d->drop_len) {
		d->drop_len += len;
		if (d->drop_len >= DROP_BATCH)
			drop_pending(d);
		return;
	}
	drop_pending(d);
	d->drop_off = off;
	d->drop_len = len;
}

/* Wait for the range whose write-back was started, then drop it. */
static void behind_wait(struct drop_behind *d)
{
	if (!d->wb_len)
		return;
	if (sync_file_range(d->fd, (off64_t)d->wb_off, (off64_t)d->wb_len,
			    SYNC_FILE_RANGE_WAIT_BEFORE | SYNC_FILE_RANGE_WRITE |
			    SYNC_FILE_RANGE_WAIT_AFTER) == 0)
		posix_fadvise(d->fd, (off_t)d->wb_off, (off_t)d->wb_len, POSIX_FADV_DONTNEED);
	d->wb_len = 0;
}

/* The dirty range, once DROP_BATCH long or broken by a non-contiguous
 * write, gets its write-back started; the one before it is waited for. */
static void behind_start(struct drop_behind *d)
{
	behind_wait(d);
	if (!d->dirty_len)
		return;
	sync_file_range(d->fd, (off64_t)d->dirty_off, (off64_t)d->dirty_len,
			SYNC_FILE_RANGE_WRITE);
	d->wb_off = d->dirty_off;
	d->wb_len = d->dirty_len;
	d->dirty_len = 0;
}

void drop_behind_write(struct drop_behind *d, uint64_t off, uint32_t len)
{
	if (d->dirty_len && off == d->dirty_off + d->dirty_len) {
		d->dirty_len += len;
		if (d->dirty_len >= DROP_BATCH)
			behind_start(d);
		return;
	}
	behind_start(d);
	d->dirty_off = off;
	d->dirty_len = len;
}

int drop_behind_flush(struct drop_behind *d)
{
	if (fdatasync(d->fd) && errno != EINVAL)
		return -errno;
	return 0;
}
