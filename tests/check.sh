#!/bin/sh
# tests/check.sh - build and run the whole test suite: a -Werror build, an
# ASan+UBSan build, and make distcheck. Ends with "N passed, N failed".
set -u
top=$(cd "$(dirname "$0")/.." && pwd)
cd "$top" || exit 1

# Dependencies and the configure script, from the project's own files.
if ! sh ./bootstrap.sh --deps; then
	echo "check: installing dependencies or autoreconf failed" >&2
	echo "0 passed, 1 failed"
	exit 1
fi

# An in-tree build (an older bootstrap.sh made one) makes automake refuse
# every out-of-tree build below: remove it, as bootstrap.sh now does.
if [ -f "$top/config.status" ]; then
	echo "check: removing an in-tree build (make distclean) so that out-of-tree builds work"
	(cd "$top" && make distclean >/dev/null 2>&1)
fi

pass=0 fail=0 skip=0
count() {	# count LOGDIR: add its test-suite.log totals
	log="$1/test-suite.log"
	if ! [ -f "$log" ]; then
		fail=$((fail + 1))
		return
	fi
	p=$(sed -n 's/^# PASS: *//p' "$log"); f=$(sed -n 's/^# FAIL: *//p' "$log")
	e=$(sed -n 's/^# ERROR: *//p' "$log"); s=$(sed -n 's/^# SKIP: *//p' "$log")
	x=$(sed -n 's/^# XPASS: *//p' "$log")
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0} + ${e:-0} + ${x:-0}))
	skip=$((skip + ${s:-0}))
}

build() {	# build NAME CONFIGURE-FLAGS...: configure, make, make check
	name=$1; shift
	dir="$top/build-$name"
	rm -rf "$dir" && mkdir -p "$dir" && cd "$dir" || return 1
	echo "=== $name: configure $*"
	if ! "$top/configure" --enable-werror "$@" >configure.out 2>&1; then
		cat configure.out; fail=$((fail + 1)); cd "$top"; return 1
	fi
	sed -n '/^diskbench .* configuration:/,$p' configure.out
	if ! make -j2 >make.out 2>&1; then
		cat make.out; fail=$((fail + 1)); cd "$top"; return 1
	fi
	make -j2 check >check.out 2>&1
	grep -E '^(PASS|FAIL|SKIP|ERROR|XFAIL|XPASS):' check.out
	for t in $(grep -lE '^(FAIL|ERROR)' $(find tests -name '*.log') 2>/dev/null); do
		echo "--- $t"; tail -n 40 "$t"
	done
	count "$dir"
	cd "$top"
}

# Each pass tells its tests which it is (tests/cli/lib.sh's suite_pass):
# a test whose worth is in one run skips but in the plain pass, and
# distcheck's skips the tests that need root (they ran in the first two).
export DISKBENCH_CHECK_PASS
DISKBENCH_CHECK_PASS=plain
build plain
DISKBENCH_CHECK_PASS=sanitizers
build sanitizers --enable-asan --enable-ubsan
DISKBENCH_CHECK_PASS=distcheck

echo "=== distcheck"
if (cd "$top/build-plain" && make -j2 distcheck \
	DISTCHECK_CONFIGURE_FLAGS=--enable-werror >distcheck.out 2>&1); then
	pass=$((pass + 1)); echo "PASS: distcheck"
else
	fail=$((fail + 1)); echo "FAIL: distcheck"; tail -n 60 "$top/build-plain/distcheck.out"
	# distcheck leaves its build behind when it fails: each failed
	# test's own log, as the passes above show theirs
	for t in $(grep -lE '^(FAIL|ERROR)' $(find "$top"/build-plain/diskbench-*/_build \
		-name '*.log' ! -name test-suite.log 2>/dev/null) 2>/dev/null); do
		echo "--- $t"; tail -n 40 "$t"
	done
fi

echo "$pass passed, $fail failed, $skip skipped"
[ "$fail" -eq 0 ]
