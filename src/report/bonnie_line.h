/* bonnie_line.h - what a bonnie++ result line says, from a run: the CSV and the text layout (private to src/report). */
#ifndef DISKBENCH_BONNIE_LINE_H
#define DISKBENCH_BONNIE_LINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"

/* bonnie++'s twelve tests in its field order: six I/O, six file tests. */
#define BONNIE_NIO 6
#define BONNIE_NFILE 6

/*
 * The fields of a bonnie++ 1.98-format line, each meaning what bonnie++'s
 * does. A test that did not run is NULL, as bonnie++ leaves a skipped test
 * empty. Rates are taken from the tests when printed: K/sec (1024 bytes)
 * for the byte tests, ops/sec for seeks and files.
 */
struct bonnie_line {
	const char *host;	/* the machine name: the host name, as bonnie++ -m
				 * defaults to (never the label) */
	const char *seed;	/* the run's seed setting, or NULL */
	/* the I/O tests' parameters (bonnie++ -s size:chunk), from the block
	 * write test or else the block read test */
	bool has_size;
	uint64_t size_mib;
	uint32_t chunk;
	/*
	 * bonnie++'s "seeks" field is its seek-count setting (8192 by
	 * default), not a result. diskbench's seeks test runs for a time and
	 * has no such setting, so the field stays empty; the seeks done are
	 * in the JSON (the test's ops). seekers: the seeks test's jobs.
	 */
	unsigned seekers;	/* 0: no seeks test */
	const struct test_result *io[BONNIE_NIO];	/* putc, write, rewrite, getc, read, seeks */
	const struct test_result *file[BONNIE_NFILE];	/* create, stat, delete; then random */
	/* the file tests' parameters (bonnie++ -n files:max:min/dirs), from
	 * the first file test that ran; has_files false when none did */
	bool has_files;
	uint64_t files_k;	/* files, in multiples of 1024 */
	uint64_t file_max, file_min;
	unsigned ndirs;
};

/* Fill b from r: each field from the first test of the matching workload
 * that did any ops. Pointers point into r (b must not outlive it). */
void bonnie_line_of(const struct run_result *r, struct bonnie_line *b);

/* Test t's %CPU as bonnie++ prints it: a whole number (0 when unknown). */
int bonnie_cpu(const struct test_result *t);

/* Test t's latency as bonnie++ keeps it, its maximum, as bonnie++ writes
 * it: a whole number of us, ms or s ("8147us", "240ms"). "" for NULL. */
void bonnie_latency(const struct test_result *t, char *buf, size_t len);

#endif
