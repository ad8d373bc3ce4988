/* load.c - a saved "diskbench/1" JSON result (or an HTML report's) read back into a run_result. */
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "annotate.h"
#include "import.h"
#include "load.h"
#include "load_check.h"
#include "load_int.h"
#include "load_scan.h"
#include "parse.h"
#include "repeat.h"
#include "xbench.h"

/* ---- the parts ------------------------------------------------------------ */

static int load_settings(struct ld *l, json_t *root, struct run_result *r)
{
	const char *key;
	json_t *o, *v;
	int ret = 0;

	if (ld_obj(l, "", root, "settings", false, &o))
		return -EINVAL;
	/* jansson iterates an object in the order of the document. */
	json_object_foreach(o, key, v) {
		if (json_is_string(v))
			ret = result_add_setting(r, key, "%s", json_string_value(v));
		else if (json_is_integer(v))	/* the writer's plain integers */
			ret = result_add_setting(r, key, "%" JSON_INTEGER_FORMAT,
						 json_integer_value(v));
		else
			return ld_wrong(l, "settings", key, "a string or an integer");
		if (ret)
			return ld_fail(l, ret, "settings", "more than %d settings",
				    RESULT_MAX_SETTINGS);
	}
	return 0;
}

/* Who ran a coordinated run: "mpi", absent for a single process. */
static int load_mpi(struct ld *l, json_t *root, struct run_result *r)
{
	json_t *o = json_object_get(root, "mpi"), *a, *v;
	struct result_ranks *rr;
	char w[32];
	size_t i;

	if (!o || json_is_null(o))
		return 0;
	if (!json_is_object(o))
		return ld_wrong(l, "", "mpi", "an object");
	if (ld_arr(l, "mpi", o, "rank_info", &a))
		return -EINVAL;
	rr = calloc(1, sizeof(*rr));
	if (!rr || !(rr->info = calloc(json_array_size(a) + 1, sizeof(*rr->info)))) {
		free(rr);
		return ld_fail(l, -ENOMEM, "mpi", "out of memory");
	}
	r->ranks = rr;	/* result_free frees what is loaded */
	json_array_foreach(a, i, v) {
		struct rank_info *ri = &rr->info[i];

		snprintf(w, sizeof(w), "mpi.rank_info[%zu]", i);
		if (!json_is_object(v))
			return ld_fail(l, -EINVAL, w, "not an object");
		if (ld_fields(l, w, v, schema_rank_info, ri))
			return -EINVAL;
		rr->n = (unsigned)i + 1;
	}
	result_ranks_summarize(rr);
	for (i = 0; i < r->ntests; i++)
		if (r->tests[i].nranks != rr->n && r->tests[i].nranks)
			return ld_fail(l, -EINVAL, "mpi", "tests[%zu] has %u ranks, rank_info %u", i,
				    r->tests[i].nranks, rr->n);
	return 0;
}

/* "FILE:LINE:COLUMN: not a JSON document: why" for the byte at buf[at]
 * (at == end: the text ended there). Returns -EINVAL. */
static int syntax(struct ld *l, size_t at, const char *why)
{
	int line = l->line0, col = 1;

	for (size_t i = l->off; i < at && i < l->end; i++) {
		if (l->buf[i] == '\n') {
			line++;
			col = 1;
		} else {
			col++;
		}
	}
	if (at >= l->end && col > 1)
		col--;	/* as jansson counts: the last byte it read */
	snprintf(l->err, l->errlen, "%s:%d:%d: not a JSON document: %s", l->path, line, col, why);
	return -EINVAL;
}

/* A piece of the document: the text of one value, at most LOAD_MAX_PIECE
 * bytes (what is at stake: its tree takes about 10 times its text). */
#define LOAD_MAX_PIECE (32u << 20)

/* The value at buf[from..to) as a tree (jansson), or NULL with err set. */
static json_t *piece(struct ld *l, const char *where, size_t from, size_t to)
{
	json_error_t jerr;
	json_t *v;

	if (to - from > LOAD_MAX_PIECE) {
		ld_fail(l, -EINVAL, where, "%zu MiB of JSON, more than a result's part may hold "
		     "(%u MiB)", (to - from) >> 20, LOAD_MAX_PIECE >> 20);
		return NULL;
	}
	v = json_loadb(l->buf + from, to - from, JSON_DECODE_ANY, &jerr);
	if (!v)
		syntax(l, from + (size_t)(jerr.position > 0 ? jerr.position : 0), jerr.text);
	return v;
}

/* Every element of "tests", one tree at a time: the whole array as one
 * tree took 10 times the file (issue 27). */
static int load_tests(struct ld *l, struct run_result *r)
{
	size_t pos, next, n = 0, i;
	const char *why;
	char w[32];

	if (!l->has_tests)
		return ld_fail(l, -EINVAL, "", "missing key \"tests\"");
	if (l->buf[l->tests_off] != '[')
		return ld_wrong(l, "", "tests", "an array");
	/* how many (the scan is linear and allocates nothing), then each */
	for (int pass = 0; pass < 2; pass++) {
		pos = scan_ws(l->buf, l->tests_end, l->tests_off + 1);
		for (i = 0; pos < l->tests_end && l->buf[pos] != ']'; i++) {
			if (scan_value(l->buf, l->tests_end, pos, &next, &why))
				return syntax(l, next, why);
			if (pass) {
				json_t *o;
				int ret;

				snprintf(w, sizeof(w), "tests[%zu]", i);
				o = piece(l, w, pos, next);
				if (!o)
					return -EINVAL;
				ret = ld_test(l, (unsigned)i, o, &r->tests[i]);
				json_decref(o);
				if (ret)
					return ret;
			}
			pos = scan_ws(l->buf, l->tests_end, next);
			if (pos < l->tests_end && l->buf[pos] == ',')
				pos = scan_ws(l->buf, l->tests_end, pos + 1);
		}
		if (pass || !i)
			break;
		n = i;
		if (n > UINT_MAX)
			return ld_fail(l, -EINVAL, "", "more than %u tests", UINT_MAX);
		r->tests = calloc(n, sizeof(*r->tests));
		if (!r->tests)
			return ld_fail(l, -ENOMEM, "", "out of memory");
		r->ntests = (unsigned)n;	/* zeroed: result_free frees what is loaded */
	}
	return 0;
}

static int load_xbench(struct ld *l, json_t *root, struct xbench_scores *x)
{
	const unsigned max = sizeof(x->tests) / sizeof(x->tests[0]);
	char w[32], msg[256];
	json_t *o, *a, *t;
	size_t i;

	if (ld_obj(l, "", root, "xbench", true, &o))
		return -EINVAL;
	if (!o)
		return 0;
	if (ld_str(l, "xbench", o, "baseline", x->source, sizeof(x->source)) ||
	    ld_arr(l, "xbench", o, "tests", &a))
		return -EINVAL;
	if (json_array_size(a) > max)
		return ld_fail(l, -EINVAL, "xbench", "more than %u tests", max);
	json_array_foreach(a, i, t) {
		struct xbench_score *s = &x->tests[i];

		snprintf(w, sizeof(w), "xbench.tests[%zu]", i);
		if (!json_is_object(t))
			return ld_fail(l, -EINVAL, w, "not an object");
		if (ld_owned(l, w, t, "name", &s->name) ||
		    ld_real(l, w, t, "bytes_per_sec", &s->measured) ||
		    ld_real(l, w, t, "baseline_bytes_per_sec", &s->baseline) ||
		    ld_real(l, w, t, "score", &s->score))
			return -EINVAL;
		if (!s->name)
			return ld_wrong(l, w, "name", "a string");
		s->sequential = xbench_sequential(s->name);
		x->n = (unsigned)i + 1;
	}
	if (ld_real(l, "xbench", o, "sequential", &x->sequential) ||
	    ld_real(l, "xbench", o, "random", &x->random) ||
	    ld_real(l, "xbench", o, "total", &x->total))
		return -EINVAL;
	if (load_check_xbench(x, w, sizeof(w), msg, sizeof(msg)))
		return ld_fail(l, -EINVAL, w, "%s", msg);
	x->valid = true;
	return 0;
}

static int load_warnings(struct ld *l, json_t *root, struct run_result *r)
{
	json_t *a, *v;
	size_t i;

	if (ld_arr(l, "", root, "warnings", &a))
		return -EINVAL;
	json_array_foreach(a, i, v) {
		if (!json_is_string(v))
			return ld_fail(l, -EINVAL, "", "warnings[%zu] is not a string", i);
		if (result_add_warning(r, "%s", json_string_value(v)))
			return ld_fail(l, -ENOMEM, "", "out of memory");
	}
	return 0;
}

/* The target's and the read layout's hand-written members (schema.c's
 * SF_HAND rows) once ld_fields has read the rest. */
static int load_hands(struct ld *l, json_t *root, struct run_result *r)
{
	json_t *t = json_object_get(root, "target"), *d = json_object_get(t, "devices");
	json_t *lo = json_object_get(root, "read_layout");

	/* several devices are the members; one is the device itself */
	if (d && json_array_size(d) > 1 &&
	    ld_list(l, "target", t, "devices", r->target.members, sizeof(r->target.members), " "))
		return -EINVAL;
	/* why the layout was not checked: only then */
	if (r->read_layout.known && !r->read_layout.checked &&
	    ld_str(l, "read_layout", lo, "reason", r->read_layout.why, sizeof(r->read_layout.why)))
		return -EINVAL;
	return 0;
}

static int load_root(struct ld *l, json_t *root, struct run_result *r)
{
	json_t *schema = json_is_object(root) ? json_object_get(root, "schema") : NULL, *tool;

	/* diskbench's other documents (a tune's, a comparison's): say which */
	if (json_is_string(schema) && !strncmp(json_string_value(schema), "diskbench-", 10))
		return ld_fail(l, -EINVAL, "", "a \"%s\" document, not a run's result "
			       "(\"diskbench/1\"): report and compare read the JSON of runs",
			       json_string_value(schema));
	if (!json_is_string(schema) || strcmp(json_string_value(schema), "diskbench/1"))
		return ld_fail(l, -EINVAL, "", "not a diskbench result (no \"schema\": "
			       "\"diskbench/1\")");
	if (ld_obj(l, "", root, "tool", false, &tool) ||
	    ld_owned(l, "tool", tool, "version", &r->tool_version) ||
	    ld_fields(l, "", root, schema_run, r) || load_hands(l, root, r) ||
	    load_settings(l, root, r))
		return -EINVAL;
	/* a run that asked smartctl has "health", even with no reading */
	r->health.checked = json_is_object(json_object_get(root, "health"));
	if (load_tests(l, r) || load_mpi(l, root, r) || load_xbench(l, root, &r->xbench) ||
	    load_warnings(l, root, r))
		return -EINVAL;
	return 0;
}

/*
 * The file at path in *buf (malloc'd, NUL-terminated), its size in *len:
 * -EFBIG past max bytes, found by reading (a FIFO, /dev/zero) or, for a
 * regular file, by its size (*file_size; 0 for any other) before anything
 * is read.
 */
static int read_bounded(const char *path, uint64_t max, char **buf, size_t *len,
			uint64_t *file_size)
{
	size_t cap, want;
	struct stat st;
	char *p = NULL, *q;
	ssize_t got;
	int fd, ret = 0;

	*buf = NULL;
	*len = 0;
	*file_size = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st)) {
		ret = -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		ret = -EISDIR;
		goto out;
	}
	if (S_ISREG(st.st_mode))
		*file_size = (uint64_t)st.st_size;
	if (S_ISREG(st.st_mode) && (uint64_t)st.st_size > max) {
		ret = -EFBIG;
		goto out;
	}
	/* A regular file's size (+1 to see its end; it may grow), else 64 KiB
	 * to begin with, doubled up to max + 1: one byte past max is enough
	 * to refuse, whatever the file. */
	cap = S_ISREG(st.st_mode) ? (size_t)st.st_size + 1 : 1 << 16;
	if (cap > max + 1)
		cap = (size_t)max + 1;
	for (;;) {
		if (!p || *len == cap) {
			want = !p ? cap : cap < SIZE_MAX / 4 ? cap * 2 : SIZE_MAX / 2;
			if (want > max + 1)
				want = (size_t)max + 1;
			q = realloc(p, want + 1);	/* + the NUL */
			if (!q) {
				ret = -ENOMEM;
				goto out;
			}
			p = q;
			cap = want;
		}
		got = read(fd, p + *len, cap - *len);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			ret = -errno;
			goto out;
		}
		if (!got)
			break;
		*len += (size_t)got;
		if (*len > max) {
			ret = -EFBIG;
			goto out;
		}
	}
	p[*len] = '\0';
out:
	close(fd);
	if (ret) {
		free(p);
		p = NULL;
		*len = 0;
	}
	*buf = p;
	return ret;
}

/* One top-level member, "key": value, from buf[pos] into root (its
 * value's end in *next); "tests" is only spanned (load_doc). 0 or -errno. */
static int load_member(struct ld *l, json_t *root, size_t pos, size_t *next)
{
	size_t key_end;
	const char *why;
	json_t *k, *v;
	int ret = 0;

	if (l->buf[pos] != '"')
		return syntax(l, pos, "a string key expected");
	if (scan_value(l->buf, l->end, pos, &key_end, &why))
		return syntax(l, key_end, why);
	k = piece(l, "", pos, key_end);
	if (!k)
		return -EINVAL;
	pos = scan_ws(l->buf, l->end, key_end);
	if (pos >= l->end || l->buf[pos] != ':') {
		ret = syntax(l, pos, "':' expected after a key");
		goto out;
	}
	pos = scan_ws(l->buf, l->end, pos + 1);
	if (scan_value(l->buf, l->end, pos, next, &why)) {
		ret = syntax(l, *next, why);
		goto out;
	}
	if (json_object_get(root, json_string_value(k)) ||
	    (l->has_tests && !strcmp(json_string_value(k), "tests"))) {
		ret = ld_fail(l, -EINVAL, "", "key \"%s\" twice", json_string_value(k));
		goto out;
	}
	if (!strcmp(json_string_value(k), "tests")) {
		l->has_tests = true;
		l->tests_off = pos;
		l->tests_end = *next;
	} else {
		v = piece(l, json_string_value(k), pos, *next);
		if (!v || json_object_set_new(root, json_string_value(k), v))
			ret = v ? ld_fail(l, -ENOMEM, "", "out of memory") : -EINVAL;
	}
out:
	json_decref(k);
	return ret;
}

/*
 * The document in l->buf, as a tree of its top-level members but "tests",
 * whose span is kept in l (load_tests reads it test by test). The file is
 * JSON, or an HTML report that embeds it (result_find_json). 0, or -errno
 * with err set.
 */
static int load_doc(struct ld *l, size_t len, json_t **rootp)
{
	size_t pos, next, n, off;
	json_t *root;
	const char *why;
	int ret, line;

	*rootp = NULL;
	ret = result_find_json(l->buf, len, &off, &n, &line);
	if (ret) {
		snprintf(l->err, l->errlen, ret == -ENOENT ? "%s: an HTML page with no diskbench "
			 "result in it (a report written by --html holds one)" : "%s: an HTML report "
			 "whose embedded result is cut short", l->path);
		return -EINVAL;
	}
	l->off = off;
	l->end = off + n;
	l->line0 = line;
	pos = scan_ws(l->buf, l->end, l->off);
	if (pos >= l->end)
		return syntax(l, l->end, "no document in it");
	if (l->buf[pos] != '{') {
		/* JSON maybe, but no result: its syntax first, without a tree */
		if (scan_value(l->buf, l->end, pos, &next, &why))
			return syntax(l, next, why);
		if (scan_ws(l->buf, l->end, next) < l->end)
			return syntax(l, scan_ws(l->buf, l->end, next), "text after the document");
		return ld_fail(l, -EINVAL, "", "not a diskbench result (no \"schema\": "
			    "\"diskbench/1\")");
	}
	root = json_object();
	if (!root)
		return ld_fail(l, -ENOMEM, "", "out of memory");
	pos = scan_ws(l->buf, l->end, pos + 1);
	while (pos < l->end && l->buf[pos] != '}') {
		ret = load_member(l, root, pos, &next);
		if (ret)
			goto out;
		pos = scan_ws(l->buf, l->end, next);
		if (pos < l->end && l->buf[pos] == ',') {
			pos = scan_ws(l->buf, l->end, pos + 1);
			if (pos < l->end && l->buf[pos] == '}')
				goto bad_key;
		} else if (pos < l->end && l->buf[pos] != '}') {
			ret = syntax(l, pos, "',' or '}' expected");
			goto out;
		}
	}
	if (pos >= l->end) {
		ret = syntax(l, l->end, "the text ends inside the document");
		goto out;
	}
	pos = scan_ws(l->buf, l->end, pos + 1);
	if (pos < l->end) {
		ret = syntax(l, pos, "text after the document");
		goto out;
	}
	*rootp = root;
	return 0;
bad_key:
	ret = syntax(l, pos, "a string key expected");
out:
	json_decref(root);
	return ret;
}

/* Could buf be a diskbench result: past a byte-order mark and white space
 * it opens a JSON value or an HTML page (or there is nothing, which the
 * JSON reader names)? Else it is none of the formats read here. */
static bool opens_json_or_html(const char *buf, size_t len)
{
	size_t i = len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3) ? 3 : 0;

	while (i < len && strchr(" \t\r\n", buf[i]))
		i++;
	if (i == len || strchr("{[\"-0123456789<", buf[i]))
		return true;
	for (const char *const *w = (const char *const[]){ "true", "false", "null", NULL }; *w; w++)
		if (len - i >= strlen(*w) && !memcmp(buf + i, *w, strlen(*w)))
			return true;
	return false;
}

/* The result in buf[0..len) (no NUL needed: every reader takes len),
 * named name in errors. */
static int load_text(const char *name, const char *buf, size_t len, struct run_result *r,
		     char *err, size_t errlen)
{
	struct ld l = { .path = name, .err = err, .errlen = errlen, .r = r, .buf = buf };
	enum import_format fmt = import_detect(buf, len);
	json_t *root;
	int ret;

	memset(r, 0, sizeof(*r));
	if (fmt != IMPORT_NONE) {	/* another tool's result, by its content */
		ret = import_load(fmt, name, buf, len, r, err, errlen);
	} else if (!opens_json_or_html(buf, len)) {
		snprintf(err, errlen, "%s: none of the formats diskbench reads (its JSON or HTML "
			 "result, fio's JSON, a bonnie++ CSV line, hdparm -t/-T output)", name);
		return -EINVAL;
	} else {
		ret = load_doc(&l, len, &root);
		if (ret)
			return ret;
		ret = load_root(&l, root, r);
		json_decref(root);
		if (ret) {
			result_free(r);
			memset(r, 0, sizeof(*r));
		}
	}
	/* what renderers read rather than derive (not in the JSON) */
	for (unsigned i = 0; !ret && i < r->ntests; i++)
		result_test_flags(&r->tests[i]);
	return ret;
}

int result_load_buf(const char *name, const char *buf, size_t len, struct run_result *r,
		    char *err, size_t errlen)
{
	return load_text(name, buf, len, r, err, errlen);
}

int result_load_max(const char *path, uint64_t max_bytes, struct run_result *r, char *err,
		    size_t errlen)
{
	char size[32], *buf;
	uint64_t file_size;
	size_t len;
	int ret;

	memset(r, 0, sizeof(*r));
	ret = read_bounded(path, max_bytes, &buf, &len, &file_size);
	if (ret == -EISDIR) {
		snprintf(err, errlen, "%s: is a directory, not a JSON result", path);
		return ret;
	}
	if (ret == -EFBIG && file_size) {
		snprintf(err, errlen, "%s: %" PRIu64 " %s, more than %s, the limit for a result "
			 "file (--max-input SIZE raises it)", path,
			 file_size >= 10 << 20 ? file_size >> 20 : file_size,
			 file_size >= 10 << 20 ? "MiB" : "bytes",
			 format_size(max_bytes, size, sizeof(size)));
		return ret;
	}
	if (ret == -EFBIG) {
		snprintf(err, errlen, "%s: more than %s read from it, the limit for a result "
			 "(--max-input SIZE raises it)", path, format_size(max_bytes, size,
									   sizeof(size)));
		return ret;
	}
	if (ret) {
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
		return ret;
	}
	ret = load_text(path, buf, len, r, err, errlen);
	free(buf);
	return ret;
}

int result_load(const char *path, struct run_result *r, char *err, size_t errlen)
{
	return result_load_max(path, LOAD_MAX_BYTES, r, err, errlen);
}

int result_load_baseline(const char *path, struct xbench_baseline *b, char *err, size_t errlen)
{
	struct run_result r;
	int ret;

	memset(b, 0, sizeof(*b));
	ret = result_load(path, &r, err, errlen);
	if (ret)
		return ret;
	ret = xbench_baseline_of(&r, path, b, err, errlen);
	result_free(&r);
	return ret;
}
