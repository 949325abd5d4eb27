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
