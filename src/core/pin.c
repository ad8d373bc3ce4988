/* pin.c - the CPUs a measurement's jobs are pinned to when --cpus is not given. */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pin.h"

#define PIN_MAX_COLS 1024

/* The device interrupts per CPU in text (/proc/interrupts): its header
 * names the columns ("CPU0 CPU1"); only numbered lines count, the local
 * timer, rescheduling and other per-CPU kinds are every CPU's alike.
 * counts[cpu] summed for cpu < CPU_SETSIZE; false if the text has no header. */
static bool count_irqs(const char *text, uint64_t *counts)
{
	int col_cpu[PIN_MAX_COLS];
	unsigned ncol = 0;
	const char *p = text, *nl = strchr(text, '\n');
	char *end;

	if (!nl)
		return false;
	/* the header: "           CPU0       CPU1" */
	while (p < nl && ncol < PIN_MAX_COLS) {
		p += strspn(p, " \t");
		if (p >= nl || strncmp(p, "CPU", 3))
			break;
		col_cpu[ncol++] = (int)strtol(p + 3, &end, 10);
		p = end;
	}
	if (!ncol)
		return false;
	for (p = nl + 1; *p; p = nl ? nl + 1 : p + strlen(p)) {
		const char *q = p + strspn(p, " ");

		nl = strchr(p, '\n');
		strtoul(q, &end, 10);
		if (end == q || *end != ':')
			continue;	/* "LOC:", "NMI:": not a device's */
		q = end + 1;
		for (unsigned c = 0; c < ncol; c++) {
			unsigned long long n = strtoull(q, &end, 10);

			if (end == q || (nl && end > nl))
				break;
			if (col_cpu[c] >= 0 && col_cpu[c] < CPU_SETSIZE)
				counts[col_cpu[c]] += n;
			q = end;
		}
		if (!nl)
			break;
	}
	return true;
}

/* "0-1", "0,2-3": the CPUs of set into buf. */
static void set_words(const cpu_set_t *set, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (int c = 0; c < CPU_SETSIZE && used + 1 < len; c++) {
		int e = c;

		if (!CPU_ISSET(c, set))
			continue;
		while (e + 1 < CPU_SETSIZE && CPU_ISSET(e + 1, set))
			e++;
		used += (size_t)(e > c ? snprintf(buf + used, len - used, "%s%d-%d", used ? "," : "",
						  c, e) :
			 snprintf(buf + used, len - used, "%s%d", used ? "," : "", c));
		c = e;
	}
}

unsigned pin_default_cpus(const cpu_set_t *allowed, const char *interrupts, int *cpus,
			  unsigned max, char *why, size_t whylen)
{
	static uint64_t counts[CPU_SETSIZE];
	static int order[CPU_SETSIZE];
	bool have;
	unsigned n = 0;
	char all[128];

	memset(counts, 0, sizeof(counts));
	have = interrupts && count_irqs(interrupts, counts);
	/* the higher numbers first, then a stable insertion by count: ties
	 * stay with the higher number */
	for (int c = CPU_SETSIZE - 1; c >= 0; c--) {
		unsigned at;

		if (!CPU_ISSET(c, allowed))
			continue;
		for (at = n; at > 0 && counts[order[at - 1]] > counts[c]; at--)
			order[at] = order[at - 1];
		order[at] = c;
		n++;
	}
	if (why && whylen) {
		set_words(allowed, all, sizeof(all));
		if (!n)
			snprintf(why, whylen, "no CPU this process may run on");
		else if (n == 1)
			snprintf(why, whylen, "CPU %d: the only one this process may run on", order[0]);
		else if (have)
			snprintf(why, whylen, "CPU %d of %s: the fewest device interrupts served "
				 "(%llu, against %llu on CPU %d)", order[0], all,
				 (unsigned long long)counts[order[0]],
				 (unsigned long long)counts[order[n - 1]], order[n - 1]);
		else
			snprintf(why, whylen, "CPU %d of %s: the highest (no interrupt counts "
				 "to rank them by)", order[0], all);
	}
	if (n > max)
		n = max;
	memcpy(cpus, order, n * sizeof(*cpus));
	return n;
}

/* The whole of /proc/interrupts (NULL when unreadable); free it. */
static char *read_interrupts(void)
{
	FILE *f = fopen("/proc/interrupts", "re");
	char *buf = NULL;
	size_t len = 0, cap = 0, got;

	if (!f)
		return NULL;
	do {
		if (len + 4096 + 1 > cap) {
			char *n = realloc(buf, cap = cap ? 2 * cap : 16384);

			if (!n) {
				free(buf);
				fclose(f);
				return NULL;
			}
			buf = n;
		}
		got = fread(buf + len, 1, cap - len - 1, f);
		len += got;
	} while (got > 0);
	fclose(f);
	if (buf)
		buf[len] = '\0';
	return buf;
}

unsigned pin_default_cpus_here(int *cpus, unsigned max, char *why, size_t whylen)
{
	cpu_set_t allowed;
	char *irqs;
	unsigned n;

	if (sched_getaffinity(0, sizeof(allowed), &allowed)) {
		if (why && whylen)
			snprintf(why, whylen, "this process's CPUs cannot be read: %s",
				 strerror(errno));
		return 0;
	}
	irqs = read_interrupts();
	n = pin_default_cpus(&allowed, irqs, cpus, max, why, whylen);
	free(irqs);
	return n;
}

int pin_check_cpus(const int *cpus, size_t n, char *err, size_t errlen)
{
	cpu_set_t allowed;

	if (!n)
		return 0;
	if (sched_getaffinity(0, sizeof(allowed), &allowed))
		CPU_ZERO(&allowed);
	for (size_t i = 0; i < n; i++) {
		if (cpus[i] < 0 || cpus[i] >= CPU_SETSIZE || !CPU_ISSET(cpus[i], &allowed)) {
			snprintf(err, errlen, "--cpus: CPU %d is not online or not allowed for this "
				 "process (%d CPUs usable)", cpus[i], CPU_COUNT(&allowed));
			return -EINVAL;
		}
	}
	return 0;
}
