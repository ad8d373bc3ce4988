/* opts_table.c - the option table: one row per option, and which subcommands take it. */
#include <stddef.h>
#include <stdint.h>

#include "opts_int.h"
#include "repeat.h"
#include "reqlog.h"
#include "timeline.h"

#define RUN OPTS_CMD_RUN
#define TUNE OPTS_CMD_TUNE
#define COMPARE OPTS_CMD_COMPARE
#define REPORT OPTS_CMD_REPORT
#define INFO OPTS_CMD_INFO
#define ALL OPTS_CMD_ALL

#define F(field) offsetof(struct settings, field)
#define SEC 1000000000ull

/*
 * One row per option, in --help order, which is also the order of a
 * result's settings (keep it: saved results and golden files list them so)
 * and of the man page's and doc/options.md's entries: .doc is their text,
 * in the little markdown of opts_int.h. Fields left out are zero: no count
 * field, no range, not echoed. cmds and scope are always spelled out: cmds
 * decides which subcommands take the option (tune refuses a run option by
 * its row), scope what a profile file may set (SC_CLI: nothing). An
 * OPT_SET_INT flag stores .min in its field, which is why "buffered" spells
 * out .min = 0.
 */
const struct opt_def opts_rows[] = {
	{ .name = "profile", .arg = "NAME|FILE", .kind = OPT_STR, .off = F(profile),
	  .echo = true, .cmds = RUN, .scope = SC_CLI,
	  .help = "the plan: a profile of 'diskbench list profiles' or an .ini file "
		  "(default: quick)",
	  .doc = "the suite to run: `quick` (default), `bonnie`, `hdparm`, `xbench`, "
		  "`crystal`, `crystal-nvme`, `devbuild`, or an INI file" },
	{ .name = "engine", .arg = "NAME", .kind = OPT_STR, .off = F(engine),
	  .echo = true, .cmds = RUN | TUNE, .scope = SC_RUN,
	  .help = "io_uring, libaio, sync, direct, null or auto (default: auto)",
	  .doc = "`io_uring`, `libaio`, `sync`, `direct`, `null` or `auto` (default): "
		  "io_uring, then libaio, then sync" },
	{ .name = "test", .arg = "LIST", .kind = OPT_STR, .off = F(tests),
	  .echo = true, .cmds = RUN, .scope = SC_GROUP,
	  .help = "only these workloads, with the profile's settings (see: diskbench list tests)",
	  .doc = "workloads of the profile to run (`diskbench list tests`: seq/rand "
		  "read/write, char-write/char-read, rewrite, seeks, "
		  "meta-create/stat/delete and their `-rand` variants, buffered-read, "
		  "cached-read, verify)" },
	{ .name = "bs", .arg = "LIST", .kind = OPT_SIZE_LIST, .off = F(bs), .count_off = F(nbs),
	  .min = 512, .max = 64u << 20, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "block sizes, e.g. 4k,256k,1m (default: the profile's, else 1m seq, 4k rand)",
	  .doc = "block sizes (default: the profile's, else 1m for sequential, 4k for "
		  "random)" },
	{ .name = "qd", .arg = "LIST", .kind = OPT_COUNT_LIST, .off = F(qd), .count_off = F(nqd),
	  .min = 1, .max = 4096, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "queue depths per job, e.g. 1,32 (default: the profile's, else 1)",
	  .doc = "queue depths per job (default: the profile's, else 1; the default "
		  "profile, `quick`, runs 8 for sequential, 1 and 32 for random)" },
	{ .name = "jobs", .arg = "N", .kind = OPT_COUNT, .off = F(jobs),
	  .min = 1, .max = 1024, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "jobs per test, each with its own queue, each a process of its own "
		  "(default: 1)",
	  .doc = "jobs, each with its own fd, queue, buffers and histogram. They "
		  "run as processes, each in a session of its own, as fio's jobs "
		  "do (and so a job stuck in the kernel on a request that never "
		  "completes can be let go: `--io-timeout`): with the kernel's "
		  "scheduler autogroups "
		  "(`kernel.sched_autogroup_enabled`, on in most distributions) a "
		  "session is one share of the CPU, and N threads of one process would "
		  "split one share over their CPUs, each weighing 1/N against the "
		  "kernel's own workers (a loop device's, dm-crypt's) that it waits "
		  "for. Block and file tests alike; `--thread` makes them threads" },
	{ .name = "runtime", .arg = "TIME", .kind = OPT_DURATION, .off = F(runtime_ns),
	  .min = 1000000, .max = 86400 * SEC, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "measured time per test: 500ms, 5s, 2m (default: 5s)",
	  .doc = "measured time (default 5s) after an unmeasured warm-up (default 1s)" },
	{ .name = "ramp", .arg = "TIME", .kind = OPT_DURATION, .off = F(ramp_ns),
	  .max = 3600 * SEC, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "unmeasured warm-up per test (default: 1s)",
	  .with_prev = true },
	{ .name = "settle", .arg = "TIME", .kind = OPT_DURATION, .off = F(settle_ns),
	  .max = 60 * SEC, .echo = true, .echo_set = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "before each test, sync() and stay idle this long, as hdparm does before it "
		  "times (default: 0; the hdparm profile: 3s)",
	  .doc = "before each test, `sync()` and stay idle this long, as hdparm does "
		  "before it times (default 0; the `hdparm` profile sets 3s)" },
	{ .name = "interval", .arg = "TIME", .kind = OPT_DURATION, .off = F(interval_ns),
	  .min = TIMELINE_MIN_INTERVAL_NS, .max = 86400 * SEC, .echo = true, .echo_set = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "timeline interval (default: 1s; runtime/10 under 10s, at least 100ms)",
	  .doc = "the interval of each test's timeline (10ms to 24h; default 1s, or a "
		  "tenth of a test shorter than 10s, at least 100ms; see "
		  "[Timeline](timeline.md))" },
	{ .name = "repeat", .arg = "N", .kind = OPT_COUNT, .off = F(repeat),
	  .min = 1, .max = REPEAT_MAX, .echo = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "run the whole plan N times, in passes; report the median (default: 1)",
	  .doc = "run the whole plan N times (1 to 100, default 1) and report each "
		  "test's median and spread (see [Repeats](numbers.md#repeats))" },
	{ .name = "size", .arg = "SIZE", .kind = OPT_SIZE, .off = F(size),
	  .min = 4096, .max = UINT64_MAX, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "working set, e.g. 1g (default: 1g in a directory, all of a device or file)",
	  .doc = "working set (default 1g in a directory, at most half the free space; "
		  "all of a device or file)" },
	{ .name = "seed", .arg = "N", .kind = OPT_COUNT, .off = F(seed),
	  .max = UINT64_MAX, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "seed for random offsets and data (default: 42)",
	  .doc = "seed of the random offsets and data: runs are reproducible" },
	/* Two flags on one field: giving both is a contradiction (opts_exclusive). */
	{ .name = "direct", .kind = OPT_SET_INT, .off = F(direct),
	  .min = 1, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "O_DIRECT: bypass the page cache (default)",
	  .doc = "O_DIRECT (default) or the page cache (giving both is an error). A "
		  "buffered test runs as if its file were larger than RAM "
		  "(\"drop-behind\"; bonnie++ sizes its file to 2 x RAM for this): the "
		  "file's pages are dropped before it, pages it read are dropped behind "
		  "it, what it wrote is written back while it goes on and before its "
		  "window closes, so every byte it counts went to or came from the "
		  "device. Only `cached-read` (hdparm -T) measures the cache, and "
		  "`buffered-read` (hdparm -t) reads once from the start, as hdparm "
		  "does: it keeps what it read (read-ahead and filling the page cache "
		  "are part of what hdparm measures) and stops at the end of the device "
		  "or file rather than read it again" },
	{ .name = "buffered", .kind = OPT_SET_INT, .off = F(direct),
	  .min = 0, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "go through the page cache as if the file were larger than RAM (drop-behind)",
	  .with_prev = true },
	{ .name = "data", .arg = "random|zero", .kind = OPT_CHOICE, .off = F(data),
	  .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "what block tests write: incompressible (default) or zeros, which "
		  "compression and dedup shrink",
	  .doc = "what the block tests write: incompressible data (the default), or "
		  "zeros (with each sector's stamp), which compression and dedup "
		  "shrink: a file system that compresses (btrfs) then gets a warning "
		  "that the rates are the compressor's; JSON per test `\"data\"`" },
	{ .name = "char-mode", .arg = "stdio|syscall", .kind = OPT_CHOICE, .off = F(char_mode),
	  .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "char-*: putc/getc through stdio (default) or one-byte read/write",
	  .doc = "per-char tests through putc/getc (default) or one-byte write/read "
		  "calls (bonnie++ 2.00)" },
	{ .name = "files", .arg = "N", .kind = OPT_COUNT, .off = F(files),
	  .min = 1, .max = 1u << 30, .echo = true, .echo_set = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "meta-*: number of files to create, stat and delete",
	  .doc = "the metadata tests' files, as bonnie++ `-n` (default 16384 empty "
		  "files in one directory). As in bonnie++ 2.00, file names are the file's number in 10 hex "
		  "digits and 0 to 12 random alphanumerics (after the number for "
		  "meta-create, meta-stat and meta-delete, before it for the -rand "
		  "tests); files are created in number order; meta-stat and meta-delete "
		  "go in readdir() order, the -rand tests in a seeded random order; a "
		  "stat also reads the file's data when it has any" },
	{ .name = "file-size", .arg = "SIZE|MIN-MAX", .kind = OPT_SIZE_RANGE, .off = F(file_size),
	  .count_off = F(nfile_size), .max = 1ull << 40, .echo = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "meta-*: size of each file, or a range, e.g. 0, 4k, 1k-16k",
	  .with_prev = true },
	{ .name = "dirs", .arg = "N", .kind = OPT_COUNT, .off = F(dirs),
	  .min = 1, .max = 1u << 20, .echo = true, .echo_set = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "meta-*: directories the files are spread over",
	  .with_prev = true },
	{ .name = "fsync", .kind = OPT_SET_BOOL, .off = F(fsync),
	  .echo = true, .echo_set = true, .cmds = RUN | TUNE, .scope = SC_TEST,
	  .help = "meta-*: fsync each file after writing it",
	  .with_prev = true },
	{ .name = "destructive", .arg = "[=DEV]", .kind = OPT_OPT_STR, .off = F(destructive),
	  .echo = true, .cmds = RUN | TUNE, .scope = SC_CLI,
	  .help = "allow writes to a device or an existing file, laying out the read tests' region "
		  "first; =DEV also overrides a signature",
	  .doc = "allow write tests on a block device or an existing file (see "
		  "[Targets and safety](targets.md)); with read tests in the plan, the "
		  "working set is written first, so that they never read unwritten "
		  "space (see [What the numbers mean](numbers.md))" },
	{ .name = "max-fill", .arg = "PCT", .kind = OPT_COUNT, .off = F(max_fill),
	  .min = 1, .max = 100, .echo = true, .cmds = RUN | TUNE, .scope = SC_RUN,
	  .help = "never fill a directory's fs (space, inodes) past PCT % (default: 90)",
	  .doc = "never fill a directory's file system past PCT % (default 90)" },
	{ .name = "drop-caches", .kind = OPT_SET_BOOL, .off = F(drop_caches),
	  .echo = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "sync and drop the page cache before each test (root)",
	  .doc = "root: sync and drop the page cache before each test" },
	{ .name = "trim", .kind = OPT_SET_BOOL, .off = F(trim),
	  .echo = true, .echo_set = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "discard before each write test: fstrim a directory's fs, or the "
		  "test's range of a device (root)",
	  .doc = "root: discard before each write test (every pass), so that an SSD "
		  "starts each from a trimmed state: a directory's file system gets "
		  "FITRIM of its free space (what `fstrim` does), a block device where "
		  "writes are allowed gets BLKDISCARD of the test's range. The report "
		  "notes per test what was trimmed (JSON `\"trim\": {\"method\": "
		  "\"fitrim\" | \"blkdiscard\", \"bytes\"}`). Refused before anything "
		  "runs (exit 2) on a file, a device without discard, a file system "
		  "without FITRIM (tmpfs), and (exit 3) on a device the gate does not "
		  "let diskbench write: a discard destroys data as a write does. The "
		  "`trim` test (`--test trim --bs SIZE`) times the discards themselves: "
		  "the working set once, `bs` at a time (BLKDISCARD on a device, a "
		  "punched hole in a directory's data file), each one a timed op" },
	{ .name = "verify", .kind = OPT_SET_BOOL, .off = F(verify),
	  .echo = true, .echo_set = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "self-checking writes (offset, seed, crc32c), read back after each write test",
	  .doc = "every block test that writes (seq-write, rand-write, seeks) writes "
		  "self-checking blocks and, after its measured window, untimed, reads "
		  "back every block it wrote and checks it (see [Verify](verify.md)). A "
		  "mismatch is a warning naming the offset, what was expected and what "
		  "was found, and exit status 1. Exit 2 when no test of the plan writes "
		  "such blocks (`--test rand-read --verify`, only tests doing their own "
		  "I/O, the null engine), 3 when the safety gate left its write tests "
		  "out" },
	{ .name = "on-error", .arg = "stop|continue", .kind = OPT_CHOICE, .off = F(on_error),
	  .echo = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "at an I/O error: end the test and the run there (default), or count it "
		  "and go on (fio's continue_on_error)",
	  .doc = "what a failed or short request does (fio's `continue_on_error` is the "
		  "model). `stop` (the default): the test ends at its first error, every "
		  "job's window with it, and the run ends there: that test, with what it "
		  "measured up to the error, and the tests before it are reported, the "
		  "rest of the plan is not run. `continue`: every error is counted and "
		  "the test and the run go on; a failed request is no op, its bytes are "
		  "not counted. Either way the first error is named with its errno and "
		  "offset (JSON per test `\"errors\"`, `\"first_error\"` and the first "
		  "8 in `\"io_errors\"`), and the exit status is 1. A device that "
		  "no longer answers a read of its first block after an error has "
		  "vanished: the run ends there with either setting (see "
		  "[Faults](faults.md))" },
	{ .name = "io-timeout", .arg = "TIME", .kind = OPT_DURATION, .off = F(io_timeout_ns),
	  .min = 100000000, .max = 3600 * SEC, .echo = true, .echo_set = true, .cmds = RUN,
	  .scope = SC_RUN,
	  .help = "a request in flight this long is reported; one still in flight this long "
		  "after the runtime ends the test and the run (default: 5s)",
	  .doc = "the bound on a request's age (default 5s). A request in flight this "
		  "long is reported with its job, offset and age, on the progress line "
		  "while it lasts and in a warning and the JSON (per test "
		  "`\"slow_requests\"`), and the test goes on. A request that has not "
		  "completed this long after the test's runtime (or after a Ctrl-C) ends "
		  "the test, naming it (an error of errno ETIMEDOUT at its offset), and "
		  "the run: no hang. A file test's job is stuck once nothing has moved "
		  "this long after the runtime (its files, its calls, the device's "
		  "counters), and the call is named with its file. Its job is abandoned: "
		  "a job process is killed, and the kernel ends it once the request "
		  "returns (see [Faults](faults.md))" },
	{ .name = "hipri", .kind = OPT_SET_BOOL, .off = F(hipri),
	  .echo = true, .echo_set = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "io_uring: poll for completions, on a device with poll queues (NVMe "
		  "with nvme.poll_queues)",
	  .doc = "io_uring polls for completions (IORING_SETUP_IOPOLL) instead of "
		  "waiting for an interrupt, as fio's `hipri`; only on a device with "
		  "poll queues (`queue/io_poll` 1: NVMe loaded with "
		  "`nvme.poll_queues=N`), with io_uring and O_DIRECT; else refused "
		  "before anything runs (exit 2, saying which). Its speed is "
		  "unmeasured: this project's VM has no such device. The tests cover "
		  "the refusals, and that the polled ring hands back the kernel's "
		  "EOPNOTSUPP on a device without poll queues" },
	{ .name = "steady-state", .kind = OPT_SET_BOOL, .off = F(steady_state),
	  .echo = true, .echo_set = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "run each test in rounds until steady (SNIA PTS: 5 rounds within 20 %, "
		  "slope within 10 %)",
	  .doc = "run each test in rounds (`--round TIME`, default `--runtime`; a ramp "
		  "before each) until its rounds' IOPS reach steady state as the SNIA "
		  "Performance Test Specification defines it: over a window of 5 "
		  "rounds, the range within 20 % of their average and the least-squares "
		  "slope's excursion across the window within 10 %; at most "
		  "`--max-rounds N` (default 25), after which the test is reported as "
		  "never steady. IOPS and MB/s are the window's average; the rounds are "
		  "the test's runs in the JSON, with `\"steady_state\": "
		  "{\"max_rounds\", \"rounds\", \"steady\", \"window\": {\"first\", "
		  "\"rounds\", \"average_iops\", \"range\", \"excursion\", "
		  "\"slope\"}}`; the text lists the IOPS of every round. Not with "
		  "`--repeat`" },
	{ .name = "round", .arg = "TIME", .kind = OPT_DURATION, .off = F(round_ns),
	  .min = 1000000, .max = 86400 * SEC, .echo = true, .echo_set = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "--steady-state: the length of a round (default: --runtime)" },
	{ .name = "max-rounds", .arg = "N", .kind = OPT_COUNT, .off = F(max_rounds),
	  .min = 1, .max = REPEAT_MAX, .echo = true, .echo_set = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "--steady-state: give up after N rounds (default: 25)" },
	{ .name = "precondition", .kind = OPT_SET_BOOL, .off = F(precondition),
	  .echo = true, .echo_set = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "first write the device (or working set) twice over in 128k sequential "
		  "writes, then run each test until steady (SNIA PTS)",
	  .doc = "SNIA PTS preconditioning: before the tests, write the device (or "
		  "file) from its start, twice over, in 128 KiB sequential O_DIRECT "
		  "writes at QD 32 (in a directory: the working set), then run every "
		  "test in steady-state rounds as `--steady-state` does (the PTS's "
		  "workload-dependent part). Destructive: on a device only with "
		  "`--destructive` (else exit 3, nothing written). The report says what "
		  "was written, how fast and what the device counted (JSON "
		  "`\"precondition\": {\"bs\", \"qd\", \"passes\", \"region_bytes\", "
		  "\"bytes\", \"time_ns\", \"complete\", \"device_write_bytes\"}`). Not "
		  "with `--repeat` or the null engine (exit 2)" },
	{ .name = "precondition-size", .arg = "SIZE", .kind = OPT_SIZE,
	  .off = F(precondition_size), .min = 1u << 20, .max = UINT64_MAX, .echo = true, .echo_set = true,
	  .cmds = RUN, .scope = SC_RUN,
	  .help = "--precondition: write this much (default: twice the device or working set)",
	  .doc = "with `--precondition`: write this much instead, in whole passes over "
		  "the device (less than the device: that much from its start, once); "
		  "at most 1000 passes" },
	{ .name = "cpus", .arg = "LIST", .kind = OPT_CPU_LIST, .off = F(cpus),
	  .count_off = F(ncpus), .echo = true, .cmds = RUN | TUNE, .scope = SC_RUN,
	  .help = "pin job i to the i-th CPU of a list like 0-3,6",
	  .doc = "pin job *i* to the *i*-th CPU of the list; with libnuma its buffers "
		  "live on that CPU's node. More jobs than CPUs share them (job *i* on "
		  "the (*i* mod *n*)-th), with a warning. Each job is named "
		  "`diskbench-jN`: a process (`ps -e`, `top`), or a thread (`top -H`, "
		  "`ps -L`) with `--thread`" },
	{ .name = "batch", .arg = "N", .kind = OPT_COUNT, .off = F(batch),
	  .min = 1, .max = 4096, .echo = true, .echo_set = true, .cmds = RUN | TUNE, .scope = SC_RUN,
	  .help = "the most requests one system call submits (default: 8 for random "
		  "tests, 1 for sequential ones, each as soon as it is ready)",
	  .doc = "the most requests one system call hands the kernel, as fio's "
		  "`iodepth_batch_submit` (default: 8 for random offsets, 1 for "
		  "sequential ones, at most the queue depth): 1 submits each request "
		  "as soon as a slot frees, as fio does by default; N gathers up to N. "
		  "The kernel merges requests of one submission that follow one "
		  "another on the device, so a sequential test batched would reach "
		  "it as larger requests than its block size: the default keeps it at "
		  "1. With io_uring, what is short of N goes "
		  "with the wait for the next completion, in the same "
		  "`io_uring_enter`, so `--batch` at the queue depth or more is one "
		  "system call per round of completions. libaio submits up to N per "
		  "`io_submit`; the sync engines have one request at a time. Each "
		  "test's JSON says its `\"batch\"`, and `compare` does not judge "
		  "tests run at different ones. What it costs and gives: [What "
		  "diskbench costs](cost.md#batch-sizes-the-gap-was-the-system-calls)" },
	{ .name = "thread", .kind = OPT_SET_BOOL, .off = F(thread),
	  .echo = true, .echo_set = true, .cmds = RUN | TUNE, .scope = SC_RUN,
	  .help = "--jobs: run the jobs as threads of one process (fio's --thread)",
	  .doc = "with `--jobs`: the jobs as threads of one process (fio's `--thread`). "
		  "A thread stuck in the kernel cannot be let go: on a device that stops "
		  "answering, the result is still written, but the process ends only once "
		  "the request returns (see [Faults](faults.md))" },
	{ .name = "scores", .arg = "xbench", .kind = OPT_CHOICE, .off = F(scores),
	  .cmds = RUN, .scope = SC_RUN,
	  .help = "score the tests as Xbench does (against its reference, or --baseline)",
	  .doc = "score the tests as Xbench does (the `xbench` profile sets it in its "
		  "`[profile]`)" },
	{ .name = "figures", .arg = "bonnie|crystal", .kind = OPT_CHOICE, .off = F(figures),
	  .echo = true, .cmds = RUN, .scope = SC_RUN,
	  .help = "also print the classic tool's own table: bonnie++'s layout or "
		  "CrystalDiskMark's grid (the bonnie and crystal profiles say so)",
	  .doc = "after the table, the same results in the classic tool's own layout: "
		  "bonnie++'s two tables, or CrystalDiskMark's grid (the `bonnie` and "
		  "`crystal` profiles set it)" },
	{ .name = "label", .arg = "TEXT", .kind = OPT_STR, .off = F(label),
	  .cmds = RUN, .scope = SC_RUN,
	  .help = "a label stored in the report",
	  .doc = "a label stored in the report" },
	{ .name = "json", .arg = "FILE", .kind = OPT_STR, .off = F(json),
	  .cmds = RUN | REPORT, .scope = SC_CLI,
	  .help = "write the result as JSON to FILE (- = stdout)",
	  .doc = "the result as JSON (`-` = stdout); written all or nothing (what FILE "
		  "may be: [Targets and safety](targets.md))" },
	{ .name = "append", .arg = "FILE", .kind = OPT_STR, .off = F(append),
	  .cmds = RUN, .scope = SC_CLI,
	  .help = "add this run's runs to the result saved in FILE (JSON; made when "
		  "missing): runs of two sides made in turn, for compare",
	  .doc = "add this run's runs of each test to the result FILE holds (made when "
		  "missing), as if one run had made them all: the same plan on the same "
		  "target only (exit 2 otherwise, before anything runs). Runs of two sides "
		  "made in turn (A, B, A, B ...) share the machine's state, which two "
		  "back-to-back `--repeat` runs do not: see [Interleaved "
		  "sides](compare.md#interleaved-sides)" },
	{ .name = "csv", .arg = "FILE", .kind = OPT_STR, .off = F(csv),
	  .cmds = RUN | REPORT, .scope = SC_CLI,
	  .help = "write a CSV row per test to FILE (- = stdout)",
	  .doc = "one CSV row per test (the columns: [JSON and CSV](json.md#csv))" },
	{ .name = "bonnie-csv", .arg = "FILE", .kind = OPT_STR, .off = F(bonnie_csv),
	  .cmds = RUN | REPORT, .scope = SC_CLI,
	  .help = "write bonnie++'s CSV line (for bon_csv2txt, bon_csv2html) to FILE",
	  .doc = "bonnie++'s CSV line (format 1.98), for its `bon_csv2txt` and "
		  "`bon_csv2html`" },
	{ .name = "html", .arg = "FILE", .kind = OPT_STR, .off = F(html),
	  .cmds = RUN | REPORT, .scope = SC_CLI,
	  .help = "write one self-contained HTML report with charts to FILE",
	  .doc = "one self-contained HTML page with charts, the JSON inside it (see "
		  "[HTML report](report.md#html-report))" },
	{ .name = "lat-log", .arg = "FILE", .kind = OPT_STR, .off = F(lat_log),
	  .cmds = RUN, .scope = SC_CLI,
	  .help = "write every request of each block test, one line each, to FILE "
		  "(fio's write_lat_log)",
	  .doc = "every request of each block test, one line each (fio's "
		  "`write_lat_log`, per I/O): test, run, job, queue slot, op, offset, "
		  "bytes, submit and completion time (CLOCK_MONOTONIC ns), latency, "
		  "result and whether it completed in the ramp, the measured window or "
		  "after it; the window's lines are the histogram's samples, one for "
		  "one. Kept in memory laid out before each test (no allocation or "
		  "write in the I/O loop), written after it; at most `--lat-log-max` "
		  "requests per job and test (default 1048576, 32 MiB a job), the rest "
		  "counted in the file (never left out silently); a plan whose log cannot "
		  "fit in memory is refused before it runs (exit 2). File tests (their "
		  "own I/O) are not logged. See [the per-request "
		  "log](json.md#per-request-log)" },
	{ .name = "lat-log-max", .arg = "N", .kind = OPT_COUNT, .off = F(lat_log_max),
	  .min = 1, .max = REQLOG_MAX_MAX, .cmds = RUN, .scope = SC_CLI,
	  .help = "--lat-log: keep at most N requests per job and test, count the rest "
		  "(default: 1048576)",
	  .with_prev = true },
	{ .name = "baseline", .arg = "FILE", .kind = OPT_STR, .off = F(baseline),
	  .cmds = RUN, .scope = SC_CLI,
	  .help = "score xbench tests against a saved diskbench result instead of Xbench's",
	  .doc = "score the xbench tests against a saved diskbench result instead of "
		  "Xbench's reference" },
	{ .name = "quiet", .kind = OPT_SET_BOOL, .off = F(quiet),
	  .cmds = RUN, .scope = SC_CLI,
	  .help = "no progress or table; warnings stay on stderr (2>/dev/null drops them)",
	  .doc = "no table, no progress and no time estimate. Warnings stay on stderr "
		  "(`2>/dev/null` silences them)" },
	/* Not the run's: what tune, compare, report and info take of their own. */
	{ .name = "scheduler", .arg = "LIST", .kind = OPT_STR, .off = F(sweep[0]),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "schedulers (default: every one the disk offers)" },
	{ .name = "read-ahead", .arg = "LIST", .kind = OPT_STR, .off = F(sweep[1]),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "read_ahead_kb values, KiB or 128k, 1m (default: 0,128,512,2048,8192)" },
	{ .name = "nr-requests", .arg = "LIST", .kind = OPT_STR, .off = F(sweep[2]),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "nr_requests values (swept only when given)" },
	{ .name = "max-sectors", .arg = "LIST", .kind = OPT_STR, .off = F(sweep[3]),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "max_sectors_kb values, KiB (swept only when given)" },
	{ .name = "nomerges", .arg = "LIST", .kind = OPT_STR, .off = F(sweep[4]),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "nomerges values (swept only when given)" },
	{ .name = "wbt", .arg = "LIST", .kind = OPT_STR, .off = F(sweep[5]),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "wbt_lat_usec values (swept only when given)" },
	{ .name = "workload", .arg = "PROFILE|TESTS", .kind = OPT_STR, .off = F(workload),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "the trials' workload instead of each knob's own (tune-scheduler, "
		  "tune-readahead): a profile, or tests" },
	{ .name = "blocks", .arg = "N", .kind = OPT_COUNT, .off = F(blocks),
	  .min = 2, .max = 100 /* TUNE_MAX_BLOCKS */, .cmds = TUNE, .scope = SC_CLI,
	  .bad = "is not a number from 2 to 100",
	  .help = "repetitions of every value, in random order, at most (default: 5; at "
		  "least 6 when only the control is run): a sweep stops early once every "
		  "verdict is settled" },
	{ .name = "noise", .arg = "PCT", .kind = OPT_PERCENT, .off = F(noise),
	  .max = 50, .cmds = TUNE, .scope = SC_CLI,
	  .help = "the band within which a change is no change (default: 3)" },
	{ .name = "noise", .arg = "PCT", .kind = OPT_PERCENT, .off = F(noise),
	  .max = 100, .max_open = true, .cmds = COMPARE, .scope = SC_CLI,
	  .help = "the band within which a change is \"~\" (default: 3)" },
	{ .name = "apply", .kind = OPT_SET_BOOL, .off = F(apply),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "keep the recommended settings (and say so)" },
	{ .name = "restore", .kind = OPT_SET_BOOL, .off = F(restore),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "put back what a killed tune left changed ([TARGET]: its disk only)" },
	{ .name = "json", .arg = "FILE", .kind = OPT_STR, .off = F(json),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "every trial and verdict, schema diskbench-tune/1" },
	{ .name = "html", .arg = "FILE", .kind = OPT_STR, .off = F(html),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "one self-contained page: the verdicts, a ratio plot per test with its "
		  "intervals, the tables (and the JSON)" },
	{ .name = "quiet", .kind = OPT_SET_BOOL, .off = F(quiet),
	  .cmds = TUNE, .scope = SC_CLI,
	  .help = "no progress, no report on stdout" },
	{ .name = "json", .arg = "FILE", .kind = OPT_STR, .off = F(json),
	  .cmds = COMPARE, .scope = SC_CLI,
	  .help = "write the comparison as JSON (\"-\" = stdout)" },
	{ .name = "html", .arg = "FILE", .kind = OPT_STR, .off = F(html),
	  .cmds = COMPARE, .scope = SC_CLI,
	  .help = "write it as one self-contained HTML page with ratio plots" },
	{ .name = "max-input", .arg = "SIZE", .kind = OPT_SIZE, .off = F(max_input),
	  .min = 1024, .max = UINT64_MAX, .cmds = COMPARE | REPORT, .scope = SC_CLI,
	  .bad = "is not a size of 1k or more (e.g. 1g)",
	  .help = "read results up to SIZE each (default: 256m)" },
	{ .name = "quiet", .kind = OPT_SET_BOOL, .off = F(quiet),
	  .cmds = COMPARE | REPORT, .scope = SC_CLI,
	  .help = "no text report" },
	{ .name = "json", .arg = "FILE", .kind = OPT_STR, .off = F(json),
	  .cmds = INFO, .scope = SC_CLI,
	  .help = "the target's facts and the write verdicts as JSON (\"-\" = stdout)" },
	{ .name = "destructive", .arg = "[=DEV]", .kind = OPT_OPT_STR, .off = F(destructive),
	  .cmds = INFO, .scope = SC_CLI,
	  .help = "the write verdict as a run with --destructive[=DEV] would get it" },
	{ .name = "help", .kind = OPT_SET_BOOL, .off = F(help),
	  .cmds = ALL, .scope = SC_CLI,
	  .help = "this help",
	  .doc = "the usage and the options (of each subcommand: `diskbench tune --help`); "
		  "`--version`: the version" },
	{ .name = "version", .kind = OPT_SET_BOOL, .off = F(version),
	  .cmds = RUN, .scope = SC_CLI,
	  .help = "print the version",
	  .with_prev = true },
};

const size_t opts_nrows = sizeof(opts_rows) / sizeof(opts_rows[0]);
_Static_assert(sizeof(opts_rows) / sizeof(opts_rows[0]) <= OPTS_MAX_OPTS,
	       "grow OPTS_MAX_OPTS: the given bitmap is too small");
