#!/usr/bin/env bash
# page_truth.sh — the generated sentences say what the evidence shows.
# §3 names what the KAT logs show the libraries were compared with (the
# package's KAT files when there is no kat.sha256, the seed's manifest
# sentence when there is one); a run without profiles says "not profiled in
# this run" instead of a verdict over an empty table, on the candidate page,
# the survey page and the summary legend, and `report` warns; counts agree
# in number ("1 public-key candidate"), and a processor name takes "an"
# where it starts with a vowel.  A.5 states the counter overhead's unit.
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-truth.XXXXXX)
trap 'rm -rf "$ws" "$ws.log"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }

shared_copy example-campaign "$ws" "$ws.log"
[ "$(cat "$ws.log/campaign.rc")" -le 1 ] || fail "the shared campaign failed"
sys=$(ls "$ws/runs/c/reports" | grep -v '\.md$' | head -1)
page=$ws/out/$sys/examplekem.md

# ---- a run without profiles ---------------------------------------------------
rm -rf "$ws/runs/c/profile"
ngcc report --run runs/c --out out >"$ws/r1.out" 2>"$ws/r1.err" || fail "report: $(cat "$ws/r1.err")"
grep -q "warning: examplekem not profiled in .*runs/c" "$ws/r1.err" || fail "report did not warn: $(cat "$ws/r1.err")"
grep -qx "Each library was checked against the submitted KAT vectors (the KAT files of the submitted package, compared line by line) before timing." "$page" ||
	fail "§3 without a manifest: $(grep -A2 '## 3' "$page")"
! grep -q "SHA-256 manifest" "$page" || fail "§3 names a manifest that does not exist"
grep -q "^Not profiled in this run: " "$page" || fail "no 'not profiled' sentence"
! grep -q "verdict: \*\*not surveyed\*\*" "$page" || fail "'not surveyed' verdict without a profile"
! grep -q "^| instance | operation | pseudohash/XOF/sm3 | DRNG |" "$page" || fail "an empty share table"
grep -q "(1 public-key candidate, 1 not profiled in this run)" "$ws/out/symmetric-survey.md" ||
	fail "survey totals: $(grep Totals "$ws/out/symmetric-survey.md")"
grep -q "| ExampleKEM | not profiled in this run | – | – |" "$ws/out/symmetric-survey.md" || fail "survey row"
grep -q "Cycles without a share in parentheses are of candidates not profiled in this run" "$ws/out/$sys/index.md" ||
	fail "summary legend"
# report says where the evidence is until publish gives it the page's paths.
grep -q "^note: the pages name evidence by its path in a published dataset (data/$sys/...); until \`ngcc-perf publish --run .*runs/c\` the records and profiles are in .*runs/c and the KAT logs in build/<ID>/kat/" "$ws/r1.out" ||
	fail "report does not say where the evidence is before publish: $(cat "$ws/r1.out")"
# A.5 gives the counter overhead with its unit.
counter=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["counter"]["name"])' \
	"$(ls "$ws"/runs/c/records/examplekem/*.json | head -1)")
unit=ticks   # a fallback counter counts reference ticks
[ "$counter" != perf-user-cycles ] || unit=cycles
grep -E "^\| \`ExampleKEM-128\` [a-z]+ \| [^|]+ \| [0-9][0-9,.]* $unit \|" "$page" >/dev/null ||
	fail "A.5 counter overhead without its unit ($unit): $(grep -A4 'A.5' "$page")"
for p in "$ws/out/$sys/index.md" "$ws/out/$sys/method.md"; do
	! grep -qE " of a [AEIOUaeiou]" "$p" || fail "article: $(grep -E ' of a [AEIOU]' "$p")"
done

# ---- with a kat.sha256: the seed's sentence -----------------------------------
python3 - "$ws" <<'PY'
import hashlib, os, sys
ws = sys.argv[1]
src = os.path.join(ws, "candidates/examplekem/source/Test_Vectors")
with open(os.path.join(ws, "candidates/examplekem/kat.sha256"), "w") as out:
    for n in (128, 256):
        name = f"KAT_KEM_EXAMPLEKEM_{n}.txt"
        lines = open(os.path.join(src, name), "rb").read().split(b"\n")
        canon = b"".join(l.rstrip(b"\r \t") + b"\n" for l in lines if l.rstrip(b"\r \t"))
        out.write(f"{hashlib.sha256(canon).hexdigest()} strict ExampleKEM-{n}/{name}\n")
PY
ngcc kat examplekem >"$ws/kat.out" 2>&1 || fail "kat with the manifest: $(cat "$ws/kat.out")"
grep -q "^manifest " "$ws/build/examplekem/kat/ExampleKEM-128.log" || fail "the KAT log names no manifest"
ngcc report --run runs/c --out out >"$ws/r2.out" 2>&1 || fail "report: $(cat "$ws/r2.out")"
grep -qx 'Each library was checked against the submitted KAT vectors (SHA-256 manifest `examplekem/kat.sha256` in the harness) before timing.' "$page" ||
	fail "§3 with a manifest: $(grep -A2 '## 3' "$page")"
echo "page_truth: ok"
