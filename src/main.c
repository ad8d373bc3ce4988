/* main.c - subcommand dispatch only. */
#include <stdio.h>
#include <string.h>

#include "cli/cli.h"

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "list"))
		return cmd_list(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "info"))
		return cmd_info(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "report"))
		return cmd_report(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "compare"))
		return cmd_compare(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "run"))
		return cmd_run(argc - 1, argv + 1);
	/* No subcommand: "diskbench [OPTIONS] [TARGET]" is a run. */
	return cmd_run(argc, argv);
}
