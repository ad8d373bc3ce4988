/* counters.c - bytes a block device really moved, from its sysfs stat file. */
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

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
	char path[128], buf[512];
	uint64_t f[7];
	ssize_t n;
	int fd;

	memset(c, 0, sizeof(*c));
	if (!t->device[0])
		return;
	snprintf(path, sizeof(path), "/sys/class/block/%s/stat", t->device);
	/* read(2), not stdio: this runs between timed phases, keep it cheap */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	if (sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5],
		   &f[6]) != 7)
		return;
	c->read_bytes = f[2] * 512;
	c->write_bytes = f[6] * 512;
	c->valid = true;
}
