#!/bin/bash
# lab_latency.sh - diskbench's percentiles against the device lab's own log of what each request took.
#
# Root and FUSE only (skips with 77 otherwise). A loop device over labfs
# (tests/lab/lab.sh) first runs with no injected delay: diskbench's
# percentiles there are the path's own overhead (block layer, loop worker,
# FUSE round trip). Then with a known distribution, fixed 1 ms and bimodal
# (1 ms, 1 in 20 at 5 ms), 4k random reads at QD1 for each of the sync,
# libaio and io_uring engines:
#   - every read labfs served is in its log, and diskbench counted no more
#     reads than labfs served;
#   - for p50 and p99, diskbench's figure is at least labfs's own service
#     time at that rank less the histogram's stated error (1/128): a
#     request cannot take less than the device spent on it;
#   - at QD1, at most that plus the error plus the overhead measured at zero
#     delay at a higher rank (p99 for p50, p99.9 for p99). Not the same
#     rank: a path that sleeps through a 1 ms delay wakes up colder than
#     one kept busy at zero delay (measured: p50 some 30 us more), and a
#     sum's rank lies above its parts' ranks;
#   - the bimodal p99 is the slow mode, its p50 the fast one.
# A case above its upper bound only (a burst of the machine's other work in
# one of the two runs) is run again, zero-delay run and all, up to 3 times.
# Then fixed 1 ms at QD32 (libaio, io_uring): the same lower bound, Little's
# law (IOPS x mean latency = 32 within 10 %), and labfs never held more than
# 32 of diskbench's reads at once. No upper bound there: at QD32 the path
# is a queue for two CPUs, whose wait depends on the delay, so the
# zero-delay overhead does not bound it.
# Timing-sensitive: a MEASURED_TEST, run alone (flock /work/bench.lock by hand).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lab/lab.sh"

need_lab
need_cmd python3
need_diskbench
make_tmpdir
WORK=$TMP_DIR
RUNTIME=${LAB_RUNTIME:-1500ms}

"$DISKBENCH" list engines >"$WORK/engines" 2>&1 || fail "diskbench list engines exited $?"
engines=
for e in sync libaio io_uring; do
	awk -v e="$e" 'NR > 1 && $1 == e && tolower($2) ~ /^(yes|ok)$/ { f = 1 } END { exit !f }' \
		"$WORK/engines" && engines="$engines $e"
done
[ -n "$engines" ] || fail "none of sync, libaio, io_uring works here: $(cat "$WORK/engines")"

# run NAME LATENCY ENGINE QD: one diskbench run on a fresh lab; its JSON in
# $WORK/NAME.json, the reads labfs served in $WORK/NAME.log
run()
{
	local name=$1 lat=$2 eng=$3 qd=$4
	if [ "$lat" = none ]; then
		lab_start --size 64m --seed 7
	else
		lab_start --size 64m --seed 7 --latency "$lat"
	fi
	lab_loop
	lab_arm
	"$DISKBENCH" --engine "$eng" --test rand-read --bs 4k --qd "$qd" --runtime "$RUNTIME" \
		--ramp 0 --quiet --json "$WORK/$name.json" "$LAB_DEV" 2>"$WORK/$name.err" ||
		fail "$name: diskbench exited $?: $(cat "$WORK/$name.err")"
	lab_requests read >"$WORK/$name.log"
	lab_stop
}

# check NAME DIST QD: diskbench's figures in NAME.json against NAME.log;
# exit 0 ok, 1 wrong, 3 only above an upper bound (the path's overhead is
# the machine's load: a burst of other work there is tried again)
check()
{
	python3 - "$WORK" "$1" "zero-${1#*-}" "$2" "$3" <<'EOF'
import json, math, sys
work, name, zero, dist, qd = sys.argv[1:]
qd = int(qd)
ERR = 1.0 / 128                       # include/hist.h: HIST_MAX_REL_ERROR
NEXT = {"50": "99", "99": "99.9"}     # a higher rank of the overhead
def load(n):
    t = json.load(open("%s/%s.json" % (work, n)))["tests"][0]
    rows = [l.split() for l in open("%s/%s.log" % (work, n))]
    return t, [r for r in rows if r[3] == "4096"]
def rank(v, q):
    # nearest rank, as the histogram's: the smallest value with at least
    # q % of the samples at or below it
    return v[max(0, math.ceil(q / 100.0 * len(v)) - 1)]
t, rows = load(name)
svc = sorted(int(r[5]) for r in rows)
errs, high, line = [], [], []
p = t["lat_ns"]["percentiles"]
if t.get("errors"):
    errs.append("errors %r" % t["errors"])
if t["ops"] > len(svc):
    errs.append("diskbench counted %d reads, labfs served %d" % (t["ops"], len(svc)))
over = {}
if qd == 1:
    z, zrows = load(zero)
    zsvc = sorted(int(r[5]) for r in zrows)
    for q in NEXT:
        # what the path added at zero delay, beyond labfs's own time
        over[q] = max(0, z["lat_ns"]["percentiles"][NEXT[q]] - rank(zsvc, float(NEXT[q])))
    line.append("zero delay: p50/p99/p99.9 %s us, labfs %s us" % (
        "/".join("%.0f" % (z["lat_ns"]["percentiles"][k] / 1e3) for k in ("50", "99", "99.9")),
        "/".join("%.0f" % (rank(zsvc, float(k)) / 1e3) for k in ("50", "99", "99.9"))))
for q in ("50", "99"):
    truth = rank(svc, float(q))
    lo = truth * (1 - ERR)
    hi = truth * (1 + ERR) + over[q] if q in over else float("inf")
    line.append("p%s %.3f ms (labfs %.3f, allowed %.3f..%s)" % (q, p[q] / 1e6, truth / 1e6,
                lo / 1e6, "%.3f" % (hi / 1e6) if hi != float("inf") else "-"))
    if not lo <= p[q] <= hi:
        (errs if p[q] < lo else high).append("p%s %.3f ms outside the allowed range" % (q, p[q] / 1e6))
if dist.startswith("bimodal"):
    if not p["99"] >= 5e6 * (1 - ERR):
        errs.append("bimodal p99 %.3f ms is not the slow mode (5 ms)" % (p["99"] / 1e6))
    if not p["50"] < 5e6 * (1 - ERR):
        errs.append("bimodal p50 %.3f ms is the slow mode" % (p["50"] / 1e6))
if qd > 1:
    little = t["ops"] / (t["runtime_ns"] / 1e9) * t["lat_ns"]["mean"] / 1e9
    ev = sorted([(int(r[7]), 1) for r in rows] + [(int(r[7]) + int(r[5]), -1) for r in rows])
    cur = top = 0
    for _, e in ev:
        cur += e
        top = max(top, cur)
    line.append("IOPS x mean = %.1f, labfs held up to %d" % (little, top))
    if abs(little - qd) > 0.1 * qd:
        errs.append("Little's law: IOPS x mean latency = %.1f, not %d" % (little, qd))
    if top > qd:
        errs.append("labfs held %d reads at once, more than QD %d" % (top, qd))
print("%s %s: %d ops, %s" % ("ok  " if not errs + high else "BAD ", name, t["ops"], "; ".join(line)))
for e in errs + high:
    print("FAIL: %s: %s" % (name, e))
sys.exit(1 if errs else 3 if high else 0)
EOF
}

rc=0
for qd in 1 32; do
	for eng in $engines; do
		[ "$eng" = sync ] && [ "$qd" -ne 1 ] && continue
		dists="fixed:1ms bimodal:1ms:5ms:20"
		if [ "$qd" -eq 1 ]; then
			run "zero-$eng-$qd" none "$eng" "$qd"
		else
			dists=fixed:1ms
		fi
		for dist in $dists; do
			name=${dist%%:*}-$eng-$qd
			for try in 1 2 3; do
				if [ "$try" -gt 1 ]; then
					echo "#    $name: again (try $try of 3), with a new zero-delay run"
					run "zero-$eng-$qd" none "$eng" "$qd"
				fi
				run "$name" "$dist" "$eng" "$qd"
				check "$name" "$dist" "$qd"
				st=$?
				[ "$st" -eq 3 ] || break
			done
			[ "$st" -eq 0 ] || rc=1
		done
	done
done
[ "$rc" -eq 0 ] || fail "see above"
echo "PASS"
exit 0
