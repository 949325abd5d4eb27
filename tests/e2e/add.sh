#!/usr/bin/env bash
# add.sh — `ngcc-perf add` end to end on the fixture packages: folders and
# zips (one with a nested zip, one with a '../evil' entry), refusal and
# --force, KAT manifests, ids, symlinks, a SIG package, a package without
# implementations; then the written candidate.conf is hand-edited and built.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
. "$NGCC_SRC/tests/e2e/lib.bash"
ngcc=$NGCC_BIN/ngcc-perf
fix=$NGCC_FIXTURES/layouts
tmp=$(mktemp -d /tmp/ngcc-e2e-add.XXXXXX)
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

# 1. A folder with spaces, Chinese folders, junk, duplicates.
run 0 "$ngcc" -C "$ws" add "$fix/ToyKEM Submission v1.0" --id kem-01
conf=$ws/candidates/kem-01/candidate.conf
has "$conf" "[instance Toy-1-128]"
has "$conf" "[instance Toy-1-128+portable]" # an optimized tree without intrinsics
has "$conf" "[instance Toy-3-192]"
has "$conf" "instance = TOY_3_192"
has "$conf" "api_header = KEM_toy192.h"
has "$conf" "source = src/banner.c"
has "$conf" "kat_reference = Test_Vectors/Toy-3-192/KAT_KEM_TOY_3_192.txt"
has "$conf" "algorithm = ToyKEM"
for junk in KAT_KEM.c demo.c bench_kem.c test_kem.c toy.o; do hasnt "$conf" "$junk"; done
has "$tmp/out" "skipped '中文资料/源代码/Toy-1-128'"
has "$tmp/out" "package/package"
[ -f "$ws/candidates/kem-01/source/中文资料/自评估报告.txt" ] || fail "Chinese path not copied"
[ -f "$ws/candidates/kem-01/source/Implementations/Reference_Implementation/Toy-1-128/bin/KAT_KEM" ] ||
	fail "package not copied whole"

# 2. Same id again: refused without --force, replaced with it.
run 2 "$ngcc" -C "$ws" add "$fix/LWEKEM-v2" --id kem-01
has "$tmp/err" "already exists"
has "$tmp/err" "--force"
has "$conf" "Toy-1-128" # untouched
run 0 "$ngcc" -C "$ws" add "$fix/LWEKEM-v2" --id kem-01 --force
has "$conf" "[instance lwekem128]"
hasnt "$conf" "Toy-1-128"
[ ! -e "$ws/candidates/kem-01/source/中文资料" ] || fail "old source not replaced"
ls -a "$ws/candidates" | grep -q '\.new\.\|\.old\.' && fail "staging folders left behind"

# Work folders of a killed add are swept; a running add's are not.
mkdir -p "$ws/candidates/.kem-01.new.999999999" "$ws/candidates/.kem-01.old.$$"
run 0 "$ngcc" -C "$ws" add "$fix/LWEKEM-v2" --id kem-01 --force
[ ! -e "$ws/candidates/.kem-01.new.999999999" ] || fail "stale staging folder not swept"
[ -d "$ws/candidates/.kem-01.old.$$" ] || fail "a live process's folder was swept"
rmdir "$ws/candidates/.kem-01.old.$$"

# 3. A zip of a folder, default id from the package name.
(cd "$fix" && zip -qr "$tmp/LWEKEM-v2.zip" "LWEKEM-v2")
run 0 "$ngcc" -C "$ws" add "$tmp/LWEKEM-v2.zip"
conf=$ws/candidates/lwekem-v2/candidate.conf
has "$conf" "id = lwekem-v2"
has "$conf" "source_dir = LWEKEM-v2/Implementations and Test_Vectors/Reference_Implementation/lwekem128"
has "$conf" "kat_reference = LWEKEM-v2/Implementations and Test_Vectors/Test_Vector/KAT_KEM_LWEKEM128.txt"
has "$tmp/out" "KAT_KEM_LWEKEM128.txt"

# 4. A zip holding a nested zip of the implementations.
mkdir -p "$tmp/nest"
cp -r "$fix/ToyKEM Submission v1.0" "$tmp/nest/"
(cd "$tmp/nest/ToyKEM Submission v1.0" && zip -qr "Implementations.zip" Implementations && rm -rf Implementations)
(cd "$tmp/nest" && zip -qr "$tmp/nested.zip" "ToyKEM Submission v1.0")
run 0 "$ngcc" -C "$ws" add "$tmp/nested.zip" --id kem-02
conf=$ws/candidates/kem-02/candidate.conf
has "$tmp/out" "unpacked nested archive"
has "$tmp/out" "skipped 'ToyKEM Submission v1.0/中文资料/源代码/Toy-1-128'"
has "$conf" "source_dir = ToyKEM Submission v1.0/Implementations/Implementations/Reference_Implementation/Toy-3-192"
has "$conf" "kat_reference = ToyKEM Submission v1.0/Test_Vectors/KAT_KEM_TOY_1_128.txt"

# 5. Zip-slip: a '../evil' entry refuses the whole package.
python3 - "$tmp/evil.zip" <<'PY'
import sys, zipfile
with zipfile.ZipFile(sys.argv[1], "w") as z:
    z.writestr("pkg/ok.txt", "fine")
    z.writestr("../evil", "escaped")
PY
run 3 "$ngcc" -C "$ws" add "$tmp/evil.zip" --id evil
has "$tmp/err" "'../evil'"
[ ! -e "$ws/candidates/evil" ] || fail "refused candidate left behind"
[ ! -e "$ws/candidates/evil" ] && [ ! -e "$ws/evil" ] && [ ! -e "$ws/candidates/evil.new" ] || fail "escape"
find "$tmp" -name evil -type f | grep -q . && fail "an 'evil' file was written"

# 6. Unreadable archive, missing package, no implementations: exit 3.
printf 'PK\003\004 not really a zip' >"$tmp/broken.zip"
run 3 "$ngcc" -C "$ws" add "$tmp/broken.zip"
has "$tmp/err" "broken.zip"
run 3 "$ngcc" -C "$ws" add "$tmp/does-not-exist"
has "$tmp/err" "not found"
run 3 "$ngcc" -C "$ws" add "$fix/NoImplementation"
has "$tmp/err" "no implementation found"
[ ! -e "$ws/candidates/noimplementation" ] || fail "empty candidate left behind"

# 7. Ids: invalid refused; kem-NN accepted above.
run 2 "$ngcc" -C "$ws" add "$fix/LWEKEM-v2" --id "bad id/x"
has "$tmp/err" "invalid candidate id"

# 8. KAT manifests: a valid one is copied and shown; a bad one names its line.
d1=$(printf 'a%.0s' {1..64})
printf '# reference digests\n%s strict lwekem128/KAT_KEM_LWEKEM128.txt\n%s nolen:5 KAT_KEM_X.txt\n' \
	"$d1" "$d1" >"$tmp/kat.sha256"
run 0 "$ngcc" -C "$ws" add "$fix/LWEKEM-v2" --id kem-03 --kat-manifest "$tmp/kat.sha256"
cmp "$tmp/kat.sha256" "$ws/candidates/kem-03/kat.sha256" || fail "manifest not copied verbatim"
has "$tmp/out" "manifest"
printf '%s strict lwekem128/KAT_KEM_LWEKEM128.txt\n%s fuzzy lwekem128/x.txt\n' "$d1" "$d1" >"$tmp/bad.sha256"
run 3 "$ngcc" -C "$ws" add "$fix/LWEKEM-v2" --id kem-04 --kat-manifest "$tmp/bad.sha256"
has "$tmp/err" "bad.sha256:2:"
[ ! -e "$ws/candidates/kem-04" ] || fail "candidate with a bad manifest left behind"

# 9. Symlinks in a folder package are skipped, never followed.
cp -r "$fix/LWEKEM-v2" "$tmp/linked"
ln -s /etc/passwd "$tmp/linked/passwd-link"
ln -s /etc "$tmp/linked/etc-link"
run 0 "$ngcc" -C "$ws" add "$tmp/linked" --id linked
has "$tmp/out" "skipped symlink 'passwd-link'"
[ ! -e "$ws/candidates/linked/source/passwd-link" ] || fail "symlink copied"
[ ! -e "$ws/candidates/linked/source/etc-link" ] || fail "symlinked folder copied"

# 10. A SIG package: recognised and enabled.
run 0 "$ngcc" -C "$ws" add "$fix/ToySIG Submission"
conf=$ws/candidates/toysig-submission/candidate.conf
has "$conf" "type = sign"
has "$conf" "enabled = yes"
hasnt "$tmp/out" "not yet supported"

# 11. Relative paths are taken from the workspace (-C), like git -C.
cp -r "$fix/OthersOnlyKEM" "$ws/Others Only 包"
run 0 "$ngcc" -C "$ws" add "Others Only 包" --id kem-05
has "$ws/candidates/kem-05/candidate.conf" "source_dir = Others/Toy-5-256"

# 12. Hand edits (comments, reordering, trailing blanks) still build.
if "$ngcc" build --help >/dev/null 2>&1; then
	conf=$ws/candidates/lwekem-v2/candidate.conf
	python3 - "$conf" <<'PY'
import sys
p = sys.argv[1]
lines = open(p, encoding="utf-8").read().splitlines()
out = ["# edited by hand", ""]
for l in lines:
    if l.startswith("[instance"):
        out += [l + "   ", "# my comment", "enabled = yes  "]
    elif l.startswith("enabled"):
        continue
    else:
        out.append(l + ("\t" if l.startswith("source =") else ""))
open(p, "w", encoding="utf-8").write("\n".join(out) + "\n")
PY
	run 0 "$ngcc" -C "$ws" build lwekem-v2
	[ -f "$ws/build/lwekem-v2/liblwekem128.so" ] || fail "hand-edited conf did not build"
	# A typo is reported with file and line.
	echo "colour = red" >>"$conf"
	run 3 "$ngcc" -C "$ws" build lwekem-v2
	has "$tmp/err" "candidate.conf:"
	has "$tmp/err" "colour"
fi
# 13. The discovered confs build and pass their KATs end to end, also
# against a manifest of canonical digests (docs/iccs.md §5).
if "$ngcc" kat --help >/dev/null 2>&1; then
	run 0 "$ngcc" -C "$ws" build kem-02
	run 0 "$ngcc" -C "$ws" kat kem-02
	has "$tmp/out" "RESULT kem-02 Toy-1-128 PASS"
	has "$tmp/out" "RESULT kem-02 Toy-3-192 PASS"
	python3 - "$fix/LWEKEM-v2/Implementations and Test_Vectors/Test_Vector/KAT_KEM_LWEKEM128.txt" \
		>"$tmp/real.sha256" <<'PY'
import hashlib, sys
text = open(sys.argv[1], "rb").read().split(b"\n")
lines = [l.rstrip(b"\r \t") for l in text]
canon = b"".join(l + b"\n" for l in lines if l)
print(hashlib.sha256(canon).hexdigest(), "strict", "lwekem128/KAT_KEM_LWEKEM128.txt")
PY
	run 0 "$ngcc" -C "$ws" add "$fix/LWEKEM-v2" --id kem-06 --kat-manifest "$tmp/real.sha256"
	has "$tmp/out" "manifest"
	run 0 "$ngcc" -C "$ws" build kem-06
	run 0 "$ngcc" -C "$ws" kat kem-06
	has "$tmp/out" "RESULT kem-06 lwekem128 PASS"
fi
echo "add.sh: all checks passed"
