#!/usr/bin/env bash
# figures.sh — figures that appear twice agree, carry their unit and say
# their source, and every flag is explained where it appears: the counter
# bracket is "N ticks (T at R GHz)" with T = N / R on the method page, in
# A.0 and in check-host; A.3's operation peak RSS is the memory pass's, as
# measure printed it; A.1 explains `noisy` and A.4 `profile / timing ⚠`
# with their thresholds, the summary legend `noisy` when it shows it;
# numbers read as numbers (10 s, 1.5 minutes, 0.3).
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-figures.XXXXXX)
trap 'rm -rf "$ws" "$ws.log"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }

shared_copy example-campaign "$ws" "$ws.log"
[ "$(cat "$ws.log/campaign.rc")" -le 1 ] || fail "the shared campaign failed"
sys=$(ls "$ws/runs/c/reports" | grep -v '\.md$' | head -1)
ngcc check-host >"$ws/host.out" 2>&1 || true

python3 - "$ws" "$sys" "$ws.log/campaign.out" <<'PY' || fail "figures"
import glob, json, math, os, re, sys
ws, sys_id, console = sys.argv[1], sys.argv[2], sys.argv[3]
pages = os.path.join(ws, "runs", "c", "reports", sys_id)
method = open(os.path.join(pages, "method.md")).read()
cand = open(os.path.join(pages, "examplekem.md")).read()
summary = open(os.path.join(pages, "index.md")).read()
host = open(os.path.join(ws, "host.out")).read()

def g3(x):
    return "%.3g" % x

# One bracket text, the same everywhere: ticks and their time at the rate.
bracket = re.compile(r"(\d+) (ticks|cycles) \(([\d.e+]+) (ns|µs) at ([\d.]+) GHz\); "
                     r"the two clock reads inside it ([\d.]+) ns")
recs = [json.load(open(f)) for f in sorted(glob.glob(os.path.join(ws, "runs/c/records/*/*.json")))]
for name, text in (("method page", method), ("A.0", cand), ("check-host", host)):
    m = bracket.search(text)
    assert m, f"{name}: no bracket figure: {text[:2000]}"
    n, unit, t, tu, ghz = int(m[1]), m[2], float(m[3]), m[4], float(m[5])
    assert unit == "ticks", name                      # a VM: the TSC fallback
    want = n / (ghz * 1e9) * (1e9 if tu == "ns" else 1e6)
    assert abs(t - want) <= 0.051 * want + 0.051, (name, n, t, ghz, want)
    assert "cycles, " not in text.split("bracket")[1][:80], name
m = bracket.search(method)
# the figures of one of the run's records (the page says which in A.0)
assert any(int(m[1]) == round(r["counter"]["overhead_cycles_median"]) and
           float(m[6]) == float(g3(r["counter"]["overhead_ns_median"]))
           for r in recs if r["status"] == "complete"), (m[0], [r["counter"] for r in recs])

# A.3: the memory pass's peak RSS, as measure printed it.
a3 = cand.split("### A.3 Memory detail")[1].split("###")[0]
assert "Figures of the memory pass" in a3, a3
printed = {(l.split()[2], l.split()[3]): int(re.search(r"operation peak RSS (\d+) B", l)[1])
           for l in open(console) if l.startswith("MEMORY ") and " complete:" in l}
assert printed, "no MEMORY lines on the console"
def cell(label):
    # a variant's cell is its reference label and the extension (issue #29)
    base, _, tag = label.partition("+")
    shown = {"avx2": "AVX2", "avx512": "AVX-512", "neon": "NEON", "portable": "portable",
             "additional": "additional"}
    return f"`{base}` ({shown[tag]})" if tag else f"`{label}`"
for (label, op), b in printed.items():
    row = [l for l in a3.splitlines() if l.startswith(f"| {cell(label)} {op} |")]
    assert row, (label, op)
    cells = [c.strip() for c in row[0].strip("|").split("|")]
    assert cells[2] == f"{b // 1024} KiB", (label, op, cells, b)
    mem = json.load(open(os.path.join(ws, f"runs/c/memory/examplekem/{label}__{op}.json")))
    assert mem["op_peak_rss_bytes"] == b

# Flags explained where they appear, with their thresholds.
assert "`noisy` is `yes` when the CV is above 2.0%" in cand
if "### A.4 Profile detail" in cand:
    assert "marked ⚠ when it is off by more than 15%" in cand
if re.search(r"\| [^|]*noisy[^|]* \|$", summary, re.M):
    assert "`noisy` (notes) the trial times of an operation vary with a coefficient of " \
           "variation above 2.0%" in summary
assert "`n=` fewer than 100 timed calls" in summary
PY

# Numbers in words: an operation budget of 10 s and of 90 s.
cp "$ws/runs/c/campaign.json" "$ws/campaign.json.orig"
for budget in 10:10\ s 90:1.5\ minutes 900:15\ minutes; do
	python3 - "$ws/runs/c/campaign.json" "${budget%%:*}" <<'PY'
import json, sys
p = sys.argv[1]
d = json.load(open(p))
d["planning"]["op_budget_s"] = float(sys.argv[2])
json.dump(d, open(p, "w"), indent=1)
PY
	ngcc report --run runs/c --out o >/dev/null 2>&1 || fail "report"
	grep -q "capped at [0-9]* calls per trial and ${budget#*:} per operation" "$ws/o/$sys/method.md" ||
		fail "budget ${budget%%:*} s: $(grep 'capped at' "$ws/o/$sys/method.md")"
done
cp "$ws/campaign.json.orig" "$ws/runs/c/campaign.json"

# A refusal names the run's planning value as it was given.
rc=0
ngcc measure --run runs/c --trial-target 0.3 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test >"$ws/m.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "measure with another trial target exited $rc: $(cat "$ws/m.out")"
grep -q "planning constant trial_target_s is 0.002 in this run, 0.3 now" "$ws/m.out" ||
	fail "refusal: $(cat "$ws/m.out")"
echo "figures: ok"
