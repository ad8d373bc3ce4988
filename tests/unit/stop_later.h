/* stop_later.h - a stop flag raised 100 ms after a thread starts, as the
 * CLI's SIGINT handler raises it: for the tests of what a stop reaches. */
#ifndef DISKBENCH_TEST_STOP_LATER_H
#define DISKBENCH_TEST_STOP_LATER_H

#include <signal.h>
#include <unistd.h>

static volatile sig_atomic_t stop_flag;

/* pthread start routine: sleep 100 ms, then raise stop_flag */
static void *raise_stop(void *arg)
{
	(void)arg;
	usleep(100000);
	stop_flag = 1;
	return NULL;
}

#endif
