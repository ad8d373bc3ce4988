#!/bin/bash
# lab_latency.sh - diskbench's percentiles against the device lab's own log of what each request took.
#
# Root and FUSE only (skips with 77 otherwise). 4k random reads on a loop
# device over labfs (tests/lab/lab.sh) with no injected delay (the path's own
# overhead: block layer, loop worker, FUSE round trip), fixed 1 ms and
# bimodal (1 ms, 1 in 20 at 5 ms), for each of the sync, libaio and
# io_uring engines at QD1, and libaio and io_uring at QD32 (sync has one
# request in flight per thread: it is QD1 only). Each run's figures are held
# to labfs's log of the same run:
#   - diskbench counted no more reads than labfs served;
#   - p50, p99 and p99.9 are at least labfs's own service time at that rank
#     less the histogram's stated error (1/128): a read cannot take less
#     than the device spent on it, so neither can the k-th fastest;
#   - at QD1 they are at most the same rank (plus the window's unknowns,
#     below) of each read's time from labfs's reply to the read before it
#     to its arrival of the read after it, plus the error: a read is
#     submitted after the one before it completed, and completes before the
#     next is submitted. This needs no zero-delay run, and holds however
#     loaded the machine is. Which logged reads were the test's: after
#     diskbench's probes, before its 256 unwritten-space samples (ascending
#     offsets), within a window of the test's n plus a few unknowns (those
#     left in flight at the stop, and up to 6 samples); an upper bound needs
#     more reads above the rank than unknowns, so p99.9's has one only in a
#     run of some 10000 reads (the zero-delay run of 3 s, on a quiet machine)
#     and the line says when there is none;
#   - the bimodal p99 and p99.9 are the slow mode, its p50 the fast one;
#   - Little's law at both depths: IOPS x mean latency is at most the queue
#     depth (2 % for the clock's edges) and, with a delay, at least 90 % of
#     it (the rest is diskbench's own time between a completion and the next
#     submission); labfs never held more than QD of the test's reads at once.
# No upper bound at QD32: there the reads overlap, and no log of the lab's
# says when diskbench saw each completion.
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
RUNTIME=${LAB_RUNTIME:-2s}
ZERO_RUNTIME=${LAB_ZERO_RUNTIME:-3s}
QD32_RUNTIME=${LAB_QD32_RUNTIME:-1500ms}

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
	local name=$1 lat=$2 eng=$3 qd=$4 rt=$RUNTIME
	# QD32 has reads enough in 1.5 s; a QD1 run needs its 2 s for 1000
	[ "$qd" -gt 1 ] && rt=$QD32_RUNTIME
	if [ "$lat" = none ]; then
		[ "$qd" -eq 1 ] && rt=$ZERO_RUNTIME
		lab_start --size 64m --seed 7
	else
		lab_start --size 64m --seed 7 --latency "$lat"
	fi
	lab_loop
	lab_arm
	"$DISKBENCH" --engine "$eng" --test rand-read --bs 4k --qd "$qd" --runtime "$rt" \
		--ramp 0 --quiet --json "$WORK/$name.json" "$LAB_DEV" 2>"$WORK/$name.err" ||
		fail "$name: diskbench exited $?: $(cat "$WORK/$name.err")"
	lab_requests read >"$WORK/$name.log"
	lab_stop
}

# check NAME DIST QD: diskbench's figures in NAME.json against NAME.log;
# exit 0 ok, 1 wrong
check()
{
	python3 - "$WORK" "$1" "$2" "$3" <<'EOF'
import json, math, sys
work, name, dist, qd = sys.argv[1:]
qd = int(qd)
ERR = 1.0 / 128                       # include/hist.h: HIST_MAX_REL_ERROR
t = json.load(open("%s/%s.json" % (work, name)))["tests"][0]
rows = sorted(([int(x) for x in l.split()[2:]] for l in open("%s/%s.log" % (work, name))),
              key=lambda r: r[5])    # OFFSET SIZE DELAY SERVICE RESULT ARRIVAL, by arrival
n = t["ops"]
p = t["lat_ns"]["percentiles"]
errs, line = [], []
if t.get("errors"):
    errs.append("errors %r" % t["errors"])
# Which reads were diskbench's test: after its probes, before the 256
# blocks it samples for unwritten space (src/target/unwritten.c), which
# come in ascending offsets, where random reads do not (S of them may be
# the test's: a chance of 1 in S! that more are), and within n + E of their
# start, E being those still in flight when it stopped. The window W holds
# them all, and len(W) - n others.
E, S = qd + 1, 6
if n > len(rows):
    errs.append("diskbench counted %d reads, labfs served %d" % (n, len(rows)))
j = len(rows) - 1
while j > 0 and rows[j - 1][0] < rows[j][0]:
    j -= 1
win = range(max(0, j - n - E), min(len(rows), j + S))
extra = len(win) - n
test = range(win[0] + E + 1, max(win[0] + E + 1, j - S - 1))   # surely the test's alone
svc = sorted(rows[i][3] for i in win)
if qd == 1:
    # At QD1 a read is submitted after the one before it completed, and
    # completes before the next is submitted: it took at most the time from
    # the previous reply labfs sent to the next request labfs got.
    # Reads that overlap a neighbour have no such bound (the one diskbench
    # left in flight when it stopped, and the sampler's first): infinite.
    # Within the test's reads none may overlap.
    arr = [r[5] for r in rows]
    rep = [r[5] + r[3] for r in rows]
    def bound(i):
        if i == 0 or i == len(rows) - 1 or arr[i] < rep[i - 1] or arr[i + 1] < rep[i]:
            return float("inf")
        return arr[i + 1] - rep[i - 1]
    up = sorted(bound(i) for i in win)
    over = [i for i in test if arr[i + 1] < rep[i]]
    if over:
        errs.append("%d reads overlapped at QD1 (a reader not diskbench?)" % len(over))
for q in ("50", "99", "99.9"):
    k = max(1, math.ceil(float(q) / 100 * n))      # the histogram's nearest rank
    # the k-th fastest of diskbench's reads took at least the k-th fastest
    # of the window's labfs times, and at most the (k + extra)-th of the
    # window's upper bounds (diskbench's reads are n of the window's)
    lo = svc[k - 1] * (1 - ERR)
    hi = up[min(len(up), k + extra) - 1] * (1 + ERR) if qd == 1 else float("inf")
    line.append("p%s %.3f ms (labfs %.3f, allowed %.3f..%s)" % (q, p[q] / 1e6, svc[k - 1] / 1e6,
                lo / 1e6, "%.3f" % (hi / 1e6) if hi != float("inf") else "-"))
    if not lo <= p[q] <= hi:
        errs.append("p%s %.3f ms outside the allowed range" % (q, p[q] / 1e6))
if n < 1000:
    line.append("p99.9 is the largest sample")
if qd == 1 and hi == float("inf"):
    line.append("no upper bound at p99.9: fewer reads above it than the window's %d unknowns" % extra)
if dist.startswith("bimodal"):
    for q in ("99", "99.9"):
        if not p[q] >= 5e6 * (1 - ERR):
            errs.append("bimodal p%s %.3f ms is not the slow mode (5 ms)" % (q, p[q] / 1e6))
    if not p["50"] < 5e6 * (1 - ERR):
        errs.append("bimodal p50 %.3f ms is the slow mode" % (p["50"] / 1e6))
little = n / (t["runtime_ns"] / 1e9) * t["lat_ns"]["mean"] / 1e9
line.append("IOPS x mean = %.2f" % little)
if not little <= qd * 1.02:
    errs.append("Little's law: IOPS x mean latency = %.2f, more than QD %d" % (little, qd))
if dist != "none" and not little >= qd * 0.9:
    errs.append("Little's law: IOPS x mean latency = %.2f, under 90 %% of QD %d" % (little, qd))
ev = sorted([(rows[i][5], 1) for i in test] + [(rows[i][5] + rows[i][3], -1) for i in test])
cur = top = 0
for _, e in ev:
    cur += e
    top = max(top, cur)
line.append("labfs held up to %d" % top)
if top > qd:
    errs.append("labfs held %d reads at once, more than QD %d" % (top, qd))
print("%s %s: %d ops, %s" % ("ok  " if not errs else "BAD ", name, n, "; ".join(line)))
for e in errs:
    print("FAIL: %s: %s" % (name, e))
sys.exit(1 if errs else 0)
EOF
}

rc=0
for qd in ${LAB_QDS:-1 32}; do
	for eng in $engines; do
		[ "$eng" = sync ] && [ "$qd" -ne 1 ] && continue
		for dist in none fixed:1ms bimodal:1ms:5ms:20; do
			name=${dist%%:*}-$eng-$qd
			run "$name" "$dist" "$eng" "$qd"
			check "$name" "$dist" "$qd" || rc=1
		done
	done
done
[ "$rc" -eq 0 ] || fail "see above"
echo "PASS"
exit 0
