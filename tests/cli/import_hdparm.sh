#!/bin/bash
# import_hdparm.sh - hdparm -t/-T's text read by report: each line's MB,
# seconds and MB/sec are the test's bytes, window and rate, hdparm's lines
# printed again as they were; the round trip through diskbench JSON; a line
# whose figures disagree, or a second device, refused with exit 2. Saved
# output, and fresh output of the installed hdparm on a loop device of ours.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir
cd "$TMP_DIR" || fail "cd"
DATA=$srcdir/tests/data/import

# check FILE: every " Timing" line of FILE is a test with its figures
check()
{
	local f=$1 b
	b=$(basename "$f" .txt)
	"$DISKBENCH" report "$f" --json "$b.json" >"$b.out" 2>"$b.err" ||
		fail "report $f: exit $? ($(cat "$b.err"))"
	python3 - "$f" "$b.json" <<'PY' || fail "$f: figures differ from hdparm's (above)"
import json, re, sys
lines = [m for m in (re.match(r" Timing (.*?): +(\d+) MB in +([\d.]+) seconds = +([\d.]+) (MB|kB)/sec", l)
                     for l in open(sys.argv[1])) if m]
db = json.load(open(sys.argv[2]))
bad = []
if db["imported_from"] != {"tool": "hdparm", "version": "", "file": sys.argv[1]}:
    bad.append(f"imported_from {db['imported_from']}")
if len(lines) != len(db["tests"]):
    bad.append(f"{len(db['tests'])} tests for {len(lines)} lines")
for m, t in zip(lines, db["tests"]):
    what, mb, secs, rate, unit = m.group(1), int(m.group(2)), float(m.group(3)), float(m.group(4)), m.group(5)
    rate = rate if unit == "MB" else rate / 1024
    w = t["name"]
    if w != "Timing " + what: bad.append(f"name {w!r} for {what!r}")
    if t["bytes"] != mb << 20: bad.append(f"{w}: bytes {t['bytes']} for {mb} MB")
    if abs(t["runtime_ns"] / 1e9 - secs) > 0.005 + 1e-9: bad.append(f"{w}: {t['runtime_ns']} ns for {secs} s")
    if abs(t["bytes_per_sec"] / 2**20 - rate) > 0.005 + 1e-9: bad.append(f"{w}: {t['bytes_per_sec']} B/s for {rate} MB/sec")
    if t["direct"] != what.startswith("O_DIRECT"): bad.append(f"{w}: direct {t['direct']}")
    if t["bs"] != 2 << 20 or t["qd"] != 1 or t["jobs"] != 1: bad.append(f"{w}: bs/qd/jobs")
    if t["lat_ns"]["histogram"] != [] or t["lat_ns"]["percentiles"]["50"] is not None or t["cpu"]["user_pct"] is not None:
        bad.append(f"{w}: latency or CPU not missing")
for m in bad:
    print("  " + m)
sys.exit(1 if bad else 0)
PY
	# hdparm's own lines again, as hdparm printed them
	grep '^ Timing' "$f" | sed 's/ *$//' >"$b.want"
	grep '^ Timing' "$b.out" | sed 's/ *$//' >"$b.got"
	cmp -s "$b.want" "$b.got" || fail "$f: hdparm's lines differ: $(diff "$b.want" "$b.got")"
	"$DISKBENCH" report "$b.json" --json "$b.2.json" >"$b.2.out" 2>/dev/null ||
		fail "report $b.json: exit $?"
	cmp -s "$b.json" "$b.2.json" || fail "$f: the saved JSON does not render to itself"
	cmp -s "$b.out" "$b.2.out" || fail "$f: the saved JSON's text differs"
}

# hdparm-nvme-askubuntu: another hdparm's -tT of an NVMe drive, 4-digit MB
# counts (tests/data/import/SOURCES)
for f in hdparm-tT hdparm-direct hdparm-nvme-askubuntu; do
	cp "$DATA/$f.txt" . || fail "cp $f"
	check "$f.txt"
done

# refused: one line naming the file and line, exit 2, nothing written
refuse()
{
	local f=$1 want=$2 rc
	"$DISKBENCH" report "$f" --json out.json >out.txt 2>out.err
	rc=$?
	[ $rc -eq 2 ] || fail "$f: exit $rc, not 2 ($(cat out.err))"
	[ "$(wc -l <out.err)" -eq 1 ] || fail "$f: not one line: $(cat out.err)"
	grep -q "^diskbench: $f: line [0-9]*: .*$want" out.err || fail "$f: message: $(cat out.err)"
	[ -e out.json ] && fail "$f: out.json written on a refusal"
	return 0
}
sed 's/= *[0-9.]* MB\/sec/= 1.00 MB\/sec/' hdparm-tT.txt >wrong.txt
refuse wrong.txt 'is not 1.00 MB/sec'
{ cat hdparm-tT.txt; sed 's#/dev/loop0#/dev/loop9#' hdparm-direct.txt; } >two.txt
refuse two.txt 'a second device, /dev/loop9'
sed 's/ MB in .*/ MB/' hdparm-direct.txt >cut.txt
refuse cut.txt 'without its figures'

# fresh output of the installed hdparm, on a loop device of ours (it reads only)
command -v hdparm >/dev/null 2>&1 || skip "hdparm not installed: saved output checked only"
[ "$(id -u)" -eq 0 ] || skip "not root: no loop device for a fresh hdparm run"
make_loop 64 random
hdparm -tT "$LOOP_DEV" >fresh.txt 2>&1 || fail "hdparm -tT: $(cat fresh.txt)"
hdparm -t --direct "$LOOP_DEV" >fresh-direct.txt 2>&1 || fail "hdparm --direct: $(cat fresh-direct.txt)"
check fresh.txt
check fresh-direct.txt
exit 0
