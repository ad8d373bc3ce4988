#!/bin/bash
# optdoc.sh - the man page's OPTIONS and doc/options.md's tables are the
# option table's (written by make from "diskbench list options --man" and
# "--markdown"), and so are --help and the listing: every option is in
# each, under its own name, and the man page formats without a warning.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
make_tmpdir /tmp
MAN=$srcdir/doc/diskbench.1 MD=$srcdir/doc/options.md

out=$(sh "$srcdir/doc/options.sh" --check "$DISKBENCH" "$MAN" "$MD" 2>&1) ||
	fail "the option docs are not the table's: $out"
# a doc that is not the table's is caught: one option's text changed
sed 's/^\(| `--seed N` | \)/\1changed: /' "$MD" >"$TMP_DIR/options.md"
sh "$srcdir/doc/options.sh" --check "$DISKBENCH" "$TMP_DIR/options.md" 2>/dev/null &&
	fail "--check took an edited options.md"
cp "$TMP_DIR/options.md" "$TMP_DIR/fixed.md"
sh "$srcdir/doc/options.sh" "$DISKBENCH" "$TMP_DIR/fixed.md" >/dev/null || fail "options.sh could not write"
cmp -s "$TMP_DIR/fixed.md" "$MD" || fail "options.sh did not write the table back: $(diff "$MD" "$TMP_DIR/fixed.md")"

# every option of the listing, in each text, for the subcommands it names
"$DISKBENCH" --help >"$TMP_DIR/help.txt" || fail "--help"
n=0
while IFS= read -r line; do
	name=${line%%$'\t'*} cmds=${line##*$'\t'} n=$((n + 1))
	esc=${name//-/\\\\-}
	grep -q "^\\(.*, \\)\\?\\\\fB$esc\\\\fR" "$MAN" || fail "$name: not in the man page's OPTIONS"
	grep -q "\`$name[ \`\[]" "$MD" || fail "$name: not in doc/options.md"
	case ",$cmds," in
	*,run,*) grep -q -- "^  $name\\b" "$TMP_DIR/help.txt" || fail "$name: not in --help" ;;
	esac
done < <("$DISKBENCH" list options)
if command -v man >/dev/null && man --help 2>&1 | grep -q -- --warnings; then
	warn=$(MANWIDTH=80 man --warnings -l "$MAN" 2>&1 >/dev/null)
	[ -z "$warn" ] || fail "the man page: $warn"
fi
echo "optdoc: $n options in the man page, doc/options.md and --help"
