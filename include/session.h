/* session.h - a plan run on its stage: precondition, passes or rounds, cache drop, trim, interrupts. */
#ifndef DISKBENCH_SESSION_H
#define DISKBENCH_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "plan.h"
#include "result.h"
#include "runner.h"
#include "stage.h"
#include "target.h"

/* --steady-state's round limit when --max-rounds is not given (SNIA PTS). */
#define SESSION_MAX_ROUNDS 25

/* The bound on a request's age when --io-timeout is not given
 * (test_spec.io_timeout_ns): a few seconds, as a disk's own command
 * timeouts are tens of them and a benchmark's request a millisecond. */
#define SESSION_IO_TIMEOUT_NS 5000000000ull

/*
 * What a coordinated run (diskbench-mpi, src/mpi/) adds to a run: the same
 * stages, with a say at the points where the ranks must agree. Every rank
 * runs the same command line; each hook is collective (every rank reaches
 * it, in the same order, or none does). Statuses are a step's (status.h):
 * EXIT_OK, STEP_DONE (--help) or an exit status.
 */
struct session_point {
	const char *given;		/* TARGET as typed */
	const struct settings *s;	/* the run's settings */
	const struct target_info *ti;	/* this rank's target */
	struct plan *plan;		/* its plan: the hook may re-seed the specs */
	uint64_t *seed;			/* the layout's seed: likewise */
	struct run_result *r;		/* the result the root reports */
};

struct session_coord {
	void *arg;
	bool root;	/* this rank reports; the others print errors only */
	const char *usage;	/* --help's text before the options */
	/* this rank's TARGET from the one typed (placeholders): 0, or the
	 * exit status after saying why */
	int (*target)(void *arg, const char *given, char *out, size_t len);
	/* after the plan, before anything is written: this rank's status
	 * in, the run's out */
	int (*prepare)(void *arg, int status, const struct session_point *pt);
	/* after the stage (scratch, layout): this rank's status in, the run's out */
	int (*agree)(void *arg, int status);
	/* session_run: right before each runner_run, wait for every rank */
	void (*test_start)(void *arg);
	/* session_run: right after each runner_run, its status (0 or -errno)
	 * in, the run's out (with err filled when another rank failed, and tr
	 * then freed); on the root a test that ran becomes the merged test */
	int (*test_done)(void *arg, int ret, struct test_result *tr, char *err, size_t errlen);
	/* after the last test: the root's r takes what the others warned of */
	void (*finish)(void *arg, struct run_result *r);
};

/* How a session is run: the run's settings that shape it. */
struct session_in {
	struct plan *plan;		/* its specs get the stop flag, the progress
					 * callback and, in rounds, round_ns */
	struct stage *stage;		/* set up by run_stage */
	const struct engine_ops *e;
	const struct target_info *ti;
	struct run_result *r;		/* the tests go in, in plan order, and the
					 * precondition; NULL: kept nowhere (each is
					 * given to hooks.tested, then freed) */
	bool run_direct;		/* the run's O_DIRECT setting (test names) */
	unsigned repeat;		/* passes over the plan, at least 1 */
	bool steady_state;		/* each test in rounds until steady instead */
	unsigned max_rounds;		/* 0: SESSION_MAX_ROUNDS */
	uint64_t round_ns;		/* a round's runtime; 0: the test's own */
	struct test_spec *pre;		/* --precondition's test, run first; NULL */
	bool trim;			/* discard before each write test (--trim) */
	bool drop_all;			/* drop every cache of the system before each
					 * test (--drop-caches), not the file's pages */
	bool drop_always;		/* drop the file's pages before each test,
					 * O_DIRECT or not (tune: every trial cold);
					 * else only before a buffered one */
	bool keep_cut;			/* keep a first run cut short by *stop */
	bool check_unwritten;		/* after a read test's first run: did it read
					 * unwritten space (tr->unwritten) */
	int layout_fd;			/* for that: unwritten_layout_open's, or -1 */
	const volatile sig_atomic_t *stop;	/* a signal handler raises it */
	bool on_error_continue;		/* --on-error continue (test_spec's): a test's
					 * I/O errors do not end the session */
	uint64_t io_timeout_ns;		/* test_spec's; 0: SESSION_IO_TIMEOUT_NS */
	const struct session_coord *coord;	/* NULL: a run alone */
};

/* Where the session is, for a progress line. */
struct session_at {
	unsigned i;			/* the test, 0-based, of plan->n */
	unsigned pass, npass;		/* 0-based pass (round) of npass */
	bool precondition;		/* the precondition (i and pass are 0) */
	const char *name;		/* the test's display name */
};

/* What the session met on the way that is no failure; the caller words it. */
enum session_note_kind {
	SESSION_NOTE_DROP,		/* the cache could not be dropped: err */
	SESSION_NOTE_TRIM,		/* nothing was trimmed before name: err (once) */
	SESSION_NOTE_PRECONDITION,	/* the precondition ran: r->precondition,
					 * tr its test's result */
};

struct session_note {
	enum session_note_kind kind;
	const char *name;
	int err;			/* -errno */
	const struct test_result *tr;
};

/*
 * What the caller adds; every hook may be NULL, and every one is called
 * with arg.
 *
 * begin: before each test and the precondition. progress: a test_spec
 * progress callback (its arg progress_arg). note: see session_note.
 * tested: each run that is kept, finished (result_finish), before it goes
 * into r; 0 goes on, anything else ends the session, which returns it.
 */
struct session_hooks {
	void *arg;
	void (*begin)(void *arg, const struct session_at *at);
	void (*progress)(void *arg, const struct runner_progress *p);
	void *progress_arg;
	void (*note)(void *arg, const struct session_note *n);
	int (*tested)(void *arg, unsigned i, const struct test_result *tr);
};

/* Where the session ended, for the caller's words. */
struct session_end {
	bool in_precondition;		/* in the precondition: no test ran */
	bool could_not_run;		/* a test could not run (name, err) */
	unsigned pass;			/* --repeat: the pass it ended in, 1-based */
	unsigned npass;			/* passes (rounds) planned */
	unsigned done;			/* tests done in that pass, all the ones
					 * before in --steady-state's */
	unsigned cur;			/* the test it ended in */
	bool cut;			/* *stop ended the last test before its end */
	bool cut_kept;			/* its run, cut short, was kept */
	bool cut_in_setup;		/* *stop ended the last test while it set up,
					 * before it measured anything */
	bool io_error;			/* the last test met an I/O error and the
					 * session ended there (--on-error stop; err:
					 * the first one); it is kept in r */
	bool gone;			/* after a test's I/O errors the target no
					 * longer answered a read of its first block
					 * (session_target_answers: gone_err) */
	int gone_err;			/* -errno */
	bool stuck;			/* a request of the last test never completed
					 * (test_result.stuck): the session ended
					 * there, the test kept; stuck_req is it,
					 * and a file test's call stuck_call */
	struct result_io_error stuck_req;
	struct result_stuck_call stuck_call;
	bool hung_after;		/* the device stopped answering right after the
					 * last test (the read of its sample back was
					 * left, err says): it is kept, and the
					 * session ended there */
	uint64_t io_timeout_ns;		/* the bound it was held to */
	char name[64];			/* the test it ended in */
	char err[512];			/* why it ended, when it failed */
};

/*
 * Run in->pre (if any), then in->plan on in->stage: in->repeat passes over
 * the plan, each test once per pass (pass 1 adds the tests to r in plan
 * order, each later pass a run to each), or with in->steady_state each
 * test in rounds back to back until result_steady says steady or
 * max_rounds have run. Before each test: the cache drop, --trim before a
 * write test, a test's settle_ns (sync and idle).
 *
 * A stop (*in->stop) ends the test running (its run is kept when it is the
 * test's first and in->keep_cut: what was measured is reported; a later
 * one would only skew the median and is dropped; every whole run is kept)
 * and the session. A test that met I/O errors is kept; then the target is
 * asked for its first block (session_target_answers), and the session ends
 * with -EIO (end->io_error, end->err naming the first error) unless
 * in->on_error_continue, or with -ENXIO when the target no longer answers
 * (end->gone, either way). A test whose request never completed
 * (test_result.stuck) is kept and the session ends with -ETIMEDOUT
 * (end->stuck and could_not_run, err naming it; -EINTR when stopped),
 * whatever on_error_continue says. The cache drop before a test and the
 * read back of a read test's sample after it are done by child processes,
 * watched (target_bounded): one left for --io-timeout ends the session
 * with -ETIMEDOUT, err naming it, before that test (could_not_run) or
 * after it, the test kept (hung_after); a coordinated run goes on (a
 * note, the test's unwritten.why). Results kept nowhere (in->r NULL:
 * tune's trials) leave I/O errors to hooks->tested. A coordinated run goes on (its ranks must reach
 * every test together). Returns 0, -EINTR (stopped: end says where),
 * -EIO or -ENXIO as said, another -errno (end->err says why: a test could
 * not run, end->could_not_run and the tests before it kept; the
 * precondition found I/O errors, err empty; out of memory) or what
 * hooks->tested returned. Never prints.
 */
int session_run(const struct session_in *in, const struct session_hooks *h,
		struct session_end *end);

/* Does where still answer: a read of its first 4 KiB (O_DIRECT when
 * direct), in a child process given timeout_ns (a read that hangs is left
 * to it, killed)? 0, -ETIMEDOUT, or the read's or open's -errno. For a
 * target whose data file is not there (a directory's file tests), 0. */
int session_target_answers(const struct run_target *where, bool direct, uint64_t timeout_ns);

/* Take SIGINT for a session: the first raises the flag returned (for
 * session_in.stop and stage_in.stop: the running test stops, and what was
 * measured is reported); the second removes the scratch files
 * (target_scratch_cleanup) and dies of it. Install it before the stage:
 * target_scratch_create leaves a handled signal to its handler. */
const volatile sig_atomic_t *session_catch_sigint(void);

/* Does a test of p read the data (the unwritten check's tests)? */
bool session_reads_data(const struct plan *p);

/* Where p's read tests' allocation is read from (unwritten.h), once the
 * stage is set: into out, and the descriptor for session_in.layout_fd
 * (-1: none; an engine that moves no data, no test that reads). */
int session_layout_open(const struct plan *p, const struct engine_ops *e,
			const struct target_info *ti, const struct stage *st,
			struct read_layout *out);

/*
 * Before a session (session_check.c), each where the run asks it: can it
 * do what was asked on this target? 0, or -errno with a one-line reason in
 * err: -EINVAL (a usage error), -EPERM or -ENOSPC (refused).
 *
 * session_check_trim: --trim on ti (a device that may be written and takes
 * discards, a file system with FITRIM). session_check_verify: --verify
 * needs a test whose blocks it can check (-EPERM when those were left out
 * because ti may not be written); own names the writers doing their own
 * I/O that it leaves unchecked ("" when none). session_check_hipri:
 * --hipri needs a polling engine, O_DIRECT and poll queues.
 * session_check_budget: memory, descriptors, and the file system's room
 * for a working set of size within max_fill percent (-ENOSPC).
 */
int session_check_trim(const struct target_info *ti, const struct safety_verdict *writes,
		       char *err, size_t errlen);
int session_check_verify(const struct plan *p, const struct target_info *ti,
			 const struct safety_verdict *writes, char *own, size_t ownlen,
			 char *err, size_t errlen);
int session_check_hipri(const struct plan *p, const struct engine_ops *e,
			const struct target_info *ti, char *err, size_t errlen);
int session_check_budget(const struct plan *p, const struct engine_ops *e,
			 const struct target_info *ti, uint64_t size, unsigned max_fill,
			 char *err, size_t errlen);

#endif
