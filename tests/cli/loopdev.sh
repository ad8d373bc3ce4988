#!/bin/bash
# loopdev.sh - every working engine reads a real block device; writes are refused, data untouched.
#
# Root only (skips with 77 otherwise): a loop device on a 64 MiB random image in
# /dev/shm. Each engine that `diskbench list engines` reports working runs
# seq-read and rand-read, 4k, QD 1 and 8; the JSON must be consistent (ops,
# bytes, ordered percentiles, min <= mean <= max) and O_DIRECT reads must have
# reached the device (its counters show >= 90 % of the bytes). Then write tests
# on the device and on the image file must be refused (exit 3) without
# --destructive, and the data must hash the same as before.
[ -n "${BASH_VERSION:-}" ] || exec bash "$0" "$@"
set -u

. "$(dirname "$0")/lib.sh"

need_root
need_cmd python3 sha256sum losetup
need_diskbench

make_loop 64 random
WORK=$TMP_DIR
sum_dev=$(sha256sum <"$LOOP_DEV" | cut -d' ' -f1)
sum_img=$(sha256sum <"$LOOP_IMG" | cut -d' ' -f1)
[ "$sum_dev" = "$sum_img" ] || fail "$LOOP_DEV does not read back its image"

# `list engines` prints a header, then "NAME yes|no DESCRIPTION / WHY NOT" rows.
"$DISKBENCH" list engines >"$WORK/engines" 2>&1 || fail "diskbench list engines exited $?"
engines=$(awk 'NR > 1 && tolower($2) ~ /^(yes|ok)$/ { print $1 }' "$WORK/engines")
[ -n "$engines" ] || { cat "$WORK/engines"; fail "no engine reported as working"; }
echo "# engines: ${engines//$'\n'/ }"

rc=0
for eng in $engines; do
	out=$WORK/$eng.json
	"$DISKBENCH" --engine "$eng" --test seq-read,rand-read --bs 4k --qd 1,8 \
		--runtime 300ms --ramp 0 --quiet --json "$out" "$LOOP_DEV" 2>"$WORK/$eng.err" ||
		{ st=$?; cat "$WORK/$eng.err"; echo "FAIL: $eng: diskbench exited $st"; rc=1; continue; }
	python3 - "$out" "$eng" <<'EOF' || rc=1
import json, sys
path, eng = sys.argv[1], sys.argv[2]
d = json.load(open(path))
errs = []
def need(cond, what):
    if not cond:
        errs.append(what)
need(d.get("schema") == "diskbench/1", "schema is %r" % d.get("schema"))
tests = d.get("tests", [])
need({t.get("workload") for t in tests} == {"seq-read", "rand-read"},
     "workloads %r, want seq-read and rand-read" % sorted({t.get("workload") for t in tests}))
for t in tests:
    n = t.get("name", "?")
    def chk(cond, what):
        need(cond, "%s: %s" % (n, what))
    chk(t["engine"] == eng, "engine %r" % t["engine"])
    chk(t["bs"] == 4096, "bs %r" % t["bs"])
    chk(t["qd"] in (1, 8), "qd %r" % t["qd"])
    chk(t["direct"] in (True, 1, "true"), "not O_DIRECT by default")
    chk(t["ops"] > 0, "no ops")
    chk(t["bytes"] == t["ops"] * t["bs"], "bytes %d != ops %d x bs %d" % (t["bytes"], t["ops"], t["bs"]))
    chk(t["runtime_ns"] > 0, "runtime_ns %r" % t["runtime_ns"])
    chk(abs(t["iops"] - t["ops"] * 1e9 / t["runtime_ns"]) <= 0.01 * t["iops"] + 1,
        "iops %r != ops / runtime" % t["iops"])
    chk(abs(t["bytes_per_sec"] - t["bytes"] * 1e9 / t["runtime_ns"]) <= 0.01 * t["bytes_per_sec"] + 1,
        "bytes_per_sec %r != bytes / runtime" % t["bytes_per_sec"])
    chk(not t.get("errors"), "errors %r" % t.get("errors"))
    lat = t["lat_ns"]
    p = lat["percentiles"]
    keys = ["50", "90", "99", "99.9", "99.99"]
    chk(all(k in p for k in keys), "percentiles %r" % sorted(p))
    vals = [p.get(k, 0) for k in keys]
    chk(vals == sorted(vals), "percentiles not non-decreasing: %r" % vals)
    chk(0 < lat["min"] <= lat["mean"] <= lat["max"], "min/mean/max %r %r %r"
        % (lat["min"], lat["mean"], lat["max"]))
    chk(lat["min"] <= vals[0] and vals[-1] <= lat["max"] * 1.02,
        "percentiles outside [min, max]")
    cpu = t.get("cpu") or {}
    chk(all(k in cpu for k in ("user_pct", "sys_pct", "usec_per_op")), "cpu %r" % cpu)
    dev = t.get("device")
    if eng == "null":
        continue    # no I/O: nothing can reach the device
    chk(isinstance(dev, dict), "no device counters for a block device")
    if isinstance(dev, dict):
        chk(dev["read_bytes"] >= 0.9 * t["bytes"], "device read %d of %d bytes: O_DIRECT reads "
            "did not reach the device" % (dev["read_bytes"], t["bytes"]))
        chk(dev["write_bytes"] == 0, "device wrote %d bytes during a read test" % dev["write_bytes"])
for e in errs:
    print("FAIL: %s: %s" % (eng, e))
print("%s %s: %d tests" % ("ok  " if not errs else "BAD ", eng, len(tests)))
sys.exit(1 if errs else 0)
EOF
done

# Many jobs and no ramp: the device counters' start sample predates the
# windows, so the device moved at least every byte they counted (and no
# "page cache?" warning, which once came from a late start sample). The
# same after a ramp: the sample is taken a moment before the ramp ends;
# but the requests in flight when a window opens (at most qd per job) were
# sent during the ramp, and the device may have counted them before its
# sample while the window counts them when they are reaped: that much less
# is allowed then, and no more.
for ramp in 0 200ms; do
	"$DISKBENCH" --test rand-read,seq-read --jobs 32 --qd 4 --bs 4k --runtime 100ms \
		--ramp "$ramp" --quiet --json "$WORK/jobs.json" "$LOOP_DEV" 2>"$WORK/jobs.err" ||
		fail "--jobs 32 --ramp $ramp: exit $?: $(cat "$WORK/jobs.err")"
	grep -q "did not reach the device" "$WORK/jobs.err" &&
		fail "--jobs 32 --ramp $ramp: $(cat "$WORK/jobs.err")"
	slack=0
	[ "$ramp" = 0 ] || slack=$((32 * 4 * 4096))
	json "$WORK/jobs.json" "all(t['device']['read_bytes'] >= t['bytes'] - $slack for t in d['tests'])" |
		grep -qx True || fail "--jobs 32 --ramp $ramp: the device moved less than was counted: \
$(json "$WORK/jobs.json" '[(t["bytes"], t["device"]["read_bytes"]) for t in d["tests"]]')"
	echo "ok   --jobs 32 --ramp $ramp: device bytes >= counted bytes"
done

# Writes without --destructive: refused (3), on the device and on the file.
for target in "$LOOP_DEV" "$LOOP_IMG"; do
	for t in seq-write rand-write; do
		"$DISKBENCH" --test "$t" --bs 4k --qd 1 --runtime 200ms --ramp 0 --quiet \
			--json "$WORK/w.json" "$target" >"$WORK/w.out" 2>&1
		st=$?
		if [ "$st" -ne 3 ]; then
			cat "$WORK/w.out"
			echo "FAIL: --test $t on $target exited $st, want 3 (refused)"
			rc=1
		else
			echo "ok   --test $t on $target refused: $(tail -1 "$WORK/w.out")"
		fi
	done
done

[ "$(sha256sum <"$LOOP_DEV" | cut -d' ' -f1)" = "$sum_dev" ] || fail "$LOOP_DEV changed!"
[ "$(sha256sum <"$LOOP_IMG" | cut -d' ' -f1)" = "$sum_img" ] || fail "$LOOP_IMG changed!"
echo "ok   data unchanged (sha256 $sum_dev)"

[ "$rc" -eq 0 ] || fail "see above"
echo "PASS"
exit 0
