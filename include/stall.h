/* stall.h - jobs that made no progress for a while as the others went on, found from readings of their counts. */
#ifndef DISKBENCH_STALL_H
#define DISKBENCH_STALL_H

#include <stdbool.h>
#include <stdint.h>

/* The bound: a quarter of the runtime, within [STALL_MIN_NS, STALL_MAX_NS]
 * (stall_bound). Shorter gaps are what a slow request or a busy CPU give. */
#define STALL_MIN_NS 1000000000ull
#define STALL_MAX_NS 5000000000ull

/* Stalls kept per test; more are counted (stall_watch.missed). */
#define STALL_MAX 8

/* A job that completed nothing from start_ns to end_ns (monotonic), at
 * least the bound, while another job completed something. Both ends are
 * readings' times, the start the first that saw its last progress and the
 * end the last before it went on: it stood still at least that long, and
 * by at most two readings' interval more. offset (offset_valid) is its
 * last request's, read while it stood still (the offset it published). */
struct stall {
	unsigned job;
	uint64_t start_ns, end_ns;
	bool offset_valid;
	uint64_t offset;
};

/* One reading of one job, filled by the caller (stall_watch.in). */
struct stall_reading {
	uint64_t ops;		/* completed so far in its window */
	bool closed;		/* its window has closed: no longer watched */
	bool offset_valid;
	uint64_t offset;	/* its last request's, when it has one */
};

struct stall_job {
	bool slow;		/* in flight slow_ns or more: found slow[slow_at] */
	unsigned slow_at;
	uint64_t ops;		/* at its last progress */
	uint64_t since;		/* the reading that saw it */
	uint64_t others;	/* the other jobs' ops then */
	bool confirmed;		/* stood still for the bound, offset taken */
	bool closed;
	bool offset_valid;
	uint64_t offset;
};

struct stall_watch {
	uint64_t bound_ns;
	uint64_t prev_ns;	/* the last reading's time */
	uint64_t prev_total;	/* and all jobs' ops then */
	unsigned n;
	struct stall_job *jobs;
	struct stall_reading *in;	/* n slots: the next reading */
	struct stall found[STALL_MAX];	/* in the order they ended */
	unsigned nfound, missed;
	/* Jobs that completed nothing for slow_ns or more (0: not watched),
	 * whatever the others did: a request that old is in flight. Each in
	 * the order it began, its end the last reading that saw it still. */
	uint64_t slow_ns;
	struct stall slow[STALL_MAX];
	unsigned nslow, slow_missed;
};

/* The bound for a test of this runtime. */
uint64_t stall_bound(uint64_t runtime_ns);

/* Watch n jobs from now (their counts 0 then); 0 or -ENOMEM. */
int stall_watch_init(struct stall_watch *w, unsigned n, uint64_t bound_ns, uint64_t now);
void stall_watch_free(struct stall_watch *w);

/* Take the reading the caller put in w->in, made at now (after the last
 * one): a job whose count moved after the bound or more with none, while
 * the others' moved, is added to found; one that has stood still for
 * slow_ns or more is in slow (from then on, until it moves); one whose
 * window closed stops being watched (a stall it was in ends at the last
 * reading). */
void stall_watch_read(struct stall_watch *w, uint64_t now);

/* The longest any job watched has stood still, up to the last reading,
 * for the bound or more while the others went on (its number in *job):
 * a stall still going on, for a progress line; 0 when there is none. */
uint64_t stall_watch_now(const struct stall_watch *w, unsigned *job);

/* The job with a request in flight the longest, for slow_ns or more, at
 * the last reading (its entry of slow in *out): false when none is. */
bool stall_watch_slow(const struct stall_watch *w, struct stall *out);

/* How much of [t_start, t_end) (a window of job's) the job's stalls in
 * found cover (ns). */
uint64_t stall_overlap(const struct stall_watch *w, unsigned job, uint64_t t_start,
		       uint64_t t_end);

#endif
