#!/usr/bin/env python3
"""page_structure.py A B — are two trees of pages identical in structure?

Used by the shard tests: a campaign split into shards and merged must give
the pages a single run gives, up to the measured values.  Compared:

  - the set of files (relative paths);
  - per Markdown page: the headings in order, and per table its header
    row, its number of rows and the first cell of every row;
  - per CSV file: the header row, the number of rows and the first cell
    of every row;
  - per SVG file: the marks (one per data point) in order, each by its
    title with the numbers left out (axes and grid lines follow the
    values, so they are not compared).

Digits are not compared anywhere else; they are the measurements.  Prints
each difference and exits 1 when there is one.
"""
import os
import re
import sys


def files(root):
    out = set()
    for d, _, names in os.walk(root):
        for n in names:
            out.add(os.path.relpath(os.path.join(d, n), root))
    return out


def md_shape(text):
    shape, table = [], None
    for line in text.splitlines():
        if line.startswith("#"):
            shape.append(("heading", line))
            table = None
        elif line.startswith("|"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if table is None:
                table = {"header": cells, "rows": []}
                shape.append(("table", table))
            elif not all(re.fullmatch(r":?-+:?", c) for c in cells):
                table["rows"].append(cells[0])
        else:
            table = None
    return [(k, v if k == "heading" else (v["header"], len(v["rows"]), v["rows"])) for k, v in shape]


def csv_shape(text):
    lines = text.splitlines()
    return (lines[:1], len(lines), [l.split(",")[0] for l in lines[1:]])


# a number standing alone, not a digit inside a name like ExampleKEM-128
# (its separators inside it, never a comma or point after it: "mean 12.5, min")
NUMBER = re.compile(r"(?<![A-Za-z0-9_-])[-+]?\d(?:[\d.,]*\d)?(?:e[-+]?\d+)?")


def svg_shape(text):
    marks = re.findall(r'<g class="mark"><title>(.*?)</title>', text)
    return [NUMBER.sub("#", m) for m in marks]


SHAPES = {".md": md_shape, ".csv": csv_shape, ".svg": svg_shape}


def main(a, b):
    problems = []
    fa, fb = files(a), files(b)
    for f in sorted(fa ^ fb):
        problems.append(f"{f}: only in {a if f in fa else b}")
    for f in sorted(fa & fb):
        shape = SHAPES.get(os.path.splitext(f)[1])
        if not shape:
            continue
        with open(os.path.join(a, f), encoding="utf-8") as x, open(os.path.join(b, f), encoding="utf-8") as y:
            sa, sb = shape(x.read()), shape(y.read())
        if sa != sb:
            first = next((i for i, (p, q) in enumerate(zip(sa, sb)) if p != q), min(len(sa), len(sb)))
            pa = sa[first] if first < len(sa) else "end"
            pb = sb[first] if first < len(sb) else "end"
            problems.append(f"{f}: structure differs at element {first}: {pa!r} vs {pb!r}")
    for p in problems:
        print(p)
    return 1 if problems else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    sys.exit(main(sys.argv[1], sys.argv[2]))
