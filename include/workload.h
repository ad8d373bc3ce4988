/* workload.h - what a test does: offsets and direction, or its own timed ops. */
#ifndef DISKBENCH_WORKLOAD_H
#define DISKBENCH_WORKLOAD_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"
#include "target.h"
#include "verify.h"

enum wl_pattern { WL_SEQ, WL_RAND };

/*
 * WL_BLOCK: the runner moves bs-sized blocks at generated offsets through an
 * engine (seq/rand read/write, seeks, hdparm-style reads). WL_OPS: the
 * workload performs its own operations (per-char stdio, rewrite, file
 * create/stat/delete) through its wl_ops; the runner only times each op.
 */
enum wl_kind { WL_BLOCK, WL_OPS };

/* op() results besides bytes moved (>= 0) and -errno: the workload has run
 * out of work (no file left to create or delete). A value no errno reaches. */
#define WL_OP_DONE (-((int64_t)1 << 40))

/* struct wl_params char_mode values */
enum wl_char_mode { WL_CHAR_STDIO = 0, WL_CHAR_SYSCALL = 1 };

/* Defaults of the metadata parameters (bonnie++ -n 16: 16 x 1024 empty
 * files in one directory). */
#define WL_DEFAULT_NFILES 16384u
#define WL_DEFAULT_NDIRS 1u

/*
 * The parameters of the classic workloads: one struct, carried by value
 * from the settings to the test spec, to each job and into the result.
 * Zero means the workload's default (wl_params_resolve). A workload says
 * which of them it reads in struct workload.params; later workloads add
 * their fields here, not to the spec, the job and the result one by one.
 */
struct wl_params {
	int char_mode;		/* WL_P_CHAR: enum wl_char_mode */
	uint64_t nfiles;	/* WL_P_FILES: files per job (0: WL_DEFAULT_NFILES) */
	uint64_t file_min, file_max; /* WL_P_FILES: each file's size, bytes, in
				      * [min, max] (0, 0: empty files) */
	uint32_t ndirs;		/* WL_P_FILES: directories the files are spread over
				 * (0: WL_DEFAULT_NDIRS) */
	bool fsync;		/* WL_P_FILES: fsync each created file before close */
};

/* struct workload.params: which parameters a workload reads. */
enum wl_param_set {
	WL_P_CHAR = 1u << 0,
	WL_P_FILES = 1u << 1,
};

/* p with its defaults filled in. */
static inline struct wl_params wl_params_resolve(struct wl_params p)
{
	if (!p.nfiles)
		p.nfiles = WL_DEFAULT_NFILES;
	if (!p.ndirs)
		p.ndirs = WL_DEFAULT_NDIRS;
	return p;
}

/* Work a job's untimed setup or clean-up has done, out of how much (files
 * to make, to remove), for progress on a terminal: the job stores with
 * relaxed atomics, the runner's thread reads. */
struct wl_progress {
	uint64_t done, todo;
};

/* Everything one job of a WL_OPS workload needs. Filled by the runner. */
struct wl_job {
	int scratch_fd;		/* the run's private scratch directory: every file a
				 * workload makes is created relative to it
				 * (openat, O_NOFOLLOW); -1 when the target is a
				 * device or a file */
	struct target_file data; /* the laid-out data file, or the target itself
				  * (open it with target_open) */
	uint64_t size;		/* working set of the whole test, bytes */
	uint32_t bs;		/* chunk size (rewrite) */
	unsigned job, jobs;	/* this job's index, and how many run */
	uint64_t seed;		/* the test's seed; each job mixes in its index */
	bool direct;		/* O_DIRECT where the workload uses a plain fd */
	enum wl_pattern pattern; /* order of the files (meta-*) */
	struct wl_params params; /* resolved: no zero defaults left */
	bool drop_behind;	/* buffered: drop what was read when a pass wraps
				 * (see src/core/worker.h, "drop-behind") */
	/* Long untimed setup (making thousands of files) checks *stop now
	 * and then and gives up with -EINTR when it is set; NULL: never. */
	const volatile sig_atomic_t *stop;
	struct wl_progress *progress;	/* setup and clean-up count here; may be NULL */
	/* Where the job is, to name a call that never returns (a device
	 * that stopped answering): before each call that may wait for the
	 * device - in init, op, flush and cleanup - the workload stores
	 * (wl_at_set) a value of its own, which wl_ops.name_at puts in
	 * words. NULL: nobody watches. */
	uint64_t *at;
};

/* wl_job.at: the workload's number of the call (below WL_AT_CALLS) over
 * WL_AT_SHIFT bits of a number of its own (a file's, an offset); none
 * stored yet: WL_AT_NONE. */
#define WL_AT_SHIFT 56
#define WL_AT_CALLS 255u
#define WL_AT_NONE UINT64_MAX

/* Store where the job is (relaxed: a plain store, read whole by the
 * runner's thread only once the job is stuck). */
static inline void wl_at_set(uint64_t *at, unsigned call, uint64_t x)
{
	if (at)
		__atomic_store_n(at, ((uint64_t)call << WL_AT_SHIFT) |
				 (x & ((1ull << WL_AT_SHIFT) - 1)), __ATOMIC_RELAXED);
}

static inline unsigned wl_at_call(uint64_t at)
{
	return (unsigned)(at >> WL_AT_SHIFT);
}

static inline uint64_t wl_at_arg(uint64_t at)
{
	return at & ((1ull << WL_AT_SHIFT) - 1);
}

/* A call of a WL_OPS job in words (wl_ops.name_at). */
struct wl_call {
	const char *call;	/* static: "create", "fsync", "putc"...; NULL: unknown */
	char file[96];		/* its file: relative to the scratch directory, or
				 * absolute (the target itself) */
	bool has_offset;
	uint64_t offset;	/* in file, when has_offset */
};

/* How a WL_OPS job describes itself in the result. */
struct wl_desc {
	const char *engine;	/* static: the I/O path ("stdio", "syscall", "sync", "posix") */
	uint32_t io_size;	/* bytes per I/O call (1 for per-char), the result's bs */
	bool direct;		/* O_DIRECT in effect (never for stdio or metadata) */
};

/* What one job of a workload holds at its peak: the resource check before
 * a run (budget.h) adds these up and compares them with what the machine,
 * the file system and the process limits allow. */
struct wl_footprint {
	uint64_t mem_bytes;	/* memory it allocates */
	uint64_t disk_bytes;	/* bytes its own files take in the scratch directory
				 * (rounded up to blocks, directories included) */
	uint64_t inodes;	/* files and directories it makes there */
	uint64_t fds;		/* descriptors it holds open at once */
};

struct wl_ops {
	/* Untimed setup of one job (open files, create what stat/delete
	 * need, shuffle). Runs on the job's thread. Returns 0 with *state
	 * set, or -errno with a one-line reason in err. */
	int (*init)(void **state, const struct wl_job *job, char *err, size_t errlen);
	/* ONE timed operation: bytes moved (>= 0), -errno, or WL_OP_DONE. */
	int64_t (*op)(void *state);
	/* Optional: write back what the job wrote through the page cache.
	 * The runner calls it inside the measured window when the window
	 * closes at the runtime, on a drop-behind run, so that the rate
	 * includes the write-back (bonnie++'s file larger than RAM forces
	 * it during the test). 0 or -errno. */
	int (*flush)(void *state);
	/* Frees the state and removes everything init and op created. Safe
	 * after a failed init (state NULL or partly built). */
	void (*cleanup)(void *state);
	void (*describe)(const struct wl_job *job, struct wl_desc *d);
	/* What one job with these parameters will hold (fills fp; an
	 * estimate, never below what init and op allocate and make). */
	void (*footprint)(const struct wl_job *job, struct wl_footprint *fp);
	/* Optional: what the job checked (the verify test), into out, before
	 * cleanup; the runner sums the jobs' into the result's verify. */
	void (*checked)(void *state, struct verify_sum *out);
	/* Optional: the system calls the job's op()s and flush() have made
	 * so far (the runner takes the difference over the window): the
	 * tool's own cost in the result. NULL: not counted. */
	uint64_t (*syscalls)(const void *state);
	/* Optional: the call at (what the job last stored in *job->at, never
	 * WL_AT_NONE) in words, into out (zeroed by the caller), to name one
	 * that never returned. From the job's parameters alone: it runs on
	 * the runner's thread, and the job's state may be in another
	 * process. */
	void (*name_at)(const struct wl_job *job, uint64_t at, struct wl_call *out);
	const char *unit;	/* what one op is, for humans: "file created" */
};

struct workload {
	const char *name;	/* "seq-read" */
	const char *desc;
	enum io_dir dir;	/* IO_WRITE when the test writes at all (see wl_writes) */
	enum wl_pattern pattern;
	enum wl_kind kind;
	bool needs_fs;		/* needs a directory target: skip on a device or file */
	bool finite;		/* may run out of work (WL_OP_DONE): no ramp, so the
				 * measured phase sees all of it */
	bool own_files;		/* makes its own files in the scratch directory and
				 * never touches the laid-out data file */
	bool cache_ok;		/* measures the page cache itself (hdparm -T): its
				 * buffered reads are not dropped behind, and its
				 * reads missing the device is no warning */
	bool cpu_bound;		/* measures what the CPU spends per call (per-char
				 * I/O, metadata calls: bonnie++'s %CP): a job that
				 * keeps a core busy is its result, not a flaw */
	/* WL_BLOCK: the test ends once each job has gone over its part of
	 * the working set this many times, or at the runtime, whichever
	 * comes first, with no ramp (hdparm -t reads the device once from
	 * the start and stops at its end); 0: at the runtime. */
	uint32_t passes;
	/* Its runtime when neither the profile nor the command line gives
	 * one (a bound for a test of passes); 0: the run's. */
	uint64_t runtime_ns;
	/* Its timeline is searched for a write cliff (cliff.h). */
	bool finds_cliff;
	bool whole;		/* WL_OPS: runs until it is done (WL_OP_DONE), past
				 * the runtime: the verify test reads all of the
				 * working set once */
	bool checks;		/* checks what --verify wrote (the verify test): a
				 * plan with it stamps its write tests' blocks */
	/* WL_BLOCK: percentage of requests that are writes, each drawn from
	 * the job's seeded RNG (0: every request goes in dir). */
	unsigned write_pct;
	/* O_DIRECT policy the CLI applies unless the user chose explicitly:
	 * -1 none (the run's default), 0 buffered, 1 direct. */
	int force_direct;
	/* WL_BLOCK: a working set of this many bytes at offset 0, shared by
	 * every job, in place of the run's size (0: the run's size). */
	uint64_t fixed_size;
	unsigned params;	/* enum wl_param_set: what of struct wl_params it
				 * reads (and the result records) */
	/* Extra lines a text report gives this test, for pasting beside the
	 * old tool's output (hdparm -t / -T); WL_REPORT_NONE mostly. */
	enum wl_report { WL_REPORT_NONE, WL_REPORT_HDPARM_DISK, WL_REPORT_HDPARM_CACHE } report;
	const struct wl_ops *ops; /* WL_OPS only */
};

/* Does the test write to its target (a gate question)? */
static inline bool wl_writes(const struct workload *w)
{
	return w->dir == IO_WRITE || w->write_pct > 0;
}

/* Does the test read blocks of the data to measure the device (the tests
 * whose reads of unwritten space unwritten.h looks for)? Not one that
 * measures the page cache (hdparm -T), nor one doing its own I/O. */
static inline bool wl_reads_data(const struct workload *w)
{
	return w->kind == WL_BLOCK && w->dir == IO_READ && !w->cache_ok;
}

/* The workload table and lookup by name (NULL when unknown). */
const struct workload *wl_table(size_t *n);
const struct workload *wl_find(const char *name);

/* The WL_OPS implementations (char.c, rewrite.c, meta.c, check.c). */
extern const struct wl_ops wl_char_write_ops;
extern const struct wl_ops wl_char_read_ops;
extern const struct wl_ops wl_rewrite_ops;
extern const struct wl_ops wl_discard_ops;
extern const struct wl_ops wl_meta_create_ops;
extern const struct wl_ops wl_meta_stat_ops;
extern const struct wl_ops wl_meta_delete_ops;
extern const struct wl_ops wl_verify_ops;

/* Can --verify check what w writes? A block workload that writes (the
 * runner stamps its buffers); one doing its own I/O writes its own way. */
static inline bool wl_verifiable(const struct workload *w)
{
	return w->kind == WL_BLOCK && wl_writes(w);
}

/* xoshiro256** PRNG: fast, seeded, reproducible across runs and hosts. */
struct wl_rng {
	uint64_t s[4];
};
void wl_rng_seed(struct wl_rng *r, uint64_t seed);

static inline uint64_t wl_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t wl_rng_next(struct wl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = wl_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = wl_rotl(s[3], 45);
	return res;
}

/* Uniform in [0, n) (Lemire's multiply-shift, no modulo bias). */
static inline uint64_t wl_rng_below(struct wl_rng *r, uint64_t n)
{
	return (uint64_t)(((unsigned __int128)wl_rng_next(r) * n) >> 64);
}

/* One draw of a mixed workload: true (a write) with probability pct/100. */
static inline bool wl_draw_write(struct wl_rng *r, unsigned pct)
{
	return wl_rng_below(r, 100) < pct;
}

/* Shuffle idx[0..n) in place (Fisher-Yates), seeded: the random order of
 * the metadata tests. */
void wl_permute(uint32_t *idx, size_t n, struct wl_rng *r);

/*
 * Offsets for one worker: block-aligned positions in [base, base + len),
 * len rounded down to a whole number of bs blocks. Sequential wraps around
 * at the end; random is uniform over the blocks (no modulo bias), seeded.
 */
struct wl_offsets {
	uint64_t base, nblocks, next;
	uint32_t bs;
	bool random;
	struct wl_rng rng;
};

/* Returns 0, or -EINVAL when bs is 0 or len holds no whole block. */
int wl_offsets_init(struct wl_offsets *g, enum wl_pattern p, uint64_t base,
		    uint64_t len, uint32_t bs, uint64_t seed);

static inline uint64_t wl_offsets_next(struct wl_offsets *g)
{
	uint64_t blk;

	if (g->random) {
		blk = wl_rng_below(&g->rng, g->nblocks);
	} else {
		blk = g->next++;
		if (g->next == g->nblocks)
			g->next = 0;
	}
	return g->base + blk * g->bs;
}

/* A WL_OPS job's state: size zeroed bytes, also put in *state for its
 * cleanup; NULL (*state NULL, "out of memory" in err) when there is no
 * memory. */
void *wl_state_new(void **state, size_t size, char *err, size_t errlen);

/* A WL_OPS job's even share of the working set, in whole units (0 when
 * it is smaller than one): job j's slice starts at j x the share. */
uint64_t wl_job_slice(const struct wl_job *job, uint64_t unit);

/* The cleanup of a WL_OPS job whose state holds one descriptor and one
 * buffer (rewrite, verify): closes fd unless it is negative, frees buf and
 * state. */
void wl_release(void *state, int fd, void *buf);

/* out names call on the job's data file (wl_job.data: "data" in the
 * scratch directory, or the target's own path), at offset when
 * has_offset: the name_at of a workload that works on it. */
void wl_call_data(const struct wl_job *job, const char *call, bool has_offset, uint64_t offset,
		  struct wl_call *out);

/* Fill buf with incompressible pseudo-random bytes. */
void wl_fill_random(void *buf, size_t len, struct wl_rng *r);

/* Make a write buffer unique: stamp seq into the first 8 bytes of every
 * 512-byte sector, so no two written sectors repeat (defeats dedup) while
 * the rest stays random (defeats compression). Cost: len/512 stores. */
static inline void wl_stamp(void *buf, uint32_t len, uint64_t seq)
{
	unsigned char *p = buf;
	uint32_t off;

	for (off = 0; off + 8 <= len; off += 512, seq++)
		__builtin_memcpy(p + off, &seq, 8);
}

#endif
