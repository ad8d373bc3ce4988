#!/bin/bash
# engines.sh - every engine that works here runs every workload on a scratch
# directory; the JSON is valid and its numbers are sane.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp
CHECK="python3 $srcdir/tests/cli/check_json.py"

engines=$("$DISKBENCH" list engines | awk '$2 == "yes" { print $1 }')
[ -n "$engines" ] || fail "no working engine listed"
echo "working engines: $engines"

common=(--test seq-read,seq-write,rand-read,rand-write --bs 4k,64k --runtime 200ms --ramp 0
	--size 16m --quiet)
for e in $engines; do
	out=$TMP_DIR/$e.json
	"$DISKBENCH" --engine "$e" "${common[@]}" --qd 1,4 --json "$out" "$TMP_DIR" ||
		fail "engine $e: exit $?"
	case $e in
	sync|direct) n=8 ;;	# qd 4 runs as qd 1: one test per workload x bs
	*) n=16 ;;
	esac
	if [ "$e" = null ]; then
		$CHECK "$out" --engine "$e" --tests "$n" --null || fail "engine $e: bad JSON"
	else
		$CHECK "$out" --engine "$e" --tests "$n" --direct true --device-reads ||
			fail "engine $e: bad JSON"
	fi
	echo "engine $e: ok"
done

# Buffered I/O through the engines that allow it.
for e in sync io_uring; do
	echo "$engines" | grep -qw "$e" || continue
	out=$TMP_DIR/$e-buffered.json
	"$DISKBENCH" --engine "$e" --buffered "${common[@]}" --qd 1 --json "$out" "$TMP_DIR" ||
		fail "engine $e --buffered: exit $?"
	$CHECK "$out" --engine "$e" --direct false --tests 8 || fail "engine $e --buffered: bad JSON"
	echo "engine $e buffered: ok"
done

# --batch: the asynchronous engines gather requests into fewer system calls
# (io_uring: with the wait, so at the queue depth one enter a round), and
# every request still completes whole, none failed.
for e in io_uring libaio; do
	echo "$engines" | grep -qw "$e" || continue
	for b in 1 8; do
		out=$TMP_DIR/$e-batch$b.json
		"$DISKBENCH" --engine "$e" --test rand-read --bs 4k --qd 8 --batch "$b" --runtime 300ms \
			--ramp 0 --size 16m --quiet --json "$out" "$TMP_DIR" || fail "$e --batch $b: exit $?"
		$CHECK "$out" --engine "$e" --tests 1 --direct true --device-reads ||
			fail "$e --batch $b: bad JSON"
	done
	python3 - "$TMP_DIR/$e-batch1.json" "$TMP_DIR/$e-batch8.json" "$e" <<'EOF' || fail "$e --batch"
import json, sys
one, eight = (json.load(open(p))["tests"][0] for p in sys.argv[1:3])
for t in (one, eight):
    assert t["errors"] == 0 and t["ops"] > 100, (t["errors"], t["ops"])
a, b = one["syscalls"]["per_op"], eight["syscalls"]["per_op"]
# batch 1: a submit call per request, and waits besides; batch 8 at qd 8:
# at most one call per request, far fewer when completions come together
assert a >= 1.0, "batch 1: %.3f system calls per op, want >= 1" % a
assert b < a, "batch 8: %.3f system calls per op, not fewer than batch 1's %.3f" % (b, a)
print("%s: %.3f system calls per op at --batch 1, %.3f at --batch 8" % (sys.argv[3], a, b))
EOF
done
[ "$(json "$TMP_DIR/io_uring-batch8.json" 'd["settings"].get("batch")')" = 8 ] 2>/dev/null ||
	! echo "$engines" | grep -qw io_uring || fail "--batch 8 not in the settings"

# auto is one of the working engines, and says which.
out=$TMP_DIR/auto.json
"$DISKBENCH" --test rand-read --qd 2 --runtime 100ms --ramp 0 --size 8m --quiet --json "$out" \
	"$TMP_DIR" || fail "auto: exit $?"
picked=$(json "$out" 'd["tests"][0]["engine"]')
echo "$engines" | grep -qw "$picked" || fail "auto picked '$picked'"

# Several jobs: ops of all jobs add up, and the histogram holds them all.
out=$TMP_DIR/jobs.json
"$DISKBENCH" --engine null --jobs 3 --test rand-read --qd 4 --runtime 100ms --ramp 0 --quiet \
	--json "$out" "$TMP_DIR" || fail "jobs: exit $?"
$CHECK "$out" --null --tests 1 || fail "jobs: bad JSON"
[ "$(json "$out" 'd["tests"][0]["jobs"]')" = 3 ] || fail "jobs: want 3"
ls -d "$TMP_DIR"/diskbench.* >/dev/null 2>&1 && fail "scratch directory left behind"
echo "ok"
