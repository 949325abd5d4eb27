#!/usr/bin/env bash
# site.sh — the HTML site end to end (docs/report-format.md §10–§11): measure the
# example KEM briefly, then build the site from the run directory and from
# a published dataset; check that two builds are byte-identical, that every
# local href/src resolves, that each title is "ngcc-perf: " + the page's H1,
# that every table has its CSV, that SHA256SUMS verifies, that a foreign
# --out folder is refused, and, when Chromium is installed, that every page
# loads in a headless browser, the summary tables fit a 1280 and a 1920 px
# window without sideways scrolling, summaries and a candidate page at 1280
# and 390 px scroll sideways only with a visible cue and show every chart
# point with readable text (tests/tools/browser-check.py), and the landing
# page renders to a PNG.
# The measured run is a copy of the suite's shared campaign on the example
# package (shared/example-campaign.sh, into runs/c).
# shared: example-campaign
set -euo pipefail
: "${NGCC_BIN:?}" "${NGCC_SRC:?}"
export NGCC_PERF_HOME=${NGCC_PERF_HOME:-$NGCC_SRC}
ws=$(mktemp -d /tmp/ngcc-e2e-site.XXXXXX)
trap 'rm -rf "$ws"' EXIT
ngcc() { "$NGCC_BIN/ngcc-perf" -C "$ws" "$@"; }
. "$NGCC_SRC/tests/e2e/lib.bash"

shared_copy example-campaign "$ws" "$ws.log"
rc=$(cat "$ws.log/campaign.rc")
cp "$ws.log/campaign.err" "$ws/measure.err"
rm -rf "$ws.log"
[ "$rc" = 0 ] || { cat "$ws/measure.err"; fail "measure failed"; }

# --- from the run directory, twice: byte-identical -----------------------
ngcc site --dataset runs/c --out site-a >/dev/null
ngcc site --dataset runs/c --out site-b >/dev/null
diff -r "$ws/site-a" "$ws/site-b" >/dev/null || fail "two builds of the site differ"
# a rebuild into the same folder replaces the previous site
ngcc site --dataset runs/c --out site-a >/dev/null
# a folder that is not one of our sites is refused
mkdir "$ws/foreign" && echo keep >"$ws/foreign/notes.txt"
rc=0
ngcc site --dataset runs/c --out foreign >/dev/null 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "site into a foreign folder exited $rc, expected 2"
[ -f "$ws/foreign/notes.txt" ] || fail "site removed a foreign file"

sites=("$ws/site-a")

# --- from a published dataset, when publish is available ---------------
if ngcc publish --help >/dev/null 2>&1; then
	ngcc publish --run runs/c --dataset ds --publish-unfixed >/dev/null
	ngcc site --dataset ds >/dev/null
	[ -f "$ws/ds/site/index.html" ] || fail "site --dataset ds did not write ds/site/"
	sites+=("$ws/ds/site")

	# The same data as a second system, with security targets: the
	# comparison page and the equal-security pages appear and are linked.
	cp -r "$ws/ds" "$ws/ds2"
	rm -rf "$ws/ds2/site"
	sys=$(basename "$(ls -d "$ws"/ds2/data/*/ | head -1)")
	cp -r "$ws/ds2/data/$sys" "$ws/ds2/data/${sys}b"
	sed -i "s/\"system_id\": \"$sys\"/\"system_id\": \"${sys}b\"/" "$ws/ds2/data/${sys}b/campaign.json"
	printf 'ID;Instance;TargetBits\nexamplekem;ExampleKEM-128;128\nexamplekem;ExampleKEM-256;256\n' \
		>"$ws/ds2/security_targets.csv"
	ngcc site --dataset ds2 >/dev/null
	s2=$ws/ds2/site
	[ -f "$s2/compare.html" ] || fail "no compare.html with two systems"
	grep -q 'href="compare.html"' "$s2/index.html" || fail "compare.html not linked"
	grep -q 'class="mark"' "$s2/compare.html" || fail "compare.html has no ratio chart"
	for x in "$sys" "${sys}b"; do
		for bits in 128 256; do
			[ -f "$s2/$x/equal-security-$bits.html" ] || fail "no $x/equal-security-$bits.html"
			grep -q "href=\"equal-security-$bits.html\"" "$s2/$x/index.html" ||
				fail "$x/equal-security-$bits.html not linked from the summary"
		done
		[ -f "$s2/$x/equal-security-256-by-rank.html" ] || fail "no sorted copy"
		[ ! -e "$s2/$x/equal-security-512.html" ] || fail "equal-security page without targets"
	done
	sites+=("$s2")

	# Two systems published into one dataset: compare.md is in the
	# Markdown tree whenever compare.html is in the site.
	cp -r "$ws/runs/c" "$ws/runs/c2"
	sed -i "s/\"system_id\": \"$sys\"/\"system_id\": \"${sys}c\"/" "$ws/runs/c2/campaign.json"
	ngcc publish --run runs/c --dataset ds3 --publish-unfixed >/dev/null
	ngcc publish --run runs/c2 --dataset ds3 --publish-unfixed >/dev/null
	ngcc site --dataset ds3 >/dev/null
	[ -f "$ws/ds3/site/compare.html" ] || fail "no compare.html for two published systems"
	[ -f "$ws/ds3/reports/compare.md" ] || fail "compare.html without compare.md in the Markdown tree"
	imgs=$(grep -o '([^)]*/charts/compare-[^)]*\.svg)' "$ws/ds3/reports/compare.md" | tr -d '()')
	[ -n "$imgs" ] || fail "compare.md has no ratio chart"
	for img in $imgs; do
		[ -f "$ws/ds3/reports/$img" ] || fail "compare.md links $img, which the Markdown tree lacks"
	done
	ngcc validate ds3 >"$ws/v3.out" 2>&1 || fail "validate with compare.md: $(tail -5 "$ws/v3.out")"
	sites+=("$ws/ds3/site")
fi

# Every local href/src of every HTML and SVG file names an existing file.
check_links() {
	local site=$1 bad=0 f url target dir
	while IFS= read -r f; do
		dir=$(dirname "$f")
		while IFS= read -r url; do
			url=${url#*=\"}
			url=${url%\"}
			case $url in ''|'#'*|*:*) continue ;; esac
			url=${url%%\#*}
			url=${url%%\?*}
			target=$dir/$url
			if [ ! -f "$target" ]; then
				echo "dangling link in ${f#$site/}: $url" >&2
				bad=$((bad + 1))
			fi
		done < <(grep -o -E '(href|src)="[^"]*"' "$f" || true)
	done < <(find "$site" -name '*.html' -o -name '*.svg')
	[ "$bad" = 0 ] || fail "$bad dangling link(s) in $site"
}

# <title> is "ngcc-perf: " + the H1 text (tags stripped), underscores kept.
check_titles() {
	local site=$1 f title h1
	while IFS= read -r f; do
		title=$(grep -m1 -o '<title>[^<]*</title>' "$f" | sed 's/<[^>]*>//g')
		h1=$(grep -m1 -o '<h1 [^>]*>.*</h1>' "$f" | sed 's/<[^>]*>//g')
		[ -n "$h1" ] || fail "${f#$site/} has no H1"
		[ "$title" = "ngcc-perf: $h1" ] || fail "${f#$site/}: title '$title' vs H1 '$h1'"
	done < <(find "$site" -name '*.html')
}

# Each page's k-th table has <page>-table<k>.csv, and no more.
check_table_csvs() {
	local site=$1 f n k
	while IFS= read -r f; do
		n=$(grep -c '<table>' "$f" || true)
		for ((k = 1; k <= n; k++)); do
			[ -f "${f%.html}-table$k.csv" ] || fail "no CSV for table $k of ${f#$site/}"
		done
		[ ! -e "${f%.html}-table$((n + 1)).csv" ] || fail "stray CSV beside ${f#$site/}"
	done < <(find "$site" -name '*.html')
}

for site in "${sites[@]}"; do
	check_links "$site"
	check_titles "$site"
	check_table_csvs "$site"
	for sys in "$site"/data/*/; do
		(cd "$sys" && sha256sum --quiet -c SHA256SUMS) || fail "SHA256SUMS of $sys"
		head -1 "$sys/summary.csv" | grep -q '^system,candidate,label,variant,operation,status,target_bits,mean_cycles,' ||
			fail "summary.csv header"
		# reference rows (variant builds of the example add their own rows)
		[ "$(grep -c ',examplekem,ExampleKEM-[0-9]*,reference,' "$sys/summary.csv")" = 6 ] ||
			fail "summary.csv rows"
	done
	css=$(sha256sum "$site/style.css" | cut -c1-8)
	grep -q "style.css?v=$css\"" "$site/index.html" || fail "style.css version is not its digest"
	! grep -rl '<script' "$site" --include='*.html' >/dev/null || fail "a page ships a script"
	# the candidate chart: one mark per row of the CSV it links
	svg=$(find "$site" -name 'examplekem-cycles.svg' -print -quit)
	[ -n "$svg" ] || fail "no cycles chart"
	rows=$(($(wc -l <"${svg%.svg}.csv") - 1))
	marks=$(grep -o 'class="mark"' "$svg" | wc -l)
	[ "$rows" = 9 ] && [ "$marks" = "$rows" ] || fail "chart has $marks marks for $rows CSV rows"
	# "Systems" lists every system (the landing page's table), not the first one
	grep -q '<a href="[./]*index.html#systems">Systems</a>' "$site/index.html" || fail "Systems link"
	grep -q '<h2 id="systems">' "$site/index.html" || fail "no systems anchor on the landing page"
	while IFS= read -r f; do
		grep -q 'index.html#systems">Systems</a>' "$f" || fail "${f#$site/}: Systems link"
	done < <(find "$site" -name index.html -path '*/*/index.html')
	# the scatter's legend names "dominated" only when a point is
	for svg in $(find "$site" -name 'kem-cost.svg'); do
		if grep -q 'cycles</title>' "$svg"; then
			grep -q '>dominated[< ]' "$svg" || fail "$svg: a dominated point, not in the legend"
		else
			! grep -q '>dominated[< ]' "$svg" || fail "$svg: legend shows dominated, none is"
		fi
	done
	# section 5 says how its peak RSS differs from A.3's (the memory pass ran)
	cpage=$(find "$site" -name examplekem.html -print -quit)
	python3 - "$cpage" <<'PY' || fail "$cpage: no note on the two peak RSS figures in section 5"
import sys
p = open(sys.argv[1]).read()
note = p.find("Peak RSS here is the high-water mark of the timing processes")
assert p.find("5. Resource consumption</h2>") < note < p.find("6. Transmission and storage overhead</h2>")
assert "The operation peak RSS is not the peak RSS of section 5" in p
PY
	# the memory chart shows what varies: growth over the loaded RSS, stack, heap
	msvg=$(find "$site" -name 'examplekem-memory.svg' -print -quit)
	grep -q '>operation peak above loaded RSS<' "$msvg" || fail "memory chart legend"
	head -1 "${msvg%.svg}.csv" | grep -qx 'instance,operation,op_peak_above_loaded_rss_bytes,stack_peak_bytes,heap_peak_bytes' ||
		fail "memory chart CSV header"
	# one system: no comparison page and no link to one
	if [ "$(ls -d "$site"/data/*/ | wc -l)" = 1 ]; then
		[ ! -e "$site/compare.html" ] || fail "compare.html written for one system"
		! grep -rq 'compare.html' "$site" --include='*.html' || fail "compare.html linked"
	fi
done

# --- headless browser ------------------------------------------------
chromium=/usr/bin/chromium
if [ ! -x "$chromium" ]; then
	echo "SKIP: browser check: chromium not installed"
	exit 0
fi
# The sanitized pass (tests/run-tests sets NGCC_TEST_PASS) has built the same
# pages with the same code under ASan+UBSan; the browser runs none of our
# code, so the pages are loaded once, in the plain pass.
if [ "${NGCC_TEST_PASS:-}" = sanitized ]; then
	echo "SKIP: browser check in the plain pass only (the browser runs none of our code)"
	exit 0
fi
browse() {
	timeout 120 "$chromium" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$(mktemp -d "$ws/chrome.XXXXXX")" "$@" 2>/dev/null
}
# One browser start for all the pages (each start costs ~1.4 s): a harness
# page loads each page in a frame and writes what it finds into its own DOM
# (tests/tools/browser-check.py says what each kind of load checks).
#  - every page of the last site (its sorted copies aside): the DOM has its
#    H1;
#  - the summary pages of the first and the last site at 1280 and 1920 px:
#    neither a table nor a chart nor the page scrolls sideways;
#  - every summary page of every site, and a candidate page, at 1280 and at
#    390 px (a phone): the page never scrolls sideways and a table or chart
#    that does shows the scroll cue; every chart's text is at least 11 px as shown; every chart draws one
#    point per row of its CSV; every summary has a chart, and each cost
#    chart labels exactly the instances of the table it follows.
site=${sites[-1]}
{
	find "$site" -name '*.html' ! -name '*-by-*' | sort | sed 's/^/h1 0 /'
	for s in "${sites[0]}" "${sites[-1]}"; do
		find "$s" -mindepth 2 -maxdepth 2 -name index.html ! -path '*/data/*' | sort |
			sed 's/^/fit 1280 /; p; s/^fit 1280 /fit 1920 /'
	done
	for s in "${sites[@]}"; do
		find "$s" -mindepth 2 -maxdepth 2 -name index.html ! -path '*/data/*' | sort |
			sed 's/^/view 1280 /; p; s/^view 1280 /view 390 /'
	done
	cand=$(find "$site" -mindepth 2 -maxdepth 2 -name examplekem.html | sort | head -1)
	[ -n "$cand" ] || fail "no candidate page examplekem.html in $site"
	printf 'view 1280 %s\nview 390 %s\n' "$cand" "$cand"
} >"$ws/pages.txt"
check=$NGCC_SRC/tests/tools/browser-check.py
python3 "$check" harness "$ws/pages.txt" "$ws/harness.html"
browse --allow-file-access-from-files --virtual-time-budget=30000 --dump-dom "file://$ws/harness.html" \
	>"$ws/harness.dom" || fail "chromium could not load the harness page"
python3 "$check" check "$ws/pages.txt" "$ws/harness.dom" || fail "browser check"
(cd "$ws" && browse --screenshot="$ws/index.png" --window-size=1200,900 "file://$site/index.html" >/dev/null)
[ -s "$ws/index.png" ] || fail "no screenshot"
[ "$(head -c 8 "$ws/index.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ] ||
	fail "screenshot is not a PNG"
echo "site: ${#sites[@]} site(s) checked, browser ok"
