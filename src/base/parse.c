/* parse.c - strict, exact parsers for sizes, durations, counts and lists. */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "parse.h"

/*
 * Every parser works on a span (pointer + length) so the list parsers can
 * hand out items without copying them into a bounded buffer; the public
 * entry points pass the whole NUL-terminated string.
 *
 * Grammar of a number: DIGITS [ "." DIGITS ] SUFFIX, where DIGITS is one or
 * more of 0-9 and SUFFIX must match a table row exactly. No sign, no
 * whitespace, no exponent, no hex: anything else is -EINVAL. The syntax is
 * checked before any arithmetic, so "1e99999" is -EINVAL, not -ERANGE.
 *
 * No floating point anywhere: a fraction is multiplied out digit by digit
 * (see scale()), so "1.5k" is exactly 1536 and "1.3b" is refused instead of
 * being rounded.
 */

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#define CPU_LIMIT 4096	/* each CPU number must be below this */

struct unit {
	const char *name;
	uint64_t mult;
};

/*
 * Size suffixes. Lower and upper case single letters and the IEC names are
 * powers of 1024, as dd and bonnie++ read them. The two-letter SI names are
 * powers of 1000. "KB" is also taken as 1000 (the SI spelling is "kB", but
 * disk vendors and systemd write "KB" for 1000 as well; the header's rule is
 * "kB/MB/GB/TB are powers of 1000" and KB is the same family). Other
 * spellings ("kb", "Ki", "mB", "KIB") are refused rather than guessed at.
 */
static const struct unit size_units[] = {
	{ "",    1 },
	{ "b",   1 },
	{ "B",   1 },
	{ "k",   1ULL << 10 }, { "K",   1ULL << 10 }, { "KiB", 1ULL << 10 },
	{ "m",   1ULL << 20 }, { "M",   1ULL << 20 }, { "MiB", 1ULL << 20 },
	{ "g",   1ULL << 30 }, { "G",   1ULL << 30 }, { "GiB", 1ULL << 30 },
	{ "t",   1ULL << 40 }, { "T",   1ULL << 40 }, { "TiB", 1ULL << 40 },
	{ "kB",  1000ULL },
	{ "KB",  1000ULL },
	{ "MB",  1000000ULL },
	{ "GB",  1000000000ULL },
	{ "TB",  1000000000000ULL },
};

/* Duration suffixes, in nanoseconds; a bare number is seconds. */
static const struct unit duration_units[] = {
	{ "",   1000000000ULL },
	{ "ns", 1ULL },
	{ "us", 1000ULL },
	{ "ms", 1000000ULL },
	{ "s",  1000000000ULL },
	{ "m",  60ULL * 1000000000ULL },
	{ "h",  3600ULL * 1000000000ULL },
};

/* A scanned number: spans into the input, nothing converted yet. */
struct number {
	const char *ip;		/* integer digits */
	size_t ilen;
	const char *fp;		/* fraction digits (after '.'), may be empty */
	size_t flen;
	const char *sp;		/* suffix, may be empty */
	size_t slen;
};

static bool is_digit(char c)
{
	/* not isdigit(): that one depends on the locale */
	return c >= '0' && c <= '9';
}

static size_t count_digits(const char *s, size_t len)
{
	size_t i = 0;

	while (i < len && is_digit(s[i]))
		i++;
	return i;
}

static int scan_number(const char *s, size_t len, bool allow_fraction,
		       struct number *n)
{
	size_t i;

	memset(n, 0, sizeof(*n));
	n->ip = s;
	n->ilen = count_digits(s, len);
	if (n->ilen == 0)
		return -EINVAL;
	i = n->ilen;
	if (allow_fraction && i < len && s[i] == '.') {
		i++;
		n->fp = s + i;
		n->flen = count_digits(s + i, len - i);
		if (n->flen == 0)
			return -EINVAL;	/* "1." and "1.k" */
		i += n->flen;
	}
	n->sp = s + i;
	n->slen = len - i;
	return 0;
}

static const struct unit *find_unit(const struct unit *tab, size_t ntab,
				    const char *s, size_t len)
{
	size_t i;

	for (i = 0; i < ntab; i++)
		if (strlen(tab[i].name) == len && memcmp(tab[i].name, s, len) == 0)
			return &tab[i];
	return NULL;
}

/* Decimal digits (already validated) into a uint64_t, -ERANGE on overflow. */
static int digits_to_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;
	size_t i;

	for (i = 0; i < len; i++) {
		if (__builtin_mul_overflow(v, 10, &v) ||
		    __builtin_add_overflow(v, (uint64_t)(s[i] - '0'), &v))
			return -ERANGE;
	}
	*out = v;
	return 0;
}

/*
 * n * mult, exactly. The fraction 0.d1d2..dk is multiplied by mult the way
 * it is done on paper: from the last digit, t = d * mult + carry, the low
 * decimal digit of t is a digit of the product below the point and t / 10
 * carries on. Every digit below the point must come out 0, or the result
 * is not whole (-EINVAL); the final carry is the whole part the fraction
 * adds. The carry stays below mult, so t < 10 * mult <= 3.6e13: no
 * overflow, and any number of fraction digits works.
 */
static int scale(const struct number *n, uint64_t mult, uint64_t *out)
{
	uint64_t carry = 0, t, v;
	size_t i;
	int rc;

	for (i = n->flen; i > 0; i--) {
		t = (uint64_t)(n->fp[i - 1] - '0') * mult + carry;
		if (t % 10)
			return -EINVAL;
		carry = t / 10;
	}
	rc = digits_to_u64(n->ip, n->ilen, &v);
	if (rc)
		return rc;
	if (__builtin_mul_overflow(v, mult, &v) ||
	    __builtin_add_overflow(v, carry, &v))
		return -ERANGE;
	*out = v;
	return 0;
}

static int parse_scaled(const char *s, size_t len, const struct unit *tab,
			size_t ntab, uint64_t *out)
{
	const struct unit *u;
	struct number n;
	int rc;

	rc = scan_number(s, len, true, &n);
	if (rc)
		return rc;
	u = find_unit(tab, ntab, n.sp, n.slen);
	if (!u)
		return -EINVAL;
	return scale(&n, u->mult, out);
}

static int size_span(const char *s, size_t len, uint64_t *out)
{
	return parse_scaled(s, len, size_units, ARRAY_SIZE(size_units), out);
}

static int count_span(const char *s, size_t len, uint64_t min, uint64_t max,
		      uint64_t *out)
{
	uint64_t v;
	int rc;

	if (len == 0 || count_digits(s, len) != len)
		return -EINVAL;
	rc = digits_to_u64(s, len, &v);
	if (rc)
		return rc;
	if (v < min || v > max)
		return -ERANGE;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	if (!s)
		return -EINVAL;
	return size_span(s, strlen(s), out);
}

int parse_duration(const char *s, uint64_t *out_ns)
{
	if (!s)
		return -EINVAL;
	return parse_scaled(s, strlen(s), duration_units, ARRAY_SIZE(duration_units),
			    out_ns);
}

int parse_count(const char *s, uint64_t min, uint64_t max, uint64_t *out)
{
	if (!s)
		return -EINVAL;
	return count_span(s, strlen(s), min, max, out);
}

int parse_percent(const char *s, double *out)
{
	char *end;
	double x;

	/* strtod alone takes " 3", "0x3", "inf" and "nan": digits only */
	if (!s || !strchr("0123456789.", s[0]) || strpbrk(s, "xXpP"))
		return -EINVAL;
	errno = 0;
	x = strtod(s, &end);
	if (end == s || errno || !isfinite(x) || x < 0)
		return -EINVAL;
	if (*end == '%')
		end++;
	if (*end)
		return -EINVAL;
	*out = x;
	return 0;
}

/*
 * Walk a comma list. Each item goes to fn with its index; fn stores it when
 * there is room. The first malformed or out-of-range item wins; too many
 * items is only reported after the whole list parsed, so a typo later in
 * an over-long list still reads as -EINVAL.
 */
struct list_ctx {
	uint64_t min, max;
	void *out;
	size_t max_items;
	size_t n;		/* items (for CPU lists: CPUs) seen so far */
};

static int walk_list(const char *s, int (*fn)(const char *, size_t, struct list_ctx *),
		     struct list_ctx *c)
{
	const char *comma;
	size_t len;
	int rc;

	if (!s)
		return -EINVAL;
	for (;;) {
		comma = strchr(s, ',');
		len = comma ? (size_t)(comma - s) : strlen(s);
		if (len == 0)
			return -EINVAL;	/* "", ",", "4k,", "4k,,1m" */
		rc = fn(s, len, c);
		if (rc)
			return rc;
		if (!comma)
			break;
		s = comma + 1;
	}
	return c->n > c->max_items ? -ERANGE : 0;
}

/* v onto the list; counted past max_items too, for the caller's -ERANGE. */
static int push_item(struct list_ctx *c, uint64_t v)
{
	if (c->n < c->max_items)
		((uint64_t *)c->out)[c->n] = v;
	c->n++;
	return 0;
}

static int size_item(const char *s, size_t len, struct list_ctx *c)
{
	uint64_t v;
	int rc = size_span(s, len, &v);

	return rc ? rc : push_item(c, v);
}

static int count_item(const char *s, size_t len, struct list_ctx *c)
{
	uint64_t v;
	int rc = count_span(s, len, c->min, c->max, &v);

	return rc ? rc : push_item(c, v);
}

/* "N" or "LO-HI" with LO <= HI; a descending range is malformed. */
static int cpu_item(const char *s, size_t len, struct list_ctx *c)
{
	const char *dash = memchr(s, '-', len);
	uint64_t lo, hi, cpu;
	int rc;

	if (dash) {
		rc = count_span(s, (size_t)(dash - s), 0, CPU_LIMIT - 1, &lo);
		if (rc)
			return rc;
		rc = count_span(dash + 1, len - (size_t)(dash - s) - 1, 0,
				CPU_LIMIT - 1, &hi);
		if (rc)
			return rc;
		if (lo > hi)
			return -EINVAL;
	} else {
		rc = count_span(s, len, 0, CPU_LIMIT - 1, &lo);
		if (rc)
			return rc;
		hi = lo;
	}
	for (cpu = lo; cpu <= hi; cpu++) {
		if (c->n < c->max_items)
			((int *)c->out)[c->n] = (int)cpu;
		c->n++;
	}
	return 0;
}

static int finish_list(int rc, const struct list_ctx *c, size_t *n)
{
	if (n)
		*n = rc ? 0 : c->n;
	return rc;
}

int parse_size_list(const char *s, uint64_t *out, size_t max, size_t *n)
{
	struct list_ctx c = { .out = out, .max_items = max };

	return finish_list(walk_list(s, size_item, &c), &c, n);
}

int parse_count_list(const char *s, uint64_t min, uint64_t max, uint64_t *out,
		     size_t max_items, size_t *n)
{
	struct list_ctx c = { .min = min, .max = max, .out = out, .max_items = max_items };

	return finish_list(walk_list(s, count_item, &c), &c, n);
}

int parse_cpu_list(const char *s, int *out, size_t max, size_t *n)
{
	struct list_ctx c = { .out = out, .max_items = max };

	return finish_list(walk_list(s, cpu_item, &c), &c, n);
}

char *format_size(uint64_t bytes, char *buf, size_t len)
{
	static const char suffix[] = "tgmk";	/* 2^40, 2^30, 2^20, 2^10 */
	unsigned i, shift;

	if (!buf || len == 0)
		return buf;
	for (i = 0; bytes && i < 4; i++) {
		shift = 40 - 10 * i;
		if ((bytes & ((1ULL << shift) - 1)) == 0) {
			snprintf(buf, len, "%llu%c",
				 (unsigned long long)(bytes >> shift), suffix[i]);
			return buf;
		}
	}
	snprintf(buf, len, "%llu", (unsigned long long)bytes);
	return buf;
}
