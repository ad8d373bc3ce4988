#!/bin/bash
# deb.sh - the Debian package: dpkg-buildpackage -us -uc -b builds diskbench
# and diskbench-mpi (only the latter depends on Open MPI), lintian finds no
# error, and the packages installed on this machine work: --version, list
# profiles (from /usr/share/diskbench/profiles), man -w, a null-engine run,
# the bash completion. Then they are purged and nothing is left: what
# dpkg -L listed was the whole of it. A diskbench package installed before
# the test is never touched (skip), and a trap purges ours on any exit.
set -u
. "$srcdir/tests/cli/lib.sh"
need_root
need_cmd dpkg-buildpackage dh lintian apt-get dpkg-deb man tar flock
srcdir=$(cd "$srcdir" && pwd)
[ -f "$srcdir/debian/control" ] || skip "no debian/ in $srcdir"
build=$(cd "$(dirname "$DISKBENCH")" && pwd)
# The package is built without sanitizers whatever this build is: once a
# run of the suite is enough.
once_per_suite "the package is built and installed once"
make_tmpdir /tmp

# ---- build, from a copy of the source tree (its builds left out)
mkdir "$TMP_DIR/pkg" "$TMP_DIR/pkg/src"
tar -C "$srcdir" --exclude='./build*' --exclude=./.git --exclude=./autom4te.cache -cf - . |
	tar -C "$TMP_DIR/pkg/src" -xf - || fail "copying the source tree"
chmod -R u+w "$TMP_DIR/pkg/src"
(cd "$TMP_DIR/pkg/src" && DEB_BUILD_OPTIONS="nocheck noautodbgsym parallel=2" \
	dpkg-buildpackage -us -uc -b) >"$TMP_DIR/build.log" 2>&1 ||
	{ tail -40 "$TMP_DIR/build.log"; fail "dpkg-buildpackage -us -uc -b failed"; }
version=$(dpkg-parsechangelog -l "$srcdir/debian/changelog" -S Version)
arch=$(dpkg --print-architecture)
deb=$TMP_DIR/pkg/diskbench_${version}_$arch.deb
debmpi=$TMP_DIR/pkg/diskbench-mpi_${version}_$arch.deb
[ -f "$deb" ] && [ -f "$debmpi" ] || fail "no $deb and $debmpi: $(ls "$TMP_DIR/pkg")"
dep=$(dpkg-deb -f "$deb" Depends)
depmpi=$(dpkg-deb -f "$debmpi" Depends)
grep -qi mpi <<<"$dep" && fail "diskbench depends on MPI: $dep"
grep -q libopenmpi <<<"$depmpi" || fail "diskbench-mpi does not depend on Open MPI: $depmpi"
grep -q "diskbench (= $version)" <<<"$depmpi" || fail "diskbench-mpi does not depend on its diskbench: $depmpi"
echo "built: ${deb##*/} (Depends: $dep), ${debmpi##*/}"

# lintian: no error (any warning is listed here)
lintian --fail-on error --info "$TMP_DIR/pkg/diskbench_${version}_$arch.changes" >"$TMP_DIR/lintian.log" 2>&1
rc=$?
grep -E '^[EW]:' "$TMP_DIR/lintian.log"
[ $rc -eq 0 ] || fail "lintian found errors (above)"
echo "lintian: $(grep -c '^E:' "$TMP_DIR/lintian.log") errors, $(grep -c '^W:' "$TMP_DIR/lintian.log") warnings"

# ---- install on this machine, one test at a time, never over a user's own
contents() { dpkg-deb --fsys-tarfile "$1" | tar -tf - | sed 's|^\./|/|; s|/$||; /^\/*$/d'; }
{ contents "$deb"; contents "$debmpi"; } | sort -u >"$TMP_DIR/contents"
exec 9>/run/lock/diskbench-deb-test.lock
flock -w 1200 9 || fail "another deb.sh holds /run/lock/diskbench-deb-test.lock"
for p in diskbench diskbench-mpi; do
	case $(dpkg-query -W -f '${Status}' "$p" 2>/dev/null) in
	''|*not-installed) ;;
	*) skip "a $p package is on this machine already: not touching it" ;;
	esac
done
# what existed before (directories such as /usr/bin, owned by others)
while read -r f; do [ -e "$f" ] || [ -L "$f" ] && echo "$f"; done <"$TMP_DIR/contents" >"$TMP_DIR/before"
apt_q() { DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=600 "$@"; }
at_exit "dpkg-query -W diskbench diskbench-mpi >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get -y -q -o DPkg::Lock::Timeout=600 purge diskbench diskbench-mpi >/dev/null 2>&1; rm -f /usr/share/diskbench/profiles/deb-test.ini"
apt_q install --no-install-recommends "$deb" "$debmpi" >"$TMP_DIR/install.log" 2>&1 ||
	{ cat "$TMP_DIR/install.log"; fail "installing the packages failed"; }

# dpkg -L is what the packages hold, no more, no less
dpkg -L diskbench diskbench-mpi | sed '/^\/\.$/d; /^$/d' | sort -u >"$TMP_DIR/listed"
diff -u "$TMP_DIR/contents" "$TMP_DIR/listed" || fail "dpkg -L differs from the packages' contents"

# the installed programs
v=$(/usr/bin/diskbench --version) || fail "installed diskbench --version failed"
grep -qF "$version" <<<"$v" || fail "installed --version says '$v', the package is $version"
out=$(/usr/bin/diskbench list profiles) || fail "installed list profiles failed"
for f in "$srcdir"/profiles/*.ini; do
	n=${f##*/}; n=${n%.ini}
	grep -q "^$n " <<<"$out" || fail "installed list profiles lacks $n"
done
printf '[profile]\ndescription = read from the installed directory\n[r]\ntest = seq-read\n' \
	>/usr/share/diskbench/profiles/deb-test.ini
/usr/bin/diskbench list profiles | grep -q '^deb-test ' || fail "list profiles does not read /usr/share/diskbench/profiles"
rm -f /usr/share/diskbench/profiles/deb-test.ini
m=$(man -w diskbench) || fail "man -w diskbench failed"
[ "$m" = /usr/share/man/man1/diskbench.1.gz ] || fail "man -w diskbench: $m"
man -w diskbench-mpi >/dev/null || fail "man -w diskbench-mpi failed"
mkdir "$TMP_DIR/run" && cd "$TMP_DIR/run" || fail "cd"
/usr/bin/diskbench --engine null --runtime 200ms --ramp 0 --size 1m --json "$TMP_DIR/null.json" --quiet . ||
	fail "installed null-engine run failed"
[ "$(json "$TMP_DIR/null.json" 'len(d["tests"])')" -ge 1 ] || fail "the null-engine run reported no test"
[ -z "$(ls -A .)" ] || fail "the installed run left files: $(ls -A .)"
/usr/bin/diskbench-mpi --help >/dev/null || fail "installed diskbench-mpi --help failed"
bcf=/usr/share/bash-completion/completions/diskbench
if [ -f /usr/share/bash-completion/bash_completion ]; then
	got=$(bash -c '. /usr/share/bash-completion/bash_completion; . "$1"
		COMP_WORDS=(/usr/bin/diskbench --profile qu); COMP_CWORD=2
		COMP_LINE="${COMP_WORDS[*]}"; COMP_POINT=${#COMP_LINE}; _diskbench; echo "${COMPREPLY[*]}"' _ "$bcf" 2>&1)
	[ "$got" = quick ] || fail "installed bash completion of --profile qu: '$got'"
fi
[ -f /usr/share/zsh/vendor-completions/_diskbench ] || fail "no zsh completion in vendor-completions"
cd "$TMP_DIR" || fail "cd"
echo "installed: $(wc -l <"$TMP_DIR/listed") paths; --version, list profiles, man -w, a null run work"

# ---- purge: nothing of it is left
apt_q purge diskbench diskbench-mpi >"$TMP_DIR/purge.log" 2>&1 || { cat "$TMP_DIR/purge.log"; fail "purge failed"; }
for p in diskbench diskbench-mpi; do
	s=$(dpkg-query -W -f '${Status}' "$p" 2>/dev/null)
	case $s in ''|*not-installed*) ;; *) fail "$p still known to dpkg after purge: $s" ;; esac
done
left=$(while read -r f; do
	grep -qxF "$f" "$TMP_DIR/before" && continue
	[ -e "$f" ] || [ -L "$f" ] && echo "$f"
done <"$TMP_DIR/listed")
[ -z "$left" ] || fail "left after purge: $left"
for d in /usr/share/diskbench /usr/share/doc/diskbench /usr/share/doc/diskbench-mpi; do
	[ -e "$d" ] && fail "left after purge: $d"
done
echo "PASS: built, lintian-clean, installed, run and purged without a trace"
