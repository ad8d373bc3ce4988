#!/bin/bash
# precondition.sh - --precondition writes the device twice over (or
# --precondition-size) in 128 KiB sequential writes before the tests, and the
# device counters show every byte; the tests then run in steady-state rounds;
# in a directory the working set is what is written; the result reads back;
# and it is refused, with nothing written, where it may not write or cannot
# work.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup python3 sha256sum
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
cd "$T" || fail "cd"

make_loop 16 random
RUN=(--test rand-read --qd 1 --runtime 50ms --ramp 0 --max-rounds 5 --quiet)

# ---- bad use: one line, exit 2 or 3, nothing written ------------------------------
sum0=$(sha256sum <"$LOOP_DEV")
"$DISKBENCH" "${RUN[@]}" --precondition "$LOOP_DEV" >/dev/null 2>refused.err
rc=$?
[ "$rc" -eq 3 ] || fail "no --destructive: exit $rc, want 3: $(cat refused.err)"
grep -q "refusing to precondition $LOOP_DEV" refused.err || fail "refusal: $(cat refused.err)"
expect_usage "--precondition-size: only with --precondition" \
	"${RUN[@]}" --precondition-size 8m --destructive "$LOOP_DEV"
expect_usage "--precondition runs each test in steady-state rounds: it does not take --repeat 2" \
	--test rand-read --precondition --repeat 2 --destructive "$LOOP_DEV"
expect_usage "--precondition: the null engine moves no data" \
	"${RUN[@]}" --engine null --precondition --destructive "$LOOP_DEV"
expect_usage "--precondition-size: 18253611008 bytes would be more than 1000 passes" \
	"${RUN[@]}" --precondition --precondition-size 17g --destructive "$LOOP_DEV"
[ "$(sha256sum <"$LOOP_DEV")" = "$sum0" ] || fail "a refused run wrote to the device"

# ---- a device: twice its 16 MiB, every byte seen by the device -------------------
"$DISKBENCH" "${RUN[@]}" --precondition --destructive --json dev.json "$LOOP_DEV" \
	2>dev.err || fail "device: exit $?: $(cat dev.err)"
python3 - dev.json <<'PY' || fail "device: see above"
import json, sys
d = json.load(open(sys.argv[1]))
p = d["precondition"]
print("device:", p, file=sys.stderr)
assert p["bs"] == 128 << 10 and p["passes"] == 2 and p["region_bytes"] == 16 << 20, p
assert p["bytes"] == 32 << 20 and p["complete"] is True and p["time_ns"] > 0, p
assert p["device_write_bytes"] >= p["bytes"], p
t = d["tests"][0]
assert "steady_state" in t and t["steady_state"]["max_rounds"] == 5, t.keys()
assert d["settings"]["precondition"] == "true", d["settings"]
PY
[ "$(sha256sum <"$LOOP_DEV")" != "$sum0" ] || fail "the device was not written"
"$DISKBENCH" report dev.json >dev.txt || fail "report"
grep -q "^precondition: wrote 33.6 MB sequentially in 128 KiB blocks at QD 32 (2 passes over 16.8 MB)" \
	dev.txt || fail "text: $(cat dev.txt)"
"$DISKBENCH" report --json again.json dev.json >/dev/null || fail "report --json"
[ "$(json again.json 'd["precondition"]')" = "$(json dev.json 'd["precondition"]')" ] ||
	fail "a saved result lost the precondition"

# --precondition-size under the device's size: that much from the start, once
"$DISKBENCH" "${RUN[@]}" --precondition --precondition-size 4m --destructive \
	--json small.json "$LOOP_DEV" 2>small.err || fail "small: exit $?: $(cat small.err)"
[ "$(json small.json '[d["precondition"][k] for k in ("passes", "region_bytes", "bytes")]')" = \
	"[1, 4194304, 4194304]" ] || fail "small: $(json small.json 'd["precondition"]')"

# ---- a directory: its working set, twice ------------------------------------------
mkdir dir
"$DISKBENCH" "${RUN[@]}" --precondition --size 8m --json dir.json dir 2>dir.err ||
	fail "directory: exit $?: $(cat dir.err)"
[ "$(json dir.json '[d["precondition"][k] for k in ("passes", "region_bytes", "bytes", "complete")]')" = \
	"[2, 8388608, 16777216, true]" ] || fail "directory: $(json dir.json 'd["precondition"]')"
[ -z "$(ls -A dir)" ] || fail "directory: left behind: $(ls -A dir)"
echo ok
