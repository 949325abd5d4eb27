#!/usr/bin/env bash
# report.sh — `ngcc-perf report` on the golden fixture workspace
# (tests/fixtures/report/ws): every page is written under the run
# (<run>/reports/) and its path printed, two runs give identical bytes,
# --out and --system are honoured, pages of another run in --out are
# replaced only with --force (a clear refusal otherwise), and a missing or
# corrupt run directory is refused with its path named.
set -euo pipefail
ngcc="$NGCC_BIN/ngcc-perf"
ws=$(mktemp -d)
trap 'rm -rf "$ws"' EXIT
cp -r "$NGCC_SRC/tests/fixtures/report/ws/." "$ws/"

fail() { echo "FAIL: $*" >&2; exit 1; }

printed=$("$ngcc" -C "$ws" report --run runs/x86_1)
out=$ws/runs/x86_1/reports
[ ! -e "$ws/reports" ] || fail "report wrote into the workspace's reports/, not the run's"
for page in index.md symmetric-survey.md size-audit.md x86_1/index.md x86_1/method.md \
	    x86_1/kem-12.md x86_1/kem-17.md x86_1/kem-23.md x86_1/kem-27.md x86_1/kem-34.md; do
	[ -f "$out/$page" ] || fail "missing $page"
	grep -qx "$out/$page" <<<"$printed" || fail "path of $page not printed"
done
[ "$(grep -c '\.md$' <<<"$printed")" -eq 10 ] || fail "expected 10 pages, got: $printed"
# The charts are files of the Markdown tree, linked from A.8 (docs/report-format.md §10.4).
for f in x86_1/charts/kem-12-cycles.svg x86_1/charts/kem-12-cycles.csv x86_1/charts/kem-cost.svg; do
	[ -f "$out/$f" ] || fail "missing $f"
	grep -qx "$out/$f" <<<"$printed" || fail "path of $f not printed"
done
grep -q '^!\[.*\](charts/kem-12-cycles.svg)$' "$out/x86_1/kem-12.md" || fail "A.8 link of kem-12"

grep -qF '| `CTL-257-512` | keygen | 17.76 M | 8.48 ms | 118 | 8.49 ms | 595 (5 × 119) |' \
	"$out/x86_1/kem-12.md" || fail "kem-12 performance row"
grep -qF '| `NTRE-128` | enc | 49% | 5.4% | drng 1, pseudoXOF 2, sm3hash 1 |' \
	"$out/x86_1/kem-27.md" || fail "kem-27 share row"
grep -qF '| [kem-12](kem-12.md) | CTL Algorithm | [`CTL-257-512`](kem-12.md) | – | 17.76 M (8.4%) |' \
	"$out/x86_1/index.md" || fail "summary row"
if grep -q ' $' "$out"/*.md "$out"/x86_1/*.md; then fail "trailing blank"; fi

# Same data, same bytes (another output folder, absolute).
"$ngcc" -C "$ws" report --run "$ws/runs/x86_1" --out "$ws/again" >/dev/null
diff -r -x .ngcc-perf-report "$out" "$ws/again" || fail "two renders differ"
# the same run again: its pages are replaced, a stray page goes
touch "$out/x86_1/stale.md"
"$ngcc" -C "$ws" report --run runs/x86_1 >/dev/null || fail "a second report of the same run"
[ ! -e "$out/x86_1/stale.md" ] || fail "a page not of this render survived"

# Pages of another run in the same --out: refused, then replaced with --force.
cp -r "$ws/runs/x86_1" "$ws/runs/second"
real=$(realpath "$ws")   # the marker names the run by its real path
"$ngcc" -C "$ws" report --run runs/x86_1 --out shared >/dev/null
set +e
err=$("$ngcc" -C "$ws" report --run runs/second --out shared 2>&1); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "pages of another run overwritten: exit $rc"
grep -qF "$ws/shared holds the pages of another run ($real/runs/x86_1)" <<<"$err" ||
	fail "refusal does not name the folder and the other run: $err"
grep -qF -- "--force" <<<"$err" || fail "refusal does not name --force: $err"
grep -qx "run $real/runs/x86_1" "$ws/shared/.ngcc-perf-report" || fail "the refusal changed the pages"
"$ngcc" -C "$ws" report --run runs/second --out shared --force >/dev/null || fail "--force refused"
grep -qx "run $real/runs/second" "$ws/shared/.ngcc-perf-report" || fail "--force did not replace the pages"
# a copied run renders into its own reports/ (its marker names the original)
[ -f "$ws/runs/second/reports/.ngcc-perf-report" ] || fail "the copy has no pages to replace"
"$ngcc" -C "$ws" report --run runs/second >/dev/null || fail "the copy's own reports/ refused"
# a folder of other files is not written into without --force
mkdir "$ws/notes" && echo keep >"$ws/notes/todo.txt"
set +e
err=$("$ngcc" -C "$ws" report --run runs/second --out notes 2>&1); rc=$?
set -e
[ "$rc" -eq 2 ] || fail "a foreign folder written into: exit $rc"
grep -qF "holds no pages of \`ngcc-perf report\`" <<<"$err" || fail "foreign folder: $err"
[ ! -e "$ws/notes/index.md" ] || fail "pages written into a foreign folder"

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
