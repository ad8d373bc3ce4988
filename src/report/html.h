/* html.h - what every HTML report shares: the page, its style, facts, the embedded JSON (private to src/report). */
#ifndef DISKBENCH_HTML_H
#define DISKBENCH_HTML_H

#include <stdbool.h>
#include <stdio.h>

#include "svg.h"

/*
 * The pages are polyglot: valid HTML5 and well-formed XML at once (every
 * element closed, attributes quoted, only XML's five entities), so that
 * xmllint can check their structure where no browser is at hand. They
 * load nothing: a Content-Security-Policy of default-src 'none' says so to
 * the browser, and no element has a src or href that leaves the page.
 */

/* Colours for series i (CSS classes c0..c7, dashed from the 9th on). */
#define HTML_NCOLOURS 8
const char *html_series(unsigned i, char *buf, size_t len);	/* "c3" or "c3 d1" */

/* <!DOCTYPE html> up to <body>: the title (escaped), the style sheet. */
void html_begin(struct svg *w, const char *title);

/*
 * The page's end, after the caller opened <footer> and said what it holds:
 * the JSON document render(f, arg) writes, embedded in
 * <script type="application/json" id="ID"> from the line after the tag,
 * then </footer>, the sorting script (a table of class "sortable" sorts by
 * a click on a column's head, by data-value where cells have one) and
 * </html>. In the JSON '<', '>' and '&' (which JSON has only inside
 * strings) are written as \u003c, \u003e and \u0026: the same JSON, which
 * can neither close the script element nor break the XML reading of the
 * page. Returns 0 or -errno: the render's error, out of memory, or the
 * first write error of the page (svg_finish).
 */
int html_close(struct svg *w, const char *id, int (*render)(FILE *, const void *),
	       const void *arg);

/* A table of facts: html_facts_open(w, caption), then rows, then
 * html_facts_close. A row is <tr><th>name</th><td data-key="KEY">value</td>:
 * KEY is the fact's path in the embedded JSON ("host.kernel"; NULL: none),
 * value is escaped; html_fact_num also gives the exact JSON number as
 * data-value (value is then the human form of it). */
void html_facts_open(struct svg *w, const char *caption);
void html_facts_close(struct svg *w);
void html_fact(struct svg *w, const char *name, const char *key, const char *value, size_t n);
void html_fact_num(struct svg *w, const char *name, const char *key, const char *value,
		   const char *json_number);

/* A legend: one entry per series, a swatch of its colour and its name. */
void html_legend(struct svg *w, const char *const *names, unsigned n);

#endif
