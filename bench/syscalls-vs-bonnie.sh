#!/bin/bash
# syscalls-vs-bonnie.sh - calls per file of each create/stat/delete test, diskbench vs bonnie++.
#
# Usage: [DISKBENCH=path] [FILES=4096] [FILE_SIZE=0] [DIR=/var/tmp] bench/syscalls-vs-bonnie.sh
#
# Counts calls, it does not time anything: the numbers do not depend on
# the machine's load, and the tools run under strace (slow) on purpose.
#
# Both tools work in one private directory made under DIR (removed on
# exit), on FILES files of FILE_SIZE bytes (0: empty; FILES a multiple of
# 1024) in one directory:
#   bonnie++ -d PRIVATE -s 0 -n FILES/1024:FILE_SIZE:FILE_SIZE:1
#            (its six file tests in turn; a stat test reads the data)
#   diskbench --engine sync --test T --files FILES --dirs 1 --file-size FILE_SIZE,
#             once per test T of meta-create, meta-stat, meta-delete and
#             their -rand variants (create and delete run until every file
#             is done, stat for 1 s: it re-stats the files in the test's order)
# each under strace -f -C (every thread, each call and the -c summary). A
# test's own work is what happens in
# its timed window, which both tools bracket with getrusage(): bonnie++
# calls getrusage(RUSAGE_SELF) at the start and the end of each test,
# diskbench's worker getrusage(RUSAGE_THREAD) where its window opens and
# closes. The table shows, per test, per file (bonnie++: FILES; diskbench:
# the ops its window counted), the calls of the thread doing the work
# between the two (the test's own work: what is compared), diskbench's own
# count from its JSON (syscalls.per_op, which should match), the calls of
# every thread in the window (diskbench's runner thread wakes on the
# timeline's interval: calls per second, not per file, and strace slows the
# files down), and the main calls of the work per file.
#
# Then the whole processes, strace's -c summaries: every call of bonnie++'s
# run of the six tests, and of the six diskbench runs of the same tests
# (with their stat tests' re-stats taken out, or the stats of the files they
# did not reach in their second added: each file stat'ed once). Each
# diskbench test makes the files it needs before its window and removes them
# after it (a test stands alone, and can be run alone); bonnie++ chains its
# tests, each one's files left for the next. So the whole runs differ by
# that setup and clean-up, not by the tests' own work.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
LIB_NAME=syscalls-vs-bonnie.sh
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

FILES=${FILES:-4096}
FILE_SIZE=${FILE_SIZE:-0}
DIR=${DIR:-/var/tmp}

bench_diskbench
need_cmd python3
command -v bonnie++ >/dev/null || apt_install bonnie++
command -v strace >/dev/null || apt_install strace

[[ $FILES =~ ^[1-9][0-9]*$ ]] && [ $((FILES % 1024)) -eq 0 ] ||
	{ echo "$LIB_NAME: bad FILES '$FILES' (a multiple of 1024: bonnie++ -n counts in 1024s)" >&2
	  exit 2; }
[[ $FILE_SIZE =~ ^[0-9]+$ ]] ||
	{ echo "$LIB_NAME: bad FILE_SIZE '$FILE_SIZE' (bytes)" >&2; exit 2; }
[ -d "$DIR" ] && [ -w "$DIR" ] ||
	{ echo "$LIB_NAME: DIR=$DIR is not a writable directory" >&2; exit 2; }
strace -f -qq -o /dev/null true 2>/dev/null ||
	{ echo "$LIB_NAME: strace cannot trace here (ptrace refused?)" >&2; exit 1; }

# bonnie++ refuses to run as root unless told which user to be.
BONNIE_USER=()
[ "$(id -u)" -eq 0 ] && BONNIE_USER=(-u root)

# Traces in RAM; the private directory gets only the tools' files.
make_tmpdir /dev/shm
OUT=$TMP_DIR
PRIV=$(mktemp -d "$DIR/syscalls-vs-bonnie.XXXXXX") || exit 1
at_exit "rm -rf -- '$PRIV'"
[ "$(id -u)" -eq 0 ] || chmod 700 "$PRIV"

TESTS="meta-create meta-stat meta-delete meta-create-rand meta-stat-rand meta-delete-rand"
META=(--engine sync --files "$FILES" --dirs 1 --file-size "$FILE_SIZE" --quiet)
BONNIE_N=$((FILES / 1024)):$FILE_SIZE:$FILE_SIZE:1

echo "# $("$DISKBENCH" --version 2>/dev/null | head -1), $(bonnie++ 2>&1 | grep -o 'Version: [^ ]*' |
	head -1 | sed 's/Version: /bonnie++ /'), $(strace -V | head -1)"
FS=$(df -P -T "$PRIV" | awk 'NR == 2 { print $2 }')
echo "# $FILES files of $FILE_SIZE bytes in one directory, in $PRIV ($FS)"

# bonnie++: its six tests in one run
(cd "$PRIV" && strace -f -qq -C -o "$OUT/bonnie.trace" bonnie++ -d "$PRIV" -s 0 \
	-n "$BONNIE_N" "${BONNIE_USER[@]}" -q >"$OUT/bonnie.out" 2>"$OUT/bonnie.err") ||
	{ echo "$LIB_NAME: bonnie++ failed: $(tail -3 "$OUT/bonnie.err")" >&2; exit 1; }

# diskbench: one test a run
for t in $TESTS; do
	case $t in
	meta-stat*) rt=(--runtime 1s --ramp 0) ;;
	*) rt=(--runtime 10m) ;;
	esac
	strace -f -qq -C -o "$OUT/$t.trace" "$DISKBENCH" "${META[@]}" "${rt[@]}" --test "$t" \
		--json "$OUT/$t.json" "$PRIV" >"$OUT/$t.out" 2>&1 ||
		{ echo "$LIB_NAME: diskbench $t failed: $(tail -3 "$OUT/$t.out")" >&2; exit 1; }
done

python3 - "$OUT" "$FILES" $TESTS <<'PY'
import collections, json, re, sys, textwrap

out, nfiles, tests = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
# "PID  name(args...", or "PID  name(args <unfinished ...>"; a "<... name
# resumed>" line is the same call's end, not another call.
CALL = re.compile(r"^(\d+)\s+([a-z0-9_]+)\(")


def windows(path, bracket):
    """Between consecutive pairs of bracketing calls (bracket(name, line)
    -> bool) of one thread: (that thread's calls, every thread's), two
    Counters per window; and the count of all calls."""
    wins, cur, tid, total = [], None, None, 0
    for line in open(path, errors="replace"):
        m = CALL.match(line)
        if not m:
            continue
        total += 1
        pid, name = m.group(1), m.group(2)
        if bracket(name, line) and (cur is None or pid == tid):
            if cur is None:
                cur, tid = (collections.Counter(), collections.Counter()), pid
            else:
                wins.append(cur)
                cur = None
            continue
        if cur is not None:
            cur[1][name] += 1
            if pid == tid:
                cur[0][name] += 1
    return wins, total


def main_calls(c, per):
    top = [(n, k) for n, k in c.most_common() if k / per >= 0.001][:4]
    return " ".join("%s %.3g" % (n, k / per) for n, k in top) or "-"


def whole(path):
    """The -c summary after the calls (-C): {name: calls}."""
    # "% time  seconds  usecs/call  calls  [errors]  syscall"
    calls, summary = collections.Counter(), False
    for line in open(path, errors="replace"):
        if line.startswith("% time"):
            summary = True
        f = line.split()
        if summary and len(f) >= 5 and f[3].isdigit() and f[-1] != "total":
            calls[f[-1]] += int(f[3])
    if not summary:
        sys.exit("%s: no strace -c summary" % path)
    return calls


bon, btotal = windows(out + "/bonnie.trace",
                      lambda n, l: n == "getrusage" and "RUSAGE_SELF" in l)
boutside = btotal - sum(sum(w[1].values()) + 2 for w in bon)
# bonnie++'s order: create, stat, delete; then the same in random order
order = ["meta-create", "meta-stat", "meta-delete",
         "meta-create-rand", "meta-stat-rand", "meta-delete-rand"]
if len(bon) != 6:
    sys.exit("bonnie++'s trace has %d timed windows, not 6" % len(bon))
bon = dict(zip(order, bon))

rows, adjust, dcalls, outside = [], 0, collections.Counter(), []
for t in tests:
    dcalls += whole("%s/%s.trace" % (out, t))
    d = json.load(open("%s/%s.json" % (out, t)))["tests"][0]
    w, total = windows("%s/%s.trace" % (out, t),
                       lambda n, l: n == "getrusage" and "RUSAGE_THREAD" in l)
    if not w:
        sys.exit("%s: no timed window in diskbench's trace" % t)
    ops = d["ops"]
    own = d["syscalls"]["per_op"] if d.get("syscalls") else float("nan")
    if t.startswith("meta-stat"):
        adjust += (ops - nfiles) * own
    (bw, ba), (dw, da) = bon[t], w[0]
    outside.append((t, total - sum(da.values()) - 2))
    rows.append((t, sum(bw.values()) / nfiles, sum(dw.values()) / ops, own,
                 sum(ba.values()) / nfiles, sum(da.values()) / ops, ops,
                 main_calls(bw, nfiles), main_calls(dw, ops)))

print()
print("calls per file in each test's timed window (strace -f):")
print("%-17s %-21s  %-9s  %s" % ("", "the work's thread", "diskbench", "every thread"))
print("%-17s %9s %10s  %9s  %8s %9s %8s" % ("test", "bonnie++", "diskbench", "own count",
                                          "bonnie++", "diskbench", "files"))
for t, b, d, own, ba, da, ops, mb, md in rows:
    print("%-17s %9.3f %10.3f  %9.3f  %8.3f %9.3f %8d" % (t, b, d, own, ba, da, ops))
print("the work's main calls per file:")
for t, b, d, own, ba, da, ops, mb, md in rows:
    print("  %-17s bonnie++  %s" % (t, mb))
    print("  %-17s diskbench %s" % ("", md))
worse = [r[0] for r in rows if r[2] > r[1] + 0.0005]
print("diskbench makes more calls per file than bonnie++ in: %s" %
      (", ".join(worse) if worse else "none"))

# diskbench's stat tests stat the files for their runtime (bonnie++'s stat
# each once): adjust counts the calls of the stats beyond one a file (or,
# negative, those of the files not reached), by diskbench's own count
print()
print("whole processes (strace -f -c), calls per file of the %d:" % nfiles)
for who, calls, less in (("bonnie++ -n, its six tests", whole(out + "/bonnie.trace"), 0),
                         ("diskbench, its six runs", dcalls, adjust)):
    total = sum(calls.values())
    top = ", ".join("%s %d" % kv for kv in calls.most_common(5))
    print("  %-27s %7.2f  (%d calls)" % (who, total / nfiles, total))
    print("  %-27s          %s" % ("", top))
    if less:
        print("  %-27s %7.2f  (its stat tests' calls %+.0f: each file stat'ed once)" %
              ("", (total - less) / nfiles, -less))
print("outside the timed windows, per file (bonnie++: its whole run; diskbench: each run's start,")
print("making the files its test needs, removing them):")
print("  bonnie++ %.2f" % (boutside / nfiles))
print(textwrap.fill(", ".join("%s %.2f" % (t, n / nfiles) for t, n in outside), 98,
                    initial_indent="  diskbench ", subsequent_indent="    ",
                    break_on_hyphens=False))
PY
