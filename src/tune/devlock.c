/* devlock.c - the disk's own lock: a BSD flock on its node in /dev, the one udev and util-linux's tools honour. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "journal_int.h"
#include "tune_int.h"

/* A process holding a flock on the inode st names (its file system and
 * number), from /proc/locks; 0 when none is listed there. Waiters ("->")
 * are not holders. */
static pid_t flock_holder(const struct stat *st)
{
	char line[256], type[16], mode[16];
	unsigned long ino;
	unsigned maj, min;
	pid_t found = 0;
	int pid;
	FILE *f;

	f = fopen("/proc/locks", "re");
	if (!f)
		return 0;
	while (!found && fgets(line, sizeof(line), f))
		if (sscanf(line, "%*d: %15s %*s %15s %d %x:%x:%lu", type, mode, &pid, &maj, &min,
			   &ino) == 6 && !strcmp(type, "FLOCK") && maj == major(st->st_dev) &&
		    min == minor(st->st_dev) && ino == st->st_ino && pid > 0)
			found = pid;
	fclose(f);
	return found;
}

/* "pid N (comm)", "pid N", or "another process" into buf. */
static void holder_words(pid_t pid, char *buf, size_t len)
{
	char path[64], comm[32] = "";
	FILE *f;

	if (!pid) {
		snprintf(buf, len, "another process");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (f) {
		if (fgets(comm, sizeof(comm), f))
			comm[strcspn(comm, "\n")] = '\0';
		fclose(f);
	}
	if (comm[0])
		snprintf(buf, len, "pid %d (%s)", (int)pid, comm);
	else
		snprintf(buf, len, "pid %d", (int)pid);
}

int tune_devlock_take(const struct tune_queue *q, int *fd, char *err, size_t errlen)
{
	char path[96], who[64];
	struct stat st;
	int d, e;

	*fd = -1;
	snprintf(path, sizeof(path), "/dev/%s", q->disk);
	/* O_NONBLOCK: a drive without its medium opens all the same */
	d = open(path, O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
	if (d < 0)
		return 0;
	if (fstat(d, &st) || !S_ISBLK(st.st_mode) || st.st_rdev != q->devno) {
		close(d);
		return 0;
	}
	if (!flock(d, LOCK_EX | LOCK_NB)) {
		*fd = d;
		return 0;
	}
	e = errno;
	close(d);
	if (e != EWOULDBLOCK)
		return tune_set_err(err, errlen, -e, "cannot lock %s: %s", path, strerror(e));
	holder_words(flock_holder(&st), who, sizeof(who));
	return tune_set_err(err, errlen, -EBUSY, "%s is locked by %s (flock on the device node: a "
			    "tune with other journals than %s, or a tool changing the disk)",
			    path, who, tune_journal_dir());
}
