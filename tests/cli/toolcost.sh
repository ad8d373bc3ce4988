#!/bin/bash
# toolcost.sh - every result carries the tool's own cost: the system calls
# each engine and each file test made per op, consistent with the ops, as
# many as each one makes by design, the same count strace sees (when it can
# trace), and the warning when a job kept a CPU busy.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp
T=$TMP_DIR
CHECK="python3 $srcdir/tests/cli/check_json.py"

# per_op FILE TEST: that test's syscalls.per_op
per_op() { json "$1" "[t for t in d['tests'] if t['name'] == '$2'][0]['syscalls']['per_op']"; }

# counted FILE: every test has a count that matches its ops (check_json.py's
# rule, for tests whose bytes are not ops x bs)
counted()
{
	python3 - "$1" <<'PY' || fail "$1: syscalls missing or inconsistent"
import json, sys
for t in json.load(open(sys.argv[1]))["tests"]:
    sc = t["syscalls"]
    assert sc is not None and t["ops"] > 0, t["name"]
    assert abs(sc["total"] - sc["per_op"] * t["ops"]) <= 0.0005 * t["ops"] + 1, (t["name"], sc)
PY
}

# within X LO HI: LO <= X <= HI
within() { python3 -c 'import sys; x, lo, hi = map(float, sys.argv[1:]); sys.exit(not lo <= x <= hi)' "$@"; }

engines=$("$DISKBENCH" list engines | awk '$2 == "yes" { print $1 }')
[ -n "$engines" ] || fail "no working engine listed"

# 1. every engine: the key, consistent with the ops, in the text notes
for e in $engines; do
	out=$T/$e.json
	"$DISKBENCH" --engine "$e" --test rand-read --qd 1,32 --runtime 200ms --ramp 50ms \
		--size 16m --quiet --json "$out" "$T" >"$T/$e.txt" || fail "$e: exit $?"
	$CHECK "$out" --engine "$e" --syscalls || fail "$e: bad JSON"
	"$DISKBENCH" report "$out" >"$T/$e.txt" 2>/dev/null || fail "$e: report: exit $?"
	# (a note wraps at 100 columns: read it as one line)
	tr -s '\n ' '  ' <"$T/$e.txt" | grep -q "tool's own cost: [0-9.]* system calls and [0-9.]* us CPU per op" ||
		fail "$e: no tool's cost in the text notes"
	case $e in
	sync|direct)	# one pread per op: the window opens after a reap whose
		# completion it counts, so its pread is the one not in it
		[ "$(json "$out" "d['tests'][0]['ops'] - d['tests'][0]['syscalls']['total']")" = 1 ] ||
			fail "$e: $(json "$out" "d['tests'][0]['syscalls']") for $(json "$out" \
				"d['tests'][0]['ops']") ops, want one call per op" ;;
	null)
		[ "$(json "$out" "sum(t['syscalls']['total'] for t in d['tests'])")" = 0 ] ||
			fail "null: made system calls" ;;
	libaio|io_uring)
		# at batch 1 one submit a request and at most one reap a
		# completion; at batch b (--batch, the test's "batch") at least
		# a call a reap, each of which hands back at most qd; the
		# window's ends shift it by up to qd requests in flight there,
		# submitted before it or completed after it
		for t in "rand-read 4k qd1" "rand-read 4k qd32"; do
			python3 - "$out" "$t" <<'PY' || fail "$e $t: calls not in (ops - qd or ops / qd) .. 2 x ops + qd"
import json, sys
t = [t for t in json.load(open(sys.argv[1]))["tests"] if t["name"] == sys.argv[2]][0]
n, ops, qd, b = t["syscalls"]["total"], t["ops"], t["qd"], t["batch"]
print("%s: %d calls for %d ops at batch %d" % (sys.argv[2], n, ops, b))
low = ops - qd if b == 1 else ops // qd - 1
sys.exit(not low <= n <= 2 * ops + qd + 1)
PY
		done ;;
	esac
	echo "$e: $(json "$out" "' '.join('%s %s/op' % (t['qd'], t['syscalls']['per_op']) for t in d['tests'])")"
done

# 2. the file, per-char and rewrite tests count their own: bonnie++'s work
# per file (create: openat + close; stat: fstatat; delete: unlinkat), a
# stat that reads the data (+ openat, one read of its size, close), one call a
# byte with --char-mode=syscall, a pread and a pwrite a chunk
out=$T/files.json
"$DISKBENCH" --engine sync --test meta-create,meta-stat,meta-delete,meta-create-rand \
	--files 512 --runtime 200ms --quiet --json "$out" "$T" || fail "files: exit $?"
$CHECK "$out" --syscalls || fail "files: bad JSON"
for x in "meta-create 2.0" "meta-stat 1.0" "meta-delete 1.0" "meta-create-rand 2.0"; do
	set -- $x
	v=$(per_op "$out" "$1")
	[ "$v" = "$2" ] || fail "$1: $v calls per file, want $2"
done
out=$T/data.json
"$DISKBENCH" --engine sync --test meta-stat --files 256 --file-size 1k --runtime 200ms --quiet \
	--json "$out" "$T" || fail "meta-stat 1k: exit $?"
v=$(per_op "$out" meta-stat)
[ "$v" = 4.0 ] || fail "meta-stat 1k: $v calls per file, want 4 (bonnie++'s)"
out=$T/char.json
"$DISKBENCH" --engine sync --test char-write,char-read,rewrite --char-mode syscall --size 4m \
	--runtime 200ms --ramp 0 --quiet --json "$out" "$T" || fail "char: exit $?"
counted "$out"
for x in "char-write 64 64.1" "char-read 64 64.1" "rewrite 2 2.01"; do
	set -- $x
	v=$(json "$out" "[t for t in d['tests'] if t['workload'] == '$1'][0]['syscalls']['per_op']")
	within "$v" "$2" "$3" || fail "$1: $v calls per op, want $2"
done
out=$T/stdio.json
"$DISKBENCH" --engine sync --test char-write,char-read --size 4m --runtime 200ms --quiet \
	--json "$out" "$T" || fail "stdio: exit $?"
counted "$out"
# 1 KiB an op through a buffer of a few KiB: well under one call per op
for w in char-write char-read; do
	v=$(json "$out" "[t for t in d['tests'] if t['workload'] == '$w'][0]['syscalls']['per_op']")
	within "$v" 0.001 0.9 || fail "stdio $w: $v calls per op"
done
echo "file tests: ok"

# 3. a saved result from before the count loads, and shows none
for f in "$srcdir"/tests/data/results/*.json; do
	grep -q '"syscalls"' "$f" && continue	# saved after the count
	"$DISKBENCH" report "$f" >"$T/old.txt" 2>&1 || fail "$f: report: exit $?"
	grep -q "tool's own cost" "$T/old.txt" && fail "$f: a cost it never measured"
done
"$DISKBENCH" report --json "$T/old.json" "$srcdir/tests/data/results/f3e5f6a-quick.json" \
	>/dev/null 2>&1 || fail "report --json of an old result: exit $?"
[ "$(json "$T/old.json" "all(t['syscalls'] is None for t in d['tests'])")" = True ] ||
	fail "an old result grew a syscalls count"

# 4. the warning names exactly the tests whose busiest job kept a CPU busy
for f in "$T"/sync.json "$T"/files.json; do
	python3 - "$f" <<'PY' || fail "$f: tool-bound warning wrong"
import json, sys
d = json.load(open(sys.argv[1]))
w = [x for x in d.get("warnings", []) if "kept a CPU busy" in x]
# per-char and metadata tests measure that CPU: never called tool-bound
busy = [t["name"] for t in d["tests"] if t["cpu"]["job_max_pct"] >= 90 and
        not t["workload"].startswith(("char-", "meta-"))]
assert len(w) == (1 if busy else 0), (w, busy)
for n in busy:
    assert n + " (" in w[0], (n, w)
for t in d["tests"]:
    assert t["tool_bound"] == (t["name"] in busy), t["name"]
PY
done

# the HTML report has the same note for each test
"$DISKBENCH" report --quiet --html "$T/files.html" "$T/files.json" || fail "report --html: exit $?"
[ "$(grep -c "<li>meta-[a-z-]*: tool&#39;s own cost: [0-9.]* system calls" "$T/files.html")" = 4 ] ||
	fail "the HTML lacks the tool's cost of the 4 file tests"
if echo "$engines" | grep -qw null; then
	grep -q "kept a CPU busy" <(json "$T/null.json" "'\n'.join(d.get('warnings', []))") &&
		fail "null engine: warned that the tool bounds it"
fi

# 5. the count is what strace sees (when it may trace here): the engine's
# calls over the whole run, less those before and after the window
if command -v strace >/dev/null && strace -f -qq -o /dev/null true 2>/dev/null; then
	for e in $engines; do
		case $e in
		sync) calls="pread64" ;;
		libaio) calls="io_submit,io_getevents" ;;
		io_uring) calls="io_uring_enter" ;;
		*) continue ;;
		esac
		out=$T/strace-$e.json
		# LeakSanitizer stops the threads with ptrace at exit, which it
		# cannot under strace: a sanitizer build checks leaks elsewhere
		ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0" \
			strace -f -qq -c -U calls -e trace="$calls" -o "$T/$e.strace" "$DISKBENCH" \
			--engine "$e" --test rand-read --qd 8 --runtime 200ms --ramp 0 --size 16m \
			--quiet --json "$out" "$T" >/dev/null 2>&1 || fail "strace $e: exit $?"
		seen=$(awk '$1 ~ /^[0-9]+$/ && $2 != "total" { n += $1 } END { print n + 0 }' "$T/$e.strace")
		ours=$(json "$out" "d['tests'][0]['syscalls']['total']")
		# the unwritten-space check reads its sample with pread after
		# the test, outside the count
		[ "$e" = sync ] &&
			seen=$((seen - $(json "$out" "d['tests'][0].get('unwritten', {}).get('sampled_blocks', 0)")))
		# io_uring counts the register call that enables the ring too; a
		# few calls fall outside the window (setup, the last reaps)
		within "$ours" $((seen * 98 / 100 - 8)) $((seen + 1)) ||
			fail "$e: counted $ours, strace saw $seen"
		echo "strace $e: counted $ours, strace saw $seen"
	done
else
	echo "strace cannot trace here: count not cross-checked"
fi
ls -d "$T"/diskbench.* >/dev/null 2>&1 && fail "scratch directory left behind"
echo "ok"
