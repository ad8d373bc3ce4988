#!/bin/bash
# honesty.sh - what fakes a result is said: a loop device that reads its
# backing file through the page cache (loop direct I/O off) is shown in
# info, the JSON and a warning naming the O_DIRECT tests it served, in a
# directory on it too; with direct I/O on, nothing is said. Random reads
# of a "rotational" disk in microseconds are called implausible; a loop
# device's rotational flag is not taken for its store's.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup mkfs.ext4 mount umount python3
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
FAST=(--test rand-read,seq-read --qd 1 --runtime 100ms --ramp 0 --size 16m --quiet)

# loop direct I/O off (losetup's default)
make_loop 64 random
OFF=$LOOP_DEV
[ "$(cat "/sys/block/$LOOP_NAME/loop/dio" 2>/dev/null)" = 0 ] || skip "$OFF has direct I/O already"
"$DISKBENCH" info "$OFF" >"$T/info.txt" 2>&1 || fail "info $OFF: exit $?"
grep -q "loop direct I/O: *off: O_DIRECT on this loop device is served from its backing file's page cache" \
	"$T/info.txt" || fail "info does not say: $(grep -i loop "$T/info.txt")"
"$DISKBENCH" run "${FAST[@]}" --json "$T/off.json" "$OFF" 2>"$T/off.err" || fail "run $OFF: $(cat "$T/off.err")"
[ "$(json "$T/off.json" 'd["target"]["loop_direct_io"]')" = False ] || fail "JSON: loop_direct_io"
want="$LOOP_NAME is a loop device without direct I/O: O_DIRECT on it is served from its backing file's page cache, so these tests measured that cache, not the disk under it (rand-read 4k qd1, seq-read 1m qd1)"
grep -qF "$want" "$T/off.err" || fail "no warning on stderr: $(cat "$T/off.err")"
json "$T/off.json" 'd["warnings"]' | grep -qF "$want" || fail "no warning in the JSON"
# buffered tests are not the flag's business
"$DISKBENCH" run "${FAST[@]}" --buffered --json "$T/buf.json" "$OFF" 2>"$T/buf.err" || fail "run --buffered"
grep -q "without direct I/O" "$T/buf.err" && fail "buffered tests flagged: $(cat "$T/buf.err")"

# a loop device told it spins: its own flag says nothing of its store, and
# its backing file is on tmpfs, which says nothing either: no verdict
rot=/sys/block/$(basename "$OFF")/queue/rotational
was=$(cat "$rot")
at_exit "echo '$was' >'$rot' 2>/dev/null"
echo 1 >"$rot" 2>/dev/null && [ "$(cat "$rot")" = 1 ] || skip "cannot mark $OFF rotational"
"$DISKBENCH" run "${FAST[@]}" --json "$T/rot.json" "$OFF" 2>"$T/rot.err" || fail "run rotational"
grep -q "implausible" "$T/rot.err" && fail "a loop device on tmpfs called implausible: $(cat "$T/rot.err")"
[ "$(json "$T/rot.json" '[t["implausible"] for t in d["tests"]]')" = "[false, false]" ] ||
	fail "loop implausible flags: $(json "$T/rot.json" '[t["implausible"] for t in d["tests"]]')"
[ "$(json "$T/rot.json" '(d["target"]["loop_backing_disk"], d["target"]["loop_backing_rotational"])')" \
	= "('', None)" ] || fail "loop backing: $(json "$T/rot.json" 'd["target"]["loop_backing_disk"]')"
echo "$was" >"$rot"

# a disk (not a loop device) that says it spins and answers random reads in
# microseconds: a cache below it answered. A zram device of our own, told
# it spins.
if [ -w /sys/class/zram-control/hot_add ] && id=$(cat /sys/class/zram-control/hot_add 2>/dev/null); then
	Z=zram$id
	at_exit "echo 1 >/sys/block/$Z/reset 2>/dev/null; echo $id >/sys/class/zram-control/hot_remove 2>/dev/null"
	echo 64M >"/sys/block/$Z/disksize" || fail "zram disksize"
	echo 1 >"/sys/block/$Z/queue/rotational" 2>/dev/null || true
	if [ "$(cat "/sys/block/$Z/queue/rotational")" = 1 ]; then
		"$DISKBENCH" run "${FAST[@]}" --json "$T/zrot.json" "/dev/$Z" 2>"$T/zrot.err" ||
			fail "run /dev/$Z: $(cat "$T/zrot.err")"
		grep -Eq "rand-read 4k qd1 \(median [0-9]+ us\): implausible for a rotational disk" \
			"$T/zrot.err" || fail "no implausible warning: $(cat "$T/zrot.err")"
		[ "$(json "$T/zrot.json" '[t["implausible"] for t in d["tests"]]')" = "[true, false]" ] ||
			fail "implausible flags: $(json "$T/zrot.json" '[t["implausible"] for t in d["tests"]]')"
		"$DISKBENCH" report --json "$T/zrot2.json" "$T/zrot.json" >/dev/null || fail "report"
		[ "$(json "$T/zrot2.json" 'd["tests"][0]["implausible"]')" = True ] ||
			fail "report lost implausible"
	else
		msg "zram keeps rotational 0: the rotational rule is checked by test_annotate only"
	fi
else
	msg "no zram here: the rotational rule is checked by test_annotate only"
fi
"$DISKBENCH" run "${FAST[@]}" --json "$T/norot.json" "$OFF" 2>/dev/null || fail "run"
[ "$(json "$T/norot.json" '[t["implausible"] for t in d["tests"]]')" = "[false, false]" ] ||
	fail "a non-rotational device flagged implausible"

# a directory on it: its O_DIRECT tests went through the same cache
make_loop 128 zero
mkfs.ext4 -q -F "$LOOP_DEV" || fail "mkfs.ext4"
mkdir "$T/mnt" && mount "$LOOP_DEV" "$T/mnt" || fail "mount"
at_exit "unmount '$T/mnt'"
"$DISKBENCH" run "${FAST[@]}" --json "$T/dir.json" "$T/mnt" 2>"$T/dir.err" || fail "run in dir: $(cat "$T/dir.err")"
grep -q "$LOOP_NAME is a loop device without direct I/O" "$T/dir.err" || fail "dir: $(cat "$T/dir.err")"
unmount "$T/mnt" || fail "umount"

# loop direct I/O on: an image on a file system that takes O_DIRECT
DIMG=$(mktemp -d /var/tmp/diskbench-honesty.XXXXXX) || fail "mktemp"
at_exit "rm -rf -- '$DIMG'"
make_loop 64 random "$DIMG" --direct-io=on
[ "$(cat "/sys/block/$LOOP_NAME/loop/dio" 2>/dev/null)" = 1 ] || skip "losetup --direct-io=on did not take"
"$DISKBENCH" run "${FAST[@]}" --json "$T/on.json" "$LOOP_DEV" 2>"$T/on.err" || fail "run dio: $(cat "$T/on.err")"
[ "$(json "$T/on.json" 'd["target"]["loop_direct_io"]')" = True ] || fail "JSON: loop_direct_io on"
grep -q "without direct I/O" "$T/on.err" && fail "direct I/O on, still flagged: $(cat "$T/on.err")"
"$DISKBENCH" info "$LOOP_DEV" | grep -q "loop direct I/O: *on" || fail "info: direct I/O on"
# a saved result keeps the fact
"$DISKBENCH" report --json "$T/re.json" "$T/off.json" >/dev/null || fail "report"
[ "$(json "$T/re.json" 'd["target"]["loop_direct_io"]')" = False ] || fail "report lost loop_direct_io"
echo ok
