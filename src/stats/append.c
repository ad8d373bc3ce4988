/* append.c - runs of one plan made at different times, into one result (run --append). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "annotate.h"
#include "append.h"
#include "repeat.h"

int result_append_check(const struct run_result *prior, const char *target,
			const char *const *names, unsigned n, char *err, size_t errlen)
{
	const char *was = prior->target.resolved[0] ? prior->target.resolved : prior->target.path;

	if (prior->imported_from.tool[0]) {
		snprintf(err, errlen, "it holds a result %s made, not one of diskbench's runs",
			 prior->imported_from.tool);
		return -EINVAL;
	}
	if (strcmp(was, target)) {
		snprintf(err, errlen, "it holds a run of %s, this run is of %s", was, target);
		return -EINVAL;
	}
	if (prior->ntests != n) {
		snprintf(err, errlen, "it holds %u tests, this run has %u", prior->ntests, n);
		return -EINVAL;
	}
	for (unsigned i = 0; i < n; i++) {
		if (strcmp(prior->tests[i].name, names[i])) {
			snprintf(err, errlen, "its test %u is \"%s\", this run's is \"%s\"", i + 1,
				 prior->tests[i].name, names[i]);
			return -EINVAL;
		}
		if (!prior->tests[i].nruns) {
			snprintf(err, errlen, "its test %u (\"%s\") holds no run", i + 1, names[i]);
			return -EINVAL;
		}
	}
	return 0;
}

/* The settings that may differ between the runs of one side. */
static bool may_differ(const char *key)
{
	return !strcmp(key, "repeat") || !strcmp(key, "pinning") || !strcmp(key, "appended");
}

int result_append_check_settings(const struct run_result *prior, const struct run_result *now,
				 char *err, size_t errlen)
{
	for (unsigned i = 0; i < prior->nsettings; i++) {
		const struct setting *a = &prior->settings[i];
		const char *b = result_setting(now, a->key);

		if (may_differ(a->key) || (b && !strcmp(a->value, b)))
			continue;
		if (b)
			snprintf(err, errlen, "its %s is %s, this run's is %s", a->key, a->value, b);
		else
			snprintf(err, errlen, "its %s is %s, this run has none", a->key, a->value);
		return -EINVAL;
	}
	/* a setting only this run has: e.g. --lat-log's, which the first runs had not */
	for (unsigned k = 0; k < now->nsettings; k++) {
		const struct setting *b = &now->settings[k];

		if (!may_differ(b->key) && !result_setting(prior, b->key)) {
			snprintf(err, errlen, "it has no %s, this run's is %s", b->key, b->value);
			return -EINVAL;
		}
	}
	return 0;
}

/* t's histogram as a struct hist again (a loaded test keeps its buckets
 * only), to merge into. 0 or -ENOMEM. */
static int expand(struct test_result *t)
{
	if (t->lat || !t->lat_sparse)
		return 0;
	t->lat = malloc(sizeof(*t->lat));
	if (!t->lat)
		return -ENOMEM;
	hist_sparse_expand(t->lat_sparse, t->lat);
	free(t->lat_sparse);
	t->lat_sparse = NULL;
	return 0;
}

static bool has_warning(const struct run_result *r, const char *w)
{
	for (unsigned i = 0; i < r->nwarnings; i++)
		if (!strcmp(r->warnings[i], w))
			return true;
	return false;
}

/* "appended": how many runs were added to the first, counted up. */
static int count_appended(struct run_result *r)
{
	for (unsigned i = 0; i < r->nsettings; i++) {
		if (strcmp(r->settings[i].key, "appended"))
			continue;
		snprintf(r->settings[i].value, sizeof(r->settings[i].value), "%llu",
			 strtoull(r->settings[i].value, NULL, 10) + 1);
		return 0;
	}
	return result_add_setting(r, "appended", "1");
}

int result_append(struct run_result *prior, struct run_result *now)
{
	int ret;

	for (unsigned i = 0; i < prior->ntests; i++)
		if (prior->tests[i].nruns + now->tests[i].nruns > REPEAT_MAX)
			return -ENOSPC;
	for (unsigned i = 0; i < prior->ntests; i++) {
		struct test_result *t = &prior->tests[i];

		ret = expand(t);
		if (!ret)
			ret = expand(&now->tests[i]);
		if (!ret)
			ret = repeat_add_runs(t, &now->tests[i]);
		if (ret)
			return ret;
		repeat_finish(t);
		result_drift(t);
		result_cliff(t);
		result_test_flags(t);
	}
	for (unsigned i = 0; i < now->nwarnings; i++)
		if (!has_warning(prior, now->warnings[i]) &&
		    (ret = result_add_warning(prior, "%s", now->warnings[i])))
			return ret;
	return count_appended(prior);
}
