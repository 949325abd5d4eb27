#!/usr/bin/env bash
# shards.sh — a campaign split into 2 shards on the real job engines joins
# into a run that behaves like a single run (docs/method.md §13):
#
#   reference   the suite's shared `campaign` of the example KEM, one run;
#   parallel    `launch parallel --shards 2`, its script run: build and KAT
#               once, two shards as GNU parallel jobs on two CPUs, merge,
#               status, report;
#   slurm       a single-node Slurm started on loopback for this test
#               (tests/lib/engines.sh), `launch slurm --shards 2` and its
#               submit.sh: prep, a 2-task array job, the final job.
#
# Each merged run must be settled (`status` exits 0), name both shards and
# their CPUs in campaign.json, give pages identical in structure to the
# reference's (tests/tools/page_structure.py), publish, and validate with
# the same summary line.  merge must refuse to join a shard with the
# reference run (the same records twice).  An engine that cannot start
# here is skipped with its reason (exit 77 when both are).
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
. "$NGCC_SRC/tests/lib/engines.sh"
ws=$(mktemp -d /tmp/ngcc-e2e-shards.XXXXXX)
trap 'slurm_stop; rm -rf "$ws"' EXIT
# Shards side by side need every CPU of the machine: the suite pins each
# test to one CPU (tests/run-tests), so this test widens its own set, and
# keeps its CPU locks to itself so that it never waits for another test's
# measurement (nor they for its shards; no test asserts timings).
export NGCC_PERF_LOCK_DIR=$ws/locks
mkdir -p "$NGCC_PERF_LOCK_DIR"
taskset -pc "$(cat /sys/devices/system/cpu/online)" $$ >/dev/null 2>&1 || true
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
# The plan of the shared campaign (tests/e2e/shared/example-campaign.sh).
plan=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test)
ncpus=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')

# --- the reference: one run ----------------------------------------------
shared_copy example-campaign "$ws"
ngcc report --run runs/c --out rep-one >/dev/null || fail "report of the reference run"
ngcc publish --run runs/c --dataset ds-one --publish-unfixed >/dev/null
ngcc validate ds-one >"$ws/validate-one.txt" || fail "reference validate: $(cat "$ws/validate-one.txt")"
sed -i '/^dataset sha256 /d' "$ws/validate-one.txt"

# A merged run: settled, both shards recorded, pages and validate like the
# reference's.
check_merged() {
	local name=$1 run=runs/$1
	[ -f "$ws/$run/campaign.json" ] || fail "$name: no merged run $run"
	ngcc status --run "$run" >"$ws/status-$name.txt" || fail "$name: status: $(cat "$ws/status-$name.txt")"
	grep -q '^9 unit(s): 9 complete' "$ws/status-$name.txt" || fail "$name: $(cat "$ws/status-$name.txt")"
	python3 - "$ws/$run/campaign.json" "$ncpus" <<'PY' || fail "$name: campaign.json of the merged run"
import json, sys
c = json.load(open(sys.argv[1]))
sh = c["shards"]
assert sh["n"] == 2, sh
assert sorted(m["shard"] for m in sh["merged_from"]) == ["1/2", "2/2"], sh
assert sh["assignment_digest"], sh
if int(sys.argv[2]) >= 2:
    assert len(sh["cpus"]) == 2, sh          # one benchmark CPU per shard
# the shards' measure phases, then the final job's (the repeatability sample)
assert {p["shard"] for p in c["phases"] if p["phase"] == "measure"} == {"1/2", "2/2", None}, c["phases"]
assert len(c["background"]) == 2, c["background"]
PY
	ls "$ws/$run"/repeat/*/*.json >/dev/null 2>&1 || fail "$name: the final job timed no repeatability sample"
	ngcc report --run "$run" --out "rep-$name" >/dev/null || fail "$name: report"
	python3 "$NGCC_SRC/tests/tools/page_structure.py" "$ws/rep-one" "$ws/rep-$name" ||
		fail "$name: pages differ in structure from the single run's"
	ngcc publish --run "$run" --dataset "ds-$name" --publish-unfixed >/dev/null || fail "$name: publish"
	ngcc validate "ds-$name" >"$ws/validate-$name.txt" || fail "$name: validate: $(cat "$ws/validate-$name.txt")"
	# the dataset digest is of other evidence bytes; the rest must agree
	sed -i '/^dataset sha256 /d' "$ws/validate-$name.txt"
	cmp -s "$ws/validate-one.txt" "$ws/validate-$name.txt" ||
		fail "$name: validate says '$(cat "$ws/validate-$name.txt")', the single run '$(cat "$ws/validate-one.txt")'"
}

skipped=()

# --- GNU parallel ----------------------------------------------------------
if parallel_check; then
	ngcc launch parallel --run runs/par --shards 2 "${plan[@]}" >/dev/null
	bash "$ws/runs/par.shards/run-parallel.sh" >"$ws/par.out" 2>&1 ||
		fail "run-parallel.sh exited $?: $(tail -30 "$ws/par.out")"
	grep -q 'parallel' "$ws/runs/par.shards/run-parallel.sh" || fail "the script does not use parallel"
	[ "$(awk 'NR > 1' "$ws/runs/par.shards/parallel.joblog" | wc -l)" = 2 ] ||
		fail "GNU parallel did not run 2 jobs: $(cat "$ws/runs/par.shards/parallel.joblog")"
	check_merged par
	# A shard and the single run hold the same records: refused, named.
	rc=0
	ngcc merge runs/par.shards/shard-1 runs/c --into runs/bad >"$ws/bad.out" 2>&1 || rc=$?
	[ "$rc" = 2 ] || fail "merge of overlapping runs exited $rc"
	grep -q 'duplicate evidence records/examplekem/' "$ws/bad.out" || fail "$(cat "$ws/bad.out")"
	[ ! -e "$ws/runs/bad" ] || fail "a refused merge wrote runs/bad"
else
	skipped+=("GNU parallel: $ENGINE_SKIP")
fi

# --- Slurm -----------------------------------------------------------------
if slurm_start "$ws/slurm"; then
	ngcc launch slurm --run runs/slm --shards 2 --nodelist "$(hostname -s)" "${plan[@]}" >/dev/null
	"$ws/runs/slm.shards/submit.sh" >"$ws/submit.out" 2>&1 || fail "submit.sh: $(cat "$ws/submit.out")"
	final=$(cat "$ws/runs/slm.shards/final.jobid")
	slurm_wait_job "$final" 300 || fail "the Slurm jobs did not finish in 300 s: $(squeue 2>&1)"
	state=$(slurm_job_state "$final")
	[ "$state" = COMPLETED ] || fail "final job $final: $state: $(cat "$ws"/runs/slm.shards/*.out 2>&1 | tail -30)"
	ls "$ws"/runs/slm.shards/shard-*.slurm.out >/dev/null || fail "no array task output"
	[ "$(ls "$ws"/runs/slm.shards/shard-*.slurm.out | wc -l)" = 2 ] || fail "not 2 array tasks"
	check_merged slm
	slurm_stop
else
	skipped+=("Slurm: $ENGINE_SKIP")
fi

for s in "${skipped[@]}"; do echo "SKIP: $s"; done
[ "${#skipped[@]}" -lt 2 ] || exit 77
echo "shards: ok"
