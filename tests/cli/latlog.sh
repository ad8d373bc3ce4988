#!/bin/bash
# latlog.sh - --lat-log: one line per request, the window's lines the histogram's samples.
#
# With the null engine on a file (no root): the lines of each test and run
# follow its '# test' line; the window's lines that moved all their bytes
# are the JSON's ops, and their exact percentiles are the JSON's within the
# histogram's error (1/128); slots stay below qd and each slot's requests
# run one after another; phases go ramp, window, after; jobs are numbered;
# --repeat gives a run each; a full job says how many it dropped (never
# silently); a file test says it is not logged; bad values, a plan whose log
# cannot fit in memory and a path that is no file are refused before
# anything runs (exit 2, nothing written, no old file replaced).
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /dev/shm
T=$TMP_DIR
cd "$T" || fail "cd $T"
truncate -s 64m img || fail "truncate"

# check LOG JSON QD [ENTRIES]: the log against the result, test by test
# (ENTRIES: each job's part holds at most this many)
check()
{
	python3 - "$@" <<'EOF' || fail "$1 against $2 (see above)"
import json, sys
log, res, qd = sys.argv[1], sys.argv[2], int(sys.argv[3])
cap = int(sys.argv[4]) if len(sys.argv) > 4 else None
ERR = 1.0 / 128
tests = json.load(open(res))["tests"] if res != "-" else None
runs, cur, errs = {}, None, []
order = {"ramp": 0, "window": 1, "after": 2}
for line in open(log):
    f = line.split()
    if line.startswith("# test ") and f[5] == "job":
        continue                         # a job's dropped line
    if line.startswith("# test "):
        cur = (int(f[2]), int(f[4]))
        runs[cur] = {"jobs": int(f[6]), "logged": int(f[8]), "dropped": int(f[10].rstrip(":")),
                     "lines": []}
        continue
    if line.startswith("#"):
        continue
    assert cur, "a request before any '# test' line"
    assert len(f) == 12, "not 12 fields: %r" % line
    t, r, job, slot, op, off, nbytes, sub, comp, lat, result, phase = f
    assert (int(t), int(r)) == cur, "a line of test %s run %s under %r" % (t, r, cur)
    runs[cur]["lines"].append((int(job), int(slot), op, int(off), int(nbytes), int(sub),
                               int(comp), int(lat), int(result), phase))
for (ti, ri), run in sorted(runs.items()):
    L = run["lines"]
    if len(L) != run["logged"]:
        errs.append("test %d run %d: %d lines, its line says %d" % (ti, ri, len(L), run["logged"]))
    win = sorted(l[7] for l in L if l[9] == "window" and l[8] == l[4])
    last, phase, seen_jobs = {}, {}, set()
    for job, slot, op, off, nb, sub, comp, lat, result, ph in L:
        seen_jobs.add(job)
        if not 0 <= slot < qd:
            errs.append("slot %d out of 0..%d" % (slot, qd - 1))
        if lat != comp - sub or lat < 0:
            errs.append("LAT_NS %d is not %d - %d" % (lat, comp, sub))
        if sub < last.get((job, slot), 0):
            errs.append("job %d slot %d submitted at %d, before its last came back at %d"
                        % (job, slot, sub, last[(job, slot)]))
        last[(job, slot)] = comp
        if order[ph] < phase.get(job, 0):
            errs.append("job %d: %s after a later phase" % (job, ph))
        phase[job] = order[ph]
    if seen_jobs - set(range(run["jobs"])):
        errs.append("jobs %r beyond %d" % (sorted(seen_jobs), run["jobs"]))
    if cap is not None:
        continue                         # a capped log holds only the first
    if run["dropped"]:
        errs.append("test %d run %d dropped %d" % (ti, ri, run["dropped"]))
    t = tests[ti - 1]
    r0 = t["runs"][ri - 1] if len(t.get("runs", [])) >= ri else t
    n = r0["ops"]
    if len(win) != n:
        errs.append("test %d run %d: %d window lines, ops %d" % (ti, ri, len(win), n))
        continue
    if len(t.get("runs", [])) > 1:
        continue                         # the percentiles are over all runs
    p = t["lat_ns"]["percentiles"]
    for q in ("50", "99", "99.9"):
        # the histogram's nearest rank, in integers as hist_rank computes it
        k = min(n, max(1, (round(float(q) * 1e6) * n + 10**8 - 1) // 10**8))
        x = win[k - 1]
        if abs(p[q] - x) > x * ERR + 1:
            errs.append("test %d p%s %d, exact %d" % (ti, q, p[q], x))
for e in errs[:10]:
    print("FAIL:", e)
sys.exit(1 if errs else 0)
EOF
}

# 1. Two tests, two jobs as processes, a ramp.
"$DISKBENCH" --engine null --test rand-read,seq-write --bs 4k --qd 4 --jobs 2 --destructive \
	--runtime 2ms --ramp 2ms --quiet --json a.json --lat-log a.log \
	--lat-log-max 10000000 img 2>err || fail "exit $?: $(cat err)"
[ "$(grep -c '^# test ' a.log)" -eq 2 ] || fail "want 2 '# test' lines: $(grep '^# test' a.log)"
grep -q '^# TEST RUN JOB SLOT OP OFFSET BYTES SUBMIT_NS COMPLETE_NS LAT_NS RESULT PHASE$' a.log ||
	fail "no column line"
grep -q ' write .* window$' a.log || fail "no write in seq-write's window"
check a.log a.json 4
[ "$(json a.json 'd["settings"]["lat_log_max"]')" = 10000000 ] || fail "lat_log_max not echoed"

# 2. --repeat: a run each; threads.
"$DISKBENCH" --engine null --test rand-read --qd 2 --runtime 2ms --ramp 0 --repeat 2 \
	--thread --quiet --json b.json --lat-log b.log --lat-log-max 10000000 img 2>err ||
	fail "exit $?: $(cat err)"
grep -q '^# test 1 run 2 jobs 1 ' b.log || fail "no run 2: $(grep '^# test' b.log)"
grep -q ' ramp$' b.log && fail "ramp lines with --ramp 0"
check b.log b.json 2

# 3. A small cap: the first N of each job, the rest counted and said (50 ms:
# a job descheduled for a few ms still does its 1000).
"$DISKBENCH" --engine null --test rand-read --qd 8 --jobs 2 --runtime 50ms --ramp 0 --quiet \
	--lat-log c.log --lat-log-max 1000 img 2>err || fail "exit $?: $(cat err)"
[ "$(grep -vc '^#' c.log)" -eq 2000 ] || fail "want 2000 lines, got $(grep -vc '^#' c.log)"
grep -Eq '^# test 1 run 1 jobs 2 logged 2000 dropped [1-9][0-9]*: ' c.log ||
	fail "no dropped count: $(grep '^# test' c.log)"
grep -Eq '^# test 1 run 1 job 1: [1-9][0-9]* requests not logged, after its first 1000 ' c.log ||
	fail "job 1's drop not said: $(grep '^# test' c.log)"
check c.log - 8 1000

# 4. A file test keeps no log, and says so; stdout works.
mkdir d
"$DISKBENCH" --test char-write --size 1m --runtime 20ms --ramp 0 --quiet \
	--lat-log - d >d.log 2>err || fail "exit $?: $(cat err)"
grep -q '^# test 1 run 1 jobs 1 logged 0 dropped 0: char-write.*not logged' d.log ||
	fail "file test: $(grep '^# test' d.log)"

# 5. Refused before anything runs: nothing written, an old file kept.
echo old >old.log
expect_usage "--lat-log-max: only with --lat-log" --engine null --lat-log-max 10 img
expect_usage "--lat-log-max: value out of range: '0'" --engine null --lat-log old.log \
	--lat-log-max 0 img
expect_usage "--lat-log-max: invalid" --engine null --lat-log old.log --lat-log-max 1x img
expect_usage "lower --lat-log-max" --engine null --test rand-read --jobs 4 --lat-log old.log \
	--lat-log-max 68719476736 img
expect_usage "--lat-log d: is a directory" --engine null --lat-log d img
expect_usage "two documents on one stdout" --engine null --lat-log - --json - img
[ "$(cat old.log)" = old ] || fail "a refused run changed old.log"
ls old.log.* >/dev/null 2>&1 && fail "a temporary file was left"
# a run that measured nothing (a bad target) writes none either
"$DISKBENCH" --engine null --lat-log old.log /nonexistent >/dev/null 2>&1
[ "$(cat old.log)" = old ] || fail "a run that never started replaced old.log"
echo "PASS"
