#!/bin/bash
# lab_latency.sh - diskbench's percentiles against its own per-request log and the device lab's log of the same run.
#
# Root and FUSE only (skips with 77 otherwise). 4k random reads on a loop
# device over labfs (tests/lab/lab.sh) with no injected delay (the path's own
# overhead: block layer, loop worker, FUSE round trip), fixed 1 ms and
# bimodal (1 ms, 1 in 20 at 5 ms), for each of the sync, libaio and
# io_uring engines at QD1, and libaio and io_uring at QD32 (sync has one
# request in flight per thread: it is QD1 only). Each run writes diskbench's
# per-request log (--lat-log: job, slot, offset, submit and completion on
# CLOCK_MONOTONIC, phase) beside its JSON, and labfs logs every read it
# served (arrival and service on the same clock). Held to each other:
#   (a) the histogram's p50, p99 and p99.9 are the exact percentiles of
#       the log's window lines (the histogram's samples: as many as its
#       ops) within its stated error (1/128);
#   (b) every request lines up: each of diskbench's is paired with one read
#       labfs served, with diskbench's submit <= labfs's arrival and labfs's
#       reply (arrival + service, taken before it replies) <= diskbench's
#       completion. Pairs are made by offset and order: at each offset, the
#       k-th request diskbench submitted with the k-th read labfs got there
#       (only labfs's reads of 4k inside the test's span count: its
#       probes before and its unwritten-space samples after are outside);
#       where that fails for an offset (two reads of one offset in flight
#       at once, which the path may reorder, or another reader's read of
#       it), the offset's requests are paired by a search for pairs that
#       line up, and the line counts such offsets ("reordered");
#   (c) an upper bound at every depth, from labfs's clock and the order of
#       events alone: a request is submitted after the one before it in its
#       slot came back, so after labfs's reply to it, and it comes back
#       before the next one in its slot is submitted, so before labfs got
#       that one: its latency as diskbench measured it is at most labfs's
#       arrival of the next request in its slot less labfs's reply to the
#       previous one. If every request's latency is at most its bound, the
#       k-th smallest latency is at most the k-th smallest bound: each
#       percentile is at most that, plus the histogram's error. A request
#       with no neighbour (its slot's last) has no bound (+inf): an
#       upper bound at a rank needs more reads above it than such unknowns.
#       A ramp (100 ms, in the log) gives each slot's first measured
#       request a neighbour before it;
#   (d) the lower bound as before: a percentile is at least labfs's service
#       time at that rank over the same requests, less the error (a read
#       takes at least what the device spent on it; (b) says so of each);
#   - the bimodal p99 and p99.9 are the slow mode, its p50 the fast one;
#   - Little's law at both depths: IOPS x mean latency is at most the queue
#     depth (2 % for the clock's edges) and, with a delay, at least 90 % of
#     it (the rest is diskbench's own time between a completion and the next
#     submission); labfs never held more than QD of the test's reads at once.
# Every bound comes from the run itself, so it holds however loaded the
# machine is. The runs are long enough for p99.9 to have an upper bound at
# QD1 with a delay (1000 reads for one unknown; some 2000 in 2.5 s) and at
# QD32 (a few unknowns; 20000 reads and more in 1.5 s); a delayed or QD32
# run that falls short (a loaded machine) is run again for twice as long,
# once, and the line says when p99.9 has no upper bound all the same. The
# runtimes (ms) can be set: LAB_RUNTIME_MS (QD1 with a delay, 2500),
# LAB_ZERO_RUNTIME_MS (QD1 without, 1500), LAB_QD32_RUNTIME_MS (1500); and
# the depths: LAB_QDS ("1 32").
# Timing-sensitive: a MEASURED_TEST, run alone (flock /work/bench.lock by hand).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lab/lab.sh"

need_lab
once_per_suite "it holds latencies to the lab's log; a sanitizer build's are the sanitizer's"
need_cmd python3
need_diskbench
make_tmpdir
WORK=$TMP_DIR
# runtimes in ms: QD1 with a delay, QD1 without, QD32
RUNTIME_MS=${LAB_RUNTIME_MS:-2500}
ZERO_RUNTIME_MS=${LAB_ZERO_RUNTIME_MS:-1500}
QD32_RUNTIME_MS=${LAB_QD32_RUNTIME_MS:-1500}
RAMP=100ms

"$DISKBENCH" list engines >"$WORK/engines" 2>&1 || fail "diskbench list engines exited $?"
engines=
for e in sync libaio io_uring; do
	awk -v e="$e" 'NR > 1 && $1 == e && tolower($2) ~ /^(yes|ok)$/ { f = 1 } END { exit !f }' \
		"$WORK/engines" && engines="$engines $e"
done
[ -n "$engines" ] || fail "none of sync, libaio, io_uring works here: $(cat "$WORK/engines")"

# run NAME LATENCY ENGINE QD RUNTIME: one diskbench run on a fresh lab; its
# JSON in $WORK/NAME.json, its per-request log in $WORK/NAME.dlog, the reads
# labfs served in $WORK/NAME.log
run()
{
	local name=$1 lat=$2 eng=$3 qd=$4 rt=$5
	if [ "$lat" = none ]; then
		lab_start --size 64m --seed 7
	else
		lab_start --size 64m --seed 7 --latency "$lat"
	fi
	lab_loop
	lab_arm
	"$DISKBENCH" --engine "$eng" --test rand-read --bs 4k --qd "$qd" --runtime "$rt" \
		--ramp "$RAMP" --quiet --json "$WORK/$name.json" --lat-log "$WORK/$name.dlog" \
		"$LAB_DEV" 2>"$WORK/$name.err" ||
		fail "$name: diskbench exited $?: $(cat "$WORK/$name.err")"
	lab_requests read >"$WORK/$name.log"
	lab_stop
}

# check NAME DIST QD: NAME.json against NAME.dlog and NAME.log; exit 0 ok,
# 1 wrong, 2 right but p99.9 without an upper bound (too few reads); a row
# of the table in $WORK/table
check()
{
	python3 - "$WORK" "$1" "$2" "$3" <<'PY'
import collections, json, sys
work, name, dist, qd = sys.argv[1:]
qd = int(qd)
ERR = 1.0 / 128                       # include/hist.h: HIST_MAX_REL_ERROR
INF = float("inf")
t = json.load(open("%s/%s.json" % (work, name)))["tests"][0]
n, p, bs = t["ops"], t["lat_ns"]["percentiles"], t["bs"]
errs, line = [], []
if t.get("errors"):
    errs.append("errors %r" % t["errors"])

def rank(q, n):
    # the histogram's nearest rank, in integers as hist_rank computes it
    return min(n, max(1, (round(float(q) * 1e6) * n + 10**8 - 1) // 10**8))

# diskbench's requests, by job and slot in the order they came back
D = []
for l in open("%s/%s.dlog" % (work, name)):
    f = l.split()
    if l.startswith("# test ") and f[5] == "jobs" and f[10] != "0:":
        errs.append("the log dropped %s requests" % f[10].rstrip(":"))
    if l.startswith("#"):
        continue
    D.append({"job": int(f[2]), "slot": int(f[3]), "off": int(f[5]), "sub": int(f[7]),
              "comp": int(f[8]), "lat": int(f[9]), "ok": int(f[10]) == int(f[6]),
              "win": f[11] == "window"})
meas = [d for d in D if d["win"] and d["ok"]]
# (a) the histogram against the exact percentiles of its own samples
if len(meas) != n:
    errs.append("%d window lines in the log, %d ops in the JSON" % (len(meas), n))
lats = sorted(d["lat"] for d in meas)
for q in ("50", "99", "99.9"):
    x = lats[rank(q, len(lats)) - 1] if lats else 0
    if abs(p[q] - x) > x * ERR + 1:
        errs.append("(a) p%s %.4f ms, its samples' exact %.4f ms" % (q, p[q] / 1e6, x / 1e6))

# (b) labfs's 4k reads inside the test's span, paired by offset and order
lo_t, hi_t = min(d["sub"] for d in D), max(d["comp"] for d in D)
L = []
for l in open("%s/%s.log" % (work, name)):
    f = [int(x) for x in l.split()[2:]]       # OFFSET SIZE DELAY SERVICE RESULT ARRIVAL
    if f[1] == bs and lo_t <= f[5] <= hi_t:
        L.append({"off": f[0], "arr": f[5], "rep": f[5] + f[3], "svc": f[3], "used": False})
byD, byL = collections.defaultdict(list), collections.defaultdict(list)
for d in D:
    byD[d["off"]].append(d)
for r in L:
    byL[r["off"]].append(r)
fits = lambda d, r: d["sub"] <= r["arr"] and r["rep"] <= d["comp"]
def search(ds, rs, i=0):
    # pair ds[i:] with unused reads of rs, each lining up (groups are tiny)
    if i == len(ds):
        return True
    for r in rs:
        if not r["used"] and fits(ds[i], r):
            r["used"], ds[i]["m"] = True, r
            if search(ds, rs, i + 1):
                return True
            r["used"] = False
    return False
reordered = unpaired = 0
example = ""
for off, ds in byD.items():
    ds.sort(key=lambda d: d["sub"])
    rs = sorted(byL[off], key=lambda r: r["arr"])
    if len(rs) >= len(ds) and all(fits(d, r) for d, r in zip(ds, rs)):
        for d, r in zip(ds, rs):
            d["m"], r["used"] = r, True
        continue
    if search(ds, rs):
        reordered += 1
        if not example:
            example = "offset %d: diskbench's submit..completion %s, labfs's arrival..reply %s" % (
                off, ", ".join("%d..%d" % (d["sub"] - lo_t, d["comp"] - lo_t) for d in ds),
                ", ".join("%d..%d" % (r["arr"] - lo_t, r["rep"] - lo_t) for r in rs))
    else:
        unpaired += sum(1 for d in ds if "m" not in d or not d["m"]["used"])
        for d in ds:
            d.pop("m", None)
if unpaired:
    errs.append("(b) %d of diskbench's requests line up with no read labfs served" % unpaired)
others = sum(1 for r in L if not r["used"])

# (c) each request's bound from its slot's neighbours; (d) labfs's own time
slots = collections.defaultdict(list)
for d in D:
    slots[(d["job"], d["slot"])].append(d)
for seq in slots.values():
    for i, d in enumerate(seq):
        prev, nxt = seq[i - 1] if i else None, seq[i + 1] if i + 1 < len(seq) else None
        d["up"] = INF
        if prev and nxt and "m" in prev and "m" in nxt:
            d["up"] = nxt["m"]["arr"] - prev["m"]["rep"]
        if d["up"] < d["lat"]:
            errs.append("(c) job %d slot %d at %d: latency %d ns over its bound %d ns"
                        % (d["job"], d["slot"], d["sub"], d["lat"], d["up"]))
ups = sorted(d["up"] for d in meas)
svc = sorted(d["m"]["svc"] for d in meas if "m" in d)
unknown = sum(1 for u in ups if u == INF)
row, nobound = [], False
for q in ("50", "99", "99.9"):
    k = rank(q, n)
    lo = svc[k - 1] * (1 - ERR) if len(svc) == n else 0
    hi = ups[k - 1] * (1 + ERR) + 1 if ups else INF
    nobound |= hi == INF
    line.append("p%s %.3f ms (labfs %.3f, bound %s)" % (q, p[q] / 1e6, svc[k - 1] / 1e6,
                "%.3f" % (hi / 1e6) if hi != INF else "none"))
    row.append((p[q] / 1e6, svc[k - 1] / 1e6, hi / 1e6))
    if not lo <= p[q] <= hi:
        errs.append("p%s %.3f ms outside %.3f..%s ms" % (q, p[q] / 1e6, lo / 1e6,
                    "%.3f" % (hi / 1e6) if hi != INF else "-"))
line.append("%d paired (%d offsets reordered, %d other reads), %d unknown"
            % (len(D), reordered, others, unknown))
if n < 1000:
    line.append("p99.9 is the largest sample")
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
ev = sorted([(d["m"]["arr"], 1) for d in D if "m" in d] +
            [(d["m"]["rep"], -1) for d in D if "m" in d])
cur = top = 0
for _, e in ev:
    cur += e
    top = max(top, cur)
line.append("labfs held up to %d" % top)
if top > qd:
    errs.append("labfs held %d reads at once, more than QD %d" % (top, qd))
print("%s %s: %d ops, %s" % ("ok  " if not errs else "BAD ", name, n, "; ".join(line)))
if example:
    print("     first reordered (ns from the test's first submit): " + example)
for e in errs[:20]:
    print("FAIL: %s: %s" % (name, e))
eng = name.split("-")[1]
f3 = lambda v: "-" if v == INF else "%.3f" % v if v < 10 else "%.2f" % v
with open("%s/table" % work, "a") as tab:
    tab.write("| %-8s | %2d | %-7s | %5d | %s | %s | %s | %d | %.2f |\n" % (
        eng, qd, {"none": "none", "fixed": "1 ms"}.get(dist.split(":")[0], "bimodal"), n,
        " / ".join(f3(r[0]) for r in row), " / ".join(f3(r[1]) for r in row),
        " / ".join(f3(r[2]) for r in row), unknown, little))
sys.exit(1 if errs else 2 if nobound else 0)
PY
}

rc=0
for qd in ${LAB_QDS:-1 32}; do
	for eng in $engines; do
		[ "$eng" = sync ] && [ "$qd" -ne 1 ] && continue
		for dist in none fixed:1ms bimodal:1ms:5ms:20; do
			name=${dist%%:*}-$eng-$qd
			rt=$RUNTIME_MS
			[ "$dist" = none ] && rt=$ZERO_RUNTIME_MS
			[ "$qd" -gt 1 ] && rt=$QD32_RUNTIME_MS
			run "$name" "$dist" "$eng" "$qd" "${rt}ms"
			check "$name" "$dist" "$qd"
			st=$?
			# too few reads for p99.9's upper bound (a loaded machine):
			# once more, twice as long (the zero-delay QD1 runs need none)
			if [ "$st" -eq 2 ] && { [ "$dist" != none ] || [ "$qd" -gt 1 ]; }; then
				sed -i '$d' "$WORK/table"
				echo "again, for $((rt * 2)) ms: $name"
				run "$name" "$dist" "$eng" "$qd" "$((rt * 2))ms"
				check "$name" "$dist" "$qd"
				st=$?
			fi
			[ "$st" -eq 1 ] && rc=1
		done
	done
done
echo "| engine   | QD | delay   | reads | diskbench p50 / p99 / p99.9 | labfs p50 / p99 / p99.9 | bound p50 / p99 / p99.9 | unknown | IOPS x mean |"
cat "$WORK/table"
[ "$rc" -eq 0 ] || fail "see above"
echo "PASS"
exit 0
