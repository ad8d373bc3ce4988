/* output.c - how the CLI speaks: error lines and all-or-nothing report files. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli.h"
#include "report.h"

void cli_error(const char *fmt, ...)
{
	va_list ap;

	fputs("diskbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void cli_warn(const char *fmt, ...)
{
	va_list ap;

	fputs("diskbench: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static int write_direct(const char *path, int (*render)(FILE *, const void *), const void *arg)
{
	FILE *f = fopen(path, "w");
	int ret;

	if (!f)
		return -errno;
	ret = render(f, arg);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int cli_write_file(const char *path, int (*render)(FILE *, const void *), const void *arg)
{
	char tmp[PATH_MAX], real[PATH_MAX];
	struct stat st;
	FILE *f;
	int ret, fd;

	if (!strcmp(path, "-")) {
		ret = render(stdout, arg);
		if (fflush(stdout) && !ret)
			ret = -errno;
		return ret;
	}
	/* A device, FIFO or socket (/dev/null, /dev/stdout, a pipe) is written
	 * as it is: a rename over it would replace it with a regular file. */
	if (!stat(path, &st) && !S_ISREG(st.st_mode))
		return write_direct(path, render, arg);
	/* Through a symlink, replace the file it points to, not the link. */
	if (!stat(path, &st) && realpath(path, real))
		path = real;
	if (snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = mkstemp(tmp);
	if (fd < 0)
		return -errno;
	f = fdopen(fd, "w");
	if (!f) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		return ret;
	}
	ret = render(f, arg);
	if (fflush(f) && !ret)
		ret = -errno;
	if (!ret && fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	/* mkstemp made it 0600; a report is for sharing. */
	if (!ret && chmod(tmp, 0644))
		ret = -errno;
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
	return ret;
}

static int render_json(FILE *f, const void *r)
{
	return report_json(f, r);
}

int cli_write_json(const char *path, const struct run_result *r)
{
	return cli_write_file(path, render_json, r);
}

static int render_csv(FILE *f, const void *r)
{
	return report_csv(f, r);
}

int cli_write_csv(const char *path, const struct run_result *r)
{
	return cli_write_file(path, render_csv, r);
}

static int render_bonnie_csv(FILE *f, const void *r)
{
	return report_bonnie_csv(f, r);
}

int cli_write_bonnie_csv(const char *path, const struct run_result *r)
{
	return cli_write_file(path, render_bonnie_csv, r);
}
