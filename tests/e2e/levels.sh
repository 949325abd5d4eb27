#!/usr/bin/env bash
# levels.sh — packages whose parameter sets share a folder or a code tree
# (tests/fixtures/levels/, docs/iccs.md §6.2): `add` finds every level and
# names it by its level, builds each with exactly its own headers, defines
# and libraries and no edit, and the KATs pass; add --explain prints where
# each fact came from; a header in two include folders is refused naming
# both; the consistency checks report a KAT file claimed twice or by
# nobody, two instances that would build the same library, and two levels
# whose getters report the same sizes, and an #include whose file differs
# in case (SiblingLevelKEM itself is Windows-written: CRLF, GBK comment,
# unused <immintrin.h>, programs with main(), shipped binaries, and builds
# as is); every layout's levels are measured briefly, and a short campaign
# measures the #include-driven package (its Makefile's define and -lgmp
# applied).
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc=$NGCC_BIN/ngcc-perf
fix=$NGCC_FIXTURES/levels
tmp=$(mktemp -d /tmp/ngcc-e2e-levels.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
ws=$tmp/ws
mkdir -p "$ws"

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

# labels ID — the instance labels of a candidate, one line, sorted.
labels() {
	sed -n 's/^\[instance \(.*\)\]$/\1/p' "$ws/candidates/$1/candidate.conf" | sort | tr '\n' ' '
}

# 1. Each layout: the right instances, named by level; built with no edit; KATs pass.
for spec in "IncPathKEM incpath IncPathKEM-48 IncPathKEM-80" \
	    "FileLevelKEM filelevel FileLevel-160 FileLevel-96" \
	    "SiblingLevelKEM sibling SiblingLevel-48 SiblingLevel-64" \
	    "MacroLevelKEM macro MacroLevel-1 MacroLevel-5"; do
	set -- $spec
	pkg=$1 id=$2
	shift 2
	run 0 "$ngcc" -C "$ws" add "$fix/$pkg" --id "$id"
	hasnt "$tmp/out" "claimed by" # every KAT file claimed once
	hasnt "$tmp/out" "skipped"    # no two levels alike
	[ "$(labels "$id")" = "$* " ] || fail "$pkg: instances '$(labels "$id")', want '$* '"
	run 0 "$ngcc" -C "$ws" build "$id"
	run 0 "$ngcc" -C "$ws" kat "$id"
	for l in "$@"; do has "$tmp/out" "RESULT $id $l PASS"; done
	hasnt "$tmp/err" "same sizes"
done
# Every layout's levels are measured: each operation of each level has a
# complete timing record of its own library.
run 0 "$ngcc" -C "$ws" measure incpath filelevel sibling macro --run runs/layouts \
	--trial-target 0.002 --trials 1 --disturbed-retries 0 --no-memory-pass --no-sampling \
	--allow-unfixed-host=test
for pair in incpath/IncPathKEM-48 incpath/IncPathKEM-80 filelevel/FileLevel-96 \
	    filelevel/FileLevel-160 sibling/SiblingLevel-48 sibling/SiblingLevel-64 \
	    macro/MacroLevel-1 macro/MacroLevel-5; do
	for op in keygen enc dec; do
		f=$ws/runs/layouts/records/${pair%%/*}/${pair#*/}__$op.json
		[ -f "$f" ] || fail "no record $f"
		python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["status"]=="complete", r["status"]' "$f" ||
			fail "$f not complete"
	done
done

# The #include-driven levels: api.c never compiled alone, the Makefile's
# define and library applied, each with the line it came from.
conf=$ws/candidates/filelevel/candidate.conf
hasnt "$conf" "source = api.c"
has "$conf" "define = LVL_TAG=7"
has "$conf" "lib = -lgmp"
has "$conf" "# define LVL_TAG=7: Implementations/Reference_Implementation/FileLevel/Makefile:3"
has "$conf" "kat_reference = Test_Vectors/96/KAT_KEM_AlgorithmInstance.txt"
python3 - "$ws/build/filelevel/build.json" <<'PY' || fail "the compile and link of the FileLevel levels"
import json, sys
doc = json.load(open(sys.argv[1]))
for label, n in (("FileLevel-96", "96"), ("FileLevel-160", "160")):
    e = doc["instances"]["filelevel/" + label]
    # the package's sources (ngcc-perf's own shim is compiled too)
    mine = [c for c in e["compile_commands"] if any(a.startswith("candidates/") and a.endswith(".c") for a in c)]
    names = sorted(a.rsplit("/", 1)[1] for c in mine for a in c if a.endswith(".c"))
    assert names == sorted([f"api_{n}.c", "auxfunc.c", "drng.c", "lvl.c", "sm3.c"]), names
    assert all("-DLVL_TAG=7" in c for c in mine), "define missing"
    assert "-lgmp" in e["link_command"], e["link_command"]
PY

# 2. add --explain: files, include folders, defines and libraries with their origin, KAT file, why.
run 0 "$ngcc" -C "$ws" add "$fix/FileLevelKEM" --id filelevel --force --explain
has "$tmp/out" "instance FileLevel-96 (kem, reference)"
has "$tmp/out" "sources compiled (5): api_96.c auxfunc.c drng.c lvl.c sm3.c"
has "$tmp/out" "include folders, in order (1): ."
has "$tmp/out" "from the build files: lib -lgmp: Implementations/Reference_Implementation/FileLevel/Makefile:4"
has "$tmp/out" "why: not compiled on its own: api.c (#included by api_160.c, api_96.c; it has an #error guard)"
has "$tmp/out" "why: KAT file Test_Vectors/96/KAT_KEM_AlgorithmInstance.txt"
has "$tmp/out" "why: not compiled: bench_levels.c (a KAT driver, test or benchmark by its name)"
run 0 "$ngcc" -C "$ws" add "$fix/IncPathKEM" --id incpath --force --explain
has "$tmp/out" "include folders, in order (5): . .. ../../ref/48 ../../../Lib/drng ../../../Lib/auxfunc"
has "$tmp/out" "why: drng.c: the package's own copy in the library folder 'Implementations/Lib/drng'"
has "$tmp/out" "the other levels' folders left out: 80"

# 3. A header in two include folders of one instance: refused, naming both; nothing added.
run 3 "$ngcc" -C "$ws" add "$fix/AmbiguousKEM" --id amb
has "$tmp/err" "header 'params.h'"
has "$tmp/err" "'include' and 'src'"
[ ! -e "$ws/candidates/amb" ] || fail "a refused package left a candidate"

# 4. Consistency checks that catch a wrong guess.
cp -R "$fix/FileLevelKEM" "$tmp/OneKatFolder"
rm -r "$tmp/OneKatFolder/Test_Vectors/160"
cp "$tmp/OneKatFolder/Test_Vectors/96/KAT_KEM_AlgorithmInstance.txt" \
	"$tmp/OneKatFolder/Test_Vectors/KAT_KEM_Intermediate_Values.txt"
run 0 "$ngcc" -C "$ws" add "$tmp/OneKatFolder" --id onekat
has "$tmp/out" "note: KAT file 'Test_Vectors/96/KAT_KEM_AlgorithmInstance.txt' is claimed by both 'FileLevel-160' and 'FileLevel-96'"
has "$tmp/out" "note: KAT file 'Test_Vectors/KAT_KEM_Intermediate_Values.txt' is claimed by no instance"

cp -R "$fix/SiblingLevelKEM" "$tmp/Twins"
twin=$tmp/Twins/Implementations/Reference_Implementation
cp -R "$twin/SiblingLevel" "$twin/SiblingLevelCopy"
run 0 "$ngcc" -C "$ws" add "$tmp/Twins" --id twins
has "$tmp/out" "would build the same library"

cp -R "$fix/SiblingLevelKEM" "$tmp/CaseKEM"
mv "$tmp/CaseKEM/Implementations/Reference_Implementation/SiblingLevel/lvl.h" \
	"$tmp/CaseKEM/Implementations/Reference_Implementation/SiblingLevel/LVL.h"
run 0 "$ngcc" -C "$ws" add "$tmp/CaseKEM" --id casekem
has "$tmp/out" "includes \"lvl.h\", but the file is 'LVL.h' (in '.'): the names differ in case"

cp -R "$fix/MacroLevelKEM" "$tmp/SameSizes"
perl -pi -e 's/#define LVL_N 112/#define LVL_N 40/' \
	"$tmp/SameSizes/Implementations/Reference_Implementation/MacroLevel/params.h"
run 0 "$ngcc" -C "$ws" add "$tmp/SameSizes" --id samesizes
run 0 "$ngcc" -C "$ws" build samesizes
run 1 "$ngcc" -C "$ws" kat samesizes # level 5 no longer matches its KAT file
has "$tmp/err" "instances 'MacroLevel-1' and 'MacroLevel-5' report the same sizes (pk 40, sk 72, ct 32, ss 32)"

# 5. Measured briefly: a campaign over the #include-driven package.
run 0 "$ngcc" -C "$ws" campaign "$fix/FileLevelKEM" --run runs/lv \
	--trial-target 0.002 --trials 2 --disturbed-retries 0 --no-memory-pass --no-repeat --no-sampling \
	--allow-unfixed-host=test
for l in FileLevel-96 FileLevel-160; do
	for op in keygen enc dec; do
		f=$ws/runs/lv/records/filelevelkem/${l}__$op.json
		[ -f "$f" ] || fail "no record $f"
		python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); assert r["status"]=="complete", r["status"]' "$f" ||
			fail "$f not complete"
	done
done
echo "levels: ok"
