/* counters.c - bytes a block device really moved, from its sysfs stat file. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "sysfs.h"
#include "target.h"

/*
 * /sys/class/block/<dev>/stat (Documentation/block/stat.rst) holds whole
 * disks and partitions alike. Field 3 is sectors read, field 7 sectors
 * written; "sectors" are always 512 bytes there, whatever the device's
 * logical block size. For dm and md devices these are the top device's
 * counts: the bytes our I/O asked of it, not the member disks' sum.
 */
void target_dev_counters(const struct target_info *t, struct dev_counters *c)
{
	char buf[512];
	uint64_t f[7];

	memset(c, 0, sizeof(*c));
	if (!t->device[0])
		return;
	/* one read(2), not stdio: this runs between timed phases, keep it cheap */
	if (sysfs_read(buf, sizeof(buf), "/sys/class/block/%s/stat", t->device))
		return;
	if (sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5],
		   &f[6]) != 7)
		return;
	c->read_bytes = f[2] * 512;
	c->write_bytes = f[6] * 512;
	c->valid = true;
}
