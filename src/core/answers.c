/* answers.c - after I/O errors: does the target still answer a read of its first block? */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "session.h"

#define ANSWER_BYTES 4096

/* The child: open, read, and say how it went in its exit status (an
 * errno, 0 when the read moved its bytes). */
static _Noreturn void answer_child(const struct run_target *where, bool direct)
{
	void *buf = NULL;
	ssize_t got;
	int fd;

	fd = target_open(&where->data, O_RDONLY | (direct ? O_DIRECT : 0));
	if (fd == -ENOENT)
		_exit(0);	/* no data file (a directory's file tests): not judged */
	if (fd < 0)
		_exit(-fd & 0xff);
	if (posix_memalign(&buf, ANSWER_BYTES, ANSWER_BYTES))
		_exit(0);
	got = pread(fd, buf, ANSWER_BYTES, 0);
	if (got < 0)
		_exit(errno & 0xff);
	_exit(0);		/* a short first block is a small target, not a gone one */
}

/*
 * In a child process, so that a read that never comes back holds nobody:
 * on a device stuck in the kernel the child is killed and left (it is
 * reaped by init once its read returns, or never). A job process of a
 * test is no longer there: this is the only child waited for.
 */
int session_target_answers(const struct run_target *where, bool direct, uint64_t timeout_ns)
{
	const uint64_t until = clock_ns() + timeout_ns;
	struct timespec tick = { .tv_nsec = 10000000 };
	pid_t pid, got;
	int st;

	if (!where->data.name || !where->data.name[0])
		return 0;
	pid = fork();
	if (pid < 0)
		return 0;	/* cannot tell: not judged */
	if (!pid) {
		signal(SIGINT, SIG_IGN);
		answer_child(where, direct);
	}
	for (;;) {
		got = waitpid(pid, &st, WNOHANG);
		if (got == pid)
			break;
		if (got < 0 && errno != EINTR)
			return 0;
		if (clock_ns() >= until) {
			kill(pid, SIGKILL);
			return -ETIMEDOUT;
		}
		nanosleep(&tick, NULL);
	}
	if (!WIFEXITED(st))
		return 0;
	return -WEXITSTATUS(st);
}
