/* load_scan.c - where a JSON value ends, found without building it (load_scan.h). */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "load_scan.h"

size_t scan_ws(const char *buf, size_t len, size_t pos)
{
	while (pos < len && (buf[pos] == ' ' || buf[pos] == '\t' || buf[pos] == '\n' ||
			     buf[pos] == '\r'))
		pos++;
	return pos;
}

/* A string from its opening quote at buf[pos]: past its closing one. */
static int scan_string(const char *buf, size_t len, size_t pos, size_t *end, const char **why)
{
	for (pos++; pos < len; pos++) {
		const char *q;

		/* memchr finds the next quote or backslash fast: a test's text
		 * is mostly numbers, but names and warnings are strings */
		q = memchr(buf + pos, '"', len - pos);
		if (!q)
			break;
		{
			const char *bs = memchr(buf + pos, '\\', (size_t)(q - (buf + pos)));

			if (!bs) {
				*end = (size_t)(q - buf) + 1;
				return 0;
			}
			pos = (size_t)(bs - buf) + 1;	/* the escaped byte is skipped */
		}
	}
	*end = len;
	*why = "a string that does not end";
	return -EINVAL;
}

static bool scalar_byte(char c)
{
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       c == '-' || c == '+' || c == '.';
}

/* Fails at buf[pos] for why. */
static int scan_fail(size_t pos, size_t *end, const char **why, const char *what)
{
	*end = pos;
	*why = what;
	return -EINVAL;
}

int scan_value(const char *buf, size_t len, size_t pos, size_t *end, const char **why)
{
	char stack[SCAN_MAX_DEPTH];	/* the closing bracket each level waits for */
	enum { VALUE, KEY, AFTER } want = VALUE;
	unsigned depth = 0;

	for (;;) {
		pos = scan_ws(buf, len, pos);
		if (pos >= len)
			return scan_fail(len, end, why, "the text ends inside a value");
		switch (want) {
		case KEY:	/* an object's member: "key" : value */
			if (buf[pos] != '"')
				return scan_fail(pos, end, why, "a string key expected");
			if (scan_string(buf, len, pos, &pos, why))
				return scan_fail(pos, end, why, *why);
			pos = scan_ws(buf, len, pos);
			if (pos >= len || buf[pos] != ':')
				return scan_fail(pos, end, why, "':' expected after a key");
			pos++;
			want = VALUE;
			continue;
		case VALUE:
			if (buf[pos] == '{' || buf[pos] == '[') {
				if (depth == SCAN_MAX_DEPTH)
					return scan_fail(pos, end, why, "brackets nested too deep");
				stack[depth++] = buf[pos] == '{' ? '}' : ']';
				want = buf[pos] == '{' ? KEY : VALUE;
				pos = scan_ws(buf, len, pos + 1);
				if (pos < len && buf[pos] == stack[depth - 1])
					want = AFTER;	/* empty: its close below */
				continue;
			}
			if (buf[pos] == '"') {
				if (scan_string(buf, len, pos, &pos, why))
					return scan_fail(pos, end, why, *why);
			} else if (scalar_byte(buf[pos])) {
				while (pos < len && scalar_byte(buf[pos]))
					pos++;
			} else {
				return scan_fail(pos, end, why, "a byte that cannot start a value");
			}
			want = AFTER;
			break;
		case AFTER:	/* a value inside an object or array is done */
			if (buf[pos] == stack[depth - 1]) {
				pos++;
				depth--;
				break;
			}
			if (buf[pos] != ',')
				return scan_fail(pos, end, why, "',' or a closing bracket expected");
			pos++;
			want = stack[depth - 1] == '}' ? KEY : VALUE;
			continue;
		}
		if (!depth) {
			*end = pos;
			return 0;
		}
	}
}
