/* host.h - facts about the machine a run happened on. */
#ifndef DISKBENCH_HOST_H
#define DISKBENCH_HOST_H

#include <stdint.h>

/* The machine a result was measured on; a run_result carries one. */
struct host_info {
	char hostname[128];
	char kernel[128];	/* uname -r */
	char cpu_model[128];
	unsigned cpus;
	uint64_t memory_bytes;
};

/* Fill host facts from uname, /proc/cpuinfo, sysconf. Never fails: unknown
 * fields are left empty or 0. */
void host_probe(struct host_info *h);

#endif
