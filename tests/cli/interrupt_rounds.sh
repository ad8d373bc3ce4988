#!/bin/bash
# interrupt_rounds.sh - Ctrl-C (SIGINT) after the first round of a
# --steady-state test says what happened: interrupted after 1 round, steady
# state not judged, in which round of which test; never "never reached
# steady state", never "its figures are the last 5 rounds' average" (there
# are none), never "pass" (rounds are not passes, and --repeat was not
# given). The saved result's text says the same.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3 pgrep
make_tmpdir /dev/shm
T=$TMP_DIR
mkdir "$T/d"

# Rounds of 1 s; the signal 1.5 s after round 1's job appeared, in round 2
# (on a slow machine round 1 may still run: that case has its own words,
# checked below).
"$DISKBENCH" --engine null --test rand-read --qd 1 --runtime 1s --ramp 0 --steady-state \
	--max-rounds 6 --json "$T/r.json" "$T/d" >"$T/out" 2>"$T/err" &
pid=$!
for i in $(seq 500); do
	pgrep -P "$pid" -x diskbench-j0 >/dev/null && break
	sleep 0.01
done
sleep 1.5
kill -INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "Ctrl-C: exit $rc, want 130: $(cat "$T/err")"
rounds=$(json "$T/r.json" 'd["tests"][0]["steady_state"]["rounds"]')
[ "$rounds" = 1 ] || fail "want the 1 round before the signal kept, got $rounds: $(cat "$T/err")"
grep -q "rand-read 4k qd1: interrupted after 1 round (steady state not judged); a judgement takes 5 rounds, and its figures are that round's" "$T/err" ||
	fail "no 'interrupted after 1 round (steady state not judged)': $(cat "$T/err")"
if [ "$(json "$T/r.json" 'd["tests"][0]["runs"][0]["runtime_ns"] >= 0.99e9')" = True ]; then
	grep -q "interrupted in round 2 of rand-read 4k qd1: the round cut short is left out, and it reports the 1 round that completed; 0 of 1 tests ran their rounds before it" "$T/err" ||
		fail "round 2: $(cat "$T/err")"
else
	msg "note: the signal came in round 1 (a slow machine)"
	grep -q "interrupted in round 1 of rand-read 4k qd1: it reports that round, cut short" "$T/err" ||
		fail "round 1: $(cat "$T/err")"
fi
for bad in "never reached" "last 5 rounds" "pass " "1 rounds"; do
	! grep -q "$bad" "$T/err" || fail "says '$bad': $(cat "$T/err")"
done
grep -q "rand-read 4k qd1: steady state not judged: 1 round ran, cut short of 6" "$T/out" ||
	fail "the text's notes: $(cat "$T/out")"
! grep -q "never steady" "$T/out" || fail "the text says never steady: $(cat "$T/out")"
"$DISKBENCH" report "$T/r.json" >"$T/again" 2>&1 || fail "report: $(cat "$T/again")"
grep -q "steady state not judged: 1 round ran" "$T/again" || fail "report: $(cat "$T/again")"
exit 0
