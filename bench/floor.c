/* floor.c - the floor: the least a 4k random O_DIRECT io_uring read costs.
 *
 * Usage: floor DEVICE QD SECONDS [JOBS [MODE]]
 *
 * Each job (a process, as diskbench's and fio's jobs are) opens DEVICE with
 * O_DIRECT, sets up a ring of QD entries with a registered file and QD
 * registered 4 KiB buffers, and keeps QD reads of random 4 KiB-aligned
 * offsets in flight: one io_uring_submit_and_wait() per batch, then every
 * completion reaped and its slot read again. The clock is read once per
 * batch. Nothing is measured but a count of completed reads; the parent
 * prints "ops N iops X" over SECONDS. Errors end the program with exit 1.
 * MODE is how the ring is set up, to measure what each of the kernel's
 * offers gives, one at a time: "defer" (the default, as diskbench's:
 * IORING_SETUP_SINGLE_ISSUER | DEFER_TASKRUN, completions run only when
 * the job waits), "coop" (COOP_TASKRUN | TASKRUN_FLAG: no interrupt to run
 * them), "plain" (none), and any of them with "+ringfd" (the ring's fd
 * registered, io_uring_register_ring_fd: no fd lookup per enter).
 * A yardstick for bench/floor.sh, never installed, never part of diskbench.
 */
#include <errno.h>
#include <fcntl.h>
#include <liburing.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <linux/fs.h>

#define BS 4096

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static void die(const char *what, int err)
{
	fprintf(stderr, "floor: %s: %s\n", what, strerror(err));
	exit(1);
}

/* One job: QD reads in flight until end_ns; returns the reads completed. */
static uint64_t job(const char *dev, unsigned qd, uint64_t end_ns, uint64_t seed,
		    unsigned setup, int ringfd)
{
	struct io_uring ring;
	struct io_uring_cqe *cqe;
	struct iovec *iov = calloc(qd, sizeof(*iov));
	unsigned *freed = calloc(qd, sizeof(*freed));
	uint64_t blocks, ops = 0, x = seed | 1;
	unsigned i, head, nfree = qd;
	int fd, ret;

	fd = open(dev, O_RDONLY | O_DIRECT);
	if (!iov || !freed || fd < 0 || ioctl(fd, BLKGETSIZE64, &blocks))
		die(dev, fd < 0 ? errno : ENOMEM);
	blocks /= BS;
	if ((ret = io_uring_queue_init(qd, &ring, setup)) < 0)
		die("io_uring_queue_init", -ret);
	if (ringfd && (ret = io_uring_register_ring_fd(&ring)) < 0)
		die("io_uring_register_ring_fd", -ret);
	for (i = 0; i < qd; i++) {
		if (posix_memalign(&iov[i].iov_base, BS, BS))
			die("posix_memalign", ENOMEM);
		iov[i].iov_len = BS;
		freed[i] = i;
	}
	if ((ret = io_uring_register_buffers(&ring, iov, qd)) < 0)
		die("io_uring_register_buffers", -ret);
	if ((ret = io_uring_register_files(&ring, &fd, 1)) < 0)
		die("io_uring_register_files", -ret);
	for (;;) {
		for (i = 0; i < nfree; i++) {	/* the slots the last batch freed */
			struct io_uring_sqe *sqe = io_uring_get_sqe(&ring);
			unsigned slot = freed[i];

			x ^= x << 13, x ^= x >> 7, x ^= x << 17;	/* xorshift64 */
			io_uring_prep_read_fixed(sqe, 0, iov[slot].iov_base, BS,
						 (x % blocks) * BS, (int)slot);
			sqe->flags |= IOSQE_FIXED_FILE;
			sqe->user_data = slot;
		}
		if ((ret = io_uring_submit_and_wait(&ring, 1)) < 0)
			die("io_uring_submit_and_wait", -ret);
		nfree = 0;
		io_uring_for_each_cqe(&ring, head, cqe) {
			if (cqe->res != BS)
				die("read", cqe->res < 0 ? -cqe->res : EIO);
			freed[nfree++] = (unsigned)cqe->user_data;
		}
		io_uring_cq_advance(&ring, nfree);
		ops += nfree;
		if (now_ns() >= end_ns)
			return ops;
	}
}

/* MODE: the ring's setup flags and whether its fd is registered; -1 if bad */
static int parse_mode(const char *mode, unsigned *setup, int *ringfd)
{
	const char *plus = strchr(mode, '+');
	size_t n = plus ? (size_t)(plus - mode) : strlen(mode);

	*ringfd = plus != NULL;
	if (plus && strcmp(plus, "+ringfd"))
		return -1;
	if (n == 5 && !strncmp(mode, "defer", 5))
		*setup = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN;
	else if (n == 4 && !strncmp(mode, "coop", 4))
		*setup = IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
	else if (n == 5 && !strncmp(mode, "plain", 5))
		*setup = 0;
	else
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	unsigned qd, jobs, j, setup;
	double secs;
	uint64_t *count, start, total = 0;
	int ringfd;

	if (argc < 4 || argc > 6 || !(qd = (unsigned)atoi(argv[2])) || qd > 4096 ||
	    !((secs = atof(argv[3])) > 0) || !(jobs = argc >= 5 ? (unsigned)atoi(argv[4]) : 1) ||
	    parse_mode(argc == 6 ? argv[5] : "defer", &setup, &ringfd)) {
		fprintf(stderr, "usage: floor DEVICE QD(1-4096) SECONDS [JOBS [defer|coop|plain[+ringfd]]]\n");
		return 2;
	}
	count = mmap(NULL, jobs * sizeof(*count), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (count == MAP_FAILED)
		die("mmap", errno);
	start = now_ns();
	for (j = 0; j < jobs; j++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork", errno);
		if (pid == 0) {
			count[j] = job(argv[1], qd, start + (uint64_t)(secs * 1e9),
				       j + 0x9e3779b97f4a7c15ull, setup, ringfd);
			_exit(0);
		}
	}
	for (j = 0; j < jobs; j++) {
		int st;

		if (wait(&st) < 0 || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}
	for (j = 0; j < jobs; j++)
		total += count[j];
	printf("ops %llu iops %.1f\n", (unsigned long long)total,
	       total / ((now_ns() - start) / 1e9));
	return 0;
}
