#!/bin/bash
# midrun.sh - Ctrl-C is honoured in every phase within about a second (the
# layout of the working set, the file tests' setup of many files), nothing
# is left behind, and what was measured is reported; a test that cannot start
# mid-run (its target vanished) leaves the tests before it reported, in text
# and in every output file, with the failure and exit status 1.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp
T=$TMP_DIR

# wait_for CMD...: poll CMD every 20 ms for up to 10 s.
wait_for()
{
	local i
	for i in $(seq 500); do
		"$@" && return 0
		sleep 0.02
	done
	return 1
}
# interrupt_when ERRFILE CHECK ARG: once CHECK ARG holds, send SIGINT to the
# run in $pid and wait for it; rc = its exit status, took = the ms it took.
interrupt_when()
{
	local errfile=$1 t0
	shift
	wait_for "$@" || fail "'$*' never held: $(cat "$errfile")"
	t0=$(date +%s%N)
	kill -INT "$pid"
	wait "$pid"
	rc=$?
	took=$((($(date +%s%N) - t0) / 1000000))
}
scratch_in() { ls -d "$1"/diskbench.* 2>/dev/null | head -n 1; }
data_over() { local s; s=$(scratch_in "$1"); [ -n "$s" ] && [ "$(stat -c %s "$s/data" 2>/dev/null || echo 0)" -gt $((64 << 20)) ]; }
meta_started() { local s; s=$(scratch_in "$1"); [ -n "$s" ] && [ -d "$s/meta-0/d0" ] && [ "$(ls -f "$s/meta-0/d0" | wc -l)" -gt 5000 ]; }

# 1. Ctrl-C during the file tests' setup: 2 million files would take a
# minute to make; the run stops within about a second of the signal,
# removes what it made, and says the test was stopped while it set up.
D=$T/meta
mkdir "$D"
"$DISKBENCH" --test seq-read,meta-stat --qd 1 --files 2000000 --size 8m --runtime 300ms --ramp 0 \
	--max-fill 99 --json "$T/meta.json" "$D" >"$T/meta.out" 2>"$T/meta.err" &
pid=$!
interrupt_when "$T/meta.err" meta_started "$D"
[ "$rc" -eq 130 ] || fail "Ctrl-C in setup: exit $rc, want 130: $(cat "$T/meta.err")"
# The files made so far are removed too (most of the time taken).
[ "$took" -lt 5000 ] || fail "Ctrl-C in setup: took $took ms to stop"
msg "Ctrl-C during file setup: stopped and cleaned up in $took ms"
[ -z "$(ls -A "$D")" ] || fail "Ctrl-C in setup left: $(ls -A "$D")"
grep -q "meta-stat was stopped while it set up" "$T/meta.err" ||
	fail "no word of the interrupted setup: $(cat "$T/meta.err")"
# The test measured before it is reported, in text and JSON.
grep -q "^seq-read 1m qd1" "$T/meta.out" || fail "the measured test is not in the text: $(cat "$T/meta.out")"
[ "$(json "$T/meta.json" '[t["name"] for t in d["tests"]]')" = '["seq-read 1m qd1"]' ] ||
	fail "JSON after Ctrl-C in setup: $(json "$T/meta.json" '[t["name"] for t in d["tests"]]')"

# On a terminal, the long unmeasured phases show how far they are.
if command -v script >/dev/null 2>&1; then
	P=$T/progress
	mkdir "$P"
	script -qfc "'$DISKBENCH' --test meta-stat --files 100000 --runtime 300ms '$P'" \
		"$T/typescript" >/dev/null 2>&1 </dev/null || fail "the run under script: exit $?"
	tr '\r' '\n' <"$T/typescript" >"$T/lines"
	grep -aq "meta-stat  setting up: [0-9]* of 100000 files" "$T/lines" ||
		fail "no setup progress on a terminal: $(head -c 600 "$T/lines")"
	grep -aq "meta-stat  cleaning up" "$T/lines" ||
		fail "no clean-up progress on a terminal: $(head -c 600 "$T/lines")"
else
	msg "note: no script(1): progress on a terminal not tried"
fi

# 2. Ctrl-C during the layout of a large working set: stops within about a
# second, nothing measured, nothing written, the old report kept.
L=$T/layout
mkdir "$L"
free_kb=$(df --output=avail "$L" | tail -n 1)
size_mb=$((free_kb / 1024 / 4))
[ "$size_mb" -gt 16384 ] && size_mb=16384
if [ "$size_mb" -lt 2048 ]; then
	msg "note: under 8 GiB free in $L: Ctrl-C during the layout not tried"
else
	echo old >"$T/old.json"
	"$DISKBENCH" --test rand-read --size "${size_mb}m" --runtime 1s --json "$T/old.json" \
		"$L" >"$T/lay.out" 2>"$T/lay.err" &
	pid=$!
	interrupt_when "$T/lay.err" data_over "$L"
	[ "$rc" -eq 130 ] || fail "Ctrl-C in the layout: exit $rc: $(cat "$T/lay.err")"
	[ "$took" -lt 2000 ] || fail "Ctrl-C in the layout: took $took ms to stop"
	msg "Ctrl-C during the layout: stopped in $took ms"
	grep -q "interrupted while laying out the working set: nothing was measured" "$T/lay.err" ||
		fail "no word of the interrupted layout: $(cat "$T/lay.err")"
	[ -z "$(ls -A "$L")" ] || fail "Ctrl-C in the layout left: $(ls -A "$L")"
	[ "$(cat "$T/old.json")" = old ] || fail "a run that measured nothing replaced the old report"
	[ -s "$T/lay.out" ] && fail "a run that measured nothing printed a table"
fi

# 3. A test that cannot start: the file target vanishes during the first
# of two 2 s tests; the second cannot open it.
F=$T/target.img
head -c $((16 << 20)) /dev/urandom >"$F" || fail "cannot write $F"
"$DISKBENCH" --test seq-read,rand-read --qd 1 --runtime 2s --ramp 0 --json "$T/fail.json" \
	--csv "$T/fail.csv" "$F" >"$T/fail.out" 2>"$T/fail.err" &
pid=$!
sleep 1
rm -f "$F"
wait "$pid"
rc=$?
[ "$rc" -eq 1 ] || fail "a test that could not start: exit $rc, want 1: $(cat "$T/fail.err")"
grep -q "rand-read 4k qd1: .*No such file" "$T/fail.err" || fail "the failure is not named: $(cat "$T/fail.err")"
grep -q "^seq-read 1m qd1" "$T/fail.out" || fail "the measured test is not in the text: $(cat "$T/fail.out")"
[ "$(json "$T/fail.json" '[t["name"] for t in d["tests"]]')" = '["seq-read 1m qd1"]' ] ||
	fail "JSON after a failure: $(json "$T/fail.json" '[t["name"] for t in d["tests"]]')"
json "$T/fail.json" '[w for w in d["warnings"] if "rand-read 4k qd1 could not run" in w][0]' >/dev/null ||
	fail "the JSON does not carry the failure: $(json "$T/fail.json" 'd["warnings"]')"
[ "$(wc -l <"$T/fail.csv")" -eq 2 ] || fail "CSV after a failure: $(cat "$T/fail.csv")"
echo "ok"
