#!/bin/bash
# stacks.sh - the honesty flags on real stacks, made on loop devices over
# images in /dev/shm: btrfs with compression (mount option, directory
# property) and copy-on-write (and without: nodatacow, chattr +C), its
# backing device found (one device, and two summed), fscrypt on ext4,
# plain ext4 and xfs without a flag, and ramfs refusing O_DIRECT. Each in
# info, the JSON (target and per test), the text report, and a saved result.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup mount umount mkfs.btrfs mkfs.ext4 mkfs.xfs chattr btrfs python3
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
RUN=(run --test seq-write --runtime 200ms --ramp 0 --size 16m)

# flags FILE: the target's flag names in a JSON result or info, one line
flags() { json "$1" '" ".join(f["name"] for f in d["target"]["flags"])'; }
# test_flags FILE: each test's flag names, one test per line
test_flags() { json "$1" '"\n".join(" ".join(t["flags"]) for t in d["tests"])'; }
# info_json DIR OUT
info_json() { "$DISKBENCH" info --json "$2" "$1" || fail "info --json $1: exit $?"; }
# run_json DIR OUT [OPTION...]: a short seq-write run, its text report in OUT.txt
run_json()
{
	local dir=$1 out=$2
	shift 2
	"$DISKBENCH" "${RUN[@]}" "$@" --json "$out" "$dir" >"$out.txt" 2>"$out.err" ||
		fail "run in $dir: exit $?: $(cat "$out.err")"
}
# mnt NAME: a mount point in T, unmounted on exit
mnt()
{
	mkdir -p "$T/$1" || fail "mkdir $T/$1"
	at_exit "unmount '$T/$1'"
}

# ---- btrfs with compression: both flags, and the loop device under it ----
make_loop 256 none
B1=$LOOP_DEV B1N=$LOOP_NAME
mkfs.btrfs -q -f "$B1" >/dev/null || fail "mkfs.btrfs"
mnt btrfs
mount -o compress=zstd "$B1" "$T/btrfs" || fail "mount btrfs compress=zstd"
"$DISKBENCH" info "$T/btrfs" >"$T/i1.txt" || fail "info btrfs"
grep -q "^backing device: *$B1N\$" "$T/i1.txt" || fail "info: backing device: $(grep backing "$T/i1.txt")"
grep -q "^flag: *compression: btrfs compresses what is written here (compress=zstd" "$T/i1.txt" ||
	fail "info: no compression flag: $(cat "$T/i1.txt")"
grep -q "^flag: *copy_on_write: btrfs copy-on-write: an overwrite goes to a new place" "$T/i1.txt" ||
	fail "info: no copy-on-write flag"
run_json "$T/btrfs" "$T/r1.json"
[ "$(flags "$T/r1.json")" = "compression copy_on_write" ] || fail "JSON flags: $(flags "$T/r1.json")"
[ "$(test_flags "$T/r1.json")" = "compression copy_on_write" ] ||
	fail "test flags: $(test_flags "$T/r1.json")"
[ "$(json "$T/r1.json" 'd["target"]["device"]')" = "$B1N" ] || fail "JSON: device"
[ "$(json "$T/r1.json" 'd["target"]["devices"]')" = "[\"$B1N\"]" ] || fail "JSON: devices"
[ "$(json "$T/r1.json" 'd["tests"][0]["device"]["write_bytes"] > 0')" = True ] ||
	fail "no device counters: $(json "$T/r1.json" 'd["tests"][0]["device"]')"
json "$T/r1.json" 'd["target"]["compression"]' | grep -q "^compress=zstd" || fail "JSON: compression"
grep -q "^flag: *compression: btrfs compresses" "$T/r1.json.txt" || fail "text report: no flag"
grep -q "has no block device counters" "$T/r1.json.err" && fail "btrfs: no counters: $(cat "$T/r1.json.err")"
# a saved result keeps them
"$DISKBENCH" report --json "$T/re1.json" "$T/r1.json" >/dev/null || fail "report"
[ "$(flags "$T/re1.json")" = "compression copy_on_write" ] || fail "report lost the flags"
[ "$(json "$T/re1.json" 'd["target"]["devices"]')" = "[\"$B1N\"]" ] || fail "report lost devices"
"$DISKBENCH" report --html "$T/r1.html" "$T/r1.json" >/dev/null || fail "report --html"
grep -q "btrfs compresses what is written here" "$T/r1.html" || fail "HTML: no flag"
# zeros, asked for: the device writes a fraction of them, and the report says
# so; random data (the default) is stored as it is
"$DISKBENCH" "${RUN[@]}" --data zero --bs 1m --json "$T/z1.json" "$T/btrfs" >"$T/z1.txt" \
	2>"$T/z1.err" || fail "--data zero: exit $?: $(cat "$T/z1.err")"
grep -q "wrote zeros (--data zero) to a file system that compresses them (compress=zstd" \
	"$T/z1.err" || fail "--data zero: no warning: $(cat "$T/z1.err")"
python3 - "$T/z1.json" "$T/r1.json" <<'PY' || fail "--data zero: see above"
import json, sys
z, r = (json.load(open(p))["tests"][0] for p in sys.argv[1:3])
print("zeros: %d bytes, device %d; random: %d bytes, device %d" % (z["bytes"],
      z["device"]["write_bytes"], r["bytes"], r["device"]["write_bytes"]), file=sys.stderr)
assert z["data"] == "zero" and r["data"] == "random", (z["data"], r["data"])
assert z["device"]["write_bytes"] < z["bytes"] / 4, z["device"]      # compressed
assert r["device"]["write_bytes"] > r["bytes"] / 2, r["device"]      # as it is
PY
expect_usage "--data: invalid value 'ones'" run --data ones --test seq-write "$T/btrfs"
unmount "$T/btrfs" || fail "umount"

# ---- btrfs without compression: copy-on-write only; a compressing directory;
# nodatacow and chattr +C: neither ----
mount "$B1" "$T/btrfs" || fail "mount btrfs"
info_json "$T/btrfs" "$T/i2.json"
[ "$(flags "$T/i2.json")" = copy_on_write ] || fail "plain btrfs flags: $(flags "$T/i2.json")"
mkdir "$T/btrfs/zdir" "$T/btrfs/nocow" || fail "mkdir"
btrfs property set "$T/btrfs/zdir" compression zstd || fail "btrfs property set"
info_json "$T/btrfs/zdir" "$T/i3.json"
[ "$(flags "$T/i3.json")" = "compression copy_on_write" ] || fail "property: $(flags "$T/i3.json")"
[ "$(json "$T/i3.json" 'd["target"]["compression"]')" = "directory property" ] ||
	fail "property: compression $(json "$T/i3.json" 'd["target"]["compression"]')"
chattr +C "$T/btrfs/nocow" || fail "chattr +C"
info_json "$T/btrfs/nocow" "$T/i4.json"
[ "$(flags "$T/i4.json")" = "" ] || fail "chattr +C: flags $(flags "$T/i4.json")"
run_json "$T/btrfs/nocow" "$T/r4.json" --test rand-write --bs 4k
[ "$(test_flags "$T/r4.json")" = "" ] || fail "chattr +C: test flags $(test_flags "$T/r4.json")"
unmount "$T/btrfs" || fail "umount"
mount -o nodatacow "$B1" "$T/btrfs" || fail "mount nodatacow"
info_json "$T/btrfs" "$T/i5.json"
[ "$(flags "$T/i5.json")" = "" ] || fail "nodatacow: flags $(flags "$T/i5.json")"
unmount "$T/btrfs" || fail "umount"

# ---- btrfs on two devices: both named, their counters summed ----
make_loop 256 none
B2=$LOOP_DEV B2N=$LOOP_NAME
at_exit "btrfs device scan --forget '$B1' '$B2' >/dev/null 2>&1"
mkfs.btrfs -q -f -d raid1 -m raid1 "$B1" "$B2" >/dev/null || fail "mkfs.btrfs raid1"
btrfs device scan "$B1" "$B2" >/dev/null 2>&1
mount "$B1" "$T/btrfs" || fail "mount btrfs raid1"
"$DISKBENCH" info "$T/btrfs" >"$T/i6.txt" || fail "info raid1"
want=$(printf '%s\n' "$B1N" "$B2N" | sort -V | tr '\n' ' ' | sed 's/ $//')
grep -q "one of the file system's devices $want: their counters are summed" "$T/i6.txt" ||
	fail "info raid1: $(grep -A1 backing "$T/i6.txt")"
run_json "$T/btrfs" "$T/r6.json"
[ "$(json "$T/r6.json" '" ".join(d["target"]["devices"])')" = "$want" ] ||
	fail "JSON devices: $(json "$T/r6.json" 'd["target"]["devices"]')"
# raid1: each member gets a copy, so the sum is at least twice what the test
# wrote (a time-bound test on a busy host may write less than --size)
[ "$(json "$T/r6.json" 'd["tests"][0]["bytes"] > 0 and d["tests"][0]["device"]["write_bytes"] >= 2 * d["tests"][0]["bytes"]')" = True ] ||
	fail "raid1 counters: $(json "$T/r6.json" '(d["tests"][0]["bytes"], d["tests"][0]["device"])')"
unmount "$T/btrfs" || fail "umount"

# ---- ext4: plain, no flag; an fscrypt directory: encryption ----
make_loop 128 none
mkfs.ext4 -q -F -b 4096 -O encrypt "$LOOP_DEV" || fail "mkfs.ext4 -O encrypt"
mnt ext4
mount "$LOOP_DEV" "$T/ext4" || fail "mount ext4"
run_json "$T/ext4" "$T/r7.json"
[ "$(flags "$T/r7.json")" = "" ] || fail "ext4 flags: $(flags "$T/r7.json")"
[ "$(test_flags "$T/r7.json")" = "" ] || fail "ext4 test flags: $(test_flags "$T/r7.json")"
grep -q "^flag:" "$T/r7.json.txt" && fail "ext4: text flags: $(grep '^flag:' "$T/r7.json.txt")"
mkdir "$T/ext4/enc" || fail "mkdir"
python3 "$srcdir/tests/cli/fscrypt_dir.py" "$T/ext4/enc"
rc=$?
[ "$rc" -eq 77 ] && skip "the kernel cannot encrypt this ext4 with fscrypt"
[ "$rc" -eq 0 ] || fail "fscrypt_dir.py: exit $rc"
"$DISKBENCH" info "$T/ext4/enc" >"$T/i8.txt" || fail "info enc"
grep -q "^flag: *encryption: fscrypt encrypts the data: every byte read or written costs CPU" \
	"$T/i8.txt" || fail "info: no encryption flag: $(cat "$T/i8.txt")"
run_json "$T/ext4/enc" "$T/r8.json"
[ "$(flags "$T/r8.json")" = encryption ] || fail "fscrypt flags: $(flags "$T/r8.json")"
[ "$(test_flags "$T/r8.json")" = encryption ] || fail "fscrypt test flags: $(test_flags "$T/r8.json")"
[ "$(json "$T/r8.json" 'd["target"]["encrypted"]')" = True ] || fail "JSON: encrypted"
# without -o inlinecrypt ext4 serves O_DIRECT on encrypted files from the page
# cache: the test runs buffered (drop-behind), and the device moves the bytes
grep -q "is encrypted with fscrypt, and without -o inlinecrypt the kernel serves its O_DIRECT" \
	"$T/r8.json.err" || fail "fscrypt: no O_DIRECT warning: $(cat "$T/r8.json.err")"
python3 - "$T/r8.json" <<'PY' || fail "fscrypt: see above"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
assert d["target"]["direct_via_page_cache"] is True, d["target"]
assert t["direct"] is False and t["direct_refused"] is True and t["drop_behind"] is True, t
assert t["device"]["write_bytes"] >= t["bytes"] / 2, (t["device"], t["bytes"])
PY
"$DISKBENCH" --test rand-read --qd 1 --runtime 200ms --ramp 0 --size 16m --json "$T/r8r.json" \
	"$T/ext4/enc" >/dev/null 2>&1 || fail "fscrypt read"
[ "$(json "$T/r8r.json" 'd["tests"][0]["cached"]')" = False ] ||
	fail "fscrypt: reads from the cache: $(json "$T/r8r.json" 'd["tests"][0]["device"]')"
unmount "$T/ext4" || fail "umount"

# ---- xfs: no flag ----
make_loop 320 none
mkfs.xfs -q -f "$LOOP_DEV" || fail "mkfs.xfs"
mnt xfs
mount "$LOOP_DEV" "$T/xfs" || fail "mount xfs"
run_json "$T/xfs" "$T/r9.json"
[ "$(flags "$T/r9.json")" = "" ] || fail "xfs flags: $(flags "$T/r9.json")"
[ "$(test_flags "$T/r9.json")" = "" ] || fail "xfs test flags: $(test_flags "$T/r9.json")"
[ "$(json "$T/r9.json" 'd["target"]["direct_io"]')" = True ] || fail "xfs: direct_io"
[ "$(json "$T/r9.json" 'd["tests"][0]["direct"]')" = True ] || fail "xfs: not direct"
unmount "$T/xfs" || fail "umount"

# ---- ramfs refuses O_DIRECT: the tests ran buffered, and say why. ramfs has
# no size, which the safety gate needs before it lets a directory be
# written, so the runs read a file there. ----
mnt ramfs
mount -t ramfs none "$T/ramfs" || fail "mount ramfs"
"$DISKBENCH" info "$T/ramfs" >"$T/i10.txt" || fail "info ramfs"
grep -q "^O_DIRECT: *refused" "$T/i10.txt" || fail "info: $(grep O_DIRECT "$T/i10.txt")"
grep -q "^flag: *o_direct_refused: ramfs refuses O_DIRECT" "$T/i10.txt" || fail "info: no flag"
dd if=/dev/urandom of="$T/ramfs/f" bs=1M count=16 status=none || fail "dd"
RUN=(run --test seq-read --runtime 200ms --ramp 0)
run_json "$T/ramfs/f" "$T/r10.json"
[ "$(flags "$T/r10.json")" = o_direct_refused ] || fail "ramfs flags: $(flags "$T/r10.json")"
[ "$(test_flags "$T/r10.json")" = o_direct_refused ] || fail "ramfs test flags"
[ "$(json "$T/r10.json" '(d["tests"][0]["direct"], d["tests"][0]["direct_refused"])')" = \
	"(False, True)" ] || fail "ramfs: direct, direct_refused"
grep -q "seq-read 1m qd8: O_DIRECT refused by the file system: it ran buffered" "$T/r10.json.txt" ||
	fail "text: no per-test note: $(cat "$T/r10.json.txt")"
"$DISKBENCH" report --json "$T/re10.json" "$T/r10.json" >/dev/null || fail "report"
[ "$(json "$T/re10.json" 'd["tests"][0]["direct_refused"]')" = True ] || fail "report lost direct_refused"
[ "$(test_flags "$T/re10.json")" = o_direct_refused ] || fail "report lost the test flag"
# asked for buffered: nothing was refused
run_json "$T/ramfs/f" "$T/r11.json" --buffered
[ "$(test_flags "$T/r11.json")" = "" ] || fail "--buffered: test flags $(test_flags "$T/r11.json")"
unmount "$T/ramfs" || fail "umount"

# tmpfs takes O_DIRECT since Linux 6.6: whatever info says, the run agrees
info_json "$T" "$T/i12.json"
want=$(json "$T/i12.json" 'd["target"]["direct_io"]')
RUN=(run --test seq-write --runtime 200ms --ramp 0 --size 16m)
run_json "$T" "$T/r12.json"
[ "$(json "$T/r12.json" 'd["tests"][0]["direct"]')" = "$want" ] || fail "tmpfs: info and run disagree"
echo ok
