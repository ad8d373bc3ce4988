/* status.h - the exit statuses (DESIGN.md section 2) of both programs, diskbench and diskbench-mpi. */
#ifndef DISKBENCH_STATUS_H
#define DISKBENCH_STATUS_H

enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_REFUSED = 3,
};

#endif
