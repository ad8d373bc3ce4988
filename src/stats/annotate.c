/* annotate.c - the warnings and flags derived from a finished run, made once for every reporter. */
#include <inttypes.h>
#include <math.h>
#include <stdarg.h>
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

void result_test_flags(struct test_result *t)
{
	const struct workload *w = t->workload ? wl_find(t->workload) : NULL;

	t->unreliable = repeat_unreliable(t);
	t->cache_ok = w && w->cache_ok;
	t->per_char = w && (w->params & WL_P_CHAR);
	t->moves_files = w && (w->params & WL_P_FILES);
	t->hdparm_line = w ? w->report : WL_REPORT_NONE;
}

/*
 * One cause's warning over every test it concerns, said once: "NAME
 * (DETAIL): WHAT" for one test, "N tests: WHAT: NAME (DETAIL), NAME
 * (DETAIL)" for several, so that a cause takes one line however many tests
 * it hit. What a cause means at length is in diskbench(1), WARNINGS.
 */
struct warn_group {
	unsigned n;
	size_t used;
	char names[1024];
};

static void group_add(struct warn_group *g, const struct test_result *t, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void group_add(struct warn_group *g, const struct test_result *t, const char *fmt, ...)
{
	char detail[128] = "";
	va_list ap;

	if (fmt) {
		va_start(ap, fmt);
		vsnprintf(detail, sizeof(detail), fmt, ap);
		va_end(ap);
	}
	if (g->used < sizeof(g->names))
		g->used += (size_t)snprintf(g->names + g->used, sizeof(g->names) - g->used,
					    "%s%.*s%s%s%s", g->n ? ", " : "", (int)sizeof(t->name),
					    t->name, detail[0] ? " (" : "", detail,
					    detail[0] ? ")" : "");
	g->n++;
}

static void group_say(struct run_result *r, const struct warn_group *g, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void group_say(struct run_result *r, const struct warn_group *g, const char *fmt, ...)
{
	char what[768];
	va_list ap;

	if (!g->n)
		return;
	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	if (g->n == 1)
		result_add_warning(r, "%s: %s", g->names, what);
	else
		result_add_warning(r, "%u tests: %s: %s", g->n, what, g->names);
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

/* Read tests that read unwritten space (UNWRITTEN_FLAG or more of it, by
 * the allocation or the sample): flagged, and one warning naming them. */
static void unwritten_reads(struct run_result *r)
{
	struct warn_group g = { 0 };

	for (unsigned i = 0; i < r->ntests; i++) {
		struct test_result *t = &r->tests[i];
		struct unwritten *u = &t->unwritten;

		u->flagged = u->applies && (u->checked || u->layout_valid) &&
			     unwritten_worst(u) >= UNWRITTEN_FLAG;
		if (u->flagged)
			group_add(&g, t, "%.0f %%", 100 * unwritten_worst(u));
	}
	group_say(r, &g, "read unwritten space (holes, never-written or trimmed blocks read "
		  "back as zeros without touching the disk): not the disk's speed; write the "
		  "region first, or use --destructive, which lays it out before the read tests");
}

/* Tests whose busiest job kept its CPU near full (ANNOTATE_TOOL_BOUND_PCT):
 * one warning naming them, each with how busy. Not the tests that measure
 * that CPU (wl->cpu_bound: per-char I/O, metadata calls). */
static void tool_bound(struct run_result *r)
{
	struct warn_group g = { 0 };

	for (unsigned i = 0; i < r->ntests; i++) {
		struct test_result *t = &r->tests[i];
		const struct workload *w = t->workload ? wl_find(t->workload) : NULL;

		t->tool_bound = t->cpu_job_max_pct >= ANNOTATE_TOOL_BOUND_PCT &&	/* NaN: no */
				!(w && w->cpu_bound);
		if (t->tool_bound)
			group_add(&g, t, "%.0f %%", t->cpu_job_max_pct);
	}
	group_say(r, &g, "diskbench kept a CPU busy for at least %.0f %% of a job's window: "
		  "the tool and the CPU may bound %s, not the device (see the CPU and system "
		  "calls per op)", ANNOTATE_TOOL_BOUND_PCT, g.n == 1 ? "it" : "them");
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

/* Does the store under ti say it spins? A loop device's own flag is the
 * kernel's default or a copy taken at setup: its backing disk's speaks
 * (none: a file on tmpfs, a deleted one; then nobody says). */
static bool spins(const struct target_info *ti)
{
	return ti->loop_dio >= 0 ? ti->backing_rotational == 1 : ti->rotational == 1;
}

/* Random O_DIRECT reads of a rotational disk faster than a disk can seek:
 * something below it answered from a cache. */
static bool implausible(const struct test_result *t, const struct target_info *ti)
{
	return spins(ti) && t->random && !t->is_write && t->direct && t->ops &&
	       median_ns(t) < ROTATIONAL_MIN_RANDOM_READ_NS;
}

/* Jobs that stood still while the others went on (t->stalls): one warning
 * naming each, for how long, when and where, and how the window was
 * taken then. */
static void stall_warning(struct run_result *r, const struct test_result *t)
{
	char list[640] = "";
	size_t used = 0;

	for (unsigned k = 0; k < t->nstalls && used < sizeof(list); k++) {
		const struct result_stall *st = &t->stalls[k];
		char run[24] = "", where[64] = "", rank[24] = "";

		if (t->nranks > 1)
			snprintf(rank, sizeof(rank), "rank %u's ", st->rank);
		if (t->nruns > 1)
			snprintf(run, sizeof(run), " of run %u", st->run + 1);
		if (st->offset_valid)
			snprintf(where, sizeof(where), ", its last request at offset %" PRIu64,
				 st->offset);
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%sjob %u for %.1f s from %.1f s into the window%s%s",
					 k ? "; " : "", rank, st->job, (double)st->ns / 1e9,
					 (double)st->start_ns / 1e9, run, where);
	}
	result_add_warning(r, "%s: %s completed nothing while the other jobs went on (stopped, "
			   "or stuck in the kernel): %s%s; the window counts the time the jobs "
			   "ran (%.2f s of the %.2f s their windows spanned) and the IOPS are over "
			   "it; the latencies include the wait, and its timeline the stop",
			   t->name,
			   t->nstalls + t->stalls_missed == 1 ? "a job" : "jobs", list,
			   t->stalls_missed ? ", and more" : "",
			   (double)t->runtime_ns / 1e9, (double)t->window_span_ns / 1e9);
}

/* Requests older than --io-timeout (t->slow): one warning naming each job,
 * where its request was, from when and for how long. */
static void slow_warning(struct run_result *r, const struct test_result *t)
{
	char list[640] = "";
	size_t used = 0;

	for (unsigned k = 0; k < t->nslow && used < sizeof(list); k++) {
		const struct result_stall *st = &t->slow[k];
		char run[24] = "", where[48] = "";

		if (t->nruns > 1)
			snprintf(run, sizeof(run), " of run %u", st->run + 1);
		if (st->offset_valid)
			snprintf(where, sizeof(where), " at offset %" PRIu64, st->offset);
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%sjob %u%s, %.1f s from %.1f s into the window%s",
					 k ? "; " : "", st->job, where, (double)st->ns / 1e9,
					 (double)st->start_ns / 1e9, run);
	}
	result_add_warning(r, "%s: a request was in flight %.1f s or longer (--io-timeout): %s%s",
			   t->name, (double)t->io_timeout_ns / 1e9, list,
			   t->slow_missed ? ", and more" : "");
}

/* I/O errors (t->errors): one warning with the count, and the first few
 * named with their errno (or a short transfer's bytes), offset, job and
 * when. */
static void error_warning(struct run_result *r, const struct test_result *t)
{
	char list[640] = "";
	size_t used = 0;

	for (unsigned k = 0; k < t->nio_errors && k < 3 && used < sizeof(list); k++) {
		const struct result_io_error *e = &t->io_errors[k];
		char what[64], run[24] = "";

		if (e->err)
			snprintf(what, sizeof(what), "%s", strerror(e->err));
		else
			snprintf(what, sizeof(what), "short transfer (%" PRIu32 " of %" PRIu32
				 " bytes)", e->bytes, e->len);
		if (t->nruns > 1)
			snprintf(run, sizeof(run), " of run %u", e->run + 1);
		used += (size_t)snprintf(list + used, sizeof(list) - used,
					 "%s%s at offset %" PRIu64 " (job %u, %.2f s into the "
					 "window%s)", k ? "; " : "", what, e->offset, e->job,
					 (double)e->at_ns / 1e9, run);
	}
	if (!t->nio_errors)	/* a saved result of before: the first alone */
		snprintf(list, sizeof(list), "%s at offset %" PRIu64, t->first_errno ?
			 strerror(t->first_errno) : "short transfer", t->first_error_offset);
	result_add_warning(r, "%s: %" PRIu64 " I/O error%s, first: %s%s", t->name, t->errors,
			   t->errors == 1 ? "" : "s", list, t->errors > 3 && t->nio_errors > 3 ?
			   "; and more (the first 8 in --json)" : "");
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

/* A test whose rounds stopped before steady state and before its last
 * round (Ctrl-C, or a round that failed): what was judged, and what its
 * figures are. */
static void steady_cut(struct run_result *r, const struct test_result *t, bool interrupted)
{
	const char *how = interrupted ? "interrupted" : "stopped";
	struct steady_params p;

	steady_defaults(&p);
	if (!t->steady_window.n)
		result_add_warning(r, "%s: %s after %u round%s (steady state not judged); a "
				   "judgement takes %u rounds, and its figures are %s", t->name, how,
				   t->nruns, t->nruns == 1 ? "" : "s", p.window,
				   t->nruns == 1 ? "that round's" : "the median of its rounds");
	else
		result_add_warning(r, "%s: %s after %u rounds, not steady yet (SNIA PTS: 5 "
				   "rounds within 20 %% of their average, slope within 10 %%); its "
				   "figures are the last 5 rounds' average", t->name, how, t->nruns);
}

/* Faster than the disk's link can carry (a USB 2 stick at 500 MB/s): not
 * the disk. Reads the page cache answered are flagged as cached already. */
static bool beyond_transport(const struct test_result *t, const struct target_info *ti)
{
	return ti->transport_bps && !t->cached &&
	       t->bytes_per_sec > 1.05 * (double)ti->transport_bps;
}

/* A plain block read or write test (seq-*, rand-*), with O_DIRECT: what
 * a write-back cache can make the write faster than the read of. */
static bool plain_block(const struct test_result *t)
{
	const struct workload *w = t->workload ? wl_find(t->workload) : NULL;

	return w && w->kind == WL_BLOCK && !w->write_pct && !w->fixed_size && !w->passes &&
	       t->direct && t->ops && t->runtime_ns;
}

/*
 * Writes faster than reads of the same pattern (seq or random, same bs,
 * qd and jobs) by ANNOTATE_WRITE_FASTER, on a device that reports a
 * write-back cache: the cache acknowledged the writes before the medium
 * had them. One warning naming each such write test and its read.
 */
static void write_back(struct run_result *r)
{
	struct warn_group g = { 0 };

	if (r->target.write_cache != 1)
		return;
	for (unsigned i = 0; i < r->ntests; i++) {
		const struct test_result *wt = &r->tests[i];

		if (!wt->is_write || !plain_block(wt))
			continue;
		for (unsigned k = 0; k < r->ntests; k++) {
			const struct test_result *rt = &r->tests[k];

			if (rt->is_write || !plain_block(rt) || rt->random != wt->random ||
			    rt->bs != wt->bs || rt->qd != wt->qd || rt->jobs != wt->jobs ||
			    !(wt->bytes_per_sec > ANNOTATE_WRITE_FASTER * rt->bytes_per_sec))
				continue;
			group_add(&g, wt, "%.0f MB/s, %.1fx %.*s's %.0f MB/s", wt->bytes_per_sec / 1e6,
				  wt->bytes_per_sec / rt->bytes_per_sec, (int)sizeof(rt->name),
				  rt->name, rt->bytes_per_sec / 1e6);
			break;
		}
	}
	group_say(r, &g, "writes faster than reads of the same pattern, and the device reports "
		  "a write-back cache (queue/write_cache): it acknowledged writes before the "
		  "medium had them; a working set larger than the cache, or a longer run, "
		  "measures the medium");
}

/* The causes said over many tests, one warning each (struct warn_group). */
struct causes {
	struct warn_group steady, cached, zeros, link, rotational, drift, spread;
};

/* Each cause's one warning, in the order a reader should weigh them. */
static void say_causes(struct run_result *r, const struct causes *c)
{
	const struct target_info *ti = &r->target;

	group_say(r, &c->cached, "reads did not reach the device (page cache?)");
	group_say(r, &c->link, "implausible: more than the link carries (%s: at most %.0f MB/s); "
		  "a cache above the link answered, or the link is not what sysfs says",
		  ti->transport, (double)ti->transport_bps / 1e6);
	if (ti->loop_dio >= 0)
		group_say(r, &c->rotational, "implausible: median random reads faster than a seek, "
			  "and %s, under this loop device's backing file, says it spins; a cache "
			  "answered (the page cache of a virtual disk's host?)", ti->backing_disk);
	else
		group_say(r, &c->rotational, "implausible for a rotational disk: median random "
			  "reads faster than a seek and half a turn; a cache below answered, or "
			  "the disk does not spin, whatever queue/rotational says");
	group_say(r, &c->zeros, "wrote zeros (--data zero) to a file system that compresses "
		  "them (%.*s): the rates are the compressor's, not the disk's",
		  (int)sizeof(ti->compression), ti->compression);
	group_say(r, &c->steady, "never reached steady state (SNIA PTS: 5 rounds within 20 %% of "
		  "their average, slope within 10 %%); the figures are the last 5 rounds' average");
	group_say(r, &c->drift, "throughput moved more than %.0f %% during the window (its "
		  "timeline's last third against its first): it did not settle",
		  100 * TIMELINE_DRIFT_LIMIT);
	group_say(r, &c->spread, "runs spread widely: the median is not reliable; see the runs "
		  "in --json");
}

bool result_annotate(struct run_result *r, const struct annotate_in *in)
{
	const struct target_info *ti = &r->target;
	struct causes c = { 0 };
	bool failed = false;

	for (unsigned i = 0; i < r->ntests; i++) {
		struct test_result *t = &r->tests[i];

		repeat_finish(t);
		result_drift(t);
		result_steady(t);
		result_cliff(t);
		result_test_flags(t);
		if (t->steady_max_rounds && !t->steady && t->nruns >= t->steady_max_rounds)
			group_add(&c.steady, t, "%u rounds", t->nruns);
		else if (t->steady_max_rounds && !t->steady)
			steady_cut(r, t, in->interrupted);
		/* a stall is its own: its job, when and where */
		if (t->nstalls)
			stall_warning(r, t);
		if (t->nslow)
			slow_warning(r, t);
		/* each error is its own: its errno and offset */
		if (t->errors) {
			failed = true;
			error_warning(r, t);
		}
		if (t->verify.bad) {
			char first[160];

			failed = true;
			verify_first_bad(&t->verify, first, sizeof(first));
			result_add_warning(r, "%s: %" PRIu64 " of %" PRIu64 " blocks read back "
					   "did not match what was written, the first %s", t->name,
					   t->verify.bad, t->verify.blocks, first);
		}
		/* hdparm -T reads the cache: that is its figure */
		if (t->cached && !t->cache_ok)
			group_add(&c.cached, t, NULL);
		if (t->zero_data && ti->compression[0])
			group_add(&c.zeros, t, NULL);
		t->implausible = false;
		if (in->moves_data && beyond_transport(t, ti)) {
			t->implausible = true;
			group_add(&c.link, t, "%.0f MB/s", t->bytes_per_sec / 1e6);
		}
		if (in->moves_data && implausible(t, ti)) {
			t->implausible = true;
			group_add(&c.rotational, t, "median %.0f us", median_ns(t) / 1e3);
		}
		/* a write cliff is what such a test looks for, and a stall
		 * empties its span of the timeline: each said on its own */
		if (t->drifted && !(t->cliff_valid && t->cliff.found) && !t->nstalls) {
			if (t->nruns > 1)
				group_add(&c.drift, t, "%s %.0f %% in run %u of %u",
					  t->drift < 0 ? "fell" : "rose", 100 * fabs(t->drift),
					  t->drift_run + 1, t->nruns);
			else
				group_add(&c.drift, t, "%s %.0f %%", t->drift < 0 ? "fell" : "rose",
					  100 * fabs(t->drift));
		}
		/* rounds are expected to change until they settle */
		if (t->unreliable && !t->steady_max_rounds)
			group_add(&c.spread, t, "CV %.1f %% over %u runs", 100 * t->summary.iops.cv,
				  t->nruns);
	}
	say_causes(r, &c);
	if (ti->loop_dio == 0 && in->moves_data)
		loop_page_cache(r);
	if (in->moves_data) {
		tool_bound(r);
		write_back(r);
	}
	if (ti->io_limit[0] && in->moves_data)
		result_add_warning(r, "a cgroup limits this process's I/O on the target (%.*s): "
				   "a test that reached the limit measured it, not the device",
				   (int)sizeof(ti->io_limit), ti->io_limit);
	unwritten_reads(r);
	if (r->ntests && !r->tests[0].dev_valid && in->moves_data)
		result_add_warning(r, "%s has no block device counters (%s): whether the I/O "
				   "reached a disk cannot be checked", ti->path,
				   ti->fs_type[0] ? ti->fs_type : "no device");
	if (r->ntests && in->score)
		xbench_score(r, in->score);
	return failed;
}
