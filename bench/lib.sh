# lib.sh - helpers shared by the bench scripts (bash; source after tests/cli/lib.sh).

# apt_install PACKAGE: install quietly (root), updating the lists once if needed.
apt_install()
{
	[ "$(id -u)" -eq 0 ] || { msg "$1 is missing (apt-get install $1)"; exit 1; }
	echo "# installing $1"
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null 2>&1 && return 0
	apt-get update -qq >/dev/null 2>&1
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$1" >/dev/null 2>&1 ||
		{ msg "cannot install $1"; exit 1; }
}

# secs DURATION: 5s, 500ms, 2m -> seconds (float).
secs()
{
	python3 -c 'import re, sys
m = re.fullmatch(r"([0-9.]+)(ns|us|ms|s|m|h)?", sys.argv[1])
if not m:
    sys.exit(sys.argv[2] + ": bad duration " + sys.argv[1])
f = {"ns": 1e-9, "us": 1e-6, "ms": 1e-3, "s": 1, None: 1, "m": 60, "h": 3600}
print(float(m.group(1)) * f[m.group(2)])' "$1" "$LIB_NAME"
}

# bench_diskbench: $DISKBENCH, else ./diskbench or build/diskbench from the
# directory the script was started in, else what need_diskbench finds.
bench_diskbench()
{
	if [ -z "${DISKBENCH:-}" ] && [ -x ./diskbench ]; then
		DISKBENCH=$(pwd)/diskbench
	elif [ -z "${DISKBENCH:-}" ] && [ -x build/diskbench ]; then
		DISKBENCH=$(pwd)/build/diskbench
	fi
	need_diskbench
}

# bench_only: keeps the CASES ("name|...") whose name matches the regex
# $ONLY, when it is set; exits 2, saying so, when none does.
bench_only()
{
	local kept=() c
	[ -n "${ONLY:-}" ] || return 0
	for c in "${CASES[@]}"; do
		[[ ${c%%|*} =~ $ONLY ]] && kept+=("$c")
	done
	[ ${#kept[@]} -gt 0 ] || { echo "$LIB_NAME: ONLY=$ONLY matches no case" >&2; exit 2; }
	CASES=("${kept[@]}")
}
