#!/usr/bin/env bash
# same_checks.sh — report, publish and validate apply the same rule to every
# evidence file (src/evidence/accept.h; docs/security.md, "The same checks
# everywhere"): evidence validate rejects never reaches a page or a
# dataset.  Each case spoils one file of a run (report and publish must
# refuse it: exit 3, naming the file and why) and the same file of a
# published dataset (validate: a PROBLEM line naming it):
#   1. a memory record without status
#   2. a sample file without schema
#   3. a timing record of another build of the library (stale)
#   4. a record whose label is not its file name's
#   5. a record with more trials than its plan
#   6. a check record of another build of the library
# and the unspoilt run and dataset pass all three; and a resumed measure
# (7) does not keep a record report would refuse: it measures the unit
# again, after which report accepts the run.
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
tmp=$(mktemp -d /tmp/ngcc-e2e-samechecks.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
ngcc=$NGCC_BIN/ngcc-perf
case_no=0
run() {
	local want=$1 rc=0
	shift
	timeout 120 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	[ "$rc" = "$want" ] ||
		{ tail -n 5 "$tmp/out" "$tmp/err"; fail "[case $case_no] exit $rc, want $want: $*"; }
}

shared_copy example-campaign "$tmp/clean" "$tmp/log"
[ "$(cat "$tmp/log/campaign.rc")" = 0 ] || fail "the shared campaign failed"
# check records of ExampleKEM-128 for case 6
run 0 "$ngcc" -C "$tmp/clean" check examplekem --only functional --rounds 2
run 0 "$ngcc" -C "$tmp/clean" publish --run runs/c --dataset ds --publish-unfixed
run 0 "$ngcc" validate "$tmp/clean/ds"
run 0 "$ngcc" -C "$tmp/clean" report --run runs/c
sys=$(ls "$tmp/clean/ds/data")
ws=$tmp/ws
cand=examplekem
rec=records/$cand/ExampleKEM-128__enc.json

# edit FILE PYTHON: run PYTHON on the JSON document d of FILE, write it back.
edit() {
	python3 - "$1" "$2" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
d = json.load(open(path))
exec(code)
json.dump(d, open(path, "w"), indent=1)
PY
}
# spoil N REL PYTHON WHY: the case on the run's REL and the dataset's.
spoil() {
	case_no=$1
	local rel=$2 code=$3 why=$4 dsrel
	rm -rf "$ws" && cp -a "$tmp/clean" "$ws"
	mkdir -p "$(dirname "$ws/runs/c/$rel")"
	[ -f "$ws/runs/c/$rel" ] || echo '{}' >"$ws/runs/c/$rel"
	edit "$ws/runs/c/$rel" "$code"
	run 3 "$ngcc" -C "$ws" report --run runs/c
	has "$tmp/err" "$ws/runs/c/$rel: "
	has "$tmp/err" "$why"
	run 3 "$ngcc" -C "$ws" publish --run runs/c --dataset ds2 --publish-unfixed
	has "$tmp/err" "$ws/runs/c/$rel: "
	has "$tmp/err" "$why"
	[ ! -e "$ws/ds2" ] || fail "[case $case_no] publish wrote a dataset"
	dsrel=data/$sys/$rel
	mkdir -p "$(dirname "$ws/ds/$dsrel")"
	[ -f "$ws/ds/$dsrel" ] || echo '{}' >"$ws/ds/$dsrel"
	edit "$ws/ds/$dsrel" "$code"
	run 1 "$ngcc" validate "$ws/ds"
	has "$tmp/out" "PROBLEM $dsrel: "
	has "$tmp/out" "$why"
}

spoil 1 memory/$cand/ExampleKEM-128__enc.json 'del d["status"]' "status is missing"
spoil 2 samples/$cand/ExampleKEM-128__enc.json 'd.pop("schema", None)' 'no "schema" string'
spoil 3 $rec 'd["library_sha256"] = "0" * 64' \
	"made on another build of $cand/ExampleKEM-128: library_sha256 0000000000000000… differs"
spoil 4 $rec 'd["label"] = "ExampleKEM-256"' \
	'label is "ExampleKEM-256", the file name says ExampleKEM-128'
spoil 5 $rec 'p = d["processes"][-1]; p["trials"].append(p["trials"][-1]); d["trials"].append(p["trials"][-1]); d["status"] = "partial"' \
	"3 trial(s), more than the 2 of its plan"

# 6. a check record: in the workspace for report and publish, published for validate
case_no=6
chk=$(cd "$tmp/clean/build/$cand/check" && ls ExampleKEM-128__*.json | head -1)
rm -rf "$ws" && cp -a "$tmp/clean" "$ws"
edit "$ws/build/$cand/check/$chk" 'd["timed_library_sha256"] = "0" * 64'
why="made on another build of $cand/ExampleKEM-128: timed_library_sha256"
run 3 "$ngcc" -C "$ws" report --run runs/c
has "$tmp/err" "$why"
run 3 "$ngcc" -C "$ws" publish --run runs/c --dataset ds2 --publish-unfixed
has "$tmp/err" "$why"
edit "$ws/ds/data/$sys/check/$cand/$chk" 'd["timed_library_sha256"] = "0" * 64'
run 1 "$ngcc" validate "$ws/ds"
has "$tmp/out" "PROBLEM data/$sys/check/$cand/$chk: $why"

# 7. resume: the record whose label is not its file name's is measured again
case_no=7
rm -rf "$ws" && cp -a "$tmp/clean" "$ws"
edit "$ws/runs/c/$rec" 'd["label"] = "ExampleKEM-256"'
run 0 "$ngcc" -C "$ws" measure --run runs/c examplekem --trial-target 0.002 --trials 2 \
	--disturbed-retries 0 --allow-unfixed-host=test
has "$tmp/err" "$ws/runs/c/$rec: label is \"ExampleKEM-256\", the file name says ExampleKEM-128; treated as not complete"
python3 -c 'import json, sys; d = json.load(open(sys.argv[1])); assert d["label"] == "ExampleKEM-128", d["label"]' \
	"$ws/runs/c/$rec" || fail "[case 7] the record was not measured again"
run 0 "$ngcc" -C "$ws" report --run runs/c
echo "same_checks: ok"
