#!/bin/bash
# saved.sh - results saved by earlier versions still load in report and
# compare (the JSON contract: keys are added, never renamed or removed).
# tests/data/results holds runs saved by diskbench at commit f3e5f6a (before
# the loader existed: no lat_ns.sum/sumsq, no files) and 2dcec50: a quick
# directory run, a null --repeat 3 run and a bonnie run each; and at d77dd60
# (what the loader is written against) a quick run and a null --repeat 3 run;
# figures-* are runs of the profiles that print their tool's own table.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /dev/shm
T=$TMP_DIR
DATA=$srcdir/tests/data/results
n=0
for f in "$DATA"/*.json; do
	b=$(basename "$f" .json)
	"$DISKBENCH" report "$f" >"$T/$b.txt" 2>"$T/$b.err" || fail "report $b: exit $?: $(cat "$T/$b.err")"
	for name in $(json "$f" '" ".join(t["name"].replace(" ", "_") for t in d["tests"])'); do
		grep -q "^${name//_/ } " "$T/$b.txt" || fail "report $b: no row for '${name//_/ }'"
	done
	"$DISKBENCH" report --quiet --json "$T/$b.json" --csv "$T/$b.csv" "$f" ||
		fail "report --json $b: exit $?"
	# Every key of the old document is still there, and what was measured
	# (not derived) is the same.
	python3 - "$f" "$T/$b.json" <<'EOF' || fail "report --json $b: the contract is broken"
import json, sys
old, new = (json.load(open(p)) for p in sys.argv[1:3])
bad = []
def walk(o, n, path):
    if isinstance(o, dict):
        if not isinstance(n, dict):
            bad.append("%s: no longer an object" % path); return
        for k in o:
            if k not in n:
                bad.append("%s.%s: removed" % (path, k))
            else:
                walk(o[k], n[k], "%s.%s" % (path, k))
    elif isinstance(o, list) and path.endswith(("tests", "runs")):
        if not isinstance(n, list) or len(n) != len(o):
            bad.append("%s: %r entries, was %r" % (path, len(n) if isinstance(n, list) else n, len(o)))
            return
        for i, (a, b) in enumerate(zip(o, n)):
            walk(a, b, "%s[%d]" % (path, i))
walk(old, new, "")
for i, (a, b) in enumerate(zip(old["tests"], new["tests"])):
    for k in ("name", "workload", "engine", "bs", "qd", "jobs", "runtime_ns", "ops", "bytes", "errors"):
        if a[k] != b[k]:
            bad.append("tests[%d].%s: %r, was %r" % (i, k, b[k], a[k]))
    if a["lat_ns"]["histogram"] != b["lat_ns"]["histogram"]:
        bad.append("tests[%d]: histogram changed" % i)
for k in ("schema", "label", "started_at"):
    if old[k] != new[k]:
        bad.append("%s: %r, was %r" % (k, new[k], old[k]))
for b in bad:
    print("FAIL:", b)
sys.exit(1 if bad else 0)
EOF
	# Compared with itself: every ratio is 1.
	"$DISKBENCH" compare --quiet --json "$T/$b.cmp.json" "$f" "$f" || fail "compare $b $b: exit $?"
	python3 - "$T/$b.cmp.json" <<'EOF' || fail "compare $b with itself: ratios are not 1"
import json, sys
d = json.load(open(sys.argv[1]))
rs = [m["ratio"] for c in d["compared"] for t in c["tests"] for m in t["metrics"].values()
      if isinstance(m.get("ratio"), (int, float))]
sys.exit(0 if rs and all(abs(r - 1) < 1e-12 for r in rs) else 1)
EOF
	n=$((n + 1))
done
[ "$n" -ge 8 ] || fail "only $n saved results in $DATA"
# Across versions: the old and the newer result of one plan.
"$DISKBENCH" compare "$DATA/f3e5f6a-quick.json" "$DATA/2dcec50-quick.json" >"$T/across.txt" ||
	fail "compare across versions: exit $?"
grep -q "rand-read 4k qd32" "$T/across.txt" || fail "compare across versions: $(cat "$T/across.txt")"
echo "ok: $n saved results"
