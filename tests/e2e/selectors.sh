#!/usr/bin/env bash
# selectors.sh — issue 27, items 1, 2, 4 and 9: instance selectors (ID,
# ID/LABEL, a bare LABEL, globs, --op) on build, kat, check, measure (and
# its memory pass) and status; an unmatched selector names itself and the
# instances there are; a partial measure leaves the other units "not
# selected", status settled for what was selected and publish refusing
# until --allow-partial; enabled = no is skipped by measure, visibly; the
# results table measure prints and `status --figures` shows; and a log
# file gets whole lines in order (stdout and stderr to one file).
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-selectors.XXXXXX)
trap 'rm -rf "$ws"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
plan=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test --no-sampling)
shared_copy example-built "$ws"
conf=$ws/candidates/examplekem/candidate.conf

# Unmatched selectors: exit 3 (as an unknown candidate id), the selector
# named, what exists listed; an unmatched --op: exit 2.
for cmd in build kat check "measure --run r" "profile --run r" "plan"; do
	rc=0
	# shellcheck disable=SC2086
	ngcc $cmd nosuch >"$ws/o" 2>&1 || rc=$?
	[ "$rc" = 3 ] || fail "$cmd nosuch exited $rc: $(cat "$ws/o")"
	has "$ws/o" "selector 'nosuch' matches no candidate or instance"
	has "$ws/o" "examplekem: ExampleKEM-128, ExampleKEM-128+avx2, ExampleKEM-256"
done
rc=0
ngcc measure --run r "${plan[@]}" --op nosuch >"$ws/o" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "measure --op nosuch exited $rc"
has "$ws/o" "--op nosuch matches no operation of the selected instances; they have: keygen, enc, dec"

# build and kat: a bare label, a glob, ID/LABEL.
ngcc build ExampleKEM-128 >"$ws/o" 2>&1 || fail "build ExampleKEM-128: $(cat "$ws/o")"
has "$ws/o" "BUILD examplekem ExampleKEM-128 ok"
hasnt "$ws/o" "ExampleKEM-256"
ngcc kat 'examplekem/*-256' >"$ws/o" 2>&1 || fail "kat glob: $(cat "$ws/o")"
has "$ws/o" "RESULT examplekem ExampleKEM-256 PASS"
hasnt "$ws/o" "RESULT examplekem ExampleKEM-128"

# A partial measure (one instance, one operation), stdout and stderr into
# one log file.
ngcc measure --run r "${plan[@]}" examplekem/ExampleKEM-128 --op keygen >"$ws/log" 2>&1 ||
	fail "partial measure: $(cat "$ws/log")"
[ "$(ls "$ws/r/records/examplekem")" = "ExampleKEM-128__keygen.json" ] ||
	fail "the partial measure wrote $(ls "$ws/r/records/examplekem")"
[ "$(ls "$ws/r/memory/examplekem")" = "ExampleKEM-128__keygen.json" ] ||
	fail "the memory pass did not follow the selection: $(ls "$ws/r/memory/examplekem")"
# The results table, as soon as the measuring phase ends.
has "$ws/log" "results: 1 timing record(s) in"
grep -Eq '^  examplekem/ExampleKEM-128 +keygen +[0-9,.]+ ± [0-9,.]+ +[0-9,.]+ +[0-9.]+% +[0-9,.]+ +(cycles|ns)$' "$ws/log" ||
	fail "no results row for keygen: $(cat "$ws/log")"
has "$ws/log" "  unit: "
# Whole lines, in order: the results come after the measure summary and
# before the memory pass; the MEMORY line follows its progress line.
res=$(grep -n '^results: ' "$ws/log" | cut -d: -f1)
sum=$(grep -n '^measure: 0 kept, 1 measured' "$ws/log" | cut -d: -f1)
mem=$(grep -n '^memory: 1 unit(s) to do' "$ws/log" | cut -d: -f1)
[ -n "$res" ] && [ -n "$sum" ] && [ -n "$mem" ] && [ "$sum" -lt "$res" ] && [ "$res" -lt "$mem" ] ||
	fail "log lines out of order (summary $sum, results $res, memory $mem): $(cat "$ws/log")"
prog=$(grep -n '^memory \[1/1\] examplekem ExampleKEM-128 keygen' "$ws/log" | cut -d: -f1)
line=$(grep -n '^MEMORY examplekem ExampleKEM-128 keygen complete' "$ws/log" | cut -d: -f1)
msum=$(grep -n '^memory: 0 kept, 1 measured' "$ws/log" | cut -d: -f1)
[ -n "$prog" ] && [ -n "$line" ] && [ -n "$msum" ] && [ "$prog" -lt "$line" ] && [ "$line" -lt "$msum" ] ||
	fail "MEMORY line not between its progress line and the summary: $(cat "$ws/log")"
! grep -Eq '.(MEMORY|memory \[|measure \[|calibrate \[)' "$ws/log" ||
	fail "a line starts in the middle of another: $(cat "$ws/log")"

# status: the other units are not selected, the run is settled for what
# was selected (exit 0), and says what to do.
ngcc status --run r >"$ws/st" || fail "status of the partial run: $(cat "$ws/st")"
grep -Eq '^  examplekem/ExampleKEM-128 enc +not selected' "$ws/st" || fail "enc not 'not selected': $(cat "$ws/st")"
has "$ws/st" "1 complete, 0 pending"
has "$ws/st" "8 not selected"
has "$ws/st" "settled: every selected unit is complete"
has "$ws/st" "selected by this run's phases: examplekem/ExampleKEM-128 (1 of 3 instances); operations keygen"
ngcc status --run r --json >"$ws/st.json" || fail "status --json"
python3 - "$ws/st.json" <<'EOF' || fail "status --json: $(cat "$ws/st.json")"
import json, sys
j = json.load(open(sys.argv[1]))
assert j["counts"]["not selected"] == 8 and j["counts"]["complete"] == 1, j["counts"]
assert j["settled"] is True
assert j["selections"] == ["examplekem/ExampleKEM-128 (1 of 3 instances); operations keygen"], j["selections"]
EOF
ngcc status --run r --figures >"$ws/fig" || fail "status --figures: $(cat "$ws/fig")"
has "$ws/fig" "results: 1 timing record(s) in"
grep -Eq '^  examplekem/ExampleKEM-128 +keygen ' "$ws/fig" || fail "no keygen row in status --figures"
# publish refuses the part, naming what is missing, or publishes it with
# --allow-partial and says so.
rc=0
ngcc publish --run r --dataset ds --publish-unfixed >"$ws/o" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "publish of a partial run exited $rc: $(cat "$ws/o")"
has "$ws/o" "8 unit(s) of the run's candidates were never selected"
has "$ws/o" "examplekem/ExampleKEM-256 dec"
[ ! -e "$ws/ds" ] || fail "a refused publish wrote $ws/ds"
ngcc publish --run r --dataset ds --publish-unfixed --allow-partial >"$ws/o" 2>&1 ||
	fail "publish --allow-partial: $(cat "$ws/o")"
has "$ws/o" "missing from the dataset (--allow-partial)"

# enabled = no: measure skips the instance visibly (its library is still
# in build/), kat says so, and the whole candidate is timed otherwise.
python3 - "$conf" <<'EOF'
import re, sys
p = sys.argv[1]
s = open(p).read()
i = s.index("[instance ExampleKEM-256]")
j = s.find("\n[", i + 1)
j = len(s) if j < 0 else j
block = re.sub(r"(?m)^enabled = yes$", "enabled = no", s[i:j])
open(p, "w").write(s[:i] + block + s[j:])
EOF
grep -q "enabled = no" "$conf" || fail "could not disable ExampleKEM-256"
ngcc kat examplekem >"$ws/o" 2>&1 || fail "kat with a disabled instance: $(cat "$ws/o")"
has "$ws/o" "kat: examplekem ExampleKEM-256 skipped (enabled = no in candidates/examplekem/candidate.conf)"
ngcc measure --run r2 "${plan[@]}" --no-memory-pass examplekem >"$ws/o" 2>&1 ||
	fail "measure with a disabled instance: $(cat "$ws/o")"
has "$ws/o" "not timed: examplekem/ExampleKEM-256: skipped: enabled = no in candidates/examplekem/candidate.conf"
ls "$ws/r2/records/examplekem" | grep -q "ExampleKEM-256" && fail "measure timed the disabled instance"
# ExampleKEM-128 and its AVX2 variant, whole
[ "$(ls "$ws/r2/records/examplekem" | wc -l)" = 6 ] || fail "ExampleKEM-128 not timed whole: $(ls "$ws/r2/records/examplekem")"
# report takes selectors and --op too: the pages of that part of the run.
ngcc report examplekem --op enc --run r2 >"$ws/o" 2>&1 || fail "report --op enc: $(cat "$ws/o")"
page=$(ls "$ws"/r2/reports/*/examplekem.md)
grep -Eq '^\| `ExampleKEM-128` \| enc \|' "$page" || fail "no enc row on the selected page: $(cat "$page")"
! grep -Eq '^\| `ExampleKEM-128` \| (keygen|dec) \|' "$page" || fail "the page shows operations not selected"
rc=0
ngcc report ExampleKEM-256 --run r2 >"$ws/o" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "report of an instance the run lacks exited $rc: $(cat "$ws/o")"
has "$ws/o" "nothing to report for ExampleKEM-256"
rc=0
ngcc report nosuch --run r2 >"$ws/o" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "report nosuch exited $rc: $(cat "$ws/o")"
has "$ws/o" "selector 'nosuch' matches no candidate or instance"
# A selector naming only the disabled instance: nothing to do, an error.
rc=0
ngcc measure --run r3 "${plan[@]}" ExampleKEM-256 >"$ws/o" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "measuring only a disabled instance exited $rc: $(cat "$ws/o")"
has "$ws/o" "enabled = no"
echo "selectors: ok"
