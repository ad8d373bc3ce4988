#!/bin/bash
# memlock.sh - io_uring under RLIMIT_MEMLOCK, as a user without CAP_IPC_LOCK
# (nobody): list engines says what the limit allows; a run whose buffers do
# not fit goes on unregistered and its report says why; a limit too small
# for the rings themselves makes io_uring unusable: one clear line, exit 1
# when it was asked for, and auto falls back to the next engine.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_diskbench
need_cmd setpriv python3
id nobody >/dev/null 2>&1 || skip "no user nobody"
"$DISKBENCH" list engines | grep -q '^io_uring *yes' || skip "io_uring does not work here"
make_tmpdir /var/tmp
chmod 755 "$TMP_DIR"
D=$TMP_DIR/dir
mkdir "$D" && chown nobody "$D"
# a copy nobody can run (a build tree under /root is closed to nobody)
cp "$DISKBENCH" "$TMP_DIR/diskbench" && chmod 755 "$TMP_DIR/diskbench" || fail "copying the binary"
DISKBENCH=$TMP_DIR/diskbench
setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$DISKBENCH" ||
	skip "nobody cannot run $DISKBENCH"

# as_nobody KIB CMD...: CMD as nobody with RLIMIT_MEMLOCK at KIB KiB
as_nobody()
{
	local kib=$1
	shift
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		bash -c 'ulimit -l "$0" && exec "$@"' "$kib" "$@"
}

# 64 KiB: the rings fit, and buffers up to the limit
as_nobody 64 "$DISKBENCH" list engines >"$D/list" || fail "list engines: exit $?"
grep -A1 '^io_uring *yes' "$D/list" | grep -q "note: fixed buffers only within RLIMIT_MEMLOCK, 64 KiB" ||
	fail "list engines under 64 KiB: no note: $(cat "$D/list")"
# qd 32 x 64k = 2 MiB of buffers: refused, so unregistered, and said
as_nobody 64 "$DISKBENCH" --engine io_uring --test rand-read --bs 64k --qd 32 --size 16m \
	--runtime 200ms --ramp 0 --json "$D/big.json" "$D" >"$D/big.txt" 2>&1 ||
	fail "qd 32 x 64k under 64 KiB: exit $?: $(cat "$D/big.txt")"
want="fixed buffers off: registering them failed (Cannot allocate memory): RLIMIT_MEMLOCK is 64 KiB (ulimit -l)"
# the text report wraps the note: its two halves
grep -qF "io_uring: fixed buffers off: registering them failed" "$D/big.txt" &&
	grep -qF "RLIMIT_MEMLOCK is 64 KiB (ulimit -l)" "$D/big.txt" ||
	fail "qd 32 x 64k: the report does not say '$want': $(cat "$D/big.txt")"
[ "$(json "$D/big.json" 'd["tests"][0]["engine_note"]')" = "$want" ] ||
	fail "qd 32 x 64k: JSON engine_note: $(json "$D/big.json" 'd["tests"][0].get("engine_note")')"
[ "$(json "$D/big.json" 'd["tests"][0]["ops"] > 0 and d["tests"][0]["errors"] == 0')" = True ] ||
	fail "qd 32 x 64k: no clean I/O unregistered"
# qd 1 x 4k fits: registered, no note
as_nobody 64 "$DISKBENCH" --engine io_uring --test rand-read --bs 4k --qd 1 --size 16m \
	--runtime 200ms --ramp 0 --quiet --json "$D/small.json" "$D" 2>"$D/small.err" ||
	fail "qd 1 x 4k under 64 KiB: exit $?: $(cat "$D/small.err")"
[ "$(json "$D/small.json" '"engine_note" in d["tests"][0]')" = False ] ||
	fail "qd 1 x 4k: a note where the buffers fit: $(json "$D/small.json" 'd["tests"][0]["engine_note"]')"

# 0 KiB: not even the rings
as_nobody 0 "$DISKBENCH" list engines >"$D/list0" || fail "list engines under 0 KiB: exit $?"
grep -q '^io_uring *no .*RLIMIT_MEMLOCK is 0 KiB: raise ulimit -l' "$D/list0" ||
	fail "list engines under 0 KiB: $(cat "$D/list0")"
as_nobody 0 "$DISKBENCH" --engine io_uring --test rand-read --size 16m --runtime 200ms \
	--ramp 0 --quiet "$D" >"$D/out0" 2>"$D/err0"
st=$?
# an engine that exists but does not work here: exit 1, as for any engine
# the machine lacks (not a usage error: the same command works elsewhere)
[ "$st" -eq 1 ] || fail "--engine io_uring under 0 KiB: exit $st, not 1"
[ "$(wc -l <"$D/err0")" -eq 1 ] && grep -q "RLIMIT_MEMLOCK is 0 KiB" "$D/err0" ||
	fail "--engine io_uring under 0 KiB: not one clear line: $(cat "$D/err0")"
as_nobody 0 "$DISKBENCH" --test rand-read --size 16m --runtime 200ms --ramp 0 --quiet \
	--json "$D/auto.json" "$D" 2>"$D/auto.err" || fail "auto under 0 KiB: exit $?: $(cat "$D/auto.err")"
[ "$(json "$D/auto.json" 'd["tests"][0]["engine"]')" != io_uring ] ||
	fail "auto under 0 KiB picked io_uring"
exit 0
