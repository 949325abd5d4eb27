#!/usr/bin/env bash
# report.sh — `ngcc-perf report` on the golden fixture workspace
# (tests/fixtures/report/ws): every page is written and its path printed,
# two runs give identical bytes, --out and --system are honoured, and a
# missing or corrupt run directory is refused with its path named.
set -euo pipefail
ngcc="$NGCC_BIN/ngcc-perf"
ws=$(mktemp -d)
trap 'rm -rf "$ws"' EXIT
cp -r "$NGCC_SRC/tests/fixtures/report/ws/." "$ws/"

fail() { echo "FAIL: $*" >&2; exit 1; }

printed=$("$ngcc" -C "$ws" report --run runs/x86_1)
for page in index.md symmetric-survey.md size-audit.md x86_1/index.md x86_1/method.md \
	    x86_1/kem-12.md x86_1/kem-17.md x86_1/kem-23.md x86_1/kem-27.md x86_1/kem-34.md; do
	[ -f "$ws/reports/$page" ] || fail "missing $page"
	grep -qx "$ws/reports/$page" <<<"$printed" || fail "path of $page not printed"
done
[ "$(grep -c '\.md$' <<<"$printed")" -eq 10 ] || fail "expected 10 pages, got: $printed"
# The charts are files of the Markdown tree, linked from A.8 (docs/report-format.md §10.4).
for f in x86_1/charts/kem-12-cycles.svg x86_1/charts/kem-12-cycles.csv x86_1/charts/kem-cost.svg; do
	[ -f "$ws/reports/$f" ] || fail "missing $f"
	grep -qx "$ws/reports/$f" <<<"$printed" || fail "path of $f not printed"
done
grep -q '^!\[.*\](charts/kem-12-cycles.svg)$' "$ws/reports/x86_1/kem-12.md" || fail "A.8 link of kem-12"

grep -qF '| `CTL-257-512` | keygen | 17.76 M | 8.48 ms | 118 | 8.49 ms | 595 (5 × 119) |' \
	"$ws/reports/x86_1/kem-12.md" || fail "kem-12 performance row"
grep -qF '| `NTRE-128` | enc | 49% | 5.4% | drng 1, pseudoXOF 2, sm3hash 1 |' \
	"$ws/reports/x86_1/kem-27.md" || fail "kem-27 share row"
grep -qF '| [kem-12](kem-12.md) | CTL Algorithm | [`CTL-257-512`](kem-12.md) | – | 17.76 M (8.4%) |' \
	"$ws/reports/x86_1/index.md" || fail "summary row"
if grep -q ' $' "$ws"/reports/*.md "$ws"/reports/x86_1/*.md; then fail "trailing blank"; fi

# Same data, same bytes (another output folder, absolute).
"$ngcc" -C "$ws" report --run "$ws/runs/x86_1" --out "$ws/again" >/dev/null
diff -r "$ws/reports" "$ws/again" || fail "two renders differ"

"$ngcc" -C "$ws" report --run runs/x86_1 --system lab_9 --out other >/dev/null
[ -f "$ws/other/lab_9/kem-12.md" ] || fail "--system not honoured"
grep -q '^# kem-12 CTL Algorithm — performance on x86-64 (system lab_9)$' \
	"$ws/other/lab_9/kem-12.md" || fail "--system not in the title"

set +e
err=$("$ngcc" -C "$ws" report --run runs/missing 2>&1); rc=$?
set -e
[ "$rc" -eq 3 ] || fail "missing run: exit $rc"
grep -q "runs/missing" <<<"$err" || fail "missing run not named: $err"

echo '{' > "$ws/runs/x86_1/records/kem-27/NTRE-128__enc.json"
set +e
err=$("$ngcc" -C "$ws" report --run runs/x86_1 2>&1); rc=$?
set -e
[ "$rc" -eq 3 ] || fail "corrupt record: exit $rc"
grep -q "NTRE-128__enc.json" <<<"$err" || fail "corrupt record not named: $err"

set +e
"$ngcc" -C "$ws" report >/dev/null 2>&1; rc=$?
set -e
[ "$rc" -eq 2 ] || fail "no --run: exit $rc"
echo "report e2e: ok"
