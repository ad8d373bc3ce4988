#!/bin/bash
# compare_cross.sh - compare across tools: each side says which tool and
# version made it (text, JSON, HTML); a pair measured differently (buffered
# against O_DIRECT, another block size, another queue depth, bonnie++'s
# 8 KiB blocks against a 1 MiB test) is marked as such in the text and the
# HTML, with why, takes no verdict and stays out of the geometric mean;
# tests of another tool pair with diskbench's by workload.
set -u
. "$srcdir/tests/cli/lib.sh"
DATA=$srcdir/tests/data/import
need_diskbench
need_cmd python3
make_tmpdir
cd "$TMP_DIR" || fail "cd"
cp "$DATA/randread.json" "$DATA/bonnie-2.00a.csv" . || fail "cp"

# variant KEY VALUE OUT: randread.json with one job option changed
variant()
{
	python3 - "$1" "$2" "$3" <<'PY' || fail "variant $1=$2"
import json, sys
d = json.load(open("randread.json"))
for j in d["jobs"]:
    j["job options"][sys.argv[1]] = sys.argv[2]
json.dump(d, open(sys.argv[3], "w"), indent=2)
PY
}

# differs OUT WHY: compare randread.json with OUT; the pair is marked
# measured differently, says WHY, and has no verdict and no mean
differs()
{
	local f=$1 why=$2 b
	b=$(basename "$f" .json)
	"$DISKBENCH" compare randread.json "$f" --json "$b.cmp.json" --html "$b.html" \
		>"$b.txt" 2>"$b.err" || fail "compare $f: exit $? ($(cat "$b.err"))"
	grep -q '^x:randread! .*differs!' "$b.txt" || fail "$f: the row is not marked: $(cat "$b.txt")"
	grep -q "^  x:randread: .*$why" "$b.txt" || fail "$f: the text does not say $why"
	grep -q '1 not judged (measured differently on the two sides)' "$b.txt" ||
		fail "$f: the summary does not say why it is not judged"
	grep -q 'geometric mean' "$b.txt" && fail "$f: a pair measured differently is in the mean"
	python3 - "$b.cmp.json" "$why" <<'PY' || fail "$f: JSON (above)"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["compared"][0]["tests"][0]
assert t["comparable"] is False, t
assert sys.argv[2] in t["mismatch"], t["mismatch"]
assert "iops" in t["metrics"] and "lat_p99_ns" in t["metrics"], t["metrics"].keys()
judged = [k for k, m in t["metrics"].items() if m["verdict"] is not None]
assert not judged, judged
s = d["compared"][0]["summary"]
assert s["not_judged"] == 1 and s["measured_differently"] == 1 and s["iops_ratios"] == 0, s
PY
	grep -q "measured differently: [^<]*$(echo "$why" | sed 's/>/\&gt;/g')" "$b.html" ||
		fail "$f: the HTML does not say why"
	grep -q '>differs</td>' "$b.html" || fail "$f: the HTML gives a verdict"
}

variant bs 64k bs.json
differs bs.json 'bs 4k -> 64k'
variant iodepth 8 qd.json
differs qd.json 'qd 1 -> 8'
variant direct 1 direct.json
differs direct.json 'buffered -> O_DIRECT'

# measured alike: not marked
variant bs 4k same.json
"$DISKBENCH" compare randread.json same.json >same.txt 2>same.err ||
	fail "compare same: exit $? ($(cat same.err))"
grep -q 'differs!\|measured differently' same.txt && fail "alike, marked: $(cat same.txt)"
grep -q '^Made by: before fio fio-3.33 (imported); after fio fio-3.33 (imported)$' same.txt ||
	fail "the sides do not say which tool made them: $(cat same.txt)"

# bonnie++'s 8 KiB block write against a diskbench 1 MiB one: paired by
# workload across the tools, and marked
mkdir target || fail "mkdir"
"$DISKBENCH" --engine null --ramp 0 --size 16m --quiet --test seq-write --bs 1m --qd 1 \
	--runtime 50ms --json mib.json target 2>mib.err || fail "run: exit $? ($(cat mib.err))"
"$DISKBENCH" compare bonnie-2.00a.csv mib.json --json bm.json --html bm.html >bm.txt 2>bm.err ||
	fail "compare bonnie: exit $? ($(cat bm.err))"
grep -q '^seq-write 8k qd1! ' bm.txt || fail "bonnie: not paired or not marked: $(cat bm.txt)"
grep -q '^  seq-write 8k qd1: .*bs 8k -> 1m' bm.txt || fail "bonnie: why not said: $(cat bm.txt)"
grep -q "^Made by: before bonnie++ 2.00a (imported); after diskbench " bm.txt ||
	fail "bonnie: the sides' tools: $(grep Made bm.txt)"
python3 - bm.json <<'PY' || fail "bonnie: JSON (above)"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["baseline"]["made_by"] == "bonnie++ 2.00a (imported)", d["baseline"]
assert d["compared"][0]["made_by"].startswith("diskbench "), d["compared"][0]
t = d["compared"][0]["tests"][0]
assert t["comparable"] is False and "bs 8k -> 1m" in t["mismatch"], t
PY
grep -q 'data-key="made_by">bonnie++ 2.00a (imported)<' bm.html || fail "bonnie: HTML sides"
grep -q 'measured differently: [^<]*bs 8k -&gt; 1m' bm.html || fail "bonnie: HTML why"
# a latency bonnie++ does not give is missing, never 0
grep '^seq-write 8k qd1!' bm.txt | grep -q ' 0ns ' && fail "bonnie: missing latency shown as 0"
exit 0
