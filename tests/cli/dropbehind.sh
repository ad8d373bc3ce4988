#!/bin/bash
# dropbehind.sh - buffered tests on a file smaller than RAM measure the device,
# not the page cache: a small working set that every test wraps many times
# over must still send (about) every byte it reads or writes to the device.
# cached-read, which measures the cache, must not.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3

make_tmpdir /var/tmp
dir=$TMP_DIR
out=$(mktemp -d /tmp/dropbehind.XXXXXX) || fail "mktemp"
at_exit "rm -rf -- '$out'"

# 256 MiB, 1 s each: seq-read wraps several times, seeks re-visit blocks.
# (Much smaller, and random reads find their neighbours read ahead.)
"$DISKBENCH" --profile bonnie --test seq-write,rewrite,seq-read,seeks,cached-read \
	--size 256m --runtime 1s --ramp 0 --json "$out/r.json" --quiet "$dir" \
	2>"$out/err" || fail "exit $?: $(cat "$out/err")"
[ -z "$(ls -A "$dir")" ] || fail "left behind: $(ls -A "$dir")"

python3 - "$out/r.json" <<'PY' || fail "drop-behind: the numbers came from the page cache"
import json, sys
d = json.load(open(sys.argv[1]))
tests = {t["workload"]: t for t in d["tests"]}
for w in ("seq-write", "rewrite", "seq-read", "seeks"):
    assert tests[w]["drop_behind"] is True, (w, "not drop-behind")
assert tests["cached-read"]["drop_behind"] is False
dev = tests["seq-read"]["device"]
if dev is None:
    print("no device counters for this directory: only the flags were checked")
    sys.exit(0)
def ratio(w, key):
    t = tests[w]
    return t["device"][key] / t["bytes"]
# Reads: each pass comes from the device again. Readahead may read a little
# more than asked, other activity on the device adds to it.
r = ratio("seq-read", "read_bytes")
print("seq-read: device read %.3f of the bytes read" % r)
assert r > 0.9, ("seq-read", r)
# seeks: 10 % of its chunks are written back, and its bytes count both.
r = ratio("seeks", "read_bytes") + ratio("seeks", "write_bytes")
print("seeks: device read + written %.3f of the bytes moved" % r)
assert r > 0.85, ("seeks", r)
# Writes: every byte written reaches the device inside the window.
r = ratio("seq-write", "write_bytes")
print("seq-write: device written %.3f of the bytes written" % r)
assert r > 0.9, ("seq-write", r)
# rewrite counts each chunk once; the device reads and writes it.
for key in ("read_bytes", "write_bytes"):
    r = ratio("rewrite", key)
    print("rewrite: device %s %.3f of the chunks" % (key, r))
    assert r > 0.9, ("rewrite", key, r)
assert tests["cached-read"]["cached"] is True
PY
echo "drop-behind: ok"
