/* schema.h - the "diskbench/1" document's objects, key by key: what json.c writes and load*.c read back (private to src/report). */
#ifndef DISKBENCH_SCHEMA_H
#define DISKBENCH_SCHEMA_H

#include <stdbool.h>
#include <stddef.h>

/*
 * One table per object of the document describes its keys in the order
 * they are written, each with the member of the C struct it holds (its
 * offset), its JSON type and since which version it is there. json.c's
 * writer walks a table to write the object and load_get.c's ld_fields
 * walks the same table to read it back, so a key is added in one place,
 * and the contract "add keys freely, never rename or remove" is about
 * these rows: a new row gets .since, and a row is never renamed or
 * taken away.
 *
 * Only flat values are described generically: scalars, strings, lists of
 * words and small objects over members of the same struct. What is
 * nested or irregular stays hand-written, as an SF_HAND row that keeps
 * its place in the order (json.c's json_hand writes it, and load*.c read
 * it after ld_fields): arrays of objects (runs, ranks, stalls, the
 * histogram, timelines), keys whose presence depends on another field's
 * value (unwritten's reason or share, verify's first_bad), values derived
 * from the whole result that are recomputed on load (a test's target
 * flags, the latency figures) and the settings, a map of any keys.
 *
 * Versions: every result reports tool version 0.1.0, so .since names the
 * commit that first wrote the key, as tests/data/results names the
 * results saved by earlier versions. since NULL: every result the reader
 * takes has the key, and it is required (a document without it is
 * refused, naming the key). A key with .since may be absent: it is left
 * as the zeroed struct has it, or .absent (SF_TRI, SF_INT).
 */

enum sf_type {
	SF_END = 0,	/* the end of a table */
	SF_STR,		/* char[.size]: a string; read cut to fit */
	SF_CSTR,	/* const char *: a string, or null for NULL; read as a
			 * copy the result owns (result_strdup) */
	SF_U64,		/* uint64_t */
	SF_U32,		/* uint32_t (unsigned) */
	SF_BOOL,	/* bool */
	SF_TRI,		/* int: true, false or null: 1, 0, -1 (unknown) */
	SF_INT,		/* int: a non-negative integer, or null for -1 (unknown) */
	SF_I64,		/* int64_t: the same, 64 bits */
	SF_FIXED,	/* double with .decimals places (jw_fixed); NaN is null */
	SF_DOUBLE,	/* double at full precision (jw_double); NaN is null */
	SF_LIST,	/* char[.size], items split at .sep: an array of strings,
			 * read back joined with .join */
	SF_NAME,	/* an unsigned member of .size bytes (a bool, an enum):
			 * the string .names[value], one of .nnames */
	SF_OBJECT,	/* an object whose keys are the rows of .sub, over the
			 * struct at .off (0: the same struct) */
	SF_HAND,	/* hand-written (json_hand; the reader's own code): .hand */
};

/* .flags */
#define SF_DERIVED	0x01	/* written, not read back: the reader derives it
				 * from the raw figures (result_finish, ...) */
#define SF_OMIT_EMPTY	0x02	/* SF_STR: not written when "" (needs .since) */
#define SF_VALID	0x04	/* the bool at .valid says whether the value is
				 * there: written null when false (SF_OMIT: not
				 * at all); read: true when given and not null */
#define SF_OMIT		0x08	/* with SF_VALID or .null_if: leave the key out
				 * instead of writing null (needs .since) */
#define SF_INLINE	0x10	/* SF_OBJECT: on one line */

/* The SF_HAND rows, by what they are (json.c's json_hand dispatches). */
enum schema_hand {
	SH_NONE = 0,
	SH_SCHEMA, SH_TOOL, SH_SETTINGS, SH_MPI, SH_TESTS, SH_XBENCH, SH_WARNINGS,
	SH_TARGET_DEVICES, SH_TARGET_FLAGS,
	SH_LAYOUT_REASON,
	SH_TEST_WINDOW, SH_TEST_LAT, SH_TEST_FLAGS, SH_TEST_STEADY, SH_TEST_CLIFF,
	SH_TEST_UNWRITTEN, SH_TEST_TRIM, SH_TEST_VERIFY, SH_TEST_FIRST_ERROR,
	SH_TEST_RUNS, SH_TEST_RANKS, SH_TEST_TIMELINE,
	SH_RUN_TIMELINE, SH_VERIFY_FIRST_BAD,
};

struct sfield {
	const char *key;
	enum sf_type type;
	size_t off;		/* of the member (SF_OBJECT: of its struct) */
	size_t size;		/* SF_STR, SF_LIST: the array's; SF_NAME: the member's */
	unsigned flags;
	const char *since;	/* the commit that first wrote it; NULL: required */
	size_t valid;		/* SF_VALID: offset of its bool */
	int absent;		/* SF_TRI, SF_INT with .since: when the key is absent */
	int decimals;		/* SF_FIXED */
	char sep;		/* SF_LIST */
	const char *join;	/* SF_LIST */
	const char *const *names; /* SF_NAME */
	unsigned nnames;
	const char *what;	/* SF_NAME: the names, for a reader's message */
	const struct sfield *sub; /* SF_OBJECT */
	/* written null when it returns true (a value that does not apply);
	 * with SF_OMIT, not written. The reader takes null (as 0) */
	bool (*null_if)(const void *obj);
	enum schema_hand hand;	/* SF_HAND */
};

/* The objects (each ends with an SF_END row). The root: a run_result. */
extern const struct sfield schema_run[];
extern const struct sfield schema_host[];	/* struct host_info */
extern const struct sfield schema_target[];	/* struct target_info */
extern const struct sfield schema_test[];	/* struct test_result */
extern const struct sfield schema_test_run[];	/* struct test_run ("runs" items) */
extern const struct sfield schema_rank_info[];	/* struct rank_info ("mpi.rank_info" items) */

#endif
