/* host.c - facts about the machine a run happened on. */
#include <ctype.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "host.h"
#include "strutil.h"

/* /proc/cpuinfo keys naming the CPU, best first: x86 and most others say
 * "model name"; older ARM kernels only say "Hardware"; MIPS "cpu model". */
static const char *const cpu_keys[] = { "model name", "Hardware", "cpu model" };
#define NCPU_KEYS (sizeof(cpu_keys) / sizeof(cpu_keys[0]))

static void probe_cpu_model(struct host_info *h)
{
	char found[NCPU_KEYS][sizeof(h->cpu_model)];
	char line[512];
	size_t i, klen;
	FILE *f;
	char *colon;

	memset(found, 0, sizeof(found));
	f = fopen("/proc/cpuinfo", "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		for (i = 0; i < NCPU_KEYS; i++) {
			klen = strlen(cpu_keys[i]);
			if (found[i][0] || strncmp(line, cpu_keys[i], klen))
				continue;
			/* the key must be the whole field: "model name\t: ..." */
			if (strspn(line + klen, " \t") != (size_t)(colon - line) - klen)
				continue;
			str_copy_trimmed(found[i], sizeof(found[i]), colon + 1);
		}
	}
	fclose(f);
	for (i = 0; i < NCPU_KEYS; i++) {
		if (found[i][0]) {
			memcpy(h->cpu_model, found[i], sizeof(h->cpu_model));
			return;
		}
	}
}

void host_probe(struct host_info *h)
{
	struct utsname u;
	long pages, page_size, cpus;
	bool have_uname;

	memset(h, 0, sizeof(*h));

	if (gethostname(h->hostname, sizeof(h->hostname)) < 0)
		h->hostname[0] = '\0';
	/* POSIX leaves truncated names unterminated */
	h->hostname[sizeof(h->hostname) - 1] = '\0';

	have_uname = uname(&u) == 0;
	if (have_uname)
		snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);

	probe_cpu_model(h);
	if (!h->cpu_model[0] && have_uname)
		snprintf(h->cpu_model, sizeof(h->cpu_model), "%s", u.machine);

	cpus = sysconf(_SC_NPROCESSORS_ONLN);
	if (cpus > 0)
		h->cpus = (unsigned)cpus;

	pages = sysconf(_SC_PHYS_PAGES);
	page_size = sysconf(_SC_PAGESIZE);
	if (pages > 0 && page_size > 0)
		h->memory_bytes = (uint64_t)pages * (uint64_t)page_size;
}
