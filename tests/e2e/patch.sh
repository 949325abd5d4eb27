#!/usr/bin/env bash
# patch.sh — `add --patch` end to end (issue 24; docs/usage.md "Patching a
# package"): PatchKEM (tests/fixtures/patch) does not compile as shipped;
# with fix-include.diff it builds and its KATs pass.  The patch is applied to
# the workspace's copy only, kept and recorded with its SHA-256 in
# candidate.conf and build.json, named on the candidate page, published and
# checked by validate.  Adding again with it is idempotent; a patch that does
# not apply, one that leaves the folder and one given twice are refused and
# leave nothing; a patch changed after add is refused by build; a published
# patch that was changed is reported by validate.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-patch.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
fix=$NGCC_FIXTURES/patch
pkg=$fix/PatchKEM
rel=Implementations/Reference_Implementation/Patch-1-128/KEM_AlgorithmInstance.c
sum() { sha256sum "$1" | cut -d' ' -f1; }
pkg_sum=$(find "$pkg" -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)
patch_sum=$(sum "$fix/fix-include.diff")

# As shipped, the package does not build.
ngcc add "$pkg" --id pk >"$ws/add0.out" 2>&1 || fail "add: $(cat "$ws/add0.out")"
ngcc build pk >"$ws/b0.out" 2>&1 || true
has "$ws/b0.out" "toy_kem.h"
python3 - "$ws/build/pk/build.json" <<'EOF' || fail "unpatched build.json"
import json, sys
e = json.load(open(sys.argv[1]))["instances"]["pk/Patch-1-128"]
assert e["kat"] == "BUILDFAIL" and e["patches"] == [], e
EOF

# With its patch it builds and passes its KATs.
ngcc add "$pkg" --id pk --force --patch "$fix/fix-include.diff" >"$ws/add1.out" 2>&1 ||
	fail "add --patch: $(cat "$ws/add1.out")"
has "$ws/add1.out" "patched with fix-include.diff (sha256 ${patch_sum:0:16}…): 1 file(s)"
grep -q '^#include "toy.h"$' "$ws/candidates/pk/source/$rel" || fail "the copy was not patched"
grep -q '^#include "toy_kem.h"$' "$pkg/$rel" || fail "the package itself was changed"
[ "$(find "$pkg" -type f -print0 | sort -z | xargs -0 sha256sum | sha256sum)" = "$pkg_sum" ] ||
	fail "the package changed"
cmp -s "$fix/fix-include.diff" "$ws/candidates/pk/patches/fix-include.diff" || fail "patch not kept"
conf=$ws/candidates/pk/candidate.conf
has "$conf" "[patch fix-include.diff]"
has "$conf" "sha256 = $patch_sum"
has "$conf" "touches = $rel"
ngcc build pk >"$ws/b1.out" 2>&1 || fail "patched build: $(cat "$ws/b1.out")"
ngcc kat pk >"$ws/k1.out" 2>&1 || fail "kat: $(cat "$ws/k1.out")"
has "$ws/k1.out" "RESULT pk Patch-1-128 PASS"
python3 - "$ws/build/pk/build.json" "$patch_sum" "$rel" <<'EOF' || fail "patched build.json"
import json, sys
e = json.load(open(sys.argv[1]))["instances"]["pk/Patch-1-128"]
assert e["kat"] == "PASS", e
assert e["patches"] == [{"file": "fix-include.diff",
                         "path": "candidates/pk/patches/fix-include.diff",
                         "sha256": sys.argv[2], "touches": [sys.argv[3]]}], e["patches"]
EOF

# Adding again with the same patch gives the same candidate: applied once,
# to a fresh copy.
cp -a "$ws/candidates/pk" "$ws/pk.before"
ngcc add "$pkg" --id pk --force --patch "$fix/fix-include.diff" >"$ws/add2.out" 2>&1 ||
	fail "add again: $(cat "$ws/add2.out")"
diff -r "$ws/pk.before" "$ws/candidates/pk" >"$ws/d.out" || fail "add again differs: $(cat "$ws/d.out")"
rm -rf "$ws/pk.before"

# Refusals: exit 3, a message naming the patch (and the hunk), no candidate.
refuse() {
	local id=$1 want=$2 rc=0
	shift 2
	ngcc add "$pkg" --id "$id" "$@" >"$ws/r.out" 2>&1 || rc=$?
	[ "$rc" = 3 ] || fail "$id: exit $rc, expected 3: $(cat "$ws/r.out")"
	has "$ws/r.out" "$want"
	[ ! -e "$ws/candidates/$id" ] || fail "$id: a refused add left candidates/$id"
	[ -z "$(find "$ws/candidates" -maxdepth 1 -name ".$id.*")" ] || fail "$id: a stage was left"
}
refuse stale "patch $fix/stale.diff, line 3: hunk 1 of $rel (@@ -3,7 +3,7 @@) does not apply" \
	--patch "$fix/stale.diff"
refuse escape "'../outside.c' is not a path below the package's top" --patch "$fix/escape.diff"
refuse twice "a patch named fix-include.diff is already given" \
	--patch "$fix/fix-include.diff" --patch "$fix/fix-include.diff"
[ ! -e "$(dirname "$pkg")/outside.c" ] && [ ! -e "$ws/candidates/outside.c" ] || fail "escape wrote"
# A patch after a good one: the whole add fails, the existing pk stays.
rc=0
ngcc add "$pkg" --id pk --force --patch "$fix/fix-include.diff" --patch "$fix/stale.diff" \
	>"$ws/r2.out" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "good+stale: exit $rc"
has "$conf" "[patch fix-include.diff]"
grep -q '^\[patch stale.diff\]' "$conf" && fail "stale.diff recorded"
# (Links: add never copies one into source/, and test_patch checks that a
# patch refuses one on its way.)

# A recorded patch changed after add: build refuses.
cp "$ws/candidates/pk/patches/fix-include.diff" "$ws/keep.diff"
echo "# edited" >>"$ws/candidates/pk/patches/fix-include.diff"
rc=0
ngcc build pk >"$ws/b2.out" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "build accepted a changed patch"
has "$ws/b2.out" "candidates/pk/patches/fix-include.diff: SHA-256"
cp "$ws/keep.diff" "$ws/candidates/pk/patches/fix-include.diff"

# The page names the patch; publish carries it, validate checks it.
ngcc measure --run runs/p pk --trial-target 0.002 --trials 1 --op-budget 0.05 --max-timeout 120 \
	--no-memory-pass --no-sampling --allow-unfixed-host=test >"$ws/m.out" 2>&1 || fail "measure: $(tail -20 "$ws/m.out")"
ngcc report --run runs/p --out "$ws/rep" >"$ws/rep.out" 2>&1 || fail "report: $(cat "$ws/rep.out")"
page=$(ls "$ws"/rep/*/pk.md)
has "$page" "- Patches: built with 1 patch: \`fix-include.diff\` (sha256 \`${patch_sum:0:16}…\`)"
ngcc publish --run runs/p --dataset ds --publish-unfixed >"$ws/pub.out" 2>&1 || fail "publish: $(cat "$ws/pub.out")"
sys=$(ls "$ws/ds/data")
cmp -s "$fix/fix-include.diff" "$ws/ds/data/$sys/patches/pk/fix-include.diff" || fail "patch not published"
has "$ws/ds/reports/$sys/pk.md" "- Patches: built with 1 patch:"
ngcc validate ds --publish-unfixed >"$ws/v.out" 2>&1 || fail "validate: $(tail -5 "$ws/v.out")"
echo "+" >>"$ws/ds/data/$sys/patches/pk/fix-include.diff"
rc=0
ngcc validate ds --publish-unfixed >"$ws/v2.out" 2>&1 || rc=$?
[ "$rc" != 0 ] || fail "validate accepted a changed patch"
has "$ws/v2.out" "data/$sys/patches/pk/fix-include.diff: SHA-256"
echo "ok"
