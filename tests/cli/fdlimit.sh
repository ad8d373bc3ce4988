#!/bin/bash
# fdlimit.sh - a limit of open files (ulimit -n) is checked against the
# real need: a job's descriptors (each job has a table of its own), those
# open now and a stated reserve. A 4-job read of a device or file, 2 per
# job, runs under ulimit -n 64 (it was refused, with "lower --dirs"); below
# its need it is refused with the need, its parts and the limit, and the
# need is enough; a metadata test is told to lower --dirs, to a count that
# then runs.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /var/tmp
T=$TMP_DIR
cd "$T" || fail "cd $T"
RUN=(--test rand-read --jobs 4 --runtime 200ms --ramp 0)

# under N CMD...: CMD with ulimit -n N (soft and hard), in a subshell
under() { local n=$1; shift; (ulimit -n "$n" && exec "$@"); }

# A file to read (as a device is read: the target and the engine's ring per
# job), and a loop device over it when we may make one.
dd if=/dev/urandom of=data bs=1M count=16 status=none || fail "cannot write data"
targets=("$T/data")
if [ "$(id -u)" -eq 0 ] && command -v losetup >/dev/null 2>&1; then
	make_loop 16 random "$T"
	targets+=("$LOOP_DEV")
else
	msg "note: not root: a file target only, no loop device"
fi

for tg in "${targets[@]}"; do
	# 1. The issue's case: 4 jobs of 2 descriptors each under 64 run.
	under 64 "$DISKBENCH" "${RUN[@]}" --json ok.json "$tg" >/dev/null 2>err ||
		fail "$tg under ulimit -n 64: exit $?: $(cat err)"
	[ "$(json ok.json 'd["tests"][0]["errors"]')" = 0 ] || fail "$tg: errors under 64"

	# 2. Under 12: refused, one line, exit 2, with the need and its parts.
	out=$(under 12 "$DISKBENCH" "${RUN[@]}" "$tg" 2>&1 >/dev/null)
	rc=$?
	[ "$rc" -eq 2 ] || fail "$tg under ulimit -n 12: exit $rc, want 2: $out"
	[ "$(printf '%s\n' "$out" | grep -c '^diskbench:')" -eq 1 ] || fail "not one line: $out"
	re='^diskbench: rand-read \(--jobs 4 --qd 1 --bs 4k\) needs ([0-9]+) open files: ([0-9]+) (per job \(each has a table of its own\)|for its jobs together \(they share one table\)), ([0-9]+) open now and ([0-9]+) in reserve for the run.s own; more than the limit of open files, 12 \(ulimit -n\): (.*) to ([0-9]+) or more$'
	[[ $out =~ $re ]] || fail "$tg: the refusal: $out"
	need=${BASH_REMATCH[1]} jobs_fds=${BASH_REMATCH[2]} how=${BASH_REMATCH[3]}
	now=${BASH_REMATCH[4]} reserve=${BASH_REMATCH[5]} lower=${BASH_REMATCH[6]}
	[ "$need" -eq $((jobs_fds + now + reserve)) ] || fail "$tg: the parts do not add up: $out"
	[ "${BASH_REMATCH[7]}" -eq "$need" ] || fail "$tg: raise to what it needs: $out"
	case $how in
	per*)	[ "$jobs_fds" -eq 2 ] || fail "$tg: 2 per job (target, ring): $out"
		[ "$lower" = "no option of the test lowers it: raise ulimit -n" ] ||
			fail "$tg: own tables: no option lowers it: $out" ;;
	*)	[ "$jobs_fds" -eq 8 ] || fail "$tg: 4 jobs x 2 in one table: $out"
		[[ $lower == "lower --jobs to "* ]] || fail "$tg: one table: --jobs: $out" ;;
	esac
	! grep -q -- "--dirs" <<<"$out" || fail "$tg: a device test told of --dirs: $out"
	# the need is enough
	under "$need" "$DISKBENCH" "${RUN[@]}" "$tg" >/dev/null 2>err ||
		fail "$tg under ulimit -n $need, what it said it needs: exit $?: $(cat err)"
done

# 3. A metadata test holds a directory each (--dirs) and 3 more: told to
# lower --dirs, to a count that runs under the same limit.
mkdir m
out=$(under 64 "$DISKBENCH" --test meta-create --files 1000 --dirs 100 --runtime 200ms m 2>&1 >/dev/null)
rc=$?
[ "$rc" -eq 2 ] || fail "--dirs 100 under 64: exit $rc: $out"
re='needs ([0-9]+) open files: 103 per job .* limit of open files, 64 \(ulimit -n\): lower --dirs to ([0-9]+) or fewer, or raise ulimit -n to ([0-9]+) or more$'
[[ $out =~ $re ]] || fail "--dirs 100: the refusal: $out"
dirs=${BASH_REMATCH[2]}
[ -z "$(ls -A m)" ] || fail "--dirs 100: left $(ls -A m)"
under 64 "$DISKBENCH" --test meta-create --files 1000 --dirs "$dirs" --runtime 200ms \
	--json m.json m >/dev/null 2>err || fail "--dirs $dirs under 64: exit $?: $(cat err)"
out=$(under 64 "$DISKBENCH" --test meta-create --files 1000 --dirs $((dirs + 1)) --runtime 200ms \
	m 2>&1 >/dev/null) && fail "--dirs $((dirs + 1)) under 64 ran: the limit said was not the limit"
msg "4 jobs run under 64; refused under 12 needing $need; --dirs $dirs runs under 64, $((dirs + 1)) not"
exit 0
