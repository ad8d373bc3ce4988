/* session.c - a plan run on its stage: precondition, passes or rounds, cache drop, trim, interrupts. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "annotate.h"
#include "bounded.h"
#include "repeat.h"
#include "session.h"
#include "unwritten.h"
#include "workload.h"

/*
 * The first SIGINT asks the running test to stop and the run to report what
 * it measured; the second stops at once, still removing scratch files
 * (target_scratch_cleanup is async-signal-safe). SIGTERM and SIGHUP keep the
 * scratch module's handlers: clean up and die.
 */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
	if (interrupted) {
		target_scratch_cleanup();
		signal(sig, SIG_DFL);
		raise(sig);
		return;
	}
	interrupted = 1;
}

const volatile sig_atomic_t *session_catch_sigint(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	return &interrupted;
}

/* One session's state between its tests. */
struct session {
	const struct session_in *in;
	const struct session_hooks *h;
	struct session_end *end;
	unsigned pass;			/* 0-based */
	bool trim_noted;
	/* The last read test's check, for the next over the same region while
	 * no test has written since (a disk seeks 256 times per check) */
	bool checked_valid;
	struct read_extent checked_extent;
	uint64_t checked_seed;
	struct unwritten checked;
};

static bool stopped(const struct session *s)
{
	return s->in->stop && *s->in->stop;
}

static void note(const struct session *s, enum session_note_kind kind, const char *name,
		 int err, const struct test_result *tr)
{
	if (s->h->note)
		s->h->note(s->h->arg, &(struct session_note){ .kind = kind, .name = name,
							      .err = err, .tr = tr });
}

static void begin(const struct session *s, struct test_spec *t, const struct session_at *at)
{
	if (s->h->begin)
		s->h->begin(s->h->arg, at);
	if (s->h->progress) {
		t->progress = s->h->progress;
		t->progress_arg = s->h->progress_arg;
	}
	t->stop = s->in->stop;
	t->on_error_continue = s->in->on_error_continue;
	t->io_timeout_ns = s->in->io_timeout_ns ? s->in->io_timeout_ns : SESSION_IO_TIMEOUT_NS;
}

/* --precondition, before the first test: what it wrote goes into r, also
 * when a stop cut it short. */
static int precondition(struct session *s)
{
	const struct session_in *in = s->in;
	struct test_spec *t = in->pre;
	struct run_precondition *out = &in->r->precondition;
	struct test_result tr;
	int ret;

	s->end->in_precondition = true;
	t->direct = in->run_direct;	/* the stage may have found O_DIRECT refused */
	begin(s, t, &(struct session_at){ .precondition = true, .npass = 1,
					  .name = "precondition" });
	ret = runner_run(t, &in->stage->where, &tr, s->end->err, sizeof(s->end->err));
	t->progress = NULL;
	if (ret == -EINTR && stopped(s))
		return -EINTR;
	if (ret)
		return ret;
	*out = (struct run_precondition){
		.done = true, .complete = tr.passes_done, .bs = t->bs, .qd = t->qd,
		.passes = t->passes, .region = t->size, .bytes = tr.bytes,
		.time_ns = tr.runtime_ns, .dev_valid = tr.dev_valid,
		.dev_write_bytes = tr.dev_write_bytes,
	};
	note(s, SESSION_NOTE_PRECONDITION, "precondition", 0, &tr);
	s->end->err[0] = '\0';
	ret = tr.errors ? -EIO : stopped(s) ? -EINTR : 0;
	result_test_free(&tr);
	if (!ret)
		s->end->in_precondition = false;
	return ret;
}

/*
 * --settle: what hdparm does before it times (prepare_timing_buf): write
 * back everything dirty, system-wide, and leave the machine idle a while,
 * so that neither writeback nor the I/O just before runs into the window.
 * A stop ends the pause.
 */
static void settle(const struct session *s, uint64_t ns)
{
	struct timespec ts = { .tv_sec = (time_t)(ns / 1000000000u),
			       .tv_nsec = (long)(ns % 1000000000u) };

	sync();
	while (!stopped(s) && nanosleep(&ts, &ts) && errno == EINTR)
		;
}

/* --trim before a write test. A failure costs a note (once), not the
 * test; out->method is then NULL. */
static void trim_before(struct session *s, const struct test_spec *t, const char *name,
			struct target_trim *out)
{
	const struct session_in *in = s->in;
	bool dir = in->ti->kind == TARGET_DIR;
	int fd = dir ? in->stage->where.scratch_fd : target_open(&in->stage->where.data, O_WRONLY);
	int ret = fd < 0 ? fd : target_trim(in->ti->kind, fd, t->size, out);

	if (!dir && fd >= 0)
		close(fd);
	if (!ret)
		return;
	out->method = NULL;
	if (!s->trim_noted)
		note(s, SESSION_NOTE_TRIM, name, ret, NULL);
	s->trim_noted = true;
}

/* A call between tests, watched (target_bounded): t's --io-timeout, the
 * target's device's counters, the session's stop. */
static struct bounded between(const struct session *s, const struct test_spec *t)
{
	return (struct bounded){ .bound_ns = t->io_timeout_ns, .ti = s->in->ti,
				 .stop = s->in->stop };
}

/* The data the tests read: the scratch data file, or the target. */
static void data_path(const struct session *s, char *out, size_t len)
{
	const struct stage *st = s->in->stage;

	if (st->scratch[0])
		snprintf(out, len, "%.*s/%s", PATH_MAX - 16, st->scratch, st->where.data.name);
	else
		snprintf(out, len, "%s", s->in->ti->path);
}

static int drop_call(void *arg, const struct bounded_call *c, void *out)
{
	const struct session_in *in = arg;

	(void)c;
	(void)out;
	return target_drop_file_cache(&in->stage->where.data, in->ti->kind);
}

/*
 * Drop the target's cached pages before a buffered test, in a child: its
 * fdatasync (or BLKFLSBUF) writes back what is dirty, and on a device that
 * stopped answering waits for ever. One left (-ETIMEDOUT) ends the
 * session before t, end->err naming it; a coordinated run's ranks must
 * all reach t, so there it is a note. Returns 0, -ETIMEDOUT or -EINTR
 * (stopped while it hung); a drop that failed is a note.
 */
static int drop_pages(struct session *s, struct test_spec *t, const char *name)
{
	struct bounded b = between(s, t);
	char path[PATH_MAX];
	int ret = target_bounded(&b, drop_call, (void *)s->in, NULL, 0);

	if (ret == -EINTR && !b.returned && !s->in->coord)
		return ret;
	if (ret != -ETIMEDOUT || b.returned || s->in->coord) {
		if (ret)
			note(s, SESSION_NOTE_DROP, name, ret, NULL);
		return 0;
	}
	data_path(s, path, sizeof(path));
	snprintf(s->end->err, sizeof(s->end->err), "dropping the cached pages of %s before it "
		 "(%s): no progress for %.1f s (--io-timeout): the device stopped answering",
		 path, s->in->ti->kind == TARGET_BLOCK ? "BLKFLSBUF" :
		 "fdatasync, POSIX_FADV_DONTNEED", (double)t->io_timeout_ns / 1e9);
	return ret;
}

/* What comes before a test: its cache drop, trim and pause. 0, or what
 * drop_pages returned. */
static int before_test(struct session *s, struct test_spec *t, const char *name,
		       struct target_trim *trim)
{
	const struct session_in *in = s->in;
	int ret = 0;

	if (in->drop_all) {
		ret = target_drop_all_caches();
		if (ret)
			note(s, SESSION_NOTE_DROP, name, ret, NULL);
	} else if ((in->drop_always || !t->direct) && !(in->e->flags & ENGINE_F_NO_IO)) {
		ret = drop_pages(s, t, name);
		if (ret)
			return ret;
	}
	if (in->trim && wl_writes(t->wl))
		trim_before(s, t, name, trim);
	if (t->settle_ns)
		settle(s, t->settle_ns);
	return 0;
}

struct sample_args {
	const struct session_in *in;
	const struct test_spec *t;
	const struct read_extent *x;
};

static int sample_call(void *arg, const struct bounded_call *c, void *out)
{
	const struct sample_args *a = arg;
	const struct session_in *in = a->in;

	return unwritten_check(&in->stage->where.data, in->layout_fd, &in->r->read_layout, a->x,
			       in->ti->logical_block_size, a->t->seed, out, c->step, c->step_arg);
}

/*
 * After a read test's first run: did its reads go over unwritten space?
 * What could not be checked says why (the result keeps it). The sample is
 * read back in a child (target_bounded): on a device that stopped
 * answering right after the test, a read of it waits for ever. Returns
 * -ETIMEDOUT when that child was left (end->err says so; the session
 * ends once the test is kept), else 0.
 */
static int check_unwritten(struct session *s, const struct test_spec *t, struct test_result *tr)
{
	const struct session_in *in = s->in;
	struct unwritten *u = &tr->unwritten;
	const struct read_extent *x = &tr->read_extent;
	struct bounded b = between(s, t);
	int ret;

	if (wl_writes(t->wl))
		s->checked_valid = false;
	if (!wl_reads_data(t->wl))
		return 0;
	if (in->e->flags & ENGINE_F_NO_IO) {
		*u = (struct unwritten){ .applies = true };
		snprintf(u->why, sizeof(u->why), "the %s engine moves no data", in->e->name);
		return 0;
	}
	if (s->checked_valid && s->checked_seed == t->seed && x->parts == s->checked_extent.parts &&
	    x->stride == s->checked_extent.stride && x->span == s->checked_extent.span) {
		*u = s->checked;	/* the same blocks would be read again */
		return 0;
	}
	ret = target_bounded(&b, sample_call, &(struct sample_args){ .in = in, .t = t, .x = x },
			     u, sizeof(*u));
	if (!b.returned) {
		*u = (struct unwritten){ .applies = true, .region_bytes = read_extent_bytes(x) };
		snprintf(u->why, sizeof(u->why), "reading a sample back: %s at block %" PRIu64
			 " of %" PRIu64, ret == -ETIMEDOUT ? "no progress for --io-timeout" :
			 ret == -EINTR ? "interrupted" : "its process was killed", b.done,
			 b.total);
		s->checked_valid = false;
		if (ret != -ETIMEDOUT || in->coord)
			return 0;
		snprintf(s->end->err, sizeof(s->end->err), "reading a sample of its data back "
			 "after it (did it read unwritten space?): no progress for %.1f s "
			 "(--io-timeout): the device stopped answering",
			 (double)t->io_timeout_ns / 1e9);
		return ret;
	}
	s->checked_valid = true;
	s->checked_extent = *x;
	s->checked_seed = t->seed;
	s->checked = *u;
	return 0;
}

/* A finished run into r: the test's first, or one more of its runs. */
static int keep(struct session *s, unsigned i, struct test_result *tr)
{
	struct run_result *r = s->in->r;
	struct test_result acc;
	int ret = s->h->tested ? s->h->tested(s->h->arg, i, tr) : 0;

	if (!r || ret) {
		result_test_free(tr);
		return ret;
	}
	if (!s->pass) {
		memset(&acc, 0, sizeof(acc));
		ret = repeat_add(&acc, tr);
		if (!ret && result_add_test(r, &acc)) {
			result_test_free(&acc);
			ret = -ENOMEM;
		}
	} else {
		ret = repeat_add(&r->tests[i], tr);
	}
	if (ret) {
		result_test_free(tr);
		snprintf(s->end->err, sizeof(s->end->err), "out of memory");
	}
	return ret;
}

/* How long the target has to answer after a test's I/O errors. */
#define ANSWER_TIMEOUT_NS 5000000000ull

/* After a test kept with errors (the first: err at offset): does the
 * target still answer, and does the session end here? 0 goes on. */
static int after_errors(struct session *s, const struct test_spec *t, int err, uint64_t offset)
{
	const struct session_in *in = s->in;
	struct session_end *end = s->end;
	int ret;

	if (in->coord)
		return 0;
	ret = session_target_answers(&in->stage->where, t->direct, ANSWER_TIMEOUT_NS);
	if (ret) {
		end->gone = true;
		end->gone_err = ret;
	}
	if (!end->gone && in->on_error_continue)
		return 0;
	end->io_error = true;
	snprintf(end->err, sizeof(end->err), "%s at offset %" PRIu64,
		 err ? strerror(err) : "a short transfer", offset);
	return end->gone ? -ENXIO : -EIO;
}

/* A request of the test just kept never completed: the session ends, a
 * stop's -EINTR when the user asked for one, else -ETIMEDOUT with a test
 * that could not run to its end (end->err names the request). */
static int stuck(struct session *s)
{
	struct session_end *end = s->end;
	const struct result_io_error *q = &end->stuck_req;

	end->could_not_run = true;
	if (end->stuck_call.call[0])
		snprintf(end->err, sizeof(end->err), "a %s of %s (job %u) did not complete within "
			 "%.1f s (--io-timeout): the device hangs", end->stuck_call.call,
			 end->stuck_call.path, q->job, (double)end->io_timeout_ns / 1e9);
	else
		snprintf(end->err, sizeof(end->err), "a request at offset %" PRIu64 " (job %u) did "
			 "not complete within %.1f s (--io-timeout): the device hangs", q->offset,
			 q->job, (double)end->io_timeout_ns / 1e9);
	return stopped(s) ? -EINTR : -ETIMEDOUT;
}

/* One test of one pass: 0, -EINTR (stopped), -EIO or -ENXIO (after its
 * I/O errors: after_errors), or what keep() or the runner said. */
static int run_one(struct session *s, unsigned i)
{
	const struct session_in *in = s->in;
	struct session_end *end = s->end;
	struct test_spec *t = &in->plan->specs[i];
	struct target_trim trim = { 0 };
	struct test_result tr;
	uint64_t errors, offset;
	int ret, err, hung = 0;

	end->cur = i;
	plan_spec_name(t, in->run_direct, end->name, sizeof(end->name));
	begin(s, t, &(struct session_at){ .i = i, .pass = s->pass, .npass = end->npass,
					  .name = end->name });
	ret = before_test(s, t, end->name, &trim);
	if (ret == -EINTR) {
		end->cut = end->cut_in_setup = true;
		return ret;
	}
	if (ret) {	/* the device stopped answering before t: no test */
		end->could_not_run = true;
		return ret;
	}
	if (in->coord)
		in->coord->test_start(in->coord->arg);
	ret = runner_run(t, &in->stage->where, &tr, end->err, sizeof(end->err));
	if (in->coord)
		ret = in->coord->test_done(in->coord->arg, ret, &tr, end->err, sizeof(end->err));
	tr.trim = trim;
	tr.direct_refused = in->stage->direct_refused;
	t->progress = NULL;
	if (ret == -EINTR && stopped(s)) {
		end->cut = end->cut_in_setup = true;
		return -EINTR;
	}
	if (ret) {
		/* what was measured before stays, reported with the failure */
		end->could_not_run = true;
		return ret;
	}
	snprintf(tr.name, sizeof(tr.name), "%s", end->name);
	result_finish(&tr);
	if (!s->pass && in->check_unwritten && in->r)
		hung = check_unwritten(s, t, &tr);
	/* a later run cut short would only skew the whole runs' median */
	end->cut = stopped(s);
	if ((s->pass || !in->keep_cut) && end->cut) {
		result_test_free(&tr);
		return -EINTR;
	}
	end->cut_kept = end->cut;
	errors = tr.errors;
	err = tr.first_errno;
	offset = tr.first_error_offset;
	end->stuck = tr.stuck;
	end->stuck_req = tr.stuck_req;
	end->stuck_call = tr.stuck_call;
	end->io_timeout_ns = t->io_timeout_ns;
	ret = keep(s, i, &tr);
	if (!ret)
		end->done++;
	if (!ret && end->stuck)		/* the device hangs: no probe, no next test */
		return stuck(s);
	if (!ret && hung) {		/* it stopped answering after the test */
		end->hung_after = true;
		return hung;
	}
	/* kept nowhere (tune's trials): the caller judges the errors */
	if (!ret && errors && in->r)
		ret = after_errors(s, t, err, offset);
	return ret;
}

/* --steady-state: each test in rounds, back to back, until its rounds'
 * IOPS reach steady state or max_rounds have run (result_steady decides,
 * after each round from the fifth on). The rounds are the test's runs. */
static int rounds(struct session *s)
{
	const struct session_in *in = s->in;
	struct run_result *r = in->r;
	unsigned max = in->max_rounds ? in->max_rounds : SESSION_MAX_ROUNDS;
	int ret = 0;

	s->end->npass = max;
	for (unsigned i = 0; i < in->plan->n && !stopped(s) && !ret; i++) {
		if (in->round_ns)
			in->plan->specs[i].runtime_ns = in->round_ns;
		s->end->cur = i;
		s->end->done = 0;
		for (s->pass = 0; s->pass < max && !stopped(s) && !ret; s->pass++) {
			ret = run_one(s, i);
			if (ret || r->ntests <= i)
				break;
			r->tests[i].steady_max_rounds = max;
			result_steady(&r->tests[i]);
			if (r->tests[i].steady)
				break;
		}
	}
	return ret;
}

/* --repeat N runs the whole plan N times, pass after pass, so that slow
 * drift of a shared machine spreads over every test instead of hitting one
 * test's runs. */
static int passes(struct session *s)
{
	const struct session_in *in = s->in;
	int ret = 0;

	s->end->npass = in->repeat ? in->repeat : 1;
	for (s->pass = 0; s->pass < s->end->npass && !stopped(s) && !ret; s->pass++) {
		s->end->done = 0;
		for (unsigned i = 0; i < in->plan->n && !stopped(s) && !ret; i++)
			ret = run_one(s, i);
	}
	s->end->pass = s->pass;
	return ret;
}

bool session_reads_data(const struct plan *p)
{
	for (unsigned i = 0; i < p->n; i++)
		if (wl_reads_data(p->specs[i].wl))
			return true;
	return false;
}

int session_layout_open(const struct plan *p, const struct engine_ops *e,
			const struct target_info *ti, const struct stage *st,
			struct read_layout *out)
{
	int fd;

	if ((e->flags & ENGINE_F_NO_IO) || !session_reads_data(p))
		return -1;
	fd = unwritten_layout_open(ti, &st->where.data, out);
	if (ti->kind == TARGET_DIR)
		snprintf(out->file, sizeof(out->file), "%.*s/%s", PATH_MAX - 16, st->scratch,
			 st->where.data.name);
	out->laid_out = st->laid_out_ns > 0;
	out->laid_out_bytes = st->laid_out_bytes;
	out->laid_out_ns = st->laid_out_ns;
	return fd;
}

int session_run(const struct session_in *in, const struct session_hooks *h,
		struct session_end *end)
{
	static const struct session_hooks none;
	struct session s = { .in = in, .h = h ? h : &none, .end = end };
	int ret = 0;

	memset(end, 0, sizeof(*end));
	if (in->pre && in->r)
		ret = precondition(&s);
	if (!ret)
		ret = in->steady_state && in->r ? rounds(&s) : passes(&s);
	if (!ret && stopped(&s))
		ret = -EINTR;
	return ret;
}
