/* profile.c - load a profile (built in or a file) with libinih, through the option table. */
#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "profile.h"

#define PROFILE_MAX_BYTES (1u << 20)
#define SECTION_MAX 50		/* inih's MAX_SECTION, less its NUL */

/* One key = value, kept until the whole file is read: the [profile]
 * section may come after the groups, yet it sits below them in precedence. */
struct entry {
	unsigned line;
	int group;		/* index in p->groups, -1 for [profile] */
	char *key;
	char *value;		/* moved to p->strings when the profile is built */
};

/*
 * The parse state. The reader (our own, in place of fgets) counts lines and
 * sees section headers before inih does: Debian's inih is built without
 * INI_HANDLER_LINENO and without INI_CALL_HANDLER_ON_NEW_SECTION, so this
 * is how an error gets its line number and an empty section is noticed.
 * inih handles a line right after reading it, so when the reader meets a
 * header, every key of the section before has been handled.
 */
struct pctx {
	struct profile *p;
	const char *file;
	const char *pos;	/* the unread rest of the text */
	unsigned lineno;	/* of the line last read */
	bool eof;

	unsigned sec_line;	/* header line of the current section, 0: none yet */
	char sec_name[SECTION_MAX + 1];
	bool sec_profile;	/* it is [profile] */
	unsigned entered_line;	/* sec_line the handler last saw */
	int group;		/* the handler's current group, -1 = [profile] */

	struct entry *entries;
	size_t nentries, cap;
	struct settings scratch; /* validates each value as it is read */

	unsigned err_line;	/* first error; 0 = none */
	char err[400];
	int err_code;
};

static void __attribute__((format(printf, 3, 4)))
fail(struct pctx *c, unsigned line, const char *fmt, ...)
{
	va_list ap;

	if (c->err_line || c->err_code)
		return;
	va_start(ap, fmt);
	vsnprintf(c->err, sizeof(c->err), fmt, ap);
	va_end(ap);
	c->err_line = line;
	c->err_code = -EINVAL;
}

static void oom(struct pctx *c)
{
	if (!c->err_code) {
		c->err_code = -ENOMEM;
		c->err_line = c->lineno ? c->lineno : 1;
		snprintf(c->err, sizeof(c->err), "out of memory");
	}
}

static bool is_profile_section(const char *name)
{
	return !strcmp(name, "profile");
}

/* The section whose header is at c->sec_line ends: a test group must have
 * said which workloads it runs. */
static void section_end(struct pctx *c)
{
	if (!c->sec_line || c->sec_profile)
		return;
	if (c->entered_line == c->sec_line && c->p->groups[c->group].nwl)
		return;
	fail(c, c->sec_line, "[%s]: no 'test =' line (which workloads this group runs)",
	     c->sec_name);
}

/* A header line: remember it (the text between '[' and ']', as inih takes
 * it). A line without ']' is left to inih, which calls it an error. */
static void section_begin(struct pctx *c, const char *t)
{
	const char *end = strchr(t, ']');
	size_t len;

	if (!end)
		return;
	section_end(c);
	len = (size_t)(end - t - 1);
	if (len > SECTION_MAX) {
		fail(c, c->lineno, "section name too long (at most %d characters)", SECTION_MAX);
		return;
	}
	if (!len) {
		fail(c, c->lineno, "empty section name");
		return;
	}
	memcpy(c->sec_name, t + 1, len);
	c->sec_name[len] = 0;
	c->sec_line = c->lineno;
	c->sec_profile = is_profile_section(c->sec_name);
}

/* The ini_reader: fgets() over the text, one line per call. Returning NULL
 * ends the parse, which is what happens after the first error. */
static char *reader(char *str, int num, void *stream)
{
	struct pctx *c = stream;
	const char *nl, *t;
	size_t len;

	if (c->err_line || c->err_code || c->eof)
		return NULL;
	if (!*c->pos) {
		c->eof = true;
		section_end(c);
		return NULL;
	}
	nl = strchr(c->pos, '\n');
	len = nl ? (size_t)(nl - c->pos) + 1 : strlen(c->pos);
	c->lineno++;
	if (len > (size_t)num - 1 || (len == (size_t)num - 1 && !nl)) {
		fail(c, c->lineno, "line too long (at most %d characters)", num - 2);
		return NULL;
	}
	memcpy(str, c->pos, len);
	str[len] = 0;
	c->pos += len;

	t = str;
	if (c->lineno == 1 && !strncmp(t, "\xEF\xBB\xBF", 3))
		t += 3;
	if (*t == '[') {
		section_begin(c, t);
	} else if (*t == ' ' || *t == '\t') {
		while (*t == ' ' || *t == '\t')
			t++;
		if (*t == '[')
			fail(c, c->lineno, "a section header must start at the beginning of "
			     "its line");
	}
	return c->err_line ? NULL : str;
}

static char *dup_str(struct pctx *c, const char *s)
{
	char *d = strdup(s);

	if (!d)
		oom(c);
	return d;
}

/* The handler enters the section the reader saw last. */
static int enter_section(struct pctx *c)
{
	struct profile *p = c->p;
	struct profile_group *g;

	c->entered_line = c->sec_line;
	if (c->sec_profile) {
		c->group = -1;
		return 0;
	}
	if (p->ngroups >= PROFILE_MAX_GROUPS) {
		fail(c, c->sec_line, "too many test groups (at most %d)", PROFILE_MAX_GROUPS);
		return -EINVAL;
	}
	g = &p->groups[p->ngroups];
	memset(g, 0, sizeof(*g));
	snprintf(g->name, sizeof(g->name), "%s", c->sec_name);
	g->line = c->sec_line;
	c->group = (int)p->ngroups++;
	return 0;
}

/* test = a, b, c: workloads by name, spaces around the commas allowed. */
static void add_tests(struct pctx *c, struct profile_group *g, const char *value)
{
	const char *s = value;

	for (;;) {
		const char *comma = strchr(s, ',');
		size_t len = comma ? (size_t)(comma - s) : strlen(s);
		const struct workload *w;
		char name[64];

		while (len && isspace((unsigned char)*s)) {
			s++;
			len--;
		}
		while (len && isspace((unsigned char)s[len - 1]))
			len--;
		/* A trailing comma lets a list go on on a continuation line. */
		if (!len && !comma && s != value)
			return;
		if (!len) {
			fail(c, c->lineno, "test: empty name in '%s'", value);
			return;
		}
		snprintf(name, sizeof(name), "%.*s", (int)len, s);
		w = len < sizeof(name) ? wl_find(name) : NULL;
		if (!w) {
			fail(c, c->lineno, "test: unknown test '%.*s' (see: diskbench list tests)",
			     (int)len, s);
			return;
		}
		if (g->nwl >= PROFILE_MAX_TESTS) {
			fail(c, c->lineno, "test: too many tests in [%s] (at most %d)", g->name,
			     PROFILE_MAX_TESTS);
			return;
		}
		g->wls[g->nwl++] = w;
		if (!comma)
			return;
		s = comma + 1;
	}
}

static int handler(void *user, const char *section, const char *key, const char *value)
{
	struct pctx *c = user;
	struct profile *p = c->p;
	struct entry *e;
	char msg[300];
	int ret;

	if (c->err_line || c->err_code)
		return 1;	/* already failed; the reader stops the parse */
	if (!c->sec_line) {
		fail(c, c->lineno, "'%s' outside a section (start with [profile] or a "
		     "[NAME] test group)", key);
		return 0;
	}
	if (c->entered_line != c->sec_line && enter_section(c))
		return 0;

	/* A key given twice is a mistake, except test: its continuation
	 * lines and repeats add workloads. */
	for (size_t i = 0; i < c->nentries; i++) {
		e = &c->entries[i];
		if (e->group == c->group && !strcmp(e->key, key) && strcmp(key, "test")) {
			fail(c, c->lineno, "'%s' given twice in [%s] (first on line %u)", key,
			     c->sec_name, e->line);
			return 0;
		}
		if (e->group == c->group && opts_exclusive(e->key, key)) {
			fail(c, c->lineno, "'%s' and '%s' (line %u) exclude each other in [%s]",
			     key, e->key, e->line, c->sec_name);
			return 0;
		}
	}
	if (c->group < 0 && !strcmp(key, "description")) {
		if (p->description[0]) {
			fail(c, c->lineno, "'description' given twice in [profile]");
			return 0;
		}
		if (strlen(value) >= sizeof(p->description)) {
			fail(c, c->lineno, "description: too long (at most %zu characters)",
			     sizeof(p->description) - 1);
			return 0;
		}
		snprintf(p->description, sizeof(p->description), "%s", value);
		return 1;
	}
	if (c->group >= 0 && !strcmp(key, "test")) {
		add_tests(c, &p->groups[c->group], value);
		return !c->err_line;
	}
	ret = opts_set(&c->scratch, key, value, c->group < 0 ? OPTS_PROFILE : OPTS_GROUP,
		       msg, sizeof(msg));
	if (ret) {
		fail(c, c->lineno, "%s", msg);
		return 0;
	}
	if (c->nentries == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 32;
		struct entry *n = realloc(c->entries, cap * sizeof(*n));

		if (!n) {
			oom(c);
			return 0;
		}
		c->entries = n;
		c->cap = cap;
	}
	e = &c->entries[c->nentries];
	e->line = c->lineno;
	e->group = c->group;
	e->key = dup_str(c, key);
	e->value = dup_str(c, value);
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		return 0;
	}
	c->nentries++;
	return 1;
}

static int apply_entries(struct pctx *c, struct settings *s, int group)
{
	char msg[300];

	for (size_t i = 0; i < c->nentries; i++) {
		struct entry *e = &c->entries[i];

		if (e->group != group)
			continue;
		/* Validated when read: this cannot fail. */
		if (opts_set(s, e->key, e->value, group < 0 ? OPTS_PROFILE : OPTS_GROUP, msg,
			     sizeof(msg))) {
			fail(c, e->line, "%s", msg);
			return -EINVAL;
		}
	}
	return 0;
}

/* Defaults < [profile] < each group. Values move into p->strings, which
 * the settings point to. */
static int build(struct pctx *c)
{
	struct profile *p = c->p;

	opts_defaults(&p->s);
	if (apply_entries(c, &p->s, -1))
		return -EINVAL;
	for (unsigned g = 0; g < p->ngroups; g++) {
		p->groups[g].s = p->s;
		if (apply_entries(c, &p->groups[g].s, (int)g))
			return -EINVAL;
	}
	p->strings = calloc(c->nentries ? c->nentries : 1, sizeof(*p->strings));
	if (!p->strings)
		return -ENOMEM;
	for (size_t i = 0; i < c->nentries; i++) {
		p->strings[p->nstrings++] = c->entries[i].value;
		c->entries[i].value = NULL;
	}
	return 0;
}

static void free_entries(struct pctx *c)
{
	for (size_t i = 0; i < c->nentries; i++) {
		free(c->entries[i].key);
		free(c->entries[i].value);
	}
	free(c->entries);
}

int profile_parse(struct profile *p, const char *name, const char *file, const char *text,
		  char *err, size_t errlen)
{
	struct pctx c;
	int ret;

	memset(p, 0, sizeof(*p));
	memset(&c, 0, sizeof(c));
	snprintf(p->name, sizeof(p->name), "%s", name);
	p->groups = calloc(PROFILE_MAX_GROUPS, sizeof(*p->groups));
	if (!p->groups) {
		snprintf(err, errlen, "%s: out of memory", file);
		return -ENOMEM;
	}
	c.p = p;
	c.file = file;
	c.pos = text;
	c.group = -1;
	opts_defaults(&c.scratch);

	ret = ini_parse_stream(reader, &c, handler, &c);
	if (ret < 0 && !c.err_code) {
		c.err_code = -ENOMEM;
		c.err_line = 1;
		snprintf(c.err, sizeof(c.err), "out of memory");
	}
	/* inih returns the first line it found wrong: a syntax error there
	 * comes before any error of ours on a later line. */
	if (ret > 0 && (!c.err_line || (unsigned)ret < c.err_line)) {
		c.err_line = (unsigned)ret;
		c.err_code = -EINVAL;
		snprintf(c.err, sizeof(c.err), "syntax error (want [SECTION], KEY = VALUE, or "
			 "a comment starting with ; or #)");
	}
	if (!c.err_code && !p->ngroups) {
		c.err_code = -EINVAL;
		c.err_line = c.lineno ? c.lineno : 1;
		snprintf(c.err, sizeof(c.err), "no test groups (a [NAME] section with "
			 "test = WORKLOAD[,...])");
	}
	if (!c.err_code && build(&c))
		c.err_code = c.err_line ? -EINVAL : -ENOMEM;
	free_entries(&c);
	if (c.err_code) {
		if (c.err_line)
			snprintf(err, errlen, "%s:%u: %s", file, c.err_line, c.err);
		else
			snprintf(err, errlen, "%s: out of memory", file);
		profile_free(p);
		return c.err_code;
	}
	return 0;
}

bool profile_is_path(const char *arg)
{
	size_t n = strlen(arg);

	return strchr(arg, '/') || (n > 4 && !strcmp(arg + n - 4, ".ini"));
}

/* The whole file as a string; a profile is small text. */
static int read_text(const char *path, char **out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *buf = NULL;
	size_t n;
	int ret = 0;

	if (!f) {
		ret = -errno;
		snprintf(err, errlen, "--profile: cannot read '%s': %s", path, strerror(errno));
		return ret;
	}
	buf = malloc(PROFILE_MAX_BYTES + 1);
	if (!buf) {
		ret = -ENOMEM;
		snprintf(err, errlen, "--profile: out of memory");
		goto out;
	}
	n = fread(buf, 1, PROFILE_MAX_BYTES + 1, f);
	if (ferror(f)) {
		ret = -EIO;
		snprintf(err, errlen, "--profile: cannot read '%s': %s", path, strerror(errno));
		goto out;
	}
	if (n > PROFILE_MAX_BYTES) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s: too big for a profile (more than %u bytes)", path,
			 PROFILE_MAX_BYTES);
		goto out;
	}
	buf[n] = 0;
	if (strlen(buf) != n) {
		ret = -EINVAL;
		snprintf(err, errlen, "%s:%u: a NUL byte: not a text file", path, 1u);
		goto out;
	}
	*out = buf;
	buf = NULL;
out:
	free(buf);
	fclose(f);
	return ret;
}

int profile_load(struct profile *p, const char *arg, char *err, size_t errlen)
{
	const struct profile_text *b;
	char *text = NULL, file[4200];
	size_t n;
	int ret;

	if (profile_is_path(arg)) {
		ret = read_text(arg, &text, err, errlen);
		if (ret)
			return ret;
		ret = profile_parse(p, arg, arg, text, err, errlen);
		free(text);
		return ret;
	}
	if (profile_dir()) {
		ret = profile_dir_file(arg, file, sizeof(file), err, errlen);
		if (!ret)
			ret = read_text(file, &text, err, errlen);
		if (ret)
			return ret == -EIO ? -EACCES : ret;
		ret = profile_parse(p, arg, file, text, err, errlen);
		free(text);
		return ret;
	}
	b = profile_builtins(&n);
	for (size_t i = 0; i < n; i++) {
		if (strcmp(b[i].name, arg))
			continue;
		snprintf(file, sizeof(file), "profiles/%s.ini", b[i].name);
		return profile_parse(p, b[i].name, file, b[i].text, err, errlen);
	}
	snprintf(err, errlen, "--profile: unknown profile '%s' (see: diskbench list profiles; "
		 "a file needs a '/' or the .ini suffix)", arg);
	return -ENOENT;
}

static int desc_handler(void *user, const char *section, const char *key, const char *value)
{
	char **buf = user;

	if (is_profile_section(section) && !strcmp(key, "description") && !*buf[0])
		snprintf(buf[0], (size_t)(buf[1] - buf[0]), "%s", value);
	return 1;
}

void profile_description(const char *text, char *buf, size_t len)
{
	char *range[2] = { buf, buf + len };

	if (!len)
		return;
	buf[0] = 0;
	ini_parse_string(text, desc_handler, range);
}

void profile_free(struct profile *p)
{
	for (size_t i = 0; i < p->nstrings; i++)
		free(p->strings[i]);
	free(p->strings);
	free(p->groups);
	p->strings = NULL;
	p->groups = NULL;
	p->nstrings = 0;
	p->ngroups = 0;
}
