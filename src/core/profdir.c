/* profdir.c - where an installed diskbench reads its profiles: the
 * directory make install put them in, found from the program's own place. */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "profile.h"

#ifndef DISKBENCH_BINDIR
#define DISKBENCH_BINDIR "/usr/local/bin"
#endif
#ifndef DISKBENCH_PROFILEDIR
#define DISKBENCH_PROFILEDIR "/usr/local/share/diskbench/profiles"
#endif

#define PROFILE_TEXT_MAX (1u << 20)

const char *profile_dir(void)
{
	static char dir[PATH_MAX];
	static int done;
	char exe[PATH_MAX];
	const char *bin = DISKBENCH_BINDIR;
	size_t nb = strlen(bin), ne;
	ssize_t n;
	char *slash;

	if (done)
		return dir[0] ? dir : NULL;
	done = 1;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return NULL;
	exe[n] = 0;
	slash = strrchr(exe, '/');
	if (!slash)
		return NULL;
	*slash = 0;
	ne = strlen(exe);
	/* Installed: the program's directory is bindir, under a root that is
	 * "" for a real install and DESTDIR for a staged one. Anything else
	 * (the build tree) uses the profiles built in. */
	while (nb > 1 && bin[nb - 1] == '/')
		nb--;
	if (ne < nb || strncmp(exe + ne - nb, bin, nb))
		return NULL;
	exe[ne - nb] = 0;
	if ((size_t)snprintf(dir, sizeof(dir), "%s%s", exe, DISKBENCH_PROFILEDIR) >= sizeof(dir))
		dir[0] = 0;
	return dir[0] ? dir : NULL;
}

/* Is name what a profile file may be called (NAME.ini, as the Makefile's)? */
static int good_name(const char *name, size_t len)
{
	if (!len || len >= 64)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-",
			    name[i]))
			return 0;
	return 1;
}

int profile_dir_check(char *err, size_t errlen)
{
	const char *dir = profile_dir();
	struct stat st;

	if (!dir)
		return 0;
	if (stat(dir, &st)) {
		snprintf(err, errlen, "the profile directory '%s' is missing: %s (reinstall "
			 "diskbench)", dir, strerror(errno));
		return -ENOENT;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "the profile directory '%s' is not a directory "
			 "(reinstall diskbench)", dir);
		return -ENOENT;
	}
	return 0;
}

int profile_dir_file(const char *name, char *path, size_t len, char *err, size_t errlen)
{
	struct stat st;
	int ret = profile_dir_check(err, errlen);

	if (ret)
		return ret;
	if ((size_t)snprintf(path, len, "%s/%s.ini", profile_dir(), name) >= len) {
		snprintf(err, errlen, "--profile: name too long: '%s'", name);
		return -ENOENT;
	}
	if (stat(path, &st)) {
		if (errno == ENOENT) {
			snprintf(err, errlen, "--profile: unknown profile '%s': no %s (see: "
				 "diskbench list profiles; a file needs a '/' or the .ini suffix)",
				 name, path);
			return -ENOENT;
		}
		ret = -errno;
		snprintf(err, errlen, "--profile: cannot read '%s': %s", path, strerror(errno));
		return ret;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "--profile: cannot read '%s': not a regular file", path);
		return -EACCES;
	}
	if (access(path, R_OK)) {
		ret = -errno;
		snprintf(err, errlen, "--profile: cannot read '%s': %s", path, strerror(errno));
		return ret;
	}
	return 0;
}

/* The whole of path, a profile file the directory listing found. */
static int slurp(const char *path, char **text, char *err, size_t errlen)
{
	FILE *f;
	char *buf;
	size_t n;
	int ret;

	buf = malloc(PROFILE_TEXT_MAX + 1);
	if (!buf) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	f = fopen(path, "re");
	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "cannot read profile '%s': %s", path, strerror(errno));
		free(buf);
		return ret;
	}
	n = fread(buf, 1, PROFILE_TEXT_MAX, f);
	ret = ferror(f) ? -(errno ? errno : EIO) : 0;
	fclose(f);
	if (ret) {
		snprintf(err, errlen, "cannot read profile '%s': %s", path, strerror(-ret));
		free(buf);
		return -EACCES;
	}
	buf[n] = 0;
	*text = buf;
	return 0;
}

static int add_entry(struct profile_text *c, size_t *n, const char *dir, const char *name,
		     size_t len, char *err, size_t errlen)
{
	char path[PATH_MAX], *text = NULL, *copy;
	struct stat st;
	int ret;

	snprintf(path, sizeof(path), "%s/%.*s.ini", dir, (int)len, name);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "cannot read profile '%s': not a regular file", path);
		return -EACCES;
	}
	ret = slurp(path, &text, err, errlen);
	if (ret)
		return ret;
	copy = strndup(name, len);
	if (!copy) {
		free(text);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	c[*n].name = copy;
	c[*n].text = text;
	(*n)++;
	return 0;
}

/* The length of NAME in a directory entry NAME.ini, 0 for anything else. */
static size_t ini_len(const char *d)
{
	size_t l = strlen(d);

	return l > 4 && !strcmp(d + l - 4, ".ini") && good_name(d, l - 4) ? l - 4 : 0;
}

int profile_catalog(struct profile_text **out, size_t *n, char *err, size_t errlen)
{
	const struct profile_text *b;
	struct profile_text *c = NULL;
	struct dirent **list = NULL;
	const char *dir = profile_dir();
	size_t nb, cnt = 0;
	int nl, ret;

	*out = NULL;
	*n = 0;
	b = profile_builtins(&nb);
	if (!dir) {
		*out = (struct profile_text *)b;	/* not freed: see profile_catalog_free */
		*n = nb;
		return 0;
	}
	ret = profile_dir_check(err, errlen);
	if (ret)
		return ret;
	nl = scandir(dir, &list, NULL, alphasort);
	if (nl < 0) {
		ret = -errno;
		snprintf(err, errlen, "cannot read the profile directory '%s': %s", dir,
			 strerror(errno));
		return ret;
	}
	c = calloc((size_t)nl + 1, sizeof(*c));
	if (!c) {
		ret = -ENOMEM;
		snprintf(err, errlen, "out of memory");
		goto out;
	}
	/* the built-in order first (quick first), then the others by name */
	for (size_t i = 0; i < nb && !ret; i++)
		for (int j = 0; j < nl && !ret; j++) {
			size_t l = ini_len(list[j]->d_name);

			if (l && l == strlen(b[i].name) && !strncmp(list[j]->d_name, b[i].name, l))
				ret = add_entry(c, &cnt, dir, b[i].name, l, err, errlen);
		}
	for (int j = 0; j < nl && !ret; j++) {
		size_t l = ini_len(list[j]->d_name), k;

		for (k = 0; l && k < nb; k++)
			if (l == strlen(b[k].name) && !strncmp(list[j]->d_name, b[k].name, l))
				break;
		if (l && k == nb)
			ret = add_entry(c, &cnt, dir, list[j]->d_name, l, err, errlen);
	}
out:
	for (int j = 0; j < nl; j++)
		free(list[j]);
	free(list);
	if (ret) {
		profile_catalog_free(c, cnt);
		return ret;
	}
	*out = c;
	*n = cnt;
	return 0;
}

void profile_catalog_free(struct profile_text *c, size_t n)
{
	size_t nb;

	if (!c || c == profile_builtins(&nb))
		return;
	for (size_t i = 0; i < n; i++) {
		free((char *)c[i].name);
		free((char *)c[i].text);
	}
	free(c);
}
