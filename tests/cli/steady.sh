#!/bin/bash
# steady.sh - --steady-state runs each test in rounds until SNIA PTS steady
# state, against a ground truth: a loop device throttled (cgroup v1 blkio)
# to 1000 read IOPS and then to 3000 settles after the step, at 3000; one
# whose limit keeps rising never settles and says so; the figures are the
# window's average of the rounds, which the JSON holds; bad use exits 2.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup python3
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
cd "$T" || fail "cd"

# ---- bad use: one line, exit 2 ---------------------------------------------------
expect_usage "--steady-state runs each test in rounds itself: it does not take --repeat 3" \
	run --engine null --steady-state --repeat 3 "$T"
expect_usage "--max-rounds 3: a steady-state window is 5 rounds, more than the round limit" \
	run --engine null --steady-state --max-rounds 3 "$T"
expect_usage "--round: only with --steady-state" run --engine null --round 1s "$T"

# ---- the null engine settles at once: the figures are the window's average -----
"$DISKBENCH" --engine null --test rand-read --qd 1 --runtime 100ms --ramp 0 --steady-state \
	--json null.json "$T" >null.txt 2>null.err || fail "null: exit $?: $(cat null.err)"
python3 - null.json <<'PY' || fail "null: see above"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
s = t["steady_state"]
# The null engine is CPU-bound: on a loaded machine it may never settle,
# so what is checked holds either way.
assert s["max_rounds"] == 25, s
assert s["rounds"] == len(t["runs"]) >= 5, (s, len(t["runs"]))
w = s["window"]
# steady: it stops at the window; never: the window is the last 5 of 25
assert w["rounds"] == 5 and w["first"] + 5 == s["rounds"], w
assert s["steady"] or s["rounds"] == 25, s
iops = [r["iops"] for r in t["runs"]][w["first"]:w["first"] + 5]
avg = sum(iops) / 5
assert abs(t["iops"] - avg) <= 1e-6 * avg and abs(w["average_iops"] - avg) <= 1e-6 * avg, (t["iops"], avg)
assert abs(w["range"] - (max(iops) - min(iops)) / avg) < 1e-9, w
assert s["steady"] == (w["range"] <= 0.2 and w["excursion"] <= 0.1), s
assert d["settings"]["steady-state"] == "true", d["settings"]
PY
grep -Eq "^  rand-read 4k qd1: (steady state in rounds [0-9]+-[0-9]+ of|never steady in 25 rounds)" null.txt ||
	fail "text: $(cat null.txt)"
grep -q "rand-read 4k qd1: IOPS per round:" null.txt || fail "text: no rounds"
"$DISKBENCH" report --json again.json null.json >/dev/null || fail "report"
[ "$(json again.json 'd["tests"][0]["steady_state"]')" = "$(json null.json 'd["tests"][0]["steady_state"]')" ] ||
	fail "report lost the steady state"

# ---- ground truth: a throttled device --------------------------------------------
make_loop 64 random
make_blkio_cgroup "diskbench-steady-$$"
limit() { echo "$LOOP_MAJMIN $1" >"$CG_DIR/blkio.throttle.read_iops_device" || fail "limit $1"; }
limit 2000
t0=$(date +%s%N)
run_in_cgroup "$CG_DIR" dd if="$LOOP_DEV" of=/dev/null bs=4k count=1000 iflag=direct 2>/dev/null
[ $((($(date +%s%N) - t0) / 1000000)) -ge 250 ] || skip "blkio throttling has no effect here"
sleep 1
RUN=(--test rand-read --qd 1 --ramp 0 --round 250ms --steady-state --quiet)

reads() { awk '{ print $1 }' "/sys/block/$LOOP_NAME/stat"; }

# a step from 1000 to 3000 IOPS in the second round, once the device has
# served 600 reads (however late the run started): the ~50 reads of the
# start-up probes, the burst blk-throttle grants at the start of a slice
# (up to a 100 ms worth) and the first round's 250 come to less. Steady
# after it, at 3000
limit 1000
r0=$(reads)
( for _ in $(seq 600); do [ $(($(reads) - r0)) -ge 600 ] && break; sleep 0.01; done
  limit 3000 ) &
run_in_cgroup "$CG_DIR" "$DISKBENCH" "${RUN[@]}" --json step.json "$LOOP_DEV" 2>step.err ||
	fail "step: exit $?: $(cat step.err)"
wait
python3 - step.json <<'PY' || fail "step: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
s, w = t["steady_state"], t["steady_state"]["window"]
iops = [round(r["iops"]) for r in t["runs"]]
print("step: rounds", iops, "window from", w["first"], file=sys.stderr)
assert s["steady"] is True, s
# the first round is before the step: 1000 IOPS, plus at most the
# throttle's start-of-slice burst of 100 reads (400 a second over 250 ms)
assert 700 <= iops[0] <= 1500, iops
assert w["first"] >= 1, w
# the window lies after the step: each of its rounds at 3000, give or take
# the throttle's own round-to-round swing (blk-throttle grants a burst at a
# slice's start and takes it back in the next: 250 ms rounds after the step
# measured here at 2645-3422 with the diskbench of 193e11b, 2553-3474 with
# today's, and a judged window held 3363 and 2770); the window's
# mean is held to 10 %
assert all(abs(x - 3000) <= 0.15 * 3000 for x in iops[w["first"]:w["first"] + 5]), (w, iops)
assert abs(t["iops"] - 3000) <= 0.1 * 3000, (t["iops"], iops)
PY

# a limit that rises by a fifth every 250 ms (until the run ends) never
# settles in 8 rounds
limit 500
( l=500; for _ in $(seq 60); do sleep 0.25; l=$((l * 6 / 5)); limit "$l"; done ) &
riser=$!
run_in_cgroup "$CG_DIR" "$DISKBENCH" "${RUN[@]}" --max-rounds 8 --json ramp.json "$LOOP_DEV" \
	2>ramp.err || fail "ramp: exit $?: $(cat ramp.err)"
kill "$riser" 2>/dev/null
wait
python3 - ramp.json <<'PY' || fail "ramp: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
s, w = t["steady_state"], t["steady_state"]["window"]
print("ramp: rounds", [round(r["iops"]) for r in t["runs"]], file=sys.stderr)
assert s["steady"] is False and s["rounds"] == 8, s
assert w["first"] == 3 and w["rounds"] == 5, w          # the last window
avg = sum(r["iops"] for r in t["runs"][3:8]) / 5
assert abs(t["iops"] - avg) <= 1e-6 * avg, (t["iops"], avg)
PY
grep -q "(8 rounds): never reached steady state" ramp.err || fail "ramp: no warning: $(cat ramp.err)"
limit 0
echo ok
