#!/bin/bash
# csv.sh - --csv has a header and one row per test matching the JSON;
# --bonnie-csv is a 50-field bonnie++ 1.98 line that bonnie++'s own
# bon_csv2txt and bon_csv2html render with our numbers in their columns.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp

"$DISKBENCH" --profile bonnie --runtime 100ms --ramp 0 --size 16m --files 1024 --quiet \
	--json "$TMP_DIR/r.json" --csv "$TMP_DIR/r.csv" --bonnie-csv "$TMP_DIR/b.csv" \
	"$TMP_DIR" || fail "bonnie profile: exit $?"

python3 - "$TMP_DIR/r.json" "$TMP_DIR/r.csv" "$TMP_DIR/b.csv" <<'PY' || fail "CSV files disagree with the JSON"
import csv, json, sys
d = json.load(open(sys.argv[1]))
rows = list(csv.DictReader(open(sys.argv[2])))
assert len(rows) == len(d["tests"]), (len(rows), len(d["tests"]))
for row, t in zip(rows, d["tests"]):
    assert row["name"] == t["name"] and int(row["ops"]) == t["ops"], (row["name"], t["name"])
    assert int(row["lat_p99_ns"]) == t["lat_ns"]["percentiles"]["99"]
    assert abs(float(row["iops"]) - t["iops"]) < 0.01
    # the load the test felt: the JSON's, or empty where it has none
    w = (t.get("cpu") or {}).get("wait_pct")
    if w is None:
        assert row["cpu_wait_pct"] == "", (t["name"], row["cpu_wait_pct"])
    else:   # both rounded to 3 decimals from the full value
        assert abs(float(row["cpu_wait_pct"]) - w) <= 1.001e-3, (t["name"], row, w)
line = open(sys.argv[3]).read()
assert line.endswith("\n") and line.count("\n") == 1
f = line.rstrip("\n").split(",")
assert len(f) == 50, len(f)
assert f[0] == "1.98"
by = {t["workload"]: t for t in d["tests"]}
# The CSV rounds the full value; the JSON holds it to 3 decimals, so a value
# within a rounding step of .5 may round either way from it (Python's round()
# also rounds halves to even): whole numbers must be within 0.5 of it.
def near(field, v):
    return abs(int(f[field]) - v) <= 0.5 + 1e-3
# putc, block write, rewrite, getc, block read in K/sec; seeks and files per second.
for field, wl in ((9, "char-write"), (11, "seq-write"), (13, "rewrite"), (15, "char-read"),
                  (17, "seq-read")):
    assert near(field, by[wl]["bytes_per_sec"] / 1024), (wl, f[field])
assert abs(float(f[19]) - by["seeks"]["iops"]) < 0.1
assert f[21] == "1"                                   # files, in multiples of 1024
for field, wl in ((26, "meta-create"), (28, "meta-stat"), (30, "meta-delete"),
                  (32, "meta-create-rand"), (34, "meta-stat-rand"), (36, "meta-delete-rand")):
    assert near(field, by[wl]["iops"]), (wl, f[field])
assert "+++" not in line
PY

if command -v bon_csv2txt >/dev/null; then
	bon_csv2txt <"$TMP_DIR/b.csv" >"$TMP_DIR/b.txt" 2>"$TMP_DIR/b.err" || fail "bon_csv2txt failed"
	[ -s "$TMP_DIR/b.err" ] && fail "bon_csv2txt complained: $(cat "$TMP_DIR/b.err")"
	create=$(cut -d, -f27 "$TMP_DIR/b.csv")
	grep -q " $create " "$TMP_DIR/b.txt" || fail "bon_csv2txt does not show the create rate $create"
	grep -q "Latency" "$TMP_DIR/b.txt" || fail "bon_csv2txt shows no latency line"
	bon_csv2html <"$TMP_DIR/b.csv" >"$TMP_DIR/b.html" || fail "bon_csv2html failed"
	grep -q "$create" "$TMP_DIR/b.html" || fail "bon_csv2html does not show the create rate"
	echo "bon_csv2txt and bon_csv2html render it"
else
	echo "note: bonnie++ is not installed: the bon_csv2txt check was skipped"
fi
echo "ok"
