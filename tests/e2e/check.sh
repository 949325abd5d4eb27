#!/usr/bin/env bash
# check.sh — `ngcc-perf check` end to end on FlawKEM ($NGCC_FIXTURES/check,
# generated from tests/fixtures/check/: one clean instance and one per
# defect), on the example packages (KEM, signatures, key exchange), on the
# hostile signature and key-exchange packages and FlawKEX, and on the
# hostile KAT fixtures that crash, exit or hang.  Checks: every defect is reported by the right check as the right
# kind of finding, in the right operation, at the source line just below
# its "FLAW:" mark, and nowhere else; the clean instance and the examples
# are clean in all four checks; records have their keys in order and their
# derived fields agree (recomputed here); a finding's repro command
# replays it alone; a reviewed suppression turns a finding into a
# suppressed count; resume keeps complete records; crash, exit and hang
# become a crash finding in the right call or a timeout; the candidate
# pages' A.10, the checks page and the summary's checks column of the
# signature and key-exchange candidates say what their records say, and
# validate accepts them; exit codes.
# Small round counts: the point is the wiring, not statistics.
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-check.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
command -v valgrind >/dev/null || fail "valgrind is not installed (scripts/bootstrap installs it)"

# The example added, built and KAT-tested (as examplekem), plus FlawKEM.
shared_copy example-built "$ws"
pkg=$NGCC_FIXTURES/check/FlawKEM
ngcc add "$pkg" --id flawkem >/dev/null
ngcc build flawkem >"$ws/build.out" 2>&1 || fail "build: $(tail -5 "$ws/build.out")"

# ---- FlawKEM: each defect caught by the right check, at the right line ----
rc=0
ngcc check flawkem --rounds 300 >"$ws/c1.out" 2>"$ws/c1.err" || rc=$?
cat "$ws/c1.out"
[ "$rc" = 1 ] || fail "check with findings exited $rc, expected 1: $(cat "$ws/c1.err")"
grep -qx "check: 24 record(s): 15 clean, 9 with findings, 0 not complete (0 kept from earlier runs); 0 instance(s) skipped (not built), 0 not checked (no suites for their type)" "$ws/c1.err" ||
	fail "summary: $(cat "$ws/c1.err")"

python3 - "$ws" "$pkg" <<'PY' || fail "FlawKEM records"
import json, os, sys
ws, pkg = sys.argv[1:3]
impl = os.path.join(pkg, "Implementations/Reference_Implementation")
def flaw_line(label, mark):
    """The 1-based line just below the comment "/* FLAW: <mark>..." """
    src = open(os.path.join(impl, label, "KEM_AlgorithmInstance.c")).read().split("\n")
    lines = [i + 2 for i, l in enumerate(src) if "/* FLAW: " + mark in l]
    assert len(lines) == 1, (label, mark, lines)
    return lines[0]
def src_of(label):
    return f"candidates/flawkem/source/Implementations/Reference_Implementation/{label}/KEM_AlgorithmInstance.c"
order = ["schema", "status", "status_detail", "verdict", "candidate", "label", "instance", "type",
         "variant", "check", "library", "library_sha256", "timed_library", "timed_library_sha256",
         "build", "tool", "command", "suppressions", "plan", "started_utc", "ended_utc", "wall_s",
         "process", "raw_output", "rounds_done", "budget_reached", "tests", "findings", "suppressed",
         "operations", "findings_count"]
fkeys = ["id", "kind", "operation", "what", "call", "round", "occurrences", "location", "stack",
         "origin", "suppression", "repro"]
def load(label, check):
    p = os.path.join(ws, f"build/flawkem/check/{label}__{check}.json")
    return json.load(open(p))
def derived(r):
    ops = {}
    for o in ["keygen", "enc", "dec"]:
        for f in r["findings"]:
            if f["operation"] == o and o not in ops:
                ops[o] = {"findings": 0, "occurrences": 0, "kinds": {}}
    for f in r["findings"]:
        e = ops.setdefault(f["operation"], {"findings": 0, "occurrences": 0, "kinds": {}})
        e["findings"] += 1
        e["occurrences"] += f["occurrences"]
        e["kinds"][f["kind"]] = e["kinds"].get(f["kind"], 0) + 1
    return ops
# (label, check) -> (kind, operation, (the FLAW comment it must point
# below, the function there) or None)
expect = {
    ("SecretBranch", "consttime"): ("secret-dependent branch", "dec", ("extra hashing", "flaw")),
    ("SecretIndex", "consttime"): ("secret-dependent memory index", "dec", ("an S-box", "flaw")),
    ("OobRare", "sanitizers"): ("invalid read", "dec", ("one byte past", "flaw")),
    ("WritesInput", "functional"): ("inputs unmodified", "dec", None),
    ("WritesInput", "sanitizers"): ("inputs unmodified", "dec", None),
    ("WritesInput", "memcheck"): ("input written", "dec", ("the ciphertext is used", "kem_dec")),
    ("AcceptsTampered", "functional"): ("tampered ciphertext", "dec", None),
    ("AcceptsTampered", "sanitizers"): ("tampered ciphertext", "dec", None),
    ("AcceptsTampered", "memcheck"): ("tampered ciphertext", "dec", None),
}
labels = ["Clean", "SecretBranch", "SecretIndex", "OobRare", "WritesInput", "AcceptsTampered"]
checks = ["functional", "sanitizers", "memcheck", "consttime"]
# AcceptsTampered fails the tamper test in all three functional runs; the
# rest of its checks and of every other instance are clean.
for label in labels:
    for check in checks:
        r = load(label, check)
        where = f"{label} {check}"
        assert list(r) == order, (where, list(r))
        assert r["schema"] == "ngcc-perf/check/1" and r["status"] == "complete", (where, r["status_detail"])
        assert r["candidate"] == "flawkem" and r["label"] == label and r["check"] == check, where
        assert r["operations"] == derived(r), (where, r["operations"])
        assert r["findings_count"] == len(r["findings"]), where
        assert [f["id"] for f in r["findings"]] == list(range(1, len(r["findings"]) + 1)), where
        for f in r["findings"]:
            assert list(f) == fkeys, (where, list(f))
        want = expect.get((label, check))
        if not want:
            assert r["verdict"] == "clean" and not r["findings"], (where, r["findings"])
            continue
        kind, op, mark = want
        assert r["verdict"] == "findings" and len(r["findings"]) == 1, (where, r["findings"])
        f = r["findings"][0]
        assert f["kind"] == kind and f["operation"] == op, (where, f)
        if mark is not None:
            loc = f["location"]
            assert loc["file"] == src_of(label), (where, loc)
            assert loc["line"] == flaw_line(label, mark[0]), (where, loc, flaw_line(label, mark[0]))
            assert loc["function"] == mark[1], (where, loc)
        assert f["repro"]["round"] == f["round"], (where, f)
        cmd = f["repro"]["command"]
        assert cmd[-4:] == ["--first-round", str(f["round"]), "--rounds", "1"], (where, cmd)
        assert not any(a.startswith("--xml") for a in cmd), (where, cmd)
        # No absolute path anywhere in a record (publish would refuse it).
        assert "\"/" not in json.dumps(r), where
# The exercised libraries: timed, then the twins.
libs = {c: load("Clean", c)["library"] for c in checks}
assert libs == {"functional": "build/flawkem/libClean.so",
                "sanitizers": "build/flawkem/check/libClean.asan.so",
                "memcheck": "build/flawkem/check/libClean.debug.so",
                "consttime": "build/flawkem/check/libClean.ct.so"}, libs
dbg = load("Clean", "memcheck")["build"]
assert dbg["flags_added"] == ["-g"] and dbg["text_identical_to_timed"] is True, dbg
assert load("Clean", "consttime")["build"]["drng_wrapped"] is True
assert load("Clean", "functional")["build"] is None
ct = load("SecretBranch", "consttime")
assert ct["findings"][0]["origin"] == "secret key", ct["findings"][0]
assert ct["tool"]["checker"].startswith("valgrind-"), ct["tool"]
fn = load("Clean", "functional")
assert fn["rounds_done"] == 300 and fn["plan"]["rounds"] == 300, fn["plan"]
tests = {(t["test"], t["operation"]): t for t in fn["tests"]}
assert tests[("round trip", "dec")]["checks"] == 300, tests[("round trip", "dec")]
assert tests[("tampered ciphertext", "dec")]["checks"] == 300
assert tests[("unaligned buffers", "keygen")]["checks"] > 0
assert tests[("overlapping buffers", "dec")]["checks"] == 0 and tests[("overlapping buffers", "dec")]["note"]
print("flawkem records: ok")
PY

# The sanitizer finding's repro command replays it alone.
repro=$(python3 -c '
import json, sys
f = json.load(open(sys.argv[1]))["findings"][0]
print(" ".join(a.replace("<ngcc-perf>/bin", sys.argv[2]) for a in f["repro"]["command"]))
' "$ws/build/flawkem/check/OobRare__sanitizers.json" "$NGCC_BIN")
(cd "$ws" && $repro >"$ws/repro.out" 2>&1) || true
grep -q "AddressSanitizer: use-after-poison" "$ws/repro.out" || fail "repro did not reproduce: $repro"
grep -q "in flaw .*OobRare/KEM_AlgorithmInstance.c:" "$ws/repro.out" || fail "repro stack: $(head -8 "$ws/repro.out")"

# ---- resume: nothing redone while library, plan and suppressions stand ----
ngcc check flawkem --rounds 300 --only consttime >"$ws/c2.out" 2>&1 || true
[ "$(grep -c 'kept from an earlier run' "$ws/c2.out")" = 6 ] || fail "resume: $(cat "$ws/c2.out")"

# ---- a reviewed suppression: the finding becomes a suppressed count ----
python3 - "$ws" <<'PY'
import json, sys
ws = sys.argv[1]
f = json.load(open(f"{ws}/build/flawkem/check/SecretBranch__consttime.json"))["findings"][0]
open(f"{ws}/candidates/flawkem/check.supp", "w").write("# reviewed in the test\n" + f["suppression"])
PY
ngcc check flawkem --only consttime >"$ws/c3.out" 2>&1 || true
grep -q "CHECK flawkem SecretBranch consttime clean (2 round(s), [0-9]* reviewed occurrence(s) suppressed" "$ws/c3.out" ||
	fail "suppressed: $(cat "$ws/c3.out")"
python3 - "$ws/build/flawkem/check/SecretBranch__consttime.json" <<'PY' || fail "suppressed record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["verdict"] == "clean" and r["findings"] == [], r["findings"]
assert r["suppressions"]["file"] == "candidates/flawkem/check.supp", r["suppressions"]
assert len(r["suppressed"]) == 1 and r["suppressed"][0]["count"] > 0, r["suppressed"]
assert r["suppressed"][0]["name"].startswith("ngcc-perf secret-dependent branch: flaw at KEM_AlgorithmInstance.c:"), r["suppressed"]
PY

# ---- campaign --check, then the pages, publish, site and validate ----
rc=0
ngcc campaign flawkem --check --check-rounds 300 --run runs/c --no-memory-pass --no-repeat --no-sampling \
	--trial-target 0.002 --trials 1 --disturbed-retries 0 --allow-unfixed-host=test >"$ws/camp.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "campaign --check exited $rc: $(tail -20 "$ws/camp.out")"
# Every check reported; the memcheck records predate the suppressions file
# (valgrind reads it in both runs), so only those are redone.
[ "$(grep -c '^CHECK flawkem ' "$ws/camp.out")" = 24 ] ||
	fail "campaign --check did not run the checks: $(grep CHECK "$ws/camp.out" | head)"
[ "$(grep -c '^CHECK flawkem .*kept from an earlier run' "$ws/camp.out")" = 18 ] ||
	fail "campaign --check resumed wrongly: $(grep CHECK "$ws/camp.out")"
grep -q '^CHECK flawkem Clean memcheck clean (3 round(s), [0-9.]* s)$' "$ws/camp.out" ||
	fail "memcheck not redone after the suppressions changed"
python3 - "$ws/runs/c/campaign.json" <<'PY' || fail "check phase in campaign.json"
import json, sys
phases = [p["phase"] for p in json.load(open(sys.argv[1]))["phases"]]
assert phases[:3] == ["build", "kat", "check"], phases
PY
sys=$(ls "$ws/runs/c/reports" | grep -v '\.md$' | head -n 1)
page=$ws/runs/c/reports/$sys/flawkem.md
grep -qx '### A.10 Correctness and side channels' "$page" || fail "no A.10 on the candidate page"
grep -qF '| `Clean` | clean (300 rounds) | clean (300 rounds) | clean (3 rounds) | clean (2 rounds) |' "$page" ||
	fail "A.10 Clean row: $(grep -F '`Clean` |' "$page")"
grep -qF '| `SecretIndex` dec | 0 | 1 | 0 |' "$page" || fail "A.10 constant time per operation"
grep -qF '| `SecretBranch` dec | 0 | 0 | 0 |' "$page" || fail "suppressed finding still counted"
grep -q '^| `OobRare` dec | ASan+UBSan | AddressSanitizer: use-after-poison (READ of size 1) at offset 32 of ct, past its end (32 bytes) | `Implementations/Reference_Implementation/OobRare/KEM_AlgorithmInstance.c:[0-9]*` (`flaw`) | 1 |$' "$page" ||
	fail "A.10 finding row: $(grep -F '`OobRare` dec' "$page")"
grep -qF 'Occurrences of reviewed findings suppressed by `candidates/flawkem/check.supp`: ' "$page" ||
	fail "suppressed note"
grep -qF '| `SecretBranch` | check consttime | `check/flawkem/SecretBranch__consttime.json` |' "$page" ||
	fail "A.9 check rows"
summary=$ws/runs/c/reports/$sys/index.md
grep -q '^| id | algorithm | instance performance report | .* | ciphertext (B) | checks | notes |$' "$summary" ||
	fail "summary header: $(grep '^| id' "$summary")"
grep -q '^| \[flawkem\](flawkem.md) | FlawKEM | \[`Clean`\](flawkem.md).* | clean | ' "$summary" ||
	fail "summary Clean row: $(grep -F '`Clean`' "$summary")"
grep -q '^| \[flawkem\](flawkem.md) | FlawKEM | \[`SecretIndex`\](flawkem.md).* | 1 finding | ' "$summary" ||
	fail "summary SecretIndex row: $(grep -F '`SecretIndex`' "$summary")"
grep -qF '[checks page](checks.md)' "$summary" || fail "summary legend"
grep -qF 'not checked (check covers `kem`, `sign`, `kex` instances)' "$summary" || fail "summary legend: the types check covers"
[ -f "$ws/runs/c/reports/$sys/checks.md" ] || fail "no checks page"
grep -qF 'They cover `kem`, `sign`, `kex` instances; instances of other types are not listed.' "$ws/runs/c/reports/$sys/checks.md" ||
	fail "checks page: the types check covers"
grep -qF '| [flawkem](flawkem.md) | `SecretIndex` dec | constant time | secret-dependent memory index (secret key) |' \
	"$ws/runs/c/reports/$sys/checks.md" || fail "checks page finding"

ngcc publish --run runs/c --dataset ds --publish-unfixed >"$ws/pub.out" 2>&1 || fail "publish: $(cat "$ws/pub.out")"
grep -q ", 24 check record(s)," "$ws/pub.out" || fail "publish line: $(cat "$ws/pub.out")"
[ -f "$ws/ds/data/$sys/check/flawkem/OobRare__sanitizers.json" ] || fail "check records not published"
ngcc site --dataset ds >/dev/null 2>&1 || fail "site"
grep -q '<td class="bad">1 finding' "$ws/ds/site/$sys/checks.html" || fail "site: finding cell class"
grep -q '<td class="ok">clean' "$ws/ds/site/$sys/flawkem.html" || fail "site: clean cell class"
[ -f "$ws/ds/site/data/$sys/check/flawkem/Clean__functional.json" ] || fail "site: check records in data/"
[ -f "$ws/ds/site/data/$sys/schema/check.schema.json" ] || fail "site: check schema"
ngcc validate ds --publish-unfixed >"$ws/val.out" 2>&1 || fail "validate: $(tail -5 "$ws/val.out")"
# validate recomputes a record's derived fields and checks its library.
rec=$ws/ds/data/$sys/check/flawkem/SecretIndex__consttime.json
cp "$rec" "$ws/rec.bak"
python3 - "$rec" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["operations"]["dec"]["findings"] = 0
json.dump(r, open(sys.argv[1], "w"), indent=1)
PY
rc=0; ngcc validate ds --publish-unfixed >"$ws/val2.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "^PROBLEM data/$sys/check/flawkem/SecretIndex__consttime.json: operations is not the count" "$ws/val2.out" ||
	fail "tampered operations not found: $(cat "$ws/val2.out")"
cp "$ws/rec.bak" "$rec"
python3 - "$rec" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
r["timed_library_sha256"] = "0" * 64
json.dump(r, open(sys.argv[1], "w"), indent=1)
PY
rc=0; ngcc validate ds --publish-unfixed >"$ws/val3.out" 2>&1 || rc=$?
[ "$rc" = 1 ] && grep -q "^PROBLEM data/$sys/check/flawkem/SecretIndex__consttime.json: made on another build" "$ws/val3.out" ||
	fail "foreign library not found: $(cat "$ws/val3.out")"

# ---- the examples come out clean ----
# valgrind runs the same unsanitized check program in both passes of the
# suite, so the sanitized pass leaves the example's two valgrind checks to
# the plain pass (about 5 s); FlawKEM above runs all four in both.
if [ "${NGCC_TEST_PASS:-plain}" = sanitized ]; then ex_only=(--only functional,sanitizers) ex_n=6
else ex_only=() ex_n=12; fi
ngcc check examplekem --rounds 20 "${ex_only[@]}" >"$ws/ex.out" 2>&1 || fail "examples not clean: $(cat "$ws/ex.out")"
[ "$(grep -c '^CHECK examplekem .* clean (' "$ws/ex.out")" = "$ex_n" ] || fail "example lines: $(cat "$ws/ex.out")"

# ---- signatures: the example clean, the hostile ones caught ----
# HostileSIG (tests/fixtures/sigkex): AcceptAll's verify accepts anything,
# LongSig writes and reports 16 bytes past sig_get_sn_len_bytes(),
# SignFails refuses about one sign call in three (retried, as the timing
# does: not a finding).
ngcc add "$NGCC_SRC/examples/ExampleSIG" --id examplesig >/dev/null
ngcc add "$NGCC_FIXTURES/sigkex/HostileSIG" --id hostilesig >/dev/null
ngcc build examplesig hostilesig >"$ws/sbuild.out" 2>&1 || fail "SIG build: $(tail -5 "$ws/sbuild.out")"
ngcc check examplesig --rounds 20 >"$ws/sig.out" 2>&1 || fail "ExampleSIG not clean: $(cat "$ws/sig.out")"
[ "$(grep -c '^CHECK examplesig .* clean (' "$ws/sig.out")" = 8 ] || fail "ExampleSIG lines: $(cat "$ws/sig.out")"
rc=0
ngcc check hostilesig --rounds 20 --only functional,sanitizers,memcheck >"$ws/hsig.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "HostileSIG exit $rc: $(cat "$ws/hsig.out")"
python3 - "$ws" <<'PY' || fail "HostileSIG records: $(cat "$ws/hsig.out")"
import json, os, sys
ws = sys.argv[1]
def kinds(label, check):
    r = json.load(open(os.path.join(ws, f"build/hostilesig/check/{label}__{check}.json")))
    assert r["status"] == "complete" and r["type"] == "sign", (label, check, r["status_detail"])
    return sorted((f["operation"], f["kind"]) for f in r["findings"]), r
for check in ["functional", "sanitizers", "memcheck"]:
    got, _ = kinds("AcceptAll", check)
    assert got == [("verify", "tampered message"), ("verify", "tampered signature")], (check, got)
    got, _ = kinds("SignFails", check)
    assert got == [], (check, got)
got, r = kinds("LongSig", "functional")
assert got == [("sign", "canaries"), ("sign", "returned lengths"), ("verify", "round trip")], got
got, r = kinds("LongSig", "sanitizers")
assert got == [("sign", "invalid write")], got
loc = r["findings"][0]["location"]
assert loc["file"].endswith("/LongSig/SIG_AlgorithmInstance.c") and loc["function"] == "sig_sign", loc
got, r = kinds("LongSig", "memcheck")
assert ("sign", "invalid write") in got, got
tests = {(t["test"], t["operation"]): t for t in kinds("SignFails", "functional")[1]["tests"]}
assert tests[("tampered signature", "verify")]["checks"] == 20, tests
assert tests[("tampered message", "verify")]["checks"] == 20, tests
assert tests[("overlapping buffers", "sign")]["note"], tests
PY

# ---- key exchange: the example clean, the hostile ones caught ----
# HostileKEX (tests/fixtures/sigkex): DiffSecrets' B derives another secret,
# NeverEnds2's last pass does not say it finished, CrashPass2 raises SIGSEGV
# in pass 2; FlawKEX SecretBranch (tests/fixtures/check, from ExampleKEX-2P)
# branches on B's session key in derive_b, on the line below "FLAW:".
ngcc add "$NGCC_SRC/examples/ExampleKEX" --id examplekex >/dev/null
ngcc add "$NGCC_FIXTURES/sigkex/HostileKEX" --id hostilekex >/dev/null
ngcc add "$NGCC_FIXTURES/check/FlawKEX" --id flawkex >/dev/null
ngcc build examplekex hostilekex flawkex >"$ws/kbuild.out" 2>&1 || fail "KEX build: $(tail -5 "$ws/kbuild.out")"
ngcc check examplekex --rounds 20 >"$ws/kex.out" 2>&1 || fail "ExampleKEX not clean: $(cat "$ws/kex.out")"
[ "$(grep -c '^CHECK examplekex .* clean (' "$ws/kex.out")" = 8 ] || fail "ExampleKEX lines: $(cat "$ws/kex.out")"
rc=0
ngcc check hostilekex --rounds 20 --timeout 20 >"$ws/hkex.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "HostileKEX exit $rc: $(cat "$ws/hkex.out")"
rc=0
ngcc check flawkex --rounds 20 >"$ws/fkex.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "FlawKEX exit $rc: $(cat "$ws/fkex.out")"
python3 - "$ws" "$NGCC_FIXTURES/check/FlawKEX" <<'PY2' || fail "KEX records: $(cat "$ws/hkex.out" "$ws/fkex.out")"
import json, os, sys
ws, pkg = sys.argv[1:3]
def rec(cand, label, check):
    r = json.load(open(os.path.join(ws, f"build/{cand}/check/{label}__{check}.json")))
    assert r["status"] == "complete" and r["type"] == "kex", (cand, label, check, r["status_detail"])
    return r
def kinds(r):
    return sorted((f["operation"], f["kind"]) for f in r["findings"])
# The example: every step checked, each pass message tampered with and caught.
for label, passes in [("ExampleKEX-2P", 2), ("ExampleKEX-3P", 3)]:
    r = rec("examplekex", label, "functional")
    tests = {(t["test"], t["operation"]): t for t in r["tests"]}
    steps = ["init_a", "init_b"] + [f"pass{k}" for k in range(1, passes + 1)] + ["derive_a", "derive_b"]
    assert [t["operation"] for t in r["tests"] if t["test"] == "round trip"] == steps, r["tests"]
    for s in steps:
        assert tests[("round trip", s)]["checks"] == 20, (label, s)
    receivers = [f"pass{k}" for k in range(2, passes + 1)] + ["derive_b" if passes % 2 else "derive_a"]
    for s in receivers:
        assert tests[("tampered message", s)]["checks"] == 20 and not tests[("tampered message", s)]["failures"], (label, s)
    assert tests[("inputs unmodified", "derive_b")]["checks"] > 0
    assert tests[("overlapping buffers", "pass1")]["note"]
for check in ["functional", "sanitizers", "memcheck"]:
    r = rec("hostilekex", "DiffSecrets", check)
    assert kinds(r) == [("derive_b", "round trip")], (check, r["findings"])
    assert r["findings"][0]["what"].startswith("the parties derived different shared secrets"), r["findings"]
    assert list(r["operations"]) == ["derive_b"], r["operations"]
    r = rec("hostilekex", "NeverEnds2", check)
    assert kinds(r) == [("pass2", "round trip")], (check, r["findings"])
    assert "returned 0, not 1 (finished)" in r["findings"][0]["what"], r["findings"]
r = rec("hostilekex", "CrashPass2", "functional")
assert [(f["operation"], f["kind"]) for f in r["findings"]] == [("pass2", "crash")], r["findings"]
# Under valgrind the crash is the one finding: what the crash left
# allocated (the loader's blocks among them) is no leak finding.
r = rec("hostilekex", "CrashPass2", "consttime")
assert [(f["operation"], f["kind"]) for f in r["findings"]] == [("pass2", "crash")], r["findings"]
assert r["findings"][0]["location"]["function"] == "kex_generate_pass2_msg_b", r["findings"][0]
# FlawKEX: only the constant-time check finds it, in derive_b, at the line below FLAW.
src = os.path.join(pkg, "Implementations/Reference_Implementation/SecretBranch/KEX_AlgorithmInstance.c")
lines = open(src).read().split("\n")
flaw = [i + 2 for i, l in enumerate(lines) if "/* FLAW: " in l]
assert len(flaw) == 1, flaw
for check in ["functional", "sanitizers", "memcheck"]:
    assert rec("flawkex", "SecretBranch", check)["verdict"] == "clean", check
r = rec("flawkex", "SecretBranch", "consttime")
assert kinds(r) == [("derive_b", "secret-dependent branch")], r["findings"]
f = r["findings"][0]
assert f["location"]["line"] == flaw[0] and f["location"]["function"] == "kex_derive_ss_b", (f["location"], flaw)
assert f["location"]["file"].endswith("/SecretBranch/KEX_AlgorithmInstance.c"), f["location"]
assert f["call"].startswith("kex_derive_ss_b(sk_b, "), f["call"]
assert f["repro"]["command"][-4:] == ["--first-round", str(f["round"]), "--rounds", "1"], f["repro"]
PY2

# ---- A.10 and the summary's checks column for signatures and key exchange ----
# The pages need timing records: the KAT, then one short measure with a
# single instance per candidate timed (ExampleSIG-2 and ExampleKEX-3P
# deferred, as for a shard); every instance's check rows come from its
# check records all the same.  The pages must say what those records say: clean for the
# examples, FlawKEX's finding in derive_b at its source line.
ngcc kat examplesig examplekex flawkex >"$ws/skkat.out" 2>&1 || fail "SIG/KEX kat: $(cat "$ws/skkat.out")"
ngcc measure --run runs/sk examplesig examplekex flawkex --defer '(examplesig/ExampleSIG-2|examplekex/ExampleKEX-3P)$' \
	--trial-target 0.002 --trials 1 --op-budget 0.05 --max-timeout 120 --no-memory-pass --no-sampling \
	--allow-unfixed-host=test >"$ws/skm.out" 2>&1 || fail "SIG/KEX measure: $(tail -20 "$ws/skm.out")"
ngcc report --run runs/sk --out "$ws/skrep" >"$ws/skrep.out" 2>&1 || fail "SIG/KEX report: $(cat "$ws/skrep.out")"
sksys=$(ls "$ws/skrep" | grep -v '\.md$' | head -n 1)
python3 - "$ws" "$ws/skrep/$sksys" <<'PY' || fail "SIG/KEX pages"
import json, os, re, sys
ws, pages = sys.argv[1:3]
checks = [("functional", "functional"), ("sanitizers", "ASan+UBSan"), ("memcheck", "memcheck"),
          ("consttime", "constant time")]
instances = {"examplesig": ["ExampleSIG-1", "ExampleSIG-2"], "examplekex": ["ExampleKEX-2P", "ExampleKEX-3P"],
             "flawkex": ["SecretBranch"]}
def rec(cand, label, check):
    r = json.load(open(os.path.join(ws, f"build/{cand}/check/{label}__{check}.json")))
    assert r["status"] == "complete" and r["rounds_done"] == r["plan"]["rounds"], (cand, label, check)
    return r
def findings_text(n):
    return f"{n} finding" + ("s" if n != 1 else "") if n else "clean"
def table_rows(text, header_start):
    """The rows of the Markdown table whose header starts so, as cell lists."""
    rows, inside, header = [], False, None
    for line in text.split("\n"):
        if line.startswith(header_start):
            inside, header = True, [c.strip() for c in line.strip("|").split(" | ")]
        elif inside and line.startswith("|"):
            if not line.startswith("|---"):
                rows.append(dict(zip(header, [c.strip() for c in line.strip("|").split(" | ")])))
        else:
            inside = False
    return rows
summary = open(os.path.join(pages, "index.md")).read()
summary_rows = table_rows(summary, "| id |")
checks_page = open(os.path.join(pages, "checks.md")).read()
seen_findings = 0
for cand, labels in instances.items():
    page = open(os.path.join(pages, f"{cand}.md")).read()
    assert "\n### A.10 Correctness and side channels\n" in page, cand
    a10 = page.split("### A.10 Correctness and side channels")[1].split("\n### ")[0]
    for label in labels:
        recs = {c: rec(cand, label, c) for c, _ in checks}
        # The per-check row.
        cells = [f"{findings_text(recs[c]['findings_count'])} ({recs[c]['rounds_done']} rounds)" for c, _ in checks]
        row = f"| `{label}` | " + " | ".join(cells) + " |"
        assert row in a10.split("\n"), (cand, row, a10)
        # Constant-time counts per operation, every operation of the instance listed.
        ops = [t["operation"] for t in recs["functional"]["tests"] if t["test"] == "round trip"]
        assert ops, (cand, label)
        for op in ops:
            mine = [f["kind"] for f in recs["consttime"]["findings"] if f["operation"] == op]
            b = mine.count("secret-dependent branch")
            i = mine.count("secret-dependent memory index")
            row = f"| `{label}` {op} | {b} | {i} | {len(mine) - b - i} |"
            assert row in a10.split("\n"), (cand, row)
        # Each finding in the findings table (and on the checks page), with its source line.
        for c, name in checks:
            for f in recs[c]["findings"]:
                assert c == "consttime" and f["location"], (cand, label, c, f)
                seen_findings += 1
                loc = f["location"]
                file = loc["file"].split(f"candidates/{cand}/source/", 1)[1]
                row = (f"| `{label}` {f['operation']} | {name} | {f['kind']} ({f['origin']}) | "
                       f"`{file}:{loc['line']}` (`{loc['function']}`) | {f['occurrences']} |")
                assert row in a10.split("\n"), (cand, row, a10)
                row = f"| [{cand}]({cand}.md) | `{label}` {f['operation']} | {name} | {f['kind']} ({f['origin']}) |"
                assert row in checks_page, (row, checks_page)
        # The summary's checks column: clean, or the number of findings of all four checks.
        total = sum(r["findings_count"] for r in recs.values())
        mine = [r for r in summary_rows if r.get("instance performance report", "").startswith(f"[`{label}`]({cand}.md)")]
        assert len(mine) == 1 and mine[0]["checks"] == findings_text(total), (cand, label, mine)
    if cand != "flawkex":
        assert "| instance · operation | check | finding |" not in a10, (cand, "a findings table on a clean page")
# What the records say: the examples clean, FlawKEX one finding.
assert seen_findings == 1, seen_findings
PY

ngcc publish --run runs/sk --dataset dsk --publish-unfixed >"$ws/skpub.out" 2>&1 || fail "SIG/KEX publish: $(cat "$ws/skpub.out")"
[ -f "$ws/dsk/data/$sksys/check/flawkex/SecretBranch__consttime.json" ] || fail "SIG/KEX check records not published"
ngcc validate dsk --publish-unfixed >"$ws/skval.out" 2>&1 || fail "SIG/KEX validate: $(tail -5 "$ws/skval.out")"

# ---- a type check has no suites for: a clear status, never a silent success ----
# ExampleKEM-256 relabelled as a hash instance in candidate.conf, without
# its kat_reference (its library stays built): check says it is not checked, counts it apart
# (the two ExampleKEM-128 builds, reference and AVX2, are checked),
# and with no instance of a covered type left it has nothing to do (exit 3).
conf=$ws/candidates/examplekem/candidate.conf
cp "$conf" "$ws/conf.bak"
python3 - "$conf" ExampleKEM-256 <<'PY'
import sys
path, label = sys.argv[1:3]
lines, inst = open(path).read().split("\n"), None
for i, l in enumerate(lines):
    if l.startswith("[instance "):
        inst = l[len("[instance "):-1]
    elif inst == label and l.startswith("type = "):
        lines[i] = "type = hash"
    elif inst == label and l.startswith("kat_reference = "):
        lines[i] = ""   # a hash instance names its KAT files otherwise
open(path, "w").write("\n".join(lines))
PY
rc=0; ngcc check examplekem --only functional --rounds 20 >"$ws/ty.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "one KEM left: exit $rc: $(cat "$ws/ty.out")"
grep -qx 'CHECK examplekem ExampleKEM-256 not checked: check has no suites for hash instances yet (it covers `kem`, `sign`, `kex`)' "$ws/ty.out" ||
	fail "not-checked line: $(cat "$ws/ty.out")"
grep -q '^check: 2 record(s): 2 clean, .* 0 instance(s) skipped (not built), 1 not checked (no suites for their type)$' "$ws/ty.out" ||
	fail "not-checked count: $(cat "$ws/ty.out")"
python3 - "$conf" ExampleKEM-128 <<'PY'
import sys
path, label = sys.argv[1:3]
text = open(path).read()
text = "\n".join("" if l.startswith("kat_reference = ") else l for l in text.split("\n"))
open(path, "w").write(text.replace("type = kem", "type = hash"))
PY
rc=0; ngcc check examplekem --only functional --rounds 20 >"$ws/ty2.out" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "no covered type: exit $rc, expected 3: $(cat "$ws/ty2.out")"
grep -q 'nothing was checked in .*: no built instance of a type that check covers (`kem`, `sign`, `kex`)' "$ws/ty2.out" ||
	fail "nothing-checked message: $(cat "$ws/ty2.out")"
cp "$ws/conf.bak" "$conf"

# ---- crash, exit and hang (the KAT gate's hostile fixtures) ----
ngcc add "$NGCC_FIXTURES/hostile/HostileKEM" --id hostile >/dev/null
ngcc build hostile >/dev/null 2>&1 || true
rc=0
ngcc check hostile --only functional --rounds 20 --timeout 2 >"$ws/h.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "hostile exit $rc: $(cat "$ws/h.out")"
grep -q "^CHECK hostile CrashEnc functional 1 finding(s)" "$ws/h.out" || fail "crash: $(cat "$ws/h.out")"
grep -q "^  enc: crash \[round 0\] — the process ended inside the call: killed by signal 11" "$ws/h.out" ||
	fail "crash finding: $(cat "$ws/h.out")"
grep -q "^  keygen: crash \[round 0\] — the process ended inside the call: exit 0" "$ws/h.out" ||
	fail "exit finding: $(cat "$ws/h.out")"
grep -q "^CHECK hostile HangDec functional timeout: timed out after 2 s during kem_dec" "$ws/h.out" ||
	fail "hang: $(cat "$ws/h.out")"
grep -q "^CHECK hostile OverrunCt functional 1 finding(s)" "$ws/h.out" || fail "overrun: $(cat "$ws/h.out")"
grep -q "^  enc: canaries \[round 0\] — wrote past the end of ct" "$ws/h.out" || fail "canary: $(cat "$ws/h.out")"
grep -q "^CHECK hostile CompileError skipped: not built" "$ws/h.out" || fail "not built: $(cat "$ws/h.out")"

# ---- usage ----
rc=0; ngcc check nosuch >/dev/null 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "unknown candidate exited $rc"
rc=0; ngcc check --only bogus >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "bad --only exited $rc"
echo "check: ok"
