/* host.h - facts about the machine a run happened on. */
#ifndef DISKBENCH_HOST_H
#define DISKBENCH_HOST_H

struct host_info;	/* result.h: a run's result carries it */

/* Fill host facts from uname, /proc/cpuinfo, sysconf. Never fails: unknown
 * fields are left empty or 0. */
void host_probe(struct host_info *h);

#endif
