#!/bin/bash
# lab_errors.sh - I/O errors, short reads and a vanishing device from the device lab: each has its outcome.
#
# Root and FUSE only (skips with 77 otherwise). On the loop device that
# tests/lab/lab.sh makes over labfs:
# - EIO at 1 MiB, --on-error stop (the default): the test ends at the
#   error, named with its errno and offset, the rest of the plan is not run,
#   exit 1, and the JSON is written with the test and its error;
# - the same with --on-error continue: both tests run to their end, every
#   error counted (as many as labfs answered EIO), the first few named;
# - a device that vanishes (labfs exits) in the second test: a clear error
#   naming it, exit 1, the first test reported whole, the loop device gone
#   with the lab.
# On the file labfs serves (no loop driver, which resubmits short reads
# itself): every 5th read answered short is an error (errno 0, "short
# transfer", its bytes), never a whole block: ops + errors = reads served.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/../lab/lab.sh"

need_diskbench
need_lab
need_cmd python3
make_tmpdir
T=$TMP_DIR

# db NAME ARGS...: diskbench ARGS --json $T/NAME.json; out/err in $T/NAME.*; rc
db()
{
	local name=$1
	shift
	"$DISKBENCH" "$@" --json "$T/$name.json" >"$T/$name.out" 2>"$T/$name.err"
	rc=$?
}

# ---- EIO at 1 MiB, --on-error stop: the test ends there, the run too ------
lab_start --size 16m --eio-at 1m
lab_loop
lab_arm
db stop --test seq-read,rand-read --engine sync --bs 64k --runtime 2s --ramp 0 "$LAB_DEV"
[ "$rc" -eq 1 ] || fail "EIO, stop: exit $rc, want 1: $(cat "$T/stop.err")"
J=$T/stop.json
[ "$(json "$J" 'len(d["tests"])')" = 1 ] || fail "EIO, stop: want 1 test reported: $(json "$J" '[t["name"] for t in d["tests"]]')"
[ "$(json "$J" '(lambda t: (t["errors"], t["first_error"]["errno"], t["first_error"]["offset"]))(d["tests"][0])')" = "(1, 5, 1048576)" ] ||
	fail "EIO, stop: the error: $(json "$J" 'd["tests"][0]["first_error"]') $(json "$J" 'd["tests"][0]["io_errors"]')"
[ "$(json "$J" 'd["tests"][0]["io_errors"][0]["offset"]')" = 1048576 ] || fail "EIO, stop: io_errors $(json "$J" 'd["tests"][0]["io_errors"]')"
# the 16 blocks below 1 MiB, and not the failed one, are its ops
[ "$(json "$J" 'd["tests"][0]["ops"] == 16 and d["tests"][0]["bytes"] == 16 * 65536')" = True ] ||
	fail "EIO, stop: ops $(json "$J" 'd["tests"][0]["ops"]'), bytes $(json "$J" 'd["tests"][0]["bytes"]')"
grep -q "seq-read 64k qd1: I/O error: Input/output error at offset 1048576" "$T/stop.err" ||
	fail "EIO, stop: stderr does not name the error: $(cat "$T/stop.err")"
grep -q "the run stopped at its first I/O error (--on-error stop" "$T/stop.err" ||
	fail "EIO, stop: no warning that the run stopped: $(cat "$T/stop.err")"
[ "$(lab_requests read | awk '$4 == 65536 && $7 == -5' | wc -l)" -eq 1 ] || fail "EIO, stop: labfs failed $(lab_requests read | awk '$4 == 65536 && $7 == -5' | wc -l) reads"
echo "ok   EIO at 1 MiB, --on-error stop: exit 1, one test reported, error named, the rest not run"

# ---- the same, --on-error continue: every error counted, both tests run ---
lab_arm
db cont --test seq-read,rand-read --engine io_uring --qd 4 --jobs 2 --bs 64k --runtime 2s \
	--ramp 0 --on-error continue "$LAB_DEV"
[ "$rc" -eq 1 ] || fail "EIO, continue: exit $rc, want 1: $(cat "$T/cont.err")"
J=$T/cont.json
[ "$(json "$J" 'len(d["tests"])')" = 2 ] || fail "EIO, continue: want 2 tests: $(json "$J" '[t["name"] for t in d["tests"]]')"
eio=$(lab_requests read | awk '$4 == 65536 && $7 == -5' | wc -l)
got=$(json "$J" 'sum(t["errors"] for t in d["tests"])')
[ "$got" -eq "$eio" ] && [ "$got" -ge 4 ] || fail "EIO, continue: diskbench counted $got errors, labfs answered $eio EIO"
[ "$(json "$J" 'all(e["offset"] == 1048576 and e["errno"] == 5 for t in d["tests"] for e in t["io_errors"])')" = True ] ||
	fail "EIO, continue: io_errors $(json "$J" '[t["io_errors"] for t in d["tests"]]')"
[ "$(json "$J" 'all(len(t["io_errors"]) == min(t["errors"], 8) for t in d["tests"])')" = True ] ||
	fail "EIO, continue: io_errors not the first 8: $(json "$J" '[len(t["io_errors"]) for t in d["tests"]]')"
[ "$(json "$J" 'd["settings"]["on-error"]')" = continue ] || fail "EIO, continue: settings $(json "$J" 'd["settings"]')"
grep -q "rand-read 64k qd4 j2: [0-9]* I/O errors, first: Input/output error at offset 1048576 (job [01]" "$T/cont.err" ||
	fail "EIO, continue: no warning naming the errors: $(cat "$T/cont.err")"
echo "ok   EIO at 1 MiB, --on-error continue: exit 1, both tests, $got errors = labfs's $eio EIO"
lab_stop

# ---- a device that vanishes in the second test --------------------------
lab_start --size 16m --vanish-after 3s --vanish-mode exit
lab_loop
lab_arm
db gone --test seq-read,rand-read --engine sync --bs 4k --runtime 2s --ramp 0 --on-error continue "$LAB_DEV"
[ "$rc" -eq 1 ] || fail "vanish: exit $rc, want 1: $(cat "$T/gone.err")"
J=$T/gone.json
[ "$(json "$J" '[t["errors"] for t in d["tests"]]')" = "[0, 1]" ] ||
	[ "$(json "$J" 'len(d["tests"]) == 2 and d["tests"][0]["errors"] == 0 and d["tests"][1]["errors"] > 0')" = True ] ||
	fail "vanish: want the first test whole, the second with errors: $(json "$J" '[(t["name"], t["errors"]) for t in d["tests"]]')"
grep -q "rand-read 4k qd1: the device stopped answering: Input/output error at offset [0-9]*, then a read of its first block failed" "$T/gone.err" ||
	fail "vanish: no clear error: $(cat "$T/gone.err")"
lab_alive "$LAB_PID" && fail "vanish: labfs still runs"
dev=$LAB_DEV mnt=$LAB_MNT
lab_stop
losetup -l -n -O BACK-FILE "$dev" 2>/dev/null | grep -q "^$mnt/" && fail "vanish: $dev left attached"
echo "ok   a device vanishing in the second test: exit 1, said so, the first test reported"

# ---- short reads on the file labfs serves: errors, never whole blocks -----
# (8 KiB blocks: diskbench's own 4 KiB reads of the target, its probes, are
# not the test's)
lab_start --size 16m --short-read 1k:5
lab_arm
db short --test rand-read --engine sync --bs 8k --runtime 1s --ramp 0 --on-error continue "$LAB_FILE"
[ "$rc" -eq 1 ] || fail "short reads: exit $rc, want 1: $(cat "$T/short.err")"
J=$T/short.json
served=$(lab_requests read | awk '$4 == 8192' | wc -l)
short=$(lab_requests read | awk '$4 == 8192 && $7 == 1024' | wc -l)
[ "$(json "$J" 'd["tests"][0]["errors"]')" -eq "$short" ] && [ "$short" -gt 0 ] ||
	fail "short reads: $(json "$J" 'd["tests"][0]["errors"]') errors, labfs answered $short short"
[ "$(json "$J" 'd["tests"][0]["ops"] + d["tests"][0]["errors"]')" -le "$served" ] ||
	fail "short reads: ops + errors over the $served reads served"
[ "$(json "$J" '(lambda t: t["bytes"] == t["ops"] * 8192)(d["tests"][0])')" = True ] ||
	fail "short reads: bytes are not whole blocks of the ops: $(json "$J" 'd["tests"][0]["bytes"]')"
[ "$(json "$J" '(lambda e: (e["errno"], e["message"], e["bytes"], e["len"]))(d["tests"][0]["io_errors"][0])')" = "(0, 'short transfer', 1024, 8192)" ] ||
	fail "short reads: io_errors $(json "$J" 'd["tests"][0]["io_errors"][:2]')"
grep -q "short transfer (1024 of 8192 bytes) at offset" "$T/short.err" || fail "short reads: warning $(cat "$T/short.err")"
echo "ok   short reads on the served file: $short errors of errno 0 (1 KiB of 8 KiB), none counted whole"
lab_stop

echo PASS
exit 0
