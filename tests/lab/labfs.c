/* labfs.c - the device lab's FUSE daemon: one file whose every request it answers, when and how the run says. */
/*
 * labfs serves a single regular file, "disk", opened with direct_io so that
 * each read and write reaches this process (no page cache in between). A
 * loop device made over it with --direct-io=on (tests/lab/lab.sh) is then a
 * block device with a latency distribution, errors, short reads, stalls,
 * a request that never completes, a write-rate step and a vanishing act
 * chosen per run on the command line (labfs --help). An option it cannot
 * honour is an error (exit 2), never a silent default.
 *
 * Every data request it served is logged, one line each, written with one
 * write(2) after the reply so that a killed daemon loses nothing and the
 * log costs the request nothing:
 *   SEQ OP OFFSET SIZE DELAY_NS SERVICE_NS RESULT ARRIVAL_NS
 * OP is read, write, flush or trim; SIZE the bytes asked for; DELAY_NS the
 * injected delay (latency draw, stall and write-rate step together);
 * SERVICE_NS arrival to reply; RESULT the bytes answered or -errno;
 * ARRIVAL_NS when the request arrived (CLOCK_MONOTONIC). Lines starting
 * with '#' are events (start, the connection's limits, arm, vanish, hang).
 *
 * Counters (request numbers, the vanish clock) start at mount and start
 * again on SIGUSR1 ("arm"), so that a test counts from after the kernel's
 * and udev's own probing reads. The mount's fsname is diskbench-lab:PID,
 * so that a mount left behind by a killed daemon can be recognised.
 * The daemon never unmounts: tests/lab/lab.sh does, after the loop device
 * is gone. It exits when its parent dies (PR_SET_PDEATHSIG).
 */
#define FUSE_USE_VERSION 312
#include <fuse_lowlevel.h>

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define DISK_INO 2
#define DISK_NAME "disk"
#define MAX_EIO_OFFSETS 64
#define NS 1000000000LL

enum dist { DIST_NONE, DIST_FIXED, DIST_UNIFORM, DIST_LOGNORMAL, DIST_BIMODAL };

struct lab {
	/* settings, fixed after option parsing */
	int64_t size;
	int fd;
	int log_fd;
	enum dist dist;
	int64_t lat_a, lat_b;		/* fixed: a; uniform: [a,b]; lognormal: median a; bimodal: fast a, slow b */
	double sigma;			/* lognormal */
	uint64_t one_in;		/* bimodal: 1 in one_in is slow */
	uint64_t seed;
	int64_t eio_off[MAX_EIO_OFFSETS];
	int n_eio_off;
	int64_t bad_off[MAX_EIO_OFFSETS];	/* --corrupt-at: reads return this byte altered */
	int n_bad_off;
	int zeros;			/* --zeros: the memfd starts blank, not patterned */
	uint64_t eio_nth;		/* 0: off */
	int64_t short_bytes;		/* 0: off */
	uint64_t short_every;
	uint64_t stall_nth;		/* 0: off */
	int64_t stall_ns;
	uint64_t hang_nth;		/* 0: off */
	int64_t hang_size;		/* 0: off; else the first request of this
					 * size after an arm hangs */
	int64_t step_bytes;		/* -1: off */
	int64_t step_rate;		/* bytes per second after step_bytes */
	uint64_t vanish_nth;		/* 0: off */
	int64_t vanish_ns;		/* 0: off */
	int vanish_exit;		/* exit rather than fail every request */
	unsigned max_threads;
	/* state */
	atomic_uint_fast64_t seq;	/* data requests since arm */
	atomic_int_fast64_t arm_ns;
	atomic_int_fast64_t written;	/* bytes written since arm */
	atomic_int vanished;
	atomic_int armed, size_hung;	/* --hang-size: from the arm, once */
	pthread_mutex_t lock;		/* stall_until, rate_next */
	int64_t stall_until;
	int64_t rate_next;		/* write-rate step: when the next byte may go */
};

static struct lab lab = {
	.fd = -1, .log_fd = -1, .short_every = 1, .step_bytes = -1,
	.max_threads = 64, .lock = PTHREAD_MUTEX_INITIALIZER,
};

static int64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * NS + ts.tv_nsec;
}

static void sleep_until(int64_t t)
{
	struct timespec ts = { .tv_sec = t / NS, .tv_nsec = t % NS };

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
		;
}

/* One log line, with one write(2): lines of concurrent requests never mix. */
static void log_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void log_line(const char *fmt, ...)
{
	char buf[256];
	va_list ap;
	int n;

	if (lab.log_fd < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (n > 0 && write(lab.log_fd, buf, (size_t)n < sizeof(buf) ? (size_t)n : sizeof(buf) - 1) < 0)
		lab.log_fd = -1;
}

/* splitmix64: the draw of request SEQ depends on the seed and SEQ only, not
 * on which thread serves it or in what order. */
static uint64_t mix(uint64_t x)
{
	x += 0x9e3779b97f4a7c15ULL;
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
	x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* uniform in (0, 1) */
static double unit(uint64_t seq, uint64_t k)
{
	return ((double)(mix(lab.seed ^ mix(seq * 4 + k)) >> 11) + 0.5) / 9007199254740992.0;
}

static int64_t draw_latency(uint64_t seq)
{
	double u, v;

	switch (lab.dist) {
	case DIST_NONE:
		return 0;
	case DIST_FIXED:
		return lab.lat_a;
	case DIST_UNIFORM:
		return lab.lat_a + (int64_t)(unit(seq, 0) * (double)(lab.lat_b - lab.lat_a));
	case DIST_LOGNORMAL:
		u = unit(seq, 0);
		v = unit(seq, 1);
		return (int64_t)((double)lab.lat_a *
				 exp(lab.sigma * sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v)));
	case DIST_BIMODAL:
		return mix(lab.seed ^ mix(seq * 4 + 2)) % lab.one_in == 0 ? lab.lat_b : lab.lat_a;
	}
	return 0;
}

static void vanish(const char *why)
{
	if (atomic_exchange(&lab.vanished, 1))
		return;
	log_line("# vanish %s\n", why);
	if (lab.vanish_exit)
		_exit(0);	/* the kernel aborts the connection: every request fails */
}

static int eio_here(uint64_t seq, int64_t off, int64_t size)
{
	int i;

	if (lab.eio_nth && seq == lab.eio_nth)
		return 1;
	for (i = 0; i < lab.n_eio_off; i++)
		if (lab.eio_off[i] >= off && lab.eio_off[i] < off + size)
			return 1;
	return 0;
}

/*
 * The common part of every data request: count it, decide its delay and its
 * fault, hold it. Returns the time it must not be answered before, or sets
 * *err. A hung request never returns (its thread is cancelled at exit).
 */
static int64_t admit(const char *op, int64_t t0, uint64_t seq, int64_t off, int64_t size,
		     int is_write, int *err)
{
	int64_t until = t0 + draw_latency(seq);

	*err = 0;
	if (lab.vanish_nth && seq > lab.vanish_nth)
		vanish("after request limit");
	if (atomic_load(&lab.vanished)) {
		*err = EIO;
		return t0;
	}
	if ((lab.hang_nth && seq == lab.hang_nth) ||
	    (lab.hang_size && lab.hang_size == size && atomic_load(&lab.armed) &&
	     !atomic_exchange(&lab.size_hung, 1))) {
		log_line("# hang %" PRIu64 " %s %" PRId64 " %" PRId64 "\n", seq, op, off, size);
		for (;;)
			pause();
	}
	pthread_mutex_lock(&lab.lock);
	if (lab.stall_nth && seq == lab.stall_nth)
		lab.stall_until = t0 + lab.stall_ns;
	if (lab.stall_until > until)
		until = lab.stall_until;
	if (is_write && lab.step_bytes >= 0 &&
	    atomic_fetch_add(&lab.written, size) + size > lab.step_bytes) {
		/* past the step: writes share one timeline at step_rate */
		int64_t start = lab.rate_next > t0 ? lab.rate_next : t0;

		lab.rate_next = start + size * NS / lab.step_rate;
		if (lab.rate_next > until)
			until = lab.rate_next;
	}
	pthread_mutex_unlock(&lab.lock);
	if (eio_here(seq, off, size))
		*err = EIO;
	return until;
}

/* --corrupt-at: each listed byte inside [off, off + n) is answered inverted
 * (the file keeps what was written: only what the reader gets is wrong). */
static void corrupt(char *buf, int64_t off, ssize_t n)
{
	int i;

	for (i = 0; i < lab.n_bad_off; i++)
		if (lab.bad_off[i] >= off && lab.bad_off[i] < off + n) {
			buf[lab.bad_off[i] - off] ^= (char)0xff;
			log_line("# corrupt %" PRId64 "\n", lab.bad_off[i]);
		}
}

static void log_request(uint64_t seq, const char *op, int64_t off, int64_t size, int64_t t0,
			int64_t until, int64_t t1, int64_t result)
{
	log_line("%" PRIu64 " %s %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 " %" PRId64 "\n",
		 seq, op, off, size, until - t0, t1 - t0, result, t0);
}

static void fill_attr(fuse_ino_t ino, struct stat *st)
{
	memset(st, 0, sizeof(*st));
	st->st_ino = ino;
	st->st_uid = getuid();
	st->st_gid = getgid();
	if (ino == FUSE_ROOT_ID) {
		st->st_mode = S_IFDIR | 0755;
		st->st_nlink = 2;
	} else {
		st->st_mode = S_IFREG | 0600;
		st->st_nlink = 1;
		st->st_size = lab.size;
		st->st_blocks = lab.size / 512;
		st->st_blksize = 4096;
	}
}

static void lab_init(void *data, struct fuse_conn_info *conn)
{
	/* the loop driver submits async direct I/O: let several be in flight */
	if (conn->capable & FUSE_CAP_ASYNC_DIO)
		conn->want |= FUSE_CAP_ASYNC_DIO;
	/* async direct I/O requests are FUSE background requests: the default
	 * limit of 12 would cap a QD32 run at 12 in flight */
	conn->max_background = lab.max_threads;
	conn->congestion_threshold = lab.max_threads * 3 / 4;
	conn->want &= ~(unsigned)(FUSE_CAP_SPLICE_READ | FUSE_CAP_SPLICE_WRITE | FUSE_CAP_SPLICE_MOVE);
	log_line("# conn max_write=%u max_read=%u max_readahead=%u max_background=%u async_dio=%d\n",
		 conn->max_write, conn->max_read, conn->max_readahead, conn->max_background,
		 !!(conn->want & FUSE_CAP_ASYNC_DIO));
}

static void lab_lookup(fuse_req_t req, fuse_ino_t parent, const char *name)
{
	struct fuse_entry_param e;

	if (parent != FUSE_ROOT_ID || strcmp(name, DISK_NAME) != 0) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	memset(&e, 0, sizeof(e));
	e.ino = DISK_INO;
	e.attr_timeout = 3600;
	e.entry_timeout = 3600;
	fill_attr(DISK_INO, &e.attr);
	fuse_reply_entry(req, &e);
}

static void lab_getattr(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	struct stat st;

	if (ino != FUSE_ROOT_ID && ino != DISK_INO) {
		fuse_reply_err(req, ENOENT);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, 3600);
}

/* The size is fixed: a truncate to another size is refused, never ignored. */
static void lab_setattr(fuse_req_t req, fuse_ino_t ino, struct stat *attr, int to_set,
			struct fuse_file_info *fi)
{
	struct stat st;

	if (ino != DISK_INO || ((to_set & FUSE_SET_ATTR_SIZE) && attr->st_size != lab.size)) {
		fuse_reply_err(req, EPERM);
		return;
	}
	fill_attr(ino, &st);
	fuse_reply_attr(req, &st, 3600);
}

static void lab_open(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	if (ino != DISK_INO) {
		fuse_reply_err(req, EISDIR);
		return;
	}
	fi->direct_io = 1;
	fi->keep_cache = 0;
	fuse_reply_open(req, fi);
}

static void lab_read(fuse_req_t req, fuse_ino_t ino, size_t size, off_t off,
		     struct fuse_file_info *fi)
{
	int64_t t0 = now_ns(), until, t1;
	uint64_t seq = atomic_fetch_add(&lab.seq, 1) + 1;
	size_t give = size;
	char *buf = NULL;
	ssize_t n = 0;
	int err;

	until = admit("read", t0, seq, off, (int64_t)size, 0, &err);
	if (!err) {
		if (lab.short_bytes && seq % lab.short_every == 0 && (int64_t)size > lab.short_bytes)
			give = (size_t)lab.short_bytes;
		buf = malloc(give ? give : 1);
		if (!buf)
			err = ENOMEM;
		else if ((n = pread(lab.fd, buf, give, off)) < 0)
			err = errno;
		else
			corrupt(buf, off, n);
	}
	sleep_until(until);
	t1 = now_ns();
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_buf(req, buf, (size_t)n);
	free(buf);
	log_request(seq, "read", off, (int64_t)size, t0, until, t1, err ? -err : n);
}

static void lab_write(fuse_req_t req, fuse_ino_t ino, const char *buf, size_t size, off_t off,
		      struct fuse_file_info *fi)
{
	int64_t t0 = now_ns(), until, t1;
	uint64_t seq = atomic_fetch_add(&lab.seq, 1) + 1;
	ssize_t n = 0;
	int err;

	until = admit("write", t0, seq, off, (int64_t)size, 1, &err);
	if (!err && off + (int64_t)size > lab.size)
		err = ENOSPC;
	if (!err && (n = pwrite(lab.fd, buf, size, off)) < 0)
		err = errno;
	sleep_until(until);
	t1 = now_ns();
	if (err)
		fuse_reply_err(req, err);
	else
		fuse_reply_write(req, (size_t)n);
	log_request(seq, "write", off, (int64_t)size, t0, until, t1, err ? -err : n);
}

static void lab_fsync(fuse_req_t req, fuse_ino_t ino, int datasync, struct fuse_file_info *fi)
{
	int64_t t0 = now_ns(), until, t1;
	uint64_t seq = atomic_fetch_add(&lab.seq, 1) + 1;
	int err;

	until = admit("flush", t0, seq, 0, 0, 0, &err);
	sleep_until(until);
	t1 = now_ns();
	fuse_reply_err(req, err);
	log_request(seq, "flush", 0, 0, t0, until, t1, -err);
}

static void lab_fallocate(fuse_req_t req, fuse_ino_t ino, int mode, off_t off, off_t len,
			  struct fuse_file_info *fi)
{
	int64_t t0 = now_ns(), until, t1;
	uint64_t seq = atomic_fetch_add(&lab.seq, 1) + 1;
	int err;

	until = admit("trim", t0, seq, off, len, 0, &err);
	if (!err && fallocate(lab.fd, mode, off, len) < 0)
		err = errno;
	sleep_until(until);
	t1 = now_ns();
	fuse_reply_err(req, err);
	log_request(seq, "trim", off, len, t0, until, t1, -err);
}

static void lab_flush(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

static void lab_release(fuse_req_t req, fuse_ino_t ino, struct fuse_file_info *fi)
{
	fuse_reply_err(req, 0);
}

static const struct fuse_lowlevel_ops lab_ops = {
	.init = lab_init,
	.lookup = lab_lookup,
	.getattr = lab_getattr,
	.setattr = lab_setattr,
	.open = lab_open,
	.read = lab_read,
	.write = lab_write,
	.flush = lab_flush,
	.release = lab_release,
	.fsync = lab_fsync,
	.fallocate = lab_fallocate,
};

/* SIGUSR1: count requests and time from now on (async-signal-safe only). */
static void on_arm(int sig)
{
	static const char msg[] = "# arm\n";
	int e = errno;

	atomic_store(&lab.seq, 0);
	atomic_store(&lab.written, 0);
	atomic_store(&lab.arm_ns, now_ns());
	atomic_store(&lab.armed, 1);
	if (lab.log_fd >= 0 && write(lab.log_fd, msg, sizeof(msg) - 1) < 0)
		lab.log_fd = -1;
	errno = e;
}

/* SIGTERM, SIGINT, SIGHUP (and the parent's death): go at once. Nothing is
 * lost (the log is written line by line), and the kernel aborts the
 * connection, so that every request still held fails instead of waiting;
 * libfuse's own handlers would wait for the session loop to notice. */
static void on_stop(int sig)
{
	static const char msg[] = "# exit signal\n";

	if (lab.log_fd >= 0 && write(lab.log_fd, msg, sizeof(msg) - 1) < 0)
		lab.log_fd = -1;
	_exit(0);
}

/* --vanish-after with a duration: the device goes at arm + T even when idle. */
static void *vanish_clock(void *arg)
{
	for (;;) {
		int64_t due = atomic_load(&lab.arm_ns) + lab.vanish_ns;

		if (now_ns() >= due) {
			vanish("after time limit");
			return NULL;
		}
		sleep_until(now_ns() + 5000000 < due ? now_ns() + 5000000 : due);
	}
}

/* ---- option parsing: every value checked, every bad one named ---------- */

static void usage(FILE *f)
{
	fprintf(f,
"usage: labfs MOUNTPOINT --log FILE [OPTIONS]\n"
"Serve one file, MOUNTPOINT/" DISK_NAME ", with direct_io, answering each request as told.\n"
"  --size SIZE             file size (default 256m), backed by a memfd that starts\n"
"                          with a pattern of the seed (reads as a written disk)\n"
"  --zeros                 start the memfd blank instead (reads as never written)\n"
"  --backing FILE          serve FILE (a file the caller made) instead; its size\n"
"  --log FILE              append one line per request served (required)\n"
"  --latency DIST          per-request delay: fixed:T | uniform:T1:T2 |\n"
"                          lognormal:MEDIAN:SIGMA | bimodal:FAST:SLOW:N (1 in N slow)\n"
"  --seed N                seed of the latency draws and the pattern (default 1)\n"
"  --eio-at OFF[,OFF..]    fail (EIO) every request covering byte OFF\n"
"  --eio-nth N             fail (EIO) the Nth request\n"
"  --corrupt-at OFF[,OFF..] reads covering byte OFF return it inverted (the file\n"
"                          keeps what was written)\n"
"  --short-read BYTES[:N]  every Nth read (default every) returns at most BYTES\n"
"  --stall N:T             from the Nth request on, hold every request until T after it\n"
"  --hang-nth N            the Nth request is never answered\n"
"  --hang-size BYTES       the first request of BYTES after the arm is never answered\n"
"  --write-step BYTES:RATE after BYTES written, writes go at RATE bytes/s\n"
"  --vanish-after N|T      after N requests, or T (e.g. 2s) after arm, the device goes:\n"
"  --vanish-mode eio|exit  every later request fails (default), or the daemon exits\n"
"  --threads N             most requests served at once (default 64)\n"
"Times take ns/us/ms/s; sizes k/m/g (powers of 1024). SIGUSR1 restarts the counters.\n");
}

static const char *bad_opt;

static _Noreturn void fail_opt(const char *opt, const char *val, const char *why)
{
	fprintf(stderr, "labfs: %s '%s': %s\n", opt, val, why);
	exit(2);
}

/* A non-negative integer with an optional suffix from TABLE; the whole string. */
static int64_t parse_num(const char *opt, const char *s, const char *const *sfx, const int64_t *mul,
			 int need_sfx)
{
	char *end;
	double v;
	int i;

	errno = 0;
	v = strtod(s, &end);
	if (end == s || errno || !(v >= 0) || v > 9e18)
		fail_opt(bad_opt, s, "not a non-negative number");
	if (*end == '\0') {
		if (need_sfx)
			fail_opt(bad_opt, s, "needs a unit (ns, us, ms, s)");
		return (int64_t)v;
	}
	for (i = 0; sfx[i]; i++)
		if (strcmp(end, sfx[i]) == 0)
			return (int64_t)(v * (double)mul[i]);
	fail_opt(opt, s, "unknown unit");
	return 0;
}

static const char *const time_sfx[] = { "ns", "us", "ms", "s", NULL };
static const int64_t time_mul[] = { 1, 1000, 1000000, NS };
static const char *const size_sfx[] = { "k", "K", "m", "M", "g", "G", NULL };
static const int64_t size_mul[] = { 1LL << 10, 1LL << 10, 1LL << 20, 1LL << 20, 1LL << 30, 1LL << 30 };

static int64_t parse_time(const char *s)
{
	return parse_num(bad_opt, s, time_sfx, time_mul, 1);
}

static int64_t parse_size(const char *s)
{
	return parse_num(bad_opt, s, size_sfx, size_mul, 0);
}

static uint64_t parse_count(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (end == s || *end || errno || v == 0 || s[0] == '-')
		fail_opt(bad_opt, s, "not a positive whole number");
	return v;
}

/* Split S at ':' into at most MAX fields (modifies S); returns their count. */
static int split(char *s, char **f, int max)
{
	int n = 0;

	f[n++] = s;
	while ((s = strchr(s, ':')) && n < max + 1) {
		*s++ = '\0';
		f[n++] = s;
	}
	return n;
}

static void parse_latency(char *arg)
{
	char copy[256], *f[6];
	int n;

	snprintf(copy, sizeof(copy), "%s", arg);
	n = split(copy, f, 5);
	if (strcmp(f[0], "fixed") == 0 && n == 2) {
		lab.dist = DIST_FIXED;
		lab.lat_a = parse_time(f[1]);
	} else if (strcmp(f[0], "uniform") == 0 && n == 3) {
		lab.dist = DIST_UNIFORM;
		lab.lat_a = parse_time(f[1]);
		lab.lat_b = parse_time(f[2]);
		if (lab.lat_b < lab.lat_a)
			fail_opt("--latency", arg, "uniform:T1:T2 needs T1 <= T2");
	} else if (strcmp(f[0], "lognormal") == 0 && n == 3) {
		char *end;

		lab.dist = DIST_LOGNORMAL;
		lab.lat_a = parse_time(f[1]);
		lab.sigma = strtod(f[2], &end);
		if (end == f[2] || *end || !(lab.sigma > 0) || lab.sigma > 5)
			fail_opt("--latency", arg, "SIGMA must be a number in (0, 5]");
	} else if (strcmp(f[0], "bimodal") == 0 && n == 4) {
		lab.dist = DIST_BIMODAL;
		lab.lat_a = parse_time(f[1]);
		lab.lat_b = parse_time(f[2]);
		lab.one_in = parse_count(f[3]);
	} else {
		fail_opt("--latency", arg, "want fixed:T, uniform:T1:T2, lognormal:MEDIAN:SIGMA "
			 "or bimodal:FAST:SLOW:N");
	}
}

/* A list of byte offsets, OFF[,OFF..], into off[] (at most MAX_EIO_OFFSETS). */
static void parse_offsets(const char *arg, int64_t *off, int *n)
{
	char copy[1024], *tok, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", arg);
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (*n == MAX_EIO_OFFSETS)
			fail_opt(bad_opt, arg, "more than 64 offsets");
		off[(*n)++] = parse_size(tok);
	}
	if (!*n)
		fail_opt(bad_opt, arg, "no offset");
}

/* The memfd's first contents: a pattern of the seed and each 8-byte word's
 * place, so that the lab reads as a written disk (diskbench's unwritten
 * check samples for blank blocks) and two places never read alike. */
static int fill_pattern(void)
{
	static uint64_t buf[1 << 17];	/* 1 MiB */
	int64_t off, len;
	size_t i;

	for (off = 0; off < lab.size; off += len) {
		len = lab.size - off < (int64_t)sizeof(buf) ? lab.size - off : (int64_t)sizeof(buf);
		for (i = 0; i < (size_t)len / 8; i++)
			buf[i] = mix(lab.seed ^ mix((uint64_t)off / 8 + i));
		if (pwrite(lab.fd, buf, (size_t)len, off) != len)
			return -1;
	}
	return 0;
}

/* An offset past the file is never read: refused, not silently idle. */
static void check_offsets(const char *opt, const int64_t *off, int n)
{
	char v[32];
	int i;

	for (i = 0; i < n; i++)
		if (off[i] >= lab.size) {
			snprintf(v, sizeof(v), "%" PRId64, off[i]);
			fail_opt(opt, v, "past the end of the file");
		}
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "size", required_argument, NULL, 'z' },
		{ "backing", required_argument, NULL, 'b' },
		{ "log", required_argument, NULL, 'l' },
		{ "latency", required_argument, NULL, 'L' },
		{ "seed", required_argument, NULL, 'S' },
		{ "eio-at", required_argument, NULL, 'e' },
		{ "eio-nth", required_argument, NULL, 'E' },
		{ "corrupt-at", required_argument, NULL, 'c' },
		{ "zeros", no_argument, NULL, 'Z' },
		{ "short-read", required_argument, NULL, 'r' },
		{ "stall", required_argument, NULL, 's' },
		{ "hang-nth", required_argument, NULL, 'H' },
		{ "hang-size", required_argument, NULL, 'G' },
		{ "write-step", required_argument, NULL, 'w' },
		{ "vanish-after", required_argument, NULL, 'v' },
		{ "vanish-mode", required_argument, NULL, 'V' },
		{ "threads", required_argument, NULL, 'T' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *mnt, *log_path = NULL, *backing = NULL;
	char fsname[128], *f[4], copy[256];
	struct fuse_args args = FUSE_ARGS_INIT(0, NULL);
	struct fuse_loop_config *cfg;
	struct fuse_session *se;
	int c, idx, rc;
	pthread_t clock_thread;

	lab.size = 256LL << 20;
	lab.seed = 1;
	while ((c = getopt_long(argc, argv, "h", longopts, &idx)) != -1) {
		if (c == '?')
			exit(2);
		for (idx = 0; longopts[idx].name && longopts[idx].val != c; idx++)
			;
		snprintf(fsname, sizeof(fsname), "--%s", longopts[idx].name ? longopts[idx].name : "?");
		bad_opt = fsname;
		switch (c) {
		case 'z': lab.size = parse_size(optarg); break;
		case 'b': backing = optarg; break;
		case 'l': log_path = optarg; break;
		case 'L': parse_latency(optarg); break;
		case 'S': lab.seed = parse_count(optarg); break;
		case 'e': parse_offsets(optarg, lab.eio_off, &lab.n_eio_off); break;
		case 'c': parse_offsets(optarg, lab.bad_off, &lab.n_bad_off); break;
		case 'Z': lab.zeros = 1; break;
		case 'E': lab.eio_nth = parse_count(optarg); break;
		case 'r':
			snprintf(copy, sizeof(copy), "%s", optarg);
			rc = split(copy, f, 2);
			if (rc > 2)
				fail_opt(bad_opt, optarg, "want BYTES or BYTES:N");
			lab.short_bytes = parse_size(f[0]);
			if (lab.short_bytes <= 0)
				fail_opt(bad_opt, optarg, "BYTES must be positive");
			if (rc == 2)
				lab.short_every = parse_count(f[1]);
			break;
		case 's':
			snprintf(copy, sizeof(copy), "%s", optarg);
			if (split(copy, f, 2) != 2)
				fail_opt(bad_opt, optarg, "want N:T (request number, duration)");
			lab.stall_nth = parse_count(f[0]);
			lab.stall_ns = parse_time(f[1]);
			break;
		case 'H': lab.hang_nth = parse_count(optarg); break;
		case 'G':
			if ((lab.hang_size = parse_size(optarg)) <= 0)
				fail_opt(bad_opt, optarg, "must be positive");
			break;
		case 'w':
			snprintf(copy, sizeof(copy), "%s", optarg);
			if (split(copy, f, 2) != 2)
				fail_opt(bad_opt, optarg, "want BYTES:RATE");
			lab.step_bytes = parse_size(f[0]);
			lab.step_rate = parse_size(f[1]);
			if (lab.step_rate <= 0)
				fail_opt(bad_opt, optarg, "RATE must be positive");
			break;
		case 'v':
			if (strspn(optarg, "0123456789") == strlen(optarg))
				lab.vanish_nth = parse_count(optarg);
			else if ((lab.vanish_ns = parse_time(optarg)) <= 0)
				fail_opt(bad_opt, optarg, "must be positive");
			break;
		case 'V':
			if (strcmp(optarg, "exit") == 0)
				lab.vanish_exit = 1;
			else if (strcmp(optarg, "eio") != 0)
				fail_opt(bad_opt, optarg, "want eio or exit");
			break;
		case 'T':
			lab.max_threads = (unsigned)parse_count(optarg);
			if (lab.max_threads > 1024)
				fail_opt(bad_opt, optarg, "at most 1024");
			break;
		case 'h': usage(stdout); exit(0);
		}
	}
	if (optind != argc - 1) {
		usage(stderr);
		fprintf(stderr, "labfs: want exactly one MOUNTPOINT\n");
		exit(2);
	}
	mnt = argv[optind];
	if (!log_path) {
		fprintf(stderr, "labfs: --log FILE is required (the truth tests compare with)\n");
		exit(2);
	}
	if (lab.vanish_exit && !lab.vanish_nth && !lab.vanish_ns) {
		fprintf(stderr, "labfs: --vanish-mode exit without --vanish-after\n");
		exit(2);
	}
	if (lab.size <= 0 || lab.size % 512) {
		fprintf(stderr, "labfs: --size %" PRId64 ": must be a positive multiple of 512\n", lab.size);
		exit(2);
	}

	lab.log_fd = open(log_path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
	if (lab.log_fd < 0) {
		fprintf(stderr, "labfs: --log %s: %s\n", log_path, strerror(errno));
		exit(2);
	}
	if (backing) {
		struct stat st;

		lab.fd = open(backing, O_RDWR | O_CLOEXEC);
		if (lab.fd < 0 || fstat(lab.fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
		    st.st_size % 512) {
			fprintf(stderr, "labfs: --backing %s: %s\n", backing, lab.fd < 0 ? strerror(errno) :
				"not a regular file of a positive multiple of 512 bytes");
			exit(2);
		}
		lab.size = st.st_size;
		if (lab.zeros) {
			fprintf(stderr, "labfs: --zeros with --backing: the backing file is the caller's\n");
			exit(2);
		}
	} else {
		lab.fd = memfd_create("labfs", MFD_CLOEXEC);
		if (lab.fd < 0 || ftruncate(lab.fd, lab.size) < 0 || (!lab.zeros && fill_pattern() < 0)) {
			fprintf(stderr, "labfs: memfd of %" PRId64 " bytes: %s\n", lab.size, strerror(errno));
			exit(1);
		}
	}

	check_offsets("--eio-at", lab.eio_off, lab.n_eio_off);
	check_offsets("--corrupt-at", lab.bad_off, lab.n_bad_off);

	/* Sleeps must end when asked: the default 50 us slack would add to every delay. */
	prctl(PR_SET_TIMERSLACK, 1UL);
	/* A killed test must not leave its daemon behind. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() == 1)
		exit(1);
	signal(SIGUSR1, on_arm);
	signal(SIGTERM, on_stop);
	signal(SIGINT, on_stop);
	signal(SIGHUP, on_stop);
	signal(SIGPIPE, SIG_IGN);
	atomic_store(&lab.arm_ns, now_ns());

	snprintf(fsname, sizeof(fsname), "-ofsname=diskbench-lab:%d,subtype=diskbench-lab,"
		 "default_permissions", (int)getpid());
	if (fuse_opt_add_arg(&args, argv[0]) || fuse_opt_add_arg(&args, fsname)) {
		fprintf(stderr, "labfs: out of memory\n");
		exit(1);
	}
	se = fuse_session_new(&args, &lab_ops, sizeof(lab_ops), NULL);
	if (!se)
		exit(1);
	if (fuse_session_mount(se, mnt)) {
		fprintf(stderr, "labfs: cannot mount on %s\n", mnt);
		exit(1);
	}
	log_line("# start pid=%d size=%" PRId64 " dist=%d a=%" PRId64 " b=%" PRId64 " seed=%" PRIu64 "\n",
		 (int)getpid(), lab.size, (int)lab.dist, lab.lat_a, lab.lat_b, lab.seed);
	if (lab.vanish_ns && pthread_create(&clock_thread, NULL, vanish_clock, NULL)) {
		fprintf(stderr, "labfs: cannot start the vanish clock\n");
		exit(1);
	}
	cfg = fuse_loop_cfg_create();
	if (!cfg)
		exit(1);
	fuse_loop_cfg_set_max_threads(cfg, lab.max_threads);
	fuse_loop_cfg_set_idle_threads(cfg, lab.max_threads);
	rc = fuse_session_loop_mt(se, cfg);
	log_line("# exit %d\n", rc);
	/* No fuse_session_unmount: lab.sh unmounts once the loop device is gone;
	 * a mount left by a killed daemon is found by its fsname. */
	_exit(rc < 0 ? 1 : 0);
}
