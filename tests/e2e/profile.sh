#!/usr/bin/env bash
# profile.sh — `ngcc-perf profile` end to end (docs/method.md §10, §11.6, R12, R13):
# the example package, whose helper calls per operation are derived below
# from its source, a fixture with its own Keccak (bypass, round constants
# reachable from the API, an unreachable SHA-256 table that must not count)
# a fixture that never calls the DRNG and one whose functions are named after
# SHAKE but only call pseudoXOF (ICCS-only: names are hints, never the
# verdict; issue 24).  Then the survey.conf override
# (and validate's warning about an ICCS-only reading over reachable hits),
# resume, an LTO build (relink refused) and the unfixed-host refusal.
#
# The example package comes measured and profiled by the suite's shared
# campaign (shared/example-campaign.sh, run runs/c); the two fixtures are
# added to a copy of it and profiled here.
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-profile.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
fix=$NGCC_SRC/tests/fixtures/profile

shared_copy example-campaign "$ws" "$ws.log"
rc=$(cat "$ws.log/campaign.rc")
rm -rf "$ws.log"
# Its timing records give the cross-check its reference.
[ "$rc" = 0 ] || fail "the shared campaign (measure, profile) exited $rc"
ngcc add "$fix/KeccakKEM" --id keccakkem >/dev/null
ngcc add "$fix/NoDrngKEM" --id nodrng >/dev/null
ngcc add "$fix/ShakeWrapKEM" --id shakewrap >/dev/null
ngcc build keccakkem nodrng shakewrap >"$ws/build.out" 2>&1 || fail "build: $(tail -5 "$ws/build.out")"
ngcc kat >"$ws/kat.out" 2>&1 || true
grep -q "RESULT examplekem ExampleKEM-128 PASS" "$ws/kat.out" || fail "kat: $(cat "$ws/kat.out")"
# The timed library as it was built, before any profiling.
sha_before=$(python3 -c 'import json, sys
print(json.load(open(sys.argv[1]))["instances"]["examplekem/ExampleKEM-128"]["library_sha256"])' \
	"$ws/build/examplekem/build.json")

rc=0
ngcc profile --run runs/c --trial-target 0.002 --allow-unfixed-host=test --max-timeout 60 >"$ws/p1.out" 2>&1 || rc=$?
cat "$ws/p1.out"
[ "$rc" = 0 ] || fail "profile exited $rc"
grep -q "^SURVEY keccakkem bypass" "$ws/p1.out" || fail "keccak survey line"
grep -q "^SURVEY nodrng ICCS-only — never calls the DRNG" "$ws/p1.out" || fail "nodrng survey line"
grep -q "^SURVEY shakewrap ICCS-only — named like SHAKE (shake256_absorb, shake256_init), but no matching constants or rotations were found (automatic)$" "$ws/p1.out" ||
	fail "shakewrap survey line: $(grep '^SURVEY shakewrap' "$ws/p1.out")"

# The timed library is untouched; only the instrumented one has the controls.
[ "$(sha256sum "$ws/build/examplekem/libExampleKEM-128.so" | cut -d' ' -f1)" = "$sha_before" ] ||
	fail "the timed library changed"
nm -D --defined-only "$ws/build/examplekem/libExampleKEM-128.so" | grep -q ngcc_prof_ &&
	fail "the timed library exports profiling controls"
nm -D --defined-only "$ws/build/examplekem/instrumented/libExampleKEM-128.so" |
	grep -q ' ngcc_prof_enable$' || fail "instrumented library lacks ngcc_prof_enable"

python3 - "$ws/runs/c" <<'EOF' || fail "profile records"
import json, math, os, sys
run = sys.argv[1]
def load(p):
    with open(os.path.join(run, p)) as f:
        return json.load(f)

# ExampleKEM (examples/ExampleKEM/.../src): K = 2 (128) or 5 (256), N = 256.
#   keygen: randombytes(d) and randombytes(z)            drng 2 x 256 bits
#           XOF(seeds) 1 + noise 2K + matrix K*K blocks   pseudoXOF 1+2K+K^2
#           H(pk) = sm3hash(256, tag || pk)               sm3hash 1
#   enc:    randombytes(m) 1, H(pk) 1, G 1, noise 2K+1, matrix K^2
#   dec:    G 1, noise 2K+1, matrix K^2, J(z || ct) 1; no DRNG, no sm3hash
# Each matrix entry takes one 672-byte block (rejection never needs a
# second one with these seeds); inputs carry a one-byte domain tag.
def example(K, eta1, eta2, du, dv):
    polyvec = K * 384
    pk = polyvec + 32
    ct = K * 256 * du // 8 + 256 * dv // 8
    noise = lambda eta: (8 * 34, 8 * 2 * eta * 256 // 8)     # tag||seed||nonce
    matrix = (8 * 36, 8 * 1024)                               # tag||rho||i,j,0
    sm3 = (8 * (1 + pk), 256)
    G = (8 * 65, 512)
    def add(d, shape, n):
        d[shape] = d.get(shape, 0) + n
    keygen = {("drng", 0, 256): 2, ("sm3hash",) + sm3: 1, ("pseudoXOF", 8 * 33, 512): 1,
              ("pseudoXOF",) + matrix: K * K}
    add(keygen, ("pseudoXOF",) + noise(eta1), 2 * K)
    enc = {("drng", 0, 256): 1, ("sm3hash",) + sm3: 1, ("pseudoXOF",) + G: 1,
           ("pseudoXOF",) + matrix: K * K}
    add(enc, ("pseudoXOF",) + noise(eta1), K)
    add(enc, ("pseudoXOF",) + noise(eta2), K + 1)
    dec = {("pseudoXOF",) + G: 1, ("pseudoXOF",) + matrix: K * K,
           ("pseudoXOF", 8 * (1 + 32 + ct), 256): 1}
    add(dec, ("pseudoXOF",) + noise(eta1), K)
    add(dec, ("pseudoXOF",) + noise(eta2), K + 1)
    return {"keygen": keygen, "enc": enc, "dec": dec}

expect = {
    ("examplekem", "ExampleKEM-128"): example(2, 3, 2, 10, 4),
    ("examplekem", "ExampleKEM-256"): example(5, 2, 2, 11, 5),
    # KeccakKEM: one 256-bit DRNG call in keygen and enc, its own hash else.
    ("keccakkem", "Keccak-1"): {"keygen": {("drng", 0, 256): 1},
                                "enc": {("drng", 0, 256): 1}, "dec": {}},
    # NoDrngKEM: H = pseudohash(512) of 33- or 65-byte inputs.
    ("nodrng", "NoDrng-1"): {"keygen": {("pseudohash", 264, 512): 1},
                             "enc": {("pseudohash", 520, 512): 2, ("pseudohash", 264, 512): 1},
                             "dec": {("pseudohash", 264, 512): 1, ("pseudohash", 520, 512): 1}},
    # ShakeWrapKEM: one 32-byte "SHAKE" squeeze (pseudoXOF) per tagged hash.
    ("shakewrap", "ShakeWrap-1"): {"keygen": {("drng", 0, 256): 1, ("pseudoXOF", 264, 256): 1},
                                   "enc": {("drng", 0, 256): 1, ("pseudoXOF", 264, 256): 1,
                                           ("pseudoXOF", 520, 256): 1},
                                   "dec": {("pseudoXOF", 264, 256): 1, ("pseudoXOF", 520, 256): 1}},
}
order = ["schema", "status", "status_detail", "candidate", "label", "operation", "op_key",
         "input_bytes", "library_instrumented", "library_instrumented_sha256", "library",
         "library_sha256", "wrapped_symbols", "command", "stderr_tail", "strays_killed", "meta", "total",
         "calls", "share", "hash_share", "drng_share", "calls_per_operation", "overhead",
         "corrected", "crosscheck", "coverage"]
close = lambda a, b: abs(a - b) <= 1e-12 * max(abs(a), abs(b), 1e-300)
for (cand, label), ops in expect.items():
    for op, shapes in ops.items():
        r = load(f"profile/{cand}/{label}__{op}.json")
        where = f"{cand}/{label}/{op}"
        assert list(r) == order, (where, list(r))
        assert r["schema"] == "ngcc-perf/profile/1" and r["status"] == "complete", where
        assert r["library_instrumented"] == f"build/{cand}/instrumented/lib{label}.so"
        cal = load(f"calibrate/{cand}/{label}__{op}.json")
        t1 = cal["t1_s"]
        # About one trial target (0.002 s here, as in the shared campaign).
        iters = 1 if t1 > 60 else min(1000, max(3, math.ceil(0.002 / t1)))
        m = r["meta"]
        assert m["iterations"] == iters and m["warmups"] == (1 if t1 < 5 else 0), (where, m, t1)
        assert m["overflow_calls"] == 0 and m["tick_hz"] > 0 and m["tick_source"]
        # The phase's counter rate serves when the ticks are that counter's.
        cmd = r["command"]
        given = cmd[cmd.index("--counter-hz") + 1].split("=") if "--counter-hz" in cmd else ["", ""]
        if given[0] == {"tsc": "tsc-fenced", "cntvct": "cntvct"}.get(m["tick_source"]):
            assert m["tick_hz_source"] == "phase" and m["tick_hz"] == float(given[1]), (where, m, cmd)
        else:
            assert m["tick_hz_source"] == "process", (where, m, cmd)
        ops_n = r["total"]["operations"]
        assert ops_n == iters and r["total"]["ticks"] > 0
        got = {}
        for c in r["calls"]:
            assert c["calls"] % ops_n == 0, (where, c)       # same work every call
            got[(c["fn"], c["in_bits"], c["out_bits"])] = c["calls"] // ops_n
        assert got == shapes, (where, got, shapes)
        # Shares and calls per operation recomputed from the raw calls.
        fns = sorted({k[0] for k in shapes})
        assert list(r["share"]) == fns and list(r["calls_per_operation"]) == fns, where
        total = r["total"]["ticks"]
        for fn in fns:
            t = sum(c["ticks"] for c in r["calls"] if c["fn"] == fn)
            n = sum(c["calls"] for c in r["calls"] if c["fn"] == fn)
            assert close(r["share"][fn], t / total), (where, fn)
            assert close(r["calls_per_operation"][fn], n / ops_n), (where, fn)
        hs, ds = r["hash_share"], r["drng_share"]
        assert close(hs, sum(v for k, v in r["share"].items() if k != "drng")), where
        assert ds == r["share"].get("drng", 0)
        rest = 1 - hs - ds
        assert 0 <= hs and 0 <= ds and hs + ds <= 1 and rest >= 0, (where, hs, ds)
        assert close(hs + ds + rest, 1.0)
        # Corrected shares: same formula, overhead subtracted.
        o_in, o_out = r["overhead"]["o_in"], r["overhead"]["o_out"]
        assert o_in >= 0 and o_out >= 0
        n_all = sum(c["calls"] for c in r["calls"]) + m["overflow_calls"]
        denom = total - n_all * (o_in + o_out)
        for fn in fns:
            t = sum(c["ticks"] for c in r["calls"] if c["fn"] == fn)
            n = sum(c["calls"] for c in r["calls"] if c["fn"] == fn)
            assert close(r["corrected"]["share"][fn], max(0.0, (t - n * o_in) / denom)), where
        x = r["crosscheck"]
        assert close(x["ticks_per_op"], total / ops_n)
        if cand == "examplekem":
            assert x["timing_mean_cycles"] is not None and x["ratio"] > 0, (where, x)
            assert x["flagged"] == (abs(x["ratio"] - 1) > 0.15)
        else:
            assert x["timing_mean_cycles"] is None and x["ratio"] is None, (where, x)
        cov = r["coverage"]
        if cand == "keccakkem":
            assert cov["status"] == "partial" and "Keccak round constants" in cov["hits"], cov
            assert not any("SHA-256" in h or "sha256" in h for h in cov["hits"]), cov
        else:
            assert cov == {"status": "full", "hits": []}, (where, cov)
        wrapped = r["wrapped_symbols"]
        if cand == "examplekem":
            assert wrapped == ["pseudoXOF", "sm3hash", "get_random_number"], wrapped
        if cand == "nodrng":
            assert wrapped == ["pseudohash"], wrapped

s = load("profile/keccakkem/survey.json")
assert s["schema"] == "ngcc-perf/survey/1"
assert s["verdict"] == "bypass" and s["source"] == "automatic", s
assert "Keccak round constants" in s["automatic"]["scan"], s["automatic"]
assert "kem_enc" in s["notes"] and "Keccak" in s["notes"], s["notes"]
hits = s["instances"][0]["hits"]
rc = [h for h in hits if h["match"] == "Keccak round constants"]
assert rc and rc[0]["reachable"] and "kem_enc" in rc[0]["reached_from"], rc
k = [h for h in hits if h["match"] == "SHA-256 K table"]
assert k and not k[0]["reachable"] and k[0]["symbol"] == "sha256_k_unused", k
assert s["instances"][0]["drng_called"] is True

s = load("profile/nodrng/survey.json")
assert s["verdict"] == "ICCS-only" and s["notes"] == "never calls the DRNG", s
assert s["instances"][0]["drng_called"] is False

s = load("profile/examplekem/survey.json")
assert s["verdict"] == "ICCS-only" and s["notes"] == "" and s["automatic"]["scan"] == [], s

# Names alone: recorded as hints, no evidence, ICCS-only.
s = load("profile/shakewrap/survey.json")
assert s["verdict"] == "ICCS-only" and s["source"] == "automatic", s
assert s["automatic"]["scan"] == [], s["automatic"]
# shake256_squeeze calls pseudoXOF itself: not even a hint.
assert sorted(s["automatic"]["name_hints"]) == ["shake256_absorb", "shake256_init"], s["automatic"]
EOF

# The pages say what the survey found: names noted, never a verdict.
ngcc report --run runs/c --out "$ws/rep" >"$ws/rep.out" 2>&1 || fail "report: $(tail -5 "$ws/rep.out")"
sys=$(ls "$ws/rep" | grep -v '\.md$' | head -n 1)
hint="named like SHAKE (shake256_absorb, shake256_init), but no matching constants or rotations were found"
has "$ws/rep/symmetric-survey.md" "| [shakewrap]($sys/shakewrap.md) | ShakeWrapKEM | ICCS-only | $hint | none |"
has "$ws/rep/symmetric-survey.md" "| [keccakkem]($sys/keccakkem.md) | KeccakKEM | bypass | own Keccak (reachable from"
has "$ws/rep/$sys/shakewrap.md" "verdict: **ICCS-only** — $hint"

# survey.conf overrides the verdict; the automatic one stays recorded.
# Rerunning resumes: every complete profile is kept as it is.
printf '# id; verdict; notes\nkeccakkem; mixed; checked by hand\n' >"$ws/survey.conf"
before=$(cat "$ws/runs/c/profile/examplekem/ExampleKEM-128__enc.json")
ngcc profile --run runs/c --allow-unfixed-host=test >"$ws/p2.out" 2>&1 || fail "resume: $(cat "$ws/p2.out")"
[ "$before" = "$(cat "$ws/runs/c/profile/examplekem/ExampleKEM-128__enc.json")" ] ||
	fail "resume redid a complete profile"
# issue 27: the counts a resumed profile announces are the ones it ends with
first=$(grep '^profile: [0-9]* instance(s) to relink; ' "$ws/p2.out") || fail "no count line: $(cat "$ws/p2.out")"
ops=$(sed -n 's/.*; \([0-9]*\) operation(s): 0 to profile, \1 complete .*/\1/p' <<<"$first")
[ -n "$ops" ] || fail "a resumed profile announces work to do: $first"
grep -q "^profile: $ops kept, 0 profiled, 0 failed; " "$ws/p2.out" ||
	fail "announced $ops complete, ended: $(grep '^profile: .* kept' "$ws/p2.out")"
grep -q "^SURVEY keccakkem mixed — checked by hand (survey.conf)" "$ws/p2.out" || fail "override: $(cat "$ws/p2.out")"
python3 - "$ws/runs/c/profile/keccakkem/survey.json" <<'EOF' || fail "survey override"
import json, sys
s = json.load(open(sys.argv[1]))
assert (s["verdict"], s["notes"], s["source"]) == ("mixed", "checked by hand", "survey.conf"), s
assert s["automatic"]["verdict"] == "bypass", s
EOF

# A bad verdict in survey.conf is reported and the automatic verdict used.
printf 'keccakkem; maybe; ?\n' >"$ws/survey.conf"
ngcc profile --run runs/c keccakkem --allow-unfixed-host=test >"$ws/p3.out" 2>&1 || fail "bad conf run"
grep -q "survey.conf:1: verdict 'maybe'" "$ws/p3.out" || fail "bad verdict not reported: $(cat "$ws/p3.out")"
grep -q "^SURVEY keccakkem bypass" "$ws/p3.out" || fail "automatic verdict after a bad conf"
# A reviewer's ICCS-only over reachable own primitives is published as
# read, and validate warns about it (docs/method.md §10.6).
printf 'keccakkem; ICCS-only; read by hand\n' >"$ws/survey.conf"
ngcc profile --run runs/c keccakkem --allow-unfixed-host=test >"$ws/p6.out" 2>&1 || fail "ICCS-only conf run"
ngcc publish --run runs/c --dataset "$ws/ds" --publish-unfixed >"$ws/pub.out" 2>&1 || fail "publish: $(cat "$ws/pub.out")"
"$NGCC_BIN/ngcc-perf" validate "$ws/ds" >"$ws/v.out" 2>&1 || fail "validate: $(cat "$ws/v.out")"
grep -q "profile/keccakkem/survey.json: verdict ICCS-only (from survey.conf) but the scan found [1-9][0-9]* own primitive" "$ws/v.out" ||
	fail "no validate warning for ICCS-only with reachable hits: $(cat "$ws/v.out")"
grep -q "profile/examplekem/survey.json: verdict ICCS-only" "$ws/v.out" &&
	fail "validate warned about a clean candidate: $(cat "$ws/v.out")"
rm "$ws/survey.conf"

# LTO objects: the relink is refused with its reason on file.
echo "cflag = -flto" >>"$ws/candidates/nodrng/candidate.conf"
ngcc build nodrng >"$ws/b2.out" 2>&1 || fail "lto build: $(tail -5 "$ws/b2.out")"
ngcc kat nodrng >/dev/null 2>&1 || true
rc=0
ngcc profile --run runs/c nodrng --allow-unfixed-host=test >"$ws/p4.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "LTO profile exited $rc, expected 1: $(cat "$ws/p4.out")"
f=$ws/runs/c/profile/nodrng/NoDrng-1__RELINK_FAILED.json
[ -f "$f" ] || fail "no RELINK_FAILED file"
grep -q '"schema": "ngcc-perf/relink-failed/1"' "$f" || fail "relink-failed schema"
grep -q 'LTO objects present' "$f" || fail "LTO reason: $(cat "$f")"

# An unfixed host is refused without the override.
if ! ngcc check-host >/dev/null 2>&1; then
	rc=0
	ngcc profile --run runs/c examplekem >"$ws/p5.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "unfixed host: exit $rc, expected 2"
	grep -q "refusing to measure on an unfixed host" "$ws/p5.out" || fail "refusal text: $(cat "$ws/p5.out")"
fi
echo "profile: ok"
