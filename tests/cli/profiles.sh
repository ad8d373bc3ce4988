#!/bin/bash
# profiles.sh - profiles: listed, built in and by path, the default plan is
# quick.ini, bad files get FILE:LINE and exit 2, the command line wins.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
make_tmpdir /dev/shm
cd "$TMP_DIR" || fail "cd"
mkdir target || fail "mkdir"
FAST=(--runtime 100ms --ramp 0 --size 16m --engine sync --quiet)

# list profiles: all seven, each with a description.
out=$("$DISKBENCH" list profiles) || fail "list profiles: exit $?"
for p in quick bonnie hdparm xbench crystal crystal-nvme devbuild; do
	printf '%s\n' "$out" | grep -Eq "^$p +[^ ]" || fail "list profiles lacks '$p': $out"
done

# The test names of a run's JSON, one per line.
names() { json "$1" '"\n".join(t["name"] for t in d["tests"])'; }

# The default plan is quick.ini's.
"$DISKBENCH" "${FAST[@]}" --json def.json target || fail "default run"
"$DISKBENCH" "${FAST[@]}" --profile quick --json quick.json target || fail "--profile quick"
want=$'seq-read 1m qd1\nseq-write 1m qd1\nrand-read 4k qd1\nrand-write 4k qd1'
[ "$(names def.json)" = "$want" ] || fail "default plan: $(names def.json)"
[ "$(names quick.json)" = "$(names def.json)" ] || fail "quick differs from the default"
[ "$(json quick.json 'd["settings"]["profile"]')" = quick ] || fail "settings.profile"
"$DISKBENCH" "${FAST[@]}" --engine null --json null.json target || fail "null run"
want=$'seq-read 1m qd8\nseq-write 1m qd8\nrand-read 4k qd1\nrand-read 4k qd32\nrand-write 4k qd1\nrand-write 4k qd32'
[ "$(names null.json)" = "$want" ] || fail "quick with qd: $(names null.json)"

# --test picks tests of the profile, with the profile's settings.
"$DISKBENCH" "${FAST[@]}" --engine null --test rand-read --json t.json target || fail "--test"
[ "$(names t.json)" = $'rand-read 4k qd1\nrand-read 4k qd32' ] || fail "--test: $(names t.json)"

# Run every built-in profile whose workloads all exist in this build.
ran=0
for p in quick xbench crystal crystal-nvme hdparm bonnie devbuild; do
	# (no hdparm-style pause before each test: checked below)
	"$DISKBENCH" "${FAST[@]}" --settle 0 --runtime 1ms --engine null --profile "$p" target 2>load.err
	if grep -q "unknown test" load.err; then
		case $p in quick | xbench | crystal | crystal-nvme) fail "$p: $(cat load.err)" ;; esac
		msg "not running $p: $(cat load.err)"
		continue
	fi
	"$DISKBENCH" "${FAST[@]}" --settle 0 --jobs 1 --files 256 --profile "$p" --json "$p.json" target 2>"$p.err" ||
		fail "--profile $p: exit $? ($(cat "$p.err"))"
	[ "$(json "$p.json" 'len(d["tests"]) > 0')" = True ] || fail "$p: no tests"
	[ "$(json "$p.json" 'd["settings"]["profile"]')" = "$p" ] || fail "$p: settings.profile"
	ran=$((ran + 1))
done
[ $ran -ge 3 ] || fail "ran only $ran profiles"
# The hdparm profile pauses as hdparm does before it times: sync() and 3 s
# idle before each test (two cached-read groups: at least 6 s).
t0=$(date +%s.%N)
"$DISKBENCH" "${FAST[@]}" --runtime 1ms --engine null --profile hdparm --test cached-read \
	--json settle.json target || fail "hdparm profile: exit $?"
t1=$(date +%s.%N)
[ "$(json settle.json 'd["settings"]["settle"]')" = 3s ] || fail "hdparm: settle not echoed"
python3 -c "import sys; sys.exit(0 if $t1 - $t0 >= 6 else 1)" ||
	fail "hdparm: two tests took $(python3 -c "print($t1 - $t0)") s, not 2 x 3 s of settling"
# Their shapes, on the null engine (no I/O: queue depths are kept).
"$DISKBENCH" "${FAST[@]}" --engine null --profile crystal --json c.json target || fail crystal
want=$'seq-read 1m qd8\nseq-write 1m qd8\nseq-read 1m qd1\nseq-write 1m qd1\nrand-read 4k qd32\nrand-write 4k qd32\nrand-read 4k qd1\nrand-write 4k qd1'
[ "$(names c.json)" = "$want" ] || fail "crystal: $(names c.json)"
"$DISKBENCH" "${FAST[@]}" --engine null --profile crystal-nvme --json n.json target || fail nvme
names n.json | grep -qx "rand-read 4k qd32 j16" || fail "crystal-nvme: $(names n.json)"
"$DISKBENCH" "${FAST[@]}" --engine null --profile xbench --json x.json target || fail xbench
[ "$(names x.json | wc -l)" -eq 8 ] || fail "xbench: $(names x.json)"

# The command line overrides the profile's keys in every group.
cat >slow.ini <<'INI'
[profile]
description = slow
runtime = 30s
ramp = 0

[one]
test = seq-read
bs = 64k
runtime = 20s
INI
"$DISKBENCH" "${FAST[@]}" --profile ./slow.ini --json o.json target || fail "override run"
rt=$(json o.json 'd["tests"][0]["runtime_ns"]')
[ "$rt" -lt 5000000000 ] || fail "--runtime 100ms did not win over the profile: $rt ns"
[ "$(json o.json 'd["settings"]["runtime"]')" = 100ms ] || fail "settings.runtime"
[ "$(names o.json)" = "seq-read 64k qd1" ] || fail "profile by path: $(names o.json)"
# ... and by a path without a slash but with .ini, from another directory.
(cd target && "$DISKBENCH" "${FAST[@]}" --profile ../slow.ini --json ../o2.json .) ||
	fail "profile by relative path"

# bad PROFILE-TEXT PATTERN LINE: exit 2, one error line "FILE:LINE: ...PATTERN".
bad()
{
	local text=$1 pat=$2 line=$3 out rc
	printf '%s\n' "$text" >bad.ini
	out=$("$DISKBENCH" "${FAST[@]}" --profile bad.ini target 2>&1 >/dev/null)
	rc=$?
	[ $rc -eq 2 ] || fail "bad profile ($pat): exit $rc, want 2: $out"
	printf '%s' "$out" | grep -q -- "bad.ini:$line: .*$pat" ||
		fail "bad profile: want 'bad.ini:$line: ...$pat', got: $out"
	[ "$(printf '%s\n' "$out" | grep -c '^diskbench:')" -eq 1 ] || fail "want one line: $out"
	ls -d target/diskbench.* >/dev/null 2>&1 && fail "bad profile left a scratch directory"
	return 0
}
G=$'[g]\ntest = seq-read'
bad $'[profile]\ndescription = x\n\n[g]\ntest = seq-read\nfrobnicate = 1' "unknown key 'frobnicate'" 6
bad $'; c\n[g]\ntest = seq-read\nbs = 4q' "bs: invalid size '4q'" 4
bad $'[g]\ntest = seq-read\nqd = 0' "qd: value out of range" 3
bad $'[g]\ntest = seq-read\ndirect = maybe' "direct: invalid value 'maybe'" 3
bad $'[g]\ntest = seq-read\ndirect = true\nbuffered = true' "'buffered' and 'direct' (line 3) exclude each other in \\[g\\]" 4
bad $'[g]\ntest = seq-read, nope' "unknown test 'nope'" 2
bad $'[profile]\nruntime = 1s\n\n[g]\nbs = 4k\n\n'"$G" "\\[g\\]: no 'test ='" 4
bad "$G"$'\n[empty]\n' "\\[empty\\]: no 'test ='" 3
bad $'[profile]\ntest = seq-read\n'"$G" "'test' belongs in a test group" 2
bad "$G"$'\nengine = sync' "'engine' applies to the whole run" 3
bad $'[profile]\ndestructive = true\n'"$G" "command-line option only" 2
bad $'[profile]\njson = x.json\n'"$G" "command-line option only" 2
bad "$G"$'\nbs = 4k\nbs = 8k' "'bs' given twice" 4
bad $'runtime = 1s\n'"$G" "outside a section" 1
bad "$G"$'\nthis is not ini' "syntax error" 3
bad $'[profile]\ndescription = nothing to run' "no test groups" 2
bad "$G"$'\nruntime = 5x' "runtime: invalid duration '5x'" 3

# Unknown names and missing files: exit 2, nothing left behind.
out=$("$DISKBENCH" --profile nope target 2>&1)
[ $? -eq 2 ] || fail "--profile nope: want exit 2"
printf '%s' "$out" | grep -q "unknown profile 'nope'" || fail "--profile nope: $out"
out=$("$DISKBENCH" --profile ./missing.ini target 2>&1)
[ $? -eq 2 ] || fail "missing profile file: want exit 2"
printf '%s' "$out" | grep -q "missing.ini" || fail "missing profile: $out"
ls -d target/diskbench.* >/dev/null 2>&1 && fail "left a scratch directory"
echo "ok"
