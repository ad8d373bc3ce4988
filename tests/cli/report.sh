#!/bin/bash
# report.sh - the reporters on fixed results: number formats, JSON that
# parses and round-trips hostile strings, text within 100 columns.
set -u
. "$srcdir/tests/cli/lib.sh"
need_cmd python3
R=${REPORT_RENDER:-$(dirname "$DISKBENCH")/tests/unit/report_render}
[ -x "$R" ] || fail "no $R"
make_tmpdir /tmp

"$R" fmt || fail "number formats"
for n in 0 1 2; do
	"$R" json $n >"$TMP_DIR/$n.json" || fail "json $n: exit $?"
	python3 - "$TMP_DIR/$n.json" $n <<'PY' || fail "json $n: bad document"
import json, sys
d = json.load(open(sys.argv[1]))
n = int(sys.argv[2])
assert d["schema"] == "diskbench/1"
if n == 1:
    # Quotes, backslash and control characters survive; invalid UTF-8 is U+FFFD.
    assert d["label"].startswith('q"uo\\te\ttab\nnl\x01\x1b[31mred é€😀 bad\ufffd'), d["label"]
    assert d["settings"]["seed"] == "18446744073709551615"   # too big for a double
    assert d["settings"]["size"] == 1073741824
    t = d["tests"][2]
    assert t["iops"] is None and t["cpu"]["user_pct"] is None
if n in (0, 1):
    for t in d["tests"][:2]:
        assert sum(c for _, c in t["lat_ns"]["histogram"]) == t["ops"]
        p = t["lat_ns"]["percentiles"]
        assert list(p) == ["1", "5", "10", "25", "50", "75", "90", "95", "99", "99.9",
                           "99.99", "99.999"]
    assert d["tests"][1]["first_error"]["errno"] == 5
if n == 2:
    assert d["tests"] == []
PY
	"$R" text $n >"$TMP_DIR/$n.txt" || fail "text $n: exit $?"
	awk 'length($0) > 100 { print FILENAME ": " length($0) ": " $0; bad = 1 } END { exit bad }' \
		"$TMP_DIR/$n.txt" || fail "text $n wider than 100 columns"
done
grep -q "rand-read 4k qd32" "$TMP_DIR/0.txt" || fail "text 0 lacks the test row"
grep -q "errors: 3" "$TMP_DIR/0.txt" || fail "text 0 lacks the error note"
echo "ok"
