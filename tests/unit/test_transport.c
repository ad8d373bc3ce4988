/* test_transport.c - a disk's link and its top rate, from sysfs words and fake sysfs trees. */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "annotate.h"
#include "result.h"
#include "transport.h"

/* The words sysfs uses, and what each link carries after its coding. */
static void test_rates(void **state)
{
	char d[64];

	(void)state;
	assert_int_equal(transport_rate("usb", "480", NULL, d, sizeof(d)), 60000000);
	assert_string_equal(d, "USB 480 Mbit/s");
	assert_int_equal(transport_rate("usb", "5000", NULL, d, sizeof(d)), 500000000);
	assert_int_equal(transport_rate("sata", "6.0 Gbps", NULL, d, sizeof(d)), 600000000);
	assert_string_equal(d, "SATA 6.0 Gbps");
	assert_int_equal(transport_rate("sata", "1.5 Gbps", NULL, d, sizeof(d)), 150000000);
	/* PCIe 3.0 x4: 8 GT/s, 128b/130b, 4 lanes */
	assert_int_equal(transport_rate("pcie", "8.0 GT/s PCIe", "4", d, sizeof(d)),
			 (uint64_t)(8e9 * 128.0 / 130.0 * 4 / 8));
	assert_string_equal(d, "PCIe 8.0 GT/s x4");
	assert_int_equal(transport_rate("pcie", "2.5 GT/s PCIe", NULL, d, sizeof(d)), 250000000);
	/* no rate in the words: nothing claimed */
	assert_int_equal(transport_rate("pcie", "Unknown", "4", d, sizeof(d)), 0);
	assert_string_equal(d, "");
	assert_int_equal(transport_rate("sata", "<unknown>", NULL, d, sizeof(d)), 0);
	assert_int_equal(transport_rate("usb", "", NULL, d, sizeof(d)), 0);
	assert_int_equal(transport_rate("scsi", "12", NULL, d, sizeof(d)), 0);
}

static char root[PATH_MAX];

static void put(const char *rel, const char *text)
{
	char path[PATH_MAX], cmd[PATH_MAX + 16];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s'", path);
	*strrchr(cmd, '/') = '\0';
	strcat(cmd, "'");
	assert_int_equal(system(cmd), 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void mkdirs(const char *rel)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/%s'", root, rel);
	assert_int_equal(system(cmd), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(root, sizeof(root), "/tmp/test_transport.XXXXXX");
	return mkdtemp(root) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd);
}

/* The nearest link above the disk wins: a USB stick on a PCIe controller
 * is the USB link's; a SATA disk's ata link; an NVMe drive's function. */
static void test_trees(void **state)
{
	char dev[PATH_MAX], d[64];

	(void)state;
	/* USB 2 stick: usb1/1-1 (speed 480, idVendor) / 1-1:1.0 / host / target / lun */
	put("pci/0000:00:14.0/current_link_speed", "8.0 GT/s PCIe\n");
	put("pci/0000:00:14.0/usb1/1-1/speed", "480\n");
	put("pci/0000:00:14.0/usb1/1-1/idVendor", "0781\n");
	mkdirs("pci/0000:00:14.0/usb1/1-1/1-1:1.0/host6/target6:0:0/6:0:0:0");
	snprintf(dev, sizeof(dev), "%s/pci/0000:00:14.0/usb1/1-1/1-1:1.0/host6/target6:0:0/6:0:0:0",
		 root);
	assert_int_equal(transport_probe(dev, d, sizeof(d)), 60000000);
	assert_string_equal(d, "USB 480 Mbit/s");

	/* SATA: ata2/link2/ata_link/link2/sata_spd, the disk under ata2/host1 */
	put("pci/0000:00:1f.2/ata2/link2/ata_link/link2/sata_spd", "3.0 Gbps\n");
	mkdirs("pci/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0");
	snprintf(dev, sizeof(dev), "%s/pci/0000:00:1f.2/ata2/host1/target1:0:0/1:0:0:0", root);
	assert_int_equal(transport_probe(dev, d, sizeof(d)), 300000000);
	assert_string_equal(d, "SATA 3.0 Gbps");

	/* NVMe: the PCIe function above nvme/nvme0 */
	put("pci/0000:01:00.0/current_link_speed", "16.0 GT/s PCIe\n");
	put("pci/0000:01:00.0/current_link_width", "4\n");
	mkdirs("pci/0000:01:00.0/nvme/nvme0");
	snprintf(dev, sizeof(dev), "%s/pci/0000:01:00.0/nvme/nvme0", root);
	assert_int_equal(transport_probe(dev, d, sizeof(d)), (uint64_t)(16e9 * 128.0 / 130.0 * 4 / 8));

	/* virtio on a PCI function that says Unknown, or nothing at all */
	put("pci/0000:00:04.0/current_link_speed", "Unknown\n");
	mkdirs("pci/0000:00:04.0/virtio1");
	snprintf(dev, sizeof(dev), "%s/pci/0000:00:04.0/virtio1", root);
	assert_int_equal(transport_probe(dev, d, sizeof(d)), 0);
	assert_string_equal(d, "");
	mkdirs("virtual/block/loop0");
	snprintf(dev, sizeof(dev), "%s/virtual/block/loop0", root);
	assert_int_equal(transport_probe(dev, d, sizeof(d)), 0);
	assert_int_equal(transport_probe("/nonexistent/x", d, sizeof(d)), 0);
}

/* A USB 2 stick at 500 MB/s is not the stick: flagged, with its link; at
 * 50 MB/s it is; reads the page cache answered are flagged as cached. */
static void test_beyond(void **state)
{
	static const double rates[] = { 500e6, 50e6, 500e6 };
	struct run_result r = { 0 };
	bool said = false;

	(void)state;
	r.target.transport_bps = 60000000;
	snprintf(r.target.transport, sizeof(r.target.transport), "USB 480 Mbit/s");
	for (unsigned i = 0; i < 3; i++) {
		struct test_result t = { 0 };

		snprintf(t.name, sizeof(t.name), "seq-read %u", i);
		t.workload = "seq-read";
		t.runtime_ns = 1000000000;
		t.bytes = (uint64_t)rates[i];
		t.ops = t.bytes >> 20;
		t.bytes_per_sec = rates[i];
		t.dev_valid = true;
		t.dev_read_bytes = i == 2 ? 0 : t.bytes;	/* the last: the cache's */
		t.cached = i == 2;
		assert_int_equal(result_add_test(&r, &t), 0);
	}
	result_annotate(&r, &(struct annotate_in){ .moves_data = true });
	assert_true(r.tests[0].implausible);
	assert_false(r.tests[1].implausible);
	assert_false(r.tests[2].implausible);
	for (unsigned i = 0; i < r.nwarnings; i++)
		said |= strstr(r.warnings[i], "seq-read 0 (500 MB/s): implausible: more than the "
			       "link carries (USB 480 Mbit/s: at most 60 MB/s)") != NULL;
	assert_true(said);
	result_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rates),
		cmocka_unit_test(test_beyond),
		cmocka_unit_test_setup_teardown(test_trees, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
