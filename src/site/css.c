/*
 * css.c — the site's single stylesheet (docs/report-format.md §10.1): system
 * font stack, light and dark themes through prefers-color-scheme, sticky
 * table headers inside scrollable table wrappers (headers wrap, so the
 * summary table fits a 1280 px window without scrolling), status cell colours that
 * also differ in weight or style (not colour alone), and print rules.
 */
#include "site/css.h"
#include "util/util.h"

#include <string.h>

const char site_css[] =
	":root {\n"
	"  color-scheme: light dark;\n"
	"  --fg: #1b1f24; --bg: #ffffff; --muted: #5b6470; --line: #d0d7de;\n"
	"  --head: #f3f5f7; --link: #0b5cad; --ok: #1a7f37; --bad: #b42318;\n"
	"  --warn: #8a5a00; --code: #f2f4f6;\n"
	"}\n"
	"@media (prefers-color-scheme: dark) {\n"
	"  :root {\n"
	"    --fg: #e6e8eb; --bg: #14171a; --muted: #9aa4af; --line: #3a4149;\n"
	"    --head: #1f2428; --link: #7cb7ff; --ok: #56d364; --bad: #ff7b72;\n"
	"    --warn: #e3b341; --code: #22272e;\n"
	"  }\n"
	"}\n"
	"html { -webkit-text-size-adjust: 100%; }\n"
	"body {\n"
	"  margin: 0 auto; max-width: 80rem; padding: 0 1rem 2rem;\n"
	"  font-family: system-ui, -apple-system, \"Segoe UI\", Roboto, \"Helvetica Neue\",\n"
	"    Arial, \"Noto Sans\", sans-serif;\n"
	"  font-size: 16px; line-height: 1.5; color: var(--fg); background: var(--bg);\n"
	"}\n"
	"a { color: var(--link); }\n"
	"code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, \"Liberation Mono\",\n"
	"  monospace; font-size: 0.9em; background: var(--code); padding: 0 0.2em;\n"
	"  border-radius: 3px; }\n"
	"header.site { display: flex; flex-wrap: wrap; align-items: baseline; gap: 0.5rem 1.5rem;\n"
	"  border-bottom: 1px solid var(--line); padding: 0.75rem 0; }\n"
	"header.site .brand { font-weight: 700; text-decoration: none; color: var(--fg); }\n"
	"nav a[aria-current] { font-weight: 700; text-decoration: none; color: var(--fg); }\n"
	"p.crumb { color: var(--muted); font-size: 0.9rem; margin: 0.75rem 0; }\n"
	"nav.jump { font-size: 0.9rem; margin: 0.5rem 0; }\n"
	"h1 { font-size: 1.6rem; line-height: 1.25; }\n"
	"h2 { font-size: 1.3rem; margin-top: 2rem; border-bottom: 1px solid var(--line); }\n"
	"h3 { font-size: 1.1rem; margin-top: 1.5rem; }\n"
	"hr { border: 0; border-top: 1px solid var(--line); margin: 2rem 0; }\n"
	".table-wrap { overflow: auto; max-height: 85vh; margin: 0.5rem 0; width: fit-content;\n"
	"  max-width: 100%;\n"
	"  border: 1px solid var(--line); }\n"
	"table { border-collapse: separate; border-spacing: 0; font-size: 0.9rem;\n"
	"  font-variant-numeric: tabular-nums; }\n"
	"th, td { padding: 0.25rem 0.6rem; border-bottom: 1px solid var(--line);\n"
	"  text-align: left; vertical-align: top; }\n"
	"thead th { position: sticky; top: 0; z-index: 1; background: var(--head); }\n"
	"tbody tr:hover td { background: var(--head); }\n"
	"td.ok { color: var(--ok); }\n"
	"td.bad { color: var(--bad); font-weight: 700; }\n"
	"td.warn { color: var(--warn); font-weight: 600; }\n"
	"td.muted { color: var(--muted); font-style: italic; }\n"
	"p.csv { font-size: 0.85rem; margin: 0 0 1rem; }\n"
	"td code { white-space: nowrap; }\n"
	"small.rank { color: var(--muted); font-size: 0.8em; }\n"
	"figure.chart { margin: 1rem 0; overflow-x: auto; }\n"
	"figure.chart svg { max-width: 100%; height: auto; }\n"
	"svg .ctitle { font-weight: 700; font-size: 13px; }\n"
	"svg .tick, svg .legend, svg .csv { font-size: 11px; }\n"
	"svg a .csv { fill: var(--link); text-decoration: underline; }\n"
	"footer { margin-top: 3rem; border-top: 1px solid var(--line); color: var(--muted);\n"
	"  font-size: 0.85rem; }\n"
	"@media print {\n"
	"  :root { --fg: #000; --bg: #fff; --muted: #444; --line: #999; --head: #eee;\n"
	"    --link: #000; --code: #f4f4f4; }\n"
	"  body { max-width: none; padding: 0; font-size: 10pt; }\n"
	"  header.site nav, nav.jump, p.csv, svg .csvlink { display: none; }\n"
	"  .table-wrap { overflow: visible; max-height: none; border: 0; }\n"
	"  thead { display: table-header-group; }\n"
	"  thead th { position: static; }\n"
	"  tr, figure { break-inside: avoid; }\n"
	"  h2, h3 { break-after: avoid; }\n"
	"  a { text-decoration: none; }\n"
	"}\n";

void site_css_version(char out[9])
{
	char hex[65];
	sha256_hex(site_css, strlen(site_css), hex);
	memcpy(out, hex, 8);
	out[8] = '\0';
}
