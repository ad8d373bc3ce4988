#!/bin/bash
# scratch.sh - the scratch directory is gone after a normal run and after
# SIGINT, SIGTERM or SIGHUP in the middle of one.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
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
echo "ok"
