/* bounded.c - a call on the target in a child process, watched: one that stops making progress is left. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bounded.h"
#include "child.h"
#include "clock.h"

/* The device's counters are read this often (a sysfs read each). */
#define DEV_EVERY_NS 100000000ull

/*
 * What the child shares with its watcher, in a MAP_SHARED page made for
 * the call: the stop relayed to it, its steps, and once it returned, what
 * it returned and handed back (published by finished, release/acquire).
 */
struct bounded_share {
	volatile sig_atomic_t stop;
	uint64_t done, total;		/* its last step (atomic) */
	int ret;
	int finished;
	char out[];
};

static void child_step(void *arg, uint64_t done, uint64_t total)
{
	struct bounded_share *sh = arg;

	__atomic_store_n(&sh->total, total, __ATOMIC_RELAXED);
	__atomic_store_n(&sh->done, done, __ATOMIC_RELEASE);
}

/* The child: the CLI's signal handlers (scratch removal, ^C) are its
 * watcher's, and a call left in the kernel must hold no pipe of the
 * user's (a `diskbench ... 2>&1 | tee log` would wait for it). */
static _Noreturn void child(struct bounded_share *sh, bounded_fn fn, void *arg, pid_t parent)
{
	const struct bounded_call c = { .stop = &sh->stop, .step = child_step, .step_arg = sh };

	if (!child_detach(parent))
		_exit(0);
	sh->ret = fn(arg, &c, sh->out);
	__atomic_store_n(&sh->finished, 1, __ATOMIC_RELEASE);
	_exit(0);		/* no atexit handlers, no stdio flushed twice */
}

/* Did the device move any bytes since *last? (false when it has no
 * counters to read) */
static bool dev_moved(const struct target_info *ti, uint64_t *last)
{
	struct dev_counters c;

	target_dev_counters(ti, &c);
	if (!c.valid || c.read_bytes + c.write_bytes == *last)
		return false;
	*last = c.read_bytes + c.write_bytes;
	return true;
}

/* Wait for the child pid as long as it moves on; 0 once it ended (how:
 * sh->finished), or -ETIMEDOUT / -EINTR once it was killed and left. */
static int watch(struct bounded *b, struct bounded_share *sh, pid_t pid)
{
	const uint64_t bound = b->bound_ns ? b->bound_ns : BOUNDED_DEFAULT_NS, t0 = clock_ns();
	uint64_t now = t0, moved = t0, stop_at = 0, dev_next = 0, dev = 0, done = 0;
	struct timespec nap;
	pid_t got;

	if (b->ti)
		(void)dev_moved(b->ti, &dev);
	for (;;) {
		got = waitpid(pid, NULL, WNOHANG);
		if (got == pid || (got < 0 && errno != EINTR))
			return 0;	/* (ECHILD: reaped by someone else) */
		now = clock_ns();
		if (__atomic_load_n(&sh->done, __ATOMIC_ACQUIRE) != done) {
			done = __atomic_load_n(&sh->done, __ATOMIC_ACQUIRE);
			b->done = done;
			b->total = __atomic_load_n(&sh->total, __ATOMIC_RELAXED);
			moved = now;
			if (b->progress)
				b->progress(b->progress_arg, b->done, b->total);
		}
		if (!stop_at && b->stop && *b->stop) {
			sh->stop = 1;
			stop_at = now;
		}
		/* a stop asked for is not put off by the device's other work */
		if (b->ti && !stop_at && now >= dev_next) {
			dev_next = now + DEV_EVERY_NS;
			if (dev_moved(b->ti, &dev))
				moved = now;
		}
		if (stop_at ? now - stop_at >= bound : now - moved >= bound) {
			kill(pid, SIGKILL);
			(void)waitpid(pid, NULL, WNOHANG);
			return stop_at ? -EINTR : -ETIMEDOUT;
		}
		/* most calls end within milliseconds: look often at first */
		nap = (struct timespec){ .tv_nsec = now - t0 < 20000000u ? 1000000 : 5000000 };
		nanosleep(&nap, NULL);
	}
}

int target_bounded(struct bounded *b, bounded_fn fn, void *arg, void *out, size_t outlen)
{
	const size_t len = sizeof(struct bounded_share) + outlen;
	const struct bounded_call here = { .stop = b->stop, .step = b->progress,
					   .step_arg = b->progress_arg };
	struct bounded_share *sh;
	pid_t parent = getpid(), pid;
	int ret;

	b->done = b->total = 0;
	b->returned = false;
	sh = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	pid = sh == MAP_FAILED ? -1 : fork();
	if (pid < 0) {
		if (sh != MAP_FAILED)
			munmap(sh, len);
		b->returned = true;
		return fn(arg, &here, out);
	}
	if (!pid)
		child(sh, fn, arg, parent);
	ret = watch(b, sh, pid);
	if (!ret && !__atomic_load_n(&sh->finished, __ATOMIC_ACQUIRE))
		ret = -ECHILD;
	if (!ret || ret == -ECHILD) {
		b->done = __atomic_load_n(&sh->done, __ATOMIC_ACQUIRE);
		b->total = __atomic_load_n(&sh->total, __ATOMIC_RELAXED);
	}
	if (!ret) {
		b->returned = true;
		ret = sh->ret;
		if (outlen)
			memcpy(out, sh->out, outlen);
	}
	munmap(sh, len);
	return ret;
}
