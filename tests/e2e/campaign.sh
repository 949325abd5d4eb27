#!/usr/bin/env bash
# campaign.sh — `campaign` runs the whole chain on the example package:
# add, build, kat, measure, profile and report in one command on an
# unfixed host.  It exits 0, leaves complete timing records and profiles,
# <run>/size_audit.json and the pages, prints where the pages are, and a
# second identical command (with --out) resumes and succeeds without
# measuring again.
#
# The first campaign is the suite's shared one (shared/example-campaign.sh,
# run in a fresh workspace: its exit code, output and printed paths are
# checked here on a copy); the resume runs in the copy.
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
tmp=$(mktemp -d /tmp/ngcc-e2e-campaign.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"
ws=$tmp/ws
campaign() {
	"$NGCC_BIN/ngcc-perf" -C "$ws" campaign "$NGCC_SRC/examples/ExampleKEM" --run runs/c \
		--trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test "$@"
}

shared_copy example-campaign "$ws" "$tmp/first"
cp "$tmp/first/campaign.out" "$ws/c1.out"
cp "$tmp/first/campaign.err" "$ws/c1.err"
first_ws=$(cat "$tmp/first/ws_path")   # where the first campaign ran
rc=$(cat "$tmp/first/campaign.rc")
[ "$rc" = 0 ] || fail "campaign exited $rc: $(tail -20 "$ws/c1.err")"
# issue 27: the results table once measuring ends, a row per record
grep -q "^results: 9 timing record(s) in $first_ws/runs/c$" "$ws/c1.out" ||
	fail "campaign printed no results table: $(cat "$ws/c1.out")"
for l in 128 128+avx2 256; do
	for op in keygen enc dec; do
		grep -Eq "^  examplekem/ExampleKEM-${l/+/[+]} +$op +[0-9,.]+ ± [0-9,.]+ +[0-9,.]+ +[0-9.]+% +[0-9,.]+ +(cycles|ns)$" "$ws/c1.out" ||
			fail "no results row for ExampleKEM-$l $op: $(cat "$ws/c1.out")"
	done
done
# the variant is measured but not profiled, and profile says so
grep -q "^profile: examplekem/ExampleKEM-128+avx2 not profiled: an implementation variant" "$ws/c1.err" ||
	fail "profile does not say it left the AVX2 variant: $(grep profile: "$ws/c1.err")"
run=$ws/runs/c
sys=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["system_id"])' \
	"$run/campaign.json")

python3 - "$run" <<'PY' || fail "evidence of the run"
import json, os, sys
run = sys.argv[1]
def load(p):
    with open(os.path.join(run, p)) as f:
        return json.load(f)
labels = ("ExampleKEM-128", "ExampleKEM-256")
for lab in labels + ("ExampleKEM-128+avx2",):
    for op in ("keygen", "enc", "dec"):
        r = load(f"records/examplekem/{lab}__{op}.json")
        assert r["status"] == "complete", (lab, op, r["status"])
        assert len(r["trials"]) == 2, len(r["trials"])
        # the AVX2 variant: its own records, built with the performance
        # flags; the profile shares are defined on the reference build only
        if "+" in lab:
            assert r["variant"] == "optimized-avx2", r["variant"]
            assert r["build_flags"] == "guide-performance", r["build_flags"]
            assert load(f"memory/examplekem/{lab}__{op}.json")["status"] == "complete"
            assert not os.path.exists(os.path.join(run, f"profile/examplekem/{lab}__{op}.json"))
            continue
        p = load(f"profile/examplekem/{lab}__{op}.json")
        assert p["status"] == "complete", (lab, op, p["status"])
a = load("size_audit.json")
assert a["schema"] == "ngcc-perf/size-audit/1", a["schema"]
assert a["catalog_present"] is False
got = [(i["candidate"], i["label"]) for i in a["instances"]]
assert got == [("examplekem", l) for l in labels], got
for inst in a["instances"]:
    objs = {o["object"]: o for o in inst["objects"]}
    assert sorted(objs) == ["ct", "pk", "sk", "ss"], sorted(objs)
    for o in objs.values():
        # the example package returns exactly its API lengths
        assert o["observed"] == {"min": o["api"], "max": o["api"]}, o
        assert o["classification"] is None, o
phases = [p["phase"] for p in load("campaign.json")["phases"]]
for ph in ("build", "kat", "measure", "profile"):
    assert ph in phases, (ph, phases)
PY

# Repeatability (issue 28 item 5): ceil(6 / 20) = 1 unit of the candidate,
# the one whose "<ID>/<label>__<op>" has the smallest SHA-256, timed again
# into repeat/ with the plan of its first record; the method page shows it.
want=$(python3 -c 'import hashlib
units = ["examplekem/ExampleKEM-%s__%s" % (l, o) for l in ("128", "128+avx2", "256") for o in ("keygen", "enc", "dec")]
print(min(units, key=lambda u: hashlib.sha256(u.encode()).hexdigest()))')
got=$(cd "$run/repeat" && ls */*.json)
[ "$got" = "$want.json" ] || fail "repeat/ holds '$got', want $want.json"
python3 - "$run" "$want" <<'PY' || fail "repeat record"
import json, sys
run, unit = sys.argv[1], sys.argv[2]
a = json.load(open(f"{run}/records/{unit}.json"))
b = json.load(open(f"{run}/repeat/{unit}.json"))
assert b["status"] == "complete", b["status"]
assert a["plan"]["iterations_per_trial"] == b["plan"]["iterations_per_trial"], (a["plan"], b["plan"])
assert len(b["trials"]) == 2, len(b["trials"])
PY
method=$ws/runs/c/reports/$sys/method.md
grep -qxF "## Repeatability" "$method" || fail "the method page has no Repeatability section"
grep -qF "1 unit(s) of 1 candidate(s) were timed again" "$method" || fail "repeat sentence: $(grep -A3 Repeatability "$method")"
label=${want#examplekem/}
stem=${label%__*}
# the instance cell of the pages: the AVX2 build as `X` (AVX2)
case $stem in *+avx2) cell="\`${stem%+avx2}\` (AVX2)" ;; *) cell="\`$stem\`" ;; esac
grep -qF "| examplekem | $cell | ${label#*__} |" "$method" ||
	fail "no repeat row for $want on the method page"

page=$ws/runs/c/reports/$sys/examplekem.md
[ -f "$page" ] || fail "no candidate page $page"
for h in '## 1. Basic information' '## 2. Assessment environment' \
	 '## 3. Functional testing (KAT)' '## 4. Performance' '## 5. Resource consumption' \
	 '## 6. Transmission and storage overhead' '## Symmetric primitives' \
	 '## 7. Raw evidence index' '## Beyond the guide'; do
	grep -qxF "$h" "$page" || fail "candidate page lacks '$h'"
done
# sections in the seed order
order=$(grep -nE '^## (3\.|4\.|5\.|6\.|7\.|Beyond)' "$page" | cut -d: -f1 | tr '\n' ' ')
[ "$order" = "$(tr ' ' '\n' <<<"$order" | grep . | sort -n | tr '\n' ' ')" ] ||
	fail "sections out of order: $order"
grep -qF '| `ExampleKEM-128` | guide | PASS |' "$page" || fail "KAT row"
grep -qF '| `ExampleKEM-256` | keygen |' "$page" || fail "performance row"
for f in index.md size-audit.md symmetric-survey.md "$sys/index.md" "$sys/method.md"; do
	[ -f "$ws/runs/c/reports/$f" ] || fail "missing page $f"
done
grep -qxF "  summary:    $first_ws/runs/c/reports/$sys/index.md" "$ws/c1.out" || fail "summary path not printed: $(tail -5 "$ws/c1.out")"
grep -qxF "  candidate:  $first_ws/runs/c/reports/$sys/examplekem.md" "$ws/c1.out" || fail "candidate path not printed"

# The campaign of a package path in a fresh workspace: add, build, kat,
# measure, memory and profile, each phase recorded and successful.
python3 - "$run" <<'EOF' || fail "campaign evidence"
import json, os, sys
run = sys.argv[1]
c = json.load(open(f"{run}/campaign.json"))
assert [p["phase"] for p in c["phases"]] == ["build", "kat", "measure", "sampling", "memory",
                                            "profile"], c["phases"]
assert [p["exit_code"] for p in c["phases"]] == [0, 0, 0, 0, 0, 0], c["phases"]
# R11: on by default; every operation of the example is under 10 ms
assert c["options"]["sampling"] is True, c["options"]
samples = sorted(os.listdir(f"{run}/samples/examplekem"))
assert samples == sorted(os.listdir(f"{run}/records/examplekem")), samples
n = int(os.environ.get("NGCC_PERF_SAMPLES", "1000"))
for f in samples:
    s = json.load(open(f"{run}/samples/examplekem/{f}"))
    assert s["schema"] == "ngcc-perf/samples/1" and s["status"] == "complete", (f, s["status"])
    assert s["plan"]["samples"] == n == len(s["batch_ns"]) == s["robust"]["n"], f
    assert s["batch"] >= 1 and s["overhead_share"] < 0.01, (f, s["batch"], s["overhead_share"])
    assert s["robust"]["p5_s"] <= s["robust"]["median_s"] <= s["robust"]["p95_s"], f
assert c["started_utc"] <= c["phases"][0]["started_utc"]
recs = os.listdir(f"{run}/records/examplekem")
assert len(recs) == 9, recs
for f in recs:
    assert json.load(open(f"{run}/records/examplekem/{f}"))["status"] == "complete"
EOF

# The same command resumes: the records are kept as they are, and the
# pages are written again (to the folder named by --out).
sum_records() { find "$run/records" -type f -print0 | sort -z | xargs -0 sha256sum; }
before=$(sum_records)
rc=0
campaign --out again >"$ws/c2.out" 2>"$ws/c2.err" || rc=$?
[ "$rc" = 0 ] || fail "resumed campaign exited $rc: $(tail -20 "$ws/c2.err")"
grep -q "^measure: 9 kept, 0 measured, 0 failed" "$ws/c2.err" || fail "resume: $(grep measure: "$ws/c2.err")"
grep -q "^sampling: 9 kept, 0 sampled, 0 failed" "$ws/c2.err" || fail "sampling resume: $(grep sampling: "$ws/c2.err")"
[ "$before" = "$(sum_records)" ] || fail "a resume without new work changed the records"
[ -f "$ws/again/$sys/examplekem.md" ] || fail "--out not honoured"
grep -qxF "  candidate:  $ws/again/$sys/examplekem.md" "$ws/c2.out" || fail "--out path not printed"
echo "campaign e2e: ok"
