/* merge.c - one test in step on every rank, and its sum over all of them. */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "mpi_coord.h"
#include "timeline.h"
#include "verify.h"

void mpi_test_start(void *arg)
{
	struct mpi_run *m = arg;

	MPI_Barrier(MPI_COMM_WORLD);
	m->start_ns = clock_ns();
}

/* What each rank sends the root of one test, besides its histogram's
 * buckets (reduced in place). */
enum {
	U_OPS, U_BYTES, U_RUNTIME, U_ERRORS, U_START, U_END, U_DEV_VALID, U_DEV_READ,
	U_DEV_WRITE, U_ERRNO, U_ERROFF, U_LAT_N, U_LAT_MIN, U_LAT_MAX, U_LAT_SUM,
	U_LAT_SUMSQ_LO, U_LAT_SUMSQ_HI, U_SYSCALLS_VALID, U_SYSCALLS, U_N
};
enum { D_USER, D_SYS, D_USEC_OP, D_JOB_MAX, D_WAIT, D_N };

static void card_of(const struct mpi_run *m, const struct test_result *tr, uint64_t end,
		    uint64_t *u, double *d)
{
	const struct hist *h = tr->lat;

	u[U_OPS] = tr->ops;
	u[U_BYTES] = tr->bytes;
	u[U_RUNTIME] = tr->runtime_ns;
	u[U_ERRORS] = tr->errors;
	u[U_START] = m->start_ns;
	u[U_END] = end;
	u[U_DEV_VALID] = tr->dev_valid;
	u[U_DEV_READ] = tr->dev_read_bytes;
	u[U_DEV_WRITE] = tr->dev_write_bytes;
	u[U_ERRNO] = (uint64_t)tr->first_errno;
	u[U_ERROFF] = tr->first_error_offset;
	u[U_LAT_N] = h ? h->n : 0;
	u[U_LAT_MIN] = h ? h->min : UINT64_MAX;
	u[U_LAT_MAX] = h ? h->max : 0;
	u[U_LAT_SUM] = h ? h->sum : 0;
	u[U_LAT_SUMSQ_LO] = h ? (uint64_t)h->sumsq : 0;
	u[U_LAT_SUMSQ_HI] = h ? (uint64_t)(h->sumsq >> 64) : 0;
	u[U_SYSCALLS_VALID] = tr->syscalls_valid;
	u[U_SYSCALLS] = tr->syscalls;
	d[D_USER] = tr->cpu_user_pct;
	d[D_SYS] = tr->cpu_sys_pct;
	d[D_USEC_OP] = tr->usec_per_op;
	d[D_JOB_MAX] = tr->cpu_job_max_pct;
	d[D_WAIT] = tr->cpu_wait_valid ? tr->cpu_wait_pct : NAN;
}

/* Device counters are a host's, seen alike by every rank on it: the
 * largest of the ranks of host's first rank i counts, once per host (each
 * rank alone without the ranks' hosts). */
static void host_dev(const struct mpi_run *m, const struct result_ranks *rr, const uint64_t *u,
		     int i, struct test_result *tr)
{
	uint64_t rd = u[(size_t)i * U_N + U_DEV_READ], wr = u[(size_t)i * U_N + U_DEV_WRITE];

	for (int j = i + 1; rr && j < m->size; j++) {
		const uint64_t *uj = u + (size_t)j * U_N;

		if (strcmp(rr->info[i].hostname, rr->info[j].hostname))
			continue;
		if (uj[U_DEV_READ] > rd)
			rd = uj[U_DEV_READ];
		if (uj[U_DEV_WRITE] > wr)
			wr = uj[U_DEV_WRITE];
	}
	tr->dev_read_bytes += rd;
	tr->dev_write_bytes += wr;
}

/*
 * The root's test becomes the sum of every rank's, device bytes once per
 * host (host_dev). CPU percent adds up (each rank's CPU over its own
 * window); CPU per op is over all ops; the tool's system calls add up
 * (counted when every rank's were), its busiest job is the busiest of any;
 * the wait for a CPU is the ranks' mean (measured when every rank's was).
 */
static void sum_cards(const struct mpi_run *m, struct test_result *tr, const uint64_t *u,
		      const double *d)
{
	const struct result_ranks *rr = m->r ? m->r->ranks : NULL;
	struct hist *h = tr->lat;
	double cpu_us = 0, wait = 0;

	tr->ops = tr->bytes = tr->runtime_ns = tr->errors = 0;
	tr->dev_valid = true;
	tr->dev_read_bytes = tr->dev_write_bytes = 0;
	tr->cpu_user_pct = tr->cpu_sys_pct = 0;
	tr->cpu_job_max_pct = 0;
	tr->syscalls_valid = true;
	tr->syscalls = 0;
	tr->first_errno = 0;
	if (h) {
		h->n = h->sum = h->max = 0;
		h->min = UINT64_MAX;
		h->sumsq = 0;
	}
	for (int i = 0; i < m->size; i++) {
		const uint64_t *ui = u + (size_t)i * U_N;
		const double *di = d + (size_t)i * D_N;
		struct rank_test *rt = &tr->ranks[i];

		*rt = (struct rank_test){
			.ops = ui[U_OPS], .bytes = ui[U_BYTES], .runtime_ns = ui[U_RUNTIME],
			.errors = ui[U_ERRORS], .start_ns = ui[U_START], .end_ns = ui[U_END],
			.bytes_per_sec = ui[U_RUNTIME] ?
				(double)ui[U_BYTES] / (double)ui[U_RUNTIME] * 1e9 : 0,
			.lat_n = ui[U_LAT_N], .lat_min = ui[U_LAT_N] ? ui[U_LAT_MIN] : 0,
			.lat_max = ui[U_LAT_MAX], .lat_sum = ui[U_LAT_SUM],
		};
		tr->ops += ui[U_OPS];
		tr->bytes += ui[U_BYTES];
		if (ui[U_RUNTIME] > tr->runtime_ns)
			tr->runtime_ns = ui[U_RUNTIME];
		if (ui[U_ERRORS] && !tr->errors) {
			tr->first_errno = (int)ui[U_ERRNO];
			tr->first_error_offset = ui[U_ERROFF];
		}
		tr->errors += ui[U_ERRORS];
		tr->dev_valid = tr->dev_valid && ui[U_DEV_VALID];
		if (!rr || result_rank_first_of_host(rr, (unsigned)i))
			host_dev(m, rr, u, i, tr);
		tr->cpu_user_pct += di[D_USER];
		tr->cpu_sys_pct += di[D_SYS];
		cpu_us += di[D_USEC_OP] * (double)ui[U_OPS];
		tr->syscalls_valid = tr->syscalls_valid && ui[U_SYSCALLS_VALID];
		tr->syscalls += ui[U_SYSCALLS];
		if (di[D_JOB_MAX] > tr->cpu_job_max_pct)
			tr->cpu_job_max_pct = di[D_JOB_MAX];
		wait += di[D_WAIT];	/* NaN: a rank's was not measured */
		if (h) {
			h->n += ui[U_LAT_N];
			h->sum += ui[U_LAT_SUM];
			h->sumsq += (unsigned __int128)ui[U_LAT_SUMSQ_HI] << 64 | ui[U_LAT_SUMSQ_LO];
			if (ui[U_LAT_MIN] < h->min)
				h->min = ui[U_LAT_MIN];
			if (ui[U_LAT_MAX] > h->max)
				h->max = ui[U_LAT_MAX];
		}
	}
	tr->usec_per_op = tr->ops ? cpu_us / (double)tr->ops : 0;
	tr->cpu_wait_valid = m->size > 0 && !isnan(wait);
	tr->cpu_wait_pct = tr->cpu_wait_valid ? wait / m->size : 0;
	tr->nranks = (unsigned)m->size;
}

/* Any rank's failure is every rank's: the others free what they measured. */
static int agree_ran(const struct mpi_run *m, int ret, struct test_result *tr, char *err,
		     size_t errlen)
{
	int failed = ret ? m->rank : m->size, first;

	MPI_Allreduce(&failed, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
	if (first == m->size || ret)
		return ret;
	result_test_free(tr);
	snprintf(err, errlen, "rank %d could not run it (its message says why)", first);
	return -ECANCELED;
}

/*
 * For tests: with DISKBENCH_MPI_HIST_DIR set, each rank writes its own
 * histogram of each test, before the reduction, to DIR/rankR-testK.hist
 * ("bucket_low count" per bucket that holds any), so that a test can sum
 * them and compare with the merged one. A file that exists is left alone.
 */
static void dump_hist(const struct mpi_run *m, const struct hist *h)
{
	const char *dir = getenv("DISKBENCH_MPI_HIST_DIR");
	char path[PATH_MAX];
	FILE *f;
	int fd;

	if (!dir || !*dir || !h)
		return;
	snprintf(path, sizeof(path), "%s/rank%d-test%u.hist", dir, m->rank, m->ntest);
	fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0 || !(f = fdopen(fd, "w"))) {
		if (fd >= 0)
			close(fd);
		return;
	}
	for (unsigned i = 0; i < HIST_NBUCKETS; i++)
		if (h->count[i])
			fprintf(f, "%" PRIu64 " %" PRIu64 "\n", hist_bucket_low(i), h->count[i]);
	fclose(f);
}

/* What each rank's stall watch found (sampler.h, stall.h), as bytes (the same
 * binary on every rank). */
struct stall_card {
	uint64_t span, bound;
	unsigned n, missed;
	struct result_stall s[RESULT_MAX_STALLS];
};

/*
 * Every rank's stalls into the root's test, each with its rank (the first
 * RESULT_MAX_STALLS of them, the rest counted in stalls_missed); the
 * window's span is the longest rank's, as runtime_ns is the slowest
 * rank's window (each less its own stalls).
 */
static void gather_stalls(const struct mpi_run *m, struct test_result *tr)
{
	struct stall_card mine = { .span = tr->window_span_ns, .bound = tr->stall_bound_ns,
				   .n = tr->nstalls, .missed = tr->stalls_missed }, *all = NULL;
	bool root = m->rank == 0;

	memcpy(mine.s, tr->stalls, sizeof(mine.s));
	if (root && !(all = calloc((size_t)m->size, sizeof(*all)))) {
		mpi_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
	}
	MPI_Gather(&mine, (int)sizeof(mine), MPI_BYTE, all, (int)sizeof(mine), MPI_BYTE, 0,
		   MPI_COMM_WORLD);
	if (!root)
		return;
	tr->nstalls = tr->stalls_missed = 0;
	tr->window_span_ns = 0;
	for (int i = 0; i < m->size; i++) {
		if (all[i].span > tr->window_span_ns)
			tr->window_span_ns = all[i].span;
		tr->stalls_missed += all[i].missed;
		for (unsigned k = 0; k < all[i].n && k < RESULT_MAX_STALLS; k++) {
			if (tr->nstalls >= RESULT_MAX_STALLS) {
				tr->stalls_missed++;
				continue;
			}
			tr->stalls[tr->nstalls] = all[i].s[k];
			tr->stalls[tr->nstalls++].rank = (unsigned)i;
		}
	}
	/* the slowest rank's window is never above the longest span */
	if (tr->window_span_ns < tr->runtime_ns)
		tr->window_span_ns = tr->runtime_ns;
	free(all);
}

int mpi_test_done(void *arg, int ret, struct test_result *tr, char *err, size_t errlen)
{
	struct mpi_run *m = arg;
	uint64_t end = clock_ns(), mine[U_N], *u = NULL;
	double dmine[D_N], *d = NULL;
	struct verify_sum *vs;
	bool root = m->rank == 0;
	int has_lat;

	ret = agree_ran(m, ret, tr, err, errlen);
	if (ret)
		return ret;
	card_of(m, tr, end, mine, dmine);
	if (root) {
		u = calloc((size_t)m->size, sizeof(mine));
		d = calloc((size_t)m->size, sizeof(dmine));
		tr->ranks = calloc((size_t)m->size, sizeof(*tr->ranks));
		if (!u || !d || !tr->ranks) {
			mpi_error("out of memory");
			MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
		}
	}
	MPI_Gather(mine, U_N, MPI_UINT64_T, u, U_N, MPI_UINT64_T, 0, MPI_COMM_WORLD);
	MPI_Gather(dmine, D_N, MPI_DOUBLE, d, D_N, MPI_DOUBLE, 0, MPI_COMM_WORLD);
	/* The buckets are fixed (hist.h): summing the arrays is the exact
	 * histogram of every I/O of every rank. A rank without one (no
	 * latency recorded) adds zeros. */
	dump_hist(m, tr->lat);
	m->ntest++;
	has_lat = tr->lat != NULL;
	MPI_Bcast(&has_lat, 1, MPI_INT, 0, MPI_COMM_WORLD);
	if (has_lat) {
		static uint64_t zero[HIST_NBUCKETS];
		const uint64_t *send = tr->lat ? tr->lat->count : zero;

		MPI_Reduce(root ? MPI_IN_PLACE : send, root ? tr->lat->count : NULL,
			   HIST_NBUCKETS, MPI_UINT64_T, MPI_SUM, 0, MPI_COMM_WORLD);
	}
	/* --verify: what every rank read back and found (the same binary on
	 * every rank: the struct goes as bytes) */
	vs = root ? calloc((size_t)m->size, sizeof(*vs)) : NULL;
	if (root && !vs) {
		mpi_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
	}
	MPI_Gather(&tr->verify, (int)sizeof(tr->verify), MPI_BYTE, vs, (int)sizeof(tr->verify),
		   MPI_BYTE, 0, MPI_COMM_WORLD);
	for (int i = 1; root && i < m->size; i++)
		verify_sum_add(&tr->verify, &vs[i]);
	free(vs);
	if (root)
		sum_cards(m, tr, u, d);
	gather_stalls(m, tr);
	if (root) {
		/* A timeline is one rank's intervals on its own clock: a sum
		 * of them would pretend the ranks' intervals were aligned. */
		if (tr->timeline.interval_ns && m->size > 1) {
			timeline_free(&tr->timeline);
			tr->timeline = (struct timeline){ 0 };
			if (!m->timeline_noted && m->r)
				result_add_warning(m->r, "the tests' timelines are per rank and are not "
						   "merged: this result has none (the drift check "
						   "needs one)");
			m->timeline_noted = true;
		}
	}
	free(u);
	free(d);
	return 0;
}
