#!/bin/bash
# unwritten.sh - read tests over unwritten space are flagged, with the share
# measured, in every format; written space is not; --destructive lays the
# read region out first; what cannot be checked says why.
#
# Root only (skips with 77 otherwise): one loop device on a 256 MiB image in
# /dev/shm, taken through its states in turn:
#   1. sparse (truncate): every read test flagged, ~100 % unallocated and blank;
#   2. a known share written (64 KiB chunks, seeded): the allocation's share
#      equals the truth, the sample's interval holds it;
#   3. --destructive: the working set is laid out before the read tests, the
#      report says so, nothing is flagged; a run after it on the now written
#      image is not flagged either;
#   4. the null engine, and a deleted backing file: "not checked" with why.
# A sparse file target is flagged too (its own allocation).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"

need_root
need_cmd python3 losetup truncate
need_diskbench

make_loop 256 none
WORK=$TMP_DIR
IMG=$LOOP_IMG
RUN=(--test seq-read,rand-read --bs 4k --qd 1,8 --runtime 300ms --ramp 0)

# check JSON WHAT PYTHON: the assertions in PYTHON over d (the result) and
# the read tests ts; WHAT names the case in the failure.
check()
{
	python3 - "$1" "$2" "$3" <<'EOF' || fail "$2: the result disagrees (above)"
import json, sys
d = json.load(open(sys.argv[1]))
what, code = sys.argv[2], sys.argv[3]
ts = [t for t in d["tests"] if t["rw"] == "read"]
assert ts, "no read tests"
for t in ts:
    assert "unwritten" in t, "%s: no unwritten object" % t["name"]
try:
    exec(code)
except AssertionError as e:
    print("%s: %s" % (what, e))
    sys.exit(1)
EOF
}

# 1. sparse: all of it holes
"$DISKBENCH" "${RUN[@]}" --json "$WORK/sparse.json" --csv "$WORK/sparse.csv" \
	"$LOOP_DEV" >"$WORK/sparse.txt" 2>"$WORK/sparse.err" || fail "sparse run: exit $?"
check "$WORK/sparse.json" sparse '
assert d["read_layout"]["checked"], d["read_layout"]
assert d["read_layout"]["source"] == "loop backing file", d["read_layout"]
assert d["read_layout"]["file"].endswith("loop-256.img"), d["read_layout"]
for t in ts:
    u = t["unwritten"]
    assert u["checked"] and u["flagged"], (t["name"], u)
    assert u["method"] == "seek_hole+sample", u
    assert u["layout_share"] > 0.99, (t["name"], u)
    assert u["sampled_blocks"] == 256 and u["blank_blocks"] >= 250, (t["name"], u)
    lo, hi = u["interval"]
    assert lo <= u["share"] <= hi and lo > 0.9, u
    assert u["region_bytes"] > 0, u
assert any("read unwritten space" in w for w in d["warnings"]), d["warnings"]
'
grep -q "UNWRITTEN: " "$WORK/sparse.txt" || fail "sparse: no UNWRITTEN note in the text report"
grep -q '^seq-read 4k qd1 .*!' "$WORK/sparse.txt" || fail "sparse: no ! beside the figures"
grep -q "read unwritten space" "$WORK/sparse.err" || fail "sparse: no warning on stderr"
python3 - "$WORK/sparse.csv" <<'EOF' || fail "sparse: the CSV has no flag"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert rows and all(r["unwritten"] == "true" for r in rows), rows
assert all(float(r["unwritten_share"]) > 0.99 for r in rows), rows
EOF
# a saved result keeps the flag
"$DISKBENCH" report "$WORK/sparse.json" >"$WORK/again.txt" 2>/dev/null || fail "report: exit $?"
grep -q "UNWRITTEN: " "$WORK/again.txt" || fail "report of the saved result lost the flag"
"$DISKBENCH" report --quiet --html "$WORK/sparse.html" "$WORK/sparse.json" ||
	fail "report --html: exit $?"
grep -q "unwritten 100 %" "$WORK/sparse.html" || fail "the HTML report shows no badge"
echo "ok: sparse image flagged in text, JSON, CSV and HTML"

# 2. a known share written: 64 KiB chunks, each written with probability 0.4
truth=$(python3 - "$IMG" <<'EOF'
import os, random, sys
rng = random.Random(25)
chunk, size = 64 << 10, 256 << 20
fd = os.open(sys.argv[1], os.O_WRONLY)
written = 0
for off in range(0, size, chunk):
    if rng.random() < 0.4:
        os.pwrite(fd, os.urandom(chunk), off)
        written += chunk
os.fsync(fd)
os.close(fd)
print("%.6f" % (1 - written / size))
EOF
) || fail "cannot write part of $IMG"
"$DISKBENCH" --test rand-read --bs 4k --qd 8 --runtime 300ms --ramp 0 --quiet \
	--json "$WORK/part.json" "$LOOP_DEV" 2>"$WORK/part.err" || fail "partial run: exit $?"
check "$WORK/part.json" "partly written (truth $truth unwritten)" '
truth = '"$truth"'
u = ts[0]["unwritten"]
assert abs(u["layout_share"] - truth) < 0.01, ("allocation", u["layout_share"], truth)
lo, hi = u["interval"]
assert lo <= truth <= hi, ("sample", u["share"], u["interval"], truth)
assert u["flagged"], u
'
echo "ok: $truth of the image unwritten: allocation $(json "$WORK/part.json" \
	'd["tests"][0]["unwritten"]["layout_share"]'), sample $(json "$WORK/part.json" \
	'd["tests"][0]["unwritten"]["share"]') in $(json "$WORK/part.json" \
	'd["tests"][0]["unwritten"]["interval"]')"

# 3. --destructive lays the region out first: nothing flagged, and it says so
"$DISKBENCH" --test seq-read,seq-write,rand-read --bs 4k --qd 1,8 --runtime 300ms --ramp 0 \
	--destructive --json "$WORK/laid.json" "$LOOP_DEV" \
	>"$WORK/laid.txt" 2>"$WORK/laid.err" || fail "--destructive run: exit $?"
check "$WORK/laid.json" "--destructive" '
lay = d["read_layout"]["laid_out"]
assert lay and lay["bytes"] == 256 << 20, d["read_layout"]
names = [t["workload"] for t in d["tests"]]
assert names.index("seq-read") < names.index("seq-write"), names
for t in ts:
    u = t["unwritten"]
    assert not u["flagged"] and u["layout_share"] == 0 and u["blank_blocks"] == 0, (t["name"], u)
'
grep -q "^laid out: 268 MB of $LOOP_DEV written before the read tests" "$WORK/laid.txt" ||
	fail "--destructive: the text report does not say what was laid out"
grep -q "read unwritten space" "$WORK/laid.err" && fail "--destructive: still warned"
"$DISKBENCH" "${RUN[@]}" --json "$WORK/full.json" "$LOOP_DEV" >"$WORK/full.txt" 2>&1 ||
	fail "written run: exit $?"
check "$WORK/full.json" "written image" '
for t in ts:
    u = t["unwritten"]
    assert u["checked"] and not u["flagged"] and u["layout_share"] == 0, (t["name"], u)
    assert u["share"] == 0 and u["interval"][1] < 0.02, u
'
grep -q "unwritten space: 4 read tests checked" "$WORK/full.txt" ||
	fail "written image: the text report does not say the check was done"
grep -q "UNWRITTEN" "$WORK/full.txt" && fail "written image: flagged"
echo "ok: --destructive laid the image out before reading; written, nothing is flagged"

# A sparse file target: its own allocation.
truncate -s 64M "$WORK/sparse-file.img" || fail "cannot make a sparse file"
"$DISKBENCH" --test seq-read --bs 1m --qd 8 --runtime 200ms --ramp 0 --quiet \
	--json "$WORK/file.json" "$WORK/sparse-file.img" 2>/dev/null || fail "file run: exit $?"
check "$WORK/file.json" "sparse file" '
assert d["read_layout"]["source"] == "target file", d["read_layout"]
assert ts[0]["unwritten"]["flagged"] and ts[0]["unwritten"]["layout_share"] == 1, ts[0]
'
echo "ok: a sparse file target is flagged"

# 4. not checked, and why
"$DISKBENCH" --engine null "${RUN[@]}" --json "$WORK/null.json" "$LOOP_DEV" \
	>"$WORK/null.txt" 2>&1 || fail "null run: exit $?"
check "$WORK/null.json" "null engine" '
for t in ts:
    u = t["unwritten"]
    assert not u["checked"] and not u["flagged"] and "null engine" in u["reason"], u
'
grep -q "unwritten space: not checked: the null engine moves no data" "$WORK/null.txt" ||
	fail "null engine: the text report does not say why nothing was checked"
rm -f "$IMG"
"$DISKBENCH" --test rand-read --bs 4k --runtime 200ms --ramp 0 --json "$WORK/gone.json" \
	"$LOOP_DEV" >"$WORK/gone.txt" 2>&1 || fail "deleted backing file: exit $?"
check "$WORK/gone.json" "deleted backing file" '
lay = d["read_layout"]
assert not lay["checked"] and "deleted" in lay["reason"], lay
u = ts[0]["unwritten"]
assert u["checked"] and u["method"] == "sample" and u["layout_share"] is None, u
'
grep -q "unwritten space: allocation not checked: the backing file of $LOOP_NAME was deleted" \
	"$WORK/gone.txt" || fail "deleted backing file: the text report does not say why"
# Every line but the drive's health, which may say smartctl is not found.
grep -v "^health:" "$WORK/gone.txt" | grep -qi "not found" &&
	fail "deleted backing file: says 'not found'"
echo "ok: what cannot be checked says why"
echo "ok"
