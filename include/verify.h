/* verify.h - self-checking blocks for --verify and the verify test: stamp, check, read back. */
#ifndef DISKBENCH_VERIFY_H
#define DISKBENCH_VERIFY_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * A block written with --verify is cut into units of 4 KiB (512 bytes when
 * its size is not a multiple of 4 KiB), and every unit starts with this
 * header, the rest of it being the write buffer's incompressible bytes
 * (the payload). crc is the CRC-32C (crc32c.h) of the payload, continued
 * over the header from offset on: a unit says by itself where it belongs,
 * which run wrote it (seed) and whether any of its bytes changed. Fields
 * are stored in the machine's (little-endian) order.
 */
#define VERIFY_MAGIC 0x31564244u	/* "DBV1" */
#define VERIFY_HDR_LEN 40u
#define VERIFY_UNIT 4096u		/* the unit of a block that is a multiple of it */
#define VERIFY_UNIT_MIN 512u		/* of other blocks (a multiple of 512) */
#define VERIFY_CHUNK (1u << 20)		/* bytes a read-back asks for at once, at most */

struct verify_hdr {
	uint32_t magic;		/* VERIFY_MAGIC */
	uint32_t crc;
	uint64_t offset;	/* where the unit was written, bytes into the target */
	uint64_t seed;		/* the run's --seed */
	uint64_t seq;		/* the writer's sequence number: job << 48 | unit count */
	uint32_t len;		/* the unit's bytes, header included */
	uint32_t reserved;	/* 0 */
};
_Static_assert(sizeof(struct verify_hdr) == VERIFY_HDR_LEN, "verify header layout");

/* What of a unit did not match, first found in this order. */
enum verify_field {
	VERIFY_F_NONE = 0,
	VERIFY_F_MAGIC,		/* no header: never written by --verify, or overwritten */
	VERIFY_F_LEN,		/* a unit of another size */
	VERIFY_F_OFFSET,	/* a unit written elsewhere (misdirected write or read) */
	VERIFY_F_SEED,		/* a unit of another run (a lost write: stale data) */
	VERIFY_F_CRC,		/* its bytes changed */
	VERIFY_F_READ,		/* reading it back failed (expected: bytes asked,
				 * found: bytes read; the errno is in the sum) */
};

/* One unit that did not match: where, what, and the two values. */
struct verify_bad {
	uint64_t offset;	/* bytes into the target */
	enum verify_field field;
	uint64_t expected, found;
};

/* What a read-back checked: done is false when nothing was (no --verify). */
struct verify_sum {
	bool done;
	uint64_t blocks;	/* units checked */
	uint64_t bad;		/* units that did not match */
	uint64_t bytes;		/* bytes read back */
	uint64_t time_ns;	/* the read-back's wall time (outside every window) */
	bool timed;		/* the check was the measured test itself (the verify
				 * test): time_ns is its window, not extra */
	int read_errno;		/* of the first failed read, 0 if none */
	struct verify_bad first; /* the lowest offset of the bad; field NONE if none */
};

/* The unit of blocks of bs bytes: VERIFY_UNIT, VERIFY_UNIT_MIN, or 0 when bs
 * is no multiple of 512 (such a block cannot be verified). */
uint32_t verify_unit(uint32_t bs);

/* CRC-32C of the payload of each unit of buf[0, len) into crcs[len / unit]:
 * computed once per buffer (and again after a read overwrote it), so that
 * stamping costs a CRC of the 32 header bytes only. */
void verify_payload_crcs(const void *buf, uint32_t len, uint32_t unit, uint32_t *crcs);

/*
 * Stamp each whole unit of buf[0, len), which is to be written at offset:
 * its header with offset + i * unit, seed, seq + i, and the CRC from crcs
 * (verify_payload_crcs of the payload as it is). The payload is left alone.
 * Cost: five stores and a CRC of 32 bytes per unit.
 */
void verify_stamp(void *buf, uint32_t len, uint32_t unit, uint64_t offset, uint64_t seed,
		  uint64_t seq, const uint32_t *crcs);

/* Does the unit at p of unit bytes, read from offset, carry a header of
 * this run (seed) for this offset, with a matching CRC? true if so; else
 * false with the first mismatch in *bad. */
bool verify_unit_ok(const void *p, uint32_t unit, uint64_t offset, uint64_t seed,
		    struct verify_bad *bad);

/*
 * Check buf[0, len), read from offset, unit by unit into sum (blocks, bad,
 * first; bytes and time are the caller's). With from_header, a unit's size
 * is what its header says when the header is whole and says 512 or 4096
 * (the verify test, which reads what writers of any block size wrote);
 * else, and always without it, unit.
 */
void verify_buf(const void *buf, size_t len, uint64_t offset, uint32_t unit, bool from_header,
		uint64_t seed, struct verify_sum *sum);

/*
 * Read [offset, offset + len) of fd (open for reading, O_DIRECT or not)
 * into buf (aligned, at least len bytes) and check it (verify_buf). A
 * failed or short read counts the range's units as bad (VERIFY_F_READ) and
 * returns -errno (-EIO when short); else 0. Adds len to sum->bytes.
 */
int verify_read(int fd, void *buf, uint64_t offset, size_t len, uint32_t unit, bool from_header,
		uint64_t seed, struct verify_sum *sum);

/*
 * Read back and check, in units of unit bytes (bs a multiple of it), the
 * blocks of bs bytes at base + i * bs whose bit i is set in written
 * (nblocks bits), runs of consecutive ones together, at most VERIFY_CHUNK
 * at a time (a larger block in pieces). Stops at the first failed read, and when
 * *stop (unless NULL) is raised (-EINTR: what was checked is in sum).
 * Returns 0, -EINVAL, -ENOMEM, -EINTR, or the read's -errno (its range
 * counted bad).
 */
int verify_blocks(int fd, uint64_t base, uint64_t nblocks, uint32_t bs, uint32_t unit,
		  const uint64_t *written, uint64_t seed, const volatile sig_atomic_t *stop,
		  struct verify_sum *sum);

/* A range of blocks to read back: nblocks of bs at base, those whose bit
 * is set in written. */
struct verify_region {
	uint64_t base, nblocks;
	const uint64_t *written;
};

/* Reads in flight at once in verify_regions: a random writer's blocks are
 * scattered, and one reader at a time would take a device's full latency
 * for each (minutes for a few seconds of an SSD's random writes). */
#define VERIFY_THREADS 8

/*
 * verify_blocks over n regions, by up to VERIFY_THREADS threads each with
 * its own part (whole words of the maps) and buffer, reading fd (pread is
 * safe to share); their sums are added into sum (the lowest first bad
 * kept). A thread that cannot be created leaves its part to the caller's
 * thread. Returns 0 or the first part's error (-EINTR on a stop).
 */
int verify_regions(int fd, const struct verify_region *r, unsigned n, uint32_t bs, uint32_t unit,
		   uint64_t seed, const volatile sig_atomic_t *stop, struct verify_sum *sum);

/* Add b to a: counts and times summed, the lower first bad kept. */
void verify_sum_add(struct verify_sum *a, const struct verify_sum *b);

/* The first bad unit of s in words, for a warning and the text report:
 * "at offset 1048576: crc expected 0x1f2e3d4c, found 0x0badf00d" (offsets,
 * seeds and sizes in decimal, magics and CRCs in hex; a failed read says
 * its error). "" when none is bad. */
void verify_first_bad(const struct verify_sum *s, char *buf, size_t len);

/* The field's name in reports ("crc", "offset" ...), and back (-1 unknown). */
const char *verify_field_name(enum verify_field f);
int verify_field_parse(const char *name);

/* The written-blocks map of the runner: bit i for block i. */
static inline void verify_mark(uint64_t *map, uint64_t i)
{
	map[i / 64] |= 1ull << (i % 64);
}

static inline size_t verify_map_words(uint64_t nblocks)
{
	return (size_t)((nblocks + 63) / 64);
}

#endif
