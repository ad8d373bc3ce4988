# lib.sh - shared helpers for the CLI tests and bench scripts (bash only, source it).
#
# A test sources this file, then uses:
#   skip MSG / fail MSG      exit 77 (automake SKIP) / exit 1, saying why
#   need_root, need_cmd CMD, need_diskbench
#   suite_pass, once_per_suite WHY   which pass of tests/check.sh; skip but in
#                            the plain one
#   at_exit CMD              run CMD (a string) on exit, last registered first
#   make_loop MIB [random|zero|none] [DIR] [LOSETUP-OPTION...]
#                            image (in a private dir in /dev/shm unless DIR) on a
#                            new loop device; sets LOOP_DEV, LOOP_IMG, LOOP_MAJMIN,
#                            LOOP_NAME
#   make_blkio_cgroup NAME   cgroup v1 blkio group; sets CG_DIR
#   run_in_cgroup DIR CMD... run CMD with its own PID in the cgroup DIR
#   loop_queue_set DEV KNOB VALUE   queue/KNOB of our loop device, put back on exit
#   json FILE PYEXPR         print a Python expression over the parsed file (as d)
#   unmount DIR, settle DIR  umount with retries; wait for freed space to show
#
# Everything created here is removed on EXIT, INT, TERM and HUP, in reverse
# order of creation: a killed test leaves no loop device, cgroup or image behind.
# Only devices created by make_loop are ever touched.
# shellcheck disable=SC2034 # LOOP_* and CG_DIR are for the sourcing script

if [ -z "${BASH_VERSION:-}" ]; then
	echo "lib.sh needs bash" >&2
	exit 99
fi

LIB_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
LIB_CLEANUP=()
LIB_NAME=$(basename "$0")

msg() { printf '%s: %s\n' "$LIB_NAME" "$*" >&2; }
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; exit 1; }

# suite_pass: the pass of tests/check.sh running this test (plain,
# sanitizers, distcheck: $DISKBENCH_CHECK_PASS), or, run otherwise, plain
# unless the build under test was configured with --enable-asan.
suite_pass()
{
	local build
	if [ -n "${DISKBENCH_CHECK_PASS:-}" ]; then
		echo "$DISKBENCH_CHECK_PASS"
		return
	fi
	build=$(dirname "${DISKBENCH:-.}")
	if [ -x "$build/config.status" ] && "$build/config.status" --config | grep -q -- '--enable-asan'; then
		echo sanitizers
	else
		echo plain
	fi
}

# once_per_suite WHY: skip but in the plain pass. For a test whose whole
# worth is in one run (a package built, a race tried 20 times), not in the
# code it runs being built otherwise.
once_per_suite()
{
	[ "$(suite_pass)" = plain ] || skip "runs in the plain build's pass only: $*"
}

# need_root: skip unless root. distcheck's pass checks what the tarball holds
# (it builds, its files are there, the tests that read them pass): the tests
# that need root drive devices, which the plain and sanitizer passes did.
need_root()
{
	[ "$(id -u)" -eq 0 ] || skip "needs root (loop devices, cgroups)"
	[ "${DISKBENCH_CHECK_PASS:-}" != distcheck ] ||
		skip "distcheck checks the tarball; tests that need root ran in the plain and sanitizer passes"
}

need_cmd()
{
	local c
	for c in "$@"; do
		command -v "$c" >/dev/null 2>&1 || skip "needs '$c', not installed"
	done
}

# The binary under test: $DISKBENCH (set by make check), else the build tree's.
need_diskbench()
{
	if [ -z "${DISKBENCH:-}" ]; then
		if [ -x "$LIB_DIR/../../diskbench" ]; then
			DISKBENCH=$(cd "$LIB_DIR/../.." && pwd)/diskbench
		elif [ -x "$LIB_DIR/../../build/diskbench" ]; then
			DISKBENCH=$(cd "$LIB_DIR/../../build" && pwd)/diskbench
		else
			DISKBENCH=$(command -v diskbench || true)
		fi
	fi
	[ -n "$DISKBENCH" ] && [ -x "$DISKBENCH" ] ||
		fail "diskbench binary not found (set DISKBENCH=path)"
	export DISKBENCH
}

lib_cleanup()
{
	local rc=$? i
	trap - EXIT INT TERM HUP
	for ((i = ${#LIB_CLEANUP[@]} - 1; i >= 0; i--)); do
		eval "${LIB_CLEANUP[i]}" || true
	done
	LIB_CLEANUP=()
	exit "$rc"
}

at_exit()
{
	LIB_CLEANUP+=("$1")
}

trap lib_cleanup EXIT
# A signal becomes a normal exit so that the EXIT trap cleans up once.
trap 'exit 130' INT
trap 'exit 143' TERM
trap 'exit 129' HUP

# A private directory for scratch files, removed on exit. Prefers /dev/shm
# (RAM: costs nothing, never touches a real disk).
make_tmpdir()
{
	local base=${1:-/dev/shm}
	[ -d "$base" ] && [ -w "$base" ] || base=/tmp
	TMP_DIR=$(mktemp -d "$base/diskbench-test.XXXXXX") || fail "mktemp -d in $base failed"
	at_exit "rm -rf -- '$TMP_DIR'"
}

# Detach a loop device, retrying while udev or a dying child still holds it.
lib_detach_loop()
{
	local dev=$1 i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		losetup -d "$dev" 2>/dev/null && return 0
		sleep 0.2
	done
	msg "warning: could not detach $dev"
	return 1
}

# loop_queue_set DEV KNOB VALUE: set queue/KNOB of a loop device the test
# made, and put what was there back on exit. A loop device's queue
# outlives its attachment: the next user of the number (another test, a
# user's losetup) would get what a test left (the lab's nomerges 2 once
# halved cliff.sh's throttled rates, its max_sectors_kb 64 cut them).
# Fails (1) when the value is refused.
loop_queue_set()
{
	local f=/sys/block/$(basename "$1")/queue/$2 was
	was=$(cat "$f" 2>/dev/null) || return 1
	[ "$2" = scheduler ] && was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' <<<"$was")
	[ "$was" = "$3" ] && return 0
	echo "$3" >"$f" 2>/dev/null || return 1
	at_exit "echo '$was' >'$f' 2>/dev/null"
}

# Tests measure a loop device with the loop driver's own scheduler (none),
# whatever its last user left; what was there is put back before it is
# detached.
lib_loop_scheduler_none()
{
	[ -w "/sys/block/$(basename "$1")/queue/scheduler" ] || return 0
	loop_queue_set "$1" scheduler none || true
}

# make_loop MIB [random|zero|none] [DIR] [LOSETUP-OPTION...]: an image of MIB
# MiB (filled with random data by default, so that reads hit allocated blocks)
# on a new loop device. Skips (77) when loop devices cannot be set up here.
make_loop()
{
	local mib=$1 fill=${2:-random} dir=${3:-} img dev
	shift $(($# < 3 ? $# : 3))
	need_cmd losetup
	if [ -z "$dir" ]; then
		make_tmpdir /dev/shm
		dir=$TMP_DIR
	fi
	img=$dir/loop-$mib.img
	case $fill in
	random) dd if=/dev/urandom of="$img" bs=1M count="$mib" conv=fsync status=none ||
			fail "cannot write $img" ;;
	zero) dd if=/dev/zero of="$img" bs=1M count="$mib" conv=fsync status=none ||
			fail "cannot write $img" ;;
	none) truncate -s "${mib}M" "$img" || fail "cannot create $img" ;;
	*) fail "make_loop: bad fill '$fill'" ;;
	esac
	dev=$(losetup "$@" -f --show "$img" 2>/dev/null) ||
		skip "losetup cannot create a loop device here"
	[ -b "$dev" ] || skip "losetup gave '$dev', not a block device"
	at_exit "lib_detach_loop '$dev'"
	lib_loop_scheduler_none "$dev"
	LOOP_DEV=$dev
	LOOP_IMG=$img
	LOOP_NAME=$(basename "$dev")
	LOOP_MAJMIN=$(cat "/sys/block/$LOOP_NAME/dev") || fail "no /sys/block/$LOOP_NAME/dev"
}

# unmount DIR: io_uring tears its rings down after the process exits,
# holding the files it used for a moment: retry rather than leave a mount
# behind.
unmount()
{
	local i
	for i in 1 2 3 4 5 6 7 8 9 10; do
		mountpoint -q "$1" || return 0
		umount "$1" 2>/dev/null && return 0
		sleep 0.2
	done
	msg "warning: could not unmount $1"
	return 1
}

# settle DIR: wait (up to 5 s) until the file system of DIR has given back
# the space of files removed while io_uring still held them.
settle()
{
	local i
	for i in $(seq 25); do
		[ "$(df --output=used "$1" | tail -n 1)" -lt 1024 ] && return 0
		sleep 0.2
	done
	return 1
}

# Move every process of cgroup DIR to its parent, then remove DIR.
lib_remove_cgroup()
{
	local dir=$1 parent pid i
	[ -d "$dir" ] || return 0
	parent=$(dirname "$dir")
	for i in 1 2 3 4 5; do
		while read -r pid; do
			echo "$pid" >"$parent/cgroup.procs" 2>/dev/null || true
		done <"$dir/cgroup.procs"
		rmdir "$dir" 2>/dev/null && return 0
		sleep 0.2
	done
	msg "warning: could not remove cgroup $dir"
	return 1
}

# make_blkio_cgroup NAME: a cgroup v1 blkio group; skips when there is none.
make_blkio_cgroup()
{
	local root=/sys/fs/cgroup/blkio
	[ -d "$root" ] && [ -e "$root/cgroup.procs" ] || skip "no cgroup v1 blkio hierarchy at $root"
	[ -e "$root/blkio.throttle.read_iops_device" ] || skip "blkio throttling not available"
	CG_DIR=$root/$1
	mkdir "$CG_DIR" 2>/dev/null || skip "cannot create cgroup $CG_DIR"
	at_exit "lib_remove_cgroup '$CG_DIR'"
}

# run_in_cgroup DIR CMD...: the subshell puts itself into DIR, then execs CMD,
# so CMD and every thread it starts are in the group from their first I/O.
run_in_cgroup()
{
	local dir=$1
	shift
	(
		echo "$BASHPID" >"$dir/cgroup.procs" || exit 98
		exec "$@"
	)
}

# json FILE EXPR: evaluate the Python expression EXPR with d = the parsed file.
json()
{
	python3 -c 'import json, sys
d = json.load(open(sys.argv[1]))
v = eval(sys.argv[2])
print(json.dumps(v) if isinstance(v, (dict, list)) else v)' "$1" "$2"
}

# poll TENTHS CMD...: CMD every tenth of a second until it succeeds, at most
# TENTHS times; 0 when it did, else its last status.
poll()
{
	local n=$1 i
	shift
	for ((i = 1; i < n; i++)); do
		"$@" && return 0
		sleep 0.1
	done
	"$@"
}
# not CMD...: CMD failed (for poll). ended PID: the process is gone.
not() { ! "$@"; }
ended() { ! kill -0 "$1" 2>/dev/null; }
# logged_or_ended PATTERN FILE PID: FILE has a line matching PATTERN, or PID
# has ended (for poll: waiting for a run to reach a point, or to fail first)
logged_or_ended() { grep -q -- "$1" "$2" 2>/dev/null || ended "$3"; }

# expect_usage PATTERN ARGS...: diskbench ARGS exits 2 with one error line on
# stderr that says PATTERN, and leaves no scratch directory in the current
# directory or one below it.
expect_usage()
{
	local pat=$1 out rc
	shift
	out=$("$DISKBENCH" "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] || fail "'$*': exit $rc, want 2 ($out)"
	printf '%s' "$out" | grep -q -- "$pat" || fail "'$*': message '$out' does not say '$pat'"
	[ "$(printf '%s\n' "$out" | grep -c '^diskbench:')" -eq 1 ] ||
		fail "'$*': want one error line, got: $out"
	ls -d diskbench.* ./*/diskbench.* >/dev/null 2>&1 && fail "'$*': left a scratch directory"
	return 0
}
