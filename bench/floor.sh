#!/bin/bash
# floor.sh - diskbench and fio against the floor: a bare io_uring read loop.
#
# Usage (root): [DISKBENCH=path] [ROUNDS=5] [RUNTIME=5] [ONLY=regex]
#               [RESULTS=file.tsv] [BATCHES="default 1"] [TOOLS_ONLY="..."] bench/floor.sh
#
# The floor is bench/floor.c: 4k random O_DIRECT reads through io_uring
# with a registered file and registered buffers, one submit-and-wait per
# batch and nothing counted but completions: what the kernel's path costs
# with nothing else in the loop. It is built here (make bench/floor in the
# build directory of $DISKBENCH) and never installed.
# Target: a loop device on a 1 GiB image of random data in /dev/shm (made
# here, removed on exit), so that the device costs almost nothing.
# Cases: QD1, QD32 and QD128, each with 1 and 2 jobs (processes, for all
# tools). diskbench runs with its defaults (--engine io_uring); fio as its
# best (--fixedbufs --registerfiles, fio-best below). The floor's ring is
# set up as diskbench's (SINGLE_ISSUER | DEFER_TASKRUN); floor-coop,
# floor-plain and floor-ringfd run it with COOP_TASKRUN instead, with
# neither, and with its ring fd registered too: what each of the kernel's
# offers gives, one at a time. diskbench runs once per value of BATCHES:
# "diskbench" with its defaults ("default"), "diskbench-bN" with --batch N,
# "diskbench-bqd" with --batch at the case's queue depth (the floor's loop:
# the freed slots go with the wait, one enter a round).
# TOOLS_ONLY, if set, runs only those (names as in the table; the floor always).
# Every tool runs RUNTIME seconds with no
# ramp, so that start-up counts the same for all; the order rotates
# between rounds.
# Figures per run: IOPS as the tool counts it (the floor: completions over
# its whole run), and whole-process CPU per I/O: user + sys of the process
# tree from /usr/bin/time over the I/Os the tool completed, start-up
# included. Printed: medians per case and tool, and
# each tool's median ratio to the floor of the same round, [min-max];
# then issue 24's goals: diskbench's CPU/IO within 1.10x the floor's at
# QD32 and QD128, its IOPS within 1.05x at QD1, and its CPU/IO at QD128 at
# most 0.85x fio-best's.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"
LIB_NAME=floor.sh
ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-5}
RESULTS=${RESULTS:-}
[ "$(id -u)" -eq 0 ] || { echo "floor.sh: needs root (loop devices)" >&2; exit 2; }
[[ $RUNTIME =~ ^[0-9]+$ ]] && [ "$RUNTIME" -gt 0 ] ||
	{ echo "floor.sh: RUNTIME=$RUNTIME: whole seconds, at least 1" >&2; exit 2; }
[[ $ROUNDS =~ ^[0-9]+$ ]] && [ "$ROUNDS" -gt 0 ] ||
	{ echo "floor.sh: ROUNDS=$ROUNDS: a count, at least 1" >&2; exit 2; }
bench_diskbench
command -v fio >/dev/null || apt_install fio
[ -x /usr/bin/time ] || apt_install time
need_cmd python3 losetup

FLOOR=${FLOOR:-$(dirname "$DISKBENCH")/bench/floor}
if [ ! -x "$FLOOR" ]; then
	make -C "$(dirname "$DISKBENCH")" bench/floor >/dev/null ||
		{ echo "floor.sh: cannot build $FLOOR (is liburing there?)" >&2; exit 1; }
fi

# name|qd|jobs
CASES=(
	"qd1-j1|1|1" "qd32-j1|32|1" "qd128-j1|128|1"
	"qd1-j2|1|2" "qd32-j2|32|2" "qd128-j2|128|2"
)
bench_only

make_tmpdir /dev/shm
WORK=$TMP_DIR
echo "# laying out 1 GiB in /dev/shm"
make_loop 1024 random
DEV=$LOOP_DEV
ROWS=$WORK/runs.tsv
printf 'case\ttool\tround\tiops\tcpu_us_per_io\n' >"$ROWS"

# run_tool TOOL QD JOBS: one run; prints "IOPS CPU-US-PER-IO" or fails
run_tool()
{
	local tool=$1 qd=$2 jobs=$3 tm=$WORK/time.txt out=$WORK/out
	case $tool in
	floor*)
		/usr/bin/time -f '%U %S' -o "$tm" "$FLOOR" "$DEV" "$qd" "$RUNTIME" "$jobs" \
			"${FLOOR_MODE[$tool]}" >"$out" 2>"$WORK/err" ;;
	diskbench*)
		b=${tool#diskbench}
		b=${b#-b}
		[ "$b" = qd ] && b=$qd
		/usr/bin/time -f '%U %S' -o "$tm" "$DISKBENCH" --engine io_uring --test rand-read \
			--bs 4k --qd "$qd" --jobs "$jobs" --direct --runtime "${RUNTIME}s" --ramp 0 \
			${b:+--batch "$b"} --quiet --json "$out" "$DEV" >/dev/null 2>"$WORK/err" ;;
	fio-best)
		/usr/bin/time -f '%U %S' -o "$tm" fio --name=floor --filename="$DEV" \
			--ioengine=io_uring --rw=randread --bs=4k --iodepth="$qd" --numjobs="$jobs" \
			--group_reporting --fixedbufs --registerfiles --direct=1 --time_based \
			--runtime="$RUNTIME" --output-format=json >"$out" 2>"$WORK/err" ;;
	esac || { echo "floor.sh: $tool QD$qd x$jobs failed: $(tail -3 "$WORK/err")" >&2; return 1; }
	python3 - "$tool" "$out" "$tm" "$RUNTIME" <<'EOF'
import json, sys
tool, out, tm, runtime = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4])
u, s = (float(x) for x in open(tm).read().split()[-2:])
if tool.startswith("floor"):
    f = open(out).read().split()
    ops, iops = int(f[1]), float(f[3])
elif tool.startswith("diskbench"):
    t = json.load(open(out))["tests"][0]
    iops, ops = t["iops"], t["ops"]
else:
    j = json.load(open(out))["jobs"][0]["read"]
    iops, ops = j["iops"], j["total_ios"]
print("%.1f %.3f" % (iops, (u + s) * 1e6 / ops))
EOF
}

# the floor's ring set-ups (floor.c's MODE): the floor itself is "defer",
# as diskbench's ring; the others show what each of the kernel's offers
# gives on its own
declare -A FLOOR_MODE=([floor]=defer [floor-coop]=coop [floor-plain]=plain
	[floor-ringfd]=defer+ringfd)
ALL=(floor floor-coop floor-plain floor-ringfd)
for b in ${BATCHES:-default 1}; do
	[[ $b =~ ^([1-9][0-9]*|qd|default)$ ]] ||
		{ echo "floor.sh: BATCHES: '$b' is not a count, qd or default" >&2; exit 2; }
	[ "$b" = default ] && ALL+=(diskbench) || ALL+=("diskbench-b$b")
done
ALL+=(fio-best)
TOOLS=(floor)
for t in "${ALL[@]}"; do
	[ "$t" = floor ] && continue
	[ -z "${TOOLS_ONLY:-}" ] || [[ " $TOOLS_ONLY " = *" $t "* ]] || continue
	TOOLS+=("$t")
done
for round in $(seq "$ROUNDS"); do
	for c in "${CASES[@]}"; do
		IFS='|' read -r name qd jobs <<<"$c"
		for k in "${!TOOLS[@]}"; do
			tool=${TOOLS[$(((k + round) % ${#TOOLS[@]}))]}
			r=$(run_tool "$tool" "$qd" "$jobs") || exit 1
			printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$tool" "$round" ${r// /$'\t'} >>"$ROWS"
		done
	done
	echo "# round $round of $ROUNDS done"
done
[ -z "$RESULTS" ] || cp "$ROWS" "$RESULTS"

python3 - "$ROWS" "${TOOLS[@]}" <<'EOF'
import csv, statistics as st, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
tools = sys.argv[2:]
cases = list(dict.fromkeys(r["case"] for r in rows))
val = {(r["case"], r["tool"], r["round"]): (float(r["iops"]), float(r["cpu_us_per_io"])) for r in rows}
rounds = sorted({r["round"] for r in rows})
def ratios(case, tool, i, base="floor"):
    return [val[(case, tool, n)][i] / val[(case, base, n)][i] for n in rounds
            if (case, tool, n) in val and (case, base, n) in val]
def fmt(xs):
    return "%.2f [%.2f-%.2f]" % (st.median(xs), min(xs), max(xs))
print("%-9s %-12s %10s %9s  %-20s %-20s" % ("case", "tool", "IOPS", "CPU us/IO", "IOPS/floor", "CPU/floor"))
for c in cases:
    for t in tools:
        xs = [val[(c, t, n)] for n in rounds if (c, t, n) in val]
        iops = st.median(x[0] for x in xs)
        cpu = st.median(x[1] for x in xs)
        r = "" if t == "floor" else "%-20s %-20s" % (fmt(ratios(c, t, 0)), fmt(ratios(c, t, 1)))
        print("%-9s %-12s %10.0f %9.3f  %s" % (c, t, iops, cpu, r))
print()
print("goals (median ratio of the rounds; [min-max])")
def goal(text, xs, ok):
    m = st.median(xs)
    print("  %-52s %s  %s" % (text, fmt(xs), "met" if ok(m) else "NOT met"))
for d in (t for t in tools if t.startswith("diskbench")):
    for c in ("qd32-j1", "qd128-j1"):
        if c in cases:
            goal("%s CPU/IO over the floor's, %s (<= 1.10)" % (d, c), ratios(c, d, 1), lambda m: m <= 1.10)
    if "qd1-j1" in cases:
        goal("%s IOPS over the floor's, qd1-j1 (>= 1/1.05)" % d, ratios("qd1-j1", d, 0), lambda m: m >= 1 / 1.05)
    if "qd128-j1" in cases and "fio-best" in tools:
        goal("%s CPU/IO over fio-best's, qd128-j1 (<= 0.85)" % d,
             ratios("qd128-j1", d, 1, "fio-best"), lambda m: m <= 0.85)
EOF
