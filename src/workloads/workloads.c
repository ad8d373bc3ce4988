/* workloads.c - the workload table, the seeded PRNG, offsets, shuffles and data fill. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "workload.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Rows not naming kind, write_pct, fixed_size or ops get WL_BLOCK, 0, 0,
 * NULL; force_direct must always be spelled out (-1 = no policy).
 */
static const struct workload workloads[] = {
	{
		.name = "seq-read",
		.desc = "sequential reads, block after block, wrapping at the end",
		.dir = IO_READ,
		.pattern = WL_SEQ,
		.force_direct = -1,
	},
	{
		.name = "seq-write",
		.desc = "sequential writes, block after block, wrapping at the end",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
		.force_direct = -1,
	},
	{
		/* An SSD's write cache (SLC) takes writes fast until it is
		 * full; then they go at the flash's own rate: the cliff. */
		.name = "sustained-write",
		.desc = "sequential writes over the whole working set once, finding the write cliff",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
		.force_direct = -1,
		.passes = 1,
		.runtime_ns = 100ull * 1000000000u,
		.finds_cliff = true,
	},
	{
		.name = "rand-read",
		.desc = "random reads, uniform over the block-aligned working set",
		.dir = IO_READ,
		.pattern = WL_RAND,
		.force_direct = -1,
	},
	{
		.name = "rand-write",
		.desc = "random writes, uniform over the block-aligned working set",
		.dir = IO_WRITE,
		.pattern = WL_RAND,
		.force_direct = -1,
	},
	{
		.name = "char-write",
		.desc = "per-char writes via stdio putc, 1 KiB of calls per op (bonnie++ Per Chr)",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.own_files = true,
		.force_direct = -1,
		.params = WL_P_CHAR,
		.ops = &wl_char_write_ops,
	},
	{
		.name = "char-read",
		.desc = "per-char reads via stdio getc, 1 KiB of calls per op (bonnie++ Per Chr)",
		.dir = IO_READ,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.force_direct = -1,
		.params = WL_P_CHAR,
		.ops = &wl_char_read_ops,
	},
	{
		.name = "rewrite",
		.desc = "read a chunk, dirty it, write it back in place, sequentially "
			"(bonnie++ \"Rewrite\")",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.force_direct = -1,
		.ops = &wl_rewrite_ops,
	},
	{
		/* bonnie++'s seekers read a random chunk and write 10 % of
		 * them back in place; a random 10 % of requests being writes
		 * is the same load on the disk, without a read-modify-write
		 * dependency the queue could not overlap. */
		.name = "seeks",
		.desc = "random chunk reads, 10 % of them writes (bonnie++ \"Random Seeks\")",
		.dir = IO_READ,
		.pattern = WL_RAND,
		.write_pct = 10,
		.force_direct = -1,
	},
	{
		.name = "meta-create",
		.desc = "create files in number order, names number-first (bonnie++ \"Sequential Create\")",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.own_files = true,
		.finite = true,
		.force_direct = -1,
		.params = WL_P_FILES,
		.ops = &wl_meta_create_ops,
	},
	{
		.name = "meta-stat",
		.desc = "stat (and read) files in readdir order (bonnie++ \"Sequential Read\")",
		.dir = IO_READ,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.own_files = true,
		.force_direct = -1,
		.params = WL_P_FILES,
		.ops = &wl_meta_stat_ops,
	},
	{
		.name = "meta-delete",
		.desc = "delete files in readdir order (bonnie++ \"Sequential Delete\")",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.own_files = true,
		.finite = true,
		.force_direct = -1,
		.params = WL_P_FILES,
		.ops = &wl_meta_delete_ops,
	},
	{
		.name = "meta-create-rand",
		.desc = "create files in number order, names random-first (bonnie++ \"Random Create\")",
		.dir = IO_WRITE,
		.pattern = WL_RAND,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.own_files = true,
		.finite = true,
		.force_direct = -1,
		.params = WL_P_FILES,
		.ops = &wl_meta_create_ops,
	},
	{
		.name = "meta-stat-rand",
		.desc = "stat (and read) files in a seeded random order (bonnie++ \"Random Read\")",
		.dir = IO_READ,
		.pattern = WL_RAND,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.own_files = true,
		.force_direct = -1,
		.params = WL_P_FILES,
		.ops = &wl_meta_stat_ops,
	},
	{
		.name = "meta-delete-rand",
		.desc = "delete files in a seeded random order (bonnie++ \"Random Delete\")",
		.dir = IO_WRITE,
		.pattern = WL_RAND,
		.kind = WL_OPS,
		.cpu_bound = true,
		.needs_fs = true,
		.own_files = true,
		.finite = true,
		.force_direct = -1,
		.params = WL_P_FILES,
		.ops = &wl_meta_delete_ops,
	},
	{
		/* hdparm -t: buffered, so the kernel's readahead is part of
		 * what is measured. */
		.name = "buffered-read",
		.desc = "sequential reads through the page cache, readahead included (hdparm -t)",
		.dir = IO_READ,
		.pattern = WL_SEQ,
		.force_direct = 0,
		.passes = 1,
		.report = WL_REPORT_HDPARM_DISK,
	},
	{
		/* hdparm -T: the same 2 MiB again and again, i.e. memory
		 * speed; with O_DIRECT, the device's own cache. */
		.name = "cached-read",
		.desc = "re-reads of the first 2 MiB, from the page cache (hdparm -T)",
		.dir = IO_READ,
		.pattern = WL_SEQ,
		.force_direct = 0,
		.cache_ok = true,
		.fixed_size = 2u << 20,
		.report = WL_REPORT_HDPARM_CACHE,
	},
	{
		/* The blocks --verify wrote, read back whole in a later run (a
		 * device keeps them) or later in the plan; its rate is that of
		 * the read-back and its check. */
		.name = "verify",
		.desc = "read the working set once, checking each block's offset, seed and "
			"crc32c (what --verify wrote)",
		.dir = IO_READ,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.finite = true,
		.whole = true,
		.checks = true,
		.force_direct = -1,
		.ops = &wl_verify_ops,
	},
	{
		/* What a discard costs: an SSD's trim is not free, and some
		 * stall the queue. It destroys data as a write does. */
		.name = "trim",
		.desc = "discard the working set once, bs at a time (BLKDISCARD on a device, "
			"a punched hole in a file), each timed",
		.dir = IO_WRITE,
		.pattern = WL_SEQ,
		.kind = WL_OPS,
		.finite = true,
		.force_direct = -1,
		.ops = &wl_discard_ops,
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

void wl_permute(uint32_t *idx, size_t n, struct wl_rng *r)
{
	size_t i, j;
	uint32_t t;

	/* Fisher-Yates from the top: every permutation equally likely */
	for (i = n; i > 1; i--) {
		j = (size_t)wl_rng_below(r, i);
		t = idx[i - 1];
		idx[i - 1] = idx[j];
		idx[j] = t;
	}
}

void *wl_state_new(void **state, size_t size, char *err, size_t errlen)
{
	*state = calloc(1, size);
	if (!*state)
		snprintf(err, errlen, "out of memory");
	return *state;
}

uint64_t wl_job_slice(const struct wl_job *job, uint64_t unit)
{
	return unit ? job->size / (job->jobs ? job->jobs : 1) / unit * unit : 0;
}

void wl_release(void *state, int fd, void *buf)
{
	if (fd >= 0)
		close(fd);
	free(buf);
	free(state);
}

void wl_call_data(const struct wl_job *job, const char *call, bool has_offset, uint64_t offset,
		  struct wl_call *out)
{
	out->call = call;
	snprintf(out->file, sizeof(out->file), "%s", job->data.name ? job->data.name : "");
	out->has_offset = has_offset;
	out->offset = offset;
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
