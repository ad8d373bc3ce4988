#!/bin/bash
# classic.sh - the classic workloads (bonnie++, hdparm) run, give sane numbers,
# leave nothing behind (also when killed mid-test), and the per-char and file
# tests are skipped with a note on a block device.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3

"$DISKBENCH" list tests | grep -q '^meta-delete-rand ' || skip "this build has no classic workloads"
"$DISKBENCH" --help | grep -q -- '--files' || skip "the CLI has no --files option yet"

make_tmpdir
dir=$TMP_DIR
out=$(mktemp -d /tmp/classic.XXXXXX) || fail "mktemp"
at_exit "rm -rf -- '$out'"

all=char-write,char-read,rewrite,meta-create,meta-stat,meta-delete,meta-create-rand
all=$all,meta-stat-rand,meta-delete-rand,seeks,buffered-read,cached-read

# check_json FILE NFILES ENGINE-OF-CHAR TESTS [MAX-FILE-SIZE]: every test ran, with sane numbers
check_json()
{
	python3 - "$@" <<'PY' || fail "$1: not sane"
import json, sys
d = json.load(open(sys.argv[1]))
nfiles, charengine = int(sys.argv[2]), sys.argv[3]
want = sys.argv[4].split(",")
maxsize = int(sys.argv[5]) if len(sys.argv) > 5 else 0
got = [t["workload"] for t in d["tests"]]
assert got == want, (got, want)
for t in d["tests"]:
    w = t["workload"]
    assert t["ops"] > 0, (w, "no ops")
    assert t["errors"] == 0, (w, t["errors"])
    assert t["runtime_ns"] > 0, w
    assert t["lat_ns"]["max"] >= t["lat_ns"]["min"] > 0, w
    if w.startswith("meta-create") or w.startswith("meta-delete"):
        # finite: every file once, and not one more
        assert t["ops"] <= nfiles, (w, t["ops"], nfiles)
    if w.startswith("meta-delete"):
        assert t["bytes"] == 0, w
    if w.startswith("meta-stat"):
        # bonnie++'s stat test reads the data of files that have any
        assert t["bytes"] <= t["ops"] * maxsize, (w, t["bytes"])
        assert (t["bytes"] > 0) == (maxsize > 0), (w, t["bytes"])
    if w.startswith("char-"):
        assert t["engine"] == charengine, (w, t["engine"])
        assert t["bytes"] == t["ops"] * (64 if charengine == "syscall" else 1024), w
    if w == "rewrite":
        assert t["bytes"] == t["ops"] * t["bs"], w
    # hdparm -t reads once from the start, keeping what it read
    if w == "buffered-read":
        assert t["passes"] == 1 and not t["drop_behind"], (w, t["passes"], t["drop_behind"])
    else:
        assert t["passes"] == 0 and not t["passes_done"], (w, t["passes"])
PY
}

# 1. everything, with the defaults (16384 files)
"$DISKBENCH" --test "$all" --runtime 200ms --ramp 0 --size 8m --json "$out/all.json" "$dir" \
	>"$out/all.txt" 2>"$out/all.err" || fail "exit $?: $(cat "$out/all.err")"
check_json "$out/all.json" 16384 stdio "$all"
[ -z "$(ls -A "$dir")" ] || fail "left behind: $(ls -A "$dir")"
grep -q '^ Timing buffered disk reads: .* MB in .* seconds = .* [kM]B/sec$' "$out/all.txt" ||
	fail "no hdparm -t line in the text report"
grep -q '^ Timing cached reads: .* MB in .* seconds = .* [kM]B/sec$' "$out/all.txt" ||
	fail "no hdparm -T line in the text report"
echo "all classic tests: ok"

# 2. bonnie++ -n parameters: 300 files over 3 directories, 0..4k bytes, fsync;
# the finite tests do exactly 300 ops, ramp or not, however long the runtime.
fin=meta-create,meta-delete,meta-create-rand,meta-delete-rand
nparams="--files 300 --dirs 3 --file-size 0-4k --fsync --size 8m --quiet"
# shellcheck disable=SC2086 # nparams is a list of words
"$DISKBENCH" --test "$fin" $nparams --runtime 5s --ramp 1s --json "$out/meta.json" "$dir" \
	2>"$out/meta.err" || fail "meta: exit $?: $(cat "$out/meta.err")"
check_json "$out/meta.json" 300 stdio "$fin"
python3 - "$out/meta.json" <<'PY' || fail "meta: finite tests did not do every file exactly once"
import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    assert t["ops"] == 300 and t["runtime_ns"] < 5e9, (t["workload"], t["ops"])
    if "create" in t["workload"]:
        assert 0 < t["bytes"] <= 300 * 4096, t["bytes"]
PY
# shellcheck disable=SC2086
"$DISKBENCH" --test meta-stat,meta-stat-rand $nparams --runtime 100ms --ramp 0 \
	--json "$out/stat.json" "$dir" 2>"$out/stat.err" || fail "stat: exit $?: $(cat "$out/stat.err")"
check_json "$out/stat.json" 300 stdio meta-stat,meta-stat-rand 4096
[ -z "$(ls -A "$dir")" ] || fail "meta left behind: $(ls -A "$dir")"
echo "file tests with -n parameters: ok"

# 3. one-byte system calls, as bonnie++ 2.00
"$DISKBENCH" --test char-write,char-read --char-mode syscall --runtime 200ms --ramp 0 \
	--size 8m --json "$out/sys.json" --quiet "$dir" 2>"$out/sys.err" ||
	fail "syscall: exit $?: $(cat "$out/sys.err")"
check_json "$out/sys.json" 0 syscall char-write,char-read
echo "--char-mode syscall: ok"

# 4. SIGTERM in the middle of a file test: the whole tree goes
"$DISKBENCH" --test meta-stat --files 20000 --runtime 20s --ramp 0 --size 8m --quiet "$dir" \
	>/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	ls -d "$dir"/diskbench.*/meta-0 >/dev/null 2>&1 && break
	sleep 0.05
done
ls -d "$dir"/diskbench.*/meta-0 >/dev/null 2>&1 || fail "the file test never started"
sleep 0.5
kill -TERM "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 143 ] || fail "SIGTERM: exit $rc, want 143"
[ -z "$(ls -A "$dir")" ] || fail "SIGTERM left: $(ls -A "$dir")"
echo "SIGTERM mid file test: nothing left"

# 5. a block device: the tests that need a file system are skipped, with a note
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null 2>&1; then
	echo "block-device part skipped: needs root and losetup"
	exit 0
fi
make_loop 16
"$DISKBENCH" --test char-read,meta-stat,seq-read --runtime 100ms --ramp 0 \
	--json "$out/blk.json" --quiet "$LOOP_DEV" 2>"$out/blk.err" ||
	fail "block device: exit $?: $(cat "$out/blk.err")"
for w in char-read meta-stat; do
	grep -q "$w" "$out/blk.err" ||
		fail "block device: no note about skipping $w: $(cat "$out/blk.err")"
done
[ "$(json "$out/blk.json" '[t["workload"] for t in d["tests"]]')" = '["seq-read"]' ] ||
	fail "block device: ran $(json "$out/blk.json" '[t["workload"] for t in d["tests"]]')"
echo "block device: file-system tests skipped with a note"

# 6. hdparm -t on a device smaller than what it could read in its runtime
# stops at the device's end, as hdparm does, rather than read it again
"$DISKBENCH" --test buffered-read --bs 2m --runtime 2s --ramp 0 --buffered \
	--json "$out/hd.json" "$LOOP_DEV" >"$out/hd.txt" 2>"$out/hd.err" ||
	fail "buffered-read: exit $?: $(cat "$out/hd.err")"
python3 - "$out/hd.json" <<'PY' || fail "buffered-read: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
print("buffered-read: %d MiB in %.3f s, device read %d MiB" %
      (t["bytes"] >> 20, t["runtime_ns"] / 1e9, t["device"]["read_bytes"] >> 20), file=sys.stderr)
assert t["passes"] == 1 and t["passes_done"] and not t["drop_behind"], t
assert t["bytes"] == 16 << 20 and t["ops"] == 8, (t["bytes"], t["ops"])
assert t["runtime_ns"] < 2e9, t["runtime_ns"]
assert t["device"]["read_bytes"] >= t["bytes"], t["device"]
PY
grep -q "buffered-read 2m qd1: ended at the end of its working set (16.8 MB, 1 pass)" \
	"$out/hd.txt" || fail "buffered-read: no note: $(cat "$out/hd.txt")"
echo "buffered-read: one pass, from the device"
echo "ok"
