#!/bin/bash
# health.sh - the drive's health from smartctl --json (issue 23), with a
# stand-in smartctl on PATH (smartctl_replay.sh) that replays recorded
# documents of an NVMe and a SATA drive (tests/data/smart), since no device
# here answers a real one. On a loop device made here: the readings before
# and after land in "health", the text says the bytes the drive counted
# against what diskbench wrote; a reading at the warning temperature with
# a thermal transition flags that test thermal_throttling; new media
# errors warn and exit 1; a smartctl that hangs is killed after its
# timeout with a warning and the run goes on; without smartctl, and for
# a drive that does not answer, the report says why and nothing fails; the
# saved result re-renders the same.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup python3
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
make_loop 64 zero "$T"
DEV=$LOOP_DEV
mkdir "$T/bin" "$T/replay"
cp "$srcdir/tests/cli/smartctl_replay.sh" "$T/bin/smartctl"
export SMART_REPLAY=$T/replay SMART_REPLAY_DATA=$srcdir/tests/data/smart
RUN=(--test seq-write,rand-read --bs 64k --qd 1 --size 8m --runtime 100ms --ramp 0
     --destructive="$DEV")

# flat FILE: its text on one line, the report's wrapping undone
flat() { tr -s ' \n' ' ' <"$1"; }

# replay NAME FILE...: a run on $DEV with smartctl replaying FILE... in turn;
# its status in $rc, its result in $T/NAME.{json,txt,err}
replay()
{
	local name=$1
	shift
	printf '%s\n' "$@" >"$T/replay/seq"
	: >"$T/replay/calls"
	PATH=$T/bin:$PATH "$DISKBENCH" run "${RUN[@]}" --json "$T/$name.json" "$DEV" \
		>"$T/$name.txt" 2>"$T/$name.err"
	rc=$?
}

# ---- NVMe: before, after each test, after ---------------------------------
replay nvme nvme-before.json nvme-hot.json nvme-after.json nvme-after.json
[ $rc = 0 ] || fail "nvme run: exit $rc: $(cat "$T/nvme.err")"
grep -qx -- "--json -x $DEV" "$T/replay/calls" || fail "smartctl asked: $(cat "$T/replay/calls")"
[ "$(wc -l <"$T/replay/calls")" = 4 ] || fail "smartctl asked $(wc -l <"$T/replay/calls") times, not 4"
python3 - "$T/nvme.json" "$SMART_REPLAY_DATA" <<'PY' || fail "nvme health: see above"
import json, sys
d = json.load(open(sys.argv[1]))
rec = lambda n: json.load(open(sys.argv[2] + "/" + n))
h = d["health"]
b, a = rec("nvme-before.json"), rec("nvme-after.json")
lb, la = b["nvme_smart_health_information_log"], a["nvme_smart_health_information_log"]
assert h["why"] == "", h
assert h["before"]["protocol"] == "NVMe" and h["before"]["serial"] == b["serial_number"], h
assert h["before"]["nvme_data_units_written"] == lb["data_units_written"], h
assert h["after"]["written_bytes"] == la["data_units_written"] * 512000, h
assert h["after"]["read_bytes"] == la["data_units_read"] * 512000, h
assert h["before"]["temperature_c"] == b["temperature"]["current"], h
assert h["before"]["temperature_warning_c"] == b["temperature"]["op_limit_max"], h
assert h["after"]["percentage_used"] == la["percentage_used"], h
assert h["after"]["power_on_hours"] == la["power_on_hours"], h
assert h["after"]["media_errors"] == 0 and h["after"]["crc_errors"] is None, h
t = {x["workload"]: x for x in d["tests"]}
# the first test saw the hot reading (a thermal transition, 79 C of 82 is
# below the threshold: the counter tells), the second cooled off
assert t["seq-write"]["thermal_throttling"] is True, t["seq-write"]
assert t["rand-read"]["thermal_throttling"] is False, t["rand-read"]
assert any("throttled for heat" in w for w in d["warnings"]), d["warnings"]
PY
units=$(python3 -c 'import json,sys; a,b=(json.load(open(sys.argv[1]+f))["host_writes"]["units"] for f in ("/nvme-after.json","/nvme-before.json")); print(a-b)' "$SMART_REPLAY_DATA")
grep -q "^health:   before: NVMe, 41 C (warning at 82 C), 3 % used" "$T/nvme.txt" ||
	fail "no health line: $(cat "$T/nvme.txt")"
want=$(python3 -c "
x, u = $units * 512000, 0
while x >= 1000 and u < 5: x, u = x / 1000, u + 1
print('%.3g %s' % (x, ['B', 'kB', 'MB', 'GB', 'TB', 'PB'][u]))")
flat "$T/nvme.txt" | grep -q "during the run: the drive counted $want written against" ||
	fail "no '$want' counted: $(grep -A3 health: "$T/nvme.txt")"
grep -q "seq-write.*thermal throttling" "$T/nvme.txt" || fail "text lacks the thermal note"
# the saved result renders the same health lines
"$DISKBENCH" report "$T/nvme.json" >"$T/re.txt" || fail "report nvme.json"
diff <(grep -A4 "^health:" "$T/nvme.txt") <(grep -A4 "^health:" "$T/re.txt") >&2 ||
	fail "the saved result renders its health differently"
"$DISKBENCH" report --html "$T/nvme.html" "$T/nvme.json" >/dev/null || fail "html"
python3 "$srcdir/tests/cli/check_html.py" page "$T/nvme.html" --json "$T/nvme.json" >"$T/chk" \
	2>&1 || fail "HTML: $(cat "$T/chk")"
grep -q "thermal throttling" "$T/nvme.html" || fail "the page lacks the thermal flag"

# ---- SATA: ATA attributes; nothing to tell throttling by --------------------------------
replay sata sata-before.json sata-after.json
[ $rc = 0 ] || fail "sata run: exit $rc: $(cat "$T/sata.err")"
python3 - "$T/sata.json" <<'PY' || fail "sata health: see above"
import json, sys
d = json.load(open(sys.argv[1]))
b, a = d["health"]["before"], d["health"]["after"]
assert b["protocol"] == "ATA" and b["crc_errors"] == 3 and b["media_errors"] == 0, b
assert a["written_bytes"] - b["written_bytes"] == 2048 * 1000 * 512, (a, b)
assert b["nvme_data_units_written"] is None and b["percentage_used"] == 4, b
assert b["power_on_hours"] == 14602 and b["temperature_warning_c"] is None, b
# no warning threshold and no thermal counters: nothing tells, null
assert all(t["thermal_throttling"] is None for t in d["tests"]), [t["thermal_throttling"] for t in d["tests"]]
PY
flat "$T/sata.txt" | grep -q "0 new media errors, 0 new CRC errors; temperature 33 -> 36 C" || fail "sata: $(cat "$T/sata.txt")"

# ---- new media errors: a warning, exit 1 -----------------------------------
replay errors nvme-before.json nvme-after.json nvme-after.json nvme-errors.json
[ $rc = 1 ] || fail "new media errors: exit $rc, not 1: $(cat "$T/errors.err")"
grep -q "counted 2 new media errors during the run" "$T/errors.err" ||
	fail "no media-error warning: $(cat "$T/errors.err")"
[ -s "$T/errors.json" ] || fail "no result written with the media errors"

# ---- a smartctl that hangs: killed, a warning, the run goes on --------------
start=$(date +%s)
replay hang HANG
[ $rc = 0 ] || fail "hang: exit $rc: $(cat "$T/hang.err")"
[ $(($(date +%s) - start)) -lt 30 ] || fail "the hung smartctl held the run"
grep -q "did not answer within 5 s" "$T/hang.err" || fail "no timeout warning: $(cat "$T/hang.err")"
[ "$(wc -l <"$T/replay/calls")" = 1 ] || fail "a hung smartctl was asked again"
[ "$(json "$T/hang.json" 'd["health"]["before"]')" = None ] || fail "hang: a reading"

# ---- a drive that does not answer; no smartctl at all ------------------------
replay loop loop.json
[ $rc = 0 ] || fail "loop: exit $rc: $(cat "$T/loop.err")"
grep -q "^health:   none: /dev/loop[0-9]*: Unable to detect device type" "$T/loop.txt" ||
	fail "loop: $(grep health "$T/loop.txt")"
[ "$(json "$T/loop.json" 'd["tests"][0]["thermal_throttling"]')" = None ] || fail "loop flag"
PATH=/nonexistent:/usr/bin:/bin "$DISKBENCH" run "${RUN[@]}" --json "$T/none.json" "$DEV" \
	>"$T/none.txt" 2>"$T/none.err" || fail "without smartctl: exit $?: $(cat "$T/none.err")"
grep -q "^health:   none: smartctl not found on PATH" "$T/none.txt" ||
	fail "none: $(cat "$T/none.txt")"
echo "ok"
