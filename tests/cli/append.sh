#!/bin/bash
# append.sh - --append FILE: each run's runs added to the result FILE holds,
# as one run of them all would have it (the medians and sums recomputed
# here), compare judging the sides so made; a file that cannot take the run
# (other tests, target or options, not a result, --steady-state) is refused
# with exit 2 before anything runs, and left as it was.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3 cmp
make_tmpdir /tmp
cd "$TMP_DIR" || fail "cd"
mkdir d e || fail "mkdir"

NULL=(--engine null --test rand-read,seq-read --qd 1 --runtime 20ms --ramp 0 --size 64m --quiet)
"$DISKBENCH" "${NULL[@]}" --append a.json d 2>first.err || fail "the first --append: exit $?"
grep -q "append a.json: 1 run of each test" first.err && fail "--quiet, yet it spoke: $(cat first.err)"
"$DISKBENCH" "${NULL[@]}" --append a.json --json only.json d || fail "the second --append: exit $?"
"$DISKBENCH" "${NULL[@]}" --repeat 2 --append a.json d || fail "--append with --repeat 2: exit $?"

python3 - a.json only.json <<'PY' || fail "the appended runs and the figures over them disagree"
import json, statistics, sys
d = json.load(open(sys.argv[1]))
only = json.load(open(sys.argv[2]))
# the first run's header stays; the count of runs added is a setting
assert d["settings"]["appended"] == 2, d["settings"]
assert d["settings"]["pinning"].startswith("default (--append)"), d["settings"]
assert [t["name"] for t in d["tests"]] == [t["name"] for t in only["tests"]]
for t, o in zip(d["tests"], only["tests"]):
    runs = t["runs"]
    assert len(runs) == 4, (t["name"], len(runs))
    # the second run's are the second in the file (--json saw that run alone)
    assert runs[1]["ops"] == o["runs"][0]["ops"], (runs[1], o["runs"][0])
    for k in ("ops", "bytes", "runtime_ns", "errors"):
        assert t[k] == sum(r[k] for r in runs), (t["name"], k)
    assert sum(c for _, c in t["lat_ns"]["histogram"]) == t["ops"]
    x = [r["iops"] for r in runs]
    assert abs(t["iops"] - statistics.median(x)) <= 1e-3, (t["iops"], x)
    assert t["summary"]["runs"] == 4
    assert abs(t["summary"]["iops"]["stdev"] - statistics.stdev(x)) <= 1e-6 * max(x)
print("ok")
PY

# Two sides made in turn, five runs each: compare judges them.
for i in 1 2 3 4 5; do
	"$DISKBENCH" "${NULL[@]}" --label A --append sa.json d || fail "side A, run $i: exit $?"
	"$DISKBENCH" "${NULL[@]}" --label B --append sb.json d || fail "side B, run $i: exit $?"
done
"$DISKBENCH" compare --json cmp.json sa.json sb.json >cmp.txt || fail "compare: exit $?"
m='d["compared"][0]["tests"][0]["metrics"]["iops"]'
[ "$(json cmp.json "[$m[\"runs_before\"], $m[\"runs_after\"], $m[\"interval\"][\"kind\"]]")" = \
	'[5, 5, "rank"]' ] || fail "compare did not judge 5 runs a side: $(json cmp.json "$m")"
grep -q "^Test .*verdict" cmp.txt || fail "no verdict column: $(cat cmp.txt)"
"$DISKBENCH" report sa.json >rep.txt || fail "report of an appended file: exit $?"
grep -q "CV%" rep.txt || fail "report shows no spread of the 5 runs"

# ---- files that cannot take the run: exit 2, nothing run, the file unchanged --
cp a.json keep.json
refused() # refused MESSAGE ARGS...: exit 2 saying MESSAGE, a.json as it was
{
	expect_usage "$@"
	cmp -s a.json keep.json || fail "'${*:2}' changed a.json"
}
refused 'append a.json: cannot take this run.s: it holds 2 tests, this run has 1' \
	"${NULL[@]}" --test rand-read --append a.json d
refused "its test 2 is \"seq-read 1m qd1\", this run's is \"rand-write 4k qd1\"" \
	"${NULL[@]}" --test rand-read,rand-write --append a.json d
refused "it holds a run of $TMP_DIR/d, this run is of $TMP_DIR/e" "${NULL[@]}" --append a.json e
refused "its runtime is 20ms, this run's is 30ms (give the options its runs had)" \
	"${NULL[@]}" --runtime 30ms --append a.json d
refused "append: not with --steady-state" "${NULL[@]}" --steady-state --append a.json d
echo '{"schema": "nope"}' >bad.json
expect_usage "append bad.json" "${NULL[@]}" --append bad.json d
cmp -s bad.json <(echo '{"schema": "nope"}') || fail "a file that is no result was changed"
expect_usage "--append e: is a directory" "${NULL[@]}" --append e d
expect_usage "--append -: needs a file to read the earlier runs from" "${NULL[@]}" --append - d
[ -z "$(ls -A d)$(ls -A e)" ] || fail "left behind: $(ls -A d e)"
echo "ok"
