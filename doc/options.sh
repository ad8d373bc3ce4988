#!/bin/sh
# options.sh - write the option table (diskbench list options --man|--markdown)
# between the markers of each FILE: the man page's OPTIONS, doc/options.md's
# tables. A file is rewritten only when its text changes. With --check,
# nothing is written: the exit status is 1 and the files are named when one
# is not what the table says (the test that they agree).
#   options.sh [--check] DISKBENCH FILE...
# Markers: a line containing "BEGIN OPTIONS" and one containing "END OPTIONS"
# (a roff comment .\" in the man page, an HTML comment in markdown).
set -u
check=false
[ "${1:-}" = --check ] && { check=true; shift; }
prog=$1
shift
status=0
for f in "$@"; do
	case $f in
	*.1) fmt=--man ;;
	*) fmt=--markdown ;;
	esac
	grep -q 'BEGIN OPTIONS' "$f" && grep -q 'END OPTIONS' "$f" || {
		echo "options.sh: $f: no BEGIN OPTIONS / END OPTIONS markers" >&2
		exit 2
	}
	body=$("$prog" list options "$fmt") || { echo "options.sh: $prog list options $fmt failed" >&2; exit 2; }
	new=$(BODY=$body awk '
		/END OPTIONS/ { inside = 0 }
		!inside { print }
		/BEGIN OPTIONS/ { print ENVIRON["BODY"]; inside = 1 }' "$f") || exit 2
	if [ "$new" = "$(cat "$f")" ]; then
		continue
	fi
	if $check; then
		echo "options.sh: $f: its options are not the option table's (run make to write them)" >&2
		status=1
		continue
	fi
	printf '%s\n' "$new" >"$f.tmp" && mv "$f.tmp" "$f" || exit 2
	echo "options.sh: wrote the option table into $f"
done
exit $status
