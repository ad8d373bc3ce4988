/* json.c - the "diskbench/1" JSON document of a run (DESIGN.md section 4). */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "report.h"

/* ---- a tiny pretty-printing JSON writer, private to this file ------------ */

#define JW_MAXDEPTH 16

struct jw {
	FILE *f;
	int err;			/* first write error, -errno */
	unsigned depth;
	bool first[JW_MAXDEPTH];	/* no member written yet at this level */
	bool inl[JW_MAXDEPTH];		/* members on one line: [low, count] */
};

static void jw_fail(struct jw *w)
{
	if (!w->err)
		w->err = errno ? -errno : -EIO;
}

static void jw_put(struct jw *w, const char *s)
{
	if (w->err)
		return;
	errno = 0;
	if (fputs(s, w->f) == EOF)
		jw_fail(w);
}

static void jw_putc(struct jw *w, int c)
{
	if (w->err)
		return;
	errno = 0;
	if (putc(c, w->f) == EOF)
		jw_fail(w);
}

static void jw_newline(struct jw *w)
{
	unsigned i;

	jw_putc(w, '\n');
	for (i = 0; i < w->depth; i++)
		jw_put(w, "  ");
}

/* Length of the valid UTF-8 sequence at s (n bytes left), 0 if invalid:
 * no overlong forms, no surrogates, nothing above U+10FFFF (RFC 3629). */
static size_t utf8_seq(const unsigned char *s, size_t n)
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
static void jw_string(struct jw *w, const char *s, size_t n)
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
static void jw_key(struct jw *w, const char *key)
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

static void jw_open(struct jw *w, const char *key, int c, bool inl)
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

static void jw_close(struct jw *w, int c)
{
	bool empty = w->first[w->depth], inl = w->inl[w->depth];

	if (w->depth)
		w->depth--;
	if (!empty && !inl)
		jw_newline(w);
	jw_putc(w, c);
}

static void jw_str(struct jw *w, const char *key, const char *s, size_t n)
{
	jw_key(w, key);
	if (s)
		jw_string(w, s, n);
	else
		jw_put(w, "null");
}

static void jw_cstr(struct jw *w, const char *key, const char *s)
{
	jw_str(w, key, s, s ? strlen(s) : 0);
}

/* Fixed-size char array members: never read past the array. */
#define jw_field(w, key, arr) jw_str(w, key, arr, sizeof(arr))

static void jw_u64(struct jw *w, const char *key, uint64_t v)
{
	char b[24];

	jw_key(w, key);
	snprintf(b, sizeof(b), "%" PRIu64, v);
	jw_put(w, b);
}

static void jw_i64(struct jw *w, const char *key, int64_t v)
{
	char b[24];

	jw_key(w, key);
	snprintf(b, sizeof(b), "%" PRId64, v);
	jw_put(w, b);
}

/* A double with a fixed number of decimals; NaN and Inf are not JSON. */
static void jw_fixed(struct jw *w, const char *key, double v, int decimals)
{
	char b[64];

	jw_key(w, key);
	if (isnan(v) || isinf(v)) {
		jw_put(w, "null");
		return;
	}
	snprintf(b, sizeof(b), "%.*f", decimals, v);
	jw_put(w, b);
}

static void jw_bool(struct jw *w, const char *key, bool v)
{
	jw_key(w, key);
	jw_put(w, v ? "true" : "false");
}

static void jw_null(struct jw *w, const char *key)
{
	jw_key(w, key);
	jw_put(w, "null");
}

/* An int where -1 means unknown. */
static void jw_int_or_null(struct jw *w, const char *key, int v)
{
	if (v < 0)
		jw_null(w, key);
	else
		jw_i64(w, key, v);
}

/* ---- the document --------------------------------------------------------- */

/*
 * Settings are stored as strings; a plain decimal integer is emitted as a
 * JSON number so consumers can compare it. Only up to 15 digits: anything
 * longer might not survive a parser that reads numbers as doubles (jq,
 * JavaScript), and a 64-bit seed must come back exact, so it stays a string.
 * No leading zeros ("0755" is not a JSON number, and not meant as 755).
 */
static bool plain_integer(const char *s, size_t n)
{
	size_t i = 0, digits;

	n = strnlen(s, n);
	if (i < n && s[i] == '-')
		i++;
	digits = n - i;
	if (digits == 0 || digits > 15 || (s[i] == '0' && digits > 1))
		return false;
	for (; i < n; i++)
		if (s[i] < '0' || s[i] > '9')
			return false;
	return true;
}

static void json_settings(struct jw *w, const struct run_result *r)
{
	const struct setting *s;
	unsigned i;

	jw_open(w, "settings", '{', false);
	for (i = 0; i < r->nsettings && i < RESULT_MAX_SETTINGS; i++) {
		s = &r->settings[i];
		jw_key(w, NULL);
		jw_string(w, s->key, sizeof(s->key));
		jw_put(w, ": ");
		if (plain_integer(s->value, sizeof(s->value)))
			jw_put(w, s->value);
		else
			jw_string(w, s->value, sizeof(s->value));
	}
	jw_close(w, '}');
}

static void json_target(struct jw *w, const struct target_info *t)
{
	jw_open(w, "target", '{', false);
	jw_field(w, "path", t->path);
	jw_field(w, "resolved_path", t->resolved);
	jw_cstr(w, "kind", target_kind_name(t->kind));
	jw_field(w, "device", t->device);
	jw_field(w, "disk", t->disk);
	jw_field(w, "model", t->model);
	jw_u64(w, "size_bytes", t->size_bytes);
	jw_field(w, "fs_type", t->fs_type);
	jw_field(w, "mount_options", t->mount_options);
	jw_field(w, "mount_point", t->mount_point);
	if (t->rotational < 0)
		jw_null(w, "rotational");
	else
		jw_bool(w, "rotational", t->rotational != 0);
	jw_field(w, "scheduler", t->scheduler);
	jw_int_or_null(w, "read_ahead_kb", t->read_ahead_kb);
	jw_int_or_null(w, "nr_requests", t->nr_requests);
	jw_u64(w, "logical_block_size", t->logical_block_size);
	jw_u64(w, "physical_block_size", t->physical_block_size);
	if (t->kind == TARGET_DIR)
		jw_u64(w, "free_bytes", t->free_bytes);
	jw_close(w, '}');
}

static void json_latency(struct jw *w, const struct test_result *t)
{
	const struct lat_summary *ls = &t->lat_sum;
	unsigned i;

	jw_open(w, "lat_ns", '{', false);
	jw_u64(w, "min", ls->min);
	jw_fixed(w, "mean", ls->mean, 1);
	jw_fixed(w, "stdev", ls->stdev, 1);
	jw_u64(w, "max", ls->max);
	jw_open(w, "percentiles", '{', false);
	for (i = 0; i < RESULT_NPCT; i++)
		jw_u64(w, result_pct_keys[i], ls->pct[i]);
	jw_close(w, '}');
	jw_open(w, "histogram", '[', false);
	for (i = 0; t->lat && i < HIST_NBUCKETS; i++) {
		if (!t->lat->count[i])
			continue;
		jw_open(w, NULL, '[', true);
		jw_u64(w, NULL, hist_bucket_low(i));
		jw_u64(w, NULL, t->lat->count[i]);
		jw_close(w, ']');
	}
	jw_close(w, ']');
	jw_close(w, '}');
}

static void json_test(struct jw *w, const struct test_result *t)
{
	jw_open(w, NULL, '{', false);
	jw_field(w, "name", t->name);
	jw_cstr(w, "workload", t->workload);
	jw_cstr(w, "engine", t->engine);
	jw_u64(w, "bs", t->bs);
	jw_u64(w, "qd", t->qd);
	jw_u64(w, "jobs", t->jobs);
	jw_bool(w, "direct", t->direct);
	jw_cstr(w, "pattern", t->random ? "rand" : "seq");
	jw_cstr(w, "rw", t->is_write ? "write" : "read");
	jw_u64(w, "runtime_ns", t->runtime_ns);
	jw_u64(w, "ramp_ns", t->ramp_ns);
	jw_u64(w, "size_bytes", t->size);
	jw_u64(w, "ops", t->ops);
	jw_u64(w, "bytes", t->bytes);
	jw_fixed(w, "iops", t->iops, 3);
	jw_fixed(w, "bytes_per_sec", t->bytes_per_sec, 3);

	json_latency(w, t);

	jw_open(w, "cpu", '{', false);
	jw_fixed(w, "user_pct", t->cpu_user_pct, 3);
	jw_fixed(w, "sys_pct", t->cpu_sys_pct, 3);
	jw_fixed(w, "usec_per_op", t->usec_per_op, 3);
	jw_close(w, '}');

	if (t->dev_valid) {
		jw_open(w, "device", '{', false);
		jw_u64(w, "read_bytes", t->dev_read_bytes);
		jw_u64(w, "write_bytes", t->dev_write_bytes);
		jw_close(w, '}');
	} else {
		jw_null(w, "device");
	}
	jw_bool(w, "cached", t->cached);

	jw_u64(w, "errors", t->errors);
	if (t->errors) {
		jw_open(w, "first_error", '{', false);
		jw_i64(w, "errno", t->first_errno);
		/* errno 0 with errors: the op completed short, no error code */
		jw_cstr(w, "message", t->first_errno ? strerror(t->first_errno) : "short transfer");
		jw_u64(w, "offset", t->first_error_offset);
		jw_close(w, '}');
	} else {
		jw_null(w, "first_error");
	}

	jw_open(w, "runs", '[', false);		/* filled by --repeat, later */
	jw_close(w, ']');
	jw_open(w, "summary", '{', false);
	jw_close(w, '}');
	jw_close(w, '}');
}

int report_json(FILE *f, const struct run_result *r)
{
	struct jw w = { .f = f };
	unsigned i;

	jw_open(&w, NULL, '{', false);
	jw_cstr(&w, "schema", "diskbench/1");
	jw_open(&w, "tool", '{', false);
	jw_cstr(&w, "name", "diskbench");
	jw_cstr(&w, "version", r->tool_version);
	jw_close(&w, '}');
	jw_field(&w, "started_at", r->started_at);
	jw_field(&w, "label", r->label);

	jw_open(&w, "host", '{', false);
	jw_field(&w, "hostname", r->host.hostname);
	jw_field(&w, "kernel", r->host.kernel);
	jw_field(&w, "cpu_model", r->host.cpu_model);
	jw_u64(&w, "cpus", r->host.cpus);
	jw_u64(&w, "memory_bytes", r->host.memory_bytes);
	jw_close(&w, '}');

	json_target(&w, &r->target);
	json_settings(&w, r);
	jw_u64(&w, "clock_overhead_ns", r->clock_overhead_ns);

	jw_open(&w, "tests", '[', false);
	for (i = 0; i < r->ntests; i++)
		json_test(&w, &r->tests[i]);
	jw_close(&w, ']');

	jw_open(&w, "warnings", '[', false);
	for (i = 0; i < r->nwarnings; i++)
		jw_cstr(&w, NULL, r->warnings[i]);
	jw_close(&w, ']');
	jw_close(&w, '}');
	jw_putc(&w, '\n');

	/* Buffered stdio may only fail at flush time (ENOSPC, EPIPE). */
	errno = 0;
	if (!w.err && fflush(f) == EOF)
		jw_fail(&w);
	if (!w.err && ferror(f))
		w.err = -EIO;
	return w.err;
}
