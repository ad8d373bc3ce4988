/* test_engines.c - every registry row is complete, and every engine moves the right bytes. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "engine.h"
#include "workload.h"

/* A missing callback is a NULL call at run time, in a test that may not
 * cover that engine: fail here with the row and the field named. */
#define NEED(what, row, ptr) do { \
	if (!(ptr)) \
		fail_msg("%s '%s': %s is NULL", what, row, #ptr); \
} while (0)

static int empty(const char *s)
{
	return !s || !*s;
}

static void test_engine_rows(void **state)
{
	const struct engine_entry *tab, *e;
	const struct engine_ops *o;
	size_t i, j, n, built = 0;

	tab = engine_table(&n);
	assert_non_null(tab);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		e = &tab[i];
		if (empty(e->name))
			fail_msg("engine row %zu has no name", i);
		for (j = 0; j < i; j++)
			if (!strcmp(tab[j].name, e->name))
				fail_msg("engine '%s': two rows", e->name);
		o = e->ops;
		if (!o) {
			/* list engines prints it: say why, not nothing */
			if (empty(e->missing))
				fail_msg("engine '%s': not built and no reason why", e->name);
			assert_null(engine_find(e->name));
			continue;
		}
		built++;
		NEED("engine", e->name, o->name);
		NEED("engine", e->name, o->desc);
		NEED("engine", e->name, o->probe);
		NEED("engine", e->name, o->init);
		NEED("engine", e->name, o->submit);
		NEED("engine", e->name, o->reap);
		NEED("engine", e->name, o->cleanup);
		if (strcmp(o->name, e->name))
			fail_msg("engine row '%s' holds the ops of '%s'", e->name, o->name);
		if (!*o->desc)
			fail_msg("engine '%s': empty desc", e->name);
		assert_ptr_equal(engine_find(e->name), o);
	}
	/* sync, direct and null need nothing from configure */
	assert_true(built >= 3);
#ifdef HAVE_LIBURING
	assert_ptr_equal(engine_find("io_uring"), &engine_io_uring);
#endif
#ifdef HAVE_LIBAIO
	assert_ptr_equal(engine_find("libaio"), &engine_libaio);
#endif
}

static void test_workload_rows(void **state)
{
	const struct workload *tab, *w;
	const struct wl_ops *o;
	size_t i, n, nops = 0;

	tab = wl_table(&n);
	assert_non_null(tab);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		w = &tab[i];
		if (empty(w->name))
			fail_msg("workload row %zu has no name", i);
		if (empty(w->desc))
			fail_msg("workload '%s': no desc", w->name);
		/* the first row of a name wins: a second one could never run */
		if (wl_find(w->name) != w)
			fail_msg("workload '%s': two rows", w->name);
		if (w->kind != WL_OPS)
			continue;
		nops++;
		o = w->ops;
		NEED("workload", w->name, o);
		NEED("workload", w->name, o->init);
		NEED("workload", w->name, o->op);
		NEED("workload", w->name, o->cleanup);
		NEED("workload", w->name, o->describe);
		NEED("workload", w->name, o->footprint);
	}
	assert_true(nops > 0);
}

/* ---- data: what an engine writes lands where it should, reads come back -- */

#define DQD 8
#define DBS 4096

/* Run reqs[0..n) through e on ctx to completion; every one must move DBS. */
static void run_all(const struct engine_ops *e, struct engine_ctx *ctx, struct io_req *reqs,
		    unsigned n)
{
	struct io_req *todo[DQD], *done[DQD];
	unsigned left = n, sent = 0;
	int got;

	for (unsigned i = 0; i < n; i++)
		todo[i] = &reqs[i];
	while (sent < n) {
		got = e->submit(ctx, todo + sent, n - sent);
		if (got < 0)
			fail_msg("%s: submit: %d", e->name, got);
		if (!got)	/* busy with qd requests free: cannot be */
			fail_msg("%s: submit took none of %u", e->name, n - sent);
		sent += (unsigned)got;
	}
	while (left) {
		got = e->reap(ctx, 1, done, DQD);
		if (got < 0)
			fail_msg("%s: reap: %d", e->name, got);
		for (int i = 0; i < got; i++)
			if (done[i]->result != DBS)
				fail_msg("%s: request %u moved %lld", e->name, done[i]->idx,
					 (long long)done[i]->result);
		left -= (unsigned)got;
	}
}

/* A scratch file of DQD blocks (unlinked: *fd holds it) and DQD aligned
 * buffers in *bufs for e; false, saying why, when e does not work here. */
static bool engine_file(const struct engine_ops *e, int *fd, unsigned char **bufs)
{
	char path[] = "/var/tmp/test_engines.XXXXXX", why[256] = "";

	if (e->probe(why, sizeof(why)) < 0) {
		print_message("%s: %s (skipped)\n", e->name, why);
		return false;
	}
	*fd = mkstemp(path);
	assert_true(*fd >= 0);
	unlink(path);
	assert_int_equal(ftruncate(*fd, DQD * DBS), 0);
	assert_int_equal(posix_memalign((void **)bufs, 4096, DQD * DBS), 0);
	return true;
}

/* One transfer through ctx; returns its result. */
static int64_t one_req(const struct engine_ops *e, struct engine_ctx *ctx, void *buf,
		       enum io_dir dir)
{
	struct io_req req = { .buf = buf, .len = DBS, .dir = dir }, *r = &req, *done;

	assert_int_equal(e->submit(ctx, &r, 1), 1);
	assert_int_equal(e->reap(ctx, 1, &done, 1), 1);
	assert_ptr_equal(done, &req);
	return req.result;
}

/*
 * Does the kernel poll ctx's file? A block is written, then read back
 * through the polled ring: a read of a hole, or a write that allocates,
 * is done by the file system without a polled request, but the read of
 * written data is a request to the device. True when it moved the block;
 * false when the kernel refused to poll (EOPNOTSUPP: the device has no
 * poll queues), which the polled reap must still hand back.
 */
static bool polls(const struct engine_ops *e, struct engine_ctx *ctx, unsigned char *bufs)
{
	int64_t res = one_req(e, ctx, bufs, IO_WRITE);

	if (res == DBS)
		res = one_req(e, ctx, bufs, IO_READ);
	if (res == -EOPNOTSUPP) {
		print_message("%s: the kernel polls no device here (EOPNOTSUPP, reaped by"
			      " polling): only that path checked\n", e->name);
		return false;
	}
	assert_int_equal(res, DBS);
	return true;
}

/* Each engine (registered buffers or not: bufs given, then NULL) writes
 * eight blocks of distinct bytes out of order, the file holds them, and
 * it reads them back into cleared buffers. hipri: through an O_DIRECT
 * descriptor with polled completions (engine_ctx.hipri); false when the
 * file or the kernel has no O_DIRECT or polling, saying so. */
static bool engine_data(const struct engine_ops *e, bool give_bufs, bool hipri)
{
	struct engine_ctx ctx = { .qd = DQD };
	struct io_req reqs[DQD];
	unsigned char *bufs = NULL, want[DBS], got[DBS];
	char path[64];
	int fd, ret;

	if (!engine_file(e, &fd, &bufs))
		return false;
	ctx.fd = fd;
	if (hipri) {
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
		ctx.fd = open(path, O_RDWR | O_DIRECT);
		ctx.hipri = true;
	}
	ctx.bufs = give_bufs ? bufs : NULL;
	ctx.buf_len = DBS;
	ret = ctx.fd < 0 ? -errno : e->init(&ctx);
	if (hipri && ret < 0) {
		print_message("%s: no polled O_DIRECT on /var/tmp here: %s (skipped)\n", e->name,
			      strerror(-ret));
		if (ctx.fd >= 0)
			close(ctx.fd);
		close(fd);
		free(bufs);
		return false;
	}
	assert_int_equal(ret, 0);
	if (hipri && !polls(e, &ctx, bufs)) {
		e->cleanup(&ctx);
		close(ctx.fd);
		close(fd);
		free(bufs);
		return false;
	}
	for (unsigned i = 0; i < DQD; i++) {
		memset(bufs + i * DBS, 'a' + (int)i, DBS);
		/* slot i goes to block 7 - i: offsets and slots differ */
		reqs[i] = (struct io_req){ .buf = bufs + i * DBS, .len = DBS, .dir = IO_WRITE,
					   .idx = i, .offset = (uint64_t)(DQD - 1 - i) * DBS };
	}
	run_all(e, &ctx, reqs, DQD);
	for (unsigned i = 0; i < DQD; i++) {
		memset(want, 'a' + (int)i, DBS);
		assert_int_equal(pread(fd, got, DBS, (off_t)(DQD - 1 - i) * DBS), DBS);
		if (memcmp(got, want, DBS))
			fail_msg("%s: block %u does not hold slot %u's bytes", e->name,
				 DQD - 1 - i, i);
	}
	memset(bufs, 0, DQD * DBS);
	for (unsigned i = 0; i < DQD; i++)
		reqs[i].dir = IO_READ;
	run_all(e, &ctx, reqs, DQD);
	for (unsigned i = 0; i < DQD; i++) {
		memset(want, 'a' + (int)i, DBS);
		if (memcmp(bufs + i * DBS, want, DBS))
			fail_msg("%s: slot %u read back other bytes", e->name, i);
	}
	e->cleanup(&ctx);
	if (ctx.fd != fd)
		close(ctx.fd);
	close(fd);
	free(bufs);
	return true;
}

static void test_engine_data(void **state)
{
	const struct engine_entry *tab;
	size_t n;

	(void)state;
	tab = engine_table(&n);
	for (size_t i = 0; i < n; i++) {
		const struct engine_ops *e = tab[i].ops;

		/* null moves nothing; direct (O_DIRECT is the runner's) is sync */
		if (!e || e->flags & ENGINE_F_NO_IO)
			continue;
		engine_data(e, true, false);
		engine_data(e, false, false);
	}
}

#ifdef HAVE_LIBURING
/*
 * --hipri's path: io_uring with IORING_SETUP_IOPOLL reaps by polling, with
 * and without fixed buffers, through an O_DIRECT file in /var/tmp. Where
 * the device under it has poll queues, the bytes are checked as for every
 * engine; where it has none (this project's VM: the CLI refuses --hipri
 * there), the kernel completes the request with EOPNOTSUPP, and what is
 * checked is that the polled reap hands that back instead of hanging.
 * Neither measures the speed of polling.
 */
static void test_uring_hipri(void **state)
{
	(void)state;
	if (engine_data(&engine_io_uring, true, true))
		engine_data(&engine_io_uring, false, true);
}
#endif

/*
 * Each engine counts the system calls it makes (engine_ctx.syscalls): eight
 * reads of a file, one request per submit(), then reaped one by one. sync
 * and direct: one pread per request, none to reap; libaio: one io_submit
 * per request, at most one io_getevents per reap; io_uring: one io_uring_enter per
 * request (and one register call that enables the ring, once), at least
 * one enter per reap that waited; null: none at all.
 */
static void engine_syscalls(const struct engine_ops *e)
{
	struct engine_ctx ctx = { .qd = DQD };
	struct io_req reqs[DQD], *r, *done[DQD];
	unsigned char *bufs = NULL;
	unsigned left = DQD, reaps = 0;
	uint64_t submitted;
	int fd, got;

	if (!engine_file(e, &fd, &bufs))
		return;
	ctx.fd = e->flags & ENGINE_F_NO_IO ? -1 : fd;
	assert_int_equal(e->init(&ctx), 0);
	assert_int_equal(ctx.syscalls, 0);
	for (unsigned i = 0; i < DQD; i++) {
		reqs[i] = (struct io_req){ .buf = bufs + i * DBS, .len = DBS, .dir = IO_READ,
					   .idx = i, .offset = (uint64_t)i * DBS };
		r = &reqs[i];
		assert_int_equal(e->submit(&ctx, &r, 1), 1);
	}
	submitted = ctx.syscalls;
	while (left) {
		got = e->reap(&ctx, 1, done, DQD);
		assert_true(got >= 1);
		left -= (unsigned)got;
		reaps++;
	}
	if (e->flags & ENGINE_F_NO_IO) {
		assert_int_equal(ctx.syscalls, 0);
	} else if (e->flags & ENGINE_F_SYNC) {
		assert_int_equal(submitted, DQD);
		assert_int_equal(ctx.syscalls, DQD);
	} else if (!strcmp(e->name, "libaio")) {
		/* A reap that finds its events in the ring makes no call. */
		assert_int_equal(submitted, DQD);
		assert_true(ctx.syscalls <= DQD + reaps);
	} else {
		assert_true(submitted == DQD || submitted == DQD + 1);
		assert_true(ctx.syscalls - submitted >= reaps);
		assert_true(ctx.syscalls - submitted <= reaps + DQD);
	}
	e->cleanup(&ctx);
	close(fd);
	free(bufs);
}

static void test_engine_syscalls(void **state)
{
	const struct engine_entry *tab;
	size_t n;

	(void)state;
	tab = engine_table(&n);
	for (size_t i = 0; i < n; i++)
		if (tab[i].ops)
			engine_syscalls(tab[i].ops);
}

#ifdef HAVE_LIBAIO
/*
 * ROUNDS rounds of DQD reads, slot i reading block (i + round) % DQD, each
 * block filled with its own byte; every slot must come back once per round
 * with its block's bytes. wait_all: each reap waits for all in flight (so
 * it mostly waits in io_getevents), else for one. Returns the reaps made.
 */
#define ROUNDS 200
static unsigned libaio_rounds(struct engine_ctx *ctx, struct io_req *reqs, unsigned char *bufs,
			      bool wait_all)
{
	struct io_req *todo[DQD], *done[DQD];
	unsigned reaps = 0;

	for (unsigned round = 0; round < ROUNDS; round++) {
		unsigned seen = 0, left = DQD;

		memset(bufs, 0, DQD * DBS);
		for (unsigned i = 0; i < DQD; i++) {
			reqs[i].offset = (uint64_t)((i + round) % DQD) * DBS;
			todo[i] = &reqs[i];
			assert_int_equal(engine_libaio.submit(ctx, &todo[i], 1), 1);
		}
		while (left) {
			int got = engine_libaio.reap(ctx, wait_all ? left : 1, done, DQD);

			assert_true(got >= 1 && (unsigned)got <= left);
			reaps++;
			for (int k = 0; k < got; k++) {
				unsigned idx = done[k]->idx;
				unsigned char want = 'a' + (idx + round) % DQD;

				if (seen & 1u << idx)
					fail_msg("round %u: slot %u came back twice", round, idx);
				seen |= 1u << idx;
				assert_int_equal(done[k]->result, DBS);
				if (bufs[idx * DBS] != want || bufs[idx * DBS + DBS - 1] != want)
					fail_msg("round %u: slot %u holds '%c', not '%c'", round,
						 idx, bufs[idx * DBS], want);
			}
			left -= (unsigned)got;
		}
	}
	return reaps;
}

/*
 * libaio reaps from the completion ring in user space when the events are
 * there, and waits in io_getevents when they are not; both take from one
 * ring, which wraps (ROUNDS x DQD events through a ring of about 127).
 * Buffered AIO completes inside io_submit, so there every reap finds its
 * events in the ring and makes no call; with O_DIRECT (where the file
 * system has it) the two paths mix.
 */
static void test_libaio_ring(void **state)
{
	struct engine_ctx ctx = { .qd = DQD };
	struct io_req reqs[DQD];
	unsigned char *bufs = NULL;
	char path[64];
	int fd, dfd;

	(void)state;
	if (!engine_file(&engine_libaio, &fd, &bufs))
		return;
	for (unsigned i = 0; i < DQD; i++) {
		unsigned char blk[DBS];

		memset(blk, 'a' + (int)i, DBS);
		assert_int_equal(pwrite(fd, blk, DBS, (off_t)i * DBS), DBS);
		reqs[i] = (struct io_req){ .buf = bufs + i * DBS, .len = DBS, .dir = IO_READ,
					   .idx = i };
	}
	ctx.fd = fd;
	assert_int_equal(engine_libaio.init(&ctx), 0);
	libaio_rounds(&ctx, reqs, bufs, false);
	assert_int_equal(ctx.syscalls, ROUNDS * DQD);
	engine_libaio.cleanup(&ctx);

	assert_int_equal(fsync(fd), 0);
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	dfd = open(path, O_RDONLY | O_DIRECT);
	if (dfd >= 0) {
		ctx = (struct engine_ctx){ .qd = DQD, .fd = dfd };
		assert_int_equal(engine_libaio.init(&ctx), 0);
		libaio_rounds(&ctx, reqs, bufs, true);
		libaio_rounds(&ctx, reqs, bufs, false);
		engine_libaio.cleanup(&ctx);
		close(dfd);
	} else {
		print_message("libaio: no O_DIRECT on /var/tmp (only the buffered half)\n");
	}
	close(fd);
	free(bufs);
}
#endif

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_engine_rows),
		cmocka_unit_test(test_workload_rows),
		cmocka_unit_test(test_engine_data),
#ifdef HAVE_LIBURING
		cmocka_unit_test(test_uring_hipri),
#endif
		cmocka_unit_test(test_engine_syscalls),
#ifdef HAVE_LIBAIO
		cmocka_unit_test(test_libaio_ring),
#endif
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
