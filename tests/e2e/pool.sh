#!/usr/bin/env bash
# pool.sh — R1 per-trial seeds, R2 input pools and R17 warm calibration end
# to end (docs/method.md §14): ExampleKEM-128 and the OddKEM fixture
# (dec spins when the ciphertext's first byte is odd) measured with the
# defaults, so the pool pass runs.  Checks: a pool record per operation
# under 10 ms, its seeds and derived figures; OddKEM dec flagged
# "input-dependent timing", the example's operations not; records/ made
# without the pool; the A.7 section, the flag and the method page's
# sentence; validate accepts the dataset and catches a tampered pool
# record; --input-pool 0 is recorded and writes none; --seed-mode
# per-trial records each trial's seed, the same in two runs;
# --warm-calibration is recorded in planning and on the method page.
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
# the suite turns the pass off for the other tests (tests/run-tests)
unset NGCC_PERF_INPUT_POOL
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-pool.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
plan=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --max-timeout 60 --no-memory-pass
      --allow-unfixed-host=test)

shared_copy example-built "$ws"
ngcc add "$NGCC_SRC/tests/fixtures/pool/OddKEM" --id oddkem >/dev/null
ngcc build oddkem >"$ws/build.out" 2>&1 || fail "build: $(tail -5 "$ws/build.out")"
ngcc kat oddkem >"$ws/kat.out" 2>&1 || true
grep -q "RESULT oddkem Odd-1 NOKAT" "$ws/kat.out" || fail "kat: $(cat "$ws/kat.out")"

# The defaults: the pool pass runs after measure.
ngcc measure --run runs/p examplekem/ExampleKEM-128 oddkem "${plan[@]}" >"$ws/p.out" 2>&1 || fail "measure: $(tail -20 "$ws/p.out")"
grep -q "^pool: 0 kept, 6 measured, 0 failed" "$ws/p.out" || fail "pool summary: $(cat "$ws/p.out")"
grep -q "^POOL oddkem Odd-1 dec complete: .*(input-dependent timing)" "$ws/p.out" ||
	fail "OddKEM dec not flagged: $(grep POOL "$ws/p.out")"
python3 - "$ws/runs/p" <<'PY' || fail "pool records"
import json, os, statistics, sys
run = sys.argv[1]
def load(p):
    with open(os.path.join(run, p)) as f:
        return json.load(f)
n = 0
for cand in ("examplekem", "oddkem"):
    for f in sorted(os.listdir(os.path.join(run, "records", cand))):
        t = load(f"records/{cand}/{f}")
        p = load(f"pool/{cand}/{f}")
        n += 1
        where = f
        assert t["inputs"] == {"mode": "fixed", "pool_size": None}, where
        assert t["seed"]["bytes_hex"] == bytes(range(48)).hex(), where
        assert p["schema"] == "ngcc-perf/pool/1" and p["status"] == "complete", where
        assert p["plan"]["pool_size"] == 16 and p["plan"]["rounds"] == 5, where
        assert p["library_sha256"] == t["library_sha256"], where
        assert p["timing_record"] == f"records/{cand}/{f}", where
        meds = []
        for k, i in enumerate(p["per_input"]):
            assert i["input"] == k, where
            assert i["seed_hex"] == (bytes(range(47)) + bytes([0x30 + k])).hex(), (where, k)
            assert len(i["batch_ns"]) == 5, where
            m = statistics.median(i["batch_ns"]) / p["plan"]["calls_per_batch"]
            assert abs(i["median_ns_per_call"] - m) <= 1e-9 * m, where
            meds.append(m)
        assert abs(p["input_ratio"] - max(meds) / min(meds)) < 1e-9 * p["input_ratio"], where
        assert p["ratio_threshold"] == 1.5, where
        assert p["input_dependent"] == (p["input_ratio"] > 1.5), where
        # the fixture: dec is slow exactly for the odd ciphertexts
        want = cand == "oddkem" and f.endswith("__dec.json")
        assert p["input_dependent"] == want, (where, p["input_ratio"])
assert n == 6, n
c = load("campaign.json")
assert c["options"]["input_pool"] == 16 and c["options"]["seed_mode"] == "fixed", c["options"]
PY

# The pages: A.7 with the flag; the method page says what ran.
ngcc report --run runs/p >"$ws/report.out" 2>&1 || fail "report: $(tail -5 "$ws/report.out")"
page=$(find "$ws/runs/p/reports" -name oddkem.md)
grep -q "^### A.7 Input variation" "$page" || fail "no A.7 on the OddKEM page"
grep -q '^| `Odd-1` dec | 16 × 5 × .* | \*\*input-dependent timing\*\* |$' "$page" ||
	fail "dec row without the flag: $(grep -A8 'A.7' "$page")"
grep -q '^| `Odd-1` enc | .* | no |$' "$page" || fail "enc row"
grep -q "exceeds 1.5 times" "$page" || fail "threshold not stated"
grep -q 'input-dependent timing' "$(find "$ws/runs/p/reports" -name examplekem.md)" &&
	grep -q '\*\*input-dependent timing\*\*' "$(find "$ws/runs/p/reports" -name examplekem.md)" &&
	fail "the example was flagged"
grep -q "An input-pool pass (R2) left 6 pool record(s).*1 operation(s) were flagged" \
	"$(find "$ws/runs/p/reports" -name method.md)" || fail "method page pool sentence"

# validate recomputes the pool figures; a tampered median is caught.
ngcc publish --run runs/p --dataset ds --publish-unfixed --allow-partial >"$ws/pub.out" 2>&1 ||
	fail "publish: $(tail -5 "$ws/pub.out")"
ngcc validate ds --publish-unfixed >"$ws/val.out" 2>&1 || fail "validate: $(tail -5 "$ws/val.out")"
pf=$(find "$ws/ds/data" -path "*pool/oddkem/Odd-1__dec.json")
python3 - "$pf" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["per_input"][0]["batch_ns"] = [3 * v for v in j["per_input"][0]["batch_ns"]]
json.dump(j, open(sys.argv[1], "w"), indent=1)
PY
rc=0; ngcc validate ds --publish-unfixed >"$ws/val2.out" 2>&1 || rc=$?
[ "$rc" -ne 0 ] || fail "validate accepted a tampered pool record"
grep -q "pool/oddkem/Odd-1__dec.json.*recomputed from the per-input batches" "$ws/val2.out" ||
	fail "validate's reason: $(tail -5 "$ws/val2.out")"

# --input-pool 0: no pass, recorded.  --seed-mode per-trial twice, warm.
for r in s1 s2; do
	ngcc measure --run runs/$r oddkem --op dec "${plan[@]}" --input-pool 0 \
		--seed-mode per-trial --warm-calibration >"$ws/$r.out" 2>&1 ||
		fail "measure $r: $(tail -5 "$ws/$r.out")"
done
[ -e "$ws/runs/s1/pool" ] && fail "--input-pool 0 wrote pool records"
python3 - "$ws/runs/s1" "$ws/runs/s2" <<'PY' || fail "per-trial seeds"
import json, sys
seeds = []
for run in sys.argv[1:3]:
    c = json.load(open(f"{run}/campaign.json"))
    assert c["options"]["input_pool"] == 0 and c["options"]["seed_mode"] == "per-trial", c["options"]
    assert c["planning"]["warm_calibration"] is True, c["planning"]
    cal = json.load(open(f"{run}/calibrate/oddkem/Odd-1__dec.json"))
    assert cal["warm"] is True and len(cal["process"]["trials"]) == 3, cal
    r = json.load(open(f"{run}/records/oddkem/Odd-1__dec.json"))
    assert r["seed"]["mode"] == "per-trial", r["seed"]
    want = [(bytes(range(47)) + bytes([0x30 + t])).hex() for t in range(2)]
    assert r["seed"]["trials_hex"] == want, r["seed"]
    flat = [s for p in r["processes"] for s in p["trial_seeds_hex"]]
    assert flat == want, flat
    seeds.append(flat)
assert seeds[0] == seeds[1]
PY
# a trial number whose seed byte 0x30 + t would not fit is refused
rc=0; ngcc measure --run runs/t oddkem --op dec "${plan[@]}" --input-pool 0 --seed-mode per-trial \
	--trials 209 >"$ws/t.out" 2>&1 || rc=$?
[ "$rc" -eq 2 ] && grep -q "seeds at most 208 trials" "$ws/t.out" ||
	fail "--trials 209 with per-trial seeds (exit $rc): $(tail -3 "$ws/t.out")"
ngcc report --run runs/s1 >"$ws/report2.out" 2>&1 || fail "report s1: $(tail -5 "$ws/report2.out")"
m=$(find "$ws/runs/s1/reports" -name method.md)
grep -q "No input-pool pass ran (\`--input-pool 0\`)" "$m" || fail "method page: pool off"
grep -q "Per-trial seeds (R1): 1 record(s)" "$m" || fail "method page: seeds"
grep -q "Warm calibration (R17)" "$m" || fail "method page: warm calibration"
echo "pool: ok"
