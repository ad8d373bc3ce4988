#!/bin/bash
# hostile.sh - crafted result files (issue 27): report and compare refuse a
# figure no run can measure (an IOPS of 1.7e308, NaN, a runtime of 0) with
# one line naming the file, the test and the key, exit 2, within a bounded
# time, and write nothing; the figures they accept render in every format.
# A file too large for --max-input (/dev/zero, a FIFO) is refused the same way.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
need_cmd timeout
make_tmpdir
cd "$TMP_DIR" || fail "cd"
SAVED=$srcdir/tests/data/results/d77dd60-null-repeat.json

# craft NAME PYTHON: the saved --repeat result, edited by PYTHON (on d, t0 =
# its first test, r0 = that test's first run), as NAME.json
craft()
{
	python3 - "$SAVED" "$1.json" "$2" <<'PY' || fail "python: $1"
import json, sys
d = json.load(open(sys.argv[1]))
t0 = d["tests"][0]
r0 = t0["runs"][0]
exec(sys.argv[3])
json.dump(d, open(sys.argv[2], "w"), allow_nan=True)
PY
}

# refused NAME PATTERN: report NAME.json (with every output) and compare
# exit 2 at once with one line that says PATTERN, and write no file
refused()
{
	local name=$1 pat=$2
	timeout 20 "$DISKBENCH" report "$name.json" --html "$name.html" --json "$name.out.json" \
		--csv "$name.csv" >/dev/null 2>"$name.err"
	rc=$?
	[ "$rc" -eq 124 ] && fail "report $name.json: still running after 20 s"
	[ "$rc" -eq 2 ] || fail "report $name.json: exit $rc, want 2 ($(cat "$name.err"))"
	grep -q -- "^diskbench: $name.json:.* $pat" "$name.err" ||
		fail "report $name.json: '$(cat "$name.err")' does not say '$pat'"
	[ "$(wc -l <"$name.err")" -eq 1 ] || fail "report $name.json: more than one line"
	ls "$name.html" "$name.out.json" "$name.csv" 2>/dev/null && fail "report $name.json wrote"
	timeout 20 "$DISKBENCH" compare "$SAVED" "$name.json" --html "$name.c.html" \
		>/dev/null 2>"$name.err"
	rc=$?
	[ "$rc" -eq 2 ] || fail "compare with $name.json: exit $rc, want 2 ($(cat "$name.err"))"
	grep -q -- "$pat" "$name.err" || fail "compare: '$(cat "$name.err")' does not say '$pat'"
	[ -e "$name.c.html" ] && fail "compare with $name.json wrote its page"
	return 0
}

# The file of issue 27: every run's IOPS 1.7e308 hung report --html.
craft dblmax 'for t in d["tests"]:
    for r in t["runs"]:
        r["iops"] = 1.7e308'
refused dblmax 'tests\[0\].runs\[0\]: "iops" is 1.7e+308, outside what a run can measure'
craft nan 'r0["bytes_per_sec"] = None'
refused nan 'tests\[0\].runs\[0\]: "bytes_per_sec" is null, not a number'
craft negative 'r0["cpu_user_pct"] = -3.5'
refused negative 'tests\[0\].runs\[0\]: "cpu_user_pct" is -3.5, outside'
craft runtime0 't0["runtime_ns"] = 0'
refused runtime0 'tests\[0\]: "runtime_ns" is 0 with [0-9]* ops'
craft order 'r0["lat_p50_ns"] = r0["lat_p99_ns"] + 1'
refused order 'tests\[0\].runs\[0\]: percentiles out of order'
craft minmax 't0["lat_ns"]["min"] = t0["lat_ns"]["max"] + 1'
refused minmax 'tests\[0\].lat_ns: "min" [0-9]* is above "max"'
# the parser's own limits: a number past the doubles, a negative count
craft toobig 'r0["iops"] = 1.5e308'
sed -i 's/1\.5e+308/1e999/' toobig.json
refused toobig 'not a JSON document: real number overflow'
craft negcount 'r0["ops"] = -1'
refused negcount 'tests\[0\].runs\[0\]: key "ops" is not an unsigned integer'

# Size: a file past --max-input (default 256m) is refused before it is read,
# one without a size (/dev/zero, a FIFO) once that much is read; either way
# in bounded time and memory. --max-input raises the limit.
# (ASan reserves terabytes of address space: no ulimit -v for its build)
VMEM=1200000
ldd "$DISKBENCH" 2>/dev/null | grep -q 'libasan\|libtsan' && VMEM=unlimited
big() # PATTERN ARGS...: report ARGS exits 2 within 20 s and 1.2 GB, saying PATTERN
{
	local pat=$1
	shift
	( ulimit -v "$VMEM"; timeout 20 "$DISKBENCH" report "$@" ) >/dev/null 2>big.err
	rc=$?
	[ "$rc" -eq 2 ] || fail "report $*: exit $rc, want 2 ($(cat big.err))"
	grep -q -- "$pat" big.err || fail "report $*: '$(cat big.err)' does not say '$pat'"
	[ "$(wc -l <big.err)" -eq 1 ] || fail "report $*: more than one line"
}
big '^diskbench: /dev/zero: more than 256m read from it, the limit for a result (--max-input' \
	/dev/zero
big 'more than 1m read from it' --max-input 1m /dev/zero
cp "$SAVED" saved.json
size=$(stat -c %s saved.json)
big "^diskbench: saved.json: $size bytes, more than 4k, the limit for a result file" \
	--max-input 4k \
	saved.json
"$DISKBENCH" report --quiet --max-input "$size" saved.json || fail "--max-input $size: exit $?"
"$DISKBENCH" compare --quiet --max-input=4k saved.json saved.json 2>big.err &&
	fail "compare --max-input=4k read the file"
grep -q "saved.json: $size bytes, more than 4k" big.err || fail "compare: $(cat big.err)"
mkfifo fifo || fail "mkfifo"
( head -c 5000000 /dev/zero >fifo 2>/dev/null & )
big '^diskbench: fifo: more than 1m read from it' --max-input 1m fifo
( cat saved.json >fifo & )
"$DISKBENCH" report --quiet fifo || fail "report of a result through a FIFO: exit $?"
expect_usage "report: --max-input: 'lots' is not a size" report --max-input lots saved.json
expect_usage "compare: --max-input: '' is not a size" compare --max-input= saved.json saved.json

# The limits leave every real figure alone: the saved results of every
# version render in every format.
for f in "$srcdir"/tests/data/results/*.json; do
	b=$(basename "$f" .json)
	timeout 60 "$DISKBENCH" report "$f" --html "$b.html" --csv "$b.csv" >/dev/null \
		2>"$b.err" || fail "report $b.json: exit $? ($(cat "$b.err"))"
done
exit 0
