#!/usr/bin/env bash
# shared/example-campaign.sh DIR — one short campaign on the example package
# in DIR/ws (add, build, kat, measure with the memory pass, profile into
# runs/c, report into runs/c/reports/), as tests/e2e/campaign.sh checks it;
# its exit code, stdout and stderr and the workspace path in DIR/log.  Every script
# that needs measured data copies it (tests/e2e/lib.bash: shared_copy).
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
dir=${1:?usage: example-campaign.sh DIR}
ws=$dir/ws
mkdir -p "$ws" "$dir/log"
echo "$ws" >"$dir/log/ws_path"
rc=0
"$NGCC_BIN/ngcc-perf" -C "$ws" campaign "$NGCC_SRC/examples/ExampleKEM" --run runs/c \
	--trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test \
	>"$dir/log/campaign.out" 2>"$dir/log/campaign.err" || rc=$?
echo "$rc" >"$dir/log/campaign.rc"
# The dependent scripts check the exit code and the evidence themselves; a
# campaign that wrote nothing is of no use to them.
[ -f "$ws/runs/c/campaign.json" ] || { tail -20 "$dir/log/campaign.err"; exit 1; }
touch "$dir/ok"
