#!/usr/bin/env bash
# build.sh — `ngcc-perf build` end to end: the toy package of
# tests/fixtures/build is added with the CLI into a workspace whose path has
# a space and Chinese characters, built (guide flags), then the
# candidate.conf is hand-edited to add an instance that needs the
# harness-default fallback and one that never builds; bad confs, unknown
# ids and bad options are refused with the documented exit codes.  A
# Makefile and a script planted in the package must never run.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
ngcc=$NGCC_BIN/ngcc-perf
tmp=$(mktemp -d /tmp/ngcc-e2e-build.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
ws="$tmp/工作 区"
mkdir -p "$ws"

fail() { echo "FAIL: $*" >&2; exit 1; }

# run EXPECTED_RC CMD... — run, keep stdout/stderr in $tmp/out, $tmp/err.
run() {
	local want=$1; shift
	local rc=0
	"$@" >"$tmp/out" 2>"$tmp/err" || rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "--- stdout"; cat "$tmp/out"; echo "--- stderr"; cat "$tmp/err"
		fail "exit $rc, want $want: $*"
	fi
}
has() { grep -qF -- "$2" "$1" || { cat "$1"; fail "'$2' not in $1"; }; }
hasnt() { ! grep -qF -- "$2" "$1" || { cat "$1"; fail "'$2' unexpectedly in $1"; }; }
jq_is() { # FILE FILTER EXPECTED
	local got
	got=$(jq -r "$2" "$1")
	[ "$got" = "$3" ] || fail "$1: $2 is '$got', want '$3'"
}

# The package, with things that must never be executed.
pkg="$tmp/Toy Package 包"
cp -R "$NGCC_SRC/tests/fixtures/build/toykem" "$pkg"
inst="$pkg/Reference Implementation/Toy 1"
printf 'all:\n\ttouch "%s/MAKE_RAN"\n' "$tmp" >"$inst/Makefile"
printf '#!/bin/sh\ntouch "%s/SCRIPT_RAN"\n' "$tmp" >"$inst/build.sh"
chmod +x "$inst/build.sh"

run 0 "$ngcc" -C "$ws" add "$pkg" --id kem-toy
conf="$ws/candidates/kem-toy/candidate.conf"
has "$conf" "[instance Toy 1]"

# 1. Guide build of the discovered instance.
run 0 "$ngcc" -C "$ws" build -j 2
has "$tmp/out" "BUILD kem-toy Toy 1 ok (guide) build/kem-toy/libToy 1.so"
lib="$ws/build/kem-toy/libToy 1.so"
[ -f "$lib" ] || fail "no $lib"
bj="$ws/build/kem-toy/build.json"
jq_is "$bj" '.schema' "ngcc-perf/build/1"
jq_is "$bj" '.instances["kem-toy/Toy 1"].flags' "guide"
jq_is "$bj" '.instances["kem-toy/Toy 1"].kat' "null"
jq_is "$bj" '.instances["kem-toy/Toy 1"].instance' "TOY_1"
jq_is "$bj" '.instances["kem-toy/Toy 1"].library' "build/kem-toy/libToy 1.so"
jq_is "$bj" '.instances["kem-toy/Toy 1"].library_sha256' "$(sha256sum "$lib" | cut -d' ' -f1)"
jq_is "$bj" '.instances["kem-toy/Toy 1"].runtime.drng' "ngcc-perf"
jq_is "$bj" '.instances["kem-toy/Toy 1"].link_command[0]' "cc"
jq_is "$bj" '.instances["kem-toy/Toy 1"].compiler_command' "cc"
jq_is "$bj" '.instances["kem-toy/Toy 1"].compiler_target' "$(cc -dumpmachine)"
jq_is "$bj" '.instances["kem-toy/Toy 1"].elf_load_bytes > 0' "true"
# Only the ABI is exported.
exports=$(nm -D --defined-only "$lib" | awk '{print $3}' | sort | tr '\n' ' ')
[ "$exports" = "ngcc_kem_dec ngcc_kem_enc ngcc_kem_keygen ngcc_meta ngcc_seed " ] ||
	fail "exports: $exports"
# Paths in the evidence are relative or <ngcc-perf>/…
hasnt "$bj" "$ws"
hasnt "$bj" "$NGCC_SRC/"
has "$bj" '"<ngcc-perf>/src/runtime/shim.c"'
has "$ws/build/kem-toy/Toy 1.build.log" "with profile guide: ok"

# 2. Hand-edited conf: a fallback instance and a broken one.
cat >>"$conf" <<'EOF'

[instance Toy-GNU]
type = kem
source_dir = gnu
source = kem_gnu.c

[instance Toy-Broken]
type = kem
source_dir = broken
source = kem_broken.c

[instance Toy-Off]
type = kem
source_dir = broken
source = kem_broken.c
enabled = no
EOF
run 1 "$ngcc" -C "$ws" build kem-toy
has "$tmp/out" "BUILD kem-toy Toy 1 ok (guide)"
has "$tmp/out" "BUILD kem-toy Toy-GNU ok (harness-default; guide failed: candidates/kem-toy/source/gnu/kem_gnu.c:"
has "$tmp/out" "BUILD kem-toy Toy-Broken BUILDFAIL: candidates/kem-toy/source/broken/kem_broken.c:2:"
has "$tmp/out" "BUILD kem-toy Toy-Off skipped"
has "$tmp/err" "full log: build/kem-toy/Toy-Broken.build.log"
jq_is "$bj" '.instances["kem-toy/Toy-GNU"].flags' "harness-default"
jq_is "$bj" '.instances["kem-toy/Toy-GNU"].guide_result' "BUILDFAIL"
jq_is "$bj" '.instances["kem-toy/Toy-Broken"].kat' "BUILDFAIL"
jq_is "$bj" '.instances["kem-toy/Toy-Broken"].library' "null"
jq_is "$bj" '.instances | has("kem-toy/Toy-Off")' "false"
[ -f "$ws/build/kem-toy/libToy-GNU.so" ] || fail "no fallback library"
[ ! -e "$ws/build/kem-toy/libToy-Broken.so" ] || fail "a library for a BUILDFAIL"

# 3. The KAT runner can load what we built (when it is there).
if [ -x "$NGCC_BIN/ngcc-perf-kat" ]; then
	rc=0
	"$ngcc" -C "$ws" kat kem-toy >"$tmp/kat" 2>&1 || rc=$?
	has "$tmp/kat" "RESULT kem-toy Toy 1 NOKAT"
	has "$tmp/kat" "RESULT kem-toy Toy-GNU NOKAT"
fi

# 4. Refusals.
# The candidate compiler is one program (NGCC_PERF_CC): no arguments.
NGCC_PERF_CC="gcc -m32" run 2 "$ngcc" -C "$ws" build
has "$tmp/err" "NGCC_PERF_CC must name one compiler program"
run 3 "$ngcc" -C "$ws" build kem-nope
has "$tmp/err" "candidates/kem-nope/candidate.conf"
run 2 "$ngcc" -C "$ws" build -j zero
run 0 "$ngcc" -C "$ws" build --help
has "$tmp/out" "usage: ngcc-perf [-C DIR] build"
echo "bogus line" >>"$conf"
run 3 "$ngcc" -C "$ws" build
has "$tmp/err" "candidate.conf:"
run 3 "$ngcc" -C "$tmp/empty" build

# Nothing from the package ran.
[ ! -e "$tmp/MAKE_RAN" ] && [ ! -e "$tmp/SCRIPT_RAN" ] || fail "a package file was executed"
echo "build e2e ok"
