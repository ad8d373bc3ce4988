#!/bin/bash
# growth.sh - how diskbench's costs grow with the work: memory, start-up, output size, compare's time, file tests.
#
# Usage (root): [DISKBENCH=path] [DIR=/var/tmp] [ONLY=regex] [FILES_MAX=100000]
#               [TIMELINE_S="5 20 40"] bench/growth.sh
#
# Each row is one run of diskbench with one dimension varied and the rest
# fixed (4k random O_DIRECT reads, QD1, 1 job, 1 s, no ramp, io_uring, a
# sparse file under DIR, which reads holes and so costs the device nothing):
#   jobs     1 4 16 64                  (job processes)
#   qd       1 32 512 4096
#   bs       4k 1m 16m 64m
#   wset     a sparse file of 1 GiB, 64 GiB, 1 TiB
#   timeline --interval 10ms over TIMELINE_S seconds: points held in memory
#   json     tests x repeats (null engine, 10 ms each): JSON + HTML bytes
#   compare  2, 10, 50, 100 saved results: compare's wall and memory
#   files    create/stat/delete of 1k .. FILES_MAX files (x10 each step), beside
#            bonnie++ -n (its 6 file tests: sequential and random)
# Memory is the peak of the whole process tree (jobs included), from a
# memory cgroup (v1 memory.max_usage_in_bytes, reset before each run; the
# page cache the run itself fills counts too, which is why reads are
# O_DIRECT), and the main process's own peak RSS from /usr/bin/time.
# Start-up is the wall time less the test's runtime: set-up, probing,
# the jobs' start and the teardown. Then for each dimension a fit of memory
# against it: the bytes each unit adds (slope), as growth is meant to be
# linear in it (jobs, qd x bs, timeline points, tests x repeats) or
# constant (the working set). A machine's noise moves wall times, not memory.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"
LIB_NAME=growth.sh
DIR=${DIR:-/var/tmp}
FILES_MAX=${FILES_MAX:-100000}
TIMELINE_S=${TIMELINE_S:-5 20 40}
[ "$(id -u)" -eq 0 ] || { echo "growth.sh: needs root (a memory cgroup)" >&2; exit 2; }
bench_diskbench
[ -x /usr/bin/time ] || apt_install time
command -v bonnie++ >/dev/null || apt_install bonnie++
need_cmd python3

CGROOT=/sys/fs/cgroup/memory
[ -w "$CGROOT" ] || { echo "growth.sh: no cgroup v1 memory controller at $CGROOT" >&2; exit 1; }
CG=$CGROOT/diskbench-growth.$$
mkdir "$CG" || exit 1
at_exit "rmdir '$CG' 2>/dev/null"
WORK=$(mktemp -d "$DIR/diskbench-growth.XXXXXX") || exit 1
at_exit "rm -rf -- '$WORK'"
OUT=$WORK/rows.tsv
printf 'dim\tvalue\tunits\tpeak_bytes\tmain_rss_kb\twall_s\tstartup_s\textra\n' >"$OUT"

# measure DIM VALUE UNITS RUNTIME_S EXTRA CMD...: runs CMD in the cgroup,
# appends a row; EXTRA is a free column (bytes written, ...), "-" if none
measure()
{
	local dim=$1 value=$2 units=$3 rt=$4 extra=$5 tm=$WORK/time.txt peak
	shift 5
	echo 0 >"$CG/memory.max_usage_in_bytes"
	(echo "$BASHPID" >"$CG/cgroup.procs" && exec /usr/bin/time -f '%M %e' -o "$tm" "$@") \
		>"$WORK/cmd.out" 2>"$WORK/cmd.err" ||
		{ echo "growth.sh: $dim=$value failed: $* ($(tail -2 "$WORK/cmd.err"))" >&2; return 1; }
	peak=$(cat "$CG/memory.max_usage_in_bytes")
	read -r rss wall <"$tm"
	[ "$extra" = "@out" ] && extra=$(stat -c %s "$WORK/out.json")
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$dim" "$value" "$units" "$peak" "$rss" "$wall" \
		"$(python3 -c "print('%.3f' % (float('$wall') - $rt))")" "$extra" >>"$OUT"
	printf '# %-8s %-6s peak %6.1f MiB, wall %s s\n' "$dim" "$value" \
		"$(python3 -c "print($peak / 1048576)")" "$wall"
}
want() { [ -z "${ONLY:-}" ] || [[ $1 =~ $ONLY ]]; }

SPARSE=$WORK/sparse
truncate -s 1G "$SPARSE"
RUN=("$DISKBENCH" --quiet --test rand-read --engine io_uring --direct --ramp 0)

if want jobs; then
	for j in 1 4 16 64; do
		measure jobs "$j" "$j" 1 - "${RUN[@]}" --bs 4k --qd 1 --jobs "$j" --runtime 1s "$SPARSE"
	done
fi
if want qd; then
	for q in 1 32 512 4096; do
		measure qd "$q" "$((q * 4096))" 1 - "${RUN[@]}" --bs 4k --qd "$q" --runtime 1s "$SPARSE"
	done
fi
if want bs; then
	for b in 4k 1m 16m 64m; do
		measure bs "$b" "$(numfmt --from=iec "${b^^}")" 1 - "${RUN[@]}" --bs "$b" --qd 1 \
			--runtime 1s "$SPARSE"
	done
fi
if want wset; then
	for s in 1G 64G 1T; do
		truncate -s "$s" "$WORK/wset"
		measure wset "$s" "$(numfmt --from=iec "$s")" 1 - "${RUN[@]}" --bs 4k --qd 1 \
			--runtime 1s "$WORK/wset"
		rm -f "$WORK/wset"
	done
fi
if want timeline; then
	for t in $TIMELINE_S; do
		measure timeline "${t}s" "$((t * 100))" "$t" - "${RUN[@]}" --bs 4k --qd 1 \
			--runtime "${t}s" --interval 10ms "$SPARSE"
	done
fi
if want json; then
	# NT tests (4k reads at QD 1 .. NT) x NR repeats, the null engine
	for tr in "1 1" "4 1" "4 10" "16 10" "16 50"; do
		read -r nt nr <<<"$tr"
		measure json "${nt}x$nr" "$((nt * nr))" 0 @out "$DISKBENCH" --quiet --engine null \
			--test rand-read --bs 4k --qd "$(seq -s, "$nt")" --runtime 10ms --ramp 0 \
			--repeat "$nr" --json "$WORK/out.json" --html "$WORK/out.html" "$SPARSE"
		sed -i "\$s/\t\([0-9]*\)\$/\t\1+$(stat -c %s "$WORK/out.html")/" "$OUT"
	done
fi
if want compare; then
	mkdir -p "$WORK/res"
	for i in $(seq 100); do
		"$DISKBENCH" --quiet --engine null --test rand-read --bs 4k --runtime 10ms --ramp 0 \
			--label "r$i" --json "$WORK/res/$i.json" "$SPARSE" ||
			{ echo "growth.sh: making result $i failed" >&2; exit 1; }
	done
	for n in 2 10 50 100; do
		measure compare "$n" "$n" 0 - "$DISKBENCH" compare --quiet \
			$(seq -f "$WORK/res/%g.json" "$n")
	done
fi
if want files; then
	n=1000
	while [ "$n" -le "$FILES_MAX" ]; do
		mkdir -p "$WORK/fs"
		# stat runs for its runtime whatever the count: the extra column
		# holds create's and delete's own seconds, which grow with it
		measure files "$n" "$n" 0 - "$DISKBENCH" --quiet --test meta-create,meta-stat,meta-delete \
			--files "$n" --runtime 1s --ramp 0 --json "$WORK/out.json" "$WORK/fs"
		sed -i "\$s/\t-\$/\t$(python3 -c 'import json, sys
t = {x["name"]: x["runtime_ns"] / 1e9 for x in json.load(open(sys.argv[1]))["tests"]}
print("create %.2f s, delete %.2f s" % (t["meta-create"], t["meta-delete"]))' "$WORK/out.json")/" "$OUT"
		# bonnie++ -n counts in units of 1024 files, one directory
		measure files-bonnie "$n" "$n" 0 - bonnie++ -q -d "$WORK/fs" -u root -s 0 \
			-n "$(((n + 1023) / 1024)):0:0:1"
		rm -rf "$WORK/fs"
		n=$((n * 10))
	done
fi

python3 - "$OUT" <<'EOF'
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
print("%-12s %-7s %12s %10s %10s %8s %9s  %s" % ("dimension", "value", "units", "peak MiB",
      "main MiB", "wall s", "startup s", "extra"))
for r in rows:
    print("%-12s %-7s %12s %10.1f %10.1f %8s %9s  %s" % (r["dim"], r["value"], r["units"],
          int(r["peak_bytes"]) / 2**20, int(r["main_rss_kb"]) / 1024, r["wall_s"],
          r["startup_s"], r["extra"]))
print()
print("growth of peak memory per unit (least squares over the rows of a dimension)")
for dim in dict.fromkeys(r["dim"] for r in rows):
    xs = [float(r["units"]) for r in rows if r["dim"] == dim]
    ys = [float(r["peak_bytes"]) for r in rows if r["dim"] == dim]
    if len(xs) < 2 or max(xs) == min(xs):
        continue
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)
    print("  %-12s %14.3f bytes per unit, %8.1f MiB at the smallest, %8.1f MiB at the largest"
          % (dim, slope, min(ys) / 2**20, max(ys) / 2**20))
EOF
