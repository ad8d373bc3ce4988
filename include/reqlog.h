/* reqlog.h - the per-request log (--lat-log): every completed request's times, in memory laid out before the test. */
#ifndef DISKBENCH_REQLOG_H
#define DISKBENCH_REQLOG_H

#include <stddef.h>
#include <stdint.h>

#include "engine.h"

/* Entries per job when --lat-log-max is not given: 32 MiB a job. */
#define REQLOG_DEFAULT_MAX ((uint64_t)1 << 20)
/* The most --lat-log-max takes (the memory check refuses far less). */
#define REQLOG_MAX_MAX ((uint64_t)1 << 36)

/* When a request completed, as the histogram saw it: in the ramp (not
 * counted), in the job's measured window (counted in the histogram when
 * it moved all its bytes, else an error), or after the window closed
 * (drained, not counted). */
enum reqlog_phase { REQLOG_RAMP = 0, REQLOG_WINDOW = 1, REQLOG_AFTER = 2 };

/* One request: 32 bytes. Times are CLOCK_MONOTONIC ns (clock_ns), the
 * clock the device lab logs with (tests/lab/labfs.c). */
struct reqlog_entry {
	uint64_t submit_ns;	/* the runner's clock read just before submit()
				 * handed it over (one per batch) */
	uint64_t complete_ns;	/* the clock read just after the reap that
				 * handed it back (one per reap): the latency
				 * counted is complete_ns - submit_ns */
	uint64_t offset;	/* bytes into the target */
	int32_t result;		/* bytes moved (a block is at most 64 MiB), or
				 * -errno */
	uint16_t slot;		/* io_req.idx: the queue slot and its buffer
				 * (qd is at most 4096) */
	uint8_t dir;		/* enum io_dir */
	uint8_t phase;		/* enum reqlog_phase */
};

/* One job's part: written only by the job's own loop, read by the caller
 * once the job is done. */
struct reqlog_job {
	uint64_t n;		/* entries held, from e[0] on */
	uint64_t dropped;	/* completed once the part was full: not held */
	uint64_t cap;
	struct reqlog_entry *e;
};

/* The log of a run: jobs parts of cap entries each, in one shared
 * anonymous mapping (MAP_SHARED, populated when made), so that job
 * processes forked after it write where the caller reads, and the hot loop
 * never faults a page in. Reused by every test: each job's part starts
 * again at its setup (reqlog_job). */
struct reqlog {
	unsigned jobs;
	uint64_t cap;		/* entries per job */
	struct reqlog_job *job;	/* jobs of them, in the mapping */
	void *map;
	size_t len;
};

/* Bytes a log of jobs x cap entries takes (UINT64_MAX past any memory):
 * for the memory check before a run (runner_footprint). */
uint64_t reqlog_bytes(unsigned jobs, uint64_t cap);

/* Make l for up to jobs jobs of cap entries each, the memory touched now.
 * Returns 0, or -ENOMEM (no memory for it: nothing held). */
int reqlog_create(struct reqlog *l, unsigned jobs, uint64_t cap);

/* Unmap l's memory (a zeroed or freed l: nothing). */
void reqlog_free(struct reqlog *l);

/* Job job's part of l, emptied for a new test; NULL when job is beyond
 * the jobs l was made for. Called by the job at its setup. */
struct reqlog_job *reqlog_job(struct reqlog *l, unsigned job);

/* Hot path: r, completed (result set) at now, into j: a few stores, or a
 * count when j is full. No call, no allocation, no system call. */
static inline void reqlog_add(struct reqlog_job *j, const struct io_req *r, uint64_t now,
			      enum reqlog_phase phase)
{
	struct reqlog_entry *e;

	if (__builtin_expect(j->n >= j->cap, 0)) {
		j->dropped++;
		return;
	}
	e = &j->e[j->n++];
	*e = (struct reqlog_entry){ .submit_ns = r->start_ns, .complete_ns = now,
				    .offset = r->offset, .result = (int32_t)r->result,
				    .slot = (uint16_t)r->idx, .dir = r->dir,
				    .phase = (uint8_t)phase };
}

#endif
