/* load_html.c - where a result file's JSON is: all of it, or what an HTML report embeds. */
#include <errno.h>
#include <string.h>

#include "load.h"

/* What report_html writes around the JSON (html.c, html_run.c); a
 * comparison's page (report_compare_html) and a tune's (report_tune_html)
 * hold their own documents, which the loader then names. */
static const char embed_id[] = "id=\"diskbench-result\"";
static const char *const embed_other_ids[] = { "id=\"diskbench-compare\"",
					       "id=\"diskbench-tune\"" };
static const char embed_end[] = "</script";

static int line_of(const char *buf, size_t off)
{
	int line = 1;

	for (size_t i = 0; i < off; i++)
		line += buf[i] == '\n';
	return line;
}

int result_find_json(const char *buf, size_t len, size_t *off, size_t *n, int *line)
{
	const char *id, *start, *end;
	size_t i = 0;

	*off = 0;
	*n = len;
	*line = 1;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3))
		i = 3;
	while (i < len && strchr(" \t\r\n", buf[i]) && buf[i])
		i++;
	if (i >= len || buf[i] != '<')
		return 0;	/* JSON (or not: the parser says what is wrong) */
	id = memmem(buf, len, embed_id, sizeof(embed_id) - 1);
	for (size_t k = 0; !id && k < sizeof(embed_other_ids) / sizeof(embed_other_ids[0]); k++)
		id = memmem(buf, len, embed_other_ids[k], strlen(embed_other_ids[k]));
	if (!id)
		return -ENOENT;
	start = memchr(id, '>', len - (size_t)(id - buf));
	if (!start)
		return -EINVAL;
	start++;
	/* The JSON holds no '<' (report_html writes \u003c): the first end
	 * tag is the element's. */
	end = memmem(start, len - (size_t)(start - buf), embed_end, sizeof(embed_end) - 1);
	if (!end)
		return -EINVAL;
	*off = (size_t)(start - buf);
	*n = (size_t)(end - start);
	*line = line_of(buf, *off);
	return 0;
}
