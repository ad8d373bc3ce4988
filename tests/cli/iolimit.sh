#!/bin/bash
# iolimit.sh - a cgroup I/O limit on the target is a fact of the run: info
# and the report say it, the JSON keeps it (target.io_limit), a warning says
# its figures may be the limit's, and compare lists it among what differs.
# Root only; skips (77) without a cgroup v1 blkio hierarchy or loop devices.
# Nothing here measures speed: the limit is a setting read back.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
. "$(dirname "$0")/lib.sh"
need_root
need_cmd python3 losetup
need_diskbench

make_loop 32 random
make_blkio_cgroup "diskbench-iolimit-$$"
T=$TMP_DIR
FAST=(--test rand-read --qd 1 --runtime 200ms --ramp 0 --size 16m)

echo "$LOOP_MAJMIN 2000" >"$CG_DIR/blkio.throttle.read_iops_device" ||
	skip "cannot set blkio.throttle.read_iops_device"
want="$LOOP_NAME: read 2000 IOPS (blkio /$(basename "$CG_DIR"))"

run_in_cgroup "$CG_DIR" "$DISKBENCH" info "$LOOP_DEV" >"$T/info.txt" 2>&1 ||
	fail "info: exit $?: $(cat "$T/info.txt")"
grep -q "^I/O limit: *$LOOP_NAME: read 2000 IOPS" "$T/info.txt" ||
	fail "info does not say the limit: $(cat "$T/info.txt")"

run_in_cgroup "$CG_DIR" "$DISKBENCH" "${FAST[@]}" --json "$T/lim.json" "$LOOP_DEV" \
	>"$T/lim.txt" 2>"$T/lim.err" || fail "run in the cgroup: exit $?: $(cat "$T/lim.err")"
[ "$(json "$T/lim.json" 'd["target"]["io_limit"]')" = "$want" ] ||
	fail "JSON io_limit: $(json "$T/lim.json" 'd["target"]["io_limit"]'), want $want"
grep -qF "limit:    $want" "$T/lim.txt" || fail "the report's facts lack the limit: $(head -8 "$T/lim.txt")"
json "$T/lim.json" 'd["warnings"]' | grep -qF "a cgroup limits this process's I/O on the target ($want)" ||
	fail "no warning: $(json "$T/lim.json" 'd["warnings"]')"
# a saved result keeps it
"$DISKBENCH" report --quiet --json "$T/again.json" "$T/lim.json" || fail "report: exit $?"
cmp -s "$T/lim.json" "$T/again.json" || fail "report --json changed the document"

# outside the cgroup: no limit, and compare names the difference
"$DISKBENCH" "${FAST[@]}" --quiet --json "$T/free.json" "$LOOP_DEV" 2>"$T/free.err" ||
	fail "run outside: exit $?"
[ "$(json "$T/free.json" 'd["target"]["io_limit"]')" = "" ] ||
	fail "a limit outside the cgroup: $(json "$T/free.json" 'd["target"]["io_limit"]')"
grep -q "cgroup limits" "$T/free.err" && fail "warned outside the cgroup: $(cat "$T/free.err")"
"$DISKBENCH" compare "$T/free.json" "$T/lim.json" >"$T/cmp.txt" 2>&1 || true
grep -F "target.io_limit" "$T/cmp.txt" | grep -qF "$want" ||
	fail "compare's what differs lacks the limit: $(grep -A12 'What differs' "$T/cmp.txt")"
"$DISKBENCH" compare --json "$T/cmp.json" "$T/free.json" "$T/lim.json" >/dev/null 2>&1 || true
grep -q '"target.io_limit"' "$T/cmp.json" || fail "compare's JSON lacks target.io_limit"
echo ok
