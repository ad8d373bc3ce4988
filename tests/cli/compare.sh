#!/bin/bash
# compare.sh - diskbench compare BEFORE.json AFTER.json...: ratios equal
# after/before of the inputs, tests on one side only are listed, differing
# settings are listed, the text has its table, --repeat pairs get the noise
# flag by the documented rule (|ratio - 1| < 2 x the larger CV), fewer than
# 5 runs give the min-max range and no verdict, 5 runs with a known change
# give an interval holding it and the verdict (and the same runs "~"), tests
# run differently are flagged, bad inputs exit 2 writing nothing. Changes
# read as ratios in words (35.0x higher, never a share below -100 %), the
# best of losses only is the "least worse", and a headline gives the outcome.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir
cd "$TMP_DIR" || fail "cd"
mkdir target || fail "mkdir"

# run NAME ARGS...: a null-engine run (no I/O, fast) saved as NAME.json
run()
{
	local name=$1
	shift
	"$DISKBENCH" --engine null --ramp 0 --size 64m --quiet "$@" --json "$name.json" \
		target 2>"$name.err" || fail "$name run: exit $? ($(cat "$name.err"))"
}

run a --label before --test rand-read,seq-read --qd 1 --runtime 100ms
run b --label after --test rand-read,seq-read,rand-write --qd 1 --runtime 50ms
run c --test rand-read --qd 1 --runtime 50ms			# no label: named by its file

"$DISKBENCH" compare a.json b.json --json ab.out.json >ab.txt 2>ab.err ||
	fail "compare: exit $? ($(cat ab.err))"
[ -s ab.err ] && fail "compare said: $(cat ab.err)"

python3 - a.json b.json ab.out.json ab.txt <<'PY' || fail "compare a b: see above"
import json, math, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:4])
text = open(sys.argv[4]).read()

def value(t, key):
    """The figure diskbench shows for a test, from its saved raw numbers."""
    if key in ("iops", "bytes_per_sec"):
        if t["summary"]["runs"] > 1:
            return t["summary"][key]["median"]
        n = t["ops"] if key == "iops" else t["bytes"]
        return n * 1e9 / t["runtime_ns"]
    if key.startswith("lat_p"):
        return t["lat_ns"]["percentiles"][key[5:-3]]
    return None

def close(x, y):
    return abs(x - y) <= 1e-9 * max(abs(x), abs(y))

assert c["schema"] == "diskbench-compare/1", c["schema"]
assert c["baseline"] == {"label": "before", "file": "a.json",
                         "made_by": "diskbench " + a["tool"]["version"]}, c["baseline"]
assert len(c["compared"]) == 1
p = c["compared"][0]
assert (p["label"], p["file"]) == ("after", "b.json"), p
ta = {t["name"]: t for t in a["tests"]}
tb = {t["name"]: t for t in b["tests"]}
assert [t["name"] for t in p["tests"]] == [n for n in ta if n in tb], p["tests"]
assert p["only_in_baseline"] == [], p["only_in_baseline"]
assert p["only_in_this"] == ["rand-write 4k qd1"], p["only_in_this"]
higher = {"iops": True, "bytes_per_sec": True, "lat_p50_ns": False, "lat_p99_ns": False,
          "lat_p99.9_ns": False, "cpu_usec_per_op": False}
ratios = []
for t in p["tests"]:
    assert t["comparable"] and t["mismatch"] is None, t
    assert set(t["metrics"]) == set(higher), t["metrics"].keys()
    for key, m in t["metrics"].items():
        assert m["within_noise"] is None, (t["name"], key, m)   # no repeats: say nothing
        if m["ratio"] is None:
            assert m["before"] == 0 and m["change_pct"] is None, m
            continue
        assert close(m["ratio"], m["after"] / m["before"]), m
        want = (m["ratio"] - 1) * 100 if higher[key] else (1 - m["ratio"]) * 100
        assert close(m["change_pct"] + 100, want + 100), (key, m)
        v = value(ta[t["name"]], key), value(tb[t["name"]], key)
        if v[0] is None:
            continue
        assert close(m["before"], v[0]) and close(m["after"], v[1]), (t["name"], key, m, v)
        assert close(m["ratio"], v[1] / v[0]), (t["name"], key, m, v)
    ratios.append(t["metrics"]["iops"]["ratio"])
s = p["summary"]
g = math.exp(sum(map(math.log, ratios)) / len(ratios))
assert s["matched"] == 2 and s["iops_ratios"] == 2, s
assert close(s["iops_geomean_ratio"], g), (s, g)
assert s["worst"]["iops_ratio"] == min(ratios) and s["best"]["iops_ratio"] == max(ratios), s
assert s["repeats"] is False
diffs = {d["key"]: (d["before"], d["after"]) for d in p["differences"]}
assert diffs["label"] == ("before", "after"), diffs
assert diffs["settings.runtime"] == ("100ms", "50ms"), diffs
assert not any(k.startswith("host.") for k in diffs), diffs     # the same machine
# The text: both labels, the differences, the table, the only-in list, the
# footnote about --repeat; nothing wider than 100 columns.
for want in ("baseline (before): before (a.json)", "== after (b.json) vs before ==",
             "settings.runtime", "100ms -> 50ms", "IOPS ---", "p99 latency ---",
             "Only in after: rand-write 4k qd1", "geometric mean ratio", "--repeat 5",
             "after vs before: 2 not judged (fewer than 5 runs on a side)"):
    assert want in text, want
for t in p["tests"]:
    assert any(l.startswith(t["name"] + " ") for l in text.splitlines()), t["name"]
assert max(map(len, text.splitlines())) <= 100
PY

# Three files: each compared with the first; a result without a label is
# named by its file.
"$DISKBENCH" compare a.json b.json c.json --json abc.json >abc.txt || fail "compare of 3: exit $?"
[ "$(json abc.json '[p["label"] for p in d["compared"]]')" = '["after", "c.json"]' ] ||
	fail "compare of 3: labels $(json abc.json '[p["label"] for p in d["compared"]]')"
[ "$(json abc.json 'd["compared"][1]["only_in_baseline"]')" = '["seq-read 1m qd1"]' ] ||
	fail "compare of 3: only_in_baseline of c.json"
grep -q '== c.json (c.json) vs before ==' abc.txt || fail "compare of 3: no c.json section"

# --json - replaces the text; --quiet prints nothing.
"$DISKBENCH" compare a.json b.json --json - >stdout.json || fail "--json -: exit $?"
json stdout.json 'd["schema"]' >/dev/null || fail "--json -: stdout is not the JSON alone"
[ -z "$("$DISKBENCH" compare --quiet a.json b.json)" ] || fail "compare --quiet printed"
"$DISKBENCH" compare --help | grep -q 'text, json, html' || fail "compare --help lacks the formats"

# A test run differently on the two sides (here: another engine) is still
# compared, but flagged.
python3 - b.json sync.json <<'PY' || fail "python"
import json, sys
d = json.load(open(sys.argv[1]))
d["tests"][0]["engine"] = "sync"
d["label"] = "sync"
json.dump(d, open(sys.argv[2], "w"))
PY
"$DISKBENCH" compare a.json sync.json --json mis.json >mis.txt || fail "mismatch: exit $?"
[ "$(json mis.json 'd["compared"][0]["tests"][0]["comparable"]')" = False ] ||
	fail "a test run with another engine is not flagged"
[ "$(json mis.json 'd["compared"][0]["tests"][0]["mismatch"]')" = "engine null -> sync" ] ||
	fail "mismatch: $(json mis.json 'd["compared"][0]["tests"][0]["mismatch"]')"
grep -q '^rand-read 4k qd1! ' mis.txt || fail "mismatch: the row is not marked"
grep -q 'engine null -> sync' mis.txt || fail "mismatch: the text does not say why"

# ---- --repeat on both sides: the noise flag follows the rule -------------------
run r1 --label r1 --test rand-read,seq-read --qd 1,8 --runtime 30ms --repeat 3
run r2 --label r2 --test rand-read,seq-read --qd 1,8 --runtime 30ms --repeat 3
"$DISKBENCH" compare r1.json r2.json --json r.json >r.txt || fail "compare of repeats: exit $?"
python3 - r1.json r2.json r.json r.txt <<'PY' || fail "compare of repeats: see above"
import json, sys
a, b, c = (json.load(open(f)) for f in sys.argv[1:4])
text = open(sys.argv[4]).read()
cvkey = {"iops": "iops", "bytes_per_sec": "bytes_per_sec", "lat_p50_ns": "lat_p50_ns",
         "lat_p99_ns": "lat_p99_ns", "cpu_usec_per_op": "cpu_usec_per_op"}
ta = {t["name"]: t for t in a["tests"]}
tb = {t["name"]: t for t in b["tests"]}
p = c["compared"][0]
assert p["summary"]["repeats"] is True
seen = set()
for t in p["tests"]:
    for key, m in t["metrics"].items():
        if key not in cvkey or m["ratio"] is None:
            assert m["within_noise"] is None, (t["name"], key, m)
            continue
        cv = max(ta[t["name"]]["summary"][cvkey[key]]["cv"],
                 tb[t["name"]]["summary"][cvkey[key]]["cv"])
        d = abs(m["ratio"] - 1)
        if abs(d - 2 * cv) < 1e-12:
            continue        # on the boundary: either answer is right
        assert m["within_noise"] == (d < 2 * cv), (t["name"], key, m, cv)
        seen.add(m["within_noise"])
print("within_noise values seen:", sorted(seen), file=sys.stderr)
assert "Note: without --repeat" not in text      # repeats on both sides: no footnote
# 3 runs a side: the range of the runs' ratios, low confidence, no verdict
for t in p["tests"]:
    ra, rb = ta[t["name"]]["runs"], tb[t["name"]]["runs"]
    for key in ("iops", "lat_p99_ns"):
        m = t["metrics"][key]
        assert m["runs_before"] == 3 and m["runs_after"] == 3, m
        assert m["low_confidence"] is True and m["verdict"] is None, m
        xa, xb = [r[key] for r in ra], [r[key] for r in rb]
        if min(xa) == 0:
            continue
        assert m["interval"]["kind"] == "range", m
        assert abs(m["interval"]["low"] - min(xb) / max(xa)) < 1e-9 * m["interval"]["low"], m
        assert abs(m["interval"]["high"] - max(xb) / min(xa)) < 1e-9 * m["interval"]["high"], m
assert "low conf." in text and "(min..max)" in text
PY

# ---- 5 runs a side with a known change: the interval holds it, the verdict
# says it; the same runs against themselves: "~" -------------------------------
python3 - r1.json <<'PY' || fail "python"
import json, sys
d = json.load(open(sys.argv[1]))
def runs(t, scale):
    base = t["runs"][0]
    out = []
    for k, f in enumerate((1.0, 1.004, 0.996, 1.002, 0.998)):
        r = dict(base)
        r["iops"] = 1000.0 * f * scale
        r["bytes_per_sec"] = r["iops"] * t["bs"]
        r["lat_p99_ns"] = int(100000 * f / scale)
        out.append(r)
    return out
for name, scale in (("k1", 1.0), ("k2", 2.0), ("k3", 1.02)):
    e = json.loads(json.dumps(d))
    e["label"] = name
    for t in e["tests"]:
        t["runs"] = runs(t, scale if t["name"].startswith("rand-read") else 1.0)
        t["summary"]["runs"] = 5
    json.dump(e, open(name + ".json", "w"))
PY
"$DISKBENCH" compare k1.json k2.json k1.json --json k.json >k.txt || fail "compare k: exit $?"
python3 - k.json k.txt <<'PY' || fail "compare of known changes: see above"
import json, sys
c = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
assert c["method"]["interval"].startswith("exact rank") and c["method"]["noise"] == 0.03, c["method"]
twice, same = c["compared"]
n = len(twice["tests"])
assert twice["summary"]["verdicts"] == 2 * n, twice["summary"]
for t in twice["tests"]:
    m, l = t["metrics"]["iops"], t["metrics"]["lat_p99_ns"]
    want = 2.0 if t["name"].startswith("rand-read") else 1.0
    for v, w in ((m, want), (l, 1 / want)):
        assert v["low_confidence"] is False and v["interval"]["kind"] == "rank", v
        # what 5 and 5 runs hold: the level asked, or the range's 1 - 2 / 252
        held = v["interval"]["level"]
        assert held >= min(1 - 0.05 / (2 * n), 1 - 2 / 252) - 1e-12, v
        assert v["interval"]["low"] <= w * 1.000001 and v["interval"]["high"] >= w * 0.999999, (t["name"], v, w)
    assert m["verdict"] == ("better" if want == 2 else "~"), (t["name"], m)
    assert l["verdict"] == ("better" if want == 2 else "~"), (t["name"], l)
for t in same["tests"]:
    assert t["metrics"]["iops"]["verdict"] == "~", t
s = twice["summary"]
assert abs(s["family_level_held"] - min(0.95, 1 - 2 * n * (1 - s["level_held"]))) < 1e-9, s
assert s["level_held"] <= min(t["metrics"]["iops"]["interval"]["level"] for t in twice["tests"]), s
# 5 and 5 runs hold 6 verdicts at 95 %; for more the text says what they hold
flat = " ".join(text.split())
if 2 * n > 6:
    assert s["family_level_held"] < 0.95 and "the most these runs allow" in flat, (s, flat)
    assert "hold together at %.0f %%" % (100 * s["family_level_held"]) in flat, flat
    assert "--repeat %d on both sides reaches 95 %%" % s["runs_needed"] in flat, flat
    assert s["runs_needed"] == 6 and 2 * n <= 23, s  # 2 / C(12, 6) <= 0.05 / 23
else:
    assert s["family_level_held"] == 0.95 and "hold together at 95 %" in flat, (s, flat)
assert s["better"] == sum(t["name"].startswith("rand-read") for t in twice["tests"]), s
assert s["words"].startswith("k2 vs k1: 2.0x faster [") and " on rand-read 4k qd1" in s["words"], s
assert same["summary"]["words"] == "k1 vs k1: %d tests unchanged (~)" % n, same["summary"]
assert s["words"] in text.replace("\n", " ") or s["words"][:60] in text, s["words"]
assert "Bonferroni" in text and "faster" in text
assert max(map(len, text.splitlines())) <= 100
PY
# A sure 2 % change: "~" within the default 3 % band, better outside a 1 % one.
verdicts()	# verdicts ARGS...: the IOPS verdicts of the rand-read tests
{
	"$DISKBENCH" compare "$@" k1.json k3.json --json kn.json >/dev/null || fail "compare $*: exit $?"
	json kn.json '" ".join(str(t["metrics"]["iops"]["verdict"]) for t in d["compared"][0]["tests"] if t["name"].startswith("rand-read"))'
}
[ "$(verdicts)" = "~ ~" ] || fail "a 2 % change within the 3 % band: $(verdicts)"
[ "$(verdicts --noise 1)" = "better better" ] || fail "a 2 % change, a 1 % band: $(verdicts --noise 1)"
[ "$(verdicts --noise=1%)" = "better better" ] || fail "--noise=1%: $(verdicts --noise=1%)"

# ---- every test lost, one p99 35x the baseline's: ratios in words, never a
# share below -100 %, "least worse" and not "best", a headline verdict -------
python3 - r1.json <<'PY' || fail "python"
import json, sys
d = json.load(open(sys.argv[1]))
def low(v):
    """The lower bound of v's histogram bucket (include/hist.h)."""
    v = int(v)
    if v < 128:
        return v
    shift = v.bit_length() - 7
    return (v >> shift) << shift
# per test: (IOPS factor, latency factor); rand-read 4k qd1 takes 35x the p99
slow = {"rand-read 4k qd1": (0.4, 35.0), "rand-read 4k qd8": (0.3, 3.3),
        "seq-read 1m qd1": (0.9, 1.2), "seq-read 1m qd8": (0.97, 1.03)}
for name in ("w1", "w2"):
    e = json.loads(json.dumps(d))
    e["label"] = name
    for t in e["tests"]:
        fi, fl = slow[t["name"]] if name == "w2" else (1.0, 1.0)
        base = t["runs"][0]
        t["runs"] = []
        for j in (1.0, 1.004, 0.996, 1.002, 0.998):
            r = dict(base)
            r["iops"] = 1000.0 * j * fi
            r["bytes_per_sec"] = r["iops"] * t["bs"]
            r["lat_p99_ns"] = int(100000 * j * fl)
            t["runs"].append(r)
        t["summary"]["runs"] = 5
        for k in ("iops", "bytes_per_sec"):
            t[k] *= fi
        h = {}
        for b, c in t["lat_ns"]["histogram"]:
            h[low(b * fl)] = h.get(low(b * fl), 0) + c
        t["lat_ns"]["histogram"] = [[b, h[b]] for b in sorted(h)]
        lat = t["lat_ns"]
        lat["min"], lat["max"] = lat["histogram"][0][0], lat["histogram"][-1][0]
        lat["sum"] = int(lat["sum"] * fl)
        lat["sumsq"] = str(int(int(lat["sumsq"]) * fl * fl))
        for k in ("mean", "stdev"):
            lat[k] = lat[k] * fl
    json.dump(e, open(name + ".json", "w"))
PY
"$DISKBENCH" compare w1.json w2.json --json w.json >w.txt || fail "compare w: exit $?"
python3 - w.json w.txt <<'PY' || fail "compare of losses everywhere: see above"
import json, re, sys
c = json.load(open(sys.argv[1]))
text = open(sys.argv[2]).read()
p = c["compared"][0]
s = p["summary"]
higher = {"iops": True, "bytes_per_sec": True}

def words(key, r):
    """The change in words, as doc/compare.md says."""
    if r is None:
        return None
    if abs(r - 1) < 0.0005:
        return "same"
    up, down = ("faster", "slower") if higher.get(key) else ("higher", "lower")
    how = up if r >= 1 else down
    x = r if r >= 1 else 1 / r
    if x >= 2:
        return ("%.0fx %s" if x >= 100 else "%.1fx %s") % (x, how)
    x = abs(r - 1) * 100
    return ("%.1f %% %s" if x < 1 and round(x, 1) != 0 else "%.0f %% %s") % (x, how)

for t in p["tests"]:
    for key, m in t["metrics"].items():
        assert m["change"] == words(key, m["ratio"]), (t["name"], key, m)
        if m["ratio"] is not None:
            assert abs(m["after_vs_before_pct"] - (m["ratio"] - 1) * 100) < 1e-6, m
            assert m["after_vs_before_pct"] >= -100, m
    row = [l for l in text.splitlines() if l.startswith(t["name"] + " ")][0]
    for key in ("iops", "lat_p99_ns", "cpu_usec_per_op"):
        assert t["metrics"][key]["change"] in row, (key, t["metrics"][key]["change"], row)
m = p["tests"][0]["metrics"]["lat_p99_ns"]
assert p["tests"][0]["name"] == "rand-read 4k qd1" and 34 < m["ratio"] < 36, m
assert m["change"].endswith("x higher") and m["verdict"] == "worse", m
# no share of the baseline below -100 % anywhere in the text
assert not re.search(r"-[0-9]{3,}(\.[0-9]+)? ?%", text), re.findall(r"-[0-9.]+ ?%", text)
assert s["all_lost"] is True and s["all_gained"] is False, s
assert "least worse: " in text and "best:" not in text, text
assert "least worse: %s (%s)" % (s["best"]["name"], s["best"]["change"]) in text
assert s["outcome"] == "worse", s
assert s["headline"].startswith("Worse: slower on 3 of 4 tests (at most 3.3x slower, "
                                "rand-read 4k qd8), faster on none, 1 unchanged (~); "
                                "p99 latency higher on 3 (at most 35.0x higher, "
                                "rand-read 4k qd1), lower on none"), s["headline"]
assert s["p99_worse"] == 3 and s["p99_better"] == 0, s
assert s["headline"][:70] in text.replace("\n", " "), s["headline"]
assert max(map(len, text.splitlines())) <= 100
PY
# The headline of the other outcomes: better, unchanged, not judged.
[ "$(json k.json 'd["compared"][0]["summary"]["outcome"]')" = better ] ||
	fail "k2 against k1: outcome $(json k.json 'd["compared"][0]["summary"]["outcome"]')"
[ "$(json k.json 'd["compared"][1]["summary"]["outcome"]')" = unchanged ] ||
	fail "k1 against k1: outcome $(json k.json 'd["compared"][1]["summary"]["outcome"]')"
json k.json 'd["compared"][1]["summary"]["headline"]' | grep -q '^No significant change: ' ||
	fail "k1 against k1: $(json k.json 'd["compared"][1]["summary"]["headline"]')"
[ "$(json ab.out.json 'd["compared"][0]["summary"]["outcome"]')" = "not judged" ] ||
	fail "a against b: outcome $(json ab.out.json 'd["compared"][0]["summary"]["outcome"]')"
grep -q '^Not judged: fewer than 5 runs on a side' ab.txt || fail "a against b: no headline"

# ---- bad inputs: exit 2, one line naming the problem, nothing written ---------
head -c 700 a.json >truncated.json
python3 - a.json dev.json <<'PY' || fail "python"
import json, sys
d = json.load(open(sys.argv[1]))
d["target"]["kind"] = "block"
json.dump(d, open(sys.argv[2], "w"))
PY
mkdir adir
bad()
{
	local pat=$1
	shift
	expect_usage "$pat" compare "$@" --json o.json --html o.html
	ls -A | grep -q '^o\.' && fail "compare $*: wrote $(ls -A | grep '^o\.')"
	return 0
}
bad "needs two results or more" a.json
bad "needs two results or more"
bad "missing.json: No such file or directory" a.json missing.json
bad "adir: is a directory" adir b.json
bad "truncated.json:[0-9]*:[0-9]*: not a JSON document" a.json truncated.json
bad "unknown option '--bogus'" a.json b.json --bogus
bad "dev.json ran on a block device, a.json on a directory: results of different kinds" a.json dev.json
bad "unknown option '--htmlx'" a.json b.json --htmlx x.html
bad "--noise: 'abc' is not a percentage" a.json b.json --noise abc
bad "--noise: '100' is not a percentage" a.json b.json --noise 100
bad "--noise: '' is not a percentage" a.json b.json --noise=
expect_usage "compare: option '--json' needs a value" compare a.json b.json --json
expect_usage "compare: option '--html' needs a value" compare a.json b.json --html
expect_usage "compare: --html: empty value" compare a.json b.json --html=
# one percentage for compare and tune: "3" or "3%", 0 up to (not) 100
bad "--noise: '-1' is not a percentage from 0 to 100" a.json b.json --noise=-1
bad "--noise: '3%%' is not a percentage" a.json b.json --noise 3%%
bad "--noise: 'nan' is not a percentage" a.json b.json --noise nan
bad "--blocks is a tune option compare does not take" a.json b.json --blocks 3
exit 0
