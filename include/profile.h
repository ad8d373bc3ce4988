/* profile.h - profiles: INI files naming test groups and their settings. */
#ifndef DISKBENCH_PROFILE_H
#define DISKBENCH_PROFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "opts.h"
#include "workload.h"

#define PROFILE_MAX_GROUPS 64
#define PROFILE_MAX_TESTS 32	/* workloads in one group's test = list */

/* One test group: a [NAME] section. */
struct profile_group {
	char name[64];		/* the section name, free text */
	unsigned line;		/* line of its [NAME] header */
	const struct workload *wls[PROFILE_MAX_TESTS];	/* its test = list */
	unsigned nwl;
	struct settings s;	/* defaults < [profile] < this section */
};

struct profile {
	char name[256];		/* "quick", or the path it was read from */
	char description[256];	/* [profile] description, may be empty */
	struct settings s;	/* defaults < [profile] */
	struct profile_group *groups;	/* in file order; owned */
	unsigned ngroups;
	char **strings;		/* copies of values the settings point to; owned */
	size_t nstrings;
};

/* A profile built into the binary (src/profiles_builtin.c, generated from
 * profiles/NAME.ini at build time). */
struct profile_text {
	const char *name;	/* "quick" */
	const char *text;	/* the whole .ini file */
};

/* The built-in profiles, quick first (the order of the Makefile). */
const struct profile_text *profile_builtins(size_t *n);

/*
 * The directory an installed diskbench reads its profiles from
 * ($(pkgdatadir)/profiles), or NULL when this program does not run from its
 * installed place and uses the profiles built in (a build tree). Installed
 * means: the program's own directory (/proc/self/exe) is the configured
 * bindir, under a root that is "/" or a DESTDIR, which then prefixes the
 * profile directory too. Computed once.
 */
const char *profile_dir(void);

/* 0 when profile_dir() is NULL or a directory; else -ENOENT and one line
 * naming the path in err. */
int profile_dir_check(char *err, size_t errlen);

/*
 * The installed file of profile name into path: 0 when it is a readable
 * regular file; -ENOENT for a missing directory or an unknown name,
 * -EACCES or -errno for a file that cannot be read, each with one line
 * naming the path in err. Only when profile_dir() is set.
 */
int profile_dir_file(const char *name, char *path, size_t len, char *err, size_t errlen);

/*
 * The profiles to list: the installed directory's NAME.ini files when
 * profile_dir() is set (the built-in order first, then the others by
 * name), else the built-in ones. Sets *out to n entries, to be given back
 * to profile_catalog_free. Returns 0, or -errno with one line naming the
 * path in err (a missing directory, an unreadable file).
 */
int profile_catalog(struct profile_text **out, size_t *n, char *err, size_t errlen);
void profile_catalog_free(struct profile_text *c, size_t n);

/* Is arg a path to read ("/" in it, or ending in ".ini") rather than the
 * name of a built-in profile? */
bool profile_is_path(const char *arg);

/*
 * Parse text as the profile file called file (used in messages) into p,
 * named name. Every key goes through opts_set(): the same names, parsers and
 * validation as the command line; every test = name must be a workload
 * (wl_find). Returns 0, -EINVAL with "FILE:LINE: message" in err for a bad
 * profile (syntax, unknown or misplaced key, bad value, unknown test, group
 * without test =, no groups), or -ENOMEM. On error p holds nothing to free.
 */
int profile_parse(struct profile *p, const char *name, const char *file, const char *text,
		  char *err, size_t errlen);

/*
 * Load a profile by name (the installed file when profile_dir() is set,
 * else the built-in one), or a file by path (profile_is_path).
 * Returns 0; -ENOENT with a message for an unknown name or a missing file;
 * -EINVAL as profile_parse; -errno for an unreadable file.
 */
int profile_load(struct profile *p, const char *name_or_path, char *err, size_t errlen);

/* The [profile] description of an .ini text without validating the rest
 * (for listing). Empty when there is none. */
void profile_description(const char *text, char *buf, size_t len);

void profile_free(struct profile *p);

#endif
