#!/bin/bash
# badtarget.sh - targets diskbench cannot use get one clear line and exit 2
# (or 3 when refused for safety), and nothing is written: a socket, a
# directory without write permission, a read-only file system.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /tmp
cd "$TMP_DIR" || fail "cd"

# expect CODE PATTERN ARGS...
expect()
{
	local code=$1 pat=$2 out rc
	shift 2
	out=$("$DISKBENCH" "$@" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq "$code" ] || fail "'$*': exit $rc, want $code ($out)"
	printf '%s' "$out" | grep -q -- "$pat" || fail "'$*': '$out' does not say '$pat'"
	[ "$(printf '%s\n' "$out" | grep -c '^diskbench:')" -eq 1 ] ||
		fail "'$*': want one error line, got: $out"
}

python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' sock ||
	fail "cannot make a socket"
expect 2 "socket: not a disk or a file system" --test rand-read sock
rm -f sock

mkdir locked && chmod 0555 locked
if [ "$(id -u)" -ne 0 ]; then
	expect 2 "cannot create scratch files here: Permission denied" locked
elif command -v setpriv >/dev/null && setpriv --reuid=65534 --regid=65534 --clear-groups true; then
	chmod 0755 "$TMP_DIR"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$DISKBENCH" "$TMP_DIR/locked" 2>&1)
	rc=$?
	[ "$rc" -eq 2 ] || fail "unwritable directory as nobody: exit $rc ($out)"
	echo "$out" | grep -q "Permission denied" || fail "unwritable directory: '$out'"
else
	echo "note: no setpriv: the unwritable-directory case needs a non-root user"
fi
[ -z "$(ls -A locked)" ] || fail "wrote into the unwritable directory"

if [ "$(id -u)" -eq 0 ]; then
	mkdir ro
	if mount -t tmpfs -o ro,size=8m diskbench-test "$TMP_DIR/ro"; then
		at_exit "umount '$TMP_DIR/ro'"
		expect 2 "read-only file system" "$TMP_DIR/ro"
	else
		echo "note: cannot mount a read-only tmpfs here: case skipped"
	fi
fi
echo "ok"
