/* output.c - how the CLI speaks: error lines and all-or-nothing report files. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "outfile.h"
#include "report.h"

const char *cli_name = "diskbench";

void cli_verror(const char *fmt, va_list ap)
{
	fprintf(stderr, "%s: ", cli_name);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s: warning: ", cli_name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

bool cli_stdout_is_stderr(void)
{
	struct stat out, err;

	return !fstat(STDOUT_FILENO, &out) && !fstat(STDERR_FILENO, &err) &&
	       out.st_dev == err.st_dev && out.st_ino == err.st_ino;
}

/* The document, rendered into memory first: a renderer that fails half-way
 * leaves no half file, and the file is written in one go. */
static int render_mem(const struct cli_output *o, const void *arg, char **buf, size_t *len)
{
	FILE *f = open_memstream(buf, len);
	int ret;

	if (!f)
		return -errno;
	ret = o->render(f, arg);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		free(*buf);
		*buf = NULL;
	}
	return ret;
}

/* A refusal for safety (a planted symlink, a disk image) or bad usage. */
static int output_status(int ret)
{
	return ret == -EPERM || ret == -EBUSY ? EXIT_REFUSED : EXIT_USAGE;
}

int cli_check_outputs(struct cli_output *o, int n, bool *on_stdout)
{
	struct outfile_id out;
	char err[512];
	int i, k, ret, first = -1;

	*on_stdout = false;
	outfile_check("-", &out, err, sizeof(err));
	for (i = 0; i < n; i++) {
		if (!o[i].path)
			continue;
		ret = outfile_check(o[i].path, &o[i].id, err, sizeof(err));
		if (ret) {
			/* what it is ("is a block device") reads on its own;
			 * a missing or closed directory needs the context */
			cli_error("%s %s: %s%s", o[i].opt, o[i].path,
				  ret == -EPERM || ret == -EBUSY || ret == -EINVAL ||
				  ret == -EISDIR ? "" : "cannot write there: ", err);
			return output_status(ret);
		}
		/* /dev/stdout, /dev/fd/1 and "-" are one place */
		o[i].to_stdout = o[i].id.kind == OUTFILE_STDOUT || outfile_same(&o[i].id, &out);
		if (o[i].to_stdout) {
			if (first >= 0) {
				cli_error("%s %s and %s %s: two documents on one stdout; send one "
					  "of them to a file", o[first].opt, o[first].path,
					  o[i].opt, o[i].path);
				return EXIT_USAGE;
			}
			first = i;
			*on_stdout = true;
		}
		for (k = 0; k < i; k++) {
			if (o[k].path && !o[i].to_stdout && outfile_same(&o[k].id, &o[i].id)) {
				cli_error("%s %s and %s %s: both name the same file", o[k].opt,
					  o[k].path, o[i].opt, o[i].path);
				return EXIT_USAGE;
			}
		}
	}
	return EXIT_OK;
}

int cli_write_outputs(const struct cli_output *o, int n, const void *arg)
{
	char err[512], *buf;
	size_t len;
	int i, ret, status = EXIT_OK;

	for (i = 0; i < n; i++) {
		if (!o[i].path)
			continue;
		ret = render_mem(&o[i], arg, &buf, &len);
		if (!ret) {
			ret = outfile_write(o[i].path, buf, len, err, sizeof(err));
			free(buf);
		} else {
			snprintf(err, sizeof(err), "%s", strerror(-ret));
		}
		if (ret) {
			cli_error("%s %s: %s", o[i].opt, o[i].path, err);
			status = EXIT_RUNTIME;
		}
	}
	return status;
}

int cli_close_stdout(void)
{
	/* A full disk or a closed pipe shows only now, on the last flush
	 * (util-linux's close_stdout does the same). */
	if (fflush(stdout) == EOF || ferror(stdout)) {
		cli_error("writing to stdout: %s", errno ? strerror(errno) : "I/O error");
		return EXIT_RUNTIME;
	}
	return EXIT_OK;
}

static int render_json(FILE *f, const void *r)
{
	return report_json(f, r);
}

static int render_csv(FILE *f, const void *r)
{
	return report_csv(f, r);
}

static int render_bonnie_csv(FILE *f, const void *r)
{
	return report_bonnie_csv(f, r);
}

static int render_html(FILE *f, const void *r)
{
	return report_html(f, r);
}

void cli_result_outputs(struct cli_output o[CLI_RESULT_OUTPUTS],
			const struct cli_result_paths *p)
{
	o[0] = (struct cli_output){ .opt = "--json", .path = p->json, .render = render_json };
	o[1] = (struct cli_output){ .opt = "--csv", .path = p->csv, .render = render_csv };
	o[2] = (struct cli_output){ .opt = "--bonnie-csv", .path = p->bonnie_csv,
				    .render = render_bonnie_csv };
	o[3] = (struct cli_output){ .opt = "--html", .path = p->html, .render = render_html };
}
