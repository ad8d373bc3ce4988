/* test_strutil.c - the small string helpers: shell quoting of a command line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "strutil.h"

static void test_shell_join(void **state)
{
	char *plain[] = { "diskbench", "--repeat", "5", "--json=out.json", "/dev/sda" };
	char *odd[] = { "diskbench", "--label", "my disk", "", "it's", "$HOME", "a\"b" };
	char buf[128];

	(void)state;
	assert_string_equal(str_shell_join(buf, sizeof(buf), 5, plain),
			    "diskbench --repeat 5 --json=out.json /dev/sda");
	assert_string_equal(str_shell_join(buf, sizeof(buf), 7, odd),
			    "diskbench --label 'my disk' '' 'it'\\''s' '$HOME' 'a\"b'");
	assert_string_equal(str_shell_join(buf, sizeof(buf), 0, plain), "");
}

/* Too long: cut at a word boundary, marked, never half a word or quote. */
static void test_shell_join_cut(void **state)
{
	char *w[] = { "diskbench", "--label", "a long label here", "/mnt/x" };
	char buf[24];

	(void)state;
	assert_string_equal(str_shell_join(buf, sizeof(buf), 4, w), "diskbench --label ...");
	assert_true(strlen(buf) < sizeof(buf));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_shell_join),
		cmocka_unit_test(test_shell_join_cut),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
