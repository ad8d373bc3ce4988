/* transport.h - the link a disk hangs on (USB, SATA, PCIe) and the most it can carry. */
#ifndef DISKBENCH_TRANSPORT_H
#define DISKBENCH_TRANSPORT_H

#include <stddef.h>
#include <stdint.h>

/*
 * The data rate, bytes/s, that a link of this kind and speed carries at
 * most after its line coding, from sysfs's own words: kind "usb" with a
 * USB device's speed ("480", "5000": Mbit/s; 8b/10b at 5 Gbit/s, 128b/132b
 * above), "sata" with an ata_link's sata_spd ("6.0 Gbps": 8b/10b), "pcie"
 * with a PCI device's current_link_speed ("8.0 GT/s PCIe": 8b/10b up to
 * 5 GT/s, 128b/130b above) and current_link_width ("4"; NULL or unreadable
 * is 1). desc gets the link in words ("USB 480 Mbit/s", "SATA 6.0 Gbps",
 * "PCIe 8.0 GT/s x4"). Returns 0 when the words say no rate ("Unknown",
 * "<unknown>", garbage). A pure function.
 */
uint64_t transport_rate(const char *kind, const char *speed, const char *width, char *desc,
			size_t desclen);

/*
 * The link of the block device whose sysfs device directory is dev (a
 * path such as /sys/block/sda/device, followed to its place in
 * /sys/devices; a tree rooted elsewhere works the same, for tests): the
 * nearest USB device (a directory with speed and idVendor), SATA link
 * (ataN/linkM/ata_link/linkM/sata_spd) or PCIe function (current_link_speed)
 * above it, nearest first. Returns its transport_rate, with desc; 0 and
 * desc "" when none is found or it says no rate.
 */
uint64_t transport_probe(const char *dev, char *desc, size_t desclen);

#endif
