#!/bin/bash
# completion.sh - the bash completion, driven through its real functions
# (bash-completion's _init_completion and _filedir, the words as bash splits
# them into COMP_WORDS), and the zsh completion's helpers: subcommands,
# options from the program itself (a new option completes without an edit),
# profiles, tests, engines, choices, --scheduler from the target's sysfs,
# block devices, files for report and compare; nothing on stderr, ever.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
bc=/usr/share/bash-completion/bash_completion
[ -f "$bc" ] || skip "needs bash-completion ($bc)"
srcdir=$(cd "$srcdir" && pwd)
comp_file=$srcdir/completions/diskbench
make_tmpdir /tmp
# in an empty directory: file names complete too
mkdir "$TMP_DIR/cwd" && cd "$TMP_DIR/cwd" || fail "cd"

# comp LINE: the completions of LINE (cursor at its end), one a line;
# what the completion wrote on stderr goes to $TMP_DIR/err, which must stay empty
comp()
{
	bash -c '
		. "$1"; . "$2"; line=$3
		read -ra toks <<<"$line"; [[ $line == *" " ]] && toks+=("")
		COMP_WORDS=()
		for t in "${toks[@]}"; do	# bash breaks words at "=" (COMP_WORDBREAKS)
			if [[ $t == --*=* ]]; then
				COMP_WORDS+=("${t%%=*}" "=")
				[[ -n ${t#*=} ]] && COMP_WORDS+=("${t#*=}")
			else
				COMP_WORDS+=("$t")
			fi
		done
		COMP_CWORD=$((${#COMP_WORDS[@]} - 1)) COMP_LINE=$line COMP_POINT=${#line}
		complete -p diskbench >/dev/null || exit 9
		_diskbench diskbench "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$bc" "$comp_file" "$1" 2>"$TMP_DIR/err"
	[ $? -eq 0 ] || fail "completing '$1' failed"
	[ -s "$TMP_DIR/err" ] && fail "completing '$1' wrote on stderr: $(cat "$TMP_DIR/err")"
	return 0
}
# want LINE WORD...: each WORD is among the completions of LINE
want()
{
	local line=$1 w got; shift
	got=$(comp "$line") || exit 1
	for w in "$@"; do
		grep -qxF -- "$w" <<<"$got" || fail "completing '$line': no '$w' in: $(echo $got)"
	done
}
# exactly LINE WORD...: the completions of LINE are these words (any order)
exactly()
{
	local line=$1 got; shift
	got=$(comp "$line" | sort) || exit 1
	[ "$got" = "$(printf '%s\n' "$@" | sed '/^$/d' | sort)" ] ||
		fail "completing '$line': got '$(echo $got)', want '$*'"
}
db=$DISKBENCH

# ---- subcommands, and options from the program's own table
want "$db " run info list report compare tune
exactly "$db li" list
# every option --help shows (the option table) completes after --
opts=$("$db" --help | grep -o '^  --[a-z][a-z-]*' | sed 's/^  //' | sort -u)
[ "$(wc -l <<<"$opts")" -ge 30 ] || fail "--help shows too few options: $opts"
# shellcheck disable=SC2086 # one word each
want "$db --" $opts --help --version
exactly "$db --te" --test
want "$db tune --" --scheduler --read-ahead --nomerges --wbt --restore --apply --runtime --engine
exactly "$db info --j" --json
want "$db report --" --json --csv --bonnie-csv --html --max-input --quiet
want "$db compare --" --noise --json --html
exactly "$db list " $("$db" list 2>&1 | sed -n 's/.*(\([a-z, ]*\)).*/\1/p;s/^usage: .*list \([a-z|]*\).*/\1/p' | tr ',| ' '\n\n\n')

# a new option completes without an edit: a program whose table has one
# more ("diskbench list options": NAME<TAB>ARG<TAB>subcommands) ...
stub=$TMP_DIR/stub-diskbench
cat >"$stub" <<'STUB'
#!/bin/sh
case "$*" in
"list options") printf -- '--brand-new\tN\trun,tune\n--runtime\tTIME\trun,tune\n--noise\tPCT\tcompare,tune\n--flag-only\t\trun\n' ;;
*) exit 2 ;;
esac
STUB
chmod +x "$stub"
exactly "$stub --br" --brand-new
exactly "$stub --brand-new " ""
want "$stub --" --brand-new --runtime --flag-only
exactly "$stub compare --" --noise --help --version
# each option where the table says: tune gets none of run's own
exactly "$stub tune --" --brand-new --runtime --noise --help --version
# ... and an older one without "list options" is read from its --help
cat >"$stub" <<'STUB'
#!/bin/sh
case "$*" in
--help) printf 'usage: x\n\nOptions:\n  --newer-flag        a flag\n  --level LOW|HIGH    no\n  --colour red|green  a choice\n' ;;
*) echo "unknown" >&2; exit 2 ;;
esac
STUB
exactly "$stub --new" --newer-flag
exactly "$stub --colour " red green
# a program that is not there: nothing, and nothing said
exactly "$TMP_DIR/no-such-diskbench --te"
exactly "$TMP_DIR/no-such-diskbench --profile "

# ---- values: profiles, tests, engines, choices
profiles=$(ls "$srcdir"/profiles/*.ini | sed 's|.*/||; s|\.ini$||')
# shellcheck disable=SC2086
exactly "$db --profile " $profiles
exactly "$db --profile=crystal" crystal crystal-nvme
mkdir "$TMP_DIR/p" && : >"$TMP_DIR/p/mine.ini" && : >"$TMP_DIR/p/other.txt"
exactly "$db --profile $TMP_DIR/p/" "$TMP_DIR/p/mine.ini"
tests=$("$db" list tests | awk 'NR > 1 { print $1 }')
# shellcheck disable=SC2086
exactly "$db --test " $tests
exactly "$db run --test seq-read,rand-r" seq-read,rand-read
want "$db tune --workload tune-" tune-scheduler tune-readahead
engines=$("$db" list engines | awk 'NR > 1 && $2 == "yes" { print $1 }')
# shellcheck disable=SC2086
exactly "$db --engine " $engines auto
exactly "$db --data " random zero
exactly "$db --char-mode s" stdio syscall
exactly "$db --runtime " ""

# ---- targets: block devices and files; report and compare take results
mkdir "$TMP_DIR/r" "$TMP_DIR/r/sub"
: >"$TMP_DIR/r/a.json"; : >"$TMP_DIR/r/b.html"; : >"$TMP_DIR/r/c.txt"
exactly "$db report $TMP_DIR/r/" "$TMP_DIR/r/a.json" "$TMP_DIR/r/b.html" "$TMP_DIR/r/sub"
exactly "$db compare $TMP_DIR/r/a.json $TMP_DIR/r/" "$TMP_DIR/r/a.json" "$TMP_DIR/r/b.html" "$TMP_DIR/r/sub"
exactly "$db --json $TMP_DIR/r/c" "$TMP_DIR/r/c.txt"
devs=$(for d in /sys/class/block/*; do [ -e "/dev/${d##*/}" ] && echo "/dev/${d##*/}"; done)
if [ -n "$devs" ]; then
	# shellcheck disable=SC2086
	want "$db /dev/" $devs
	# shellcheck disable=SC2086
	want "$db info /dev/" $devs
	d1=$(head -n1 <<<"$devs")
	want "$db --destructive=$d1" "$d1"
	want "$db tune --restore $d1" "$d1"
fi
exactly "$db --destructive " $(comp "$db " | grep -vxE 'run|info|list|report|compare|tune')

# ---- --scheduler: what the target's queue offers, read from sysfs
exactly "$db tune /dev/no-such-disk --scheduler "
exactly "$db tune --scheduler  "
[ -d /dev/shm ] && [ "$(stat -f -c %T /dev/shm)" = tmpfs ] && exactly "$db tune /dev/shm --scheduler "
# a directory: the disk under its file system (findmnt and lsblk say which)
src=$(findmnt -no SOURCE -T "$srcdir" 2>/dev/null)
if [ -b "$src" ]; then
	disk=$(lsblk -ndo PKNAME "$src" 2>/dev/null)
	[ -n "$disk" ] || disk=${src#/dev/}
	if [ -r "/sys/block/$disk/queue/scheduler" ]; then
		# shellcheck disable=SC2046
		exactly "$db tune $srcdir --scheduler " $(tr -d '[]' <"/sys/block/$disk/queue/scheduler")
		echo "schedulers of $srcdir's disk $disk: checked"
	fi
fi
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	make_loop 8 none
	scheds=$(tr -d '[]' <"/sys/block/$LOOP_NAME/queue/scheduler")
	# shellcheck disable=SC2086
	exactly "$db tune $LOOP_DEV --scheduler " $scheds
	read -r first second _ <<<"$scheds"
	if [ -n "${second:-}" ]; then	# the second of a list, the target anywhere on the line
		want "$db tune --json x.json $LOOP_DEV --scheduler $first,${second:0:1}" "$first,$second"
	fi
	echo "schedulers of $LOOP_DEV: $scheds"
else
	echo "not root: --scheduler on a device of our own not checked"
fi

# ---- zsh: the file parses, and its helpers give what bash's give
if command -v zsh >/dev/null; then
	zsh -n "$srcdir/completions/_diskbench" || fail "zsh: _diskbench does not parse"
	zq() { zsh -f -c 'source "$1"; words=("$2"); shift 2; "$@"; print -l -- $reply' _ \
		"$srcdir/completions/_diskbench" "$db" "$@" 2>"$TMP_DIR/err"
		[ -s "$TMP_DIR/err" ] && fail "zsh $*: $(cat "$TMP_DIR/err")"; return 0; }
	[ "$(zq _diskbench_list profiles | sort)" = "$(sort <<<"$profiles")" ] || fail "zsh: profiles differ"
	[ "$(zq _diskbench_list tests | sort)" = "$(sort <<<"$tests")" ] || fail "zsh: tests differ"
	got=$(zq _diskbench_opts run | cut -f1 | sort -u)
	for o in $opts; do grep -qxF -- "$o" <<<"$got" || fail "zsh: option $o missing"; done
	[ -z "$(zq _diskbench_schedulers /dev/no-such-disk)" ] || fail "zsh: schedulers of a missing disk"
	if [ -n "${LOOP_DEV:-}" ]; then
		[ "$(zq _diskbench_schedulers "$LOOP_DEV" | xargs)" = "$(xargs <<<"$scheds")" ] || fail "zsh: schedulers differ"
	fi
	echo "zsh: helpers agree"
else
	echo "zsh not installed: its completion not checked"
fi
echo "PASS: shell completion"
