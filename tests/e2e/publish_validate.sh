#!/usr/bin/env bash
# publish_validate.sh — publish and validate end to end on the example
# package: add, build, kat, a tiny measure and profile on an unfixed host,
# then `publish` (refused with exit 2 without --publish-unfixed, done with
# it), `validate` (exit 0), and four tamperings of the published dataset —
# a trial's ns, a profile share, a KAT log byte, a page byte — each making
# `validate` exit 1 with the right PROBLEM line; then `site` and the same
# for one byte of a site's HTML, SVG and CSV file, an extra and a missing
# file.  Also: --defer, and an
# absolute path in the run aborts publish and leaves the dataset alone.
#
# The measured run is a copy of the suite's shared campaign on the example
# package (shared/example-campaign.sh: add, build, kat, measure with the
# memory pass and profile, into runs/c).
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-publish.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"

shared_copy example-campaign "$ws" "$ws.log"
rc=$(cat "$ws.log/campaign.rc")
rm -rf "$ws.log"
[ "$rc" = 0 ] || fail "the shared campaign (build, kat, measure, profile) exited $rc"
sys=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["system_id"])' \
	"$ws/runs/c/campaign.json")
data="$ws/ds/data/$sys"

# The records were taken with --allow-unfixed-host: refused without the option.
rc=0
ngcc publish --run runs/c --dataset ds >"$ws/pub1.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "publish of unfixed records exited $rc, expected 2: $(cat "$ws/pub1.out")"
grep -q "refusing to publish .* unfixed host" "$ws/pub1.out" || fail "refusal text: $(cat "$ws/pub1.out")"
[ ! -e "$ws/ds" ] || fail "a refused publish created the dataset"

ngcc publish --run runs/c --dataset ds --publish-unfixed >"$ws/pub2.out" 2>&1 ||
	fail "publish --publish-unfixed: $(cat "$ws/pub2.out")"
python3 - "$data" "$ws/ds" <<'EOF' || fail "published layout"
import json, os, sys
data, ds = sys.argv[1], sys.argv[2]
def load(p):
    with open(os.path.join(data, p)) as f:
        return json.load(f)
for f in ("campaign.json", "build.json", "publish.json"):
    assert os.path.isfile(os.path.join(data, f)), f
for lab in ("ExampleKEM-128", "ExampleKEM-256"):
    assert os.path.isfile(os.path.join(data, "kat/examplekem", lab + ".log")), lab
    for op in ("keygen", "enc", "dec"):
        r = load(f"records/examplekem/{lab}__{op}.json")
        assert r["kat_log"] == f"kat/examplekem/{lab}.log", r["kat_log"]
        assert r["host"]["unfixed"] is True
        assert os.path.isfile(os.path.join(data, f"profile/examplekem/{lab}__{op}.json"))
# the AVX2 variant: its own KAT log and records, no profile (reference only)
lab = "ExampleKEM-128+avx2"
assert os.path.isfile(os.path.join(data, "kat/examplekem", lab + ".log")), lab
for op in ("keygen", "enc", "dec"):
    assert load(f"records/examplekem/{lab}__{op}.json")["variant"] == "optimized-avx2"
    assert not os.path.exists(os.path.join(data, f"profile/examplekem/{lab}__{op}.json"))
assert not os.path.exists(os.path.join(data, "calibrate")), "calibrations published"
assert not os.path.exists(os.path.join(data, "attempts")), "attempts published"
b = load("build.json")["instances"]
assert sorted(b) == ["examplekem/ExampleKEM-128", "examplekem/ExampleKEM-128+avx2",
                     "examplekem/ExampleKEM-256"], sorted(b)
for k, e in b.items():
    assert e["kat_log"] == "kat/" + k + ".log", e["kat_log"]
    assert not e["library"].startswith("/"), e["library"]
p = load("publish.json")
assert p["schema"] == "ngcc-perf/publish/1" and p["options"]["publish_unfixed"] is True
assert len([r for r in p["unfixed_records"] if r.startswith("records/")]) == 9, p["unfixed_records"]
assert len([r for r in p["unfixed_records"] if r.startswith("memory/")]) == 9, p["unfixed_records"]
# No file holds an absolute path of the workspace.
for root, _, files in os.walk(ds):
    for f in files:
        with open(os.path.join(root, f), "rb") as fh:
            assert os.path.dirname(ds).encode() not in fh.read(), os.path.join(root, f)
assert os.path.isfile(os.path.join(ds, "reports/index.md"))
assert not [d for d in os.listdir(os.path.dirname(ds)) if ".tmp." in d], "temporary tree left"
EOF
grep -rq "Measured on a host that was not fixed" "$ws/ds/reports" || fail "pages lack the unfixed-host notice"

# The pages are a pure function of the data: `report --run` renders the
# same bytes from the run and the workspace (docs/method.md §2); only
# report's marker naming the run (.ngcc-perf-report) is not a page.
ngcc report --run runs/c --out from-run >"$ws/rep.out" 2>&1 || fail "report: $(cat "$ws/rep.out")"
diff -r -x .ngcc-perf-report "$ws/from-run" "$ws/ds/reports" >"$ws/rep.diff" || fail "published pages differ from report --run: $(head -20 "$ws/rep.diff")"

ngcc validate ds >"$ws/v0.out" 2>&1 || fail "validate of a fresh dataset: $(cat "$ws/v0.out")"
grep -q "^9 timing record(s), 6 profile(s), 3 KAT log(s), 0 problem(s); report check: ok$" \
	"$ws/v0.out" || fail "summary line: $(cat "$ws/v0.out")"

# Each tampering of a copy must be found.
tamper() {   # name python-code expected-line
	rm -rf "$ws/t"
	cp -r "$ws/ds" "$ws/t"
	python3 -c "$2" "$ws/t/data/$sys" "$ws/t"
	local rc=0
	ngcc validate t >"$ws/$1.out" 2>&1 || rc=$?
	[ "$rc" = 1 ] || fail "$1: validate exited $rc: $(cat "$ws/$1.out")"
	grep -qF "$3" "$ws/$1.out" || fail "$1: no '$3' in: $(cat "$ws/$1.out")"
}
rec=records/examplekem/ExampleKEM-128__dec.json
prof=profile/examplekem/ExampleKEM-128__enc.json
log=kat/examplekem/ExampleKEM-256.log
tamper trial "
import json, sys
p = sys.argv[1] + '/$rec'
r = json.load(open(p))
r['processes'][0]['trials'][0]['ns'] += 1000
r['trials'][0]['ns'] += 1000
open(p, 'w').write(json.dumps(r, indent=1) + '\n')" "PROBLEM data/$sys/$rec: mean_seconds is "
rep=$(cd "$ws/ds/data/$sys" && ls repeat/*/*.json)
tamper repeat "
import json, sys
p = sys.argv[1] + '/$rep'
r = json.load(open(p))
r['processes'][0]['trials'][0]['ns'] += 1000
r['trials'][0]['ns'] += 1000
open(p, 'w').write(json.dumps(r, indent=1) + '\n')" "PROBLEM data/$sys/$rep: mean_seconds is "
tamper share "
import json, sys
p = sys.argv[1] + '/$prof'
r = json.load(open(p))
fn = sorted(r['share'])[-1]
r['share'][fn] *= 1.0001
open(p, 'w').write(json.dumps(r, indent=1) + '\n')" "PROBLEM data/$sys/$prof: share."
tamper katlog "
import sys
p = sys.argv[1] + '/$log'
b = bytearray(open(p, 'rb').read()); b[0] ^= 1
open(p, 'wb').write(b)" "PROBLEM data/$sys/$log: SHA-256 "
tamper page "
import sys
p = sys.argv[2] + '/reports/$sys/examplekem.md'
b = bytearray(open(p, 'rb').read()); b[-2] ^= 1
open(p, 'wb').write(b)" "PROBLEM reports/$sys/examplekem.md: differs from the page regenerated"

# R11: the sample records are published, A.2 and the distribution chart are
# on the page, and validate recomputes every robust figure from the kept
# samples: a changed sample, a cut-short list and a foreign document in
# samples/ are each a problem naming the file.
smp=samples/examplekem/ExampleKEM-128__enc.json
# one per timing record: 2 parameter sets and the AVX2 variant, 3 operations each
[ "$(ls "$data/samples/examplekem" | wc -l)" = 9 ] || fail "sample records not published: $(ls "$data/samples/examplekem")"
grep -qxF '### A.2 Per-call samples' "$ws/ds/reports/$sys/examplekem.md" || fail "the page has no A.2"
grep -qF '| `ExampleKEM-128` enc | '"${NGCC_PERF_SAMPLES:-1000}"' × ' "$ws/ds/reports/$sys/examplekem.md" ||
	fail "A.2 has no enc row of ${NGCC_PERF_SAMPLES:-1000} samples"
grep -qF '](charts/examplekem-samples.svg)' "$ws/ds/reports/$sys/examplekem.md" || fail "A.2 has no chart"
[ "$(grep -c 'class="mark"' "$ws/ds/reports/$sys/charts/examplekem-samples.svg")" = 9 ] ||
	fail "the distribution chart does not draw one box per operation"
tamper sample "
import json, sys
p = sys.argv[1] + '/$smp'
r = json.load(open(p))
r['batch_ns'][:len(r['batch_ns']) // 2] = [x * 3 for x in r['batch_ns'][:len(r['batch_ns']) // 2]]
open(p, 'w').write(json.dumps(r, indent=1) + '\n')" "of batch_ns (recomputed from the kept samples)"
tamper sample-cut "
import json, sys
p = sys.argv[1] + '/$smp'
r = json.load(open(p))
del r['batch_ns'][10:]
del r['batch_cycles'][10:]
open(p, 'w').write(json.dumps(r, indent=1) + '\n')" "PROBLEM data/$sys/$smp: batch_ns has 10 sample(s), the plan"
tamper sample-foreign "
import shutil, sys
shutil.copy(sys.argv[1] + '/$rec', sys.argv[1] + '/samples/examplekem/ExampleKEM-128__dec.json')" \
	"PROBLEM data/$sys/samples/examplekem/ExampleKEM-128__dec.json: not a samples document"

# The site is part of the dataset: after `site`, validate regenerates it
# (HTML, SVG, CSV, JSON, data/ copies) and compares every file.
ngcc site --dataset ds >"$ws/site.out" 2>&1 || fail "site: $(cat "$ws/site.out")"
[ -f "$ws/ds/site/$sys/charts/examplekem-cycles.svg" ] || fail "site has no candidate chart"
grep -q "A.8 Charts" "$ws/ds/reports/$sys/examplekem.md" || fail "the page has no A.8"
grep -q "](charts/examplekem-cycles.svg)" "$ws/ds/reports/$sys/examplekem.md" ||
	fail "A.8 does not link the chart"
[ -f "$ws/ds/reports/$sys/charts/examplekem-cycles.svg" ] || fail "the Markdown tree has no chart file"
! grep -rqF "$ws" "$ws/ds/site" || fail "the site holds an absolute path: $(grep -rlF "$ws" "$ws/ds/site")"
ngcc validate ds >"$ws/v1.out" 2>&1 || fail "validate after site: $(cat "$ws/v1.out")"
grep -q "report check: ok$" "$ws/v1.out" || fail "summary line after site: $(cat "$ws/v1.out")"
# issue 27: site says where its index page is, and validate prints the
# dataset digest the site's footer shows (before the site existed too).
grep -qx "site: index page $ws/ds/site/index.html (open it in a browser)" "$ws/site.out" ||
	fail "site does not say where index.html is: $(cat "$ws/site.out")"
footer=$(sed -n 's/.*dataset sha256 <code>\([^<]*\)<\/code>.*/\1/p' "$ws/ds/site/index.html" | head -1)
[ -n "$footer" ] || fail "no dataset digest in the site footer"
grep -qxF "dataset sha256 $footer (as the site's footer shows it)" "$ws/v1.out" ||
	fail "validate does not print the footer's digest $footer: $(cat "$ws/v1.out")"
grep -qxF "dataset sha256 $footer (as the site's footer shows it)" "$ws/v0.out" ||
	fail "validate without a site does not print the digest $footer: $(cat "$ws/v0.out")"
flip() {   # python code flipping one byte of the file sys.argv[2] + '/' + $1
	printf "import sys\np = sys.argv[2] + '/%s'\nb = bytearray(open(p, 'rb').read()); b[%s] ^= 1\nopen(p, 'wb').write(b)" "$1" "$2"
}
tamper site-html "$(flip "site/$sys/examplekem.html" 100)" \
	"PROBLEM site/$sys/examplekem.html: differs from the page regenerated"
tamper site-svg "$(flip "site/$sys/charts/examplekem-cycles.svg" 100)" \
	"PROBLEM site/$sys/charts/examplekem-cycles.svg: differs"
tamper site-csv "$(flip "site/$sys/charts/examplekem-cycles.csv" 1)" \
	"PROBLEM site/$sys/charts/examplekem-cycles.csv: differs"
tamper site-extra "import sys; open(sys.argv[2] + '/site/extra.html', 'w').write('x')" \
	"PROBLEM site/extra.html: not a file the dataset generates"
tamper site-missing "import os, sys; os.remove(sys.argv[2] + '/site/data/$sys/SHA256SUMS')" \
	"PROBLEM site/data/$sys/SHA256SUMS: missing"

# --defer leaves matching instances out, and the rest still validates.
ngcc publish --run runs/c --dataset ds-defer --publish-unfixed --defer '256$' >"$ws/pub3.out" 2>&1 ||
	fail "publish --defer: $(cat "$ws/pub3.out")"
[ ! -e "$ws/ds-defer/data/$sys/records/examplekem/ExampleKEM-256__dec.json" ] || fail "deferred record published"
[ ! -e "$ws/ds-defer/data/$sys/kat/examplekem/ExampleKEM-256.log" ] || fail "deferred KAT log published"
[ -e "$ws/ds-defer/data/$sys/records/examplekem/ExampleKEM-128__dec.json" ] || fail "--defer dropped too much"
ngcc validate ds-defer >"$ws/v3.out" 2>&1 || fail "validate of the deferred dataset: $(cat "$ws/v3.out")"

# An absolute path that remains aborts publish; the old dataset is untouched.
before=$(cd "$ws/ds" && find . -type f | sort | xargs sha256sum | sha256sum)
cp -r "$ws/runs/c" "$ws/runs/abs"
python3 -c "
import json, sys
p = sys.argv[1] + '/records/examplekem/ExampleKEM-128__enc.json'
r = json.load(open(p)); r['processes'][0]['stderr_tail'] = '/usr/lib/libfoo.so: warning'
open(p, 'w').write(json.dumps(r, indent=1) + '\n')" "$ws/runs/abs"
rc=0
ngcc publish --run runs/abs --dataset ds --publish-unfixed >"$ws/pub4.out" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "publish with an absolute path exited $rc: $(cat "$ws/pub4.out")"
grep -q "absolute path at processes\[0\].stderr_tail" "$ws/pub4.out" || fail "abort text: $(cat "$ws/pub4.out")"
after=$(cd "$ws/ds" && find . -type f | sort | xargs sha256sum | sha256sum)
[ "$before" = "$after" ] || fail "an aborted publish changed the dataset"
ls "$ws" | grep -q '\.tmp\.' && fail "an aborted publish left its temporary tree"

# Not a dataset: exit 3.
rc=0
ngcc validate runs >"$ws/v4.out" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "validate of a non-dataset exited $rc"
echo "publish/validate e2e ok"
