/* transport.c - the link above a block device in sysfs, and its top data rate. */
#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sysfs.h"
#include "transport.h"

uint64_t transport_rate(const char *kind, const char *speed, const char *width, char *desc,
			size_t desclen)
{
	char *end;
	double v = speed ? strtod(speed, &end) : 0, coding, lanes = 1;

	if (desclen)
		desc[0] = '\0';
	if (!speed || end == speed || !(v > 0))
		return 0;
	if (!strcmp(kind, "usb")) {
		/* Mbit/s on the wire */
		coding = v <= 480 ? 1 : v <= 5000 ? 0.8 : 128.0 / 132.0;
		snprintf(desc, desclen, "USB %.0f Mbit/s", v);
		return (uint64_t)(v * 1e6 * coding / 8);
	}
	if (!strcmp(kind, "sata")) {
		if (strncmp(end, " Gbps", 5))
			return 0;
		snprintf(desc, desclen, "SATA %.1f Gbps", v);
		return (uint64_t)(v * 1e9 * 0.8 / 8);
	}
	if (!strcmp(kind, "pcie")) {
		if (strncmp(end, " GT/s", 5))
			return 0;
		if (width && atoi(width) > 0)
			lanes = atoi(width);
		coding = v <= 5 ? 0.8 : 128.0 / 130.0;
		snprintf(desc, desclen, "PCIe %.1f GT/s x%.0f", v, lanes);
		return (uint64_t)(v * 1e9 * coding * lanes / 8);
	}
	return 0;
}

/* The sata_spd of dir/linkM/ata_link/linkM, dir being an ataN directory. */
static uint64_t sata_link(const char *dir, char *desc, size_t desclen)
{
	char path[PATH_MAX], spd[64];
	struct dirent *e;
	uint64_t rate = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while (!rate && (e = readdir(d))) {
		if (strncmp(e->d_name, "link", 4))
			continue;
		snprintf(path, sizeof(path), "%s/%s/ata_link/%s/sata_spd", dir, e->d_name,
			 e->d_name);
		if (!sysfs_read(spd, sizeof(spd), "%s", path))
			rate = transport_rate("sata", spd, NULL, desc, desclen);
	}
	closedir(d);
	return rate;
}

uint64_t transport_probe(const char *dev, char *desc, size_t desclen)
{
	char dir[PATH_MAX], speed[64], width[16], *slash;
	uint64_t rate = 0;

	if (desclen)
		desc[0] = '\0';
	if (!realpath(dev, dir))
		return 0;
	/* upwards, nearest first: the link a disk is on, not the one its
	 * controller's controller is on */
	while (!rate && (slash = strrchr(dir, '/')) && slash != dir) {
		if (!strncmp(slash + 1, "ata", 3) && slash[4] >= '0' && slash[4] <= '9')
			rate = sata_link(dir, desc, desclen);
		else if (!sysfs_read(speed, sizeof(speed), "%s/current_link_speed", dir))
			rate = transport_rate("pcie", speed, sysfs_read(width, sizeof(width),
					      "%s/current_link_width", dir) ? NULL : width,
					      desc, desclen);
		else if (!sysfs_read(speed, sizeof(speed), "%s/speed", dir) &&
			 !sysfs_read(width, sizeof(width), "%s/idVendor", dir))
			rate = transport_rate("usb", speed, NULL, desc, desclen);
		*slash = '\0';
	}
	return rate;
}
