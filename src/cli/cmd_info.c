/* cmd_info.c - "diskbench info TARGET": what the target is and whether it may be written. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"
#include "safety.h"
#include "target.h"

static void usage(FILE *f)
{
	fprintf(f,
		"usage: diskbench info [--json FILE|-] [--destructive[=DEV]] TARGET\n"
		"\n"
		"Show what TARGET (a block device, a file or a directory) is: its device,\n"
		"model, size, queue settings, file system and mount options, the layers\n"
		"under the data that change results (encryption, copy-on-write, RAID), and\n"
		"whether a run may write to it, and why. Nothing is written; block devices\n"
		"are only opened read-only.\n"
		"\n"
		"Options:\n"
		"  --json FILE|-        write the facts as one JSON document to FILE (\"-\":\n"
		"                       stdout, instead of the text)\n"
		"  --destructive[=DEV]  judge writes as a run with this option would\n"
		"  -h, --help           show this help\n"
		"\n"
		"Exit status: 0 (also when writes are not allowed), 2 usage error or a\n"
		"target that cannot be probed.\n");
}

struct info_doc {
	const struct target_info *t;
	const struct safety_verdict *now, *with;
};

static int render_json(FILE *f, const void *arg)
{
	const struct info_doc *d = arg;

	return report_info_json(f, d->t, d->now, d->with);
}

/* The verdict, even when the checks could not run: info is informative. */
static void verdict(const struct target_info *t, const char *destructive,
		    struct safety_verdict *v)
{
	char msg[128];
	int ret;

	memset(v, 0, sizeof(*v));
	ret = safety_check_writes(t, destructive, v);
	if (ret && !v->reason[0]) {
		snprintf(msg, sizeof(msg), "%s", strerror(-ret));
		msg[0] = (char)tolower((unsigned char)msg[0]);
		snprintf(v->reason, sizeof(v->reason), "the safety checks could not run (%s)",
			 msg);
	}
	if (ret)
		v->allowed = false;
}

int cmd_info(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "json", required_argument, NULL, 'j' },
		{ "destructive", optional_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	static struct target_info t;
	struct safety_verdict now, with;
	struct info_doc doc = { &t, &now, &with };
	struct cli_output out = { .opt = "--json", .render = render_json };
	const char *destructive = NULL;
	bool on_stdout = false;
	char err[512];
	int c, ret;

	opterr = 0;	/* getopt would name "info", not diskbench */
	optind = 0;	/* 0: getopt starts afresh, also inside a group of short options */
	while ((c = getopt_long(argc, argv, ":h", longopts, NULL)) != -1) {
		switch (c) {
		case 'j':
			out.path = optarg;
			break;
		case 'd':
			destructive = optarg ? optarg : "";
			break;
		case 'h':
			usage(stdout);
			return EXIT_OK;
		case ':':
			cli_error("info: option '%s' needs a value", argv[optind - 1]);
			goto bad_usage;
		default:
			if (optopt)
				cli_error("info: unknown option '-%c'", optopt);
			else
				cli_error("info: unknown option '%s'", argv[optind - 1]);
			goto bad_usage;
		}
	}
	if (optind != argc - 1) {
		cli_error(optind >= argc ? "info: no TARGET given" : "info: one TARGET only");
		goto bad_usage;
	}
	ret = cli_check_outputs(&out, 1, &on_stdout);
	if (ret != EXIT_OK)
		return ret;

	ret = target_probe(argv[optind], &t, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", argv[optind], err);
		return EXIT_USAGE;
	}
	verdict(&t, destructive, &now);
	/* Without --destructive, also say what it would change. */
	if (!destructive)
		verdict(&t, "", &with);
	else
		with = now;

	if (cli_write_outputs(&out, 1, &doc) != EXIT_OK)
		return EXIT_RUNTIME;
	if (on_stdout)
		return EXIT_OK;
	ret = report_info_text(stdout, &t, &now, &with);
	if (ret) {
		cli_error("writing the report: %s", strerror(-ret));
		return EXIT_RUNTIME;
	}
	return EXIT_OK;

bad_usage:
	fprintf(stderr, "Try 'diskbench info --help'.\n");
	return EXIT_USAGE;
}
