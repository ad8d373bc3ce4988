#!/bin/bash
# cliff.sh - sustained-write finds the write cliff, against a ground truth: a
# loop device throttled (cgroup v1 blkio) to 32 MB/s of writes that drops to
# 8 MB/s once 24 MiB are written (an SSD whose write cache filled) is found
# to fall there, at those rates; at one steady rate there is no cliff; the
# test writes its working set once and stops, and a saved result reads back
# with the same finding.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup python3
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
cd "$T" || fail "cd"

make_loop 128 zero
make_blkio_cgroup "diskbench-cliff-$$"
limit() { echo "$LOOP_MAJMIN $1" >"$CG_DIR/blkio.throttle.write_bps_device" || fail "limit $1"; }
MB=1000000
limit $((32 * MB))
t0=$(date +%s%N)
run_in_cgroup "$CG_DIR" dd if=/dev/zero of="$LOOP_DEV" bs=1M count=8 oflag=direct 2>/dev/null
[ $((($(date +%s%N) - t0) / 1000000)) -ge 150 ] || skip "blkio throttling has no effect here"
sleep 0.5
# 256k: blk-throttle charges each part of a split bio again (throttle.sh),
# and a loop device splits at 512 KiB
RUN=(--test sustained-write --bs 256k --qd 4 --size 48m --destructive)

# ---- the cliff: 24 MiB at 32 MB/s, then 8 MB/s ----------------------------------
# The switch: one process (no fork per look, at a higher priority, so that a
# loaded machine does not make it late) watches the device's written
# sectors every 2 ms, lowers the limit at 24 MiB, and records where it
# really did: that is the ground truth the finding is held to.
nice -n -10 python3 - "$LOOP_NAME" "$CG_DIR/blkio.throttle.write_bps_device" "$LOOP_MAJMIN" \
	$((24 << 20)) $((8 * MB)) switched <<'PY' &
import sys, time
name, knob, majmin, at, rate, out = sys.argv[1:]
def written():
    with open("/sys/block/%s/stat" % name) as f:
        return int(f.read().split()[6]) * 512
w0 = written()
open(out + ".ready", "w").close()
end = time.monotonic() + 60
while written() - w0 < int(at) and time.monotonic() < end:
    time.sleep(0.002)
with open(knob, "w") as f:
    f.write("%s %s\n" % (majmin, rate))
open(out, "w").write("%d\n" % (written() - w0))
PY
for _ in $(seq 500); do [ -e switched.ready ] && break; sleep 0.01; done
[ -e switched.ready ] || fail "cliff: the switch did not start"
run_in_cgroup "$CG_DIR" "$DISKBENCH" "${RUN[@]}" --json cliff.json "$LOOP_DEV" >cliff.txt \
	2>cliff.err || fail "cliff: exit $?: $(cat cliff.err)"
wait
python3 - cliff.json switched <<'PY' || fail "cliff: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
c = t["cliff"]
sw = int(open(sys.argv[2]).read())
print("cliff:", {k: c[k] for k in c}, "bytes", t["bytes"], "runtime", t["runtime_ns"],
      "switched at", sw, file=sys.stderr)
MB = 1e6
# written once, to the end, and no more
assert t["passes"] == 1 and t["passes_done"], t["passes_done"]
assert t["bytes"] == 48 << 20 and t["ops"] == 192, (t["bytes"], t["ops"])
# the switch came with room for a slower part (it aims at 24 MiB)
assert sw < 40 << 20, "the switch came at %d bytes" % sw
assert c["found"] is True and c["points"] >= 6, c
# where it fell: where the limit changed, within a timeline point (100 ms
# at 32 MB/s) or two
assert abs(c["bytes_before"] - sw) <= 7 * MB, (c["bytes_before"], sw)
assert abs(c["bytes_per_sec_before"] - 32 * MB) <= 0.15 * 32 * MB, c
assert abs(c["bytes_per_sec_after"] - 8 * MB) <= 0.15 * 8 * MB, c
PY
tr -s ' \n' ' ' <cliff.txt | grep -Eq " sustained-write 256k qd4: write cliff after [0-9.]+ MB \([0-9.]+ s\): [0-9.]+ MB/s before, [0-9.]+ MB/s after \(-[0-9]+ %\)" ||
	fail "cliff: text: $(cat cliff.txt)"
grep -Eq "sustained-write 256k qd4: (drifted: )?throughput fell" cliff.txt cliff.err &&
	fail "cliff: also said as a drift: $(cat cliff.err)"
"$DISKBENCH" report --json again.json cliff.json >/dev/null || fail "report"
[ "$(json again.json 'd["tests"][0]["cliff"]')" = "$(json cliff.json 'd["tests"][0]["cliff"]')" ] ||
	fail "a saved result found another cliff: $(json again.json 'd["tests"][0]["cliff"]')"

# ---- one rate throughout: no cliff -----------------------------------------------
# blk-throttle lets a new slice start with a burst of about 100 ms worth
# (3 MB here): at 100 ms points the first 200 ms are 50 % faster, a small
# true cache. At 500 ms points it is within the noise: nothing to find.
limit $((32 * MB))
run_in_cgroup "$CG_DIR" "$DISKBENCH" "${RUN[@]}" --size 112m --interval 500ms \
	--json flat.json "$LOOP_DEV" >flat.txt \
	2>flat.err || fail "flat: exit $?: $(cat flat.err)"
python3 - flat.json <<'PY' || fail "flat: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
c = t["cliff"]
print("flat:", c, file=sys.stderr)
assert c["found"] is False and c["points"] >= 6, c
assert abs(c["bytes_per_sec_before"] - 32e6) <= 0.15 * 32e6, c
PY
grep -q "^  sustained-write 256k qd4: no write cliff: " flat.txt || fail "flat: text: $(cat flat.txt)"
limit 0

# ---- bad use: it writes, so it needs permission -----------------------------------
"$DISKBENCH" --test sustained-write --size 8m --quiet "$LOOP_DEV" >/dev/null 2>refused.err
rc=$?
[ "$rc" -eq 3 ] || fail "no --destructive: exit $rc, want 3: $(cat refused.err)"
echo ok
