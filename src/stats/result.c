/* result.c - deriving a test's figures and building the run result. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "result.h"

const double result_pcts[RESULT_NPCT] = {
	1, 5, 10, 25, 50, 75, 90, 95, 99, 99.9, 99.99, 99.999,
};

const char *const result_pct_keys[RESULT_NPCT] = {
	"1", "5", "10", "25", "50", "75", "90", "95", "99", "99.9", "99.99", "99.999",
};

void result_finish(struct test_result *t)
{
	struct lat_summary *ls = &t->lat_sum;
	unsigned i;

	if (t->runtime_ns) {
		t->iops = (double)t->ops / (double)t->runtime_ns * 1e9;
		t->bytes_per_sec = (double)t->bytes / (double)t->runtime_ns * 1e9;
	} else {
		t->iops = 0;
		t->bytes_per_sec = 0;
	}

	t->syscalls_per_op = t->syscalls_valid && t->ops ? (double)t->syscalls / (double)t->ops : 0;

	if (t->lat_max_given && !t->lat_pct_given)	/* its maximum alone, kept */
		*ls = (struct lat_summary){ .max = ls->max };
	else if (!t->lat_pct_given)	/* else another tool's figures, kept */
		memset(ls, 0, sizeof(*ls));
	if (t->lat && t->lat->n && !t->lat_pct_given) {
		ls->min = t->lat->min;
		ls->max = t->lat->max;
		ls->mean = hist_mean(t->lat);
		ls->stdev = hist_stdev(t->lat);
		for (i = 0; i < RESULT_NPCT; i++)
			ls->pct[i] = hist_percentile(t->lat, result_pcts[i]);
	}

	/* Fewer than half the bytes read reached the device: the page cache
	 * (or a device cache above the counters) answered, not the disk. */
	t->cached = !t->is_write && t->dev_valid && t->dev_read_bytes < t->bytes / 2;
	result_ranks_finish(t);
}

bool result_has_lat(const struct test_result *t)
{
	if (t->lat_pct_given)
		return true;
	if (t->lat)
		return t->lat->n > 0;
	if (t->lat_sparse)
		return t->lat_sparse->n > 0;
	return t->ops > 0;
}

int result_add_test(struct run_result *r, const struct test_result *t)
{
	struct test_result *tests;

	tests = realloc(r->tests, ((size_t)r->ntests + 1) * sizeof(*tests));
	if (!tests)
		return -ENOMEM;
	r->tests = tests;
	tests[r->ntests++] = *t;
	return 0;
}

int result_add_setting(struct run_result *r, const char *key, const char *fmt, ...)
{
	struct setting *s;
	va_list ap;

	if (r->nsettings >= RESULT_MAX_SETTINGS)
		return -ENOSPC;
	s = &r->settings[r->nsettings++];
	snprintf(s->key, sizeof(s->key), "%s", key);
	va_start(ap, fmt);
	vsnprintf(s->value, sizeof(s->value), fmt, ap);
	va_end(ap);
	return 0;
}

const char *result_setting(const struct run_result *r, const char *key)
{
	for (unsigned i = 0; i < r->nsettings && i < RESULT_MAX_SETTINGS; i++)
		if (!strncmp(r->settings[i].key, key, sizeof(r->settings[i].key)))
			return r->settings[i].value;
	return NULL;
}

int result_add_warning(struct run_result *r, const char *fmt, ...)
{
	char **warnings, *msg;
	va_list ap, ap2;
	int len;

	va_start(ap, fmt);
	va_copy(ap2, ap);
	len = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (len < 0) {
		va_end(ap2);
		return -EINVAL;
	}
	msg = malloc((size_t)len + 1);
	if (!msg) {
		va_end(ap2);
		return -ENOMEM;
	}
	vsnprintf(msg, (size_t)len + 1, fmt, ap2);
	va_end(ap2);

	warnings = realloc(r->warnings, ((size_t)r->nwarnings + 1) * sizeof(*warnings));
	if (!warnings) {
		free(msg);
		return -ENOMEM;
	}
	r->warnings = warnings;
	warnings[r->nwarnings++] = msg;
	return 0;
}

const char *result_strdup(struct run_result *r, const char *s)
{
	char **strings, *copy;

	strings = realloc(r->strings, ((size_t)r->nstrings + 1) * sizeof(*strings));
	if (!strings)
		return NULL;
	r->strings = strings;
	copy = strdup(s);
	if (!copy)
		return NULL;
	strings[r->nstrings++] = copy;
	return copy;
}

void result_test_free(struct test_result *t)
{
	free(t->lat);
	t->lat = NULL;
	free(t->lat_sparse);
	t->lat_sparse = NULL;
	/* a test made by hand may claim runs it does not have */
	for (unsigned k = 0; t->runs && k < t->nruns; k++)
		timeline_free(&t->runs[k].timeline);
	free(t->runs);
	t->runs = NULL;
	t->nruns = 0;
	timeline_free(&t->timeline);
	free(t->ranks);
	t->ranks = NULL;
	t->nranks = 0;
}

void result_ranks_finish(struct test_result *t)
{
	struct rank_imbalance *im = &t->imbalance;
	bool by_ops = true;

	memset(im, 0, sizeof(*im));
	if (!t->nranks || !t->ranks)
		return;
	for (unsigned i = 0; i < t->nranks; i++)
		if (t->ranks[i].bytes)
			by_ops = false;
	im->by_ops = by_ops;
	for (unsigned i = 0; i < t->nranks; i++) {
		const struct rank_test *rt = &t->ranks[i];
		double rate = !rt->runtime_ns ? 0 : by_ops ?
			(double)rt->ops / (double)rt->runtime_ns * 1e9 : rt->bytes_per_sec;

		if (!i || rate < im->slowest_rate) {
			im->slowest = i;
			im->slowest_rate = rate;
		}
		if (!i || rate > im->fastest_rate) {
			im->fastest = i;
			im->fastest_rate = rate;
		}
	}
	im->spread = im->fastest_rate > 0 ?
		(im->fastest_rate - im->slowest_rate) / im->fastest_rate : 0;
}

bool result_rank_first_of_host(const struct result_ranks *rr, unsigned i)
{
	for (unsigned j = 0; j < i; j++)
		if (!strcmp(rr->info[j].hostname, rr->info[i].hostname))
			return false;
	return true;
}

void result_ranks_summarize(struct result_ranks *rr)
{
	rr->nhosts = 0;
	rr->kernels_differ = rr->versions_differ = false;
	for (unsigned i = 0; i < rr->n; i++) {
		const struct rank_info *ri = &rr->info[i];

		rr->nhosts += result_rank_first_of_host(rr, i);
		if (strcmp(ri->kernel, rr->info[0].kernel))
			rr->kernels_differ = true;
		if (strcmp(ri->version, rr->info[0].version))
			rr->versions_differ = true;
	}
}

void result_free(struct run_result *r)
{
	unsigned i;

	for (i = 0; i < r->ntests; i++)
		result_test_free(&r->tests[i]);
	free(r->tests);
	r->tests = NULL;
	r->ntests = 0;

	for (i = 0; i < r->nwarnings; i++)
		free(r->warnings[i]);
	free(r->warnings);
	r->warnings = NULL;
	r->nwarnings = 0;
	r->nsettings = 0;

	for (i = 0; i < r->nstrings; i++)
		free(r->strings[i]);
	free(r->strings);
	r->strings = NULL;
	r->nstrings = 0;

	if (r->ranks)
		free(r->ranks->info);
	free(r->ranks);
	r->ranks = NULL;
}

bool result_test_flag(const struct target_info *ti, const struct test_result *t,
		      enum target_flag f)
{
	/* served through the page cache: the encryption flag says it */
	if (f == TARGET_FLAG_O_DIRECT_REFUSED)
		return t->direct_refused && !ti->direct_via_cache;
	return target_flag_applies(f, t->is_write) && target_flag(ti, f, NULL, 0);
}
