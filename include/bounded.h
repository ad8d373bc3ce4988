/* bounded.h - a call on the target in a child process, watched: one that stops making progress is left. */
#ifndef DISKBENCH_BOUNDED_H
#define DISKBENCH_BOUNDED_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target.h"

/*
 * Why: on a device that stopped answering, a write, an fsync or a read
 * waits in the kernel for ever, where no signal reaches it (kill -9
 * included). What the run does to the target outside its tests (the
 * layout, a cache drop, a read back) is therefore done in a child
 * process that this one watches: one that makes no progress for a bound
 * is killed and left to the kernel (it ends once its call returns), and
 * the run goes on to say so. The tests' jobs and the scratch directory's
 * removal are watched the same way (jobs.c, scratch.c).
 */

/* The bound when none is given: --io-timeout's default (SESSION_IO_TIMEOUT_NS). */
#define BOUNDED_DEFAULT_NS 5000000000ull

/* What the call is given: its stop flag (the watcher's, relayed) and a
 * way to say how far it is, in its own units (bytes written, blocks
 * read): done growing is its progress. Both are ready to pass on to
 * target_layout and unwritten_check. */
struct bounded_call {
	const volatile sig_atomic_t *stop;
	void (*step)(void *arg, uint64_t done, uint64_t total);
	void *step_arg;
};

/* The call: 0 or -errno, what it hands back in out (outlen bytes). */
typedef int (*bounded_fn)(void *arg, const struct bounded_call *c, void *out);

struct bounded {
	uint64_t bound_ns;		/* no progress for this long: left;
					 * 0: BOUNDED_DEFAULT_NS */
	const struct target_info *ti;	/* its device's counters moving count as
					 * progress too (a long fsync); NULL: none */
	const volatile sig_atomic_t *stop;	/* relayed to the call; may be NULL */
	/* Optional: called here with the call's steps, as they come. */
	void (*progress)(void *arg, uint64_t done, uint64_t total);
	void *progress_arg;
	uint64_t done, total;		/* out: its last step, when it ended or was left */
	bool returned;			/* out: it returned (what it returned is
					 * target_bounded's return); else it was
					 * left, or killed by someone else */
};

/*
 * Run fn(arg, call, out) in a child process, and wait for it as long as it
 * makes progress: its steps, or (b->ti) its device's counters. One that
 * went b->bound_ns without any, or that has not returned b->bound_ns
 * after *b->stop was raised, is killed and left (b->done says where it
 * was). Its out is copied back when it returned. The child ignores
 * SIGINT (the stop is relayed), dies with this process, and holds no
 * standard descriptor (a sanitizer build keeps stderr). Where no child
 * can be made, fn runs here, unbounded. Returns what fn returned
 * (b->returned), or else -ETIMEDOUT (no progress: left), -EINTR (stopped,
 * and it did not end: left) or -ECHILD (it died before it returned:
 * killed by someone else).
 */
int target_bounded(struct bounded *b, bounded_fn fn, void *arg, void *out, size_t outlen);

#endif
