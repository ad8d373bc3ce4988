#!/bin/bash
# estimate.sh - a run says how long it will take before it starts, as tune
# does: on stderr, from the plan's ramps and windows and its passes, naming
# the layout it does first; nothing with --quiet.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
. "$(dirname "$0")/lib.sh"
need_diskbench
make_tmpdir
T=$TMP_DIR
NULL=(--engine null --test rand-read,seq-read --qd 1 --size 16m --ramp 0)

# 2 tests of 1 s, then twice over; the line comes before the report
"$DISKBENCH" "${NULL[@]}" --runtime 1s "$T" >"$T/a.out" 2>"$T/a.err" || fail "run: exit $?"
[ "$(head -n 1 "$T/a.err")" = "diskbench: 2 tests, about 2.0 s" ] ||
	fail "estimate: $(head -n 1 "$T/a.err")"
"$DISKBENCH" "${NULL[@]}" --runtime 500ms --ramp 500ms --repeat 3 --quiet "$T" 2>"$T/q.err" ||
	fail "--quiet run: exit $?"
grep -q "about" "$T/q.err" && fail "--quiet printed the estimate: $(cat "$T/q.err")"
"$DISKBENCH" "${NULL[@]}" --runtime 500ms --ramp 500ms --repeat 3 --json "$T/r.json" "$T" \
	>/dev/null 2>"$T/r.err" || fail "--repeat run: exit $?"
[ "$(head -n 1 "$T/r.err")" = "diskbench: 2 tests x 3 passes, about 6.0 s" ] ||
	fail "estimate with --repeat: $(head -n 1 "$T/r.err")"
# the estimate is what the tests' settings add up to
python3 - "$T/r.json" <<'PY' || fail "the estimate is not the settings' sum"
import json, sys
d = json.load(open(sys.argv[1]))
total = sum((r["runtime_ns"] + t["ramp_ns"]) for t in d["tests"] for r in t["runs"])
assert len(d["tests"]) == 2 and all(len(t["runs"]) == 3 for t in d["tests"]), d["tests"]
assert abs(total / 1e9 - 6) < 0.6, total
PY
# a real engine in a directory lays its working set out first, and says so
"$DISKBENCH" --test seq-read --runtime 100ms --ramp 0 --size 8m "$T" >/dev/null 2>"$T/d.err" ||
	fail "run in $T: exit $?: $(cat "$T/d.err")"
grep -q "^diskbench: 1 test, about 0.1 s, after laying out 8.00 MiB$" "$T/d.err" ||
	fail "no layout in the estimate: $(head -n 1 "$T/d.err")"
echo ok
