#!/bin/bash
# crystal.sh - the crystal profiles print CrystalDiskMark's grid: a row per
# setting named as CrystalDiskMark names it (SEQ1M Q8T1 ... RND4K Q1T1),
# read and write in MB/s, each figure the best of the test's passes (its
# --repeat runs) with their mean in brackets; one pass says so.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /dev/shm
T=$TMP_DIR
mkdir "$T/d"
FAST=(--engine null --runtime 20ms --ramp 0 --size 16m)

# the profile's own passes: 5 (CrystalDiskMark's default)
"$DISKBENCH" "${FAST[@]}" --profile crystal --json "$T/c.json" "$T/d" >"$T/c.txt" 2>"$T/c.err" ||
	fail "crystal: exit $?: $(cat "$T/c.err")"
"$DISKBENCH" "${FAST[@]}" --profile crystal-nvme --repeat 2 --json "$T/n.json" "$T/d" \
	>"$T/n.txt" 2>"$T/n.err" || fail "crystal-nvme: exit $?: $(cat "$T/n.err")"
"$DISKBENCH" "${FAST[@]}" --profile crystal --repeat 1 --json "$T/one.json" "$T/d" \
	>"$T/one.txt" 2>"$T/one.err" || fail "crystal --repeat 1: exit $?: $(cat "$T/one.err")"
"$DISKBENCH" report "$T/c.json" >"$T/again.txt" 2>/dev/null || fail "report c.json: exit $?"

python3 - "$T" <<'PY' || fail "the grid does not show the tests' passes"
import json, re, statistics, sys
T = sys.argv[1]

def grid(txt):
    lines = open(txt).read().splitlines()
    i = next(k for k, l in enumerate(lines) if l.startswith("CrystalDiskMark's grid"))
    while not lines[i].strip().startswith("Read"):
        i += 1
    rows = []
    for l in lines[i + 1:]:
        m = re.match(r"  (\S+ \S+)\s+(.*)$", l)
        if not m:
            break
        rows.append((m.group(1), re.findall(r"[0-9.]+|-", m.group(2))))
    return "\n".join(lines), rows

def check(name, want_labels, passes):
    d = json.load(open("%s/%s.json" % (T, name)))
    text, rows = grid("%s/%s.txt" % (T, name))
    assert [r[0] for r in rows] == want_labels, (name, [r[0] for r in rows])
    tests = d["tests"]
    for (label, cells), (rd, wr) in zip(rows, zip(tests[0::2], tests[1::2])):
        assert rd["workload"].endswith("read") and wr["workload"].endswith("write")
        got = [float(c) for c in cells]
        want = []
        for t in (rd, wr):
            runs = [r["bytes_per_sec"] / 1e6 for r in t["runs"]]
            assert len(runs) == passes, (name, t["name"], len(runs))
            want.append(max(runs))
            if passes > 1:
                want.append(statistics.fmean(runs))
        assert len(got) == len(want), (label, cells, want)
        for g, w in zip(got, want):
            assert abs(g - w) <= 0.005 + 1e-9 * w, (name, label, g, w)
        # the best pass is not the table's median (the runs differ)
        if passes > 1:
            assert abs(rd["summary"]["bytes_per_sec"]["max"] / 1e6 - want[0]) < 1e-6
    if passes > 1:
        assert "best of its %d passes" % passes in text.replace("\n", " "), name
        assert "KDiskMark's Default profile" in text.replace("\n", " ")
    else:
        assert "from one pass" in text.replace("\n", " "), name

check("c", ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"], 5)
check("n", ["SEQ1M Q8T1", "SEQ128K Q32T1", "RND4K Q32T16", "RND4K Q1T1"], 2)
check("one", ["SEQ1M Q8T1", "SEQ1M Q1T1", "RND4K Q32T1", "RND4K Q1T1"], 1)
# a saved result renders the same grid
assert grid("%s/c.txt" % T)[1] == grid("%s/again.txt" % T)[1]
PY
echo "ok: the grid shows each test's best pass and mean, named as CrystalDiskMark names them"
