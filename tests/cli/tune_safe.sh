#!/bin/bash
# tune_safe.sh - tune on loop devices made fresh here, whose queues no one set
# before: a kernel side effect (bfq turns writeback throttling off) is recorded,
# not fatal, and every setting reads back as before, even the kernel's own
# default state of wbt; tune's default sweeps finish on a RAM-backed device and
# on one over a disk image; a device detached mid-sweep stops the tune with
# exit 1 and its reason in the JSON, the text and the HTML, and what could be
# put back is.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup python3
need_diskbench
[ -e /dev/loop-control ] || skip "no /dev/loop-control: cannot make a fresh loop device"
make_tmpdir /dev/shm
T=$TMP_DIR
export DISKBENCH_TUNE_JOURNALS=$T/journals
FAST=(--runtime 100ms --ramp 0 --blocks 3)
KNOBS="scheduler read_ahead_kb nr_requests max_sectors_kb nomerges wbt_lat_usec"

settings()
{
	local q=/sys/block/$(basename "$1")/queue k
	for k in $KNOBS; do
		[ -e "$q/$k" ] && printf '%s=%s ' "$k" "$(cat "$q/$k")"
	done
	echo
}

# loop_ctl remove N: the loop device N made here goes away whole, so that
# no queue state of ours outlives the test.
loop_ctl()
{
	python3 -c 'import fcntl, os, sys
fd = os.open("/dev/loop-control", os.O_RDWR)
fcntl.ioctl(fd, 0x4C81, int(sys.argv[1]))' "$1" 2>/dev/null
}

# Detach (if still bound) and remove loop device N.
fresh_loop_remove()
{
	local i
	losetup -d "/dev/loop$1" 2>/dev/null
	for i in 1 2 3 4 5 6 7 8 9 10; do
		loop_ctl "$1" && return 0
		sleep 0.2
	done
	msg "warning: could not remove /dev/loop$1"
}

# fresh_loop IMG [LOSETUP-OPTION...]: IMG on a loop device that did not
# exist before (a queue in the kernel's defaults, wbt in its default
# state); sets DEV. losetup makes the node; it is removed at exit.
fresh_loop()
{
	local img=$1 n
	shift
	for n in $(seq 64 255); do
		[ -e "/sys/block/loop$n" ] || [ -e "/dev/loop$n" ] && continue
		if losetup "$@" "/dev/loop$n" "$img" 2>/dev/null; then
			at_exit "fresh_loop_remove $n"
			DEV=/dev/loop$n
			return 0
		fi
	done
	skip "cannot make a fresh loop device"
}

# What bfq does to wbt_lat_usec on DEV (the kernel turns its default
# throttling off, not one a person set), the scheduler put back after.
wbt_under_bfq()
{
	local q=/sys/block/$(basename "$1")/queue was
	was=$(sed 's/.*\[\(.*\)\].*/\1/' "$q/scheduler")
	echo bfq >"$q/scheduler" || fail "cannot set bfq on $1"
	cat "$q/wbt_lat_usec"
	echo "$was" >"$q/scheduler" || fail "cannot put $was back on $1"
}

dd if=/dev/urandom of="$T/ram.img" bs=1M count=128 status=none || fail "cannot write the image"
fresh_loop "$T/ram.img"
RAM=$DEV
q=/sys/block/$(basename "$RAM")/queue
grep -qw bfq "$q/scheduler" || skip "$RAM offers no bfq"

# ---- bfq turns wbt off: a side effect, recorded; then all is as before ------
before=$(settings "$RAM")
bfq_wbt=""
if [ -e "$q/wbt_lat_usec" ] && [ "$(cat "$q/wbt_lat_usec")" != 0 ]; then
	bfq_wbt=$(wbt_under_bfq "$RAM")
fi
"$DISKBENCH" tune "${FAST[@]}" --scheduler none,bfq --workload rand-read --json "$T/bfq.json" \
	--html "$T/bfq.html" "$RAM" >"$T/bfq.out" 2>"$T/bfq.err" ||
	fail "tune none,bfq: exit $?: $(cat "$T/bfq.err")"
[ "$(settings "$RAM")" = "$before" ] || fail "after tune: $(settings "$RAM"), before: $before"
[ "$(json "$T/bfq.json" 'd["restored"]')" = True ] || fail "the JSON does not say restored"
[ "$(json "$T/bfq.json" 'd["stopped"]')" = None ] || fail "stopped: $(json "$T/bfq.json" 'd["stopped"]')"
[ "$(json "$T/bfq.json" 'd["sweeps"][0]["analyzed"]')" = True ] || fail "no verdict"
# the trials' jobs pinned by default: every CPU this process may run on,
# each once (job i on the i-th), said in the JSON, the text and the page
ALLOWED=$(python3 -c 'import os; print(sorted(os.sched_getaffinity(0)))')
[ "$(json "$T/bfq.json" 'd["pinning"]["by"]')" = default ] ||
	fail "pinning: $(json "$T/bfq.json" 'd["pinning"]')"
[ "$(json "$T/bfq.json" 'sorted(d["pinning"]["cpus"])')" = "$ALLOWED" ] ||
	fail "pinned to $(json "$T/bfq.json" 'd["pinning"]["cpus"]'), allowed $ALLOWED"
first=$(json "$T/bfq.json" 'd["pinning"]["cpus"][0]')
grep -q "^pinning:  CPU $first" "$T/bfq.out" || fail "the text does not say the pinning"
grep -q 'data-key="pinning.why"' "$T/bfq.html" || fail "the HTML does not say the pinning"
if [ "$bfq_wbt" = 0 ]; then
	# the kernel's default wbt, off under bfq: seen, said, not an error
	[ "$(json "$T/bfq.json" '" ".join(e["value"] + ":" + e["attribute"] + "=" + e["kept"] for e in d["sweeps"][0]["side_effects"])')" = \
		"bfq:wbt_lat_usec=0" ] ||
		fail "side effects: $(json "$T/bfq.json" 'd["sweeps"][0]["side_effects"]')"
	grep -q "side effect: scheduler bfq sets wbt_lat_usec to 0" "$T/bfq.out" ||
		fail "the text does not name the side effect: $(cat "$T/bfq.out")"
	grep -q 'class="effect"' "$T/bfq.html" || fail "the HTML does not name the side effect"
	# and wbt is still in the kernel's default state: bfq still turns it off
	[ "$(wbt_under_bfq "$RAM")" = 0 ] || fail "after tune, bfq no longer turns wbt off"
	[ "$(settings "$RAM")" = "$before" ] || fail "after the bfq check: $(settings "$RAM")"
else
	echo "wbt is not turned off by bfq here (${bfq_wbt:-no wbt}): side effect not seen"
fi

# ---- the default sweeps finish, RAM-backed and over a disk image ------------
DIMG=$(mktemp -d /var/tmp/diskbench-tune-safe.XXXXXX) || fail "mktemp"
at_exit "rm -rf -- '$DIMG'"
dd if=/dev/urandom of="$DIMG/disk.img" bs=1M count=128 conv=fsync status=none ||
	fail "cannot write the disk image"
fresh_loop "$DIMG/disk.img" --direct-io=on
DISK=$DEV
LAST=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
for dev in "$RAM" "$DISK"; do
	name=$(basename "$dev")
	before=$(settings "$dev")
	# --cpus overrides the default pinning (the disk image's tune)
	pin=()
	[ "$dev" = "$DISK" ] && pin=(--cpus "$LAST")
	"$DISKBENCH" tune "${FAST[@]}" "${pin[@]}" --json "$T/$name.json" "$dev" >"$T/$name.out" \
		2>"$T/$name.err" || fail "default tune of $dev: exit $?: $(cat "$T/$name.err")"
	if [ "$dev" = "$DISK" ]; then
		[ "$(json "$T/$name.json" '[d["pinning"]["by"], d["pinning"]["cpus"]]')" = \
			"['--cpus', [$LAST]]" ] || fail "--cpus $LAST: $(json "$T/$name.json" 'd["pinning"]')"
	fi
	[ "$(settings "$dev")" = "$before" ] || fail "after tune $dev: $(settings "$dev"), before: $before"
	[ "$(json "$T/$name.json" '" ".join(s["knob"] for s in d["sweeps"] if s["analyzed"])')" = \
		"scheduler read-ahead" ] ||
		fail "default tune of $dev: not every sweep has a verdict: $(json "$T/$name.json" '[s["reason"] for s in d["sweeps"]]')"
	grep -q "Every setting was put back" "$T/$name.out" || fail "$dev: no word of the restore"
done

# ---- another program changes the queue mid-sweep: stop, say which, put back -
before=$(settings "$RAM")
ra=$(cat "$q/read_ahead_kb")
"$DISKBENCH" tune --runtime 300ms --ramp 0 --blocks 4 --scheduler none,mq-deadline \
	--workload rand-read --json "$T/moved.json" "$RAM" >"$T/moved.out" 2>"$T/moved.err" &
pid=$!
sleep 1
# as a udev rule or a tuned profile would; once a second (longer than a
# trial, so that tune has stopped before the next write if it saw this
# one), until tune says it stopped: never while it puts things back
while kill -0 "$pid" 2>/dev/null && ! grep -q "tune stopped" "$T/moved.err"; do
	echo $((ra + 256)) >"$q/read_ahead_kb" 2>/dev/null
	sleep 1
done
wait "$pid"
rc=$?
[ "$rc" -eq 1 ] || fail "queue changed mid-sweep: exit $rc, want 1: $(cat "$T/moved.err")"
reason=$(json "$T/moved.json" 'd["stopped"]["reason"]')
case $reason in
*"changed during the trial, not by tune: read_ahead_kb is $((ra + 256)), not $ra"*) ;;
*) fail "queue changed mid-sweep: the reason '$reason' does not say what changed" ;;
esac
[ "$(settings "$RAM")" = "$before" ] || fail "after the change: $(settings "$RAM"), before: $before"
[ "$(json "$T/moved.json" 'd["restored"]')" = True ] || fail "queue changed: not restored"

# ---- the device goes away mid-sweep: stop, put back, exit 1, say why --------
before=$(settings "$RAM")
"$DISKBENCH" tune --runtime 300ms --ramp 0 --blocks 4 --scheduler none,mq-deadline,kyber \
	--workload rand-read --json "$T/gone.json" --html "$T/gone.html" "$RAM" \
	>"$T/gone.out" 2>"$T/gone.err" &
pid=$!
sleep 2
losetup -d "$RAM" || fail "cannot detach $RAM"
wait "$pid"
rc=$?
[ "$rc" -eq 1 ] || fail "device detached: exit $rc, want 1: $(cat "$T/gone.err")"
[ "$(settings "$RAM")" = "$before" ] || fail "after the detach: $(settings "$RAM"), before: $before"
reason=$(json "$T/gone.json" 'd["stopped"]["reason"]')
case $reason in
*"no medium"*) ;;
*) fail "stopped: '$reason' does not say the device went away" ;;
esac
[ "$(json "$T/gone.json" 'd["stopped"]["trial"] > 0')" = True ] || fail "stopped: no trial"
[ "$(json "$T/gone.json" '[s["recommended"] for s in d["sweeps"]]')" = "[null]" ] ||
	fail "a verdict from a sweep the device left"
[ "$(json "$T/gone.json" 'len(d["warnings"]) > 0')" = True ] || fail "the JSON has no warnings"
# (4 blocks x 4 values + 2) x 2 tests: a trial is one test of one value
tr '\n' ' ' <"$T/gone.out" | grep -q "Stopped at trial [0-9]* of 36, .*What to do:" ||
	fail "the text does not say it stopped: $(cat "$T/gone.out")"
grep -q 'id="stopped"' "$T/gone.html" || fail "the HTML does not say it stopped"
grep -q "No warnings" "$T/gone.html" && fail "the HTML of a stopped tune says 'No warnings'"
grep -q "tune --restore" "$T/gone.err" && fail "a stop that put all back asks for --restore"
[ -z "$(ls -A "$DISKBENCH_TUNE_JOURNALS")" ] || fail "a journal was left"
echo "ok"
