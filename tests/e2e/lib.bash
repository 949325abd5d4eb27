# lib.bash — sourced by the end-to-end scripts: the generated fixture packages
# and the suite's shared workspaces.
#
#   $NGCC_FIXTURES   the fixture packages generated from tests/fixtures/
#                    (make fixtures; default obj/fixtures)
#   shared_copy NAME WS [LOG]
#                    copy the shared workspace NAME into WS (and the output
#                    of the commands that made it into LOG).  tests/run-tests
#                    makes each one once per suite with tests/e2e/shared/NAME.sh
#                    (in $NGCC_SHARED) and starts a script only after the
#                    shared workspaces it names in a "# shared: NAME..." line;
#                    a script run alone makes its own copy first.
#   fail MESSAGE     print "FAIL: MESSAGE" on stderr and exit 1
#   has FILE TEXT    fail, showing FILE, unless FILE contains TEXT
#   hasnt FILE TEXT  fail, showing FILE, if FILE contains TEXT
# (A script may define its own fail, has or hasnt after sourcing this.)
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
fail() { echo "FAIL: $*" >&2; exit 1; }
has() { grep -qF -- "$2" "$1" || { cat "$1"; fail "'$2' not in $1"; }; }
hasnt() { ! grep -qF -- "$2" "$1" || { cat "$1"; fail "'$2' unexpectedly in $1"; }; }
export NGCC_FIXTURES=${NGCC_FIXTURES:-$NGCC_SRC/obj/fixtures}
[ -d "$NGCC_FIXTURES/layouts" ] ||
	fail "no generated fixtures in $NGCC_FIXTURES: run \`make fixtures\` (or set NGCC_FIXTURES)"

shared_copy() {
	local name=$1 ws=$2 log=${3:-} dir tmp=
	if [ -n "${NGCC_SHARED:-}" ] && [ -f "$NGCC_SHARED/$name/ok" ]; then
		dir=$NGCC_SHARED/$name
	else
		tmp=$(mktemp -d /tmp/ngcc-e2e-shared.XXXXXX)
		dir=$tmp/$name
		if ! bash "$NGCC_SRC/tests/e2e/shared/$name.sh" "$dir" >"$tmp/log" 2>&1; then
			cat "$tmp/log" >&2
			rm -rf "$tmp"
			echo "FAIL: shared workspace $name: tests/e2e/shared/$name.sh failed" >&2
			exit 1
		fi
	fi
	mkdir -p "$ws"
	cp -a "$dir/ws/." "$ws/"
	if [ -n "$log" ]; then
		mkdir -p "$log"
		cp -a "$dir/log/." "$log/"
	fi
	[ -z "$tmp" ] || rm -rf "$tmp"
}

# browser_check DIR PAGE... — load each HTML page in headless Chromium at
# 1280 and 390 px and check it as tests/tools/browser-check.py's "view"
# loads do (no sideways page scroll, a scroll cue on every box that
# scrolls, chart text of 11 px or more, one chart point per CSV row, a
# chart on every summary whose cost charts label every instance of their
# table).  Working files go in DIR.  Skipped without Chromium and in the
# sanitized pass (the browser runs none of our code).
browser_check() {
	local dir=$1 page chromium=/usr/bin/chromium
	shift
	if [ ! -x "$chromium" ]; then
		echo "SKIP: browser check: chromium not installed"
		return 0
	fi
	if [ "${NGCC_TEST_PASS:-}" = sanitized ]; then
		echo "SKIP: browser check in the plain pass only (the browser runs none of our code)"
		return 0
	fi
	for page in "$@"; do
		[ -f "$page" ] || fail "browser check: no page $page"
		printf 'view 1280 %s\nview 390 %s\n' "$page" "$page"
	done >"$dir/browser-pages.txt"
	python3 "$NGCC_SRC/tests/tools/browser-check.py" harness "$dir/browser-pages.txt" \
		"$dir/browser-harness.html"
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$(mktemp -d "$dir/chrome.XXXXXX")" \
		--allow-file-access-from-files --virtual-time-budget=30000 \
		--dump-dom "file://$dir/browser-harness.html" >"$dir/browser-harness.dom" 2>/dev/null ||
		fail "chromium could not load the harness page"
	python3 "$NGCC_SRC/tests/tools/browser-check.py" check "$dir/browser-pages.txt" \
		"$dir/browser-harness.dom" || fail "browser check"
}
