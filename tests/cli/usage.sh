#!/bin/bash
# usage.sh - bad input gets one clear line naming the option, exit 2, and
# leaves nothing behind; --help and --version work.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
make_tmpdir /tmp
cd "$TMP_DIR" || fail "cd"


expect_usage "--bs: invalid size '4q'" --bs 4q .
expect_usage "--bs" --bs 4k,,1m .
expect_usage "--bs: block size out of range" --bs 128 .
expect_usage "--runtime: invalid duration '5x'" --runtime 5x .
expect_usage "--runtime" --runtime -1s .
expect_usage "--qd: value out of range: '0'" --qd 0 .
expect_usage "--jobs: invalid number 'abc'" --jobs abc .
expect_usage "--size: value out of range" --size 18446744073709551616 .
expect_usage "--size: invalid size" --size 1.3b .
expect_usage "--seed: invalid number" --seed 0x10 .
expect_usage "--cpus: invalid CPU list" --cpus 3-1 .
expect_usage "--cpus: CPU 4095 is not online" --cpus 4095 .
# --hipri: io_uring, O_DIRECT and a device with poll queues, else refused
expect_usage "--hipri: only the io_uring engine polls for completions (not sync)" \
	--hipri --engine sync --test rand-read .
expect_usage "--hipri: polled completions need O_DIRECT, and rand-read 4k qd1 is buffered" \
	--hipri --engine io_uring --buffered --test rand-read --qd 1 .
if [ "$("$DISKBENCH" info --json - . | python3 -c 'import json, sys; print(json.load(sys.stdin)["target"]["io_poll"])')" = False ]; then
	expect_usage "has no poll queues (queue/io_poll is 0)" --hipri --engine io_uring \
		--test rand-read .
fi
# more jobs than CPUs given: they share them, and the result says so
mkdir jobs
"$DISKBENCH" --engine null --test rand-read --qd 1 --jobs 3 --cpus 0 --runtime 50ms --ramp 0 \
	--quiet --json jobs.json jobs 2>jobs.err || fail "--jobs 3 --cpus 0: exit $?: $(cat jobs.err)"
grep -q -- "--cpus: 3 jobs of rand-read 4k qd1 j3 on 1 CPU: jobs share them" jobs.err ||
	fail "--jobs 3 --cpus 0: no warning: $(cat jobs.err)"
json jobs.json 'd["warnings"]' | grep -q -- "--cpus: 3 jobs" || fail "--jobs 3 --cpus 0: not in the JSON"
rm -rf jobs jobs.json jobs.err
expect_usage "--engine: unknown engine 'nope'" --engine nope .
expect_usage "--test: unknown test 'nope'" --test nope .
expect_usage "--test: empty name" --test seq-read, .
expect_usage "unknown option '--frobnicate'" --frobnicate .
expect_usage "needs a value" --bs
expect_usage "^diskbench: --quiet takes no value: '--quiet=yes'$" --quiet=yes .
expect_usage "unexpected argument 'b'" a b
expect_usage "no such file or directory" "$TMP_DIR/does-not-exist"
expect_usage "character device" /dev/null
mkfifo fifo
expect_usage "FIFO" fifo
expect_usage "--json /nonexistent-dir/x.json: cannot write there" --json /nonexistent-dir/x.json .
expect_usage "not a multiple of the target's logical block size" --bs 1000 --test rand-read .
expect_usage "--buffered: the libaio engine only works with O_DIRECT" --engine libaio --buffered .
expect_usage "--direct and --buffered exclude each other" --direct --buffered .
expect_usage "--direct and --buffered exclude each other" --buffered --runtime 1s --direct .
rm -f fifo
# the rules between options (opts_check): each says which and exits 2
expect_usage "^diskbench: --precondition-size: only with --precondition$" \
	--engine null --precondition-size 1g .
expect_usage "^diskbench: --precondition runs each test in steady-state rounds: it does not take --repeat 2$" \
	--engine sync --precondition --repeat 2 .
expect_usage "^diskbench: --precondition: the null engine moves no data: it cannot write the device$" \
	--engine null --precondition .
expect_usage "^diskbench: --round: only with --steady-state$" --engine null --round 1s .
expect_usage "^diskbench: --max-rounds: only with --steady-state$" --engine null --max-rounds 9 .
expect_usage "^diskbench: --steady-state runs each test in rounds itself: it does not take --repeat 3$" \
	--engine null --steady-state --repeat 3 .
expect_usage "^diskbench: --max-rounds 4: a steady-state window is 5 rounds, more than the round limit$" \
	--engine null --steady-state --max-rounds 4 .
expect_usage "^diskbench: --verify: the null engine moves no data: there is nothing to read back$" \
	--engine null --verify .
expect_usage "^diskbench: --buffered: the direct engine only works with O_DIRECT" --engine direct --buffered .
# a profile's key is held to the rules as the option is
printf '[profile]\nsteady-state = true\nrepeat = 2\n[g]\ntest = rand-read\n' >rules.ini
expect_usage "^diskbench: --steady-state runs each test in rounds itself: it does not take --repeat 2$" \
	--engine null --profile ./rules.ini .
rm -f rules.ini
if [ "$(id -u)" -ne 0 ]; then
	expect_usage "^diskbench: --drop-caches: needs root" --engine null --drop-caches .
	expect_usage "^diskbench: --trim: needs root (FITRIM and BLKDISCARD do)$" --engine null --trim .
elif command -v setpriv >/dev/null; then
	for o in drop-caches trim; do
		out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$DISKBENCH" --engine null \
			--"$o" /tmp 2>&1 >/dev/null)
		rc=$?
		[ $rc -eq 2 ] || fail "--$o as nobody: exit $rc ($out)"
		printf '%s' "$out" | grep -q -- "^diskbench: --$o: needs root" || fail "--$o as nobody: $out"
	done
fi

"$DISKBENCH" --help | grep -q "^usage: diskbench" || fail "--help"
"$DISKBENCH" run --help | grep -q -- "--runtime" || fail "run --help"
"$DISKBENCH" --version | grep -q "^diskbench [0-9]" || fail "--version"
"$DISKBENCH" list engines | grep -q "^null *yes" || fail "list engines: null must work"
"$DISKBENCH" list tests | grep -q "^rand-read" || fail "list tests"
"$DISKBENCH" list bogus >/dev/null 2>&1
[ $? -eq 2 ] || fail "list bogus: want exit 2"
[ -z "$(ls -A)" ] || fail "left files behind: $(ls -A)"
echo "ok"
