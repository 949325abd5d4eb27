#!/usr/bin/env python3
"""browser-check.py — the site in a headless browser (docs/report-format.md §10),
for tests/e2e/site.sh: one Chromium start loads every page in a frame of a
harness page and writes what it finds into the harness's DOM.

  browser-check.py harness PAGES HARNESS.html   write the harness page
  browser-check.py check PAGES DOM              check the dumped DOM

PAGES has one line per load, "KIND WIDTH PATH":
  h1 0 PATH       the DOM has the page's H1;
  fit W PATH      a summary at W px: neither the page nor any table or chart
                  scrolls sideways;
  view W PATH     a page at W px (a phone is 390): the page never scrolls
                  sideways, a table or chart that does shows the scroll cue
                  (the shadow of style.css); every chart's text is at least
                  11 CSS px as shown; every chart draws one point per row of
                  its CSV; a summary has a chart, and each cost chart labels
                  exactly the instances of the table before it (an instance
                  it cannot draw is named in the sentence under it).
A frame of width W lays its page out as a window W px wide would; file://
frames are readable with --allow-file-access-from-files.
"""
import html
import json
import os
import re
import sys

MIN_TEXT_PX = 11

PROBE = r"""
function probe(d, kind) {
  var r = { page: null, boxes: [], charts: [] };
  var e = d.documentElement, win = d.defaultView;
  if (e.scrollWidth > e.clientWidth) r.page = e.scrollWidth + " px in " + e.clientWidth;
  d.querySelectorAll(".table-wrap, figure.chart").forEach(function (w) {
    if (w.scrollWidth <= w.clientWidth) return;
    r.boxes.push({ what: w.className || w.tagName, over: w.scrollWidth + " px in " + w.clientWidth,
                   cue: win.getComputedStyle(w).backgroundImage.indexOf("radial-gradient") >= 0 });
  });
  if (kind == "fit") return r;
  d.querySelectorAll("figure.chart svg").forEach(function (svg) {
    var vb = svg.viewBox.baseVal, scale = svg.getBoundingClientRect().width / vb.width;
    var small = Infinity;
    svg.querySelectorAll("text").forEach(function (t) {
      small = Math.min(small, parseFloat(win.getComputedStyle(t).fontSize) * scale);
    });
    var link = svg.querySelector("a.csvlink"), rows = null;
    /* the table this chart follows: the nearest table wrapper before it */
    var el = svg.parentNode.previousElementSibling;
    while (el && !(el.classList && el.classList.contains("table-wrap")) && el.tagName != "H2")
      el = el.previousElementSibling;
    if (el && el.tagName != "H2") {
      var head = Array.prototype.map.call(el.querySelectorAll("thead th"), function (h) {
        return h.textContent; });
      var col = head.indexOf("instance performance report");
      if (col >= 0)
        rows = Array.prototype.map.call(el.querySelectorAll("tbody tr"), function (tr) {
          var c = tr.children[col].querySelector("code");
          return c ? c.textContent : tr.children[col].textContent; });
    }
    var nx = svg.parentNode.nextElementSibling, note = "";
    if (nx && nx.tagName == "P" && nx.textContent.indexOf("Not on the chart") == 0)
      note = nx.textContent;
    r.charts.push({ title: (svg.querySelector("title") || {}).textContent, note: note,
                    csv: link ? link.getAttribute("href") : null,
                    marks: svg.querySelectorAll(".mark").length,
                    labels: Array.prototype.map.call(svg.querySelectorAll(".plabel"), function (t) {
                      return t.textContent; }),
                    smallest_text_px: small, table_instances: rows });
  });
  return r;
}
"""

SCRIPT = r"""var pages = %s;
%s
var out = [], left = pages.length;
pages.forEach(function (p, i) {
  var f = document.createElement("iframe");
  f.style.width = (p.kind == "h1" ? 1280 : p.width) + "px";
  f.style.height = "900px";
  f.onload = function () {
    var d = f.contentDocument, h;
    if (!d) out[i] = "unreadable";
    else if (p.kind == "h1") out[i] = (h = d.querySelector("h1")) ? "h1[" + h.textContent + "]" : "no h1";
    else out[i] = JSON.stringify(probe(d, p.kind));
    if (--left == 0) document.getElementById("out").textContent = out.join("\n");
  };
  f.src = "file://" + encodeURI(p.path);
  document.body.appendChild(f);
});"""


def read_pages(path):
    return [dict(zip(("kind", "width", "path"), l.rstrip("\n").split(" ", 2)))
            for l in open(path) if l.strip()]


def harness(pages_file, out):
    pages = read_pages(pages_file)
    with open(out, "w") as h:
        h.write("<!doctype html><html><body><pre id=\"out\"></pre><script>"
                + SCRIPT % (json.dumps(pages), PROBE) + "</script></body></html>\n")


def csv_rows(page, href):
    path = os.path.join(os.path.dirname(page), href)
    with open(path) as f:
        return [l for l in f.read().split("\n")[1:] if l]


def check_view(p, r, problems):
    where = f"{p['path']} at {p['width']} px"
    if r["page"]:
        problems.append(f"{where}: the page scrolls sideways ({r['page']})")
    for b in r["boxes"]:
        if p["kind"] == "fit":
            problems.append(f"{where}: {b['what']} scrolls sideways ({b['over']})")
        elif not b["cue"]:
            problems.append(f"{where}: {b['what']} scrolls sideways without the cue ({b['over']})")
    if p["kind"] == "fit":
        return 0
    summary = os.path.basename(p["path"]) == "index.html"
    if summary and not r["charts"]:
        problems.append(f"{where}: the summary has no chart")
    for c in r["charts"]:
        name = f"{where}: chart '{c['title']}'"
        if c["smallest_text_px"] < MIN_TEXT_PX - 0.05:
            problems.append(f"{name}: text shown at {c['smallest_text_px']:.1f} px "
                            f"(at least {MIN_TEXT_PX})")
        if not c["csv"]:
            problems.append(f"{name}: no CSV link")
            continue
        rows = csv_rows(p["path"], c["csv"])
        if c["marks"] != len(rows):
            problems.append(f"{name}: {c['marks']} point(s) drawn, {len(rows)} in {c['csv']}")
        inst = c["table_instances"]
        if summary and inst is not None and c["csv"].endswith("-cost.csv"):
            # every instance of the table is drawn and labelled, and no other,
            # but for those the sentence under the chart names
            labels = set(c["labels"])
            silent = [i for i in inst if i not in labels and i not in c["note"]]
            if silent or not labels <= set(inst):
                problems.append(f"{name}: labels {sorted(labels)} but the table lists "
                                f"{sorted(inst)} (left out without a word: {silent})")
        elif summary and inst is not None:
            missing = [i for i in inst if not any(i in l for l in c["labels"])]
            if missing:
                problems.append(f"{name}: no line labelled for {missing}")
    return len(r["charts"])


def check(pages_file, dom_file):
    pages = read_pages(pages_file)
    m = re.search(r'<pre id="out">(.*?)</pre>', open(dom_file).read(), re.S)
    if not (m and m.group(1)):
        sys.exit("the harness wrote no results (a page did not load)")
    got = html.unescape(m.group(1)).split("\n")
    if len(got) != len(pages):
        sys.exit(f"{len(got)} results for {len(pages)} page loads")
    problems, charts = [], 0
    for p, result in zip(pages, got):
        if p["kind"] == "h1":
            src = open(p["path"]).read()
            h1 = re.search(r"<h1(?:\s[^>]*)?>(.*?)</h1>", src, re.S)
            want = html.unescape(re.sub(r"<[^>]*>", "", h1.group(1))) if h1 else None
            if not want or result != f"h1[{want}]":
                problems.append(f"{p['path']}: the DOM lacks its H1 ({want!r}, {result!r})")
            continue
        if not result.startswith("{"):
            problems.append(f"{p['path']}: {result}")
            continue
        charts += check_view(p, json.loads(result), problems)
    for line in problems:
        print("browser:", line, file=sys.stderr)
    if problems:
        sys.exit(1)
    print(f"browser: {len(pages)} page loads checked, {charts} chart(s) shown")


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in ("harness", "check"):
        sys.exit(__doc__)
    (harness if sys.argv[1] == "harness" else check)(sys.argv[2], sys.argv[3])
