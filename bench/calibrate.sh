#!/bin/bash
# calibrate.sh - how often tune and compare are wrong, measured: false verdicts
# and false recommendations in A/A runs, and the power to find a known 10 % and
# 30 % difference, with no load, 1 and 2 CPU hogs and an I/O hog beside them.
#
# Usage (root): [DISKBENCH=path] [N=20] [LOADS="none cpu1 cpu2 io"]
#               [PARTS="tune compare icompare power ipower"] [RUNTIME=] [RAMP=] [BLOCKS=]
#               [REPEAT=5] [NOISE=] [IOPS=2000] [SEED=] [DEVDIR=/dev/shm]
#               [HOGDIR=/var/tmp] [KEEP=dir] [LEDGER=file] [POWER_LOADS=none]
#               bench/calibrate.sh
#        python3 bench/calibrate.py table LEDGER...   (the table of ledgers)
#        python3 bench/calibrate.py rejudge LEDGER KEEP DISKBENCH
#            (a stopped run's compare rows judged by another compare, from
#            the runs KEEP holds: compare's verdicts are its inputs' alone)
#
# Devices, made here and removed on exit (nothing else is touched):
#   the measured one  a loop device over a 256 MiB image in DEVDIR (RAM: the
#                     noise is the machine's, not a disk's; under any other
#                     DEVDIR the loop device does direct I/O to its file);
#   the hog's         (LOADS has io) a loop device with direct I/O over a
#                     256 MiB image in HOGDIR, read by dd in a loop.
# Loads, in rounds: round i runs step i of each load in turn (a run stopped
# early has as many steps of every load), with its load started for it:
#   none  nothing started here (other users of the machine are not stopped);
#   cpu1, cpu2  one or two busy loops; io  dd reading the hog's device, O_DIRECT
#   1 MiB, over and over.
# Parts, N of each per load (power only under POWER_LOADS, default none):
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
#   icompare the same pair made in turn (doc/compare.md, Interleaved sides):
#            REPEAT runs of each side, A B, B A, A B ..., each one run added
#            to its side's file with --append (ledger part "icompare").
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
#   ptune, pcompare  one half of power: its tune sweep, its compare pair
#            (e.g. PARTS="tune ptune" measures tune alone).
#   ipower   power's compare with its three sides made in turn: REPEAT
#            rounds of one run of each (--append), the order rotating
#            (ledger part "picompare"); under POWER_LOADS too.
# Knobs: RUNTIME, RAMP (the trials' and the runs' length; empty: the
# tune-scheduler profile's, read from profiles/tune-scheduler.ini), BLOCKS and NOISE (empty: tune's
# and compare's defaults, 5 blocks and 3 %), SEED (empty: tune's default seed
# for every sweep, as a user gets; "vary": sweep i uses seed i), KEEP (a
# directory to keep every JSON in). A smoke run:
#   N=2 LOADS="none cpu1" RUNTIME=300ms RAMP=100ms bench/calibrate.sh
# LEDGER (default: a file in the run's private directory): a tab-separated
# row per step, appended as the step ends (bench/calibrate.py has the
# columns). Given an existing ledger, a step it has at the same settings is
# not run again: a run stopped by the end of a session goes on from there.
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
PARTS=${PARTS:-tune compare icompare power ipower}
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
LEDGER=${LEDGER:-}
POWER_LOADS=${POWER_LOADS:-none}

bad() { echo "calibrate.sh: $*" >&2; exit 2; }
has() { [[ " $1 " = *" $2 "* ]]; }
[ "$(id -u)" -eq 0 ] || bad "needs root (loop devices, cgroups, queue settings)"
[[ $N =~ ^[1-9][0-9]*$ ]] || bad "N=$N is not a positive number"
[[ $REPEAT =~ ^[1-9][0-9]*$ ]] || bad "REPEAT=$REPEAT is not a positive number"
[[ $IOPS =~ ^[1-9][0-9]*$ ]] || bad "IOPS=$IOPS is not a positive number"
[ -z "$SEED" ] || [ "$SEED" = vary ] || bad "SEED=$SEED: empty or vary"
for l in $LOADS; do
	case $l in none | cpu1 | cpu2 | io) ;; *) bad "LOADS: unknown load '$l' (none cpu1 cpu2 io)" ;; esac
done
for p in $PARTS; do
	case $p in tune | compare | icompare | power | ptune | pcompare | ipower) ;;
	*) bad "PARTS: unknown part '$p' (tune compare icompare power ptune pcompare ipower)" ;;
	esac
done
{ [ -n "$LOADS" ] && [ -n "$PARTS" ]; } || bad "LOADS and PARTS must name something"
[ -z "$KEEP" ] || [ -d "$KEEP" ] || bad "KEEP=$KEEP is not a directory"
[ -z "$LEDGER" ] || touch -- "$LEDGER" 2>/dev/null || bad "LEDGER=$LEDGER: cannot write it"
[ -z "$LEDGER" ] || LEDGER=$(realpath -- "$LEDGER")
for l in $POWER_LOADS; do
	has "$LOADS" "$l" || bad "POWER_LOADS: '$l' is not one of LOADS ($LOADS)"
done
for v in RUNTIME RAMP; do
	[ -z "${!v}" ] || secs "${!v}" >/dev/null || exit 2
done
bench_diskbench
need_cmd python3 losetup dd setsid

make_tmpdir /dev/shm
W=$TMP_DIR
[ -n "$LEDGER" ] || LEDGER=$W/ledger.tsv
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
if has "$PARTS" power || has "$PARTS" ptune || has "$PARTS" pcompare || has "$PARTS" ipower; then
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
# iside OUT LABEL [cgroup]: one run of the tune-scheduler profile added to OUT
iside()
{
	local pre=()
	[ $# -gt 2 ] && pre=(run_in_cgroup "$CG_DIR")
	waited "${pre[@]}" "$DISKBENCH" --profile tune-scheduler "${RUN[@]}" --quiet --label "$2" \
		--append "$1" "$DEV" >/dev/null 2>"$1.err"
}
pair() { "$DISKBENCH" compare "${CMP[@]}" --quiet --json "$3" "$1" "$2" >/dev/null 2>"$3.err"; }

# cpu_mark: the machine's CPU ticks, busy (MARK_BUSY) and in all
# (MARK_ALL), and this script's reaped children's (MARK_OWN: the diskbench
# runs and the row makers, not the hogs, which are reaped when their load
# ends), now; and the load average (LOAD0)
cpu_mark()
{
	local c u n s i w q sq st t
	read -r c u n s i w q sq st _ </proc/stat
	MARK_BUSY=$((u + n + s + q + sq + st)) MARK_ALL=$((u + n + s + i + w + q + sq + st))
	times >"$W/times"	# in this shell: a subshell's times are its own
	MARK_OWN=$(awk -v hz="$HZ" 'END { for (k = 1; k <= 2; k++) { split($k, a, /[ms]/)
		t += a[1] * 60 + a[2] }; printf "%d", t * hz }' "$W/times")
	LOAD0=$(cut -d' ' -f1 /proc/loadavg)
}
HZ=$(getconf CLK_TCK)
# others_pct: OTHERS, the share of the machine's CPU time since cpu_mark
# that went neither to this script's runs nor to idle: the hogs, other
# users, and the kernel's threads (the loop device's worker among them), in
# percent; marks again
others_pct()
{
	local b0=$MARK_BUSY a0=$MARK_ALL o0=$MARK_OWN
	cpu_mark
	OTHERS=$(awk -v b="$((MARK_BUSY - b0))" -v a="$((MARK_ALL - a0))" -v o="$((MARK_OWN - o0))" \
		'BEGIN { printf "%.0f", (a > 0 ? 100 * (b - o) / a : 0) }')
}
# note LOAD PART I JSON...: the step's ledger row (its key, context and
# outcome; bench/calibrate.py's COLS), appended to LEDGER and echoed; the
# step began at the last cpu_mark
note()
{
	local out l0=$LOAD0
	others_pct
	out=$(python3 "$HERE/calibrate.py" row "$2" "${@:4}") || { echo "# $1 $2 $3: no row: $out"; return; }
	printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$TRIAL" \
		"$BL" "$REPEAT" "$NL" "$IOPS" "$(date -u +%FT%TZ)" "$VERSION" "$(uname -r)" "$l0" \
		"$(cut -d' ' -f1 /proc/loadavg)" "$OTHERS" "$out" >>"$LEDGER"
	echo "# $1 $2 $3/$N: ${out##*$'\t'} [others $OTHERS % of the CPUs]"
	# KEEP holds every step's JSONs as the step ends: a run stopped hard keeps them
	[ -z "$KEEP" ] || cp -u -- "$W"/*.json "$KEEP"/ 2>/dev/null
	cpu_mark
}
# done_step LOAD PART I: the ledger has its row (at these settings)
done_step()
{
	awk -F'\t' -v k="$1	$2	$3	$TRIAL	$BL	$REPEAT	$NL	$IOPS" \
		'$1"\t"$2"\t"$3"\t"$4"\t"$5"\t"$6"\t"$7"\t"$8 == k { f = 1 } END { exit !f }' "$LEDGER"
}

# step LOAD PART I: one sweep or pair, its files named LOAD-PART-I-*.json
step()
{
	local load=$1 part=$2 i=$3 f=$W/$1-$2-$3 k order name lim st
	case $part in
	tune)
		sweep "$f-tune.json" "$i" || { echo "# $load tune $i: failed: $(tail -1 "$f-tune.json.err")"; return; }
		note "$load" tune "$i" "$f-tune.json"
		;;
	compare)
		{ side "$f-a.json" A && side "$f-b.json" B && pair "$f-a.json" "$f-b.json" "$f-cmp.json"; } ||
			{ echo "# $load compare $i: failed: $(tail -qn1 "$f"-*.err)"; return; }
		note "$load" compare "$i" "$f-cmp.json"
		;;
	icompare)
		# A B, B A, A B ...: a drift in time falls on both sides alike
		rm -f -- "$f-a.json" "$f-b.json"
		for ((k = 0; k < REPEAT; k++)); do
			for name in $( ((k % 2)) && echo b a || echo a b); do
				iside "$f-$name.json" "${name^^}" || { echo "# $load icompare $i:" \
					"failed: $(tail -1 "$f-$name.json.err")"; return; }
			done
		done
		pair "$f-a.json" "$f-b.json" "$f-cmp.json" ||
			{ echo "# $load icompare $i: compare failed: $(tail -1 "$f-cmp.json.err")"; return; }
		note "$load" icompare "$i" "$f-cmp.json"
		;;
	ipower)
		rm -f -- "$f"-base.json "$f"-p10.json "$f"-p30.json
		order=("base:$IOPS" "p10:$L10" "p30:$L30")
		for ((k = 0; k < REPEAT; k++)); do
			for ((j = 0; j < 3; j++)); do
				IFS=: read -r name lim <<<"${order[$(((i + k + j) % 3))]}"
				limit "$lim"
				sleep 0.3	# a fresh throttle slice
				iside "$f-$name.json" "$name" cgroup || { echo "# $load ipower $i:" \
					"failed: $(tail -1 "$f-$name.json.err")"; limit 0; return; }
			done
		done
		limit 0
		{ pair "$f-base.json" "$f-p10.json" "$f-cmp10.json" &&
			pair "$f-base.json" "$f-p30.json" "$f-cmp30.json"; } ||
			{ echo "# $load ipower $i: compare failed"; return; }
		note "$load" picompare "$i" "$f-cmp10.json" "$f-cmp30.json"
		;;
	power | ptune | pcompare)
		{ [ "$part" = ptune ] || done_step "$load" pcompare "$i"; } && k=3 || k=0
		# compare: the three sides in a rotating order
		order=("base:$IOPS" "p10:$L10" "p30:$L30")
		for (( ; k < 3; k++)); do
			IFS=: read -r name lim <<<"${order[$(((i + k) % 3))]}"
			limit "$lim"
			sleep 0.3	# a fresh throttle slice
			side "$f-$name.json" "$name" cgroup ||
				{ echo "# $load power compare $i: failed: $(tail -1 "$f-$name.json.err")"; limit 0; return; }
		done
		limit 0
		if [ "$part" != ptune ] && ! done_step "$load" pcompare "$i"; then
			{ pair "$f-base.json" "$f-p10.json" "$f-cmp10.json" &&
				pair "$f-base.json" "$f-p30.json" "$f-cmp30.json"; } ||
				{ echo "# $load power compare $i: compare failed"; return; }
			note "$load" pcompare "$i" "$f-cmp10.json" "$f-cmp30.json"
		fi
		[ "$part" != pcompare ] || return 0
		cpu_mark
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
		note "$load" ptune "$i" "$f-ptune.json"
		;;
	esac
}

# ---- the plan ----------------------------------------------------------------
# the profile's own trial length, what tune runs when RUNTIME and RAMP are empty
prof_key() { sed -n "s/^$1 *= *//p" "$HERE/../profiles/tune-scheduler.ini"; }
P_RUNTIME=$(prof_key runtime) P_RAMP=$(prof_key ramp)
[ -n "$P_RUNTIME" ] && [ -n "$P_RAMP" ] || bad "profiles/tune-scheduler.ini: no runtime or ramp"
rt=$(secs "${RUNTIME:-$P_RUNTIME}") rp=$(secs "${RAMP:-$P_RAMP}")
# a row's settings: what makes two rows' outcomes comparable
TRIAL=${RUNTIME:-$P_RUNTIME}+${RAMP:-$P_RAMP} BL=${BLOCKS:-5} NL=${NOISE:-3}
VERSION=$("$DISKBENCH" --version | sed -n '1s/.*(git \([^)]*\)).*/\1/p')
[ -n "$VERSION" ] || VERSION=$("$DISKBENCH" --version | head -1 | tr ' \t' '__')
est=$(python3 -c "
n, t, b, r, parts = $N, $rt + $rp + 0.2, $BL, $REPEAT, '$PARTS'.split()
tune = (b * 4 + 2) * 3 * t
cmp = 2 * r * 3 * t
icmp = 2 * r * (3 * t + 1.5)	# a process and its stage a run
per = ('tune' in parts) * tune + ('compare' in parts) * cmp + ('icompare' in parts) * icmp
power = ('$POWER' == 'true') * (('power' in parts or 'ptune' in parts) * tune
	+ ('power' in parts or 'pcompare' in parts) * 1.5 * cmp
	+ ('ipower' in parts) * 1.5 * (icmp + r * 0.3))
print(round(n * (per * $(wc -w <<<"$LOADS") + power * $(wc -w <<<"$POWER_LOADS")) / 60))")
echo "# $("$DISKBENCH" --version | head -1); kernel $(uname -r), $(nproc) CPUs"
echo "# device $DEV over $DEV_IMG; read_ahead_kb $CUR, swept with $V1,$V2"
echo "# N=$N, loads: $LOADS (power: $POWER_LOADS); parts: $PARTS; trials ${RUNTIME:-$P_RUNTIME} +" \
	"${RAMP:-$P_RAMP} ramp, $BL blocks, --repeat $REPEAT, noise $NL %; throttle $IOPS / $L10 /" \
	"$L30 IOPS; at most $est min; ledger $LEDGER"
[ -n "$KEEP" ] && at_exit "cp -u -- '$W'/*.json '$KEEP'/ 2>/dev/null"
[ -s "$LEDGER" ] || printf '%s\n' "$(python3 -c "import sys; sys.path.insert(0, '$HERE')
import calibrate; print('\t'.join(calibrate.COLS))")" >"$LEDGER"
# Round i runs step i of every load, so that a run stopped early has as many
# of each; a step the ledger already has (at these settings) is not run again.
for ((i = 1; i <= N; i++)); do
	for load in $LOADS; do
		todo=()
		for part in $PARTS; do
			case $part in power | ptune | pcompare | ipower)
				{ ! $POWER || ! has "$POWER_LOADS" "$load"; } && continue ;;
			esac
			case $part in
			power) done_step "$load" pcompare "$i" && done_step "$load" ptune "$i" && continue ;;
			ptune | pcompare) done_step "$load" "$part" "$i" && continue ;;
			ipower) done_step "$load" picompare "$i" && continue ;;
			*) done_step "$load" "$part" "$i" && continue ;;
			esac
			todo+=("$part")
		done
		[ ${#todo[@]} -gt 0 ] || continue
		start_load "$load"
		for part in "${todo[@]}"; do
			cpu_mark
			step "$load" "$part" "$i"
		done
		stop_load
	done
done

# ---- the table ---------------------------------------------------------------
python3 "$HERE/calibrate.py" table "$LEDGER"
exit 0
