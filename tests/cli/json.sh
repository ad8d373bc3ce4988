#!/bin/bash
# json.sh - --json - puts exactly one JSON document on stdout and nothing else;
# --json FILE is written whole, with no temporary file left; --quiet is quiet.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp
CHECK="python3 $srcdir/tests/cli/check_json.py"
args=(--test rand-read,seq-write --bs 4k --qd 2 --runtime 100ms --ramp 0 --size 8m)

"$DISKBENCH" "${args[@]}" --label 'quote " and \ backslash' --json - "$TMP_DIR" \
	>"$TMP_DIR/out.json" 2>"$TMP_DIR/err" || fail "--json -: exit $?"
$CHECK "$TMP_DIR/out.json" --tests 2 || fail "--json - is not a sane document"
[ "$(json "$TMP_DIR/out.json" 'd["label"]')" = 'quote " and \ backslash' ] || fail "label escaping"
grep -q "IOPS" "$TMP_DIR/out.json" && fail "text table mixed into --json - output"

"$DISKBENCH" "${args[@]}" --json "$TMP_DIR/r.json" "$TMP_DIR" >"$TMP_DIR/text" ||
	fail "--json FILE: exit $?"
$CHECK "$TMP_DIR/r.json" --tests 2 || fail "--json FILE is not a sane document"
grep -q "rand-read 4k qd2" "$TMP_DIR/text" || fail "text table missing on stdout"
awk 'length($0) > 100 { bad = 1 } END { exit bad }' "$TMP_DIR/text" ||
	fail "text report wider than 100 columns"
ls "$TMP_DIR"/r.json.* >/dev/null 2>&1 && fail "temporary JSON file left behind"
[ "$(json "$TMP_DIR/r.json" 'd["settings"]["seed"]')" = 42 ] || fail "settings.seed"

# A FIFO (like /dev/null or a pipe) is written as it is, never replaced by a
# file; a symlink keeps pointing at the report it names.
mkfifo "$TMP_DIR/fifo"
cat "$TMP_DIR/fifo" >"$TMP_DIR/from-fifo.json" &
"$DISKBENCH" "${args[@]}" --quiet --json "$TMP_DIR/fifo" "$TMP_DIR" || fail "--json FIFO: exit $?"
wait
[ -p "$TMP_DIR/fifo" ] || fail "--json replaced the FIFO"
$CHECK "$TMP_DIR/from-fifo.json" --tests 2 || fail "--json FIFO: bad document"
ln -s r.json "$TMP_DIR/link.json"
"$DISKBENCH" "${args[@]}" --quiet --json "$TMP_DIR/link.json" "$TMP_DIR" || fail "--json link: exit $?"
[ -L "$TMP_DIR/link.json" ] || fail "--json replaced the symlink"
$CHECK "$TMP_DIR/r.json" --tests 2 || fail "--json link: bad document"

out=$("$DISKBENCH" "${args[@]}" --quiet "$TMP_DIR") || fail "--quiet: exit $?"
[ -z "$out" ] || fail "--quiet printed: $out"

# The words typed are kept, quoted so that a shell reads them back, and a
# saved result keeps them through report --json.
"$DISKBENCH" run "${args[@]}" --label "it's mine" --quiet --json "$TMP_DIR/cl.json" "$TMP_DIR" ||
	fail "command line run: exit $?"
want="diskbench run ${args[*]} --label 'it'\\''s mine' --quiet --json $TMP_DIR/cl.json $TMP_DIR"
[ "$(json "$TMP_DIR/cl.json" 'd["command_line"]')" = "$want" ] ||
	fail "command_line: '$(json "$TMP_DIR/cl.json" 'd["command_line"]')', want '$want'"
python3 -c 'import json, shlex, sys
words = shlex.split(json.load(open(sys.argv[1]))["command_line"])
assert words == ["diskbench", "run"] + sys.argv[2:], words' "$TMP_DIR/cl.json" "${args[@]}" \
	--label "it's mine" --quiet --json "$TMP_DIR/cl.json" "$TMP_DIR" ||
	fail "command_line does not read back as the same words"
"$DISKBENCH" report --json "$TMP_DIR/cl2.json" "$TMP_DIR/cl.json" >/dev/null || fail "report --json"
[ "$(json "$TMP_DIR/cl2.json" 'd["command_line"]')" = "$want" ] || fail "report lost the command line"
echo "ok"
