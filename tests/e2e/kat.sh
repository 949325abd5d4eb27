#!/usr/bin/env bash
# kat.sh — the KAT gate end to end on the hostile fixture package: add,
# build, `kat --timeout 2`, then every instance's status, the evidence it
# leaves, kat.sha256 manifests, and that a hostile instance never stops the
# others from being tested.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
# Under ASan+UBSan the KAT child would catch the candidate's SIGSEGV itself
# and exit 1; let the signal kill it as in a normal build.
export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0
ws=$(mktemp -d /tmp/ngcc-e2e-kat.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"
fixture=$NGCC_FIXTURES/hostile/HostileKEM
# The hard timeout of a KAT run: HangDec spins through it three times
# (guide flags, fallback flags, one-record recheck); the other instances'
# runs take under 0.5 s, sanitized too.
timeout=2

ngcc add "$fixture" --id hostile >/dev/null
ngcc build >"$ws/build.out" 2>&1 || true

rc=0
ngcc kat --timeout "$timeout" >"$ws/kat.out" 2>"$ws/kat.err" || rc=$?
cat "$ws/kat.out"
[ "$rc" = 1 ] || fail "kat exited $rc, expected 1 (some instances do not pass)"

status_of() { awk -v l="$1" '$1 == "RESULT" && $2 == "hostile" && $3 == l { print $4 }' "${2:-$ws/kat.out}"; }
expect() {
	local label=$1; shift
	local got
	got=$(status_of "$label")
	for want in "$@"; do
		[ "$got" = "$want" ] && return 0
	done
	fail "$label: status '$got', expected one of: $*"
}

# One RESULT line per enabled instance, in a run that went on after each
# crash, hang and overflow.
[ "$(grep -c '^RESULT hostile ' "$ws/kat.out")" = 13 ] || fail "expected 13 RESULT lines"
expect Good PASS
expect LenNever PASS          # never-written lengths pass, as with the official driver
expect Chatty PASS            # megabytes on stdout neither block nor corrupt
expect WrongKat MISMATCH
expect NoKat NOKAT
expect DecWrong CRYPTOFAIL
expect OverrunCt OVERFLOW
expect LenAbove OVERFLOW
expect CrashEnc CRASH
expect ExitKeygen CRASH       # exit(0) inside keygen: no RESULT line
expect HangDec TIMEOUT
expect CompileError BUILDFAIL
# kem_dec missing: the link fails when undefined symbols are checked at
# build time; otherwise dlopen(RTLD_NOW) refuses the library.
expect NoDec BUILDFAIL LOADFAIL

grep -q '^RESULT hostile WrongKat MISMATCH first difference at Count = 3, field SS (reference line [0-9]*, generated line [0-9]*): expected [0-9A-F]*…, got [0-9A-F]*… (from byte [0-9]*; lengths 64 and 64)$' "$ws/kat.out" ||
	fail "MISMATCH detail does not name Count = 3 and field SS, the values and the lines"
grep -q '^RESULT hostile CrashEnc CRASH killed by signal 11 (SIGSEGV)$' "$ws/kat.out" ||
	fail "CrashEnc detail does not name SIGSEGV"
grep -q '^RESULT hostile ExitKeygen CRASH exit=0$' "$ws/kat.out" || fail "ExitKeygen detail"
grep -q "^RESULT hostile HangDec TIMEOUT timed out after $timeout s\$" "$ws/kat.out" || fail "HangDec detail"
grep -q '^RESULT hostile OverrunCt OVERFLOW .*guard zone after buffer ct' "$ws/kat.out" ||
	fail "OverrunCt detail does not name the ct guard zone"

# Evidence: a log ending in the same RESULT line, and the generated text.
kat=$ws/build/hostile/kat
for label in Good WrongKat CrashEnc HangDec ExitKeygen Chatty NoKat CompileError; do
	[ -f "$kat/$label.log" ] || fail "no $label.log"
	line=$(grep "^RESULT hostile $label " "$ws/kat.out")
	[ "$(tail -n 1 "$kat/$label.log")" = "$line" ] || fail "$label.log does not end in: $line"
	grep -q '^library_sha256 = ' "$kat/$label.log" || fail "$label.log: no library_sha256"
done
grep -q '^pk_bytes = 32$' "$kat/Good.log" || fail "Good.log: no API sizes"
grep -q '^reference = candidates/hostile/source/Test_Vectors/KAT_KEM_HOSTILE_GOOD.txt$' "$kat/Good.log" ||
	fail "Good.log: reference"
cmp -s "$kat/Good.txt" "$fixture/Test_Vectors/KAT_KEM_HOSTILE_GOOD.txt" || fail "Good.txt differs from the reference"
grep -q '^| keygen: ' "$kat/Chatty.log" || fail "Chatty.log has no stdout tail"
[ "$(wc -c <"$kat/Chatty.log")" -lt 20000 ] || fail "Chatty.log keeps more than the tail"
if grep -q "$ws" "$kat"/*.log; then fail "absolute workspace path in a KAT log"; fi
[ -z "$(ls -A "$kat" | grep '^\.work-' || true)" ] || fail "scratch folder left behind"

# A timed-out instance gets a one-record recheck (the campaign's PARTIAL
# when it matches); this one hangs in every record.
[ -f "$kat/HangDec.recheck.log" ] || fail "no HangDec.recheck.log"
grep -q '^records = 1$' "$kat/HangDec.recheck.log" || fail "the recheck is not one record"
[ "$(tail -n 1 "$kat/HangDec.recheck.log")" = "RESULT hostile HangDec TIMEOUT timed out after $timeout s" ] ||
	fail "HangDec.recheck.log result"
[ ! -e "$kat/Good.recheck.log" ] || fail "recheck of an instance that did not time out"

# build.json: status, log path and hash, kat_not_passed, fallback.
bj=$ws/build/hostile/build.json
python3 - "$bj" "$ws" <<'EOF' || fail "build.json KAT fields"
import hashlib, json, sys
d = json.load(open(sys.argv[1]))["instances"]
ws = sys.argv[2]
good = d["hostile/Good"]
assert good["kat"] == "PASS" and good["kat_not_passed"] is False, good
assert good["flags"] == "guide" and good["guide_result"] is None, good
log = open(ws + "/" + good["kat_log"], "rb").read()
assert hashlib.sha256(log).hexdigest() == good["kat_log_sha256"]
wrong = d["hostile/WrongKat"]
assert wrong["kat"] == "MISMATCH" and wrong["kat_not_passed"] is True, wrong
# Not PASS with the guide flags: rebuilt with harness-default, retested.
assert wrong["flags"] == "harness-default" and wrong["guide_result"] == "MISMATCH", wrong
nokat = d["hostile/NoKat"]
assert nokat["kat"] == "NOKAT" and nokat["flags"] == "guide", nokat
EOF
[ -f "$kat/WrongKat.guide.log" ] || fail "the guide run's log was not kept"
grep -q '^guide_result = MISMATCH$' "$kat/WrongKat.log" || fail "WrongKat.log: no guide_result"

# No child outlives the command (the hang was killed with its group).
if pgrep -f "ngcc-perf-kat .*$ws" >/dev/null; then fail "a KAT child is still running"; fi

# A kat.sha256 entry wins over the KAT file: WrongKat's code is correct,
# and the manifest has the right digest (canonical: no CR, no trailing
# blanks, no empty lines).
canon() { sed -e 's/[[:space:]]*$//' "$1" | grep -v '^$' | sha256sum | cut -d' ' -f1; }
good_kat=$fixture/Test_Vectors/KAT_KEM_HOSTILE_GOOD.txt
digest=$(canon "$good_kat")
nolen3=$(sed -e 's/[[:space:]]*$//' "$good_kat" | grep -v '^$' |
	awk '/^Count = /{n++} n <= 3' | grep -v '^[^=]*_Len *=' | sha256sum | cut -d' ' -f1)
cat >"$ws/candidates/hostile/kat.sha256" <<EOF
$digest strict WrongKat/KAT_KEM_HOSTILE_WRONGKAT.txt
$nolen3 nolen:3 LenNever/KAT_KEM_HOSTILE_LENNEVER.txt
0000000000000000000000000000000000000000000000000000000000000000 strict KAT_KEM_HOSTILE_GOOD.txt
EOF
# Disabled instances are not tested (and the hang need not be waited for).
conf=$ws/candidates/hostile/candidate.conf
awk '/^\[instance /{sec=$2} sec == "HangDec]" && /^enabled = /{$0 = "enabled = no"} {print}' \
	"$conf" >"$conf.new" && mv "$conf.new" "$conf"
# A library that cannot be loaded (here: emptied) is LOADFAIL.
: >"$ws/build/hostile/libNoKat.so"
rc=0
ngcc kat --timeout "$timeout" --no-fallback hostile >"$ws/kat2.out" 2>/dev/null || rc=$?
[ "$rc" = 1 ] || fail "second kat exited $rc"
[ "$(grep -c '^RESULT hostile ' "$ws/kat2.out")" = 12 ] || fail "expected 12 RESULT lines"
if grep -q '^RESULT hostile HangDec ' "$ws/kat2.out"; then fail "disabled HangDec was tested"; fi
[ "$(status_of WrongKat "$ws/kat2.out")" = PASS ] ||
	fail "manifest entry for WrongKat not used: $(grep WrongKat "$ws/kat2.out")"
grep -q '^RESULT hostile LenNever PASS' "$ws/kat2.out" || fail "nolen:3 manifest entry"
grep -q '^RESULT hostile NoKat LOADFAIL cannot load build/hostile/libNoKat.so: ' "$ws/kat2.out" ||
	fail "emptied library: $(grep NoKat "$ws/kat2.out")"
grep -q '^records = 3$' "$kat/LenNever.log" || fail "nolen:3 did not generate 3 records"
[ "$(grep -c '^Count = ' "$kat/LenNever.txt")" = 3 ] || fail "LenNever.txt should have 3 records"
grep -q "^manifest $nolen3 nolen:3 LenNever/KAT_KEM_HOSTILE_LENNEVER.txt$" "$kat/LenNever.log" ||
	fail "LenNever.log: manifest line"
grep -q '^RESULT hostile Good MISMATCH canonical digest .* differs from the manifest' "$ws/kat2.out" ||
	fail "bare-name manifest entry for Good not used"

# Only the named candidate's instances; an unknown id is bad input.
rc=0
ngcc kat nosuch >/dev/null 2>"$ws/err" || rc=$?
[ "$rc" = 3 ] || fail "kat nosuch exited $rc, expected 3"
grep -q 'nosuch' "$ws/err" || fail "no error naming the unknown candidate"
rc=0
ngcc kat --timeout -1 >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "bad --timeout exited $rc, expected 2"
echo "kat e2e: ok"
