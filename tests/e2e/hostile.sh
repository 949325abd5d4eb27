#!/usr/bin/env bash
# hostile.sh — untrusted input end to end (docs/security.md): a published
# dataset with a FIFO for a KAT log, a kat_log path out of the dataset,
# symbolic links (a KAT log, systems.csv, DS/site), records with wrong
# types and absurd values read by report, publish and a resumed measure, a
# corrupt campaign.json and build.json; a reference KAT cut short and one
# holding escape sequences and a 4 MB field name; packages cut short (tar at
# an entry boundary, zip between entries), names with line breaks, a package
# folder holding the workspace, NUL bytes in candidate.conf and kat.sha256,
# conflicting manifest entries and a 1 MB manifest file name.  Every case
# must end with a clear message and the documented exit code, never hang
# (each command runs under a timeout) and never read or write outside.
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
tmp=$(mktemp -d /tmp/ngcc-e2e-hostile.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
ws=$tmp/ws
# KEEP_GOING=1 (to show which cases an older build fails): report every
# failure with its case number and go on; the exit code is still 1.
case_no=0 failures=0
case_() { case_no=$1; }
fail() {
	echo "FAIL [case $case_no]: $*" >&2
	[ -n "${KEEP_GOING:-}" ] || exit 1
	failures=$((failures + 1))
}

# run EXPECTED_RC CMD... — under a timeout (exit 124 = it hung); stdout and
# stderr in $tmp/out and $tmp/err.
# Reading a FIFO or /dev/zero must end at once: those cases get a short
# timeout (QUICK=30, room for a sanitized build on a busy host), so that an
# older build is stopped before it has read gigabytes; a command that
# measures gets a long one.
run() {
	local want=$1 rc=0 limit=${QUICK:-120}
	shift
	timeout "$limit" "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "--- stdout"; tail -20 "$tmp/out"; echo "--- stderr"; tail -20 "$tmp/err"
		[ "$rc" != 124 ] || fail "hung (killed after $limit s): $*"
		fail "exit $rc, want $want: $*"
	fi
}
has() { grep -qF -- "$2" "$1" || { tail -20 "$1"; fail "'$2' not in $1"; }; }
hasnt() { ! grep -qF -- "$2" "$1" || { tail -20 "$1"; fail "'$2' unexpectedly in $1"; }; }
ngcc=$NGCC_BIN/ngcc-perf

shared_copy example-campaign "$ws" "$tmp/log"
[ "$(cat "$tmp/log/campaign.rc")" = 0 ] || fail "the shared campaign failed"
cand=examplekem
sys=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["system_id"])' "$ws/runs/c/campaign.json")
run 0 "$ngcc" -C "$ws" publish --run runs/c --dataset ds --publish-unfixed
ds=$ws/ds
logrel=$(cd "$ds/data/$sys" && ls kat/$cand/*.log | head -1)
rec=$(cd "$ws/runs/c" && ls records/$cand/*.json | head -1)
echo "SECRET-OUTSIDE;x;y;z" >"$tmp/secret.txt"
fresh() { rm -rf "$tmp/d"; cp -a "$ds" "$tmp/d"; }

# ---- datasets ---------------------------------------------------------------------
case_ 1
# 1. A FIFO for a KAT log: validate and site answer at once, never block.
fresh
rm "$tmp/d/data/$sys/$logrel"
mkfifo "$tmp/d/data/$sys/$logrel"
QUICK=30 run 1 "$ngcc" validate "$tmp/d"
has "$tmp/out" "PROBLEM data/$sys/$logrel: a symbolic link or special file"
has "$tmp/out" "not a regular file"
QUICK=30 run 3 "$ngcc" site --dataset "$tmp/d"
has "$tmp/err" "special file"

case_ 2
# 2. kat_log leaving the dataset is never read (it would read /dev/zero
# without end); nor is a KAT log that is a link to it.
fresh
python3 - "$tmp/d/data/$sys/build.json" <<'EOF'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
for e in d["instances"].values():
    e["kat_log"] = "../../../../../../../../../dev/zero"
json.dump(d, open(p, "w"), indent=1)
EOF
QUICK=30 run 1 "$ngcc" validate "$tmp/d"
has "$tmp/out" "cannot be read: the path leaves its folder"
fresh
ln -sf /dev/zero "$tmp/d/data/$sys/$logrel"
QUICK=30 run 3 "$ngcc" site --dataset "$tmp/d"
has "$tmp/err" "symbolic link"

case_ 3
# 3. Links in a dataset are not followed: the site does not republish what
# they point at (a linked KAT log, a linked systems.csv).
fresh
ln -sf "$tmp/secret.txt" "$tmp/d/systems.csv"
run 0 "$ngcc" site --dataset "$tmp/d"
! grep -rqF SECRET-OUTSIDE "$tmp/d/site" || fail "site republished a file from outside the dataset"
run 1 "$ngcc" validate "$tmp/d"
has "$tmp/out" "PROBLEM systems.csv: a symbolic link or special file"
fresh
rm "$tmp/d/data/$sys/$logrel"
ln -s "$tmp/secret.txt" "$tmp/d/data/$sys/$logrel"
run 3 "$ngcc" site --dataset "$tmp/d"
[ ! -d "$tmp/d/site" ] || ! grep -rqF SECRET-OUTSIDE "$tmp/d/site" || fail "linked KAT log copied"

case_ 13
# 13. DS/site as a link: never written through.
fresh
mkdir "$tmp/elsewhere"
ln -s "$tmp/elsewhere" "$tmp/d/site"
run 2 "$ngcc" site --dataset "$tmp/d"
has "$tmp/err" "is a symbolic link"
[ -z "$(ls -A "$tmp/elsewhere")" ] || fail "site wrote through the DS/site link"

case_ 12
# 12. Records with wrong types, negative or absurd values: refused by report
# and publish (not only validate), and redone by a resumed measure.
edit_record() { # FILE KEY VALUE(JSON)
	python3 - "$@" <<'EOF'
import json, sys
p, key, value = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
d = json.load(open(p)); d[key] = value
json.dump(d, open(p, "w"), indent=1)
EOF
}
rm -rf "$tmp/w2" && cp -a "$ws" "$tmp/w2"
for bad in '"fast"' '-0.5' '1e300'; do
	edit_record "$tmp/w2/runs/c/$rec" mean_seconds "$bad"
	run 3 "$ngcc" -C "$tmp/w2" report --run runs/c
	has "$tmp/err" "mean_seconds"
	has "$tmp/err" "$rec"
	rm -rf "$tmp/w2/ds2"
	run 3 "$ngcc" -C "$tmp/w2" publish --run runs/c --dataset ds2 --publish-unfixed
	has "$tmp/err" "mean_seconds"
done
edit_record "$tmp/w2/runs/c/$rec" mean_seconds 0.001
edit_record "$tmp/w2/runs/c/$rec" trials '[{"calls": -3, "ns": 5}]'
# (a measurement: it may wait for a CPU other suites on the host measure on)
QUICK=900 run 0 "$ngcc" -C "$tmp/w2" measure --run runs/c --trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test
has "$tmp/err" "corrupt record"
has "$tmp/err" "trials[0].calls"
python3 - "$tmp/w2/runs/c/$rec" <<'EOF' || fail "measure resume kept the record with a negative call count"
import json, sys
d = json.load(open(sys.argv[1]))
sys.exit(0 if all(t["calls"] > 0 for t in d["trials"]) and d["status"] == "complete" else 1)
EOF

case_ 11
# 11. A corrupt campaign.json is bad input (3), not a system error (4); a
# corrupt build.json stops build before it prints "ok", with the remedy.
rm -rf "$tmp/w3" && cp -a "$ws" "$tmp/w3"
echo '{"schema": "ngcc-perf/campaign/1", "phases": 7' >"$tmp/w3/runs/c/campaign.json"
run 3 "$ngcc" -C "$tmp/w3" measure --run runs/c --trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test
has "$tmp/err" "campaign.json"
echo '{"schema": "ngcc-perf/campaign/1", "phases": 7}' >"$tmp/w3/runs/c/campaign.json"
run 3 "$ngcc" -C "$tmp/w3" measure --run runs/c --trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test
has "$tmp/err" "phases is an integer"
echo 'not json' >"$tmp/w3/build/$cand/build.json"
run 3 "$ngcc" -C "$tmp/w3" build
hasnt "$tmp/out" " ok "
has "$tmp/err" "build/$cand/build.json"
has "$tmp/err" "remove it"

# ---- packages ------------------------------------------------------------------------
pkg=$NGCC_SRC/examples/ExampleKEM
mkdir -p "$tmp/p"

case_ 7
# 7. A tar cut exactly between two entries is not a smaller package.
(cd "$NGCC_SRC/examples" && tar cf "$tmp/p/full.tar" ExampleKEM)
python3 - "$tmp/p/full.tar" "$tmp/p/ExampleKEM.tar" <<'EOF'
import sys, tarfile
members = tarfile.open(sys.argv[1]).getmembers()
cut = members[len(members) // 2].offset
open(sys.argv[2], "wb").write(open(sys.argv[1], "rb").read()[:cut])
EOF
run 3 "$ngcc" -C "$tmp/wp" add "$tmp/p/ExampleKEM.tar"
has "$tmp/err" "cut short"

case_ 10
# 10. A zip cut between entries: a message that says so, no "(null)".
(cd "$NGCC_SRC/examples" && zip -qr "$tmp/p/full.zip" ExampleKEM)
python3 - "$tmp/p/full.zip" "$tmp/p/ExampleKEM.zip" <<'EOF'
import sys, zipfile
infos = zipfile.ZipFile(sys.argv[1]).infolist()
cut = infos[len(infos) // 2].header_offset
open(sys.argv[2], "wb").write(open(sys.argv[1], "rb").read()[:cut])
EOF
run 3 "$ngcc" -C "$tmp/wp" add "$tmp/p/ExampleKEM.zip"
hasnt "$tmp/err" "(null)"
has "$tmp/err" "ExampleKEM.zip"

case_ 8
# 8. Line breaks in names: the file is skipped with a note naming it; a
# package named so is refused by name (never "Invalid argument", exit 4).
cp -a "$pkg" "$tmp/p/Nl"
inst=$tmp/p/Nl/Implementations/Reference_Implementation/ExampleKEM-128
printf 'int x;\n' >"$inst/src/bad"$'\n'"name.c"
mkdir "$inst/cr"$'\r'"dir"
run 0 "$ngcc" -C "$tmp/wp" add "$tmp/p/Nl" --id nl
has "$tmp/out" 'bad\x0aname.c'
has "$tmp/out" 'cr\x0ddir'
run 0 "$ngcc" -C "$tmp/wp" build nl
cp -a "$pkg" "$tmp/p/Bad"$'\n'"Pkg"
run 3 "$ngcc" -C "$tmp/wp" add "$tmp/p/Bad"$'\n'"Pkg" --id badpkg
has "$tmp/err" 'Bad\x0aPkg'

case_ 4
# 4. A reference KAT cut cleanly after 1 of 10 records is not a PASS; and
# 5. KAT text from a package (an escape sequence and a 4 MB field name in a
# reference) reaches the RESULT line and the logs escaped and bounded.
cp -a "$pkg" "$tmp/p/Cut"
tv=$tmp/p/Cut/Test_Vectors
python3 - "$tv/KAT_KEM_EXAMPLEKEM_128.txt" "$tv/KAT_KEM_EXAMPLEKEM_256.txt" <<'EOF'
import sys
cut, odd = sys.argv[1], sys.argv[2]
t = open(cut, "rb").read()
open(cut, "wb").write(t[:t.index(b"Count = 1\n")])
t = open(odd, "rb").read()
j = t.index(b"SS = ", t.index(b"Count = 2\n"))
open(odd, "wb").write(t[:j] + b"\x1b]0;owned\x07\x1b[2J" + b"K" * 4000000 + b"SS = 00\n" + t[j:])
EOF
run 0 "$ngcc" -C "$tmp/wk" add "$tmp/p/Cut" --id cut
run 0 "$ngcc" -C "$tmp/wk" build cut
run 1 "$ngcc" -C "$tmp/wk" kat cut
has "$tmp/out" "RESULT cut ExampleKEM-128 MISMATCH the reference has 1 record(s), the replay made 10"
hasnt "$tmp/out" "RESULT cut ExampleKEM-128 PASS"
case_ 5
has "$tmp/out" 'RESULT cut ExampleKEM-256 MISMATCH first difference at Count = 2: reference has field \x1b]0;owned\x07\x1b[2JK'
! grep -q $'\x1b' "$tmp/out" "$tmp/err" "$tmp/wk/build/cut/kat/"*.log || fail "a raw escape byte reached the terminal or a KAT log"
[ "$(wc -L <"$tmp/out")" -lt 1000 ] || fail "a RESULT line of $(wc -L <"$tmp/out") bytes"

case_ 9
# 9. A package folder holding the workspace is refused, not copied into itself.
mkdir -p "$tmp/p/Outer"
cp -a "$pkg/." "$tmp/p/Outer/"
run 3 "$ngcc" -C "$tmp/p/Outer/ws" add "$tmp/p/Outer" --id outer
has "$tmp/err" "contains the workspace"
[ ! -e "$tmp/p/Outer/ws/candidates/outer" ] || fail "a refused add left a candidate"

case_ 6
# 6. NUL bytes: candidate.conf and kat.sha256 are text; conflicting manifest
# entries are refused, not first-wins.
run 0 "$ngcc" -C "$tmp/wn" add "$pkg" --id nul
conf=$tmp/wn/candidates/nul/candidate.conf
python3 - "$conf" <<'EOF'
import sys
p = sys.argv[1]; t = open(p, "rb").read()
i = t.index(b"[instance ExampleKEM-256]")
open(p, "wb").write(t[:i] + b"\0" + t[i:])
EOF
run 3 "$ngcc" -C "$tmp/wn" build nul
has "$tmp/err" "NUL byte"
digest=$(printf '%064d' 0)
printf '%s strict ExampleKEM-128/KAT_KEM_EXAMPLEKEM_128.txt\n\0%s strict ExampleKEM-256/KAT_KEM_EXAMPLEKEM_256.txt\n' \
	"$digest" "$digest" >"$tmp/p/nul.sha256"
run 3 "$ngcc" -C "$tmp/wn" add "$pkg" --id man --kat-manifest "$tmp/p/nul.sha256"
has "$tmp/err" "nul.sha256:2: a NUL byte"
printf '%s strict A/K.txt\n%s nolen A/K.txt\n' "$digest" "$digest" >"$tmp/p/dup.sha256"
run 3 "$ngcc" -C "$tmp/wn" add "$pkg" --id man --kat-manifest "$tmp/p/dup.sha256"
has "$tmp/err" "dup.sha256:2: 'A/K.txt' is listed again"
printf '%s strict A/K.txt\n%s strict A/K.txt\n' "$digest" "$digest" >"$tmp/p/same.sha256"
run 0 "$ngcc" -C "$tmp/wn" add "$pkg" --id man --kat-manifest "$tmp/p/same.sha256"

case_ 14
# 14. A 1 MB file name in a manifest: refused by add, and by kat when the
# workspace's kat.sha256 was edited to hold one (never E2BIG without RESULT).
long=$(head -c 1000000 /dev/zero | tr '\0' 'k')
printf '%s strict ExampleKEM-128/%s\n' "$digest" "$long" >"$tmp/p/long.sha256"
run 3 "$ngcc" -C "$tmp/wn" add "$pkg" --id long --kat-manifest "$tmp/p/long.sha256"
has "$tmp/err" "longer than 255 bytes"
run 0 "$ngcc" -C "$tmp/wn" build man
cp "$tmp/p/long.sha256" "$tmp/wn/candidates/man/kat.sha256"
run 3 "$ngcc" -C "$tmp/wn" kat man
has "$tmp/err" "longer than 255 bytes"

[ "$failures" -eq 0 ] || { echo "hostile: $failures failure(s)" >&2; exit 1; }
echo "hostile: ok"
