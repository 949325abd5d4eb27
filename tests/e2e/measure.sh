#!/usr/bin/env bash
# measure.sh — the measuring phases end to end with a tiny plan: add, build
# and kat the example package and the toy fixture (instances that crash in
# enc, hang in dec, return a wrong shared secret), then `measure`, and
# check every record: status, counts, raw trials against the plan, host
# override evidence, failure causes, the phase's counter rate in every
# driver process (and a driver run alone calibrating its own).  Then: resume, refusal of other
# planning values, a changed environment (R10), refusal of an unfixed host,
# disturbed retries beside a busy process (R7) and kat_issues.csv
# exclusion.  (`campaign` from a package path: campaign.sh.)
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-measure.XXXXXX)
hog=
cleanup() {
	[ -n "$hog" ] && kill "$hog" 2>/dev/null
	rm -rf "$ws"
}
trap cleanup EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
# Timing only: the memory pass that follows measure is memory.sh's subject.
# Nor the sampling pass (campaign.sh): --no-sampling is recorded and honoured.
plan=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --max-timeout 2 --no-memory-pass --no-sampling --allow-unfixed-host=test)

# The example package comes added and built (shared/example-built.sh).
shared_copy example-built "$ws"
ngcc add "$NGCC_FIXTURES/measure/ToyKEM" --id toykem >/dev/null
ngcc build toykem >"$ws/build.out" 2>&1 || fail "build: $(tail -5 "$ws/build.out")"
ngcc kat >"$ws/kat.out" 2>&1 || true
grep -q "RESULT examplekem ExampleKEM-128 PASS" "$ws/kat.out" || fail "example KAT: $(cat "$ws/kat.out")"
grep -q "RESULT toykem Toy-1 NOKAT" "$ws/kat.out" || fail "toy KAT: $(cat "$ws/kat.out")"

rc=0
ngcc measure --run runs/t "${plan[@]}" >"$ws/m1.out" 2>&1 || rc=$?
cat "$ws/m1.out"
[ "$rc" = 1 ] || fail "measure exited $rc, expected 1 (three operations fail)"

python3 - "$ws/runs/t" <<'EOF' || fail "records"
import json, os, sys
run = sys.argv[1]
def load(p):
    with open(os.path.join(run, p)) as f:
        return json.load(f)
# --no-sampling: no sample records, and the option says so
assert load("campaign.json")["options"]["sampling"] is False
assert not os.path.exists(os.path.join(run, "samples")), os.listdir(os.path.join(run, "samples"))
expect = {}
for lab in ("ExampleKEM-128", "ExampleKEM-128+avx2", "ExampleKEM-256", "Toy-1"):
    for op in ("keygen", "enc", "dec"):
        expect[(lab, op)] = "complete"
for op in ("keygen", "dec"):
    expect[("Toy-Crash", op)] = "complete"
expect[("Toy-Crash", "enc")] = "failed"
for op in ("keygen", "enc"):
    expect[("Toy-Hang", op)] = "complete"
expect[("Toy-Hang", "dec")] = "hard_timeout"
for op in ("keygen", "enc"):
    expect[("Toy-Wrong", op)] = "complete"
expect[("Toy-Wrong", "dec")] = "invalid_output"
files = []
for cand in sorted(os.listdir(os.path.join(run, "records"))):
    for f in sorted(os.listdir(os.path.join(run, "records", cand))):
        files.append((cand, f))
assert len(files) == len(expect), files
order = ["schema", "status", "status_detail", "candidate", "label", "instance", "variant",
         "flags", "operation", "op_key", "input_bytes", "plan", "seed", "inputs", "kat",
         "kat_not_passed", "library", "library_sha256", "kat_log", "kat_log_sha256", "host",
         "started_utc", "ended_utc", "load_average_start", "load_average_end", "environment",
         "cpu", "concurrent_cpus", "counter", "processes", "trials", "measurements"]
for cand, f in files:
    r = load(f"records/{cand}/{f}")
    key = (r["label"], r["operation"])
    assert f == f"{r['label']}__{r['operation']}.json", f
    assert r["schema"] == "ngcc-perf/record/1"
    assert r["status"] == expect[key], (key, r["status"], r["status_detail"])
    keys = list(r.keys())
    assert keys[:len(order)] == order, keys
    assert r["host"] == {"unfixed": True, "problems": r["host"]["problems"],
                         "override_reason": "test"} or not r["host"]["problems"], r["host"]
    assert r["library"] == f"build/{cand}/lib{r['label']}.so"
    assert r["kat"] == ("PASS" if cand == "examplekem" else "NOKAT")
    assert r["kat_not_passed"] == (cand != "examplekem")
    assert r["seed"]["bytes_hex"] == bytes(range(48)).hex()
    assert r["environment"]["hostname"]
    if r["status"] != "complete":
        continue
    p = r["plan"]
    assert p["trials"] == 2 and p["separate_processes"], p
    assert p["iterations_per_trial"] >= 50, p          # ceil(100 / 2)
    assert len(r["processes"]) == 2
    flat = [t for proc in r["processes"] for t in proc["trials"]]
    assert r["trials"] == flat
    assert len(flat) == 2 and all(t["calls"] == p["iterations_per_trial"] for t in flat)
    assert r["measurements"] == sum(t["calls"] for t in flat)
    assert abs(r["mean_seconds"] - sum(t["ns"] for t in flat) / 1e9 / r["measurements"]) < 1e-15
    assert r["status_detail"] is None
    for proc in r["processes"]:
        assert proc["status"] == "complete" and proc["exit_code"] == 0
        assert proc["command"][0] == "<ngcc-perf>/bin/ngcc-perf-driver", proc["command"]
        assert proc["command"][2] == r["library"]
        assert proc["validation"]["ok"] is True
        assert proc["rss"]["baseline"] > 0 and proc["rss"]["peak"] >= proc["rss"]["baseline"]
    assert r["peak_rss_bytes"] == max(x["rss"]["peak"] for x in r["processes"])
    assert r["baseline_rss_bytes"] == max(x["rss"]["baseline"] for x in r["processes"])
    assert r["counter"]["name"] and r["counter"]["overhead_ns_median"] is not None
    # The phase calibrated its counter once and gave the rate to every
    # driver process: the same rate as the record's environment, by name.
    env_counter = r["environment"]["counter"]
    if env_counter["name"] != "none":
        assert r["counter"]["hz_source"] == "phase", r["counter"]
        for proc in r["processes"]:
            c, cmd = proc["counter"], proc["command"]
            assert c["name"] == env_counter["name"] and c["hz"] == env_counter["hz"], (c, env_counter)
            assert c["hz_source"] == "phase", c
            i = cmd.index("--counter-hz")
            assert cmd[i + 1].split("=")[0] == c["name"] and float(cmd[i + 1].split("=")[1]) == c["hz"], cmd
    s = r["sizes"]
    assert s["pk_bytes"] > 0 and s["observed"]["pk"]["max"] <= s["pk_bytes"]
crash = load("records/toykem/Toy-Crash__enc.json")
# Plain builds die by the signal; under ASan its handler reports the SEGV
# on stderr and exits 1.
assert ("SIGSEGV" in crash["status_detail"] or
        "SEGV" in crash["processes"][0]["stderr_tail"]), crash["status_detail"]
hang = load("records/toykem/Toy-Hang__dec.json")
assert "timed out" in hang["status_detail"], hang["status_detail"]
assert hang["processes"][0]["status"] == "hard_timeout"
wrong = load("records/toykem/Toy-Wrong__dec.json")
assert "shared secret" in wrong["status_detail"], wrong["status_detail"]
assert wrong["processes"][0]["validation"] == {"performed": True, "ok": False,
    "detail": wrong["processes"][0]["validation"]["detail"]}
assert wrong["processes"][0]["exit_code"] == 5
cal = load("calibrate/toykem/Toy-1__dec.json")
assert cal["schema"] == "ngcc-perf/calibration/1" and cal["status"] == "complete"
cc = cal["process"]["counter"]
assert cc["hz_source"] == ("phase" if cc["name"] != "none" else None), cc
assert cal["t1_s"] > 0 and cal["setup_s"] >= 0
assert len(cal["process"]["trials"]) == 1 and cal["process"]["trials"][0]["calls"] == 1
c = load("campaign.json")
assert c["schema"] == "ngcc-perf/campaign/1"
assert list(c.keys())[:6] == ["schema", "tool", "system_id", "run_id", "started_utc", "ended_utc"]
assert c["planning"]["trials"] == 2 and c["planning"]["trial_target_s"] == 0.002
assert c["environment_at_start"] and c["environment_at_end"]
# The host probes lasted what NGCC_PERF_HOST_PROBE_SCALE asks (run-tests
# sets it), and the evidence records the lengths used.
scale = float(os.environ.get("NGCC_PERF_HOST_PROBE_SCALE") or 1)
for env in (c["environment_at_start"], c["environment_at_end"]):
    probe = env["core_clock_hz"]
    assert probe is None or probe["window_ms"] == max(1, round(50 * scale)), probe
bg = c["background"]
assert len(bg) == 1 and abs(bg[0]["window_s"] - 0.125 * scale) < 1e-9, bg
assert all(w["wall_s"] >= bg[0]["window_s"] for w in bg[0]["windows"]), bg
m = [ph for ph in c["phases"] if ph["phase"] == "measure"]
assert len(m) == 1 and m[0]["exit_code"] == 1 and m[0]["ended_utc"], c["phases"]
if c["host_problems"]:
    assert c["host_overrides"] and c["host_overrides"][0]["reason"] == "test"
EOF

# A driver run alone calibrates its own rate; given a rate for the counter
# it opens it takes that one; given one for another counter it calibrates.
drive() { # OUT ARGS... — the driver on the example library, result in OUT
	local out=$1
	shift
	(cd "$ws" && "$NGCC_BIN/ngcc-perf-driver" --lib build/examplekem/libExampleKEM-128.so \
		--op keygen --trials 1 --iters 2 --warmups 0 "$@" 3>"$out") ||
		fail "driver $*: exit $?"
}
name=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["environment_at_start"]["counter"]["name"])' "$ws/runs/t/campaign.json")
drive "$ws/d-alone.json" --counter fallback
drive "$ws/d-same.json" --counter fallback --counter-hz "$name=1234567.5"
drive "$ws/d-other.json" --counter fallback --counter-hz perf-user-cycles=7
python3 - "$ws" "$name" <<'EOF' || fail "driver counter rates"
import json, sys
ws, name = sys.argv[1], sys.argv[2]
c = {k: json.load(open(f"{ws}/d-{k}.json"))["counter"] for k in ("alone", "same", "other")}
if name == "none":
    assert all(x["hz_source"] is None for x in c.values()), c
else:
    assert c["alone"]["hz_source"] == "process" and c["alone"]["hz"] > 7, c
    assert c["same"] == dict(c["same"], name=name, hz=1234567.5, hz_source="phase"), c
    assert c["other"]["hz_source"] == "process" and c["other"]["hz"] > 7, c
EOF
rc=0
(cd "$ws" && "$NGCC_BIN/ngcc-perf-driver" --lib build/examplekem/libExampleKEM-128.so --op keygen \
	--trials 1 --iters 2 --warmups 0 --counter-hz "$name=fast" 3>/dev/null 2>"$ws/d-bad.err") || rc=$?
[ "$rc" = 2 ] || fail "driver with --counter-hz $name=fast: exit $rc, expected 2 (usage)"
has "$ws/d-bad.err" "$name=fast"

# Resume: complete records are kept byte for byte, failed ones are redone
# and their first attempt kept under attempts/.
sum1=$(cat "$ws"/runs/t/records/examplekem/*.json | sha256sum)
rc=0
ngcc measure --run runs/t "${plan[@]}" >"$ws/m2.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "second measure exited $rc: $(cat "$ws/m2.out")"
sum2=$(cat "$ws"/runs/t/records/examplekem/*.json | sha256sum)
[ "$sum1" = "$sum2" ] || fail "resume rewrote complete records"
[ -f "$ws/runs/t/attempts/records/toykem/Toy-Crash__enc.1.json" ] || fail "failed record not kept under attempts/"
[ -f "$ws/runs/t/records/toykem/Toy-Crash__enc.json" ] || fail "failed record not redone"

# Other planning values on the same run are refused.
rc=0
ngcc measure --run runs/t --trial-target 0.02 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test >"$ws/m3.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "changed planning: exit $rc, expected 2"
grep -q "trial_target_s" "$ws/m3.out" || fail "planning refusal does not name the constant: $(cat "$ws/m3.out")"

# A library that changed under complete records makes them stale: refused
# before anything runs, unless --redo-stale.
lib=$ws/build/examplekem/libExampleKEM-128.so
cp "$lib" "$ws/lib.keep"
printf 'x' >>"$lib"
rc=0
ngcc measure --run runs/t "${plan[@]}" >"$ws/m6.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "stale records: exit $rc, expected 2"
grep -q "stale record .*ExampleKEM-128__dec.json: library changed" "$ws/m6.out" ||
	fail "stale refusal: $(cat "$ws/m6.out")"
cp "$ws/lib.keep" "$lib"

# R10: records taken under another kernel make the next measure record an
# environment change (the override of this test allows it).
python3 - "$ws/runs/t/records" <<'EOF'
import json, os, sys
for root, _, files in os.walk(sys.argv[1]):
    for f in files:
        p = os.path.join(root, f)
        r = json.load(open(p))
        r["environment"]["kernel"] = "0.0-other"
        json.dump(r, open(p, "w"), indent=1)
EOF
rm "$ws/runs/t/records/toykem/Toy-1__keygen.json"
ngcc measure --run runs/t "${plan[@]}" >"$ws/m5.out" 2>&1 || true
grep -q "environment changed since the first complete record: kernel" "$ws/m5.out" ||
	fail "no environment change reported: $(cat "$ws/m5.out")"
python3 - "$ws/runs/t" <<'EOF' || fail "environment change evidence"
import json, sys
run = sys.argv[1]
r = json.load(open(f"{run}/records/toykem/Toy-1__keygen.json"))
assert r["status"] == "complete"
assert any("kernel" in p for p in r["host"]["problems"]), r["host"]
c = json.load(open(f"{run}/campaign.json"))
assert any("kernel" in p for o in c["host_overrides"] for p in o["problems"]), c["host_overrides"]
assert any("kernel" in p for p in c["host_problems"])
EOF

# An unfixed host is refused without the override.
if ! ngcc check-host >/dev/null 2>&1; then
	rc=0
	ngcc measure --run runs/u --trial-target 0.002 --trials 2 --disturbed-retries 0 >"$ws/m4.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "unfixed host: exit $rc, expected 2"
	grep -q "refusing to measure on an unfixed host" "$ws/m4.out" || fail "refusal text: $(cat "$ws/m4.out")"
	[ ! -e "$ws/runs/u/campaign.json" ] || fail "a refused measure wrote campaign.json"
fi
# R7: a busy process pinned to the benchmark CPU preempts the driver, so its
# processes are disturbed and rerun; the discarded attempts are kept.
cpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
printf 'ID;Label;Action;Cause\ntoykem;Crash|Hang|Wrong;exclude;not needed here\n' >"$ws/kat_issues.csv"
taskset -c "$cpu" sh -c 'while :; do :; done' &
hog=$!
rc=0
ngcc measure toykem --run runs/busy --cpu "$cpu" --trial-target 0.05 --trials 2 --no-memory-pass \
	--allow-unfixed-host=test >"$ws/busy.out" 2>&1 || rc=$?
kill "$hog"
wait "$hog" 2>/dev/null || true
hog=
rm "$ws/kat_issues.csv"
[ "$rc" = 0 ] || fail "measure beside a busy process exited $rc: $(cat "$ws/busy.out")"
grep -q "not timed: toykem/Toy-Crash: excluded by kat_issues.csv" "$ws/busy.out" ||
	fail "kat_issues.csv exclusion not reported: $(cat "$ws/busy.out")"
python3 - "$ws/runs/busy" <<'EOF' || fail "disturbed processes"
import json, os, sys
run = sys.argv[1]
recs = sorted(os.listdir(f"{run}/records/toykem"))
assert recs == ["Toy-1__dec.json", "Toy-1__enc.json", "Toy-1__keygen.json"], recs
retries = 0
for f in recs:
    r = json.load(open(f"{run}/records/toykem/{f}"))
    retries += r["disturbed_retries"]
    # every rerun is listed with why it happened and the file it left
    assert len(r["retries"]) == r["disturbed_retries"], r["retries"]
    for x in r["retries"]:
        assert x["reasons"] and os.path.isfile(os.path.join(run, x["file"])), x
    for p in r["processes"]:
        assert p["attempt"] >= 1 and p["attempt"] <= 4
        # The kept attempt is the last one: if it is still disturbed, all
        # four were.
        assert not p["disturbed_reasons"] or p["attempt"] == 4, p["disturbed_reasons"]
kept = os.listdir(f"{run}/attempts/disturbed/toykem")
assert retries >= 1 and len(kept) == retries, (retries, kept)
r = json.load(open(f"{run}/attempts/disturbed/toykem/{kept[0]}"))
assert any("involuntary" in d or "migration" in d for d in r["disturbed_reasons"]), r["disturbed_reasons"]
EOF

echo "measure e2e ok"
