#!/bin/bash
# cpu_wait.sh - a test's wait for a CPU, against a known load: a QD1 job
# pinned to CPU 0 on a RAM-backed loop device, alone and then beside a busy
# loop pinned to the same CPU. Beside it the job must wait at least 10
# points more of its window (cpu.wait_pct; 11 % against 36 % on this
# project's 2-CPU VM), every run must have measured it, and compare must
# widen the test's band towards the busier side, say so ("busier: ..."),
# and leave p99 unjudged. A result without the key (saved before it was
# measured) compares with the plain noise band. Short windows beside three
# busy loops keep every run's wait within 0..100 %.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd losetup python3 taskset
need_diskbench
[ -r /proc/thread-self/schedstat ] || skip "this kernel has no schedstat (CONFIG_SCHED_INFO)"
[ "$(nproc)" -ge 1 ] || skip "no CPU count"
make_loop 64 random
T=$TMP_DIR
ARGS="--test rand-read --bs 4k --qd 1 --runtime 300ms --ramp 50ms --repeat 5 --cpus 0 --quiet"

# shellcheck disable=SC2086
"$DISKBENCH" $ARGS --json "$T/idle.json" "$LOOP_DEV" 2>"$T/idle.err" ||
	fail "alone: $(cat "$T/idle.err")"
taskset -c 0 sh -c 'while :; do :; done' &
hog=$!
at_exit "kill $hog 2>/dev/null"
# shellcheck disable=SC2086
"$DISKBENCH" $ARGS --json "$T/busy.json" "$LOOP_DEV" 2>"$T/busy.err" ||
	fail "beside the busy loop: $(cat "$T/busy.err")"
# Short windows beside three busy loops: the job waits most of each window
# and, once it ends, for a turn to read its wait; that turn is no part of
# the window but is of the wait, so the share is of the time between the
# readings (it was of the window, and came to 128 % in one run). This holds
# the bound; it does not force the overshoot (a preemption at one point of
# the job's code), which did not show here with the older code either.
hogs=$hog
for i in 1 2; do
	taskset -c 0 sh -c 'while :; do :; done' &
	hogs="$hogs $!"
done
at_exit "kill $hogs 2>/dev/null"
# shellcheck disable=SC2086
"$DISKBENCH" ${ARGS/300ms --ramp 50ms --repeat 5/5ms --ramp 0 --repeat 40} --json "$T/short.json" \
	"$LOOP_DEV" 2>"$T/short.err" || fail "short windows: $(cat "$T/short.err")"
# shellcheck disable=SC2086
kill $hogs 2>/dev/null
# shellcheck disable=SC2086
wait $hogs 2>/dev/null
[ "$(json "$T/short.json" 'all(0 <= r["cpu_wait_pct"] <= 100 for r in d["tests"][0]["runs"])')" = True ] ||
	fail "short windows: a wait beyond 100 %: $(json "$T/short.json" '[r["cpu_wait_pct"] for r in d["tests"][0]["runs"]]')"
"$DISKBENCH" report "$T/short.json" >/dev/null 2>"$T/short.err" ||
	fail "short windows: the result does not load: $(cat "$T/short.err")"

for f in idle busy; do
	[ "$(json "$T/$f.json" 'all(r["cpu_wait_pct"] is not None for r in d["tests"][0]["runs"])')" = True ] ||
		fail "$f: a run without cpu_wait_pct"
done
idle=$(json "$T/idle.json" 'd["tests"][0]["cpu"]["wait_pct"]')
busy=$(json "$T/busy.json" 'd["tests"][0]["cpu"]["wait_pct"]')
python3 -c "import sys; sys.exit(not ($busy - $idle >= 10 and 0 <= $idle <= 100 and $busy <= 100))" ||
	fail "the job waited $idle % alone and $busy % beside a busy loop on its CPU"

"$DISKBENCH" compare --json "$T/cmp.json" "$T/idle.json" "$T/busy.json" 2>"$T/cmp.err" ||
	fail "compare --json: $(cat "$T/cmp.err")"
t='d["compared"][0]["tests"][0]'
[ "$(json "$T/cmp.json" "$t[\"busier\"]")" = True ] || fail "compare does not call it busier"
[ "$(json "$T/cmp.json" "$t[\"metrics\"][\"lat_p99_ns\"][\"verdict\"]")" = None ] ||
	fail "p99 was judged although the machine differed"
# the sides' waits are the medians of their runs
want=$(python3 - "$T/idle.json" "$T/busy.json" <<'PY'
import json, statistics, sys
w = [statistics.median(r["cpu_wait_pct"] for r in json.load(open(f))["tests"][0]["runs"])
     for f in sys.argv[1:]]
print(round((100 - w[1]) / (100 - w[0]), 6))
PY
)
got=$(json "$T/cmp.json" "round($t[\"machine_ratio\"], 6)")
[ "$got" = "$want" ] || fail "machine_ratio $got, want (1 - after's) / (1 - before's wait) = $want"
[ "$(json "$T/cmp.json" "$t[\"band\"][0] < 0.97 and $t[\"band\"][1] == 1.03")" = True ] ||
	fail "the band is not widened towards slower only: $(json "$T/cmp.json" "$t[\"band\"]")"
"$DISKBENCH" compare "$T/idle.json" "$T/busy.json" >"$T/cmp.txt" 2>&1 || fail "compare"
grep -q "busier: rand-read 4k qd1: its jobs waited for a CPU" "$T/cmp.txt" ||
	fail "the text does not name the busier test: $(cat "$T/cmp.txt")"

# a side saved before the wait was measured: the noise band, no note
python3 - "$T/busy.json" "$T/old.json" <<'PY' || fail "cannot write old.json"
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tests"]:
    del t["cpu"]["wait_pct"]
    for r in t["runs"]:
        del r["cpu_wait_pct"]
json.dump(d, open(sys.argv[2], "w"))
PY
"$DISKBENCH" compare --json "$T/old.cmp.json" "$T/idle.json" "$T/old.json" 2>"$T/cmp.err" ||
	fail "compare with an older side: $(cat "$T/cmp.err")"
[ "$(json "$T/old.cmp.json" "[$t[\"busier\"], $t[\"band\"], $t[\"cpu_wait_pct\"][\"after\"]]")" = \
	'[false, [0.97, 1.03], null]' ] ||
	fail "an older side: $(json "$T/old.cmp.json" "[$t[\"busier\"], $t[\"band\"]]")"
echo "ok: the job waited $idle % alone, $busy % beside a busy loop on its CPU; compare widened the band to machine ratio $got"
