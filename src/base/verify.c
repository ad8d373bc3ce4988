/* verify.c - self-checking blocks: stamp them, check them, read them back. */
#include <errno.h>
#include <pthread.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "crc32c.h"
#include "verify.h"

static const char *const field_names[] = {
	[VERIFY_F_NONE] = "none",
	[VERIFY_F_MAGIC] = "magic",
	[VERIFY_F_LEN] = "len",
	[VERIFY_F_OFFSET] = "offset",
	[VERIFY_F_SEED] = "seed",
	[VERIFY_F_CRC] = "crc",
	[VERIFY_F_READ] = "read",
};
#define NFIELDS (sizeof(field_names) / sizeof(field_names[0]))

uint32_t verify_unit(uint32_t bs)
{
	if (bs && bs % VERIFY_UNIT == 0)
		return VERIFY_UNIT;
	if (bs && bs % VERIFY_UNIT_MIN == 0)
		return VERIFY_UNIT_MIN;
	return 0;
}

void verify_payload_crcs(const void *buf, uint32_t len, uint32_t unit, uint32_t *crcs)
{
	const unsigned char *p = buf;

	for (uint32_t u = 0; u + unit <= len; u += unit)
		*crcs++ = crc32c(0, p + u + VERIFY_HDR_LEN, unit - VERIFY_HDR_LEN);
}

/* The CRC of a unit: its payload's, continued over the header past crc. */
static uint32_t unit_crc(uint32_t payload_crc, const struct verify_hdr *h)
{
	const size_t at = offsetof(struct verify_hdr, offset);

	return crc32c(payload_crc, &h->offset, VERIFY_HDR_LEN - at);
}

void verify_stamp(void *buf, uint32_t len, uint32_t unit, uint64_t offset, uint64_t seed,
		  uint64_t seq, const uint32_t *crcs)
{
	unsigned char *p = buf;
	struct verify_hdr h = { .magic = VERIFY_MAGIC, .seed = seed, .len = unit };

	for (uint32_t u = 0; u + unit <= len; u += unit) {
		h.offset = offset + u;
		h.seq = seq++;
		h.crc = unit_crc(*crcs++, &h);
		/* memcpy: one 40-byte copy, whatever buf's alignment */
		memcpy(p + u, &h, sizeof(h));
	}
}

static bool mismatch(struct verify_bad *bad, uint64_t offset, enum verify_field f,
		     uint64_t expected, uint64_t found)
{
	*bad = (struct verify_bad){ .offset = offset, .field = f, .expected = expected,
				    .found = found };
	return false;
}

bool verify_unit_ok(const void *p, uint32_t unit, uint64_t offset, uint64_t seed,
		    struct verify_bad *bad)
{
	const unsigned char *u = p;
	struct verify_hdr h;
	uint32_t crc;

	memcpy(&h, u, sizeof(h));
	if (h.magic != VERIFY_MAGIC)
		return mismatch(bad, offset, VERIFY_F_MAGIC, VERIFY_MAGIC, h.magic);
	if (h.len != unit)
		return mismatch(bad, offset, VERIFY_F_LEN, unit, h.len);
	if (h.offset != offset)
		return mismatch(bad, offset, VERIFY_F_OFFSET, offset, h.offset);
	if (h.seed != seed)
		return mismatch(bad, offset, VERIFY_F_SEED, seed, h.seed);
	crc = unit_crc(crc32c(0, u + VERIFY_HDR_LEN, unit - VERIFY_HDR_LEN), &h);
	if (h.crc != crc)
		return mismatch(bad, offset, VERIFY_F_CRC, crc, h.crc);
	return true;
}

/* One more bad unit; the first one found is the lowest (callers go up). */
static void count_bad(struct verify_sum *sum, const struct verify_bad *bad)
{
	if (!sum->bad++)
		sum->first = *bad;
}

/* The size the header at p claims, when it is a header and the size is one
 * a writer uses, fits in avail and is aligned at offset; else 0. */
static uint32_t header_unit(const unsigned char *p, size_t avail, uint64_t offset)
{
	struct verify_hdr h;

	if (avail < VERIFY_HDR_LEN)
		return 0;
	memcpy(&h, p, sizeof(h));
	if (h.magic != VERIFY_MAGIC || (h.len != VERIFY_UNIT && h.len != VERIFY_UNIT_MIN) ||
	    h.len > avail || offset % h.len)
		return 0;
	return h.len;
}

void verify_buf(const void *buf, size_t len, uint64_t offset, uint32_t unit, bool from_header,
		uint64_t seed, struct verify_sum *sum)
{
	const unsigned char *p = buf;
	struct verify_bad bad;
	size_t at = 0;

	while (at + VERIFY_UNIT_MIN <= len) {
		uint32_t u = from_header ? header_unit(p + at, len - at, offset + at) : 0;

		if (!u)
			u = unit;
		if (at + u > len)
			u = VERIFY_UNIT_MIN;	/* a tail shorter than the unit */
		sum->blocks++;
		if (!verify_unit_ok(p + at, u, offset + at, seed, &bad))
			count_bad(sum, &bad);
		at += u;
	}
}

int verify_read(int fd, void *buf, uint64_t offset, size_t len, uint32_t unit, bool from_header,
		uint64_t seed, struct verify_sum *sum)
{
	size_t got = 0;
	ssize_t n;
	int err = 0;

	while (got < len) {
		n = pread(fd, (char *)buf + got, len - got, (off_t)(offset + got));
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			err = n < 0 ? -errno : -EIO;
			break;
		}
		got += (size_t)n;
	}
	sum->bytes += got;
	if (err) {
		struct verify_bad bad = { .offset = offset, .field = VERIFY_F_READ,
					  .expected = len, .found = got };

		if (!sum->read_errno)
			sum->read_errno = -err;
		count_bad(sum, &bad);
		/* the rest of the range's units are bad as well */
		sum->blocks += len / unit;
		sum->bad += len / unit - 1;
		return err;
	}
	verify_buf(buf, len, offset, unit, from_header, seed, sum);
	return 0;
}

/* Is block i set in map? */
static bool marked(const uint64_t *map, uint64_t i)
{
	return map[i / 64] & (1ull << (i % 64));
}

int verify_blocks(int fd, uint64_t base, uint64_t nblocks, uint32_t bs, uint32_t unit,
		  const uint64_t *written, uint64_t seed, const volatile sig_atomic_t *stop,
		  struct verify_sum *sum)
{
	const uint64_t per_read = bs >= VERIFY_CHUNK ? 1 : VERIFY_CHUNK / bs;
	void *buf = NULL;
	uint64_t i = 0, run, at, end;
	int ret = 0;

	if (!unit || unit < VERIFY_HDR_LEN || bs % unit)
		return -EINVAL;
	/* at most a chunk at a time: a block larger than one is read in
	 * pieces (a whole number of units each, aligned as the block is) */
	if (posix_memalign(&buf, 4096, bs < VERIFY_CHUNK ? (size_t)(per_read * bs) : VERIFY_CHUNK))
		return -ENOMEM;
	while (i < nblocks && !ret) {
		/* a whole empty word at once: the map of a short random run is
		 * mostly zeros */
		if (i % 64 == 0 && !written[i / 64]) {
			i += 64;
			continue;
		}
		if (!marked(written, i)) {
			i++;
			continue;
		}
		if (stop && *stop) {
			ret = -EINTR;
			break;
		}
		for (run = 1; i + run < nblocks && run < per_read && marked(written, i + run);
		     run++)
			;
		end = base + (i + run) * bs;
		for (at = base + i * bs; at < end && !ret; at += VERIFY_CHUNK)
			ret = verify_read(fd, buf, at, end - at < VERIFY_CHUNK ? (size_t)(end - at) :
					  VERIFY_CHUNK, unit, false, seed, sum);
		i += run;
	}
	free(buf);
	return ret;
}

/* One thread's part of verify_regions. */
struct part {
	pthread_t tid;
	bool started;
	int fd, ret;
	uint64_t base, nblocks;
	const uint64_t *written;
	uint32_t bs, unit;
	uint64_t seed;
	const volatile sig_atomic_t *stop;
	struct verify_sum sum;
};

static void *part_main(void *arg)
{
	struct part *p = arg;

	p->ret = verify_blocks(p->fd, p->base, p->nblocks, p->bs, p->unit, p->written, p->seed,
			       p->stop, &p->sum);
	return NULL;
}

int verify_regions(int fd, const struct verify_region *r, unsigned n, uint32_t bs, uint32_t unit,
		   uint64_t seed, const volatile sig_atomic_t *stop, struct verify_sum *sum)
{
	const unsigned per_region = n < VERIFY_THREADS ? VERIFY_THREADS / (n ? n : 1) : 1;
	struct part *parts = calloc((size_t)n * per_region, sizeof(*parts));
	unsigned np = 0, i;
	int ret = 0;

	if (!parts)
		return -ENOMEM;
	/* each region in per_region parts of whole map words (64 blocks) */
	for (i = 0; i < n; i++) {
		uint64_t step = (r[i].nblocks + per_region - 1) / per_region;

		step = (step + 63) / 64 * 64;
		for (uint64_t lo = 0; lo < r[i].nblocks; lo += step) {
			uint64_t len = r[i].nblocks - lo < step ? r[i].nblocks - lo : step;

			parts[np++] = (struct part){
				.fd = fd, .base = r[i].base + lo * bs, .nblocks = len,
				.written = r[i].written + lo / 64, .bs = bs, .unit = unit,
				.seed = seed, .stop = stop, .sum = { .done = true },
			};
		}
	}
	for (i = 0; i < np; i++)
		parts[i].started = !pthread_create(&parts[i].tid, NULL, part_main, &parts[i]);
	for (i = 0; i < np; i++) {
		if (parts[i].started)
			pthread_join(parts[i].tid, NULL);
		else
			part_main(&parts[i]);
		verify_sum_add(sum, &parts[i].sum);
		if (!ret)
			ret = parts[i].ret;
	}
	free(parts);
	return ret;
}

void verify_sum_add(struct verify_sum *a, const struct verify_sum *b)
{
	if (!b->done)
		return;
	if (b->bad && (!a->bad || b->first.offset < a->first.offset))
		a->first = b->first;
	if (!a->read_errno)
		a->read_errno = b->read_errno;
	a->done = true;
	a->blocks += b->blocks;
	a->bad += b->bad;
	a->bytes += b->bytes;
	a->time_ns += b->time_ns;
}

void verify_first_bad(const struct verify_sum *s, char *buf, size_t len)
{
	const struct verify_bad *b = &s->first;
	const char *name = verify_field_name(b->field);

	buf[0] = 0;
	if (!s->bad)
		return;
	switch (b->field) {
	case VERIFY_F_MAGIC:
	case VERIFY_F_CRC:
		snprintf(buf, len, "at offset %" PRIu64 ": %s expected 0x%08" PRIx64 ", found 0x%08"
			 PRIx64, b->offset, name, b->expected, b->found);
		break;
	case VERIFY_F_READ:
		snprintf(buf, len, "at offset %" PRIu64 ": reading %" PRIu64 " bytes back failed "
			 "after %" PRIu64 ": %s", b->offset, b->expected, b->found,
			 strerror(s->read_errno ? s->read_errno : EIO));
		break;
	default:
		snprintf(buf, len, "at offset %" PRIu64 ": %s expected %" PRIu64 ", found %" PRIu64,
			 b->offset, name, b->expected, b->found);
	}
}

const char *verify_field_name(enum verify_field f)
{
	return (unsigned)f < NFIELDS ? field_names[f] : "unknown";
}

int verify_field_parse(const char *name)
{
	for (size_t i = 0; i < NFIELDS; i++)
		if (!strcmp(field_names[i], name))
			return (int)i;
	return -1;
}
