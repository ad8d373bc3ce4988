/* cmd_info.c - "diskbench info TARGET": what the target is and whether it may be written. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "opts.h"
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
		"Options:\n");
	opts_help_cmd(f, OPTS_CMD_INFO, 0);
	fprintf(f,
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
	static struct target_info t;
	struct safety_verdict now, with;
	struct info_doc doc = { &t, &now, &with };
	struct cli_output out = { .opt = "--json", .render = render_json };
	const char *destructive, *pos[2];
	bool on_stdout = false;
	struct settings s;
	char err[512];
	size_t npos;
	int ret;

	opts_defaults(&s);
	if (opts_parse_cmd(&s, OPTS_CMD_INFO, argc, argv, pos, 2, &npos, err, sizeof(err))) {
		cli_error("info: %s", err);
		goto bad_usage;
	}
	if (s.help) {
		usage(stdout);
		return EXIT_OK;
	}
	if (npos != 1) {
		cli_error(npos ? "info: one TARGET only" : "info: no TARGET given");
		goto bad_usage;
	}
	out.path = s.json;
	destructive = s.destructive;
	ret = cli_check_outputs(&out, 1, &on_stdout);
	if (ret != EXIT_OK)
		return ret;

	ret = target_probe(pos[0], &t, err, sizeof(err));
	if (ret) {
		cli_error("%s: %s", pos[0], err);
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
