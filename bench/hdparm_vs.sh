#!/bin/bash
# hdparm_vs.sh - diskbench's hdparm profile against hdparm -tT and -tT --direct, alternating.
#
# Usage (root): [DISKBENCH=path] [ROUNDS=5] [SIZE_MIB=8192] [DISKDIR=/var/tmp]
#               [DIO=on] [IMG=file] [RESULTS=file.tsv] bench/hdparm_vs.sh
#
# The target is a loop device over a disk image: SIZE_MIB of random data in
# a private directory under DISKDIR (made here and removed on exit), or IMG,
# an image you made, attached read-only and never written. DIO=on (the
# default) attaches it with --direct-io=on, so that what the loop device
# reads comes from the disk below and not from the page cache of its file;
# DIO=off as losetup does by default. The image must hold what 3 s of
# reading moves (both tools stop at the end of the device).
#
# Each round runs `hdparm -tT DEV`, `hdparm -tT --direct DEV` and
# `diskbench --profile hdparm DEV` (the same four figures in the same order:
# -T, -t, then their O_DIRECT variants), hdparm first in odd rounds and
# diskbench first in even ones, with every page cache dropped (sync,
# drop_caches) before each. Both tools print their figures as hdparm's lines
# "Timing ...: N MB in S seconds = R MB/sec" (MB = 2^20 bytes). The table
# shows per figure each tool's median [min-max] over the rounds, the ratio
# diskbench / hdparm of each round, and the median of those ratios.
# Run it alone (under flock /work/bench.lock on a shared machine): hdparm
# -t is one 3 s sample, and a neighbour's I/O moves it by tens of percent.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

ROUNDS=${ROUNDS:-5}
SIZE_MIB=${SIZE_MIB:-8192}
DISKDIR=${DISKDIR:-/var/tmp}
DIO=${DIO:-on}
IMG=${IMG:-}
RESULTS=${RESULTS:-}

[ "$(id -u)" -eq 0 ] || { echo "hdparm_vs.sh: needs root (loop devices, drop_caches)" >&2; exit 2; }
case $ROUNDS$SIZE_MIB in
*[!0-9]*) echo "hdparm_vs.sh: ROUNDS and SIZE_MIB are whole numbers" >&2; exit 2 ;;
esac
case $DIO in
on | off) ;;
*) echo "hdparm_vs.sh: DIO is on or off, not '$DIO'" >&2; exit 2 ;;
esac
[ -z "$IMG" ] || [ -f "$IMG" ] || { echo "hdparm_vs.sh: IMG=$IMG: no such file" >&2; exit 2; }
bench_diskbench
command -v hdparm >/dev/null || apt_install hdparm
need_cmd python3 losetup

make_tmpdir /dev/shm
WORK=$TMP_DIR
if [ -n "$IMG" ]; then
	DEV=$(losetup -r --direct-io="$DIO" -f --show "$IMG") ||
		{ echo "hdparm_vs.sh: losetup cannot attach $IMG" >&2; exit 1; }
	at_exit "lib_detach_loop '$DEV'"
	lib_loop_scheduler_none "$DEV"
	echo "# $IMG ($(($(stat -c %s "$IMG") >> 20)) MiB) on $DEV, read-only"
else
	ddir=$(mktemp -d "$DISKDIR/diskbench-hdparm-vs.XXXXXX") || exit 1
	at_exit "rm -rf -- '$ddir'"
	echo "# laying out $SIZE_MIB MiB of random data in $ddir" \
		"($(df --output=source,fstype "$ddir" | tail -1))"
	make_loop "$SIZE_MIB" random "$ddir" --direct-io="$DIO"
	DEV=$LOOP_DEV
fi
n=$(basename "$DEV")
echo "# $DEV: direct I/O to its file $(cat "/sys/block/$n/loop/dio" 2>/dev/null || echo '?')," \
	"read_ahead_kb $(cat "/sys/block/$n/queue/read_ahead_kb"), scheduler" \
	"$(sed -n 's/.*\[\(.*\)\].*/\1/p' "/sys/block/$n/queue/scheduler")"

ROWS=$WORK/runs.tsv
printf 'figure\ttool\tround\tfirst\tmb_per_s\n' >"$ROWS"

drop_caches() { sync; echo 3 >/proc/sys/vm/drop_caches; }

# timings TOOL ROUND FIRST FILE: the "Timing ...: ... = R MB/sec" lines of
# FILE as rows (kB/sec lines, under 1 MB/s, as MB/s)
timings()
{
	sed -n 's/^ *Timing \(.*\): .* = *\([0-9.]*\) \([kM]\)B\/sec.*/\1\t\2\t\3/p' "$4" |
		while IFS=$'\t' read -r fig rate unit; do
			[ "$unit" = k ] && rate=$(python3 -c "print($rate / 1024)")
			printf '%s\t%s\t%s\t%s\t%s\n' "$fig" "$1" "$2" "$3" "$rate"
		done >>"$ROWS"
}

run_tool()	# run_tool TOOL ROUND FIRST
{
	local out=$WORK/out.txt
	case $1 in
	hdparm)
		{ drop_caches && hdparm -tT "$DEV" && drop_caches &&
			hdparm -tT --direct "$DEV"; } >"$out" 2>&1 ;;
	diskbench)
		drop_caches && "$DISKBENCH" --profile hdparm "$DEV" >"$out" 2>&1 ;;
	esac || { echo "# $1 round $2 failed: $(tail -1 "$out")"; return; }
	timings "$1" "$2" "$3" "$out"
}

echo "# $("$DISKBENCH" --version | head -1) vs $(hdparm -V 2>&1 | head -1); kernel $(uname -r)," \
	"$(nproc) CPUs; $ROUNDS rounds, about $((ROUNDS * 50 / 60 + 1)) min"
for ((round = 1; round <= ROUNDS; round++)); do
	order="hdparm diskbench"
	[ $((round % 2)) -eq 0 ] && order="diskbench hdparm"
	for tool in $order; do
		run_tool "$tool" "$round" "${order%% *}"
	done
	echo "# round $round of $ROUNDS done (${order%% *} first)"
done

[ -n "$RESULTS" ] && cp "$ROWS" "$RESULTS" && echo "# per-run rows saved in $RESULTS"

python3 - "$ROWS" <<'PY'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
figs = []
for r in rows:
    if r["figure"] not in figs:
        figs.append(r["figure"])
def rate(fig, tool, rnd):
    v = [float(r["mb_per_s"]) for r in rows
         if r["figure"] == fig and r["tool"] == tool and r["round"] == rnd]
    return v[0] if v else None
rounds = sorted({r["round"] for r in rows}, key=int)
first = {r["round"]: r["first"] for r in rows}
print()
print("MB/s (2^20 bytes): each tool's median [min-max] over the rounds; per-round ratio")
print("diskbench / hdparm (h: hdparm ran first, d: diskbench first) and their median")
print("%-26s %-20s %-20s %-7s %s" % ("figure", "hdparm", "diskbench", "median", "ratio per round"))
for fig in figs:
    cells = []
    for tool in ("hdparm", "diskbench"):
        v = [x for x in (rate(fig, tool, k) for k in rounds) if x is not None]
        cells.append("%.0f [%.0f-%.0f]" % (statistics.median(v), min(v), max(v)) if v else "-")
    ratios = []
    for k in rounds:
        h, d = rate(fig, "hdparm", k), rate(fig, "diskbench", k)
        if h and d:
            ratios.append((k, d / h))
    med = "%.2f" % statistics.median([x for _, x in ratios]) if ratios else "-"
    per = " ".join("%.2f%s" % (x, first[k][0]) for k, x in ratios)
    print("%-26s %-20s %-20s %-7s %s" % (fig, cells[0], cells[1], med, per))
PY
