/* fuzz_report.c - mutated result files through the loader and every renderer: each ends, none crashes. */
/*
 * Issue 27: a result with an IOPS of 1.7e308 hung "report --html". This
 * driver takes a corpus of result files (the saved ones of every version,
 * tests/data/results, and hostile ones made from them: DBL_MAX, NaN,
 * negative, huge arrays; the first file as an HTML page embeds it),
 * mutates them (numbers swapped for extreme ones,
 * values spliced from elsewhere, spans repeated into huge arrays, bytes
 * flipped, text cut short), and puts each through result_load_buf and,
 * when it loads, every renderer of a run (text, JSON, CSV, bonnie++ CSV,
 * HTML) and of a comparison against the unmutated file (text, JSON,
 * HTML). An input that takes longer than FUZZ_INPUT_SECONDS is a hang;
 * a crash is a crash (the ASan build catches what does not crash). Either
 * way the input is saved as fuzz-fail.json in the current directory,
 * and the exit status is 1.
 *
 * Usage: fuzz_report [FILE...]     (default: every .json in $srcdir/tests/data/results)
 * Environment: FUZZ_SECONDS (default 3: the test suite's budget),
 * FUZZ_SEED (default 1: the same mutations, as far as the time goes),
 * FUZZ_VERBOSE (set: each refusal's message on stderr).
 * Built with clang -fsanitize=fuzzer -DFUZZ_LIBFUZZER, the same
 * LLVMFuzzerTestOneInput serves libFuzzer.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "compare.h"
#include "load.h"
#include "report.h"

/* An input that takes longer than this is taken as a hang: a 100 KB
 * result loads and renders in a few ms. */
#define FUZZ_INPUT_SECONDS 20
/* A mutated input stays below this (the huge arrays included). */
#define FUZZ_MAX_LEN (4u << 20)

static FILE *devnull;
static bool verbose;		/* FUZZ_VERBOSE: each refusal on stderr */
static struct run_result *baseline;	/* the first corpus file, loaded */

/* The input now being tried, for the signal handlers to save. */
static const uint8_t *cur;
static size_t cur_len;

static void save_input(void)
{
	int fd = open("fuzz-fail.json", O_WRONLY | O_CREAT | O_TRUNC, 0644);

	if (fd >= 0) {
		for (size_t off = 0; off < cur_len;) {
			ssize_t n = write(fd, cur + off, cur_len - off);

			if (n <= 0)
				break;
			off += (size_t)n;
		}
		close(fd);
	}
}

static void on_signal(int sig)
{
	static const char hang[] = "FAIL: an input did not end (saved as fuzz-fail.json)\n";
	static const char crash[] = "FAIL: an input crashed (saved as fuzz-fail.json)\n";

	save_input();
	if (sig == SIGALRM) {
		(void)!write(2, hang, sizeof(hang) - 1);
		_exit(1);
	}
	(void)!write(2, crash, sizeof(crash) - 1);
	signal(sig, SIG_DFL);
	raise(sig);
}

static int render_all(const struct run_result *r)
{
	int (*const fns[])(FILE *, const struct run_result *) = {
		report_text, report_json, report_csv, report_bonnie_csv, report_html,
	};
	int bad = 0;

	for (size_t i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
		bad |= fns[i](devnull, r) != 0;
	if (baseline) {
		struct run_result pair[2] = { *baseline, *r };
		const char *const names[2] = { "before.json", "fuzz.json" };
		char err[512];
		struct compare c = { 0 };

		/* a comparison's renderers draw ratios: both sides are read only */
		if (!compare_check(pair, names, 2, err, sizeof(err)) &&
		    !compare_build(&c, pair, names, 2, &(struct compare_opts){ .noise = 0.03 })) {
			bad |= report_compare_text(devnull, &c) != 0;
			bad |= report_compare_json(devnull, &c) != 0;
			bad |= report_compare_html(devnull, &c) != 0;
		}
		compare_free(&c);
	}
	return bad;
}

/* One input: 1 when it loaded (and rendered), 0 when it was refused. */
static int one_input(const uint8_t *data, size_t len)
{
	struct run_result r;
	char err[512];
	int ret;

	cur = data;
	cur_len = len;
	ret = result_load_buf("fuzz.json", (const char *)data, len, &r, err, sizeof(err));
	if (ret) {
		if (verbose)
			fprintf(stderr, "%s\n", err);
		return 0;
	}
	if (render_all(&r)) {
		/* /dev/null takes anything: a renderer that fails is a bug */
		fprintf(stderr, "FAIL: a renderer failed on a loaded result\n");
		save_input();
		exit(1);
	}
	result_free(&r);
	return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	if (!devnull)
		devnull = fopen("/dev/null", "w");
	if (devnull)
		one_input(data, len);
	return 0;
}

#ifndef FUZZ_LIBFUZZER

/* ---- the mutations ---------------------------------------------------------- */

static uint64_t rng;

static uint64_t next(void)
{
	/* xorshift64*: fixed seed, the same sequence on every machine */
	rng ^= rng >> 12;
	rng ^= rng << 25;
	rng ^= rng >> 27;
	return rng * 2685821657736338717ull;
}

static size_t below(size_t n)
{
	return n ? (size_t)(next() % n) : 0;
}

/* The numbers a crafted file would hold: beyond the doubles' range is
 * jansson's to refuse, the rest is the loader's to refuse or accept and
 * the renderers' to draw. */
static const char *const extremes[] = {
	"1.7976931348623157e308", "-1.7976931348623157e308", "1.7e308", "1e308", "1e300",
	"-1", "-0", "0", "0.0", "1", "2", "null", "true", "\"x\"", "[]", "{}",
	"9223372036854775807", "9223372036854775808", "18446744073709551615",
	"-9223372036854775808", "4.9e-324", "2.2250738585072014e-308", "1e-300",
	"1e15", "999999999999999", "1e21", "1e7", "100", "4294967295", "4294967296",
	"65536", "1023", "1e999", "123456789012345678901234567890", "0.5", "1e-9",
};

struct buf {
	uint8_t *p;
	size_t len, cap;
};

/* Replace b[at .. at + n) with s[0 .. slen). False if it would grow past
 * FUZZ_MAX_LEN. */
static bool buf_splice(struct buf *b, size_t at, size_t n, const void *s, size_t slen)
{
	size_t len = b->len - n + slen;

	if (len > FUZZ_MAX_LEN)
		return false;
	if (len > b->cap) {
		uint8_t *p = realloc(b->p, len);

		if (!p)
			return false;
		b->p = p;
		b->cap = len;
	}
	memmove(b->p + at + slen, b->p + at + n, b->len - at - n);
	memcpy(b->p + at, s, slen);
	b->len = len;
	return true;
}

static bool num_byte(uint8_t c)
{
	return (c >= '0' && c <= '9') || c == '-' || c == '.' || c == 'e' || c == 'E' ||
	       c == '+';
}

/* A number token at or after a random offset: its start and length. */
static bool find_number(const struct buf *b, size_t *at, size_t *n)
{
	size_t i = below(b->len);

	while (i < b->len && !(b->p[i] >= '0' && b->p[i] <= '9'))
		i++;
	if (i >= b->len)
		return false;
	while (i > 0 && num_byte(b->p[i - 1]))
		i--;
	*at = i;
	for (*n = 0; i + *n < b->len && num_byte(b->p[i + *n]); (*n)++)
		;
	return true;
}

/* Is the span at b->p[at] an element of an array (after '[' or ',')? */
static bool in_array(const struct buf *b, size_t at)
{
	while (at > 0 && (b->p[at - 1] == ' ' || b->p[at - 1] == '\n'))
		at--;
	return at > 0 && (b->p[at - 1] == '[' || b->p[at - 1] == ',');
}

/* A bracketed span ([...] or {...}) starting at or after a random offset
 * (with element, one that is an array's element), strings taken into
 * account only roughly (good enough to mutate). */
static bool find_span(const struct buf *b, size_t *at, size_t *n, bool element)
{
	size_t i = below(b->len), depth = 0, k;

	while (i < b->len && ((b->p[i] != '[' && b->p[i] != '{') || (element && !in_array(b, i))))
		i++;
	if (i >= b->len)
		return false;
	for (k = i; k < b->len; k++) {
		if (b->p[k] == '[' || b->p[k] == '{')
			depth++;
		else if ((b->p[k] == ']' || b->p[k] == '}') && !--depth)
			break;
	}
	if (k >= b->len)
		return false;
	*at = i;
	*n = k - i + 1;
	return true;
}

static void mutate(struct buf *b)
{
	size_t at, n, at2, n2;
	const char *s;
	uint8_t *copy;

	switch (below(16)) {
	case 0: case 1: case 2: case 3: case 4: case 5: case 6:
		/* a number becomes another plausible one: most inputs must get
		 * past the loader for the renderers to be tried at all */
		if (find_number(b, &at, &n)) {
			bool integer = !memchr(b->p + at, '.', n) && !memchr(b->p + at, 'e', n);
			char v[32];

			if (integer)
				snprintf(v, sizeof(v), "%zu", below((size_t)1 << below(40)));
			else
				snprintf(v, sizeof(v), "%.17g", (double)next() / 1.8e19 *
					 (double)((uint64_t)1 << below(50)));
			buf_splice(b, at, n, v, strlen(v));
		}
		break;
	case 7: case 8: case 9:	/* a number becomes an extreme one */
		if (find_number(b, &at, &n)) {
			s = extremes[below(sizeof(extremes) / sizeof(extremes[0]))];
			buf_splice(b, at, n, s, strlen(s));
		}
		break;
	case 10: case 11:
		/* a span repeated into a huge array (a histogram's pairs, a
		 * test, a timeline's points) */
		if (find_span(b, &at, &n, true) && n < (1u << 20)) {
			unsigned times = 1u << below(12);

			copy = malloc(n + 1);
			if (!copy)
				break;
			memcpy(copy, b->p + at, n);
			copy[n] = ',';
			for (unsigned k = 0; k < times; k++)
				if (!buf_splice(b, at, 0, copy, n + 1))
					break;
			free(copy);
		}
		break;
	case 12:	/* a value spliced from elsewhere */
		if (find_number(b, &at, &n) && find_span(b, &at2, &n2, false) && n2 < 65536) {
			copy = malloc(n2);
			if (!copy)
				break;
			memcpy(copy, b->p + at2, n2);
			if (at2 >= at + n || at2 + n2 <= at)
				buf_splice(b, at, n, copy, n2);
			free(copy);
		}
		break;
	case 13:	/* a byte flipped */
		if (b->len)
			b->p[below(b->len)] ^= (uint8_t)(1u << below(8));
		break;
	case 14:	/* a byte that means something to JSON */
		if (b->len) {
			static const char punct[] = "[]{}\",:\\0-e.";

			b->p[below(b->len)] = (uint8_t)punct[below(sizeof(punct) - 1)];
		}
		break;
	default:
		if (below(2) && find_span(b, &at, &n, true))	/* an element deleted */
			buf_splice(b, at, n, "", 0);
		else	/* cut short */
			b->len = below(b->len + 1);
		break;
	}
}

/* ---- the corpus ----------------------------------------------------------------- */

struct corpus {
	struct buf *in;
	size_t n;
};

static void add(struct corpus *c, const uint8_t *p, size_t len)
{
	struct buf *in = realloc(c->in, (c->n + 1) * sizeof(*in));

	if (!in || !(in[c->n].p = malloc(len ? len : 1))) {
		fprintf(stderr, "fuzz_report: out of memory\n");
		exit(99);
	}
	c->in = in;
	memcpy(in[c->n].p, p, len);
	in[c->n].len = in[c->n].cap = len;
	c->n++;
}

static void add_file(struct corpus *c, const char *path)
{
	FILE *f = fopen(path, "rb");
	uint8_t *p;
	long len;

	if (!f || fseek(f, 0, SEEK_END) || (len = ftell(f)) < 0 || fseek(f, 0, SEEK_SET) ||
	    !(p = malloc((size_t)len + 1)) || fread(p, 1, (size_t)len, f) != (size_t)len) {
		fprintf(stderr, "fuzz_report: %s: %s\n", path, strerror(errno));
		exit(99);
	}
	fclose(f);
	add(c, p, (size_t)len);
	free(p);
}

/* Every "KEY": NUMBER of in set to value: the hostile seeds (the DBL_MAX
 * file of issue 27 sets every "iops"). */
static void add_with(struct corpus *c, const struct buf *in, const char *key, const char *value)
{
	struct buf b = { .p = malloc(in->len), .len = in->len, .cap = in->len };
	char pat[64];
	size_t klen;

	if (!b.p)
		exit(99);
	memcpy(b.p, in->p, in->len);
	klen = (size_t)snprintf(pat, sizeof(pat), "\"%s\": ", key);
	for (size_t i = 0; i + klen < b.len; i++) {
		size_t n = 0;

		if (memcmp(b.p + i, pat, klen))
			continue;
		while (i + klen + n < b.len && num_byte(b.p[i + klen + n]))
			n++;
		if (n)
			buf_splice(&b, i + klen, n, value, strlen(value));
	}
	add(c, b.p, b.len);
	free(b.p);
}

static void default_corpus(struct corpus *c)
{
	const char *src = getenv("srcdir");
	char dir[4096], path[8192];
	struct dirent **names;
	int n;

	snprintf(dir, sizeof(dir), "%s/tests/data/results", src ? src : ".");
	n = scandir(dir, &names, NULL, alphasort);
	if (n < 0) {
		fprintf(stderr, "fuzz_report: %s: %s\n", dir, strerror(errno));
		exit(99);
	}
	for (int i = 0; i < n; i++) {
		size_t len = strlen(names[i]->d_name);

		if (len > 5 && !strcmp(names[i]->d_name + len - 5, ".json")) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]->d_name);
			add_file(c, path);
		}
		free(names[i]);
	}
	free(names);
}

int main(int argc, char **argv)
{
	const char *env_s = getenv("FUZZ_SECONDS"), *env_seed = getenv("FUZZ_SEED");
	double seconds = env_s ? atof(env_s) : 3;
	struct corpus c = { 0 };
	struct timespec t0, t;
	unsigned long tries = 0, loaded = 0;
	size_t nfiles;
	char err[512];

	verbose = getenv("FUZZ_VERBOSE") != NULL;
	rng = env_seed ? strtoull(env_seed, NULL, 0) : 1;
	if (!rng)
		rng = 1;
	devnull = fopen("/dev/null", "w");
	if (!devnull)
		return 99;
	signal(SIGALRM, on_signal);
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGABRT, on_signal);

	if (argc > 1)
		for (int i = 1; i < argc; i++)
			add_file(&c, argv[i]);
	else
		default_corpus(&c);
	nfiles = c.n;
	if (!nfiles) {
		fprintf(stderr, "fuzz_report: no corpus\n");
		return 99;
	}

	/* Every corpus file loads and renders unmutated: the fuzzing starts
	 * from real results, not from refusals. */
	for (size_t i = 0; i < nfiles; i++) {
		alarm(FUZZ_INPUT_SECONDS);
		if (!one_input(c.in[i].p, c.in[i].len)) {
			result_load_buf("corpus", (const char *)c.in[i].p, c.in[i].len,
					&(struct run_result){ 0 }, err, sizeof(err));
			fprintf(stderr, "FAIL: corpus file %zu does not load: %s\n", i + 1, err);
			return 1;
		}
	}
	baseline = calloc(1, sizeof(*baseline));
	if (!baseline || result_load_buf("before.json", (const char *)c.in[0].p, c.in[0].len,
					  baseline, err, sizeof(err)))
		return 99;

	/* A page as report_html embeds a result (the loader finds it by its
	 * element, load_html.c), mutated like the rest. */
	{
		static const char head[] = "<!DOCTYPE html>\n<html><body><p>x</p>\n<script "
			"type=\"application/json\" id=\"diskbench-result\">\n";
		static const char tail[] = "</script>\n</body></html>\n";
		struct buf page = { 0 };

		if (!buf_splice(&page, 0, 0, head, sizeof(head) - 1) ||
		    !buf_splice(&page, page.len, 0, c.in[0].p, c.in[0].len) ||
		    !buf_splice(&page, page.len, 0, tail, sizeof(tail) - 1))
			return 99;
		alarm(FUZZ_INPUT_SECONDS);
		if (!one_input(page.p, page.len)) {
			fprintf(stderr, "FAIL: the first corpus file as a page does not load\n");
			return 1;
		}
		add(&c, page.p, page.len);
		free(page.p);
		nfiles++;	/* mutated as a real file */
	}

	/* The hostile seeds, from every file: each must end (refused). */
	for (size_t i = 0; i < nfiles; i++) {
		static const char *const keys[] = { "iops", "bytes_per_sec", "runtime_ns",
						    "lat_p99_ns", "max", "cpu_user_pct" };

		add_with(&c, &c.in[i], "iops", "1.7e308");
		add_with(&c, &c.in[i], keys[below(6)], "null");
		add_with(&c, &c.in[i], keys[below(6)], "-1");
		add_with(&c, &c.in[i], keys[below(6)], "0");
		add_with(&c, &c.in[i], keys[below(6)], "1e15");
	}
	for (size_t i = nfiles; i < c.n; i++) {
		alarm(FUZZ_INPUT_SECONDS);
		loaded += (unsigned long)one_input(c.in[i].p, c.in[i].len);
		tries++;
	}

	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* Mutations of the real files (a mutated seed is mostly refused for
	 * its seeded value again). */
	for (;;) {
		const struct buf *from = &c.in[below(nfiles)];
		struct buf b = { .p = malloc(from->len ? from->len : 1), .len = from->len,
				 .cap = from->len };
		unsigned k = 1 + (unsigned)below(3);

		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((double)(t.tv_sec - t0.tv_sec) + (t.tv_nsec - t0.tv_nsec) / 1e9 >= seconds) {
			free(b.p);
			break;
		}
		if (!b.p)
			return 99;
		memcpy(b.p, from->p, from->len);
		while (k--)
			mutate(&b);
		alarm(FUZZ_INPUT_SECONDS);
		loaded += (unsigned long)one_input(b.p, b.len);
		tries++;
		free(b.p);
	}
	alarm(0);
	printf("fuzz_report: %zu corpus files, %lu mutated inputs in %.1f s (seed %s): "
	       "%lu loaded and rendered, %lu refused; every one ended\n", nfiles, tries, seconds,
	       env_seed ? env_seed : "1", loaded, tries - loaded);
	result_free(baseline);
	free(baseline);
	for (size_t i = 0; i < c.n; i++)
		free(c.in[i].p);
	free(c.in);
	fclose(devnull);
	return 0;
}

#endif
