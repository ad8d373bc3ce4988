/* dropbehind.h - a buffered job run as if its file were larger than RAM (private to the runner). */
#ifndef DISKBENCH_DROPBEHIND_H
#define DISKBENCH_DROPBEHIND_H

#include <stdint.h>

/*
 * The ranges of one job's file (see worker.h, "drop-behind"): what it read
 * waits to be dropped from the page cache; what it wrote is written back
 * while the job goes on (write-behind) and dropped once on the device, so
 * at most two ranges are dirty and each byte written reaches the device
 * once. Everything runs between reaps: outside every request's latency,
 * inside the window, costing what reclaim would cost with a big file.
 */
struct drop_behind {
	int fd;
	uint64_t drop_off, drop_len;	/* read, waiting to be dropped */
	uint64_t dirty_off, dirty_len;	/* written, write-back not started */
	uint64_t wb_off, wb_len;	/* written, write-back started */
};

/* A read of len bytes at off completed. */
void drop_behind_read(struct drop_behind *d, uint64_t off, uint32_t len);

/* A write of len bytes at off completed. */
void drop_behind_write(struct drop_behind *d, uint64_t off, uint32_t len);

/* Write back what is still dirty (fdatasync), inside the window: 0, or
 * -errno (a descriptor that cannot sync has nothing to write back: 0). */
int drop_behind_flush(struct drop_behind *d);

#endif
