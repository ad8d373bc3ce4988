#!/bin/bash
# quiet.sh - each warning reaches a person once, and --quiet never drops it:
# a run's text report carries its warnings, stderr too when it goes
# elsewhere, and with --quiet (or a document on stdout) stderr alone; tune's
# warnings, said in its report, go to stderr when the report is not shown.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
. "$(dirname "$0")/lib.sh"
need_diskbench
make_tmpdir
T=$TMP_DIR
# a warning every run of these gives, whatever the machine: two jobs on one CPU
RUN=(--engine null --test rand-read --qd 1 --jobs 2 --cpus 0 --runtime 100ms --ramp 0 --size 16m)
W="--cpus: 2 jobs of rand-read 4k qd1 j2 on 1 CPU"

count() { grep -c -F -- "$W" "$1"; }

# stdout and stderr in one place: once, in the report under the table
"$DISKBENCH" "${RUN[@]}" "$T" >"$T/both" 2>&1 || fail "run: exit $?: $(cat "$T/both")"
[ "$(count "$T/both")" = 1 ] || fail "said $(count "$T/both") times where stdout is stderr: $(cat "$T/both")"
grep -q "^warning: $W" "$T/both" || fail "not in the report: $(cat "$T/both")"
# apart: once in each
"$DISKBENCH" "${RUN[@]}" "$T" >"$T/out" 2>"$T/err" || fail "run: exit $?"
[ "$(count "$T/out")" = 1 ] && [ "$(count "$T/err")" = 1 ] ||
	fail "apart: $(count "$T/out") in the report, $(count "$T/err") on stderr"
# --quiet, and a document on stdout: stderr
"$DISKBENCH" "${RUN[@]}" --quiet --json "$T/q.json" "$T" >"$T/qout" 2>"$T/qerr" || fail "--quiet: exit $?"
[ ! -s "$T/qout" ] || fail "--quiet printed on stdout: $(cat "$T/qout")"
[ "$(count "$T/qerr")" = 1 ] || fail "--quiet: $(count "$T/qerr") on stderr: $(cat "$T/qerr")"
"$DISKBENCH" "${RUN[@]}" --json - "$T" >"$T/j.json" 2>"$T/jerr" || fail "--json -: exit $?"
[ "$(count "$T/jerr")" = 1 ] || fail "--json -: $(count "$T/jerr") on stderr"
grep -q "2>/dev/null" <("$DISKBENCH" --help) || fail "--help does not say how to silence warnings"

# tune --quiet: its warning (nothing to keep for --apply) on stderr. The null
# engine measures nothing of the disk, so nothing is recommended; root and a
# loop device of our own, whose scheduler it sets back.
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	make_loop 16 zero
	sched=$(cat "/sys/block/$LOOP_NAME/queue/scheduler")
	case $sched in
	*mq-deadline*)
		"$DISKBENCH" tune --engine null --scheduler none,mq-deadline --runtime 50ms --ramp 0 \
			--blocks 3 --apply --quiet --json "$T/tune.json" "$LOOP_DEV" >"$T/tout" \
			2>"$T/terr" || fail "tune: exit $?: $(cat "$T/terr")"
		[ ! -s "$T/tout" ] || fail "tune --quiet printed on stdout"
		n=$(json "$T/tune.json" 'len(d["warnings"])')
		[ "$n" -gt 0 ] || fail "tune: no warning to check"
		[ "$(grep -c '^diskbench: warning: ' "$T/terr")" = "$n" ] ||
			fail "tune --quiet: $n warnings in the JSON, stderr: $(cat "$T/terr")"
		[ "$(cat "/sys/block/$LOOP_NAME/queue/scheduler")" = "$sched" ] ||
			fail "tune left the scheduler changed"
		;;
	*) echo "# $LOOP_DEV offers no mq-deadline: tune part skipped" ;;
	esac
else
	echo "# tune part skipped: needs root and losetup"
fi
echo ok
