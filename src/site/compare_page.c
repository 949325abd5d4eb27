/*
 * compare_page.c — the comparison of two datasets (compare/compare.h) as a
 * small site of its own: index.html (the Markdown sections converted by
 * html.c in a page like the site's, with the ratio chart inlined),
 * style.css, compare.md, compare.csv, the chart compare-ratio.svg and the
 * CSV it was drawn from.  Deterministic: no clock, no random ids.
 */
#include "site/compare_page.h"

#include <stdlib.h>
#include <string.h>

#include "charts/svg.h"
#include "site/css.h"
#include "site/html.h"

#define CHART_NAME "compare-ratio"

/* Ratio chart: one dot per compared row with its interval; colour by verdict. */
static char *ratio_chart(const struct cmp_result *r, char **csv)
{
	static const char *const series[] = { "no significant change", "regression",
					      "improvement" };
	struct svg_dot *d = xcalloc(r->n_rows ? r->n_rows : 1, sizeof *d);
	struct strlist labels = STRLIST_INIT;
	struct strbuf c = STRBUF_INIT;
	size_t n = 0;
	sb_adds(&c, "label,ratio,ci_low,ci_high,verdict\r\n");
	for (size_t i = 0; i < r->n_rows; i++) {
		const struct cmp_row *w = &r->rows[i];
		if (!w->time.valid || !(w->time.lo > 0))
			continue;
		sl_push_owned(&labels, xasprintf("%s/%s %s", w->cand, w->stem, w->op));
		d[n] = (struct svg_dot){ NULL, w->time.ratio, w->time.lo, w->time.hi,
					 w->verdict == CMP_REGRESSION ? 1
					 : w->verdict == CMP_IMPROVEMENT ? 2 : 0 };
		sb_addf(&c, "%s,%.9g,%.9g,%.9g,%s\r\n", labels.items[n], w->time.ratio, w->time.lo,
			w->time.hi, cmp_verdict_word(w->verdict));
		n++;
	}
	for (size_t i = 0; i < n; i++)
		d[i].label = labels.items[i];
	char *svg = NULL;
	if (n) {
		struct svg_chart_text t = { "Time per call, B / A",
					    "Ratio of B's mean time per call to A's, one dot per "
					    "instance and operation, with its 95 % bootstrap interval",
					    "B / A (log scale)", "", CHART_NAME ".csv" };
		svg = svg_dotplot_log(&t, d, n, series, 3, NULL);
	}
	*csv = sb_detach(&c);
	sl_free(&labels);
	free(d);
	return svg;
}

struct inline_ctx {
	const char *svg;
};

static char *inline_svg(void *ctx, const char *url, const char *alt)
{
	const struct inline_ctx *ic = ctx;
	(void)alt;
	return ic->svg && !strcmp(url, CHART_NAME ".svg") ? xstrdup(ic->svg) : NULL;
}

static char *wrap(const char *title, const struct html_doc *d)
{
	struct strbuf sb = STRBUF_INIT;
	char css_version[9];
	site_css_version(css_version);
	sb_adds(&sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n<title>ngcc-perf: ");
	html_escape(&sb, title);
	sb_addf(&sb, "</title>\n<link rel=\"stylesheet\" href=\"style.css?v=%s\">\n</head>\n"
		"<body>\n<header class=\"site\">\n<a class=\"brand\" href=\"index.html\">ngcc-perf"
		"</a>\n<nav class=\"top\"><a href=\"compare.md\">Markdown</a> \xc2\xb7 "
		"<a href=\"compare.csv\">CSV</a></nav>\n</header>\n<main>\n%s</main>\n"
		"</body>\n</html>\n", css_version, d->body);
	return sb_detach(&sb);
}

int site_compare_files(const struct cmp_result *r, const char *title, struct site_files *out,
		       char **err)
{
	char *chart_csv = NULL;
	char *svg = ratio_chart(r, &chart_csv);
	char *body = cmp_markdown(r, 2, svg ? "![Time per call, B / A](" CHART_NAME ".svg)" : NULL);
	char *md = xasprintf("# %s\n\n%s", title, body);
	free(body);
	struct inline_ctx ic = { svg };
	struct html_opts o = { "compare-table", inline_svg, &ic };
	struct html_doc d;
	if (html_convert(md, strlen(md), &o, &d)) {
		*err = xstrdup("cmark-gfm could not convert the comparison page");
		free(md);
		free(svg);
		free(chart_csv);
		return -1;
	}
	char *page = wrap(title, &d);
	site_files_add(out, "index.html", page, strlen(page));
	for (size_t k = 0; k < d.n_tables; k++) {
		const struct html_table *t = &d.tables[k];
		struct strbuf c = STRBUF_INIT;
		for (size_t i = 0; i < t->nrows; i++)
			for (size_t j = 0; j < t->ncols; j++) {
				const char *cell = t->rows[i][j] ? t->rows[i][j] : "";
				int q = strpbrk(cell, ",\"\r\n") != NULL;
				sb_adds(&c, q ? "\"" : "");
				for (const char *p = cell; *p; p++) {
					if (*p == '"')
						sb_addc(&c, '"');
					sb_addc(&c, *p);
				}
				sb_adds(&c, q ? "\"" : "");
				sb_adds(&c, j + 1 < t->ncols ? "," : "\r\n");
			}
		char *name = xasprintf("compare-table%zu.csv", k + 1);
		site_files_add(out, name, c.buf ? c.buf : xstrdup(""), c.len);
		free(name);
	}
	html_doc_free(&d);
	site_files_add_str(out, "style.css", site_css);
	/* So that `compare --out` may replace its own page next time. */
	site_files_add_str(out, SITE_MARKER, "ngcc-perf compare: this directory is replaced "
			   "whole by the next `ngcc-perf compare --out` into it.\n");
	site_files_add(out, "compare.md", md, strlen(md));
	char *csv = cmp_csv(r);
	site_files_add(out, "compare.csv", csv, strlen(csv));
	if (svg) {
		site_files_add(out, CHART_NAME ".svg", svg, strlen(svg));
		site_files_add(out, CHART_NAME ".csv", chart_csv, strlen(chart_csv));
	} else {
		free(chart_csv);
	}
	site_files_sort(out);
	return 0;
}
