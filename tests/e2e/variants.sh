#!/usr/bin/env bash
# variants.sh — implementation variants end to end (issue #29): the
# example's own AVX2 variant discovered, built with its flags and
# KAT-checked against its reference (e2e/campaign checks its records); the
# VarKEM fixture's AVX-512 and NEON
# variants refused with UNSUPPORTED_CPU by build, kat, measure, memory and
# check, never loaded (the AVX-512 refusal through the test-only
# NGCC_PERF_TEST_CPU_FEATURES, so it holds on a host that has AVX-512); a
# variant whose KAT output differs from its reference's reported naming both.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
. "$NGCC_SRC/tests/e2e/lib.bash"
tmp=$(mktemp -d /tmp/ngcc-e2e-variants.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
field() { python3 -c 'import json,sys
d=json.load(open(sys.argv[1]))["instances"][sys.argv[2]]
for k in sys.argv[3].split("."): d=d[k]
print(json.dumps(d))' "$@"; }

# --- 1. the example's AVX2 variant -------------------------------------------
ws=$tmp/ex
shared_copy example-built "$ws" "$tmp/exlog"
has "$tmp/exlog/add.out" "ExampleKEM-128+avx2      kem   optimized-avx2"
has "$tmp/exlog/add.out" "variant: ExampleKEM-128+avx2: optimized-avx2: optimized tree; CPU extension avx2: intrinsics in its code: AVX2"
conf=$ws/candidates/examplekem/candidate.conf
has "$conf" "[instance ExampleKEM-128+avx2]"
has "$conf" "cpu_extension = avx2"
bj=$ws/build/examplekem/build.json
key=examplekem/ExampleKEM-128+avx2
[ "$(field "$bj" "$key" flags)" = '"guide-performance"' ] || fail "the AVX2 variant is not built with guide-performance"
[ "$(field "$bj" "$key" cpu_flags)" = '["-mavx2"]' ] || fail "cpu_flags: $(field "$bj" "$key" cpu_flags)"
field "$bj" "$key" compile_commands | grep -q -- '"-mavx2"' || fail "-mavx2 not on the compile lines"
field "$bj" "$key" compile_commands | grep -q -- '"-O3"' || fail "-O3 not on the compile lines"
! field "$bj" "$key" compile_commands | grep -q -- '"-march=native"' || fail "-march=native on the compile lines"
[ "$(field "$bj" examplekem/ExampleKEM-128 cpu_flags)" = '[]' ] || fail "the reference got extension flags"
field "$bj" "$key" host_cpu.features >/dev/null
if grep -qw avx2 /proc/cpuinfo; then
	has "$tmp/exlog/kat.out" "RESULT examplekem ExampleKEM-128+avx2 PASS"
	has "$tmp/exlog/kat.out" "VARIANT examplekem ExampleKEM-128+avx2 SAME as reference ExampleKEM-128"
	[ "$(field "$bj" "$key" kat_vs_reference)" = '"same"' ] || fail "kat_vs_reference"
	# its timing and memory records: e2e/campaign (the shared example campaign)
else
	has "$tmp/exlog/kat.out" "RESULT examplekem ExampleKEM-128+avx2 UNSUPPORTED_CPU"
fi

# --- 2. variants this host cannot run ----------------------------------------
if [ "$(uname -m)" != x86_64 ]; then
	echo "variants.sh: the VarKEM part needs an x86-64 host; skipped"
	exit 0
fi
export NGCC_PERF_TEST_CPU_FEATURES=x86_64:sse2,avx,avx2
ws=$tmp/var
ngcc add "$NGCC_FIXTURES/variants/VarKEM" --id var >"$tmp/add.out"
has "$tmp/add.out" "Var-1+avx512             kem   optimized-avx512"
has "$tmp/add.out" "Var-1+additional         kem   additional"
has "$tmp/add.out" "CPU extension neon: intrinsics in its code: NEON"
has "$tmp/add.out" "note: Var-1+additional: NEON code, an aarch64 extension, and this host is x86_64: \`build\` will record it UNSUPPORTED_CPU"
has "$ws/candidates/var/candidate.conf" "cpu_extension = avx512"
ngcc build >"$tmp/build.out" 2>&1 || { cat "$tmp/build.out"; fail "build failed"; }
has "$tmp/build.out" "BUILD var Var-1+additional UNSUPPORTED_CPU: needs NEON, an aarch64 extension; the compiler builds for x86_64 (not compiled)"
has "$tmp/build.out" "BUILD var Var-1+avx512 ok (guide-performance)"
has "$tmp/build.out" "lacks avx512f avx512bw avx512dq avx512vl: built, but kat"
bj=$ws/build/var/build.json
[ "$(field "$bj" var/Var-1+additional kat)" = '"UNSUPPORTED_CPU"' ] || fail "NEON entry"
[ "$(field "$bj" var/Var-1+avx512 host_cpu.source)" = '"override"' ] || fail "host_cpu.source"
field "$bj" var/Var-1+avx512 compile_commands | grep -q -- '"-mavx512bw"' || fail "-mavx512bw"
ngcc kat >"$tmp/kat.out" 2>&1 || { cat "$tmp/kat.out"; fail "kat failed"; }
has "$tmp/kat.out" "RESULT var Var-1 PASS"
has "$tmp/kat.out" "RESULT var Var-1+avx512 UNSUPPORTED_CPU needs AVX-512"
has "$tmp/kat.out" "RESULT var Var-1+additional UNSUPPORTED_CPU needs NEON"
hasnt "$tmp/kat.out" "CRASH"
[ "$(field "$bj" var/Var-1+avx512 kat)" = '"UNSUPPORTED_CPU"' ] || fail "kat status not recorded"
# a campaign (measure, memory, profile, report): the refused variants do
# not make it fail, the others are measured
ngcc campaign var --run runs/r --trial-target 0.002 --trials 2 --disturbed-retries 0 \
	--allow-unfixed-host=test >"$tmp/measure.out" 2>&1 || { cat "$tmp/measure.out"; fail "campaign failed"; }
has "$tmp/measure.out" "not timed: var/Var-1+avx512: UNSUPPORTED_CPU: needs AVX-512"
has "$tmp/measure.out" "not timed: var/Var-1+additional: UNSUPPORTED_CPU: needs NEON"
has "$tmp/measure.out" "memory: 0 kept, 3 measured, 0 failed; 2 instance(s) not timed"
ls "$ws/runs/r/records/var" | grep -q '+' && fail "a refused variant was measured"
# the measuring host is checked again: a kat PASS from another host is not enough
python3 - "$bj" <<'PY'
import json, sys
d = json.load(open(sys.argv[1])); d["instances"]["var/Var-1+avx512"]["kat"] = "PASS"
json.dump(d, open(sys.argv[1], "w"), indent=2)
PY
ngcc measure --run runs/r2 --trial-target 0.002 --trials 2 --disturbed-retries 0 --no-memory-pass \
	--allow-unfixed-host=test >"$tmp/measure2.out" 2>&1 || { cat "$tmp/measure2.out"; fail "measure 2 failed"; }
has "$tmp/measure2.out" "not timed: var/Var-1+avx512: UNSUPPORTED_CPU: needs AVX-512"
ngcc check --rounds 2 --only consttime >"$tmp/check.out" 2>&1 || { cat "$tmp/check.out"; fail "check failed"; }
has "$tmp/check.out" "CHECK var Var-1+avx512 UNSUPPORTED_CPU: needs AVX-512"
has "$tmp/check.out" "2 instance(s) not run: UNSUPPORTED_CPU"
# where the host has AVX-512, valgrind still cannot decode it: memcheck is
# skipped with the reason rather than reporting valgrind's SIGILL
NGCC_PERF_TEST_CPU_FEATURES=x86_64:sse2,avx2,avx512f,avx512bw,avx512dq,avx512vl \
	ngcc check var/Var-1+avx512 --only memcheck --rounds 2 >"$tmp/check2.out" 2>&1 ||
	{ cat "$tmp/check2.out"; fail "check of the AVX-512 variant"; }
has "$tmp/check2.out" "CHECK var Var-1+avx512 memcheck skipped: not run: valgrind cannot run AVX-512 code"

# --- 3. a variant that disagrees with its reference --------------------------
pkg=$tmp/VarKEM
cp -R "$NGCC_FIXTURES/variants/VarKEM" "$pkg"
opt=$pkg/Implementations/Optimized_Implementation/avx512/Var-1
rm "$opt/src/wide512.c"
sed -i 's/#define TOY_LEVEL 1/#define TOY_LEVEL 2/' "$opt/src/params.h"
rm -rf "$pkg/Implementations/Additional_Implementation"
ws=$tmp/diff
ngcc add "$pkg" --id var >/dev/null
ngcc build >"$tmp/b3.out" 2>&1 || { cat "$tmp/b3.out"; fail "build 3 failed"; }
rc=0
ngcc kat >"$tmp/k3.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || { cat "$tmp/k3.out"; fail "kat with a MISMATCH exited $rc, want 1"; }
has "$tmp/k3.out" "RESULT var Var-1+portable MISMATCH"
has "$tmp/k3.out" "VARIANT var Var-1+portable DIFFERS from reference Var-1: its KAT output (build/var/kat/Var-1+portable.txt) differs from its reference Var-1's"
[ "$(field "$ws/build/var/build.json" var/Var-1+portable kat_vs_reference)" = '"differs"' ] || fail "differs not recorded"
echo "variants.sh: ok"
