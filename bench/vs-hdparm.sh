#!/bin/bash
# vs-hdparm.sh - diskbench's hdparm profile against hdparm -t/-T and --direct on one device.
#
# Usage (root): [DISKBENCH=path] [ROUNDS=3] [SIZE_MIB=4096] [DISKDIR=/var/tmp]
#               [TARGETS="disk shm"] [RESULTS=file.tsv] bench/vs-hdparm.sh
#
# Targets, made here and removed on exit:
#   disk  a loop device on an image of SIZE_MIB in a private directory under
#         DISKDIR (the loop device as losetup makes it by default: no direct
#         I/O to its file, which is what a user comparing the two tools on a
#         disk image has);
#   shm   the same on an image in /dev/shm.
# The image must hold what 3 s of reading moves, or both tools wrap:
# hdparm -t then reads from the page cache, diskbench drops its pass first.
#
# Every round runs, back to back, `hdparm -tT DEV`, `hdparm -tT --direct
# DEV` and `diskbench --profile hdparm DEV`, the order rotating between
# rounds. Both tools' figures come from the same kind of line, "Timing ...:
# N MB in S seconds = R MB/sec" (MB = 2^20 bytes; diskbench prints these
# with the hdparm profile). The table shows per figure the median rate
# over the rounds with the minimum and maximum, and diskbench / hdparm.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

ROUNDS=${ROUNDS:-3}
SIZE_MIB=${SIZE_MIB:-4096}
DISKDIR=${DISKDIR:-/var/tmp}
TARGETS=${TARGETS:-disk shm}
RESULTS=${RESULTS:-}

[ "$(id -u)" -eq 0 ] || { echo "vs-hdparm.sh: needs root (loop devices)" >&2; exit 2; }
case $ROUNDS$SIZE_MIB in
*[!0-9]*) echo "vs-hdparm.sh: ROUNDS and SIZE_MIB are whole numbers" >&2; exit 2 ;;
esac
bench_diskbench
command -v hdparm >/dev/null || apt_install hdparm
need_cmd python3 losetup

make_tmpdir /dev/shm
WORK=$TMP_DIR
declare -A DEV
for t in $TARGETS; do
	case $t in
	disk)
		ddir=$(mktemp -d "$DISKDIR/diskbench-vs-hdparm.XXXXXX") || exit 1
		at_exit "rm -rf -- '$ddir'"
		echo "# laying out $SIZE_MIB MiB in $ddir ($(df --output=source,fstype "$ddir" | tail -1))"
		make_loop "$SIZE_MIB" random "$ddir"
		;;
	shm)
		echo "# laying out $SIZE_MIB MiB in /dev/shm"
		make_loop "$SIZE_MIB" random
		;;
	*)
		echo "vs-hdparm.sh: unknown target '$t' (disk, shm)" >&2
		exit 2
		;;
	esac
	DEV[$t]=$LOOP_DEV
done

ROWS=$WORK/runs.tsv
printf 'target\tfigure\ttool\tround\tmb_per_s\n' >"$ROWS"

# timings TARGET TOOL ROUND FILE: the "Timing ...: ... = R MB/sec" lines of
# FILE as rows (hdparm's and diskbench's hdparm-profile lines read alike)
timings()
{
	sed -n 's/^ *Timing \(.*\): .* = *\([0-9.]*\) MB\/sec.*/\1\t\2/p' "$4" |
		while IFS=$'\t' read -r fig rate; do
			printf '%s\t%s\t%s\t%s\t%s\n' "$1" "$fig" "$2" "$3" "$rate"
		done >>"$ROWS"
}

run_tool()	# run_tool TOOL TARGET ROUND
{
	local dev=${DEV[$2]} out=$WORK/out.txt
	case $1 in
	hdparm)
		{ hdparm -tT "$dev" && hdparm -tT --direct "$dev"; } >"$out" 2>&1 ;;
	diskbench)
		"$DISKBENCH" --profile hdparm "$dev" >"$out" 2>&1 ;;
	esac || { echo "# $1 $2 round $3 failed: $(tail -1 "$out")"; return; }
	timings "$2" "$1" "$3" "$out"
}

echo "# $("$DISKBENCH" --version | head -1) vs $(hdparm -V 2>&1 | head -1); kernel $(uname -r)," \
	"$(nproc) CPUs; $ROUNDS rounds, about $((ROUNDS * $(wc -w <<<"$TARGETS") * 30 / 60 + 1)) min"
for ((round = 1; round <= ROUNDS; round++)); do
	order="hdparm diskbench"
	[ $((round % 2)) -eq 0 ] && order="diskbench hdparm"
	for target in $TARGETS; do
		for tool in $order; do
			run_tool "$tool" "$target" "$round"
		done
	done
	echo "# round $round of $ROUNDS done"
done

[ -n "$RESULTS" ] && cp "$ROWS" "$RESULTS" && echo "# per-run rows saved in $RESULTS"

python3 - "$ROWS" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
keys = []
for r in rows:
    k = (r["target"], r["figure"])
    if k not in keys:
        keys.append(k)
def stats(k, tool):
    v = [float(r["mb_per_s"]) for r in rows
         if (r["target"], r["figure"]) == k and r["tool"] == tool]
    return (statistics.median(v), min(v), max(v), len(v)) if v else None
print()
print("MB/s (2^20 bytes), median [min-max] over the rounds; ratio = diskbench / hdparm")
print("%-6s %-26s %-24s %-24s %s" % ("target", "figure", "hdparm", "diskbench", "ratio"))
for k in keys:
    h, d = stats(k, "hdparm"), stats(k, "diskbench")
    cell = lambda s: "%.0f [%.0f-%.0f] n=%d" % s if s else "-"
    ratio = "%.2f" % (d[0] / h[0]) if h and d and h[0] else "-"
    print("%-6s %-26s %-24s %-24s %s" % (k[0], k[1], cell(h), cell(d), ratio))
EOF
