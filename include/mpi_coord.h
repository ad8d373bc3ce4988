/* mpi_coord.h - the coordinated run over MPI: its ranks' state and collective steps (src/mpi/). */
#ifndef DISKBENCH_MPI_COORD_H
#define DISKBENCH_MPI_COORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <mpi.h>

#include "result.h"
#include "session.h"
#include "status.h"

/* One process of the run: who it is, and what the root reports into. */
struct mpi_run {
	int rank, size, local_rank;
	char host[64];
	char name[48];		/* "diskbench-mpi: rank 2", what it says first */
	struct run_result *r;	/* the result (the root's is reported) */
	uint64_t start_ns;	/* this rank's window of the current test */
	unsigned ntest;		/* tests done so far */
	bool timeline_noted;
};

/* "<its name>: <msg>" on stderr ("diskbench-mpi: rank 2: ..."): the
 * program provides it (src/cli/main_mpi.c), since only the CLI prints. */
void mpi_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* ranks.c: who runs where, and the agreement before anything is written. */

/* Every rank takes rank 0's argv (*argc, *argv replaced by a copy that
 * lives until exit): one command line, so one plan. 0 or -ENOMEM. */
int mpi_bcast_argv(int *argc, char ***argv);

/* session_coord.target: TARGET with %r (rank), %l (local rank), %h (host
 * name) and %% expanded. EXIT_OK, or EXIT_USAGE after saying why. */
int mpi_target(void *arg, const char *given, char *out, size_t len);

/* session_coord.prepare: every rank's status, target and plan compared;
 * refuses (EXIT_USAGE) two ranks of one host on one device or file (or one
 * path a placeholder made), plans that differ and --steady-state; fills the
 * root's r->ranks and re-seeds each rank's plan. The run's status out. */
int mpi_prepare(void *arg, int status, const struct session_point *pt);

/* session_coord.agree: the worst of every rank's status (the root says
 * which ranks failed). */
int mpi_agree(void *arg, int status);

/* merge.c: one test in step. */

/* session_coord.test_start: a barrier, then this rank's window opens. */
void mpi_test_start(void *arg);

/* session_coord.test_done: the window closes; any rank's failure is every
 * rank's; on the root tr becomes the sum of every rank's test (ops, bytes,
 * errors, CPU, device bytes per host, the histogram bucket by bucket),
 * over the slowest rank's window, with each rank's share in tr->ranks. */
int mpi_test_done(void *arg, int ret, struct test_result *tr, char *err, size_t errlen);

/* session_coord.finish: every other rank's warnings into the root's r,
 * "rank N: ..." (those the root has itself once). */
void mpi_finish(void *arg, struct run_result *r);

#endif
