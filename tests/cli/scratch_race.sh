#!/bin/bash
# scratch_race.sh - a scratch directory that cannot be swapped: another user
# who can write the target directory renames diskbench.XXXXXX mid-run and
# plants a symlink to a victim directory in its place; later tests still use
# the real scratch directory, clean-up removes nothing through the link, and
# the run says what happened. Also: a killed run's scratch directory is named
# by the next run in that directory.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd setpriv sha256sum python3
need_diskbench
setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null ||
	skip "cannot run commands as nobody (setpriv)"
make_tmpdir /var/tmp
T=$TMP_DIR
chmod 755 "$T"
as_nobody() { setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# The target directory belongs to nobody, who may rename what is in it.
D=$T/target
mkdir "$D" && chown 65534:65534 "$D" || fail "mkdir $D"
# The victim: root's directory with a file named like ours.
V=$T/victim
mkdir "$V" && head -c 1048576 /dev/urandom >"$V/data" || fail "victim"
echo keep >"$V/char-0"
before=$(cat "$V/data" "$V/char-0" | sha256sum)

# Five tests of 1 s (rand-read runs at qd 1 and 32): the swap happens
# during the first; the later ones open the data file and create per-char
# files after it.
"$DISKBENCH" --test seq-read,rand-read,char-write,rewrite --runtime 1s --ramp 0 --size 8m \
	--json "$T/r.json" "$D" >"$T/out" 2>"$T/err" &
pid=$!
for _ in $(seq 200); do
	s=$(ls -d "$D"/diskbench.* 2>/dev/null | head -n 1)
	[ -n "$s" ] && [ -e "$s/data" ] && break
	sleep 0.02
done
[ -n "$s" ] || fail "the run never made its scratch directory"
sleep 0.3
as_nobody mv "$s" "$D/moved" || fail "nobody could not rename $s"
as_nobody ln -s "$V" "$s" || fail "nobody could not plant the link"
wait "$pid"
rc=$?
[ "$rc" -eq 0 ] || fail "run after the swap: exit $rc: $(cat "$T/err")"

[ "$(cat "$V/data" "$V/char-0" | sha256sum)" = "$before" ] || fail "the victim's files changed"
[ "$(ls "$V" | sort | tr '\n' ' ')" = "char-0 data " ] ||
	fail "something was made in the victim directory: $(ls "$V")"
[ -L "$s" ] || fail "the planted link is gone (removed through the name?)"
[ -d "$D/moved" ] || fail "the real scratch directory is gone from where it was moved"
[ -z "$(ls -A "$D/moved")" ] || fail "the moved scratch directory was not emptied: $(ls -A "$D/moved")"
grep -q "was moved or replaced during the run" "$T/err" ||
	fail "the run did not say its scratch directory was moved: $(cat "$T/err")"
[ "$(json "$T/r.json" 'len(d["tests"])')" = 5 ] ||
	fail "not all five tests were measured: $(json "$T/r.json" '[t["name"] for t in d["tests"]]')"
[ "$(json "$T/r.json" 'sum(t["errors"] for t in d["tests"])')" = 0 ] ||
	fail "tests had errors: $(json "$T/r.json" '[t["errors"] for t in d["tests"]]')"
rm -f "$s" && rmdir "$D/moved"

# A scratch directory left by a killed run is named, with the command to
# remove it; a running diskbench's is not.
"$DISKBENCH" --test rand-read --runtime 20s --ramp 0 --size 8m "$D" >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do
	s=$(ls -d "$D"/diskbench.* 2>/dev/null | head -n 1)
	[ -n "$s" ] && break
	sleep 0.02
done
[ -n "$s" ] || fail "the run never made its scratch directory"
"$DISKBENCH" --engine null --runtime 50ms --ramp 0 "$D" >/dev/null 2>"$T/err2" ||
	fail "a run beside a running one: exit $?"
grep -q "killed run" "$T/err2" && fail "a running diskbench's directory was called a leftover"
kill -9 "$pid"
wait "$pid" 2>/dev/null
[ -d "$s" ] || fail "kill -9 removed the scratch directory?"
"$DISKBENCH" --engine null --runtime 50ms --ramp 0 "$D" >/dev/null 2>"$T/err3" ||
	fail "a run after kill -9: exit $?"
grep -q "rm -rf -- '$s'" "$T/err3" ||
	fail "the leftover $s was not named with the command to remove it: $(cat "$T/err3")"
[ -d "$s" ] || fail "the leftover was removed without asking"
echo "ok"
