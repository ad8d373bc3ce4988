#!/bin/bash
# import_bonnie.sh - a bonnie++ CSV line read by report: each rate is the
# test's (K/sec = 1024 bytes/s, ops/s for seeks and files), "+++++" and
# empty fields missing (a warning, never 0), each test's %CP (as CPU per
# op, user and sys missing) and latency (its maximum alone; percentiles
# missing) where the line gives them, the round trip through
# diskbench JSON, and a short line or a second line refused with exit 2.
# Saved lines (bonnie++ 2.00a here, 1.96 of another machine), and a fresh one from the installed bonnie++ (as root on an
# ext4 on a loop device made here).
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir
cd "$TMP_DIR" || fail "cd"
DATA=$srcdir/tests/data/import

check()
{
	local f=$1 b
	b=$(basename "$f" .csv)
	"$DISKBENCH" report "$f" --json "$b.json" >"$b.out" 2>"$b.err" ||
		fail "report $f: exit $? ($(cat "$b.err"))"
	python3 - "$f" "$b.json" "$b.out" <<'PY' || fail "$f: figures differ from bonnie++'s (above)"
import json, sys
f = open(sys.argv[1]).read().strip().split(",")
if f[0] == "1.96":
    # format 1.96 has no seeks and seekers fields: where 1.97 has them
    f = f[:7] + ["", ""] + f[7:]
db, out = json.load(open(sys.argv[2])), open(sys.argv[3]).read()
tests = {t["workload"]: t for t in db["tests"]}
bad = []
if db["imported_from"] != {"tool": "bonnie++", "version": f[1], "file": sys.argv[1]}:
    bad.append(f"imported_from {db['imported_from']}")
if db["host"]["hostname"] != f[2]:
    bad.append(f"host {db['host']['hostname']} for {f[2]}")
units = {"M": 1 << 20, "G": 1 << 30}
size = int(f[5][:-1]) * units[f[5][-1]]
rows = [l.split() for l in out.splitlines() if l[:1].isalpha() and len(l.split()) >= 12]
if not rows:
    bad.append("no table in the text")
scale = {"us": 1e3, "ms": 1e6, "s": 1e9}
for i, (field, wl, kind) in enumerate(((9, "char-write", "K"), (11, "seq-write", "K"),
                        (13, "rewrite", "K"),
                        (15, "char-read", "K"), (17, "seq-read", "K"), (19, "seeks", "ops"),
                        (26, "meta-create", "ops"), (28, "meta-stat", "ops"),
                        (30, "meta-delete", "ops"), (32, "meta-create-rand", "ops"),
                        (34, "meta-stat-rand", "ops"), (36, "meta-delete-rand", "ops"))):
    v, t = f[field], tests.get(wl)
    if not v or v.startswith("+"):
        if t:
            bad.append(f"{wl}: a test for field {v!r}")
        if v and f'{wl}: bonnie++ printed "{v}"' not in out.replace("\n         ", " "):
            bad.append(f"{wl}: no warning for {v!r}")
        continue
    if not t:
        bad.append(f"{wl}: no test for rate {v}")
        continue
    got = t["bytes_per_sec"] / 1024 if kind == "K" else t["iops"]
    if abs(got - float(v)) > 1e-6 * float(v):
        bad.append(f"{wl}: rate {got} for bonnie++'s {v}")
    if kind == "K" and t["bytes"] != size:
        bad.append(f"{wl}: bytes {t['bytes']} for size {f[5]}")
    lat, cp, cpu = t["lat_ns"], f[field + 1], t["cpu"]
    if lat["histogram"] != [] or lat["min"] is not None or any(lat["percentiles"].values()):
        bad.append(f"{wl}: latency beyond bonnie++'s maximum not missing: {lat}")
    want = f[38 + i]
    if want:
        unit = want.lstrip("0123456789")
        if lat["max"] != int(want[:-len(unit)]) * scale[unit]:
            bad.append(f"{wl}: max latency {lat['max']} ns for bonnie++'s {want}")
    elif lat["max"] is not None:
        bad.append(f"{wl}: no latency in the line, max {lat['max']}")
    if cpu["user_pct"] is not None or cpu["sys_pct"] is not None:
        bad.append(f"{wl}: user and sys told apart: {cpu}")
    if cp and not cp.startswith("+"):
        got = cpu["usec_per_op"] * t["ops"] / (t["runtime_ns"] / 1e3) * 100
        if abs(got - float(cp)) > 0.01 * float(cp) + 0.05:
            bad.append(f"{wl}: CPU {got} % for bonnie++'s %CP {cp}")
        name = t["name"]
        shown = [r for r in rows if " ".join(r[:len(name.split())]) == name]
        if not shown or abs(float(shown[0][-1]) - float(cp)) > 0.01 * float(cp) + 0.06:
            bad.append(f"{wl}: the text's CPU% {shown[0][-1] if shown else None} for {cp}")
    elif cpu["usec_per_op"] is not None:
        bad.append(f"{wl}: no %CP in the line, CPU per op {cpu['usec_per_op']}")
if f[0] == "1.96" and "seeks" in tests:
    t = tests["seeks"]
    if (t["ops"], t["jobs"]) != (8192, 5):
        bad.append(f"seeks of format 1.96: {t['ops']} by {t['jobs']}, not 8192 by 5")
    if "format 1.96 does not record its seek" not in out.replace("\n         ", " "):
        bad.append("seeks of format 1.96: no warning of the assumed seek count")
for m in bad:
    print("  " + m)
sys.exit(1 if bad else 0)
PY
	"$DISKBENCH" report "$b.json" --json "$b.2.json" >"$b.2.out" 2>/dev/null ||
		fail "report $b.json: exit $?"
	cmp -s "$b.json" "$b.2.json" || fail "$f: the saved JSON does not render to itself"
	cmp -s "$b.out" "$b.2.out" || fail "$f: the saved JSON's text differs"
}

# bonnie-1.96-pkb: bonnie++ 1.96's format (48 fields), of another machine
# (tests/data/import/SOURCES)
for f in bonnie-2.00a bonnie-2.00a-tmpfs bonnie-1.96-pkb; do
	cp "$DATA/$f.csv" . || fail "cp $f"
	check "$f.csv"
done

refuse()
{
	local f=$1 want=$2 rc
	"$DISKBENCH" report "$f" --json out.json >out.txt 2>out.err
	rc=$?
	[ $rc -eq 2 ] || fail "$f: exit $rc, not 2 ($(cat out.err))"
	[ "$(wc -l <out.err)" -eq 1 ] || fail "$f: not one line: $(cat out.err)"
	grep -q "^diskbench: $f: .*$want" out.err || fail "$f: message: $(cat out.err)"
	[ -e out.json ] && fail "$f: out.json written on a refusal"
	return 0
}
cut -d, -f1-30 bonnie-2.00a.csv >short.csv
refuse short.csv 'of 30 fields, not 50'
cut -d, -f1-47 bonnie-1.96-pkb.csv >short196.csv
refuse short196.csv 'format 1.96) of 47 fields, not 48'
cat bonnie-2.00a.csv bonnie-2.00a.csv >two.csv
refuse two.csv 'more than one bonnie++ line'
sed 's/,495,49,/,fast,49,/' bonnie-2.00a.csv >nan.csv
refuse nan.csv 'char-write: rate "fast" is not a number'

# a fresh line from the installed bonnie++ (a small file, -r to allow it)
command -v bonnie++ >/dev/null 2>&1 || skip "bonnie++ not installed: saved lines checked only"
mkdir bon || fail "mkdir"
# as root, on an ext4 of its own on a loop device made here
if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ] && command -v mkfs.ext4 >/dev/null; then
	make_loop 64 none "$TMP_DIR"
	mkfs.ext4 -q -F "$LOOP_DEV" || fail "mkfs.ext4 $LOOP_DEV"
	mount "$LOOP_DEV" "$TMP_DIR/bon" || fail "mount $LOOP_DEV"
	at_exit "unmount '$TMP_DIR/bon'"
fi
bonnie++ -d "$TMP_DIR/bon" -s 32 -r 16 -n 1 -u "$(id -u)" -q -f >fresh.csv 2>bonnie.err ||
	fail "bonnie++: $(cat bonnie.err)"
check fresh.csv
exit 0
