#!/bin/bash
# import.sh - fio's JSON (json and json+, fio 3.x) read by report and compare:
# every job's figures against the fio file's own values, the round trip
# through diskbench JSON, and the refusals (mixed read/write, cut short) with
# exit 2 and nothing written. Saved fixtures, and fresh ones when fio is here
# (as root on a loop device made here, with O_DIRECT).
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir
cd "$TMP_DIR" || fail "cd"
DATA=$srcdir/tests/data/import

# check FIO.json: report it as diskbench JSON; each test's figures are the
# fio job's own; then the saved JSON renders to the same JSON again.
check()
{
	local f=$1 b
	b=$(basename "$f" .json)
	"$DISKBENCH" report "$f" --json "$b.db.json" >"$b.txt" 2>"$b.err" ||
		fail "report $f: exit $? ($(cat "$b.err"))"
	python3 - "$f" "$b.db.json" <<'PY' || fail "$f: figures differ from fio's (above)"
import json, sys
text = open(sys.argv[1]).read()
dec, pos, docs = json.JSONDecoder(), 0, []
while pos < len(text):
    while pos < len(text) and text[pos].isspace():
        pos += 1
    if pos >= len(text):
        break
    d, pos = dec.raw_decode(text, pos)
    docs.append(d)
fio, db = docs[-1], json.load(open(sys.argv[2]))
bad = []
def eq(what, a, b):
    if a != b:
        bad.append(f"{what}: diskbench {a!r}, fio {b!r}")
def near(what, a, b, rel, abs_=0.0):
    if a is None or abs(a - b) > max(rel * abs(b), abs_):
        bad.append(f"{what}: diskbench {a!r}, fio {b!r} (more than {rel:%} apart)")
eq("imported_from", db["imported_from"], {"tool": "fio", "version": fio["fio version"],
                                          "file": sys.argv[1]})
eq("tests", len(db["tests"]), len(fio["jobs"]))
names = [j["jobname"] for j in fio["jobs"]]
for job, t in zip(fio["jobs"], db["tests"]):
    o = job["job options"]
    rw = o.get("rw", "read")
    d = job["write" if "write" in rw else "read"]
    w = t["name"]
    size = {"k": 1024, "m": 1 << 20}
    bs = o.get("bs", "4k").lower()
    eq(w + " bs", t["bs"], int(bs[:-1]) * size[bs[-1]] if bs[-1] in size else int(bs))
    eq(w + " qd", t["qd"], int(o.get("iodepth", "1")))
    nj = int(o.get("numjobs", "1"))
    eq(w + " jobs", t["jobs"], nj if names.count(job["jobname"]) == 1 else 1)
    eq(w + " engine", t["engine"], o.get("ioengine", "psync"))
    eq(w + " direct", t["direct"], o.get("direct", "0") != "0")
    eq(w + " rw", t["rw"], "write" if "write" in rw else "read")
    eq(w + " pattern", t["pattern"], "rand" if rw.startswith("rand") else "seq")
    eq(w + " ops", t["ops"], d["total_ios"])
    eq(w + " bytes", t["bytes"], d["io_bytes"])
    eq(w + " runtime_ns", t["runtime_ns"], d["runtime"] * 1000000)
    near(w + " iops", t["iops"], d["iops"], 1e-6)
    near(w + " bytes_per_sec", t["bytes_per_sec"], d["bw_bytes"], 1e-6)
    clat, lat = d["clat_ns"], t["lat_ns"]
    if "bins" in clat:
        eq(w + " samples", sum(c for _, c in lat["histogram"]), sum(clat["bins"].values()))
        eq(w + " min", lat["min"], clat["min"])
        eq(w + " max", lat["max"], clat["max"])
        near(w + " mean", lat["mean"], clat["mean"], 1e-3)
        # fio's percentile is its bin's value; ours the bucket holding it
        for p in ("50", "90", "99", "99.9"):
            near(f"{w} p{p}", lat["percentiles"][p], clat["percentile"][f"{float(p):.6f}"], 0.02)
    else:
        # no histogram: fio's own percentiles, exactly, where fio has the point
        eq(w + " histogram (json has none)", lat["histogram"], [])
        eq(w + " min", lat["min"], clat["min"])
        eq(w + " max", lat["max"], clat["max"])
        near(w + " mean", lat["mean"], clat["mean"], 1e-3)
        for p, v in lat["percentiles"].items():
            eq(f"{w} p{p}", v, clat["percentile"].get(f"{float(p):.6f}"))
    if t["jobs"] == 1:
        # the JSON keeps CPU percent to 3 decimals: 0.4995 is saved 0.499
        near(w + " cpu user", t["cpu"]["user_pct"], job["usr_cpu"], 1e-3, 5e-4 + 1e-12)
    else:
        eq(w + " cpu of a group (not one job's: missing)", t["cpu"]["user_pct"], None)
for m in bad:
    print("  " + m)
sys.exit(1 if bad else 0)
PY
	# a missing figure shows as missing, never 0; the latency said to be fio's
	grep -q 'block 0/0' "$b.txt" && fail "$f: unknown block sizes shown as 0/0"
	grep -q "fio's completion latency (clat)" "$b.txt" || fail "$f: latency not named as fio's"
	if ! grep -q '"bins"' "$f"; then
		cat "$b.txt" "$b.err" | tr -s ' \n' ' ' | grep -q "the percentiles are fio's own" ||
			fail "$f: no warning that the percentiles are fio's"
	fi
	"$DISKBENCH" report "$b.db.json" --json "$b.db2.json" >"$b.2.txt" 2>/dev/null ||
		fail "report $b.db.json: exit $?"
	cmp -s "$b.db.json" "$b.db2.json" || fail "$f: the saved JSON does not render to itself"
	cmp -s "$b.txt" "$b.2.txt" || fail "$f: the saved JSON's text differs: $(diff "$b.txt" "$b.2.txt")"
}

# fio-3.27-group: fio 3.27 of another machine, numjobs=8 with group_reporting
# in the job's own options, bs=4K (tests/data/import/SOURCES)
for f in randread randread-plus twojobs-plus group status fio-3.27-group; do
	cp "$DATA/$f.json" . || fail "cp $f"
	check "$f.json"
done
cat status.txt status.err | grep -q '3 fio documents (--status-interval)' || fail "status: no word of its documents"

# fresh output of the installed fio, when there is one: as root on a loop
# device of our own with O_DIRECT (the results people bring are of devices),
# else on a file
if command -v fio >/dev/null 2>&1; then
	common=(--filename="$TMP_DIR/fiofile" --size=16m --runtime=1 --time_based)
	if [ "$(id -u)" -eq 0 ] && [ -e /dev/loop-control ]; then
		make_loop 32
		common=(--filename="$LOOP_DEV" --direct=1 --size=16m --runtime=1 --time_based)
	fi
	fio --output=fresh-json.json --output-format=json --name=r --rw=randread --bs=4k \
		"${common[@]}" >/dev/null 2>&1 || fail "fio json"
	fio --output=fresh-plus.json --output-format=json+ --name=a --rw=randread --bs=4k \
		"${common[@]}" --name=b --rw=write --bs=64k --iodepth=4 "${common[@]}" \
		>/dev/null 2>&1 || fail "fio json+"
	fio --output=fresh-group.json --output-format=json+ --name=g --rw=randread --bs=4k \
		--numjobs=2 --group_reporting "${common[@]}" >/dev/null 2>&1 || fail "fio group"
	fio --output=fresh-clones.json --output-format=json+ --name=c --rw=read --bs=16k \
		--numjobs=2 "${common[@]}" >/dev/null 2>&1 || fail "fio clones"
	for f in fresh-json fresh-plus fresh-group fresh-clones; do
		check "$f.json"
	done
else
	msg "fio not installed: only the saved fixtures checked"
fi

# compare reads them too, and names the tool
"$DISKBENCH" compare randread-plus.json twojobs-plus.json >cmp.txt 2>cmp.err ||
	[ $? -eq 1 ] || fail "compare of fio files: exit $? ($(cat cmp.err))"
grep -q 'imported\|randread-plus.json' cmp.txt || fail "compare: $(cat cmp.txt)"

# refused: one line naming the file and what is wrong, exit 2, nothing written
refuse()
{
	local f=$1 want=$2 rc
	"$DISKBENCH" report "$f" --json out.json >out.txt 2>out.err
	rc=$?
	[ $rc -eq 2 ] || fail "$f: exit $rc, not 2 ($(cat out.err))"
	[ "$(wc -l <out.err)" -eq 1 ] || fail "$f: not one line: $(cat out.err)"
	grep -q "^diskbench: $f: .*$want" out.err || fail "$f: message: $(cat out.err)"
	[ -e out.json ] && fail "$f: out.json written on a refusal"
	[ -s out.txt ] && fail "$f: a report printed on a refusal"
	return 0
}
cp "$DATA/mixed.json" . || fail "cp mixed"
refuse mixed.json 'rw=randrw is a mixed read/write job'
# fio 2.x's JSON (io_bytes in KiB, latency in usec as "clat"): refused, not misread
cp "$DATA/fio-2.17-pkb.json" . || fail "cp fio-2.17-pkb"
refuse fio-2.17-pkb.json "fio-2.17's JSON, whose units (KiB sizes, usec latency) are fio 2's"
head -c 3000 randread-plus.json >cut.json
refuse cut.json 'fio JSON cut short or broken'
sed 's/"rw" : "randread"/"rw" : "randtrim"/' randread.json >trim.json
refuse trim.json 'rw=randtrim trims'
# zoned and verify-only jobs: workloads diskbench cannot represent
for o in zonemode=zbd verify_only=1; do
	python3 - "${o%%=*}" "${o#*=}" <<'PY' || fail "make $o"
import json, sys
d = json.load(open("randread.json"))
d["jobs"][0]["job options"][sys.argv[1]] = sys.argv[2]
json.dump(d, open(sys.argv[1] + ".json", "w"))
PY
done
refuse zonemode.json 'zonemode=zbd, a zoned workload diskbench cannot represent'
refuse verify_only.json 'a verify-only job, which measures no workload'
# a file of none of the formats
printf 'hello, world\n' >none.txt
"$DISKBENCH" report none.txt --json out.json >out.txt 2>out.err
rc=$?
[ $rc -eq 2 ] || fail "none.txt: exit $rc, not 2"
[ "$(wc -l <out.err)" -eq 1 ] && grep -q '^diskbench: none.txt: none of the formats diskbench reads' out.err ||
	fail "none.txt: message: $(cat out.err)"
[ -e out.json ] || [ -s out.txt ] && fail "none.txt: something written on a refusal"
exit 0
