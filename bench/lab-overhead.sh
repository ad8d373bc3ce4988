#!/bin/bash
# lab-overhead.sh - the device lab's own cost: loop + FUSE at zero injected latency, and how requests are split.
#
# Usage (root, under flock /work/bench.lock on a shared machine):
#   [DISKBENCH=path] [LABFS=path] [RUNTIME=3s] bench/lab-overhead.sh
#
# 1. For each engine (sync, libaio, io_uring), 4k O_DIRECT random reads at
#    QD1 (and QD32) on a loop device over labfs with no injected delay:
#    diskbench's p50 / p99 / p99.9 / mean, labfs's own service time (arrival
#    to reply, from its log) and the difference, which is what the path
#    (block layer, loop worker, FUSE round trip, thread wake-ups) adds to
#    every request. At QD32, the most requests labfs held at once.
# 2. The loop device's queue limits and FUSE's, and the sizes labfs sees
#    for reads of 4k .. 4m through the loop device (dd, O_DIRECT).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/../tests/lab/lab.sh"
. "$HERE/lib.sh"

RUNTIME=${RUNTIME:-3s}
bench_diskbench
need_lab
need_cmd python3 dd
make_tmpdir
WORK=$TMP_DIR

lab_start --size 256m
lab_loop
n=$(basename "$LAB_DEV")
echo "# loop $LAB_DEV queue: max_sectors_kb=$(cat /sys/block/$n/queue/max_sectors_kb)" \
	"max_segments=$(cat /sys/block/$n/queue/max_segments)" \
	"max_segment_size=$(cat /sys/block/$n/queue/max_segment_size)" \
	"logical_block_size=$(cat /sys/block/$n/queue/logical_block_size)" \
	"nr_requests=$(cat /sys/block/$n/queue/nr_requests)"
echo "$(grep '^# conn' "$LAB_LOG")"

echo
echo "engine    qd  diskbench p50/p99/p99.9/mean us   labfs p50/p99 us   path p50/p99 us  labfs max in flight"
for qd in 1 32; do
	for eng in sync libaio io_uring; do
		[ "$eng" = sync ] && [ "$qd" != 1 ] && continue
		lab_arm
		"$DISKBENCH" --engine "$eng" --test rand-read --bs 4k --qd "$qd" --runtime "$RUNTIME" \
			--ramp 0 --quiet --json "$WORK/$eng.json" "$LAB_DEV" 2>"$WORK/err" ||
			{ cat "$WORK/err"; fail "diskbench --engine $eng failed"; }
		lab_requests read >"$WORK/$eng.log"
		python3 - "$WORK/$eng.json" "$WORK/$eng.log" "$eng" "$qd" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
lat = t["lat_ns"]
p = lat["percentiles"]
rows = [l.split() for l in open(sys.argv[2])]
svc = sorted(int(r[5]) for r in rows)
def pct(v, q):
    return v[min(len(v) - 1, int(q / 100.0 * len(v)))]
ev = []
for r in rows:
    a = int(r[7]); ev.append((a, 1)); ev.append((a + int(r[5]), -1))
ev.sort()
cur = top = 0
for _, e in ev:
    cur += e; top = max(top, cur)
print("%-8s %3s   %6.1f %6.1f %6.1f %6.1f        %6.1f %6.1f        %6.1f %6.1f   %d" % (
    sys.argv[3], sys.argv[4], p["50"] / 1e3, p["99"] / 1e3, p["99.9"] / 1e3, lat["mean"] / 1e3,
    pct(svc, 50) / 1e3, pct(svc, 99) / 1e3,
    (p["50"] - pct(svc, 50)) / 1e3, (p["99"] - pct(svc, 99)) / 1e3, top))
EOF
	done
done

echo
echo "read size   requests labfs saw (size x count)"
for bs in 4k 64k 128k 256k 1M 4M; do
	lab_arm
	dd if="$LAB_DEV" of=/dev/null bs="$bs" count=8 iflag=direct status=none || fail "dd bs=$bs failed"
	printf '%-10s  %s\n' "$bs" "$(lab_requests read | awk '{ c[$4]++ } END { for (s in c) printf "%dk x %d  ", s / 1024, c[s] }')"
done
echo
echo "write size  requests labfs saw (size x count)"
for bs in 4k 128k 1M 4M; do
	lab_arm
	dd if=/dev/zero of="$LAB_DEV" bs="$bs" count=8 oflag=direct status=none || fail "dd write bs=$bs failed"
	printf '%-10s  %s\n' "$bs" "$(lab_requests write | awk '{ c[$4]++ } END { for (s in c) printf "%dk x %d  ", s / 1024, c[s] }')"
done
echo
echo "merging: 4k sequential reads at QD32 (libaio), the sizes labfs saw"
lab_arm
"$DISKBENCH" --engine libaio --test seq-read --bs 4k --qd 32 --runtime 1s --ramp 0 --quiet \
	--json "$WORK/merge.json" "$LAB_DEV" 2>"$WORK/err" || { cat "$WORK/err"; fail "seq-read qd32 failed"; }
echo "diskbench $(json "$WORK/merge.json" 'd["tests"][0]["ops"]') reads of 4k; labfs:" \
	"$(lab_requests read | awk '{ c[$4]++ } END { for (s in c) printf "%dk x %d  ", s / 1024, c[s] }')"
