#!/usr/bin/env bash
# nothing_to_do.sh — "nothing to do" is an error, never "0 record(s)
# complete" with exit 0: every command of `ngcc-perf --help` refuses a
# missing -C directory without creating it (only add and campaign create a
# workspace, and say so); measure, calibrate and profile in an empty
# workspace or one with nothing built exit 3 with a hint and leave no run
# directory; a wrong candidate id is "no such candidate" with the list;
# report over a run without records exits 3.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
tmp=$(mktemp -d /tmp/ngcc-e2e-nothing.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
ngcc() { "$NGCC_BIN/ngcc-perf" "$@"; }
unfixed=(--allow-unfixed-host=test --trial-target 0.002 --trials 2)

# expect RC CMD... — run CMD, its output in $tmp/out; fail unless it exited RC.
expect() {
	local want=$1 rc=0
	shift
	"$@" >"$tmp/out" 2>&1 || rc=$?
	[ "$rc" = "$want" ] || fail "$* exited $rc, expected $want: $(cat "$tmp/out")"
}

# ---- a mistyped -C, for every command the tool lists ----------------------
mapfile -t commands < <(ngcc --help | sed -n '/^Commands:/,/^$/p' | awk 'NF > 1 { print $1 }')
[ "${#commands[@]}" -ge 10 ] || fail "could not read the command list of --help"
cd "$tmp"
for c in "${commands[@]}"; do
	case $c in add | campaign) continue ;; esac
	expect 3 ngcc -C nosuch "$c"
	[ ! -e nosuch ] || fail "$c created the missing workspace nosuch"
	grep -q "workspace 'nosuch' (-C) does not exist" out || fail "$c: $(cat out)"
	# --help still works there
	expect 0 ngcc -C nosuch "$c" --help
done
# add creates it and says so; a failed add leaves nothing behind
expect 3 ngcc -C nosuch add "$tmp/no-such-package"
[ ! -e nosuch ] || fail "a failed add left the workspace it created"
expect 0 ngcc -C newws add "$NGCC_SRC/examples/ExampleKEM" --id kem-ex
grep -q "created the workspace newws" out || fail "add did not say it created the workspace: $(cat out)"
[ -f newws/candidates/kem-ex/candidate.conf ] || fail "add did not add into newws"

# ---- an empty workspace ----------------------------------------------------
mkdir empty
for phase in measure calibrate profile; do
	expect 3 ngcc -C empty "$phase" --run r "${unfixed[@]}"
	grep -q "nothing to do: workspace .* has no candidates" out || fail "$phase: $(cat out)"
	grep -q "ngcc-perf add PACKAGE" out || fail "$phase gave no hint: $(cat out)"
	! grep -q "record(s) complete" out || fail "$phase printed a summary of nothing"
	[ ! -e empty/r ] || fail "$phase created the run directory for nothing"
done
expect 3 ngcc -C empty measure nosuchid --run r "${unfixed[@]}"
grep -q "selector 'nosuchid' matches no candidate: workspace .* has none" out || fail "wrong id: $(cat out)"

# ---- added, not built --------------------------------------------------------
expect 3 ngcc -C newws measure --run r "${unfixed[@]}"
grep -q "nothing to do: no candidate of workspace .* is built" out || fail "not built: $(cat out)"
grep -q "ngcc-perf build" out || fail "no build hint: $(cat out)"
expect 3 ngcc -C newws measure nosuchid --run r "${unfixed[@]}"
grep -q "selector 'nosuchid' matches no candidate or instance of workspace .* (no candidates/nosuchid/candidate.conf); it has kem-ex: " out ||
	fail "wrong id in a workspace with candidates: $(cat out)"
expect 3 ngcc -C newws profile kem-ex --run r --allow-unfixed-host=test
grep -q "candidate kem-ex is not built" out || fail "not built, by id: $(cat out)"
[ ! -e newws/r ] || fail "a refused phase created the run directory"

# ---- report over a run without records -----------------------------------------
mkdir -p newws/r
printf '{"schema": "ngcc-perf/campaign/1"}\n' >newws/r/campaign.json
rc=0
ngcc -C newws report --run r >out 2>&1 || rc=$?
[ "$rc" = 3 ] && grep -q "nothing to report" out || fail "report over an empty run exited $rc: $(cat out)"
rc=0
ngcc -C newws site --dataset r >out 2>&1 || rc=$?
[ "$rc" = 3 ] && grep -q "nothing to show" out || fail "site over an empty run exited $rc: $(cat out)"
[ ! -e newws/site ] || fail "site wrote an empty site"
echo "nothing_to_do: ok"
