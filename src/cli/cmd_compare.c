/* cmd_compare.c - "diskbench compare A.json B.json...": results against a baseline. */
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "compare.h"
#include "load.h"
#include "opts.h"
#include "report.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: diskbench compare [OPTIONS] BEFORE.json AFTER.json [MORE.json...]\n"
		"\n"
		"Compare results saved with --json: the first is the baseline, each other\n"
		"one is compared with it, test by test (matched by name): IOPS, MB/s,\n"
		"p50/p99/p99.9 latency and CPU per op before and after, their ratio and the\n"
		"change in percent (positive = better), a geometric mean of the IOPS ratios,\n"
		"the worst and best test, and every setting, target or host fact that differs.\n"
		"\n"
		"With --repeat runs on both sides (5 or more each), every test's throughput\n"
		"and p99 ratio get a 95 %% interval (the exact rank interval of the ratio,\n"
		"every run after against every run before, corrected for how many verdicts\n"
		"are made; with too few runs for that, the level they hold is said) and\n"
		"a verdict: better or worse only when the whole interval lies beyond the\n"
		"noise band, \"~\" otherwise. With fewer runs the min-max range is shown\n"
		"and nothing is judged (low confidence). Sides measurable now are best made\n"
		"in turn: one run of each at a time, added to its file with run --append.\n"
		"\n"
		"Options:\n");
	opts_help_cmd(f, OPTS_CMD_COMPARE, 0);
	fprintf(f,
		"\n"
		"Formats: text, json, html. A RESULT may be a page written by --html.\n"
		"Exit status: 0 ok, 1 a report could not be written, 2 usage error or a\n"
		"file that cannot be read (nothing is written then).\n");
}

struct compare_args {
	double noise;
	uint64_t max_input;
	const char *json, *html;
	bool quiet;
	const char **in;
	int nin;
};

/* The options and the results named: a step (status.h). */
static int parse(int argc, char **argv, struct compare_args *a)
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
	if (opts_parse_cmd(&s, OPTS_CMD_COMPARE, argc, argv, a->in, (size_t)argc, &npos, err,
			   sizeof(err))) {
		cli_error("compare: %s", err);
		fprintf(stderr, "Try 'diskbench compare --help'.\n");
		return EXIT_USAGE;
	}
	if (s.help) {
		usage(stdout);
		return STEP_DONE;
	}
	a->nin = (int)npos;
	a->json = s.json;
	a->html = s.html;
	a->quiet = s.quiet;
	if (s.noise >= 0)
		a->noise = s.noise;
	if (s.max_input)
		a->max_input = s.max_input;
	if (a->nin < 2) {
		cli_error("compare: needs two results or more (BEFORE.json AFTER.json...), got %d",
			  a->nin);
		fprintf(stderr, "Try 'diskbench compare --help'.\n");
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int render_json(FILE *f, const void *c)
{
	return report_compare_json(f, c);
}

static int render_html(FILE *f, const void *c)
{
	return report_compare_html(f, c);
}

int cmd_compare(int argc, char **argv)
{
	struct compare_args a = { .noise = COMPARE_NOISE, .max_input = LOAD_MAX_BYTES };
	struct run_result *r = NULL;
	struct compare c = { 0 };
	struct cli_output out[] = {
		{ .opt = "--json", .render = render_json },
		{ .opt = "--html", .render = render_html },
	};
	char err[PATH_MAX * 2 + 256];
	bool on_stdout;
	int status, loaded = 0, ret;

	status = parse(argc, argv, &a);
	if (status != EXIT_OK)
		goto out;
	out[0].path = a.json;
	out[1].path = a.html;
	status = cli_check_outputs(out, 2, &on_stdout);
	if (status != EXIT_OK)
		goto out;

	/* Every input is read before anything is written: a bad one costs no
	 * half output. */
	status = cli_load_results((const char *const *)a.in, a.nin, a.max_input, &r, &loaded);
	if (status != EXIT_OK)
		goto out;
	if (compare_check(r, a.in, (unsigned)a.nin, err, sizeof(err))) {
		cli_error("compare: %s", err);
		status = EXIT_USAGE;
		goto out;
	}
	if (compare_build(&c, r, a.in, (unsigned)a.nin, &(struct compare_opts){ .noise = a.noise })) {
		cli_error("out of memory");
		status = EXIT_RUNTIME;
		goto out;
	}
	if (!a.quiet && !on_stdout) {
		ret = report_compare_text(stdout, &c);
		if (ret) {
			cli_error("stdout: %s", strerror(-ret));
			status = EXIT_RUNTIME;
		}
	}
	if (cli_write_outputs(out, 2, &c) != EXIT_OK)
		status = EXIT_RUNTIME;
out:
	compare_free(&c);
	cli_free_results(r, loaded);
	free(a.in);
	return step_exit(status);
}
