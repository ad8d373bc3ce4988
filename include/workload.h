/* workload.h - what a test does: direction, offsets, data. Engine-agnostic. */
#ifndef DISKBENCH_WORKLOAD_H
#define DISKBENCH_WORKLOAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine.h"

enum wl_pattern { WL_SEQ, WL_RAND };

struct workload {
	const char *name;	/* "seq-read" */
	const char *desc;
	enum io_dir dir;
	enum wl_pattern pattern;
};

/* The workload table and lookup by name (NULL when unknown). */
const struct workload *wl_table(size_t *n);
const struct workload *wl_find(const char *name);

/* xoshiro256** PRNG: fast, seeded, reproducible across runs and hosts. */
struct wl_rng {
	uint64_t s[4];
};
void wl_rng_seed(struct wl_rng *r, uint64_t seed);

static inline uint64_t wl_rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

static inline uint64_t wl_rng_next(struct wl_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = wl_rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = wl_rotl(s[3], 45);
	return res;
}

/*
 * Offsets for one worker: block-aligned positions in [base, base + len),
 * len rounded down to a whole number of bs blocks. Sequential wraps around
 * at the end; random is uniform over the blocks (no modulo bias), seeded.
 */
struct wl_offsets {
	uint64_t base, nblocks, next;
	uint32_t bs;
	bool random;
	struct wl_rng rng;
};

/* Returns 0, or -EINVAL when bs is 0 or len holds no whole block. */
int wl_offsets_init(struct wl_offsets *g, enum wl_pattern p, uint64_t base,
		    uint64_t len, uint32_t bs, uint64_t seed);

static inline uint64_t wl_offsets_next(struct wl_offsets *g)
{
	uint64_t blk;

	if (g->random) {
		/* Lemire's multiply-shift: uniform in [0, nblocks) */
		blk = (uint64_t)(((unsigned __int128)wl_rng_next(&g->rng) * g->nblocks) >> 64);
	} else {
		blk = g->next++;
		if (g->next == g->nblocks)
			g->next = 0;
	}
	return g->base + blk * g->bs;
}

/* Fill buf with incompressible pseudo-random bytes. */
void wl_fill_random(void *buf, size_t len, struct wl_rng *r);

/* Make a write buffer unique: stamp seq into the first 8 bytes of every
 * 512-byte sector, so no two written sectors repeat (defeats dedup) while
 * the rest stays random (defeats compression). Cost: len/512 stores. */
static inline void wl_stamp(void *buf, uint32_t len, uint64_t seq)
{
	unsigned char *p = buf;
	uint32_t off;

	for (off = 0; off + 8 <= len; off += 512, seq++)
		__builtin_memcpy(p + off, &seq, 8);
}

#endif
