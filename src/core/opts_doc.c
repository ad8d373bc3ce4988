/* opts_doc.c - the option table as documentation: the man page's OPTIONS, doc/options.md's table. */
#include <stdio.h>
#include <string.h>

#include "opts_int.h"

/* Man page text: roff's escapes, and the markup as fonts; a link is its
 * text. Written on one line after a .TP tag: it never starts a line with
 * a control character ('.' or '\''), as no doc text begins with one. */
static void man_text(FILE *f, const char *s)
{
	bool code = false, em = false;

	for (; *s; s++) {
		if (*s == '`') {
			fputs((code = !code) ? "\\fB" : "\\fR", f);
		} else if (*s == '*' && !code) {
			fputs((em = !em) ? "\\fI" : "\\fR", f);
		} else if (*s == '[' && !code && strstr(s, "](")) {
			continue;	/* the link's text follows */
		} else if (*s == ']' && !code && s[1] == '(' && strchr(s, ')')) {
			s = strchr(s, ')');
		} else if (*s == '-') {
			fputs("\\-", f);
		} else if (*s == '\\') {
			fputs("\\e", f);
		} else {
			fputc(*s, f);
		}
	}
}

/* The roff line of one row's option: "\fB\-\-bs\fR \fILIST\fR". */
static void man_tag(FILE *f, const struct opt_def *o)
{
	fputs("\\fB\\-\\-", f);
	man_text(f, o->name);
	fputs("\\fR", f);
	if (!o->arg)
		return;
	if (o->kind == OPT_OPT_STR) {	/* "[=DEV]" */
		fputs("[=\\fI", f);
		fwrite(o->arg + 2, 1, strlen(o->arg) - 3, f);
		fputs("\\fR]", f);
		return;
	}
	fputs(" \\fI", f);
	for (const char *a = o->arg; *a; a++)
		fputs(*a == '|' ? "\\fR|\\fI" : *a == '-' ? "\\-" : (char[]){ *a, 0 }, f);
	fputs("\\fR", f);
}

/* Markdown: `--bs LIST` (a '|' escaped, as a table cell needs). */
static void md_text(FILE *f, const char *s)
{
	for (; *s; s++)
		fputs(*s == '|' ? "\\|" : (char[]){ *s, 0 }, f);
}

static void md_tag(FILE *f, const struct opt_def *o)
{
	fprintf(f, "`--%s%s", o->name, o->arg && o->kind != OPT_OPT_STR ? " " : "");
	md_text(f, o->arg ? o->arg : "");
	fputc('`', f);
}

/* The subcommands of a row that is not the run's: "tune", "compare, report". */
static void cmds_text(FILE *f, unsigned cmds)
{
	const char *sep = "";

	for (unsigned b = 1; b & OPTS_CMD_ALL; b <<= 1) {
		if (cmds & b) {
			fprintf(f, "%s%s", sep, opts_cmd_name(b));
			sep = ", ";
		}
	}
}

/* One entry: row i and the rows after it that are documented with it. */
static size_t entry(FILE *f, enum opts_doc_format fmt, size_t i, bool run)
{
	const struct opt_def *o = &opts_rows[i];
	const char *doc = o->doc ? o->doc : o->help;
	size_t k = i;

	fputs(fmt == OPTS_DOC_MAN ? ".TP\n" : "| ", f);
	do {
		if (k > i)
			fputs(", ", f);
		if (fmt == OPTS_DOC_MAN)
			man_tag(f, &opts_rows[k]);
		else
			md_tag(f, &opts_rows[k]);
		k++;
	} while (k < opts_nrows && opts_rows[k].with_prev);
	fputs(fmt == OPTS_DOC_MAN ? "\n" : " | ", f);
	if (!run) {
		fputs("(", f);
		cmds_text(f, o->cmds);
		fputs(") ", f);
	}
	if (fmt == OPTS_DOC_MAN)
		man_text(f, doc);
	else
		md_text(f, doc);
	fputs(fmt == OPTS_DOC_MAN ? "\n" : " |\n", f);
	return k;
}

void opts_doc(FILE *f, enum opts_doc_format fmt)
{
	size_t i;

	if (fmt == OPTS_DOC_MARKDOWN)
		fputs("| option | meaning |\n|---|---|\n", f);
	for (i = 0; i < opts_nrows;) {
		if (opts_rows[i].cmds & OPTS_CMD_RUN)
			i = entry(f, fmt, i, true);
		else
			i++;
	}
	/* what the other subcommands take of their own, by subcommand */
	if (fmt == OPTS_DOC_MAN)
		fputs(".PP\nThe other subcommands' own options (each also takes \\fB\\-\\-help\\fR):\n", f);
	else
		fputs("\nThe other subcommands' own options (each also takes `--help`):\n\n"
		      "| option | meaning |\n|---|---|\n", f);
	for (i = 0; i < opts_nrows;) {
		if (!(opts_rows[i].cmds & OPTS_CMD_RUN))
			i = entry(f, fmt, i, false);
		else
			i++;
	}
}
