#!/usr/bin/env bash
# memory.sh — the memory pass end to end (docs/method.md §8, §14 R5 and R6): add,
# build and kat the MemKEM fixture (keygen: a 100 KiB stack array, one
# 12345-byte malloc, 64 MiB mapped and touched) and the example package,
# then `measure`, which runs the pass after timing.  Checks: every complete
# timing record has its memory record; stack within ±4 KiB, heap and
# allocations exact; keygen's 64 MiB does not raise dec's operation peak
# (R5, also by the fork fallback); the stack figures the same by the
# whole-stack scan, and its method recorded; the derived figures are the raw arrays'
# max and mean; only the memory program carries the allocation wrappers;
# options.memory_pass and the phase in campaign.json; resume;
# --no-memory-pass.
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-memory.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
# A short timing plan: MemKEM's keygen maps and touches 64 MiB (about 0.1 s
# a call), so the operation budget caps its timing at a few calls; the
# memory pass plans its own calls (up to 20) from the calibration.
# (the sampling pass is campaign.sh's subject)
plan=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --op-budget 0.5 --max-timeout 60 --allow-unfixed-host=test --no-sampling)

# The example package comes added and built (shared/example-built.sh).
shared_copy example-built "$ws"
ngcc add "$NGCC_SRC/tests/fixtures/memory/MemKEM" --id memkem >/dev/null
ngcc build memkem >"$ws/build.out" 2>&1 || fail "build: $(tail -5 "$ws/build.out")"
ngcc kat >"$ws/kat.out" 2>&1 || true
grep -q "RESULT memkem Mem-1 NOKAT" "$ws/kat.out" || fail "kat: $(cat "$ws/kat.out")"

ngcc measure --run runs/m "${plan[@]}" >"$ws/m1.out" 2>&1 || fail "measure: $(tail -20 "$ws/m1.out")"
cat "$ws/m1.out"
grep -q "^memory: 0 kept, 12 measured, 0 failed" "$ws/m1.out" || fail "memory summary line"

python3 - "$ws/runs/m" <<'PY' || fail "memory records"
import json, os, sys
run = sys.argv[1]
def load(p):
    with open(os.path.join(run, p)) as f:
        return json.load(f)
recs = {}
for cand in sorted(os.listdir(os.path.join(run, "records"))):
    for f in sorted(os.listdir(os.path.join(run, "records", cand))):
        t = load(f"records/{cand}/{f}")
        assert t["status"] == "complete", f
        m = load(f"memory/{cand}/{f}")
        recs[(t["label"], t["operation"])] = (t, m)
assert len(recs) == 12, sorted(recs)
head = ["schema", "status", "candidate", "label", "instance", "variant", "flags", "operation",
        "op_key", "input_bytes", "plan", "seed", "inputs", "kat", "kat_not_passed", "library",
        "library_sha256", "kat_log", "kat_log_sha256", "host", "started_utc", "ended_utc",
        "load_average_start", "load_average_end", "environment", "cpu", "counter", "process",
        "timing_record", "per_call", "calls", "stack_peak_bytes", "heap_peak_bytes",
        "allocations_per_call"]
for (label, op), (t, m) in recs.items():
    where = f"{label} {op}"
    assert list(m)[:len(head)] == head, (where, list(m))
    assert m["schema"] == "ngcc-perf/memory/1" and m["status"] == "complete", where
    for k in ("candidate", "label", "instance", "operation", "op_key", "library_sha256", "seed"):
        assert m[k] == t[k], (where, k)
    pc = m["per_call"]
    n = m["calls"]
    assert n == m["plan"]["calls"] and 1 <= n <= 20, where
    for k in ("stack_peak_bytes", "heap_peak_bytes", "allocations"):
        assert len(pc[k]) == n and all(isinstance(v, int) and v >= 0 for v in pc[k]), (where, k)
    assert m["stack_peak_bytes"] == max(pc["stack_peak_bytes"]), where
    assert m["heap_peak_bytes"] == max(pc["heap_peak_bytes"]), where
    assert abs(m["allocations_per_call"] - sum(pc["allocations"]) / n) < 1e-12, where
    assert m["op_peak_method"] in ("clear_refs",) or m["op_peak_method"].startswith("fork"), where
    assert m["stack_scan"].startswith(("written pages", "full scan (written-page tracking unavailable")), where
    assert m["loaded_rss_bytes"] > 0 and m["op_peak_rss_bytes"] > 0, where
    assert m["process"]["command"][0] == "<ngcc-perf>/bin/ngcc-perf-memory", where
    assert m["timing_record"] == f"records/{t['candidate']}/{label}__{op}.json", where

# R6: the fixture's known figures.
kg = recs[("Mem-1", "keygen")][1]
assert abs(kg["stack_peak_bytes"] - 102400) <= 4096, kg["stack_peak_bytes"]
assert all(abs(v - 102400) <= 4096 for v in kg["per_call"]["stack_peak_bytes"]), kg["per_call"]
assert kg["heap_peak_bytes"] == 12345, kg["heap_peak_bytes"]
assert kg["per_call"]["heap_peak_bytes"] == [12345] * kg["calls"], kg["per_call"]
assert kg["per_call"]["allocations"] == [1] * kg["calls"], kg["per_call"]
assert kg["allocations_per_call"] == 1
for op in ("enc", "dec"):
    m = recs[("Mem-1", op)][1]
    assert m["heap_peak_bytes"] == 0 and m["allocations_per_call"] == 0, (op, m["per_call"])
    assert m["stack_peak_bytes"] < 4096, (op, m["stack_peak_bytes"])

# R5: keygen touches 64 MiB; dec's setup runs keygen, its operation does not.
dec = recs[("Mem-1", "dec")][1]
assert kg["op_peak_rss_bytes"] - kg["baseline_rss_bytes"] >= 60 << 20, kg["op_peak_rss_bytes"]
assert dec["op_peak_rss_bytes"] < dec["baseline_rss_bytes"] + (16 << 20), dec["op_peak_rss_bytes"]
tdec = recs[("Mem-1", "dec")][0]
for p in tdec["processes"]:
    if p["rss"]["op_peak"] is not None:
        assert p["rss"]["op_peak"] < (32 << 20), p["rss"]

# The example package: real stack use, no heap.
for op in ("keygen", "enc", "dec"):
    m = recs[("ExampleKEM-128", op)][1]
    assert 0 < m["stack_peak_bytes"] < (1 << 20), (op, m["stack_peak_bytes"])
    print("ExampleKEM-128", op, m["stack_peak_bytes"], m["heap_peak_bytes"], m["allocations_per_call"])

c = load("campaign.json")
assert c["options"]["memory_pass"] is True, c["options"]
phases = [p["phase"] for p in c["phases"]]
assert phases[-2:] == ["measure", "memory"] and c["phases"][-1]["exit_code"] == 0, c["phases"]
PY

# No timing process carries the wrappers; the memory program does.
nm -D --defined-only "$NGCC_BIN/ngcc-perf-driver" | grep -qw malloc && fail "the timing driver defines malloc"
nm -D --defined-only "$NGCC_BIN/ngcc-perf-memory" | grep -qw malloc || fail "the memory program lacks its malloc wrapper"
if command -v ldd >/dev/null; then
	ldd "$NGCC_BIN/ngcc-perf-driver" | grep -q libcrypto && fail "the timing driver links libcrypto"
fi

# Resume: nothing is redone, the files stay byte-identical.
sum_before=$(cat "$ws"/runs/m/memory/*/*.json | sha256sum)
ngcc measure --run runs/m "${plan[@]}" >"$ws/m2.out" 2>&1 || fail "resume: $(tail -5 "$ws/m2.out")"
grep -q "^MEMORY" "$ws/m2.out" && fail "resume ran the memory program again: $(cat "$ws/m2.out")"
grep -q "^memory: 12 kept, 0 measured, 0 failed" "$ws/m2.out" || fail "resume summary"
[ "$(cat "$ws"/runs/m/memory/*/*.json | sha256sum)" = "$sum_before" ] || fail "resume changed memory records"

# A non-complete memory record is redone (and moved to attempts/).
rec=$ws/runs/m/memory/memkem/Mem-1__enc.json
python3 - "$rec" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
j["status"] = "failed"
json.dump(j, open(sys.argv[1], "w"), indent=1)
PY
ngcc measure --run runs/m "${plan[@]}" >"$ws/m3.out" 2>&1 || fail "redo: $(tail -5 "$ws/m3.out")"
grep -q "^MEMORY memkem Mem-1 enc complete" "$ws/m3.out" || fail "the failed memory record was not redone"
[ -f "$ws/runs/m/attempts/memory/memkem/Mem-1__enc.1.json" ] || fail "attempt not kept"

# --no-memory-pass: timing only, recorded.
ngcc measure --run runs/n memkem --no-memory-pass "${plan[@]}" >"$ws/n.out" 2>&1 ||
	fail "measure --no-memory-pass: $(tail -5 "$ws/n.out")"
[ -e "$ws/runs/n/memory" ] && fail "--no-memory-pass wrote memory records"
python3 - "$ws/runs/n/campaign.json" <<'PY' || fail "options.memory_pass false"
import json, sys
c = json.load(open(sys.argv[1]))
assert c["options"]["memory_pass"] is False, c["options"]
assert "memory" not in [p["phase"] for p in c["phases"]], c["phases"]
PY
# R5 by the fork fallback, which a kernel refusing clear_refs gets.
for op in keygen dec; do
	(cd "$ws" && "$NGCC_BIN/ngcc-perf-memory" --lib build/memkem/libMem-1.so --op $op --calls 2 \
		--op-peak-method fork 3>"$ws/fork-$op.json" >/dev/null) ||
		fail "ngcc-perf-memory --op-peak-method fork --op $op"
done
python3 - "$ws/fork-keygen.json" "$ws/fork-dec.json" <<'PY' || fail "operation peak by fork"
import json, sys
kg, dec = (json.load(open(p)) for p in sys.argv[1:3])
for r in (kg, dec):
    assert r["status"] == "complete" and r["op_peak_method"] == "fork (requested)", r
assert kg["op_peak_rss_bytes"] >= 64 << 20, kg["op_peak_rss_bytes"]
assert dec["op_peak_rss_bytes"] < 16 << 20, dec["op_peak_rss_bytes"]
assert kg["per_call"]["heap_peak_bytes"] == [12345, 12345], kg["per_call"]
PY
# R6: the whole-stack scan, which a kernel without written-page tracking
# gets, gives the same figures.
for scan in auto full; do
	(cd "$ws" && "$NGCC_BIN/ngcc-perf-memory" --lib build/memkem/libMem-1.so --op keygen --calls 2 \
		--stack-scan $scan 3>"$ws/scan-$scan.json" >/dev/null) ||
		fail "ngcc-perf-memory --stack-scan $scan"
done
python3 - "$ws/scan-auto.json" "$ws/scan-full.json" <<'PY' || fail "stack peak by the whole-stack scan"
import json, sys
auto, full = (json.load(open(p)) for p in sys.argv[1:3])
assert full["stack_scan"] == "full scan (requested)", full["stack_scan"]
assert auto["stack_scan"] != full["stack_scan"], auto["stack_scan"]
for k in ("empty_stack_bytes", "per_call"):
    assert auto[k] == full[k], (k, auto[k], full[k])
PY
echo "memory: ok"
