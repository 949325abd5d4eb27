# lib.bash — sourced by the end-to-end scripts: where the fixture packages
# generated from tests/fixtures/ are ($NGCC_FIXTURES; make fixtures; default
# obj/fixtures).
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_FIXTURES=${NGCC_FIXTURES:-$NGCC_SRC/obj/fixtures}
[ -d "$NGCC_FIXTURES/layouts" ] ||
	{ echo "FAIL: no generated fixtures in $NGCC_FIXTURES: run \`make fixtures\` (or set NGCC_FIXTURES)" >&2; exit 1; }
