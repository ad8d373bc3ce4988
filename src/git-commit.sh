#!/bin/sh
# git-commit.sh SRCDIR OUT - write OUT, a header defining DISKBENCH_GIT_COMMIT
# as the commit SRCDIR is at (git describe --always --dirty), or "" outside
# git (a tarball). OUT is rewritten only when the commit changed, so that a
# rebuild compiles version.c again only then.
src=$1 out=$2
c=$(git -C "$src" describe --always --dirty 2>/dev/null) || c=
[ -d "$src/.git" ] || [ -f "$src/.git" ] || c=
line="#define DISKBENCH_GIT_COMMIT \"$c\""
[ -f "$out" ] && [ "$(cat "$out")" = "$line" ] && exit 0
printf '%s\n' "$line" >"$out.tmp" && mv -f "$out.tmp" "$out"
