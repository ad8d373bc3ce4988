#!/usr/bin/env python3
"""check_html.py - a diskbench HTML report checked against its JSON, or a screenshot of it.

  check_html.py page PAGE [--json FILE] [--max-bytes N]
      PAGE is the file --html wrote, or the DOM a browser made of it
      (chromium --dump-dom). Checks: it holds exactly one embedded result
      (equal to FILE when given); nothing in it can load anything (no
      src/href leaving the page, no <link>/<img>/<iframe>, no url() or
      @import, a CSP of default-src 'none'); every figure it shows with a
      data-key or data-value equals the JSON's (the facts, each table row,
      each dot and bar of the charts, the runs' least and most); the charts
      the result calls for are there by id (MB/s, queue depth where tests
      differ only in it, percentiles, a timeline per test that has one).
  check_html.py compare PAGE [--json FILE] [--side RESULT]... [--max-bytes N]
      PAGE is the file compare --html wrote (or its DOM): its embedded
      diskbench-compare/1 document (equal to FILE), nothing that loads, per
      comparison two ratio plots whose dots carry each test's ratio,
      interval and verdict as the JSON has them and are coloured only where
      the verdict is better or worse, with both sides' figures beside
      each ratio, a noise band of the JSON's width, a table whose figures
      are the JSON's, a headline verdict before any chart; with --side (the
      results in the order compared) the facts of each side are theirs, and
      so are the points of each test's latency percentile overlay.
  check_html.py tune PAGE [--json FILE] [--max-bytes N]
      PAGE is the file tune --html wrote (or its DOM): its embedded
      diskbench-tune/1 document (equal to FILE), nothing that loads, every
      figure with a data-key equal to the JSON's (looked up in the
      sweep its nearest data-sweep names, or in that sweep's results entry
      of data-config and data-test, else in the document), a throughput
      and a p99 ratio plot per test of each finished sweep (and no other
      chart), each with a noise band of the JSON's width and a dot per
      value but the current one carrying its ratio, interval and verdict
      as the JSON has them, coloured only where the verdict is better or
      worse; a table row per value and test of each finished sweep.
  check_html.py png PNG [--min-colours N]
      PNG (8-bit RGB or RGBA, as chromium --screenshot writes) is not
      blank: decoded with zlib and unfiltered, it has at least N distinct
      colours (default 16) and at least 2 % of its pixels are not the
      background.
Exit 0 and one "ok" line, or 1 with one line per problem.
"""
import argparse
import json
import struct
import sys
import zlib
from html.parser import HTMLParser

VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
        "source", "track", "wbr"}
LOADERS = {"src", "href", "xlink:href", "action", "formaction", "poster", "srcset", "data"}


class Page(HTMLParser):
    """Every element as a dict: tag, attrs, text (all text inside it), parents."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.stack, self.elements = [], []

    def handle_starttag(self, tag, attrs):
        el = {"tag": tag, "attrs": dict(attrs), "text": [], "parents": list(self.stack)}
        self.elements.append(el)
        if tag not in VOID:
            self.stack.append(el)

    def handle_startendtag(self, tag, attrs):
        self.elements.append({"tag": tag, "attrs": dict(attrs), "text": [],
                              "parents": list(self.stack)})

    def handle_endtag(self, tag):
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i]["tag"] == tag:
                del self.stack[i:]
                return

    def handle_data(self, data):
        for el in self.stack:
            el["text"].append(data)


def text(el):
    return "".join(el["text"]).strip()


def lookup(obj, path):
    """obj's value at a dotted path whose keys may hold dots ("percentiles.99.9")."""
    if not path:
        return obj
    if isinstance(obj, list):
        head, _, rest = path.partition(".")
        if not head.isdigit() or int(head) >= len(obj):
            raise KeyError(path)
        return lookup(obj[int(head)], rest)
    if isinstance(obj, dict):
        if path in obj:
            return obj[path]
        for i, c in enumerate(path):
            if c == "." and path[:i] in obj:
                try:
                    return lookup(obj[path[:i]], path[i + 1:])
                except KeyError:
                    pass
    raise KeyError(path)


def shown(v):
    """How a page shows a JSON value as text."""
    if v is True:
        return "yes"
    if v is False:
        return "no"
    if v is None:
        return "unknown"
    return str(v)


def nonempty(v):
    """A timeline with points, whatever its shape (a list, or an object of lists)."""
    if isinstance(v, list):
        return len(v) > 0
    if isinstance(v, dict):
        return any(nonempty(x) for x in v.values() if isinstance(x, (list, dict)))
    return bool(v)


def qd_groups(tests):
    groups = {}
    for t in tests:
        key = (t["workload"], t["bs"], t["jobs"], t["engine"], t["direct"])
        groups.setdefault(key, set()).add(t["qd"])
    return any(len(q) > 1 for q in groups.values())


RUN_FIGURE = {"iops": "iops", "bytes_per_sec": "bytes_per_sec",
              "lat_ns.percentiles.99": "lat_p99_ns"}


def parse(path, max_bytes, bad):
    raw = open(path, "rb").read()
    if max_bytes and len(raw) > max_bytes:
        bad.append("%d bytes, more than %d" % (len(raw), max_bytes))
    p = Page()
    p.feed(raw.decode("utf-8"))
    p.close()
    return p.elements


def embedded(els, ident, path, bad):
    """The one JSON document embedded as <script id=ident>, equal to path's when given."""
    emb = [e for e in els if e["tag"] == "script" and e["attrs"].get("id") == ident]
    if len(emb) != 1:
        print("FAIL: %d embedded documents %s, want 1" % (len(emb), ident))
        return None
    if emb[0]["attrs"].get("type") != "application/json":
        bad.append("the embedded document is not type application/json")
    d = json.loads("".join(emb[0]["text"]))
    if path and json.load(open(path)) != d:
        bad.append("the embedded document differs from %s" % path)
    return d


def nothing_loads(els, bad):
    for e in els:
        for k, v in e["attrs"].items():
            if k in LOADERS and v is not None and not v.startswith(("#", "data:")):
                bad.append("<%s %s=%r> loads something" % (e["tag"], k, v))
            if k in ("src", "href") and v and ("http://" in v or "https://" in v):
                bad.append("<%s %s=%r>: a URL" % (e["tag"], k, v))
        if e["tag"] in ("link", "img", "iframe", "object", "embed", "frame", "audio", "video"):
            bad.append("a <%s> element" % e["tag"])
        if e["tag"] == "style" and ("url(" in text(e) or "@import" in text(e)):
            bad.append("the style sheet loads something")
        if e["tag"] == "script" and e["attrs"].get("src"):
            bad.append("a script from elsewhere")
    csp = [e for e in els if e["tag"] == "meta" and
           e["attrs"].get("http-equiv", "").lower() == "content-security-policy"]
    if not csp or "default-src 'none'" not in csp[0]["attrs"].get("content", ""):
        bad.append("no Content-Security-Policy of default-src 'none'")


def same_value(page, v):
    """A data-value against the JSON's number (null as "null")."""
    if v is None or page == "null":
        return page == "null" and v is None
    return float(page) == float(v)


def cell_matches(e, v):
    """A cell shows v: by its data-value when it has one, else by its text."""
    if "data-value" in e["attrs"]:
        return same_value(e["attrs"]["data-value"], v)
    return text(e) == shown(v)


def open_page(args, ident):
    """(problems so far, elements, embedded document or None) of args.page."""
    bad = []
    els = parse(args.page, args.max_bytes, bad)
    d = embedded(els, ident, args.json, bad)
    nothing_loads(els, bad)
    return bad, els, d


def finish(bad, ok):
    """Exit status 1 and a line per problem, or 0 and the ok line."""
    for b in bad:
        print("FAIL:", b)
    if bad:
        return 1
    print(ok)
    return 0


def check_page(args):
    bad, els, d = open_page(args, "diskbench-result")
    if d is None:
        return 1
    tests = d["tests"]

    checked = 0
    # the facts (cells with a data-key outside the table's rows)
    for e in els:
        key = e["attrs"].get("data-key")
        if key is None or any(x["tag"] == "tr" and "data-test" in x["attrs"] for x in e["parents"]):
            continue
        try:
            v = lookup(d, key)
        except KeyError:
            bad.append("fact %s: no such key in the JSON" % key)
            continue
        if "data-value" in e["attrs"]:
            if float(e["attrs"]["data-value"]) != float(v):
                bad.append("fact %s: data-value %s, JSON %r" % (key, e["attrs"]["data-value"], v))
        elif text(e) != shown(v):
            bad.append("fact %s: shows %r, JSON %r" % (key, text(e), v))
        checked += 1

    # the summary table: a row per test, each figure the JSON's
    rows = [e for e in els if e["tag"] == "tr" and "data-test" in e["attrs"]]
    if len(rows) != len(tests):
        bad.append("%d table rows for %d tests" % (len(rows), len(tests)))
    for row in rows:
        i = int(row["attrs"]["data-test"])
        t = tests[i]
        cells = [e for e in els if row in e["parents"] and "data-key" in e["attrs"]]
        if len(cells) < 8:
            bad.append("row %d: %d figures" % (i, len(cells)))
        for c in cells:
            key = c["attrs"]["data-key"]
            try:
                v = lookup(t, key)
            except KeyError:
                bad.append("tests[%d].%s: no such key" % (i, key))
                continue
            if "data-value" in c["attrs"]:
                if float(c["attrs"]["data-value"]) != float(v):
                    bad.append("tests[%d].%s: page %s, JSON %r" % (i, key, c["attrs"]["data-value"], v))
            elif text(c) != shown(v):
                bad.append("tests[%d].%s: page %r, JSON %r" % (i, key, text(c), v))
            checked += 1
            if "data-min" in c["attrs"]:
                runs = [r[RUN_FIGURE[key]] for r in t["runs"]]
                if (float(c["attrs"]["data-min"]), float(c["attrs"]["data-max"])) != \
                        (float(min(runs)), float(max(runs))):
                    bad.append("tests[%d].%s: runs %s..%s, JSON %r..%r" % (
                        i, key, c["attrs"]["data-min"], c["attrs"]["data-max"], min(runs), max(runs)))
                checked += 2

    # the charts, by id, and what they draw
    svgs = {e["attrs"].get("id"): e for e in els if e["tag"] == "svg" and e["attrs"].get("id")}
    want = []
    if any(t["bytes"] for t in tests):
        want.append("chart-throughput")
    if any(t["ops"] for t in tests):
        want.append("chart-latency")
    if qd_groups(tests):
        want += ["chart-qd-iops", "chart-qd-p99"]
    for i, t in enumerate(tests):
        # one run's timeline is the test's own; with several, each run's
        if nonempty(t.get("timeline")) or any(nonempty(r.get("timeline")) for r in t["runs"]):
            want.append("chart-timeline-%d" % i)
        elif not any(e["attrs"].get("id") in ("timeline-none", "timeline-none-%d" % i) for e in els):
            bad.append("test %d: neither a timeline nor a line that says there is none" % i)
    for w in want:
        if w not in svgs:
            bad.append("no <svg id=%s>" % w)
        elif "chart" not in svgs[w]["attrs"].get("class", "").split():
            bad.append("<svg id=%s> is not of class chart" % w)
    for k in svgs:
        if k.startswith("chart-") and k not in want:
            bad.append("<svg id=%s> for a result that has nothing to show in it" % k)
    figure = {"chart-throughput": lambda t, e: t["bytes_per_sec"],
              "chart-qd-iops": lambda t, e: t["iops"],
              "chart-qd-p99": lambda t, e: t["lat_ns"]["percentiles"]["99"],
              "chart-latency": lambda t, e: t["lat_ns"]["percentiles"][e["attrs"]["data-pct"]]}
    drawn = {}
    for e in els:
        if "data-value" not in e["attrs"] or "data-test" not in e["attrs"]:
            continue
        chart = next((x["attrs"].get("id") for x in e["parents"] if x["tag"] == "svg"), None)
        if chart not in figure:
            continue
        i = int(e["attrs"]["data-test"])
        v = figure[chart](tests[i], e)
        if float(e["attrs"]["data-value"]) != float(v):
            bad.append("%s, test %d: draws %s, JSON %r" % (chart, i, e["attrs"]["data-value"], v))
        drawn[chart] = drawn.get(chart, 0) + 1
        checked += 1
    for w in want:
        if w in figure and not drawn.get(w):
            bad.append("%s draws no value" % w)

    return finish(bad, "ok: %s: %d tests, %d figures equal to the JSON's, charts %s" % (
        args.page, len(tests), checked, " ".join(sorted(svgs))))


def ratio_plot(els, svg, cid, noise, bad):
    """The elements inside a ratio plot, after checking its noise band."""
    inside = [e for e in els if svg in e["parents"]]
    band = [e for e in inside if e["tag"] == "rect" and "band" in e["attrs"].get("class", "").split()]
    if len(band) != 1 or not same_value(band[0]["attrs"]["data-lo"], 1 - noise) or \
            not same_value(band[0]["attrs"]["data-hi"], 1 + noise):
        bad.append("%s: no noise band of +-%g" % (cid, noise))
    return inside


def ratio_dot(e, what, ratio, low, high, verdict, bad):
    """A ratio plot's dot carries ratio, interval and verdict, and is coloured
    only where the verdict is better or worse."""
    for attr, want in (("data-value", ratio), ("data-lo", low), ("data-hi", high)):
        if not same_value(e["attrs"][attr], want):
            bad.append("%s: %s %s, JSON %r" % (what, attr, e["attrs"][attr], want))
    if e["attrs"]["data-verdict"] != verdict:
        bad.append("%s: verdict %s, JSON %s" % (what, e["attrs"]["data-verdict"], verdict))
    cls = set(e["attrs"].get("class", "").split())
    colour = {"better": "better", "worse": "worse"}.get(verdict, "same")
    if colour not in cls or ({"better", "worse", "same"} - {colour}) & cls:
        bad.append("%s: coloured %s for a verdict %s" % (what, sorted(cls), verdict))
    return 4


def check_headline(els, pi, summary, bad):
    """The page opens (before any chart) with the pair's headline verdict."""
    heads = [e for e in els if e["tag"] == "div" and e["attrs"].get("data-pair") == str(pi)
             and "headline" in e["attrs"].get("class", "").split()]
    if len(heads) != 1:
        bad.append("pair %d: %d headlines" % (pi, len(heads)))
        return 0
    h = heads[0]
    first_svg = next((i for i, e in enumerate(els) if e["tag"] == "svg"), len(els))
    if els.index(h) > first_svg:
        bad.append("pair %d: the headline comes after a chart" % pi)
    if h["attrs"].get("data-outcome") != summary["outcome"]:
        bad.append("pair %d: outcome %r, JSON %r" % (pi, h["attrs"].get("data-outcome"),
                                                     summary["outcome"]))
    rest = summary["headline"].split(": ", 1)[-1]
    if rest not in " ".join(text(h).split()):
        bad.append("pair %d: the headline reads %r, JSON %r" % (pi, text(h), summary["headline"]))
    return 2


def check_overlays(els, svgs, pi, tests, before, after, bad):
    """Per test with latencies, a chart of both sides' percentile curves whose
    dots are each side's lat_ns.percentiles, p50 up to the last one an I/O
    backs."""
    checked = 0
    side = {"before": before, "after": after}
    for i, t in enumerate(tests):
        mine = {w: next(x for x in side[w]["tests"] if x["name"] == t["name"]) for w in side}
        want = {}
        for w, st in mine.items():
            for k, v in st["lat_ns"]["percentiles"].items():
                if float(k) >= 50 and v and st["ops"] * (1 - float(k) / 100) >= 1 - 1e-9:
                    want[(w, k)] = v
        cid = "chart-lat-%d-%d" % (pi, i)
        if not want:
            if cid in svgs:
                bad.append("%s: a chart for a test without latencies" % cid)
            continue
        if cid not in svgs:
            bad.append("no <svg id=%s> for %s" % (cid, t["name"]))
            continue
        got = {}
        for e in els:
            if svgs[cid] in e["parents"] and "data-which" in e["attrs"]:
                if e["attrs"]["data-test"] != str(i):
                    bad.append("%s: a dot of test %s" % (cid, e["attrs"]["data-test"]))
                got[(e["attrs"]["data-which"], e["attrs"]["data-pct"])] = e["attrs"]["data-value"]
        if set(got) != set(want):
            bad.append("%s: percentiles drawn %s, want %s" % (cid, sorted(got), sorted(want)))
        for key in set(got) & set(want):
            if float(got[key]) != float(want[key]):
                bad.append("%s, %s p%s: page %s, JSON %r" % (cid, key[0], key[1], got[key], want[key]))
            checked += 1
    return checked


def check_compare(args):
    bad, els, c = open_page(args, "diskbench-compare")
    if c is None:
        return 1
    sides = [json.load(open(f)) for f in args.side]
    checked = 0
    svgs = {e["attrs"].get("id"): e for e in els if e["tag"] == "svg" and e["attrs"].get("id")}
    noise = c["method"]["noise"]
    for pi, pair in enumerate(c["compared"]):
        tests = pair["tests"]
        for metric, key in (("iops", "iops"), ("p99", "lat_p99_ns")):
            cid = "chart-ratio-%d-%s" % (pi, metric)
            if not tests:
                continue
            if cid not in svgs:
                bad.append("no <svg id=%s>" % cid)
                continue
            inside = ratio_plot(els, svgs[cid], cid, noise, bad)
            dots = {int(e["attrs"]["data-test"]): e for e in inside if "data-metric" in e["attrs"]}
            for i, t in enumerate(tests):
                m = t["metrics"][key]
                r = m["median_ratio"] if m["median_ratio"] and m["median_ratio"] > 0 else m["ratio"]
                if r is None or not r > 0:
                    continue
                e = dots.get(i)
                if e is None:
                    bad.append("%s: no dot for %s" % (cid, t["name"]))
                    continue
                iv = m["interval"] or {"low": None, "high": None}
                checked += ratio_dot(e, "%s, %s" % (cid, t["name"]), r, iv["low"], iv["high"],
                                     m["verdict"] or "none", bad)
                # the absolute figures beside the ratio: both sides' own
                nm = e["attrs"].get("data-note-metric")
                if nm is None:
                    bad.append("%s, %s: no figures beside the ratio" % (cid, t["name"]))
                    continue
                for side in ("before", "after"):
                    if not same_value(e["attrs"]["data-" + side], t["metrics"][nm][side]):
                        bad.append("%s, %s: %s %s, JSON %r" % (cid, t["name"], side,
                                   e["attrs"]["data-" + side], t["metrics"][nm][side]))
                    checked += 1
        checked += check_headline(els, pi, pair["summary"], bad)
        if sides:
            checked += check_overlays(els, svgs, pi, tests, sides[0], sides[pi + 1], bad)
        rows = [e for e in els if e["tag"] == "tr" and e["attrs"].get("data-pair") == str(pi)]
        if len(rows) != len(tests):
            bad.append("pair %d: %d rows for %d tests" % (pi, len(rows), len(tests)))
        for row in rows:
            t = tests[int(row["attrs"]["data-test"])]
            for e in els:
                if row in e["parents"] and "data-key" in e["attrs"]:
                    v = lookup(t, e["attrs"]["data-key"])
                    if not cell_matches(e, v):
                        bad.append("pair %d, %s, %s: page %r, JSON %r" % (
                            pi, t["name"], e["attrs"]["data-key"],
                            e["attrs"].get("data-value", text(e)), v))
                    checked += 1
    for e in els:
        if "data-side" not in e["attrs"] or not sides:
            continue
        k = int(e["attrs"]["data-side"])
        if e["attrs"]["data-key"] == "made_by":  # the compare JSON's word for the side
            v = c["baseline"]["made_by"] if k == 0 else c["compared"][k - 1]["made_by"]
        else:
            v = lookup(sides[k], e["attrs"]["data-key"])
        if not cell_matches(e, v):
            bad.append("side %d, %s: page %r, JSON %r" % (k, e["attrs"]["data-key"], text(e), v))
        checked += 1
    return finish(bad, "ok: %s: %d comparisons, %d figures equal to the JSON's, charts %s" % (
        args.page, len(c["compared"]), checked, " ".join(sorted(svgs))))


def check_tune(args):
    bad, els, d = open_page(args, "diskbench-tune")
    if d is None:
        return 1
    checked = 0
    sweeps = d["sweeps"]

    def entry(s, k, t):
        return next(e for e in s["results"] if e["config"] == k and e["test"] == t)

    def scope(e):
        """The JSON object e's data-key is a key of: its nearest data-sweep's."""
        for x in [e] + e["parents"][::-1]:
            a = x["attrs"]
            if "data-sweep" in a:
                s = sweeps[int(a["data-sweep"])]
                if "data-config" in a:
                    return entry(s, int(a["data-config"]), int(a["data-test"]))
                return s
        return d

    for e in els:
        key = e["attrs"].get("data-key")
        if key is None:
            continue
        try:
            v = lookup(scope(e), key)
        except (KeyError, StopIteration):
            bad.append("%s: no such key in the JSON" % key)
            continue
        if not cell_matches(e, v):
            bad.append("%s: page %r, JSON %r" % (key, e["attrs"].get("data-value", text(e)), v))
        for attr, sub in (("data-lo", "ci_low"), ("data-hi", "ci_high")):
            if attr in e["attrs"] and e["tag"] == "td":
                w = lookup(scope(e), key.rsplit(".", 1)[0] + "." + sub)
                if not same_value(e["attrs"][attr], w):
                    bad.append("%s %s: page %s, JSON %r" % (key, attr, e["attrs"][attr], w))
        checked += 1

    svgs = {e["attrs"].get("id"): e for e in els if e["tag"] == "svg" and e["attrs"].get("id")}
    want = []
    for si, s in enumerate(sweeps):
        if not s["analyzed"]:
            continue
        rows = [e for e in els if e["tag"] == "tr" and e["attrs"].get("data-sweep") == str(si)
                and "data-config" in e["attrs"]]
        if len(rows) != len(s["configs"]) * len(s["tests"]):
            bad.append("sweep %d: %d table rows for %d values x %d tests" % (
                si, len(rows), len(s["configs"]), len(s["tests"])))
        for ti, name in enumerate(s["tests"]):
            for metric, suffix in (("throughput", ""), ("lat_p99", "-p99")):
                cid = "chart-tune-%d-%d%s" % (si, ti, suffix)
                want.append(cid)
                if cid not in svgs:
                    bad.append("no <svg id=%s>" % cid)
                    continue
                inside = ratio_plot(els, svgs[cid], cid, d["noise"], bad)
                dots = {int(e["attrs"]["data-config"]): e for e in inside
                        if e["attrs"].get("data-metric") == metric}
                if sorted(dots) != list(range(1, len(s["configs"]))):
                    bad.append("%s: dots for values %s" % (cid, sorted(dots)))
                for k, e in dots.items():
                    m = entry(s, k, ti)[metric]
                    checked += ratio_dot(e, "%s, value %d" % (cid, k), m["ratio"], m["ci_low"],
                                         m["ci_high"], m["verdict"], bad)
    for k in svgs:
        if k.startswith("chart-") and k not in want:
            bad.append("<svg id=%s> for a tune that has nothing to show in it" % k)
    return finish(bad, "ok: %s: %d sweeps, %d figures equal to the JSON's, charts %s" % (
        args.page, len(sweeps), checked, " ".join(sorted(svgs))))


def png_pixels(path):
    """(width, height, rows): the unfiltered rows of an 8-bit RGB or RGBA PNG."""
    d = open(path, "rb").read()
    if d[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError("not a PNG")
    pos, idat, hdr = 8, [], None
    while pos < len(d):
        n, typ = struct.unpack(">I4s", d[pos:pos + 8])
        body = d[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            hdr = struct.unpack(">IIBBBBB", body)
        elif typ == b"IDAT":
            idat.append(body)
        pos += 12 + n
    w, h, depth, ctype, _, _, interlace = hdr
    if depth != 8 or ctype not in (2, 6) or interlace:
        raise ValueError("not an 8-bit RGB(A) PNG without interlacing")
    bpp = 3 if ctype == 2 else 4
    raw = zlib.decompress(b"".join(idat))
    stride = w * bpp
    prev = bytearray(stride)
    rows = []
    for y in range(h):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        if f == 1:
            for i in range(bpp, stride):
                line[i] = (line[i] + line[i - bpp]) & 255
        elif f == 2:
            line = bytearray((a + b) & 255 for a, b in zip(line, prev))
        elif f == 3:
            for i in range(stride):
                left = line[i - bpp] if i >= bpp else 0
                line[i] = (line[i] + ((left + prev[i]) >> 1)) & 255
        elif f == 4:
            for i in range(stride):
                a = line[i - bpp] if i >= bpp else 0
                b, c = prev[i], (prev[i - bpp] if i >= bpp else 0)
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return w, h, bpp, rows


def check_png(args):
    w, h, bpp, rows = png_pixels(args.png)
    count = {}
    for line in rows:
        for x in range(0, w * bpp, bpp):
            k = bytes(line[x:x + 3])
            count[k] = count.get(k, 0) + 1
    bg, nbg = max(count.items(), key=lambda kv: kv[1])
    ink = 1 - nbg / (w * h)
    if len(count) < args.min_colours or ink < 0.02:
        print("FAIL: %s looks blank: %d colours, %.1f %% not background" % (
            args.png, len(count), 100 * ink))
        return 1
    print("ok: %s: %dx%d, %d colours, %.1f %% not background" % (
        args.png, w, h, len(count), 100 * ink))
    return 0


def main():
    ap = argparse.ArgumentParser()
    sub = ap.add_subparsers(dest="what", required=True)
    pg = sub.add_parser("page")
    pg.add_argument("page")
    pg.add_argument("--json")
    pg.add_argument("--max-bytes", type=int, default=0)
    pc = sub.add_parser("compare")
    pc.add_argument("page")
    pc.add_argument("--json")
    pc.add_argument("--side", action="append", default=[])
    pc.add_argument("--max-bytes", type=int, default=0)
    pt = sub.add_parser("tune")
    pt.add_argument("page")
    pt.add_argument("--json")
    pt.add_argument("--max-bytes", type=int, default=0)
    pn = sub.add_parser("png")
    pn.add_argument("png")
    pn.add_argument("--min-colours", type=int, default=16)
    args = ap.parse_args()
    return {"page": check_page, "compare": check_compare, "tune": check_tune,
            "png": check_png}[args.what](args)


if __name__ == "__main__":
    sys.exit(main())
