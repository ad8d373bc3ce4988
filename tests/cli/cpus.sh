#!/bin/bash
# cpus.sh - --cpus puts job i on the i-th CPU of its list, and only there;
# without it the jobs keep the CPUs the process was given. Observed from
# outside, in /proc: each job is named diskbench-jN, a process in a session
# of its own, one job too, a file test's too (a thread of diskbench's with
# --thread), and its
# allowed CPUs and the CPU it last ran on are
# the kernel's word.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /tmp
cd "$TMP_DIR" || fail "cd"
mkdir dir

# The online CPUs, from the affinity this test was given (not all of
# /sys's may be ours).
read -ra CPUS <<<"$(python3 -c 'import os; print(*sorted(os.sched_getaffinity(0)))')"
[ ${#CPUS[@]} -ge 2 ] || skip "needs 2 CPUs to pin 2 jobs apart; have ${CPUS[*]}"
A=${CPUS[0]}
B=${CPUS[1]}
ALL=$(sed -n 's/^Cpus_allowed_list:[[:space:]]*//p' /proc/$$/status)

# jobs_seen PID N: waits (up to 5 s) until the N jobs of PID (its threads,
# or its child processes) are named and pinned as they will stay, then
# prints "name kind allowed last-cpu" per job, sorted by name; kind is
# "thread" (of PID), "session" (a child leading a session of its own) or
# "child" (one that does not).
jobs_seen()
{
	python3 - "$1" "$2" <<'EOF'
import os, sys, time
pid, n = sys.argv[1], int(sys.argv[2])
seen, last, same = None, None, 0
for _ in range(100):
    rows = []
    try:
        tasks = [(pid, t) for t in os.listdir("/proc/%s/task" % pid)]
        for t in list(tasks):
            for c in open("/proc/%s/task/%s/children" % t).read().split():
                tasks += [(c, ct) for ct in os.listdir("/proc/%s/task" % c)]
        for proc, tid in tasks:
            base = "/proc/%s/task/%s/" % (proc, tid)
            name = open(base + "comm").read().strip()
            if not name.startswith("diskbench-j"):
                continue
            # field 6 of stat (the session), counted after the ")"
            sid = open(base + "stat").read().rsplit(")", 1)[1].split()[3]
            kind = "thread" if proc == pid else "session" if sid == tid else "child"
            allowed = next(l.split()[1] for l in open(base + "status")
                           if l.startswith("Cpus_allowed_list:"))
            # field 39 of stat, counted after the ")" that ends comm
            cpu = open(base + "stat").read().rsplit(")", 1)[1].split()[36]
            rows.append((name, kind, allowed, cpu))
    except (FileNotFoundError, ProcessLookupError, StopIteration):
        pass
    rows.sort()
    # pinned before the first I/O: the same three times (100 ms) with
    # every job there
    same = same + 1 if len(rows) == n and rows == last else 0
    last = rows
    if same == 2:
        seen = rows
        break
    time.sleep(0.05)
for r in seen or last or []:
    print(*r)
EOF
}

# expect_jobs N FIELDS WANT [OPTION...]: runs N null-engine jobs for 3 s
# with OPTIONs; while they run, each job's "name kind allowed last-cpu"
# (the first FIELDS of them) must be WANT's line for it; then the run must
# exit 0.
expect_jobs()
{
	local n=$1 fields=$2 want=$3 seen pid what
	shift 3
	what="--jobs $n${*:+ $*}"
	"$DISKBENCH" --engine null --test rand-read --qd 1 --jobs "$n" "$@" --runtime 3s \
		--ramp 0 --quiet --json out.json dir 2>err.txt &
	pid=$!
	seen=$(jobs_seen "$pid" "$n" | cut -d' ' -f1-"$fields")
	[ "$seen" = "$want" ] || fail "$what: saw
$seen
wanted
$want"
	wait "$pid" || fail "$what: exit $?: $(cat err.txt)"
}

# 2 jobs on 2 CPUs: job 0 on the first, job 1 on the second, each only there
expect_jobs 2 4 "diskbench-j0 session $A $A
diskbench-j1 session $B $B" --cpus "$A,$B"
# the other order of the list is the other placement
expect_jobs 2 4 "diskbench-j0 session $B $B
diskbench-j1 session $A $A" --cpus "$B,$A"
# the same as threads
expect_jobs 2 4 "diskbench-j0 thread $A $A
diskbench-j1 thread $B $B" --cpus "$A,$B" --thread
# 3 jobs on 1 CPU: they share it (and were warned: usage.sh)
expect_jobs 3 4 "diskbench-j0 session $B $B
diskbench-j1 session $B $B
diskbench-j2 session $B $B" --cpus "$B"
# no --cpus: every job may run on every CPU this process may
expect_jobs 2 3 "diskbench-j0 session $ALL
diskbench-j1 session $ALL"
# one job is a process too, pinned or not (a stuck one can be let go)
expect_jobs 1 4 "diskbench-j0 session $B $B" --cpus "$B"
expect_jobs 1 3 "diskbench-j0 session $ALL"
# a file test's jobs are processes as well (its own I/O, its own files)
"$DISKBENCH" --test meta-stat --files 256 --jobs 2 --cpus "$A,$B" --runtime 3s --ramp 0 \
	--quiet --json out.json dir 2>err.txt &
pid=$!
seen=$(jobs_seen "$pid" 2 | cut -d' ' -f1-4)
[ "$seen" = "diskbench-j0 session $A $A
diskbench-j1 session $B $B" ] || fail "meta-stat --jobs 2: saw
$seen"
wait "$pid" || fail "meta-stat --jobs 2: exit $?: $(cat err.txt)"
[ "$(ls dir)" = "" ] || fail "meta-stat --jobs 2: left $(ls dir)"
exit 0
