/* status.h - the exit statuses (DESIGN.md section 2) of both programs, diskbench and diskbench-mpi. */
#ifndef DISKBENCH_STATUS_H
#define DISKBENCH_STATUS_H

enum {
	EXIT_OK = 0,
	EXIT_RUNTIME = 1,
	EXIT_USAGE = 2,
	EXIT_REFUSED = 3,
};

/*
 * What each step of a subcommand (parse the options, load the profile,
 * probe ...) returns, in every file alike: EXIT_OK to go on to the next
 * step, STEP_DONE to stop with nothing wrong (--help, --version, a
 * --restore that finished: the exit status is 0), or the exit status to
 * stop with. step_exit turns the last step's word into the exit status.
 */
enum {
	STEP_DONE = -1,
};

static inline int step_exit(int status)
{
	return status == STEP_DONE ? EXIT_OK : status;
}

#endif
