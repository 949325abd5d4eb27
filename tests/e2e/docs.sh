#!/usr/bin/env bash
# docs.sh — the repository's documentation holds together: every relative
# link in README.md and docs/*.md reaches an existing file and, with a
# #fragment, an existing heading there; every citation of a section of
# docs/method.md, docs/report-format.md or docs/iccs.md anywhere in the
# sources, tests, scripts and docs names a section that exists; and no file
# cites the team's specifications or points to their folder beside the
# clone, which users do not have.
set -euo pipefail
: "${NGCC_SRC:?}"
python3 - "$NGCC_SRC" <<'PY'
import os, re, subprocess, sys

root = sys.argv[1]
problems = []

def slug(heading):
    # GitHub's heading ids: lower case, punctuation dropped, spaces to '-'.
    h = re.sub(r"`", "", heading.strip().lower())
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")

def headings(path):
    ids, sections = set(), set()
    seen = {}
    in_code = False
    for line in open(path, encoding="utf-8"):
        if line.startswith("```"):
            in_code = not in_code
        if in_code:
            continue
        m = re.match(r"^(#+)\s+(.*?)\s*$", line)
        if not m:
            continue
        s = slug(m.group(2))
        n = seen.get(s, 0)
        seen[s] = n + 1
        ids.add(s if n == 0 else f"{s}-{n}")
        num = re.match(r"^(\d+(?:\.\d+)*)\.?\s", m.group(2))
        if num:
            sections.add(num.group(1))
    return ids, sections

docs = ["README.md"] + sorted(
    os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
cache = {}
def info(rel):
    if rel not in cache:
        cache[rel] = headings(os.path.join(root, rel))
    return cache[rel]

for doc in docs:
    base = os.path.dirname(doc)
    text = open(os.path.join(root, doc), encoding="utf-8").read()
    text = re.sub(r"```.*?```", "", text, flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"^[a-z]+:", target):
            continue
        path, _, frag = target.partition("#")
        rel = os.path.normpath(os.path.join(base, path)) if path else doc
        if not os.path.exists(os.path.join(root, rel)):
            problems.append(f"{doc}: link to missing {target}")
            continue
        if frag and rel.endswith(".md") and frag not in info(rel)[0]:
            problems.append(f"{doc}: no heading #{frag} in {rel}")

files = subprocess.run(["git", "-C", root, "ls-files", "-z"], capture_output=True, text=True,
                       check=True).stdout.split("\0")
cite = re.compile(r"(method|report-format|iccs)\.md §\s?(\d+(?:\.\d+)*)")
for f in files:
    if not re.search(r"\.(c|h|md|sh|mk|1)$|^Makefile$|^scripts/", f):
        continue
    try:
        text = open(os.path.join(root, f), encoding="utf-8").read()
    except (UnicodeDecodeError, IsADirectoryError, FileNotFoundError):
        continue
    for m in cite.finditer(text):
        doc = f"docs/{m.group(1)}.md"
        if not os.path.exists(os.path.join(root, doc)):
            problems.append(f"{f}: cites {m.group(0)} but {doc} does not exist")
        elif m.group(2) not in info(doc)[1]:
            problems.append(f"{f}: cites {m.group(0)}, which {doc} does not have")
    # Citations in the specs' own style (a bare document name and a section
    # sign, also as escaped in C strings) name documents users do not have.
    for m in re.finditer(r"(?<![\w/.-])(method|report-format) (§|\\xc2\\xa7|\\u00a7)|iccs" + r"-api", text):
        problems.append(f"{f}: cites the specs ({m.group(0)}); cite docs/method.md, "
                        "docs/report-format.md or docs/iccs.md instead")
    outside = "../" + "shared"
    if outside in text and f != "tests/e2e/docs.sh":
        problems.append(f"{f}: points to {outside}, outside the repository")

for p in problems:
    print("PROBLEM", p)
if problems:
    sys.exit(1)
print(f"docs: {len(docs)} documents, links and citations ok")
PY
