#!/usr/bin/env bash
# selftest: the CLI checks every spec vector and says so, one line each.
set -euo pipefail
out=$("$NGCC_BIN/ngcc-perf" selftest)
echo "$out" | grep -q '^selftest: [0-9]* passed, 0 failed$'
# every DRNG seed of the KAT schedule (docs/iccs.md §8.5) is among the checks
[ "$(echo "$out" | grep -c '^ok ')" -ge 70 ]
! echo "$out" | grep -q '^FAIL'
# an unknown option is a usage error (exit 2)
set +e
"$NGCC_BIN/ngcc-perf" selftest --bogus >/dev/null 2>&1
rc=$?
set -e
[ "$rc" -eq 2 ]
echo "selftest e2e ok"
