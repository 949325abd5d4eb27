#!/usr/bin/env bash
# check_host.sh — `ngcc-perf check-host` on this machine (docs/method.md §3).
# Accepts a fixed host or an unfixed one, but the output must be coherent:
# exit 0 iff there is no HOST line, `host ready` vs `<n> problem(s)` with n
# equal to the number of HOST lines, every problem worded as in the table,
# and --json agreeing with the text.  On a VM without a PMU (our CI) it
# must name the missing counter or the hypervisor.
set -euo pipefail

: "${NGCC_BIN:?set NGCC_BIN to the directory holding ngcc-perf}"
ngcc=$NGCC_BIN/ngcc-perf
work=$(mktemp -d /tmp/ngcc-e2e-check-host.XXXXXX)
trap 'rm -rf "$work"' EXIT

fail() { echo "check_host.sh: $*" >&2; exit 1; }
# The probes at their default lengths (the rest of the suite shortens them).
unset NGCC_PERF_HOST_PROBE_SCALE

rc=0
"$ngcc" -C "$work" check-host >"$work/out" 2>"$work/err" || rc=$?
cat "$work/out"
[ "$rc" -eq 0 ] || [ "$rc" -eq 1 ] || fail "exit code $rc (want 0 or 1); stderr: $(cat "$work/err")"

grep -q '^architecture ' "$work/out" || fail "no architecture row"
grep -q '^counter ' "$work/out" || fail "no counter row"
grep -q '^clock ' "$work/out" || fail "no clock row"

nhost=$(grep -c '^HOST: ' "$work/out" || true)
last=$(tail -n 1 "$work/out")
if [ "$nhost" -eq 0 ]; then
	[ "$rc" -eq 0 ] || fail "exit $rc without HOST lines"
	[ "$last" = "host ready" ] || fail "last line '$last', want 'host ready'"
else
	[ "$rc" -eq 1 ] || fail "exit $rc with $nhost HOST lines"
	[ "$last" = "$nhost problem(s)" ] || fail "last line '$last', want '$nhost problem(s)'"
	# issue 27: each problem says how to fix it, and the override is named
	nfix=$(grep -A1 '^HOST: ' "$work/out" | grep -c '^  to fix: ' || true)
	[ "$nfix" = "$nhost" ] || fail "$nfix 'to fix' line(s) for $nhost problem(s): $(cat "$work/out")"
	grep -q '^measure refuses this host: .*--allow-unfixed-host=REASON' "$work/out" ||
		fail "exit 1 without naming the override: $(cat "$work/out")"
fi

# Every problem is one of the table's wordings.
while IFS= read -r line; do
	p=${line#HOST: }
	case $p in
	"no guide configuration" | "hardware cycle counter unavailable" | \
	"turbo/boost is enabled" | "governor is "* | "clock not pinned" | \
	"shares its core (SMT on)" | "not a performance core" | \
	"CPU "*" cannot be used" | "clock not steady ("*" GHz)" | \
	"running under a hypervisor") ;;
	*) fail "unexpected problem wording: '$p'" ;;
	esac
done < <(grep '^HOST: ' "$work/out")

# A host without a usable PMU must say so, and name its fallback counter.
if grep -q '^counter  *\(tsc-fenced\|cntvct\|none\)' "$work/out"; then
	grep -qx 'HOST: hardware cycle counter unavailable' "$work/out" ||
		fail "fallback counter in use but no 'hardware cycle counter unavailable'"
	grep -q 'fallback because perf_event_open' "$work/out" ||
		fail "the counter row does not say why perf was not used"
fi
if grep -qw hypervisor /proc/cpuinfo || [ -s /sys/hypervisor/type ]; then
	grep -qx 'HOST: running under a hypervisor' "$work/out" ||
		fail "hypervisor present but not reported"
fi

# --json: same problems, same exit code, a complete environment block.
jrc=0
"$ngcc" -C "$work" check-host --json >"$work/json" 2>"$work/err" || jrc=$?
[ "$jrc" -eq "$rc" ] || fail "--json exit $jrc, text exit $rc"
# The JSON is indented by one per level (evidence conventions), so plain
# line matching is enough; no JSON tool is required on the test host.
json=$work/json
sed -n '/^ "problems": \[/,/^ \]/p' "$json" | grep '^  "' | sed 's/^  "//; s/",\{0,1\}$//' >"$work/jprob" || true
grep '^HOST: ' "$work/out" | sed 's/^HOST: //' >"$work/tprob" || true
cmp -s "$work/jprob" "$work/tprob" || fail "--json problems differ from the text: $(cat "$work/jprob")"
if [ "$nhost" -eq 0 ]; then want_ready=true; else want_ready=false; fi
grep -q "^ \"host_ready\": $want_ready" "$json" || fail "--json host_ready is not $want_ready"
for k in hostname architecture cpu_model machine cpu_number logical_cpus_online \
	virtualized microcode memory_total_kib os kernel compiler build_tool \
	perf_event_paranoid cpufreq_governor cpufreq_driver cpufreq_min_khz \
	cpufreq_max_khz intel_pstate_no_turbo cpufreq_boost smt_control core_clock_hz \
	core_clock_mhz counter isolcpus nohz_full deepest_cstate thp aslr load_average; do
	grep -q "^  \"$k\": " "$json" || fail "--json environment lacks $k"
done
counter=$(sed -n 's/^   "name": "\(.*\)",$/\1/p' "$json")
[ -n "$counter" ] || fail "--json counter has no name"
if [ "$counter" != none ]; then
	grep -q '^  "core_clock_mhz": [1-9][0-9]*[05]0,$' "$json" || fail "core_clock_mhz not a positive multiple of 50"
	grep -q '^   "overhead_ticks_median": [1-9]' "$json" || fail "no positive counter overhead"
fi
if [ "$counter" != perf-user-cycles ]; then
	grep -q '^   "why_fallback": "perf_event_open' "$json" || fail "fallback counter $counter without a reason"
	grep -qx '  "hardware cycle counter unavailable",\{0,1\}' "$json" ||
		fail "fallback counter $counter but no counter problem in --json"
fi

# Usage errors exit 2.
urc=0
"$ngcc" -C "$work" check-host --cpu notanumber >/dev/null 2>&1 || urc=$?
[ "$urc" -eq 2 ] || fail "--cpu notanumber exited $urc, want 2"
# (into a file: stdout to a pipe is line-buffered, so `| grep -q` would
# end the writer with SIGPIPE under pipefail)
"$ngcc" -C "$work" check-host --help >"$work/help"
grep -q 'usage: ngcc-perf check-host' "$work/help" || fail "--help"
echo "check_host.sh: ok (exit $rc, $nhost problem(s))"
