#!/usr/bin/env bash
# defer.sh — --defer, --deferred-only and the worker's share, without a job
# engine: the example KEM's three instances with ExampleKEM-256 deferred.
# The shard (1 of 1) measures only ExampleKEM-128 (and its AVX2 variant) and `status` shows the
# deferred units; the deferred worker measures only ExampleKEM-256; a
# shard given no instance says so and succeeds; a resumed shard with
# another --defer is refused; merge joins the two runs into a settled run
# that reports; `plan --defer` counts the deferred worker apart.
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
ws=$(mktemp -d /tmp/ngcc-e2e-defer.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
plan=(--trial-target 0.02 --trials 2 --disturbed-retries 0 --op-budget 5 --allow-unfixed-host=test --no-memory-pass --no-sampling)
defer=(--defer 'ExampleKEM-256$')

# The example package comes added and built (shared/example-built.sh).
shared_copy example-built "$ws"

records() { (cd "$ws/$1/records/examplekem" 2>/dev/null && ls | tr '\n' ' '); }

ngcc measure --run runs/s1 --shard 1/1 "${defer[@]}" "${plan[@]}" >"$ws/s1.out" 2>&1 ||
	fail "shard: $(tail -5 "$ws/s1.out")"
[ "$(records runs/s1)" = "ExampleKEM-128+avx2__dec.json ExampleKEM-128+avx2__enc.json ExampleKEM-128+avx2__keygen.json ExampleKEM-128__dec.json ExampleKEM-128__enc.json ExampleKEM-128__keygen.json " ] ||
	fail "the shard measured: $(records runs/s1)"
ngcc status --run runs/s1 >"$ws/status1.txt" || fail "status of the shard: $(cat "$ws/status1.txt")"
grep -q 'examplekem/ExampleKEM-256 keygen *deferred' "$ws/status1.txt" ||
	fail "deferred units not shown: $(cat "$ws/status1.txt")"

ngcc measure --run runs/d --deferred-only "${defer[@]}" "${plan[@]}" >"$ws/d.out" 2>&1 ||
	fail "deferred worker: $(tail -5 "$ws/d.out")"
[ "$(records runs/d)" = "ExampleKEM-256__dec.json ExampleKEM-256__enc.json ExampleKEM-256__keygen.json " ] ||
	fail "the deferred worker measured: $(records runs/d)"
grep -q '"shard": "deferred"' "$ws/runs/d/campaign.json" || fail "campaign.json does not say deferred"

# More shards than instances (ExampleKEM-128 and its AVX2 variant): shard 3
# of 3 gets nothing, and says so.
ngcc measure --run runs/empty --shard 3/3 "${defer[@]}" "${plan[@]}" >"$ws/e.out" 2>&1 ||
	fail "an empty shard failed: $(tail -5 "$ws/e.out")"
grep -q 'no instance' "$ws/e.out" || fail "the empty shard did not say so: $(cat "$ws/e.out")"

# A shard resumed with another --defer follows another assignment: refused.
rc=0
ngcc measure --run runs/s1 --shard 1/1 "${plan[@]}" >"$ws/r.out" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "resume with another assignment exited $rc"
grep -q 'shards\.' "$ws/r.out" || fail "$(cat "$ws/r.out")"

# Pages rendered from the shards (in their own reports/) are not evidence:
# merge leaves them behind, and the merged run renders its own.
ngcc report --run runs/s1 >/dev/null 2>&1 || fail "report of a shard"
ngcc report --run runs/d >/dev/null 2>&1 || fail "report of the deferred run"
ngcc merge runs/s1 runs/d --into runs/all >"$ws/merge.out" 2>&1 || fail "merge: $(cat "$ws/merge.out")"
[ ! -e "$ws/runs/all/reports" ] || fail "merge copied a shard's pages"
ngcc status --run runs/all >"$ws/status.txt" || fail "merged run not settled: $(cat "$ws/status.txt")"
grep -q '^9 unit(s): 9 complete' "$ws/status.txt" || fail "$(cat "$ws/status.txt")"
ngcc report --run runs/all >/dev/null || fail "report of the merged run"
[ -f "$ws/runs/all/reports/index.md" ] || fail "the merged run's pages are not in its reports/"

ngcc plan --run runs/all "${defer[@]}" --json >"$ws/plan.json" || fail "plan"
python3 - "$ws/plan.json" <<'PY' || fail "plan --defer"
import json, sys
p = json.load(open(sys.argv[1]))
inst = {i["key"]: i for i in p["instances"]}
assert inst["examplekem/ExampleKEM-256"]["deferred"], inst
assert not inst["examplekem/ExampleKEM-128"]["deferred"], inst
assert p["deferred_wall_s"] > 0, p["deferred_wall_s"]
PY
echo "defer: ok"
