/* cmd_report.c - "diskbench report RESULT.json...": re-render saved results. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "load.h"
#include "opts.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: diskbench report [OPTIONS] RESULT.json|RESULT.html...\n"
		"\n"
		"Render results saved with --json (or --html: the page holds the JSON) again:\n"
		"the text report on stdout and, for one RESULT, the same JSON, CSV, bonnie++\n"
		"CSV or HTML the run wrote. Every figure is derived again from the saved\n"
		"histograms and counts, by the code a run uses. Several RESULTs: their text\n"
		"reports in turn (no files).\n"
		"\n"
		"Options:\n");
	opts_help_cmd(f, OPTS_CMD_REPORT, 0);
	fprintf(f,
		"\n"
		"Formats: text, json, csv, bonnie-csv, html.\n"
		"A RESULT larger than --max-input is refused before it is read (a FIFO or a\n"
		"device: once that much is read). It takes at most about 4 times the file's\n"
		"size in memory (a result of 10,000 tests is about 75 MB).\n"
		"Exit status: 0 ok, 1 a report could not be written, 2 usage error or a\n"
		"RESULT that cannot be read (nothing is written then).\n");
}

struct report_args {
	struct cli_result_paths out;
	uint64_t max_input;
	bool quiet;
	char **in;
	int nin;
};

/* The options and the results named: a step (status.h). */
static int parse(int argc, char **argv, struct report_args *a)
{
	struct settings s;
	char err[512];
	size_t npos;

	a->in = calloc((size_t)argc, sizeof(*a->in));
	if (!a->in) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	opts_defaults(&s);
	if (opts_parse_cmd(&s, OPTS_CMD_REPORT, argc, argv, (const char **)a->in, (size_t)argc,
			   &npos, err, sizeof(err))) {
		cli_error("report: %s", err);
		fprintf(stderr, "Try 'diskbench report --help'.\n");
		return EXIT_USAGE;
	}
	if (s.help) {
		usage(stdout);
		return STEP_DONE;
	}
	a->nin = (int)npos;
	a->out = (struct cli_result_paths){ .json = s.json, .csv = s.csv,
					    .bonnie_csv = s.bonnie_csv, .html = s.html };
	a->quiet = s.quiet;
	if (s.max_input)
		a->max_input = s.max_input;
	if (!a->nin) {
		cli_error("report: which result? (a file written by --json or --html)");
		fprintf(stderr, "Try 'diskbench report --help'.\n");
		return EXIT_USAGE;
	}
	if (a->nin > 1 && (a->out.json || a->out.csv || a->out.bonnie_csv || a->out.html)) {
		cli_error("report: --json, --csv, --bonnie-csv and --html take one RESULT, not %d",
			  a->nin);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .max_input = LOAD_MAX_BYTES };
	struct run_result *r = NULL;
	struct cli_output outs[CLI_RESULT_OUTPUTS];
	bool on_stdout;
	int status, loaded = 0, i, ret;

	status = parse(argc, argv, &a);
	if (status != EXIT_OK)
		goto out;
	/* Where the documents go is checked before anything is read. */
	cli_result_outputs(outs, &a.out);
	status = cli_check_outputs(outs, CLI_RESULT_OUTPUTS, &on_stdout);
	if (status != EXIT_OK)
		goto out;

	/* Every input is read before anything is written: a bad one costs no
	 * half output. */
	status = cli_load_results((const char *const *)a.in, a.nin, a.max_input, &r, &loaded);
	if (status != EXIT_OK)
		goto out;

	if (!a.quiet && !on_stdout) {
		for (i = 0; i < a.nin; i++) {
			if (i)
				putchar('\n');
			ret = report_text(stdout, &r[i]);
			if (ret) {
				cli_error("stdout: %s", strerror(-ret));
				status = EXIT_RUNTIME;
				goto out;
			}
		}
	}
	status = cli_write_outputs(outs, CLI_RESULT_OUTPUTS, &r[0]);
out:
	cli_free_results(r, loaded);
	free(a.in);
	return step_exit(status);
}
