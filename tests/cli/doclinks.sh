#!/bin/bash
# doclinks.sh - the README and the manual in doc/: every relative link works
# (file and heading), the README is short and starts with the two set-up
# commands, every page is linked from it and from the man page's SEE ALSO.
set -u
. "$srcdir/tests/cli/lib.sh"
need_cmd python3
python3 "$srcdir/tests/cli/doclinks.py" "$srcdir" || fail "documentation links (above)"
# the checker itself: a broken link and a missing heading are caught
make_tmpdir /tmp
mkdir -p "$TMP_DIR/doc"
cp "$srcdir/README.md" "$TMP_DIR/"
cp "$srcdir"/doc/*.md "$srcdir/doc/diskbench.1" "$srcdir/doc/report.png" "$TMP_DIR/doc/"
echo 'See [nothing](gone.md) and [no heading](numbers.md#no-such-heading).' >>"$TMP_DIR/doc/engines.md"
out=$(python3 "$srcdir/tests/cli/doclinks.py" "$TMP_DIR") && fail "a broken link passed"
grep -q 'doc/engines.md: link to gone.md: no such file' <<<"$out" || fail "missing file not named: $out"
grep -q 'link to numbers.md#no-such-heading: no heading' <<<"$out" || fail "missing heading not named: $out"
echo "PASS: documentation links"
