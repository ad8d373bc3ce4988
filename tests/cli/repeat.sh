#!/bin/bash
# repeat.sh - --repeat N: every test keeps N runs, the summary and the
# headline figures agree with the runs (recomputed here), the text and CSV
# reports show the spread, a real directory run cleans up, bad values exit 2.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /tmp
cd "$TMP_DIR" || fail "cd"

# ---- the null engine: no I/O, fast, the arithmetic checked exactly ----------
NULL=(--engine null --test rand-read,seq-read --qd 1 --runtime 30ms --ramp 0 --size 64m)
"$DISKBENCH" "${NULL[@]}" --repeat 3 --json r.json --csv r.csv . >r.txt 2>r.err ||
	fail "null engine --repeat 3: exit $? ($(cat r.err))"

python3 - r.json r.csv <<'PY' || fail "the runs and the summary disagree"
import csv, json, statistics, sys
d = json.load(open(sys.argv[1]))
assert d["settings"]["repeat"] == 3, d["settings"].get("repeat")
assert len(d["tests"]) == 2, [t["name"] for t in d["tests"]]

def close(a, b, rel=1e-9, abs_=0.0):
    return abs(a - b) <= max(rel * max(abs(a), abs(b)), abs_)

for t in d["tests"]:
    runs = t["runs"]
    assert len(runs) == 3, (t["name"], len(runs))
    s = t["summary"]
    assert s["runs"] == 3
    for key, run_key in (("iops", "iops"), ("bytes_per_sec", "bytes_per_sec"),
                         ("lat_p50_ns", "lat_p50_ns"), ("lat_p99_ns", "lat_p99_ns"),
                         ("cpu_usec_per_op", "cpu_usec_per_op")):
        x = [r[run_key] for r in runs]
        mean = statistics.fmean(x)
        stdev = statistics.stdev(x)
        want = {"median": statistics.median(x), "mean": mean, "stdev": stdev,
                "cv": stdev / mean if mean else 0, "min": min(x), "max": max(x)}
        for k, v in want.items():
            assert close(s[key][k], v, abs_=1e-12), (t["name"], key, k, s[key][k], v)
    # headline: iops and bytes/s are the medians (printed with 3 decimals);
    # ops, bytes, runtime and errors the sums; the histogram has every op
    assert close(t["iops"], s["iops"]["median"], abs_=1e-3), (t["iops"], s["iops"])
    assert close(t["bytes_per_sec"], s["bytes_per_sec"]["median"], abs_=1e-3)
    for k in ("ops", "bytes", "runtime_ns", "errors"):
        assert t[k] == sum(r[k] for r in runs), (t["name"], k)
    assert sum(c for _, c in t["lat_ns"]["histogram"]) == t["ops"]
    for r in runs:
        assert r["ops"] > 0 and r["runtime_ns"] > 0
        assert close(r["iops"], r["ops"] / r["runtime_ns"] * 1e9)

rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == 2
hdr = open(sys.argv[2]).readline().strip().split(",")
# the repeat columns follow the older ones; newer columns may come after
i = hdr.index("runs")
assert hdr[i:i + 2] == ["runs", "iops_cv"], hdr[i:]
assert hdr[:3] == ["label", "target", "started_at"] and hdr[30] == "errors", hdr
for row, t in zip(rows, d["tests"]):
    assert row["name"] == t["name"]
    assert int(row["runs"]) == 3
    assert abs(float(row["iops_cv"]) - t["summary"]["iops"]["cv"]) <= 1e-6, row["iops_cv"]
    assert abs(float(row["iops"]) - t["iops"]) <= 1e-3
print("json and csv agree")
PY

grep -q "repeat=3" r.txt || fail "the settings line does not show repeat=3"
head=$(grep '^test ' r.txt) || fail "no table header"
[[ $head =~ CPU%\ +CV%$ ]] || fail "no CV% column last: $head"
grep -q "^--repeat: IOPS and MB/s are the median" r.txt || fail "no footnote about the medians"
awk 'length($0) > 100 { exit 1 }' r.txt || fail "a line is wider than 100 columns"
# every test row has a CV% cell: a number
grep -E '^(rand|seq)-read ' r.txt | awk '$NF !~ /^[0-9]+\.[0-9]$/ { exit 1 }' ||
	fail "a row's CV% is not a number: $(cat r.txt)"

# One run: one entry in "runs", no CV% column, stdev 0.
"$DISKBENCH" "${NULL[@]}" --json one.json . >one.txt 2>&1 || fail "null engine, one run: exit $?"
python3 - one.json <<'PY' || fail "one run: wrong runs/summary"
import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    assert len(t["runs"]) == 1, len(t["runs"])
    assert t["summary"]["iops"]["stdev"] == 0 and t["summary"]["iops"]["cv"] == 0
    assert t["summary"]["iops"]["median"] == t["runs"][0]["iops"]
    assert t["runs"][0]["ops"] == t["ops"]
PY
grep -q "CV%" one.txt && fail "CV% column without --repeat"
grep -q "repeat=1" one.txt || fail "settings do not echo repeat=1"

# ---- a real directory: file and data tests, everything removed after ---------
mkdir dir || fail "mkdir"
"$DISKBENCH" --test rand-read,meta-create --qd 1 --files 200 --size 8m --runtime 200ms --ramp 0 \
	--repeat 2 --quiet --json dir.json dir 2>dir.err || fail "directory --repeat 2: exit $? ($(cat dir.err))"
[ -z "$(ls -A dir)" ] || fail "left behind in the directory: $(ls -A dir)"
python3 - dir.json <<'PY' || fail "directory run: wrong runs"
import json, sys
d = json.load(open(sys.argv[1]))
names = [t["workload"] for t in d["tests"]]
assert names == ["rand-read", "meta-create"], names
for t in d["tests"]:
    assert len(t["runs"]) == 2, (t["name"], len(t["runs"]))
    assert t["ops"] == sum(r["ops"] for r in t["runs"])
    assert all(r["ops"] > 0 for r in t["runs"])
PY

# ---- bad values ----------------------------------------------------------------
expect_usage "--repeat: value out of range: '0' (1 to 100)" --engine null --repeat 0 .
expect_usage "--repeat: invalid number '-1'" --engine null --repeat -1 .
expect_usage "--repeat: invalid number '1.5'" --engine null --repeat 1.5 .
expect_usage "--repeat: invalid number 'abc'" --engine null --repeat abc .
expect_usage "--repeat: value out of range: '101' (1 to 100)" --engine null --repeat 101 .
expect_usage "option '--repeat' needs a value" --engine null --repeat
printf '[g]\ntest = rand-read\nrepeat = 2\n' >group.ini
expect_usage "group.ini:3: 'repeat' applies to the whole run" --engine null --profile group.ini dir
printf '[profile]\nrepeat = 0\n\n[g]\ntest = rand-read\n' >zero.ini
expect_usage "zero.ini:2: repeat: value out of range: '0'" --engine null --profile zero.ini dir

# [profile] may set it; the command line overrides it.
printf '[profile]\nrepeat = 2\n\n[g]\ntest = rand-read\nqd = 1\n' >two.ini
"$DISKBENCH" --engine null --profile two.ini --runtime 10ms --ramp 0 --quiet --json p.json . ||
	fail "profile with repeat = 2: exit $?"
[ "$(json p.json 'len(d["tests"][0]["runs"])')" = 2 ] || fail "[profile] repeat = 2 was not applied"
"$DISKBENCH" --engine null --profile two.ini --repeat 1 --runtime 10ms --ramp 0 --quiet \
	--json p.json . || fail "--repeat 1 over a profile: exit $?"
[ "$(json p.json 'len(d["tests"][0]["runs"])')" = 1 ] || fail "--repeat 1 did not override"
echo "ok"
