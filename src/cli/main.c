/* main.c - diskbench: subcommand dispatch only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

/* The subcommands by the word that names them. */
static const struct {
	const char *name;
	int (*cmd)(int argc, char **argv);
} subcommands[] = {
	{ "list", cmd_list },
	{ "info", cmd_info },
	{ "report", cmd_report },
	{ "compare", cmd_compare },
	{ "tune", cmd_tune },
	{ "run", cmd_run },
};

static int dispatch(int argc, char **argv)
{
	for (size_t i = 0; argc > 1 && i < sizeof(subcommands) / sizeof(subcommands[0]); i++)
		if (!strcmp(argv[1], subcommands[i].name))
			return subcommands[i].cmd(argc - 1, argv + 1);
	/* No subcommand: "diskbench [OPTIONS] [TARGET]" is a run. */
	return cmd_run(argc, argv);
}

int main(int argc, char **argv)
{
	int status = dispatch(argc, argv);

	/* What was printed must have arrived: a failure to write stdout
	 * turns success into a runtime failure. */
	if (cli_close_stdout() != EXIT_OK && status == EXIT_OK)
		status = EXIT_RUNTIME;
	return status;
}
