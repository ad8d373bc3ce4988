/* main.c - diskbench: subcommand dispatch only. */
#include <stdio.h>
#include <string.h>

#include "cli.h"

static int dispatch(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "info"))
		return cmd_info(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "tune"))
		return cmd_tune(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
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
