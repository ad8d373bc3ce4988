#!/bin/bash
# instr-per-op.sh - user-space instructions per I/O, diskbench vs fio, by engine (valgrind).
#
# Usage (root): [DISKBENCH=path] [BEFORE=path] [ROUNDS=3] [SHORT=1s] [LONG=3s]
#               [ONLY=regex] [PROFILE=1] bench/instr-per-op.sh
#
# Counts instructions, it does not time anything: the count per op hardly
# depends on the machine's load (only through how many completions a reap
# finds), and the tools run under valgrind (slow) on purpose. It is the
# tool's own CPU cost without the kernel's: both tools make the same kind
# of system calls for the same I/O, and valgrind counts none of the
# kernel's work (this VM has no cycle counters for perf).
#
# Target: a loop device over a 256 MiB image of random data in /dev/shm,
# made here and removed on exit. Cases, 4k random reads, O_DIRECT, no ramp:
#   io_uring QD32 (both tools' defaults), io_uring QD128 (fio with
#   --fixedbufs --registerfiles), libaio QD32, sync QD1 (fio psync).
# fio runs with --thread, so that its job is in the one process valgrind
# follows. Each tool runs each case for SHORT and for LONG under
# valgrind --tool=callgrind, and the count per op is the difference of
# the two runs' instructions over the difference of their ops: start-up,
# option parsing, device probes and exit cancel out, and what remains is
# what one more op costs (the hot loop, the completions, the statistics,
# and the sampler's share). ROUNDS repeats that (median, min-max).
# BEFORE names another diskbench binary, run as a third tool.
# PROFILE=1 also prints, per case, the functions of diskbench's LONG run
# of the last round with the most instructions of their own.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

ROUNDS=${ROUNDS:-3}
SHORT=${SHORT:-1s}
LONG=${LONG:-3s}

[ "$(id -u)" -eq 0 ] || { echo "instr-per-op.sh: needs root (loop devices)" >&2; exit 2; }
bench_diskbench
TOOLS="diskbench fio"
if [ -n "${BEFORE:-}" ]; then
	[ -x "$BEFORE" ] || { echo "instr-per-op.sh: BEFORE=$BEFORE is not an executable" >&2; exit 2; }
	TOOLS="diskbench fio before"
fi
command -v fio >/dev/null || apt_install fio
command -v valgrind >/dev/null || apt_install valgrind
need_cmd python3 losetup
secs "$SHORT" >/dev/null && secs "$LONG" >/dev/null || exit 2

make_tmpdir /dev/shm
WORK=$TMP_DIR
echo "# laying out 256 MiB in /dev/shm"
make_loop 256 random
DEV=$LOOP_DEV

# name|diskbench args|fio args
CASES=(
	"io_uring-qd32|--engine io_uring --qd 32|--ioengine=io_uring --iodepth=32"
	"io_uring-qd128|--engine io_uring --qd 128|--ioengine=io_uring --iodepth=128 --fixedbufs --registerfiles"
	"libaio-qd32|--engine libaio --qd 32|--ioengine=libaio --iodepth=32"
	"sync-qd1|--engine sync --qd 1|--ioengine=psync --iodepth=1"
)
# ONLY=REGEX keeps the cases whose name matches (e.g. ONLY=sync).
bench_only

ROWS=$WORK/rows.tsv
printf 'case\ttool\tround\truntime\tinstr\tops\n' >"$ROWS"

# counted TOOL CASE ARGS ROUND RUNTIME: one run under callgrind, one row
counted()
{
	local tool=$1 name=$2 args=$3 round=$4 rt=$5 bin=$DISKBENCH
	local out=$WORK/out.json cg=$WORK/cg.$tool.$name.$rt st r
	[ "$tool" = before ] && bin=$BEFORE
	if [ "$tool" = fio ]; then
		# shellcheck disable=SC2086 # args are a word list by design
		valgrind --tool=callgrind --callgrind-out-file="$cg" fio --name=ipo --thread \
			--filename="$DEV" $args --rw=randread --bs=4k --direct=1 --time_based \
			--runtime="$rt" --output-format=json >"$out" 2>"$WORK/err"
	else
		# shellcheck disable=SC2086
		valgrind --tool=callgrind --callgrind-out-file="$cg" "$bin" $args --test rand-read \
			--bs 4k --direct --runtime "$rt" --ramp 0 --quiet --json "$out" "$DEV" \
			>/dev/null 2>"$WORK/err"
	fi
	st=$?
	if [ "$st" -ne 0 ]; then
		echo "# $tool $name $rt round $round failed (exit $st): $(tail -1 "$WORK/err")"
		return
	fi
	r=$(python3 - "$tool" "$out" "$cg" <<'EOF'
import json, sys
tool, out, cg = sys.argv[1:4]
d = json.load(open(out))
ops = d["jobs"][0]["read"]["total_ios"] if tool == "fio" else d["tests"][0]["ops"]
instr = next(int(l.split()[1]) for l in open(cg) if l.startswith("summary:"))
print("%d\t%d" % (instr, ops))
EOF
	) || { echo "# $tool $name $rt round $round: unreadable result"; return; }
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$tool" "$round" "$rt" "$r" >>"$ROWS"
}

ntools=$(wc -w <<<"$TOOLS")
echo "# $("$DISKBENCH" --version | head -1) vs $(fio --version) under $(valgrind --version);" \
	"$ROUNDS rounds x ${#CASES[@]} cases x $ntools tools x ($SHORT + $LONG)"
for ((round = 1; round <= ROUNDS; round++)); do
	read -ra t <<<"$TOOLS"
	for c in "${CASES[@]}"; do
		IFS='|' read -r name dargs fargs <<<"$c"
		for ((k = 0; k < ntools; k++)); do
			tool=${t[$(((round - 1 + k) % ntools))]}
			a=$dargs
			[ "$tool" = fio ] && a=$fargs
			counted "$tool" "$name" "$a" "$round" "$SHORT"
			counted "$tool" "$name" "$a" "$round" "$LONG"
		done
	done
	echo "# round $round of $ROUNDS done"
done

python3 - "$ROWS" "$SHORT" "$LONG" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
short, long_ = sys.argv[2], sys.argv[3]
cases, tools = [], []
for r in rows:
    if r["case"] not in cases:
        cases.append(r["case"])
    if r["tool"] not in tools:
        tools.append(r["tool"])
def per_op(case, tool):
    """Instructions per op of each round: (long - short) / (ops long - ops short)."""
    by = {}
    for r in rows:
        if r["case"] == case and r["tool"] == tool:
            by.setdefault(r["round"], {})[r["runtime"]] = (int(r["instr"]), int(r["ops"]))
    v = []
    for k in by.values():
        if short in k and long_ in k and k[long_][1] > k[short][1]:
            v.append((k[long_][0] - k[short][0]) / (k[long_][1] - k[short][1]))
    return v
print()
print("user-space instructions per op (valgrind), the runs' difference %s - %s;"
      " median [min-max] of the rounds" % (long_, short))
head = "%-16s" % "case" + "".join(" %24s" % t for t in tools) + "  diskbench/fio"
print(head)
for case in cases:
    line = "%-16s" % case
    med = {}
    for t in tools:
        v = per_op(case, t)
        if v:
            med[t] = statistics.median(v)
            line += " %24s" % ("%.0f [%.0f-%.0f]" % (med[t], min(v), max(v)))
        else:
            line += " %24s" % "-"
    if med.get("fio") and "diskbench" in med:
        line += "  %.3f" % (med["diskbench"] / med["fio"])
    print(line)
EOF

if [ "${PROFILE:-0}" = 1 ] && command -v callgrind_annotate >/dev/null; then
	for c in "${CASES[@]}"; do
		name=${c%%|*}
		f=$WORK/cg.diskbench.$name.$LONG
		[ -f "$f" ] || continue
		echo
		echo "# diskbench $name, $LONG: the functions with the most instructions of their own"
		callgrind_annotate "$f" 2>/dev/null | sed -n '/^Ir/,$p' | sed -n '3,12p'
	done
fi
exit 0
