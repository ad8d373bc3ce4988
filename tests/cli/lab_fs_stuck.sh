#!/bin/bash
# lab_fs_stuck.sh - file tests and the layout on a file system whose device hangs, from the device lab: no hang.
#
# Root, FUSE and mkfs.ext4 only (skips with 77 otherwise). ext4 on the
# loop device that tests/lab/lab.sh makes over labfs, mounted -o dirsync
# in a private directory (every create, unlink and mkdir waits for its
# journal commit, so a file test meets the hang at once, not at the next
# writeback), and labfs never answering one request:
# - meta-create, the hang in its window: diskbench ends within its runtime
#   plus --io-timeout (plus the bounded scratch removal), exit 1, the JSON
#   written and valid, the test stuck, the create named with its file's
#   path on stderr and in "stuck_call"; its output, read through a pipe,
#   ends with it (the abandoned job holds none of it); the scratch
#   directory it could not remove is named; once labfs goes, the job left
#   in the kernel ends, and the mount and the loop device go;
# - meta-stat, the hang in its setup (the files made before the clock):
#   exit 1 within --io-timeout of it, the setup's create named;
# - rand-read, the hang in its layout (the data file written before the
#   tests, by a child process the run watches): exit 1 within
#   --io-timeout of it (plus the scratch removal's), the layout named with
#   the byte it was at, no result file for a run that measured nothing,
#   and once labfs goes nothing left; Ctrl-C during that hang: exit 130
#   within --io-timeout of the signal;
# - rand-read, the hang in the read back of its sample after it (did it
#   read unwritten space?): exit 1 within --io-timeout of it, the test
#   reported with why it was not checked, the read back named;
# - meta-create --thread: the one case where a stuck request holds the
#   process: the result is written all the same, and the process ends
#   (exit 1) once labfs goes.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lab/lab.sh"

need_diskbench
need_lab
need_cmd python3 pgrep mkfs.ext4 mount umount
make_tmpdir
T=$TMP_DIR
FS=$T/mnt
FS_UP=

# ms: milliseconds since the epoch
ms() { echo $(($(date +%s%N) / 1000000)); }

# fs_up LABFS-OPTION...: a lab (lab_start, lab_loop) with ext4 on its loop
# device, mounted -o dirsync at $FS, labfs's counters armed after.
fs_up()
{
	lab_start --size 64m "$@"
	at_exit fs_down		# before lab_start's lab_stop: the mount first
	lab_loop
	mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0 "$LAB_DEV" >"$T/mkfs.out" 2>&1 ||
		fail "mkfs.ext4 $LAB_DEV: $(cat "$T/mkfs.out")"
	mkdir -p "$FS"
	mount -t ext4 -o dirsync,noatime "$LAB_DEV" "$FS" 2>"$T/mount.err" ||
		fail "mount $LAB_DEV: $(cat "$T/mount.err")"
	FS_UP=1
	lab_arm
}

# fs_down: labfs goes first (its exit fails every request it holds, so
# whatever waits in the kernel on this file system ends: an umount first
# could wait for ever), then the file system, then the lab.
fs_down()
{
	local i
	[ -n "$FS_UP" ] || return 0
	FS_UP=
	if lab_alive "$LAB_PID"; then
		kill -TERM "$LAB_PID"
		for i in $(seq 40); do
			lab_alive "$LAB_PID" || break
			sleep 0.05
		done
		lab_alive "$LAB_PID" && kill -KILL "$LAB_PID"
	fi
	for i in $(seq 50); do
		lab_mounted "$FS" || break
		umount "$FS" 2>/dev/null && break
		sleep 0.2
	done
	if lab_mounted "$FS"; then
		msg "warning: $FS still busy: unmounted lazily"
		umount -l "$FS"
	fi
	lab_stop
}

# scratch_said ERRFILE SCRATCH WHAT: the run either named SCRATCH as left
# (in ERRFILE) or removed it after all (a cached lookup, no request to
# hang); left says which, for the test's line
scratch_said()
{
	if grep -qF "the scratch directory $2 was left: its file system stopped answering" "$1"; then
		left="named as left"
	else
		[ ! -e "$2" ] || fail "$3: $2 left, and not said: $(cat "$1")"
		left="removed"
	fi
}

# gone TAG: no process whose command line holds TAG (a job left in the
# kernel, a scratch removal's child) 5 s after labfs went
gone() { poll 50 not pgrep -f -- "$1" >/dev/null; }

# lab_clear DEV: the loop device and the mounts of this lab are gone
lab_clear()
{
	! lab_mounted "$FS" || fail "$1: $FS is still mounted"
	[ -z "$(losetup -l -n -O NAME,BACK-FILE 2>/dev/null | awk -v d="$2" 'index($2, d) == 1')" ] ||
		fail "$1: a loop device over $2 is left: $(losetup -l -n -O NAME,BACK-FILE)"
}

# ---- meta-create, hung in its window ---------------------------------------
# (a few hundred creates in: labfs counts about 4 requests each)
fs_up --hang-nth 600
lab_dir=$LAB_DIR
t0=$(ms)
# Through a pipe: it ends when no process holds its end, diskbench's or not.
# A sanitizer build's jobs keep stderr for their reports (jobs.c): there the
# pipe carries stdout alone, stderr goes to a file, read after.
errto=/dev/stdout
[ "$(suite_pass)" = sanitizers ] && errto=$T/create.err
{
	"$DISKBENCH" --test meta-create --files 10000 --runtime 2s --ramp 0 --io-timeout 2s \
		--json "$T/create.json" "$FS" 2>>"$errto"
	echo "rc=$?"
} | cat >"$T/create.out" &
pipe=$!
poll 300 ended "$pipe"
took=$(($(ms) - t0))
ended "$pipe" || fail "meta-create, a hang: its output still open 30 s later: $(cat "$T/create.out")"
[ "$errto" = /dev/stdout ] || cat "$errto" >>"$T/create.out"
rc=$(sed -n 's/^rc=//p' "$T/create.out")
grep -q "^# hang" "$LAB_LOG" ||
	fail "meta-create: labfs never hung a request (exit $rc): $(cat "$T/create.out")"
[ "$rc" = 1 ] || fail "meta-create, a hang: exit $rc, want 1: $(cat "$T/create.out")"
# its runtime, --io-timeout, the scratch removal's --io-timeout, and slack
[ "$took" -lt 12000 ] || fail "meta-create, a hang: took $took ms (runtime 2 s, --io-timeout 2 s)"
J=$T/create.json
[ "$(json "$J" 'd["schema"] + " " + str(len(d["tests"]))' 2>&1)" = "diskbench/1 1" ] ||
	fail "meta-create, a hang: not one whole result: $(json "$J" 'd["schema"]' 2>&1 | tail -1)"
[ "$(json "$J" "(lambda t: t['stuck'] and t['stuck_call']['call'] == 'create' and t['errors'] == 1 and t['io_errors'][0]['errno'] == 110 and t['ops'] > 0)(d['tests'][0])")" = True ] ||
	fail "meta-create, a hang: $(json "$J" '{k: d["tests"][0].get(k) for k in ("stuck", "stuck_call", "errors", "io_errors", "ops")}')"
path=$(json "$J" 'd["tests"][0]["stuck_call"]["path"]')
case $path in
"$FS"/diskbench.??????/meta-0/d0/*) ;;
*) fail "meta-create, a hang: the stuck create's path $path is not one of its files" ;;
esac
grep -qF "meta-create: a create of $path (job 0) did not complete within 2.0 s (--io-timeout)" "$T/create.out" ||
	fail "meta-create, a hang: stderr does not name the create: $(cat "$T/create.out")"
scratch=${path%/meta-0/*}
scratch_said "$T/create.out" "$scratch" "meta-create, a hang"
fs_down
gone "$J" || fail "meta-create, a hang: a process of the run outlived labfs by 5 s: $(pgrep -af -- "$J")"
lab_clear "meta-create, a hang" "$lab_dir"
echo "ok   meta-create, a create that never completes: exit 1 in $took ms, named ($path), scratch $left, nothing left once labfs went"

# ---- meta-stat, hung in its setup --------------------------------------------
fs_up --hang-nth 600
lab_dir=$LAB_DIR
t0=$(ms)
timeout 60 "$DISKBENCH" --test meta-stat --files 4000 --runtime 2s --ramp 0 --io-timeout 2s \
	--json "$T/stat.json" "$FS" >"$T/stat.out" 2>"$T/stat.err"
rc=$?
took=$(($(ms) - t0))
grep -q "^# hang" "$LAB_LOG" || fail "meta-stat: labfs never hung a request (exit $rc): $(cat "$T/stat.err")"
[ "$rc" -eq 1 ] || fail "meta-stat, a hang in its setup: exit $rc, want 1 (124: timeout's): $(cat "$T/stat.err")"
[ "$took" -lt 12000 ] || fail "meta-stat, a hang in its setup: took $took ms (--io-timeout 2 s)"
grep -Eq "meta-stat: job 0's setup: a create of $FS/diskbench\.[[:alnum:]]{6}/meta-0/d0/[[:alnum:]]+ did not complete within 2\.0 s \(--io-timeout\)" "$T/stat.err" ||
	fail "meta-stat, a hang in its setup: stderr does not name the create: $(cat "$T/stat.err")"
fs_down
gone "$T/stat.json" || fail "meta-stat, a hang in its setup: a process of the run outlived labfs"
lab_clear "meta-stat, a hang in its setup" "$lab_dir"
echo "ok   meta-stat, a create of its setup that never completes: exit 1 in $took ms, named"

# ---- rand-read, hung in its layout -------------------------------------------
# layout_up: a lab of 128 MiB (room for a 64 MiB working set) whose 600th
# request hangs, with the queue's requests cut to 64 KiB, so that a 64 MiB
# layout is a thousand of them and the 600th one of its writes (mkfs's
# requests before the arm count too: at full size the layout's would end
# before the 600th)
layout_up()
{
	fs_up --size 128m --hang-nth 600
	lab_queue_set max_sectors_kb 64 ||
		fail "$LAB_DEV: cannot cut its requests to 64 KiB"
}

# layout_hung WHAT: labfs's hang was one of the layout's writes (64 KiB; the
# journal's are blocks): "# hang SEQ OP OFFSET SIZE"
layout_hung()
{
	local hang
	hang=$(grep "^# hang" "$LAB_LOG")
	[ -n "$hang" ] || fail "$1: labfs never hung a request: $(cat "$T/layout.err")"
	# shellcheck disable=SC2086 # the line's fields
	set -- "$1" $hang
	if [ "$5" != write ] || [ "$7" != 65536 ]; then
		fail "$1: the request hung ($hang) is not one of the layout's writes"
	fi
}

# wait_ended PID: wait up to 30 s for it to end; its exit status in rc
wait_ended()
{
	poll 300 ended "$1" || return 1
	wait "$1"
	rc=$?
}

layout_up
lab_dir=$LAB_DIR
t0=$(ms)
"$DISKBENCH" --test rand-read --size 64m --runtime 1s --ramp 0 --io-timeout 2s \
	--json "$T/layout.json" "$FS" >"$T/layout.out" 2>"$T/layout.err" &
pid=$!
at_exit "kill -KILL $pid 2>/dev/null"
wait_ended "$pid" || fail "a hang in the layout: still running 30 s later: $(cat "$T/layout.err")"
took=$(($(ms) - t0))
layout_hung "a hang in the layout"
[ "$rc" -eq 1 ] || fail "a hang in the layout: exit $rc, want 1: $(cat "$T/layout.err")"
# --io-timeout, the scratch removal's --io-timeout, and slack
[ "$took" -lt 9000 ] || fail "a hang in the layout: took $took ms (--io-timeout 2 s)"
grep -Eq "^diskbench: $FS/diskbench\.[[:alnum:]]{6}/data: laying out the working set: no progress for 2\.0 s at byte [0-9]+ of 67108864 \(--io-timeout\): the device stopped answering$" "$T/layout.err" ||
	fail "a hang in the layout: stderr does not name it: $(cat "$T/layout.err")"
[ ! -e "$T/layout.json" ] || fail "a hang in the layout: a run that measured nothing wrote a result"
[ -s "$T/layout.out" ] && fail "a hang in the layout: a run that measured nothing printed a table"
scratch=$(sed -n 's/^diskbench: \(.*\)\/data: laying out .*/\1/p' "$T/layout.err")
scratch_said "$T/layout.err" "$scratch" "a hang in the layout"
fs_down
gone "$T/layout.json" || fail "a hang in the layout: a process of the run outlived labfs by 5 s: $(pgrep -af -- "$T/layout.json")"
lab_clear "a hang in the layout" "$lab_dir"
echo "ok   rand-read, a write of its layout that never completes: exit 1 in $took ms, named, scratch $left, nothing left once labfs went"

# ---- Ctrl-C while the layout hangs --------------------------------------------
layout_up
lab_dir=$LAB_DIR
"$DISKBENCH" --test rand-read --size 64m --runtime 1s --ramp 0 --io-timeout 2s \
	--json "$T/layint.json" "$FS" >"$T/layout.out" 2>"$T/layout.err" &
pid=$!
at_exit "kill -KILL $pid 2>/dev/null"
poll 300 logged_or_ended "^# hang" "$LAB_LOG" "$pid"
layout_hung "Ctrl-C in a hung layout"
t0=$(ms)
kill -INT "$pid"
wait_ended "$pid" || fail "Ctrl-C in a hung layout: still running 30 s later: $(cat "$T/layout.err")"
took=$(($(ms) - t0))
[ "$rc" -eq 130 ] || fail "Ctrl-C in a hung layout: exit $rc, want 130: $(cat "$T/layout.err")"
[ "$took" -lt 7000 ] || fail "Ctrl-C in a hung layout: took $took ms (--io-timeout 2 s)"
grep -q "interrupted while laying out the working set: nothing was measured" "$T/layout.err" ||
	fail "Ctrl-C in a hung layout: no word of it: $(cat "$T/layout.err")"
[ ! -e "$T/layint.json" ] || fail "Ctrl-C in a hung layout: a run that measured nothing wrote a result"
fs_down
gone "$T/layint.json" || fail "Ctrl-C in a hung layout: a process of the run outlived labfs by 5 s"
lab_clear "Ctrl-C in a hung layout" "$lab_dir"
echo "ok   Ctrl-C while a write of the layout hangs: exit 130 in $took ms, nothing left once labfs went"

# ---- rand-read, hung in the read back of its sample after it -----------------
# Its reads are 64 KiB, the layout's writes too, the file system's 1 KiB
# blocks: the sample's 4 KiB reads are the only ones labfs hangs.
fs_up --size 128m --hang-size 4k
lab_dir=$LAB_DIR
lab_queue_set max_sectors_kb 64 ||
	fail "$LAB_DEV: cannot cut its requests to 64 KiB"
t0=$(ms)
"$DISKBENCH" --test rand-read --bs 64k --qd 1 --size 32m --runtime 1s --ramp 0 --io-timeout 2s \
	--json "$T/sample.json" "$FS" >"$T/sample.out" 2>"$T/sample.err" &
pid=$!
at_exit "kill -KILL $pid 2>/dev/null"
wait_ended "$pid" || fail "a hang in the sample: still running 30 s later: $(cat "$T/sample.err")"
took=$(($(ms) - t0))
grep -q "^# hang [0-9]* read [0-9]* 4096$" "$LAB_LOG" ||
	fail "the sample: labfs hung no 4 KiB read (exit $rc): $(grep "^# hang" "$LAB_LOG") $(cat "$T/sample.err")"
[ "$rc" -eq 1 ] || fail "a hang in the sample: exit $rc, want 1: $(cat "$T/sample.err")"
# the layout, its runtime, --io-timeout, the scratch removal's, and slack
[ "$took" -lt 12000 ] || fail "a hang in the sample: took $took ms (runtime 1 s, --io-timeout 2 s)"
grep -qF "rand-read 64k qd1: reading a sample of its data back after it (did it read unwritten space?): no progress for 2.0 s (--io-timeout): the device stopped answering" "$T/sample.err" ||
	fail "a hang in the sample: stderr does not name it: $(cat "$T/sample.err")"
J=$T/sample.json
[ "$(json "$J" "(lambda t: len(d['tests']) == 1 and t['ops'] > 0 and not t['unwritten']['checked'] and t['unwritten']['reason'].startswith('reading a sample back: no progress'))(d['tests'][0])" 2>&1)" = True ] ||
	fail "a hang in the sample: $(json "$J" '[(t["name"], t["ops"], t.get("unwritten")) for t in d["tests"]]' 2>&1)"
grep -q "^rand-read 64k qd1" "$T/sample.out" || fail "a hang in the sample: the test is not in the table: $(cat "$T/sample.out")"
fs_down
gone "$J" || fail "a hang in the sample: a process of the run outlived labfs by 5 s: $(pgrep -af -- "$J")"
lab_clear "a hang in the sample" "$lab_dir"
echo "ok   rand-read, a read of its sample that never completes: exit 1 in $took ms, the test reported, named"

# ---- --thread: the stuck request holds the process, the result is written ----
fs_up --hang-nth 600
lab_dir=$LAB_DIR
"$DISKBENCH" --test meta-create --files 10000 --runtime 2s --ramp 0 --io-timeout 2s --thread \
	--json "$T/thread.json" "$FS" >"$T/thread.out" 2>"$T/thread.err" &
pid=$!
at_exit "kill -KILL $pid 2>/dev/null"
thread_stuck() { json "$T/thread.json" 'd["tests"][0]["stuck"]' 2>/dev/null | grep -q True; }
poll 300 eval 'thread_stuck || ended "$pid"'
[ "$(json "$T/thread.json" 'd["tests"][0]["stuck_call"]["call"]' 2>/dev/null)" = create ] ||
	fail "--thread, a hang: no result naming the create in 30 s: $(cat "$T/thread.err")"
sleep 1
kill -0 "$pid" 2>/dev/null || fail "--thread, a hang: the process ended while its thread was stuck (fix the doc)"
fs_down
poll 100 ended "$pid" || fail "--thread, a hang: still running 10 s after labfs went"
wait "$pid"
rc=$?
[ "$rc" -eq 1 ] || fail "--thread, a hang: exit $rc, want 1: $(cat "$T/thread.err")"
lab_clear "--thread, a hang" "$lab_dir"
echo "ok   --thread: the result written while the stuck thread held the process, exit 1 once labfs went"
echo PASS
exit 0
