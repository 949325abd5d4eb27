#!/usr/bin/env bash
# manpage.sh — docs/ngcc-perf.1 keeps up with the program: it formats
# without groff warnings, has a section for every command `ngcc-perf --help`
# lists, names every long option each `<command> --help` prints, every
# exit code, and the environment variables src/util/locate.c reads.
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
man1=$NGCC_SRC/docs/ngcc-perf.1
ngcc=$NGCC_BIN/ngcc-perf
fail() { echo "FAIL: $*" >&2; exit 1; }
problems=0
missing() { echo "missing from ngcc-perf.1: $*" >&2; problems=$((problems + 1)); }

[ -f "$man1" ] || fail "no $man1"
! LC_ALL=C grep -nP '[^\x00-\x7f]' "$man1" || fail "non-ASCII characters (write roff escapes)"
warnings=$(groff -man -ww -z "$man1" 2>&1) || fail "groff failed: $warnings"
[ -z "$warnings" ] || fail "groff warnings: $warnings"

# The options as roff writes them: every '-' escaped.
text=$(sed 's/\\-/-/g' "$man1")

commands=$("$ngcc" --help | sed -n '/^Commands:/,/^$/p' | awk 'NF && !/^Commands:/ { print $1 }')
[ -n "$commands" ] || fail "no commands in ngcc-perf --help"
for cmd in $commands; do
	grep -qx "\.SS \"\?$cmd\"\?" <<<"$text" || missing "section .SS $cmd"
	for opt in $("$ngcc" "$cmd" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
		grep -qF -- "$opt" <<<"$text" || missing "$cmd option $opt"
	done
done
for opt in $("$ngcc" --help | grep -oE -- '--[a-z][a-z-]*' | sort -u); do
	grep -qF -- "$opt" <<<"$text" || missing "global option $opt"
done

exit_codes=$(sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$man1" | grep -A1 '^\.TP' | grep -oE '^\.B [0-9]+$' | awk '{ print $2 }' | tr '\n' ' ')
[ "$exit_codes" = "0 1 2 3 4 130 " ] || missing "exit codes 0-4 and 130 (found: $exit_codes)"

for var in $(grep -oE 'NGCC_PERF_[A-Z]+' "$NGCC_SRC/src/util/locate.c" | sort -u); do
	sed -n '/^\.SH ENVIRONMENT/,/^\.SH /p' "$man1" | grep -qx "\.B $var" || missing "ENVIRONMENT entry $var"
done

[ "$problems" -eq 0 ] || fail "$problems item(s) missing from the manual page"
echo "manpage: ok"
