#!/usr/bin/env bash
# hash_kat_full.sh — the official hash KATs in full, through the user path
# (`make check-slow`; too slow and too big for `make check`): ExampleHash
# added, built and gated with all four files, KAT_2_33 hashing its real
# 2^33-bit (1 GiB) messages and KAT_Loop making its 10^6 calls in the KAT
# child (no stand-in); then ExampleHash-256 again from a copy without
# Test_Vectors/ and a kat.sha256 manifest of the four files.  Prints each file's wall time and the child's peak memory from the
# KAT log.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
unset NGCC_PERF_KAT_2_33_BITS NGCC_PERF_KAT_LOOP_ITERATIONS
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
	grep -q '^KAT_Loop.iterations' "$log" && fail "$label: KAT_Loop ran a stand-in"
	printf '%s KAT_2_33: %s s wall, %s KiB peak RSS of the KAT child\n' "$label" \
		"$(sed -n 's/^KAT_2_33.wall_s = //p' "$log")" "$(sed -n 's/^KAT_2_33.max_rss_kib = //p' "$log")"
done

# The same files as manifest entries only (add --kat-manifest).
pkg=$ws/ExampleHashManifestOnly
cp -R "$NGCC_SRC/examples/ExampleHash" "$pkg"
rm -r "$pkg/Test_Vectors"
for f in KAT_2_12 KAT_2_23 KAT_2_33 KAT_Loop; do
	sum=$(sed -e 's/[ \t\r]*$//' "$NGCC_SRC/examples/ExampleHash/Test_Vectors/${f}_EXAMPLEHASH_256.txt" |
	      grep -v '^$' | sha256sum | cut -d' ' -f1)
	echo "$sum strict ExampleHash-256/${f}_EXAMPLEHASH_256.txt"
done >"$ws/manifest.sha256"
ngcc add "$pkg" --id exm --kat-manifest "$ws/manifest.sha256" >/dev/null
grep -q '^kat_file' "$ws/candidates/exm/candidate.conf" && fail "the manifest-only copy has KAT files"
perl -0pi -e 's/(\[instance ExampleHash-512\](?:(?!\n\[).)*?)enabled = yes/\1enabled = no/s' \
	"$ws/candidates/exm/candidate.conf"
ngcc build exm >/dev/null
ngcc kat exm >"$ws/kat.out" 2>"$ws/kat.err" || { cat "$ws/kat.out" "$ws/kat.err"; fail "manifest kat"; }
cat "$ws/kat.err"
grep -qx "RESULT exm ExampleHash-256 PASS" "$ws/kat.out" || fail "ExampleHash-256 did not pass from the manifest"
[ "$(grep -c '^manifest [0-9a-f]\{64\} strict ExampleHash-256/KAT_' "$ws/build/exm/kat/ExampleHash-256.log")" = 4 ] ||
	fail "the log does not name the four manifest entries"
echo "ok: the official hash KATs of ExampleHash pass in full, from files and from a manifest"
