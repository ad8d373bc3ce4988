#!/bin/bash
# lab_faults.sh - the device lab itself: each labfs setting does what it says, seen through a loop device.
#
# Root and FUSE only (skips with 77 otherwise). With dd on the loop device
# that tests/lab/lab.sh makes over labfs: a fixed latency shows in the time
# taken and in the log; the uniform, log-normal and bimodal draws have
# their shape and a seed repeats them; EIO at an offset and on the Nth
# request is an I/O error there and nowhere else; short reads are resubmitted by the loop
# driver and the data still reads back; the memfd starts with a seeded
# pattern (--zeros: blank) and --corrupt-at inverts its bytes in what a read
# returns, nothing else; a stall holds requests for its
# time; a request that never completes (the Nth, or the first of a size
# after the arm) keeps dd waiting until labfs is stopped, and then fails; a
# write-rate step slows writes after its byte;
# a vanished device (after N requests, labfs exiting; after a time,
# labfs answering EIO) fails every request. Bad settings exit 2 naming the
# option. A lab left by a killed test is removed by the next lab_start.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lab/lab.sh"

need_lab
need_cmd dd sha256sum python3
make_tmpdir
WORK=$TMP_DIR

# ---- settings labfs cannot honour: exit 2, the option named -------------
mkdir "$WORK/m"
bad()
{
	local want=$1 out rc
	shift
	out=$("$LABFS" "$WORK/m" --log "$WORK/bad.log" "$@" 2>&1)
	rc=$?
	[ "$rc" -eq 2 ] || fail "labfs $*: exit $rc, want 2 ($out)"
	printf '%s' "$out" | grep -q -- "$want" || fail "labfs $*: '$out' does not name $want"
	mountpoint -q "$WORK/m" && fail "labfs $*: mounted anyway"
	return 0
}
bad --latency --latency gauss:1ms
bad --latency --latency fixed:1
bad --latency --latency fixed:1parsec
bad --latency --latency uniform:2ms:1ms
bad --latency --latency lognormal:1ms:x
bad --latency --latency bimodal:1ms:5ms:0
bad --eio-nth --eio-nth -3
bad --stall --stall 5
bad --short-read --short-read 0
bad --hang-size --hang-size 0
bad --write-step --write-step 1m:0
bad --vanish-mode --vanish-mode maybe
bad --vanish-mode --vanish-mode exit
bad --size --size 1000
bad --eio-at --size 1m --eio-at 1m
bad --corrupt-at --size 1m --corrupt-at 4096,2m
bad --corrupt-at --corrupt-at ,
truncate -s 1m "$WORK/z.img" || fail "truncate $WORK/z.img"
bad --zeros --zeros --backing "$WORK/z.img"
bad --log --log /nonexistent/dir/log
bad unrecognized --warp-speed 9
echo "ok   bad settings refused (exit 2, option named)"

# dd_read DEV SKIP COUNT [BS]: O_DIRECT reads; prints dd's status, returns its exit
dd_read()
{
	dd if="$1" of=/dev/null bs="${4:-4k}" skip="$2" count="$3" iflag=direct 2>&1
}

# ---- a fixed latency: in dd's time and in every logged request ---------
lab_start --size 16m --latency fixed:2ms
lab_loop
lab_arm
t0=$(date +%s%N)
dd_read "$LAB_DEV" 0 50 >/dev/null || fail "dd over the lab failed"
t1=$(date +%s%N)
n=$(lab_requests read | awk '$5 == 2000000 && $6 >= 2000000 && $7 == 4096' | wc -l)
[ "$n" -eq 50 ] || fail "fixed:2ms: $n of 50 logged reads have delay 2 ms: $(lab_requests | head)"
[ $(((t1 - t0) / 1000000)) -ge 100 ] || fail "fixed:2ms: 50 reads took $(((t1 - t0) / 1000000)) ms"
echo "ok   fixed:2ms: 50 reads in $(((t1 - t0) / 1000000)) ms, each logged with its 2 ms"
lab_stop

# ---- the latency draws: each distribution's shape, and the seed's ------
# delays N SETTINGS...: N O_DIRECT reads on a fresh lab; their DELAY_NS, one a line
delays()
{
	local n=$1
	shift
	lab_start --size 16m "$@"
	lab_loop
	lab_arm
	dd_read "$LAB_DEV" 0 "$n" >/dev/null || fail "dd over labfs $* failed"
	# (another process may read the device too: a foreign read takes a
	# request number, so the draws are compared by number, not by line)
	lab_requests read | awk '{ print $1, $5 }' >"$WORK/draws"
	awk '{ print $2 }' "$WORK/draws" >"$WORK/delays"
	lab_stop
	[ "$(wc -l <"$WORK/delays")" -ge "$n" ] || fail "labfs $*: $(wc -l <"$WORK/delays") reads logged, not $n"
}
# same_draws A B: the request numbers both have got the same delay in both
same_draws()
{
	[ "$(join "$1" "$2" | awk '$2 != $3' | wc -l)" -eq 0 ] &&
		[ "$(join "$1" "$2" | wc -l)" -ge 300 ]
}
# shape FILE PYEXPR WHAT: PYEXPR over v (the delays in ns, sorted) must hold
shape()
{
	python3 -c 'import math, statistics as st, sys
v = sorted(int(x) for x in open(sys.argv[1]))
sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2" || fail "$3: $(sort -n "$1" | awk '
		{ a[NR] = $1 } END { printf "min %d median %d max %d ns", a[1], a[int(NR / 2)], a[NR] }')"
}
delays 400 --latency uniform:100us:300us --seed 3
shape "$WORK/delays" "v[0] >= 100000 and v[-1] <= 300000 and abs(st.mean(v) - 200000) < 12000" \
	"uniform:100us:300us: delays outside [100, 300] us or mean not 200 us"
sort "$WORK/draws" >"$WORK/draws.3"
delays 400 --latency uniform:100us:300us --seed 3
sort "$WORK/draws" >"$WORK/draws.3b"
same_draws "$WORK/draws.3" "$WORK/draws.3b" || fail "--seed 3 twice: other delays"
delays 400 --latency uniform:100us:300us --seed 4
sort "$WORK/draws" >"$WORK/draws.4"
same_draws "$WORK/draws.3" "$WORK/draws.4" && fail "--seed 3 and --seed 4: the same delays"
delays 400 --latency lognormal:100us:0.5
shape "$WORK/delays" "abs(st.median(v) / 100000 - 1) < 0.15 and \
abs(st.stdev([math.log(x) for x in v]) - 0.5) < 0.08" \
	"lognormal:100us:0.5: median not 100 us or sigma of log not 0.5"
delays 400 --latency bimodal:20us:400us:10
shape "$WORK/delays" "set(v) == {20000, 400000} and 0.05 <= v.count(400000) / len(v) <= 0.15" \
	"bimodal:20us:400us:10: not two delays, or not 1 in 10 slow"
echo "ok   uniform, lognormal and bimodal draws have their shape; a seed repeats them"

# ---- a device that goes after a time, failing every request (eio mode) --
lab_start --size 16m --vanish-after 2s
lab_loop
lab_arm
dd_read "$LAB_DEV" 0 4 >/dev/null || fail "--vanish-after 2s: reads before it failed"
sleep 2.4
dd_read "$LAB_DEV" 4 1 >/dev/null && fail "--vanish-after 2s: a read after it succeeded"
lab_alive "$LAB_PID" || fail "--vanish-after 2s (eio): labfs exited"
grep -q "^# vanish after time limit" "$LAB_LOG" || fail "--vanish-after 2s: no vanish logged"
echo "ok   --vanish-after 2s: reads fail after it, labfs still answers (EIO)"
lab_stop

# ---- EIO at an offset, and on the Nth request -----------------------------
lab_start --size 16m --eio-at 1m
lab_loop
lab_arm
dd_read "$LAB_DEV" 0 256 >/dev/null || fail "--eio-at 1m: reads below 1 MiB failed"
out=$(dd_read "$LAB_DEV" 256 1) && fail "--eio-at 1m: the read at 1 MiB succeeded"
printf '%s' "$out" | grep -q "Input/output error" || fail "--eio-at 1m: dd said '$out'"
dd_read "$LAB_DEV" 257 16 >/dev/null || fail "--eio-at 1m: reads after 1 MiB failed"
lab_requests read | awk '$3 <= 1048576 && $3 + $4 > 1048576 { e += ($7 == -5) } END { exit !e }' ||
	fail "--eio-at 1m: no logged -EIO at 1 MiB"
echo "ok   --eio-at 1m: I/O error at 1 MiB only ($(printf '%s' "$out" | head -1))"
lab_stop

lab_start --size 16m --eio-nth 3
lab_loop
lab_arm
out=$(dd_read "$LAB_DEV" 0 5) && fail "--eio-nth 3: all reads succeeded"
printf '%s' "$out" | grep -q "^2+0 records in" || fail "--eio-nth 3: want 2 reads before the error: $out"
[ "$(lab_requests read | awk '$1 == 3 { print $7 }')" = -5 ] || fail "--eio-nth 3: request 3 not -EIO"
echo "ok   --eio-nth 3: the third read failed, two before it did not"
lab_stop

# ---- short reads: the loop driver resubmits the rest; data intact -------
dd if=/dev/urandom of="$WORK/back.img" bs=1M count=4 status=none || fail "cannot write $WORK/back.img"
want=$(sha256sum <"$WORK/back.img" | cut -d' ' -f1)
lab_start --backing "$WORK/back.img" --short-read 1k
lab_loop
lab_arm
got=$(dd if="$LAB_DEV" bs=64k iflag=direct status=none | sha256sum | cut -d' ' -f1)
[ "$got" = "$want" ] || fail "--short-read 1k: the loop device read back other data"
short=$(lab_requests read | awk '$4 > 1024 && $7 == 1024' | wc -l)
[ "$short" -gt 0 ] || fail "--short-read 1k: no short read logged"
# straight to the file (no loop driver in between) a short read is seen as one
out=$(dd if="$LAB_FILE" of=/dev/null bs=4k count=1 iflag=direct 2>&1)
printf '%s' "$out" | grep -q "^0+1 records in" || fail "--short-read 1k: O_DIRECT read of the file: $out"
echo "ok   --short-read 1k: $short short answers resubmitted by the loop driver, data intact"
lab_stop

# ---- contents: a seeded pattern, --zeros blank, --corrupt-at one byte ----
lab_start --size 1m --seed 3
a=$(dd if="$LAB_FILE" bs=4k count=1 iflag=direct status=none | od -An -tx1 | tr -d ' \n')
b=$(dd if="$LAB_FILE" bs=4k count=1 skip=1 iflag=direct status=none | od -An -tx1 | tr -d ' \n')
lab_stop
[ -n "$a" ] && [ "${a//0/}" != "" ] || fail "the memfd reads blank without --zeros"
[ "$a" != "$b" ] || fail "two blocks of the pattern read alike"
lab_start --size 1m --seed 3 --zeros
z=$(dd if="$LAB_FILE" bs=1M iflag=direct status=none | tr -d '\0' | wc -c)
lab_stop
[ "$z" -eq 0 ] || fail "--zeros: $z bytes not zero"
lab_start --backing "$WORK/back.img" --corrupt-at 5000,1048577
lab_loop
lab_arm
dd if="$LAB_DEV" of="$WORK/got.img" bs=64k iflag=direct status=none || fail "--corrupt-at: dd failed"
diff=$(python3 -c 'import sys; a, b = (open(f, "rb").read() for f in sys.argv[1:])
print(" ".join("%d:%d" % (i, x ^ y) for i, (x, y) in enumerate(zip(a, b)) if x != y), len(a) == len(b))' \
	"$WORK/back.img" "$WORK/got.img")
[ "$diff" = "5000:255 1048577:255 True" ] || fail "--corrupt-at 5000,1048577: differences $diff"
[ "$(sha256sum <"$WORK/back.img" | cut -d' ' -f1)" = "$want" ] || fail "--corrupt-at changed the file"
lab_stop
echo "ok   the memfd starts patterned (--zeros: blank); --corrupt-at inverts just its bytes on read"

# ---- a stall: requests from the 3rd on held 1 s ---------------------------
lab_start --size 16m --stall 3:1s
lab_loop
lab_arm
t0=$(date +%s%N)
dd_read "$LAB_DEV" 0 6 >/dev/null || fail "--stall 3:1s: dd failed"
ms=$((($(date +%s%N) - t0) / 1000000))
[ "$ms" -ge 1000 ] || fail "--stall 3:1s: 6 reads took $ms ms"
held=$(lab_requests read | awk '$1 == 3 { print int($5 / 1000000) }')
[ "$held" = 1000 ] || fail "--stall 3:1s: request 3 held ${held:-?} ms"
echo "ok   --stall 3:1s: 6 reads took $ms ms, request 3 held $held ms"
lab_stop

# ---- a request that never completes: dd waits until labfs goes ----------
lab_start --size 16m --hang-nth 2
lab_loop
lab_arm
dd_read "$LAB_DEV" 0 4 >"$WORK/hang.out" &
dd_pid=$!
sleep 1.5
kill -0 "$dd_pid" 2>/dev/null || fail "--hang-nth 2: dd finished: $(cat "$WORK/hang.out")"
grep -q "^# hang 2 read" "$LAB_LOG" || fail "--hang-nth 2: no hang logged"
lab_stop
poll 50 ended "$dd_pid" || fail "--hang-nth 2: dd still waits 5 s after labfs stopped"
wait "$dd_pid" && fail "--hang-nth 2: dd succeeded after its request was dropped"
grep -q "^1+0 records in" "$WORK/hang.out" || fail "--hang-nth 2: dd said $(cat "$WORK/hang.out")"
echo "ok   --hang-nth 2: dd held 1.5 s; when labfs stopped it failed ($(head -1 "$WORK/hang.out"))"

# ---- --hang-size: the first request of a size after the arm -----------------
lab_start --size 16m --hang-size 8k
lab_loop
dd_read "$LAB_DEV" 0 2 8k >/dev/null || fail "--hang-size 8k: a read of 8 KiB before the arm failed"
lab_arm
dd_read "$LAB_DEV" 0 4 >/dev/null || fail "--hang-size 8k: reads of 4 KiB failed"
dd_read "$LAB_DEV" 1 2 8k >"$WORK/hang.out" &
dd_pid=$!
sleep 1.5
kill -0 "$dd_pid" 2>/dev/null || fail "--hang-size 8k: dd finished: $(cat "$WORK/hang.out")"
grep -q "^# hang 5 read 8192 8192$" "$LAB_LOG" || fail "--hang-size 8k: $(grep "^# hang" "$LAB_LOG")"
lab_stop
poll 50 ended "$dd_pid" || fail "--hang-size 8k: dd still waits 5 s after labfs stopped"
wait "$dd_pid" && fail "--hang-size 8k: dd succeeded after its request was dropped"
echo "ok   --hang-size 8k: the first 8 KiB read after the arm held, not the ones before it"

# ---- a write-rate step: 1 MiB fast, then 8 MiB/s ------------------------
lab_start --size 16m --write-step 1m:8m
lab_loop
lab_arm
t0=$(date +%s%N)
dd if=/dev/zero of="$LAB_DEV" bs=64k count=48 oflag=direct status=none || fail "--write-step: dd failed"
ms=$((($(date +%s%N) - t0) / 1000000))
# 2 MiB after the step at 8 MiB/s: 250 ms at least
[ "$ms" -ge 250 ] || fail "--write-step 1m:8m: 3 MiB written in $ms ms"
slow_before=$(lab_requests write | awk '$3 + $4 <= 1048576 && $5 > 0' | wc -l)
[ "$slow_before" -eq 0 ] || fail "--write-step 1m:8m: $slow_before writes before the step delayed"
echo "ok   --write-step 1m:8m: 3 MiB in $ms ms, none delayed before 1 MiB"
lab_stop

# ---- a vanishing device: after 5 requests, labfs exits ------------------
lab_start --size 16m --vanish-after 5 --vanish-mode exit
lab_loop
lab_arm
out=$(dd_read "$LAB_DEV" 0 10) && fail "--vanish-after 5: all 10 reads succeeded"
printf '%s' "$out" | grep -q "^5+0 records in" || fail "--vanish-after 5: $out"
sleep 0.2
lab_alive "$LAB_PID" && fail "--vanish-after 5 --vanish-mode exit: labfs still runs"
dd_read "$LAB_DEV" 0 1 >/dev/null && fail "--vanish-after 5: a read after the vanish succeeded"
mnt=$LAB_MNT dev=$LAB_DEV
noted=$(cat "$LAB_DIR/queue" 2>/dev/null)
[ -n "$noted" ] || [ "$(cat "/sys/block/$(basename "$dev")/queue/nomerges")" = 2 ] ||
	fail "lab_loop did not turn merging off on $dev"
lab_stop
lab_mounted "$mnt" && fail "--vanish-mode exit: lab_stop left the dead mount $mnt"
losetup -l -n -O BACK-FILE "$dev" 2>/dev/null | grep -q "^$mnt/" && fail "lab_stop left $dev"
# what lab_loop changed in the queue is as it was (the number's next user's)
while read -r f was; do
	[ -z "$f" ] || [ "$(sed 's/.*\[\(.*\)\].*/\1/' "$f")" = "$was" ] ||
		fail "lab_stop left $f at $(cat "$f"), not $was"
done <<<"$noted"
echo "ok   --vanish-after 5 --vanish-mode exit: 5 reads, then every read fails; all removed," \
	"queue settings put back"

# ---- a lab left by a killed test is removed by the next lab_start -------
{ bash -c '. "$1/lib.sh"; . "$1/../lab/lab.sh"; LABFS=$2; lab_start --size 1m; lab_loop
	echo "$LAB_DEV $LAB_MNT $LAB_PID" >"$3"; kill -KILL $$' _ "$(dirname "$0")" "$LABFS" "$WORK/killed"; } 2>/dev/null
read -r kdev kmnt kpid <"$WORK/killed" || fail "the killed lab did not start"
poll 50 not lab_alive "$kpid" || fail "labfs (pid $kpid) outlived its killed test by 5 s"
lab_mounted "$kmnt" || fail "the killed test's mount is already gone: nothing to sweep"
lab_sweep 2>"$WORK/sweep.err"
lab_mounted "$kmnt" && fail "lab_sweep left $kmnt mounted"
losetup -l -n -O BACK-FILE "$kdev" 2>/dev/null | grep -q "^$kmnt/" && fail "lab_sweep left $kdev attached"
[ -e "$(dirname "$kmnt")" ] && fail "lab_sweep left $(dirname "$kmnt")"
echo "ok   a killed test's lab ($kdev, $kmnt) removed: $(cat "$WORK/sweep.err")"

# ---- but not the lab of a test that still runs, though its labfs is gone --
bash -c '. "$1/lib.sh"; . "$1/../lab/lab.sh"; LABFS=$2
	lab_start --size 1m --vanish-after 1 --vanish-mode exit; lab_loop; lab_arm
	dd if="$LAB_DEV" of=/dev/null bs=4k count=2 iflag=direct status=none
	echo "$LAB_DEV $LAB_MNT $LAB_PID" >"$3"
	sleep 30 & at_exit "kill $!"; wait' _ "$(dirname "$0")" "$LABFS" "$WORK/live" \
	>/dev/null 2>&1 &
live=$!
at_exit "kill $live 2>/dev/null"
poll 50 test -s "$WORK/live"
read -r ldev lmnt lpid <"$WORK/live" || fail "the running test's lab did not start"
lab_alive "$lpid" && fail "--vanish-mode exit: labfs $lpid still runs"
lab_sweep 2>/dev/null
lab_mounted "$lmnt" || fail "lab_sweep removed the mount of a test that still runs"
losetup -l -n -O BACK-FILE "$ldev" 2>/dev/null | grep -q "^$lmnt/" ||
	fail "lab_sweep detached the loop device of a test that still runs"
kill "$live"
wait "$live" 2>/dev/null
lab_mounted "$lmnt" && fail "the running test's own lab_stop (on TERM) left $lmnt"
echo "ok   a running test's lab, its labfs gone, left alone; its own trap removed it"

echo "PASS"
exit 0
