#!/bin/bash
# lab_stuck.sh - a stalled device and a request that never completes, from the device lab: no hang.
#
# Root and FUSE only (skips with 77 otherwise). On the loop device that
# tests/lab/lab.sh makes over labfs:
# - labfs holds one read 2 s: with --io-timeout 1s it is named (job,
#   offset: the one labfs held, about how long) in the JSON's
#   slow_requests and a warning, and the run goes on: exit 0;
# - labfs never answers one read: the test ends at its runtime plus
#   --io-timeout, naming the request (ETIMEDOUT at labfs's offset), exit 1,
#   the result written, the rest of the plan not run, and the job process
#   abandoned ends once labfs goes;
# - Ctrl-C while that request hangs: exit 130 within the timeout, the
#   partial result written;
# - tune on the lab's loop device whose trial hangs: tune stops naming the
#   request, and once the device answers again (the kernel switches a
#   queue's scheduler only once it has drained) every queue setting under
#   /sys/block/loopN/queue is put back, exit 1.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lab/lab.sh"

need_diskbench
need_lab
need_cmd python3 pgrep timeout
make_tmpdir
T=$TMP_DIR

# ms: milliseconds since the epoch
ms() { echo $(($(date +%s%N) / 1000000)); }

# ---- one read held 2 s: reported, and the run goes on -------------------
lab_start --size 16m --stall 300:2s
lab_loop
lab_arm
timeout 60 "$DISKBENCH" --test rand-read --engine sync --runtime 4s --ramp 0 --io-timeout 1s \
	--json "$T/slow.json" "$LAB_DEV" >"$T/slow.out" 2>"$T/slow.err"
rc=$?
[ "$rc" -eq 0 ] || fail "a 2 s stall: exit $rc, want 0: $(cat "$T/slow.err")"
J=$T/slow.json
held=$(lab_requests read | awk '$5 >= 1500000000 { print $3 }' | head -1)
[ -n "$held" ] || fail "a 2 s stall: labfs held no read: $(lab_requests read | sort -k5 -n | tail -2)"
[ "$(json "$J" 'len(d["tests"][0]["slow_requests"])')" = 1 ] ||
	fail "a 2 s stall: slow_requests $(json "$J" 'd["tests"][0]["slow_requests"]')"
[ "$(json "$J" "(lambda s: s['job'] == 0 and s['offset'] == $held and 1.0 <= s['seconds'] <= 2.3)(d['tests'][0]['slow_requests'][0])")" = True ] ||
	fail "a 2 s stall of the read at $held: $(json "$J" 'd["tests"][0]["slow_requests"]')"
[ "$(json "$J" 'd["tests"][0]["io_timeout_ns"] == 1e9 and not d["tests"][0]["stuck"] and d["tests"][0]["errors"] == 0')" = True ] ||
	fail "a 2 s stall: $(json "$J" '{k: d["tests"][0][k] for k in ("io_timeout_ns", "stuck", "errors")}')"
grep -q "rand-read 4k qd1: a request was in flight 1.0 s or longer (--io-timeout): job 0 at offset $held" "$T/slow.err" ||
	fail "a 2 s stall: no warning naming it: $(cat "$T/slow.err")"
echo "ok   a read held 2 s: named (offset $held, $(json "$J" 'd["tests"][0]["slow_requests"][0]["seconds"]') s), exit 0"
lab_stop

# ---- a read that never completes: the test ends at runtime + timeout ------
lab_start --size 16m --hang-nth 300
lab_loop
lab_arm
t0=$(ms)
timeout 60 "$DISKBENCH" --test rand-read,seq-read --engine sync --runtime 2s --ramp 0 \
	--io-timeout 1s --json "$T/hang.json" "$LAB_DEV" >"$T/hang.out" 2>"$T/hang.err"
rc=$?
took=$(($(ms) - t0))
[ "$rc" -eq 1 ] || fail "a hang: exit $rc, want 1 (124: timeout's): $(cat "$T/hang.err")"
[ "$took" -lt 15000 ] || fail "a hang: took $took ms for a 2 s test with --io-timeout 1s"
J=$T/hang.json
off=$(sed -n 's/^# hang [0-9]* read \([0-9]*\) .*/\1/p' "$LAB_LOG" | head -1)
[ -n "$off" ] || fail "a hang: labfs logged none"
[ "$(json "$J" 'len(d["tests"])')" = 1 ] || fail "a hang: want 1 test: $(json "$J" '[t["name"] for t in d["tests"]]')"
[ "$(json "$J" "(lambda t: t['stuck'] and t['errors'] == 1 and t['io_errors'][0]['errno'] == 110 and t['io_errors'][0]['offset'] == $off and t['ops'] > 0)(d['tests'][0])")" = True ] ||
	fail "a hang at $off: $(json "$J" '{k: d["tests"][0][k] for k in ("stuck", "errors", "io_errors", "ops")}')"
grep -q "rand-read 4k qd1: a request at offset $off (job 0) did not complete within 1.0 s (--io-timeout)" "$T/hang.err" ||
	fail "a hang: stderr does not name it: $(cat "$T/hang.err")"
lab_stop
# its job process (a fork: the run's command line) ends once labfs goes
poll 50 not pgrep -f -- "$T/hang.json" >/dev/null || fail "a hang: the abandoned job outlived labfs by 5 s"
echo "ok   a read that never completes: exit 1 in $took ms, named (ETIMEDOUT at $off), the job gone with labfs"

# ---- Ctrl-C while a request hangs -----------------------------------------
lab_start --size 16m --hang-nth 300
lab_loop
lab_arm
"$DISKBENCH" --test rand-read --engine io_uring --qd 4 --runtime 60s --ramp 0 --io-timeout 2s \
	--json "$T/int.json" "$LAB_DEV" >"$T/int.out" 2>"$T/int.err" &
pid=$!
poll 100 grep -q "^# hang" "$LAB_LOG"
grep -q "^# hang" "$LAB_LOG" || { kill -KILL "$pid"; fail "Ctrl-C: labfs never hung a read"; }
sleep 0.5
t0=$(ms)
kill -INT "$pid"
poll 150 ended "$pid" || { kill -KILL "$pid"; fail "Ctrl-C during a hang: still running 15 s later"; }
wait "$pid"
rc=$?
took=$(($(ms) - t0))
[ "$rc" -eq 130 ] || fail "Ctrl-C during a hang: exit $rc, want 130: $(cat "$T/int.err")"
[ "$(json "$T/int.json" '(lambda t: t["stuck"] and t["ops"] > 0)(d["tests"][0])')" = True ] ||
	fail "Ctrl-C during a hang: $(json "$T/int.json" '{k: d["tests"][0][k] for k in ("stuck", "ops")}')"
lab_stop
echo "ok   Ctrl-C while a request hangs: exit 130 after $took ms, the partial result written"

# ---- tune on the lab's loop device, a trial hanging: settings put back ---
lab_start --size 64m --hang-nth 2000
lab_loop
q=/sys/block/$(basename "$LAB_DEV")/queue
settings()
{
	local k
	for k in scheduler read_ahead_kb nr_requests max_sectors_kb nomerges wbt_lat_usec; do
		[ -e "$q/$k" ] && printf '%s=%s ' "$k" "$(cat "$q/$k")"
	done
	echo
}
before=$(settings)
lab_arm
"$DISKBENCH" tune --runtime 300ms --ramp 0 --blocks 4 --scheduler none,mq-deadline \
	--workload rand-read --json "$T/tune.json" "$LAB_DEV" >"$T/tune.out" 2>"$T/tune.err" &
pid=$!
at_exit "kill -KILL $pid 2>/dev/null"
# the trial ends at its runtime plus the default --io-timeout (5 s) and
# tune stops; while the request is held the kernel cannot switch the
# queue's scheduler (it drains the queue first), so the put-back waits
poll 300 logged_or_ended "tune stopped" "$T/tune.err" "$pid"
grep -q "^# hang" "$LAB_LOG" || fail "tune: labfs never hung a read (the sweep did fewer requests)"
grep -q "tune stopped" "$T/tune.err" || fail "tune, a trial hanging: not stopped in 30 s: $(tail -3 "$T/tune.err")"
grep -q "did not complete within 5.0 s (--io-timeout)" "$T/tune.err" ||
	fail "tune, a trial hanging: the stop does not name the request: $(tail -3 "$T/tune.err")"
# the device answers again (its request fails): tune puts it all back
kill -TERM "$LAB_PID"
poll 300 ended "$pid" || fail "tune, a trial hanging: still running 30 s after labfs went"
wait "$pid"
rc=$?
[ "$rc" -eq 1 ] || fail "tune, a trial hanging: exit $rc, want 1: $(tail -3 "$T/tune.err")"
[ "$(settings)" = "$before" ] || fail "tune, a trial hanging: after $(settings), before $before"
[ "$(json "$T/tune.json" 'd["restored"]')" = True ] || fail "tune, a trial hanging: not restored"
lab_stop
echo "ok   tune, a trial hanging: stopped naming it, exit 1, every queue setting put back ($before)"
echo PASS
exit 0
