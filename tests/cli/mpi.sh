#!/bin/bash
# mpi.sh - diskbench-mpi over mpirun on this one host, loopback only: the
# sums are the ranks' sums, the merged histogram holds every rank's I/Os,
# barriers keep the tests in step, a refusing rank stops every rank before
# anything is written, a killed rank ends the run (no hang), bad targets
# exit 2, a rank stuck past mpirun --timeout ends the run, and diskbench
# report and compare read the result.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
[ -n "${DISKBENCH_MPI:-}" ] && [ -x "$DISKBENCH_MPI" ] ||
	skip "diskbench-mpi was not built (configure found no MPI: apt-get install libopenmpi-dev openmpi-bin)"
need_cmd mpirun python3 timeout
make_tmpdir /dev/shm
T=$TMP_DIR
cd "$T" || fail "cd"

# Open MPI refuses root unless told twice; the ranks talk over shared
# memory and mpirun to them over loopback only.
if [ "$(id -u)" -eq 0 ]; then
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi
export OMPI_MCA_btl=self,vader OMPI_MCA_oob_tcp_if_include=lo OMPI_MCA_btl_tcp_if_include=lo
# mpirun asks for this many slots of a 2-core machine. In a sanitizer build
# LeakSanitizer would fail every rank on Open MPI 4.1's own leaks at exit
# (allocations of its components, which it has unloaded by then, so no
# suppression can name them): the ranks run without leak checking; the run
# code they share with diskbench is leak-checked by the other tests.
MPIRUN=(env "ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0"
	timeout 60 mpirun --oversubscribe)
RUN=(--engine null --ramp 0 --runtime 200ms)

# mpi_stop NAME RC PATTERN NP ARGS...: diskbench-mpi ARGS on NP ranks exits
# RC, says PATTERN once (one rank says it), and writes no NAME.json.
mpi_stop()
{
	local name=$1 want=$2 pat=$3 np=$4 rc
	shift 4
	"${MPIRUN[@]}" -np "$np" "$DISKBENCH_MPI" "$@" --json "$name.json" >"$name.out" 2>"$name.err"
	rc=$?
	[ "$rc" -eq "$want" ] || fail "$name: exit $rc, want $want: $(cat "$name.err")"
	[ "$(grep -c -- "$pat" "$name.err")" -eq 1 ] ||
		fail "$name: want one line saying '$pat': $(cat "$name.err")"
	[ -e "$name.json" ] && fail "$name: a result was written"
	return 0
}

# mpi_start N NAME MPIRUN-ARGS... -- ARGS...: mpirun MPIRUN-ARGS
# diskbench-mpi ARGS --json NAME.json on 4 ranks in the background (its pid
# in job, output in NAME.out and NAME.err); victim is the N-th rank's pid
# once they run.
mpi_start()
{
	local n=$1 name=$2 pre=() p
	shift 2
	while [ "$1" != -- ]; do
		pre+=("$1")
		shift
	done
	shift
	# mpirun stops a job with SIGTERM, then SIGKILL after this many
	# seconds (1 by default): on a loaded 2-core machine a rank may need
	# more to remove its scratch directory. (Not for every run: mpirun
	# waits as long for ranks that exit non-zero by themselves.)
	OMPI_MCA_odls_base_sigkill_timeout=5 "${MPIRUN[@]}" "${pre[@]}" -np 4 "$DISKBENCH_MPI" \
		"$@" --json "$name.json" >"$name.out" 2>"$name.err" &
	job=$!
	victim=
	for _ in $(seq 100); do
		sleep 0.1
		# the ranks are mpirun's children (timeout's grandchildren) here
		for p in $(pgrep -P "$job"); do
			victim=$(pgrep -P "$p" -x diskbench-mpi | sed -n "${n}p")
		done
		[ -n "$victim" ] && return 0
	done
	kill "$job"
	fail "found no rank $n to stop"
}

# ---- 4 ranks: sums, the merged histogram, barriers, the report ---------------
mkdir -p d0 d1 d2 d3 hist
DISKBENCH_MPI_HIST_DIR=$T/hist "${MPIRUN[@]}" -np 4 "$DISKBENCH_MPI" "${RUN[@]}" \
	--test seq-read,rand-write --qd 1,8 --json four.json "$T/d%r" >four.txt 2>four.err ||
	fail "np 4: exit $?: $(cat four.err)"
python3 - four.json hist <<'PY' || fail "np 4: see above"
import json, sys
d = json.load(open(sys.argv[1]))
m = d["mpi"]
assert m["ranks"] == 4 and len(m["rank_info"]) == 4, m
assert [r["target"].rsplit("/", 1)[1] for r in m["rank_info"]] == ["d0", "d1", "d2", "d3"], m
assert len(m["hosts"]) == 1 and not m["versions_differ"], m
tests = d["tests"]
assert len(tests) == 4, [t["name"] for t in tests]
for t in tests:
    rk = t["ranks"]
    assert len(rk) == 4 and [r["rank"] for r in rk] == [0, 1, 2, 3], t["name"]
    assert all(r["ops"] > 0 for r in rk), (t["name"], rk)
    assert t["ops"] == sum(r["ops"] for r in rk), t["name"]
    assert t["bytes"] == sum(r["bytes"] for r in rk), t["name"]
    # the slowest rank's window, and the rate over it
    assert t["runtime_ns"] == max(r["runtime_ns"] for r in rk), t["name"]
    assert abs(t["bytes_per_sec"] - t["bytes"] / t["runtime_ns"] * 1e9) <= 1e-6 * t["bytes_per_sec"] + 1
    lat = t["lat_ns"]
    n = sum(c for _, c in lat["histogram"])
    assert n == t["ops"], (t["name"], n, t["ops"])
    assert n == sum(r["lat_ns"]["n"] for r in rk), t["name"]
    assert lat["sum"] == sum(r["lat_ns"]["sum"] for r in rk), t["name"]
    assert lat["min"] == min(r["lat_ns"]["min"] for r in rk), t["name"]
    assert lat["max"] == max(r["lat_ns"]["max"] for r in rk), t["name"]
    # exactly: the merged histogram is the bucket-by-bucket sum of the
    # ranks' own (each rank wrote its own, before the reduction)
    k = tests.index(t)
    own = {}
    for rank in range(4):
        for line in open("%s/rank%d-test%d.hist" % (sys.argv[2], rank, k)):
            low, c = map(int, line.split())
            own[low] = own.get(low, 0) + c
    assert own == {low: c for low, c in lat["histogram"]}, (t["name"], "histograms differ")
    im = t["imbalance"]
    rates = [r["bytes_per_sec"] for r in rk]
    assert rk[im["slowest_rank"]]["bytes_per_sec"] == min(rates), (im, rates)
    assert rk[im["fastest_rank"]]["bytes_per_sec"] == max(rates), (im, rates)
    assert 0 <= im["spread"] < 1, im
# barriers: every window of test k+1 opens after every window of test k closed
for a, b in zip(tests, tests[1:]):
    end = max(r["end_ns"] for r in a["ranks"])
    start = min(r["start_ns"] for r in b["ranks"])
    assert start >= end, (a["name"], end, b["name"], start)
for t in tests:
    for r in t["ranks"]:
        assert r["end_ns"] - r["start_ns"] >= r["runtime_ns"], (t["name"], r)
PY
grep -q "^ranks: 4 on 1 host" four.txt || fail "np 4: no ranks line in the text: $(cat four.txt)"
grep -q "^imbalance per test" four.txt || fail "np 4: no imbalance table: $(cat four.txt)"
ls -d d?/diskbench.* >/dev/null 2>&1 && fail "np 4: left a scratch directory: $(ls d?)"

# ---- 2 ranks of 2 jobs: each rank forks its job processes -------------------
mkdir -p j0 j1
"${MPIRUN[@]}" -np 2 "$DISKBENCH_MPI" "${RUN[@]}" --test rand-read --jobs 2 --json jobs.json \
	"$T/j%r" >jobs.txt 2>jobs.err || fail "np 2 --jobs 2: exit $?: $(cat jobs.err)"
python3 - jobs.json <<'PY' || fail "np 2 --jobs 2: see above"
import json, sys
t = json.load(open(sys.argv[1]))["tests"][0]
rk = t["ranks"]
assert t["jobs"] == 2 and len(rk) == 2 and all(r["ops"] > 0 for r in rk), t
assert t["ops"] == sum(r["ops"] for r in rk) == sum(c for _, c in t["lat_ns"]["histogram"]), t
assert all(r["lat_ns"]["n"] == r["ops"] for r in rk), rk
# the ranks' stall watches, gathered: nothing stood still, so the window is
# the slowest rank's whole
assert t["stalls"] == [] and t["stalls_missed"] == 0, t["stalls"]
assert t["window"]["method"] == "longest job window", t["window"]
assert t["window"]["span_ns"] == t["runtime_ns"] == max(r["runtime_ns"] for r in rk), t["window"]
PY

# diskbench report and compare read it like any result; the report is
# the run's own table, ranks and imbalance included
"$DISKBENCH" report four.json >report.txt 2>report.err || fail "report: exit $?: $(cat report.err)"
grep -q "^seq-read 1m qd1" report.txt || fail "report: $(cat report.txt)"
diff four.txt report.txt >report.diff || fail "report: differs from the run's: $(cat report.diff)"
"$DISKBENCH" report --csv - four.json >four.csv 2>>report.err || fail "report --csv: exit $?"
[ "$(wc -l <four.csv)" -eq 5 ] || fail "report --csv: want a header and 4 rows: $(cat four.csv)"
"$DISKBENCH" report --quiet --html four.html four.json 2>>report.err || fail "report --html: exit $?"
if command -v xmllint >/dev/null; then
	xmllint --noout four.html || fail "four.html is not well-formed"
fi
python3 "$srcdir/tests/cli/check_html.py" page four.html --json four.json >html.out ||
	fail "four.html against four.json: $(cat html.out)"
[ "$(grep -o 'data-key="tests\.[0-9]*\.imbalance\.' four.html | wc -l)" -eq 20 ] ||
	fail "four.html: want 5 imbalance figures for each of 4 tests"
"$DISKBENCH" compare --quiet four.json four.json >cmp.txt 2>cmp.err ||
	fail "compare: exit $?: $(cat cmp.err)"

# ---- a job process of one rank stopped: named with its rank ------------------
rm -rf j0/diskbench.* j1/diskbench.*
"${MPIRUN[@]}" -np 2 "$DISKBENCH_MPI" --engine sync --ramp 0 --runtime 3s --size 16m \
	--test rand-read --jobs 2 --json stall.json "$T/j%r" >stall.txt 2>stall.err &
job=$!
jp=
for i in $(seq 500); do
	# a rank's job 1 (its own test's: the command line names the target)
	jp=$(pgrep -f -x -- ".*--json stall\.json $T/j%r") || true
	for p in $jp; do
		[ "$(cat "/proc/$p/comm" 2>/dev/null)" = diskbench-j1 ] && { jp=$p; break; }
		jp=
	done
	[ -n "$jp" ] && break
	sleep 0.01
done
[ -n "$jp" ] || fail "stall: no job 1 process"
at_exit "kill -CONT $jp 2>/dev/null"
# in its loop (reading), not its setup
for i in $(seq 400); do
	[ "$(awk '/^syscr:/ { print $2 }' "/proc/$jp/io" 2>/dev/null || echo 0)" -gt 100 ] && break
	sleep 0.01
done
sleep 0.3
kill -STOP "$jp"
sleep 3
kill -CONT "$jp"
wait "$job" || fail "stall: exit $?: $(cat stall.err)"
python3 - stall.json <<'PY' || fail "stall: see above: $(cat stall.err)"
import json, sys
d = json.load(open(sys.argv[1]))
t = d["tests"][0]
assert len(t["stalls"]) == 1, t["stalls"]
s = t["stalls"][0]
assert any("rank %d's job 1 for" % s["rank"] in w for w in d["warnings"]), d["warnings"]
assert s["job"] == 1 and s["rank"] in (0, 1) and 2.5 <= s["seconds"] <= 3.5, s
assert t["window"]["method"] == "longest job window less its stalls", t["window"]
# the slowest rank's window, each less its own stall: about the 3 s runtime
assert t["runtime_ns"] == max(r["runtime_ns"] for r in t["ranks"]) < 3.5e9, t["ranks"]
# and the span with the stop: job 1's window lasted past its stall's end
assert t["window"]["span_ns"] > t["runtime_ns"], t["window"]
assert t["window"]["span_ns"] >= s["start_ns"] + s["seconds"] * 1e9 - 0.2e9, (t["window"], s)
PY

# ---- -np 1 is a plain run: the same tests, every key the plain binary writes --
"${MPIRUN[@]}" -np 1 "$DISKBENCH_MPI" "${RUN[@]}" --test rand-read --json one.json "$T/d0" \
	>/dev/null 2>one.err || fail "np 1: exit $?: $(cat one.err)"
"$DISKBENCH" "${RUN[@]}" --test rand-read --json plain.json "$T/d0" >/dev/null 2>plain.err ||
	fail "plain: exit $?: $(cat plain.err)"
python3 - one.json plain.json <<'PY' || fail "np 1: see above"
import json, sys
one, plain = (json.load(open(f)) for f in sys.argv[1:])
def keys(v, p=""):
    if isinstance(v, dict):
        return {p + "/" + k for k in v} | set().union(*(keys(x, p + "/" + k) for k, x in v.items()))
    if isinstance(v, list) and v and isinstance(v[0], dict):
        return keys(v[0], p + "[]")
    return set()
missing = keys(plain) - keys(one)
assert not missing, missing
assert [t["name"] for t in one["tests"]] == [t["name"] for t in plain["tests"]]
assert one["mpi"]["ranks"] == 1 and len(one["tests"][0]["ranks"]) == 1
t = one["tests"][0]
assert t["ops"] == t["ranks"][0]["ops"] == sum(c for _, c in t["lat_ns"]["histogram"])
# one rank keeps its timeline: nothing to merge
assert t["timeline"] is not None
PY

# ---- a shared directory: a private scratch directory for each rank ----------
mkdir -p shared
"${MPIRUN[@]}" -np 3 "$DISKBENCH_MPI" "${RUN[@]}" --test seq-write --json shared.json \
	"$T/shared" >/dev/null 2>shared.err || fail "shared dir: exit $?: $(cat shared.err)"
[ "$(json shared.json 'len(d["tests"][0]["ranks"])')" -eq 3 ] || fail "shared dir: not 3 ranks"
ls -A shared | grep -q . && fail "shared dir: left $(ls -A shared)"

# ---- --verify: every rank's read-back in the merged test ----------------------
"${MPIRUN[@]}" -np 3 "$DISKBENCH_MPI" --engine sync --size 4m --ramp 0 --runtime 200ms \
	--test seq-write --verify --json verify.json "$T/d%r" >/dev/null 2>verify.err ||
	fail "--verify: exit $?: $(cat verify.err)"
python3 - verify.json <<'PY' || fail "--verify: see above"
import json, sys
v = json.load(open(sys.argv[1]))["tests"][0]["verify"]
# each rank reads back at most its own 4 MiB: more than that is more than one rank's
assert v["bad"] == 0 and 4 << 20 < v["bytes"] <= 3 * (4 << 20), v
PY

# ---- a rank that cannot run stops every rank, nothing written ----------------
rm -rf d2
mpi_stop gone 2 "rank 2 stopped the run before anything was written" 4 "${RUN[@]}" \
	--test seq-write "$T/d%r"
grep -q "rank 2: $T/d2" gone.err || fail "missing d2: rank 2 does not say why: $(cat gone.err)"
ls -A d0 d1 d3 | grep -q diskbench && fail "missing d2: a rank wrote: $(ls -A d0 d1 d3)"
mkdir d2

if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null; then
	# rank 2's target is a block device, read-only without --destructive:
	# the write test is refused there, and so everywhere
	make_loop 8 random
	sum=$(md5sum <"$LOOP_DEV")
	rmdir d2 && ln -s "$LOOP_DEV" d2
	mpi_stop ro 3 "rank 2 stopped the run before anything was written: refused" 4 \
		"${RUN[@]}" --test seq-write "$T/d%r"
	[ "$(md5sum <"$LOOP_DEV")" = "$sum" ] || fail "read-only rank: the device was written"
	ls -A d0 d1 d3 | grep -q diskbench && fail "read-only rank: a rank wrote: $(ls -A d0 d1 d3)"
	rm d2 && mkdir d2
fi

# ---- bad targets: one line, exit 2 --------------------------------------------
mpi_stop bad 2 "unknown placeholder %x" 2 "${RUN[@]}" --test rand-read "$T/d%x"
# each rank would end its rounds on its own: not in step
mpi_stop steady 2 "^diskbench-mpi: rank 0: --steady-state: not in a coordinated run" 2 \
	"${RUN[@]}" --test rand-read --steady-state "$T/d%r"
mpi_stop precond 2 "^diskbench-mpi: rank 0: --precondition runs each test until steady" 2 \
	--engine sync --size 4m --runtime 200ms --test rand-read --precondition "$T/d%r"
ls -A d0 d1 | grep -q diskbench && fail "--steady-state: a rank wrote: $(ls -A d0 d1)"
# %h is the same on both ranks of this host: one scratch place for two
mkdir -p "d$(hostname)"
mpi_stop dup 2 "ranks 0 and 1 on .* both get" 2 "${RUN[@]}" --test rand-read "$T/d%h"
ls -A "d$(hostname)" | grep -q diskbench && fail "%h twice: a rank wrote"

# rank 1's target is a file: its plan (the working set) is not rank 0's
head -c 4M /dev/urandom >f1
rm -rf d1 && ln -s "$T/f1" d1
mpi_stop plan 2 "rank 1 .* its plan .* differs from rank 0" 3 "${RUN[@]}" --test rand-read \
	"$T/d%r"
rm d1 && mkdir d1

# ---- a rank killed mid-run ends the run, with an error, without a hang -------
# real scratch files (buffered: tmpfs took no O_DIRECT before Linux 6.6),
# so that the survivors' cleanup shows
SLOW=(--engine sync --buffered --size 4m --ramp 0 --runtime 30s --test rand-read)
mpi_start 3 killed -- "${SLOW[@]}" "$T/d%r"
# well into the test
sleep 1.5
t0=$(date +%s)
kill -9 "$victim"
wait "$job"
rc=$?
took=$(($(date +%s) - t0))
[ "$rc" -ne 0 ] || fail "killed rank: exit 0"
[ "$rc" -ne 124 ] || fail "killed rank: the others hung until timeout killed them"
[ "$took" -lt 30 ] || fail "killed rank: the run took ${took}s to end"
grep -qi "signal 9\|killed" killed.err || fail "killed rank: no clear error: $(cat killed.err)"
[ -e killed.json ] && fail "killed rank: a result was written"
# mpirun stops the survivors with SIGTERM: they remove their scratch
# directories; only the killed rank's is left
left=$(ls -d d?/diskbench.* 2>/dev/null | wc -l)
[ "$left" -eq 1 ] || fail "killed rank: want the killed rank's scratch directory left, got: $(ls -A d?)"
msg "killed rank: exit $rc after ${took}s"

# the next run: the rank whose directory holds the killed scratch says so,
# in rank 0's report
k=$(ls -d d?/diskbench.* | sed 's|^d\([0-9]\)/.*|\1|')
"${MPIRUN[@]}" -np 4 "$DISKBENCH_MPI" "${RUN[@]}" --test rand-read --json next.json "$T/d%r" \
	>/dev/null 2>next.err || fail "after the kill: exit $?: $(cat next.err)"
who="rank $k: "
[ "$k" = 0 ] && who=	# rank 0's own warnings carry no rank
json next.json 'd["warnings"]' | grep -q "\"${who}1 scratch directory of a killed run is left in $T/d$k" ||
	fail "after the kill: rank $k's warning is not in the report: $(json next.json 'd["warnings"]')"

# ---- a rank stuck (its storage hangs: SIGSTOP here) under mpirun --timeout -----
rm -rf d?/diskbench.*
# (mpirun sends SIGCONT before SIGTERM: the test outlasts the time limit,
# so that the stopped rank cannot finish in between)
mpi_start 2 stuck --timeout 6 -- "${SLOW[@]}" "$T/d%r"
sleep 1
kill -STOP "$victim"
wait "$job"
rc=$?
[ "$rc" -ne 0 ] && [ "$rc" -ne 124 ] || fail "stuck rank: exit $rc (0: ran on; 124: hung)"
grep -q "time limit for job execution has been reached" stuck.err ||
	fail "stuck rank: no clear error: $(cat stuck.err)"
[ -e stuck.json ] && fail "stuck rank: a result was written"
ls -d d?/diskbench.* >/dev/null 2>&1 && fail "stuck rank: scratch left: $(ls -A d?)"
exit 0
