#!/usr/bin/env bash
# resume.sh — kill -9 the orchestrator of a measure twice (once early, once
# after some records exist), rerun the same command, and check that the run
# completes with every record complete exactly once, nothing half-written,
# no temporary file left and no driver process orphaned.
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-resume.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
# Timing only (the memory pass and its resume are memory.sh's subject).
args=(measure --run runs/k --trial-target 0.05 --trials 3 --disturbed-retries 0 --no-memory-pass --no-sampling --allow-unfixed-host=test)

# The example package, added, built and KAT-tested (shared/example-built.sh).
shared_copy example-built "$ws"

records() { find "$ws/runs/k/records" -name '*.json' 2>/dev/null | wc -l; }

# Drivers started from this workspace (their working directory).
drivers_left() {
	local n=0 p
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/cwd" 2>/dev/null)" = "$ws" ] || continue
		grep -qa ngcc-perf-driver "$p/cmdline" 2>/dev/null && n=$((n + 1))
	done
	echo "$n"
}

# Start a measure; kill -9 it as soon as `cond` holds (or after 60 s).
start_and_kill() {
	local cond=$1
	"$NGCC_BIN/ngcc-perf" -C "$ws" "${args[@]}" >>"$ws/killed.out" 2>&1 &
	local pid=$! i
	for i in $(seq 1 1200); do
		eval "$cond" && break
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	kill -9 "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
	sleep 0.5 # PR_SET_PDEATHSIG reaches the driver
	[ "$(drivers_left)" = 0 ] || fail "a driver survived its orchestrator"
}

start_and_kill '[ -e "$ws/runs/k/campaign.json" ]'
start_and_kill '[ "$(records)" -ge 2 ]'
before=$(records)
[ "$before" -lt 9 ] || fail "the run finished before it could be killed ($before records)"

rc=0
ngcc "${args[@]}" >"$ws/final.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || fail "rerun exited $rc: $(cat "$ws/final.out")"

[ -z "$(find "$ws/runs/k" -name '*.tmp.*')" ] || fail "temporary files left: $(find "$ws/runs/k" -name '*.tmp.*')"
python3 - "$ws/runs/k" <<'EOF' || fail "records after resume"
import json, os, sys
run = sys.argv[1]
names = []
for cand in os.listdir(os.path.join(run, "records")):
    for f in os.listdir(os.path.join(run, "records", cand)):
        names.append(f)
        with open(os.path.join(run, "records", cand, f)) as fh:
            r = json.load(fh)   # a half-written file would not parse
        assert r["status"] == "complete", (f, r["status"], r["status_detail"])
        assert len(r["trials"]) == r["plan"]["trials"] == 3, f
        assert len(r["processes"]) == 3, f
        assert r["trials"] == [t for p in r["processes"] for t in p["trials"]], f
        assert r["measurements"] == sum(t["calls"] for t in r["trials"])
assert sorted(names) == sorted(f"ExampleKEM-{n}__{op}.json" for n in ("128", "128+avx2", "256")
                               for op in ("keygen", "enc", "dec")), names
with open(os.path.join(run, "campaign.json")) as fh:
    c = json.load(fh)
m = [p for p in c["phases"] if p["phase"] == "measure"]
assert len(m) == 3, m
assert m[-1]["exit_code"] == 0 and m[0]["exit_code"] is None, m
starts = {p["started_utc"] for p in m}
assert c["started_utc"] <= min(starts)
EOF
grep -q "^measure: [0-9]* kept, [0-9]* measured, 0 failed" "$ws/final.out" || fail "summary: $(cat "$ws/final.out")"
echo "resume e2e ok (killed with $before record(s) written)"
