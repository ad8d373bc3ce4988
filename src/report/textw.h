/* textw.h - the human reports' line writer: 100 columns, wrapped or cut (private to src/report). */
#ifndef DISKBENCH_TEXTW_H
#define DISKBENCH_TEXTW_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Every human report (text, info, compare) fits this many columns. */
#define TEXTW_WIDTH 100

/*
 * A writer of lines to f. Every byte goes out through textw_put, which
 * makes a control character '?': a label or path must not move the cursor
 * or send escape sequences to the reader's terminal. The first write error
 * sticks in err and makes every later call a no-op.
 *
 * Columns count bytes, so a line never takes more than TEXTW_WIDTH bytes
 * (what the tests measure); with chars set they count UTF-8 characters
 * (continuation bytes take none), as the info report always has. Either
 * way a line is only ever cut between characters.
 */
struct textw {
	FILE *f;
	bool chars;		/* columns are UTF-8 characters, not bytes */
	unsigned col;		/* columns on the current line */
	unsigned indent;	/* where continuation lines start */
	int err;		/* first write error, -errno */
};

/* n bytes of s, control characters as '?'. */
void textw_put(struct textw *w, const char *s, size_t n);
void textw_pad(struct textw *w, unsigned n);	/* n spaces */
void textw_nl(struct textw *w);

/* Start a line with prefix; continuation lines align under what follows. */
void textw_start(struct textw *w, const char *prefix);

/* Go on in column col, or one space on when the line is already there
 * (a long label); continuation lines start there too. */
void textw_tab(struct textw *w, unsigned col);

/*
 * Append one item of a list, preceded by sep unless it opens the line. An
 * item that may not fit (judged by its bytes, which bound its columns)
 * goes to the next line, leaving sep's visible part (a comma) behind; room
 * for that is reserved on every line. An item wider than a whole line (a
 * long path) is cut at character boundaries.
 */
void textw_item(struct textw *w, const char *sep, const char *s, size_t n);
void textw_itemf(struct textw *w, const char *sep, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Running text, wrapped: words are what lies between the characters of ws
 * (" \t\n\r": a newline is just a space; " ": a tab is a '?'). */
void textw_words(struct textw *w, const char *s, const char *ws);
void textw_vwordsf(struct textw *w, const char *ws, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* One whole line as is, alignment spaces kept (hdparm's lines, tables
 * laid out with printf widths): cut at TEXTW_WIDTH between characters,
 * trailing spaces dropped, then a newline. */
void textw_raw(struct textw *w, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* Flush f. Returns 0, or the first error: a write error, or a flush
 * error (buffered stdio may only fail then: ENOSPC, EPIPE), as -errno. */
int textw_finish(struct textw *w);

/* text_ranks.c: a coordinated run's ranks, hosts and imbalance per test
 * (nothing for a single process). */
struct run_result;
void report_text_ranks(struct textw *w, const struct run_result *r);

/* text_classic.c: the table of the classic tool the run's "figures"
 * setting names (bonnie++'s layout, CrystalDiskMark's grid); nothing
 * without one, or for a name this version does not know. */
void report_text_figures(struct textw *w, const struct run_result *r);

#endif
