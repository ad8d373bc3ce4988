#!/bin/bash
# vs-bonnie.sh - diskbench vs bonnie++ in one directory: per-char, create/stat/delete, wall time.
#
# Usage: [DISKBENCH=path] [ROUNDS=5] [SIZE=256m] [FILES=16] [DIR=/var/tmp] [RUNTIME=3s]
#        [STAT_RUNTIME=2s] [WALL_SIZE=1g] [CHAR_MB=] [PARTS="char meta wall"]
#        [RESULTS=file.tsv] bench/vs-bonnie.sh
#
# Both tools work in one private directory made under DIR (removed on exit).
# Every round runs each part with every tool back to back, and who goes first
# alternates between rounds. The tables show, per figure, the median over the
# rounds with the minimum and maximum beside it (create rates on ext4 can swing
# 10x between identical runs, for every tool), and the ratio of the medians,
# diskbench / bonnie++.
#
# Both tools' numbers come from the same place: bonnie++'s CSV line (format
# 1.98), which bonnie++ prints with -q and diskbench writes with --bonnie-csv.
#
# char   per-char write and read, K/sec (fields 10 and 16):
#          bonnie++ -s SIZE -r SIZE/2 -n 0 [-f CHAR_MB]
#          diskbench --profile bonnie --test char-write,char-read --size SIZE
#                    --runtime RUNTIME --ramp 0 --char-mode syscall, and again with stdio
#        bonnie++ 2.00 does per-char with one-byte write() and read() system
#        calls ("Writing a byte at a time"; strace shows one syscall per byte),
#        not putc/getc as its readme.html still says, and over 3 MiB unless
#        -f N (MiB) says otherwise (the man page says 20M). So the equivalent
#        pair is diskbench --char-mode syscall vs bonnie++; diskbench's stdio
#        mode (the classic putc/getc, its default) is shown for information.
#        bonnie++ also runs its block, rewrite and seek tests here (they cannot
#        be turned off with per-char on); only the per-char fields are used.
# meta   create/stat/delete, sequential and random order, files/sec (fields
#        27, 29, 31, 33, 35, 37):
#          bonnie++ -s 0 -n FILES
#          diskbench --profile bonnie --test meta-create,meta-delete,... --files FILES x 1024
#        FILES is bonnie++'s -n: N[:MAX[:MIN[:DIRS]]], N in multiples of 1024
#        files, sizes in bytes (diskbench gets --files, --file-size MIN-MAX,
#        --dirs). diskbench runs create and delete with a runtime of 10 min, so
#        they end when the files are done (the script checks that every file
#        was done), and stat for STAT_RUNTIME (it re-stats the files in the
#        test's order; bonnie++ stats each once). bonnie++ prints "+++++"
#        when a test takes under 500 ms, i.e. above FILES x 1024 / 0.5 files/sec:
#        those runs have no number; the table counts them.
# wall   the whole suite's wall time (/usr/bin/time %e), lower is better:
#          bonnie++ -s WALL_SIZE -r WALL_SIZE/2   (-n 16, per-char: its defaults)
#          diskbench --profile bonnie --size WALL_SIZE   (its defaults: 5 s + 1 s
#                    ramp per test)
#        bonnie++'s real default sizes its file to twice the RAM (-r is read
#        from the machine) and refuses less; that is impractical on a big-RAM
#        VM, so -s and -r are given and the script prints a lower bound for
#        the real default's wall time. Also counted: the tests of each CSV
#        line that have a number, and the "+++++" fields (diskbench must have
#        none).
#
# The tools run as root when the script does (bonnie++ -u root).
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/../tests/cli/lib.sh"
. "$HERE/lib.sh"

ROUNDS=${ROUNDS:-5}
SIZE=${SIZE:-256m}
FILES=${FILES:-16}
DIR=${DIR:-/var/tmp}
RUNTIME=${RUNTIME:-3s}
STAT_RUNTIME=${STAT_RUNTIME:-2s}
WALL_SIZE=${WALL_SIZE:-1g}
CHAR_MB=${CHAR_MB:-}
PARTS=${PARTS:-char meta wall}
RESULTS=${RESULTS:-}

if [ -z "${DISKBENCH:-}" ] && [ -x ./diskbench ]; then
	DISKBENCH=$(pwd)/diskbench
fi
need_diskbench

command -v bonnie++ >/dev/null || apt_install bonnie++
[ -x /usr/bin/time ] || apt_install time
need_cmd python3

for p in $PARTS; do
	case $p in
	char | meta | wall) ;;
	*) echo "vs-bonnie.sh: unknown part '$p' (char, meta, wall)" >&2; exit 2 ;;
	esac
done
[[ $ROUNDS =~ ^[1-9][0-9]*$ ]] || { echo "vs-bonnie.sh: bad ROUNDS '$ROUNDS'" >&2; exit 2; }
[ -z "$CHAR_MB" ] || [[ $CHAR_MB =~ ^[1-9][0-9]*$ ]] ||
	{ echo "vs-bonnie.sh: bad CHAR_MB '$CHAR_MB' (MiB)" >&2; exit 2; }


mib()	# mib SIZE: 256m, 1g, 1GiB -> whole MiB (bonnie++ -s takes MiB)
{
	python3 -c 'import re, sys
m = re.fullmatch(r"([0-9]+)([kmgt]|[KMGT]iB)?", sys.argv[1])
if not m:
    sys.exit("vs-bonnie.sh: bad size " + sys.argv[1] + " (e.g. 256m, 1g)")
u = (m.group(2) or "m")[0].lower()
b = int(m.group(1)) * 1024 ** "kmgt".index(u) * 1024
if b % 2**20 or b < 2 * 2**20:
    sys.exit("vs-bonnie.sh: size " + sys.argv[1] + " is not a whole number of MiB >= 2")
print(b // 2**20)' "$1"
}

RUNTIME_S=$(secs "$RUNTIME") || exit 2
STAT_S=$(secs "$STAT_RUNTIME") || exit 2
SIZE_MB=$(mib "$SIZE") || exit 2
WALL_MB=$(mib "$WALL_SIZE") || exit 2

# FILES = N[:MAX[:MIN[:DIRS]]] (bonnie++ -n) -> diskbench options
IFS=: read -r F_N F_MAX F_MIN F_DIRS F_EXTRA <<<"$FILES"
[[ $F_N =~ ^[1-9][0-9]*$ ]] && [[ ${F_MAX:-0} =~ ^[0-9]+$ ]] && [[ ${F_MIN:-0} =~ ^[0-9]+$ ]] &&
	[[ ${F_DIRS:-1} =~ ^[1-9][0-9]*$ ]] && [ -z "$F_EXTRA" ] ||
	{ echo "vs-bonnie.sh: bad FILES '$FILES' (N[:MAX[:MIN[:DIRS]]], N x 1024 files)" >&2; exit 2; }
F_MAX=${F_MAX:-0}
F_MIN=${F_MIN:-0}
[ "$F_MIN" -le "$F_MAX" ] || { echo "vs-bonnie.sh: FILES: MIN > MAX" >&2; exit 2; }
META_ARGS=(--files $((F_N * 1024)) --dirs "${F_DIRS:-1}")
if [ "$F_MIN" = "$F_MAX" ]; then
	META_ARGS+=(--file-size "$F_MIN")
else
	META_ARGS+=(--file-size "$F_MIN-$F_MAX")
fi

# bonnie++ refuses to run as root unless told which user to be.
BONNIE_USER=()
[ "$(id -u)" -eq 0 ] && BONNIE_USER=(-u root)

# Scratch for results in RAM; the benchmarked directory gets only the tools' files.
make_tmpdir /dev/shm
OUT=$TMP_DIR
[ -d "$DIR" ] && [ -w "$DIR" ] ||
	{ echo "vs-bonnie.sh: DIR=$DIR is not a writable directory" >&2; exit 2; }
WORK=$(mktemp -d "$DIR/diskbench-vs-bonnie.XXXXXX") || exit 1
at_exit "rm -rf -- '$WORK'"

ROWS=$OUT/runs.tsv
printf 'part\tmetric\ttool\tround\tvalue\n' >"$ROWS"

row()	# row PART METRIC TOOL ROUND VALUE
{
	printf '%s\t%s\t%s\t%s\t%s\n' "$@" >>"$ROWS"
}

# csv_fields FILE N...: the fields N (1-based) of the bonnie++ CSV line in FILE, tab-separated
csv_fields()
{
	local f=$1
	shift
	python3 - "$f" "$@" <<'EOF'
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.startswith("1.98,")]
if not lines:
    sys.exit(1)
v = lines[-1].split(",")
if len(v) != 50:
    sys.exit(1)
print("\t".join(v[int(n) - 1] for n in sys.argv[2:]))
EOF
}

# clean: nothing of a run may be left for the next (each tool removes its
# own files; this catches a crash). The directory is ours alone.
clean()
{
	find "$WORK" -mindepth 1 -delete 2>/dev/null
}

# fail_run TOOL PART ROUND STATUS ERRFILE
fail_run()
{
	echo "# $1 $2 round $3 failed (exit $4): $(tail -1 "$5")"
}

# ---- part char ---------------------------------------------------------

char_bonnie()	# char_bonnie ROUND
{
	local csv=$OUT/b.csv st v putc getc
	local fopt=()

	[ -n "$CHAR_MB" ] && fopt=("-f$CHAR_MB")
	bonnie++ -d "$WORK" -s "$SIZE_MB" -r $((SIZE_MB / 2)) -n 0 "${BONNIE_USER[@]}" -q \
		"${fopt[@]}" >"$csv" 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run bonnie++ char "$1" "$st" "$OUT/err"; return; }
	v=$(csv_fields "$csv" 10 16) || { echo "# bonnie++ char round $1: no CSV line"; return; }
	IFS=$'\t' read -r putc getc <<<"$v"
	row char putc bonnie++ "$1" "$putc"
	row char getc bonnie++ "$1" "$getc"
}

char_diskbench()	# char_diskbench MODE ROUND
{
	local csv=$OUT/d.csv st v putc getc

	rm -f "$csv"
	"$DISKBENCH" --profile bonnie --test char-write,char-read --char-mode "$1" \
		--size "$SIZE" --runtime "$RUNTIME" --ramp 0 --bonnie-csv "$csv" --quiet \
		"$WORK" >/dev/null 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run "diskbench-$1" char "$2" "$st" "$OUT/err"; return; }
	v=$(csv_fields "$csv" 10 16) || { echo "# diskbench-$1 char round $2: no CSV line"; return; }
	IFS=$'\t' read -r putc getc <<<"$v"
	row char putc "diskbench-$1" "$2" "$putc"
	row char getc "diskbench-$1" "$2" "$getc"
}

# ---- part meta ---------------------------------------------------------

META_NAMES=(seq-create seq-stat seq-delete rand-create rand-stat rand-delete)

meta_bonnie()	# meta_bonnie ROUND
{
	local csv=$OUT/b.csv st v i vals

	bonnie++ -d "$WORK" -s 0 -n "$FILES" "${BONNIE_USER[@]}" -q >"$csv" 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run bonnie++ meta "$1" "$st" "$OUT/err"; return; }
	v=$(csv_fields "$csv" 27 29 31 33 35 37) ||
		{ echo "# bonnie++ meta round $1: no CSV line"; return; }
	IFS=$'\t' read -r -a vals <<<"$v"
	for i in 0 1 2 3 4 5; do
		row meta "${META_NAMES[i]}" bonnie++ "$1" "${vals[i]}"
	done
}

# Two runs: create and delete end when the files are done (the runtime is
# only a cap); stat is time-based, so it gets a short runtime of its own.
meta_diskbench()	# meta_diskbench ROUND
{
	local st v w vals short
	local cd=$OUT/d1.csv cj=$OUT/d1.json sd=$OUT/d2.csv

	rm -f "$cd" "$cj" "$sd"
	"$DISKBENCH" --profile bonnie \
		--test meta-create,meta-delete,meta-create-rand,meta-delete-rand "${META_ARGS[@]}" \
		--runtime 10m --ramp 0 --bonnie-csv "$cd" --json "$cj" --quiet \
		"$WORK" >/dev/null 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run diskbench "meta create/delete" "$1" "$st" "$OUT/err"; return; }
	"$DISKBENCH" --profile bonnie --test meta-stat,meta-stat-rand "${META_ARGS[@]}" \
		--runtime "$STAT_RUNTIME" --ramp 0 --bonnie-csv "$sd" --quiet \
		"$WORK" >/dev/null 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run diskbench "meta stat" "$1" "$st" "$OUT/err"; return; }
	short=$(json "$cj" "' '.join('%s:%d' % (t['name'], t['ops']) for t in d['tests']
		if t['ops'] != $((F_N * 1024)))")
	[ -n "$short" ] && echo "# diskbench meta round $1: not every file done (time-bound): $short"
	v=$(csv_fields "$cd" 27 31 33 37) && w=$(csv_fields "$sd" 29 35) ||
		{ echo "# diskbench meta round $1: no CSV line"; return; }
	v+=$'\t'$w
	# columns: create delete create-rand delete-rand stat stat-rand
	IFS=$'\t' read -r -a vals <<<"$v"
	row meta seq-create diskbench "$1" "${vals[0]}"
	row meta seq-stat diskbench "$1" "${vals[4]}"
	row meta seq-delete diskbench "$1" "${vals[1]}"
	row meta rand-create diskbench "$1" "${vals[2]}"
	row meta rand-stat diskbench "$1" "${vals[5]}"
	row meta rand-delete diskbench "$1" "${vals[3]}"
}

# ---- part wall ---------------------------------------------------------

# wall_counts CSV TOOL ROUND: tests with a number (of 12), "+++++" fields, fields with a "+"
wall_counts()
{
	local v
	v=$(python3 - "$1" <<'EOF'
import sys
lines = [l for l in open(sys.argv[1]).read().splitlines() if l.startswith("1.98,")]
v = lines[-1].split(",")
rates = [v[i - 1] for i in (10, 12, 14, 16, 18, 20, 27, 29, 31, 33, 35, 37)]
def number(s):
    try:
        float(s)
        return True
    except ValueError:
        return False
print("%d\t%d\t%d" % (sum(map(number, rates)), sum(f.strip() == "+++++" for f in v),
                     sum("+" in f for f in v)))
EOF
	) || { echo "# $2 wall round $3: no CSV line"; return 1; }
	row wall tests-with-number "$2" "$3" "$(cut -f1 <<<"$v")"
	row wall plus-fields "$2" "$3" "$(cut -f2 <<<"$v")"
	row wall any-plus "$2" "$3" "$(cut -f3 <<<"$v")"
}

wall_bonnie()	# wall_bonnie ROUND
{
	local csv=$OUT/b.csv st

	/usr/bin/time -f %e -o "$OUT/time" bonnie++ -d "$WORK" -s "$WALL_MB" -r $((WALL_MB / 2)) \
		"${BONNIE_USER[@]}" -q >"$csv" 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run bonnie++ wall "$1" "$st" "$OUT/err"; return; }
	row wall wall-s bonnie++ "$1" "$(tail -1 "$OUT/time")"
	wall_counts "$csv" bonnie++ "$1"
	cp "$csv" "$OUT/wall-bonnie.csv"
}

wall_diskbench()	# wall_diskbench ROUND
{
	local csv=$OUT/d.csv st

	rm -f "$csv"
	/usr/bin/time -f %e -o "$OUT/time" "$DISKBENCH" --profile bonnie --size "$WALL_SIZE" \
		--bonnie-csv "$csv" --json "$OUT/wall.json" --quiet "$WORK" >/dev/null 2>"$OUT/err"
	st=$?
	clean
	[ "$st" -eq 0 ] || { fail_run diskbench wall "$1" "$st" "$OUT/err"; return; }
	row wall wall-s diskbench "$1" "$(tail -1 "$OUT/time")"
	wall_counts "$csv" diskbench "$1"
	# its block-write rate, for the lower bound of bonnie++'s real default
	row wall seq-write-MBps diskbench "$1" "$(json "$OUT/wall.json" \
		"[t['bytes_per_sec'] / 1e6 for t in d['tests'] if t['workload'] == 'seq-write'][0]")"
	cp "$csv" "$OUT/wall-diskbench.csv"
}

# ---- the rounds --------------------------------------------------------

# Seconds per round on this project's 2-core VM (ext4 on virtio), for the estimate.
est=$(python3 - "$PARTS" "$SIZE_MB" "$RUNTIME_S" "$F_N" "$STAT_S" "$WALL_MB" "$ROUNDS" <<'EOF'
import sys
parts, size, rt, n, st, wall, rounds = sys.argv[1].split(), *map(float, sys.argv[2:])
t = 0
if "char" in parts:
    t += 3 + size / 100 + 2 * (2 * rt + 1)
if "meta" in parts:
    t += 3 * n / 16 + 2 + 2 * st + 2 * n / 16
if "wall" in parts:
    t += 8 * wall / 1024 + 57 + 3 * wall / 1024
print(round(t * rounds / 60, 1))
EOF
)
bver=$(dpkg-query -W -f '${Version}' bonnie++ 2>/dev/null || echo '?')
echo "# $("$DISKBENCH" --version | head -1) vs bonnie++ $bver; kernel $(uname -r), $(nproc) CPUs," \
	"$(($(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024)) MiB RAM"
echo "# in $WORK ($(df --output=source,fstype "$WORK" | tail -1 | tr -s ' '))"
echo "# $ROUNDS rounds of: $PARTS; SIZE=$SIZE FILES=$FILES RUNTIME=$RUNTIME" \
	"STAT_RUNTIME=$STAT_RUNTIME WALL_SIZE=$WALL_SIZE${CHAR_MB:+ CHAR_MB=$CHAR_MB}; about $est min"

for ((round = 1; round <= ROUNDS; round++)); do
	for part in $PARTS; do
		case $part in
		char)
			if ((round % 2)); then
				char_bonnie "$round"
				char_diskbench syscall "$round"
				char_diskbench stdio "$round"
			else
				char_diskbench stdio "$round"
				char_diskbench syscall "$round"
				char_bonnie "$round"
			fi
			;;
		meta)
			if ((round % 2)); then
				meta_bonnie "$round"
				meta_diskbench "$round"
			else
				meta_diskbench "$round"
				meta_bonnie "$round"
			fi
			;;
		wall)
			if ((round % 2)); then
				wall_bonnie "$round"
				wall_diskbench "$round"
			else
				wall_diskbench "$round"
				wall_bonnie "$round"
			fi
			;;
		esac
	done
	echo "# round $round of $ROUNDS done"
done

[ -n "$RESULTS" ] && cp "$ROWS" "$RESULTS" && echo "# per-run rows saved in $RESULTS"

python3 - "$ROWS" "$F_N" "$OUT" "$(awk '/MemTotal/ { print $2 }' /proc/meminfo)" <<'EOF'
import csv, os, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1]), delimiter="\t"))
files = int(sys.argv[2]) * 1024
out = sys.argv[3]
ram = int(sys.argv[4]) * 1024

def vals(part, metric, tool):
    return [r["value"] for r in rows
            if r["part"] == part and r["metric"] == metric and r["tool"] == tool]

def nums(v):
    o = []
    for s in v:
        try:
            o.append(float(s))
        except ValueError:
            pass
    return o

def stat(part, metric, tool):
    """(median, min, max, runs with a number, runs)"""
    v = vals(part, metric, tool)
    n = nums(v)
    if not n:
        return (None, None, None, 0, len(v))
    return (statistics.median(n), min(n), max(n), len(n), len(v))

def fmt(x, w=10):
    if x is None:
        return "%*s" % (w, "-")
    if abs(x) >= 100 or x == int(x):
        return "%*.0f" % (w, x)
    return "%*.2f" % (w, x)

def cell(s, w=10):
    med, lo, hi, n, total = s
    if med is None:
        return "%*s %-21s" % (w, "-", "(no number in %d)" % total)
    extra = "" if n == total else " %d/%d" % (n, total)
    return "%s %-21s" % (fmt(med, w), "[%s-%s]%s" % (fmt(lo, 0), fmt(hi, 0), extra))

def ratio(a, b):
    if a[0] is None or b[0] is None or not b[0]:
        return "     -"
    return "%6.3f" % (a[0] / b[0])

parts = []
for r in rows:
    if r["part"] not in parts:
        parts.append(r["part"])

LINE = "%-17s %-19s %s %s %s"
hdr = LINE % ("test", "diskbench mode", "%10s %-21s" % ("diskbench", "[min-max]"),
              "%10s %-21s" % ("bonnie++", "[min-max]"), " ratio")
print()
if "char" in parts:
    print("per-char, K/sec (1024 B/s), higher is better; ratio = diskbench / bonnie++ (medians)")
    print(hdr)
    for m, what in (("putc", "write"), ("getc", "read")):
        b = stat("char", m, "bonnie++")
        for mode, note in (("syscall", "equivalent"), ("stdio", "info")):
            d = stat("char", m, "diskbench-" + mode)
            print(LINE % ("char-" + what, "--char-mode " + mode, cell(d), cell(b),
                          ratio(d, b)) + "  " + note)
    print("equivalent: both do one-byte write()/read() system calls (bonnie++ 2.00's per-char);"
          " info: diskbench's putc/getc through stdio, not what bonnie++ 2.00 measures")
    print()
if "meta" in parts:
    print("create/stat/delete of %d files, files/sec, higher is better; ratio = diskbench /"
          " bonnie++ (medians)" % files)
    print(hdr)
    for m in ("seq-create", "seq-stat", "seq-delete", "rand-create", "rand-stat", "rand-delete"):
        d = stat("meta", m, "diskbench")
        b = stat("meta", m, "bonnie++")
        plus = sum(1 for s in vals("meta", m, "bonnie++") if s.startswith("+"))
        note = ("bonnie++ +++++ in %d/%d (> %d/s)" % (plus, len(vals("meta", m, "bonnie++")),
                                                      files * 2)) if plus else ""
        print(LINE % (m, "", cell(d), cell(b), ratio(d, b)) + "  " + note)
    print("bonnie++ prints +++++ for a test under 500 ms: no number, only a lower bound"
          " (files / 0.5 s); medians use the runs with a number")
    print()
if "wall" in parts:
    print("whole suite: wall time (s), lower is better; tests with a number (of 12);"
          " '+++++' fields in the CSV line")
    print(hdr)
    d, b = stat("wall", "wall-s", "diskbench"), stat("wall", "wall-s", "bonnie++")
    print(LINE % ("wall-seconds", "--profile bonnie", cell(d), cell(b), ratio(d, b)))
    for m in ("tests-with-number", "plus-fields"):
        d, b = stat("wall", m, "diskbench"), stat("wall", m, "bonnie++")
        print(LINE % (m, "", cell(d), cell(b), ""))
    for tool, f in (("diskbench", "diskbench"), ("bonnie++", "bonnie")):
        p = os.path.join(out, "wall-%s.csv" % f)
        if os.path.exists(p):
            print("last %s line: %s" % (tool, open(p).read().strip().splitlines()[-1]))
    dp = nums(vals("wall", "any-plus", "diskbench"))
    print("diskbench fields with a '+' over all rounds: %d%s" % (sum(dp), "" if not sum(dp)
                                                            else "  <-- FAIL: must be 0"))
    w = stat("wall", "seq-write-MBps", "diskbench")
    if w[0]:
        size = 2 * ram
        print("bonnie++'s real default (-s 2 x RAM = %.1f GiB) writes, rewrites and reads that"
              " file:\nits first write alone takes >= %.0f s at diskbench's median block-write"
              " rate (%.0f MB/s; an estimate),\nvs %.0f s for all of diskbench --profile bonnie"
              % (size / 2**30, size / (w[0] * 1e6), w[0],
                 stat("wall", "wall-s", "diskbench")[0] or 0))
EOF
exit 0
