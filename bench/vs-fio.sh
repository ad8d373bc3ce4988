#!/bin/bash
# vs-fio.sh - diskbench against fio on the same devices: IOPS and CPU cost per operation.
#
# Usage (root): [DISKBENCH=path] [BEFORE=path] [ROUNDS=5] [RUNTIME=5s] [RAMP=1s]
#               [TARGETS="shm disk"] [ONLY=regex] [DISKDIR=/var/tmp] [RESULTS=file.tsv]
#               bench/vs-fio.sh
#
# Targets, made here and removed on exit:
#   shm   a loop device on a 1 GiB image in /dev/shm: the device costs almost
#         nothing, so the tools' own overhead shows;
#   disk  a loop device (direct I/O to its backing file) on a 1 GiB image in a
#         private directory under DISKDIR, written with random data first so
#         that reads hit allocated blocks.
# Cases, all O_DIRECT and time-based; fio keeps its defaults otherwise:
#   4k randread io_uring QD32, 4k randread sync QD1 (fio psync),
#   4k randread libaio QD32, 1m seqread io_uring QD8, 4k randread io_uring
#   QD128 against fio's best (--fixedbufs --registerfiles), and jobs: 2 and
#   4 jobs of 4k randread io_uring QD32 (fio --numjobs=N --group_reporting),
#   2 of them pinned one per CPU (--cpus 0,1; fio --cpus_allowed=0,1
#   --cpus_allowed_policy=split; left out with one CPU), 2 jobs of libaio
#   QD32, and 2 jobs of sync QD1, unpinned and pinned, as each tool's job
#   processes and (--thread) as threads of one process.
# The last table holds issue 14's targets on shm, each from the ratios of
# the rounds (one diskbench run against the fio run of the same round):
# median [min-max] and whether the median meets the target. A scaling
# table then shows each tool's IOPS with N jobs over its own with 1, and a
# job-model table each tool's IOPS with its jobs as processes over its own
# with them as threads (--thread).
# Every round runs each case with both tools back to back, and who goes first
# alternates between rounds. Both get the same ramp. BEFORE names another
# diskbench binary (an older build): it runs as a third tool in every round,
# the order rotating, and a second table compares the two builds directly.
#
# CPU per op, two ways:
#   tool  what the tool reports: diskbench cpu.usec_per_op; fio
#         (usr_cpu + sys_cpu) / 100 x job runtime / ops
#   ext   the same yardstick for both: user + sys of the whole process tree
#         from /usr/bin/time, divided by IOPS x (ramp + runtime); it includes
#         start-up, option parsing, device probing and the ramp.
# IOPS, also as the device counted them: the reads and writes it completed
# (/sys/block/NAME/stat) over the middle half of each run's measured window,
# sampled from outside the tool, so that a ratio does not rest on how
# either tool counts its ops or times its window.
# Output: one table per target and case with medians and diskbench/fio ratios.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

ROUNDS=${ROUNDS:-5}
RUNTIME=${RUNTIME:-5s}
RAMP=${RAMP:-1s}
TARGETS=${TARGETS:-shm disk}
DISKDIR=${DISKDIR:-/var/tmp}
RESULTS=${RESULTS:-}

[ "$(id -u)" -eq 0 ] || { echo "vs-fio.sh: needs root (loop devices)" >&2; exit 2; }
bench_diskbench

TOOLS="diskbench fio"
if [ -n "${BEFORE:-}" ]; then
	[ -x "$BEFORE" ] || { echo "vs-fio.sh: BEFORE=$BEFORE is not an executable" >&2; exit 2; }
	TOOLS="diskbench fio before"
fi

command -v fio >/dev/null || apt_install fio
[ -x /usr/bin/time ] || apt_install time
need_cmd python3 losetup

RUNTIME_S=$(secs "$RUNTIME") || exit 2
RAMP_S=$(secs "$RAMP") || exit 2

make_tmpdir /dev/shm
WORK=$TMP_DIR
declare -A DEV
for t in $TARGETS; do
	case $t in
	shm)
		echo "# laying out 1 GiB in /dev/shm"
		make_loop 1024 random
		;;
	disk)
		ddir=$(mktemp -d "$DISKDIR/diskbench-vs-fio.XXXXXX") || exit 1
		at_exit "rm -rf -- '$ddir'"
		echo "# laying out 1 GiB in $ddir ($(df --output=source,fstype "$ddir" | tail -1))"
		# Direct I/O from the loop driver to its file, or reads would hit the
		# page cache that the layout just filled.
		make_loop 1024 random "$ddir" --direct-io=on
		losetup -l -n -O DIO "$LOOP_DEV" | grep -q 1 ||
			echo "# warning: $LOOP_DEV has no direct I/O: disk reads may come from the page cache"
		;;
	*)
		echo "vs-fio.sh: unknown target '$t' (shm, disk)" >&2
		exit 2
		;;
	esac
	DEV[$t]=$LOOP_DEV
done

# name|diskbench args|fio args
CASES=(
	"4k-randread-io_uring-qd32|--engine io_uring --test rand-read --bs 4k --qd 32|--ioengine=io_uring --rw=randread --bs=4k --iodepth=32"
	"4k-randread-sync-qd1|--engine sync --test rand-read --bs 4k --qd 1|--ioengine=psync --rw=randread --bs=4k --iodepth=1"
	"4k-randread-libaio-qd32|--engine libaio --test rand-read --bs 4k --qd 32|--ioengine=libaio --rw=randread --bs=4k --iodepth=32"
	"1m-seqread-io_uring-qd8|--engine io_uring --test seq-read --bs 1m --qd 8|--ioengine=io_uring --rw=read --bs=1m --iodepth=8"
	"4k-randread-io_uring-qd128|--engine io_uring --test rand-read --bs 4k --qd 128|--ioengine=io_uring --rw=randread --bs=4k --iodepth=128 --fixedbufs --registerfiles"
	"4k-randread-io_uring-qd32-j2|--engine io_uring --test rand-read --bs 4k --qd 32 --jobs 2|--ioengine=io_uring --rw=randread --bs=4k --iodepth=32 --numjobs=2 --group_reporting"
	"4k-randread-io_uring-qd32-j2-cpus|--engine io_uring --test rand-read --bs 4k --qd 32 --jobs 2 --cpus 0,1|--ioengine=io_uring --rw=randread --bs=4k --iodepth=32 --numjobs=2 --cpus_allowed=0,1 --cpus_allowed_policy=split --group_reporting"
	"4k-randread-io_uring-qd32-j4|--engine io_uring --test rand-read --bs 4k --qd 32 --jobs 4|--ioengine=io_uring --rw=randread --bs=4k --iodepth=32 --numjobs=4 --group_reporting"
	"4k-randread-libaio-qd32-j2|--engine libaio --test rand-read --bs 4k --qd 32 --jobs 2|--ioengine=libaio --rw=randread --bs=4k --iodepth=32 --numjobs=2 --group_reporting"
	"4k-randread-sync-qd1-j2|--engine sync --test rand-read --bs 4k --qd 1 --jobs 2|--ioengine=psync --rw=randread --bs=4k --iodepth=1 --numjobs=2 --group_reporting"
	"4k-randread-sync-qd1-j2-thread|--engine sync --test rand-read --bs 4k --qd 1 --jobs 2 --thread|--ioengine=psync --rw=randread --bs=4k --iodepth=1 --numjobs=2 --thread --group_reporting"
	"4k-randread-sync-qd1-j2-cpus|--engine sync --test rand-read --bs 4k --qd 1 --jobs 2 --cpus 0,1|--ioengine=psync --rw=randread --bs=4k --iodepth=1 --numjobs=2 --cpus_allowed=0,1 --cpus_allowed_policy=split --group_reporting"
	"4k-randread-sync-qd1-j2-cpus-thread|--engine sync --test rand-read --bs 4k --qd 1 --jobs 2 --cpus 0,1 --thread|--ioengine=psync --rw=randread --bs=4k --iodepth=1 --numjobs=2 --cpus_allowed=0,1 --cpus_allowed_policy=split --thread --group_reporting"
)
# --cpus 0,1 and fio's cpus_allowed=0,1 need two CPUs
if [ "$(nproc)" -lt 2 ]; then
	kept=()
	for c in "${CASES[@]}"; do
		[[ ${c%%|*} = *-cpus ]] || kept+=("$c")
	done
	CASES=("${kept[@]}")
fi

# ONLY=REGEX keeps the cases whose name matches (e.g. ONLY=sync).
bench_only

ROWS=$WORK/runs.tsv
printf 'target\tcase\ttool\tround\tiops\tcpu_tool_us\tcpu_ext_us\tdev_iops\n' >"$ROWS"

# dev_sample DEV: the I/Os per second the device itself completed (reads and
# writes from /sys/block/NAME/stat) over the middle half of the measured
# window of a run started now: from ramp + runtime/4 to ramp + 3 runtime/4.
# A yardstick that is neither tool's own accounting. Empty if unreadable.
dev_sample()
{
	python3 - "/sys/block/${1#/dev/}/stat" "$RAMP_S" "$RUNTIME_S" <<'EOF'
import sys, time
path, ramp, runtime = sys.argv[1], float(sys.argv[2]), float(sys.argv[3])
def ios():
    f = open(path).read().split()
    return int(f[0]) + int(f[4]), time.monotonic()
t0 = time.monotonic()
try:
    time.sleep(max(0.0, t0 + ramp + runtime / 4 - time.monotonic()))
    a, ta = ios()
    time.sleep(max(0.0, t0 + ramp + 3 * runtime / 4 - time.monotonic()))
    b, tb = ios()
    print("%.1f" % ((b - a) / (tb - ta)))
except (OSError, ValueError, IndexError):
    pass
EOF
}

# run_tool TOOL TARGET CASE-ARGS ROUND: one run, one row in $ROWS
run_tool()
{
	local tool=$1 target=$2 name=$3 args=$4 round=$5 dev=${DEV[$2]} out=$WORK/out.json
	local tm=$WORK/time.txt st r bin=$DISKBENCH sampler
	[ "$tool" = before ] && bin=$BEFORE
	dev_sample "$dev" >"$WORK/dev" &
	sampler=$!
	if [ "$tool" != fio ]; then
		# shellcheck disable=SC2086 # args are a word list by design
		/usr/bin/time -f '%U %S' -o "$tm" "$bin" $args --direct --runtime "$RUNTIME" \
			--ramp "$RAMP" --quiet --json "$out" "$dev" >/dev/null 2>"$WORK/err"
		st=$?
	else
		# shellcheck disable=SC2086
		/usr/bin/time -f '%U %S' -o "$tm" fio --name=vs --filename="$dev" $args --direct=1 \
			--time_based --runtime="$RUNTIME" --ramp_time="$RAMP" \
			--output-format=json >"$out" 2>"$WORK/err"
		st=$?
	fi
	wait "$sampler"
	if [ "$st" -ne 0 ]; then
		echo "# $tool $target $name round $round failed (exit $st): $(tail -1 "$WORK/err")"
		return
	fi
	r=$(python3 - "$tool" "$out" "$tm" "$RAMP_S" "$RUNTIME_S" "$WORK/dev" <<'EOF'
import json, sys
tool, out, tm, ramp, runtime = sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
dev = open(sys.argv[6]).read().strip() or "nan"
d = json.load(open(out))
if tool != "fio":
    t = d["tests"][0]
    iops, cpu = t["iops"], t["cpu"]["usec_per_op"]
else:
    j = d["jobs"][0]
    r = j["read"]
    iops = r["iops"]
    run_s = (j.get("job_runtime") or r["runtime"]) / 1e3
    cpu = (j["usr_cpu"] + j["sys_cpu"]) / 100 * run_s * 1e6 / max(r["total_ios"], 1)
u, s = (float(x) for x in open(tm).read().split()[-2:])
ext = (u + s) * 1e6 / max(iops * (ramp + runtime), 1)
print("%.1f\t%.3f\t%.3f\t%s" % (iops, cpu, ext, dev))
EOF
	) || { echo "# $tool $target $name round $round: unreadable result"; return; }
	printf '%s\t%s\t%s\t%s\t%s\n' "$target" "$name" "$tool" "$round" "$r" >>"$ROWS"
}

ntools=$(wc -w <<<"$TOOLS")
total=$((ROUNDS * ${#CASES[@]} * $(wc -w <<<"$TARGETS") * ntools))
echo "# $("$DISKBENCH" --version | head -1) vs $(fio --version); kernel $(uname -r)," \
	"$(nproc) CPUs; $ROUNDS rounds x $RUNTIME (+ $RAMP ramp); $total runs," \
	"about $(python3 -c "print(round($total * ($RUNTIME_S + $RAMP_S + 0.5) / 60, 1))") min"
[ -n "${BEFORE:-}" ] && echo "# before: $("$BEFORE" --version | head -1) ($BEFORE)"
for ((round = 1; round <= ROUNDS; round++)); do
	# who goes first rotates: with two tools, it alternates
	read -ra t <<<"$TOOLS"
	order=()
	for ((k = 0; k < ntools; k++)); do
		order+=("${t[$(((round - 1 + k) % ntools))]}")
	done
	for target in $TARGETS; do
		for c in "${CASES[@]}"; do
			IFS='|' read -r name dargs fargs <<<"$c"
			for tool in "${order[@]}"; do
				if [ "$tool" = fio ]; then
					run_tool fio "$target" "$name" "$fargs" "$round"
				else
					run_tool "$tool" "$target" "$name" "$dargs" "$round"
				fi
			done
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
    k = (r["target"], r["case"])
    if k not in keys:
        keys.append(k)
def num(r, col):
    # rows saved before the device-side column have none
    try:
        return float(r.get(col) or "nan")
    except ValueError:
        return float("nan")
def med(target, case, tool, col):
    v = [num(r, col) for r in rows
         if r["target"] == target and r["case"] == case and r["tool"] == tool]
    v = [x for x in v if x == x]
    return (statistics.median(v), len(v)) if v else (float("nan"), 0)
def ratio(a, b):
    return a / b if b else float("nan")
print()
print("medians; ratio = diskbench / fio (IOPS: higher is better; CPU us/op: lower is better)")
print("%-6s %-24s %3s %10s %10s %6s | %8s %8s %6s | %8s %8s %6s | %6s"
      % ("target", "case", "n", "IOPS db", "IOPS fio", "ratio", "cpu db", "cpu fio", "ratio",
         "ext db", "ext fio", "ratio", "dev"))
for target, case in keys:
    di, n1 = med(target, case, "diskbench", "iops")
    fi, n2 = med(target, case, "fio", "iops")
    dc, _ = med(target, case, "diskbench", "cpu_tool_us")
    fc, _ = med(target, case, "fio", "cpu_tool_us")
    de, _ = med(target, case, "diskbench", "cpu_ext_us")
    fe, _ = med(target, case, "fio", "cpu_ext_us")
    dd, _ = med(target, case, "diskbench", "dev_iops")
    fd, _ = med(target, case, "fio", "dev_iops")
    print("%-6s %-24s %3s %10.0f %10.0f %6.3f | %8.2f %8.2f %6.3f | %8.2f %8.2f %6.3f | %6.3f"
          % (target, case, "%d/%d" % (n1, n2) if n1 != n2 else n1, di, fi, ratio(di, fi),
             dc, fc, ratio(dc, fc), de, fe, ratio(de, fe), ratio(dd, fd)))
print("cpu = CPU us/op as the tool reports it; ext = whole-process user+sys from /usr/bin/time"
      " / (IOPS x (ramp + runtime)); dev = the IOPS the device completed in the middle half"
      " of each run's window (/sys/block/NAME/stat), diskbench / fio")

def round_ratios(target, case, col, invert=False):
    by = {}
    for r in rows:
        if r["target"] == target and r["case"] == case and r["tool"] in ("diskbench", "fio"):
            by.setdefault(r["round"], {})[r["tool"]] = num(r, col)
    v = []
    for k in by.values():
        if "diskbench" in k and "fio" in k and k["diskbench"] > 0 and k["fio"] > 0:
            v.append(k["fio"] / k["diskbench"] if invert else k["diskbench"] / k["fio"])
    return v

# (case, what, column, invert, goal, higher-is-better)
TARGETS = [
    ("4k-randread-io_uring-qd32", "IOPS per CPU-second vs fio defaults", "cpu_ext_us", True, 1.3, True),
    ("4k-randread-io_uring-qd128", "CPU per I/O vs fio --fixedbufs --registerfiles", "cpu_ext_us", False, 0.85, False),
    ("4k-randread-io_uring-qd128", "IOPS vs fio --fixedbufs --registerfiles", "iops", False, 1.0, True),
    ("4k-randread-libaio-qd32", "IOPS vs fio libaio", "iops", False, 1.0, True),
    ("4k-randread-io_uring-qd32-j2", "IOPS, 2 jobs vs fio numjobs=2", "iops", False, 1.0, True),
    ("4k-randread-io_uring-qd32-j2", "CPU per I/O, 2 jobs vs fio numjobs=2", "cpu_ext_us", False, 1.0, False),
    ("4k-randread-io_uring-qd32-j2-cpus", "IOPS, 2 jobs pinned vs fio cpus_allowed split", "iops", False, 1.0, True),
    ("4k-randread-io_uring-qd32-j2-cpus", "CPU per I/O, 2 jobs pinned, the same", "cpu_ext_us", False, 1.0, False),
    ("4k-randread-io_uring-qd32-j4", "IOPS, 4 jobs vs fio numjobs=4", "iops", False, 1.0, True),
    ("4k-randread-io_uring-qd32-j4", "CPU per I/O, 4 jobs vs fio numjobs=4", "cpu_ext_us", False, 1.0, False),
    ("4k-randread-libaio-qd32-j2", "IOPS, libaio 2 jobs vs fio numjobs=2", "iops", False, 1.0, True),
    ("4k-randread-libaio-qd32-j2", "CPU per I/O, libaio 2 jobs, the same", "cpu_ext_us", False, 1.0, False),
    ("4k-randread-sync-qd1-j2", "IOPS, sync 2 jobs vs fio psync numjobs=2", "iops", False, 0.97, True),
    ("4k-randread-sync-qd1-j2", "CPU per I/O, sync 2 jobs, the same", "cpu_ext_us", False, 1.0, False),
    ("4k-randread-sync-qd1-j2-thread", "IOPS, sync 2 jobs --thread, both tools", "iops", False, 0.97, True),
    ("4k-randread-sync-qd1-j2-cpus", "IOPS, sync 2 jobs pinned vs fio split", "iops", False, 0.97, True),
    ("4k-randread-sync-qd1-j2-cpus", "CPU per I/O, sync 2 jobs pinned, the same", "cpu_ext_us", False, 1.0, False),
    ("4k-randread-sync-qd1-j2-cpus-thread", "IOPS, sync 2 jobs pinned --thread, both tools", "iops", False, 0.97, True),
    ("4k-randread-sync-qd1", "IOPS, sync QD1 vs fio psync", "iops", False, 0.97, True),
]
if any(t == "shm" for t, _ in keys):
    print()
    print("targets (shm), diskbench / fio per round: median [min-max] n; goal")
    for case, what, col, inv, goal, up in TARGETS:
        v = round_ratios("shm", case, col, inv)
        if not v:
            continue
        m = statistics.median(v)
        ok = m >= goal if up else m <= goal
        print("  %-48s %6.3f [%.3f-%.3f] n=%d  %s %.2f: %s"
              % (what, m, min(v), max(v), len(v), ">=" if up else "<=", goal,
                 "met" if ok else "NOT met"))
        # an IOPS target, by the device's own count too
        d = round_ratios("shm", case, "dev_iops") if col == "iops" else []
        if d:
            m = statistics.median(d)
            print("  %-48s %6.3f [%.3f-%.3f] n=%d  %s %.2f: %s"
                  % ("  the same, as the device counted it", m, min(d), max(d), len(d),
                     ">=", goal, "met" if m >= goal else "NOT met"))
# Scaling: each tool's IOPS with N jobs over its own IOPS with 1 job of the
# same case, per round (the same round's runs): median [min-max].
SCALING = [
    ("io_uring qd32", "4k-randread-io_uring-qd32",
     [("2", "4k-randread-io_uring-qd32-j2"), ("2 pinned", "4k-randread-io_uring-qd32-j2-cpus"),
      ("4", "4k-randread-io_uring-qd32-j4")]),
    ("libaio qd32", "4k-randread-libaio-qd32", [("2", "4k-randread-libaio-qd32-j2")]),
    ("sync qd1", "4k-randread-sync-qd1",
     [("2", "4k-randread-sync-qd1-j2"), ("2 pinned", "4k-randread-sync-qd1-j2-cpus")]),
]
def scaling(target, one, many, tool):
    by = {}
    for r in rows:
        if r["target"] == target and r["tool"] == tool and r["case"] in (one, many):
            by.setdefault(r["round"], {})[r["case"]] = float(r["iops"])
    return [k[many] / k[one] for k in by.values() if k.get(one) and k.get(many)]
for target in sorted({t for t, _ in keys}):
    lines = []
    for fam, one, multi in SCALING:
        for n, case in multi:
            d, f = scaling(target, one, case, "diskbench"), scaling(target, one, case, "fio")
            if not d or not f:
                continue
            lines.append("  %-14s %-9s %22s %22s  %6.3f"
                         % (fam, n, "%.3f [%.3f-%.3f]" % (statistics.median(d), min(d), max(d)),
                            "%.3f [%.3f-%.3f]" % (statistics.median(f), min(f), max(f)),
                            statistics.median(d) / statistics.median(f)))
    if lines:
        print()
        print("scaling (%s): IOPS with N jobs / the same tool's IOPS with 1 job, per round" % target)
        print("  %-14s %-9s %22s %22s  %6s" % ("case", "jobs", "diskbench", "fio", "db/fio"))
        print("\n".join(lines))
# The job model: each tool's IOPS with its jobs as processes over its own
# with them as threads (--thread), per round.
MODEL = [("sync qd1 j2", "4k-randread-sync-qd1-j2", "4k-randread-sync-qd1-j2-thread"),
         ("sync qd1 j2 pinned", "4k-randread-sync-qd1-j2-cpus", "4k-randread-sync-qd1-j2-cpus-thread")]
for target in sorted({t for t, _ in keys}):
    lines = []
    for what, procs, threads in MODEL:
        v = {tool: scaling(target, threads, procs, tool) for tool in ("diskbench", "fio")}
        if not v["diskbench"] or not v["fio"]:
            continue
        lines.append("  %-20s %22s %22s" % (what, *("%.3f [%.3f-%.3f]" % (statistics.median(x), min(x), max(x))
                                                  for x in (v["diskbench"], v["fio"]))))
    if lines:
        print()
        print("job model (%s): IOPS with the jobs as processes / as threads, per round" % target)
        print("  %-20s %22s %22s" % ("case", "diskbench", "fio"))
        print("\n".join(lines))
if any(r["tool"] == "before" for r in rows):
    print()
    print("medians; ratio = diskbench / the BEFORE build (the same machine, the same rounds)")
    print("%-6s %-24s %10s %10s %6s | %8s %8s %6s | %8s %8s %6s"
          % ("target", "case", "IOPS", "before", "ratio", "cpu", "before", "ratio",
             "ext", "before", "ratio"))
    for target, case in keys:
        v = [med(target, case, t, c)[0] for c in ("iops", "cpu_tool_us", "cpu_ext_us")
             for t in ("diskbench", "before")]
        print("%-6s %-24s %10.0f %10.0f %6.3f | %8.2f %8.2f %6.3f | %8.2f %8.2f %6.3f"
              % (target, case, v[0], v[1], ratio(v[0], v[1]), v[2], v[3], ratio(v[2], v[3]),
                 v[4], v[5], ratio(v[4], v[5])))
EOF
exit 0
