#!/bin/bash
# scratch.sh - the scratch directory is gone after a normal run and after
# SIGINT, SIGTERM or SIGHUP in the middle of one.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp
dir=$TMP_DIR

"$DISKBENCH" --test seq-read --runtime 100ms --ramp 0 --size 8m --quiet "$dir" || fail "exit $?"
[ -z "$(ls -A "$dir")" ] || fail "normal exit left: $(ls -A "$dir")"

for sig in INT TERM HUP; do
	"$DISKBENCH" --test rand-read --runtime 20s --ramp 0 --size 8m --quiet "$dir" &
	pid=$!
	# Wait until the run is under way (its scratch directory exists).
	for i in $(seq 100); do
		ls -d "$dir"/diskbench.* >/dev/null 2>&1 && break
		sleep 0.05
	done
	ls -d "$dir"/diskbench.* >/dev/null 2>&1 || fail "SIG$sig: run never started"
	sleep 0.3
	kill -s "$sig" "$pid"
	wait "$pid"
	rc=$?
	[ "$rc" -ne 0 ] || fail "SIG$sig: exit 0 after a signal"
	[ -z "$(ls -A "$dir")" ] || fail "SIG$sig left: $(ls -A "$dir")"
	echo "SIG$sig: exit $rc, nothing left"
done
# The first SIGINT stops the run and reports what it measured (exit 130);
# a second one stops at once. Both leave nothing behind.
"$DISKBENCH" --test rand-read --runtime 20s --ramp 0 --size 8m --json "$dir.json" "$dir" \
	>/dev/null 2>&1 &
pid=$!
for i in $(seq 100); do
	ls -d "$dir"/diskbench.* >/dev/null 2>&1 && break
	sleep 0.05
done
sleep 0.5
kill -s INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "one SIGINT: exit $rc, want 130"
[ -z "$(ls -A "$dir")" ] || fail "one SIGINT left: $(ls -A "$dir")"
python3 - "$dir.json" <<'PY' || fail "one SIGINT: the partial result is not a sane document"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["tests"][0]["ops"] > 0 and d["tests"][0]["runtime_ns"] < 20e9
assert any("interrupted" in w for w in d["warnings"])
PY
rm -f "$dir.json"

"$DISKBENCH" --test rand-read --runtime 20s --ramp 0 --size 8m --quiet "$dir" &
pid=$!
for i in $(seq 100); do
	ls -d "$dir"/diskbench.* >/dev/null 2>&1 && break
	sleep 0.05
done
sleep 0.3
kill -s INT "$pid"
kill -s INT "$pid"
wait "$pid"
rc=$?
[ "$rc" -eq 130 ] || fail "two SIGINTs: exit $rc, want 130"
[ -z "$(ls -A "$dir")" ] || fail "two SIGINTs left: $(ls -A "$dir")"
echo "ok"
