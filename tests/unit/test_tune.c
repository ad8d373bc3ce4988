/* test_tune.c - the tune module: knob checks and the journal's format and refusals without a
 * device; as root, apply, restore and the signal path on loop devices made for the test. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "target.h"
#include "tune.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* The journal directory of every test: $DISKBENCH_TUNE_JOURNALS. */
static char jdir[PATH_MAX];

/* ---- helpers ------------------------------------------------------------ */

static void put_file(const char *name, const char *text, size_t len)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/%s", jdir, name);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, len), (ssize_t)len);
	close(fd);
}

static void rm_file(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", jdir, name);
	unlink(path);
}

static bool has_file(const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", jdir, name);
	return access(path, F_OK) == 0;
}

/* A queue as tune_queue_probe fills it, of a disk that need not exist. */
static void fake_queue(struct tune_queue *q, const char *disk)
{
	static const char *const v[KNOB_COUNT] = {
		"mq-deadline", "128", "256", "1280", "0", "2000",
	};
	int k;

	memset(q, 0, sizeof(*q));
	snprintf(q->disk, sizeof(q->disk), "%s", disk);
	q->devno = makedev(7, 99);
	for (k = 0; k < KNOB_COUNT; k++) {
		q->have[k] = true;
		snprintf(q->value[k], sizeof(q->value[k]), "%s", v[k]);
	}
	snprintf(q->schedulers, sizeof(q->schedulers), "none mq-deadline kyber bfq");
	snprintf(q->max_hw_sectors_kb, sizeof(q->max_hw_sectors_kb), "1280");
}

/* /sys/block/<disk>/queue/<attr> read here, not by the module under
 * test: the active scheduler without brackets. 0 or -errno. */
static int sys_get(const char *disk, const char *attr, char *buf, size_t len)
{
	char path[PATH_MAX], raw[512], *o, *c;
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, attr);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return -errno;
	n = read(fd, raw, sizeof(raw) - 1);
	close(fd);
	if (n < 0)
		return -EIO;
	raw[n] = '\0';
	raw[strcspn(raw, "\n")] = '\0';
	o = strchr(raw, '[');
	c = o ? strchr(o, ']') : NULL;
	if (o && c) {
		*c = '\0';
		memmove(raw, o + 1, strlen(o + 1) + 1);
	}
	while (n > 0 && raw[strlen(raw) - 1] == ' ')
		raw[strlen(raw) - 1] = '\0';
	snprintf(buf, len, "%s", raw);
	return 0;
}

/* The first disk in /sys/block that is not zoned, into name. */
static bool some_disk(char *name, size_t len)
{
	char zoned[32];
	struct dirent *de;
	bool found = false;
	DIR *d = opendir("/sys/block");

	if (!d)
		return false;
	while (!found && (de = readdir(d))) {
		if (de->d_name[0] == '.' || strlen(de->d_name) >= len)
			continue;
		if (!sys_get(de->d_name, "zoned", zoned, sizeof(zoned)) && strcmp(zoned, "none"))
			continue;
		snprintf(name, len, "%s", de->d_name);
		found = true;
	}
	closedir(d);
	return found;
}

/* ---- the knobs' names ----------------------------------------------------- */

static void test_knob_names(void **state)
{
	static const char *const attrs[KNOB_COUNT] = {
		"scheduler", "read_ahead_kb", "nr_requests", "max_sectors_kb", "nomerges",
		"wbt_lat_usec",
	};
	static const char *const options[KNOB_COUNT] = {
		"scheduler", "read-ahead", "nr-requests", "max-sectors", "nomerges", "wbt",
	};
	int k;

	(void)state;
	for (k = 0; k < KNOB_COUNT; k++) {
		assert_string_equal(tune_knob_attr(k), attrs[k]);
		assert_string_equal(tune_knob_option(k), options[k]);
	}
	assert_null(tune_knob_attr(KNOB_COUNT));
	assert_null(tune_knob_option(KNOB_COUNT));
}

/* ---- tune_knob_check ------------------------------------------------------ */

struct check_row {
	enum tune_knob k;
	const char *value;
	const char *err;	/* NULL: accepted */
};

#define NOT_KIB " is not a number of KiB"
#define NOMERGES_WHAT " is not 0, 1 or 2 (0 merges, 1 tries only simple merges, 2 never merges)"
#define WBT_WHAT " is not a latency in us (0 off, -1 the default)"

static const struct check_row check_rows[] = {
	{ KNOB_SCHEDULER, "bfq", NULL },
	{ KNOB_SCHEDULER, "none", NULL },
	{ KNOB_SCHEDULER, "mq-deadline", NULL },
	{ KNOB_READ_AHEAD, "0", NULL },
	{ KNOB_READ_AHEAD, "128", NULL },
	{ KNOB_READ_AHEAD, "2147483648", NULL },
	{ KNOB_NR_REQUESTS, "4", NULL },
	{ KNOB_NR_REQUESTS, "1048576", NULL },
	{ KNOB_MAX_SECTORS, "1280", NULL },
	{ KNOB_NOMERGES, "0", NULL },
	{ KNOB_NOMERGES, "2", NULL },
	{ KNOB_WBT, "-1", NULL },
	{ KNOB_WBT, "0", NULL },
	{ KNOB_WBT, "1073741824", NULL },

	{ KNOB_SCHEDULER, "cfq",
	  "--scheduler: 'cfq' is not one loop9 offers (none mq-deadline kyber bfq)" },
	{ KNOB_SCHEDULER, "[bfq]",
	  "--scheduler: '[bfq]' is not one loop9 offers (none mq-deadline kyber bfq)" },
	{ KNOB_SCHEDULER, "deadline",
	  "--scheduler: 'deadline' is not one loop9 offers (none mq-deadline kyber bfq)" },
	{ KNOB_SCHEDULER, "", "--scheduler: no value" },
	{ KNOB_READ_AHEAD, "abc", "--read-ahead: 'abc'" NOT_KIB },
	{ KNOB_READ_AHEAD, "12k", "--read-ahead: '12k'" NOT_KIB },
	{ KNOB_READ_AHEAD, " 12", "--read-ahead: ' 12'" NOT_KIB },
	{ KNOB_READ_AHEAD, "12 ", "--read-ahead: '12 '" NOT_KIB },
	{ KNOB_READ_AHEAD, "+12", "--read-ahead: '+12'" NOT_KIB },
	{ KNOB_READ_AHEAD, "0x10", "--read-ahead: '0x10'" NOT_KIB },
	{ KNOB_READ_AHEAD, "1.5", "--read-ahead: '1.5'" NOT_KIB },
	{ KNOB_READ_AHEAD, "-", "--read-ahead: '-'" NOT_KIB },
	{ KNOB_READ_AHEAD, "-1", "--read-ahead: '-1'" NOT_KIB },
	{ KNOB_READ_AHEAD, "2147483649",
	  "--read-ahead: 2147483649 KiB is more than the kernel takes, 2147483648 KiB" },
	{ KNOB_READ_AHEAD, "99999999999999999999999",
	  "--read-ahead: 99999999999999999999999 KiB is more than the kernel takes, "
	  "2147483648 KiB" },
	{ KNOB_NR_REQUESTS, "3", "--nr-requests: 3 is fewer than 4, the kernel's least (it "
	  "would keep 4 without a word)" },
	{ KNOB_NR_REQUESTS, "0", "--nr-requests: 0 is fewer than 4, the kernel's least (it "
	  "would keep 4 without a word)" },
	{ KNOB_NR_REQUESTS, "1048577",
	  "--nr-requests: 1048577 is more than the kernel takes, 1048576" },
	{ KNOB_NR_REQUESTS, "many", "--nr-requests: 'many' is not a number of requests" },
	{ KNOB_MAX_SECTORS, "1281",
	  "--max-sectors: 1281 KiB is more than loop9 takes (max_hw_sectors_kb 1280)" },
	{ KNOB_MAX_SECTORS, "1m", "--max-sectors: '1m'" NOT_KIB },
	{ KNOB_NOMERGES, "3", "--nomerges: '3'" NOMERGES_WHAT },
	{ KNOB_NOMERGES, "-1", "--nomerges: '-1'" NOMERGES_WHAT },
	{ KNOB_NOMERGES, "on", "--nomerges: 'on'" NOMERGES_WHAT },
	{ KNOB_WBT, "-2", "--wbt: '-2'" WBT_WHAT },
	{ KNOB_WBT, "2ms", "--wbt: '2ms'" WBT_WHAT },
	{ KNOB_WBT, "1073741825",
	  "--wbt: 1073741825 us is more than the kernel takes, 1073741824 us" },
};

static void test_knob_check(void **state)
{
	struct tune_queue q;
	char err[256], want[128];
	long page = sysconf(_SC_PAGESIZE) / 1024;
	size_t i;
	int ret;

	(void)state;
	fake_queue(&q, "loop9");
	for (i = 0; i < ARRAY_SIZE(check_rows); i++) {
		ret = tune_knob_check(&q, check_rows[i].k, check_rows[i].value, err, sizeof(err));
		if (!check_rows[i].err) {
			if (ret)
				fail_msg("row %zu '%s': %s", i, check_rows[i].value, err);
			continue;
		}
		assert_int_equal(ret, -EINVAL);
		assert_string_equal(err, check_rows[i].err);
	}
	/* below a page: the page size is the machine's */
	snprintf(want, sizeof(want), "%ld", page);
	assert_int_equal(tune_knob_check(&q, KNOB_MAX_SECTORS, want, err, sizeof(err)), 0);
	snprintf(want, sizeof(want), "%ld", page - 1);
	assert_int_equal(tune_knob_check(&q, KNOB_MAX_SECTORS, want, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "--max-sectors: %ld KiB is less than a page, %ld KiB", page - 1,
		 page);
	assert_string_equal(err, want);
	assert_int_equal(tune_knob_check(&q, KNOB_MAX_SECTORS, "0", err, sizeof(err)), -EINVAL);
	assert_int_equal(tune_knob_check(&q, KNOB_READ_AHEAD, NULL, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--read-ahead: no value");

	/* a knob the queue does not have */
	q.have[KNOB_WBT] = false;
	assert_int_equal(tune_knob_check(&q, KNOB_WBT, "0", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--wbt: loop9 has no queue/wbt_lat_usec");
	/* a device that offers "none" only */
	snprintf(q.schedulers, sizeof(q.schedulers), "none");
	assert_int_equal(tune_knob_check(&q, KNOB_SCHEDULER, "none", err, sizeof(err)), 0);
	assert_int_equal(tune_knob_check(&q, KNOB_SCHEDULER, "bfq", err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--scheduler: 'bfq' is not one loop9 offers (none)");
}

/* ---- tune_queue_probe without a queue ------------------------------------ */

static void test_probe_no_queue(void **state)
{
	struct target_info ti;
	struct tune_queue q;
	char err[512], want[512], path[PATH_MAX];
	int fd;

	(void)state;
	memset(&ti, 0, sizeof(ti));
	snprintf(ti.path, sizeof(ti.path), "/srv/nfs/data");
	snprintf(ti.fs_type, sizeof(ti.fs_type), "nfs4");
	ti.kind = TARGET_FILE;
	assert_int_equal(tune_queue_probe(&ti, &q, err, sizeof(err)), -ENODEV);
	assert_string_equal(err, "no block device queue behind /srv/nfs/data (nfs4): nothing "
			    "to tune");
	ti.fs_type[0] = '\0';
	assert_int_equal(tune_queue_probe(&ti, &q, err, sizeof(err)), -ENODEV);
	assert_string_equal(err, "no block device queue behind /srv/nfs/data: nothing to tune");

	/* a real file in the journal directory, on tmpfs */
	snprintf(path, sizeof(path), "%s/file", jdir);
	fd = open(path, O_WRONLY | O_CREAT, 0600);
	assert_true(fd >= 0);
	close(fd);
	if (target_probe(path, &ti, err, sizeof(err)) == 0 && !strcmp(ti.fs_type, "tmpfs")) {
		assert_int_equal(tune_queue_probe(&ti, &q, err, sizeof(err)), -ENODEV);
		snprintf(want, sizeof(want), "no block device queue behind %s (tmpfs): nothing to "
			 "tune", path);
		assert_string_equal(err, want);
	}
	unlink(path);
}

/* ---- the journal without a device ----------------------------------------- */

#define HEAD "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\npid 1234\n" \
	"started 2026-01-02T03:04:05Z\n"
#define KNOBS "scheduler none\nread_ahead_kb 128\nnr_requests 128\n"

struct corrupt_row {
	const char *text;
	unsigned line;		/* 0: the message has no line */
	const char *err;	/* after "FILE:LINE: " */
};

static const struct corrupt_row corrupt_rows[] = {
	{ "", 1, "empty: not a diskbench tune journal" },
	{ "hello\n", 1, "not a diskbench tune journal" },
	{ "diskbench-tune-journal\n", 1, "not a diskbench tune journal" },
	{ "diskbench-tune-journal 3\n" "disk nosuch0\n", 1,
	  "journal format '3'; this diskbench reads formats 1 and 2" },
	/* format 2: the restore order, every knob once */
#define HEAD2 "diskbench-tune-journal 2\ndisk nosuch0\ndevno 7:99\npid 1234\n" \
	"started 2026-01-02T03:04:05Z\n"
	{ HEAD2 "scheduler none\n", 6, "scheduler where the order line belongs" },
	{ HEAD2, 5, "ends before its order line" },
	{ HEAD2 "order scheduler,read_ahead_kb\n", 6,
	  "'scheduler,read_ahead_kb' is not every queue setting once, comma separated" },
	{ HEAD2 "order scheduler,scheduler,read_ahead_kb,nr_requests,nomerges,wbt_lat_usec\n", 6,
	  "'scheduler,scheduler,read_ahead_kb,nr_requests,nomerges,wbt_lat_usec' is not every "
	  "queue setting once, comma separated" },
	{ HEAD2 "order scheduler,max_sectors_kb,read_ahead_kb,nr_requests,nomerges,colour\n", 6,
	  "'scheduler,max_sectors_kb,read_ahead_kb,nr_requests,nomerges,colour' is not every "
	  "queue setting once, comma separated" },
	{ HEAD2 "order scheduler,,max_sectors_kb,read_ahead_kb,nr_requests,nomerges\n", 6,
	  "'scheduler,,max_sectors_kb,read_ahead_kb,nr_requests,nomerges' is not every queue "
	  "setting once, comma separated" },
	{ "diskbench-tune-journal 1\n", 1, "ends before its disk line" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\n", 3, "ends before its pid line" },
	{ HEAD "scheduler none\nread_ahead_kb 128", 7, "the line has no end: a cut journal" },
	{ "diskbench-tune-journal 1\ndisk nosuch1\n", 2,
	  "names disk nosuch1, but the file is nosuch0's" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\npid 1234\n", 3,
	  "pid where the devno line belongs" },
	{ "diskbench-tune-journal 1\ncolour blue\n", 2, "unknown key 'colour'" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7-99\n", 3,
	  "'7-99' is not a device number MAJ:MIN" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:\n", 3,
	  "'7:' is not a device number MAJ:MIN" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno :99\n", 3,
	  "':99' is not a device number MAJ:MIN" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99x\n", 3,
	  "'7:99x' is not a device number MAJ:MIN" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno -7:99\n", 3,
	  "'-7:99' is not a device number MAJ:MIN" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\npid 0\n", 4,
	  "'0' is not a process id" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\npid 12a\n", 4,
	  "'12a' is not a process id" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\npid 99999999999\n", 4,
	  "'99999999999' is not a process id" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\npid 1234\nstarted yesterday\n",
	  5, "'yesterday' is not a UTC time YYYY-MM-DDTHH:MM:SSZ" },
	{ "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\npid 1234\n"
	  "started 2026-01-02 03:04:05\n", 5, "'started 2026-01-02 03:04:05' is not KEY VALUE" },
	{ HEAD "colour blue\n", 6, "unknown key 'colour'" },
	{ HEAD "scheduler [none]\n", 6, "'[none]' is not a scheduler value" },
	{ HEAD "read_ahead_kb 12k\n", 6, "'12k' is not a read_ahead_kb value" },
	{ HEAD "read_ahead_kb -1\n", 6, "'-1' is not a read_ahead_kb value" },
	{ HEAD "nomerges 3\n", 6, "'3' is not a nomerges value" },
	{ HEAD "nr_requests 0\n", 6, "'0' is not a nr_requests value" },
	{ HEAD "wbt_lat_usec -2\n", 6, "'-2' is not a wbt_lat_usec value" },
	{ HEAD "max_sectors_kb 99999999999999999999\n", 6,
	  "'99999999999999999999' is not a max_sectors_kb value" },
	{ HEAD KNOBS "read_ahead_kb 256\n", 9, "read_ahead_kb out of order or twice" },
	{ HEAD "nr_requests 128\nread_ahead_kb 128\n", 7, "read_ahead_kb out of order or twice" },
	{ HEAD KNOBS "pid 1234\n", 9, "pid twice" },
	{ HEAD "scheduler none\n\nread_ahead_kb 128\n", 7, "'' is not KEY VALUE" },
	{ HEAD "read_ahead_kb  128\n", 6, "'read_ahead_kb  128' is not KEY VALUE" },
	{ HEAD "read_ahead_kb 128 \n", 6, "'read_ahead_kb 128 ' is not KEY VALUE" },
	{ HEAD "read_ahead_kb\n", 6, "'read_ahead_kb' is not KEY VALUE" },
	{ HEAD "scheduler none\r\n", 6, "'none\r' is not a scheduler value" },
};

static void test_journal_corrupt(void **state)
{
	struct tune_journal j;
	char err[512], want[512];
	size_t i;

	(void)state;
	for (i = 0; i < ARRAY_SIZE(corrupt_rows); i++) {
		put_file("nosuch0.journal", corrupt_rows[i].text, strlen(corrupt_rows[i].text));
		assert_int_equal(tune_journal_read("nosuch0", &j, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "%s/nosuch0.journal:%u: %s", jdir, corrupt_rows[i].line,
			 corrupt_rows[i].err);
		if (strcmp(err, want))
			fail_msg("row %zu:\n got  %s\n want %s", i, err, want);
	}

	/* a NUL byte inside a line */
	put_file("nosuch0.journal", HEAD "sched\0uler none\n", sizeof(HEAD "sched\0uler none\n") - 1);
	assert_int_equal(tune_journal_read("nosuch0", &j, err, sizeof(err)), -EINVAL);
	snprintf(want, sizeof(want), "%s/nosuch0.journal:6: a NUL byte: not a journal", jdir);
	assert_string_equal(err, want);

	/* larger than any journal */
	{
		static char big[8192];

		memset(big, 'x', sizeof(big));
		put_file("nosuch0.journal", big, sizeof(big));
		assert_int_equal(tune_journal_read("nosuch0", &j, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "%s/nosuch0.journal: larger than a journal is", jdir);
		assert_string_equal(err, want);
	}
	rm_file("nosuch0.journal");

	/* a symbolic link in its place is not followed */
	{
		char target[PATH_MAX], link[PATH_MAX];

		put_file("elsewhere", HEAD KNOBS, strlen(HEAD KNOBS));
		snprintf(target, sizeof(target), "%s/elsewhere", jdir);
		snprintf(link, sizeof(link), "%s/nosuch0.journal", jdir);
		assert_int_equal(symlink(target, link), 0);
		assert_int_equal(tune_journal_read("nosuch0", &j, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "%s: not a regular file", link);
		assert_string_equal(err, want);
		rm_file("nosuch0.journal");
		rm_file("elsewhere");
	}

	/* names that are no disk's */
	assert_int_equal(tune_journal_read("../etc/passwd", &j, err, sizeof(err)), -EINVAL);
	assert_int_equal(tune_journal_read(".hidden", &j, err, sizeof(err)), -EINVAL);
	assert_int_equal(tune_journal_read("", &j, err, sizeof(err)), -EINVAL);

	/* none at all */
	assert_int_equal(tune_journal_read("nosuch0", &j, err, sizeof(err)), -ENOENT);
	snprintf(want, sizeof(want), "no journal of nosuch0 in %s", jdir);
	assert_string_equal(err, want);
}

/* A well-formed journal of a disk that is not there, or of a disk whose
 * number is another now, is refused as stale. */
static void test_journal_stale(void **state)
{
	char disk[64], text[1024], err[512], want[512], name[96];
	struct tune_journal j;
	unsigned maj, min;
	char dev[32];
	FILE *f;

	(void)state;
	put_file("nosuch0.journal", HEAD KNOBS, strlen(HEAD KNOBS));
	assert_int_equal(tune_journal_read("nosuch0", &j, err, sizeof(err)), -ESTALE);
	snprintf(want, sizeof(want), "%s/nosuch0.journal names nosuch0 as 7:99, but there is no "
		 "nosuch0 now: a journal from before a reboot or of a device since removed; not "
		 "restored", jdir);
	assert_string_equal(err, want);
	rm_file("nosuch0.journal");

	if (!some_disk(disk, sizeof(disk)))
		skip();
	snprintf(text, sizeof(text), "/sys/block/%s/dev", disk);
	f = fopen(text, "r");
	assert_non_null(f);
	assert_non_null(fgets(dev, sizeof(dev), f));
	fclose(f);
	assert_int_equal(sscanf(dev, "%u:%u", &maj, &min), 2);
	snprintf(text, sizeof(text), "diskbench-tune-journal 1\ndisk %s\ndevno %u:%u\npid 1234\n"
		 "started 2026-01-02T03:04:05Z\n" KNOBS, disk, maj, min + 1000);
	snprintf(name, sizeof(name), "%s.journal", disk);
	put_file(name, text, strlen(text));
	assert_int_equal(tune_journal_read(disk, &j, err, sizeof(err)), -ESTALE);
	snprintf(want, sizeof(want), "%s/%s names %s as %u:%u, but %s is %u:%u now: a journal "
		 "from before a reboot or of another device; not restored", jdir, name, disk, maj,
		 min + 1000, disk, maj, min);
	assert_string_equal(err, want);
	rm_file(name);
}

/* Can /dev/disk be flock'ed exclusively now (and let go at once)? 0 or
 * -errno (-EWOULDBLOCK: somebody holds it). */
static int node_lockable(const char *disk)
{
	char path[96];
	int fd, ret;

	snprintf(path, sizeof(path), "/dev/%s", disk);
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = flock(fd, LOCK_EX | LOCK_NB) ? -errno : 0;
	close(fd);
	return ret;
}

/* Write a real disk's settings (only read: no root needed), read them
 * back, and be refused a second journal while the first is there. */
static void test_journal_round_trip(void **state)
{
	char disk[64], err[512], want[768], name[96], list[256];
	struct target_info ti;
	struct tune_journal j, back;
	struct tune_queue q;
	int k, ret;
	bool node;

	(void)state;
	if (!some_disk(disk, sizeof(disk)))
		skip();
	memset(&ti, 0, sizeof(ti));
	ti.kind = TARGET_BLOCK;
	snprintf(ti.path, sizeof(ti.path), "/dev/%s", disk);
	snprintf(ti.device, sizeof(ti.device), "%s", disk);
	snprintf(ti.disk, sizeof(ti.disk), "%s", disk);
	ret = tune_queue_probe(&ti, &q, err, sizeof(err));
	if (ret)
		fail_msg("%s: %s", disk, err);
	assert_true(q.have[KNOB_SCHEDULER]);

	node = node_lockable(disk) == 0;
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);
	snprintf(name, sizeof(name), "%s.journal", disk);
	snprintf(want, sizeof(want), "%s/%s", jdir, name);
	assert_string_equal(j.path, want);
	assert_int_equal(j.pid, getpid());
	assert_int_equal(strlen(j.started), 20);

	ret = tune_journal_read(disk, &back, err, sizeof(err));
	if (ret)
		fail_msg("%s", err);
	assert_string_equal(back.saved.disk, disk);
	assert_true(back.saved.devno == q.devno);
	assert_int_equal(back.pid, getpid());
	assert_string_equal(back.started, j.started);
	assert_string_equal(back.path, j.path);
	/* the restore order comes back as written: the scheduler first,
	 * wbt_lat_usec last */
	assert_memory_equal(back.order, j.order, sizeof(j.order));
	assert_int_equal(back.order[0], KNOB_SCHEDULER);
	assert_int_equal(back.order[KNOB_COUNT - 1], KNOB_WBT);
	for (k = 0; k < KNOB_COUNT; k++) {
		assert_int_equal(back.saved.have[k], q.have[k]);
		if (q.have[k])
			assert_string_equal(back.saved.value[k], q.value[k]);
	}

	assert_int_equal(tune_journal_list(list, sizeof(list)), 1);
	assert_string_equal(list, disk);

	/* a second tune of the same disk, while this one runs */
	assert_int_equal(tune_journal_write(&q, &back, err, sizeof(err)), -EEXIST);
	snprintf(want, sizeof(want), "a tune of %s is running (pid %d, since %s): let it finish, "
		 "it puts the settings back", disk, (int)getpid(), j.started);
	assert_string_equal(err, want);

	/* the journal is the writer's lock: nobody else may claim it (to
	 * restore or remove it) while the writer holds it */
	assert_true(j.locked);
	/* and the disk's node is locked too, when it can be opened here
	 * (root): another open of it cannot lock it */
	assert_int_equal(j.dev_locked, node);
	if (node)
		assert_int_equal(node_lockable(disk), -EWOULDBLOCK);
	ret = tune_journal_read(disk, &back, err, sizeof(err));
	if (ret)
		fail_msg("%s", err);
	assert_false(back.locked);
	assert_int_equal(tune_journal_claim(&back, err, sizeof(err)), -EBUSY);
	snprintf(want, sizeof(want), "a tune is running (pid %d, since %s) on %s", (int)getpid(),
		 j.started, disk);
	assert_true(!strncmp(err, want, strlen(want)));
	assert_false(back.locked);
	assert_int_equal(access(j.path, F_OK), 0);
	/* the writer gone (its lock let go): the journal is free to claim,
	 * and once claimed, nobody else's */
	tune_journal_release(&j);
	assert_false(j.locked);
	assert_false(j.dev_locked);
	if (node)
		assert_int_equal(node_lockable(disk), 0);
	ret = tune_journal_claim(&back, err, sizeof(err));
	if (ret)
		fail_msg("claim: %s", err);
	assert_true(back.locked);
	assert_string_equal(back.saved.disk, disk);
	assert_int_equal(tune_journal_read(disk, &j, err, sizeof(err)), 0);
	assert_int_equal(tune_journal_claim(&j, err, sizeof(err)), -EBUSY);
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "is running"));
	tune_journal_release(&back);
	/* released, not restored: a new tune is told to restore it */
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), -EEXIST);
	assert_non_null(strstr(err, "no longer runs"));

	/* a journal with a line missing or one too many for this disk */
	if (q.have[KNOB_NOMERGES]) {
		char text[1024], *p;
		int fd;
		ssize_t n;

		fd = open(j.path, O_RDONLY);
		assert_true(fd >= 0);
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
		assert_true(n > 0);
		text[n] = '\0';
		p = strstr(text, "nomerges ");
		assert_non_null(p);
		memmove(p, strchr(p, '\n') + 1, strlen(strchr(p, '\n') + 1) + 1);
		put_file(name, text, strlen(text));
		assert_int_equal(tune_journal_read(disk, &back, err, sizeof(err)), -EINVAL);
		assert_non_null(strstr(err, "no nomerges line, but "));
	}
	rm_file(name);
	assert_int_equal(tune_journal_list(list, sizeof(list)), 0);
	assert_string_equal(list, "");
}

/* -EEXIST from a journal whose tune is gone, or that cannot be read; a
 * temporary a killed tune left behind is no obstacle. */
static void test_journal_exists(void **state)
{
	struct tune_journal j;
	struct tune_queue q;
	char err[768], want[768], text[512], tmp[128];
	pid_t child;
	int status;

	(void)state;
	fake_queue(&q, "nosuch0");
	child = fork();
	assert_true(child >= 0);
	if (!child)
		_exit(0);
	assert_int_equal(waitpid(child, &status, 0), child);
	snprintf(text, sizeof(text), "diskbench-tune-journal 1\ndisk nosuch0\ndevno 7:99\npid %d\n"
		 "started 2026-01-02T03:04:05Z\n" KNOBS, (int)child);
	put_file("nosuch0.journal", text, strlen(text));
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), -EEXIST);
	snprintf(want, sizeof(want), "nosuch0 has a journal from a tune that no longer runs (pid %d,"
		 " since 2026-01-02T03:04:05Z): its settings may still be changed; run: diskbench "
		 "tune --restore /dev/nosuch0", (int)child);
	assert_string_equal(err, want);
	/* the journal there is left as it was */
	assert_true(has_file("nosuch0.journal"));

	put_file("nosuch0.journal", "junk\n", 5);
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), -EEXIST);
	snprintf(want, sizeof(want), "nosuch0 has a journal already, %s/nosuch0.journal, which "
		 "cannot be read (%s/nosuch0.journal:1: not a diskbench tune journal); run: "
		 "diskbench tune --restore /dev/nosuch0", jdir, jdir);
	assert_string_equal(err, want);
	rm_file("nosuch0.journal");

	/* a temporary left with our pid in its name */
	snprintf(tmp, sizeof(tmp), ".nosuch0.journal.%d.tmp", (int)getpid());
	put_file(tmp, "left\n", 5);
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);
	assert_false(has_file(tmp));
	assert_true(has_file("nosuch0.journal"));
	rm_file("nosuch0.journal");

	/* a value no read could give is not written */
	snprintf(q.value[KNOB_READ_AHEAD], sizeof(q.value[0]), "12k");
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "nosuch0: '12k' is not a read_ahead_kb value");
	assert_false(has_file("nosuch0.journal"));
}

/* The journal's text, line by line, as the format says. */
static void test_journal_format(void **state)
{
	struct tune_journal j;
	struct tune_queue q;
	char err[256], text[1024], want[1024];
	ssize_t n;
	int fd;

	(void)state;
	fake_queue(&q, "nosuch0");
	q.have[KNOB_WBT] = false;
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);
	fd = open(j.path, O_RDONLY);
	assert_true(fd >= 0);
	n = read(fd, text, sizeof(text) - 1);
	close(fd);
	assert_true(n > 0);
	text[n] = '\0';
	snprintf(want, sizeof(want), "diskbench-tune-journal 2\ndisk nosuch0\ndevno 7:99\npid %d\n"
		 "started %s\norder scheduler,max_sectors_kb,read_ahead_kb,nr_requests,nomerges,"
		 "wbt_lat_usec\nscheduler mq-deadline\nread_ahead_kb 128\nnr_requests 256\n"
		 "max_sectors_kb 1280\nnomerges 0\n", (int)getpid(), j.started);
	assert_string_equal(text, want);
	rm_file("nosuch0.journal");
}

static void test_journal_list(void **state)
{
	char list[64];

	(void)state;
	put_file("sdb.journal", HEAD, 1);
	put_file("loop3.journal", HEAD, 1);
	put_file(".loop4.journal.1.tmp", HEAD, 1);
	put_file("notes.txt", HEAD, 1);
	put_file("a.journal.bak", HEAD, 1);
	assert_int_equal(tune_journal_list(list, sizeof(list)), 2);
	assert_string_equal(list, "loop3 sdb");
	/* what does not fit is left out whole, but counted */
	assert_int_equal(tune_journal_list(list, 8), 2);
	assert_string_equal(list, "loop3");
	rm_file("sdb.journal");
	rm_file("loop3.journal");
	rm_file(".loop4.journal.1.tmp");
	rm_file("notes.txt");
	rm_file("a.journal.bak");
}

/* The directory must be this user's alone; a missing one is made 0700. */
static void test_journal_dir(void **state)
{
	char dir[PATH_MAX], link[PATH_MAX], err[512], list[64];
	struct tune_journal j;
	struct tune_queue q;
	struct stat st;

	(void)state;
	fake_queue(&q, "nosuch0");
	snprintf(dir, sizeof(dir), "%s/sub", jdir);
	setenv("DISKBENCH_TUNE_JOURNALS", dir, 1);
	assert_string_equal(tune_journal_dir(), dir);
	assert_int_equal(tune_journal_list(list, sizeof(list)), 0);
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);
	assert_int_equal(stat(dir, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0700);
	unlink(j.path);

	/* open to all */
	assert_int_equal(chmod(dir, 0777), 0);
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), -EPERM);
	assert_non_null(strstr(err, "is not a private directory of uid"));
	assert_int_equal(tune_journal_read("nosuch0", &j, err, sizeof(err)), -EPERM);
	assert_int_equal(tune_journal_list(list, sizeof(list)), -EPERM);
	assert_int_equal(rmdir(dir), 0);

	/* a symbolic link to a directory */
	snprintf(link, sizeof(link), "%s/link", jdir);
	assert_int_equal(symlink(jdir, link), 0);
	setenv("DISKBENCH_TUNE_JOURNALS", link, 1);
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), -ENOTDIR);
	unlink(link);

	setenv("DISKBENCH_TUNE_JOURNALS", "", 1);
	assert_string_equal(tune_journal_dir(), TUNE_JOURNAL_DIR);
	setenv("DISKBENCH_TUNE_JOURNALS", jdir, 1);
}

/* Without the device: nothing to write to, nothing to restore. */
static void test_no_device(void **state)
{
	const char *values[KNOB_COUNT] = { NULL };
	struct tune_journal j;
	struct tune_queue q;
	char err[512], want[512];

	(void)state;
	fake_queue(&q, "nosuch0");
	values[KNOB_READ_AHEAD] = "16";
	assert_int_equal(tune_apply(&q, values, err, sizeof(err)), -ENOENT);
	assert_string_equal(err, "nosuch0 has no queue/read_ahead_kb");
	/* what is not one value is refused before anything is written */
	values[KNOB_READ_AHEAD] = "16 32";
	assert_int_equal(tune_apply(&q, values, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "read_ahead_kb: '16 32' is not a value");
	values[KNOB_READ_AHEAD] = NULL;
	q.have[KNOB_WBT] = false;
	values[KNOB_WBT] = "0";
	assert_int_equal(tune_apply(&q, values, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "nosuch0 has no queue/wbt_lat_usec");

	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);
	assert_int_equal(tune_restore(&j, err, sizeof(err)), -ESTALE);
	snprintf(want, sizeof(want), "nosuch0 is not the device 7:99 the journal %s saved; not "
		 "restored", j.path);
	assert_string_equal(err, want);
	assert_true(has_file("nosuch0.journal"));
	/* armed and fired, it writes nothing that exists; errno is kept */
	tune_restore_arm(&j);
	errno = EXDEV;
	tune_restore_now();
	assert_int_equal(errno, EXDEV);
	tune_restore_disarm();
	rm_file("nosuch0.journal");
}

/* ---- on a loop device (root) --------------------------------------------- */

/* A loop device made for one test over an image in /dev/shm, and its
 * queue settings as they were when it was attached, put back before it
 * is detached (a loop device's queue outlives the attachment). */
struct loopdev {
	char img[PATH_MAX];
	char dev[64];		/* /dev/loopN */
	char name[32];		/* loopN */
	bool have[KNOB_COUNT];
	char orig[KNOB_COUNT][TUNE_VALUE_MAX];
	struct target_info ti;
	struct tune_queue q;
};

static int sys_put(const char *disk, const char *attr, const char *value)
{
	char path[PATH_MAX];
	ssize_t w;
	int fd;

	snprintf(path, sizeof(path), "/sys/block/%s/queue/%s", disk, attr);
	fd = open(path, O_WRONLY);
	if (fd < 0)
		return -errno;
	w = write(fd, value, strlen(value));
	close(fd);
	return w == (ssize_t)strlen(value) ? 0 : -EIO;
}

/* Write an MBR with one Linux partition from sector 2048 to the end. */
static int write_mbr(int fd, uint64_t size)
{
	unsigned char mbr[512] = { 0 }, *e = mbr + 446;
	uint32_t start = 2048, count = (uint32_t)(size / 512) - start;
	int i;

	e[4] = 0x83;
	for (i = 0; i < 4; i++) {
		e[8 + i] = (unsigned char)(start >> (8 * i));
		e[12 + i] = (unsigned char)(count >> (8 * i));
	}
	mbr[510] = 0x55;
	mbr[511] = 0xaa;
	return pwrite(fd, mbr, sizeof(mbr), 0) == (ssize_t)sizeof(mbr) ? 0 : -1;
}

/*
 * Put l's queue back as it was, the way tune must: the scheduler before
 * nr_requests, which it resets, and not at all when it is the active one;
 * max_sectors_kb before read_ahead_kb, which it raises; nr_requests one off
 * first, or a queue switched back to "none" keeps the depth of its tags
 * while it reads the old number (src/tune/knobs.c, tune_knob_write).
 */
static void loop_put_back(struct loopdev *l)
{
	static const enum tune_knob order[] = {
		KNOB_SCHEDULER, KNOB_MAX_SECTORS, KNOB_READ_AHEAD, KNOB_NR_REQUESTS,
		KNOB_NOMERGES, KNOB_WBT,
	};
	char now[TUNE_VALUE_MAX];
	enum tune_knob k;
	size_t i;
	int nr;

	for (i = 0; i < ARRAY_SIZE(order); i++) {
		k = order[i];
		if (!l->have[k])
			continue;
		if (k == KNOB_SCHEDULER && !sys_get(l->name, "scheduler", now, sizeof(now)) &&
		    !strcmp(now, l->orig[k]))
			continue;
		if (k == KNOB_NR_REQUESTS) {
			nr = atoi(l->orig[k]);
			snprintf(now, sizeof(now), "%d", nr > 4 ? nr - 1 : nr + 1);
			sys_put(l->name, "nr_requests", now);
		}
		if (sys_put(l->name, tune_knob_attr(k), l->orig[k]))
			print_message("could not put back %s %s on %s\n", tune_knob_attr(k),
				      l->orig[k], l->name);
	}
}

static int loop_setup_flags(void **state, bool partitioned)
{
	static const uint64_t size = 64ull << 20;
	struct loopdev *l;
	char cmd[PATH_MAX + 64], err[512];
	FILE *p;
	int fd, k;

	*state = NULL;
	if (geteuid() != 0) {
		print_message("not root: no loop device, its tests are skipped\n");
		return 0;
	}
	l = calloc(1, sizeof(*l));
	if (!l)
		return -1;
	snprintf(l->img, sizeof(l->img), "/dev/shm/test_tune.img.XXXXXX");
	fd = mkstemp(l->img);
	if (fd < 0 || ftruncate(fd, (off_t)size) || (partitioned && write_mbr(fd, size))) {
		if (fd >= 0)
			close(fd);
		goto out_img;
	}
	close(fd);
	snprintf(cmd, sizeof(cmd), "losetup -f --show %s%s 2>/dev/null",
		 partitioned ? "-P " : "", l->img);
	p = popen(cmd, "r");
	if (!p)
		goto out_img;
	if (!fgets(l->dev, sizeof(l->dev), p))
		l->dev[0] = '\0';
	pclose(p);
	l->dev[strcspn(l->dev, "\n")] = '\0';
	if (strncmp(l->dev, "/dev/loop", 9)) {
		print_message("losetup gave no loop device: its tests are skipped\n");
		goto out_img;
	}
	snprintf(l->name, sizeof(l->name), "%s", l->dev + 5);
	for (k = 0; k < KNOB_COUNT; k++)
		l->have[k] = !sys_get(l->name, tune_knob_attr(k), l->orig[k], sizeof(l->orig[k]));
	if (target_probe(l->dev, &l->ti, err, sizeof(err)) ||
	    tune_queue_probe(&l->ti, &l->q, err, sizeof(err))) {
		print_message("%s: %s\n", l->dev, err);
		*state = l;
		return -1;
	}
	*state = l;
	return 0;
out_img:
	unlink(l->img);
	free(l);
	return 0;
}

static int loop_setup(void **state)
{
	return loop_setup_flags(state, false);
}

static int loop_setup_parts(void **state)
{
	return loop_setup_flags(state, true);
}

static int loop_teardown(void **state)
{
	struct loopdev *l = *state;
	char cmd[128], name[96];
	int ret;

	if (!l)
		return 0;
	loop_put_back(l);
	snprintf(name, sizeof(name), "%s.journal", l->name);
	rm_file(name);
	tune_restore_disarm();
	snprintf(cmd, sizeof(cmd), "losetup -d %s", l->dev);
	ret = system(cmd);
	unlink(l->img);
	free(l);
	return ret ? -1 : 0;
}

#define LOOP_OR_SKIP(l) do { \
		if (!(l)) \
			skip(); \
	} while (0)

/*
 * A scheduler q offers that is not the active one, bfq if it can, and not
 * "none" while another is left: a device may come with an elevator and its
 * deeper nr_requests (its last user's), which "none" would refuse to keep.
 */
static const char *other_scheduler(const struct tune_queue *q, char *buf, size_t len)
{
	char list[128], *w, *save;
	const char *none = NULL;

	if (strstr(q->schedulers, "bfq") && strcmp(q->value[KNOB_SCHEDULER], "bfq"))
		return "bfq";
	snprintf(list, sizeof(list), "%s", q->schedulers);
	for (w = strtok_r(list, " ", &save); w; w = strtok_r(NULL, " ", &save)) {
		if (!strcmp(w, q->value[KNOB_SCHEDULER]))
			continue;
		if (!strcmp(w, "none")) {
			none = "none";
			continue;
		}
		snprintf(buf, len, "%s", w);
		return buf;
	}
	return none;
}

/* Does q offer the "none" scheduler? */
static bool word_none(const struct tune_queue *q)
{
	return !strncmp(q->schedulers, "none", 4) && (q->schedulers[4] == ' ' ||
						     !q->schedulers[4]);
}

/* Every knob of l reads as q saved it. */
static void assert_as_saved(const struct loopdev *l, const struct tune_queue *q)
{
	char now[TUNE_VALUE_MAX];
	int k;

	for (k = 0; k < KNOB_COUNT; k++) {
		if (!q->have[k])
			continue;
		assert_int_equal(sys_get(l->name, tune_knob_attr(k), now, sizeof(now)), 0);
		if (strcmp(now, q->value[k]))
			fail_msg("%s: %s is %s, not %s", l->name, tune_knob_attr(k), now,
				 q->value[k]);
	}
}

static void test_loop_probe(void **state)
{
	struct loopdev *l = *state;
	char want[256];
	struct stat st;
	int k;

	LOOP_OR_SKIP(l);
	assert_string_equal(l->q.disk, l->name);
	assert_int_equal(stat(l->dev, &st), 0);
	assert_true(l->q.devno == st.st_rdev);
	snprintf(want, sizeof(want), "%s is a loop device: its own queue", l->name);
	assert_string_equal(l->q.why, want);
	for (k = 0; k < KNOB_COUNT; k++) {
		assert_int_equal(l->q.have[k], l->have[k]);
		if (l->have[k])
			assert_string_equal(l->q.value[k], l->orig[k]);
	}
	assert_non_null(strstr(l->q.schedulers, l->q.value[KNOB_SCHEDULER]));
	assert_null(strchr(l->q.schedulers, '['));
	assert_true(l->q.max_hw_sectors_kb[0] != '\0');
}

static void test_loop_partition_probe(void **state)
{
	struct loopdev *l = *state;
	char part[80], err[512], want[256];
	struct target_info ti;
	struct tune_queue q;
	int i;

	LOOP_OR_SKIP(l);
	/* the partition scan runs when the device is attached */
	snprintf(part, sizeof(part), "/sys/block/%s/%sp1", l->name, l->name);
	if (access(part, F_OK)) {
		print_message("the kernel found no partition on %s (no MS-DOS partition table "
			      "support?): skipped\n", l->dev);
		skip();
	}
	snprintf(part, sizeof(part), "%sp1", l->dev);
	for (i = 0; i < 40 && access(part, F_OK); i++)
		usleep(50000);	/* the node comes from devtmpfs or udev */
	if (access(part, F_OK)) {
		print_message("%s has no node %s: skipped\n", l->dev, part);
		skip();
	}
	assert_int_equal(target_probe(part, &ti, err, sizeof(err)), 0);
	assert_int_equal(tune_queue_probe(&ti, &q, err, sizeof(err)), 0);
	assert_string_equal(q.disk, l->name);
	snprintf(want, sizeof(want), "%sp1 is a partition: its disk's queue, %s", l->name, l->name);
	assert_string_equal(q.why, want);
}

/* Record, change the scheduler, read-ahead and nr_requests, restore:
 * everything reads as before and the journal is gone. */
static void test_loop_apply_restore(void **state)
{
	struct loopdev *l = *state;
	const char *values[KNOB_COUNT] = { NULL };
	struct tune_journal j, back;
	char err[512], now[TUNE_VALUE_MAX], buf[32];
	int ret;

	LOOP_OR_SKIP(l);
	values[KNOB_SCHEDULER] = other_scheduler(&l->q, buf, sizeof(buf));
	if (!values[KNOB_SCHEDULER])
		skip();
	values[KNOB_READ_AHEAD] = "16";
	values[KNOB_NR_REQUESTS] = "64";
	assert_int_equal(tune_journal_write(&l->q, &j, err, sizeof(err)), 0);
	ret = tune_apply(&l->q, values, err, sizeof(err));
	if (ret)
		fail_msg("tune_apply: %s", err);
	assert_int_equal(sys_get(l->name, "scheduler", now, sizeof(now)), 0);
	assert_string_equal(now, values[KNOB_SCHEDULER]);
	assert_int_equal(tune_knob_read(&l->q, KNOB_SCHEDULER, now, sizeof(now)), 0);
	assert_string_equal(now, values[KNOB_SCHEDULER]);
	assert_int_equal(sys_get(l->name, "read_ahead_kb", now, sizeof(now)), 0);
	assert_string_equal(now, "16");
	assert_int_equal(sys_get(l->name, "nr_requests", now, sizeof(now)), 0);
	assert_string_equal(now, "64");

	/* what a restore after a kill would read */
	ret = tune_journal_read(l->name, &back, err, sizeof(err));
	if (ret)
		fail_msg("tune_journal_read: %s", err);
	ret = tune_restore(&back, err, sizeof(err));
	if (ret)
		fail_msg("tune_restore: %s", err);
	assert_as_saved(l, &l->q);
	assert_int_equal(tune_journal_read(l->name, &back, err, sizeof(err)), -ENOENT);
}

/* A new scheduler resets nr_requests: one not asked for is put back. */
static void test_loop_scheduler_keeps_nr(void **state)
{
	struct loopdev *l = *state;
	const char *values[KNOB_COUNT] = { NULL };
	char err[512], now[TUNE_VALUE_MAX], buf[32], depth[32], big[32], want[256];
	struct tune_journal j;
	FILE *f;
	int ret;

	LOOP_OR_SKIP(l);
	values[KNOB_SCHEDULER] = other_scheduler(&l->q, buf, sizeof(buf));
	if (!values[KNOB_SCHEDULER] || !l->q.have[KNOB_NR_REQUESTS])
		skip();
	assert_int_equal(tune_journal_write(&l->q, &j, err, sizeof(err)), 0);
	ret = tune_apply(&l->q, values, err, sizeof(err));
	if (ret)
		fail_msg("tune_apply: %s", err);
	assert_int_equal(sys_get(l->name, "nr_requests", now, sizeof(now)), 0);
	assert_string_equal(now, l->q.value[KNOB_NR_REQUESTS]);

	/* back to "none" with more requests than the hardware queue has:
	 * the kernel refuses the old value, and the message says what to do */
	f = fopen("/sys/module/loop/parameters/hw_queue_depth", "r");
	if (f && fgets(depth, sizeof(depth), f) && word_none(&l->q) &&
	    atoi(depth) > 0 && atoi(depth) * 2 <= 2048) {
		const char *v2[KNOB_COUNT] = { NULL };

		snprintf(big, sizeof(big), "%d", atoi(depth) * 2);
		v2[KNOB_NR_REQUESTS] = big;
		assert_int_equal(tune_apply(&l->q, v2, err, sizeof(err)), 0);
		v2[KNOB_NR_REQUESTS] = NULL;
		v2[KNOB_SCHEDULER] = "none";
		assert_int_equal(tune_apply(&l->q, v2, err, sizeof(err)), -EINVAL);
		snprintf(want, sizeof(want), "the kernel refuses nr_requests %s: Invalid "
			 "argument (what it was before; give --nr-requests)", big);
		assert_string_equal(err, want);
	}
	if (f)
		fclose(f);
	assert_int_equal(tune_restore(&j, err, sizeof(err)), 0);
	assert_as_saved(l, &l->q);
}

/*
 * A change of max_sectors_kb raises read_ahead_kb to 128 KiB: a smaller
 * read-ahead not asked for is put back, and a restore writes
 * max_sectors_kb first, so a device tuned to little read-ahead gets it back.
 */
static void test_loop_limits_keep_read_ahead(void **state)
{
	struct loopdev *l = *state;
	const char *values[KNOB_COUNT] = { NULL };
	char err[512], now[TUNE_VALUE_MAX], buf[32], ms[32];
	struct target_info ti;
	struct tune_journal j;
	struct tune_queue q;
	unsigned long hw;
	int ret;

	LOOP_OR_SKIP(l);
	if (!l->q.have[KNOB_MAX_SECTORS] || !l->q.have[KNOB_READ_AHEAD] ||
	    sscanf(l->q.max_hw_sectors_kb, "%lu", &hw) != 1 || hw < 16)
		skip();
	/* someone set read-ahead low before tune came */
	assert_int_equal(sys_put(l->name, "read_ahead_kb", "16"), 0);
	ti = l->ti;
	assert_int_equal(tune_queue_probe(&ti, &q, err, sizeof(err)), 0);
	assert_string_equal(q.value[KNOB_READ_AHEAD], "16");
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);

	snprintf(ms, sizeof(ms), "%lu", hw / 2);
	values[KNOB_MAX_SECTORS] = ms;
	values[KNOB_SCHEDULER] = other_scheduler(&q, buf, sizeof(buf));
	ret = tune_apply(&q, values, err, sizeof(err));
	if (ret)
		fail_msg("tune_apply: %s", err);
	assert_int_equal(sys_get(l->name, "max_sectors_kb", now, sizeof(now)), 0);
	assert_string_equal(now, ms);
	assert_int_equal(sys_get(l->name, "read_ahead_kb", now, sizeof(now)), 0);
	assert_string_equal(now, "16");

	/* the kernel's side effect, seen without tune */
	assert_int_equal(sys_put(l->name, "max_sectors_kb", q.value[KNOB_MAX_SECTORS]), 0);
	assert_int_equal(sys_get(l->name, "read_ahead_kb", now, sizeof(now)), 0);
	if (strcmp(now, "16"))
		print_message("max_sectors_kb moved read_ahead_kb from 16 to %s: the kernel's "
			      "side effect tune undoes\n", now);

	ret = tune_restore(&j, err, sizeof(err));
	if (ret)
		fail_msg("tune_restore: %s", err);
	assert_as_saved(l, &q);
}

/* What the kernel refuses, and what it takes but keeps otherwise. */
static void test_loop_refused_and_clamped(void **state)
{
	struct loopdev *l = *state;
	const char *values[KNOB_COUNT] = { NULL };
	struct tune_journal j;
	char err[512];

	LOOP_OR_SKIP(l);
	assert_int_equal(tune_journal_write(&l->q, &j, err, sizeof(err)), 0);

	values[KNOB_NR_REQUESTS] = "3";
	assert_int_equal(tune_apply(&l->q, values, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "nr_requests: wrote 3, the kernel keeps 4");
	values[KNOB_NR_REQUESTS] = NULL;

	values[KNOB_READ_AHEAD] = "99999999999";
	assert_int_equal(tune_apply(&l->q, values, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the kernel refuses read_ahead_kb 99999999999: Invalid argument");

	/* the kernel keeps whole pages */
	if (sysconf(_SC_PAGESIZE) == 4096) {
		values[KNOB_READ_AHEAD] = "7";
		values[KNOB_NOMERGES] = "1";
		assert_int_equal(tune_apply(&l->q, values, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "read_ahead_kb: wrote 7, the kernel keeps 4");
		/* two at once are both named */
		values[KNOB_NR_REQUESTS] = "2";
		assert_int_equal(tune_apply(&l->q, values, err, sizeof(err)), -EINVAL);
		assert_string_equal(err, "read_ahead_kb: wrote 7, the kernel keeps 4; "
				    "nr_requests: wrote 2, the kernel keeps 4");
	}

	/* not a value at all: nothing is written */
	values[KNOB_READ_AHEAD] = "16\n32";
	assert_int_equal(tune_apply(&l->q, values, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "read_ahead_kb: '16\n32' is not a value");
	values[KNOB_READ_AHEAD] = NULL;
	values[KNOB_NOMERGES] = NULL;
	values[KNOB_NR_REQUESTS] = NULL;
	values[KNOB_SCHEDULER] = "nosuch-iosched";
	assert_int_equal(tune_apply(&l->q, values, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the kernel refuses scheduler nosuch-iosched: Invalid argument");

	assert_int_equal(tune_restore(&j, err, sizeof(err)), 0);
	assert_as_saved(l, &l->q);
}

/* A journal whose values do not read back: -EIO names them, the journal
 * stays for another try. */
static void test_loop_restore_differs(void **state)
{
	struct loopdev *l = *state;
	struct tune_journal j, back;
	struct tune_queue q;
	char err[768], want[768];

	LOOP_OR_SKIP(l);
	if (sysconf(_SC_PAGESIZE) != 4096 || !l->q.have[KNOB_READ_AHEAD])
		skip();
	q = l->q;
	snprintf(q.value[KNOB_READ_AHEAD], sizeof(q.value[0]), "7");
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);
	assert_int_equal(tune_restore(&j, err, sizeof(err)), -EIO);
	snprintf(want, sizeof(want), "%s is not back as %s saved it: read_ahead_kb is 4, not 7; "
		 "the journal is kept", l->name, j.path);
	assert_string_equal(err, want);
	assert_int_equal(tune_journal_read(l->name, &back, err, sizeof(err)), 0);
	unlink(j.path);

	/* a journal of another device that took the name: not restored */
	q = l->q;
	q.devno = makedev(major(q.devno), minor(q.devno) + 1000);
	assert_int_equal(tune_journal_write(&q, &j, err, sizeof(err)), 0);
	assert_int_equal(tune_restore(&j, err, sizeof(err)), -ESTALE);
	assert_int_equal(tune_journal_read(l->name, &back, err, sizeof(err)), -ESTALE);
	unlink(j.path);
}

static void on_term(int sig)
{
	tune_restore_now();
	signal(sig, SIG_DFL);
	raise(sig);
}

/*
 * A tune in a child process: journal, (arm), apply, say so on fd, wait to
 * be killed. Exits with 10 + a step when a step fails.
 */
static void child_tune(const struct loopdev *l, const char *const values[KNOB_COUNT], bool arm,
		       int fd)
{
	struct tune_journal j;
	char err[512];

	if (tune_journal_write(&l->q, &j, err, sizeof(err)))
		_exit(11);
	if (arm) {
		tune_restore_arm(&j);
		if (signal(SIGTERM, on_term) == SIG_ERR)
			_exit(12);
	}
	if (tune_apply(&l->q, values, err, sizeof(err)))
		_exit(13);
	if (write(fd, "k", 1) != 1)
		_exit(14);
	for (;;)
		pause();
}

/* Run child_tune and kill it with sig once it has applied values.
 * Returns its wait status. */
static int killed_tune(const struct loopdev *l, const char *const values[KNOB_COUNT], bool arm,
		       int sig)
{
	int fds[2], status;
	pid_t pid;
	char c;

	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (!pid) {
		close(fds[0]);
		child_tune(l, values, arm, fds[1]);
	}
	close(fds[1]);
	if (read(fds[0], &c, 1) == 1)
		kill(pid, sig);
	close(fds[0]);
	assert_int_equal(waitpid(pid, &status, 0), pid);
	return status;
}

/* SIGTERM: the handler puts every value back with tune_restore_now(),
 * and leaves the journal for a later tune_restore. */
static void test_loop_signal_restore(void **state)
{
	struct loopdev *l = *state;
	const char *values[KNOB_COUNT] = { NULL };
	char err[768], want[768], buf[32];
	struct tune_journal j, mine;
	int status;

	LOOP_OR_SKIP(l);
	values[KNOB_SCHEDULER] = other_scheduler(&l->q, buf, sizeof(buf));
	values[KNOB_READ_AHEAD] = "16";
	values[KNOB_NR_REQUESTS] = "64";
	status = killed_tune(l, values, true, SIGTERM);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGTERM)
		fail_msg("the tune did not die of SIGTERM: status %#x", status);
	assert_as_saved(l, &l->q);

	assert_int_equal(tune_journal_read(l->name, &j, err, sizeof(err)), 0);
	assert_true(j.pid != getpid());
	/* its tune is gone, and another one is told so */
	assert_int_equal(tune_journal_write(&l->q, &mine, err, sizeof(err)), -EEXIST);
	snprintf(want, sizeof(want), "%s has a journal from a tune that no longer runs (pid %d, "
		 "since %s): its settings may still be changed; run: diskbench tune --restore "
		 "/dev/%s", l->name, (int)j.pid, j.started, l->name);
	assert_string_equal(err, want);
	assert_int_equal(tune_restore(&j, err, sizeof(err)), 0);
	assert_int_equal(tune_journal_read(l->name, &j, err, sizeof(err)), -ENOENT);
}

/* kill -9: nothing runs in the tune, tune --restore does it all. */
static void test_loop_kill9_restore(void **state)
{
	struct loopdev *l = *state;
	const char *values[KNOB_COUNT] = { NULL };
	char err[768], now[TUNE_VALUE_MAX], buf[32];
	struct tune_journal j;
	int status;

	LOOP_OR_SKIP(l);
	values[KNOB_SCHEDULER] = other_scheduler(&l->q, buf, sizeof(buf));
	values[KNOB_READ_AHEAD] = "16";
	values[KNOB_NR_REQUESTS] = "64";
	if (l->q.have[KNOB_NOMERGES])
		values[KNOB_NOMERGES] = "2";
	status = killed_tune(l, values, true, SIGKILL);
	if (!WIFSIGNALED(status) || WTERMSIG(status) != SIGKILL)
		fail_msg("the tune did not die of SIGKILL: status %#x", status);
	assert_int_equal(sys_get(l->name, "read_ahead_kb", now, sizeof(now)), 0);
	assert_string_equal(now, "16");

	assert_int_equal(tune_journal_read(l->name, &j, err, sizeof(err)), 0);
	assert_int_equal(tune_restore(&j, err, sizeof(err)), 0);
	assert_as_saved(l, &l->q);
	assert_int_equal(tune_journal_read(l->name, &j, err, sizeof(err)), -ENOENT);
}

/* ---- the group --------------------------------------------------------- */

static int rm_tree(const char *dir)
{
	char path[PATH_MAX];
	struct dirent *de;
	DIR *d = opendir(dir);

	if (!d)
		return -1;
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, de->d_name);
		if (unlink(path))
			rm_tree(path);
	}
	closedir(d);
	return rmdir(dir);
}

static int group_setup(void **state)
{
	(void)state;
	snprintf(jdir, sizeof(jdir), "/dev/shm/test_tune.XXXXXX");
	if (!mkdtemp(jdir)) {
		snprintf(jdir, sizeof(jdir), "/tmp/test_tune.XXXXXX");
		if (!mkdtemp(jdir))
			return -1;
	}
	return setenv("DISKBENCH_TUNE_JOURNALS", jdir, 1);
}

static int group_teardown(void **state)
{
	(void)state;
	return rm_tree(jdir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_knob_names),
		cmocka_unit_test(test_knob_check),
		cmocka_unit_test(test_probe_no_queue),
		cmocka_unit_test(test_journal_corrupt),
		cmocka_unit_test(test_journal_stale),
		cmocka_unit_test(test_journal_round_trip),
		cmocka_unit_test(test_journal_exists),
		cmocka_unit_test(test_journal_format),
		cmocka_unit_test(test_journal_list),
		cmocka_unit_test(test_journal_dir),
		cmocka_unit_test(test_no_device),
		cmocka_unit_test_setup_teardown(test_loop_probe, loop_setup, loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_partition_probe, loop_setup_parts,
						loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_apply_restore, loop_setup, loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_scheduler_keeps_nr, loop_setup,
						loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_limits_keep_read_ahead, loop_setup,
						loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_refused_and_clamped, loop_setup,
						loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_restore_differs, loop_setup,
						loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_signal_restore, loop_setup, loop_teardown),
		cmocka_unit_test_setup_teardown(test_loop_kill9_restore, loop_setup, loop_teardown),
	};

	return cmocka_run_group_tests(tests, group_setup, group_teardown);
}
