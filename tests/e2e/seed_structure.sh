#!/usr/bin/env bash
# seed_structure.sh — the candidate page of a real run has the structure of
# the seed page 004 (docs/report-format.md §5): the same `##` section
# titles in the same order, identical table header rows, the same items in the
# environment table, and every data cell in the format of the seed's
# column (cycles, time, ops/s, n, RSS, percent, calls per operation, KAT
# digest, code-span labels and paths).
#
# The expectations (tests/fixtures/seed-structure/004.expect) are derived
# from the in-repo copy of the published seed page and re-derived here, so
# they cannot drift from it.  A deliberately broken page must be rejected, so
# the checker itself is tested too.  The run is a copy of the suite's
# shared campaign on the example package (shared/example-campaign.sh).
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-seed.XXXXXX)
trap 'rm -rf "$ws"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"

fix=$NGCC_SRC/tests/fixtures/seed-structure
seed_name=004_51da20beab7aafd1.txt
seed=$NGCC_SRC/tests/fixtures/report/seeds/$seed_name
check() { python3 "$fix/structure.py" check "$fix/004.expect" "$1"; }

python3 "$fix/structure.py" derive "$seed" >"$ws/derived.expect"
cmp -s "$ws/derived.expect" "$fix/004.expect" ||
	fail "004.expect no longer matches the seed: $(diff "$fix/004.expect" "$ws/derived.expect")"

shared_copy example-campaign "$ws" "$ws/first"
rc=$(cat "$ws/first/campaign.rc")
[ "$rc" = 0 ] || fail "campaign exited $rc: $(tail -20 "$ws/first/campaign.err")"
sys=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["system_id"])' \
	"$ws/runs/c/campaign.json")
page=$ws/runs/c/reports/$sys/examplekem.md
[ -f "$page" ] || fail "no candidate page $page"

check "$page" || fail "$page does not have the seed's structure"

# The checker must notice a wrong cell format, a renamed header and a
# missing section.
sed -E '0,/^\| `ExampleKEM-128` \| keygen \| [^|]+ \|/s//| `ExampleKEM-128` | keygen | 494000.0 |/' \
	"$page" >"$ws/bad-cell.md"
sed 's/^| instance | operation | mean cycles |/| instance | operation | cycles |/' "$page" >"$ws/bad-header.md"
sed '/^## 6\. /d' "$page" >"$ws/bad-section.md"
for bad in bad-cell bad-header bad-section; do
	! cmp -s "$page" "$ws/$bad.md" || fail "$bad: the mutation did not apply"
	if check "$ws/$bad.md" 2>"$ws/$bad.err"; then
		fail "$bad.md was accepted"
	fi
done
grep -q "mean cycles.*494000.0.*is not a cycles cell" "$ws/bad-cell.err" ||
	fail "bad cell not reported: $(cat "$ws/bad-cell.err")"
echo "seed_structure: ok"
