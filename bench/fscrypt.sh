#!/bin/bash
# fscrypt.sh - what fscrypt encryption costs: the same ext4, a plain and an encrypted directory.
#
# Usage (root): [DISKBENCH=path] [PROFILES="devbuild quick"] [REPEAT=5] [RUNTIME=2s]
#               [SIZE_MIB=2048] [SET=256m] [DISKDIR=/var/tmp] [OUT=dir] bench/fscrypt.sh
#
# Seed 000's question ("does encryption slow my builds down, and by how
# much?"), answered end to end on one file system, so that nothing but the
# encryption differs: an ext4 made with -O encrypt on an image of SIZE_MIB
# under DISKDIR, on a loop device with direct I/O to its file (so O_DIRECT
# reaches the disk below, not the page cache), mounted privately; in it the
# directories plain/ and enc/, enc/ encrypted with a v2 fscrypt policy
# (tests/cli/fscrypt_dir.py: the kernel's ioctls, no fscrypt tool and no
# /etc/fscrypt.conf left behind).
#
# For each profile, `diskbench run --profile P --repeat REPEAT --runtime
# RUNTIME --size SET --buffered` runs on each directory, who goes first
# alternating. Buffered on both sides: without -o inlinecrypt the kernel
# serves O_DIRECT on an encrypted file through the page cache (diskbench
# then runs it buffered anyway), so only buffered I/O is the same path in
# both directories; drop-behind keeps the cache out of both. Alternating
# between profiles; `diskbench compare plain.json enc.json` prints the
# penalty per test: the ratio enc / plain with its 95 % interval and a
# verdict (REPEAT >= 5 gives the interval). The results and an HTML
# comparison per profile stay in OUT when it is given.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

PROFILES=${PROFILES:-devbuild quick}
REPEAT=${REPEAT:-5}
RUNTIME=${RUNTIME:-2s}
SIZE_MIB=${SIZE_MIB:-2048}
SET=${SET:-256m}
DISKDIR=${DISKDIR:-/var/tmp}
OUT=${OUT:-}

[ "$(id -u)" -eq 0 ] || { echo "fscrypt.sh: needs root (loop devices, mount)" >&2; exit 2; }
case $REPEAT$SIZE_MIB in
*[!0-9]*) echo "fscrypt.sh: REPEAT and SIZE_MIB are whole numbers" >&2; exit 2 ;;
esac
bench_diskbench
need_cmd python3 losetup mkfs.ext4 mount
[ -n "$OUT" ] && { mkdir -p "$OUT" || exit 1; }

make_tmpdir /dev/shm
WORK=$TMP_DIR
ddir=$(mktemp -d "$DISKDIR/diskbench-fscrypt.XXXXXX") || exit 1
at_exit "rm -rf -- '$ddir'"
echo "# an ext4 with -O encrypt on $SIZE_MIB MiB in $ddir ($(df --output=source,fstype "$ddir" | tail -1))"
make_loop "$SIZE_MIB" none "$ddir" --direct-io=on
mkfs.ext4 -q -F -O encrypt "$LOOP_DEV" || { echo "fscrypt.sh: mkfs.ext4 -O encrypt failed" >&2; exit 1; }
MNT=$WORK/mnt
mkdir "$MNT" && mount "$LOOP_DEV" "$MNT" || { echo "fscrypt.sh: cannot mount $LOOP_DEV" >&2; exit 1; }
at_exit "unmount '$MNT'"
mkdir "$MNT/plain" "$MNT/enc"
python3 "$HERE/../tests/cli/fscrypt_dir.py" "$MNT/enc"
case $? in
0) ;;
77) echo "fscrypt.sh: this kernel or file system cannot encrypt with fscrypt" >&2; exit 2 ;;
*) exit 1 ;;
esac
"$DISKBENCH" info "$MNT/enc" | grep -q "encryption" ||
	echo "# warning: diskbench info does not flag $MNT/enc as encrypted"

echo "# $("$DISKBENCH" --version | head -1); kernel $(uname -r), $(nproc) CPUs;" \
	"profiles $PROFILES, --repeat $REPEAT --runtime $RUNTIME --size $SET --buffered"
# what fscrypt's contents mode (AES-256-XTS) runs on: an AES-NI driver, or
# the kernel's generic C code, which is many times slower
echo "# the kernel's xts(aes): $(grep -A3 '^name *: xts(aes)$' /proc/crypto | sed -n 's/^driver *: //p' | head -1)"
first=plain
for p in $PROFILES; do
	second=enc
	[ "$first" = enc ] && second=plain
	for side in $first $second; do
		echo "# $p on $side/"
		"$DISKBENCH" run --profile "$p" --repeat "$REPEAT" --runtime "$RUNTIME" --size "$SET" \
			--buffered \
			--label "$p $side" --quiet --json "$WORK/$p-$side.json" "$MNT/$side" \
			2>"$WORK/$p-$side.err" ||
			{ echo "fscrypt.sh: $p on $side failed: $(tail -1 "$WORK/$p-$side.err")" >&2; exit 1; }
	done
	echo
	echo "== $p: encrypted / plain (ratio > 1 = the encrypted directory is faster)"
	"$DISKBENCH" compare ${OUT:+--html "$OUT/$p.html"} "$WORK/$p-plain.json" "$WORK/$p-enc.json"
	[ -n "$OUT" ] && cp "$WORK/$p-plain.json" "$WORK/$p-enc.json" "$OUT/"
	first=$second
done
[ -n "$OUT" ] && echo "# results and comparisons in $OUT"
exit 0
