#!/usr/bin/env bash
# aarch64.sh — AArch64 end to end under user-mode emulation: the tree
# cross-built with `make ARCH=aarch64` (obj-aarch64/bin; `make check` and
# `make check-aarch64` build it where the cross compiler is installed) runs
# through qemu-user, registered with binfmt_misc by scripts/bootstrap-aarch64.
# Candidate libraries are compiled for AArch64 through the candidate
# compiler setting (NGCC_PERF_CC=aarch64-linux-gnu-gcc).  The path: selftest;
# add, build and kat of the four example types; check (functional round
# trips; the sanitizer and valgrind checks recorded as skipped, since neither
# runs under emulation); a short measure of every operation, a memory pass
# of one selected operation and a profile; report; then a native x86-64 run
# and the emulated one published into one dataset (systems.csv names them
# x86_1 and arm_1), its site, compare pages and validate, and the refusal
# of one system id claimed by two machines; and an x86-64 driver naming an
# AArch64 library as such.  The host check must see the emulation, and
# every record and page must say so.  The cycle counter's AArch64 path runs
# emulated too: perf_event_open reaches this host's kernel, which has no
# PMU, so cntvct_el0 is read; tests/tools/counter_probe.c, compiled here,
# opens it with fake cpufreq trees (pinned: core cycles; not pinned:
# reference ticks), and every record and page names reference ticks of
# cntvct_el0 with its frequency.
# Where the emulated tree cannot run here, one "SKIP: AArch64 not checked:"
# line says why and the test exits 77 (reported as skipped, never passed).
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
arm=${NGCC_AARCH64_BIN:-$NGCC_SRC/obj-aarch64/bin}
# NGCC_REQUIRE_AARCH64=1 (make check-aarch64, CI): not being able to run is
# a failure, not a skip.
not_checked() {
	[ "${NGCC_REQUIRE_AARCH64:-0}" = 1 ] && fail "AArch64 not checked: $*"
	echo "SKIP: AArch64 not checked: $*"
	exit 77
}

# The emulated tree has no sanitizer build: it runs in the plain pass.
if [ "${NGCC_TEST_PASS:-plain}" = sanitized ]; then
	echo "SKIP: the emulated AArch64 path runs in the plain pass only"
	exit 0
fi
[ -x "$arm/ngcc-perf" ] ||
	not_checked "no cross-built tree ($arm/ngcc-perf): run \`make check-aarch64\`"
command -v aarch64-linux-gnu-gcc >/dev/null ||
	not_checked "no AArch64 cross compiler (aarch64-linux-gnu-gcc): run \`make check-aarch64\` as root"
file_machine=$(od -An -tx1 -j18 -N2 "$arm/ngcc-perf" | tr -d ' \n')
[ "$file_machine" = b700 ] || fail "$arm/ngcc-perf is not an AArch64 program (e_machine $file_machine)"
if ! out=$("$arm/ngcc-perf" --version 2>&1); then
	not_checked "$arm/ngcc-perf does not start here ($out); binfmt_misc needs qemu-aarch64: run scripts/bootstrap-aarch64 as root"
fi

ws=$(mktemp -d /tmp/ngcc-e2e-aarch64.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$ws"' EXIT
export NGCC_PERF_CC=aarch64-linux-gnu-gcc NGCC_PERF_CXX=aarch64-linux-gnu-g++
ngcc() { "$arm/ngcc-perf" -C "$ws" "$@"; }
unfixed=--allow-unfixed-host="emulated test"
plan=(--trial-target 0.002 --trials 1 --disturbed-retries 0 --op-budget 0.05 --max-timeout 300 "$unfixed")

# ---- the programs are AArch64 and see the emulation ---------------------------
"$arm/ngcc-perf" selftest >"$ws/selftest.out" 2>&1 || fail "selftest: $(tail -5 "$ws/selftest.out")"
has "$ws/selftest.out" "0 failed"
rc=0
ngcc check-host >"$ws/host.out" 2>&1 || rc=$?
[ "$rc" = 1 ] || fail "check-host under emulation exited $rc, expected 1: $(cat "$ws/host.out")"
has "$ws/host.out" "HOST: emulated (aarch64 program on a"
has "$ws/host.out" "not a performance figure"

# ---- the counter: cntvct_el0, converted at a pinned clock or not ----------
lib_arm="$arm/../libngcc.a"
[ -f "$lib_arm" ] || fail "no $lib_arm beside the AArch64 programs"
aarch64-linux-gnu-gcc -std=c11 -D_GNU_SOURCE -I"$NGCC_SRC/src" -o "$ws/counter_probe" \
	"$NGCC_SRC/tests/tools/counter_probe.c" "$lib_arm" -ljansson -lm 2>"$ws/probe.err" ||
	fail "compile tests/tools/counter_probe.c: $(cat "$ws/probe.err")"
# Every CPU this process may run on is pinned at 2.71 GHz; user access to
# the PMU is allowed, but the event does not open here.
root="$ws/pinned-root"
mkdir -p "$root/proc/sys/kernel"
echo 1 >"$root/proc/sys/kernel/perf_user_access"
for d in /sys/devices/system/cpu/cpu[0-9]*; do
	f="$root$d/cpufreq"
	mkdir -p "$f"
	echo performance >"$f/scaling_governor"
	echo 2710000 >"$f/scaling_min_freq"
	echo 2710000 >"$f/scaling_max_freq"
done
"$ws/counter_probe" "$root" >"$ws/probe.out" 2>&1 || fail "counter_probe (pinned): $(cat "$ws/probe.out")"
for want in name=pinned-clock-cycles pinned_clock_hz=2710000000 bracket=ok \
	"why_fallback=perf_event_open(PERF_COUNT_HW_CPU_CYCLES, user mode) failed"; do
	has "$ws/probe.out" "$want"
done
grep -qE '^counter_frequency_hz=[1-9][0-9]*$' "$ws/probe.out" || fail "no cntfrq_el0: $(cat "$ws/probe.out")"
for f in "$root"/sys/devices/system/cpu/cpu*/cpufreq; do echo schedutil >"$f/scaling_governor"; done
"$ws/counter_probe" "$root" >"$ws/probe.out" 2>&1 || fail "counter_probe (not pinned): $(cat "$ws/probe.out")"
for want in name=cntvct pinned_clock_hz=0 bracket=ok; do has "$ws/probe.out" "$want"; done
grep -qE '; cntvct_el0 ticks stay reference ticks: CPU [0-9]+: governor is schedutil$' "$ws/probe.out" ||
	fail "no reason for reference ticks: $(cat "$ws/probe.out")"

# ---- add, build, kat: four types ----------------------------------------------
# One host, two systems: the native runs are x86_1, the emulated ones arm_1.
printf 'ID;Arch;Hostname;Description\nx86_1;x86_64;%s;this host\narm_1;AArch64;%s;this host, AArch64 under qemu-user\n' \
	"$(hostname)" "$(hostname)" >"$ws/systems.csv"
for p in ExampleKEM ExampleSIG ExampleKEX ExampleHash; do
	ngcc add "$NGCC_SRC/examples/$p" >"$ws/add.out" 2>&1 || fail "add $p: $(cat "$ws/add.out")"
done
ngcc build >"$ws/build.out" 2>&1 || fail "build: $(cat "$ws/build.out")"
for lib in "$ws"/build/*/lib*.so; do
	[ "$(od -An -tx1 -j18 -N2 "$lib" | tr -d ' \n')" = b700 ] || fail "$lib is not AArch64"
done
has "$ws/build/examplekem/build.json" '"compiler_command": "aarch64-linux-gnu-gcc"'
has "$ws/build/examplekem/build.json" '"compiler_target": "aarch64-linux-gnu"'
rc=0
ngcc kat --skip-kat-file KAT_2_33 >"$ws/kat.out" 2>&1 || rc=$?
n_pass=$(grep -cE '^RESULT [^ ]+ [^ ]+ PASS$' "$ws/kat.out" || true)
n_partial=$(grep -cE '^RESULT [^ ]+ [^ ]+ PARTIAL KAT_2_33: SKIPPED' "$ws/kat.out" || true)
n_all=$(grep -c '^RESULT ' "$ws/kat.out" || true)
# the example's AVX2 variant is x86-64 code: not compiled here, never run
has "$ws/build.out" "BUILD examplekem ExampleKEM-128+avx2 UNSUPPORTED_CPU: needs AVX2, an x86_64 extension; the compiler builds for aarch64"
n_unsup=$(grep -cE '^RESULT examplekem ExampleKEM-128\+avx2 UNSUPPORTED_CPU ' "$ws/kat.out" || true)
[ "$n_unsup" = 1 ] || fail "the AVX2 variant under emulation: $(cat "$ws/kat.out")"
[ "$n_all" -ge 9 ] && [ $((n_pass + n_partial + n_unsup)) = "$n_all" ] && [ "$n_pass" -ge 6 ] ||
	fail "kat under emulation (exit $rc): $n_pass PASS, $n_partial PARTIAL of $n_all: $(cat "$ws/kat.out")"
for t in kem sig kex; do
	grep -qE "^RESULT example$t [^ ]+ PASS$" "$ws/kat.out" || fail "no $t PASS: $(cat "$ws/kat.out")"
done

# ---- a library for another machine is named as such ---------------------------
lib=$(ls "$ws"/build/examplekem/lib*.so | head -1)
rc=0
"$NGCC_BIN/ngcc-perf-driver" --lib "$lib" --op keygen --trials 1 --iters 1 --warmups 0 \
	>"$ws/wrong.out" 2>&1 3>/dev/null || rc=$?
[ "$rc" != 0 ] || fail "the x86-64 driver loaded an AArch64 library"
has "$ws/wrong.out" "is AArch64, this driver is x86-64"

# ---- check: functional round trips; the rest skipped, with the reason --------
ngcc check --rounds 3 >"$ws/check.out" 2>&1 || fail "check: $(cat "$ws/check.out")"
has "$ws/check.out" "functional clean"
has "$ws/check.out" "sanitizers skipped: not run under user-mode emulation"
has "$ws/check.out" "consttime skipped: not run under user-mode emulation"
rec=$(ls "$ws"/build/examplekem/check/*__memcheck.json | head -1)
has "$rec" '"status": "skipped"'

# ---- measure, memory, profile -------------------------------------------------
# Every operation of the four types is timed; the memory pass (a 64 MiB
# painted stack scanned after each call: seconds per process under
# emulation) runs for one KEM operation, selected and resumed into the
# same run.
run=runs/arm
ngcc measure --run "$run" --no-memory-pass --no-sampling "${plan[@]}" >"$ws/measure.out" 2>&1 ||
	fail "measure: $(tail -20 "$ws/measure.out")"
ngcc measure examplekem/ExampleKEM-128 --op keygen --run "$run" "${plan[@]}" >"$ws/memory.out" 2>&1 ||
	fail "measure examplekem with its memory pass: $(tail -20 "$ws/memory.out")"
ngcc profile --run "$run" --trial-target 0.002 "$unfixed" >"$ws/profile.out" 2>&1 ||
	fail "profile: $(tail -20 "$ws/profile.out")"
n=0
for r in "$ws/$run"/records/*/*.json; do
	has "$r" '"status": "complete"'
	has "$r" 'emulated (aarch64 program on a'
	has "$r" '"name": "cntvct"'
	has "$r" '"counter_frequency_hz": '
	n=$((n + 1))
done
# KEM 2 x 3, SIG 2 x 3, KEX 7 + 8 passes and phases, hash 2 x 8 lengths
[ "$n" = 43 ] || fail "$n timing records under $ws/$run/records, expected 43"
m=$(ls "$ws/$run"/memory/examplekem/*.json | wc -l)
[ "$m" = 1 ] || fail "$m memory records for examplekem, expected 1"
for r in "$ws/$run"/memory/examplekem/*.json; do has "$r" '"status": "complete"'; done
p=$(ls "$ws/$run"/profile/*/*.json | wc -l)
[ "$p" -ge 6 ] || fail "only $p profiles"

# ---- report, publish, site, validate ------------------------------------------
ngcc report --run "$run" >"$ws/report.out" 2>&1 || fail "report: $(cat "$ws/report.out")"
page="$ws/$run/reports/arm_1/examplekem.md"
[ -f "$page" ] || fail "no $page (systems.csv names this AArch64 run arm_1): $(cat "$ws/report.out")"
has "$page" "performance on AArch64 (system arm_1)"
has "$page" "NICCS ARM self-assessment guide"
has "$page" "emulated (aarch64 program on a"
has "$page" "| cycle counter | cntvct at "
has "$page" " (reference ticks of cntvct_el0 at "
has "$ws/$run/reports/arm_1/method.md" "cycles are reference ticks of cntvct_el0 at "

# ---- one dataset, two systems: a native x86-64 run beside the emulated one ----
ws86="$ws/x86"
mkdir -p "$ws86"
cp "$ws/systems.csv" "$ws86/"
env -u NGCC_PERF_CC -u NGCC_PERF_CXX "$NGCC_BIN/ngcc-perf" -C "$ws86" campaign "$NGCC_SRC/examples/ExampleKEM" --run runs/x86 "${plan[@]}" --no-repeat \
	>"$ws/x86.out" 2>&1 || fail "native campaign: $(tail -20 "$ws/x86.out")"
grep -q '"system_id": "x86_1"' "$ws86/runs/x86/campaign.json" || fail "the native run is not x86_1"
ds="$ws/ds"
"$NGCC_BIN/ngcc-perf" -C "$ws86" publish --run runs/x86 --dataset "$ds" --publish-unfixed \
	>"$ws/publish.out" 2>&1 || fail "publish x86: $(cat "$ws/publish.out")"
ngcc publish --run "$run" --dataset "$ds" --publish-unfixed >"$ws/publish.out" 2>&1 ||
	fail "publish arm: $(cat "$ws/publish.out")"
[ -d "$ds/data/x86_1" ] && [ -d "$ds/data/arm_1" ] || fail "the dataset lacks a system: $(ls "$ds/data")"
has "$ds/reports/arm_1/examplekem.md" "system: [x86_1](../x86_1/examplekem.md) · **arm_1**"
has "$ds/reports/x86_1/examplekem.md" "system: **x86_1** · [arm_1](../arm_1/examplekem.md)"
# a candidate measured on one system only is not linked from the other
has "$ds/reports/arm_1/examplesig.md" "system: x86_1 · **arm_1**"
has "$ds/reports/compare.md" "## arm_1 against x86_1"
has "$ds/reports/compare.md" "⚠ arm_1: emulated (aarch64 program on a"
has "$ds/reports/compare.md" "Per candidate: [examplekem](compare-examplekem.md)"
has "$ds/reports/compare-examplekem.md" "# examplekem ExampleKEM — on every system"
has "$ds/reports/compare-examplekem.md" "Pages: [examplekem on x86_1](x86_1/examplekem.md), [examplekem on arm_1](arm_1/examplekem.md)."
[ ! -e "$ds/reports/compare-examplesig.md" ] || fail "a comparison page for a candidate measured on one system"
ngcc site --dataset "$ds" >"$ws/site.out" 2>&1 || fail "site: $(cat "$ws/site.out")"
for f in index.html compare.html compare-examplekem.html x86_1/examplekem.html arm_1/examplekem.html; do
	[ -f "$ds/site/$f" ] || fail "the site has no $f"
done
has "$ds/site/arm_1/examplekem.html" "not a performance figure"
"$NGCC_BIN/ngcc-perf" validate "$ds" >"$ws/validate.out" 2>&1 || fail "validate: $(cat "$ws/validate.out")"
has "$ws/validate.out" "0 problem(s)"
ngcc validate "$ds" >"$ws/validate.out" 2>&1 || fail "validate (AArch64): $(cat "$ws/validate.out")"

# ---- one system id, two machines: refused ---------------------------------------
cp -a "$ws86/runs/x86" "$ws86/runs/claims-arm"
sed -i 's/"system_id": "x86_1"/"system_id": "arm_1"/' "$ws86/runs/claims-arm/campaign.json"
"$NGCC_BIN/ngcc-perf" -C "$ws86" publish --run runs/claims-arm --dataset "$ws/ds2" --publish-unfixed \
	>"$ws/publish.out" 2>&1 || fail "publish the relabelled run: $(cat "$ws/publish.out")"
rc=0
ngcc publish --run "$run" --dataset "$ws/ds2" --publish-unfixed >"$ws/publish.out" 2>&1 || rc=$?
[ "$rc" = 3 ] || fail "publishing arm_1 over another machine's arm_1 exited $rc: $(cat "$ws/publish.out")"
has "$ws/publish.out" "system arm_1 was measured on host"
has "$ws/publish.out" "architecture x86_64"
echo "aarch64: the emulated path passed ($n timing records; a two-system dataset validated)"
