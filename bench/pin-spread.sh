#!/bin/bash
# pin-spread.sh - the spread of QD1 trials with and without pinning, alternating.
#
# Usage (root): [DISKBENCH=path] [TRIALS=20] [RUNTIME=1s] [SIZE_MIB=256]
#               [DISKDIR=/dev/shm] bench/pin-spread.sh
#
# Makes a loop device over SIZE_MIB of random data in a private directory
# under DISKDIR (a RAM-backed one by default: the device is then as fast as
# the CPU lets a QD1 job be, and where the job runs is what moves it), and
# runs TRIALS rounds of O_DIRECT rand-read 4k at QD1 for RUNTIME. Each round
# runs one trial per case, in an order that rotates from round to round:
#   unpinned   no --cpus: the job goes where the scheduler puts it
#   default    pinned to the CPU tune and --repeat pick without --cpus
#              (the first of the list the JSON's settings.cpus gives)
#   cpu N      pinned to each other CPU this process may run on
# It prints per case the median IOPS, min-max, and the coefficient of
# variation (sd / mean) over the rounds. Run it alone (under flock
# /work/bench.lock on a shared machine).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

TRIALS=${TRIALS:-20}
RUNTIME=${RUNTIME:-1s}
SIZE_MIB=${SIZE_MIB:-256}
DISKDIR=${DISKDIR:-/dev/shm}

[ "$(id -u)" -eq 0 ] || { echo "pin-spread.sh: needs root (loop devices)" >&2; exit 2; }
case $TRIALS$SIZE_MIB in
*[!0-9]*) echo "pin-spread.sh: TRIALS and SIZE_MIB are whole numbers" >&2; exit 2 ;;
esac
secs "$RUNTIME" >/dev/null || exit 2
bench_diskbench
need_cmd python3 losetup

make_tmpdir "$DISKDIR"
WORK=$TMP_DIR
dd if=/dev/urandom of="$WORK/img" bs=1M count="$SIZE_MIB" status=none ||
	{ echo "pin-spread.sh: cannot write the image" >&2; exit 1; }
DEV=$(losetup -r -f --show "$WORK/img") || { echo "pin-spread.sh: losetup failed" >&2; exit 1; }
at_exit "lib_detach_loop '$DEV'"

# run NAME [OPTION...]: one trial, its IOPS appended to $WORK/NAME
run()
{
	local name=$1
	shift
	"$DISKBENCH" --test rand-read --bs 4k --qd 1 --runtime "$RUNTIME" --ramp 200ms "$@" \
		--quiet --json "$WORK/t.json" "$DEV" 2>"$WORK/err" ||
		{ echo "pin-spread.sh: $name: $(cat "$WORK/err")" >&2; exit 1; }
	python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["tests"][0]["iops"])' \
		"$WORK/t.json" >>"$WORK/$name"
}

# the CPU --repeat pins to by default (one pass of --repeat 2, a short one)
"$DISKBENCH" --test rand-read --qd 1 --runtime 100ms --ramp 0 --repeat 2 --quiet \
	--json "$WORK/pick.json" "$DEV" 2>/dev/null ||
	{ echo "pin-spread.sh: cannot learn the default CPU" >&2; exit 1; }
DEFAULT=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["settings"]["cpus"].split(",")[0])' "$WORK/pick.json")
CASES=("unpinned|" "default|--cpus $DEFAULT")
for c in $(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))'); do
	[ "$c" = "$DEFAULT" ] || CASES+=("cpu $c|--cpus $c")
done
echo "# $DEV over $SIZE_MIB MiB in $DISKDIR; $TRIALS rounds of rand-read 4k QD1, $RUNTIME each;"
echo "# the default pick is CPU $DEFAULT ($(nproc) CPUs); cases rotate their order each round"
for ((r = 0; r < TRIALS; r++)); do
	n=${#CASES[@]}
	for ((i = 0; i < n; i++)); do
		c=${CASES[$(((i + r) % n))]}
		name=${c%%|*}
		# shellcheck disable=SC2086
		run "${name// /_}" ${c#*|}
	done
done
printf '%-10s %10s %21s %7s\n' case median "min-max" CV
for c in "${CASES[@]}"; do
	name=${c%%|*}
	python3 - "$name" "$WORK/${name// /_}" <<'PY'
import statistics as st, sys
v = [float(x) for x in open(sys.argv[2])]
print("%-10s %10.0f %10.0f-%-10.0f %6.1f%%" % (sys.argv[1], st.median(v), min(v), max(v),
      100 * st.stdev(v) / st.mean(v)))
PY
done
