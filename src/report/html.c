/* html.c - what every HTML report shares: the page, its style, facts, the embedded JSON. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "html.h"

/*
 * The style sheet. Series colours are custom properties (c0..c7) that the
 * chart classes read, so a chart names a series once. Print: no page
 * margins of our own, figures and tables not split across pages, colours
 * kept. Nothing here may hold '<' or '&' (the page is also XML).
 */
static const char style[] =
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#1d1d1f;"
	"max-width:1120px;margin:1.2em auto;padding:0 1em;background:#fff}\n"
	"h1{font-size:1.55em;margin:.2em 0}h2{font-size:1.2em;margin:1.4em 0 .4em;"
	"border-bottom:2px solid #1d1d1f;padding-bottom:2px}h3{font-size:1em;margin:.8em 0 .3em}\n"
	".sub{color:#555;margin:0 0 .8em}\n"
	"table{border-collapse:collapse;margin:.3em 0}\n"
	"th,td{padding:3px 9px;text-align:left;border-bottom:1px solid #ddd;vertical-align:top}\n"
	"thead th{border-bottom:2px solid #999;white-space:nowrap}\n"
	"td.num,th.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}\n"
	"td small{display:block;color:#666;font-size:.82em}\n"
	"table.sortable thead th{cursor:pointer}table.sortable td:first-child{white-space:nowrap}\n"
	".facts{display:grid;grid-template-columns:repeat(auto-fit,minmax(330px,1fr));gap:0 1.5em;"
	"align-items:start}\n"
	".facts table{width:100%}.facts th{width:38%;font-weight:600;color:#444}\n"
	".facts caption{text-align:left;font-weight:700;padding:.4em 0 .1em}\n"
	".facts td{word-break:break-word}\n"
	".warn{color:#8a3b00}.warn li{margin:.2em 0}\n"
	".badge{display:inline-block;padding:0 5px;margin:0 2px 1px 0;border-radius:3px;"
	"font-size:.8em;background:#eee;color:#333;white-space:nowrap}\n"
	".badge.cached,.badge.errors{background:#ffe1c8;color:#7a2e00}\n"
	".none{color:#666;font-style:italic}\n"
	"figure{margin:.6em 0 1.2em;break-inside:avoid}figcaption{color:#444;font-size:.9em}\n"
	".charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(480px,1fr));gap:0 1.5em}\n"
	"svg.chart{max-width:100%;height:auto;font-size:11px;display:block}\n"
	/* the compare page's plots: a row each, a larger type */
	".charts.single{grid-template-columns:1fr}svg.notes,svg.overlay{font-size:13px}"
	"svg.notes .vlabel,svg.notes .note,svg.overlay .vlabel{font-size:13px}"
	"svg.notes circle.dot{r:4.5px}svg.notes .note{fill:#333}"
	".chead{fill:#555;font-weight:600}svg.notes .atitle,svg.overlay .atitle{font-size:13px}"
	"svg.overlay .ctitle{font-size:14px;font-weight:600;fill:#222}\n"
	".grid{stroke:#e4e4e4;fill:none}.axis{stroke:#555;fill:none}\n"
	".ticks{fill:#444}.atitle{fill:#222;font-size:12px}.vlabel{fill:#222;font-size:10.5px}\n"
	".name{fill:#222}\n"
	".line{fill:none;stroke:var(--c);stroke-width:1.8;stroke-linejoin:round}\n"
	".thin{stroke-width:1.2}.dash{stroke-dasharray:5 3}.d1{stroke-dasharray:6 3}"
	".d2{stroke-dasharray:2 2}\n"
	".dot{fill:var(--c)}.bar{fill:var(--c);fill-opacity:.85}\n"
	".err{stroke:#222;fill:none;stroke-width:1.2}\n"
	".band{fill:#e6e6e6}.one{stroke:#222;stroke-width:1.3}\n"
	".better{--c:#1f8f3a}.worse{--c:#cc3322}.same{--c:#8a8a8a}\n"
	".err.better,.err.worse,.err.same{stroke:var(--c);stroke-width:1.8}.range{stroke-dasharray:3 2}\n"
	"td.better,td.worse{color:var(--c);font-weight:700}\n"
	"tr.differs th,tr.differs td{font-weight:700;background:#fff4e0}\n"
	".headline{border-left:6px solid var(--c);background:#f6f6f6;padding:.4em .9em;"
	"margin:.6em 0;font-size:1.08em}.headline p{margin:.2em 0}\n"
	".headline .outcome{font-size:1.3em}.headline strong{color:var(--c)}"
	".headline a{color:inherit;text-decoration:none}.mixed{--c:#b86e00}\n"
	"p.words{font-size:1.05em}table.cmp{font-size:.9em}table.cmp th,table.cmp td{padding:3px 6px}\n"
	".c0{--c:#1f6fb4}.c1{--c:#d1402c}.c2{--c:#2b9a3e}.c3{--c:#8a55c0}"
	".c4{--c:#e08a00}.c5{--c:#1aa6b7}.c6{--c:#8c564b}.c7{--c:#d0519f}\n"
	"ul.legend{list-style:none;padding:0;margin:.2em 0;display:flex;flex-wrap:wrap;"
	"gap:.2em 1.2em;font-size:.9em}\n"
	"ul.legend svg{vertical-align:middle;margin-right:.35em}\n"
	"footer{margin-top:2em;color:#555;font-size:.9em;border-top:1px solid #ccc}\n"
	"code{font-size:.92em}\n"
	"@media print{body{max-width:none;margin:0;font-size:11px}"
	"h2{break-after:avoid}table,figure{break-inside:avoid}"
	".charts{grid-template-columns:1fr 1fr}"
	"*{-webkit-print-color-adjust:exact;print-color-adjust:exact}}\n";

/*
 * Sorting by a click on a column's head: numbers by data-value, words by
 * their text. The page reads the same without it. No '<' or '&' (XML).
 */
static const char script[] =
	"document.querySelectorAll('table.sortable thead th').forEach(function(th){"
	"th.addEventListener('click',function(){"
	"var i=th.cellIndex,tb=th.closest('table').tBodies[0],rows=Array.from(tb.rows),"
	"dir=th.dataset.dir=th.dataset.dir==='up'?'down':'up';"
	"rows.sort(function(a,b){var x=a.cells[i],y=b.cells[i],"
	"p=parseFloat(x.dataset.value),q=parseFloat(y.dataset.value),"
	"c=isNaN(p)||isNaN(q)?x.textContent.localeCompare(y.textContent):p-q;"
	"return dir==='up'?c:-c});"
	"rows.forEach(function(r){tb.appendChild(r)})})});\n";

const char *html_series(unsigned i, char *buf, size_t len)
{
	unsigned dash = i / HTML_NCOLOURS % 3;

	if (dash)
		snprintf(buf, len, "c%u d%u", i % HTML_NCOLOURS, dash);
	else
		snprintf(buf, len, "c%u", i % HTML_NCOLOURS);
	return buf;
}

void html_begin(struct svg *w, const char *title)
{
	svg_printf(w, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
		   "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
		   /* nothing may be fetched, whatever a label holds */
		   "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
		   "style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:\"/>\n"
		   "<meta name=\"generator\" content=\"diskbench\"/>\n<title>");
	svg_esc(w, title, strlen(title));
	svg_printf(w, "</title>\n<style>\n%s</style>\n</head>\n<body>\n", style);
}

/* The JSON of render(f, arg), escaped into a script element (html_close). */
static int embed_json(struct svg *w, const char *id, int (*render)(FILE *, const void *),
		      const void *arg)
{
	char *buf = NULL, esc[8];
	size_t len = 0, i, run = 0;
	FILE *f = open_memstream(&buf, &len);
	int ret;

	if (!f)
		return -errno;
	ret = render(f, arg);
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) {
		free(buf);
		return ret;
	}
	svg_printf(w, "<script type=\"application/json\" id=\"");
	svg_esc(w, id, strlen(id));
	svg_printf(w, "\">\n");
	for (i = 0; i < len; i++) {
		if (buf[i] != '<' && buf[i] != '>' && buf[i] != '&') {
			run++;
			continue;
		}
		if (run)
			svg_printf(w, "%.*s", (int)run, buf + i - run);
		run = 0;
		snprintf(esc, sizeof(esc), "\\u%04x", (unsigned char)buf[i]);
		svg_printf(w, "%s", esc);
	}
	if (run)
		svg_printf(w, "%.*s", (int)run, buf + i - run);
	svg_printf(w, "</script>\n");
	free(buf);
	return 0;
}

int html_close(struct svg *w, const char *id, int (*render)(FILE *, const void *),
	       const void *arg)
{
	int ret = embed_json(w, id, render, arg);

	svg_printf(w, "</footer>\n<script>\n%s</script>\n</body>\n</html>\n", script);
	return ret ? ret : svg_finish(w);
}

void html_facts_open(struct svg *w, const char *caption)
{
	svg_printf(w, "<table>\n<caption>");
	svg_esc(w, caption, strlen(caption));
	svg_printf(w, "</caption>\n<tbody>\n");
}

void html_facts_close(struct svg *w)
{
	svg_printf(w, "</tbody>\n</table>\n");
}

static void fact_head(struct svg *w, const char *name, const char *key)
{
	svg_printf(w, "<tr><th>");
	svg_esc(w, name, strlen(name));
	svg_printf(w, "</th><td");
	if (key) {
		svg_printf(w, " data-key=\"");
		svg_esc(w, key, strlen(key));
		svg_printf(w, "\"");
	}
}

void html_fact(struct svg *w, const char *name, const char *key, const char *value, size_t n)
{
	fact_head(w, name, key);
	svg_printf(w, ">");
	svg_esc(w, value, n);
	svg_printf(w, "</td></tr>\n");
}

void html_fact_num(struct svg *w, const char *name, const char *key, const char *value,
		   const char *json_number)
{
	fact_head(w, name, key);
	svg_printf(w, " data-value=\"%s\">", json_number);
	svg_esc(w, value, strlen(value));
	svg_printf(w, "</td></tr>\n");
}

void html_legend(struct svg *w, const char *const *names, unsigned n)
{
	char cls[16];

	svg_printf(w, "<ul class=\"legend\">\n");
	for (unsigned i = 0; i < n; i++) {
		svg_printf(w, "<li><svg width=\"22\" height=\"10\" viewBox=\"0 0 22 10\">"
			   "<path class=\"line %s\" d=\"M1 5H21\"/></svg>",
			   html_series(i, cls, sizeof(cls)));
		svg_esc(w, names[i], strlen(names[i]));
		svg_printf(w, "</li>\n");
	}
	svg_printf(w, "</ul>\n");
}

void html_warnings(struct svg *w, char *const *warnings, unsigned n)
{
	svg_printf(w, "<section id=\"warnings\">\n<h2>Warnings</h2>\n");
	if (!n) {
		svg_printf(w, "<p class=\"none\">No warnings.</p>\n</section>\n");
		return;
	}
	svg_printf(w, "<ul class=\"warn\">\n");
	for (unsigned i = 0; i < n; i++) {
		const char *s = warnings[i] ? warnings[i] : "";

		svg_printf(w, "<li class=\"warning\">");
		svg_esc(w, s, strlen(s));
		svg_printf(w, "</li>\n");
	}
	svg_printf(w, "</ul>\n</section>\n");
}
