/* test_health.c - smartctl --json documents into health readings, their deltas, the thermal verdict and the cliff's cause. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "health.h"
#include "report.h"
#include "result.h"

/* The recorded document tests/data/smart/NAME, parsed into s. */
static int parse_file(const char *name, struct health_snap *s, char *why, size_t wlen)
{
	const char *dir = getenv("srcdir");
	char path[4096], buf[65536];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/tests/data/smart/%s", dir ? dir : ".", name);
	f = fopen(path, "r");
	assert_non_null(f);
	n = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	return health_parse(buf, n, s, why, wlen);
}

static void test_nvme(void **state)
{
	struct health_snap a, b;
	char why[256] = "";

	(void)state;
	assert_int_equal(parse_file("nvme-before.json", &a, why, sizeof(why)), 0);
	assert_int_equal(parse_file("nvme-after.json", &b, why, sizeof(why)), 0);
	assert_true(a.valid);
	assert_string_equal(a.protocol, "NVMe");
	assert_string_equal(a.serial, "EXN0000TEST01");
	assert_int_equal(a.temperature_c, 41);
	assert_int_equal(a.temperature_warn_c, 82);
	assert_int_equal(a.percentage_used, 3);
	assert_int_equal(a.nvme_units_written, 24012345);
	assert_int_equal(a.written_bytes, 24012345LL * 512000);
	assert_int_equal(a.crc_errors, -1);	/* NVMe has none */
	assert_int_equal(a.thermal_transitions, 5);
	assert_int_equal(health_delta(a.written_bytes, b.written_bytes), 2048LL * 512000);
	assert_int_equal(health_delta(a.media_errors, b.media_errors), 0);
	assert_int_equal(health_thermal(&a, &b), 0);
	assert_int_equal(parse_file("nvme-hot.json", &b, why, sizeof(why)), 0);
	assert_int_equal(health_thermal(&a, &b), 1);	/* a transition more */
}

static void test_sata(void **state)
{
	struct health_snap a, b;
	char why[256] = "";

	(void)state;
	assert_int_equal(parse_file("sata-before.json", &a, why, sizeof(why)), 0);
	assert_int_equal(parse_file("sata-after.json", &b, why, sizeof(why)), 0);
	assert_string_equal(a.protocol, "ATA");
	assert_int_equal(a.crc_errors, 3);
	assert_int_equal(a.media_errors, 0);	/* 187 + 198 */
	assert_int_equal(a.power_on_hours, 14602);
	assert_int_equal(a.percentage_used, 4);
	assert_int_equal(a.written_bytes, 73400320000LL * 512);	/* 241 x logical block */
	assert_int_equal(a.nvme_units_written, -1);
	/* no threshold, no counters: nothing tells */
	assert_int_equal(health_thermal(&a, &b), -1);
	b.temperature_warn_c = 36;	/* at its threshold */
	assert_int_equal(health_thermal(&a, &b), 1);
}

static void test_no_data(void **state)
{
	struct health_snap s;
	char why[256] = "";

	(void)state;
	assert_int_equal(parse_file("loop.json", &s, why, sizeof(why)), -ENODATA);
	assert_false(s.valid);
	assert_string_equal(why, "/dev/loop0: Unable to detect device type");
	assert_int_equal(health_parse("{\"smartctl\":", 12, &s, why, sizeof(why)), -EINVAL);
	assert_int_equal(health_delta(5, 3), -1);	/* a reset is no delta */
	assert_int_equal(health_delta(-1, 3), -1);
}

static void test_cliff_cause(void **state)
{
	struct run_result r;
	struct test_result t;

	(void)state;
	memset(&r, 0, sizeof(r));
	memset(&t, 0, sizeof(t));
	assert_string_equal(report_cliff_cause(&r, &t), "");	/* older result */
	r.health.checked = true;
	assert_non_null(strstr(report_cliff_cause(&r, &t), "no health data"));
	t.thermal_known = true;
	assert_non_null(strstr(report_cliff_cause(&r, &t), "write cache"));
	t.thermal_throttling = true;
	assert_non_null(strstr(report_cliff_cause(&r, &t), "thermal throttling"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_nvme),
		cmocka_unit_test(test_sata),
		cmocka_unit_test(test_no_data),
		cmocka_unit_test(test_cliff_cause),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
