/* cmd_report.c - "diskbench report RESULT.json...": re-render saved results. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "load.h"
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
		"Options:\n"
		"  --json FILE        write the JSON document (\"-\" = stdout)\n"
		"  --csv FILE         write one CSV row per test\n"
		"  --bonnie-csv FILE  write one line of bonnie++'s CSV format 1.98\n"
		"  --html FILE        write one self-contained HTML report with charts\n"
		"  --max-input SIZE   read RESULTs up to SIZE (default 256m; see below)\n"
		"  --quiet            no text report\n"
		"  -h, --help         this help\n"
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

/* "--opt VALUE" or "--opt=VALUE" at argv[*i]; NULL if arg is not opt. */
static const char *opt_value(int argc, char **argv, int *i, const char *opt, bool *missing)
{
	size_t n = strlen(opt);
	const char *a = argv[*i];

	*missing = false;
	if (strncmp(a, opt, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc) {
		*missing = true;
		return NULL;
	}
	return argv[++*i];
}

static int parse(int argc, char **argv, struct report_args *a)
{
	static const char *const names[] = { "--json", "--csv", "--bonnie-csv", "--html" };
	const char **dest[] = { &a->out.json, &a->out.csv, &a->out.bonnie_csv, &a->out.html };
	bool missing, only_files = false;
	const char *v;
	int i, k;

	a->in = calloc((size_t)argc, sizeof(*a->in));
	if (!a->in) {
		cli_error("out of memory");
		return EXIT_RUNTIME;
	}
	for (i = 1; i < argc; i++) {
		if (only_files || argv[i][0] != '-' || !strcmp(argv[i], "-")) {
			a->in[a->nin++] = argv[i];
			continue;
		}
		if (!strcmp(argv[i], "--")) {
			only_files = true;
			continue;
		}
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			usage(stdout);
			return EXIT_OK;
		}
		if (!strcmp(argv[i], "--quiet") || !strcmp(argv[i], "-q")) {
			a->quiet = true;
			continue;
		}
		v = opt_value(argc, argv, &i, "--max-input", &missing);
		if (missing) {
			cli_error("report: --max-input needs a SIZE");
			return EXIT_USAGE;
		}
		if (v) {
			if (cli_parse_max_input("report", v, &a->max_input))
				return EXIT_USAGE;
			continue;
		}
		for (k = 0; k < 4; k++) {
			v = opt_value(argc, argv, &i, names[k], &missing);
			if (missing) {
				cli_error("report: %s needs a FILE", names[k]);
				return EXIT_USAGE;
			}
			if (v) {
				if (!*v) {
					cli_error("report: %s needs a FILE", names[k]);
					return EXIT_USAGE;
				}
				*dest[k] = v;
				break;
			}
		}
		if (k == 4) {
			cli_error("report: unknown option '%s'", argv[i]);
			fprintf(stderr, "Try 'diskbench report --help'.\n");
			return EXIT_USAGE;
		}
	}
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
	return -1;
}

int cmd_report(int argc, char **argv)
{
	struct report_args a = { .max_input = LOAD_MAX_BYTES };
	struct run_result *r = NULL;
	struct cli_output outs[CLI_RESULT_OUTPUTS];
	bool on_stdout;
	int status, loaded = 0, i, ret;

	status = parse(argc, argv, &a);
	if (status >= 0)
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
	return status;
}
