#!/usr/bin/env bash
# evidence_limits.sh — what one command reads of evidence is bounded
# (docs/security.md, "Evidence limits"): a record above the per-file limit
# (16 MiB) is refused by report, publish, site and validate with a message
# naming the file and the limit, as bad input (exit 3; validate: a PROBLEM
# line, exit 1); a run whose evidence passes the total limit of one command
# ($NGCC_PERF_EVIDENCE_TOTAL_MIB, lowered here to 1 MiB) is refused the same
# way; publish of a run whose KAT log is too large to read is bad input
# (exit 3), not a system error; a UTF-8 byte-order mark at the start of a
# record is refused by name ("UTF-8 byte-order mark at start of FILE").
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
tmp=$(mktemp -d /tmp/ngcc-e2e-evlimits.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
ws=$tmp/ws
ngcc=$NGCC_BIN/ngcc-perf
# run EXPECTED_RC CMD...: stdout and stderr in $tmp/out and $tmp/err.
run() {
	local want=$1 rc=0
	shift
	timeout 120 "$@" >"$tmp/out" 2>"$tmp/err" </dev/null || rc=$?
	[ "$rc" = "$want" ] || { tail -n 5 "$tmp/out" "$tmp/err"; fail "exit $rc, want $want: $*"; }
}

shared_copy example-campaign "$ws" "$tmp/log"
[ "$(cat "$tmp/log/campaign.rc")" = 0 ] || fail "the shared campaign failed"
rec=$(cd "$ws/runs/c" && ls records/examplekem/*enc.json | head -1)
kat=$(cd "$ws" && ls build/examplekem/kat/*.log | head -1)
run 0 "$ngcc" -C "$ws" publish --run runs/c --dataset ds --publish-unfixed
sys=$(ls "$ws/ds/data")
cp -a "$ws" "$tmp/clean"
# pad FILE MIB: the same JSON followed by MIB MiB of blanks (still valid JSON).
pad() { python3 -c 'import sys; open(sys.argv[1], "a").write(" " * (int(sys.argv[2]) << 20))' "$1" "$2"; }
limit_msg="too large for an evidence file (17.0 MiB, the limit is 16.0 MiB"

# ---- one file above the per-file limit -------------------------------------------------
pad "$ws/runs/c/$rec" 17
run 3 "$ngcc" -C "$ws" report --run runs/c
has "$tmp/err" "$rec: $limit_msg"
run 3 "$ngcc" -C "$ws" publish --run runs/c --dataset ds2 --publish-unfixed
has "$tmp/err" "$limit_msg"
pad "$ws/ds/data/$sys/$rec" 17
run 1 "$ngcc" validate "$ws/ds"
has "$tmp/out" "PROBLEM data/$sys/$rec: $limit_msg"
run 3 "$ngcc" site --dataset "$ws/ds"
has "$tmp/err" "$limit_msg"

# ---- the total of one command ---------------------------------------------------------
# (a record of 2 MiB, within the per-file limit, against a total of 1 MiB)
rm -rf "$ws" && cp -a "$tmp/clean" "$ws"
pad "$ws/runs/c/$rec" 2
pad "$ws/ds/data/$sys/$rec" 2
NGCC_PERF_EVIDENCE_TOTAL_MIB=1 run 3 "$ngcc" -C "$ws" report --run runs/c
has "$tmp/err" "the limit of 1.0 MiB of JSON evidence for one command (NGCC_PERF_EVIDENCE_TOTAL_MIB raises it"
NGCC_PERF_EVIDENCE_TOTAL_MIB=1 run 1 "$ngcc" validate "$ws/ds"
has "$tmp/out" "the limit of 1.0 MiB of JSON evidence for one command"
# the same run and dataset within the default limit
run 0 "$ngcc" -C "$ws" report --run runs/c
run 0 "$ngcc" validate "$ws/ds"

# ---- a KAT log too large to read: bad input, not a system error -------------------------
truncate -s 300M "$ws/$kat"
run 3 "$ngcc" -C "$ws" publish --run runs/c --dataset ds3 --publish-unfixed
has "$tmp/err" "cannot read $ws/$kat: larger than the size limit"

# ---- a byte-order mark at the start of JSON evidence -------------------------------------
rm -rf "$ws" && cp -a "$tmp/clean" "$ws"
bom() { python3 -c 'import sys; p = sys.argv[1]; d = open(p, "rb").read(); open(p, "wb").write(b"\xef\xbb\xbf" + d)' "$1"; }
bom "$ws/runs/c/$rec"
run 3 "$ngcc" -C "$ws" report --run runs/c
has "$tmp/err" "$rec: UTF-8 byte-order mark at start of $(basename "$rec")"
bom "$ws/ds/data/$sys/$rec"
run 1 "$ngcc" validate "$ws/ds"
has "$tmp/out" "PROBLEM data/$sys/$rec: UTF-8 byte-order mark at start of $(basename "$rec")"
echo "evidence_limits: ok"
