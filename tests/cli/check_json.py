#!/usr/bin/env python3
"""check_json.py - sanity checks of a diskbench JSON result (schema diskbench/1).

usage: check_json.py FILE [--engine NAME] [--direct true|false] [--tests N]
                          [--device-reads] [--null] [--syscalls]
Exits 1 with one line per problem; 0 when the document is sane.
"""
import json
import sys


def main():
    args = sys.argv[1:]
    path = args.pop(0)
    want = {}
    while args:
        a = args.pop(0)
        if a in ("--device-reads", "--null", "--syscalls"):
            want[a] = True
        else:
            want[a] = args.pop(0)
    with open(path) as f:
        d = json.load(f)
    bad = []

    def check(cond, msg):
        if not cond:
            bad.append(msg)

    check(d.get("schema") == "diskbench/1", "schema is %r" % d.get("schema"))
    for key in ("tool", "started_at", "host", "target", "settings", "tests"):
        check(key in d, "missing key %s" % key)
    check(d["tool"]["name"] == "diskbench", "tool.name")
    for key in ("hostname", "kernel", "cpu_model", "cpus", "memory_bytes"):
        check(key in d["host"], "missing host.%s" % key)
    for key in ("path", "kind", "device", "logical_block_size", "physical_block_size"):
        check(key in d["target"], "missing target.%s" % key)
    check(d["target"]["kind"] in ("block", "file", "directory"), "target.kind")
    tests = d["tests"]
    if "--tests" in want:
        check(len(tests) == int(want["--tests"]),
              "%d tests, want %s" % (len(tests), want["--tests"]))
    check(len(tests) > 0, "no tests")
    for t in tests:
        n = t["name"]
        lat = t["lat_ns"]
        p = lat["percentiles"]
        check(t["ops"] > 0, "%s: ops %d" % (n, t["ops"]))
        check(t["bytes"] == t["ops"] * t["bs"], "%s: bytes != ops x bs" % n)
        check(t["errors"] == 0, "%s: %d errors" % (n, t["errors"]))
        check(t["runtime_ns"] > 0, "%s: runtime_ns" % n)
        iops = t["ops"] / (t["runtime_ns"] / 1e9)
        check(abs(t["iops"] - iops) <= 0.01 * iops + 1, "%s: iops %r vs %r" % (n, t["iops"], iops))
        bps = t["bytes"] / (t["runtime_ns"] / 1e9)
        check(abs(t["bytes_per_sec"] - bps) <= 0.01 * bps + 1, "%s: bytes_per_sec" % n)
        keys = ["1", "5", "10", "25", "50", "75", "90", "95", "99", "99.9", "99.99", "99.999"]
        vals = [p[k] for k in keys]
        check(vals == sorted(vals), "%s: percentiles out of order %r" % (n, vals))
        check(lat["min"] <= vals[0] and vals[-1] <= lat["max"], "%s: percentiles outside min..max" % n)
        check(lat["min"] <= lat["mean"] <= lat["max"], "%s: mean outside min..max" % n)
        check(lat["stdev"] >= 0, "%s: stdev" % n)
        hist_total = sum(c for _, c in lat["histogram"])
        check(hist_total == t["ops"], "%s: histogram holds %d samples, ops %d" % (n, hist_total, t["ops"]))
        lows = [b for b, _ in lat["histogram"]]
        check(lows == sorted(lows), "%s: histogram buckets out of order" % n)
        cpu = t["cpu"]
        check(cpu["user_pct"] >= 0 and cpu["sys_pct"] >= 0 and cpu["usec_per_op"] >= 0, "%s: cpu" % n)
        # the tool's own system calls: null when not counted (or saved
        # before they were); else a count that per_op (3 decimals) matches
        sc = t.get("syscalls")
        if "--syscalls" in want:
            check(sc is not None, "%s: no syscalls count" % n)
        if sc is not None:
            check(sc["total"] >= 0 and sc["per_op"] >= 0, "%s: syscalls %r" % (n, sc))
            check(abs(sc["total"] - sc["per_op"] * t["ops"]) <= 0.0005 * t["ops"] + 1,
                  "%s: syscalls total %d != per_op %r x ops %d" % (n, sc["total"], sc["per_op"],
                                                                  t["ops"]))
        if "job_max_pct" in cpu:
            check(cpu["job_max_pct"] >= 0, "%s: cpu.job_max_pct" % n)
        if "--engine" in want:
            check(t["engine"] == want["--engine"], "%s: engine %s" % (n, t["engine"]))
        if "--direct" in want:
            check(t["direct"] == (want["--direct"] == "true"), "%s: direct %r" % (n, t["direct"]))
        if "--null" in want:
            check(t["device"] is None, "%s: null engine reports device bytes" % n)
        if "--device-reads" in want and t["rw"] == "read":
            dev = t["device"]
            check(dev is not None, "%s: no device counters" % n)
            if dev is not None:
                # O_DIRECT reads must reach the device; the window is
                # sampled by another thread, so allow some slack.
                check(dev["read_bytes"] >= 0.8 * t["bytes"],
                      "%s: device read %d bytes for %d requested" % (n, dev["read_bytes"], t["bytes"]))
                check(not t["cached"], "%s: flagged cached" % n)
    for b in bad:
        print("check_json: %s: %s" % (path, b))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
