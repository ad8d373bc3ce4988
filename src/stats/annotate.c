/* annotate.c - the warnings and flags derived from a finished run, made once for every reporter. */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "annotate.h"
#include "repeat.h"
#include "timeline.h"

void result_drift(struct test_result *t)
{
	t->drift_valid = t->drifted = false;
	t->drift = 0;
	t->drift_run = 0;
	if (!t->nruns || !t->runs) {	/* built by hand */
		t->drift_valid = timeline_drift(&t->timeline, &t->drift);
	} else {
		for (unsigned i = 0; i < t->nruns; i++) {
			struct test_run *run = &t->runs[i];

			run->drift = 0;
			run->drift_valid = timeline_drift(&run->timeline, &run->drift);
			if (!run->drift_valid)
				continue;
			if (!t->drift_valid || fabs(run->drift) > fabs(t->drift)) {
				t->drift = run->drift;
				t->drift_run = i;
			}
			t->drift_valid = true;
		}
	}
	t->drifted = t->drift_valid && fabs(t->drift) > TIMELINE_DRIFT_LIMIT;
}

/* A loop device without direct I/O: its O_DIRECT tests measured the
 * backing file's page cache. One warning naming them. */
static void loop_page_cache(struct run_result *r)
{
	char names[512] = "";
	size_t used = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < r->ntests; i++) {
		const struct test_result *t = &r->tests[i];

		if (!t->direct)
			continue;
		if (used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%.*s",
						 n ? ", " : "", (int)sizeof(t->name), t->name);
		n++;
	}
	if (n)
		result_add_warning(r, "%s is a loop device without direct I/O: O_DIRECT on it "
				   "is served from its backing file's page cache, so %s measured "
				   "that cache, not the disk under it (%s); set it up with "
				   "losetup --direct-io=on", r->target.disk, n == 1 ? "this test" :
				   "these tests", names);
}

/* Tests whose busiest job kept its CPU near full (ANNOTATE_TOOL_BOUND_PCT):
 * one warning naming them, each with how busy. */
static void tool_bound(struct run_result *r)
{
	char names[640] = "";
	size_t used = 0;
	unsigned n = 0;

	for (unsigned i = 0; i < r->ntests; i++) {
		struct test_result *t = &r->tests[i];

		t->tool_bound = t->cpu_job_max_pct >= ANNOTATE_TOOL_BOUND_PCT;	/* NaN: no */
		if (!t->tool_bound)
			continue;
		if (used < sizeof(names))
			used += (size_t)snprintf(names + used, sizeof(names) - used, "%s%.*s "
						 "(%.0f %%)", n ? ", " : "", (int)sizeof(t->name),
						 t->name, t->cpu_job_max_pct);
		n++;
	}
	if (n)
		result_add_warning(r, "diskbench kept a CPU busy for at least %.0f %% of a job's "
				   "window in %s: %s; %s may be bounded by the tool and the CPU "
				   "(diskbench's own work and the kernel's on its behalf: see its CPU "
				   "and system calls per op), not by the device",
				   ANNOTATE_TOOL_BOUND_PCT, n == 1 ? "this test" : "these tests",
				   names, n == 1 ? "its result" : "their results");
}

/* Under this median, random reads did not come from a spinning disk: a
 * seek and half a turn take milliseconds even at 15000 rpm (2 ms for the
 * half turn alone). */
#define ROTATIONAL_MIN_RANDOM_READ_NS 1000000

/* t's median latency (ns) */
static double median_ns(const struct test_result *t)
{
	for (unsigned i = 0; i < RESULT_NPCT; i++)
		if (result_pcts[i] == 50)
			return (double)t->lat_sum.pct[i];
	return NAN;
}

/* Random O_DIRECT reads of a rotational disk faster than a disk can seek:
 * something below it answered from a cache. */
static bool implausible(const struct test_result *t, const struct target_info *ti)
{
	return ti->rotational == 1 && t->random && !t->is_write && t->direct && t->ops &&
	       median_ns(t) < ROTATIONAL_MIN_RANDOM_READ_NS;
}

void result_steady(struct test_result *t)
{
	struct steady_params p;
	double x[REPEAT_MAX], bw = 0;
	unsigned n = t->nruns < REPEAT_MAX ? t->nruns : REPEAT_MAX;

	if (!t->steady_max_rounds || !t->runs)
		return;
	steady_defaults(&p);
	p.max_rounds = t->steady_max_rounds;
	for (unsigned k = 0; k < n; k++)
		x[k] = t->runs[k].iops;
	t->steady = steady_detect(x, n, &p, &t->steady_window) == 1;
	if (!t->steady_window.n)
		return;
	for (unsigned k = 0; k < t->steady_window.n; k++)
		bw += t->runs[t->steady_window.first + k].bytes_per_sec;
	t->iops = t->steady_window.average;
	t->bytes_per_sec = bw / t->steady_window.n;
}

void result_cliff(struct test_result *t)
{
	const struct workload *w = t->workload ? wl_find(t->workload) : NULL;

	if (!w || !w->finds_cliff)
		return;
	cliff_find(t->nruns ? &t->runs[t->nruns - 1].timeline : &t->timeline, &t->cliff);
	t->cliff_valid = true;
}

/* Faster than the disk's link can carry (a USB 2 stick at 500 MB/s): not
 * the disk. Reads the page cache answered are flagged as cached already. */
static bool beyond_transport(const struct test_result *t, const struct target_info *ti)
{
	return ti->transport_bps && !t->cached &&
	       t->bytes_per_sec > 1.05 * (double)ti->transport_bps;
}

bool result_annotate(struct run_result *r, const struct annotate_in *in)
{
	const struct target_info *ti = &r->target;
	bool failed = false;

	for (unsigned i = 0; i < r->ntests; i++) {
		struct test_result *t = &r->tests[i];

		repeat_finish(t);
		result_drift(t);
		result_steady(t);
		result_cliff(t);
		if (t->steady_max_rounds && !t->steady)
			result_add_warning(r, "%s: never reached steady state in %u rounds (SNIA PTS: "
					   "5 rounds within 20 %% of their average, slope within 10 %%); "
					   "its figures are the last 5 rounds' average", t->name,
					   t->nruns);
		if (t->errors) {
			failed = true;
			result_add_warning(r, "%s: %" PRIu64 " I/O errors, first: %s at offset %"
					   PRIu64, t->name, t->errors, strerror(t->first_errno),
					   t->first_error_offset);
		}
		if (t->verify.bad) {
			char first[160];

			failed = true;
			verify_first_bad(&t->verify, first, sizeof(first));
			result_add_warning(r, "%s: %" PRIu64 " of %" PRIu64 " blocks read back "
					   "did not match what was written, the first %s", t->name,
					   t->verify.bad, t->verify.blocks, first);
		}
		if (t->cached)
			result_add_warning(r, "%s: reads did not reach the device (page cache?)",
					   t->name);
		if (t->zero_data && ti->compression[0])
			result_add_warning(r, "%s: wrote zeros (--data zero) to a file system that "
					   "compresses them (%.*s): the device wrote a fraction of "
					   "what is counted, so the rates are the compressor's, not "
					   "the disk's", t->name, (int)sizeof(ti->compression),
					   ti->compression);
		t->implausible = false;
		if (in->moves_data && beyond_transport(t, ti)) {
			t->implausible = true;
			result_add_warning(r, "%s: implausible: %.0f MB/s is more than its link "
					   "carries (%s: at most %.0f MB/s); a cache above the link "
					   "answered, or the link is not what sysfs says", t->name,
					   t->bytes_per_sec / 1e6, ti->transport,
					   (double)ti->transport_bps / 1e6);
		}
		if (in->moves_data && implausible(t, ti)) {
			t->implausible = true;
			result_add_warning(r, "%s: implausible for a rotational disk: its median "
					   "random read took %.0f us, and a seek and half a turn take "
					   "milliseconds; a cache below it answered (the host's page "
					   "cache under a virtual disk, a controller or RAID card, a "
					   "hybrid drive's flash), or it does not spin at all, whatever "
					   "its queue/rotational says (virtual disks often say so "
					   "wrongly)", t->name,
					   median_ns(t) / 1e3);
		}
		/* a write cliff is what such a test looks for: said on its own */
		if (t->drifted && !(t->cliff_valid && t->cliff.found)) {
			char when[48] = "the window";

			if (t->nruns > 1)
				snprintf(when, sizeof(when), "run %u of %u", t->drift_run + 1,
					 t->nruns);
			result_add_warning(r, "%s: throughput %s %.0f %% during %s (the median of "
					   "its timeline's last third against its first third): "
					   "it did not settle", t->name,
					   t->drift < 0 ? "fell" : "rose", 100 * fabs(t->drift), when);
		}
		/* rounds are expected to change until they settle */
		if (repeat_unreliable(t) && !t->steady_max_rounds)
			result_add_warning(r, "%s: runs spread widely (CV %.1f %% over %u runs): "
					   "the median is not reliable; see the runs in --json",
					   t->name, 100 * t->summary.iops.cv, t->nruns);
	}
	if (ti->loop_dio == 0 && in->moves_data)
		loop_page_cache(r);
	if (in->moves_data)
		tool_bound(r);
	if (r->ntests && !r->tests[0].dev_valid && in->moves_data)
		result_add_warning(r, "%s has no block device counters (%s): whether the I/O "
				   "reached a disk cannot be checked", ti->path,
				   ti->fs_type[0] ? ti->fs_type : "no device");
	if (r->ntests && in->score)
		xbench_score(r, in->score);
	return failed;
}
