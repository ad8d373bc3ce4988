#!/bin/bash
# install.sh - make install into a DESTDIR, checked file by file: the
# programs, the man page, the profiles in $(pkgdatadir)/profiles, the
# manual; then the staged diskbench, run from outside any tree, reads its
# profiles there (and says so, exit 2, when they are missing or unreadable),
# and so does its bash completion; the completions are where bash-completion
# (its pkg-config file, under our prefix) and zsh look;
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
docdir=$(var docdir) manualdir=$(var manualdir) prefix=$(var prefix)
bashdir=$(var bashcompletiondir) zshdir=$(var zshcompletiondir)
[ -n "$bindir" ] && [ -n "$profilesdir" ] || fail "cannot read the install directories from $build/Makefile"

mk install DESTDIR="$root" >"$TMP_DIR/install.log" 2>&1 || { cat "$TMP_DIR/install.log"; fail "make install DESTDIR failed"; }

# ---- what must be there, file by file, and nothing else
expect=$TMP_DIR/expect
{
	echo "$bindir/diskbench"
	[ -x "$build/diskbench-mpi" ] && echo "$bindir/diskbench-mpi"
	echo "$mandir/man1/diskbench.1"
	[ -x "$build/diskbench-mpi" ] && echo "$mandir/man1/diskbench-mpi.1"
	for f in "$srcdir"/profiles/*.ini; do echo "$profilesdir/${f##*/}"; done
	echo "$docdir/README.md"
	for f in "$srcdir"/doc/*.md "$srcdir"/doc/report.png; do echo "$manualdir/${f##*/}"; done
	echo "$bashdir/diskbench"
	[ -x "$build/diskbench-mpi" ] && echo "$bashdir/diskbench-mpi"
	echo "$zshdir/_diskbench"
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
if [ -x "$build/diskbench-mpi" ]; then
	cmp -s "$srcdir/doc/diskbench-mpi.1" "$root$mandir/man1/diskbench-mpi.1" || fail "installed diskbench-mpi.1 differs"
fi
for f in "$srcdir"/profiles/*.ini; do
	cmp -s "$f" "$root$profilesdir/${f##*/}" || fail "installed profile ${f##*/} differs"
done
cmp -s "$srcdir/README.md" "$root$docdir/README.md" || fail "installed README.md differs"
for f in "$srcdir"/doc/*.md; do
	cmp -s "$f" "$root$manualdir/${f##*/}" || fail "installed ${f##*/} differs"
done
cmp -s "$srcdir/completions/diskbench" "$root$bashdir/diskbench" || fail "installed bash completion differs"
cmp -s "$srcdir/completions/_diskbench" "$root$zshdir/_diskbench" || fail "installed zsh completion differs"
if [ -x "$build/diskbench-mpi" ]; then
	[ "$(readlink "$root$bashdir/diskbench-mpi")" = diskbench ] || fail "$bashdir/diskbench-mpi is not a link to diskbench"
fi
# the directories bash-completion and zsh look in: bash-completion's own
# (pkg-config), moved under our prefix; zsh's site-functions
if ! "$build/config.status" --config | grep -q bashcompletiondir; then
	if pc=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null) && [ -n "$pc" ]; then
		pcp=$(pkg-config --variable=prefix bash-completion)
		[ "$bashdir" = "$prefix${pc#"$pcp"}" ] || fail "bash completion in $bashdir, not bash-completion's $pc under $prefix"
	else
		[ "$bashdir" = "$prefix/share/bash-completion/completions" ] || fail "bash completion in $bashdir"
	fi
fi
"$build/config.status" --config | grep -q zshcompletiondir ||
	[ "$zshdir" = "$prefix/share/zsh/site-functions" ] || fail "zsh completion in $zshdir, not site-functions"

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
bc=/usr/share/bash-completion/bash_completion
if [ -f "$bc" ]; then
	# the installed completion, driving the installed program
	got=$(bash -c '. "$1"; . "$2"; COMP_WORDS=("$3" --profile s); COMP_CWORD=2
		COMP_LINE="$3 --profile s"; COMP_POINT=${#COMP_LINE}; _diskbench; echo "${COMPREPLY[*]}"' \
		_ "$bc" "$root$bashdir/diskbench" "$db" 2>&1)
	[ "$got" = site ] || fail "the installed completion of --profile s: '$got', want site"
fi
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
