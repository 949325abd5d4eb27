#!/usr/bin/env bash
# hash_campaign.sh — a hash candidate end to end with the ICCS baseline:
# `campaign` on examples/ExampleHash and a KEM that ships a differing copy
# of auxfunc.c (tests/fixtures/hash/AuxCopyKEM), KAT_2_33 and KAT_Loop
# skipped (the example ships the official files: a 1 GiB message and 10^6
# calls, run in full by `make check-slow`; hash_kat.sh runs their code
# paths with stand-ins); then the records (eight lengths, throughput,
# digest length, memory pass), the baseline (ours and the package's copy,
# self-tested), the pages (hash table, A.13, ICCS baseline table, hash
# summary with × pseudoXOF, charts), publish, site and validate.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-hashcamp.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"

rc=0
ngcc campaign "$NGCC_SRC/examples/ExampleHash" "$NGCC_FIXTURES/hash/AuxCopyKEM" --run runs/h --no-repeat \
	--trial-target 0.002 --trials 2 --disturbed-retries 0 --allow-unfixed-host=test --no-sampling --skip-kat-file KAT_2_33 --skip-kat-file KAT_Loop \
	>"$ws/out" 2>"$ws/err" || rc=$?
[ "$rc" = 1 ] || { cat "$ws/out" "$ws/err"; fail "campaign exited $rc, expected 1 (PARTIAL KATs)"; }
grep -q '^RESULT examplehash ExampleHash-256 PARTIAL KAT_2_33: SKIPPED' "$ws/out" || fail "no PARTIAL"
grep -q '^RESULT auxcopykem AuxCopy-1 PASS$' "$ws/out" || fail "the KEM did not pass"
# The baseline came along: ours and the KEM's copy, self-tested.
for l in sm3hash-256 pseudohash-512 pseudohash-768 pseudohash-1024 pseudoXOF-256 pseudoXOF-512 \
	 pseudoXOF-512.auxcopykem sm3hash-256.auxcopykem; do
	grep -qx "RESULT iccs $l PASS" "$ws/out" || fail "baseline instance $l did not pass its self-test"
done
[ "$(grep -c '^BASELINE ' "$ws/out")" = 12 ] || fail "expected 12 baseline instances (6 ours, 6 of the copy)"

run=$ws/runs/h
python3 - "$run" <<'EOF' || fail "records"
import json, os, sys
run = sys.argv[1]
def rec(c, stem): return json.load(open(f"{run}/records/{c}/{stem}.json"))
for label, bits in (("ExampleHash-256", 256), ("ExampleHash-512", 512)):
    for L in (32, 128, 512, 1024, 4096, 8192, 16384, 65536):
        r = rec("examplehash", f"{label}__hash_{L}")
        assert r["status"] == "complete", (label, L, r["status"])
        assert r["input_bytes"] == L and r["op_key"] == f"hash_{L}"
        assert r["sizes"]["digest_bytes"] == bits // 8
        assert r["kat"] == "PARTIAL" and r["kat_not_passed"] is True
        tp = L * r["measurements"] / sum(t["ns"] / 1e9 for t in r["trials"]) / 1e6
        assert abs(r["throughput_MB_per_second"] - tp) <= 1e-9 * tp
        assert r["processes"][0]["validation"]["ok"] is True
        assert r["processes"][0]["meta"]["digest_bits"] == bits
        m = json.load(open(f"{run}/memory/examplehash/{label}__hash_{L}.json"))
        assert m["status"] == "complete"
r = rec("iccs", "pseudoXOF-256.auxcopykem__hash_1024")
assert r["status"] == "complete" and r["variant"] == "iccs-baseline" and r["kat"] == "PASS"
# the profile is the public-key candidates'
assert os.path.isdir(f"{run}/profile/auxcopykem")
assert not os.path.exists(f"{run}/profile/examplehash") and not os.path.exists(f"{run}/profile/iccs")
EOF

# ---- pages ---------------------------------------------------------------------
sys=$(sed -n 's|^  summary: *.*/\([^/]*\)/index.md$|\1|p' "$ws/out")
[ -n "$sys" ] || fail "no summary page printed"
sum=$ws/runs/h/reports/$sys/index.md
page=$ws/runs/h/reports/$sys/examplehash.md
python3 - "$sum" "$page" "$ws/runs/h/reports/$sys/iccs.md" "$ws/runs/h/reports/$sys/method.md" <<'EOF' || fail "pages"
import re, sys
summary, page, iccs, method = (open(p, encoding="utf-8").read() for p in sys.argv[1:])
# ICCS baseline table: ours in the fixed order, then the copy's
rows = re.findall(r"^\| (sm3hash|pseudohash|pseudoXOF)( \(copy in auxcopykem\))? \| (\d+) \|", summary, re.M)
got = [(f, bool(c), int(b)) for f, c, b in rows]
ours = [("sm3hash", 256), ("pseudohash", 512), ("pseudohash", 768), ("pseudohash", 1024),
        ("pseudoXOF", 256), ("pseudoXOF", 512)]
assert got == [(f, False, b) for f, b in ours] + [(f, True, b) for f, b in ours], got
assert "| ICCS function | output bits | 32 B | 128 B | 512 B | 1 KiB | 4 KiB | 8 KiB | 16 KiB | 64 KiB | cycles/byte (64 KiB) |" in summary
# Hash section: cycles and × pseudoXOF of the same width, the KAT mark
hdr = "| id | algorithm | instance performance report | 32 B cycles (\u00d7 pseudoXOF) | 1 KiB cycles (\u00d7 pseudoXOF) | 64 KiB cycles (\u00d7 pseudoXOF) | notes |"
assert hdr in summary
cell = r"\d+(?:\.\d+)?(?: [kMG])? \(\d+\.\d\d\u00d7\)"
for label in ("ExampleHash-256", "ExampleHash-512"):
    row = re.search(r"^\| \[examplehash\]\(examplehash\.md\) \| ExampleHash \| \[`%s`\]\(examplehash\.md\) \u26a0 KAT PARTIAL \| (%s) \| (%s) \| (%s) \| " % (label, cell, cell, cell), summary, re.M)
    assert row, label
# The candidate page: the hash table by length, no sizes or symmetric sections
assert "| instance | message | mean cycles | cycles/byte | mean time | MB/s | n |" in page
msgs = re.findall(r"^\| `ExampleHash-256` \| (\d+ (?:B|KiB)) \| ", page, re.M)
assert msgs == ["32 B", "128 B", "512 B", "1 KiB", "4 KiB", "8 KiB", "16 KiB", "64 KiB"], msgs
assert "## 6." not in page and "## Symmetric primitives" not in page
assert "[1] KAT_2_33: SKIPPED (--skip-kat-file KAT_2_33); KAT_Loop: SKIPPED (--skip-kat-file KAT_Loop); KAT_2_12, KAT_2_23: PASS" in page
assert "### A.13 Against the ICCS baseline" in page
assert re.search(r"^\| `ExampleHash-512` 64 KiB \| 512 \| [^|]+ \| [^|]+ \| \(\d+\.\d\d\u00d7\) \|$", page, re.M)
assert "![examplehash: cycles per byte against message length" in page
# The baseline's own page and the method page say what the self-test was
assert "Each library was self-tested before timing" in iccs
assert "The ICCS baseline (candidate `iccs`, 96 timing record(s))" in method
EOF
[ -s "$ws/runs/h/reports/$sys/charts/examplehash-cycles-per-byte.svg" ] || fail "no cycles-per-byte chart"
grep -q 'pseudoXOF-512' "$ws/runs/h/reports/$sys/charts/examplehash-cycles-per-byte.csv" ||
	fail "the chart lacks the pseudoXOF curve of its width"
grep -q 'pseudoXOF-256.auxcopykem' "$ws/runs/h/reports/$sys/charts/examplehash-cycles-per-byte.csv" &&
	fail "a package copy is drawn as the baseline"

# ---- publish, site, validate ------------------------------------------------------
ngcc publish --run runs/h --dataset ds --publish-unfixed >/dev/null
ngcc site --dataset ds >/dev/null
ngcc validate ds >"$ws/val" 2>&1 || { cat "$ws/val"; fail "validate"; }
grep -q ' 0 problem(s); report check: ok' "$ws/val" || { cat "$ws/val"; fail "validate problems"; }
ls "$ws/ds/site/$sys"/*.html | grep -q 'hash' || fail "no hash category page in the site"
grep -rq 'hash-cycles-per-byte' "$ws/ds/site/$sys/" || fail "the site lacks the hash chart"
# the hash summary and page in a browser at 1280 and 390 px
browser_check "$ws" "$ws/ds/site/$sys/index.html" "$ws/ds/site/$sys/examplehash.html"
echo "ok: hash campaign with the ICCS baseline"
