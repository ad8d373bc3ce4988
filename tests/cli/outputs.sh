#!/bin/bash
# outputs.sh - report files never destroy data: devices, directories, planted
# symlinks and disk images are refused before anything runs, with the device's
# checksum unchanged; replaced files keep their owner and mode; stdout errors
# are reported.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3 sha256sum
make_tmpdir /dev/shm
T=$TMP_DIR
cd "$T" || fail "cd $T"
FAST=(--engine null --runtime 50ms --ramp 0)
sum() { sha256sum <"$1" | cut -d' ' -f1; }

# A saved result for report and compare.
"$DISKBENCH" "${FAST[@]}" --quiet --json saved.json . || fail "saving a result: exit $?"

# expect_refused RC PATTERN CMD...: exit RC, one error line matching PATTERN,
# quickly (the check comes before the run), no scratch directory left.
expect_refused()
{
	local want=$1 pat=$2 rc t0 t1 out
	shift 2
	t0=$(date +%s%N)
	# stdout a file, not /dev/null (which any number of outputs may share)
	out=$("$DISKBENCH" "$@" 2>&1 >"$T/stdout")
	rc=$?
	t1=$(date +%s%N)
	[ "$rc" -eq "$want" ] || fail "'$*': exit $rc, want $want ($out)"
	printf '%s' "$out" | grep -Eq -- "$pat" || fail "'$*': '$out' does not say '$pat'"
	[ "$(printf '%s\n' "$out" | grep -c '^diskbench:')" -eq 1 ] ||
		fail "'$*': want one error line, got: $out"
	[ $(((t1 - t0) / 1000000)) -lt 3000 ] || fail "'$*': refused only after $(((t1 - t0) / 1000000)) ms"
	ls -d diskbench.* >/dev/null 2>&1 && fail "'$*': left a scratch directory"
	return 0
}

# Every output option of every subcommand, with PATH in place of the file.
each_output()	# each_output RC PATTERN PATH
{
	local rc=$1 pat=$2 p=$3
	# a real directory run: if the check came after it, it would take 40 s
	expect_refused "$rc" "--json $p: $pat" --json "$p" .
	expect_refused "$rc" "--csv $p: $pat" --csv "$p" .
	expect_refused "$rc" "--bonnie-csv $p: $pat" --bonnie-csv "$p" .
	expect_refused "$rc" "--html $p: $pat" --html "$p" .
	expect_refused "$rc" "--lat-log $p: $pat" --lat-log "$p" .
	expect_refused "$rc" "--json $p: $pat" report --json "$p" saved.json
	expect_refused "$rc" "--csv $p: $pat" report --csv "$p" saved.json
	expect_refused "$rc" "--html $p: $pat" report --html "$p" saved.json
	expect_refused "$rc" "--json $p: $pat" compare --json "$p" saved.json saved.json
	expect_refused "$rc" "--html $p: $pat" compare --html "$p" saved.json saved.json
	expect_refused "$rc" "--json $p: $pat" info --json "$p" .
}

# 1. Directories and special files, named or behind a symlink.
mkdir adir
each_output 2 "is a directory" adir
each_output 2 "is a directory" "$T/adir/"
ln -s adir dirlink
each_output 2 "is a directory" dirlink
python3 -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' sock
each_output 2 "is a socket" sock
each_output 2 "is a character device" /dev/zero
each_output 2 "cannot write there: .*No such file" "$T/missing/x.json"

if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	make_loop 8 random
	before=$(sum "$LOOP_DEV")
	ln -s "$LOOP_DEV" devlink
	each_output 2 "is a block device" "$LOOP_DEV"
	each_output 2 "is a block device" devlink
	[ "$(sum "$LOOP_DEV")" = "$before" ] || fail "a refused output changed $LOOP_DEV"

	# A regular file that backs a loop device, or holds a file system.
	each_output 3 "refusing to replace it: it backs the loop device $LOOP_DEV" "$LOOP_IMG"
	[ "$(sum "$LOOP_IMG")" = "$before" ] || fail "a refused output changed $LOOP_IMG"
	if command -v mkfs.ext4 >/dev/null 2>&1; then
		truncate -s 8m fs.img && mkfs.ext4 -q -F fs.img || fail "mkfs.ext4 fs.img"
		before=$(sum fs.img)
		each_output 3 "refusing to replace it: ext4 file system signature" fs.img
		[ "$(sum fs.img)" = "$before" ] || fail "a refused output changed fs.img"
	fi
else
	msg "note: not root or no losetup: device and image outputs not tried"
fi

# 2. Symlinks another user planted are never followed; one's own are.
echo "not a report" >victim
chmod 640 victim
before=$(sum victim)
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
	setpriv --reuid=65534 --regid=65534 --clear-groups true 2>/dev/null; then
	chmod 755 "$T"
	mkdir -m 1777 sticky
	setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$T/victim" sticky/r.json ||
		fail "planting a link as nobody"
	setpriv --reuid=65534 --regid=65534 --clear-groups ln -s "$T" sticky/dir ||
		fail "planting a directory link as nobody"
	each_output 3 "refusing to follow the symlink 'r.json': it belongs to uid 65534" \
		sticky/r.json
	each_output 3 "refusing to follow the symlink 'dir'" sticky/dir/new.json
	[ "$(sum victim)" = "$before" ] || fail "a planted symlink was followed"
	[ -e new.json ] && fail "a planted directory symlink was followed"

	# A replaced file keeps its owner and mode.
	"$DISKBENCH" "${FAST[@]}" --quiet --json victim . || fail "--json victim: exit $?"
	chown 65534:65534 victim && chmod 600 victim
	"$DISKBENCH" "${FAST[@]}" --quiet --json victim . || fail "--json victim: exit $?"
	[ "$(stat -c '%u:%g %a' victim)" = "65534:65534 600" ] ||
		fail "replacing changed owner or mode: $(stat -c '%u:%g %a' victim)"
	json victim 'd["schema"]' >/dev/null || fail "the replaced file is not the report"
else
	msg "note: not root or no setpriv: planted symlinks and owners not tried"
fi
ln -s victim own.json
"$DISKBENCH" "${FAST[@]}" --quiet --json own.json . || fail "--json own link: exit $?"
[ -L own.json ] || fail "the link itself was replaced"
json victim 'd["schema"]' >/dev/null || fail "one's own link was not followed"
ln -s fresh.json dangling.json
"$DISKBENCH" "${FAST[@]}" --quiet --json dangling.json . || fail "--json dangling link: exit $?"
json fresh.json 'd["schema"]' >/dev/null || fail "a dangling own link: no file made"

# New files: 0666 less the umask, never the old forced 0644.
(umask 077 && "$DISKBENCH" "${FAST[@]}" --quiet --json u077.json .) || fail "umask 077 run"
(umask 022 && "$DISKBENCH" "${FAST[@]}" --quiet --json u022.json .) || fail "umask 022 run"
[ "$(stat -c %a u077.json)" = 600 ] || fail "umask 077: mode $(stat -c %a u077.json)"
[ "$(stat -c %a u022.json)" = 644 ] || fail "umask 022: mode $(stat -c %a u022.json)"
ls ./*.json.* >/dev/null 2>&1 && fail "a temporary file was left behind"

# 8. Two documents on one stdout, one file named twice; both refused.
expect_refused 2 "two documents on one stdout" --json - --csv - .
expect_refused 2 "two documents on one stdout" --json /dev/stdout --bonnie-csv - .
expect_refused 2 "both name the same file" --json same.out --csv same.out .
expect_refused 2 "both name the same file" --json same.out --html same.out .
expect_refused 2 "two documents on one stdout" report --json - --html - saved.json
expect_refused 2 "two documents on one stdout" report --json - --csv - saved.json
# /dev/null takes any number of them.
"$DISKBENCH" "${FAST[@]}" --quiet --json /dev/null --csv /dev/null . ||
	fail "two outputs to /dev/null: exit $?"
# /dev/stdout is stdout: the document alone, no text table.
"$DISKBENCH" "${FAST[@]}" --json /dev/stdout . >via-dev-stdout.json || fail "--json /dev/stdout"
json via-dev-stdout.json 'd["schema"]' >/dev/null || fail "--json /dev/stdout: not the JSON alone"

# A failed write to stdout is an error (exit 1), for every subcommand.
for cmd in "${FAST[*]} ." "report saved.json" "compare saved.json saved.json" "info ." \
	"list engines" "${FAST[*]} --json - ."; do
	# shellcheck disable=SC2086 # the words are the arguments
	out=$("$DISKBENCH" $cmd 2>&1 >/dev/full)
	rc=$?
	[ "$rc" -eq 1 ] || fail "'$cmd' >/dev/full: exit $rc, want 1"
	printf '%s' "$out" | grep -q "No space left" || fail "'$cmd' >/dev/full: said '$out'"
done
echo "ok"
