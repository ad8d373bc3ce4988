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
 * Load a built-in profile by name, or a file by path (profile_is_path).
 * Returns 0; -ENOENT with a message for an unknown name or a missing file;
 * -EINVAL as profile_parse; -errno for an unreadable file.
 */
int profile_load(struct profile *p, const char *name_or_path, char *err, size_t errlen);

/* The [profile] description of an .ini text without validating the rest
 * (for listing). Empty when there is none. */
void profile_description(const char *text, char *buf, size_t len);

void profile_free(struct profile *p);

#endif
