#!/usr/bin/env bash
# compare.sh — `ngcc-perf compare` (issue 28 item 3) on the example KEM and
# its slow copy (tests/fixtures/slowkem: decapsulation slower, same KAT): two runs of the same build show no significant change (exit
# 0), the slow copy a regression of its decapsulation (exit 1); the outputs
# (table, Markdown, CSV, the page with its chart) state the method, the
# settings that differ and what only one side has; the bootstrap is
# deterministic; bad usage exits 2 and a missing side 3.
#
# Not flaky on a noisy machine (2 shared cores): only decapsulation of
# ExampleKEM-128 is timed, 60 trials of 2 ms, each in its own process, per
# record, and the example and its slow copy in the SAME run, so their
# records are measured back to back.  Under 7 concurrent test suites the
# trial means of one record were seen to vary by a factor of 1.5 (the other
# vCPU's load), which made the 95 % interval of a 37 % slowdown reach down
# to 1.04-1.08 (3 tries): the bootstrap is honest, so the test's instance
# is made about 75 % slower (ExampleKEM-256 of the fixture is the 30 % one)
# and the threshold is 10 %: the interval must stay above 1.10, a margin of
# some 60 points.  Two SEPARATE runs of the same build were seen 44 % apart
# under that load (interval 1.17-1.74): between runs, the threshold must
# cover the drift between runs, not only the trials' noise, so that check
# uses 50 %.  About 6 s per tree.
# shared: example-built
set -euo pipefail
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
tmp=$(mktemp -d /tmp/ngcc-test-compare.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
ws=$tmp/ws
shared_copy example-built "$ws"

ngcc add "$NGCC_FIXTURES/slowkem/SlowKEM" --id slowkem >"$tmp/add.out"
ngcc build slowkem >"$tmp/build.out" 2>&1 || { cat "$tmp/build.out"; fail "build of SlowKEM"; }
ngcc kat slowkem >"$tmp/kat.out" 2>&1 || { cat "$tmp/kat.out"; fail "kat of SlowKEM"; }
has "$tmp/kat.out" "RESULT slowkem ExampleKEM-128 PASS"

plan=(--op dec --trials 60 --trial-target 0.002 --disturbed-retries 0 --no-memory-pass
      --allow-unfixed-host=test)
ngcc measure examplekem/ExampleKEM-128 slowkem/ExampleKEM-128 --run runs/m "${plan[@]}" \
	>"$tmp/m.out" 2>&1 || { cat "$tmp/m.out"; fail "measure runs/m"; }
ngcc measure examplekem/ExampleKEM-128 --run runs/m2 "${plan[@]}" \
	>"$tmp/m2.out" 2>&1 || { cat "$tmp/m2.out"; fail "measure runs/m2"; }

# Two runs of the same build: no significant change, exit 0; slowkem is only
# in A and is listed, not compared.
rc=0
ngcc compare runs/m runs/m2 --threshold 50 --csv same.csv >"$tmp/same.out" 2>&1 || rc=$?
[ "$rc" -eq 0 ] || { cat "$tmp/same.out"; fail "same build: exit $rc, want 0"; }
grep -q "^examplekem/ExampleKEM-128 *dec .*no significant change$" "$tmp/same.out" ||
	{ cat "$tmp/same.out"; fail "same build: the dec row is not 'no significant change'"; }
has "$tmp/same.out" "only in A: slowkem"
has "$tmp/same.out" "1 compared: 0 regression(s)"
has "$tmp/same.out" "percentile bootstrap over the trials: 2000 resamples"
has "$tmp/same.out" "above 1 + 50 %"

# The slow copy, measured in the same run: a regression, exit 1.
rc=0
ngcc compare runs/m runs/m --map examplekem=slowkem --threshold 10 \
	--markdown slow.md --csv slow.csv --out slow-site >"$tmp/slow.out" 2>&1 || rc=$?
[ "$rc" -eq 1 ] || { cat "$tmp/slow.out"; fail "slow copy: exit $rc, want 1"; }
grep -q "^examplekem/ExampleKEM-128 *dec .* regression$" "$tmp/slow.out" ||
	{ cat "$tmp/slow.out"; fail "slow copy: the dec row is not a regression"; }
has "$tmp/slow.out" "candidate (mapped): examplekem | slowkem"
grep -q '^time,examplekem,ExampleKEM-128,dec,.*,regression' "$ws/slow.csv" ||
	{ cat "$ws/slow.csv"; fail "slow.csv: no regression row"; }
has "$ws/slow.csv" "setting,,,,candidate (mapped),examplekem,slowkem"
has "$ws/slow.md" "| Setting | A | B |"
has "$ws/slow.md" "| examplekem | \`ExampleKEM-128\` | dec |"
has "$ws/slow.md" "## Sizes, KAT status and shares"
for f in index.html style.css compare.md compare.csv compare-ratio.svg compare-ratio.csv; do
	[ -f "$ws/slow-site/$f" ] || fail "--out wrote no $f"
done
[ "$(grep -c 'class="mark' "$ws/slow-site/index.html")" -eq 1 ] ||
	fail "the page's chart does not draw one mark for its one row"
# A second --out into the same folder replaces the page.
ngcc compare runs/m runs/m --map examplekem=slowkem --threshold 10 --out slow-site \
	>"$tmp/slow2.out" 2>&1 || [ $? -eq 1 ] || { cat "$tmp/slow2.out"; fail "a second --out"; }
has "$tmp/slow2.out" "file(s) in $ws/slow-site"
# Deterministic: the same inputs give the same bytes.
ngcc compare runs/m runs/m --map examplekem=slowkem --threshold 10 --csv slow2.csv \
	>/dev/null 2>&1 || true
cmp -s "$ws/slow.csv" "$ws/slow2.csv" || fail "two comparisons of the same runs differ"

# Usage and bad input.
rc=0; ngcc compare runs/m >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || fail "one argument: exit $rc, want 2"
rc=0; ngcc compare runs/m runs/m --threshold x >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 2 ] || fail "--threshold x: exit $rc, want 2"
rc=0; ngcc compare runs/m runs/none >/dev/null 2>"$tmp/err" || rc=$?
[ "$rc" -eq 3 ] || fail "a missing side: exit $rc, want 3"
has "$tmp/err" "runs/none is neither a run directory"
echo "compare: ok"
