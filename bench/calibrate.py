#!/usr/bin/env python3
"""calibrate.py - the rows and the table of bench/calibrate.sh.

  calibrate.py row PART JSON...   one ledger row's outcome columns, from the
                                  JSON of one step (tab-separated, see COLS)
  calibrate.py table LEDGER...    the table of issue 20's goals, from ledgers
  calibrate.py rejudge LEDGER KEEP DISKBENCH
                                  the compare rows judged again by DISKBENCH's
                                  compare from the runs kept in KEEP (the
                                  directory calibrate.sh's KEEP filled); the
                                  ledger is rewritten, each such row's
                                  outcome new and "judged" naming the version

A ledger is a tab-separated file, a header line then a row per step (an A/A
sweep, an A/A pair, a power sweep, a power pair of comparisons). calibrate.sh
appends a row as each step ends, so a run that is stopped keeps what it did
and the next run with the same LEDGER goes on where it stopped.
"""
import csv
import statistics
import sys

# the columns calibrate.sh writes before the outcome (KEY: a step's identity)
KEY = ["load", "part", "i", "trial", "blocks", "repeat", "noise", "iops"]
# others_cpu_pct: the share of the machine's CPU time in the step that was
# neither idle nor the script's own runs (the hogs, other users, kernel
# threads such as the loop device's worker)
CONTEXT = ["date", "version", "kernel", "load1_before", "load1_after", "others_cpu_pct"]
# the outcome columns `row` prints ("-": not this part's)
OUTCOME = ["false", "rec", "found10", "found30", "vetoed", "drifted", "early", "cpu", "text"]
# judged: the version whose compare judged a compare row's runs again
# (rejudge); empty: the version that ran them (calibrate.sh writes none)
COLS = KEY + CONTEXT + OUTCOME + ["judged"]

BW = ("better", "worse")


def load(path):
    import json
    with open(path) as f:
        return json.load(f)


def tune_calls(d, config):
    """the verdict words of a config's judged throughput and p99 cells"""
    s = d["sweeps"][0]
    return [(r.get(m) or {}).get("verdict") for r in s["results"]
            if r["config"] == config and r.get("judged", True)
            for m in ("throughput", "lat_p99")]


def cmp_calls(d):
    return [m.get("verdict") for t in d["compared"][0]["tests"] for m in t["metrics"].values()]


def found(calls, way="better"):
    """found: `way` on some test and the other way on none (tune's rule)"""
    other = "worse" if way == "better" else "better"
    return int(way in calls and other not in calls)


def tune_facts(d):
    s = d["sweeps"][0]
    q = s.get("sequential") or {}
    cpu = ((d.get("pinning") or {}).get("cpus") or ["-"])[0]
    rec = s["recommended"]
    return {"rec": "-" if rec is None else str(rec),
            "vetoed": str(int(bool(s.get("vetoed")))),
            "drifted": str(int(bool((s.get("drift") or {}).get("drifted")))),
            "early": str(int(bool(q.get("stopped_early")))),
            "cpu": str(cpu),
            "text": "recommended %s%s; %s" % (
                "nothing" if rec is None else rec, " (stopped early after %s of %s blocks)" % (q.get("blocks_run"), q.get("max_blocks"))
                if q.get("stopped_early") else "", s["reason"])}


def outcome(part, paths):
    """a step's outcome columns (a dict of OUTCOME), from its JSON"""
    out = dict.fromkeys(OUTCOME, "-")
    docs = [load(p) for p in paths]
    if part == "tune":
        d = docs[0]
        n = len(d["sweeps"][0]["configs"])
        out.update(tune_facts(d))
        out["false"] = str(int(any(v in BW for k in range(1, n) for v in tune_calls(d, k))))
    elif part == "ptune":
        d = docs[0]
        out.update(tune_facts(d))
        out["found10"] = str(found(tune_calls(d, 1)))
        out["found30"] = str(found(tune_calls(d, 2)))
    elif part in ("compare", "icompare"):
        c = docs[0]["compared"][0]["summary"]
        out["false"] = str(int(any(v in BW for v in cmp_calls(docs[0]))))
        out["text"] = "%s: %s" % (c["outcome"], c["headline"])
    elif part in ("pcompare", "picompare"):
        out["found10"] = str(found(cmp_calls(docs[0])))
        out["found30"] = str(found(cmp_calls(docs[1])))
        out["text"] = "10 %%: %s; 30 %%: %s" % tuple(
            d["compared"][0]["summary"]["headline"] for d in docs)
    else:
        sys.exit("calibrate.py: unknown part %r" % part)
    return out


def row(part, paths):
    out = outcome(part, paths)
    print("\t".join(out[c].replace("\t", " ").replace("\n", " ") for c in OUTCOME))


def rejudge(ledger, keep, diskbench):
    """compare and pcompare rows judged again from their kept runs"""
    import os
    import subprocess
    import tempfile
    ver = subprocess.run([diskbench, "--version"], capture_output=True, text=True,
                         check=True).stdout.splitlines()[0]
    ver = ver.split("(git ")[1].split(")")[0] if "(git " in ver else ver.replace(" ", "_")
    with open(ledger, newline="") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    sides = {"compare": [("a", "b")], "pcompare": [("base", "p10"), ("base", "p30")],
             "icompare": [("a", "b")], "picompare": [("base", "p10"), ("base", "p30")]}
    stems = {"compare": "compare", "pcompare": "power", "icompare": "icompare",
             "picompare": "ipower"}
    n = missing = 0
    with tempfile.TemporaryDirectory() as tmp:
        for r in rows:
            if r["part"] not in sides:
                continue
            stem = os.path.join(keep, "%s-%s-%s" % (r["load"], stems[r["part"]], r["i"]))
            outs = []
            for k, (x, y) in enumerate(sides[r["part"]]):
                a, b = "%s-%s.json" % (stem, x), "%s-%s.json" % (stem, y)
                if not (os.path.exists(a) and os.path.exists(b)):
                    break
                o = os.path.join(tmp, "%d.json" % k)
                subprocess.run([diskbench, "compare", "--quiet", "--noise", r["noise"], "--json", o,
                                a, b], check=True, stdout=subprocess.DEVNULL)
                outs.append(o)
            if len(outs) < len(sides[r["part"]]):
                missing += 1
                continue
            r.update(outcome(r["part"], outs))
            r["judged"] = ver
            n += 1
    with open(ledger + ".new", "w", newline="") as f:
        w = csv.DictWriter(f, COLS, delimiter="\t", lineterminator="\n", extrasaction="ignore",
                           restval="")
        w.writeheader()
        for r in rows:
            w.writerow({k: (v or "").replace("\t", " ").replace("\n", " ") for k, v in r.items()
                        if k in COLS})
    os.replace(ledger + ".new", ledger)
    print("calibrate.py: %d compare rows judged by %s, %d without their runs in %s (kept as were)"
          % (n, ver, missing, keep))


def cell(k, m, ok):
    return "%d / %d %s" % (k, m, "met" if ok else "NOT met") if m else "-"


def few_false(k, m):
    """at most 1 in 20: k / m <= 1 / 20"""
    return k * 20 <= m


def table(paths):
    rows, seen = [], set()
    for p in paths:
        with open(p, newline="") as f:
            for r in csv.DictReader(f, delimiter="\t"):
                key = tuple(r.get(k) for k in KEY)
                if r.get("part") and key not in seen:	# a step once: the first row
                    seen.add(key)
                    rows.append(r)
    if not rows:
        sys.exit("calibrate.py: no rows in %s" % " ".join(paths))
    groups = {}
    for r in rows:
        groups.setdefault(tuple(r[k] for k in KEY[3:]), []).append(r)
    for g, rs in sorted(groups.items()):
        print_group(g, rs)


def print_group(g, rs):
    trial, blocks, repeat, noise, iops = g
    loads = []
    for r in rs:
        if r["load"] not in loads:
            loads.append(r["load"])
    print("\ntrials %s, %s blocks, --repeat %s, noise %s %%, throttle %s IOPS; %d rows"
          % (trial, blocks, repeat, noise, iops, len(rs)))
    print("version %s; kernel %s; %s to %s"
          % (" ".join(sorted({r["version"] for r in rs})), " ".join(sorted({r["kernel"] for r in rs})),
             min(r["date"] for r in rs), max(r["date"] for r in rs)))
    judged = sorted({r.get("judged") for r in rs} - {None, ""})
    if judged:
        print("compare rows judged again from their kept runs by %s" % " ".join(judged))
    print()
    print("| load | what | false verdicts | false recommendations | 10 % found | 30 % found |")
    print("|---|---|---|---|---|---|")
    notes = []
    for l in loads:
        of = [r for r in rs if r["load"] == l]
        part = {p: [r for r in of if r["part"] == p]
                for p in ("tune", "ptune", "compare", "pcompare", "icompare", "picompare")}
        aa, pt, ca, pc = part["tune"], part["ptune"], part["compare"], part["pcompare"]
        fv = sum(r["false"] == "1" for r in aa)
        fr = sum(r["rec"] != "-" for r in aa)
        t10 = sum(r["found10"] == "1" for r in pt)
        t30 = sum(r["found30"] == "1" for r in pt)
        if aa or pt:
            print("| %s | tune | %s | %s | %s | %s |" % (
                l, cell(fv, len(aa), few_false(fv, len(aa))), cell(fr, len(aa), fr == 0),
                cell(t10, len(pt), t10 >= 0.8 * len(pt)), cell(t30, len(pt), t30 == len(pt))))
        cf = sum(r["false"] == "1" for r in ca)
        c10 = sum(r["found10"] == "1" for r in pc)
        c30 = sum(r["found30"] == "1" for r in pc)
        if ca or pc:
            print("| %s | compare | %s | - | %s | %s |" % (
                l, cell(cf, len(ca), few_false(cf, len(ca))),
                cell(c10, len(pc), c10 >= 0.8 * len(pc)), cell(c30, len(pc), c30 == len(pc))))
        ia, ip = part["icompare"], part["picompare"]
        if ia or ip:
            xf = sum(r["false"] == "1" for r in ia)
            x10 = sum(r["found10"] == "1" for r in ip)
            x30 = sum(r["found30"] == "1" for r in ip)
            print("| %s | compare, sides in turn | %s | - | %s | %s |" % (
                l, cell(xf, len(ia), few_false(xf, len(ia))),
                cell(x10, len(ip), x10 >= 0.8 * len(ip)), cell(x30, len(ip), x30 == len(ip))))
        sweeps = aa + pt
        la = [float(r[k]) for r in of for k in ("load1_before", "load1_after")]
        oc = sorted(float(r["others_cpu_pct"]) for r in of if r.get("others_cpu_pct") not in (None, "", "-"))
        recs = {}
        for r in pt:
            recs[r["rec"]] = recs.get(r["rec"], 0) + 1
        said = ", ".join("%s x%d" % (("nothing" if v == "-" else v), k) for v, k in sorted(recs.items()))
        if not sweeps:
            continue
        notes.append("%s: of %d tune sweeps (A/A and power) %d vetoed by the control, %d drifted, "
                     "%d stopped early; power tune recommended %s; job 0 on CPU %s; "
                     "load average (1 min) at the steps' ends: median %.1f, %.1f to %.1f; "
                     "others' share of the CPUs: %s"
                     % (l, len(sweeps), sum(r["vetoed"] == "1" for r in sweeps),
                        sum(r["drifted"] == "1" for r in sweeps),
                        sum(r["early"] == "1" for r in sweeps), said or "-",
                        " or ".join(sorted({r["cpu"] for r in sweeps})) or "-",
                        statistics.median(la), min(la), max(la),
                        "median %.0f %%, %.0f to %.0f %%" % (statistics.median(oc), oc[0], oc[-1])
                        if oc else "not recorded"))
    print()
    for x in notes:
        print(x)
    for r in rs:
        if r["part"] in ("tune", "compare", "icompare") and r["false"] == "1":
            print("false %s verdict, %s round %s: %s" % (r["part"], r["load"], r["i"], r["text"]))
    print("goals (issue 20): false verdicts at most 1 in 20, no false recommendation, 30 % found"
          " every time, 10 % found in at least 80 %.")
    parts = [p for p in ("tune", "compare", "icompare") if any(r["part"] == p for r in rs)]
    least = min(len([r for r in rs if r["load"] == l and r["part"] == p]) for l in loads
                for p in parts)
    if least < 20:
        print("at least %d A/A %s per load: fewer than 20, so 'met' says only that these"
              " runs did not break a goal." % (least, " and ".join(
                  {"tune": "sweeps", "compare": "pairs", "icompare": "pairs in turn"}[p]
                  for p in parts)))


if __name__ == "__main__":
    if len(sys.argv) >= 4 and sys.argv[1] == "row":
        row(sys.argv[2], sys.argv[3:])
    elif len(sys.argv) >= 3 and sys.argv[1] == "table":
        table(sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "rejudge":
        rejudge(*sys.argv[2:])
    else:
        sys.exit(__doc__)
