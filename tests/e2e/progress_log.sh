#!/usr/bin/env bash
# progress_log.sh — progress when stderr is not a terminal: a plain line per
# unit ("measure [k/N] <ID> <label> <op>  elapsed …  ETA …") for the
# calibration, the timing and the memory pass, the number of units and the
# plan's estimate first; and a second measure on the same benchmark CPU
# names the pid and command of the one holding it (then leaves at Ctrl-C).
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-progress.XXXXXX)
trap 'rm -rf "$ws"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"
export NGCC_PERF_LOCK_DIR=${NGCC_PERF_LOCK_DIR:-$ws/locks}
mkdir -p "$NGCC_PERF_LOCK_DIR"
cpu=$(python3 -c 'import os; print(max(os.sched_getaffinity(0)))')
plan=(--trial-target 0.05 --trials 3 --disturbed-retries 0 --allow-unfixed-host=test --no-sampling --cpu "$cpu")

shared_copy example-built "$ws/a"
shared_copy example-built "$ws/b"

"$NGCC_BIN/ngcc-perf" -C "$ws/a" measure --run r "${plan[@]}" >"$ws/a.out" 2>"$ws/a.err" &
first=$!
lock=$NGCC_PERF_LOCK_DIR/ngcc-perf-cpu$cpu.lock
for _ in $(seq 1 600); do
	[ "$(cut -d' ' -f1 "$lock" 2>/dev/null)" = "$first" ] && break
	sleep 0.05
done
[ "$(cut -d' ' -f1 "$lock" 2>/dev/null)" = "$first" ] || fail "the lock file does not name its holder"

# The second one waits for the CPU and says who has it.
"$NGCC_BIN/ngcc-perf" -C "$ws/b" measure --run r "${plan[@]}" >"$ws/b.out" 2>"$ws/b.err" &
second=$!
for _ in $(seq 1 600); do
	grep -q "busy" "$ws/b.err" && break
	sleep 0.05
done
grep -q "^measure: benchmark CPU $cpu is busy: pid $first: .*ngcc-perf -C $ws/a measure --run r .* holds $lock; waiting" "$ws/b.err" ||
	fail "the busy message does not name the holder: $(cat "$ws/b.err")"
kill -INT "$second"
rc=0
wait "$second" || rc=$?
[ "$rc" = 130 ] || fail "a measure waiting for the CPU exited $rc at SIGINT: $(cat "$ws/b.err")"
[ ! -e "$ws/b/r/records" ] || fail "the waiting measure wrote records"

rc=0
wait "$first" || rc=$?
[ "$rc" = 0 ] || fail "measure exited $rc: $(cat "$ws/a.err")"
err=$ws/a.err
grep -q "^calibrate: 9 unit(s) to do$" "$err" || fail "no calibrate count: $(cat "$err")"
grep -q "^measure: 9 unit(s) to do, [0-9hms]* by the plan's estimates" "$err" || fail "no plan estimate: $(cat "$err")"
grep -q "^memory: 9 unit(s) to do$" "$err" || fail "no memory count: $(cat "$err")"
for phase in calibrate measure memory; do
	for k in 1 2 3 4 5 6 7 8 9; do
		n=$(grep -c "^$phase \[$k/9\] examplekem ExampleKEM-\(128\|128+avx2\|256\) \(keygen\|enc\|dec\)  elapsed [0-9hms]*  ETA " "$err" || true)
		[ "$n" = 1 ] || fail "$n progress line(s) for $phase unit $k: $(cat "$err")"
	done
	grep -q "^$phase \[1/9\] .*ETA ?$" "$err" || fail "$phase: first ETA should be unknown"
	grep -q "^$phase \[9/9\] .*ETA [0-9hms]*$" "$err" || fail "$phase: no ETA after the first unit"
done
! grep -q $'\r' "$err" || fail "terminal control characters in a log"
echo "progress_log: ok"
