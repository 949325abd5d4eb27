#!/usr/bin/env bash
# contain.sh — no process a candidate starts outlives the child program that
# loaded it (docs/security.md, "Candidate processes"): EscapeKEM's keygen
# (tests/fixtures/hostile/README.md) starts, once per process, a child that
# leaves the process group and the session with setsid(), closes its
# descriptors, names itself ngcc-escapee and spins.  After `kat`, `check` and
# `measure` (timing and memory pass) and `profile` no such process of this workspace may
# run, and the evidence must say that processes were killed: the KAT log's
# child line, the check record's finding and process.strays_killed, the
# timing record's processes[].strays_killed and disturbed reason, the memory
# record's process.strays_killed, the profile's strays_killed.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
ws=$(mktemp -d /tmp/ngcc-e2e-contain.XXXXXX)
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }

# The escaped processes of this workspace: named ngcc-escapee, working in
# $ws (the KAT child's scratch folder is under it too, deleted or not).
escapees() {
	local p cwd
	for p in /proc/[0-9]*; do
		[ "$(cat "$p/comm" 2>/dev/null)" = ngcc-escapee ] || continue
		cwd=$(readlink "$p/cwd" 2>/dev/null) || continue
		case $cwd in "$ws" | "$ws"/*) echo "${p#/proc/}" ;; esac
	done
}
# A build without containment leaves them spinning: end them (they are ours).
cleanup() {
	local left
	left=$(escapees)
	[ -z "$left" ] || kill -KILL $left 2>/dev/null || true
	[ -n "${KEEP:-}" ] || rm -rf "$ws"
}
trap cleanup EXIT
# The supervisor reaps what it kills before the command ends, so nothing
# may be left the moment a command returns.
none_left() {
	local left
	left=$(escapees)
	[ -z "$left" ] || fail "after $1: ngcc-escapee still running (pid $left)"
}

ngcc add "$NGCC_FIXTURES/hostile/EscapeKEM" --id escape >/dev/null
ngcc build escape >"$ws/build.out" 2>&1 || fail "build: $(tail -5 "$ws/build.out")"
none_left build

# ---- kat: PASS, and the log says what was killed -----------------------------
ngcc kat escape >"$ws/kat.out" 2>&1 || fail "kat: $(tail -5 "$ws/kat.out")"
grep -q '^RESULT escape Escape PASS' "$ws/kat.out" || fail "kat: $(cat "$ws/kat.out")"
none_left kat
has "$ws/kat.out" "left 1 process(es) running after it ended; they were killed"
grep -qx 'child = exit 0; 1 process(es) it left running killed' "$ws/build/escape/kat/Escape.log" ||
	fail "KAT log child line: $(grep '^child' "$ws/build/escape/kat/Escape.log")"

# ---- check: not clean, with a finding ------------------------------------------
rc=0
ngcc check escape --only functional --rounds 2 >"$ws/check.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "check exit $rc, want 1 (findings): $(tail -5 "$ws/check.out")"
none_left check
python3 - "$ws/build/escape/check/Escape__functional.json" <<'PY' || fail "check record"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["status"] == "complete" and r["verdict"] == "findings", (r["status"], r["verdict"])
assert r["process"]["strays_killed"] >= 1, r["process"]
kinds = [f["kind"] for f in r["findings"]]
assert "processes left running" in kinds, kinds
f = [f for f in r["findings"] if f["kind"] == "processes left running"][0]
assert "setsid()" in f["what"] and f["occurrences"] == r["process"]["strays_killed"], f
PY

# ---- measure: timing and memory records say so ----------------------------------
plan=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --op-budget 0.5 --max-timeout 60
      --allow-unfixed-host=test --no-sampling)
ngcc measure --run runs/m escape "${plan[@]}" >"$ws/measure.out" 2>&1 ||
	fail "measure: $(tail -20 "$ws/measure.out")"
none_left measure
has "$ws/measure.out" "were killed (recorded as strays_killed)"
python3 - "$ws/runs/m" <<'PY' || fail "timing and memory records"
import json, os, sys
run = sys.argv[1]
recs = sorted(os.listdir(os.path.join(run, "records", "escape")))
assert any(f.startswith("Escape__keygen") for f in recs), recs
for f in recs:
    t = json.load(open(os.path.join(run, "records", "escape", f)))
    for p in t["processes"]:
        assert p["strays_killed"] >= 1, (f, p["strays_killed"])
        assert any("were still running at the end and were killed" in r
                   for r in p["disturbed_reasons"]), (f, p["disturbed_reasons"])
    m = json.load(open(os.path.join(run, "memory", "escape", f)))
    assert m["process"]["strays_killed"] >= 1, (f, m["process"])
PY
# ---- profile -----------------------------------------------------------------------
ngcc profile --run runs/m escape --allow-unfixed-host=test --max-timeout 60 >"$ws/profile.out" 2>&1 ||
	fail "profile: $(tail -20 "$ws/profile.out")"
none_left profile
python3 - "$ws/runs/m" <<'PY' || fail "profiles"
import json, os, sys
d = os.path.join(sys.argv[1], "profile", "escape")
profs = [f for f in sorted(os.listdir(d)) if f.startswith("Escape__")]
assert profs, os.listdir(d)
for f in profs:
    p = json.load(open(os.path.join(d, f)))
    assert p["strays_killed"] >= 1, (f, p["strays_killed"])
PY
echo "contain: ok"
