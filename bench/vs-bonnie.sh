#!/bin/bash
# vs-bonnie.sh - diskbench vs bonnie++ in one directory: per-char, create/stat/delete, wall time.
#
# Usage: [DISKBENCH=path] [ROUNDS=3] [SIZE=256m] [FILES=1024] [DIR=/var/tmp] [RUNTIME=3s]
#        [STAT_RUNTIME=2s] [META_FS=fresh|dir] [WALL_SIZE=default] [WALL_ROUNDS=1]
#        [CHAR_MB=] [PARTS="char block meta wall"] [RESULTS=file.tsv] bench/vs-bonnie.sh
#
# Both tools work in one private directory made under DIR (removed on exit;
# part meta by default on a file system of its own, see META_FS). Every round
# runs each part with every tool back to back, and who goes first alternates
# between rounds. char and meta run ROUNDS rounds, wall WALL_ROUNDS (it is
# slow); the rounds go on while any part has rounds left. The tables show,
# per figure, the median over the rounds with the minimum and maximum beside
# it (create rates on ext4 can swing 10x between identical runs, for every
# tool), the number of rounds, and the ratio of the medians, diskbench /
# bonnie++.
#
# Both tools' numbers come from the same place: bonnie++'s CSV line (format
# 1.98), which bonnie++ prints with -q and diskbench writes with --bonnie-csv.
#
# char   per-char write and read, K/sec (fields 10 and 16):
#          bonnie++ -s SIZE -r SIZE/2 -n 0 [-f CHAR_MB]
#          diskbench --profile bonnie --test char-write,char-read --size SIZE
#                    --runtime RUNTIME --ramp 0 --char-mode syscall, and again with stdio
#        bonnie++ 2.00 does per-char with one-byte write() and read() system
#        calls ("Writing a byte at a time"; strace shows one syscall per byte),
#        not putc/getc as its readme.html still says, and over 3 MiB unless
#        -f N (MiB) says otherwise (the man page says 20M). So the equivalent
#        pair is diskbench --char-mode syscall vs bonnie++; diskbench's stdio
#        mode (the classic putc/getc, its default) is shown for information.
#        bonnie++ also runs its block, rewrite and seek tests here (they cannot
#        be turned off with per-char on); only the per-char fields are used.
# block  block write, rewrite, block read (K/sec, fields 12, 14, 18) and random
#        seeks (/sec, field 20), as root:
#          bonnie++ -s SIZE -r SIZE/2 -n 0 -f
#          diskbench --profile bonnie --test seq-write,rewrite,seq-read,seeks
#                    --size SIZE --runtime RUNTIME --ramp 0
#        each inside a memory cgroup (v1) limited to SIZE/2, so that the page
#        cache holds at most half of either tool's file, as bonnie++ wants
#        it (its file is twice the RAM it is told): without it bonnie++'s
#        256 MiB file would sit in this VM's 24 GiB of cache and its reads
#        would never reach the disk. diskbench does not need the limit (it
#        drops behind), but runs under the same one.
# meta   create/stat/delete, sequential and random order, files/sec (fields
#        27, 29, 31, 33, 35, 37):
#          bonnie++ -s 0 -n FILES
#          diskbench --profile bonnie --test meta-create,meta-delete,... --files FILES x 1024
#        FILES is bonnie++'s -n: N[:MAX[:MIN[:DIRS]]], N in multiples of 1024
#        files, sizes in bytes (diskbench gets --files, --file-size MIN-MAX,
#        --dirs). diskbench runs create and delete with a runtime of 10 min, so
#        they end when the files are done (the script checks that every file
#        was done), and stat for STAT_RUNTIME (it re-stats the files in the
#        test's order; bonnie++ stats each once). bonnie++ prints "+++++"
#        when a test takes under 500 ms, i.e. above FILES x 1024 / 0.5 files/sec:
#        those runs have no number; the table counts them. The default,
#        FILES=1024 (1 Mi empty files, ~4 min a round here), is the smallest
#        bonnie++ -n that gives a number for every file test on this VM (its
#        stat runs at ~600k files/s); at bonnie++'s own default (-n 16) only
#        its create tests have one.
#        META_FS says where meta runs:
#        fresh  (the default when the script runs as root and mkfs.ext4,
#               losetup and mount exist) a new ext4 before each tool's run:
#               a sparse image in the private directory (so on DIR's file
#               system; 4 GiB, more if FILES' sizes need it), mkfs.ext4 with
#               its defaults (journal on, as a user's ext4 has) plus -q -F
#               -E lazy_itable_init=0,lazy_journal_init=0 (no background init
#               thread during the run) -N 2.2 x files + 1000, mounted with
#               mount -o loop on a private mount point, unmounted after the run.
#               Why: ext4 without a journal (this project's /var/tmp) skips
#               inodes deleted in the last 60 s (300 s if their inode-table
#               block is dirty; fs/ext4/ialloc.c recently_deleted()), so a
#               create run after a big delete (the other tool's, or its own
#               previous test's) was up to 2-3x slower: an order effect of the
#               file system's state, not of the tool.
#        dir    in the private directory under DIR itself (the old way); the
#               header warns when that is ext4 without a journal.
# wall   the whole suite's wall time (/usr/bin/time %e), lower is better, by
#        default each tool's real default:
#          bonnie++          (no -s, no -r: a file of 2 x RAM; -n 16, per-char)
#          diskbench --profile bonnie   (no --size: 1 GiB; 5 s + 1 s ramp per test)
#        bonnie++'s default run takes minutes (about 4 min for 2 x 24 GiB on
#        this project's VM), so wall runs WALL_ROUNDS rounds; before any run
#        the script checks that DIR has room for 2 x RAM + 10 %. WALL_SIZE=SIZE
#        gives both tools that size instead (bonnie++ -s SIZE -r SIZE/2, as it
#        refuses less than 2 x -r; diskbench --size SIZE), and the summary then
#        adds a lower bound for bonnie++'s real default's wall time. Also
#        counted: the tests of each CSV line that have a number, and the "+++++"
#        fields (diskbench must have none).
#
# The tools run as root when the script does (bonnie++ -u root).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

ROUNDS=${ROUNDS:-3}
SIZE=${SIZE:-256m}
FILES=${FILES:-1024}
DIR=${DIR:-/var/tmp}
RUNTIME=${RUNTIME:-3s}
STAT_RUNTIME=${STAT_RUNTIME:-2s}
WALL_SIZE=${WALL_SIZE:-default}
WALL_ROUNDS=${WALL_ROUNDS:-1}
META_FS=${META_FS:-}
CHAR_MB=${CHAR_MB:-}
PARTS=${PARTS:-char block meta wall}
RESULTS=${RESULTS:-}

bench_diskbench

command -v bonnie++ >/dev/null || apt_install bonnie++
[ -x /usr/bin/time ] || apt_install time
need_cmd python3

for p in $PARTS; do
	case $p in
	char | block | meta | wall) ;;
	*) echo "vs-bonnie.sh: unknown part '$p' (char, block, meta, wall)" >&2; exit 2 ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "vs-bonnie.sh: bad ROUNDS '$ROUNDS'" >&2; exit 2; }
[[ $WALL_ROUNDS =~ ^[1-9][0-9]*$ ]] ||
	{ echo "vs-bonnie.sh: bad WALL_ROUNDS '$WALL_ROUNDS'" >&2; exit 2; }
[ -z "$CHAR_MB" ] || [[ $CHAR_MB =~ ^[1-9][0-9]*$ ]] ||
	{ echo "vs-bonnie.sh: bad CHAR_MB '$CHAR_MB' (MiB)" >&2; exit 2; }


mib()	# mib SIZE NAME [ALSO]: 256m, 1g, 1GiB -> whole MiB (bonnie++ -s takes MiB)
{
	python3 -c 'import re, sys
m = re.fullmatch(r"([0-9]+)([kmgt]|[KMGT]iB)?", sys.argv[1])
if not m:
    sys.exit("vs-bonnie.sh: bad " + sys.argv[2] + " \x27" + sys.argv[1] + "\x27 ("
             + sys.argv[3] + "e.g. 256m, 1g)")
u = (m.group(2) or "m")[0].lower()
b = int(m.group(1)) * 1024 ** "kmgt".index(u) * 1024
if b % 2**20 or b < 2 * 2**20:
    sys.exit("vs-bonnie.sh: " + sys.argv[2] + " " + sys.argv[1]
             + " is not a whole number of MiB >= 2")
print(b // 2**20)' "$1" "$2" "${3:-}"
}

RUNTIME_S=$(secs "$RUNTIME") || exit 2
STAT_S=$(secs "$STAT_RUNTIME") || exit 2
SIZE_MB=$(mib "$SIZE" SIZE) || exit 2
WALL_MB=	# empty: each tool's default size
[ "$WALL_SIZE" = default ] || WALL_MB=$(mib "$WALL_SIZE" WALL_SIZE "default, or a size, ") || exit 2
RAM_MB=$(($(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024))
has_part() { [[ " $PARTS " == *" $1 "* ]]; }

# META_FS: fresh needs root and the tools to make and mount an ext4 image.
fresh_ok=
[ "$(id -u)" -eq 0 ] && command -v mkfs.ext4 >/dev/null && command -v losetup >/dev/null &&
	command -v mount >/dev/null && command -v mountpoint >/dev/null && fresh_ok=1
META_FS_NOTE=
case $META_FS in
'')
	if [ -n "$fresh_ok" ]; then
		META_FS=fresh
	else
		META_FS=dir
		META_FS_NOTE="META_FS=dir: a fresh ext4 per run needs root, mkfs.ext4, losetup, mount"
	fi ;;
fresh)
	[ -n "$fresh_ok" ] || { echo "vs-bonnie.sh: META_FS=fresh needs root and mkfs.ext4," \
		"losetup, mount, mountpoint (or use META_FS=dir)" >&2; exit 2; } ;;
dir) ;;
*) echo "vs-bonnie.sh: bad META_FS '$META_FS' (fresh or dir)" >&2; exit 2 ;;
esac

# FILES = N[:MAX[:MIN[:DIRS]]] (bonnie++ -n) -> diskbench options
IFS=: read -r F_N F_MAX F_MIN F_DIRS F_EXTRA <<<"$FILES"
[[ $F_N =~ ^[1-9][0-9]*$ ]] && [[ ${F_MAX:-0} =~ ^[0-9]+$ ]] && [[ ${F_MIN:-0} =~ ^[0-9]+$ ]] &&
	[[ ${F_DIRS:-1} =~ ^[1-9][0-9]*$ ]] && [ -z "$F_EXTRA" ] ||
	{ echo "vs-bonnie.sh: bad FILES '$FILES' (N[:MAX[:MIN[:DIRS]]], N x 1024 files)" >&2; exit 2; }
F_MAX=${F_MAX:-0}
F_MIN=${F_MIN:-0}
[ "$F_MIN" -le "$F_MAX" ] || { echo "vs-bonnie.sh: FILES: MIN > MAX" >&2; exit 2; }
META_ARGS=(--files $((F_N * 1024)) --dirs "${F_DIRS:-1}")
if [ "$F_MIN" = "$F_MAX" ]; then
	META_ARGS+=(--file-size "$F_MIN")
else
	META_ARGS+=(--file-size "$F_MIN-$F_MAX")
fi

# The fresh file system for meta: inodes for every file and directory with
# room to spare, and an image of 4 GiB, or twice the files' data + 1 GiB.
META_INODES=$((F_N * 1024 * 22 / 10 + 1000))
META_DATA_MB=$(((F_N * 1024 * ((F_MAX + 4095) / 4096) * 4096 + 2 ** 20 - 1) / 2 ** 20))
META_IMG_MB=$((2 * META_DATA_MB + 1024))
[ "$META_IMG_MB" -ge 4096 ] || META_IMG_MB=4096

# bonnie++ refuses to run as root unless told which user to be.
BONNIE_USER=()
[ "$(id -u)" -eq 0 ] && BONNIE_USER=(-u root)

# Scratch for results in RAM; the benchmarked directory gets only the tools' files.
make_tmpdir /dev/shm
OUT=$TMP_DIR
[ -d "$DIR" ] && [ -w "$DIR" ] ||
	{ echo "vs-bonnie.sh: DIR=$DIR is not a writable directory" >&2; exit 2; }
DIR_FREE_MB=$(($(df -P -k "$DIR" | awk 'NR == 2 { print $4 }') / 1024))
if has_part wall && [ -z "$WALL_MB" ]; then
	# bonnie++'s default file: 2 x RAM, as it reads the RAM (the MemTotal we read)
	need=$((2 * RAM_MB * 11 / 10))
	[ "$DIR_FREE_MB" -ge "$need" ] || {
		echo "vs-bonnie.sh: WALL_SIZE=default: bonnie++'s default file is 2 x RAM =" \
			"$((2 * RAM_MB)) MiB, but DIR=$DIR has $DIR_FREE_MB MiB free (needs $need MiB:" \
			"2 x RAM + 10 %); use a DIR with room or give WALL_SIZE (e.g. 1g)" >&2
		exit 2
	}
fi
if has_part meta && [ "$META_FS" = fresh ]; then
	need=$((META_DATA_MB + 1024))	# the files, the journal and the inode tables
	[ "$DIR_FREE_MB" -ge "$need" ] || {
		echo "vs-bonnie.sh: META_FS=fresh: the meta image needs about $need MiB in" \
			"DIR=$DIR, which has $DIR_FREE_MB MiB free" >&2
		exit 2
	}
fi

# TOP (private, under DIR): work/ where the tools run, meta.img (META_FS=fresh).
TOP=$(mktemp -d "$DIR/diskbench-vs-bonnie.XXXXXX") || exit 1
at_exit "rm -rf -- '$TOP'"
WORK=$TOP/work
mkdir "$WORK" || exit 1
META_DIR=$WORK	# where meta runs; the fresh file system's mount point when mounted
META_IMG=$TOP/meta.img
META_MNT=
META_MOUNTS=0

ROWS=$OUT/runs.tsv
printf 'part\tmetric\ttool\tround\tvalue\n' >"$ROWS"

row()	# row PART METRIC TOOL ROUND VALUE
{
	printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$ROWS"
}

# csv_fields FILE N...: the fields N (1-based) of the bonnie++ CSV line in FILE, tab-separated
csv_fields()
{
	local f=$1
	shift
	python3 - "$f" "$@" <<'EOF'
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.startswith("1.98,")]
if not lines:
    sys.exit(1)
v = lines[-1].split(",")
if len(v) != 50:
    sys.exit(1)
print("\t".join(v[int(n) - 1] for n in sys.argv[2:]))
EOF
}

# clean [DIR]: nothing of a run may be left for the next (each tool removes
# its own files; this catches a crash). The directory (default WORK) is ours
# alone; a fresh file system keeps its lost+found.
clean()
{
	find "${1:-$WORK}" -mindepth 1 -maxdepth 1 ! -name lost+found -exec rm -rf -- {} + 2>/dev/null
}

# fs_journal PATH: "journal" or "no journal" when PATH is on ext4 (or ext2/3
# run by the ext4 driver), nothing when that cannot be told.
fs_journal()
{
	local mm name j
	mm=$(findmnt -n -o MAJ:MIN -T "$1" 2>/dev/null | tr -d ' ') && [ -n "$mm" ] || return 0
	name=$(basename "$(readlink -f "/sys/dev/block/$mm" 2>/dev/null)") || return 0
	j=$(cat "/sys/fs/ext4/$name/journal_task" 2>/dev/null) || return 0
	case $j in
	'<none>') echo "no journal" ;;
	'') ;;
	*) echo journal ;;
	esac
}

# ---- META_FS=fresh: a new ext4 on a loop image before each tool's meta run

# meta_fs_release: unmount the fresh file system and detach its loop device,
# if there are any; safe at any time (also from the exit trap).
meta_fs_release()
{
	local i devs d
	[ -n "$META_MNT" ] || return 0
	META_DIR=$WORK
	if mountpoint -q "$META_MNT"; then
		for i in 1 2 3 4 5 6 7 8 9 10; do
			umount "$META_MNT" 2>/dev/null && break
			sleep 0.3
		done
		if mountpoint -q "$META_MNT"; then
			msg "warning: $META_MNT is busy, unmounting it lazily"
			umount -l "$META_MNT"
		fi
	fi
	[ -e "$META_IMG" ] || return 0
	# mount -o loop's device detaches itself on unmount (autoclear), a moment later
	for i in 1 2 3 4 5 6 7 8 9 10; do
		devs=$(losetup -n -O NAME -j "$META_IMG" 2>/dev/null)
		[ -z "$devs" ] && return 0
		sleep 0.2
	done
	for d in $devs; do
		lib_detach_loop "$d"
	done
}

# meta_fs_make: a new ext4 on the image, mounted; META_DIR is then its root.
meta_fs_make()
{
	local dev name j
	meta_fs_release
	if [ -z "$META_MNT" ]; then
		META_MNT=$(mktemp -d "${TMPDIR:-/tmp}/diskbench-vs-bonnie-mnt.XXXXXX") || exit 1
		at_exit "meta_fs_release; rmdir -- '$META_MNT'"
		truncate -s "${META_IMG_MB}M" "$META_IMG" || exit 1
	fi
	# discard (the default) punches the old file system's blocks out of the image
	mkfs.ext4 -q -F -N "$META_INODES" -E lazy_itable_init=0,lazy_journal_init=0 \
		"$META_IMG" >"$OUT/mkfs" 2>&1 ||
		{ msg "mkfs.ext4 on $META_IMG failed: $(tail -1 "$OUT/mkfs") (META_FS=dir avoids it)"; exit 1; }
	mount -o loop "$META_IMG" "$META_MNT" 2>"$OUT/mount" ||
		{ msg "mount -o loop $META_IMG failed: $(tail -1 "$OUT/mount") (META_FS=dir avoids it)"; exit 1; }
	META_DIR=$META_MNT
	META_MOUNTS=$((META_MOUNTS + 1))
	if [ "$META_MOUNTS" -eq 1 ]; then
		dev=$(findmnt -n -o SOURCE "$META_MNT")
		name=$(basename "$dev")
		j=$(cat "/sys/fs/ext4/$name/journal_task" 2>/dev/null) || j='?'
		echo "# meta fs: $(findmnt -n -o FSTYPE "$META_MNT") on $dev," \
			"$(df --output=itotal "$META_MNT" | tail -1 | tr -d ' ') inodes," \
			"$(($(df -P -k "$META_MNT" | awk 'NR == 2 { print $2 }') / 1024)) MiB," \
			"journal_task: $j"
	fi
}

meta_begin()	# before a tool's meta run
{
	if [ "$META_FS" = fresh ]; then
		meta_fs_make
	fi
}

meta_end()	# after a tool's meta run
{
	clean "$META_DIR"
	[ "$META_FS" = fresh ] && meta_fs_release
}

# fail_run TOOL PART ROUND STATUS ERRFILE
fail_run()
{
	echo "# $1 $2 round $3 failed (exit $4): $(tail -1 "$5")"
}

# ---- part char ---------------------------------------------------------

char_bonnie()	# char_bonnie ROUND
{
	local csv=$OUT/b.csv st v putc getc
	local fopt=()

	[ -n "$CHAR_MB" ] && fopt=("-f$CHAR_MB")
	bonnie++ -d "$WORK" -s "$SIZE_MB" -r $((SIZE_MB / 2)) -n 0 "${BONNIE_USER[@]}" -q \
		"${fopt[@]}" >"$csv" 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run bonnie++ char "$1" "$st" "$OUT/err"; return; }
	v=$(csv_fields "$csv" 10 16) || { echo "# bonnie++ char round $1: no CSV line"; return; }
	IFS=$'\t' read -r putc getc <<<"$v"
	row char putc bonnie++ "$1" "$putc"
	row char getc bonnie++ "$1" "$getc"
}

char_diskbench()	# char_diskbench MODE ROUND
{
	local csv=$OUT/d.csv st v putc getc

	rm -f "$csv"
	"$DISKBENCH" --profile bonnie --test char-write,char-read --char-mode "$1" \
		--size "$SIZE" --runtime "$RUNTIME" --ramp 0 --bonnie-csv "$csv" --quiet \
		"$WORK" >/dev/null 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run "diskbench-$1" char "$2" "$st" "$OUT/err"; return; }
	v=$(csv_fields "$csv" 10 16) || { echo "# diskbench-$1 char round $2: no CSV line"; return; }
	IFS=$'\t' read -r putc getc <<<"$v"
	row char putc "diskbench-$1" "$2" "$putc"
	row char getc "diskbench-$1" "$2" "$getc"
}

# ---- part block --------------------------------------------------------

BLOCK_NAMES=(block-write rewrite block-read seeks)
BLOCK_CG=

# block_cgroup: a memory cgroup of SIZE/2 for the block part's runs
block_cgroup()
{
	local root=/sys/fs/cgroup/memory
	[ -n "$BLOCK_CG" ] && return 0
	[ -e "$root/cgroup.procs" ] || { echo "vs-bonnie.sh: block needs cgroup v1 memory at $root" >&2; exit 2; }
	BLOCK_CG=$root/diskbench-vs-bonnie-$$
	mkdir "$BLOCK_CG" || exit 1
	at_exit "lib_remove_cgroup '$BLOCK_CG'"
	echo $((SIZE_MB / 2 * 1048576)) >"$BLOCK_CG/memory.limit_in_bytes" || exit 1
}

# block_run TOOL ROUND CSV CMD...: CMD in the cgroup, its CSV fields as rows
block_run()
{
	local tool=$1 round=$2 csv=$3 st v i
	shift 3
	block_cgroup
	rm -f "$csv"
	sync
	echo 3 >/proc/sys/vm/drop_caches
	run_in_cgroup "$BLOCK_CG" "$@" >"$OUT/out" 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run "$tool" block "$round" "$st" "$OUT/err"; return; }
	[ "$tool" = bonnie++ ] && cp "$OUT/out" "$csv"
	v=$(csv_fields "$csv" 12 14 18 20) || { echo "# $tool block round $round: no CSV line"; return; }
	IFS=$'\t' read -ra v <<<"$v"
	for i in 0 1 2 3; do
		row block "${BLOCK_NAMES[i]}" "$tool" "$round" "${v[i]}"
	done
}

block_bonnie()	# block_bonnie ROUND
{
	block_run bonnie++ "$1" "$OUT/bb.csv" bonnie++ -d "$WORK" -s "$SIZE_MB" \
		-r $((SIZE_MB / 2)) -n 0 -f "${BONNIE_USER[@]}" -q
}

block_diskbench()	# block_diskbench ROUND
{
	block_run diskbench "$1" "$OUT/db.csv" "$DISKBENCH" --profile bonnie \
		--test seq-write,rewrite,seq-read,seeks --size "$SIZE" --runtime "$RUNTIME" \
		--ramp 0 --bonnie-csv "$OUT/db.csv" --quiet "$WORK"
}

# ---- part meta ---------------------------------------------------------

META_NAMES=(seq-create seq-stat seq-delete rand-create rand-stat rand-delete)

meta_bonnie()	# meta_bonnie ROUND
{
	local csv=$OUT/b.csv st v i vals

	meta_begin
	bonnie++ -d "$META_DIR" -s 0 -n "$FILES" "${BONNIE_USER[@]}" -q >"$csv" 2>"$OUT/err"
	st=$?
	meta_end
	[ "$st" -eq 0 ] || { fail_run bonnie++ meta "$1" "$st" "$OUT/err"; return; }
	v=$(csv_fields "$csv" 27 29 31 33 35 37) ||
		{ echo "# bonnie++ meta round $1: no CSV line"; return; }
	IFS=$'\t' read -r -a vals <<<"$v"
	for i in 0 1 2 3 4 5; do
		row meta "${META_NAMES[i]}" bonnie++ "$1" "${vals[i]}"
	done
}

# Two runs (on one fresh file system): create and delete end when the files
# are done (the runtime is only a cap); stat is time-based, so it gets a short
# runtime of its own.
meta_diskbench()	# meta_diskbench ROUND
{
	local st v w vals short
	local cd=$OUT/d1.csv cj=$OUT/d1.json sd=$OUT/d2.csv

	rm -f "$cd" "$cj" "$sd"
	meta_begin
	"$DISKBENCH" --profile bonnie \
		--test meta-create,meta-delete,meta-create-rand,meta-delete-rand "${META_ARGS[@]}" \
		--runtime 10m --ramp 0 --bonnie-csv "$cd" --json "$cj" --quiet \
		"$META_DIR" >/dev/null 2>"$OUT/err"
	st=$?
	clean "$META_DIR"
	[ "$st" -eq 0 ] ||
		{ meta_end; fail_run diskbench "meta create/delete" "$1" "$st" "$OUT/err"; return; }
	"$DISKBENCH" --profile bonnie --test meta-stat,meta-stat-rand "${META_ARGS[@]}" \
		--runtime "$STAT_RUNTIME" --ramp 0 --bonnie-csv "$sd" --quiet \
		"$META_DIR" >/dev/null 2>"$OUT/err"
	st=$?
	meta_end
	[ "$st" -eq 0 ] || { fail_run diskbench "meta stat" "$1" "$st" "$OUT/err"; return; }
	short=$(json "$cj" "' '.join('%s:%d' % (t['name'], t['ops']) for t in d['tests']
		if t['ops'] != $((F_N * 1024)))")
	[ -n "$short" ] && echo "# diskbench meta round $1: not every file done (time-bound): $short"
	v=$(csv_fields "$cd" 27 31 33 37) && w=$(csv_fields "$sd" 29 35) ||
		{ echo "# diskbench meta round $1: no CSV line"; return; }
	v+=$'\t'$w
	# columns: create delete create-rand delete-rand stat stat-rand
	IFS=$'\t' read -r -a vals <<<"$v"
	row meta seq-create diskbench "$1" "${vals[0]}"
	row meta seq-stat diskbench "$1" "${vals[4]}"
	row meta seq-delete diskbench "$1" "${vals[1]}"
	row meta rand-create diskbench "$1" "${vals[2]}"
	row meta rand-stat diskbench "$1" "${vals[5]}"
	row meta rand-delete diskbench "$1" "${vals[3]}"
}

# ---- part wall ---------------------------------------------------------

# wall_counts CSV TOOL ROUND: tests with a number (of 12), "+++++" fields, fields with a "+"
wall_counts()
{
	local v
	v=$(python3 - "$1" <<'EOF'
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.startswith("1.98,")]
v = lines[-1].split(",")
rates = [v[i - 1] for i in (10, 12, 14, 16, 18, 20, 27, 29, 31, 33, 35, 37)]
def number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False
print("%d\t%d\t%d" % (sum(map(number, rates)), sum(f.strip() == "+++++" for f in v),
                     sum("+" in f for f in v)))
EOF
	) || { echo "# $2 wall round $3: no CSV line"; return 1; }
	row wall tests-with-number "$2" "$3" "$(cut -f1 <<<"$v")"
	row wall plus-fields "$2" "$3" "$(cut -f2 <<<"$v")"
	row wall any-plus "$2" "$3" "$(cut -f3 <<<"$v")"
}

wall_bonnie()	# wall_bonnie ROUND
{
	local csv=$OUT/b.csv st
	local size=()

	[ -n "$WALL_MB" ] && size=(-s "$WALL_MB" -r $((WALL_MB / 2)))
	/usr/bin/time -f %e -o "$OUT/time" bonnie++ -d "$WORK" "${size[@]}" \
		"${BONNIE_USER[@]}" -q >"$csv" 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run bonnie++ wall "$1" "$st" "$OUT/err"; return; }
	row wall wall-s bonnie++ "$1" "$(tail -1 "$OUT/time")"
	wall_counts "$csv" bonnie++ "$1"
	cp "$csv" "$OUT/wall-bonnie.csv"
}

wall_diskbench()	# wall_diskbench ROUND
{
	local csv=$OUT/d.csv st
	local size=()

	rm -f "$csv"
	[ -n "$WALL_MB" ] && size=(--size "$WALL_SIZE")
	/usr/bin/time -f %e -o "$OUT/time" "$DISKBENCH" --profile bonnie "${size[@]}" \
		--bonnie-csv "$csv" --json "$OUT/wall.json" --quiet "$WORK" >/dev/null 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run diskbench wall "$1" "$st" "$OUT/err"; return; }
	row wall wall-s diskbench "$1" "$(tail -1 "$OUT/time")"
	wall_counts "$csv" diskbench "$1"
	# its block-write rate, for the lower bound of bonnie++'s real default
	[ -n "$WALL_MB" ] && row wall seq-write-MBps diskbench "$1" "$(json "$OUT/wall.json" \
		"[t['bytes_per_sec'] / 1e6 for t in d['tests'] if t['workload'] == 'seq-write'][0]")"
	cp "$csv" "$OUT/wall-diskbench.csv"
}

# ---- the rounds --------------------------------------------------------

# Rounds per part, and of the loop: until every part has had its rounds.
part_rounds()	# part_rounds PART
{
	if [ "$1" = wall ]; then echo "$WALL_ROUNDS"; else echo "$ROUNDS"; fi
}
NROUNDS=0
for p in $PARTS; do
	n=$(part_rounds "$p")
	[ "$n" -gt "$NROUNDS" ] && NROUNDS=$n
done

# Seconds per round on this project's 2-core VM (ext4 on virtio), for the
# estimate; bonnie++'s default wall run took 226 s there for its 2 x 24104 MiB
# file, and scales here with the RAM.
est=$(python3 - "$PARTS" "$SIZE_MB" "$RUNTIME_S" "$F_N" "$STAT_S" "${WALL_MB:-0}" "$ROUNDS" \
	"$WALL_ROUNDS" "$RAM_MB" "$META_FS" <<'EOF'
import sys
parts, mfs = sys.argv[1].split(), sys.argv[10]
size, rt, n, st, wall, rounds, wrounds, ram = map(float, sys.argv[2:10])
t = tw = bdef = 0
if "char" in parts:
    t += 3 + size / 100 + 2 * (2 * rt + 1)
if "block" in parts:
    t += 2 * (size / 50 + 4 * rt + 2)
if "meta" in parts:
    t += 3 * n / 16 + 2 + 2 * st + 2 * n / 16 + (1 if mfs == "fresh" else 0)
if "wall" in parts:
    if wall:
        tw = 8 * wall / 1024 + 57 + 3 * wall / 1024
    else:
        bdef = 226 * 2 * ram / 48208
        tw = bdef + 57 + 3
print("about %.1f min" % ((t * rounds + tw * wrounds) / 60)
      + (" (bonnie++'s default run: ~%.0f min of that per wall round)" % (bdef / 60)
         if bdef else ""))
EOF
)
bver=$(dpkg-query -W -f '${Version}' bonnie++ 2>/dev/null || echo '?')
echo "# $("$DISKBENCH" --version | head -1) vs bonnie++ $bver; kernel $(uname -r), $(nproc) CPUs," \
	"$RAM_MB MiB RAM"
j=$(fs_journal "$WORK")
echo "# in $WORK ($(df --output=source,fstype "$WORK" | tail -1 | tr -s ' ')${j:+, $j})"
if has_part meta; then
	if [ "$META_FS" = fresh ]; then
		echo "# meta on a fresh ext4 (journal) on a loop image in $TOP, made anew before each" \
			"tool's run (mkfs.ext4 -N $META_INODES, $META_IMG_MB MiB sparse; META_FS=fresh)"
	else
		echo "# meta in $WORK itself (META_FS=dir)"
		[ -n "$META_FS_NOTE" ] && echo "# note: $META_FS_NOTE"
		[ "$j" = "no journal" ] && echo "# WARNING: ext4 without a journal: it skips inodes" \
			"deleted in the last 60-300 s, so a create run after a big delete (the other" \
			"tool's, or its own) is slower, an order effect; META_FS=fresh avoids it"
	fi
fi
if has_part wall; then
	if [ -n "$WALL_MB" ]; then
		wall_how="both at WALL_SIZE=$WALL_SIZE"
	else
		wall_how="each tool's default size (bonnie++: 2 x RAM, ~$((2 * RAM_MB)) MiB;"
		wall_how+=" diskbench: its default)"
	fi
	echo "# wall: $wall_how"
fi
rounds_how=
for p in $PARTS; do
	rounds_how+="$p $(part_rounds "$p"), "
done
echo "# rounds: ${rounds_how%, }; SIZE=$SIZE FILES=$FILES RUNTIME=$RUNTIME" \
	"STAT_RUNTIME=$STAT_RUNTIME WALL_SIZE=$WALL_SIZE${CHAR_MB:+ CHAR_MB=$CHAR_MB}" \
	"META_FS=$META_FS; $est"

for ((round = 1; round <= NROUNDS; round++)); do
	for part in $PARTS; do
		[ "$round" -le "$(part_rounds "$part")" ] || continue
		case $part in
		char)
			if ((round % 2)); then
				char_bonnie "$round"
				char_diskbench syscall "$round"
				char_diskbench stdio "$round"
			else
				char_diskbench stdio "$round"
				char_diskbench syscall "$round"
				char_bonnie "$round"
			fi
			;;
		block)
			if ((round % 2)); then
				block_bonnie "$round"
				block_diskbench "$round"
			else
				block_diskbench "$round"
				block_bonnie "$round"
			fi
			;;
		meta)
			if ((round % 2)); then
				meta_bonnie "$round"
				meta_diskbench "$round"
			else
				meta_diskbench "$round"
				meta_bonnie "$round"
			fi
			;;
		wall)
			if ((round % 2)); then
				wall_bonnie "$round"
				wall_diskbench "$round"
			else
				wall_diskbench "$round"
				wall_bonnie "$round"
			fi
			;;
		esac
	done
	echo "# round $round of $NROUNDS done"
done

[ -n "$RESULTS" ] && cp "$ROWS" "$RESULTS" && echo "# per-run rows saved in $RESULTS"

python3 - "$ROWS" "$F_N" "$OUT" "$(awk '/MemTotal/ { print $2 }' /proc/meminfo)" \
	"$ROUNDS" "$WALL_ROUNDS" "$WALL_MB" "$PARTS" <<'EOF'
import csv, os, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
files = int(sys.argv[2]) * 1024
out = sys.argv[3]
ram = int(sys.argv[4]) * 1024
rounds = {"char": int(sys.argv[5]), "block": int(sys.argv[5]), "meta": int(sys.argv[5]),
          "wall": int(sys.argv[6])}
wall_size_given = sys.argv[7] != ""

def vals(part, metric, tool):
    return [r["value"] for r in rows
            if r["part"] == part and r["metric"] == metric and r["tool"] == tool]

def nums(v):
    o = []
    for s in v:
        try:
            o.append(float(s))
        except ValueError:
            pass
    return o

def stat(part, metric, tool):
    """(median, min, max, runs with a number, rounds of the part)"""
    v = vals(part, metric, tool)
    n = nums(v)
    if not n:
        return (None, None, None, 0, rounds[part])
    return (statistics.median(n), min(n), max(n), len(n), rounds[part])

def fmt(x, w=10):
    if x is None:
        return "%*s" % (w, "-")
    if abs(x) >= 100 or x == int(x):
        return "%*.0f" % (w, x)
    return "%*.2f" % (w, x)

def cell(s, w=10):
    med, lo, hi, n, total = s
    if med is None:
        return "%*s %-21s" % (w, "-", "(no number in %d)" % total)
    # n/total: only n of the rounds gave a number (failed, or bonnie++'s +++++)
    extra = "" if n == total else " %d/%d" % (n, total)
    return "%s %-21s" % (fmt(med, w), "[%s-%s]%s" % (fmt(lo, 0), fmt(hi, 0), extra))

def ratio(a, b):
    if a[0] is None or b[0] is None or not b[0]:
        return "     -"
    return "%6.3f" % (a[0] / b[0])

parts = sys.argv[8].split()

LINE = "%-17s %-19s %s %s %s"
hdr = LINE % ("test", "diskbench mode", "%10s %-21s" % ("diskbench", "[min-max]"),
              "%10s %-21s" % ("bonnie++", "[min-max]"), " ratio")
print()
if "char" in parts:
    print("per-char, K/sec (1024 B/s), higher is better; median of %d round(s); ratio ="
          " diskbench / bonnie++ (medians)" % rounds["char"])
    print(hdr)
    for m, what in (("putc", "write"), ("getc", "read")):
        b = stat("char", m, "bonnie++")
        for mode, note in (("syscall", "equivalent"), ("stdio", "info")):
            d = stat("char", m, "diskbench-" + mode)
            print(LINE % ("char-" + what, "--char-mode " + mode, cell(d), cell(b),
                          ratio(d, b)) + "  " + note)
    print("equivalent: both do one-byte write()/read() system calls (bonnie++ 2.00's per-char);"
          " info: diskbench's putc/getc through stdio, not what bonnie++ 2.00 measures")
    print()
if "block" in parts:
    print("block tests, K/sec (1024 B/s; seeks: /sec), higher is better; median of %d"
          " round(s), page cache limited to half the file; ratio = diskbench / bonnie++"
          " (medians)" % rounds["block"])
    print(hdr)
    for m in ("block-write", "rewrite", "block-read", "seeks"):
        d, b = stat("block", m, "diskbench"), stat("block", m, "bonnie++")
        print(LINE % (m, "bonnie profile", cell(d), cell(b), ratio(d, b)))
    print()
if "meta" in parts:
    print("create/stat/delete of %d files, files/sec, higher is better; median of %d"
          " round(s); ratio = diskbench / bonnie++ (medians)" % (files, rounds["meta"]))
    print(hdr)
    for m in ("seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"):
        d = stat("meta", m, "diskbench")
        b = stat("meta", m, "bonnie++")
        plus = sum(1 for s in vals("meta", m, "bonnie++") if s.startswith("+"))
        note = ("bonnie++ +++++ in %d/%d (> %d/s)" % (plus, len(vals("meta", m, "bonnie++")),
                                                      files * 2)) if plus else ""
        print(LINE % (m, "", cell(d), cell(b), ratio(d, b)) + "  " + note)
    print("bonnie++ prints +++++ for a test under 500 ms: no number, only a lower bound"
          " (files / 0.5 s); medians use the runs with a number")
    print()
if "wall" in parts:
    print("whole suite (%s): wall time (s), lower is better; tests with a number (of 12);"
          " '+++++' fields in the CSV line; median of %d round(s)"
          % ("both at one size" if wall_size_given else "each tool's default",
             rounds["wall"]))
    print(hdr)
    d, b = stat("wall", "wall-s", "diskbench"), stat("wall", "wall-s", "bonnie++")
    print(LINE % ("wall-seconds", "--profile bonnie", cell(d), cell(b), ratio(d, b)))
    for m in ("tests-with-number", "plus-fields"):
        d, b = stat("wall", m, "diskbench"), stat("wall", m, "bonnie++")
        print(LINE % (m, "", cell(d), cell(b), ""))
    sizes = []
    for tool, f in (("diskbench", "diskbench"), ("bonnie++", "bonnie")):
        p = os.path.join(out, "wall-%s.csv" % f)
        if os.path.exists(p):
            line = open(p).read().strip().splitlines()[-1]
            print("last %s line: %s" % (tool, line))
            sizes.append("%s %s" % (tool, line.split(",")[5]))
    if sizes:
        print("file size (CSV field 6): " + ", ".join(sizes))
    dp = nums(vals("wall", "any-plus", "diskbench"))
    if dp:
        print("diskbench fields with a '+' over all rounds: %d%s"
              % (sum(dp), "" if not sum(dp) else "  <-- FAIL: must be 0"))
    w = stat("wall", "seq-write-MBps", "diskbench")
    if wall_size_given and w[0]:
        size = 2 * ram
        print("bonnie++'s real default (-s 2 x RAM = %.1f GiB) writes, rewrites and reads that"
              " file:\nits first write alone takes >= %.0f s at diskbench's median block-write"
              " rate (%.0f MB/s; an estimate),\nvs %.0f s for all of diskbench --profile bonnie"
              % (size / 2**30, size / (w[0] * 1e6), w[0],
                 stat("wall", "wall-s", "diskbench")[0] or 0))
EOF
exit 0
