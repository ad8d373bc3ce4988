/* engine.h - the I/O engine plugin interface: one vtable, one file per engine. */
#ifndef DISKBENCH_ENGINE_H
#define DISKBENCH_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum io_dir { IO_READ = 0, IO_WRITE = 1 };

/*
 * One I/O request. The runner owns an array of these (one per queue slot)
 * and their buffers; an engine only reads buf/offset/len/dir and writes
 * result. A request is "in flight" from submit() until reap() hands it back.
 */
struct io_req {
	void *buf;		/* aligned buffer of at least len bytes */
	uint64_t offset;	/* byte offset in the target */
	uint32_t len;		/* bytes to move */
	uint8_t dir;		/* enum io_dir */
	unsigned idx;		/* slot index, stable for the run */
	int64_t result;		/* on completion: bytes moved, or -errno */
	uint64_t start_ns;	/* set by the runner just before submit() */
};

/* Per-worker engine state. The runner opens fd (O_DIRECT OR'd in when the
 * test is direct, so every engine gets O_DIRECT for free) and sets qd. */
struct engine_ctx {
	int fd;			/* open target; -1 for engines with ENGINE_F_NO_IO */
	unsigned qd;		/* most requests the runner keeps in flight */
	/* The requests' buffers, set before init(): qd of buf_len bytes,
	 * contiguous from bufs (slot idx at bufs + idx x buf_len), for an
	 * engine that registers them with the kernel (io_uring's fixed
	 * buffers); bufs NULL: none to register. */
	void *bufs;
	size_t buf_len;
	/* init() may say here, in one line, what it could not use and why
	 * (e.g. fixed buffers refused by RLIMIT_MEMLOCK); "" when nothing. */
	char note[160];
	/* The system calls submit() and reap() made into the kernel, counted
	 * by the engine itself (each pread/pwrite, io_submit, io_getevents,
	 * io_uring_enter that enters; not those liburing skips): the tool's
	 * own cost in the result. Zeroed by the runner before init(); read
	 * only by the thread that calls submit() and reap(). */
	uint64_t syscalls;
	/* Poll for completions instead of waiting for interrupts (--hipri),
	 * set before init(); the runner sets it only for an engine with
	 * ENGINE_F_POLLS (io_uring: IORING_SETUP_IOPOLL, O_DIRECT). */
	bool hipri;
	/* The most requests one system call submits (--batch), set before
	 * init(), at least 1. 1: each as soon as submit() has it; more:
	 * submit() gathers them, and an engine that can submit and wait in
	 * one call (io_uring) leaves what is short of a batch to reap(). */
	unsigned batch;
	void *priv;		/* engine private state, owned by init/cleanup */
};

enum engine_flags {
	ENGINE_F_SYNC = 1u << 0,	 /* completes inside submit(): qd is 1 */
	ENGINE_F_DIRECT_ONLY = 1u << 1,	 /* only asynchronous with O_DIRECT */
	ENGINE_F_FORCE_DIRECT = 1u << 2, /* always O_DIRECT (the direct engine) */
	ENGINE_F_NO_IO = 1u << 3,	 /* moves no data (null engine) */
	ENGINE_F_POLLS = 1u << 4,	 /* can poll for completions (engine_ctx.hipri) */
};

/* submit() and reap() of one ctx are always called from one thread, the one
 * that runs its I/O loop (io_uring's SINGLE_ISSUER relies on it); init() and
 * cleanup() may run on another. */
struct engine_ops {
	const char *name;
	const char *desc;
	unsigned flags;		/* enum engine_flags */

	/* Does this engine work on this machine right now? 0 if yes (and
	 * why may then hold a note on a part that does not: io_uring's fixed
	 * buffers); else -errno with a one-line human reason written to why.
	 * Never prints. */
	int (*probe)(char *why, size_t whylen);

	/* Per-worker setup for ctx->qd requests: allocates ctx->priv.
	 * Returns 0 or -errno. */
	int (*init)(struct engine_ctx *ctx);

	/* Hand n requests to the engine. May defer the system call until
	 * reap(), which then submits and waits in one. Returns how many
	 * it took, from reqs[0] on (0..n; fewer than n means "busy": reap,
	 * then retry the rest); each one taken is in flight until reap()
	 * hands it back. -errno means it failed and took none of these. An
	 * engine whose submission fails after it took some returns their
	 * count and the error at its next submit() (or reap()), so the
	 * runner reaps what is in flight before it stops. */
	int (*submit)(struct engine_ctx *ctx, struct io_req **reqs, unsigned n);

	/* Push any deferred submissions, wait until at least min requests
	 * have completed (min <= requests in flight), store up to max of them
	 * in out with result set. Returns the count or -errno. */
	int (*reap)(struct engine_ctx *ctx, unsigned min, struct io_req **out,
		    unsigned max);

	/* Frees what init allocated. Safe after a failed init. */
	void (*cleanup)(struct engine_ctx *ctx);

	/* engine_ctx.batch when --batch is not given; 0 is 1. */
	unsigned batch;
};

/*
 * The batch a job of e runs at: batch (--batch; 0: not given), else e's
 * default for random offsets and 1 for sequential ones (seq): the kernel
 * plugs a submission of more than two requests and merges those that
 * follow one another on the device, so a batch of a sequential test would
 * reach the device as fewer, larger requests than the test's block size.
 * At most qd (no more can be in flight), at least 1.
 */
unsigned engine_batch(const struct engine_ops *e, unsigned batch, unsigned qd, bool seq);

/* One row of the engine registry: ops is NULL when the engine was not
 * compiled in, and missing says why (e.g. "configure found no liburing"). */
struct engine_entry {
	const char *name;
	const struct engine_ops *ops;
	const char *missing;
};

/* The registry, in "auto" preference order first. Sets *n. */
const struct engine_entry *engine_table(size_t *n);

/* Engine by name ("auto" not included), or NULL when unknown or not built. */
const struct engine_ops *engine_find(const char *name);

/* First engine of io_uring, libaio, sync whose probe succeeds. */
const struct engine_ops *engine_auto(void);

/* The engine --engine NAME means ("auto" included), probed: 0 with *out
 * set, or -ENOENT (no such engine: a usage error) or -ENODEV (known, but
 * not built or not working here), with a one-line reason in why. */
int engine_pick(const char *name, const struct engine_ops **out, char *why, size_t whylen);

extern const struct engine_ops engine_sync;
extern const struct engine_ops engine_direct;
extern const struct engine_ops engine_null;
#ifdef HAVE_LIBAIO
extern const struct engine_ops engine_libaio;
#endif
#ifdef HAVE_LIBURING
extern const struct engine_ops engine_io_uring;
#endif

#endif
