#!/bin/bash
# lab_truth.sh - features already built, held to the device lab's truth: the write cliff, steady state, --verify, the implausible flag.
#
# Root and FUSE only (skips with 77 otherwise). Each part runs diskbench on a
# loop device over labfs (tests/lab/lab.sh), whose settings are the truth:
#   - the write cliff: labfs --write-step 24m:16m (writes past 24 MiB go at
#     16 MiB/s: an SLC cache running out); sustained-write finds the cliff
#     at that byte, within one timeline point at the rate before plus what
#     was in flight, and the rate after 16 MiB/s (at most 5 % above; up to
#     15 % below, since a writer a loaded host makes late loses time the
#     lab does not give back);
#   - steady state: a step at 80 MiB (5 ms a request before it) under
#     250 ms rounds of seq-write; the window is wholly past the round the
#     step falls in, its average the lab's rate (the same bounds), and it
#     starts in the first round the lab is settled in, or later only where
#     the rounds in between (as measured) break the SNIA rule (range 20 %,
#     excursion 10 %);
#   - --verify: labfs --corrupt-at returns one byte inverted on reads; the
#     read-back names the 4k block holding that byte, exit 1;
#   - implausible: the kernel gives a loop device no transport and a file
#     on FUSE no backing disk, so the lab cannot claim a link (or a spinning
#     store) to be faster than. What is checked is that a lab device no
#     slower than RAM says none and is not flagged; the link rule itself is
#     held to a stand-in in tests/unit/test_transport.c (fake sysfs trees,
#     a result of 500 MB/s on USB 2), the rotational one to a zram disk in
#     honesty.sh.
# The lab is patterned (labfs fills its memfd), so no part trips the
# unwritten-space warning; that is checked too.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lab/lab.sh"

need_lab
need_cmd python3
need_diskbench
make_tmpdir
WORK=$TMP_DIR
MIB=1048576

# no_unwritten ERR: a patterned lab must not read as unwritten space
no_unwritten()
{
	! grep -q "read unwritten space" "$1" || fail "the lab read as unwritten: $(cat "$1")"
}

# ---- the write cliff, at the byte labfs switches ----------------------------------
STEP=$((24 * MIB))
RATE=$((16 * MIB))
lab_start --size 64m --write-step 24m:16m
lab_loop
lab_arm
"$DISKBENCH" --test sustained-write --bs 256k --qd 4 --size 48m --interval 100ms --destructive \
	--json "$WORK/cliff.json" "$LAB_DEV" >"$WORK/cliff.txt" 2>"$WORK/cliff.err" ||
	fail "cliff: exit $?: $(cat "$WORK/cliff.err")"
lab_requests write >"$WORK/cliff.log"
lab_stop
python3 - "$WORK/cliff.json" "$WORK/cliff.log" $STEP $RATE <<'PY' || fail "cliff: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
rows = [l.split() for l in open(sys.argv[2])]
step, rate = int(sys.argv[3]), int(sys.argv[4])
c = t["cliff"]
# the truth: the first write labfs slowed is the one that took it past STEP
cum, first = 0, None
for r in rows:
    cum += int(r[3])
    if first is None and int(r[4]) > 1000000:
        first = cum - int(r[3])
point = c["bytes_per_sec_before"] * 0.1 + 4 * 256 * 1024
print("cliff: found %s after %.1f MiB (labfs: %.1f MiB, first slowed write at %.1f MiB), "
      "%.0f -> %.1f MB/s (labfs %.1f)" % (c["found"], c["bytes_before"] / 2**20, step / 2**20,
      (first or -1) / 2**20, c["bytes_per_sec_before"] / 1e6, c["bytes_per_sec_after"] / 1e6,
      rate / 1e6))
assert t["bytes"] == 48 << 20 and t["errors"] == 0, (t["bytes"], t["errors"])
assert first is not None and abs(first - step) <= 4 * 256 * 1024, first
assert c["found"] is True, c
assert abs(c["bytes_before"] - step) <= point, (c["bytes_before"], step, point)
# the lab never goes faster than its rate; a late writer loses time it
# does not make up (a loaded host), so the rate after may fall short
assert 0.85 * rate <= c["bytes_per_sec_after"] <= 1.05 * rate, c
PY
no_unwritten "$WORK/cliff.err"
echo "ok   write cliff found at labfs's --write-step byte"

# ---- steady state, where the lab settles -------------------------------------------
# A fixed 5 ms per request holds the lab under 210 MB/s before the step
# (4 x 256 KiB per 5 ms, less the path's cost: 90-180 MB/s measured), so
# that 80 MiB fall after the first round or so and well before a fifth (a
# window of fast rounds could be steady)
STEP=$((80 * MIB))
lab_start --size 64m --latency fixed:5ms --write-step 80m:16m
lab_loop
lab_arm
"$DISKBENCH" --test seq-write --bs 256k --qd 4 --size 64m --ramp 0 --steady-state --round 250ms \
	--destructive --quiet --json "$WORK/steady.json" "$LAB_DEV" 2>"$WORK/steady.err" ||
	fail "steady: exit $?: $(cat "$WORK/steady.err")"
lab_stop
python3 - "$WORK/steady.json" $STEP $RATE <<'PY' || fail "steady: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
step, rate = int(sys.argv[2]), int(sys.argv[3])
s, w = t["steady_state"], t["steady_state"]["window"]
runs = t["runs"]
cum, k = 0, None
for i, r in enumerate(runs):
    cum += r["bytes"]
    if k is None and cum > step:
        k = i                      # the round the step falls in
bw = [r["bytes_per_sec"] for r in runs]
print("steady: rounds %s MB/s; step in round %s; window from %d (%s)" % (
      [round(x / 1e6, 1) for x in bw], k, w["first"], "steady" if s["steady"] else "never"))
def snia(x):
    # include/steady.h: range within 20 % of the average, the least-squares
    # line's excursion across the window within 10 %
    n = len(x)
    avg = sum(x) / n
    mx = (n - 1) / 2.0
    slope = sum((i - mx) * (v - avg) for i, v in enumerate(x)) / sum((i - mx) ** 2 for i in range(n))
    return (max(x) - min(x)) / avg <= 0.2 and abs(slope) * (n - 1) / avg <= 0.1
assert k is not None, "the step was never reached"
assert k < 5, "the step came in round %d: the lab was slow before it, 5 rounds could settle" % k
assert s["steady"] is True and w["rounds"] == 5, s
assert w["first"] >= k, "window from round %d, before the step's round %d" % (w["first"], k)
avg = sum(bw[w["first"]:w["first"] + 5]) / 5
assert 0.85 * rate <= avg <= 1.05 * rate, (avg, rate)
assert abs(t["bytes_per_sec"] - avg) <= 1e-6 * avg, (t["bytes_per_sec"], avg)
iops = [r["iops"] for r in runs]
for start in range(k + 1, w["first"]):
    assert not snia(iops[start:start + 5]), "rounds %d.. were steady already: %s" % (start, iops)
PY
no_unwritten "$WORK/steady.err"
echo "ok   steady state from where labfs's write rate settles"

# ---- --verify: the block labfs answers altered ---------------------------------------
AT=$((5 * MIB + 12345))
lab_start --size 64m --corrupt-at $AT
lab_loop
"$DISKBENCH" --test seq-write --bs 1m --qd 1 --size 16m --runtime 300ms --ramp 0 --verify \
	--destructive --quiet --json "$WORK/verify.json" "$LAB_DEV" 2>"$WORK/verify.err"
rc=$?
corrupted=$(grep -c "^# corrupt $AT\$" "$LAB_LOG")
lab_stop
[ "$rc" -eq 1 ] || fail "--verify over a corrupted block: exit $rc, want 1: $(cat "$WORK/verify.err")"
[ "$corrupted" -ge 1 ] || fail "labfs never returned byte $AT altered"
tr '\n' ' ' <"$WORK/verify.err" | tr -s ' ' | grep -q "1 of 4096 blocks read back did not match what was written, the first at offset $((AT / 4096 * 4096)): crc" ||
	fail "--verify: the warning does not name block $((AT / 4096 * 4096)): $(cat "$WORK/verify.err")"
[ "$(json "$WORK/verify.json" 'd["tests"][0]["verify"]["first_bad"]["offset"], d["tests"][0]["verify"]["bad"]')" = \
	"($((AT / 4096 * 4096)), 1)" ] || fail "--verify JSON: $(json "$WORK/verify.json" 'd["tests"][0]["verify"]')"
echo "ok   --verify names the block labfs altered ($corrupted reads of byte $AT), exit 1"

# ---- implausible: the lab claims no link -----------------------------------------------
lab_start --size 64m
lab_loop
"$DISKBENCH" --test seq-read,rand-read --qd 1 --runtime 300ms --ramp 0 --quiet \
	--json "$WORK/plaus.json" "$LAB_DEV" 2>"$WORK/plaus.err" ||
	fail "plausible: exit $?: $(cat "$WORK/plaus.err")"
lab_stop
got=$(json "$WORK/plaus.json" '(d["target"]["transport"], d["target"]["transport_bytes_per_sec"], d["target"]["loop_backing_disk"], [t["implausible"] for t in d["tests"]])')
[ "$got" = "('', 0, '', [False, False])" ] || fail "implausible: the lab device claims $got"
grep -q implausible "$WORK/plaus.err" && fail "implausible said of a lab device: $(cat "$WORK/plaus.err")"
no_unwritten "$WORK/plaus.err"
echo "ok   the lab device has no link to be faster than (transport '', no backing disk): not flagged"
echo PASS
exit 0
