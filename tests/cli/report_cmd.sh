#!/bin/bash
# report_cmd.sh - diskbench report RESULT.json renders a saved run again: its
# JSON, CSV, bonnie++ CSV and text byte for byte as the run wrote them (a real
# directory run, a --repeat run, an xbench run); a RESULT that cannot be read
# exits 2 naming the file (and key) and writes nothing.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp	# the xbench profile needs O_DIRECT, which tmpfs refuses
cd "$TMP_DIR" || fail "cd"
mkdir target || fail "mkdir"

# run NAME ARGS...: a run writing every report, its text in NAME.txt
run()
{
	local name=$1
	shift
	"$DISKBENCH" "$@" --json "$name.json" --csv "$name.csv" --bonnie-csv "$name.bcsv" \
		target >"$name.txt" 2>"$name.err" || fail "$name run: exit $? ($(cat "$name.err"))"
}

# same NAME: report NAME.json reproduces all four reports exactly
same()
{
	local name=$1 f
	"$DISKBENCH" report "$name.json" --json "$name.2.json" --csv "$name.2.csv" \
		--bonnie-csv "$name.2.bcsv" >"$name.2.txt" 2>"$name.2.err" ||
		fail "report $name.json: exit $? ($(cat "$name.2.err"))"
	[ -s "$name.2.err" ] && fail "report $name.json said: $(cat "$name.2.err")"
	for f in json csv bcsv txt; do
		diff -u "$name.$f" "$name.2.$f" >&2 || fail "report $name.json: its $f differs"
	done
}

run bonnie --profile bonnie --test seq-read,meta-create,char-write --runtime 200ms \
	--ramp 0 --size 8m --files 200 --label 'saved, "quoted"'
same bonnie
run repeat --engine null --test rand-read,seq-read --qd 1 --runtime 30ms --ramp 0 \
	--size 64m --repeat 2
same repeat
grep -q 'CV%' repeat.2.txt || fail "the --repeat text lacks its CV% column"
run xbench --profile xbench --runtime 100ms --ramp 0 --size 16m
same xbench
grep -q 'Xbench scores' xbench.2.txt || fail "the xbench text lacks its scores"
[ -z "$(ls -A target)" ] || fail "a run left files behind in target/"

# Only the text, to stdout; --quiet: nothing; JSON to stdout replaces the text.
"$DISKBENCH" report bonnie.json >only.txt || fail "report: exit $?"
cmp -s bonnie.txt only.txt || fail "report: text differs"
[ -z "$("$DISKBENCH" report --quiet bonnie.json)" ] || fail "report --quiet printed"
"$DISKBENCH" report bonnie.json --json - >stdout.json || fail "report --json -: exit $?"
cmp -s bonnie.json stdout.json || fail "report --json -: not the JSON alone"
# Several results: their texts in turn, a blank line between.
"$DISKBENCH" report bonnie.json repeat.json >two.txt || fail "report of two: exit $?"
{ cat bonnie.txt; echo; cat repeat.txt; } | cmp -s - two.txt || fail "report of two: text differs"
"$DISKBENCH" report --help | grep -q 'bonnie-csv, html' || fail "report --help lacks the formats"

# ---- what cannot be read: exit 2, one line naming it, nothing written --------
head -c 700 bonnie.json >truncated.json
echo '{"schema": "diskbench/9", "tests": []}' >schema.json
python3 - bonnie.json noops.json <<'PY' || fail "python"
import json, sys
d = json.load(open(sys.argv[1]))
del d["tests"][1]["ops"]
json.dump(d, open(sys.argv[2], "w"))
PY
mkdir adir
bad()
{
	local pat=$1 in=$2
	expect_usage "$pat" report "$in" --json o.json --csv o.csv --bonnie-csv o.bcsv \
		--html o.html
	# also no temporary file beside one (o.json.XXXXXX)
	ls -A | grep -q '^o\.' && fail "report $in: wrote $(ls -A | grep '^o\.')"
	return 0
}
bad "missing.json: No such file or directory" missing.json
bad "adir: is a directory" adir
bad "truncated.json:[0-9]*:[0-9]*: not a JSON document" truncated.json
bad 'schema.json: not a diskbench result (no "schema": "diskbench/1")' schema.json
bad 'noops.json: tests\[1\]: missing key "ops"' noops.json
# A bad one among good ones: no text either.
out=$("$DISKBENCH" report bonnie.json noops.json 2>/dev/null)
[ $? -eq 2 ] && [ -z "$out" ] || fail "a bad RESULT after a good one: exit/output wrong"
expect_usage "take one RESULT" report bonnie.json repeat.json --csv o.csv
expect_usage "which result" report
expect_usage "take one RESULT" report bonnie.json repeat.json --html o.html
expect_usage "unknown option '--htm'" report --htm o.html bonnie.json
expect_usage "report: option '--html' needs a value" report bonnie.json --html
expect_usage "report: option '--json' needs a value" report bonnie.json --json
expect_usage "report: --csv: empty value" report bonnie.json --csv=
expect_usage "report: --repeat is a run option report does not take" report --repeat 3 bonnie.json
echo "ok"
