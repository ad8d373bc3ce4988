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
/* The counters of one sysfs block device; false when they cannot be read. */
static bool dev_stat(const char *name, uint64_t *rd, uint64_t *wr)
{
	char buf[512];
	uint64_t f[7];

	/* one read(2), not stdio: this runs between timed phases, keep it cheap */
	if (sysfs_read(buf, sizeof(buf), "/sys/class/block/%s/stat", name))
		return false;
	if (sscanf(buf, "%" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
		   " %" SCNu64 " %" SCNu64, &f[0], &f[1], &f[2], &f[3], &f[4], &f[5],
		   &f[6]) != 7)
		return false;
	*rd = f[2] * 512;
	*wr = f[6] * 512;
	return true;
}

/*
 * A multi-device btrfs spreads (and mirrors) its I/O over its members:
 * the first alone could show no reads where another member served them,
 * and the test would be called cached. So every member counts; a member
 * that cannot be read makes the whole count invalid rather than short.
 */
void target_dev_counters(const struct target_info *t, struct dev_counters *c)
{
	const char *p = t->members;
	char name[64];
	uint64_t rd, wr;
	size_t n;

	memset(c, 0, sizeof(*c));
	if (!t->device[0])
		return;
	if (!*p) {
		c->valid = dev_stat(t->device, &c->read_bytes, &c->write_bytes);
		return;
	}
	while (*p) {
		n = strcspn(p, " ");
		if (n && n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			if (!dev_stat(name, &rd, &wr)) {
				memset(c, 0, sizeof(*c));
				return;
			}
			c->read_bytes += rd;
			c->write_bytes += wr;
		}
		p += n;
		while (*p == ' ')
			p++;
	}
	c->valid = true;
}
