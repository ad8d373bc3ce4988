/* schema.c - the "diskbench/1" document's objects, key by key (schema.h). */
#include <stddef.h>

#include "result.h"
#include "schema.h"

/* The member m of struct S: its offset, and its size for the rows that need it. */
#define AT(S, m) .off = offsetof(S, m)
#define ARR(S, m) .off = offsetof(S, m), .size = sizeof(((S *)0)->m)
#define VALID(S, m, fl) .flags = SF_VALID | (fl), .valid = offsetof(S, m)

static const char *const kind_names[] = { "block", "file", "directory" };
static const char *const data_names[] = { "random", "zero" };
static const char *const pattern_names[] = { "seq", "rand" };
static const char *const rw_names[] = { "read", "write" };

#define NAMES(a) .names = a, .nnames = sizeof(a) / sizeof(a[0])

/* sizes of the file system: none for a block device */
static bool no_fs(const void *obj)
{
	return ((const struct target_info *)obj)->kind == TARGET_BLOCK;
}

static bool no_files(const void *obj)
{
	return !((const struct test_result *)obj)->params.nfiles;
}

static bool not_trimmed(const void *obj)
{
	return !((const struct test_result *)obj)->trim.method;
}

static bool health_unchecked(const void *obj)
{
	return !((const struct run_result *)obj)->health.checked;
}

static bool not_imported(const void *obj)
{
	return !((const struct run_result *)obj)->imported_from.tool[0];
}

#define H struct host_info
const struct sfield schema_host[] = {
	{ "hostname", SF_STR, ARR(H, hostname) },
	{ "kernel", SF_STR, ARR(H, kernel) },
	{ "cpu_model", SF_STR, ARR(H, cpu_model) },
	{ "cpus", SF_U32, AT(H, cpus) },
	{ "memory_bytes", SF_U64, AT(H, memory_bytes) },
	{ 0 }
};
#undef H

#define T struct target_info
const struct sfield schema_target[] = {
	{ "path", SF_STR, ARR(T, path) },
	{ "resolved_path", SF_STR, ARR(T, resolved) },
	{ "kind", SF_NAME, ARR(T, kind), NAMES(kind_names),
	  .what = "\"block\", \"file\" or \"directory\"" },
	{ "kind_detail", SF_STR, ARR(T, kind_detail) },
	{ "device", SF_STR, ARR(T, device) },
	{ "disk", SF_STR, ARR(T, disk) },
	{ "model", SF_STR, ARR(T, model) },
	{ "vendor", SF_STR, ARR(T, vendor) },
	{ "serial", SF_STR, ARR(T, serial) },
	{ "firmware", SF_STR, ARR(T, firmware), .since = "eb3ed57" },
	{ "wwn", SF_STR, ARR(T, wwn), .since = "eb3ed57" },
	{ "size_bytes", SF_U64, AT(T, size_bytes) },
	{ "fs_type", SF_STR, ARR(T, fs_type) },
	{ "mount_options", SF_STR, ARR(T, mount_options) },
	{ "mount_point", SF_STR, ARR(T, mount_point) },
	{ "fs_size_bytes", SF_U64, AT(T, fs_size_bytes), .null_if = no_fs },
	{ "free_bytes", SF_U64, AT(T, free_bytes), .null_if = no_fs },
	{ "rotational", SF_TRI, AT(T, rotational) },
	{ "scheduler", SF_STR, ARR(T, scheduler) },
	{ "schedulers", SF_LIST, ARR(T, schedulers), .sep = ' ', .join = " " },
	{ "read_ahead_kb", SF_INT, AT(T, read_ahead_kb) },
	{ "nr_requests", SF_INT, AT(T, nr_requests) },
	{ "max_sectors_kb", SF_INT, AT(T, max_sectors_kb) },
	{ "write_cache", SF_TRI, AT(T, write_cache) },
	{ "discard", SF_TRI, AT(T, discard) },
	{ "io_poll", SF_TRI, AT(T, io_poll), .since = "41a9165" },
	{ "discard_granularity", SF_U64, AT(T, discard_granularity), .since = "75b2d37" },
	{ "discard_max_bytes", SF_U64, AT(T, discard_max_bytes), .since = "75b2d37" },
	{ "transport", SF_STR, ARR(T, transport), .since = "cc783e2" },
	{ "transport_bytes_per_sec", SF_U64, AT(T, transport_bps), .since = "cc783e2" },
	/* only for a loop device */
	{ "loop_direct_io", SF_TRI, AT(T, loop_dio), .since = "aee588a", .absent = -1 },
	{ "loop_backing_disk", SF_STR, ARR(T, backing_disk), .since = "20bdcba" },
	{ "loop_backing_rotational", SF_TRI, AT(T, backing_rotational), .since = "20bdcba",
	  .absent = -1 },
	{ "io_limit", SF_STR, ARR(T, io_limit), .since = "ba2d349" },
	{ "logical_block_size", SF_U32, AT(T, logical_block_size) },
	{ "physical_block_size", SF_U32, AT(T, physical_block_size) },
	/* probe.c joins the layers with ", " */
	{ "stack", SF_LIST, ARR(T, stack), .sep = ',', .join = ", " },
	{ "encrypted", SF_BOOL, AT(T, encrypted) },
	{ "cow", SF_BOOL, AT(T, cow) },
	{ "compression", SF_STR, ARR(T, compression), .since = "392af6b" },
	{ "zfs_arc", SF_BOOL, AT(T, arc), .since = "392af6b" },
	{ "direct_via_page_cache", SF_BOOL, AT(T, direct_via_cache), .since = "69c693b" },
	{ "direct_io", SF_TRI, AT(T, direct_io), .since = "392af6b", .absent = -1 },
	/* the members of a btrfs over several devices, else the device */
	{ "devices", SF_HAND, .since = "feb015b", .hand = SH_TARGET_DEVICES },
	/* the honesty flags follow from the rest: not read back */
	{ "flags", SF_HAND, .hand = SH_TARGET_FLAGS },
	{ 0 }
};
#undef T

#define R struct test_run
static const struct sfield run_device[] = {
	{ "read_bytes", SF_U64, AT(R, dev_read_bytes) },
	{ "write_bytes", SF_U64, AT(R, dev_write_bytes) },
	{ 0 }
};

const struct sfield schema_test_run[] = {
	{ "runtime_ns", SF_U64, AT(R, runtime_ns) },
	{ "ops", SF_U64, AT(R, ops) },
	{ "bytes", SF_U64, AT(R, bytes) },
	{ "iops", SF_DOUBLE, AT(R, iops) },
	{ "bytes_per_sec", SF_DOUBLE, AT(R, bytes_per_sec) },
	{ "lat_p50_ns", SF_U64, AT(R, lat_p50_ns) },
	{ "lat_p99_ns", SF_U64, AT(R, lat_p99_ns) },
	{ "cpu_user_pct", SF_DOUBLE, AT(R, cpu_user_pct) },
	{ "cpu_sys_pct", SF_DOUBLE, AT(R, cpu_sys_pct) },
	{ "cpu_usec_per_op", SF_DOUBLE, AT(R, usec_per_op) },
	{ "cpu_wait_pct", SF_DOUBLE, AT(R, cpu_wait_pct), VALID(R, cpu_wait_valid, 0),
	  .since = "48fb9da" },
	{ "device", SF_OBJECT, VALID(R, dev_valid, SF_INLINE), .sub = run_device },
	{ "errors", SF_U64, AT(R, errors) },
	/* with --repeat: its timeline and drift (timeline.h) */
	{ "timeline", SF_HAND, .hand = SH_RUN_TIMELINE },
	{ 0 }
};
#undef R

#define S struct test_result
/* The metadata tests' parameters (bonnie++ -n), null for other tests. */
static const struct sfield test_files[] = {
	{ "count", SF_U64, AT(S, params.nfiles) },
	{ "min_bytes", SF_U64, AT(S, params.file_min) },
	{ "max_bytes", SF_U64, AT(S, params.file_max) },
	{ "dirs", SF_U32, AT(S, params.ndirs) },
	{ 0 }
};

/* The CPU's figures: a run's own are in "runs" in full, these to 3 decimals. */
static const struct sfield test_cpu[] = {
	{ "user_pct", SF_FIXED, AT(S, cpu_user_pct), .decimals = 3 },
	{ "sys_pct", SF_FIXED, AT(S, cpu_sys_pct), .decimals = 3 },
	{ "usec_per_op", SF_FIXED, AT(S, usec_per_op), .decimals = 3 },
	{ "job_max_pct", SF_FIXED, AT(S, cpu_job_max_pct), .decimals = 3, .since = "fc4df7e" },
	/* the share of the window a job waited for a CPU (the machine's
	 * load as the test felt it); null: not measured */
	{ "wait_pct", SF_FIXED, AT(S, cpu_wait_pct), VALID(S, cpu_wait_valid, 0), .decimals = 3,
	  .since = "48fb9da" },
	{ 0 }
};

/* the tool's own system calls in the window; null: not counted */
static const struct sfield test_syscalls[] = {
	{ "total", SF_U64, AT(S, syscalls) },
	{ "per_op", SF_FIXED, AT(S, syscalls_per_op), .flags = SF_DERIVED, .decimals = 3 },
	{ 0 }
};

static const struct sfield test_device[] = {
	{ "read_bytes", SF_U64, AT(S, dev_read_bytes) },
	{ "write_bytes", SF_U64, AT(S, dev_write_bytes) },
	{ 0 }
};

/* --trim: what was discarded before the test */
static const struct sfield test_trim[] = {
	{ "method", SF_CSTR, AT(struct target_trim, method) },
	{ "bytes", SF_U64, AT(struct target_trim, bytes) },
	{ 0 }
};

/* --verify's read-back after the window, or the verify test's check:
 * units checked and bad, the first bad (lowest offset) */
static const struct sfield test_verify[] = {
	{ "blocks", SF_U64, AT(struct verify_sum, blocks) },
	{ "bad", SF_U64, AT(struct verify_sum, bad) },
	{ "bytes", SF_U64, AT(struct verify_sum, bytes) },
	{ "time_ns", SF_U64, AT(struct verify_sum, time_ns) },
	{ "timed", SF_BOOL, AT(struct verify_sum, timed), .since = "62528b5" },
	{ "first_bad", SF_HAND, .hand = SH_VERIFY_FIRST_BAD },
	{ 0 }
};

/* a test that looks for the write cliff: where its rate fell (derived
 * from the saved timeline on reading, result_cliff) */
static const struct sfield test_cliff[] = {
	{ "points", SF_U32, AT(struct cliff, points) },
	{ "found", SF_BOOL, AT(struct cliff, found) },
	{ "bytes_before", SF_U64, AT(struct cliff, bytes_before) },
	{ "ns_before", SF_U64, AT(struct cliff, ns_before) },
	{ "bytes_per_sec_before", SF_DOUBLE, AT(struct cliff, rate_before) },
	{ "bytes_per_sec_after", SF_DOUBLE, AT(struct cliff, rate_after) },
	{ 0 }
};

const struct sfield schema_test[] = {
	{ "name", SF_STR, ARR(S, name) },
	{ "workload", SF_CSTR, AT(S, workload) },
	{ "engine", SF_CSTR, AT(S, engine) },
	{ "bs", SF_U32, AT(S, bs) },
	{ "qd", SF_U32, AT(S, qd) },
	/* older results ran at 1; a file test's is 0 */
	{ "batch", SF_U32, AT(S, batch), .since = "710511b" },
	{ "jobs", SF_U32, AT(S, jobs) },
	{ "direct", SF_BOOL, AT(S, direct) },
	{ "drop_behind", SF_BOOL, AT(S, drop_behind) },
	/* older results wrote random data */
	{ "data", SF_NAME, ARR(S, zero_data), NAMES(data_names), .since = "4a5e828",
	  .what = "\"zero\" or \"random\"" },
	/* older results have neither (their tests ran to the runtime) */
	{ "passes", SF_U32, AT(S, passes), .since = "241ad45" },
	{ "passes_done", SF_BOOL, AT(S, passes_done), .since = "241ad45" },
	{ "pattern", SF_NAME, ARR(S, random), NAMES(pattern_names),
	  .what = "\"seq\" or \"rand\"" },
	{ "rw", SF_NAME, ARR(S, is_write), NAMES(rw_names), .what = "\"read\" or \"write\"" },
	{ "runtime_ns", SF_U64, AT(S, runtime_ns) },
	/* "window" and "stalls", when the runner watched for stalls */
	{ "window", SF_HAND, .since = "8f2df07", .hand = SH_TEST_WINDOW },
	{ "ramp_ns", SF_U64, AT(S, ramp_ns) },
	{ "size_bytes", SF_U64, AT(S, size) },
	{ "files", SF_OBJECT, .flags = SF_INLINE, .since = "8c18298", .null_if = no_files,
	  .sub = test_files },
	{ "ops", SF_U64, AT(S, ops) },
	{ "bytes", SF_U64, AT(S, bytes) },
	{ "iops", SF_FIXED, AT(S, iops), .flags = SF_DERIVED, .decimals = 3 },
	{ "bytes_per_sec", SF_FIXED, AT(S, bytes_per_sec), .flags = SF_DERIVED, .decimals = 3 },
	/* the histogram and its exact moments; the figures derived from them */
	{ "lat_ns", SF_HAND, .hand = SH_TEST_LAT },
	{ "cpu", SF_OBJECT, .sub = test_cpu },
	{ "syscalls", SF_OBJECT, VALID(S, syscalls_valid, 0), .since = "fc4df7e",
	  .sub = test_syscalls },
	{ "device", SF_OBJECT, VALID(S, dev_valid, 0), .sub = test_device },
	{ "cached", SF_BOOL, AT(S, cached), .flags = SF_DERIVED },
	{ "implausible", SF_BOOL, AT(S, implausible), .since = "9b26e31" },
	{ "tool_bound", SF_BOOL, AT(S, tool_bound), .since = "64dbe76" },
	{ "direct_refused", SF_BOOL, AT(S, direct_refused), .since = "392af6b" },
	/* the target's honesty flags that concern this test, by name: derived */
	{ "flags", SF_HAND, .hand = SH_TEST_FLAGS },
	{ "engine_note", SF_STR, ARR(S, engine_note), .flags = SF_OMIT_EMPTY, .since = "1190565" },
	/* --steady-state: the rounds are the runs; the figures the window's */
	{ "steady_state", SF_HAND, .since = "e0d91bf", .hand = SH_TEST_STEADY },
	/* the drive throttled for heat during it; null: nothing could tell */
	{ "thermal_throttling", SF_BOOL, AT(S, thermal_throttling),
	  VALID(S, thermal_known, 0), .since = "6a9d6a2" },
	{ "cliff", SF_OBJECT, AT(S, cliff), VALID(S, cliff_valid, SF_OMIT | SF_INLINE | SF_DERIVED),
	  .since = "f24f938", .sub = test_cliff },
	{ "unwritten", SF_HAND, .since = "a5bfe7e", .hand = SH_TEST_UNWRITTEN },
	{ "trim", SF_OBJECT, AT(S, trim), .flags = SF_OMIT | SF_INLINE, .since = "a89f1ee",
	  .null_if = not_trimmed, .sub = test_trim },
	{ "verify", SF_OBJECT, AT(S, verify), VALID(S, verify.done, SF_OMIT | SF_INLINE),
	  .since = "62528b5", .sub = test_verify },
	/* the throughput's change over the window (timeline.h), null when the
	 * timelines are too short to tell; drifted: beyond the limit */
	{ "timeline_drift", SF_FIXED, AT(S, drift), VALID(S, drift_valid, SF_DERIVED),
	  .decimals = 4 },
	{ "drifted", SF_BOOL, AT(S, drifted), .flags = SF_DERIVED },
	{ "errors", SF_U64, AT(S, errors) },
	{ "first_error", SF_HAND, .hand = SH_TEST_FIRST_ERROR },
	/* every run in pass order and the spread over them */
	{ "runs", SF_HAND, .hand = SH_TEST_RUNS },
	/* a coordinated run's test: each rank's share and the imbalance */
	{ "ranks", SF_HAND, .since = "01fae0a", .hand = SH_TEST_RANKS },
	/* the first run's (the only one without --repeat) */
	{ "timeline", SF_HAND, .hand = SH_TEST_TIMELINE },
	{ 0 }
};
#undef S

#define I struct rank_info
const struct sfield schema_rank_info[] = {
	{ "rank", SF_U32, AT(I, rank) },
	{ "local_rank", SF_U32, AT(I, local_rank) },
	{ "hostname", SF_STR, ARR(I, hostname) },
	{ "kernel", SF_STR, ARR(I, kernel) },
	{ "version", SF_STR, ARR(I, version) },
	{ "target", SF_STR, ARR(I, target) },
	{ 0 }
};
#undef I

#define P struct run_precondition
static const struct sfield run_precondition[] = {
	{ "bs", SF_U32, AT(P, bs) },
	{ "qd", SF_U32, AT(P, qd) },
	{ "passes", SF_U32, AT(P, passes) },
	{ "region_bytes", SF_U64, AT(P, region) },
	{ "bytes", SF_U64, AT(P, bytes) },
	{ "time_ns", SF_U64, AT(P, time_ns) },
	{ "complete", SF_BOOL, AT(P, complete) },
	/* what the device moved meanwhile; null: no counters */
	{ "device_write_bytes", SF_U64, AT(P, dev_write_bytes), VALID(P, dev_valid, 0),
	  .since = "26d7658" },
	{ 0 }
};
#undef P

#define L struct read_layout
static const struct sfield layout_laid_out[] = {
	{ "bytes", SF_U64, AT(L, laid_out_bytes) },
	{ "time_ns", SF_U64, AT(L, laid_out_ns) },
	{ 0 }
};

static const struct sfield run_read_layout[] = {
	{ "checked", SF_BOOL, AT(L, checked) },
	{ "source", SF_STR, ARR(L, source) },
	{ "file", SF_STR, ARR(L, file) },
	{ "offset_bytes", SF_U64, AT(L, offset) },
	/* why it was not checked: only then */
	{ "reason", SF_HAND, .hand = SH_LAYOUT_REASON },
	{ "laid_out", SF_OBJECT, VALID(L, laid_out, SF_INLINE), .sub = layout_laid_out },
	{ 0 }
};
#undef L

/* another tool's result (import.h) */
static const struct sfield run_imported_from[] = {
	{ "tool", SF_STR, ARR(struct result_origin, tool) },
	{ "version", SF_STR, ARR(struct result_origin, version) },
	{ "file", SF_STR, ARR(struct result_origin, file) },
	{ 0 }
};

/* what smartctl said of the drive at one moment (health.h) */
#define N struct health_snap
static const struct sfield health_snap[] = {
	{ "protocol", SF_STR, ARR(N, protocol) },
	{ "model", SF_STR, ARR(N, model) },
	{ "serial", SF_STR, ARR(N, serial) },
	{ "firmware", SF_STR, ARR(N, firmware) },
	{ "temperature_c", SF_I64, AT(N, temperature_c) },
	{ "temperature_warning_c", SF_I64, AT(N, temperature_warn_c) },
	{ "percentage_used", SF_I64, AT(N, percentage_used) },
	{ "power_on_hours", SF_I64, AT(N, power_on_hours) },
	{ "media_errors", SF_I64, AT(N, media_errors) },
	{ "crc_errors", SF_I64, AT(N, crc_errors) },
	{ "written_bytes", SF_I64, AT(N, written_bytes) },
	{ "read_bytes", SF_I64, AT(N, read_bytes) },
	{ "nvme_data_units_written", SF_I64, AT(N, nvme_units_written) },
	{ "nvme_data_units_read", SF_I64, AT(N, nvme_units_read) },
	{ "warning_temp_minutes", SF_I64, AT(N, warning_temp_minutes) },
	{ "thermal_transitions", SF_I64, AT(N, thermal_transitions) },
	{ 0 }
};
#undef N

/* before the first test and after the last; why: why a side is null */
#define M struct run_health
static const struct sfield run_health[] = {
	{ "why", SF_STR, ARR(M, why) },
	{ "before", SF_OBJECT, AT(M, before), VALID(M, before.valid, 0), .sub = health_snap },
	{ "after", SF_OBJECT, AT(M, after), VALID(M, after.valid, 0), .sub = health_snap },
	{ 0 }
};
#undef M

#define U struct run_result
const struct sfield schema_run[] = {
	{ "schema", SF_HAND, .hand = SH_SCHEMA },
	{ "tool", SF_HAND, .hand = SH_TOOL },
	{ "started_at", SF_STR, ARR(U, started_at) },
	{ "label", SF_STR, ARR(U, label) },
	{ "command_line", SF_STR, ARR(U, command_line), .flags = SF_OMIT_EMPTY,
	  .since = "1099801" },
	{ "imported_from", SF_OBJECT, AT(U, imported_from), .flags = SF_OMIT, .since = "5bdb057",
	  .null_if = not_imported, .sub = run_imported_from },
	{ "host", SF_OBJECT, AT(U, host), .sub = schema_host },
	{ "target", SF_OBJECT, AT(U, target), .sub = schema_target },
	/* a map of whatever settings shaped the run */
	{ "settings", SF_HAND, .hand = SH_SETTINGS },
	{ "clock_overhead_ns", SF_U64, AT(U, clock_overhead_ns) },
	/* who ran a coordinated run; absent for a single process */
	{ "mpi", SF_HAND, .since = "01fae0a", .hand = SH_MPI },
	{ "tests", SF_HAND, .hand = SH_TESTS },
	{ "xbench", SF_HAND, .hand = SH_XBENCH },
	{ "precondition", SF_OBJECT, AT(U, precondition),
	  VALID(U, precondition.done, SF_OMIT), .since = "26d7658", .sub = run_precondition },
	{ "read_layout", SF_OBJECT, AT(U, read_layout), VALID(U, read_layout.known, SF_OMIT),
	  .since = "a5bfe7e", .sub = run_read_layout },
	{ "health", SF_OBJECT, AT(U, health), .flags = SF_OMIT, .since = "6a9d6a2",
	  .null_if = health_unchecked, .sub = run_health },
	{ "warnings", SF_HAND, .hand = SH_WARNINGS },
	{ 0 }
};
#undef U
