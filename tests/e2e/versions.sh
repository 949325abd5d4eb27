#!/usr/bin/env bash
# versions.sh — package versions end to end (issue 28, item 4): the example
# KEM measured and published as version 1 (a copy of the shared campaign),
# re-added unchanged ("unchanged", exit 1, nothing touched), then a re-issue
# (tests/fixtures/versions: ExampleKEM-256 withdrawn, a comment of poly.c
# revised, the 128 KAT file with CRLF) added as version 2: version 1 kept in
# versions/1/, the user's algorithm name carried over; `changes` reports the
# instances, files with line counts and KAT digests; after build, kat and a
# tiny measure of version 2, publish keeps version 1's page under history/,
# writes the what-changed page with the timing comparison, and `site` and
# `validate` show and check both versions' pages.
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-versions.XXXXXX)
trap 'rm -rf "$ws" "$ws.log"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"

# expect RC CMD... — run CMD, its stdout and stderr in $ws.out; fail unless it exited RC.
expect() {
	local want=$1 rc=0
	shift
	"$@" >"$ws.out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || { cat "$ws.out"; fail "$* exited $rc, expected $want"; }
}

shared_copy example-campaign "$ws" "$ws.log"
[ "$(cat "$ws.log/campaign.rc")" = 0 ] || fail "the shared campaign failed"
sys=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["system_id"])' \
	"$ws/runs/c/campaign.json")
cand=$ws/candidates/examplekem
v2=$NGCC_FIXTURES/versions/ExampleKEM-v2
[ -d "$v2" ] || fail "fixture $v2 missing (make fixtures)"
tiny=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test)

# ---- version 1: recorded with its digest; published with a history -------
has "$cand/versions.conf" "[version 1]"
digest=$(grep '^package_sha256 = ' "$cand/versions.conf" | cut -d' ' -f3)
# the digest is the SHA-256 of the sha256sum listing of the package's files
want=$(cd "$NGCC_SRC/examples/ExampleKEM" && find . -type f -printf '%P\n' | LC_ALL=C sort |
	xargs -d '\n' sha256sum | sha256sum | cut -d' ' -f1)
[ "$digest" = "$want" ] || fail "package digest $digest, sha256sum listing gives $want"
expect 0 ngcc publish --run runs/c --dataset ds --publish-unfixed
has "$ws/ds/history/examplekem/pages.conf" "$sys = 1"
cp -a "$ws/ds" "$ws/ds1"   # version 1's dataset, for `changes --a`

# ---- the same package again: unchanged, nothing touched --------------------
before=$(cd "$cand" && find . -printf '%P %s %T@\n' | sort | sha256sum)
expect 1 ngcc add "$NGCC_SRC/examples/ExampleKEM" --id examplekem
has "$ws.out" "unchanged: ExampleKEM is the package of version 1"
[ "$before" = "$(cd "$cand" && find . -printf '%P %s %T@\n' | sort | sha256sum)" ] ||
	fail "an unchanged add touched candidates/examplekem"

# ---- a damaged versions.conf: refused, nothing touched ----------------------
cp "$cand/versions.conf" "$ws/versions.conf.good"
echo "[version 7]" >>"$cand/versions.conf"
expect 3 ngcc add "$v2" --id examplekem
has "$ws.out" "versions.conf"
has "$ws.out" "is not the next number"
[ ! -e "$cand/versions" ] || fail "a refused add made versions/"
cp "$ws/versions.conf.good" "$cand/versions.conf"

# ---- version 2: version 1 kept, the user's algorithm name carried ----------
sed -i 's/^algorithm = .*/algorithm = Example KEM (edited)/' "$cand/candidate.conf"
expect 0 ngcc add "$v2" --id examplekem
has "$ws.out" "version 2 of candidate 'examplekem'"
has "$ws.out" "kept the algorithm name 'Example KEM (edited)'"
has "$ws.out" "instance ExampleKEM-256 of version 1 is not in this version"
has "$cand/versions.conf" "[version 2]"
has "$cand/candidate.conf" "algorithm = Example KEM (edited)"
hasnt "$cand/candidate.conf" "[instance ExampleKEM-256]"
has "$cand/versions/1/candidate.conf" "[instance ExampleKEM-256]"
has "$cand/versions/1/candidate.conf" "algorithm = Example KEM (edited)"
[ -f "$cand/versions/1/source/Test_Vectors/KAT_KEM_EXAMPLEKEM_256.txt" ] || fail "version 1's source not kept"
[ -f "$cand/versions/1/build/kat/ExampleKEM-256.log" ] || fail "version 1's KAT logs not kept"

# ---- what changed, before version 2 is built -------------------------------
expect 0 ngcc changes examplekem --output changes.md
md=$ws/changes.md
has "$md" "# What changed: Example KEM (edited) (\`examplekem\`), version 1 → version 2"
has "$md" "| \`ExampleKEM-256\` | yes | — | removed |"
has "$md" "0 instance(s) added, 1 removed."
has "$md" "| \`Implementations/Reference_Implementation/ExampleKEM-128/src/poly.c\` | changed | 2 | 1 |"
has "$md" "| \`Test_Vectors/KAT_KEM_EXAMPLEKEM_256.txt\` | removed | 0 | 120 |"
has "$md" "| \`Test_Vectors/KAT_KEM_EXAMPLEKEM_128.txt\` | changed | 120 | 120 |"
old_kat=$(sha256sum <"$NGCC_SRC/examples/ExampleKEM/Test_Vectors/KAT_KEM_EXAMPLEKEM_128.txt" | cut -c1-16)
new_kat=$(sha256sum <"$v2/Test_Vectors/KAT_KEM_EXAMPLEKEM_128.txt" | cut -c1-16)
has "$md" "| \`ExampleKEM-128\` | submitted \`KAT_KEM_EXAMPLEKEM_128.txt\` | \`$old_kat\` | \`$new_kat\` | **changed** |"
has "$md" "Version 2 has not been built since it was added"
# version 1's run published again now that version 2 is added (not built):
# its pages stay version 1's
expect 0 ngcc publish --run runs/c --dataset ds --publish-unfixed
has "$ws.out" "version 2 was added after the build this run measured"
has "$ws/ds/history/examplekem/pages.conf" "$sys = 1"
expect 2 ngcc changes examplekem --from 2
expect 2 ngcc changes examplekem --a runs/c

# ---- version 2 built, measured and published -------------------------------
expect 0 ngcc build examplekem
expect 0 ngcc kat examplekem
expect 0 ngcc measure examplekem --run runs/c2 "${tiny[@]}"
expect 0 ngcc changes examplekem --output changes.md
has "$md" "| \`ExampleKEM-128\` | reproduced by ngcc-perf |"
has "$md" "| \`ExampleKEM-128\` | \`pk_bytes\` | 800 | 800 | same |"
# the timing comparison of version 1's dataset and version 2's run (exit 1
# would be a regression: the tiny plan is noisy, so either is right here)
rc=0
ngcc changes examplekem --a ds1 --b runs/c2 --output changes.md >"$ws.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat "$ws.out"; fail "changes --a --b exited $rc"; }
# (the table is compare's: only its row of keygen is looked for)
hasnt "$md" "Not compared here"
has "$md" "| examplekem | \`ExampleKEM-128\` | keygen |"
# the same from version 1's run, read with the build records kept with it
scratch=$(ls /tmp | grep -c '^ngcc-perf-changes\.' || true)
rc=0
ngcc changes examplekem --a runs/c --b runs/c2 --output changes-runs.md >"$ws.out" 2>&1 || rc=$?
[ "$rc" = 0 ] || [ "$rc" = 1 ] || { cat "$ws.out"; fail "changes --a runs/c exited $rc"; }
has "$ws/changes-runs.md" "| examplekem | \`ExampleKEM-128\` | keygen |"
[ "$(ls /tmp | grep -c '^ngcc-perf-changes\.' || true)" = "$scratch" ] ||
	fail "changes left its scratch workspace in /tmp"
expect 0 ngcc publish --run runs/c2 --dataset ds --publish-unfixed
hist=$ws/ds/history/examplekem
has "$hist/pages.conf" "$sys = 2"
has "$hist/1/$sys/examplekem.md" "*Archived page of package version 1"
has "$hist/1/$sys/examplekem.md" "ExampleKEM-256"
ls "$hist/1/$sys/charts/" | grep -q '^examplekem-.*\.svg$' || fail "version 1's charts not kept"
hasnt "$hist/changes-1-2.md" "Not compared"
has "$hist/changes-1-2.md" "| examplekem | \`ExampleKEM-128\` | keygen |"
has "$hist/changes-1-2.md" "only in A: \`examplekem/ExampleKEM-256\`"
has "$hist/index.md" "[$sys (archived)](1/$sys/examplekem.md)"
has "$hist/index.md" "[$sys (current)](../../reports/$sys/examplekem.md)"
has "$hist/index.md" "[from version 1](changes-1-2.md)"
hasnt "$ws/ds/reports/$sys/examplekem.md" "ExampleKEM-256"

# ---- the site shows both versions; validate checks the history ---------------
expect 0 ngcc site --dataset ds
for f in history.html history/examplekem/index.html history/examplekem/changes-1-2.html \
	"history/examplekem/1/$sys/examplekem.html"; do
	[ -f "$ws/ds/site/$f" ] || fail "site/$f missing"
done
has "$ws/ds/site/history/examplekem/index.html" "href=\"1/$sys/examplekem.html\""
has "$ws/ds/site/history/examplekem/index.html" "href=\"../../$sys/examplekem.html\""
expect 0 ngcc validate ds
# a hostile dataset: a history folder that is a link is named, never read
ln -s "$hist" "$ws/ds/history/elsewhere"
expect 1 ngcc validate ds
has "$ws.out" "history/elsewhere: not a candidate's history folder"
expect 0 ngcc site --dataset ds --out "$ws/site2"
[ ! -e "$ws/site2/history/elsewhere" ] || fail "site followed a linked history folder"
rm "$ws/ds/history/elsewhere"
printf 'x' >>"$hist/1/$sys/examplekem.md"
expect 1 ngcc validate ds
has "$ws.out" "PROBLEM history: history/examplekem/SHA256SUMS: the files of history/examplekem/ differ"
echo "versions: ok"
