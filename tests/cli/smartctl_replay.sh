#!/bin/bash
# smartctl_replay.sh - a stand-in for smartctl that replays recorded
# `smartctl --json` documents (tests/data/smart), for the health tests:
# no device of the test machines answers a real smartctl. health.sh puts
# it on PATH as "smartctl". Each call prints the next file named in
# $SMART_REPLAY/seq (one a line, relative to $SMART_REPLAY_DATA; the last
# one again once they run out) and logs its arguments to
# $SMART_REPLAY/calls. The name HANG stands for a drive that never
# answers: it sleeps until it is killed.
set -u
dir=${SMART_REPLAY:?SMART_REPLAY unset}
echo "$*" >>"$dir/calls"
n=$(wc -l <"$dir/calls")
f=$(sed -n "${n}p" "$dir/seq")
[ -n "$f" ] || f=$(tail -n 1 "$dir/seq")
[ "$f" = HANG ] && exec sleep 60
cat "$SMART_REPLAY_DATA/$f"
