#!/bin/bash
# limits.sh - resources are bounded before anything runs: a plan whose
# buffers and tables do not fit half the available memory (or what the
# memory cgroup has left), whose files do not fit the file system's space or
# inodes within --max-fill, or whose open files exceed the hard limit, is
# refused at once with what was asked, what there is and which option to
# change; nothing is written. Plans that fit run, and stay within the
# estimate.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /dev/shm
T=$TMP_DIR
cd "$T" || fail "cd $T"
NULL=(--engine null --runtime 50ms --ramp 0)

# refused RC PATTERN ARGS...: exit RC within 3 s, one line saying PATTERN,
# nothing left in the target (the last argument).
refused()
{
	local want=$1 pat=$2 out rc t0 t1 target
	shift 2
	target=${*: -1}
	t0=$(date +%s%N)
	out=$("$DISKBENCH" "$@" 2>&1 >/dev/null)
	rc=$?
	t1=$(date +%s%N)
	[ "$rc" -eq "$want" ] || fail "'$*': exit $rc, want $want: $out"
	printf '%s' "$out" | grep -q -- "$pat" || fail "'$*': '$out' does not say '$pat'"
	[ "$(printf '%s\n' "$out" | grep -c '^diskbench:')" -eq 1 ] || fail "'$*': not one line: $out"
	[ $(((t1 - t0) / 1000000)) -lt 3000 ] || fail "'$*': refused after $(((t1 - t0) / 1000000)) ms"
	if [ -d "$target" ]; then
		ls -d "$target"/diskbench.* >/dev/null 2>&1 && fail "'$*': left a scratch directory"
	fi
	return 0
}

# Memory: 4 TiB of buffers fits no machine; the message names the options.
refused 2 "rand-read (--jobs 1024 --qd 4096 --bs 1m) needs 4.0 TiB of buffers and tables; diskbench takes at most half of the available memory (.*): lower --jobs, --qd or --bs" \
	"${NULL[@]}" --test rand-read --jobs 1024 --qd 4096 --bs 1m .
refused 2 "meta-stat (--jobs 1024 --files 1073741824 --dirs 1) needs 4.0 TiB .* lower --files, --dirs or --jobs" \
	--test meta-stat --jobs 1024 --files 1073741824 .
# The issue's case (16 GiB of 4k buffers) where the machine has under 32 GiB.
avail_kb=$(awk '/^MemAvailable:/ { print $2 }' /proc/meminfo)
if [ "$avail_kb" -lt $((32 << 20)) ]; then
	refused 2 "rand-read (--jobs 1024 --qd 4096 --bs 4k) needs 1[67]\.[0-9] GiB" \
		"${NULL[@]}" --test rand-read --jobs 1024 --qd 4096 --bs 4k .
fi

# Open files: a million directories per job is more than any hard limit here.
hard=$(ulimit -Hn)
if [ "$hard" != unlimited ] && [ "$hard" -lt 1000000 ]; then
	refused 2 "needs [0-9]* open files: 1000003 \(per job\|for its jobs\).*more than the limit of open files, [0-9]* (ulimit -n): lower --dirs to [0-9]* or fewer" \
		--test meta-create --files 1000000 --dirs 1000000 .
fi
# ... while a soft limit below what a plan needs is raised to the hard one.
if [ "$hard" = unlimited ] || [ "$hard" -ge 4096 ]; then
	(ulimit -Sn 256 && "$DISKBENCH" --test meta-create --files 3000 --dirs 1000 --runtime 1s \
		--json soft.json . >/dev/null 2>&1) || fail "--dirs 1000 under ulimit -Sn 256: exit $?"
	[ "$(json soft.json 'd["tests"][0]["errors"]')" = 0 ] || fail "--dirs 1000: errors"
fi

if [ "$(id -u)" -ne 0 ]; then
	echo "ok (not root: file-system and cgroup limits not tried)"
	exit 0
fi
need_cmd mount umount mountpoint

# A small file system: space and inodes, within --max-fill.
FS=$T/fs
mkdir "$FS" && mount -t tmpfs -o size=64m,nr_inodes=2000 tmpfs "$FS" || fail "mount tmpfs"
at_exit "unmount '$FS'"
refused 3 "refusing to write to $FS: meta-create (--jobs 1 --files 5000 --dirs 1) makes 5004 files and directories, .* of its file system's 2000 inodes .*: lower --files, --dirs or --jobs" \
	--test meta-create --files 5000 "$FS"
refused 3 "refusing to write to $FS: writing .* would fill $FS to .*(the files of meta-create (--jobs 1 --files 1000 --dirs 1)): lower --files or --file-size" \
	--test meta-create --files 1000 --file-size 64k "$FS"
# The working set and a test's own files add up: 40 MiB of data and 19 MiB
# of files each fit, both together pass 90 % of 64 MiB.
"$DISKBENCH" --test rand-read --size 40m --runtime 100ms --ramp 0 "$FS" >/dev/null 2>&1 ||
	fail "40 MiB working set alone: exit $?"
settle "$FS" || fail "$FS: the space of the run's files never came back"
"$DISKBENCH" --test meta-create --files 1200 --file-size 16k --runtime 100ms "$FS" >/dev/null 2>&1 ||
	fail "19 MiB of files alone: exit $?"
refused 3 "the working set and the files of meta-create" \
	--test rand-read,meta-create --size 40m --files 1200 --file-size 16k "$FS"
[ -z "$(ls -A "$FS")" ] || fail "files left in $FS: $(ls -A "$FS")"
unmount "$FS" || fail "umount $FS"

# Memory cgroup (v1 here; v2 reads memory.max the same way): the issue's
# --jobs 64 --qd 64 --bs 1m under 1 GiB was OOM-killed with its scratch
# left behind; now it is refused, and a plan that fits runs within it.
root=/sys/fs/cgroup/memory
if [ -e "$root/memory.limit_in_bytes" ] && mkdir "$root/diskbench-test-$$" 2>/dev/null; then
	CG=$root/diskbench-test-$$
	at_exit "lib_remove_cgroup '$CG'"
	echo $((1 << 30)) >"$CG/memory.limit_in_bytes" || fail "setting the cgroup's limit"
	out=$(run_in_cgroup "$CG" "$DISKBENCH" --test rand-read --jobs 64 --qd 64 --bs 1m \
		--runtime 1s "$T" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] || fail "64 x 64 x 1m under 1 GiB: exit $rc: $out"
	printf '%s' "$out" | grep -q "needs 4.0 GiB of buffers and tables; diskbench takes at most half of what memory cgroup /diskbench-test-$$ (limit 1.0 GiB) has left" ||
		fail "64 x 64 x 1m under 1 GiB: $out"
	ls -d "$T"/diskbench.* >/dev/null 2>&1 && fail "the refused run left its scratch"
	# 2 x 64 x 1m = 128 MiB of buffers: within half of the limit, it runs,
	# and the cgroup's peak stays under the limit (no OOM kill).
	run_in_cgroup "$CG" "$DISKBENCH" "${NULL[@]}" --test rand-read --jobs 2 --qd 64 --bs 1m \
		--json cg.json "$T" >/dev/null 2>&1 || fail "2 x 64 x 1m under 1 GiB: exit $?"
	peak=$(cat "$CG/memory.max_usage_in_bytes")
	[ "$peak" -gt $((128 << 20)) ] || fail "peak $peak: the buffers were not even allocated?"
	[ "$(cat "$CG/memory.failcnt")" = 0 ] || fail "the run hit the cgroup's limit"
else
	msg "note: no cgroup v1 memory controller to try: cgroup limit not tried"
fi
echo "ok"
