/* compare.c - compute a before/after comparison once; the reporters only render it. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare_int.h"
#include "parse.h"

static void append(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void append(char *buf, size_t len, const char *fmt, ...)
{
	size_t n = strlen(buf);
	va_list ap;

	if (n + 1 >= len)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + n, len - n, fmt, ap);
	va_end(ap);
}

/* Why test b (before) or a (after) failed, into buf ("" when neither):
 * I/O errors, or no I/O at all. */
static void failed(const struct test_result *b, const struct test_result *a, char *buf,
		   size_t len)
{
	const struct test_result *side[2] = { b, a };
	static const char *const name[2] = { "before", "after" };

	buf[0] = '\0';
	for (unsigned i = 0; i < 2; i++) {
		if (side[i]->errors)
			append(buf, len, "%s%s: %" PRIu64 " I/O error%s", buf[0] ? "; " : "",
			       name[i], side[i]->errors, side[i]->errors == 1 ? "" : "s");
		else if (!side[i]->ops && !(side[i]->iops > 0))
			append(buf, len, "%s%s: no I/O completed", buf[0] ? "; " : "", name[i]);
	}
}

/* The batch t ran at: a result saved before tests kept it ran at 1, as do
 * another tool's (fio's iodepth_batch_submit defaults to 1) and a file
 * test (0 in the result). */
static uint32_t compare_batch(const struct test_result *t)
{
	return t->batch ? t->batch : 1;
}

/* What makes two tests of the same name measure different things. */
static void mismatch(const struct test_result *b, const struct test_result *a,
		     char *buf, size_t len)
{
	const char *sep = "";
	char sb[16], sa[16];

	buf[0] = '\0';
#define MIS(cond, ...) do { if (cond) { append(buf, len, "%s", sep); \
	append(buf, len, __VA_ARGS__); sep = ", "; } } while (0)
	MIS(strcmp(b->engine ? b->engine : "", a->engine ? a->engine : ""),
	    "engine %s -> %s", b->engine ? b->engine : "?", a->engine ? a->engine : "?");
	MIS(b->bs != a->bs, "bs %s -> %s", format_size(b->bs, sb, sizeof(sb)),
	    format_size(a->bs, sa, sizeof(sa)));
	MIS(b->qd != a->qd, "qd %" PRIu32 " -> %" PRIu32, b->qd, a->qd);
	MIS(b->qd == a->qd && compare_batch(b) != compare_batch(a),
	    "batch %" PRIu32 " -> %" PRIu32, compare_batch(b), compare_batch(a));
	MIS(b->jobs != a->jobs, "jobs %" PRIu32 " -> %" PRIu32, b->jobs, a->jobs);
	MIS(b->direct != a->direct, "%s -> %s", b->direct ? "O_DIRECT" : "buffered",
	    a->direct ? "O_DIRECT" : "buffered");
#undef MIS
}

/* The summary in words of a pair: its significant changes, then the rest
 * counted; after_label and before_label name the sides. */
static void pair_words(struct compare_pair *p, const char *before_label)
{
	char w[64];
	unsigned i;
	const char *sep = ": ";

	p->words[0] = '\0';
	append(p->words, sizeof(p->words), "%s vs %s", p->label, before_label);
	for (int kind = CMP_BETTER; kind >= CMP_WORSE; kind -= 2)
		for (i = 0; i < p->ntests; i++) {
			const struct compare_value *v = &p->tests[i].m[CMP_IOPS];

			if (v->verdict != kind)
				continue;
			append(p->words, sizeof(p->words), "%s%s on %.*s", sep,
			       compare_change_words(v->med_ratio, v->lo, v->hi, w, sizeof(w)),
			       (int)sizeof(p->tests[i].before->name), p->tests[i].before->name);
			sep = "; ";
		}
	if (p->nsame)
		append(p->words, sizeof(p->words), "%s%u test%s unchanged (~)", sep, p->nsame,
		       p->nsame == 1 ? "" : "s");
	if (p->nsame)
		sep = "; ";
	if (p->nunjudged > p->nfailed + p->nmismatched)
		append(p->words, sizeof(p->words), "%s%u not judged (fewer than %d runs on a side)",
		       sep, p->nunjudged - p->nfailed - p->nmismatched, COMPARE_MIN_RUNS);
	if (p->nunjudged > p->nfailed + p->nmismatched)
		sep = "; ";
	if (p->nmismatched)
		append(p->words, sizeof(p->words), "%s%u not judged (measured differently on the "
		       "two sides)", sep, p->nmismatched);
	if (p->nmismatched)
		sep = "; ";
	if (p->nfailed)
		append(p->words, sizeof(p->words), "%s%u not judged (a side's runs failed: I/O "
		       "errors or no I/O)", sep, p->nfailed);
	if (!p->ntests)
		append(p->words, sizeof(p->words), ": no test ran on both sides");
}

/* ---- differences between the two results' facts and settings ------------ */

static int add_diff(struct compare_pair *p, unsigned *cap, const char *key,
		    const char *before, const char *after)
{
	struct compare_diff *d;

	if (!strcmp(before, after))
		return 0;
	if (p->ndiffs == *cap) {
		unsigned ncap = *cap ? *cap * 2 : 16;

		d = realloc(p->diffs, ncap * sizeof(*d));
		if (!d)
			return -ENOMEM;
		p->diffs = d;
		*cap = ncap;
	}
	d = &p->diffs[p->ndiffs++];
	snprintf(d->key, sizeof(d->key), "%s", key);
	snprintf(d->before, sizeof(d->before), "%s", before);
	snprintf(d->after, sizeof(d->after), "%s", after);
	return 0;
}

/* A fixed char array as a C string, never read past its end. */
#define STR(buf, arr) (snprintf(buf, sizeof(buf), "%.*s", (int)sizeof(arr), arr), buf)

static void fmt_int(char *buf, size_t len, long long v)
{
	if (v < 0)
		snprintf(buf, len, "?");
	else
		snprintf(buf, len, "%lld", v);
}

static const char *tristate(int v)
{
	return v < 0 ? "?" : v ? "yes" : "no";
}

static int diff_results(struct compare_pair *p, const struct run_result *b,
			const struct run_result *a)
{
	const struct target_info *tb = &b->target, *ta = &a->target;
	char x[256], y[256], key[48];
	unsigned cap = 0, i;
	int ret = 0;

#define DSTR(k, fb, fa) (ret = ret ? ret : add_diff(p, &cap, k, STR(x, fb), STR(y, fa)))
#define DCS(k, sb, sa) (ret = ret ? ret : add_diff(p, &cap, k, (sb) ? (sb) : "", (sa) ? (sa) : ""))
#define DINT(k, vb, va) (fmt_int(x, sizeof(x), vb), fmt_int(y, sizeof(y), va), \
	ret = ret ? ret : add_diff(p, &cap, k, x, y))
	DSTR("label", b->label, a->label);
	DCS("made_by", compare_made_by(b, x, sizeof(x)), compare_made_by(a, y, sizeof(y)));
	DCS("tool.version", b->tool_version, a->tool_version);
	DSTR("host.hostname", b->host.hostname, a->host.hostname);
	DSTR("host.kernel", b->host.kernel, a->host.kernel);
	DSTR("host.cpu_model", b->host.cpu_model, a->host.cpu_model);
	DINT("host.cpus", (long long)b->host.cpus, (long long)a->host.cpus);
	DINT("host.memory_bytes", (long long)b->host.memory_bytes, (long long)a->host.memory_bytes);
	DSTR("target.path", tb->path, ta->path);
	DCS("target.kind", target_kind_name(tb->kind), target_kind_name(ta->kind));
	DSTR("target.kind_detail", tb->kind_detail, ta->kind_detail);
	DSTR("target.device", tb->device, ta->device);
	DSTR("target.model", tb->model, ta->model);
	DSTR("target.serial", tb->serial, ta->serial);
	DSTR("target.firmware", tb->firmware, ta->firmware);
	DSTR("target.wwn", tb->wwn, ta->wwn);
	DINT("target.size_bytes", (long long)tb->size_bytes, (long long)ta->size_bytes);
	DSTR("target.fs_type", tb->fs_type, ta->fs_type);
	DSTR("target.mount_options", tb->mount_options, ta->mount_options);
	DCS("target.rotational", tristate(tb->rotational), tristate(ta->rotational));
	DSTR("target.scheduler", tb->scheduler, ta->scheduler);
	DINT("target.read_ahead_kb", tb->read_ahead_kb, ta->read_ahead_kb);
	DINT("target.nr_requests", tb->nr_requests, ta->nr_requests);
	DINT("target.max_sectors_kb", tb->max_sectors_kb, ta->max_sectors_kb);
	DINT("target.logical_block_size", tb->logical_block_size, ta->logical_block_size);
	DINT("target.physical_block_size", tb->physical_block_size, ta->physical_block_size);
	DCS("target.write_cache", tristate(tb->write_cache), tristate(ta->write_cache));
	DSTR("target.stack", tb->stack, ta->stack);
	DSTR("target.io_limit", tb->io_limit, ta->io_limit);
	DCS("target.encrypted", tb->encrypted ? "yes" : "no", ta->encrypted ? "yes" : "no");
	DCS("target.cow", tb->cow ? "yes" : "no", ta->cow ? "yes" : "no");
#undef DSTR
#undef DINT
	/* Every setting on either side: the baseline's in its order, then the
	 * ones only the other result has. */
	for (i = 0; i < b->nsettings && !ret; i++) {
		snprintf(key, sizeof(key), "settings.%.*s", (int)sizeof(b->settings[i].key),
			 b->settings[i].key);
		DCS(key, STR(x, b->settings[i].value), result_setting(a, b->settings[i].key));
	}
	for (i = 0; i < a->nsettings && !ret; i++) {
		if (result_setting(b, a->settings[i].key))
			continue;
		snprintf(key, sizeof(key), "settings.%.*s", (int)sizeof(a->settings[i].key),
			 a->settings[i].key);
		DCS(key, "", STR(y, a->settings[i].value));
	}
#undef DCS
	return ret;
}

/* ---- one pair ------------------------------------------------------------- */

static bool same_name(const struct test_result *x, const struct test_result *y)
{
	return !strncmp(x->name, y->name, sizeof(x->name));
}

/* The fewest runs a side, the same on both, whose range (the widest
 * interval, every run after beyond every run before) holds level: 2 /
 * C(2n, n) <= 1 - level. 0 when not even COMPARE_MAX_RUNS do. */
static unsigned runs_for_level(double level)
{
	double c = 2;	/* C(2n, n) at n = 1 */

	for (unsigned n = 1; n <= COMPARE_MAX_RUNS; n++) {
		if (2 / c <= 1 - level)
			return n;
		c *= (double)(2 * n + 2) * (2 * n + 1) / ((double)(n + 1) * (n + 1));
	}
	return 0;
}

/*
 * The intervals and verdicts of a pair, once every test is matched: each
 * judged metric of each test is one verdict, and the level of each
 * interval is corrected for how many there are (Bonferroni: 1 - 0.05 /
 * family), so that the chance of any false alarm in the pair stays 5 %;
 * level_held is the least an interval held (less than level only where
 * runs are too few to reach it).
 * MB/s asks what IOPS asks (the same ops of a fixed size) and is not
 * counted twice.
 */
static void pair_verdicts(struct compare_pair *p, double noise)
{
	double level;
	unsigned i, m;

	for (i = 0; i < p->ntests; i++)
		p->family += compare_test_judged(&p->tests[i], CMP_IOPS) +
			     compare_test_judged(&p->tests[i], CMP_LAT_P99);
	level = 1 - 0.05 / (p->family ? p->family : 1);
	p->level_held = 1;
	p->runs_needed = runs_for_level(level);
	for (i = 0; i < p->ntests; i++) {
		struct compare_test *t = &p->tests[i];

		for (m = 0; m < CMP_NMETRICS; m++) {
			struct compare_value *v = &t->m[m];

			if (!v->low_confidence && !isnan(v->med_ratio) && !t->failed[0] &&
			    (!compare_judged(m) || compare_test_judged(t, m)))
				compare_test_interval(t, m, level, noise, v);
			if (compare_judged(m) && compare_test_judged(t, m) && v->level > 0)
				p->level_held = fmin(p->level_held, v->level);
		}
		p->nfailed += t->failed[0] != '\0';
		p->nmismatched += !t->failed[0] && t->mismatch[0];
		p->nbusier += !t->failed[0] && !t->mismatch[0] && t->busier;
		switch (t->m[CMP_IOPS].verdict) {
		case CMP_BETTER: p->nbetter++; break;
		case CMP_WORSE: p->nworse++; break;
		case CMP_SAME: p->nsame++; break;
		default: p->nunjudged++; break;
		}
		switch (t->m[CMP_LAT_P99].verdict) {
		case CMP_BETTER: p->p99_better++; break;
		case CMP_WORSE: p->p99_worse++; break;
		case CMP_SAME: p->p99_same++; break;
		default: p->p99_unjudged++; break;
		}
	}
}

bool compare_runs_too_few(const struct compare_pair *p)
{
	return p->family && p->level_held < 1 - 0.05 / p->family - 1e-9;
}

double compare_family_level(const struct compare_pair *p)
{
	if (!p->family)
		return 0.95;
	return fmax(0, fmin(0.95, 1 - p->family * (1 - p->level_held)));
}

/* The test of p whose metric m has verdict kind and the largest change
 * that way (the ratio of medians furthest from 1 in its direction); -1
 * when none has that verdict. */
static int extreme(const struct compare_pair *p, enum compare_metric m, int kind)
{
	int best = -1;

	for (unsigned i = 0; i < p->ntests; i++) {
		const struct compare_value *v = &p->tests[i].m[m];

		if (v->verdict != kind)
			continue;
		if (best < 0 || fabs(log(v->med_ratio)) > fabs(log(p->tests[best].m[m].med_ratio)))
			best = (int)i;
	}
	return best;
}

/* ", faster on 3 (at most 2.6x faster, rand-read 4k qd32)" or ", faster on
 * none": how many tests of p metric m's verdict kind names, and the most. */
static void headline_count(struct compare_pair *p, enum compare_metric m, int kind,
			   unsigned n, const char *sep, const char *word, const char *of)
{
	char w[48];
	int i = extreme(p, m, kind);

	if (!n || i < 0) {
		append(p->headline, sizeof(p->headline), "%s%s on none", sep, word);
		return;
	}
	append(p->headline, sizeof(p->headline), "%s%s on %u%s (%s%s, %.*s)", sep, word, n, of,
	       n > 1 ? "at most " : "",
	       compare_metric_words(m, p->tests[i].m[m].med_ratio, w, sizeof(w)),
	       (int)sizeof(p->tests[i].before->name), p->tests[i].before->name);
}

/* Into h: the tests of an unjudged pair that take no verdict for another
 * cause than too few runs (a failed side, measured differently). true
 * when that was every test: the headline is done. */
static bool headline_unjudged(const struct compare_pair *p, char *h, size_t len)
{
	if (p->nfailed) {
		/* a failed side measured nothing: no figures to tell either */
		append(h, len, "%u of %u test%s failed on a side (I/O errors or no I/O), so they "
		       "take no verdict", p->nfailed, p->ntests, p->ntests == 1 ? "" : "s");
		if (p->nfailed == p->ntests) {
			append(h, len, "; run them again on a working device.");
			return true;
		}
		append(h, len, "; the others: ");
	}
	if (p->nmismatched) {
		/* different methods: their figures tell no change either */
		append(h, len, "%u of %u test%s measured differently on the two sides (block "
		       "size, queue depth, jobs, engine or O_DIRECT), so they take no verdict",
		       p->nmismatched, p->ntests, p->ntests == 1 ? "" : "s");
		if (p->nmismatched + p->nfailed == p->ntests) {
			append(h, len, ".");
			return true;
		}
		append(h, len, "; the others: ");
	}
	return false;
}

/*
 * The outcome and the headline of a pair, from its verdicts (throughput
 * and p99 alike: a latency that grew 35x is no "no change"); the way
 * that has verdicts comes first. Without any verdict the figures' own
 * ratios are counted, said to be unjudged.
 */
static void pair_headline(struct compare_pair *p, double noise)
{
	unsigned judged = p->nbetter + p->nworse + p->nsame;
	unsigned pj = p->p99_better + p->p99_worse + p->p99_same, i, lower = 0, higher = 0;
	bool better = p->nbetter || p->p99_better, worse = p->nworse || p->p99_worse;
	char *h = p->headline, of[32];
	size_t len = sizeof(p->headline);

	h[0] = '\0';
	if (!judged && !pj)
		p->outcome = CMP_OUT_UNJUDGED;
	else if (better && worse)
		p->outcome = CMP_OUT_MIXED;
	else if (better)
		p->outcome = CMP_OUT_BETTER;
	else if (worse)
		p->outcome = CMP_OUT_WORSE;
	else
		p->outcome = CMP_OUT_SAME;
	append(h, len, "%s: ", compare_outcome_title(p->outcome));
	if (!p->ntests) {
		append(h, len, "no test ran on both sides.");
		return;
	}
	if (p->outcome == CMP_OUT_UNJUDGED && headline_unjudged(p, h, len))
		return;
	if (p->outcome == CMP_OUT_UNJUDGED) {
		unsigned alike = p->ntests - p->nfailed - p->nmismatched;

		for (i = 0; i < p->ntests; i++) {
			double r = p->tests[i].m[CMP_IOPS].ratio;

			if (p->tests[i].failed[0] || p->tests[i].mismatch[0])
				continue;
			lower += r > 0 && r < 1 - noise;
			higher += r > 1 + noise;
		}
		append(h, len, "fewer than %d runs on a side, so no change is told from noise. "
		       "The figures alone: IOPS %s on %u of %u tests, %s on ", COMPARE_MIN_RUNS,
		       lower > higher ? "lower" : "higher", lower > higher ? lower : higher,
		       alike, lower > higher ? "higher" : "lower");
		if (lower > higher ? higher : lower)
			append(h, len, "%u", lower > higher ? higher : lower);
		else
			append(h, len, "none");
		if (alike > lower + higher)
			append(h, len, ", within +-%.3g %% on %u", 100 * noise,
			       alike - lower - higher);
		if (p->nratios)
			append(h, len, " (geometric mean %.2fx)", p->geomean_iops);
		append(h, len, ". Run both sides with --repeat %d to have them judged.",
		       COMPARE_MIN_RUNS);
		return;
	}
	snprintf(of, sizeof(of), " of %u test%s", p->ntests, p->ntests == 1 ? "" : "s");
	if (!judged) {
		append(h, len, "throughput not judged");
	} else if (!p->nbetter && !p->nworse) {
		/* "~" says the interval does not lie wholly beyond the band, not
		 * that the change lies within it */
		append(h, len, "throughput unchanged (~) on %u%s, no interval wholly beyond the "
		       "+-%.3g %% noise band", p->nsame, of, 100 * noise);
	} else if (p->nworse >= p->nbetter) {
		headline_count(p, CMP_IOPS, CMP_WORSE, p->nworse, "", "slower", of);
		headline_count(p, CMP_IOPS, CMP_BETTER, p->nbetter, ", ", "faster", "");
	} else {
		headline_count(p, CMP_IOPS, CMP_BETTER, p->nbetter, "", "faster", of);
		headline_count(p, CMP_IOPS, CMP_WORSE, p->nworse, ", ", "slower", "");
	}
	if (judged && (p->nbetter || p->nworse) && p->nsame)
		append(h, len, ", %u unchanged (~)", p->nsame);
	if (p->nunjudged)
		append(h, len, ", %u not judged", p->nunjudged);
	if (p->nfailed)
		append(h, len, " (%u failed on a side)", p->nfailed);
	if (p->nmismatched)
		append(h, len, " (%u measured differently)", p->nmismatched);
	if (p->nbusier)
		append(h, len, " (%u with the CPU busier on one side: band widened)", p->nbusier);
	if (!pj)
		append(h, len, "; p99 latency not judged");
	else if (!p->p99_better && !p->p99_worse)
		append(h, len, "; p99 latency unchanged (~) on %u", pj);
	else if (p->p99_worse >= p->p99_better) {
		headline_count(p, CMP_LAT_P99, CMP_WORSE, p->p99_worse, "; p99 latency ",
			       "higher", "");
		headline_count(p, CMP_LAT_P99, CMP_BETTER, p->p99_better, ", ", "lower", "");
	} else {
		headline_count(p, CMP_LAT_P99, CMP_BETTER, p->p99_better, "; p99 latency ",
			       "lower", "");
		headline_count(p, CMP_LAT_P99, CMP_WORSE, p->p99_worse, ", ", "higher", "");
	}
	append(h, len, ".");
}

/* Do x and y run alike: block size, queue depth, jobs, O_DIRECT? */
static bool same_method(const struct test_result *x, const struct test_result *y)
{
	return x->bs == y->bs && x->qd == y->qd && x->jobs == y->jobs && x->direct == y->direct;
}

/*
 * Which test of a each test of b is compared with: match[i] = j, or -1
 * (only before); used[j] when test j of a is taken. By name, a name that
 * occurs twice in a file matching the other side's occurrences in order.
 * Between results of different tools (one imported: fio's "JOB:RW", a
 * bonnie++ line's "seq-write 8k qd1"), a test no name matched takes the
 * other side's first unmatched test of the same workload that ran alike
 * (same_method), else the first of that workload: compare_test.mismatch
 * then says how they differ.
 */
static void match_tests(const struct run_result *b, const struct run_result *a, int *match,
			bool *used)
{
	unsigned i, j, k;

	for (i = 0; i < b->ntests; i++) {
		match[i] = -1;
		for (j = 0; j < a->ntests; j++)
			if (!used[j] && same_name(&b->tests[i], &a->tests[j]))
				break;
		if (j < a->ntests) {
			used[j] = true;
			match[i] = (int)j;
		}
	}
	if (!strcmp(b->imported_from.tool, a->imported_from.tool))
		return;
	for (i = 0; i < b->ntests; i++) {
		const struct test_result *x = &b->tests[i];

		if (match[i] >= 0 || !x->workload)
			continue;
		k = a->ntests;
		for (j = 0; j < a->ntests; j++) {
			const struct test_result *y = &a->tests[j];

			if (used[j] || !y->workload || strcmp(x->workload, y->workload))
				continue;
			if (k == a->ntests)
				k = j;
			if (same_method(x, y)) {
				k = j;
				break;
			}
		}
		if (k < a->ntests) {
			used[k] = true;
			match[i] = (int)k;
		}
	}
}

static int compare_pair(struct compare_pair *p, const struct run_result *b,
			const struct run_result *a, double noise)
{
	bool *used = calloc(a->ntests + 1, sizeof(*used));
	int *match = calloc(b->ntests + 1, sizeof(*match));
	double logsum = 0, r;
	unsigned i, j, m;
	int ret = -ENOMEM;

	p->tests = calloc(b->ntests + 1, sizeof(*p->tests));
	p->only_before = calloc(b->ntests + 1, sizeof(*p->only_before));
	p->only_after = calloc(a->ntests + 1, sizeof(*p->only_after));
	if (!used || !match || !p->tests || !p->only_before || !p->only_after)
		goto out;
	p->worst = p->best = -1;
	p->repeats = true;
	match_tests(b, a, match, used);
	for (i = 0; i < b->ntests; i++) {
		if (match[i] < 0) {
			p->only_before[p->nonly_before++] = &b->tests[i];
			continue;
		}
		j = (unsigned)match[i];
		struct compare_test *t = &p->tests[p->ntests++];

		t->before = &b->tests[i];
		t->after = &a->tests[j];
		for (m = 0; m < CMP_NMETRICS; m++) {
			compare_value_of(t->before, t->after, m, &t->m[m]);
			compare_runs_of(t->before, t->after, m, &t->m[m]);
		}
		mismatch(t->before, t->after, t->mismatch, sizeof(t->mismatch));
		failed(t->before, t->after, t->failed, sizeof(t->failed));
		compare_test_band(t, noise);
		if (t->before->nruns < 2 || t->after->nruns < 2)
			p->repeats = false;
		r = t->m[CMP_IOPS].ratio;
		/* a failed side's figure is no speed, and one measured another
		 * way no change: not in the mean either */
		if (!(r > 0) || isinf(r) || t->failed[0] || t->mismatch[0])
			continue;
		p->nratios++;
		logsum += log(r);
		if (p->worst < 0 || r < p->tests[p->worst].m[CMP_IOPS].ratio)
			p->worst = (int)(p->ntests - 1);
		if (p->best < 0 || r > p->tests[p->best].m[CMP_IOPS].ratio)
			p->best = (int)(p->ntests - 1);
	}
	if (!p->ntests)
		p->repeats = false;
	for (j = 0; j < a->ntests; j++)
		if (!used[j])
			p->only_after[p->nonly_after++] = &a->tests[j];
	p->geomean_iops = p->nratios ? exp(logsum / p->nratios) : NAN;
	p->all_lost = p->nratios && p->tests[p->best].m[CMP_IOPS].ratio < 1;
	p->all_gained = p->nratios && p->tests[p->worst].m[CMP_IOPS].ratio > 1;
	pair_verdicts(p, noise);
	pair_headline(p, noise);
	ret = diff_results(p, b, a);
out:
	free(used);
	free(match);
	return ret;
}

static void pair_free(struct compare_pair *p)
{
	free(p->tests);
	free(p->only_before);
	free(p->only_after);
	free(p->diffs);
}

static const char *label_of(const struct run_result *r, const char *file)
{
	return r->label[0] ? r->label : file;
}

static const char *kind_words(enum target_kind k)
{
	return k == TARGET_BLOCK ? "block device" : target_kind_name(k);
}

/* Do x and y run on targets of a kind that compares? Of the same kind,
 * or a file and a directory when one side is another tool's: fio names
 * the file it used, bonnie++ the directory, both through a file system. */
static bool same_kind(const struct run_result *x, const struct run_result *y)
{
	enum target_kind a = x->target.kind, b = y->target.kind;

	if (a == b)
		return true;
	return a != TARGET_BLOCK && b != TARGET_BLOCK &&
	       (x->imported_from.tool[0] || y->imported_from.tool[0]);
}

int compare_check(const struct run_result *results, const char *const *files, unsigned n,
		  char *err, size_t errlen)
{
	for (unsigned i = 1; i < n; i++)
		if (!same_kind(&results[i], &results[0])) {
			snprintf(err, errlen, "%s ran on a %s, %s on a %s: results of different "
				 "kinds of target do not compare (run both on a device, or both "
				 "in a directory)", files[i], kind_words(results[i].target.kind),
				 files[0], kind_words(results[0].target.kind));
			return -EINVAL;
		}
	return 0;
}

int compare_build(struct compare *c, const struct run_result *results,
		  const char *const *files, unsigned n, const struct compare_opts *o)
{
	double noise = o ? o->noise : COMPARE_NOISE;
	unsigned i;
	int ret;

	memset(c, 0, sizeof(*c));
	if (n < 1 || !(noise >= 0 && noise < 1))
		return -EINVAL;
	c->noise = noise;
	c->base = &results[0];
	c->base_file = files[0];
	c->base_label = label_of(&results[0], files[0]);
	c->pairs = calloc(n, sizeof(*c->pairs));
	if (!c->pairs)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		struct compare_pair *p = &c->pairs[c->npairs++];

		p->after = &results[i];
		p->file = files[i];
		p->label = label_of(&results[i], files[i]);
		ret = compare_pair(p, &results[0], &results[i], noise);
		pair_words(p, c->base_label);
		if (ret) {
			compare_free(c);
			return ret;
		}
	}
	return 0;
}

void compare_free(struct compare *c)
{
	unsigned i;

	for (i = 0; i < c->npairs; i++)
		pair_free(&c->pairs[i]);
	free(c->pairs);
	memset(c, 0, sizeof(*c));
}
