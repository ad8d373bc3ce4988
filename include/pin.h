/* pin.h - the CPUs a measurement's jobs are pinned to when --cpus is not given. */
#ifndef DISKBENCH_PIN_H
#define DISKBENCH_PIN_H

#include <sched.h>
#include <stddef.h>

/*
 * The CPUs to pin the jobs of tune's trials (and of --repeat runs) on when
 * --cpus is not given, best first, into cpus[0..max): every CPU in allowed
 * (the process's affinity), ranked by the device interrupts each has served
 * so far, fewest first (the numbered lines of interrupts, the text of
 * /proc/interrupts; NULL or unreadable: no ranking), ties to the higher
 * number (CPU 0, the boot CPU, takes what has no affinity of its own). Job
 * i runs on cpus[i % n], so a one-job test is always on cpus[0] and job i
 * of a multi-job one always on cpus[i]: the same CPU in every trial.
 *
 * Why pin: a QD1 job the scheduler may move measures where it landed (on a
 * 2-core VM ~30k or 50-80k IOPS, by placement), which a sweep would take
 * for a setting's effect. Why that CPU: a CPU serving a disk's completion
 * interrupts is interrupted under the job, and the counts since boot are a
 * stable ranking (the same CPU for runs an hour apart that compare judges).
 * Returns how many (0: allowed is empty); why gets one line for a person:
 * "CPU 1 of 0-1: the fewest device interrupts (12 against 392788)".
 * Never prints.
 */
unsigned pin_default_cpus(const cpu_set_t *allowed, const char *interrupts, int *cpus,
			  unsigned max, char *why, size_t whylen);

/* pin_default_cpus for this process: its sched_getaffinity and
 * /proc/interrupts. 0 when the affinity cannot be read. */
unsigned pin_default_cpus_here(int *cpus, unsigned max, char *why, size_t whylen);

/* Is every cpus[0..n) one this process may run on? 0, or -EINVAL with
 * "--cpus: CPU 7 is not online or not allowed for this process (2 CPUs
 * usable)" in err. */
int pin_check_cpus(const int *cpus, size_t n, char *err, size_t errlen);

#endif
