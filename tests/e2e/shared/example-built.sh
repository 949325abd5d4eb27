#!/usr/bin/env bash
# shared/example-built.sh DIR — the example package added (id examplekem),
# built and KAT-tested in DIR/ws; the outputs in DIR/log.  Copied by the
# scripts that start from it (tests/e2e/lib.bash: shared_copy).
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
dir=${1:?usage: example-built.sh DIR}
ws=$dir/ws
mkdir -p "$ws" "$dir/log"
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
ngcc add "$NGCC_SRC/examples/ExampleKEM" --id examplekem >"$dir/log/add.out"
ngcc build >"$dir/log/build.out" 2>&1 || { cat "$dir/log/build.out"; exit 1; }
ngcc kat >"$dir/log/kat.out" 2>&1 || { cat "$dir/log/kat.out"; exit 1; }
grep -q "RESULT examplekem ExampleKEM-128 PASS" "$dir/log/kat.out"
grep -q "RESULT examplekem ExampleKEM-256 PASS" "$dir/log/kat.out"
touch "$dir/ok"
