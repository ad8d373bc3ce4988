#!/bin/bash
# safety.sh - the write gate on loop devices we create: what is refused, what is allowed.
#
# Only devices made here by make_loop are written, mounted, swapped on or
# mapped; everything is undone by at_exit, in reverse order (umount and
# swapoff before the loop device is detached).
set -u
. "$(dirname "$0")/lib.sh"

need_root
need_cmd losetup sha256sum mkfs.ext4 mount umount mountpoint dd
need_diskbench

make_tmpdir /dev/shm
T=$TMP_DIR
W=(--test seq-write --runtime 200ms --ramp 0)	# a short write test
OUT=$T/out
NOTES=()

note() { NOTES+=("$*"); msg "note: $*"; }
sum() { sha256sum <"$1" | cut -d' ' -f1; }
sum_head() { head -c 4096 "$1" | sha256sum | cut -d' ' -f1; }
zero() { dd if=/dev/zero of="$1" bs=1M oflag=direct status=none 2>/dev/null || true; }

# expect RC PATTERN CHECK ARGS...: run diskbench ARGS; its exit status must
# be RC and its output (stdout and stderr) must match the extended regex
# PATTERN ("" for any). When RC is 3, the output must say "refusing" and,
# unless CHECK is "-", the checksum of CHECK (a device or file) must be the
# same after the run as before.
expect()
{
	local want=$1 pat=$2 check=$3 rc before=
	shift 3
	[ "$check" = - ] || before=$(sum "$check")
	"$DISKBENCH" "$@" >"$OUT" 2>&1
	rc=$?
	[ "$rc" -eq "$want" ] ||
		fail "diskbench $*: exit $rc, expected $want; output: $(tail -5 "$OUT")"
	if [ -n "$pat" ] && ! grep -Eiq -- "$pat" "$OUT"; then
		fail "diskbench $*: output does not match '$pat': $(tail -5 "$OUT")"
	fi
	if [ "$want" -eq 3 ]; then
		grep -qi "refusing" "$OUT" ||
			fail "diskbench $*: exit 3 without 'refusing': $(cat "$OUT")"
		if [ "$check" != - ] && [ "$(sum "$check")" != "$before" ]; then
			fail "diskbench $*: refused, yet $check changed"
		fi
	fi
}

make_loop 16 zero
A=$LOOP_DEV
make_loop 8 zero
B=$LOOP_DEV
MNT=$T/mnt
mkdir "$MNT"
at_exit "unmount '$MNT'"

# a) a blank device: writes need --destructive; reads are always fine.
expect 3 "need --destructive" "$A" "${W[@]}" "$A"
expect 0 "" - "${W[@]}" --destructive "$A"
zero "$A"
before=$(sum "$A")
"$DISKBENCH" --runtime 200ms --ramp 0 "$A" >"$OUT" 2>"$T/err" ||
	fail "default plan on a device without --destructive: exit $?: $(cat "$T/err")"
grep -q "skipped.*seq-write" "$T/err" ||
	fail "default plan: stderr does not say which write tests were skipped: $(cat "$T/err")"
grep -q "destructive" "$T/err" || fail "default plan: stderr does not say how to enable writes"
[ "$(sum "$A")" = "$before" ] || fail "default plan without --destructive changed $A"

# b) an unmounted ext4: only naming the exact device overrides the signature.
mkfs.ext4 -q -F "$A" || fail "mkfs.ext4 $A"
expect 3 "ext4 .*signature" "$A" "${W[@]}" "$A"
expect 3 "ext4 .*signature" "$A" "${W[@]}" --destructive "$A"
expect 3 "names $B, not $A" "$A" "${W[@]}" --destructive="$B" "$A"
expect 3 "names ${A}p1" "$A" "${W[@]}" --destructive="${A}p1" "$A"
expect 0 "" - "${W[@]}" --destructive="$A" "$A"

# c) ext4 mounted read-only (so that nothing but diskbench could change
# the checksum), then read-write (exit status only: ext4 writes its own
# superblock). f) a symlink to the mounted device changes nothing.
mkfs.ext4 -q -F "$A" || fail "mkfs.ext4 $A"
mount -o ro "$A" "$MNT" || fail "mount -o ro $A"
ln -s "$A" "$T/link"
expect 3 "is mounted on" "$A" "${W[@]}" "$A"
expect 3 "is mounted on" "$A" "${W[@]}" --destructive "$A"
expect 3 "is mounted on" "$A" "${W[@]}" --destructive="$A" "$A"
expect 3 "is mounted on" "$A" "${W[@]}" --destructive="$T/link" "$T/link"
expect 3 "is mounted on" "$A" "${W[@]}" --destructive="$T/link" "$A"
unmount "$MNT" || fail "umount $MNT"
mount "$A" "$MNT" || fail "mount $A"
expect 3 "is mounted on" - "${W[@]}" --destructive="$A" "$A"
unmount "$MNT" || fail "umount $MNT"

# f) a symlink to a blank device: resolved on both sides.
zero "$A"
ln -s "$A" "$T/blank-link"
expect 0 "" - "${W[@]}" --destructive="$T/blank-link" "$A"
zero "$A"
expect 0 "" - "${W[@]}" --destructive="$A" "$T/blank-link"
zero "$A"
expect 0 "" - "${W[@]}" --destructive="$T/blank-link" "$T/blank-link"

# e) swap: a signature when not in use, never overridable while active.
zero "$A"
mkswap "$A" >/dev/null 2>&1 || fail "mkswap $A"
expect 3 "swap signature" "$A" "${W[@]}" --destructive "$A"
expect 0 "" - "${W[@]}" --destructive="$A" "$A"
mkswap "$A" >/dev/null 2>&1 || fail "mkswap $A"
at_exit "swapoff '$A' 2>/dev/null"
if swapon "$A" 2>/dev/null; then
	# The kernel may page out to it at any time: only the header page,
	# which a write test would hit first, must stay the same.
	head_before=$(sum_head "$A")
	expect 3 "is active swap" - "${W[@]}" --destructive "$A"
	expect 3 "is active swap" - "${W[@]}" --destructive="$A" "$A"
	[ "$(sum_head "$A")" = "$head_before" ] || fail "refused runs changed the swap header"
	swapoff "$A" || fail "swapoff $A"
else
	note "swapon is not permitted here: active-swap case skipped"
fi

# An exclusive claim by another program (what a mount in another mount
# namespace, or a running mkfs, looks like): never overridable.
zero "$A"
python3 -c 'import os, sys, time
fd = os.open(sys.argv[1], os.O_RDONLY | os.O_EXCL)
print("held", flush=True)
time.sleep(60)' "$A" >"$T/holder" 2>&1 &
holder=$!
# deferred expansion: by exit time the holder is gone and $holder empty
at_exit '[ -z "$holder" ] || { kill "$holder"; wait "$holder"; } 2>/dev/null'
for _ in $(seq 50); do
	grep -q held "$T/holder" && break
	sleep 0.1
done
if grep -q held "$T/holder"; then
	expect 3 "is in use" "$A" "${W[@]}" --destructive="$A" "$A"
else
	note "could not hold $A exclusively: in-use case skipped"
fi
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
holder=

# g) holders: a device-mapper target over the device.
if command -v dmsetup >/dev/null && dmsetup version >/dev/null 2>&1; then
	dm=diskbench-test-$$
	at_exit "dmsetup remove '$dm' 2>/dev/null"
	if echo "0 $(blockdev --getsz "$A") linear $A 0" | dmsetup create "$dm" 2>/dev/null; then
		expect 3 "held by" "$A" "${W[@]}" --destructive="$A" "$A"
		dmsetup remove "$dm" || fail "dmsetup remove $dm"
	else
		note "dmsetup create failed: holders case skipped"
	fi
else
	note "no device-mapper here (dmsetup missing or no kernel driver): holders case skipped"
fi

# d) a partition table with a mounted partition; the whole disk is given.
make_loop 32 zero "" -P
P=$LOOP_DEV
at_exit "unmount '$MNT'"
pt=no
if command -v sfdisk >/dev/null; then
	printf 'label: dos\nstart=2048, type=83\n' | sfdisk -q "$P" >/dev/null 2>&1 && pt=dos
elif command -v parted >/dev/null; then
	parted -s "$P" mklabel msdos mkpart primary ext4 1MiB 100% >/dev/null 2>&1 && pt=dos
fi
part=/sys/block/$LOOP_NAME/${LOOP_NAME}p1
# Kernels without the msdos parser ignore the table: let partx add it.
[ -e "$part" ] || partx -a "$P" >/dev/null 2>&1
for _ in $(seq 20); do
	[ -b "${P}p1" ] && break
	sleep 0.1
done
if [ "$pt" != dos ]; then
	note "neither sfdisk nor parted could write a partition table: partition case skipped"
elif [ ! -e "$part" ] || [ ! -b "${P}p1" ]; then
	note "no partition device ${P}p1 appeared: partition case skipped"
else
	mkfs.ext4 -q -F "${P}p1" || fail "mkfs.ext4 ${P}p1"
	mount -o ro "${P}p1" "$MNT" || fail "mount -o ro ${P}p1"
	expect 3 "${P}p1 is mounted on" "$P" "${W[@]}" --destructive="$P" "$P"
	expect 3 "is mounted on" "$P" "${W[@]}" --destructive "$P"
	expect 3 "is mounted on" "$P" "${W[@]}" --destructive="${P}p1" "${P}p1"
	unmount "$MNT" || fail "umount $MNT"
	expect 3 "dos partition table" "$P" "${W[@]}" --destructive "$P"
	expect 3 "names ${P}p1, not $P" "$P" "${W[@]}" --destructive="${P}p1" "$P"
	expect 3 "ext4 .*signature" "$P" "${W[@]}" --destructive "${P}p1"
	expect 0 "" - "${W[@]}" --destructive="$P" "$P"
fi

# h) an existing regular file: written only with --destructive.
F=$T/file.img
dd if=/dev/urandom of="$F" bs=1M count=8 status=none || fail "cannot write $F"
expect 3 "only written with --destructive" "$F" "${W[@]}" "$F"
before=$(sum "$F")
expect 0 "" - "${W[@]}" --destructive "$F"
[ "$(sum "$F")" != "$before" ] || fail "--destructive seq-write did not write $F"

# j) a file that backs a loop device: refused with plain --destructive,
# allowed only when named while the loop device is unused, never while
# it is mounted; a file with a file-system signature likewise.
F=$T/backing.img
dd if=/dev/zero of="$F" bs=1M count=16 status=none || fail "cannot write $F"
FL=$(losetup -f --show "$F") || fail "losetup $F"
at_exit "losetup -d '$FL' 2>/dev/null || true"
expect 3 "backs the loop device $FL; to overwrite it, name the file" "$F" "${W[@]}" --destructive "$F"
expect 3 "names $T/other, not $F" "$F" "${W[@]}" --destructive="$T/other" "$F"
expect 0 "" - "${W[@]}" --destructive="$F" "$F"
mkfs.ext4 -q -F "$FL" || fail "mkfs.ext4 $FL"
mount -o ro "$FL" "$MNT" || fail "mount -o ro $FL"
expect 3 "it backs $FL, and $FL is mounted on $MNT" "$F" "${W[@]}" --destructive="$F" "$F"
expect 3 "it backs $FL, and $FL is mounted" "$F" "${W[@]}" --destructive "$F"
unmount "$MNT" || fail "umount $MNT"
lib_detach_loop "$FL" || fail "losetup -d $FL"
expect 3 "ext4 file system signature found in it; to overwrite it, name the file" "$F" \
	"${W[@]}" --destructive "$F"
expect 0 "" - "${W[@]}" --destructive="$F" "$F"

# i) a directory: refused when the run would fill its file system.
FS=$T/tmpfs
mkdir "$FS"
at_exit "unmount '$FS'"
mount -t tmpfs -o size=64m tmpfs "$FS" || fail "mount tmpfs on $FS"
expect 3 "fill" - "${W[@]}" --size 60m "$FS"
[ -z "$(ls -A "$FS")" ] || fail "refused run left files in $FS: $(ls -A "$FS")"
expect 0 "" - "${W[@]}" --max-fill 99 --size 8m "$FS"
[ -z "$(ls -A "$FS")" ] || fail "scratch files left in $FS: $(ls -A "$FS")"

for n in "${NOTES[@]}"; do
	echo "note: $n"
done
exit 0
