/* report_render.c - renders fixed results through the reporters, for tests/cli/report.sh. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "report.h"
#include "parse.h"

static int fails;

/* usage: report_render fmt | json N | text N   (N: 0 plain, 1 hostile strings, 2 empty) */
#define EXPECT_STR(got, want) do { if (strcmp(got, want)) { \
	fprintf(stderr, "FAIL %s:%d got '%s' want '%s'\n", __FILE__, __LINE__, got, want); fails++; } } while (0)

static void check_fmt(void)
{
	static const struct { double v; const char *want; } ns[] = {
		{0, "0ns"}, {812, "812ns"}, {999.4, "999ns"}, {999.5, "1.00us"}, {1000, "1.00us"},
		{1234, "1.23us"}, {9994, "9.99us"}, {9996, "10.0us"}, {81200, "81.2us"},
		{99949, "99.9us"}, {99951, "100us"}, {999499, "999us"}, {999501, "1.00ms"},
		{1.2e6, "1.20ms"}, {12.3e6, "12.3ms"}, {1.5e9, "1.50s"}, {999.4e9, "999s"},
		{1500e9, "1500s"}, {-1, "-"}, {0.0/0.0, "-"}, {1.0/0.0, "-"},
	};
	static const struct { double v; const char *want; } cnt[] = {
		{0, "0"}, {812, "812"}, {12, "12"}, {45.3, "45.3"}, {0.5, "0.5"}, {812.4, "812"},
		{999.6, "1.00k"}, {12345, "12.3k"}, {1.23e6, "1.23M"}, {12.3e6, "12.3M"},
		{1.23e9, "1.23G"}, {999.96e3, "1.00M"}, {-3, "-"},
	};
	static const struct { uint64_t v; const char *want; } cap[] = {
		{0, "0 B"}, {1023, "1023 B"}, {1024, "1.00 KiB"}, {10230, "9.99 KiB"},
		{10235, "10.0 KiB"}, {102348, "99.9 KiB"}, {1047961, "1023 KiB"},
		{1048064, "1.00 MiB"}, {4123456789ull, "3.84 GiB"}, {12345678901ull, "11.5 GiB"},
		{21474836480ull, "20.0 GiB"}, {UINT64_MAX, "16.0 EiB"},
	};
	char b[32];
	unsigned i;

	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		EXPECT_STR(report_fmt_ns(ns[i].v, b, sizeof(b)), ns[i].want);
	for (i = 0; i < sizeof(cnt) / sizeof(cnt[0]); i++)
		EXPECT_STR(report_fmt_count(cnt[i].v, b, sizeof(b)), cnt[i].want);
	for (i = 0; i < sizeof(cap) / sizeof(cap[0]); i++)
		EXPECT_STR(report_fmt_capacity(cap[i].v, b, sizeof(b)), cap[i].want);
	/* tiny buffer: truncated, terminated */
	report_fmt_ns(123456, b, 3);
	EXPECT_STR(b, "12");
}

static struct hist *mkhist(uint64_t base, unsigned n, unsigned seed)
{
	struct hist *h = malloc(sizeof(*h));
	unsigned i;

	hist_init(h);
	srand(seed);
	for (i = 0; i < n; i++)
		hist_add(h, base + (uint64_t)(rand() % 1000) * base / 200 + (i % 997 == 0 ? base * 50 : 0));
	return h;
}

static void fill(struct run_result *r, int scenario)
{
	struct test_result t;

	memset(r, 0, sizeof(*r));
	r->tool_version = "0.1.0";
	snprintf(r->started_at, sizeof(r->started_at), "2024-11-29T19:43:00Z");
	if (scenario == 1) {
		/* escapes: quotes, backslash, control chars, valid and invalid UTF-8 */
		snprintf(r->label, sizeof(r->label), "q\"uo\\te\ttab\nnl\x01\x1b[31mred é€😀 bad\xff\xc0\xaf\xed\xa0\x80 end");
		snprintf(r->target.path, sizeof(r->target.path), "/tmp/we\"ird\\pa\nth/%s/é\xfe",
			 "a-very-long-directory-name-that-goes-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-and-on-ééééééééééééééééééééé-x");
		snprintf(r->target.resolved, sizeof(r->target.resolved), "/real/path");
		snprintf(r->target.mount_options, sizeof(r->target.mount_options), "%s",
			 "rw,relatime,lowerdir=/var/lib/docker/overlay2/l/ABCDEFGHIJKLMNOP:/var/lib/docker/overlay2/l/QRSTUVWXYZ012345,upperdir=/var/lib/docker/overlay2/0123456789abcdef/diff");
		r->target.kind = TARGET_DIR;
		snprintf(r->target.fs_type, sizeof(r->target.fs_type), "overlay");
		snprintf(r->target.mount_point, sizeof(r->target.mount_point), "/");
		r->target.free_bytes = 12345678901ull;
		r->target.rotational = -1;
		r->target.read_ahead_kb = -1;
		r->target.nr_requests = -1;
	} else {
		snprintf(r->label, sizeof(r->label), "nvme baseline");
		snprintf(r->target.path, sizeof(r->target.path), "/dev/disk/by-id/virtio-abc");
		snprintf(r->target.resolved, sizeof(r->target.resolved), "/dev/vda");
		r->target.kind = TARGET_BLOCK;
		snprintf(r->target.scheduler, sizeof(r->target.scheduler), "mq-deadline");
		r->target.rotational = 0;
		r->target.read_ahead_kb = 128;
		r->target.nr_requests = 256;
		r->target.size_bytes = 21474836480ull;
	}
	snprintf(r->target.device, sizeof(r->target.device), "vda");
	snprintf(r->target.disk, sizeof(r->target.disk), "vda");
	snprintf(r->target.model, sizeof(r->target.model), "QEMU HARDDISK");
	r->target.logical_block_size = 512;
	r->target.physical_block_size = 4096;
	snprintf(r->host.hostname, sizeof(r->host.hostname), "bench-host");
	snprintf(r->host.kernel, sizeof(r->host.kernel), "6.1.0-13-amd64");
	snprintf(r->host.cpu_model, sizeof(r->host.cpu_model), "Intel(R) Xeon(R) Gold 6230R CPU @ 2.10GHz");
	r->host.cpus = 2;
	r->host.memory_bytes = 4123456789ull;
	r->clock_overhead_ns = 21;

	result_add_setting(r, "engine", "io_uring");
	result_add_setting(r, "bs", "4k,1m");
	result_add_setting(r, "qd", "32");
	result_add_setting(r, "runtime", "5s");
	result_add_setting(r, "size", "1073741824");
	result_add_setting(r, "mode", "0755");
	result_add_setting(r, "seed", "18446744073709551615");
	result_add_setting(r, "offset", "-12");
	result_add_setting(r, "empty", "%s", "");
	result_add_setting(r, "label", "two words");
	result_add_setting(r, "direct", "true");
	result_add_setting(r, "ramp", "1s");
	result_add_setting(r, "data", "random");
	result_add_setting(r, "verify", "no");
	result_add_setting(r, "cpus", "0-1");
	result_add_setting(r, "workloads", "rand-read,seq-read,rand-write,seq-write,mixed-70-30");
	if (scenario == 1)
		result_add_setting(r, "we\"ird", "va\\l\x02ue");

	memset(&t, 0, sizeof(t));
	snprintf(t.name, sizeof(t.name), "rand-read 4k qd32");
	t.workload = "rand-read";
	t.engine = "io_uring";
	t.bs = 4096; t.qd = 32; t.jobs = 1; t.direct = true; t.random = true;
	t.runtime_ns = 5000000000ull; t.ramp_ns = 1000000000ull; t.size = 1ull << 30;
	t.lat = mkhist(80000, 200000, 1);
	t.ops = t.lat->n; t.bytes = t.ops * t.bs;
	t.cpu_user_pct = 3.25; t.cpu_sys_pct = 21.5; t.usec_per_op = 6.2;
	t.dev_valid = true; t.dev_read_bytes = t.bytes + 8192; t.dev_write_bytes = 0;
	result_finish(&t);
	result_add_test(r, &t);

	memset(&t, 0, sizeof(t));
	snprintf(t.name, sizeof(t.name), scenario == 1 ? "seq-read 1m qd1 with an unreasonably long test name, ok" : "seq-read 1m qd1");
	t.workload = "seq-read";
	t.engine = "sync";
	t.bs = 1 << 20; t.qd = 1; t.jobs = 4; t.direct = false; t.random = false;
	t.runtime_ns = 5000000000ull; t.size = 1ull << 30;
	t.lat = mkhist(1200000, 3000, 2);
	t.ops = t.lat->n; t.bytes = t.ops * t.bs;
	t.cpu_user_pct = 0.5; t.cpu_sys_pct = 160.25; t.usec_per_op = 1500;
	t.dev_valid = true; t.dev_read_bytes = 100000; t.dev_write_bytes = 4096;
	t.errors = 3; t.first_errno = EIO; t.first_error_offset = 1048576;
	result_finish(&t);
	result_add_test(r, &t);

	if (scenario == 1) {
		/* a test with no ops, no histogram, NaN cpu, short-transfer error */
		memset(&t, 0, sizeof(t));
		snprintf(t.name, sizeof(t.name), "seq-write 1536 qd1");
		t.workload = "seq-write"; t.engine = NULL; t.bs = 1536; t.qd = 1; t.jobs = 1;
		t.direct = true; t.is_write = true;
		t.cpu_user_pct = 0.0 / 0.0; t.usec_per_op = 1.0 / 0.0;
		t.errors = 1; t.first_errno = 0; t.first_error_offset = 0;
		result_finish(&t);
		t.iops = 0.0 / 0.0;
		result_add_test(r, &t);
	}

	result_add_warning(r, "buffered test seq-read 1m qd1: %s", "page cache dropped before the test with fdatasync and POSIX_FADV_DONTNEED, but the device counters show it still answered most reads");
	result_add_warning(r, "short one with \"quotes\" and \\ and a\nnewline");
}

int main(int argc, char **argv)
{
	struct run_result r;
	int scenario = argc > 2 ? atoi(argv[2]) : 0, ret;

	if (argc < 2)
		return 2;
	if (!strcmp(argv[1], "fmt")) {
		check_fmt();
		printf("fmt checks: %d failures\n", fails);
		return fails != 0;
	}
	if (scenario == 2) {	/* empty run */
		memset(&r, 0, sizeof(r));
		r.target.rotational = -1; r.target.read_ahead_kb = -1; r.target.nr_requests = -1;
	} else {
		fill(&r, scenario);
	}
	ret = !strcmp(argv[1], "json") ? report_json(stdout, &r) : report_text(stdout, &r);
	result_free(&r);
	if (ret) {
		fprintf(stderr, "report returned %d (%s)\n", ret, strerror(-ret));
		return 1;
	}
	return 0;
}
