#!/bin/bash
# littles-law.sh - diskbench (and fio) against a known truth: a blkio-throttled loop device.
#
# Usage (root): [DISKBENCH=path] [RUNTIME=5s] [FIO=0] bench/littles-law.sh
#
# A loop device on a 256 MiB random image in /dev/shm is throttled with cgroup
# v1 blkio, first to IOPS_LIMIT read IOPS (4k random reads), then to BPS_LIMIT
# read bytes/s (256k random reads). Each engine and queue depth runs in its own
# process inside the cgroup. The table shows the limit, what was measured, the
# error, and Little's law: L = mean latency x IOPS, which must equal the queue
# depth when the tool keeps its queue full. fio runs the same cases as a
# reference unless FIO=0.
#
# Why the runs look the way they do: blk-throttle grants each 100 ms slice's
# budget at the slice start (bursts), so a measured window sees whole bursts.
# Each run is its own process after an idle pause (a fresh slice starts at its
# first I/O) and the ramp is 1.05 s, so with a whole-second runtime both window
# edges fall mid-slice. Little's law has a boundary term: an op that waited out
# a slice before the window and completes inside it counts its full latency
# (up to 0.1 s / runtime, 2 % at 5 s), for diskbench and fio alike.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"

IOPS_LIMIT=${IOPS_LIMIT:-2000}
BPS_LIMIT=${BPS_LIMIT:-50000000}
RUNTIME=${RUNTIME:-5s}
RAMP=${RAMP:-1050ms}
FIO=${FIO:-1}

[ "$(id -u)" -eq 0 ] || { echo "littles-law.sh: needs root" >&2; exit 2; }
need_cmd python3 losetup
need_diskbench
if [ "$FIO" = 1 ] && ! command -v fio >/dev/null; then
	echo "# fio not installed: diskbench only (apt-get install fio for the reference)"
	FIO=0
fi

works()	# works ENGINE: diskbench says the engine works here
{
	"$DISKBENCH" list engines 2>/dev/null |
		awk -v e="$1" '$1 == e && $2 == "yes" { f = 1 } END { exit !f }'
}

make_loop 256 random
make_blkio_cgroup "diskbench-littles-$$"
WORK=$TMP_DIR

set_limit()	# set_limit iops|bps VALUE (0 removes the rule)
{
	echo "$LOOP_MAJMIN $2" >"$CG_DIR/blkio.throttle.read_$1_device" ||
		{ echo "cannot set the $1 limit" >&2; exit 1; }
}

# run_case TOOL ENGINE BS QD: one run in the cgroup; prints "iops bytes_per_sec lat_mean_ns"
run_case()
{
	local tool=$1 eng=$2 bs=$3 qd=$4 out=$WORK/run.json fe
	sleep 0.3	# idle > one slice: the run starts a fresh throttle slice
	if [ "$tool" = diskbench ]; then
		run_in_cgroup "$CG_DIR" "$DISKBENCH" --engine "$eng" --test rand-read --bs "$bs" \
			--qd "$qd" --runtime "$RUNTIME" --ramp "$RAMP" --quiet --json - "$LOOP_DEV" \
			>"$out" 2>"$WORK/run.err" || { echo "- - -"; return; }
		json "$out" '"%s %s %s" % (d["tests"][0]["iops"], d["tests"][0]["bytes_per_sec"],
			d["tests"][0]["lat_ns"]["mean"])'
	else
		case $eng in sync|direct) fe=psync ;; *) fe=$eng ;; esac
		run_in_cgroup "$CG_DIR" fio --name=ll --filename="$LOOP_DEV" --rw=randread \
			--bs="$bs" --iodepth="$qd" --ioengine="$fe" --direct=1 --time_based \
			--runtime="$RUNTIME" --ramp_time="$RAMP" --output-format=json \
			>"$out" 2>"$WORK/run.err" || { echo "- - -"; return; }
		json "$out" '"%s %s %s" % (d["jobs"][0]["read"]["iops"],
			d["jobs"][0]["read"]["bw_bytes"], d["jobs"][0]["read"]["lat_ns"]["mean"])'
	fi
}

row()	# row KIND LIMIT TOOL ENGINE BS QD
{
	local kind=$1 limit=$2 tool=$3 eng=$4 bs=$5 qd=$6 r
	r=$(run_case "$tool" "$eng" "$bs" "$qd")
	# shellcheck disable=SC2086 # $r is three words on purpose
	python3 - "$kind" "$limit" "$tool" "$eng" "$bs" "$qd" $r <<'EOF'
import sys
kind, limit, tool, eng, bs, qd = sys.argv[1:7]
limit, qd = float(limit), int(qd)
if sys.argv[7] == "-":
    print("%-4s %-10s %-9s %-8s %-5s %3d   (run failed)" % (kind, "%.0f" % limit, tool, eng, bs, qd))
    sys.exit(0)
iops, bps, lat = (float(x) for x in sys.argv[7:10])
got = iops if kind == "iops" else bps
L = lat * 1e-9 * iops
print("%-4s %-10s %-9s %-8s %-5s %3d %12.1f %+7.2f%% %11.1f %8.3f %+7.2f%%"
      % (kind, "%.0f" % limit, tool, eng, bs, qd, got, (got / limit - 1) * 100, lat / 1e3,
         L, (L / qd - 1) * 100))
EOF
}

header()
{
	printf '%-4s %-10s %-9s %-8s %-5s %3s %12s %8s %11s %8s %8s\n' kind limit tool engine \
		bs qd measured err lat_us L=lat*X L-err
}

tools=(diskbench)
[ "$FIO" = 1 ] && tools+=(fio)
engines=()
for e in io_uring libaio sync; do
	works "$e" && engines+=("$e")
done

q=/sys/block/$LOOP_NAME/queue
bps_bs=262144	# must reach the device unsplit, see tests/cli/throttle.sh
[ $(($(cat "$q/max_sectors_kb") * 1024)) -lt $bps_bs ] && bps_bs=$(($(cat "$q/max_sectors_kb") * 1024))
[ $(($(cat "$q/max_segments") * 4096)) -lt $bps_bs ] && bps_bs=$(($(cat "$q/max_segments") * 4096))

echo "# $LOOP_DEV (RAM-backed loop), cgroup v1 blkio throttle, runtime $RUNTIME, ramp $RAMP"
echo "# $("$DISKBENCH" --version 2>/dev/null | head -1)$([ "$FIO" = 1 ] && echo "; $(fio --version)")"
header
set_limit iops "$IOPS_LIMIT"
for eng in "${engines[@]}"; do
	qds="1 4 16 32"
	[ "$eng" = sync ] && qds=1
	for qd in $qds; do
		for tool in "${tools[@]}"; do
			row iops "$IOPS_LIMIT" "$tool" "$eng" 4k "$qd"
		done
	done
done
set_limit iops 0
set_limit bps "$BPS_LIMIT"
for eng in "${engines[@]}"; do
	qds="1 4"
	[ "$eng" = sync ] && qds=1
	for qd in $qds; do
		for tool in "${tools[@]}"; do
			row bps "$BPS_LIMIT" "$tool" "$eng" "$((bps_bs / 1024))k" "$qd"
		done
	done
done
set_limit bps 0
exit 0
