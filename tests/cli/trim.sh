#!/bin/bash
# trim.sh - --trim discards before each write test, and says so: a loop
# device made here loses the blocks of the test's range (its image's
# allocation shows it) and a fresh ext4 on one is fstrimmed; a read test is
# never trimmed; the result re-rendered keeps the note; a file system
# without FITRIM (tmpfs), a file, no root exit 2, a device that may not be
# written exits 3, before anything runs. The trim test discards a device's
# range (it reads back as zeros) or punches holes in a directory's data
# file, bs at a time, once; it needs permission to write.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount python3 stat
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
FAST=(--runtime 200ms --ramp 0 --quiet)

# ---- a device: BLKDISCARD of the test's range -------------------------------
make_loop 128 random
DEV=$LOOP_DEV
IMG=$LOOP_IMG
full=$(($(stat -c %b "$IMG") * 512))
"$DISKBENCH" run "${FAST[@]}" --test rand-write,rand-read --qd 1 --size 32m --destructive="$DEV" \
	--trim --json "$T/dev.json" "$DEV" 2>"$T/dev.err" || fail "run --trim on $DEV: $(cat "$T/dev.err")"
after=$(($(stat -c %b "$IMG") * 512))
python3 - "$T/dev.json" "$full" "$after" <<'PY' || fail "trim of $DEV: see above"
import json, sys
d = json.load(open(sys.argv[1]))
full, after = int(sys.argv[2]), int(sys.argv[3])
t = {x["workload"]: x for x in d["tests"]}
w = t["rand-write"]
assert w["trim"] == {"method": "blkdiscard", "bytes": 32 << 20}, w.get("trim")
assert "trim" not in t["rand-read"], t["rand-read"].get("trim")     # reads are never trimmed
# the image gave back the range, less what the test wrote again
written = w["device"]["write_bytes"]
assert after <= full - (32 << 20) + written + (1 << 20), (full, after, written)
assert after < full, (full, after)
assert d["settings"]["trim"] == "true", d["settings"]
PY
"$DISKBENCH" report "$T/dev.json" >"$T/dev.txt" || fail "report of dev.json"
grep -q "rand-write 4k qd1: trimmed before it (--trim): 33.6 MB, its range of the device (BLKDISCARD)" \
	"$T/dev.txt" || fail "report: no trim note: $(grep -i trim "$T/dev.txt")"

# ---- a file system: FITRIM of its free space ----------------------------------
make_loop 256 zero
mkfs.ext4 -q -F "$LOOP_DEV" || fail "mkfs.ext4 $LOOP_DEV"
MNT=$T/mnt
mkdir "$MNT" && mount "$LOOP_DEV" "$MNT" || fail "mount $LOOP_DEV"
at_exit "unmount '$MNT'"
"$DISKBENCH" run "${FAST[@]}" --test seq-write --size 16m --trim --json "$T/fs.json" "$MNT" \
	2>"$T/fs.err" || fail "run --trim on ext4: $(cat "$T/fs.err")"
[ "$(json "$T/fs.json" 'd["tests"][0]["trim"]["method"]')" = fitrim ] ||
	fail "ext4: not fstrimmed: $(json "$T/fs.json" 'd["tests"][0].get("trim")')"
# a fresh file system's free space is most of it
[ "$(json "$T/fs.json" 'd["tests"][0]["trim"]["bytes"] > 100 << 20')" = True ] ||
	fail "ext4: trimmed only $(json "$T/fs.json" 'd["tests"][0]["trim"]["bytes"]') bytes"
unmount "$MNT" || fail "umount $MNT"

# ---- no discard, no permission: refused before anything runs ---------------------
mkdir "$T/tmpfs" || fail "mkdir"
cd "$T/tmpfs" || fail "cd"
expect_usage "--trim: the file system of .*tmpfs (tmpfs) takes no FITRIM" run --trim \
	--test seq-write "$T/tmpfs"
cd "$T" || fail "cd"
before=$(sha256sum <"$DEV")
out=$("$DISKBENCH" run --trim --test rand-read "$DEV" 2>&1)
[ $? -eq 3 ] || fail "--trim on $DEV without --destructive: not exit 3: $out"
printf '%s' "$out" | grep -q -- "--trim: writes to $DEV are not allowed" || fail "$out"
[ "$(sha256sum <"$DEV")" = "$before" ] || fail "--trim refused, but $DEV changed"

# ---- the trim test: each discard of bs timed, the set discarded once ------------
"$DISKBENCH" run --test trim --bs 1m --size 16m --quiet "$DEV" >/dev/null 2>"$T/tt.err"
[ $? -eq 3 ] || fail "the trim test without --destructive: not exit 3: $(cat "$T/tt.err")"
[ "$(sha256sum <"$DEV")" = "$before" ] || fail "the trim test refused, but $DEV changed"
"$DISKBENCH" run --test trim --bs 1m --size 16m --runtime 30s --quiet --destructive \
	--json "$T/tt.json" "$DEV" 2>"$T/tt.err" || fail "the trim test: $(cat "$T/tt.err")"
python3 - "$T/tt.json" <<'PY' || fail "the trim test: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
print("trim test:", t["ops"], "discards,", t["bytes"], "bytes,", t["runtime_ns"], "ns", file=sys.stderr)
assert t["workload"] == "trim" and t["engine"] == "discard", (t["workload"], t["engine"])
assert t["ops"] == 16 and t["bytes"] == 16 << 20, (t["ops"], t["bytes"])
assert t["lat_ns"]["min"] > 0 and t["runtime_ns"] < 30e9, t["lat_ns"]
PY
# a discarded range of a loop device reads back as zeros (its image has a hole)
cmp -s -n $((16 << 20)) "$DEV" /dev/zero || fail "the trim test: the range was not discarded"
cmp -s -n $((1 << 20)) <(tail -c +$(((16 << 20) + 1)) "$DEV") /dev/zero &&
	fail "the trim test: past its range too"
# in a directory: holes punched in the data file
mkdir "$T/tdir" || fail "mkdir"
"$DISKBENCH" run --test trim --bs 256k --size 4m --quiet --json "$T/td.json" "$T/tdir" \
	2>"$T/td.err" || fail "the trim test in a directory: $(cat "$T/td.err")"
[ "$(json "$T/td.json" '[d["tests"][0][k] for k in ("ops", "bytes")]')" = "[16, 4194304]" ] ||
	fail "the trim test in a directory: $(json "$T/td.json" 'd["tests"][0]["ops"]')"

# ---- bad use ---------------------------------------------------------------------
cd "$T" || fail "cd"
head -c 1m /dev/zero >file.img
expect_usage "--trim: .*file.img is a file" run --trim --test seq-write file.img
if command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$DISKBENCH" run --trim /tmp 2>&1)
	[ $? -eq 2 ] || fail "--trim as nobody: not exit 2: $out"
	printf '%s' "$out" | grep -q -- "--trim: needs root" || fail "--trim as nobody: $out"
fi
echo ok
