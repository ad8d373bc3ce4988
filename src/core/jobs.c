/* jobs.c - a test's jobs: the start gate, threads or processes, their shared arena, the watch. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "child.h"
#include "clock.h"
#include "hist.h"
#include "jobs.h"
#include "verify.h"
#include "worker.h"

void gate_init(struct gate *g, bool pshared)
{
	const int scope = pshared ? PTHREAD_PROCESS_SHARED : PTHREAD_PROCESS_PRIVATE;
	pthread_mutexattr_t ma;
	pthread_condattr_t ca;

	pthread_mutexattr_init(&ma);
	pthread_mutexattr_setpshared(&ma, scope);
	pthread_mutex_init(&g->lock, &ma);
	pthread_mutexattr_destroy(&ma);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_condattr_setpshared(&ca, scope);
	pthread_cond_init(&g->cond, &ca);
	pthread_condattr_destroy(&ca);
	g->ready = 0;
	g->verdict = 0;
}

void gate_destroy(struct gate *g)
{
	pthread_cond_destroy(&g->cond);
	pthread_mutex_destroy(&g->lock);
}

int gate_arrive(struct gate *g)
{
	int v;

	pthread_mutex_lock(&g->lock);
	g->ready++;
	pthread_cond_broadcast(&g->cond);
	while (!g->verdict)
		pthread_cond_wait(&g->cond, &g->lock);
	v = g->verdict;
	pthread_mutex_unlock(&g->lock);
	return v;
}

bool gate_wait_ready(struct gate *g, unsigned n, uint64_t timeout_ns)
{
	uint64_t t = clock_ns() + timeout_ns;
	struct timespec ts = { .tv_sec = (time_t)(t / 1000000000u),
			       .tv_nsec = (long)(t % 1000000000u) };
	bool all;

	pthread_mutex_lock(&g->lock);
	while (g->ready < n && pthread_cond_timedwait(&g->cond, &g->lock, &ts) == 0)
		;
	all = g->ready >= n;
	pthread_mutex_unlock(&g->lock);
	return all;
}

void gate_open(struct gate *g, int verdict)
{
	pthread_mutex_lock(&g->lock);
	g->verdict = verdict;
	pthread_cond_broadcast(&g->cond);
	pthread_mutex_unlock(&g->lock);
}

/*
 * A job as a process (spec->procs), as fio's jobs are, in a session of its
 * own. With the scheduler's autogroups (kernel.sched_autogroup_enabled, on
 * in most distributions' kernels) a session is a group with one share of
 * the CPU: N jobs as threads of one process split one group's share over
 * their CPUs, and each weighs 1/N against the kernel's own workers on its
 * CPU (a loop device's, dm-crypt's), which it waits for on every request.
 * A session each gives every job the share one job alone has. Measured
 * (the shm loop device, 2 sync QD1 jobs pinned, alternating rounds), with
 * a bare pread loop outside the tree: a session per job process got 1.07x
 * the IOPS of the same processes in one session, and processes without
 * sessions what threads got (1.01x): the session is what counts, not the
 * address space. In the tree, bench/vs-fio.sh's job-model table measures
 * diskbench's processes against its --thread (1.04x pinned, 9 rounds;
 * fio's own: 1.10x).
 * Out of its terminal's session, the job gets none of its signals: the
 * runner's thread relays a stop (w->stop), and the job dies with it.
 *
 * A job never prints (what it found goes back in w), so its standard
 * descriptors go to /dev/null: one abandoned in the kernel (a device that
 * stopped answering) outlives diskbench, and a pipe it still held (a
 * `diskbench ... 2>&1 | tee run.log`) would keep the pipeline waiting for
 * it after diskbench has ended. A build with a sanitizer keeps stderr, for
 * its report.
 */
static void job_process(struct worker *w, pid_t parent)
{
	/* The CLI's handlers clean up the run's scratch: not a job's to do
	 * (and a SIGINT before the setsid is the runner's to relay) */
	(void)setsid();
	if (!child_detach(parent))
		_exit(0);
	worker_main(w);
	_exit(0);		/* no atexit handlers, no stdio flushed twice */
}

bool jobs_watch(const struct test_spec *spec, struct worker *ws, unsigned n,
		struct run_shared *rs)
{
	const bool stop = spec->stop && *spec->stop;
	pid_t got;
	int st;

	if (!rs->procs)
		return stop;
	if (stop)
		rs->stop = 1;
	for (unsigned i = 0; i < n; i++) {
		struct worker *w = &ws[i];

		if (!w->pid || w->abandoned)
			continue;
		got = waitpid(w->pid, &st, WNOHANG);
		if (!got || (got < 0 && errno != ECHILD))
			continue;
		/* ECHILD: reaped by someone else (SIGCHLD ignored), how unknown */
		w->pid = 0;
		if (w->torn_down)
			continue;
		w->err = -ECHILD;
		if (got < 0)
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "job %u's process ended before its test did", w->id);
		else
			snprintf(w->errmsg, sizeof(w->errmsg),
				 "job %u's process ended before its test did (%s %d)", w->id,
				 WIFSIGNALED(st) ? "signal" : "exit status",
				 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		if (!w->t_end)
			__atomic_store_n(&w->t_end, clock_ns(), __ATOMIC_RELEASE);
		__atomic_add_fetch(&rs->finished, 1, __ATOMIC_RELEASE);
		rs->stop = 1;	/* the test has failed: the others stop too */
	}
	return stop;
}

void jobs_hang_init(struct jobs_hang *h, const struct test_spec *spec,
		    const struct target_info *ti)
{
	struct dev_counters c = { 0 };

	*h = (struct jobs_hang){ .bound_ns = spec->io_timeout_ns, .from = UINT64_MAX,
				 .files = spec->wl->kind == WL_OPS };
	if (h->files && ti)
		target_dev_counters(ti, &c);
	h->ti = c.valid ? ti : NULL;
}

void jobs_hang_from(struct jobs_hang *h, uint64_t t)
{
	h->from = t;
}

/* A mix of everything the jobs publish that moves while they work: any
 * change changes it (a sum could cancel out). */
static uint64_t jobs_sig(const struct worker *ws, unsigned n)
{
	uint64_t sig = 0;

	for (unsigned i = 0; i < n; i++) {
		const struct worker *w = &ws[i];
		const uint64_t v[] = {
			__atomic_load_n(&w->ops, __ATOMIC_RELAXED),
			__atomic_load_n(&w->prog.done, __ATOMIC_RELAXED),
			__atomic_load_n(&w->prog.todo, __ATOMIC_RELAXED),
			__atomic_load_n(&w->op_at, __ATOMIC_RELAXED),
			__atomic_load_n(&w->t_end, __ATOMIC_ACQUIRE),
			__atomic_load_n(&w->torn_down, __ATOMIC_RELAXED),
			__atomic_load_n(&w->ready, __ATOMIC_RELAXED),
		};

		for (size_t k = 0; k < sizeof(v) / sizeof(v[0]); k++)
			sig = (sig ^ v[k]) * 0x100000001b3ull;
	}
	return sig;
}

bool jobs_hung(struct jobs_hang *h, const struct test_spec *spec, const struct worker *ws,
	       unsigned n)
{
	const uint64_t now = clock_ns();
	struct dev_counters c;
	uint64_t sig;

	if (!h->bound_ns || h->from == UINT64_MAX)
		return false;
	if (!h->files)
		return now >= h->from + h->bound_ns;
	sig = jobs_sig(ws, n);
	if (sig != h->sig || !h->moved) {
		h->sig = sig;
		h->moved = now;
	}
	/* a stop asked for is not put off by the device's other work */
	if (h->ti && now >= h->dev_next && !(spec->stop && *spec->stop)) {
		h->dev_next = now + 100000000u;
		target_dev_counters(h->ti, &c);
		if (c.valid && c.read_bytes + c.write_bytes != h->dev) {
			h->dev = c.read_bytes + c.write_bytes;
			h->moved = now;
		}
	}
	return now >= h->from + h->bound_ns && now >= h->moved + h->bound_ns;
}

#define ARENA_ALIGN(x) (((x) + 63) & ~(size_t)63)

/* Laid out as run_shared, the n workers, a histogram each and
 * (spec->verify) a map of blocks written each. */
void *jobs_arena(const struct test_spec *s, unsigned n, struct run_shared **rs,
		 struct worker **ws, size_t *len)
{
	size_t at = ARENA_ALIGN(sizeof(**rs)), hists, maps, words[n];
	uint64_t base, slice, seed;
	struct wl_offsets g;
	char *p;

	at += ARENA_ALIGN(n * sizeof(**ws));
	hists = at;
	at += n * ARENA_ALIGN(sizeof(struct hist));
	maps = at;
	for (unsigned i = 0; i < n; i++) {
		/* the blocks worker_setup's offsets will have: the same call */
		worker_region(s, i, &base, &slice, &seed);
		words[i] = s->verify && !wl_offsets_init(&g, s->wl->pattern, base, slice, s->bs, seed) ?
			   verify_map_words(g.nblocks) : 0;
		at += ARENA_ALIGN(words[i] * sizeof(uint64_t));
	}
	p = mmap(NULL, at, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return NULL;
	*len = at;
	*rs = (struct run_shared *)p;
	*ws = (struct worker *)(p + ARENA_ALIGN(sizeof(**rs)));
	for (unsigned i = 0; i < n; i++) {
		(*ws)[i].lat = (struct hist *)(p + hists + i * ARENA_ALIGN(sizeof(struct hist)));
		if (words[i])
			(*ws)[i].written = (uint64_t *)(p + maps);
		maps += ARENA_ALIGN(words[i] * sizeof(uint64_t));
	}
	return p;
}

int jobs_start(struct worker *w, const struct run_shared *rs)
{
	pid_t parent = getpid(), pid;

	if (!rs->procs)
		return -pthread_create(&w->tid, NULL, worker_main, w);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (!pid)
		job_process(w, parent);
	w->pid = pid;
	return 0;
}

void jobs_abandon(struct worker *w, const struct run_shared *rs)
{
	static unsigned finished_sink;
	static int halt_sink;

	w->abandoned = true;
	if (rs->procs) {
		if (w->pid)
			kill(w->pid, SIGKILL);
		return;
	}
	/* a thread cannot be killed: what it writes on its way out goes here */
	__atomic_store_n(&w->finished, &finished_sink, __ATOMIC_RELEASE);
	__atomic_store_n(&w->halt, &halt_sink, __ATOMIC_RELEASE);
	pthread_detach(w->tid);
}

void jobs_end(struct worker *ws, unsigned n, const struct run_shared *rs)
{
	for (unsigned i = 0; i < n; i++) {
		if (ws[i].abandoned) {
			if (rs->procs && ws[i].pid)	/* reaped now if it is gone */
				(void)waitpid(ws[i].pid, NULL, WNOHANG);
			continue;
		}
		if (!rs->procs)
			pthread_join(ws[i].tid, NULL);
		else if (ws[i].pid)
			while (waitpid(ws[i].pid, NULL, 0) < 0 && errno == EINTR)
				;
	}
}
