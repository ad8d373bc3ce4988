/* test_pin.c - which CPUs tune and --repeat runs pin their jobs on by default. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "pin.h"

static const char irqs[] =
	"           CPU0       CPU1       CPU2       CPU3\n"
	"  0:         40          0          0          0   IO-APIC   2-edge      timer\n"
	" 36:          0     392788          0          0   PCI-MSIX  1-edge      virtio1-req.0\n"
	" 41:       2204          0        100          0   PCI-MSIX  1-edge      virtio3-rx\n"
	"NMI:          0          0          0          0   Non-maskable interrupts\n"
	"LOC:     999999          1          1          1   Local timer interrupts\n";

static void set_of(cpu_set_t *s, const int *cpus, size_t n)
{
	CPU_ZERO(s);
	for (size_t i = 0; i < n; i++)
		CPU_SET(cpus[i], s);
}

/* the fewest device interrupts first (LOC and NMI do not count); ties to
 * the higher number */
static void test_ranked(void **state)
{
	int all[] = { 0, 1, 2, 3 }, got[8];
	cpu_set_t s;
	char why[256];

	(void)state;
	set_of(&s, all, 4);
	assert_int_equal(pin_default_cpus(&s, irqs, got, 8, why, sizeof(why)), 4);
	assert_int_equal(got[0], 3);	/* 0 interrupts */
	assert_int_equal(got[1], 2);	/* 100 */
	assert_int_equal(got[2], 0);	/* 2244 */
	assert_int_equal(got[3], 1);	/* 392788: the disk's */
	assert_non_null(strstr(why, "CPU 3 of 0-3"));
	assert_non_null(strstr(why, "392788 on CPU 1"));
}

/* only the CPUs allowed, and at most max of them */
static void test_allowed(void **state)
{
	int some[] = { 0, 1 }, got[8];
	cpu_set_t s;
	char why[256];

	(void)state;
	set_of(&s, some, 2);
	assert_int_equal(pin_default_cpus(&s, irqs, got, 8, why, sizeof(why)), 2);
	assert_int_equal(got[0], 0);
	assert_int_equal(got[1], 1);
	assert_int_equal(pin_default_cpus(&s, irqs, got, 1, why, sizeof(why)), 1);
	assert_int_equal(got[0], 0);
	set_of(&s, (int[]){ 1 }, 1);
	assert_int_equal(pin_default_cpus(&s, irqs, got, 8, why, sizeof(why)), 1);
	assert_int_equal(got[0], 1);
	assert_non_null(strstr(why, "the only one"));
	CPU_ZERO(&s);
	assert_int_equal(pin_default_cpus(&s, irqs, got, 8, why, sizeof(why)), 0);
}

/* no counts (none, or text without a header): the highest CPU first */
static void test_no_counts(void **state)
{
	int all[] = { 0, 1, 5 }, got[8];
	cpu_set_t s;
	char why[256];

	(void)state;
	set_of(&s, all, 3);
	assert_int_equal(pin_default_cpus(&s, NULL, got, 8, why, sizeof(why)), 3);
	assert_int_equal(got[0], 5);
	assert_int_equal(got[1], 1);
	assert_int_equal(got[2], 0);
	assert_non_null(strstr(why, "0-1,5"));
	assert_int_equal(pin_default_cpus(&s, "garbage", got, 8, NULL, 0), 3);
	assert_int_equal(got[0], 5);
}

/* this process: every CPU it may run on, each once, and --cpus checked */
static void test_here(void **state)
{
	int got[CPU_SETSIZE];
	cpu_set_t s;
	char why[256], err[256];
	unsigned n;

	(void)state;
	assert_int_equal(sched_getaffinity(0, sizeof(s), &s), 0);
	n = pin_default_cpus_here(got, CPU_SETSIZE, why, sizeof(why));
	assert_int_equal(n, (unsigned)CPU_COUNT(&s));
	for (unsigned i = 0; i < n; i++) {
		assert_true(CPU_ISSET(got[i], &s));
		CPU_CLR(got[i], &s);
	}
	assert_int_equal(pin_check_cpus(got, n, err, sizeof(err)), 0);
	assert_int_equal(pin_check_cpus((int[]){ CPU_SETSIZE - 1 }, 1, err, sizeof(err)),
			 -EINVAL);
	assert_non_null(strstr(err, "--cpus: CPU"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ranked),
		cmocka_unit_test(test_allowed),
		cmocka_unit_test(test_no_counts),
		cmocka_unit_test(test_here),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
