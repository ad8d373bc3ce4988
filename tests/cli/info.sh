#!/bin/bash
# info.sh - `diskbench info`: facts and write verdicts for a directory, a file, a
# symlink, a path wider than a line and (root) a loop device; JSON target keys
# equal to a run's; bad targets.
#
# info only reads: sysfs, mountinfo, and block devices opened read-only. The
# loop part needs root and is skipped (with a note) otherwise.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u
: "${srcdir:=$(cd "$(dirname "$0")/../.." && pwd)}"
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3

make_tmpdir /tmp
W=$TMP_DIR
DIR=/var/tmp
[ -d "$DIR" ] || DIR=/tmp

# info ARGS...: run diskbench info, stdout to $W/out, stderr to $W/err, status in rc.
info()
{
	"$DISKBENCH" info "$@" >"$W/out" 2>"$W/err"
	rc=$?
}

# has REGEX: the last text output has a matching line.
has()
{
	grep -Eq -- "$1" "$W/out" || { cat "$W/out" "$W/err"; fail "no line matching '$1'"; }
}

narrow()
{
	awk 'length($0) > 100 { print length($0) ": " $0; bad = 1 } END { exit bad }' "$W/out" ||
		fail "info text wider than 100 columns"
}

# ---- a directory: writes allowed ------------------------------------------------
info "$DIR"
[ $rc -eq 0 ] || { cat "$W/err"; fail "info $DIR: exit $rc"; }
has "^target: +$DIR\$"
has '^what: +directory$'
has '^file system: +[a-z0-9]'
has '^writes allowed: yes, because '
narrow

info --json "$W/dir.json" "$DIR"
[ $rc -eq 0 ] || { cat "$W/err"; fail "info --json FILE: exit $rc"; }
has '^writes allowed: yes'	# the text still goes to stdout
python3 - "$W/dir.json" <<'EOF' || fail "info JSON of a directory"
import json, sys
d = json.load(open(sys.argv[1]))
assert d["schema"] == "diskbench/1", d.get("schema")
t, w = d["target"], d["writes"]
assert t["kind"] == "directory" and t["kind_detail"] == "directory", t
assert t["fs_type"], "no fs_type"
assert t["fs_size_bytes"] > 0 and t["free_bytes"] <= t["fs_size_bytes"], t
assert isinstance(t["stack"], list) and isinstance(t["schedulers"], list)
assert isinstance(t["encrypted"], bool) and isinstance(t["cow"], bool)
assert w["allowed"] is True and w["reason"], w
assert set(w) >= {"allowed", "reason", "overridable", "with_destructive"}, w
assert set(w["with_destructive"]) == {"allowed", "reason"}, w
EOF

# The target object is the one a run reports: same keys.
"$DISKBENCH" --engine null --test rand-read --runtime 10ms --ramp 0 --quiet --json - "$DIR" \
	>"$W/run.json" 2>"$W/err" || { cat "$W/err"; fail "null run on $DIR: exit $?"; }

# ---- a regular file: only with --destructive; a symlink shows where it leads --------
f=$W/data
head -c 65536 /dev/urandom >"$f" || fail "cannot write $f"
ln -s "$f" "$W/link"
info "$W/link"
[ $rc -eq 0 ] || { cat "$W/err"; fail "info on a file: exit $rc (info is informative)"; }
has "^target: +$W/link\$"
has "^resolved path: +$f\$"
has '^what: +regular file$'
has '^size: .*\(65536 bytes\)'
has '^writes allowed: no, because .*--destructive'
has '^with --destructive: yes'
narrow

info --destructive "$f"
[ $rc -eq 0 ] || fail "info --destructive: exit $rc"
has '^writes allowed: yes, because '
grep -q '^with --destructive:' "$W/out" && fail "a second verdict although --destructive was given"

info --json - "$W/link"
[ $rc -eq 0 ] || fail "info --json -: exit $rc"
grep -q '^writes allowed' "$W/out" && fail "text mixed into the JSON on stdout"
cp "$W/out" "$W/file.json"
python3 - "$W/file.json" "$f" <<'EOF' || fail "info JSON of a file"
import json, sys
d = json.load(open(sys.argv[1]))
t, w = d["target"], d["writes"]
assert t["kind"] == "file" and t["kind_detail"] == "regular file", t
assert t["resolved_path"] == sys.argv[2], t["resolved_path"]
assert t["size_bytes"] == 65536, t["size_bytes"]
assert w["allowed"] is False and w["with_destructive"]["allowed"] is True, w
EOF

# ---- a path wider than a line: cut between characters, within 100 columns ----------
u=$W/$(printf '\303\251%.0s' $(seq 1 120))
mkdir "$u" || fail "cannot make $u"
info "$u"
[ $rc -eq 0 ] || { cat "$W/err"; fail "info on a long UTF-8 path: exit $rc"; }
python3 - "$W/out" <<'EOF' || { cat "$W/out"; fail "info cut a character, or is too wide"; }
import sys
for line in open(sys.argv[1], "rb").read().split(b"\n"):
    s = line.decode("utf-8")    # fails on a character cut in two
    assert len(s) <= 100, (len(s), s)
EOF

# ---- bad input: one line, exit 2, nothing written ---------------------------------
for bad in "$W/missing" /dev/null; do
	info "$bad"
	[ $rc -eq 2 ] || fail "info $bad: exit $rc, want 2"
	[ "$(wc -l <"$W/err")" -eq 1 ] || { cat "$W/err"; fail "info $bad: not one line"; }
	grep -q "^diskbench: $bad: " "$W/err" || { cat "$W/err"; fail "info $bad: message"; }
	[ -s "$W/out" ] && fail "info $bad: wrote to stdout"
done
info
[ $rc -eq 2 ] || fail "info without a target: exit $rc, want 2"
info --json "$W/no/such/dir/x.json" "$DIR"
[ $rc -eq 2 ] || fail "info --json into a missing directory: exit $rc, want 2"
info --help
[ $rc -eq 0 ] && grep -q '^usage: diskbench info' "$W/out" || fail "info --help"

# ---- root: a blank loop device --------------------------------------------------
if [ "$(id -u)" -ne 0 ] || ! command -v losetup >/dev/null; then
	echo "# loop device part skipped: needs root and losetup"
	files="$W/dir.json $W/file.json"
else
	make_loop 8 none "$W"
	info "$LOOP_DEV"
	[ $rc -eq 0 ] || { cat "$W/err"; fail "info $LOOP_DEV: exit $rc"; }
	has '^what: +block device: loop$'
	has "^model: +loop:$LOOP_IMG\$"
	has '^scheduler: +[^ ]+ \[[a-z]'
	has "^rotational: .*a loop device's flag says nothing of its store"
	has '^writes allowed: no, because '
	narrow
	info --json "$W/loop.json" "$LOOP_DEV"
	[ $rc -eq 0 ] || fail "info --json on $LOOP_DEV: exit $rc"
	python3 - "$W/loop.json" "$LOOP_IMG" "$LOOP_NAME" <<'EOF' || fail "info JSON of a loop"
import json, sys
d = json.load(open(sys.argv[1]))
t, w = d["target"], d["writes"]
assert t["kind"] == "block" and t["kind_detail"] == "loop", t
assert t["device"] == sys.argv[3] and t["disk"] == sys.argv[3], t
assert sys.argv[2] in t["model"], t["model"]
assert t["schedulers"] and t["scheduler"] in t["schedulers"], t
assert t["size_bytes"] == 8 << 20, t["size_bytes"]
assert t["fs_size_bytes"] is None and t["free_bytes"] is None, t
assert t["write_cache"] in (True, False, None) and t["discard"] in (True, False, None)
# what the queue says, as it says it
q = "/sys/block/%s/queue/" % sys.argv[3]
assert t["discard_max_bytes"] == int(open(q + "discard_max_bytes").read()), t
assert t["discard_granularity"] == int(open(q + "discard_granularity").read()), t
assert w["allowed"] is False, w
EOF
	files="$W/dir.json $W/file.json $W/loop.json"
fi

# shellcheck disable=SC2086 # files is a list
python3 - "$W/run.json" $files <<'EOF' || fail "target keys differ between run and info"
import json, sys
run = json.load(open(sys.argv[1]))["target"]
for p in sys.argv[2:]:
    info = json.load(open(p))["target"]
    assert list(info) == list(run), "%s: %s" % (p, set(info) ^ set(run))
for k in ("kind_detail", "vendor", "serial", "schedulers", "max_sectors_kb", "write_cache",
          "discard", "fs_size_bytes", "free_bytes", "stack", "encrypted", "cow"):
    assert k in run, "run target lacks " + k
EOF
echo "ok"
