#!/usr/bin/env bash
# algorithm_name.sh — the algorithm name comes from what the package says,
# not from the name its file or folder was given: the example package
# renamed "Example KEM 提交" (as a folder and as a zip) is still ExampleKEM,
# from its README's "Algorithm name:" line, else from a header comment,
# else from its instance folders; add says where the name came from and
# where to change it.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
tmp=$(mktemp -d /tmp/ngcc-e2e-algname.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$tmp/ws" "$@"; }
conf_algorithm() { sed -n 's/^algorithm = //p' "$tmp/ws/candidates/$1/candidate.conf"; }

pkg="$tmp/Example KEM 提交"
cp -r "$NGCC_SRC/examples/ExampleKEM" "$pkg"

# 1. the README's "Algorithm name:" line
ngcc add "$pkg" --id a >"$tmp/a.out"
[ "$(conf_algorithm a)" = ExampleKEM ] || fail "README: algorithm = '$(conf_algorithm a)'"
grep -q '^algorithm name: ExampleKEM (from "Algorithm name" line of README.txt)' "$tmp/a.out" ||
	fail "add did not say where the name came from: $(cat "$tmp/a.out")"
grep -q "candidates/a/candidate.conf: edit its 'algorithm =' line" "$tmp/a.out" ||
	fail "add did not say where to change the name: $(cat "$tmp/a.out")"

# 2. a header comment (Chinese key), when no README says it
rm "$pkg/README.txt"
hdr="$pkg/Implementations/Reference_Implementation/ExampleKEM-128/KEM_AlgorithmInstance.h"
sed -i '1a * 算法名称：ExampleKEM' "$hdr"
ngcc add "$pkg" --id b >"$tmp/b.out"
[ "$(conf_algorithm b)" = ExampleKEM ] || fail "header comment: algorithm = '$(conf_algorithm b)'"
grep -q "from \"Algorithm name\" line of .*KEM_AlgorithmInstance.h" "$tmp/b.out" || fail "$(cat "$tmp/b.out")"

# 3. the instance folders, when nothing declares it; an archive named otherwise
sed -i '2d' "$hdr"
(cd "$tmp" && zip -qr "提交材料.zip" "Example KEM 提交")
ngcc add "$tmp/提交材料.zip" --id c >"$tmp/c.out"
[ "$(conf_algorithm c)" = ExampleKEM ] || fail "folders: algorithm = '$(conf_algorithm c)'"
grep -q "from the instance folder names" "$tmp/c.out" || fail "$(cat "$tmp/c.out")"

# 4. a package name that says more than the folders still wins (ToyKEM over Toy-1-128)
ngcc add "$NGCC_FIXTURES/layouts/ToyKEM Submission v1.0" --id d >"$tmp/d.out"
[ "$(conf_algorithm d)" = ToyKEM ] || fail "package name: algorithm = '$(conf_algorithm d)'"
echo "algorithm_name: ok"
