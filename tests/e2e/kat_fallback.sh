#!/usr/bin/env bash
# kat_fallback.sh — issue 27, items 3 and 8: a reference file cut short is
# a MISMATCH of the reference, not of the build (no harness-default
# rebuild); a MISMATCH the flags might explain falls back, and once the
# reference is mended the next `kat` gives the guide build back; a
# MISMATCH shows both values shortened, the line numbers in both files and
# a diff command that shows every difference.
# shared: example-built
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-katfb.XXXXXX)
trap 'rm -rf "$ws"' EXIT
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
shared_copy example-built "$ws"
ref=$ws/candidates/examplekem/source/Test_Vectors/KAT_KEM_EXAMPLEKEM_128.txt
cp "$ref" "$ws/ref.orig"
# "<flags> <guide_result> <kat>" of ExampleKEM-128 in build.json
entry() {
	python3 - "$ws/build/examplekem/build.json" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
e = [v for v in d["instances"].values() if v["label"] == "ExampleKEM-128"][0]
print(e["flags"], e.get("guide_result"), e["kat"])
EOF
}
[ "$(entry)" = "guide None PASS" ] || fail "the shared workspace starts as $(entry)"

# 1. The reference cut in the middle: MISMATCH, said to be the file's,
#    and the guide build stays.
head -c "$(($(stat -c %s "$ws/ref.orig") / 2 + 7))" "$ws/ref.orig" >"$ref"
rc=0
ngcc kat ExampleKEM-128 >"$ws/out" 2>"$ws/err" || rc=$?
[ "$rc" = 1 ] || fail "kat on a cut reference exited $rc: $(cat "$ws/err")"
has "$ws/out" "RESULT examplekem ExampleKEM-128 MISMATCH"
has "$ws/err" "MISMATCH from the reference file"
has "$ws/err" "not rebuilding with other flags"
hasnt "$ws/err" "rebuilding with harness-default"
[ "$(entry)" = "guide None MISMATCH" ] || fail "after a cut reference build.json says $(entry)"

# 2. One value changed (the reference still whole): the detail shows where
#    and what, the diff command shows the line, and the gate falls back.
python3 - "$ws/ref.orig" "$ref" <<'EOF'
import sys
lines = open(sys.argv[1]).read().split("\n")
seen = 0
for i, l in enumerate(lines):
    if l.startswith("SS = "):
        seen += 1
        if seen == 3:
            lines[i] = "SS = 00" + l[7:]
            break
open(sys.argv[2], "w").write("\n".join(lines))
EOF
line=$(grep -n '^SS = 00' "$ref" | head -1 | cut -d: -f1)
rc=0
ngcc kat ExampleKEM-128 >"$ws/out" 2>"$ws/err" || rc=$?
[ "$rc" = 1 ] || fail "kat on a changed reference exited $rc: $(cat "$ws/err")"
grep -q "^RESULT examplekem ExampleKEM-128 MISMATCH first difference at Count = 2, field SS (reference line $line, generated line $line): expected 00[0-9A-F]*…, got [0-9A-F]*… (from byte [12]; lengths 64 and 64)$" "$ws/out" ||
	fail "the MISMATCH does not show the values and lines: $(cat "$ws/out")"
has "$ws/err" "rebuilding with harness-default"
# The fallback's retest replaced the text; the diff command compares it.
cmd=$(sed -n 's/^ngcc-perf: examplekem ExampleKEM-128: every difference: //p' "$ws/err" | tail -1)
[ -n "$cmd" ] || fail "no diff command: $(cat "$ws/err")"
rc=0
(eval "$cmd") >"$ws/diff" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "the diff command exited $rc: $cmd: $(cat "$ws/diff")"
grep -q "^< SS = 00" "$ws/diff" || fail "the diff does not show the changed line: $(cat "$ws/diff")"
[ "$(grep -c '^[<>]' "$ws/diff")" = 2 ] || fail "the diff shows more than the one line: $(cat "$ws/diff")"
[ "$(entry)" = "harness-default MISMATCH MISMATCH" ] || fail "after the fallback build.json says $(entry)"

# 3. The reference mended: the next kat rebuilds with the guide flags,
#    passes, and the guide build is back.
cp "$ws/ref.orig" "$ref"
ngcc kat ExampleKEM-128 >"$ws/out" 2>"$ws/err" || fail "kat after the mend: $(cat "$ws/err")"
has "$ws/out" "RESULT examplekem ExampleKEM-128 PASS"
has "$ws/err" "rebuilding with the guide flags"
has "$ws/err" "the guide build is back"
[ "$(entry)" = "guide None PASS" ] || fail "after the mend build.json says $(entry)"
grep -q "^flags = guide$" "$ws/build/examplekem/kat/ExampleKEM-128.log" ||
	fail "the KAT log does not name the guide flags: $(head -20 "$ws/build/examplekem/kat/ExampleKEM-128.log")"
# and a further kat changes nothing
ngcc kat ExampleKEM-128 >"$ws/out" 2>"$ws/err" || fail "kat again: $(cat "$ws/err")"
hasnt "$ws/err" "rebuilding"
[ "$(entry)" = "guide None PASS" ] || fail "a second kat left $(entry)"
echo "kat_fallback: ok"
