#!/bin/bash
# xbench.sh - the xbench profile scores its eight tests against Xbench's
# reference, or against a saved result with --baseline; a bad baseline file
# is a usage error.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp
args=(--profile xbench --runtime 100ms --ramp 0 --size 16m --quiet)

"$DISKBENCH" "${args[@]}" --json "$TMP_DIR/a.json" "$TMP_DIR" || fail "xbench: exit $?"
"$DISKBENCH" "${args[@]}" --baseline "$TMP_DIR/a.json" --json "$TMP_DIR/b.json" "$TMP_DIR" ||
	fail "xbench --baseline: exit $?"
python3 - "$TMP_DIR/a.json" "$TMP_DIR/b.json" <<'PY' || fail "xbench scores are wrong"
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    x = d["xbench"]
    assert len(x["tests"]) == 8, len(x["tests"])
    # The JSON rounds scores to 0.01 and rates to 0.001: compare relatively.
    for s in x["tests"]:
        want = 100 * s["bytes_per_sec"] / s["baseline_bytes_per_sec"]
        assert abs(s["score"] - want) <= 0.005 + 1e-6 * want, (s, want)
    seq = [s["score"] for s in x["tests"] if s["name"].startswith("Sequential")]
    want = len(seq) / sum(1 / v for v in seq)
    # Each score was rounded by up to 0.005, and a harmonic mean is most
    # sensitive to its smallest terms: d(H)/d(v) = H^2 / (n v^2).
    tol = 0.005 + sum(0.005 * want ** 2 / (len(seq) * v ** 2) for v in seq) + 1e-6 * want
    assert abs(x["sequential"] - want) <= tol, (x["sequential"], want, tol)
assert a["xbench"]["baseline"].startswith("Xbench 1.3")
assert b["xbench"]["baseline"] == sys.argv[1]
# Against run a, each baseline figure is run a's own rate for that test.
rate = {(t["workload"], t["bs"]): t["bytes_per_sec"] for t in a["tests"]}
assert all(s["baseline_bytes_per_sec"] in [round(v, 3) for v in rate.values()]
           for s in b["xbench"]["tests"])
PY

# An HTML report holds its result: it is a baseline as its JSON is, the
# same figures (the page was written by the run a.json came from).
"$DISKBENCH" "${args[@]}" --html "$TMP_DIR/c.html" --json "$TMP_DIR/c.json" "$TMP_DIR" ||
	fail "xbench --html: exit $?"
"$DISKBENCH" "${args[@]}" --baseline "$TMP_DIR/c.html" --json "$TMP_DIR/d.json" "$TMP_DIR" ||
	fail "xbench --baseline c.html: exit $?"
"$DISKBENCH" "${args[@]}" --baseline "$TMP_DIR/c.json" --json "$TMP_DIR/e.json" "$TMP_DIR" ||
	fail "xbench --baseline c.json: exit $?"
python3 - "$TMP_DIR/c.json" "$TMP_DIR/d.json" "$TMP_DIR/e.json" <<'PY' || fail "an HTML baseline is not its result's"
import json, sys
c, d, e = (json.load(open(p)) for p in sys.argv[1:4])
assert d["xbench"]["baseline"] == sys.argv[1][:-4] + "html", d["xbench"]["baseline"]
rate = {(t["workload"], t["bs"]): t["bytes_per_sec"] for t in c["tests"]}
base = lambda x: [s["baseline_bytes_per_sec"] for s in x["xbench"]["tests"]]
assert len(base(d)) == 8 and base(d) == base(e), (base(d), base(e))
assert all(v in [round(r, 3) for r in rate.values()] for v in base(d)), base(d)
PY

echo '{"schema": "diskbench/1", "tests": [' >"$TMP_DIR/bad.json"
out=$("$DISKBENCH" "${args[@]}" --baseline "$TMP_DIR/bad.json" "$TMP_DIR" 2>&1)
[ $? -eq 2 ] || fail "a broken baseline file: want exit 2 ($out)"
echo "$out" | grep -q "bad.json:.*not a JSON document" || fail "no FILE:LINE message: $out"
echo "ok"
