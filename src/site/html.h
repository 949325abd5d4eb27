/*
 * html.h — one Markdown report page to HTML (docs/report-format.md §10.1) with
 * cmark-gfm and its table extension.  On top of cmark-gfm's rendering:
 *  - headings get ids (lowercase; spaces → `-`; other characters outside
 *    [a-z0-9_-] dropped; repeats get `-1`, `-2`, …);
 *  - every <table> sits in <div class="table-wrap">, status cells get the
 *    classes ok / bad / warn / muted, and a link to the table's CSV
 *    (`<csv_stem><k>.csv`, k from 1) follows the table;
 *  - relative links to `.md` pages point to the `.html` page instead;
 *  - a paragraph of chart images is replaced by the inlined SVGs when the
 *    caller supplies them;
 *  - a breadcrumb paragraph before the first heading (it holds `›`) is
 *    returned apart, for the template's <p class="crumb">.
 * Raw HTML in the Markdown is never passed through.
 */
#ifndef NGCC_SITE_HTML_H
#define NGCC_SITE_HTML_H

#include <stddef.h>

#include "util/util.h"

/* A table's cells as plain text (code spans without backticks); rows[0] is
 * the header row. */
struct html_table {
	char ***rows;
	size_t nrows, ncols;
};

struct html_heading {
	int level;
	char *id, *text;
};

struct html_doc {
	char *crumb;       /* inner HTML of the breadcrumb, or NULL */
	char *body;        /* content of <main> */
	char *h1;          /* plain text of the first H1, or NULL */
	struct html_table *tables;
	size_t n_tables;
	struct html_heading *headings;
	size_t n_headings;
};

/* The SVG text to inline for a chart image URL, or NULL to keep an <img>. */
typedef char *(*html_svg_fn)(void *ctx, const char *url, const char *alt);

struct html_opts {
	const char *csv_stem;   /* e.g. "kem-12-table"; NULL: no CSV links */
	html_svg_fn inline_svg; /* may be NULL */
	void *ctx;
};

/* 0, or -1 when cmark-gfm fails (out of memory or no table extension). */
int html_convert(const char *md, size_t len, const struct html_opts *o, struct html_doc *d);
void html_doc_free(struct html_doc *d);

/* Heading id from heading text, before de-duplication. Caller frees. */
char *html_heading_id(const char *text);
/* The class of a status cell's plain text, or NULL. */
const char *html_status_class(const char *cell_text);
/* html_escape(), shared with the SVG charts, is in util/util.h. */
/* "x.md" → "x.html" (also with #fragment) for relative links; other URLs
 * unchanged.  Caller frees. */
char *html_rewrite_url(const char *url);

#endif
