#!/bin/bash
# readonly.sh - an existing regular file is only read: read tests run, a write
# test is refused with exit 3, the default plan skips its writes, and the
# file's content never changes.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3 sha256sum
make_tmpdir /var/tmp
f=$TMP_DIR/data
dd if=/dev/urandom of="$f" bs=1M count=8 status=none || fail "dd"
sum=$(sha256sum <"$f")

"$DISKBENCH" --test seq-read,rand-read --bs 4k --qd 1,4 --runtime 100ms --ramp 0 --quiet \
	--json "$TMP_DIR/r.json" "$f" || fail "read tests on a file: exit $?"
python3 "$srcdir/tests/cli/check_json.py" "$TMP_DIR/r.json" --tests 4 || fail "bad JSON"
[ "$(json "$TMP_DIR/r.json" 'd["target"]["kind"]')" = file ] || fail "target.kind"

out=$("$DISKBENCH" --test seq-write --runtime 100ms --ramp 0 "$f" 2>&1)
rc=$?
[ "$rc" -eq 3 ] || fail "write test on a file: exit $rc, want 3"
echo "$out" | grep -q "refusing to write" || fail "no reason given: $out"

err=$("$DISKBENCH" --runtime 100ms --ramp 0 --quiet --json "$TMP_DIR/d.json" "$f" 2>&1) ||
	fail "default plan on a file: exit $?"
echo "$err" | grep -q "skipped seq-write, rand-write" || fail "skipped writes not stated: $err"
[ "$(json "$TMP_DIR/d.json" 'sorted({t["workload"] for t in d["tests"]})')" = \
	'["rand-read", "seq-read"]' ] || fail "default plan on a file ran writes"

[ "$(sha256sum <"$f")" = "$sum" ] || fail "the file changed"
echo "ok"
