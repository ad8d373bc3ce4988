/* load_int.h - the reader's state and its typed getters, shared by load*.c (private to src/report). */
#ifndef DISKBENCH_LOAD_INT_H
#define DISKBENCH_LOAD_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "result.h"
#include "schema.h"

/* The file being read and the first error, for one-line messages. */
struct ld {
	const char *path;
	char *err;
	size_t errlen;
	struct run_result *r;
	/* The file's text; the JSON is buf[0..end) from off (after a BOM, in
	 * an HTML report the embedded element's text), which starts on the
	 * file's line line0. "tests" is not built as one tree: its span is
	 * tests_off .. tests_end, each test parsed in turn (load_tests). */
	const char *buf;
	size_t off, end;
	int line0;
	bool has_tests;
	size_t tests_off, tests_end;
};

/*
 * The getters: the member key of obj (an object at the key path where)
 * into *out, checked for its type. Each returns 0, or -EINVAL (-ENOMEM)
 * with l->err set, naming the file, where and the key. A missing key is
 * an error ("missing key"): a caller that takes its absence asks
 * json_object_get first.
 */
/* "FILE: WHERE: message" (WHERE is the key path, e.g. "tests[2].lat_ns";
 * empty at the top level). Returns ret. */
int ld_fail(struct ld *l, int ret, const char *where, const char *fmt, ...)
	    __attribute__((format(printf, 4, 5)));
/* "key \"KEY\" is not WHAT" at where: -EINVAL. */
int ld_wrong(struct ld *l, const char *where, const char *key, const char *what);
/* obj's member key, or NULL with "missing key" in l->err. */
json_t *ld_member(struct ld *l, const char *where, json_t *obj, const char *key);
int ld_u64(struct ld *l, const char *where, json_t *obj, const char *key, uint64_t *out);
/* An unsigned integer, or null (given as 0). */
int ld_u64_or_null(struct ld *l, const char *where, json_t *obj, const char *key,
		   uint64_t *out);
int ld_u32(struct ld *l, const char *where, json_t *obj, const char *key, uint32_t *out);
/* A non-negative int, or null for unknown (-1). */
int ld_int_or_null(struct ld *l, const char *where, json_t *obj, const char *key,
		   int *out);
int ld_bool(struct ld *l, const char *where, json_t *obj, const char *key, bool *out);
/* true, false or null (unknown): 1, 0, -1. */
int ld_tristate(struct ld *l, const char *where, json_t *obj, const char *key, int *out);
/* A number; null (how the writer spells NaN and Inf) gives NaN. */
int ld_real(struct ld *l, const char *where, json_t *obj, const char *key, double *out);
/* A string into a fixed array (cut to fit, as the run's own was). */
int ld_str(struct ld *l, const char *where, json_t *obj, const char *key, char *buf,
	   size_t len);
/* A string the result owns, or null (NULL). */
int ld_owned(struct ld *l, const char *where, json_t *obj, const char *key,
	     const char **out);
/* An array of strings joined with sep into buf (the writer split them). */
int ld_list(struct ld *l, const char *where, json_t *obj, const char *key, char *buf,
	    size_t len, const char *sep);
/* An object member (or, with null_ok, null: *out = NULL). */
int ld_obj(struct ld *l, const char *where, json_t *obj, const char *key, bool null_ok,
	   json_t **out);
int ld_arr(struct ld *l, const char *where, json_t *obj, const char *key, json_t **out);
/* A key path below where: "tests[2]" + "lat_ns" -> "tests[2].lat_ns". */
const char *ld_sub(char *buf, size_t len, const char *where, const char *key);

/*
 * The members of obj that the table f describes (schema.h), from the
 * object o at the key path where: each row but SF_HAND and SF_DERIVED
 * ones, by the getters above (their messages). A row with .since may be
 * absent; one without must be there. 0 or -EINVAL with l->err set.
 */
int ld_fields(struct ld *l, const char *where, json_t *o, const struct sfield *f, void *obj);

/* One element of "tests" (tests[idx], the tree o) into t. In load_test.c. */
int ld_test(struct ld *l, unsigned idx, json_t *o, struct test_result *t);

#endif
