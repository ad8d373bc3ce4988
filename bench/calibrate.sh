#!/bin/bash
# calibrate.sh - how often tune and compare are wrong, measured: false verdicts
# and false recommendations in A/A runs, and the power to find a known 10 % and
# 30 % difference, with no load, 1 and 2 CPU hogs and an I/O hog beside them.
#
# Usage (root): [DISKBENCH=path] [N=20] [LOADS="none cpu1 cpu2 io"]
#               [PARTS="tune compare power"] [RUNTIME=] [RAMP=] [BLOCKS=]
#               [REPEAT=5] [NOISE=] [IOPS=2000] [SEED=] [DEVDIR=/dev/shm]
#               [HOGDIR=/var/tmp] [KEEP=dir] bench/calibrate.sh
#
# Devices, made here and removed on exit (nothing else is touched):
#   the measured one  a loop device over a 256 MiB image in DEVDIR (RAM: the
#                     noise is the machine's, not a disk's; under any other
#                     DEVDIR the loop device does direct I/O to its file);
#   the hog's         (LOADS has io) a loop device with direct I/O over a
#                     256 MiB image in HOGDIR, read by dd in a loop.
# Loads, one after the other, each for all the parts:
#   none  nothing started here (other users of the machine are not stopped);
#   cpu1, cpu2  one or two busy loops; io  dd reading the hog's device, O_DIRECT
#   1 MiB, over and over.
# Parts, N of each per load:
#   tune     an A/A sweep: `tune --read-ahead V1,V2 --workload tune-scheduler`.
#            Its tests are O_DIRECT, which read_ahead_kb does not act on, so
#            the current value, V1, V2 and the control (the current value
#            again) are four settings of one speed: the shape of the default
#            scheduler sweep on a kernel with three schedulers, with an exact
#            null. Any better/worse verdict (throughput or p99, any value, any
#            test) is false, so is any recommendation.
#   compare  an A/A pair: two runs of the tune-scheduler profile at --repeat
#            REPEAT, one after the other on the same device, then compare:
#            any better/worse verdict is false.
#   power    the same two measurements with a known difference made by cgroup
#            v1 blkio throttling (tests/cli/throttle.sh's helpers): the device
#            is limited to IOPS read I/Os a second, and to 1.1 x and 1.3 x that
#            on the other side. compare: a run at IOPS against one at 1.1 x IOPS
#            and one at 1.3 x IOPS (the order of the three rotates). tune: the
#            sweep of the tune part, with a watcher here that sets the limit
#            from the read_ahead_kb tune has just set (the current value IOPS,
#            V1 1.1 x, V2 1.3 x) before the trial's ramp ends. Found: better on
#            some test and worse on none (throughput or p99), as tune
#            recommends. A throttled trial's noise is the throttle's slices
#            (100 ms: up to 0.1 s / RUNTIME in a trial) and the load's.
# Knobs: RUNTIME, RAMP (the trials' and the runs' length; empty: the
# tune-scheduler profile's, read from profiles/tune-scheduler.ini), BLOCKS and NOISE (empty: tune's
# and compare's defaults, 5 blocks and 3 %), SEED (empty: tune's default seed
# for every sweep, as a user gets; "vary": sweep i uses seed i), KEEP (a
# directory to keep every JSON in). A smoke run:
#   N=2 LOADS="none cpu1" RUNTIME=300ms RAMP=100ms bench/calibrate.sh
# Output: a line per sweep and pair, then the table (markdown), each goal of
# issue 20 marked met or NOT met: at most 1 false verdict in 20 under each
# load, no false recommendation, 30 % found every time, 10 % in at least 80 %.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

N=${N:-20}
LOADS=${LOADS:-none cpu1 cpu2 io}
PARTS=${PARTS:-tune compare power}
RUNTIME=${RUNTIME:-}
RAMP=${RAMP:-}
BLOCKS=${BLOCKS:-}
REPEAT=${REPEAT:-5}
NOISE=${NOISE:-}
IOPS=${IOPS:-2000}
SEED=${SEED:-}
DEVDIR=${DEVDIR:-/dev/shm}
HOGDIR=${HOGDIR:-/var/tmp}
KEEP=${KEEP:-}

bad() { echo "calibrate.sh: $*" >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || bad "needs root (loop devices, cgroups, queue settings)"
[[ $N =~ ^[1-9][0-9]*$ ]] || bad "N=$N is not a positive number"
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || bad "REPEAT=$REPEAT is not a positive number"
[[ $IOPS =~ ^[1-9][0-9]*$ ]] || bad "IOPS=$IOPS is not a positive number"
[ -z "$SEED" ] || [ "$SEED" = vary ] || bad "SEED=$SEED: empty or vary"
for l in $LOADS; do
	case $l in none | cpu1 | cpu2 | io) ;; *) bad "LOADS: unknown load '$l' (none cpu1 cpu2 io)" ;; esac
done
for p in $PARTS; do
	case $p in tune | compare | power) ;; *) bad "PARTS: unknown part '$p' (tune compare power)" ;; esac
done
{ [ -n "$LOADS" ] && [ -n "$PARTS" ]; } || bad "LOADS and PARTS must name something"
[ -z "$KEEP" ] || [ -d "$KEEP" ] || bad "KEEP=$KEEP is not a directory"
has() { [[ " $1 " = *" $2 "* ]]; }
for v in RUNTIME RAMP; do
	[ -z "${!v}" ] || secs "${!v}" >/dev/null || exit 2
done
bench_diskbench
need_cmd python3 losetup dd setsid

make_tmpdir /dev/shm
W=$TMP_DIR
# A private journal directory: a real tune elsewhere on the machine is not ours.
export DISKBENCH_TUNE_JOURNALS=$W/journals

# ---- the devices -------------------------------------------------------------
if [ "$DEVDIR" = /dev/shm ]; then
	make_loop 256 random
else
	d=$(mktemp -d "$DEVDIR/diskbench-calib.XXXXXX") || bad "cannot make a directory in $DEVDIR"
	at_exit "rm -rf -- '$d'"
	make_loop 256 random "$d" --direct-io=on
fi
DEV=$LOOP_DEV
DEV_MAJMIN=$LOOP_MAJMIN
DEV_IMG=$LOOP_IMG
RA_FILE=/sys/block/$LOOP_NAME/queue/read_ahead_kb
CUR=$(cat "$RA_FILE") || bad "no $RA_FILE"
# V1, V2: two readahead values besides the current one
VALS=()
for v in 128 512 2048 8192; do
	[ "$v" != "$CUR" ] && [ ${#VALS[@]} -lt 2 ] && VALS+=("$v")
done
V1=${VALS[0]} V2=${VALS[1]}
if has "$LOADS" io; then
	hd=$(mktemp -d "$HOGDIR/diskbench-calib-hog.XXXXXX") || bad "cannot make a directory in $HOGDIR"
	at_exit "rm -rf -- '$hd'"
	make_loop 256 random "$hd" --direct-io=on
	HOG_DEV=$LOOP_DEV
fi

# ---- the throttle (power) ----------------------------------------------------
POWER=false
if has "$PARTS" power; then
	cg=/sys/fs/cgroup/blkio
	if [ -e "$cg/cgroup.procs" ] && [ -e "$cg/blkio.throttle.read_iops_device" ]; then
		make_blkio_cgroup "diskbench-calib-$$"
		LIMIT=$CG_DIR/blkio.throttle.read_iops_device
		# Does it bite? 500 direct reads at 1000 IOPS take >= 0.3 s.
		echo "$DEV_MAJMIN 1000" >"$LIMIT"
		t0=$(date +%s%N)
		run_in_cgroup "$CG_DIR" dd if="$DEV" of=/dev/null bs=4k count=500 iflag=direct 2>/dev/null
		t1=$(date +%s%N)
		echo "$DEV_MAJMIN 0" >"$LIMIT"
		if [ $(((t1 - t0) / 1000000)) -ge 300 ]; then
			POWER=true
		else
			echo "# power: blkio throttling has no effect on $DEV here: not measured"
		fi
	else
		echo "# power: no cgroup v1 blkio throttling (/sys/fs/cgroup/blkio): not measured"
	fi
fi
# limit IOPS: the throttle for the runs in the cgroup (0: none)
limit() { echo "$DEV_MAJMIN $1" >"$LIMIT"; }
L10=$((IOPS * 11 / 10))
L30=$((IOPS * 13 / 10))

# ---- the loads ---------------------------------------------------------------
# Every process started here is known by its id and ended in the trap: the
# hogs, the throttle's watcher, and the diskbench running (sent SIGTERM, on
# which tune puts its settings back).
HOGS=()
stop_load()
{
	local p
	for p in "${HOGS[@]}"; do
		kill "$p" 2>/dev/null
		wait "$p" 2>/dev/null
	done
	HOGS=()
}
at_exit stop_load
start_load()
{
	local k
	case $1 in
	cpu1 | cpu2)
		for ((k = 0; k < ${1#cpu}; k++)); do
			bash -c 'while :; do :; done' &
			HOGS+=($!)
		done
		;;
	io)
		# on TERM the loop ends its dd too (it waits for it in the background)
		# shellcheck disable=SC2016 # $1 and $c are the inner shell's
		bash -c 'trap "kill \$c 2>/dev/null; exit 0" TERM
			while :; do
				dd if="$1" of=/dev/null bs=1M iflag=direct status=none & c=$!
				wait $c || exit 1
			done' hog "$HOG_DEV" &
		HOGS+=($!)
		;;
	esac
	sleep 1	# let the load start before the first trial
}
CHILD="" WATCHER=""
# shellcheck disable=SC2317 # run by the trap (at_exit)
stop_child()
{
	[ -n "$WATCHER" ] && kill "$WATCHER" 2>/dev/null && wait "$WATCHER" 2>/dev/null
	[ -n "$CHILD" ] || return 0
	# run_in_cgroup's subshell runs diskbench as its child
	pkill -TERM -P "$CHILD" 2>/dev/null
	kill -TERM "$CHILD" 2>/dev/null
	wait "$CHILD" 2>/dev/null
}
at_exit stop_child
# waited CMD...: CMD in the background, waited for, so that the trap can end it
waited()
{
	local st
	"$@" &
	CHILD=$!
	wait "$CHILD"
	st=$?
	CHILD=""
	return "$st"
}

# ---- the runs ----------------------------------------------------------------
RUN=()
[ -n "$RUNTIME" ] && RUN+=(--runtime "$RUNTIME")
[ -n "$RAMP" ] && RUN+=(--ramp "$RAMP")
TUNE=()
[ -n "$BLOCKS" ] && TUNE+=(--blocks "$BLOCKS")
CMP=()
[ -n "$NOISE" ] && TUNE+=(--noise "$NOISE") && CMP+=(--noise "$NOISE")

# sweep OUT I [cgroup]: tune's sweep of V1,V2 against the current value
sweep()
{
	local out=$1 i=$2 seed=() pre=()
	[ "$SEED" = vary ] && seed=(--seed "$i")
	[ $# -gt 2 ] && pre=(run_in_cgroup "$CG_DIR")
	waited "${pre[@]}" "$DISKBENCH" tune --quiet --json "$out" --read-ahead "$V1,$V2" \
		--workload tune-scheduler "${TUNE[@]}" "${RUN[@]}" "${seed[@]}" "$DEV" \
		>/dev/null 2>"$out.err"
}
# side OUT LABEL [cgroup]: one run of the tune-scheduler profile at --repeat
side()
{
	local pre=()
	[ $# -gt 2 ] && pre=(run_in_cgroup "$CG_DIR")
	waited "${pre[@]}" "$DISKBENCH" --profile tune-scheduler --repeat "$REPEAT" "${RUN[@]}" \
		--quiet --label "$2" --json "$1" "$DEV" >/dev/null 2>"$1.err"
}
pair() { "$DISKBENCH" compare "${CMP[@]}" --quiet --json "$3" "$1" "$2" >/dev/null 2>"$3.err"; }

# what KIND FILE: one line for a result, from its JSON (see the table below)
what()
{
	python3 - "$@" <<'EOF'
import json, sys
kind, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
if kind == "tune":
    s = d["sweeps"][0]
    n = sum(1 for r in s["results"] if r.get("judged", True) and r["config"] > 0
            for m in ("throughput", "lat_p99") if (r.get(m) or {}).get("verdict") in ("better", "worse"))
    q = s.get("sequential") or {}
    early = (" (stopped early after %s of %s blocks)" % (q.get("blocks_run"), q.get("max_blocks"))
             if q.get("stopped_early") else "")
    print("%d verdicts; recommended %s%s; %s" % (n, s["recommended"], early, s["reason"]))
else:
    c = d["compared"][0]["summary"]
    print("%s: %s" % (c["outcome"], c["headline"]))
EOF
}

# step LOAD PART I: one sweep or pair, its files named LOAD-PART-I-*.json
step()
{
	local load=$1 part=$2 i=$3 f=$W/$1-$2-$3 k order name lim st
	case $part in
	tune)
		sweep "$f-tune.json" "$i" || { echo "# $load tune $i: failed: $(tail -1 "$f-tune.json.err")"; return; }
		echo "# $load tune A/A $i/$N: $(what tune "$f-tune.json")"
		;;
	compare)
		{ side "$f-a.json" A && side "$f-b.json" B && pair "$f-a.json" "$f-b.json" "$f-cmp.json"; } ||
			{ echo "# $load compare $i: failed: $(tail -qn1 "$f"-*.err)"; return; }
		echo "# $load compare A/A $i/$N: $(what compare "$f-cmp.json")"
		;;
	power)
		# compare: the three sides in a rotating order
		order=("base:$IOPS" "p10:$L10" "p30:$L30")
		for ((k = 0; k < 3; k++)); do
			IFS=: read -r name lim <<<"${order[$(((i + k) % 3))]}"
			limit "$lim"
			sleep 0.3	# a fresh throttle slice
			side "$f-$name.json" "$name" cgroup ||
				{ echo "# $load power compare $i: failed: $(tail -1 "$f-$name.json.err")"; limit 0; return; }
		done
		limit 0
		{ pair "$f-base.json" "$f-p10.json" "$f-cmp10.json" &&
			pair "$f-base.json" "$f-p30.json" "$f-cmp30.json"; } ||
			{ echo "# $load power compare $i: compare failed"; return; }
		echo "# $load power compare 10 % $i/$N: $(what compare "$f-cmp10.json")"
		echo "# $load power compare 30 % $i/$N: $(what compare "$f-cmp30.json")"
		# tune: the limit follows the readahead tune sets (the current
		# value's from the start: tune does not write it for its first run)
		limit "$IOPS"
		python3 - "$RA_FILE" "$LIMIT" "$DEV_MAJMIN" "$CUR=$IOPS" "$V1=$L10" "$V2=$L30" <<'EOF' &
import os, sys, time
ra, limit, majmin = sys.argv[1:4]
want = dict(a.split("=") for a in sys.argv[4:])
last = sys.argv[4].split("=")[0]
parent = os.getppid()
while os.getppid() == parent:	# the script is gone: so is the watcher
    v = open(ra).read().strip()
    if v != last and v in want:
        with open(limit, "w") as f:
            f.write("%s %s\n" % (majmin, want[v]))
        last = v
    time.sleep(0.005)
EOF
		WATCHER=$!
		sleep 0.5	# python is up and polling
		sweep "$f-ptune.json" "$i" cgroup
		st=$?
		kill "$WATCHER" 2>/dev/null
		wait "$WATCHER" 2>/dev/null
		WATCHER=""
		limit 0
		[ "$st" -eq 0 ] || { echo "# $load power tune $i: failed: $(tail -1 "$f-ptune.json.err")"; return; }
		echo "# $load power tune $i/$N: $(what tune "$f-ptune.json")"
		;;
	esac
}

# ---- the plan ----------------------------------------------------------------
# the profile's own trial length, what tune runs when RUNTIME and RAMP are empty
prof_key() { sed -n "s/^$1 *= *//p" "$HERE/../profiles/tune-scheduler.ini"; }
P_RUNTIME=$(prof_key runtime) P_RAMP=$(prof_key ramp)
[ -n "$P_RUNTIME" ] && [ -n "$P_RAMP" ] || bad "profiles/tune-scheduler.ini: no runtime or ramp"
rt=$(secs "${RUNTIME:-$P_RUNTIME}") rp=$(secs "${RAMP:-$P_RAMP}") bl=${BLOCKS:-5}
est=$(python3 -c "
n, t, b, r, parts = $N, $rt + $rp + 0.2, $bl, $REPEAT, '$PARTS'.split()
tune = (b * 4 + 2) * 3 * t
cmp = 2 * r * 3 * t
s = ('tune' in parts) * tune + ('compare' in parts) * cmp + ('power' in parts and '$POWER' == 'true') * (tune + 1.5 * cmp)
print(round(n * s * $(wc -w <<<"$LOADS") / 60))")
echo "# $("$DISKBENCH" --version | head -1); kernel $(uname -r), $(nproc) CPUs"
echo "# device $DEV over $DEV_IMG; read_ahead_kb $CUR, swept with $V1,$V2"
echo "# N=$N, loads: $LOADS; parts: $PARTS; trials ${RUNTIME:-$P_RUNTIME} + ${RAMP:-$P_RAMP} ramp," \
	"${BLOCKS:-5} blocks, --repeat $REPEAT, noise ${NOISE:-3} %; throttle $IOPS / $L10 / $L30" \
	"IOPS; about $est min"
[ -n "$KEEP" ] && at_exit "cp -- '$W'/*.json '$KEEP'/ 2>/dev/null"
for load in $LOADS; do
	start_load "$load"
	for ((i = 1; i <= N; i++)); do
		for part in $PARTS; do
			[ "$part" = power ] && ! $POWER && continue
			step "$load" "$part" "$i"
		done
	done
	stop_load
done

# ---- the table -----------------------------------------------------------------
python3 - "$W" "$N" "$LOADS" <<'EOF'
import glob, json, os, sys
w, n, loads = sys.argv[1], int(sys.argv[2]), sys.argv[3].split()
def load(path):
    try:
        return json.load(open(path))
    except (OSError, ValueError):
        return None
def files(l, pat):
    return [d for d in (load(p) for p in sorted(glob.glob(os.path.join(w, "%s-%s" % (l, pat)))))
            if d is not None]
def tune_calls(d, config):
    """the verdict words of a config's judged throughput and p99 cells"""
    s = d["sweeps"][0]
    return [(r.get(m) or {}).get("verdict") for r in s["results"]
            if r["config"] == config and r.get("judged", True) for m in ("throughput", "lat_p99")]
def false_tune(d):
    s = d["sweeps"][0]
    return any(v in ("better", "worse") for k in range(1, len(s["configs"])) for v in tune_calls(d, k))
def found(calls, way):
    other = "worse" if way == "better" else "better"
    return way in calls and other not in calls
def cmp_calls(d):
    return [m.get("verdict") for t in d["compared"][0]["tests"] for m in t["metrics"].values()]
def mark(ok, count):
    return "met" if ok else "NOT met"
def cell(k, m, ok):
    return "%d / %d %s" % (k, m, mark(ok, m)) if m else "-"
rows, notes = [], []
for l in loads:
    aa = files(l, "*-tune.json")
    pt = files(l, "*-ptune.json")
    fv = sum(false_tune(d) for d in aa)
    fr = sum(d["sweeps"][0]["recommended"] is not None for d in aa)
    p10 = sum(found(tune_calls(d, 1), "better") for d in pt)
    p30 = sum(found(tune_calls(d, 2), "better") for d in pt)
    rec30 = sum(str(d["sweeps"][0]["recommended"]) == str(d["sweeps"][0]["configs"][2]) for d in pt)
    rows.append((l, "tune", cell(fv, len(aa), fv * 20 <= len(aa) or fv == 0),
                 cell(fr, len(aa), fr == 0), cell(p10, len(pt), p10 >= 0.8 * len(pt)),
                 cell(p30, len(pt), p30 == len(pt))))
    ca = files(l, "*-cmp.json")
    c10 = files(l, "*-cmp10.json")
    c30 = files(l, "*-cmp30.json")
    cf = sum(any(v in ("better", "worse") for v in cmp_calls(d)) for d in ca)
    q10 = sum(found(cmp_calls(d), "better") for d in c10)
    q30 = sum(found(cmp_calls(d), "better") for d in c30)
    rows.append((l, "compare", cell(cf, len(ca), cf * 20 <= len(ca) or cf == 0), "-",
                 cell(q10, len(c10), q10 >= 0.8 * len(c10)), cell(q30, len(c30), q30 == len(c30))))
    every = aa + pt
    veto = sum(bool(d["sweeps"][0].get("vetoed")) for d in every)
    drift = sum(bool((d["sweeps"][0].get("drift") or {}).get("drifted")) for d in every)
    # an early stop (issue 20, item 5) only where this build's JSON has the key
    keyed = [d["sweeps"][0]["sequential"] for d in every if "sequential" in d["sweeps"][0]]
    early = ("%d stopped early" % sum(bool(q.get("stopped_early")) for q in keyed)
             if keyed else "no early stops in this build")
    # the CPU job 0 ran on: tune's "pinning", a run's settings.cpus
    cpus = sorted({str((d.get("pinning") or {}).get("cpus", ["-"])[0]) for d in every} |
                  {str(d["settings"].get("cpus") or "-").split(",")[0]
                   for d in files(l, "*-[ab].json") + files(l, "*-base.json")})
    notes.append("%s: of %d tune sweeps (A/A and power) %d vetoed by the control, %d drifted, "
                 "%s; power tune recommended the 30 %% value in %d of %d; job 0 on CPU %s"
                 % (l, len(every), veto, drift, early, rec30, len(pt), " or ".join(cpus)))
print()
print("| load | what | false verdicts | false recommendations | 10 % found | 30 % found |")
print("|---|---|---|---|---|---|")
for r in rows:
    print("| %s |" % " | ".join(r))
print()
for x in notes:
    print(x)
print("goals (issue 20): false verdicts at most 1 in 20, no false recommendation, 30 % found"
      " every time, 10 % found in at least 80 %.")
if n < 20:
    print("N=%d: too few runs to show the goals; 'met' here says only that these %d runs"
          " did not break them." % (n, n))
EOF
exit 0
