/* reqlog.c - the per-request log's memory: one shared mapping, a part per job. */
#include <errno.h>
#include <string.h>
#include <sys/mman.h>

#include "reqlog.h"

_Static_assert(sizeof(struct reqlog_entry) == 32, "a log entry is 32 bytes");

#define ALIGN64(x) (((x) + 63) & ~(uint64_t)63)

uint64_t reqlog_bytes(unsigned jobs, uint64_t cap)
{
	uint64_t head = ALIGN64((uint64_t)jobs * sizeof(struct reqlog_job));
	uint64_t part;

	if (!jobs || cap > (UINT64_MAX / 2) / sizeof(struct reqlog_entry))
		return jobs ? UINT64_MAX : 0;
	part = ALIGN64(cap * sizeof(struct reqlog_entry));
	if (part > (UINT64_MAX / 2 - head) / jobs)
		return UINT64_MAX;
	return head + part * jobs;
}

int reqlog_create(struct reqlog *l, unsigned jobs, uint64_t cap)
{
	uint64_t len = reqlog_bytes(jobs, cap);
	uint64_t head = ALIGN64((uint64_t)jobs * sizeof(struct reqlog_job));
	uint64_t part = ALIGN64(cap * sizeof(struct reqlog_entry));
	char *p;

	memset(l, 0, sizeof(*l));
	if (!jobs || !cap)
		return -EINVAL;
	if (len == UINT64_MAX || len > SIZE_MAX)
		return -ENOMEM;
	/* Populated now: a page first touched in the hot loop would cost
	 * the request it was touched for a fault (some 0.1-1 us). */
	p = mmap(NULL, (size_t)len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS | MAP_POPULATE,
		 -1, 0);
	if (p == MAP_FAILED)
		return -ENOMEM;
	l->jobs = jobs;
	l->cap = cap;
	l->map = p;
	l->len = (size_t)len;
	l->job = (struct reqlog_job *)p;
	for (unsigned i = 0; i < jobs; i++)
		l->job[i] = (struct reqlog_job){
			.cap = cap, .e = (struct reqlog_entry *)(p + head + part * i) };
	return 0;
}

void reqlog_free(struct reqlog *l)
{
	if (l->map)
		munmap(l->map, l->len);
	memset(l, 0, sizeof(*l));
}

struct reqlog_job *reqlog_job(struct reqlog *l, unsigned job)
{
	struct reqlog_job *j;

	if (!l->map || job >= l->jobs)
		return NULL;
	j = &l->job[job];
	j->n = 0;
	j->dropped = 0;
	return j;
}
