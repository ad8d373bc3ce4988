/* json_writer.h - the JSON writer shared by the run and info reports (private to src/report). */
#ifndef DISKBENCH_JSON_WRITER_H
#define DISKBENCH_JSON_WRITER_H

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "target.h"

/* A tiny pretty-printing JSON writer. Every function is static inline: one
 * copy per renderer that uses it, no exported symbols. The first write error
 * sticks in err and makes every later call a no-op. */

#define JW_MAXDEPTH 16

struct jw {
	FILE *f;
	int err;			/* first write error, -errno */
	unsigned depth;
	bool first[JW_MAXDEPTH];	/* no member written yet at this level */
	bool inl[JW_MAXDEPTH];		/* members on one line: [low, count] */
};

static inline void jw_fail(struct jw *w)
{
	if (!w->err)
		w->err = errno ? -errno : -EIO;
}

static inline void jw_put(struct jw *w, const char *s)
{
	if (w->err)
		return;
	errno = 0;
	if (fputs(s, w->f) == EOF)
		jw_fail(w);
}

static inline void jw_putc(struct jw *w, int c)
{
	if (w->err)
		return;
	errno = 0;
	if (putc(c, w->f) == EOF)
		jw_fail(w);
}

static inline void jw_newline(struct jw *w)
{
	unsigned i;

	jw_putc(w, '\n');
	for (i = 0; i < w->depth; i++)
		jw_put(w, "  ");
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid:
 * no overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629). */
static inline size_t utf8_seq(const unsigned char *s, size_t n)
{
	unsigned char lo = 0x80, hi = 0xbf;
	size_t need, i;

	if (s[0] < 0x80)
		return 1;
	if (s[0] < 0xc2)
		return 0;
	if (s[0] < 0xe0) {
		need = 1;
	} else if (s[0] < 0xf0) {
		need = 2;
		if (s[0] == 0xe0)
			lo = 0xa0;
		else if (s[0] == 0xed)
			hi = 0x9f;
	} else if (s[0] < 0xf5) {
		need = 3;
		if (s[0] == 0xf0)
			lo = 0x90;
		else if (s[0] == 0xf4)
			hi = 0x8f;
	} else {
		return 0;
	}
	if (n < need + 1 || s[1] < lo || s[1] > hi)
		return 0;
	for (i = 2; i <= need; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return need + 1;
}

/* A JSON string from at most n bytes of s (stops at a NUL). Invalid UTF-8
 * becomes U+FFFD so the document stays valid whatever a path contains. */
static inline void jw_string(struct jw *w, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	char esc[8];
	size_t i, k;

	n = strnlen(s, n);
	jw_putc(w, '"');
	for (i = 0; i < n; ) {
		if (p[i] == '"' || p[i] == '\\') {
			jw_putc(w, '\\');
			jw_putc(w, p[i++]);
		} else if (p[i] < 0x20 || p[i] == 0x7f) {
			snprintf(esc, sizeof(esc), "\\u%04x", p[i++]);
			jw_put(w, esc);
		} else if ((k = utf8_seq(p + i, n - i)) == 0) {
			jw_put(w, "\\ufffd");
			i++;
		} else {
			while (k--)
				jw_putc(w, p[i++]);
		}
	}
	jw_putc(w, '"');
}

/* Separator, indentation and key before any value. */
static inline void jw_key(struct jw *w, const char *key)
{
	if (w->depth) {
		if (!w->first[w->depth])
			jw_put(w, w->inl[w->depth] ? ", " : ",");
		if (!w->inl[w->depth])
			jw_newline(w);
		w->first[w->depth] = false;
	}
	if (key) {
		jw_string(w, key, strlen(key));
		jw_put(w, ": ");
	}
}

static inline void jw_open(struct jw *w, const char *key, int c, bool inl)
{
	jw_key(w, key);
	jw_putc(w, c);
	if (w->depth + 1 >= JW_MAXDEPTH) {	/* a bug in this file, not input */
		if (!w->err)
			w->err = -EOVERFLOW;
		return;
	}
	w->depth++;
	w->first[w->depth] = true;
	w->inl[w->depth] = inl || (w->depth > 1 && w->inl[w->depth - 1]);
}

static inline void jw_close(struct jw *w, int c)
{
	bool empty = w->first[w->depth], inl = w->inl[w->depth];

	if (w->depth)
		w->depth--;
	if (!empty && !inl)
		jw_newline(w);
	jw_putc(w, c);
}

static inline void jw_str(struct jw *w, const char *key, const char *s, size_t n)
{
	jw_key(w, key);
	if (s)
		jw_string(w, s, n);
	else
		jw_put(w, "null");
}

static inline void jw_cstr(struct jw *w, const char *key, const char *s)
{
	jw_str(w, key, s, s ? strlen(s) : 0);
}

/* Fixed-size char array members: never read past the array. */
#define jw_field(w, key, arr) jw_str(w, key, arr, sizeof(arr))

static inline void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	char b[24];

	jw_key(w, key);
	snprintf(b, sizeof(b), "%" PRIu64, v);
	jw_put(w, b);
}

static inline void jw_i64(struct jw *w, const char *key, int64_t v)
{
	char b[24];

	jw_key(w, key);
	snprintf(b, sizeof(b), "%" PRId64, v);
	jw_put(w, b);
}

/* A double with a fixed number of decimals; NaN and Inf are not JSON. From
 * 1e15 up, fixed decimals would only add digits a double does not have
 * (and 1e100 would not fit the buffer, which made a truncated integer the
 * loader rejects): such a value is written at full precision instead.
 * jw_num_fixed: the same text in b (at least 64 bytes; the HTML report's
 * data-value attributes carry it), returned. */
static inline const char *jw_num_fixed(double v, int decimals, char *b, size_t len)
{
	if (isnan(v) || isinf(v))
		snprintf(b, len, "null");
	else if (fabs(v) >= 1e15)
		snprintf(b, len, "%.17g", v);
	else
		snprintf(b, len, "%.*f", decimals, v);
	return b;
}

static inline void jw_fixed(struct jw *w, const char *key, double v, int decimals)
{
	char b[64];

	jw_key(w, key);
	jw_put(w, jw_num_fixed(v, decimals, b, sizeof(b)));
}

/* A double at full precision (a figure a consumer recomputes from others
 * must not lose digits); NaN and Inf are not JSON: null. jw_num_double:
 * the text in b (at least 40 bytes), returned. */
static inline const char *jw_num_double(double v, char *b, size_t len)
{
	if (isnan(v) || isinf(v))
		snprintf(b, len, "null");
	else
		snprintf(b, len, "%.17g", v);
	return b;
}

static inline void jw_double(struct jw *w, const char *key, double v)
{
	char b[40];

	jw_key(w, key);
	jw_put(w, jw_num_double(v, b, sizeof(b)));
}

static inline void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_put(w, v ? "true" : "false");
}

static inline void jw_null(struct jw *w, const char *key)
{
	jw_key(w, key);
	jw_put(w, "null");
}

/* An int where -1 means unknown. */
static inline void jw_int_or_null(struct jw *w, const char *key, int v)
{
	if (v < 0)
		jw_null(w, key);
	else
		jw_i64(w, key, v);
}

/* Flush f; the first write error (or a flush error: buffered stdio may only
 * fail at flush time, ENOSPC, EPIPE), as 0 or -errno. */
static inline int jw_finish(struct jw *w)
{
	errno = 0;
	if (!w->err && fflush(w->f) == EOF)
		jw_fail(w);
	if (!w->err && ferror(w->f))
		w->err = -EIO;
	return w->err;
}

/* The "target" object (key "target"), the same keys in every document that
 * describes a target: a run's result, `diskbench info`, a tune. In json.c.
 * The "host" object likewise. */
void report_json_target(struct jw *w, const struct target_info *t);
struct host_info;
void report_json_host(struct jw *w, const struct host_info *h);

#endif
