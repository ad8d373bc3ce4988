#!/bin/bash
# drive_id.sh - the drive's identity in every result (issue 23): a run's
# target has firmware and wwn (sysfs's, "" when it has none), and on a
# compare of two results whose model or serial differ, "what differs" opens
# with "different drive: A (serial ...) -> B (serial ...)" in the text, the
# JSON (drive_changed, drive) and the HTML; the same drive says nothing.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /dev/shm
T=$TMP_DIR
SAVED=$srcdir/tests/data/results/2dcec50-quick.json

# A new run's target carries the keys, and its text report the drive line
# when sysfs gave a serial.
"$DISKBENCH" --profile quick --engine null --runtime 20ms --ramp 0 --size 1m \
	--json "$T/run.json" "$T" >"$T/run.txt" 2>"$T/run.err" || fail "run: $(cat "$T/run.err")"
python3 - "$T/run.json" <<'PY' || fail "a run's target lacks firmware or wwn"
import json, sys
t = json.load(open(sys.argv[1]))["target"]
assert isinstance(t["firmware"], str) and isinstance(t["wwn"], str), t
PY

# Before: the saved result; after: the same with another drive in it.
python3 - "$SAVED" "$T/other.json" "$T/fw.json" <<'PY' || fail "cannot edit the saved result"
import json, sys
d = json.load(open(sys.argv[1]))
d["target"].update(model="ACME SSD 2TB", serial="S0NEW123", firmware="2B6Q", wwn="eui.0025")
json.dump(d, open(sys.argv[2], "w"))
d = json.load(open(sys.argv[1]))
d["target"]["firmware"] = "NEWFW"		# a firmware update: the same drive
json.dump(d, open(sys.argv[3], "w"))
PY
model=$(json "$SAVED" 'd["target"]["model"]')
serial=$(json "$SAVED" 'd["target"]["serial"]')
want="different drive: $model (serial $serial) -> ACME SSD 2TB (serial S0NEW123)"
"$DISKBENCH" compare "$SAVED" "$T/other.json" --json "$T/c.json" --html "$T/c.html" \
	>"$T/c.txt" 2>"$T/c.err" || fail "compare: exit $?: $(cat "$T/c.err")"
grep -qF -- "$want" "$T/c.txt" || fail "text compare lacks '$want': $(cat "$T/c.txt")"
sed -n '/What differs/,/^$/p' "$T/c.txt" | sed -n 2p | grep -qF "different drive:" ||
	fail "the drive is not the first thing that differs"
grep -q 'target.serial *overlayblk -> S0NEW123' "$T/c.txt" || fail "no target.serial diff"
grep -q 'target.wwn *(none) -> eui.0025' "$T/c.txt" || fail "no target.wwn diff"
[ "$(json "$T/c.json" 'd["compared"][0]["drive_changed"]')" = True ] || fail "drive_changed"
[ "$(json "$T/c.json" 'd["compared"][0]["drive"]')" = "$want" ] || fail "JSON drive words"
grep -qF -- "${want/->/-\&gt;}" "$T/c.html" || fail "HTML compare lacks '$want'"
python3 "$srcdir/tests/cli/check_html.py" compare "$T/c.html" --json "$T/c.json" --side "$SAVED" --side "$T/other.json" >"$T/chk" 2>&1 || fail "HTML: $(cat "$T/chk")"

"$DISKBENCH" compare "$SAVED" "$T/fw.json" --json "$T/f.json" >"$T/f.txt" 2>&1 ||
	fail "compare fw: exit $?"
grep -q "different drive" "$T/f.txt" && fail "a firmware update is called another drive"
grep -q 'target.firmware *(none) -> NEWFW' "$T/f.txt" || fail "no target.firmware diff"
[ "$(json "$T/f.json" 'd["compared"][0]["drive_changed"]')" = False ] || fail "drive_changed"
echo "ok"
