#!/bin/bash
# news.sh - NEWS and debian/changelog tell the same story: the same versions,
# newest first, each with the same items; the newest is the one configure
# builds; --version names it, the commit when built from git, the engines
# compiled in and the optional parts.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3

python3 - "$srcdir/NEWS" "$srcdir/debian/changelog" <<'PY' || fail "NEWS and debian/changelog differ"
import re, sys
def entries(text, head):
    out, cur = [], None
    for line in text.splitlines():
        m = re.match(head, line)
        if m:
            cur = [m.group(1), []]
            out.append(cur)
        elif cur and line.startswith("  * "):
            cur[1].append(line[4:].strip())
        elif cur and line.startswith("    ") and cur[1]:
            cur[1][-1] += " " + line.strip()
    return out
news = entries(open(sys.argv[1]).read(), r"^diskbench (\S+)$")
deb = entries(open(sys.argv[2]).read(), r"^diskbench \(([^)]+)\) ")
if not news:
    sys.exit("NEWS: no 'diskbench VERSION' heading")
bad = False
for (nv, ni), (dv, di) in zip(news, deb):
    if nv != dv or ni != di:
        print("version %s: NEWS %r\n  changelog %s: %r" % (nv, ni, dv, di))
        bad = True
if len(news) != len(deb):
    print("NEWS has %d versions, debian/changelog %d" % (len(news), len(deb)))
    bad = True
sys.exit(1 if bad else 0)
PY
newest=$(sed -n 's/^diskbench \([0-9][^ ]*\)$/\1/p' "$srcdir/NEWS" | head -n 1)
v=$("$DISKBENCH" --version) || fail "--version: exit $?"
first=$(printf '%s\n' "$v" | head -n 1)
case $first in
"diskbench $newest" | "diskbench $newest (git "*")") ;;
*) fail "--version says '$first'; NEWS's newest is $newest" ;;
esac
# a clone has .git; a tarball (distcheck's, inside a clone) has none
if [ -e "$srcdir/.git" ] && c=$(git -C "$srcdir" describe --always 2>/dev/null); then
	printf '%s' "$first" | grep -q "(git $c" || fail "--version: '$first' does not name commit $c"
fi
# the engines line is what `list engines` knows, built or not
eng=$(printf '%s\n' "$v" | sed -n 's/^engines: //p')
[ -n "$eng" ] || fail "--version names no engines: $v"
for e in sync direct null; do
	printf '%s' "$eng" | grep -qw "$e" || fail "--version: engine $e missing: $eng"
done
printf '%s\n' "$v" | grep -q "^optional: .*MPI binary (diskbench-mpi) \(yes\|no\)" ||
	fail "--version names no optional parts: $v"
echo "ok: NEWS and the changelog agree ($newest); $first"
