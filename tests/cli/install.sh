#!/bin/bash
# install.sh - make install into a DESTDIR, checked file by file: the
# programs, the man page, the profiles in $(pkgdatadir)/profiles, the
# manual; then the staged diskbench, run from outside any tree, reads its
# profiles there (and says so, exit 2, when they are missing or unreadable);
# make uninstall takes every file away again.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd make cmp
build=$(cd "$(dirname "$DISKBENCH")" && pwd)
srcdir=$(cd "$srcdir" && pwd)
[ -f "$build/Makefile" ] || skip "no Makefile beside $DISKBENCH"
make_tmpdir /tmp
root=$TMP_DIR/root
# a make of our own, not the jobserver of the make check around us
mk() { env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL make -s -C "$build" "$@"; }
printf 'print-%%:\n\t@echo $($*)\n' >"$TMP_DIR/print.mk"
var() { mk -f Makefile -f "$TMP_DIR/print.mk" "print-$1"; }
bindir=$(var bindir) mandir=$(var mandir) profilesdir=$(var profilesdir)
docdir=$(var docdir) manualdir=$(var manualdir)
[ -n "$bindir" ] && [ -n "$profilesdir" ] || fail "cannot read the install directories from $build/Makefile"

mk install DESTDIR="$root" >"$TMP_DIR/install.log" 2>&1 || { cat "$TMP_DIR/install.log"; fail "make install DESTDIR failed"; }

# ---- what must be there, file by file, and nothing else
expect=$TMP_DIR/expect
{
	echo "$bindir/diskbench"
	[ -x "$build/diskbench-mpi" ] && echo "$bindir/diskbench-mpi"
	echo "$mandir/man1/diskbench.1"
	for f in "$srcdir"/profiles/*.ini; do echo "$profilesdir/${f##*/}"; done
	echo "$docdir/README.md"
	for f in "$srcdir"/doc/*.md "$srcdir"/doc/report.png; do echo "$manualdir/${f##*/}"; done
} | sort >"$expect"
(cd "$root" && find . -type f -o -type l) | sed 's/^\.//' | sort >"$TMP_DIR/got"
diff -u "$expect" "$TMP_DIR/got" >"$TMP_DIR/diff" || { cat "$TMP_DIR/diff"; fail "make install put other files than these (- missing, + extra)"; }
echo "installed: $(wc -l <"$expect") files, as expected"

# each file is what it should be
[ -x "$root$bindir/diskbench" ] || fail "$bindir/diskbench is not executable"
cmp -s "$build/diskbench" "$root$bindir/diskbench" || fail "installed diskbench differs from the built one"
if [ -x "$build/diskbench-mpi" ]; then
	cmp -s "$build/diskbench-mpi" "$root$bindir/diskbench-mpi" || fail "installed diskbench-mpi differs"
fi
cmp -s "$srcdir/doc/diskbench.1" "$root$mandir/man1/diskbench.1" || fail "installed man page differs"
for f in "$srcdir"/profiles/*.ini; do
	cmp -s "$f" "$root$profilesdir/${f##*/}" || fail "installed profile ${f##*/} differs"
done
cmp -s "$srcdir/README.md" "$root$docdir/README.md" || fail "installed README.md differs"
for f in "$srcdir"/doc/*.md; do
	cmp -s "$f" "$root$manualdir/${f##*/}" || fail "installed ${f##*/} differs"
done

# ---- the staged program, from a directory outside every tree
db=$root$bindir/diskbench
dir=$root$profilesdir
mkdir "$TMP_DIR/elsewhere" && cd "$TMP_DIR/elsewhere" || fail "cd"
out=$("$db" list profiles) || fail "installed list profiles failed"
for f in "$srcdir"/profiles/*.ini; do
	n=${f##*/}; n=${n%.ini}
	grep -q "^$n " <<<"$out" || fail "installed list profiles lacks $n: $out"
done
# it reads the directory, not its built-in copies: a profile added there
# is listed and runs
printf '[profile]\ndescription = added after install\n[r]\ntest = seq-read\nbs = 64k\n' >"$dir/site.ini"
"$db" list profiles | grep -q '^site  *added after install$' || fail "a profile added to $profilesdir is not listed"
"$db" --profile site --engine null --runtime 100ms --ramp 0 --size 1m --json "$TMP_DIR/site.json" --quiet . ||
	fail "the installed --profile site failed"
[ "$(json "$TMP_DIR/site.json" 'd["tests"][0]["bs"]')" = 65536 ] || fail "--profile site did not run the installed file"
"$db" --engine null --runtime 100ms --ramp 0 --size 1m --json "$TMP_DIR/quick.json" --quiet . ||
	fail "the installed default run failed"
[ "$(json "$TMP_DIR/quick.json" 'len(d["tests"])')" -ge 1 ] || fail "the installed default run ran no test"
rm -f "$dir/site.ini"
[ -z "$(ls -A .)" ] || fail "the run left files behind: $(ls -A .)"

# bad input: an unreadable profile, a missing directory: one line naming the path, exit 2
mkdir "$dir/broken.ini"
err=$("$db" --profile broken --engine null . 2>&1); rc=$?
[ $rc -eq 2 ] || fail "an unreadable installed profile: exit $rc, want 2 ($err)"
[ "$(wc -l <<<"$err")" -eq 1 ] && grep -qF "$dir/broken.ini" <<<"$err" || fail "unreadable profile: not one line naming it: $err"
err=$("$db" list profiles 2>&1 >/dev/null); rc=$?
[ $rc -eq 2 ] && grep -qF "$dir/broken.ini" <<<"$err" || fail "list profiles with an unreadable profile: exit $rc: $err"
rmdir "$dir/broken.ini"
mv "$dir" "$dir.moved"
for args in "--engine null ." "list profiles" "--profile hdparm --engine null ."; do
	# shellcheck disable=SC2086 # the words of args
	err=$("$db" $args 2>&1 >/dev/null); rc=$?
	[ $rc -eq 2 ] || fail "diskbench $args without its profile directory: exit $rc, want 2 ($err)"
	[ "$(wc -l <<<"$err")" -eq 1 ] && grep -qF "'$dir' is missing" <<<"$err" ||
		fail "diskbench $args without its profile directory: not one line naming it: $err"
done
mv "$dir.moved" "$dir"
# the build tree's program still uses its built-in profiles
"$DISKBENCH" list profiles | grep -q '^quick ' || fail "the build tree's list profiles lost quick"

mk uninstall DESTDIR="$root" >"$TMP_DIR/uninstall.log" 2>&1 || { cat "$TMP_DIR/uninstall.log"; fail "make uninstall failed"; }
left=$(cd "$root" && find . -type f -o -type l)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "PASS: make install DESTDIR, file by file; the installed program reads its profiles"
