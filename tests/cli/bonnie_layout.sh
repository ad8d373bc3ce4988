#!/bin/bash
# bonnie_layout.sh - the bonnie profile speaks bonnie++'s language: its
# --bonnie-csv fields mean what a real bonnie++ 2.00a line's mean (the
# machine name is the host name; the seeks field is bonnie++'s seek-count
# setting, which diskbench has not, so it stays empty, never the seeks
# done), bon_csv2txt renders our line as it renders a real one, and the
# text report's bonnie++ table prints what bon_csv2txt prints of our line.
# tests/data/bonnie++-2.00a.csv is a line bonnie++ 2.00a wrote on a VM
# (bonnie++ -s 256 -r 128 -n 1 -m myhost -q).
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3 bon_csv2txt
make_tmpdir /var/tmp
T=$TMP_DIR
REAL=$srcdir/tests/data/bonnie++-2.00a.csv
mkdir "$T/d"

"$DISKBENCH" --profile bonnie --runtime 100ms --ramp 0 --size 16m --files 1024 \
	--label "a label, not a host" --json "$T/r.json" --bonnie-csv "$T/ours.csv" \
	"$T/d" >"$T/report.txt" 2>"$T/err" || fail "bonnie profile: exit $?: $(cat "$T/err")"
bon_csv2txt <"$T/ours.csv" >"$T/ours.txt" 2>"$T/b.err" || fail "bon_csv2txt failed on ours"
[ -s "$T/b.err" ] && fail "bon_csv2txt complained: $(cat "$T/b.err")"
bon_csv2txt <"$REAL" >"$T/real.txt" 2>&1 || fail "bon_csv2txt failed on the real line"

python3 - "$T/r.json" "$T/ours.csv" "$REAL" "$T/ours.txt" "$T/real.txt" "$T/report.txt" <<'PY' ||
import json, re, sys
d = json.load(open(sys.argv[1]))
ours = open(sys.argv[2]).read().rstrip("\n").split(",")
real = open(sys.argv[3]).read().rstrip("\n").split(",")
ours_txt = open(sys.argv[4]).read().splitlines()
real_txt = open(sys.argv[5]).read().splitlines()
report = open(sys.argv[6]).read().splitlines()
by = {t["workload"]: t for t in d["tests"]}
host = d["host"]["hostname"]

# 1. the CSV fields, against a real bonnie++ line's
assert len(ours) == len(real) == 50, (len(ours), len(real))
assert ours[0] == real[0] == "1.98"
assert ours[2] == host, ("machine name", ours[2], host)     # not the label
assert real[7].isdigit() and int(real[7]) > 0, real[7]      # bonnie++: its seek-count setting
assert ours[7] == "", ("seek count: diskbench has no such setting", ours[7])
assert str(by["seeks"]["ops"]) not in ours[5:9], "the seeks done are not a setting"
assert real[8].isdigit() and ours[8] == str(by["seeks"]["jobs"]), (ours[8], real[8])
assert ours[5] == "%dM" % (by["seq-write"]["size_bytes"] >> 20) and real[5].endswith("M")
assert ours[6] == str(by["seq-write"]["bs"])
assert ours[21] == real[21] == "1"                           # files / 1024

# 2. bon_csv2txt shows both lines alike: same lines, same headers, the host
# name at the start of each row, size:chunk:seeks:seekers in the same places
assert len(ours_txt) == len(real_txt), (ours_txt, real_txt)
for i, (a, b) in enumerate(zip(ours_txt, real_txt)):
    if a.startswith("Version"):
        continue
    if a.startswith(host) or b.startswith("myhost"):
        assert a.startswith(host[:8]) and b.startswith("myhost"), (a, b)
        ca, cb = a[:19].split()[-1], b[:19].split()[-1]
        assert ca.count(":") == cb.count(":"), (ca, cb)
        if ":" in cb:
            assert ca.split(":")[3] == ours[8] and cb.split(":")[3] == real[8], (ca, cb)
        continue
    if a.startswith("Latency"):
        continue
    assert a == b, ("header differs", a, b)

# 3. the text report's bonnie++ table is what bon_csv2txt prints of our line
start = next(i for i, l in enumerate(report) if l.startswith("Version"))
table = report[start:start + len(ours_txt)]
assert len(table) == len(ours_txt), table
def cells(line):
    return line[19:].split()
def value(c):
    m = re.fullmatch(r"([0-9.]+)([kmg]?)", c)
    assert m, c
    return float(m.group(1)) * {"": 1, "k": 1000, "m": 1, "g": 1}[m.group(2)]
for a, b in zip(table, ours_txt):
    if a.startswith("Version"):
        assert b.startswith("Version")
        continue
    assert a[:19] == b[:19], ("name column", a, b)
    ca, cb = cells(a), cells(b)
    assert len(ca) == len(cb), (a, b)
    for x, y in zip(ca, cb):
        if x == y:
            continue
        # bon_csv2txt prints an ops rate as the CSV has it ("20075.9",
        # "425972"); the report keeps it in 5 columns ("20076", "426k")
        assert abs(value(x) - value(y)) <= 0.005 * value(y) + 0.5, ("cell", x, y, a, b)
assert "+++" not in "\n".join(table)
# no block sizes or MB/s for what has none: the table's rows, before the notes
rows = report[:report.index("notes:")] if "notes:" in report else report
for l in rows:
    f = l.split()
    if f and f[0].startswith(("meta-", "char-")):
        assert f[2] == "-", ("bs", l)
    if f and f[0].startswith("meta-"):
        assert f[6] == "-", ("MB/s", l)
PY
	fail "the bonnie profile's line and table do not read as bonnie++'s"
echo "ok: our line reads as a real bonnie++ line in bon_csv2txt, and the report's table matches it"
