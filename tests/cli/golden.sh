#!/bin/bash
# golden.sh - the report layouts, byte for byte: for each NAME with files in
# tests/data/golden, diskbench report on tests/data/results/NAME.json must
# print NAME.txt, and write NAME.csv (--csv) and NAME.bonnie.csv
# (--bonnie-csv). Everything in them comes from the saved file, nothing from
# the machine that renders it, so they are stable.
#
# After a change of layout on purpose, refresh them from the build directory
# and review the diff before committing it:
#   UPDATE_GOLDEN=1 make check TESTS=tests/cli/golden.sh
# A new golden result: touch tests/data/golden/NAME.txt, refresh, and add the
# three files to EXTRA_DIST in Makefile.am.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd diff
make_tmpdir /dev/shm
T=$TMP_DIR
DATA=$srcdir/tests/data/results
GOLDEN=$srcdir/tests/data/golden
LAYOUTS="txt csv bonnie.csv"

# render NAME: the three layouts of NAME.json into $T/NAME.*
render()
{
	local f=$DATA/$1.json out
	[ -f "$f" ] || fail "$1: no saved result $f for the golden files"
	"$DISKBENCH" report "$f" >"$T/$1.txt" 2>"$T/$1.err" ||
		fail "report $1: exit $?: $(cat "$T/$1.err")"
	out=$("$DISKBENCH" report --quiet --csv "$T/$1.csv" "$f" 2>&1) ||
		fail "report --csv $1: exit $?: $out"
	[ -z "$out" ] || fail "report --quiet --csv $1 printed: $out"
	out=$("$DISKBENCH" report --quiet --bonnie-csv "$T/$1.bonnie.csv" "$f" 2>&1) ||
		fail "report --bonnie-csv $1: exit $?: $out"
	[ -z "$out" ] || fail "report --quiet --bonnie-csv $1 printed: $out"
}

names=$(cd "$GOLDEN" && for g in *.txt; do echo "${g%.txt}"; done)
[ "$(echo "$names" | wc -w)" -ge 3 ] || fail "only '$names' in $GOLDEN"

if [ -n "${UPDATE_GOLDEN:-}" ]; then
	[ -w "$GOLDEN" ] || fail "UPDATE_GOLDEN: cannot write $GOLDEN"
	for b in $names; do
		render "$b"
		for l in $LAYOUTS; do
			cmp -s "$T/$b.$l" "$GOLDEN/$b.$l" && continue
			cp "$T/$b.$l" "$GOLDEN/$b.$l" || fail "cannot write $GOLDEN/$b.$l"
			echo "updated $GOLDEN/$b.$l"
		done
	done
	echo "ok: golden files refreshed; review them with git diff"
	exit 0
fi

bad=0
n=0
for b in $names; do
	render "$b"
	for l in $LAYOUTS; do
		[ -f "$GOLDEN/$b.$l" ] || fail "$b: no $GOLDEN/$b.$l (UPDATE_GOLDEN=1 makes it)"
		if ! diff -u --label "golden/$b.$l" --label "now/$b.$l" \
			"$GOLDEN/$b.$l" "$T/$b.$l"; then
			echo "FAIL: $b.$l: the layout changed (diff above; if on purpose: UPDATE_GOLDEN=1)"
			bad=$((bad + 1))
		fi
		n=$((n + 1))
	done
done
[ "$bad" -eq 0 ] || fail "$bad of $n golden files differ"
echo "ok: $n golden files"
