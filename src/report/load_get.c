/* load_get.c - the reader's typed getters: one member of a JSON object, checked (load_int.h). */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "load_int.h"

/* "FILE: WHERE: message" (WHERE is the key path, e.g. "tests[2].lat_ns";
 * empty at the top level). Returns ret. */
int ld_fail(struct ld *l, int ret, const char *where, const char *fmt, ...)
{
	char msg[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(l->err, l->errlen, "%s: %s%s%s", l->path, where, *where ? ": " : "", msg);
	return ret;
}

int ld_wrong(struct ld *l, const char *where, const char *key, const char *what)
{
	return ld_fail(l, -EINVAL, where, "key \"%s\" is not %s", key, what);
}

json_t *ld_member(struct ld *l, const char *where, json_t *obj, const char *key)
{
	json_t *v = json_object_get(obj, key);

	if (!v)
		ld_fail(l, -EINVAL, where, "missing key \"%s\"", key);
	return v;
}

int ld_u64(struct ld *l, const char *where, json_t *obj, const char *key, uint64_t *out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	/* Above INT64_MAX jansson already refused the document ("too big"). */
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return ld_wrong(l, where, key, "an unsigned integer");
	*out = (uint64_t)json_integer_value(v);
	return 0;
}

/* An unsigned integer, or null (given as 0). */
int ld_u64_or_null(struct ld *l, const char *where, json_t *obj, const char *key,
		   uint64_t *out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	*out = 0;
	return json_is_null(v) ? 0 : ld_u64(l, where, obj, key, out);
}

int ld_u32(struct ld *l, const char *where, json_t *obj, const char *key, uint32_t *out)
{
	uint64_t v;
	int ret = ld_u64(l, where, obj, key, &v);

	if (ret)
		return ret;
	if (v > UINT32_MAX)
		return ld_wrong(l, where, key, "a 32-bit unsigned integer");
	*out = (uint32_t)v;
	return 0;
}

/* A non-negative int, or null for unknown (-1). */
int ld_int_or_null(struct ld *l, const char *where, json_t *obj, const char *key,
		   int *out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (json_is_null(v)) {
		*out = -1;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0 || json_integer_value(v) > INT_MAX)
		return ld_wrong(l, where, key, "a non-negative integer or null");
	*out = (int)json_integer_value(v);
	return 0;
}

/* A non-negative 64-bit integer, or null for unknown (-1). */
static int ld_i64_or_null(struct ld *l, const char *where, json_t *obj, const char *key,
			  int64_t *out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (json_is_null(v)) {
		*out = -1;
		return 0;
	}
	if (!json_is_integer(v) || json_integer_value(v) < 0)
		return ld_wrong(l, where, key, "a non-negative integer or null");
	*out = json_integer_value(v);
	return 0;
}

int ld_bool(struct ld *l, const char *where, json_t *obj, const char *key, bool *out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (!json_is_boolean(v))
		return ld_wrong(l, where, key, "true or false");
	*out = json_is_true(v);
	return 0;
}

/* true, false or null (unknown): 1, 0, -1. */
int ld_tristate(struct ld *l, const char *where, json_t *obj, const char *key, int *out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (json_is_null(v))
		*out = -1;
	else if (json_is_boolean(v))
		*out = json_is_true(v);
	else
		return ld_wrong(l, where, key, "true, false or null");
	return 0;
}

/* A number; null (how the writer spells NaN and Inf) gives NaN. */
int ld_real(struct ld *l, const char *where, json_t *obj, const char *key, double *out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (json_is_null(v))
		*out = NAN;
	else if (json_is_number(v))
		*out = json_number_value(v);
	else
		return ld_wrong(l, where, key, "a number or null");
	return 0;
}

/* A string into a fixed array (cut to fit, as the run's own was). */
int ld_str(struct ld *l, const char *where, json_t *obj, const char *key, char *buf,
	   size_t len)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (!json_is_string(v))
		return ld_wrong(l, where, key, "a string");
	snprintf(buf, len, "%s", json_string_value(v));
	return 0;
}

/* A string the result owns, or null (NULL). */
int ld_owned(struct ld *l, const char *where, json_t *obj, const char *key,
	     const char **out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	*out = NULL;
	if (json_is_null(v))
		return 0;
	if (!json_is_string(v))
		return ld_wrong(l, where, key, "a string or null");
	*out = result_strdup(l->r, json_string_value(v));
	return *out ? 0 : ld_fail(l, -ENOMEM, where, "out of memory");
}

/* An array of strings joined with sep into buf (the writer split them). */
int ld_list(struct ld *l, const char *where, json_t *obj, const char *key, char *buf,
	    size_t len, const char *sep)
{
	json_t *v = ld_member(l, where, obj, key), *item;
	size_t i, used = 0;
	int n;

	if (!v)
		return -EINVAL;
	if (!json_is_array(v))
		return ld_wrong(l, where, key, "an array of strings");
	buf[0] = '\0';
	json_array_foreach(v, i, item) {
		if (!json_is_string(item))
			return ld_wrong(l, where, key, "an array of strings");
		n = snprintf(buf + used, len - used, "%s%s", i ? sep : "",
			     json_string_value(item));
		if (n < 0 || (size_t)n >= len - used)
			break;
		used += (size_t)n;
	}
	return 0;
}

/* An object member (or, with null_ok, null: *out = NULL). */
int ld_obj(struct ld *l, const char *where, json_t *obj, const char *key, bool null_ok,
	   json_t **out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	*out = NULL;
	if (null_ok && json_is_null(v))
		return 0;
	if (!json_is_object(v))
		return ld_wrong(l, where, key, null_ok ? "an object or null" : "an object");
	*out = v;
	return 0;
}

int ld_arr(struct ld *l, const char *where, json_t *obj, const char *key, json_t **out)
{
	json_t *v = ld_member(l, where, obj, key);

	if (!v)
		return -EINVAL;
	if (!json_is_array(v))
		return ld_wrong(l, where, key, "an array");
	*out = v;
	return 0;
}

/* A key path below where: "tests[2]" + "lat_ns" -> "tests[2].lat_ns". */
const char *ld_sub(char *buf, size_t len, const char *where, const char *key)
{
	snprintf(buf, len, "%s%s%s", where, *where ? "." : "", key);
	return buf;
}

/* An SF_NAME row: the index of the name given, stored in .size bytes. */
static int ld_name(struct ld *l, const char *where, json_t *o, const struct sfield *f, char *p)
{
	json_t *v = ld_member(l, where, o, f->key);
	unsigned i;

	if (!v)
		return -EINVAL;
	if (!json_is_string(v))
		return ld_wrong(l, where, f->key, "a string");
	for (i = 0; i < f->nnames && strcmp(json_string_value(v), f->names[i]); i++)
		;
	if (i == f->nnames)
		return ld_wrong(l, where, f->key, f->what);
	if (f->size == 1)
		*(unsigned char *)p = (unsigned char)i;
	else
		*(unsigned *)p = i;
	return 0;
}

/* One row's value, given (ld_fields). */
static int ld_value(struct ld *l, const char *where, json_t *o, const struct sfield *f, char *p)
{
	char w[96];
	json_t *s;

	switch (f->type) {
	case SF_STR:
		return ld_str(l, where, o, f->key, p, f->size);
	case SF_CSTR:
		return ld_owned(l, where, o, f->key, (const char **)p);
	case SF_U64:
		return ld_u64(l, where, o, f->key, (uint64_t *)p);
	case SF_U32:
		return ld_u32(l, where, o, f->key, (uint32_t *)p);
	case SF_BOOL:
		return ld_bool(l, where, o, f->key, (bool *)p);
	case SF_TRI:
		return ld_tristate(l, where, o, f->key, (int *)p);
	case SF_INT:
		return ld_int_or_null(l, where, o, f->key, (int *)p);
	case SF_I64:
		return ld_i64_or_null(l, where, o, f->key, (int64_t *)p);
	case SF_FIXED:
	case SF_DOUBLE:
		return ld_real(l, where, o, f->key, (double *)p);
	case SF_LIST:
		return ld_list(l, where, o, f->key, p, f->size, f->join);
	case SF_NAME:
		return ld_name(l, where, o, f, p);
	case SF_OBJECT:
		/* null is taken before: the message says whether it may be */
		if (ld_obj(l, where, o, f->key, (f->null_if || (f->flags & SF_VALID)) &&
			   !(f->flags & SF_OMIT), &s))
			return -EINVAL;
		return ld_fields(l, ld_sub(w, sizeof(w), where, f->key), s, f->sub, p);
	default:
		return 0;
	}
}

int ld_fields(struct ld *l, const char *where, json_t *o, const struct sfield *f, void *obj)
{
	for (; f->type != SF_END; f++) {
		char *p = (char *)obj + f->off;
		json_t *v;

		if (f->type == SF_HAND || (f->flags & SF_DERIVED))
			continue;
		v = json_object_get(o, f->key);
		if (!v && f->since) {	/* older than the key */
			if (f->type == SF_TRI || f->type == SF_INT)
				*(int *)p = f->absent;
			continue;
		}
		if (v && json_is_null(v) && !(f->flags & SF_OMIT)) {
			if (f->flags & SF_VALID) {
				*(bool *)((char *)obj + f->valid) = false;
				continue;
			}
			if (f->null_if)	/* does not apply: 0 */
				continue;
		}
		if (f->flags & SF_VALID)
			*(bool *)((char *)obj + f->valid) = v != NULL;
		if (ld_value(l, where, o, f, p))
			return -EINVAL;
	}
	return 0;
}
