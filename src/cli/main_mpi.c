/* main_mpi.c - diskbench-mpi: one run of the same plan on every rank, one report (the CLI glue). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "mpi_coord.h"

void mpi_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	cli_verror(fmt, ap);
	va_end(ap);
}

/* The subcommands that read saved results need no MPI: the plain program
 * has them. */
static bool other_subcommand(const char *w)
{
	static const char *const others[] = { "list", "info", "report", "compare", "tune" };

	for (size_t i = 0; i < sizeof(others) / sizeof(others[0]); i++)
		if (!strcmp(w, others[i]))
			return true;
	return false;
}

static const char usage[] =
	"usage: mpirun [MPIRUN OPTIONS] diskbench-mpi [run] [OPTIONS] TARGET\n"
	"\n"
	"Run the same plan as 'diskbench run' on every rank at once, each test\n"
	"started together (a barrier) on each rank's own TARGET, and write one\n"
	"report from rank 0: totals over the slowest rank's window, latency\n"
	"percentiles over every I/O of every rank, and each rank's share (the\n"
	"imbalance). TARGET may hold %r (the rank), %l (its rank on its host),\n"
	"%h (the host name) and %% (a %), e.g. /mnt/nfs/db.%h.%l: two ranks of\n"
	"one host on one device, file or expanded path are refused; a shared\n"
	"directory gives each rank its own scratch directory. If any rank may\n"
	"not run (or write), no rank writes. --steady-state is not taken.\n"
	"\n";

int main(int argc, char **argv)
{
	static struct mpi_run m;
	struct session_coord h = {
		.arg = &m, .target = mpi_target, .prepare = mpi_prepare, .agree = mpi_agree,
		.test_start = mpi_test_start, .test_done = mpi_test_done, .finish = mpi_finish,
		.usage = usage,
	};
	MPI_Comm node;
	int status;

	MPI_Init(&argc, &argv);
	/*
	 * A rank that dies (kill -9, a crash) must not leave the others
	 * waiting in a barrier: an error on the communicator aborts the job
	 * (the default, said out loud), and mpirun tears down every rank,
	 * with SIGTERM first, which removes their scratch directories.
	 */
	MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
	MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
	MPI_Comm_size(MPI_COMM_WORLD, &m.size);
	MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, m.rank, MPI_INFO_NULL, &node);
	MPI_Comm_rank(node, &m.local_rank);
	MPI_Comm_free(&node);
	if (gethostname(m.host, sizeof(m.host) - 1))
		snprintf(m.host, sizeof(m.host), "unknown");
	snprintf(m.name, sizeof(m.name), "diskbench-mpi: rank %d", m.rank);
	cli_name = m.name;
	h.root = m.rank == 0;

	if (mpi_bcast_argv(&argc, &argv)) {
		cli_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, EXIT_RUNTIME);
	}
	if (argc > 1 && other_subcommand(argv[1])) {
		if (h.root)
			cli_error("%s: run it with the plain diskbench; diskbench-mpi only runs "
				  "(diskbench-mpi [run] [OPTIONS] TARGET)", argv[1]);
		status = EXIT_USAGE;
	} else if (argc > 1 && !strcmp(argv[1], "run")) {
		status = cli_run(argc - 1, argv + 1, &h);
	} else {
		status = cli_run(argc, argv, &h);
	}
	if (h.root && cli_close_stdout() != EXIT_OK && status == EXIT_OK)
		status = EXIT_RUNTIME;
	MPI_Finalize();
	return status;
}
