#!/usr/bin/env bash
# install.sh — `make install DESTDIR=… PREFIX=/usr` lays out the programs,
# the runtime sources, the manual page and the docs, and the installed
# binary alone (found on PATH, no NGCC_PERF_HOME, run outside the checkout)
# finds its child programs and runtime sources: the README's command block
# runs as written (selftest, add, build, kat with PASS on examples/ExampleKEM,
# a short measurement, profile, report, publish, site, validate),
# and the evidence names our files <ngcc-perf>/…, never where they are
# installed.  `make uninstall` removes everything again.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
tmp=$(mktemp -d /tmp/ngcc-e2e-install.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }

# Install the build under test: the sanitized one when run by check-san.
case $NGCC_BIN in */obj-san/bin) san=1 ;; *) san=0 ;; esac
# With the compiler that built that tree (its .compiler stamp, see the
# Makefile): another CC would rebuild the tree under the running suite.
tree=${NGCC_FIXTURES:-$NGCC_SRC/obj/fixtures}
cc=$(sed -n 1p "${tree%/fixtures}/.compiler" 2>/dev/null || true)
stage=$tmp/stage
make -s -C "$NGCC_SRC" SAN=$san ${cc:+CC="$cc"} install DESTDIR="$stage" PREFIX=/usr >"$tmp/install.log" 2>&1 ||
	fail "make install: $(tail -20 "$tmp/install.log")"

usr=$stage/usr
for f in bin/ngcc-perf libexec/ngcc-perf/ngcc-perf-kat libexec/ngcc-perf/ngcc-perf-driver \
	libexec/ngcc-perf/ngcc-perf-memory libexec/ngcc-perf/ngcc-perf-profile; do
	[ -x "$usr/$f" ] || fail "make install did not install $f"
done
for f in shim.c exports.map drng.c drng.h auxfunc.c auxfunc.h sm3.c sm3.h ngcc_abi.h \
	profwrap.c profwrap.h; do
	[ -f "$usr/share/ngcc-perf/src/runtime/$f" ] || fail "make install did not install runtime $f"
done
[ -f "$usr/share/man/man1/ngcc-perf.1" ] || fail "no manual page installed"
for f in README.md usage.md method.md report-format.md evidence.md iccs.md; do
	[ -f "$usr/share/doc/ngcc-perf/$f" ] || fail "no $f installed in share/doc/ngcc-perf"
done
[ ! -e "$usr/bin/ngcc-perf-driver" ] || fail "child programs belong in libexec/, not bin/"

# From here on only the installed tree: no checkout variables, a working
# directory outside the checkout (with the examples where the README expects
# them), the binary found on PATH.
unset NGCC_PERF_HOME NGCC_PERF_LIBEXEC
export PATH="$usr/bin:$PATH"
[ "$(command -v ngcc-perf)" = "$usr/bin/ngcc-perf" ] || fail "ngcc-perf on PATH is $(command -v ngcc-perf)"
cd "$tmp"
ln -s "$NGCC_SRC/examples" examples

ngcc-perf --version >version.out || fail "--version exited $?"
grep -qx "programs: $usr/libexec/ngcc-perf (installed tree)" version.out ||
	fail "programs not found in libexec: $(cat version.out)"
grep -qx "runtime:  $usr/share/ngcc-perf/src/runtime (installed tree)" version.out ||
	fail "runtime not found in share: $(cat version.out)"

# The README's command block, line by line, as written.  Every line exits
# 0; check-host may say 1 (this machine is not a fixed host).  The
# sanitized run leaves out `check` and stops after check-host: the
# measuring commands take minutes under ASan and `check` runs valgrind on
# unsanitized programs, the installed-tree lookups are the same code in
# both builds, and check.sh, measure.sh, profile.sh and
# publish_validate.sh run them sanitized.
awk '/tests\/e2e\/install.sh runs this block/ { marked = 1; next }
     marked && /^```sh/ { inside = 1; next }
     inside && /^```/ { exit }
     inside { print }' "$NGCC_SRC/README.md" >readme.sh
[ "$(grep -c '^ngcc-perf' readme.sh)" -ge 10 ] || fail "README command block not found: $(cat readme.sh)"
k=0
while IFS= read -r line; do
	k=$((k + 1))
	case $san:$line in 1:*" check kem-ex"*) continue ;; esac
	rc=0
	eval "$line" >"line$k.out" 2>&1 || rc=$?
	case $rc:$line in
	0:* | 1:*check-host*) ;;
	*) fail "README line $k exited $rc: $line: $(tail -20 "line$k.out")" ;;
	esac
	case $line in
	*" selftest"*) grep -Eq '^selftest: [0-9]+ passed, 0 failed$' "line$k.out" ||
		fail "selftest: $(tail -3 "line$k.out")" ;;
	*" kat kem-ex"*) for label in ExampleKEM-128 ExampleKEM-256; do
		grep -q "^RESULT kem-ex $label PASS" "line$k.out" || fail "no PASS for $label: $(cat "line$k.out")"
	done ;;
	*" validate ds"*) grep -q ' 0 problem(s); report check: ok' "line$k.out" ||
		fail "validate: $(tail -3 "line$k.out")" ;;
	*check-host*) [ "$san" = 0 ] || break ;;
	esac
done <readme.sh
ws=$tmp/ws
grep -q '"<ngcc-perf>/src/runtime/shim.c"' "$ws/build/kem-ex/build.json" ||
	fail "build.json does not name the shim <ngcc-perf>/src/runtime/shim.c"
evidence=("$ws/build")
if [ "$san" = 0 ]; then
	evidence+=("$ws/runs" "$ws/ds")
	[ -f "$ws/ds/site/index.html" ] || fail "no site written"
	python3 - "$ws/runs/dev" <<'PY' || fail "driver commands in the evidence"
import json, sys
run = sys.argv[1]
r = json.load(open(f"{run}/records/kem-ex/ExampleKEM-128__enc.json"))
cmd = r["processes"][0]["command"][0]
assert cmd == "<ngcc-perf>/bin/ngcc-perf-driver", cmd
p = json.load(open(f"{run}/profile/kem-ex/ExampleKEM-128__enc.json"))
assert p["status"] == "complete", p["status"]
assert p["command"][0] == "<ngcc-perf>/bin/ngcc-perf-profile", p["command"]
PY
fi
# Evidence names our files, never their location (docs/method.md §11.1).
# (Build logs are for people and never published: they show real paths.
# So is what valgrind and the sanitizers wrote, kept in build/<ID>/check/raw/,
# and the AddressSanitizer twin of `check`, whose global-variable
# descriptors name each source file as compiled; check records do not.)
if grep -rlF --exclude="*.build.log" --exclude-dir=raw --exclude-dir=asan --exclude="*.asan.so" \
	"$usr" "${evidence[@]}" >leaks.out; then
	fail "the installation path appears in: $(head -5 leaks.out)"
fi

# A runtime that is gone is named, with what to do.
mv "$usr/share/ngcc-perf" "$tmp/moved-share"
rc=0
ngcc-perf -C ws build kem-ex >gone.out 2>&1 || rc=$?
[ "$rc" = 4 ] || fail "build without runtime exited $rc (expected 4, an installation problem)"
grep -q "runtime source .*share/ngcc-perf/src/runtime/shim.c is missing" gone.out ||
	fail "no clear message without runtime: $(cat gone.out)"
grep -q "NGCC_PERF_HOME" gone.out || fail "the message does not name NGCC_PERF_HOME"
NGCC_PERF_HOME=$tmp/moved-share ngcc-perf -C ws build kem-ex >env.out 2>&1 ||
	fail "NGCC_PERF_HOME does not override: $(tail -5 env.out)"
mv "$tmp/moved-share" "$usr/share/ngcc-perf"

make -s -C "$NGCC_SRC" SAN=$san ${cc:+CC="$cc"} uninstall DESTDIR="$stage" PREFIX=/usr >"$tmp/uninstall.log" 2>&1 ||
	fail "make uninstall: $(tail -20 "$tmp/uninstall.log")"
left=$(find "$stage" -type f | head -5)
[ -z "$left" ] || fail "make uninstall left: $left"
echo "install: ok"
