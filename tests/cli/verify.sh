#!/bin/bash
# verify.sh - --verify and the verify test on a loop device made here and in a
# directory: write tests read back every block they wrote, untimed, and find
# none bad; the verify test re-reads what an earlier run left on the device;
# a few bytes changed in the image underneath, or a run of another seed, are
# found, named by offset, with exit status 1; a profile may ask for it; bad
# use exits 2 (3 for the safety gate) before anything is written.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup python3 dd sha256sum
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
FAST=(--runtime 300ms --ramp 0 --quiet)

# ---- write tests with --verify on a device: every block back, none bad ------
# direct I/O on the loop device, so that what dd writes into the image below
# is what the device reads (no stale page cache of the image in between)
make_loop 64 random "" --direct-io=on
DEV=$LOOP_DEV
IMG=$LOOP_IMG
"$DISKBENCH" run "${FAST[@]}" --test seq-write,rand-write,seeks --qd 1,16 --jobs 2 --size 16m \
	--verify --destructive="$DEV" --json "$T/w.json" "$DEV" 2>"$T/w.err" ||
	fail "run --verify on $DEV: $(cat "$T/w.err")"
python3 - "$T/w.json" <<'PY' || fail "--verify on $DEV: see above"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["verify"] == "true", d["settings"]
assert len(d["tests"]) == 6, [t["name"] for t in d["tests"]]
for t in d["tests"]:
    v = t["verify"]
    assert v["blocks"] > 0 and v["bad"] == 0 and v["first_bad"] is None, (t["name"], v)
    # the read-back is its own time, after the window: not the test's
    assert v["timed"] is False and v["time_ns"] > 0, (t["name"], v)
    assert v["bytes"] == v["blocks"] * 4096, (t["name"], v)
    # never more than the working set, never more than was written
    assert v["bytes"] <= 16 << 20, (t["name"], v)
    writes = t["ops"] if t["workload"] != "seeks" else 1 << 40
    assert v["blocks"] * 4096 <= t["bs"] * max(writes, 1) + (16 << 20), (t["name"], v)
    assert t["errors"] == 0, t
PY
# a sequential writer wraps its 16 MiB: each job's half, all of it, back
seq=$(json "$T/w.json" '[t["verify"]["blocks"] for t in d["tests"] if t["workload"] == "seq-write"]')
[ "$seq" = "[4096, 4096]" ] || fail "seq-write: blocks read back $seq, want all 4096 of 16m"
"$DISKBENCH" report "$T/w.json" >"$T/w.txt" || fail "report of w.json"
# the report wraps its notes: one line of words to grep
flat() { tr '\n' ' ' <"$1" | tr -s ' '; }
flat "$T/w.txt" | grep -q "seq-write 1m qd1 j2: blocks read back and checked: 4096, 0 bad (16.8 MB in [0-9.]* s, after the window, untimed)" ||
	fail "report: no verify note: $(grep -i 'read back' "$T/w.txt")"

# ---- the verify test re-reads what the last run left ------------------------
"$DISKBENCH" run "${FAST[@]}" --test seq-write --verify --size 16m --destructive="$DEV" "$DEV" \
	2>"$T/s.err" || fail "seq-write --verify: $(cat "$T/s.err")"
"$DISKBENCH" run --quiet --test verify --size 16m --json "$T/v.json" "$DEV" 2>"$T/v.err" ||
	fail "--test verify after a write run: $(cat "$T/v.err")"
python3 - "$T/v.json" <<'PY' || fail "--test verify: see above"
import json, sys
d = json.load(open(sys.argv[1]))
t, = d["tests"]
v = t["verify"]
assert t["workload"] == "verify", t["workload"]
# all of the working set, whatever --runtime: it is the test
assert v == {"blocks": 4096, "bad": 0, "bytes": 16 << 20, "time_ns": t["runtime_ns"],
             "timed": True, "first_bad": None}, v
assert t["bytes"] == 16 << 20, t["bytes"]
PY

# ---- a few bytes changed underneath: found, at their unit's offset -----------
at=$((3 * 1048576 + 4096 + 1000))
printf 'diskbench' | dd of="$IMG" bs=1 seek=$at conv=notrunc status=none || fail "dd into $IMG"
"$DISKBENCH" run --quiet --test verify --size 16m --json "$T/bad.json" "$DEV" 2>"$T/bad.err"
rc=$?
[ $rc -eq 1 ] || fail "--test verify over changed bytes: exit $rc, want 1: $(cat "$T/bad.err")"
flat "$T/bad.err" | grep -q "verify 1m: 1 of 4096 blocks read back did not match what was written, the first at offset $((at / 4096 * 4096)): crc expected 0x[0-9a-f]*, found 0x[0-9a-f]*" || fail "the error does not name the offset: $(cat "$T/bad.err")"
python3 - "$T/bad.json" $((at / 4096 * 4096)) <<'PY' || fail "bad.json: see above"
import json, sys
d = json.load(open(sys.argv[1]))
v = d["tests"][0]["verify"]
assert v["bad"] == 1 and v["blocks"] == 4096, v
fb = v["first_bad"]
assert fb["offset"] == int(sys.argv[2]) and fb["field"] == "crc", fb
assert fb["expected"] != fb["found"], fb
PY
"$DISKBENCH" report "$T/bad.json" >"$T/bad.txt" || fail "report of bad.json"
flat "$T/bad.txt" | grep -q "1 bad, the first at offset $((at / 4096 * 4096)): crc" ||
	fail "report of bad.json: $(grep -i 'read back' "$T/bad.txt")"

# and the HTML page: a badge in the summary, the note
"$DISKBENCH" report --html "$T/bad.html" "$T/bad.json" >/dev/null || fail "report --html of bad.json"
grep -q 'class="badge errors" title="blocks read back that did not match what was written">1 bad blocks' \
	"$T/bad.html" || fail "bad.html: no badge"
grep -q "verify 1m: blocks read back and checked: 4096, 1 bad, the first at offset $((at / 4096 * 4096)): crc" \
	"$T/bad.html" || fail "bad.html: no note"

# ---- another run's blocks (a stale seed): found, with both seeds --------------
"$DISKBENCH" run --quiet --test verify --size 1m --seed 7 --json "$T/seed.json" "$DEV" 2>"$T/seed.err"
rc=$?
[ $rc -eq 1 ] || fail "--test verify --seed 7: exit $rc, want 1"
[ "$(json "$T/seed.json" 'd["tests"][0]["verify"]["first_bad"]')" = \
	'{"offset": 0, "field": "seed", "expected": 7, "found": 42}' ] ||
	fail "stale seed: $(json "$T/seed.json" 'd["tests"][0]["verify"]')"
[ "$(json "$T/seed.json" 'd["tests"][0]["verify"]["bad"]')" = 256 ] || fail "stale seed: not all bad"

# ---- never written by --verify: no header -------------------------------------
make_loop 8 random
"$DISKBENCH" run --quiet --test verify --json "$T/raw.json" "$LOOP_DEV" 2>/dev/null
[ $? -eq 1 ] || fail "--test verify of random bytes: not exit 1"
[ "$(json "$T/raw.json" 'd["tests"][0]["verify"]["first_bad"]["field"]')" = magic ] ||
	fail "random bytes: $(json "$T/raw.json" 'd["tests"][0]["verify"]')"

# ---- an existing file keeps its data between runs too ---------------------------
head -c 4m /dev/zero >"$T/file.img" || fail "file.img"
"$DISKBENCH" run "${FAST[@]}" --test seq-write --verify --destructive --json "$T/f.json" \
	"$T/file.img" 2>"$T/f.err" || fail "seq-write --verify on a file: $(cat "$T/f.err")"
"$DISKBENCH" run --quiet --test verify --json "$T/fv.json" "$T/file.img" 2>"$T/fv.err" ||
	fail "--test verify of a file: $(cat "$T/fv.err")"
[ "$(json "$T/fv.json" '(d["tests"][0]["verify"]["blocks"], d["tests"][0]["verify"]["bad"])')" = \
	"(1024, 0)" ] || fail "file: $(json "$T/fv.json" 'd["tests"][0]["verify"]')"
for f in w v f fv; do
	python3 "$srcdir/tests/cli/check_json.py" "$T/$f.json" || fail "$f.json: not a sane result"
done

# ---- a directory: the plan's own data file, laid out checkable ------------------
mkdir "$T/dir" || fail "mkdir"
"$DISKBENCH" run "${FAST[@]}" --test seq-write,rand-write,verify --verify --size 8m \
	--json "$T/dir.json" "$T/dir" 2>"$T/dir.err" || fail "directory: $(cat "$T/dir.err")"
python3 - "$T/dir.json" <<'PY' || fail "directory: see above"
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    v = t["verify"]
    assert v["blocks"] > 0 and v["bad"] == 0, (t["name"], v)
last = d["tests"][-1]
assert last["workload"] == "verify" and last["verify"]["blocks"] == 2048, last["verify"]
PY
# alone, the verify test checks the fresh layout; nothing is left behind
"$DISKBENCH" run --quiet --test verify --size 4m --json "$T/lay.json" "$T/dir" 2>/dev/null ||
	fail "--test verify of a directory's layout"
[ "$(json "$T/lay.json" '(d["tests"][0]["verify"]["blocks"], d["tests"][0]["verify"]["bad"])')" = \
	"(1024, 0)" ] || fail "layout: $(json "$T/lay.json" 'd["tests"][0]["verify"]')"
ls "$T/dir" | grep -q . && fail "scratch left in $T/dir: $(ls "$T/dir")"
# a block size under 4 KiB: every writer of the plan stamps 512-byte units
"$DISKBENCH" run "${FAST[@]}" --test rand-write,verify --bs 4k,512 --size 4m \
	--json "$T/mix.json" "$T/dir" 2>"$T/mix.err" || fail "4k and 512 writers: $(cat "$T/mix.err")"
[ "$(json "$T/mix.json" '[t["verify"]["bad"] for t in d["tests"] if "verify" in t]')" = "[0, 0]" ] ||
	fail "4k and 512 writers: $(json "$T/mix.json" '[t.get("verify") for t in d["tests"]]')"

# ---- a profile may ask for it ---------------------------------------------------
printf '[profile]\nverify = true\nruntime = 200ms\nramp = 0\n[w]\ntest = rand-write\nsize = 4m\n' \
	>"$T/v.ini"
"$DISKBENCH" run --quiet --profile "$T/v.ini" --json "$T/p.json" "$T/dir" 2>/dev/null ||
	fail "profile with verify = true"
[ "$(json "$T/p.json" 'd["tests"][0]["verify"]["bad"]')" = 0 ] || fail "profile: no verify"

# ---- bad use: one line, exit 2 (3: the safety gate), nothing written --------------
cd "$T/dir" || fail "cd"
expect_usage "--verify: no test writes blocks it could check (rand-read)" \
	run --verify --test rand-read "$T/dir"
expect_usage "--verify: no test writes blocks it could check (char-write doing its own I/O)" \
	run --verify --test char-write "$T/dir"
expect_usage "--verify: the null engine moves no data" run --verify --engine null \
	--test seq-write "$T/dir"
expect_usage "--verify: --bs 1000 is not a multiple of 512" run --verify --buffered --bs 1000 \
	--test seq-write "$T/dir"
expect_usage "tune: --verify is a run option tune does not take" tune --verify "$DEV"
before=$(sha256sum <"$DEV")
for args in "--verify" "--verify --test rand-write"; do
	# shellcheck disable=SC2086 # the words are the options
	out=$("$DISKBENCH" run $args "$DEV" 2>&1)
	[ $? -eq 3 ] || fail "run $args $DEV without --destructive: not exit 3: $out"
	printf '%s' "$out" | grep -Eq -- "--verify: writes to $DEV are not allowed|refusing to write to $DEV" ||
		fail "run $args $DEV: $out"
done
[ "$(sha256sum <"$DEV")" = "$before" ] || fail "--verify refused, but $DEV changed"
echo ok
