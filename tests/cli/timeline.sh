#!/bin/bash
# timeline.sh - every test's timeline in the JSON: points every --interval
# over the measured window, adding up to the test's ops and bytes, t_ns
# rising; each run's with --repeat; a saved result renders it again byte for
# byte; a bad --interval is a usage error that leaves nothing behind.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
make_tmpdir /dev/shm
cd "$TMP_DIR" || fail "cd"
mkdir target || fail "mkdir"

# timeline_ok FILE RUNTIME_NS INTERVAL_NS: the timelines of FILE are sound
timeline_ok()
{
	python3 - "$@" <<'PY'
import json, math, sys
d = json.load(open(sys.argv[1]))
runtime, interval = int(sys.argv[2]), int(sys.argv[3])
cols = ["t_ns", "ops", "bytes", "lat_p50_ns", "lat_p99_ns", "lat_max_ns"]
bad = []

def check(name, tl, ops, bytes_, run_ns, lat):
    if tl is None:
        bad.append("%s: no timeline" % name)
        return
    if tl["interval_ns"] != interval or tl["merges"] != 0:
        bad.append("%s: interval %r, merges %r" % (name, tl["interval_ns"], tl["merges"]))
    if tl["columns"][:6] != cols:
        bad.append("%s: columns %r" % (name, tl["columns"]))
    pts = tl["points"]
    # one point per interval, the last up to where the window closed; a
    # sampler woken late on a loaded host closes one longer interval instead
    # of two (its point's t_ns says so): each such gap may stand for the
    # intervals it spans, no more
    want = math.ceil(runtime / interval)
    t = [p[0] for p in pts]
    gaps = [b - a for a, b in zip([0] + t, t)]
    late = sum(round(g / interval) - 1 for g in gaps if g > 1.5 * interval)
    if not want - late <= len(pts) <= want:
        bad.append("%s: %d points, want %d (%d late): t_ns %r"
                   % (name, len(pts), want, late, t))
    if any(b <= a for a, b in zip(t, t[1:])) or not t or t[0] <= 0:
        bad.append("%s: t_ns do not rise: %r" % (name, t))
    elif t[-1] < run_ns:
        bad.append("%s: the last point ends at %d, before the window (%d)" % (name, t[-1], run_ns))
    if sum(p[1] for p in pts) != ops:
        bad.append("%s: points hold %d ops, the test %d" % (name, sum(p[1] for p in pts), ops))
    if sum(p[2] for p in pts) != bytes_:
        bad.append("%s: points hold %d bytes, the test %d" % (name, sum(p[2] for p in pts), bytes_))
    for p in pts:
        if p[1] and not (lat["min"] <= p[3] <= p[4] <= p[5] <= lat["max"]):
            bad.append("%s: point %r: latencies out of order or outside %d..%d"
                       % (name, p, lat["min"], lat["max"]))

for t in d["tests"]:
    runs = t["runs"]
    if len(runs) == 1:
        check(t["name"], t["timeline"], t["ops"], t["bytes"], t["runtime_ns"], t["lat_ns"])
    else:
        # the test's is its first run's; each run has its own
        if t["timeline"] != runs[0]["timeline"]:
            bad.append("%s: the test's timeline is not its first run's" % t["name"])
        for i, r in enumerate(runs):
            check("%s run %d" % (t["name"], i + 1), r.get("timeline"), r["ops"], r["bytes"],
                  r["runtime_ns"], t["lat_ns"])
            if "timeline_drift" not in r:
                bad.append("%s run %d: no timeline_drift" % (t["name"], i + 1))
    drift = t["timeline_drift"]
    if drift is not None and t["drifted"] != (abs(drift) > 0.20):
        bad.append("%s: drift %r but drifted %r" % (t["name"], drift, t["drifted"]))
for b in bad:
    print("timeline:", sys.argv[1] + ":", b)
sys.exit(1 if bad else 0)
PY
}

# ---- a real run, 2 s in 200 ms intervals, after a ramp -----------------------
"$DISKBENCH" --test rand-read,seq-write --qd 1 --runtime 2s --ramp 200ms --interval 200ms \
	--size 16m --json real.json target >real.txt 2>real.err ||
	fail "a real run: exit $? ($(cat real.err))"
timeline_ok real.json 2000000000 200000000 || fail "the real run's timelines"
[ "$(json real.json 'd["settings"]["interval"]')" = 200ms ] ||
	fail "--interval is not in the settings: $(json real.json 'd["settings"]')"
# a drifted test is named in the warning, as the JSON marks it
for name in $(json real.json '" ".join(t["name"].replace(" ", "_") for t in d["tests"] if t["drifted"])'); do
	grep -q "did not settle" real.err && grep -q "${name//_/ } (\(rose\|fell\) [0-9]* %" real.err ||
		fail "$name drifted, no warning: $(cat real.err)"
done
# a saved result renders its timelines again, byte for byte
"$DISKBENCH" report --quiet --json again.json real.json || fail "report: exit $?"
cmp -s real.json again.json || fail "report --json changed the document: $(diff real.json again.json | head)"

# ---- --repeat: every run its own; the default interval of a 1 s test --------
"$DISKBENCH" --engine null --test rand-read --qd 1 --runtime 1s --ramp 0 --size 64m \
	--repeat 2 --quiet --json rep.json target 2>rep.err ||
	fail "--repeat 2: exit $? ($(cat rep.err))"
timeline_ok rep.json 1000000000 100000000 || fail "the --repeat runs' timelines"
[ "$(json rep.json '"interval" in d["settings"]')" = False ] ||
	fail "an unset --interval was echoed: $(json rep.json 'd["settings"]')"

# ---- bad values: one line naming the option, exit 2, nothing written ---------
expect_usage "--interval: value out of range: '0'" --interval 0 --json bad.json target
expect_usage "--interval: invalid duration 'abc'" --interval abc --json bad.json target
expect_usage "--interval: value out of range: '5ms'" --interval 5ms --json bad.json target
[ -e bad.json ] && fail "a refused --interval wrote bad.json"
echo "ok: timelines"
