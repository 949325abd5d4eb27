#!/usr/bin/env bash
# hostile_campaign.sh — campaign files are untrusted input too
# (docs/security.md): shard folders, run directories and campaign.json come
# from other machines and people.  Each case must end in a clear error with
# the documented exit code (or be handled as documented), never read or
# write outside, never hang:
#
#   1  merge refuses symbolic links in a shard folder (a linked record, a
#      linked samples/ folder, a link back to a parent) and special files,
#      naming the path; nothing outside reaches the merged run
#   2  a system_id of "../../x" (or --system ../x) is refused by report and
#      site, which write nothing outside the workspace
#   3  status, a resumed measure and plan --prior never read a record
#      through a link: status does not call that unit complete
#   4  shard numbers in campaign.json out of range ("3 of 2", -1, 2^32+2)
#      are refused by merge and status; whole-number options above 2^32
#      are usage errors, never wrapped (launch, plan, measure)
#   5  launch: a workspace and run path with spaces, ';', '$' and '%' work
#      in the generated GNU parallel script (run by GNU parallel, with a
#      stand-in ngcc-perf that records its arguments) and in the Slurm
#      files (submitted to a loopback Slurm when one can start here); a line
#      break is refused; the start command is printed quoted
#   6  merge killed between its renames: the next merge restores and cleans
#
# KEEP_GOING=1 reports every failing case and goes on (exit still 1).
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
. "$NGCC_SRC/tests/e2e/lib.bash"
. "$NGCC_SRC/tests/lib/engines.sh"
tmp=$(mktemp -d /tmp/ngcc-e2e-hostile-campaign.XXXXXX)
trap 'slurm_stop; [ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
# A measuring command here stops before it measures; its CPU lock stays
# with this test so that it never waits for another test's measurement.
export NGCC_PERF_LOCK_DIR=$tmp/locks
mkdir -p "$NGCC_PERF_LOCK_DIR"
ws=$tmp/ws
# Whatever a hostile name might run, it runs here, where the test looks.
cd "$tmp"
case_no=0 failures=0
case_() { case_no=$1; }
fail() {
	echo "FAIL [case $case_no]: $*" >&2
	[ -n "${KEEP_GOING:-}" ] || exit 1
	failures=$((failures + 1))
}
# run EXPECTED_RC CMD... — under a timeout; stdout and stderr in $tmp/out, $tmp/err.
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
measure_opts=(--trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test)

shared_copy example-campaign "$ws" "$tmp/log"
[ "$(cat "$tmp/log/campaign.rc")" = 0 ] || fail "the shared campaign failed"
cand=examplekem
rec=$(cd "$ws/runs/c" && ls records/$cand/*.json | head -1)
echo '{"secret": "SECRET-OUTSIDE"}' >"$tmp/secret.json"
# fresh NAME: a copy of the measured run as $ws/runs/NAME
fresh() { rm -rf "$ws/runs/$1"; cp -a "$ws/runs/c" "$ws/runs/$1"; }
set_json() { # FILE PYTHON-STATEMENT (on d)
	python3 - "$1" "$2" <<'EOF'
import json, sys
p = sys.argv[1]; d = json.load(open(p))
exec(sys.argv[2])
json.dump(d, open(p, "w"), indent=1)
EOF
}

# ---- 1. merge and links -------------------------------------------------------------
case_ 1
# Each hostile entry alone in an otherwise good run: refused (3), named,
# nothing written.
try_merge_refusal() { # REL WANT
	run 3 "$ngcc" -C "$ws" merge runs/m1 --into runs/merged
	has "$tmp/err" "runs/m1/$1"
	has "$tmp/err" "$2"
	[ ! -e "$ws/runs/merged" ] || fail "a refused merge wrote runs/merged"
	! grep -rqs SECRET-OUTSIDE "$ws/runs/merged" || fail "merge copied a file from outside"
}
fresh m1
rm "$ws/runs/m1/$rec"
ln -s "$tmp/secret.json" "$ws/runs/m1/$rec"
try_merge_refusal "$rec" "is a symbolic link"
fresh m1
mkdir -p "$tmp/outside-samples"
cp "$tmp/secret.json" "$tmp/outside-samples/"
rm -rf "$ws/runs/m1/samples"
ln -s "$tmp/outside-samples" "$ws/runs/m1/samples"
try_merge_refusal samples "is a symbolic link"
fresh m1
ln -s .. "$ws/runs/m1/records/$cand/parent"
try_merge_refusal "records/$cand/parent" "is a symbolic link"
fresh m1
mkfifo "$ws/runs/m1/records/$cand/fifo.json"
QUICK=30 try_merge_refusal "records/$cand/fifo.json" "special file"
# and the same run without them merges
fresh m1
run 0 "$ngcc" -C "$ws" merge runs/m1 --into runs/merged
rm -rf "$ws/runs/merged" "$ws/runs/m1"

# ---- 2. system_id as a path ---------------------------------------------------------
case_ 2
fresh s2
set_json "$ws/runs/s2/campaign.json" 'd["system_id"] = "../../x"'
run 3 "$ngcc" -C "$ws" report --run runs/s2 --out rep
has "$tmp/err" "system_id '../../x' cannot name a folder or file"
run 3 "$ngcc" -C "$ws" site --dataset runs/s2 --out site
has "$tmp/err" "system_id '../../x'"
run 3 "$ngcc" -C "$ws" status --run runs/s2
has "$tmp/err" "system_id '../../x'"
[ ! -e "$tmp/x" ] && [ ! -e "$ws/x" ] && [ ! -e "$ws/../x" ] || fail "pages written outside the output folder"
# an id given on the command line keeps the same rule
fresh s2
run 3 "$ngcc" -C "$ws" report --run runs/s2 --out rep --system ../x
has "$tmp/err" "system id '../x' cannot name a folder or file"
[ ! -e "$ws/x" ] || fail "report --system ../x wrote outside rep/"
# run names keep the rule too: measure --run, merge --into
run 2 "$ngcc" -C "$ws" measure --run runs/.hidden "${measure_opts[@]}"
has "$tmp/err" "the run name '.hidden' cannot name a folder or file"
run 2 "$ngcc" -C "$ws" merge runs/c --into $'runs/a\nb'
has "$tmp/err" "control character"
[ ! -e "$ws/runs/.hidden" ] && [ ! -e "$ws/runs/a"$'\n'"b" ] || fail "a refused run name was created"
rm -rf "$ws/runs/s2"

# ---- 3. status, resume and prior through links --------------------------------------
case_ 3
fresh s3
cp "$ws/runs/s3/$rec" "$tmp/outside-record.json"
rm "$ws/runs/s3/$rec"
ln -s "$tmp/outside-record.json" "$ws/runs/s3/$rec"
# status: the unit is not complete (the link is never read), exit 1
run 1 "$ngcc" -C "$ws" status --run runs/s3
has "$tmp/out" "symbolic link"
hasnt "$tmp/out" "6 unit(s): 6 complete"
# report refuses the same run, so status and report agree
run 3 "$ngcc" -C "$ws" report --run runs/s3 --out rep3
# a resumed measure refuses to start on it, naming the link
run 3 "$ngcc" -C "$ws" measure --run runs/s3 "${measure_opts[@]}"
has "$tmp/err" "runs/s3/$rec is a symbolic link or special file"
cmp -s "$ws/runs/c/$rec" "$tmp/outside-record.json" || fail "the file behind the link was changed"
# a linked candidate folder too
fresh s3
mv "$ws/runs/s3/records/$cand" "$tmp/outside-records"
ln -s "$tmp/outside-records" "$ws/runs/s3/records/$cand"
run 1 "$ngcc" -C "$ws" status --run runs/s3
has "$tmp/out" "symbolic link"
run 3 "$ngcc" -C "$ws" measure --run runs/s3 "${measure_opts[@]}"
has "$tmp/err" "runs/s3/records/$cand is a symbolic link"
# plan --prior: a linked record, or a linked records folder, is refused
run 3 "$ngcc" -C "$ws" plan --prior "$ws/runs/s3"
has "$tmp/err" "symbolic link"
fresh s3
rm "$ws/runs/s3/$rec"
ln -s "$tmp/outside-record.json" "$ws/runs/s3/$rec"
run 3 "$ngcc" -C "$ws" plan --prior "$ws/runs/s3"
has "$tmp/err" "runs/s3/$rec"
has "$tmp/err" "symbolic link"
run 0 "$ngcc" -C "$ws" plan --prior "$ws/runs/c"
rm -rf "$ws/runs/s3" "$tmp/outside-records"

# ---- 4. shard numbers and whole-number options ---------------------------------------
case_ 4
for bad in 'd["shards"]["n"] = 2; d["shards"]["shard"] = 3' \
	   'd["shards"]["n"] = 2; d["shards"]["shard"] = -1' \
	   'd["shards"]["n"] = 4294967298; d["shards"]["shard"] = 1' \
	   'd["shards"]["n"] = 2; d["shards"]["merged_from"] = [{"run": "a", "shard": "3/2"}]'; do
	fresh s4
	set_json "$ws/runs/s4/campaign.json" "$bad"
	run 3 "$ngcc" -C "$ws" merge runs/s4 --into runs/merged4
	has "$tmp/err" "shards."
	[ ! -e "$ws/runs/merged4" ] || fail "merge of '$bad' wrote runs/merged4"
	run 3 "$ngcc" -C "$ws" status --run runs/s4
	has "$tmp/err" "shards."
done
# A merge of shard 1 of 2 alone is not settled: shard 2's units were never
# measured into it (they used to count as "another shard's").  Of three
# instances of equal (unknown) cost, the last by name (ExampleKEM-256) is
# shard 2's; ExampleKEM-128 and its AVX2 variant are shard 1's.
fresh s4
set_json "$ws/runs/s4/campaign.json" 'd["shards"]["n"] = 2; d["shards"]["shard"] = 1'
find "$ws/runs/s4" -name 'ExampleKEM-256__*' -delete
run 0 "$ngcc" -C "$ws" merge runs/s4 --into runs/merged4
run 1 "$ngcc" -C "$ws" status --run runs/merged4
has "$tmp/out" "9 unit(s): 6 complete, 3 pending"
hasnt "$tmp/out" "belong to other shards"
rm -rf "$ws/runs/s4" "$ws/runs/merged4"
for args in "launch parallel --run runs/l --shards 4294967298" \
	    "launch slurm --run runs/l --shards 2 --trials 4294967298" \
	    "launch parallel --run runs/l --shards 2 --cpus 0,4294967297" \
	    "plan --cpus 4294967298" "plan --top -1" \
	    "measure --run runs/l --trials 4294967298" \
	    "measure --run runs/l --shard 1/4294967298" \
	    "build -j 4294967297" "check -j 4294967297" "check --rounds 4294967297.5" \
	    "check-host --cpu 4294967297" "campaign x --check-rounds 99999999999999999999"; do
	# shellcheck disable=SC2086 # the words of each case
	run 2 "$ngcc" -C "$ws" $args
	grep -qE "4294967|'-1'|99999" "$tmp/err" || fail "the value is not named: $(cat "$tmp/err")"
done
[ ! -e "$ws/runs/l.shards" ] || fail "launch wrote scripts for a refused option"

# ---- 5. launch: paths that need quoting -----------------------------------------------
case_ 5
# A workspace and a run whose paths hold spaces, ';', '$' and '%'; a
# stand-in for ngcc-perf records each call's arguments (one per line,
# NUL-separated calls) and makes the folders the script expects.
qws="$tmp/work space;\$HOME 100%"
mkdir -p "$qws"
stub=$tmp/stub/ngcc-perf
mkdir -p "$tmp/stub"
cat >"$stub" <<'SH'
#!/usr/bin/env bash
# stand-in for ngcc-perf: -C WS CMD ARGS...
ws=$2; cmd=$3; shift 3
{ printf '%s\n' "$cmd" "$@"; printf '\0'; } >>"$STUB_LOG"
at() { case $1 in /*) printf '%s' "$1" ;; *) printf '%s' "$ws/$1" ;; esac; }
case $cmd in
measure) while [ $# -gt 0 ]; do [ "$1" = --run ] && run=$2; shift; done
	mkdir -p "$(at "$run")"; echo '{}' >"$(at "$run")/campaign.json" ;;
merge) while [ $# -gt 0 ]; do [ "$1" = --into ] && into=$2; shift; done
	mkdir -p "$(at "$into")" ;;
esac
exit 0
SH
chmod +x "$stub"
qrun='runs/r b;touch PWNED $(touch PWNED2)'
run 0 "$ngcc" -C "$qws" launch parallel --run "$qrun" --shards 2 --trials 2
has "$tmp/out" "start the campaign with: bash '"
script="$qws/$qrun.shards/run-parallel.sh"
[ -f "$script" ] || fail "no run-parallel.sh at $script"
# the printed command, pasted into a shell, names the script
start=$(sed -n 's/^launch: start the campaign with: //p' "$tmp/out")
# read as a shell reads it (shlex, nothing is run): bash and the script
python3 - "$start" "$script" <<'EOF' || fail "the printed start command does not paste: $start"
import shlex, sys
assert shlex.split(sys.argv[1]) == ["bash", sys.argv[2]], shlex.split(sys.argv[1])
EOF
if parallel_check; then
	sed -i "s|^NGCC=.*|NGCC=$(printf '%q' "$stub")|" "$script"
	export STUB_LOG=$tmp/stub.log
	: >"$STUB_LOG"
	QUICK=120 run 0 bash "$script"
	[ "$(awk 'NR > 1' "$qws/$qrun.shards/parallel.joblog" | wc -l)" = 2 ] ||
		fail "GNU parallel did not run 2 shard jobs: $(cat "$qws/$qrun.shards/parallel.joblog" 2>&1)"
	for k in 1 2; do
		grep -qzF -- "$qrun.shards/shard-$k" "$STUB_LOG" || fail "shard $k was not measured into its run"
	done
	grep -qzF -- "--into"$'\n'"$qrun" "$STUB_LOG" || fail "merge did not get --into '$qrun'"
	grep -qzF -- "report"$'\n'"--run"$'\n'"$qrun" "$STUB_LOG" || fail "report did not get --run '$qrun'"
	[ -z "$(find "$tmp" -name 'PWNED*' -print -quit)" ] || fail "a run name ran as a command"
	unset STUB_LOG
else
	echo "SKIP (case 5, GNU parallel): $ENGINE_SKIP"
fi
# Slurm: every #SBATCH value quoted for sbatch, '%' doubled in --output
run 0 "$ngcc" -C "$qws" launch slurm --run "$qrun" --shards 2 --partition 'p q' --time 10
has "$tmp/out" "start the campaign with: '"
sdir="$qws/$qrun.shards"
has "$sdir/shards.sbatch" "#SBATCH --output=\"$tmp/work space;\$HOME 100%%/$qrun.shards/shard-%a.slurm.out\""
has "$sdir/shards.sbatch" '#SBATCH --partition="p q"'
for f in "$sdir"/*.sbatch "$sdir"/*.sh; do bash -n "$f" || fail "$f is not valid bash"; done
# a line break cannot be written into an #SBATCH line (nor be a run name)
run 2 "$ngcc" -C "$qws" launch slurm --run $'runs/a\nb' --shards 2
has "$tmp/err" "control character"
run 2 "$ngcc" -C "$qws" launch slurm --run runs/ok --shards 2 --nodelist $'n1\n#SBATCH --x'
has "$tmp/err" "line break, which cannot be written into an #SBATCH line"
run 2 "$ngcc" -C "$qws" launch parallel --run $'runs/a\nb' --shards 2
[ ! -e "$qws/runs/ok.shards" ] || fail "launch wrote scripts for a refused name"
if slurm_start "$tmp/slurm"; then
	# the Slurm files run on a real (loopback) Slurm with the stand-in
	sed -i "s|^NGCC=.*|NGCC=$(printf '%q' "$stub")|" "$sdir/run-slurm.sh"
	export STUB_LOG=$tmp/stub-slurm.log
	: >"$STUB_LOG"
	sed -i '/^#SBATCH --partition/d' "$sdir"/*.sbatch   # the loopback Slurm has its own
	sed -i "s|^#SBATCH --time=.*|#SBATCH --nodelist=$(hostname -s)|" "$sdir"/*.sbatch
	run 0 "$sdir/submit.sh"
	final=$(cat "$sdir/final.jobid" 2>/dev/null) || fail "submit.sh wrote no final.jobid"
	if [ -n "$final" ]; then
		slurm_wait_job "$final" 120 || fail "the Slurm jobs did not finish in 120 s: $(squeue 2>&1)"
		[ "$(slurm_job_state "$final")" = COMPLETED ] || fail "final job: $(slurm_job_state "$final")"
	fi
	ls "$sdir"/shard-1.slurm.out "$sdir"/shard-2.slurm.out >/dev/null ||
		fail "the array tasks' output is not where --output says: $(ls "$sdir")"
	for k in 1 2; do
		grep -qzF -- "$qrun.shards/shard-$k" "$STUB_LOG" || fail "Slurm shard $k was not measured"
	done
	[ -z "$(find "$tmp" -name 'PWNED*' -print -quit)" ] || fail "a run name ran as a command"
	unset STUB_LOG
	slurm_stop
else
	echo "SKIP (case 5, Slurm): $ENGINE_SKIP"
fi

# ---- 6. an interrupted merge -----------------------------------------------------------
case_ 6
fresh s6
run 0 "$ngcc" -C "$ws" merge runs/s6 --into runs/m6
# killed between its renames: runs/m6 moved aside, the new one assembled
mv "$ws/runs/m6" "$ws/runs/m6.merge.old.999999999"
mkdir "$ws/runs/m6.merge.tmp.999999999"
run 3 "$ngcc" -C "$ws" status --run runs/m6
has "$tmp/err" "left by a merge that was interrupted"
run 0 "$ngcc" -C "$ws" merge runs/s6 --into runs/m6 --replace
has "$tmp/err" "restored"
[ ! -e "$ws/runs/m6.merge.old.999999999" ] && [ ! -e "$ws/runs/m6.merge.tmp.999999999" ] ||
	fail "the interrupted merge's folders are still there"
run 0 "$ngcc" -C "$ws" status --run runs/m6

[ "$failures" = 0 ] || { echo "$failures case(s) failed" >&2; exit 1; }
echo "hostile_campaign: ok"
