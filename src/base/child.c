/* child.c - a child process that may be left in the kernel: what it holds, what it hears. */
#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "child.h"

bool child_detach(pid_t parent)
{
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	if (null >= 0) {
		(void)dup2(null, STDIN_FILENO);
		(void)dup2(null, STDOUT_FILENO);
#ifndef DISKBENCH_SANITIZED
		(void)dup2(null, STDERR_FILENO);
#endif
		close(null);
	}
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL);
	return getppid() == parent;	/* else it died before the line above */
}
