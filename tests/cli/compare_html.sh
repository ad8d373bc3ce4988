#!/bin/bash
# compare_html.sh - the compare page as Chromium renders it: it opens with
# the headline verdict, its ratio plots show both sides' figures beside each
# ratio, each test has a latency percentile overlay of before against after,
# and every chart is readable: at a 1280-pixel window no chart text is
# rendered below 12 px (10 px at 800), none runs into another or out of
# its chart, and a ratio plot gives each test a row of 26 px or more. The
# layout is measured by a script added to a copy of the page, its findings
# read back from the DOM Chromium dumps; a screenshot must not be blank.
# Skips (77) without Chromium.
set -u
. "$srcdir/tests/cli/lib.sh"
need_diskbench
need_cmd python3
CHROME=$(command -v chromium || command -v chromium-browser || true)
[ -n "$CHROME" ] || skip "chromium is not installed: the page was not rendered"
make_tmpdir
cd "$TMP_DIR" || fail "cd"
mkdir target || fail "mkdir"
CHECK="python3 $srcdir/tests/cli/check_html.py"

"$DISKBENCH" --engine null --ramp 0 --size 64m --quiet --test rand-read,seq-read,rand-write \
	--qd 1,8 --runtime 20ms --repeat 5 --label before --json w1.json target 2>w1.err ||
	fail "run: exit $? ($(cat w1.err))"

# after: every test slower, rand-read 4k qd1's latency 35 times the baseline's
python3 - w1.json w2.json <<'PY' || fail "python"
import json, sys
d = json.load(open(sys.argv[1]))
def low(v):
    """The lower bound of v's histogram bucket (include/hist.h)."""
    v = int(v)
    if v < 128:
        return v
    shift = v.bit_length() - 7
    return (v >> shift) << shift
d["label"] = "after"
for k, t in enumerate(d["tests"]):
    fi, fl = (0.4, 35.0) if k == 0 else (0.5 + 0.08 * k, 1 + 0.3 * k)
    for r in t["runs"]:
        r["iops"] *= fi
        r["bytes_per_sec"] *= fi
        r["lat_p99_ns"] = int(r["lat_p99_ns"] * fl)
    t["iops"] *= fi
    t["bytes_per_sec"] *= fi
    lat = t["lat_ns"]
    h = {}
    for b, c in lat["histogram"]:
        h[low(b * fl)] = h.get(low(b * fl), 0) + c
    lat["histogram"] = [[b, h[b]] for b in sorted(h)]
    lat["min"], lat["max"] = lat["histogram"][0][0], lat["histogram"][-1][0]
    lat["sum"] = int(lat["sum"] * fl)
    lat["sumsq"] = str(int(int(lat["sumsq"]) * fl * fl))
    lat["mean"] *= fl
    lat["stdev"] *= fl
json.dump(d, open(sys.argv[2], "w"))
PY
# the percentiles derived again from the edited histograms, as a run has them
"$DISKBENCH" report --quiet w2.json --json after.json || fail "report w2.json: exit $?"
"$DISKBENCH" compare --quiet w1.json after.json --json w.json --html w.html ||
	fail "compare --html: exit $?"
$CHECK compare w.html --json w.json --side w1.json --side after.json || fail "w.html against w.json"
[ "$(json w.json 'd["compared"][0]["summary"]["outcome"]')" = worse ] ||
	fail "outcome: $(json w.json 'd["compared"][0]["summary"]["headline"]')"

chrome()
{
	timeout 120 "$CHROME" --headless --no-sandbox --disable-gpu --hide-scrollbars \
		--user-data-dir="$TMP_DIR/chrome" "$@" 2>>chrome.err
}

# A copy of the page with a script that measures every chart as laid out
# and writes its findings into <pre id="measured"> (the page's own CSP lets
# an inline script run; it loads nothing).
python3 - w.html m.html <<'PY' || fail "python"
import sys
page = open(sys.argv[1]).read()
js = """<script>
(function(){
var out=[];
document.querySelectorAll('svg.chart').forEach(function(svg){
  var box=svg.getBoundingClientRect(), vb=svg.viewBox.baseVal, scale=box.width/vb.width;
  var texts=[];
  svg.querySelectorAll('text').forEach(function(t){
    var r=t.getBoundingClientRect();
    if(!t.textContent.trim())return;
    texts.push({text:t.textContent,cls:t.getAttribute('class')||'',
      px:parseFloat(getComputedStyle(t).fontSize)*scale,
      l:r.left,r:r.right,t:r.top,b:r.bottom});
  });
  out.push({id:svg.id,cls:svg.getAttribute('class'),w:box.width,h:box.height,
    l:box.left,r:box.right,t:box.top,b:box.bottom,rows:svg.querySelectorAll('[data-metric]').length,
    texts:texts});
});
var pre=document.createElement('pre');pre.id='measured';
pre.textContent=JSON.stringify(out);document.body.appendChild(pre);
})();
</script>
"""
i = page.rindex("</body>")
open(sys.argv[2], "w").write(page[:i] + js + page[i:])
PY

# measure WIDTH MINPX: the layout at a window WIDTH pixels wide
measure()
{
	chrome --window-size="$1,2000" --dump-dom "file://$TMP_DIR/m.html" >"dom-$1.html" ||
		fail "chromium --dump-dom at $1: exit $?"
	python3 - "dom-$1.html" "$1" "$2" <<'PY' || fail "the page at a $1-pixel window: see above"
import html, json, re, sys
dom, width, minpx = open(sys.argv[1]).read(), int(sys.argv[2]), float(sys.argv[3])
m = re.search(r'<pre id="measured">(.*?)</pre>', dom, re.S)
assert m, "the measuring script did not run"
charts = json.loads(html.unescape(m.group(1)))
bad = []
ids = [c["id"] for c in charts]
assert "chart-ratio-0-iops" in ids and "chart-ratio-0-p99" in ids, ids
overlays = [c for c in charts if "overlay" in c["cls"].split()]
assert len(overlays) == 6, ids                  # a test each
small = min(t["px"] for c in charts for t in c["texts"])
for c in charts:
    if c["w"] > width:
        bad.append("%s: %.0f px wide in a %d-pixel window" % (c["id"], c["w"], width))
    if c["rows"] and c["h"] / c["rows"] < 26 + 1e-6 and width >= 1280:
        bad.append("%s: %.1f px a row" % (c["id"], c["h"] / c["rows"]))
    ts = c["texts"]
    for t in ts:
        if t["px"] < minpx:
            bad.append("%s: %r at %.1f px" % (c["id"], t["text"], t["px"]))
        if t["l"] < c["l"] - 1 or t["r"] > c["r"] + 1 or t["t"] < c["t"] - 1 or t["b"] > c["b"] + 1:
            bad.append("%s: %r runs out of the chart" % (c["id"], t["text"]))
    for i in range(len(ts)):
        for j in range(i + 1, len(ts)):
            a, b = ts[i], ts[j]
            dx = min(a["r"], b["r"]) - max(a["l"], b["l"])
            dy = min(a["b"], b["b"]) - max(a["t"], b["t"])
            if dx > 1 and dy > 1:
                bad.append("%s: %r and %r overlap" % (c["id"], a["text"], b["text"]))
for b in bad[:20]:
    print("FAIL:", b)
print("at %d px: %d charts, smallest text %.1f px, ratio plots %s" % (
    width, len(charts), small, " ".join("%.0fx%.0f" % (c["w"], c["h"]) for c in charts
                                        if c["rows"])), file=sys.stderr)
sys.exit(1 if bad else 0)
PY
}
measure 1280 12
measure 800 10

# The DOM Chromium built holds what the JSON says, and a screenshot is not blank.
chrome --dump-dom "file://$TMP_DIR/w.html" >dom.html || fail "chromium --dump-dom: exit $?"
$CHECK compare dom.html --json w.json --side w1.json --side after.json >/dev/null ||
	fail "the DOM Chromium built of w.html differs from w.json"
chrome --screenshot="$TMP_DIR/w.png" --window-size=1280,1400 "file://$TMP_DIR/w.html" >/dev/null ||
	fail "chromium --screenshot: exit $?"
$CHECK png w.png || fail "the screenshot of w.html is blank"
exit 0
