#!/usr/bin/env bash
# hash_kat.sh — hash packages through add, build and kat: the hostile hash
# fixtures (tests/fixtures/hash/README.md) end in their statuses with a
# status per KAT file, the quirky package builds and passes from its files
# and from a manifest alone, --skip-kat-file gives PARTIAL (never PASS), and
# the KAT_2_33 and KAT_Loop files run their own children with the stand-in
# message and iteration count (NGCC_PERF_KAT_2_33_BITS,
# NGCC_PERF_KAT_LOOP_ITERATIONS; the official run is `make check-slow`).
# HH-Slow spins in KAT_Loop only, so a --timeout of a few seconds is all
# the first kat waits for.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
# Under ASan+UBSan the KAT child would catch the candidate's SIGSEGV itself
# and exit 1; let the signal kill it as in a normal build.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0
export NGCC_PERF_KAT_2_33_BITS=16777216 NGCC_PERF_KAT_LOOP_ITERATIONS=1000
ws=$(mktemp -d /tmp/ngcc-e2e-hashkat.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
fx=$NGCC_FIXTURES/hash

status_of() { awk -v i="$1" -v l="$2" '$1 == "RESULT" && $2 == i && $3 == l { print $4 }' "$3"; }
expect() { # ID LABEL STATUS FILE
	local got
	got=$(status_of "$1" "$2" "$4")
	[ "$got" = "$3" ] || fail "$1 $2: status '$got', expected $3 ($(grep "RESULT $1 $2 " "$4"))"
}
file_line() { # ID LABEL TAG STATUS: the per-file line on stderr and in the log
	grep -q "^kat $1 $2 $3: $4" "$ws/kat.err" || fail "no '$3: $4' line for $1 $2 on stderr"
	grep -q "^FILE $3 $4" "$ws/build/$1/kat/$2.log" || fail "no FILE $3 $4 line in $2.log"
}

# ---- the hostile hash package -------------------------------------------------
ngcc add "$fx/HostileHash" --id hh >"$ws/add.out"
grep -q '^HH-Good  *hash  *reference .* ngcc-perf/-  *yes 4/4 hash KAT files' "$ws/add.out" ||
	fail "add does not show the hash instance with its DRNG only and 4 KAT files"
grep -qx 'digest_bits = 256' "$ws/candidates/hh/candidate.conf" || fail "no digest_bits in candidate.conf"
[ "$(grep -c '^kat_file = Test_Vectors/KAT_' "$ws/candidates/hh/candidate.conf")" = 16 ] ||
	fail "expected 4 kat_file lines per instance"
ngcc build hh >"$ws/build.out" 2>&1 || { cat "$ws/build.out"; fail "build failed"; }
rc=0
ngcc kat hh --timeout 2 --no-fallback >"$ws/kat.out" 2>"$ws/kat.err" || rc=$?
cat "$ws/kat.out"
[ "$rc" = 1 ] || fail "kat exited $rc, expected 1"
expect hh HH-Good PASS "$ws/kat.out"
expect hh HH-DropBits MISMATCH "$ws/kat.out"
expect hh HH-CrashLong CRASH "$ws/kat.out"
expect hh HH-Slow TIMEOUT "$ws/kat.out"
grep -q '^RESULT hh HH-DropBits MISMATCH KAT_2_12: MISMATCH first difference at record 2 (Msg_Len = 1), field Dst (reference line 9, generated line 9): expected [0-9A-F]*…, got [0-9A-F]*… (from byte 1; lengths 64 and 64); KAT_2_23, KAT_2_33, KAT_Loop: PASS$' "$ws/kat.out" ||
	fail "HH-DropBits: the detail does not name KAT_2_12's first difference and the passing files"
grep -q '^RESULT hh HH-CrashLong CRASH KAT_2_33: CRASH killed by signal 11 (SIGSEGV); KAT_2_12, KAT_2_23, KAT_Loop: PASS$' "$ws/kat.out" ||
	fail "HH-CrashLong: the crash in KAT_2_33 must not hide the other files"
grep -q '^RESULT hh HH-Slow TIMEOUT KAT_Loop: TIMEOUT timed out after 2 s; KAT_2_12, KAT_2_23, KAT_2_33: PASS$' "$ws/kat.out" ||
	fail "HH-Slow: KAT_Loop's timeout must not hide the other files"
for tag in KAT_2_12 KAT_2_23 KAT_2_33 KAT_Loop; do
	file_line hh HH-Good "$tag" PASS
	[ -s "$ws/build/hh/kat/HH-Good.$tag.txt" ] || fail "no generated text HH-Good.$tag.txt"
done
file_line hh HH-CrashLong KAT_2_33 CRASH
file_line hh HH-CrashLong KAT_Loop PASS
file_line hh HH-Slow KAT_Loop TIMEOUT
# The stand-ins are recorded: a log never passes them off as the official files.
grep -q '^KAT_2_33.message_bits = 16777216 (stand-in for 8589934592, from NGCC_PERF_KAT_2_33_BITS)$' \
	"$ws/build/hh/kat/HH-Good.log" || fail "the KAT_2_33 stand-in is not in the log"
grep -q '^KAT_Loop.iterations = 1000 (stand-in for 1000000, from NGCC_PERF_KAT_LOOP_ITERATIONS)$' \
	"$ws/build/hh/kat/HH-Good.log" || fail "the KAT_Loop stand-in is not in the log"
grep -q '^timeout_applies_to = each KAT file$' "$ws/build/hh/kat/HH-Good.log" || fail "log lacks the timeout scope"
# Every file's reference is in the header, before any candidate output
# (a reader of the log stops at the first "--- " block).
[ "$(awk '/^--- /{exit} /^KAT_(2_12|2_23|2_33|Loop)\.reference = candidates\/hh\/source\/Test_Vectors\//{n++} END{print n+0}' \
	"$ws/build/hh/kat/HH-Good.log")" = 4 ] || fail "the four references are not in the log's header"
python3 - "$ws/build/hh/build.json" <<'EOF' || fail "build.json KAT fields"
import json, sys
inst = json.load(open(sys.argv[1]))["instances"]
assert inst["hh/HH-Good"]["kat"] == "PASS" and not inst["hh/HH-Good"]["kat_not_passed"]
assert inst["hh/HH-Slow"]["kat"] == "TIMEOUT" and inst["hh/HH-Slow"]["kat_not_passed"]
assert inst["hh/HH-CrashLong"]["kat"] == "CRASH"
EOF

# ---- skipping a file: visible, PARTIAL, measurable but never PASS ---------------
# (HH-Good and HH-CrashLong only; fallback rebuilds on)
for l in HH-DropBits HH-Slow; do
	perl -0pi -e "s/(\[instance $l\](?:(?!\n\[).)*?)enabled = yes/\1enabled = no/s" \
		"$ws/candidates/hh/candidate.conf"
done
rc=0
ngcc kat hh --skip-kat-file KAT_2_33 --timeout 20 >"$ws/kat.out" 2>"$ws/kat.err" || rc=$?
[ "$rc" = 1 ] || fail "kat with a skipped file exited $rc, expected 1 (not every file was checked)"
expect hh HH-Good PARTIAL "$ws/kat.out"
grep -q '^RESULT hh HH-Good PARTIAL KAT_2_33: SKIPPED (--skip-kat-file KAT_2_33); KAT_2_12, KAT_2_23, KAT_Loop: PASS$' \
	"$ws/kat.out" || fail "PARTIAL does not say which file was skipped"
file_line hh HH-Good KAT_2_33 SKIPPED
[ ! -e "$ws/build/hh/kat/HH-Good.KAT_2_33.txt" ] || fail "a skipped file left an old text behind"
grep -q 'HH-Good: PARTIAL with the guide flags; rebuilding' "$ws/kat.err" &&
	fail "a PARTIAL instance was rebuilt with other flags"
expect hh HH-CrashLong PARTIAL "$ws/kat.out"   # its crash is in the skipped file
rc=0
ngcc kat hh --skip-kat-file KAT_9 >/dev/null 2>"$ws/err" || rc=$?
[ "$rc" = 2 ] && grep -q 'expected KAT_2_12, KAT_2_23, KAT_2_33 or KAT_Loop' "$ws/err" ||
	fail "an unknown --skip-kat-file is not a usage error"

# ---- QuirkHash: odd headers, CRLF, own DRNG, unprefixed helpers ----------------
ngcc add "$fx/QuirkHash" --id quirk >"$ws/add.out"
grep -qx 'digest_bits = 512' "$ws/candidates/quirk/candidate.conf" ||
	fail "DIGEST_BIT_LENGTH through params.h's macro was not found"
grep -qx 'own_drng = yes' "$ws/candidates/quirk/candidate.conf" || fail "own DRNG copy not seen"
ngcc build quirk >"$ws/build.out" 2>&1 || { cat "$ws/build.out"; fail "QuirkHash did not build (a clash with our auxiliary functions?)"; }
ngcc kat quirk >"$ws/kat.out" 2>"$ws/kat.err" || { cat "$ws/kat.out" "$ws/kat.err"; fail "QuirkHash KAT"; }
expect quirk Quirk-512 PASS "$ws/kat.out"
grep -q '^digest_bits = 512$' "$ws/build/quirk/kat/Quirk-512.log" || fail "the log lacks the digest length"

# ---- the same package from a manifest alone -------------------------------------
ngcc add "$fx/QuirkHashManifestOnly" --id quirkm --kat-manifest "$fx/quirkhash.kat.sha256" >/dev/null
grep -q '^kat_file' "$ws/candidates/quirkm/candidate.conf" && fail "the manifest-only package has KAT files"
ngcc build quirkm >/dev/null 2>&1
ngcc kat quirkm >"$ws/kat.out" 2>"$ws/kat.err" || { cat "$ws/kat.out"; fail "manifest-only KAT"; }
expect quirkm Quirk-512 PASS "$ws/kat.out"
[ "$(grep -c '^manifest [0-9a-f]\{64\} strict Quirk-512/KAT_' "$ws/build/quirkm/kat/Quirk-512.log")" = 4 ] ||
	fail "the log does not name the four manifest entries"
[ "$(awk '/^--- /{exit} /^manifest /{n++} END{print n+0}' "$ws/build/quirkm/kat/Quirk-512.log")" = 4 ] ||
	fail "the manifest entries are not in the log's header"
# A manifest that lists only some files: the others have no reference.
grep -v KAT_Loop "$fx/quirkhash.kat.sha256" >"$ws/three.sha256"
cp "$ws/three.sha256" "$ws/candidates/quirkm/kat.sha256"
rc=0
ngcc kat quirkm >"$ws/kat.out" 2>/dev/null || rc=$?
expect quirkm Quirk-512 NOKAT "$ws/kat.out"
grep -q 'KAT_Loop: NOKAT' "$ws/kat.out" || fail "the file without an entry is not named"
echo "ok: hash KAT gate"
