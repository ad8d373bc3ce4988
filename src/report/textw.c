/* textw.c - the line writer of the human reports: 100 columns, wrapped or cut. */
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "textw.h"

static bool is_cont(char c)
{
	return ((unsigned char)c & 0xc0) == 0x80;	/* a UTF-8 continuation byte */
}

static void put_byte(struct textw *w, int c)
{
	if (w->err)
		return;
	errno = 0;
	if (putc(c, w->f) == EOF)
		w->err = errno ? -errno : -EIO;
}

void textw_put(struct textw *w, const char *s, size_t n)
{
	unsigned char c;
	size_t i;

	for (i = 0; i < n; i++) {
		c = (unsigned char)s[i];
		put_byte(w, c < 0x20 || c == 0x7f ? '?' : c);
		if (!w->chars || !is_cont(s[i]))
			w->col++;
	}
}

void textw_pad(struct textw *w, unsigned n)
{
	while (n--)
		textw_put(w, " ", 1);
}

void textw_nl(struct textw *w)
{
	put_byte(w, '\n');
	w->col = 0;
}

void textw_start(struct textw *w, const char *prefix)
{
	textw_put(w, prefix, strlen(prefix));
	w->indent = w->col;
}

void textw_tab(struct textw *w, unsigned col)
{
	textw_pad(w, w->col < col ? col - w->col : 1);
	w->indent = w->col;
}

/* Columns the n bytes at s take. */
static size_t cols(const struct textw *w, const char *s, size_t n)
{
	size_t c = 0, i;

	if (!w->chars)
		return n;
	for (i = 0; i < n; i++)
		c += !is_cont(s[i]);
	return c;
}

/* How many of the n bytes at s, which take more than room (> 0) columns,
 * fill room columns at most, ending between two characters. */
static size_t fit(const struct textw *w, const char *s, size_t n, size_t room)
{
	size_t cut, c = 0;

	if (w->chars) {
		for (cut = 0; cut < n; cut++)
			if (!is_cont(s[cut]) && c++ == room)
				break;
		return cut;
	}
	cut = room;
	while (cut > 0 && is_cont(s[cut]))
		cut--;
	return cut ? cut : room;	/* no character start at all: bytes */
}

void textw_item(struct textw *w, const char *sep, const char *s, size_t n)
{
	size_t seplen = strlen(sep), vis = seplen, cut;
	unsigned lim;

	while (vis && sep[vis - 1] == ' ')
		vis--;
	lim = TEXTW_WIDTH - (unsigned)vis;
	if (w->col > w->indent) {
		if (w->col + seplen + n > lim) {
			textw_put(w, sep, vis);
			textw_nl(w);
			textw_pad(w, w->indent);
		} else {
			textw_put(w, sep, seplen);
		}
	}
	while (w->col + cols(w, s, n) > lim && w->col < lim) {
		cut = fit(w, s, n, lim - w->col);
		textw_put(w, s, cut);
		textw_nl(w);
		textw_pad(w, w->indent);
		s += cut;
		n -= cut;
	}
	textw_put(w, s, n);
}

void textw_itemf(struct textw *w, const char *sep, const char *fmt, ...)
{
	char b[PATH_MAX + 256];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(b, sizeof(b), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	textw_item(w, sep, b, strnlen(b, sizeof(b)));
}

void textw_words(struct textw *w, const char *s, const char *ws)
{
	size_t n;

	for (;;) {
		s += strspn(s, ws);
		if (!*s)
			break;
		n = strcspn(s, ws);
		textw_item(w, " ", s, n);
		s += n;
	}
}

void textw_vwordsf(struct textw *w, const char *ws, const char *fmt, va_list ap)
{
	char b[PATH_MAX + 1024];

	if (vsnprintf(b, sizeof(b), fmt, ap) < 0)
		return;
	textw_words(w, b, ws);
}

void textw_raw(struct textw *w, const char *fmt, ...)
{
	char b[1024];
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	if (vsnprintf(b, sizeof(b), fmt, ap) < 0)
		b[0] = '\0';
	va_end(ap);
	n = strlen(b);
	if (w->col + cols(w, b, n) > TEXTW_WIDTH && w->col < TEXTW_WIDTH)
		n = fit(w, b, n, TEXTW_WIDTH - w->col);
	while (n && b[n - 1] == ' ')
		n--;
	textw_put(w, b, n);
	textw_nl(w);
}

int textw_finish(struct textw *w)
{
	if (w->err)
		return w->err;
	errno = 0;
	if (fflush(w->f) == EOF)
		w->err = errno ? -errno : -EIO;
	else if (ferror(w->f))
		w->err = -EIO;
	return w->err;
}
