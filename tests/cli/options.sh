#!/bin/bash
# options.sh - "diskbench list options" is the option table, one option a
# line (--name TAB ARG TAB subcommands), and each subcommand takes exactly
# the options the listing gives it: a run option tune does not take is
# refused by name, never dropped.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
make_tmpdir /tmp
cd "$TMP_DIR" || fail "cd"

"$DISKBENCH" list options >list.txt 2>list.err || fail "list options: exit $?: $(cat list.err)"
[ -s list.err ] && fail "list options wrote to stderr: $(cat list.err)"
n=$(wc -l <list.txt)
[ "$n" -ge 40 ] || fail "list options: only $n lines"
# the format the shell completions read: three fields, names once each
awk -F'\t' 'NF != 3 || $1 !~ /^--[a-z][a-z0-9-]*$/ || $3 !~ /^(run|tune|compare|report|info|list)(,(run|tune|compare|report|info|list))*$/ ||
	    $2 ~ /[\t ]/ { print "bad line " NR ": " $0; bad = 1 } END { exit bad }' list.txt ||
	fail "list options: malformed: $(awk -F'\t' 'NF != 3' list.txt | head -3)"
[ "$(cut -f1 list.txt | sort | uniq -d)" = "" ] || fail "an option listed twice: $(cut -f1 list.txt | sort | uniq -d)"
grep -q $'^--bs\tLIST\trun,tune$' list.txt || fail "--bs: $(grep -- '^--bs' list.txt)"
grep -q $'^--trim\t\trun$' list.txt || fail "--trim: $(grep -- '^--trim' list.txt)"
grep -q $'^--noise\tPCT\ttune,compare$' list.txt || fail "--noise: $(grep -- '^--noise' list.txt)"
grep -q $'^--destructive\t\\[=DEV\\]\t' list.txt || fail "--destructive: $(grep -- '^--destructive' list.txt)"

# Each row against the parsers: what the listing gives run, run takes (the
# help lists it); what it gives tune only, run refuses naming tune; a run
# option the listing does not give tune, tune refuses by name.
"$DISKBENCH" --help >help.txt || fail "--help"
# (tab is IFS white space: two in a row would be one, so split by hand)
while IFS= read -r line; do
	name=${line%%$'\t'*} cmds=${line##*$'\t'}
	case ",$cmds," in
	*,run,*)
		grep -q -- "^  $name\\b" help.txt || fail "$name: a run option not in --help"
		;;
	*)
		out=$("$DISKBENCH" "$name" x . 2>&1 >/dev/null)
		rc=$?
		first=${cmds%%,*}
		[ $rc -eq 2 ] || fail "run $name: exit $rc, want 2 ($out)"
		printf '%s' "$out" | grep -q -- "$name is an\\? $first option run does not take" ||
			fail "run $name: '$out'"
		;;
	esac
	case ",$cmds," in
	*,run,*,tune,* | *,tune,*) ;;
	*,run,*)
		[ "$name" = --version ] && continue
		out=$("$DISKBENCH" tune "$name" 1 . 2>&1 >/dev/null)
		rc=$?
		[ $rc -eq 2 ] || fail "tune $name: exit $rc, want 2 ($out)"
		printf '%s' "$out" | grep -q -- "^diskbench: tune: $name is a run option tune does not take" ||
			fail "tune $name: '$out'"
		;;
	esac
done <list.txt

# options are matched whole: an abbreviation is no option
expect_usage "unknown option '--buf'" --buf --engine null .
expect_usage "unknown option '--runt=1s'" --runt=1s --engine null .
echo "list options: $n options checked against run and tune"
