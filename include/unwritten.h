/* unwritten.h - did a read test read space never written: the data's allocation, a sample of what it holds. */
#ifndef DISKBENCH_UNWRITTEN_H
#define DISKBENCH_UNWRITTEN_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target.h"

/*
 * Why: a hole in a file, or a block an SSD has never written or was
 * trimmed, reads back as zeros without any medium being touched. A read
 * test over such space reports the speed of the kernel or the controller
 * making up zeros (an 8 GiB sparse image behind a loop device "reads" at
 * 20 GB/s). Two checks find it: where the data is a file (a file target,
 * the scratch data file, a loop device's backing file), its allocation
 * over the region the test read (SEEK_DATA / SEEK_HOLE, exact); on any
 * target, a sample of what that region holds, read back after the test:
 * blocks that are all zeros or one repeated pattern are not data a real
 * write left (diskbench writes incompressible data; a file system, a
 * database or a user's files rarely hold whole 4 KiB blocks of one byte).
 */

#define UNWRITTEN_SAMPLES 256	/* blocks sampled per test */
#define UNWRITTEN_BLOCK 4096	/* bytes per sampled block (at least the logical block) */
#define UNWRITTEN_FLAG 0.05	/* a share of unwritten space from which a test is flagged */

/*
 * The part of the data a read test's reads went over, which runner_run
 * fills for a block workload: parts slices [i * stride, i * stride + span)
 * for i < parts (a sequential test's jobs each read from the start of
 * their own slice; span is how far they got, the mean over the jobs,
 * wrapped passes counting once; a random test's one slice is its whole
 * working set). parts 0: nothing known (no block I/O, or a saved result).
 */
struct read_extent {
	uint64_t stride, span;
	uint32_t parts;
};

/* A read extent's total bytes. */
static inline uint64_t read_extent_bytes(const struct read_extent *x)
{
	return (uint64_t)x->parts * x->span;
}

/* What a read test was found to have read (tests[].unwritten). */
struct unwritten {
	bool applies;		/* a test that reads the data: then either checked,
				 * or why says why not */
	bool checked;		/* the sample was read */
	char why[160];		/* !checked: why not ("the null engine moves no data") */
	uint64_t region_bytes;	/* the extent checked */
	uint32_t block_bytes;	/* per sampled block */
	uint32_t sampled;	/* blocks read back */
	uint32_t blank;		/* of them, all zeros or one repeated 8-byte pattern */
	double share;		/* blank / sampled */
	double lo, hi;		/* its Wilson 95 % interval */
	bool layout_valid;	/* the allocation of the region was read */
	double layout_share;	/* then the share of it unallocated (holes,
				 * unwritten extents), exact */
	bool flagged;		/* layout_share or share >= UNWRITTEN_FLAG (set by
				 * result_annotate) */
};

/* The share a test is judged by: the larger of the allocation's and the
 * sample's (a region allocated but holding zeros reads as fast). */
static inline double unwritten_worst(const struct unwritten *u)
{
	double s = u->checked ? u->share : 0;

	return u->layout_valid && u->layout_share > s ? u->layout_share : s;
}

/* Where the allocation of the data is read from (the result's read_layout). */
struct read_layout {
	bool known;		/* this was recorded (false in older results) */
	bool checked;		/* the file could be opened and asked for holes */
	char source[32];	/* "target file", "scratch data file", "loop backing file" */
	char file[PATH_MAX];	/* that file's path */
	uint64_t offset;	/* where the target's byte 0 is in it (loop offset,
				 * partition start) */
	char why[200];		/* !checked: why not */
	/* --destructive: the read region was written before the read tests */
	bool laid_out;
	uint64_t laid_out_bytes, laid_out_ns;
};

/* The Wilson score interval (95 %) of k successes in n trials into lo, hi;
 * [0, 1] when n is 0. Pure. */
void unwritten_wilson(uint32_t k, uint32_t n, double *lo, double *hi);

/* Is the block of len bytes (a multiple of 8, aligned to 8) all one
 * repeated 8-byte word (zeros, 0xff, a fill pattern)? Pure. */
bool unwritten_blank(const void *buf, size_t len);

/*
 * Find where the allocation of ti's data can be read: a file target
 * itself, a directory's scratch data file (data, opened by target_open),
 * or a loop device's backing file (/sys/block/loopN/loop/backing_file,
 * its offset, and a partition's start). Fills out (known set; checked, or
 * why not) and returns a descriptor of that file to pass to
 * unwritten_check, or -1. A block device that is not a loop device: -1,
 * checked false, why saying its allocation is the device's own. Never
 * prints.
 */
int unwritten_layout_open(const struct target_info *ti, const struct target_file *data,
			  struct read_layout *out);

/*
 * Check the extent x of data (the target, or the scratch data file) that
 * a read test read: its allocation through layout_fd (from
 * unwritten_layout_open, at offset lay->offset; -1: not read), and
 * UNWRITTEN_SAMPLES blocks read back with O_DIRECT (buffered and dropped
 * after when the file system refuses it), one at a seeded place in each of
 * as many equal strata of the extent. lbs: the target's logical block
 * size. Fills out (applies true; checked, or why not); flagged is left to
 * result_annotate. step (may be NULL) is called after each block read,
 * with the blocks read so far and the sample's size (a watcher's progress:
 * target_bounded). Returns 0, or -errno when the sample could not be read
 * (out->why says why). Never prints.
 */
int unwritten_check(const struct target_file *data, int layout_fd,
		    const struct read_layout *lay, const struct read_extent *x,
		    uint32_t lbs, uint64_t seed, struct unwritten *out,
		    void (*step)(void *arg, uint64_t done, uint64_t total), void *step_arg);

#endif
