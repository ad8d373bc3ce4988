#!/bin/bash
# tune_race.sh - the tune journal is a lock: beside a running tune, 20 tries
# of tune --restore (by target and of all journals) are refused with "a tune
# is running (pid N)" and exit 3, leaving its journal alone, and 20 second
# tunes are refused without being told to run --restore; then 20 times two
# tunes (started together, or the second a little later) and a --restore
# race on one disk: one tune runs at a time, nothing is restored from a live
# tune, and every setting ends as it began. A tune with other journals (and
# its --restore), or beside flock(1) on the disk's node, is refused too.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
once_per_suite "its 20 races a pass find a locking fault, not a memory one"
need_cmd losetup python3 flock
need_diskbench
make_tmpdir /dev/shm
T=$TMP_DIR
export DISKBENCH_TUNE_JOURNALS=$T/journals
KNOBS="scheduler read_ahead_kb nr_requests max_sectors_kb nomerges wbt_lat_usec"

settings()
{
	local q=/sys/block/$(basename "$1")/queue k
	for k in $KNOBS; do
		[ -e "$q/$k" ] && printf '%s=%s ' "$k" "$(cat "$q/$k")"
	done
	echo
}

make_loop 64 random
DEV=$LOOP_DEV
NAME=$LOOP_NAME
JOURNAL=$DISKBENCH_TUNE_JOURNALS/$NAME.journal
grep -qw mq-deadline "/sys/block/$NAME/queue/scheduler" || skip "$DEV offers no mq-deadline"
before=$(settings "$DEV")

# ---- beside a running tune: --restore and a second tune are refused --------
"$DISKBENCH" tune --runtime 300ms --ramp 0 --blocks 8 --scheduler none,mq-deadline \
	--workload rand-read --quiet --json "$T/a.json" "$DEV" >"$T/a.out" 2>"$T/a.err" &
apid=$!
for _ in $(seq 200); do
	[ -e "$JOURNAL" ] && break
	sleep 0.05
done
[ -e "$JOURNAL" ] || fail "the tune wrote no journal: $(cat "$T/a.err")"
for i in $(seq 20); do
	kill -0 "$apid" 2>/dev/null || fail "the tune ended before try $i: make it longer"
	case $((i % 2)) in
	0) out=$("$DISKBENCH" tune --restore "$DEV" 2>&1) ;;
	1) out=$("$DISKBENCH" tune --restore 2>&1) ;;
	esac
	rc=$?
	[ "$rc" -eq 3 ] || fail "--restore beside a running tune, try $i: exit $rc, want 3: $out"
	printf '%s' "$out" | grep -q "a tune is running (pid $apid" ||
		fail "--restore beside a running tune, try $i: '$out' does not name it"
	printf '%s' "$out" | grep -q "restored what" && fail "--restore restored a live tune: $out"
	[ -e "$JOURNAL" ] || fail "--restore removed a live tune's journal (try $i)"
	out=$("$DISKBENCH" tune --runtime 100ms --ramp 0 --blocks 3 --scheduler none,mq-deadline \
		--workload rand-read --quiet "$DEV" 2>&1)
	rc=$?
	[ "$rc" -eq 3 ] || fail "a second tune, try $i: exit $rc, want 3: $out"
	printf '%s' "$out" | grep -q "is running" || fail "a second tune, try $i: $out"
	printf '%s' "$out" | grep -q -- "--restore" &&
		fail "a second tune is told to run --restore while the first runs: $out"
done
wait "$apid"
rc=$?
[ "$rc" -eq 0 ] || fail "the running tune: exit $rc: $(cat "$T/a.err")"
[ "$(settings "$DEV")" = "$before" ] || fail "after the tune: $(settings "$DEV"), before: $before"
[ "$(json "$T/a.json" 'd["restored"]')" = True ] || fail "the tune does not say restored"
[ -e "$JOURNAL" ] && fail "the tune left its journal"

# ---- other journal directories, and tools: the disk's node is one lock ------
# (found by hand: a second tune with its own DISKBENCH_TUNE_JOURNALS ran
# beside a first, and each stopped at the other's change)
mkdir -m 700 "$T/other"
"$DISKBENCH" tune --runtime 300ms --ramp 0 --blocks 8 --scheduler none,mq-deadline \
	--workload rand-read --quiet "$DEV" >"$T/b.out" 2>"$T/b.err" &
bpid=$!
for _ in $(seq 200); do
	[ -e "$JOURNAL" ] && break
	sleep 0.05
done
[ -e "$JOURNAL" ] || fail "the tune wrote no journal: $(cat "$T/b.err")"
out=$(DISKBENCH_TUNE_JOURNALS=$T/other "$DISKBENCH" tune --runtime 100ms --ramp 0 --blocks 3 \
	--scheduler none,mq-deadline --workload rand-read --quiet "$DEV" 2>&1)
rc=$?
[ "$rc" -eq 3 ] || fail "a tune with other journals beside a running one: exit $rc, want 3: $out"
printf '%s' "$out" | grep -q "/dev/$NAME is locked by pid $bpid (diskbench)" ||
	fail "a tune with other journals: '$out' does not name the running tune"
[ -z "$(ls -A "$T/other")" ] || fail "the refused tune left $(ls -A "$T/other")"
# a journal there that no tune holds (a copy of the live one: the same disk,
# the settings before): its --restore would undo the live tune's trial
cp "$JOURNAL" "$T/other/"
out=$(DISKBENCH_TUNE_JOURNALS=$T/other "$DISKBENCH" tune --restore "$DEV" 2>&1)
rc=$?
[ "$rc" -eq 3 ] || fail "--restore of other journals beside a running tune: exit $rc: $out"
printf '%s' "$out" | grep -q "is locked by pid $bpid" || fail "--restore of other journals: $out"
[ -e "$T/other/$NAME.journal" ] || fail "the refused --restore removed its journal"
rm -f "$T/other/$NAME.journal"
wait "$bpid"
rc=$?
[ "$rc" -eq 0 ] || fail "the running tune beside the refused ones: exit $rc: $(cat "$T/b.err")"
[ "$(settings "$DEV")" = "$before" ] || fail "after the tune: $(settings "$DEV"), before: $before"
# a tool that holds the node's lock the way udev and util-linux do
# (-o: flock itself holds it, not its command, so killing flock lets go)
flock -o "$DEV" sleep 60 &
fpid=$!
for _ in $(seq 100); do
	grep -q "FLOCK.* WRITE $fpid " /proc/locks && break
	sleep 0.05
done
out=$("$DISKBENCH" tune --runtime 100ms --ramp 0 --blocks 3 --scheduler none,mq-deadline \
	--workload rand-read --quiet "$DEV" 2>&1)
rc=$?
pkill -P "$fpid" sleep 2>/dev/null
kill "$fpid" 2>/dev/null
wait "$fpid" 2>/dev/null
[ "$rc" -eq 3 ] || fail "a tune beside flock $DEV: exit $rc, want 3: $out"
printf '%s' "$out" | grep -q "is locked by pid $fpid (flock)" || fail "beside flock: $out"
[ -e "$JOURNAL" ] && fail "the refused tune left its journal"
[ "$(settings "$DEV")" = "$before" ] || fail "beside flock: $(settings "$DEV"), before: $before"
echo "ok: the disk's node locks out a tune with other journals, their --restore, and beside flock(1)"

# ---- two tunes and a --restore at once, 20 times ----------------------------
ran=0 moved=0
for i in $(seq 20); do
	"$DISKBENCH" tune --runtime 50ms --ramp 0 --blocks 3 --scheduler none,mq-deadline \
		--workload rand-read --json "$T/1.json" "$DEV" >"$T/1.out" 2>"$T/1.err" &
	p1=$!
	# together, or while the first is at its start, its sweep or its end
	sleep "0.$((i % 5 * 2))"
	"$DISKBENCH" tune --runtime 50ms --ramp 0 --blocks 3 --scheduler none,mq-deadline \
		--workload rand-read --json "$T/2.json" "$DEV" >"$T/2.out" 2>"$T/2.err" &
	p2=$!
	sleep 0.3
	out=$("$DISKBENCH" tune --restore "$DEV" 2>&1)
	rrc=$?
	wait "$p1"
	rc1=$?
	wait "$p2"
	rc2=$?
	case $rrc in
	0) printf '%s' "$out" | grep -q "nothing to restore" ||
		fail "try $i: --restore beside two tunes restored something: $out" ;;
	3) printf '%s' "$out" | grep -q "a tune is running (pid" || fail "try $i: $out" ;;
	*) fail "try $i: --restore: exit $rrc: $out" ;;
	esac
	for n in 1 2; do
		eval "rc=\$rc$n"
		case $rc in
		0) ran=$((ran + 1)) ;;
		3) grep -q "settings changed since" "$T/$n.err" && moved=$((moved + 1))
		   grep -q -- "--restore" "$T/$n.err" "$T/$n.out" &&
			fail "try $i: tune $n, refused, is told to run --restore: $(cat "$T/$n.err" "$T/$n.out")"
		   # refused once it had begun: its report says it changed nothing
		   if [ -s "$T/$n.json" ]; then
			[ "$(json "$T/$n.json" 'd["settings_changed"]')" = False ] ||
				fail "try $i: tune $n, refused, says it changed settings"
			grep -q "No setting was changed" "$T/$n.out" ||
				fail "try $i: tune $n: $(cat "$T/$n.out")"
		   fi ;;
		*) fail "try $i: tune $n: exit $rc: $(cat "$T/$n.err")" ;;
		esac
	done
	[ "$(settings "$DEV")" = "$before" ] ||
		fail "try $i: after two tunes: $(settings "$DEV"), before: $before"
	[ -e "$JOURNAL" ] && fail "try $i: a journal was left"
	rm -f "$T/1.json" "$T/2.json"
done
[ "$ran" -ge 20 ] || fail "only $ran tunes of 40 ran: every try should run at least one"
echo "ok: $ran of 40 tunes ran, the others were refused ($moved of them because the settings moved under them)"
