#!/bin/bash
# report-memory.sh - peak memory and time of "diskbench report" on large saved results.
#
# Usage: [DISKBENCH=path] [SIZES="10000 100000"] [MODES="quiet text html"]
#        [BASE=result.json] [KEEP=dir] bench/report-memory.sh
#
# Builds a result of N tests for each N in SIZES by repeating the tests of
# BASE (default tests/data/results/d77dd60-quick.json, a run saved by an
# earlier version: what report must keep reading), each under its own name,
# then runs "report --quiet" (load and derive only), "report" (the text
# report to /dev/null) and "report --html" under /usr/bin/time -v, and
# prints the input size, the peak RSS and its ratio to the input, the
# wall time and the CPU time (user + sys: on a busy machine the wall time
# says more about the other work). --max-input is raised to fit when the build has it (the
# default limit refuses such files). The files are written to a temporary
# directory (KEEP keeps them there instead). Run it under
# flock /work/bench.lock when other work shares the machine.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"
LIB_NAME=report-memory
bench_diskbench

SIZES=${SIZES:-10000 100000}
BASE=${BASE:-$HERE/../tests/data/results/d77dd60-quick.json}
[ -x /usr/bin/time ] || apt_install time

if [ -n "${KEEP:-}" ]; then
	WORK=$KEEP
	mkdir -p "$WORK"
else
	WORK=$(mktemp -d "${TMPDIR:-/tmp}/report-memory.XXXXXX")
	trap 'rm -rf "$WORK"' EXIT
fi

# make_result N FILE: BASE's tests repeated to N, renamed "NAME #k".
make_result()
{
	python3 - "$BASE" "$1" "$2" <<'PY'
import json, sys
base, n, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
d = json.load(open(base))
src = d["tests"]
tests = []
for k in range(n):
    t = dict(src[k % len(src)])
    t["name"] = "%s #%d" % (t["name"], k)
    tests.append(t)
d["tests"] = tests
d["xbench"] = None
with open(out, "w") as f:
    json.dump(d, f, indent=1)
PY
}

LIMIT=
"$DISKBENCH" report --help | grep -q -- --max-input && LIMIT=--max-input=4g

printf '%-8s %-10s %-6s %11s %7s %8s %8s %s\n' tests input mode peak_rss ratio wall_s cpu_s status
for n in $SIZES; do
	f=$WORK/r$n.json
	[ -s "$f" ] || make_result "$n" "$f"
	size=$(stat -c %s "$f")
	for mode in ${MODES:-quiet text html}; do
		case $mode in
		quiet) args=(--quiet) ;;
		text) args=() ;;
		html) args=(--quiet --html "$WORK/r$n.html") ;;
		esac
		/usr/bin/time -v -o "$WORK/time" "$DISKBENCH" report $LIMIT "${args[@]}" "$f" \
			>/dev/null 2>"$WORK/err"
		rc=$?
		rss=$(awk -F': ' '/Maximum resident set size/ {print $2}' "$WORK/time")
		wall=$(awk -F': ' '/Elapsed \(wall clock\)/ {print $2}' "$WORK/time" |
			awk -F: '{ s = 0; for (i = 1; i <= NF; i++) s = s * 60 + $i; print s }')
		cpu=$(awk -F': ' '/(User|System) time/ { s += $2 } END { print s }' "$WORK/time")
		printf '%-8s %-10s %-6s %10sK %6.2fx %8s %8s %s\n' "$n" "$((size / 1048576))MiB" \
			"$mode" "$rss" "$(echo "$rss * 1024 / $size" | bc -l)" "$wall" "$cpu" \
			"$([ $rc = 0 ] && echo ok || echo "exit $rc: $(head -c 200 "$WORK/err")")"
		rm -f "$WORK/r$n.html"
	done
done
