/* health.c - run smartctl --json on a drive, with a timeout (health.h). */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "health.h"

/* smartctl -x of an ATA drive with its logs is some 100 KiB of JSON */
#define HEALTH_MAX_OUTPUT (1u << 20)

/* The first executable "smartctl" on PATH into out; -ENOENT when none. */
static int find_smartctl(char *out, size_t len)
{
	const char *path = getenv("PATH");
	char dirs[4096], *save = NULL, *d;

	snprintf(dirs, sizeof(dirs), "%s", path && *path ? path : "/usr/sbin:/usr/bin:/sbin:/bin");
	for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
		if ((size_t)snprintf(out, len, "%s/smartctl", *d ? d : ".") >= len)
			continue;
		if (!access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

/* The child: stdout into the pipe, stdin and stderr from/to /dev/null. */
static void child(int wfd, const char *exe, const char *dev)
{
	int null = open("/dev/null", O_RDWR);

	if (null >= 0) {
		dup2(null, STDIN_FILENO);
		dup2(null, STDERR_FILENO);
	}
	dup2(wfd, STDOUT_FILENO);
	execl(exe, "smartctl", "--json", "-x", dev, (char *)NULL);
	_exit(127);
}

/* Read fd until EOF or the deadline: 0, -ETIMEDOUT, -EFBIG or -errno. */
static int drain(int fd, char *buf, size_t cap, size_t *len, uint64_t deadline)
{
	for (;;) {
		uint64_t now = clock_ns();
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t n;
		int r;

		if (now >= deadline)
			return -ETIMEDOUT;
		r = poll(&p, 1, (int)((deadline - now) / 1000000 + 1));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (!r)
			continue;
		if (*len == cap)
			return -EFBIG;
		n = read(fd, buf + *len, cap - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (!n)
			return 0;
		*len += (size_t)n;
	}
}

/* Run smartctl on dev; its output in *out (malloc'd, *len bytes). */
static int run(const char *exe, const char *dev, unsigned timeout_ms, char **out, size_t *len)
{
	uint64_t deadline = clock_ns() + (uint64_t)timeout_ms * 1000000;
	int fds[2], ret, st;
	pid_t pid;

	*out = malloc(HEALTH_MAX_OUTPUT);
	*len = 0;
	if (!*out)
		return -ENOMEM;
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		ret = -errno;
		close(fds[0]);
		close(fds[1]);
		return ret;
	}
	if (!pid)
		child(fds[1], exe, dev);
	close(fds[1]);
	ret = drain(fds[0], *out, HEALTH_MAX_OUTPUT, len, deadline);
	close(fds[0]);
	if (ret)	/* hung or too much: it is not waited for longer */
		kill(pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (!ret && WIFEXITED(st) && WEXITSTATUS(st) == 127)
		ret = -ENOEXEC;
	return ret;
}

int health_read(const char *dev, unsigned timeout_ms, struct health_snap *s, char *why,
		size_t wlen)
{
	char exe[PATH_MAX], *out = NULL;
	size_t len = 0;
	int ret;

	health_snap_init(s);
	if (find_smartctl(exe, sizeof(exe))) {
		snprintf(why, wlen, "smartctl not found on PATH (install smartmontools)");
		return -ENOENT;
	}
	ret = run(exe, dev, timeout_ms, &out, &len);
	if (ret == -ETIMEDOUT)
		snprintf(why, wlen, "smartctl did not answer within %u s (%s); not asked again",
			 (timeout_ms + 999) / 1000, exe);
	else if (ret)
		snprintf(why, wlen, "cannot run %s: %s", exe, strerror(-ret));
	else
		ret = health_parse(out, len, s, why, wlen);
	free(out);
	return ret;
}
