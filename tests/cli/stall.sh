#!/bin/bash
# stall.sh - a job process stopped (SIGSTOP, as a job stuck in the kernel
# would be) while the other goes on is named in a warning (job, how long,
# when, its last offset) and in the JSON (stalls), and the test's window
# and IOPS are over the time the jobs ran, not the stop: runtime_ns is the
# 3 s the jobs ran, window.span_ns keeps the longer span. A run left alone
# names no stall and says its window is the longest job's.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3 pgrep
make_tmpdir /var/tmp
T=$TMP_DIR
STOP=4

run() # NAME [STOP [tty]]: a 3 s, 2-job random read into $T/NAME.{json,out,err}
{	# (tty: on a terminal, under script(1), into $T/NAME.tty); rc
	local name=$1 stop=${2:-} pid jp='' t i
	rm -rf "$T/d"
	mkdir "$T/d"
	if [ "${3:-}" = tty ]; then
		script -qfc "'$DISKBENCH' --test rand-read --engine sync --jobs 2 --runtime 3s \
			--ramp 0 --size 16m '$T/d'" "$T/$name.tty" >/dev/null 2>&1 </dev/null &
		pid=$!
		# the run is script's child (or its shell's): the oldest process
		# whose command line ends in this test's target (its jobs' do too)
		for i in $(seq 400); do
			pid=$(pgrep -o -f -- "--size 16m $T/d\$") && break
			sleep 0.01
		done
	else
		"$DISKBENCH" --test rand-read --engine sync --jobs 2 --runtime 3s --ramp 0 \
			--size 16m --json "$T/$name.json" "$T/d" >"$T/$name.out" 2>"$T/$name.err" &
		pid=$!
	fi
	if [ -n "$stop" ]; then
		# job 1's process (diskbench-j1), once the jobs are there
		for i in $(seq 400); do
			for t in $(pgrep -P "$pid"); do
				[ "$(cat "/proc/$t/comm" 2>/dev/null)" = diskbench-j1 ] && jp=$t
			done
			[ -n "$jp" ] && break
			sleep 0.05
		done
		[ -n "$jp" ] || { kill "$pid"; fail "job 1's process never showed"; }
		at_exit "kill -CONT $jp 2>/dev/null"
		# in its loop (reading) before it is stopped, not in its setup
		for i in $(seq 400); do
			[ "$(awk '/^syscr:/ { print $2 }' "/proc/$jp/io" 2>/dev/null || echo 0)" -gt 100 ] &&
				break
			sleep 0.01
		done
		sleep 0.5
		kill -STOP "$jp"
		sleep "$stop"
		kill -CONT "$jp"
	fi
	if [ "${3:-}" = tty ]; then
		wait
		rc=0
	else
		wait "$pid"
		rc=$?
	fi
}

# 1. Left alone: no stall, and the window is the longest job's.
run calm
[ "$rc" -eq 0 ] || fail "calm run: exit $rc: $(cat "$T/calm.err")"
[ "$(json "$T/calm.json" 'd["tests"][0]["stalls"]')" = "[]" ] ||
	fail "calm run names stalls: $(json "$T/calm.json" 'd["tests"][0]["stalls"]')"
[ "$(json "$T/calm.json" 'd["tests"][0]["window"]["method"]')" = "longest job window" ] ||
	fail "calm run's window: $(json "$T/calm.json" 'd["tests"][0]["window"]')"
[ "$(json "$T/calm.json" '(lambda t: t["window"]["span_ns"] == t["runtime_ns"])(d["tests"][0])')" = True ] ||
	fail "calm run: span and runtime differ: $(json "$T/calm.json" 'd["tests"][0]["window"]')"
! grep -q "completed nothing" "$T/calm.err" || fail "calm run warns of a stall: $(cat "$T/calm.err")"

# 2. Job 1 stopped for $STOP s of the 3 s test.
run stopped "$STOP"
[ "$rc" -eq 0 ] || fail "stopped run: exit $rc: $(cat "$T/stopped.err")"
J=$T/stopped.json
[ "$(json "$J" 'len(d["tests"][0]["stalls"])')" = 1 ] ||
	fail "want one stall: $(json "$J" 'd["tests"][0]["stalls"]')"
[ "$(json "$J" 'd["tests"][0]["stalls"][0]["job"]')" = 1 ] ||
	fail "the stall is not job 1's: $(json "$J" 'd["tests"][0]["stalls"]')"
# how long: the stop, less at most a reading (0.1 s), more what the
# scheduler took to let the job go on
[ "$(json "$J" "$STOP - 0.5 <= d['tests'][0]['stalls'][0]['seconds'] <= $STOP + 0.5")" = True ] ||
	fail "stall of $STOP s measured as: $(json "$J" 'd["tests"][0]["stalls"]')"
# when: the stop came 0.5 s after the job was reading, inside the window
[ "$(json "$J" "0.2e9 <= d['tests'][0]['stalls'][0]['start_ns'] <= 2.5e9")" = True ] ||
	fail "stall's start: $(json "$J" 'd["tests"][0]["stalls"]')"
# where: a 4 KiB block of the 16 MiB working set
[ "$(json "$J" "(lambda o: o % 4096 == 0 and 0 <= o < 16 << 20)(d['tests'][0]['stalls'][0]['offset'])")" = True ] ||
	fail "stall's offset: $(json "$J" 'd["tests"][0]["stalls"]')"
# the window: the 3 s the jobs ran, not the span with the stop in it
[ "$(json "$J" "2.9e9 <= d['tests'][0]['runtime_ns'] <= 3.5e9")" = True ] ||
	fail "runtime_ns with a stopped job: $(json "$J" 'd["tests"][0]["runtime_ns"]')"
[ "$(json "$J" "(lambda t: t['window']['span_ns'] >= ($STOP + 0.5) * 1e9 and t['window']['span_ns'] > t['runtime_ns'] + 1e9)(d['tests'][0])")" = True ] ||
	fail "span_ns: $(json "$J" 'd["tests"][0]["window"]')"
[ "$(json "$J" 'd["tests"][0]["window"]["method"]')" = "longest job window less its stalls" ] ||
	fail "window method: $(json "$J" 'd["tests"][0]["window"]')"
# and the IOPS are over it
[ "$(json "$J" "(lambda t: abs(t['iops'] - t['ops'] / t['runtime_ns'] * 1e9) < 0.01 * t['iops'])(d['tests'][0])")" = True ] ||
	fail "iops is not ops over runtime_ns: $(json "$J" 'd["tests"][0]["iops"]')"
grep -q "rand-read 4k qd1 j2: a job completed nothing while the other jobs went on.*job 1 for [0-9.]* s from [0-9.]* s into the window, its last request at offset [0-9]*; the window counts the time the jobs ran" "$T/stopped.err" ||
	fail "no warning naming job 1: $(cat "$T/stopped.err")"
# the emptied span of the timeline is the stall's, not a drift's
! grep -q "did not settle" "$T/stopped.err" || fail "a stall called a drift: $(cat "$T/stopped.err")"
# the saved result says it again
"$DISKBENCH" report "$J" >"$T/report.out" 2>&1 || fail "report: exit $?: $(cat "$T/report.out")"
grep -q "job 1 for" "$T/report.out" || fail "report of the saved result: $(cat "$T/report.out")"
# 3. On a terminal, the progress line says which job stands still, live.
if command -v script >/dev/null 2>&1; then
	run tty 2.5 tty
	tr '\r' '\n' <"$T/tty.tty" | grep -aq "rand-read 4k qd1 j2  [0-9.]*s / 3.0s  .*  job 1 stalled [12]\.[0-9]s" ||
		fail "no stalled job on the progress line: $(tr '\r' '\n' <"$T/tty.tty" | grep -a IOPS)"
else
	msg "note: no script(1): the progress line not tried"
fi
msg "stopped $STOP s: $(json "$J" 'd["tests"][0]["stalls"][0]'), runtime $(json "$J" 'd["tests"][0]["runtime_ns"]') ns, span $(json "$J" 'd["tests"][0]["window"]["span_ns"]') ns"
exit 0
