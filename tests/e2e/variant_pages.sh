#!/usr/bin/env bash
# variant_pages.sh — implementation variants on the pages (issue #29;
# docs/report-format.md §5, §6, §10.2, §11): a short measurement on the layouts
# fixture ToyKEM (add, build, kat, measure keygen and dec), whose Toy-1-128
# ships a Reference_ and an Optimized_Implementation (built as
# Toy-1-128+portable), then:
#  - the candidate page: "reference, optimized (portable)", `Toy-1-128` (portable)
#    rows in the seed tables right after the reference's, A.14 with the
#    variant's status and speed-ups; two variant builds that did not run
#    (an UNSUPPORTED_CPU and a KAT MISMATCH entry added to build.json) are
#    named with their status in A.14 and have no row in §4; a variant of a
#    parameter set without a reference build still names its set;
#  - the summary: reference rows only in the seed tables, the "Fastest
#    implementation" section agreeing with summary.csv's fastest column;
#  - the method page's variant bullet (flags, profiles on reference only);
#  - publish, site and validate (byte for byte), the site's variant views;
#  - the same data as a second system: compare.md compares the variant with
#    the same variant only;
#  - a parameter set timed only as a variant still gets its fastest rows.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
ws=$(mktemp -d /tmp/ngcc-e2e-variant-pages.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }

cand=toykem-submission-v1-0
# the phases of a campaign but the memory pass and profile (test time)
{ ngcc add "$NGCC_FIXTURES/layouts/ToyKEM Submission v1.0" && ngcc build $cand && ngcc kat $cand &&
	ngcc measure $cand --run runs/c --op keygen --op dec --trial-target 0.002 --trials 2 \
		--disturbed-retries 0 --no-memory-pass --allow-unfixed-host=test; } >"$ws/campaign.out" 2>"$ws/campaign.err" ||
	{ tail -20 "$ws/campaign.err"; fail "add, build, kat or measure exited non-zero"; }
sys=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["system_id"])' \
	"$ws/runs/c/campaign.json")
[ -f "$ws/runs/c/records/$cand/Toy-1-128+portable__dec.json" ] || fail "the optimized build was not timed"

# Variant builds that did not run, as build.json records them; the last
# one of a parameter set without a reference build.
python3 - "$ws/build/$cand/build.json" <<'PY'
import copy, json, sys
p = sys.argv[1]
d = json.load(open(p))
inst = d["instances"]
src = inst["toykem-submission-v1-0/Toy-1-128+portable"]
# the KAT gate's comparison with the reference (kat/gate_variants.c)
src["kat_vs_reference"] = "same"
for label, variant, kat, vs in (
        ("Toy-1-128+avx512", "optimized-avx512", "UNSUPPORTED_CPU", "not compared"),
        ("Toy-1-128+neon", "optimized-neon", "MISMATCH", "differs"),
        ("Toy-1-128+additional", "additional", "MISMATCH", None),
        ("Toy-5-256+additional", "additional", "PASS", "no reference")):
    e = copy.deepcopy(src)
    e.update(label=label, variant=variant, kat=kat, kat_log=None,
             kat_log_sha256=None, kat_not_passed=kat != "PASS", kat_vs_reference=vs)
    if vs is None:
        del e["kat_vs_reference"]
    inst["toykem-submission-v1-0/" + label] = e
json.dump(d, open(p, "w"), indent=1)
PY
ngcc report --run runs/c >/dev/null 2>"$ws/report.err" || { cat "$ws/report.err"; fail "report"; }
page=$ws/runs/c/reports/$sys/$cand.md
has "$page" '- Implementation versions measured: reference, optimized (portable)'
has "$page" '| `Toy-1-128` (portable) | guide-performance | PASS |'
has "$page" '| `Toy-1-128` (AVX-512) | guide-performance | UNSUPPORTED_CPU (not timed) |'
# §4: the variant's rows right after the reference's, none for the builds that did not run
python3 - "$page" <<'PY' || fail "§4 rows"
import sys
text = open(sys.argv[1]).read()
perf = text.split("## 4. Performance")[1].split("\n## ")[0]
rows = [l.split(" | ")[0:2] for l in perf.splitlines() if l.startswith("| `")]
want = [["| `Toy-1-128`", "keygen"], ["| `Toy-1-128`", "dec"],
        ["| `Toy-1-128` (portable)", "keygen"], ["| `Toy-1-128` (portable)", "dec"],
        ["| `Toy-3-192`", "keygen"], ["| `Toy-3-192`", "dec"]]
assert rows == want, rows
PY
has "$page" '### A.14 Implementation variants'
has "$page" '| `Toy-1-128` (portable) | optimized (portable) | PASS | same | timed, 2 of 2 records complete | no |'
has "$page" '| `Toy-1-128` (AVX-512) | optimized (AVX-512) | UNSUPPORTED_CPU | not compared | not run: UNSUPPORTED_CPU'
has "$page" '| `Toy-1-128` (NEON) | optimized (NEON) | MISMATCH | differs | not timed: KAT output differs from its reference'"'"'s (KAT MISMATCH) | no |'
has "$page" '| `Toy-1-128` (additional) | additional | MISMATCH | – | not timed: KAT MISMATCH'
has "$page" '| `Toy-5-256` (additional) | additional | PASS | no reference | not measured in this run | no |'
has "$page" '- Parameter sets: `Toy-1-128`, `Toy-3-192`, `Toy-5-256`'
grep -q '^| `Toy-1-128` (portable) dec | [0-9.]*\( [kMG]\)\? | [0-9.]*\( [kMG]\)\? | [0-9]*\.[0-9][0-9]× |$' "$page" ||
	fail "A.14 speed-up row of dec: $(grep -F '(portable) dec' "$page")"
hasnt "$page" '(AVX-512) | keygen'
summary=$ws/runs/c/reports/$sys/index.md
has "$summary" '## Fastest implementation'
hasnt "$summary" '(portable)](' # seed tables: reference rows only
has "$ws/runs/c/reports/$sys/method.md" '- Implementation variants: every implementation'
has "$ws/runs/c/reports/$sys/method.md" 'optimized (portable): 1 build, `guide-performance`, compiled with `'
has "$ws/runs/c/reports/$sys/method.md" 'no variant build was profiled'

# publish (the campaign's own build.json: the two added entries have no
# KAT log to publish), site and validate
cp "$ws/build/$cand/build.json" "$ws/build.json.edited"
python3 - "$ws/build/$cand/build.json" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
for k in [k for k in d["instances"] if k.endswith(("+avx512", "+neon", "+additional"))]:
    del d["instances"][k]
json.dump(d, open(p, "w"), indent=1)
PY
ngcc publish --run runs/c --dataset ds --publish-unfixed --allow-partial >/dev/null 2>"$ws/publish.err" ||
	{ cat "$ws/publish.err"; fail "publish"; }
ngcc site --dataset ds >/dev/null
ngcc validate ds >"$ws/validate.out" || { cat "$ws/validate.out"; fail "validate"; }
has "$ws/validate.out" 'report check: ok'
csv=$ws/ds/site/data/$sys/summary.csv
md=$ws/ds/reports/$sys/index.md
python3 - "$csv" "$md" <<'PY' || fail "summary.csv and the summary's fastest builds disagree"
import csv, sys
rows = list(csv.DictReader(open(sys.argv[1])))
assert {r["variant"] for r in rows} == {"reference", "optimized-portable"}, rows
fast = {(r["label"], r["operation"]): r["variant"] for r in rows if r["fastest"] == "true"}
words = {"reference": "reference", "optimized-portable": "optimized (portable)"}
text = open(sys.argv[2]).read().split("## Fastest implementation")[1]
seen = 0
for line in text.splitlines():
    if not line.startswith("| ["):
        continue
    cells = line.split(" | ")
    label = cells[1].split("`")[1]
    assert words[fast[(label, cells[2])]] == cells[4], line
    seen += 1
assert seen == 2, seen   # Toy-1-128 keygen and dec; Toy-3-192 has no variant
for r in rows:
    if r["variant"] == "optimized-portable":
        assert float(r["speedup_vs_reference"]) > 0, r
    else:
        assert r["speedup_vs_reference"] == "", r
PY
site=$ws/ds/site/$sys
for v in variants variants-reference variants-optimized-portable; do
	[ -f "$site/$v.html" ] || fail "no $v.html"
	grep -q "href=\"$v.html\"" "$site/index.html" || fail "$v.html not linked from the summary"
done
grep -q '<strong>optimized (portable)</strong>' "$site/variants-optimized-portable.html" ||
	fail "the portable view does not say it is shown"
! grep -q '<td>reference</td>' "$site/variants-optimized-portable.html" ||
	fail "the portable view has reference rows"
grep -q '<td>reference</td>' "$site/variants.html" || fail "the all-builds view lacks reference rows"

# A second system with the same data: each variant against the same variant.
cp -r "$ws/ds" "$ws/ds2"
rm -rf "$ws/ds2/site" "$ws/ds2/reports"
cp -r "$ws/ds2/data/$sys" "$ws/ds2/data/${sys}b"
sed -i "s/\"system_id\": \"$sys\"/\"system_id\": \"${sys}b\"/" "$ws/ds2/data/${sys}b/campaign.json"
ngcc site --dataset ds2 >/dev/null
cmp=$ws/ds2/site/compare.html
grep -q "against $sys: implementation variants</h2>" "$cmp" || fail "compare.html: no variant section"
grep -q '<td><code>Toy-1-128</code> (portable)</td>' "$cmp" || fail "compare.html: no portable row"
grep -q 'Like is compared with like' "$cmp" || fail "compare.html does not state the rule"

# A parameter set timed only as a variant (its reference build renamed
# Toy-3-192+additional): the summary's fastest rows name it, without a
# reference figure.
python3 - "$ws" "$cand" <<'PY'
import json, os, sys
ws, cand = sys.argv[1], sys.argv[2]
p = f"{ws}/build/{cand}/build.json"
d = json.load(open(p))
e = d["instances"].pop(f"{cand}/Toy-3-192")
e.update(label="Toy-3-192+additional", variant="additional",
         kat_log=f"build/{cand}/kat/Toy-3-192+additional.log")
d["instances"][f"{cand}/Toy-3-192+additional"] = e
json.dump(d, open(p, "w"), indent=1)
os.rename(f"{ws}/build/{cand}/kat/Toy-3-192.log", f"{ws}/build/{cand}/kat/Toy-3-192+additional.log")
for kind in os.listdir(f"{ws}/runs/c"):
    rec = f"{ws}/runs/c/{kind}/{cand}"
    for f in os.listdir(rec) if os.path.isdir(rec) else []:
        if f.startswith("Toy-3-192__"):
            os.rename(f"{rec}/{f}", f"{rec}/Toy-3-192+additional__{f.split('__')[1]}")
PY
ngcc report --run runs/c --out alone >/dev/null 2>"$ws/report.err" || { cat "$ws/report.err"; fail "report"; }
grep -q '^| \[[^]]*\]([^)]*) | \[`Toy-3-192`\]([^)]*) | dec | – | additional | [0-9.]*\( [kMG]\)\? | – |$' \
	"$ws/alone/$sys/index.md" || fail "fastest row of a set without a reference: $(grep -F Toy-3-192 "$ws/alone/$sys/index.md")"
exit 0
