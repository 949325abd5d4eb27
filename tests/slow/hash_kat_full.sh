#!/usr/bin/env bash
# hash_kat_full.sh — the official hash KATs in full, through the user path
# (`make check-slow`; too slow and too big for `make check`): ExampleHash
# added, built and gated with all four files, KAT_2_33 hashing its real
# 2^33-bit (1 GiB) messages in the KAT child.  Prints each file's wall time
# and the child's peak memory from the KAT log.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
unset NGCC_PERF_KAT_2_33_BITS
ws=$(mktemp -d /tmp/ngcc-slow-hashkat.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
fail() { echo "FAIL: $*" >&2; exit 1; }

ngcc add "$NGCC_SRC/examples/ExampleHash" --id examplehash >/dev/null
ngcc build examplehash >/dev/null
ngcc kat examplehash >"$ws/kat.out" 2>"$ws/kat.err" || { cat "$ws/kat.out" "$ws/kat.err"; fail "kat"; }
cat "$ws/kat.err"
for label in ExampleHash-256 ExampleHash-512; do
	grep -qx "RESULT examplehash $label PASS" "$ws/kat.out" || fail "$label did not pass all four files"
	log=$ws/build/examplehash/kat/$label.log
	grep -q '^KAT_2_33.message_bits' "$log" && fail "$label: KAT_2_33 ran a stand-in"
	printf '%s KAT_2_33: %s s wall, %s KiB peak RSS of the KAT child\n' "$label" \
		"$(sed -n 's/^KAT_2_33.wall_s = //p' "$log")" "$(sed -n 's/^KAT_2_33.max_rss_kib = //p' "$log")"
done
echo "ok: the official hash KATs of ExampleHash pass in full"
