#!/usr/bin/env bash
# engines.sh — the test harness for the job engines (tests/lib/engines.sh)
# works here: GNU parallel runs two jobs, and a single-node Slurm started
# on loopback runs a 2-task array job and a job that depends on it, then
# stops without leaving a daemon behind.  Exits 77 ("SKIP: why") only when
# an engine cannot start on this machine.
set -euo pipefail
: "${NGCC_SRC:?}"
. "$NGCC_SRC/tests/lib/engines.sh"
tmp=$(mktemp -d /tmp/ngcc-e2e-engines.XXXXXX)
trap 'slurm_stop; rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
skipped=()

if parallel_check; then
	parallel --will-cite -j2 'echo {} > '"$tmp"'/p{}' ::: 1 2
	[ "$(cat "$tmp/p1" "$tmp/p2" | tr '\n' ' ')" = "1 2 " ] || fail "GNU parallel lost a job"
else
	skipped+=("GNU parallel: $ENGINE_SKIP")
fi

if slurm_start "$tmp/slurm"; then
	cat >"$tmp/task.sh" <<'SH'
#!/bin/sh
echo "$SLURM_ARRAY_TASK_ID of $SLURM_ARRAY_TASK_COUNT" >"$OUT/task-$SLURM_ARRAY_TASK_ID"
SH
	arr=$(OUT=$tmp sbatch --parsable --export=ALL --array=1-2 -o "$tmp/task-%a.log" "$tmp/task.sh") ||
		fail "sbatch of the array job failed"
	fin=$(sbatch --parsable --dependency="afterok:$arr" -o "$tmp/final.log" \
		--wrap "cat $tmp/task-1 $tmp/task-2 > $tmp/final") || fail "sbatch of the dependent job failed"
	slurm_wait_job "$fin" 60 || fail "the jobs did not finish in 60 s: $(squeue 2>&1)"
	[ "$(tr '\n' ' ' <"$tmp/final")" = "1 of 2 2 of 2 " ] ||
		fail "array tasks or dependency wrong: $(cat "$tmp"/final "$tmp"/*.log 2>&1)"
	slurm_stop
	! pgrep -f "$tmp/slurm" >/dev/null || fail "a Slurm daemon of this test is still running"
else
	skipped+=("Slurm: $ENGINE_SKIP")
fi

if [ "${#skipped[@]}" = 2 ]; then
	printf 'SKIP: %s\n' "${skipped[@]}" >&2
	exit 77
fi
for s in "${skipped[@]}"; do echo "SKIP: $s" >&2; done
exit 0
