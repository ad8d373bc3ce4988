/* repeat.c - a test's runs under --repeat: merging them and their spread. */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "repeat.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

void repeat_stat(double *x, unsigned n, struct run_stat *out)
{
	double sum = 0, dev = 0;
	unsigned i;

	memset(out, 0, sizeof(*out));
	if (!n)
		return;
	qsort(x, n, sizeof(*x), cmp_double);
	out->median = n % 2 ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2;
	out->min = x[0];
	out->max = x[n - 1];
	for (i = 0; i < n; i++)
		sum += x[i];
	out->mean = sum / n;
	if (n < 2)
		return;
	/* Two passes: the textbook one-pass formula cancels badly when the
	 * runs are close, which is exactly when they are good. */
	for (i = 0; i < n; i++)
		dev += (x[i] - out->mean) * (x[i] - out->mean);
	out->stdev = sqrt(dev / (n - 1));
	out->cv = out->mean != 0 ? out->stdev / out->mean : 0;
}

static uint64_t pct_of(const struct test_result *t, const char *key)
{
	for (unsigned i = 0; i < RESULT_NPCT; i++)
		if (!strcmp(result_pct_keys[i], key))
			return t->lat_sum.pct[i];
	return 0;
}

static void run_of(const struct test_result *t, struct test_run *run)
{
	memset(run, 0, sizeof(*run));
	run->runtime_ns = t->runtime_ns;
	run->ops = t->ops;
	run->bytes = t->bytes;
	run->iops = t->iops;
	run->bytes_per_sec = t->bytes_per_sec;
	run->lat_p50_ns = pct_of(t, "50");
	run->lat_p99_ns = pct_of(t, "99");
	run->cpu_user_pct = t->cpu_user_pct;
	run->cpu_sys_pct = t->cpu_sys_pct;
	run->usec_per_op = t->usec_per_op;
	run->cpu_wait_valid = t->cpu_wait_valid;
	run->cpu_wait_pct = t->cpu_wait_pct;
	run->dev_valid = t->dev_valid;
	run->dev_read_bytes = t->dev_read_bytes;
	run->dev_write_bytes = t->dev_write_bytes;
	run->errors = t->errors;
}

/* from[0..nfrom) after to[0..*nto), their run indices shifted by n; what
 * finds no room counted in *missed, as from's own missed ones. */
static void add_stalls(struct result_stall *to, unsigned *nto, unsigned *missed,
		       const struct result_stall *from, unsigned nfrom, unsigned from_missed,
		       unsigned n)
{
	for (unsigned k = 0; k < nfrom; k++) {
		if (*nto >= RESULT_MAX_STALLS) {
			++*missed;
			continue;
		}
		to[*nto] = from[k];
		to[(*nto)++].run = n + from[k].run;
	}
	*missed += from_missed;
}

/* The figures over the runs of more go into acc, whose runs come first (n
 * of them): counts add up, histograms merge, more's stalls, slow requests
 * and errors are said with their run's index in acc. more's histogram and
 * ranks are taken over or freed. */
static void merge_into(struct test_result *acc, struct test_result *more, unsigned n)
{
	if (acc->lat && more->lat) {
		hist_merge(acc->lat, more->lat);
		free(more->lat);
	} else if (more->lat) {
		acc->lat = more->lat;
	}
	acc->runtime_ns += more->runtime_ns;
	acc->window_span_ns += more->window_span_ns;
	add_stalls(acc->stalls, &acc->nstalls, &acc->stalls_missed, more->stalls, more->nstalls,
		   more->stalls_missed, n);
	add_stalls(acc->slow, &acc->nslow, &acc->slow_missed, more->slow, more->nslow,
		   more->slow_missed, n);
	if (more->stuck && !acc->stuck)
		acc->stuck_call = more->stuck_call;
	acc->stuck = acc->stuck || more->stuck;
	acc->ops += more->ops;
	acc->bytes += more->bytes;
	acc->dev_valid = acc->dev_valid && more->dev_valid;
	acc->dev_read_bytes += more->dev_read_bytes;
	acc->dev_write_bytes += more->dev_write_bytes;
	if (more->errors && !acc->errors) {
		acc->first_errno = more->first_errno;
		acc->first_error_offset = more->first_error_offset;
	}
	acc->errors += more->errors;
	for (unsigned k = 0; k < more->nio_errors && acc->nio_errors < RESULT_MAX_IO_ERRORS; k++) {
		acc->io_errors[acc->nio_errors] = more->io_errors[k];
		acc->io_errors[acc->nio_errors++].run = n + more->io_errors[k].run;
	}
	verify_sum_add(&acc->verify, &more->verify);
	acc->syscalls_valid = acc->syscalls_valid && more->syscalls_valid;
	acc->cpu_wait_valid = acc->cpu_wait_valid && more->cpu_wait_valid;
	acc->syscalls += more->syscalls;
	if (more->cpu_job_max_pct > acc->cpu_job_max_pct)
		acc->cpu_job_max_pct = more->cpu_job_max_pct;
	/* a coordinated run: each rank's share over its runs */
	for (unsigned k = 0; acc->ranks && more->ranks && k < acc->nranks && k < more->nranks;
	     k++) {
		struct rank_test *a = &acc->ranks[k];
		const struct rank_test *b = &more->ranks[k];

		a->ops += b->ops;
		a->bytes += b->bytes;
		a->runtime_ns += b->runtime_ns;
		a->errors += b->errors;
		a->end_ns = b->end_ns;
		if (b->lat_n && (!a->lat_n || b->lat_min < a->lat_min))
			a->lat_min = b->lat_min;
		if (b->lat_max > a->lat_max)
			a->lat_max = b->lat_max;
		a->lat_n += b->lat_n;
		a->lat_sum += b->lat_sum;
		a->bytes_per_sec = a->runtime_ns ?
			(double)a->bytes / (double)a->runtime_ns * 1e9 : 0;
	}
	free(more->ranks);
	if (acc->ranks)
		result_ranks_finish(acc);
}

int repeat_add(struct test_result *acc, struct test_result *run)
{
	struct test_run *runs;
	unsigned n = acc->nruns;

	if (n >= REPEAT_MAX)
		return -ENOSPC;
	runs = realloc(acc->runs, ((size_t)n + 1) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	acc->runs = runs;
	run_of(run, &runs[n]);
	runs[n].timeline = run->timeline;	/* taken over */

	if (!n) {
		*acc = *run;
		acc->runs = runs;
		acc->timeline = (struct timeline){ 0 };
	} else {
		/* a fresh run's stalls and errors are its run's, 0 */
		merge_into(acc, run, n);
	}
	run->ranks = NULL;
	run->nranks = 0;
	run->lat = NULL;
	run->timeline = (struct timeline){ 0 };
	acc->nruns = n + 1;
	return 0;
}

int repeat_add_runs(struct test_result *acc, struct test_result *more)
{
	unsigned n = acc->nruns, m = more->nruns;
	struct test_run *runs;

	if (!n || !m)
		return -EINVAL;
	if (n + m > REPEAT_MAX)
		return -ENOSPC;
	runs = realloc(acc->runs, ((size_t)n + m) * sizeof(*runs));
	if (!runs)
		return -ENOMEM;
	acc->runs = runs;
	/* the runs and their timelines taken over */
	memcpy(runs + n, more->runs, (size_t)m * sizeof(*runs));
	free(more->runs);
	more->runs = NULL;
	more->nruns = 0;
	merge_into(acc, more, n);
	more->ranks = NULL;
	more->nranks = 0;
	more->lat = NULL;
	acc->nruns = n + m;
	return 0;
}

void repeat_finish(struct test_result *acc)
{
	double x[REPEAT_MAX], user_ns = 0, sys_ns = 0, wait_ns = 0, run_ns = 0;
	struct repeat_summary *s = &acc->summary;
	unsigned n = acc->nruns, i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return;
#define STAT(field, out)					\
	do {							\
		for (i = 0; i < n; i++)				\
			x[i] = (double)acc->runs[i].field;	\
		repeat_stat(x, n, &s->out);			\
	} while (0)
	STAT(iops, iops);
	STAT(bytes_per_sec, bytes_per_sec);
	STAT(lat_p50_ns, lat_p50_ns);
	STAT(lat_p99_ns, lat_p99_ns);
	STAT(usec_per_op, usec_per_op);
#undef STAT
	if (n == 1)
		return;

	result_finish(acc);
	/* A run's CPU percent is its CPU time over its window: recover the
	 * time, add it up, and divide by the summed windows and ops. The
	 * runs' own windows, not the test's runtime_ns: the same sum in a run's
	 * result, but a file's runs may not add up to it (a percent over 100). */
	for (i = 0; i < n; i++) {
		run_ns += (double)acc->runs[i].runtime_ns;
		user_ns += acc->runs[i].cpu_user_pct / 100 * (double)acc->runs[i].runtime_ns;
		sys_ns += acc->runs[i].cpu_sys_pct / 100 * (double)acc->runs[i].runtime_ns;
		wait_ns += acc->runs[i].cpu_wait_pct / 100 * (double)acc->runs[i].runtime_ns;
		acc->cpu_wait_valid = acc->cpu_wait_valid && acc->runs[i].cpu_wait_valid;
	}
	acc->cpu_wait_pct = acc->cpu_wait_valid && run_ns > 0 ? 100 * wait_ns / run_ns : 0;
	acc->cpu_user_pct = run_ns > 0 ? 100 * user_ns / run_ns : 0;
	acc->cpu_sys_pct = run_ns > 0 ? 100 * sys_ns / run_ns : 0;
	acc->usec_per_op = acc->ops ? (user_ns + sys_ns) / 1000 / (double)acc->ops : 0;
	acc->iops = s->iops.median;
	acc->bytes_per_sec = s->bytes_per_sec.median;
}

bool repeat_unreliable(const struct test_result *acc)
{
	return acc->nruns > 1 && acc->summary.iops.cv > REPEAT_CV_WARN;
}
