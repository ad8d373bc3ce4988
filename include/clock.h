/* clock.h - the monotonic clock every latency is timed with, and its cost. */
#ifndef DISKBENCH_CLOCK_H
#define DISKBENCH_CLOCK_H

#include <stdint.h>

/* CLOCK_MONOTONIC in ns. Through the vDSO: no system call, ~20 ns; safe
 * in the I/O path. */
uint64_t clock_ns(void);

/* The cost of one clock_ns() call in ns: the cheapest of 16 rounds of
 * 1000 calls (the others were interrupted). Takes about 16000 calls. */
uint64_t clock_overhead_ns(void);

#endif
