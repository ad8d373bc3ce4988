/* workloads.c - the workload table, the seeded PRNG, offset generators and data fill. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "workload.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

static const struct workload workloads[] = {
	{
		.name = "seq-read",
		.desc = "sequential reads, block after block, wrapping at the end",
		.dir = IO_READ,
		.pattern = WL_SEQ,
	},
	{
		.name = "seq-write",
		.desc = "sequential writes, block after block, wrapping at the end",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
	},
	{
		.name = "rand-read",
		.desc = "random reads, uniform over the block-aligned working set",
		.dir = IO_READ,
		.pattern = WL_RAND,
	},
	{
		.name = "rand-write",
		.desc = "random writes, uniform over the block-aligned working set",
		.dir = IO_WRITE,
		.pattern = WL_RAND,
	},
};

const struct workload *wl_table(size_t *n)
{
	if (n)
		*n = ARRAY_SIZE(workloads);
	return workloads;
}

const struct workload *wl_find(const char *name)
{
	size_t i;

	if (!name)
		return NULL;
	for (i = 0; i < ARRAY_SIZE(workloads); i++)
		if (strcmp(workloads[i].name, name) == 0)
			return &workloads[i];
	return NULL;
}

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

/*
 * xoshiro256** must not start from the all-zero state (it would stay there)
 * and wants its four words well mixed. splitmix64 gives both for any seed,
 * 0 included: its output function is a bijection of a state that changes on
 * every call, so four consecutive outputs are distinct and never all zero.
 */
void wl_rng_seed(struct wl_rng *r, uint64_t seed)
{
	uint64_t x = seed;
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&x);
}

int wl_offsets_init(struct wl_offsets *g, enum wl_pattern p, uint64_t base,
		    uint64_t len, uint32_t bs, uint64_t seed)
{
	uint64_t nblocks, last;

	if (bs == 0 || (p != WL_SEQ && p != WL_RAND))
		return -EINVAL;
	nblocks = len / bs;
	if (nblocks == 0)
		return -EINVAL;
	/* a window whose last byte lies past the 64-bit offset space would
	 * make wl_offsets_next() wrap to small offsets outside it */
	if (__builtin_add_overflow(base, nblocks * bs - 1, &last))
		return -EINVAL;

	memset(g, 0, sizeof(*g));
	g->base = base;
	g->nblocks = nblocks;
	g->next = 0;
	g->bs = bs;
	g->random = p == WL_RAND;
	/* seeded in both cases so the struct is fully defined either way */
	wl_rng_seed(&g->rng, seed);
	return 0;
}

void wl_fill_random(void *buf, size_t len, struct wl_rng *r)
{
	unsigned char *p = buf;
	uint64_t v;

	/* one 8-byte store per rng call; memcpy because buf need not be
	 * 8-byte aligned (the compiler turns it into a plain store) */
	for (; len >= 8; len -= 8, p += 8) {
		v = wl_rng_next(r);
		memcpy(p, &v, 8);
	}
	if (len) {
		v = wl_rng_next(r);
		memcpy(p, &v, len);
	}
}
