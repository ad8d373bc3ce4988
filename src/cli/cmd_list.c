/* cmd_list.c - "diskbench list engines|profiles|tests|options": what this build can do here. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "engine.h"
#include "opts.h"
#include "profile.h"
#include "workload.h"

static int list_engines(void)
{
	size_t n;
	const struct engine_entry *t = engine_table(&n);

	printf("%-10s %-4s %s\n", "ENGINE", "OK", "DESCRIPTION / WHY NOT");
	for (size_t i = 0; i < n; i++) {
		char why[200] = "";

		if (!t[i].ops) {
			printf("%-10s %-4s %s\n", t[i].name, "no", t[i].missing);
			continue;
		}
		if (t[i].ops->probe(why, sizeof(why)) < 0) {
			printf("%-10s %-4s %s\n", t[i].name, "no", why);
			continue;
		}
		printf("%-10s %-4s %s\n", t[i].name, "yes", t[i].ops->desc);
		if (why[0])	/* works, but not all of it */
			printf("%-15s note: %s\n", "", why);
	}
	printf("auto picks the first working engine of io_uring, libaio, sync.\n");
	return EXIT_OK;
}

static int list_tests(void)
{
	size_t n;
	const struct workload *w = wl_table(&n);

	printf("%-17s %s\n", "TEST", "DESCRIPTION");
	for (size_t i = 0; i < n; i++)
		printf("%-17s %s\n", w[i].name, w[i].desc);
	return EXIT_OK;
}

/* Each built-in profile with its description; loading one checks it fully
 * (its tests must exist in this build), listing only reads the text. */
static int list_profiles(void)
{
	char err[4400];
	size_t n;
	struct profile_text *p;
	int ret = profile_catalog(&p, &n, err, sizeof(err));

	if (ret) {
		cli_error("list profiles: %s", err);
		return ret == -ENOMEM ? EXIT_RUNTIME : EXIT_USAGE;
	}
	printf("%-14s %s\n", "PROFILE", "DESCRIPTION");
	for (size_t i = 0; i < n; i++) {
		char desc[256];

		profile_description(p[i].text, desc, sizeof(desc));
		printf("%-14s %s\n", p[i].name, desc);
	}
	printf("Run one with --profile NAME, or your own with --profile FILE.ini.\n");
	profile_catalog_free(p, n);
	return EXIT_OK;
}

int cmd_list(int argc, char **argv)
{
	if (argc == 2 && !strcmp(argv[1], "engines"))
		return list_engines();
	if (argc == 2 && !strcmp(argv[1], "tests"))
		return list_tests();
	if (argc == 2 && !strcmp(argv[1], "profiles"))
		return list_profiles();
	/* for completions and scripts: "--name<TAB>ARG<TAB>run,tune" a line */
	if (argc == 2 && !strcmp(argv[1], "options")) {
		opts_list(stdout);
		return EXIT_OK;
	}
	/* the build writes the man page's OPTIONS and doc/options.md with these */
	if (argc == 3 && !strcmp(argv[1], "options") && !strcmp(argv[2], "--man")) {
		opts_doc(stdout, OPTS_DOC_MAN);
		return EXIT_OK;
	}
	if (argc == 3 && !strcmp(argv[1], "options") && !strcmp(argv[2], "--markdown")) {
		opts_doc(stdout, OPTS_DOC_MARKDOWN);
		return EXIT_OK;
	}
	if (argc == 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: diskbench list engines|profiles|tests|options\n");
		return EXIT_OK;
	}
	if (argc < 2)
		cli_error("list: what to list? (engines, profiles, tests, options)");
	else
		cli_error("list: unknown list '%s' (engines, profiles, tests, options)", argv[1]);
	return EXIT_USAGE;
}
