/* html.c — see html.h. */
#include "site/html.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <stdlib.h>
#include <string.h>

#define CMARK_OPTS CMARK_OPT_DEFAULT   /* safe: raw HTML is never rendered */

char *html_heading_id(const char *text)
{
	struct strbuf sb = STRBUF_INIT;
	for (const char *p = text; *p; p++) {
		char c = *p;
		if (c >= 'A' && c <= 'Z')
			c = (char)(c - 'A' + 'a');
		if (c == ' ')
			sb_addc(&sb, '-');
		else if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-')
			sb_addc(&sb, c);
	}
	return sb_detach(&sb);
}

static int word_in(const char *text, const char *const *words)
{
	size_t n = strcspn(text, " ");
	for (; *words; words++)
		if (strlen(*words) == n && !strncmp(text, *words, n))
			return 1;
	return 0;
}

const char *html_status_class(const char *cell)
{
	static const char *const bad[] = {
		"MISMATCH", "CRYPTOFAIL", "CRASH", "OVERFLOW", "LOADFAIL", "BUILDFAIL",
		"NOLOG", "NORESULT", "failed", NULL,
	};
	static const char *const warn[] = { "TIMEOUT", "NOKAT", "PARTIAL", "timeout", "incomplete",
		NULL };
	/* "clean": a check without findings (page_checks.c) */
	static const char *const ok[] = { "PASS", "clean", NULL };
	while (*cell == ' ')
		cell++;
	if (strstr(cell, "not timed"))
		return "muted";
	/* "<n> finding(s)": a check's findings */
	size_t digits = strspn(cell, "0123456789");
	if (digits && str_starts_with(cell + digits, " finding"))
		return "bad";
	if (word_in(cell, bad))
		return "bad";
	if (word_in(cell, warn))
		return "warn";
	if (word_in(cell, ok))
		return "ok";
	return NULL;
}

char *html_rewrite_url(const char *url)
{
	size_t path_len = strcspn(url, "#?");
	int local = !strchr(url, ':') && url[0] != '/' && url[0] != '#';
	if (!local || path_len < 3 || strncmp(url + path_len - 3, ".md", 3))
		return xstrdup(url);
	return xasprintf("%.*s.html%s", (int)(path_len - 3), url, url + path_len);
}

/* ---- AST helpers ------------------------------------------------------------ */

static void plain_text(cmark_node *n, struct strbuf *sb)
{
	for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
		switch (cmark_node_get_type(c)) {
		case CMARK_NODE_TEXT:
		case CMARK_NODE_CODE:
		case CMARK_NODE_HTML_INLINE:
			sb_adds(sb, cmark_node_get_literal(c));
			break;
		case CMARK_NODE_SOFTBREAK:
		case CMARK_NODE_LINEBREAK:
			sb_addc(sb, ' ');
			break;
		default:
			plain_text(c, sb);
		}
	}
}

static char *node_text(cmark_node *n)
{
	struct strbuf sb = STRBUF_INIT;
	plain_text(n, &sb);
	return sb_detach(&sb);
}

static int is_type(cmark_node *n, const char *name)
{
	const char *t = cmark_node_get_type_string(n);
	return t && !strcmp(t, name);
}

static void rewrite_links(cmark_node *root)
{
	cmark_iter *it = cmark_iter_new(root);
	cmark_event_type ev;
	while ((ev = cmark_iter_next(it)) != CMARK_EVENT_DONE) {
		cmark_node *n = cmark_iter_get_node(it);
		if (ev != CMARK_EVENT_ENTER || cmark_node_get_type(n) != CMARK_NODE_LINK)
			continue;
		char *u = html_rewrite_url(cmark_node_get_url(n));
		cmark_node_set_url(n, u);
		free(u);
	}
	cmark_iter_free(it);
}

/* ---- block rendering ---------------------------------------------------------- */

struct conv {
	const struct html_opts *o;
	cmark_llist *exts;
	struct html_doc *d;
	struct strbuf body;
	struct strlist ids;
};

static char *render(struct conv *cv, cmark_node *n)
{
	return cmark_render_html(n, CMARK_OPTS, cv->exts);
}

/* "<tag>inner</tag>\n" → inner. */
static char *strip_wrapper(char *html)
{
	char *open_end = strchr(html, '>');
	char *close = strrchr(html, '<');
	if (!open_end || !close || close <= open_end)
		return html;
	char *inner = xstrndup(open_end + 1, (size_t)(close - open_end - 1));
	free(html);
	return inner;
}

static char *unique_id(struct conv *cv, const char *text)
{
	char *base = html_heading_id(text);
	if (!*base) {
		free(base);
		base = xstrdup("section");
	}
	char *id = xstrdup(base);
	for (int k = 1; sl_contains(&cv->ids, id); k++) {
		free(id);
		id = xasprintf("%s-%d", base, k);
	}
	free(base);
	sl_push(&cv->ids, id);
	return id;
}

static void emit_heading(struct conv *cv, cmark_node *n)
{
	int level = cmark_node_get_heading_level(n);
	char *text = node_text(n);
	char *id = unique_id(cv, text);
	char *inner = strip_wrapper(render(cv, n));
	struct html_doc *d = cv->d;
	sb_addf(&cv->body, "<h%d id=\"%s\">%s</h%d>\n", level, id, inner, level);
	if (level == 1 && !d->h1)
		d->h1 = xstrdup(text);
	d->headings = xrealloc(d->headings, (d->n_headings + 1) * sizeof *d->headings);
	d->headings[d->n_headings++] = (struct html_heading){ level, id, text };
	free(inner);
}

/* The table's cells as text, and the class of each body cell in order. */
static void collect_table(cmark_node *table, struct html_table *t, struct strlist *classes)
{
	memset(t, 0, sizeof *t);
	t->ncols = cmark_gfm_extensions_get_table_columns(table);
	for (cmark_node *row = cmark_node_first_child(table); row; row = cmark_node_next(row)) {
		int header = cmark_gfm_extensions_get_table_row_is_header(row);
		char **cells = xcalloc(t->ncols + 1, sizeof *cells);
		size_t j = 0;
		for (cmark_node *c = cmark_node_first_child(row); c; c = cmark_node_next(c)) {
			char *txt = node_text(c);
			if (!header) {
				const char *cls = html_status_class(txt);
				sl_push(classes, cls ? cls : "");
			}
			if (j < t->ncols)
				cells[j++] = txt;
			else
				free(txt);
		}
		while (j < t->ncols)
			cells[j++] = xstrdup("");
		t->rows = xrealloc(t->rows, (t->nrows + 1) * sizeof *t->rows);
		t->rows[t->nrows++] = cells;
	}
}

/* A rank "(#2.5)" that ends a cell is set in small print. */
static char *small_ranks(const char *html)
{
	struct strbuf sb = STRBUF_INIT;
	const char *p = html;
	for (const char *r; (r = strstr(p, " (#"));) {
		size_t k = strspn(r + 3, "0123456789.");
		if (k && !strncmp(r + 3 + k, ")</td>", 6)) {
			sb_add(&sb, p, (size_t)(r - p));
			sb_addf(&sb, " <small class=\"rank\">(#%.*s)</small>", (int)k, r + 3);
			p = r + 4 + k;
		} else {
			sb_add(&sb, p, (size_t)(r + 3 - p));
			p = r + 3;
		}
	}
	sb_adds(&sb, p);
	return sb_detach(&sb);
}

static void emit_table(struct conv *cv, cmark_node *n)
{
	struct html_doc *d = cv->d;
	struct strlist classes = STRLIST_INIT;
	d->tables = xrealloc(d->tables, (d->n_tables + 1) * sizeof *d->tables);
	collect_table(n, &d->tables[d->n_tables++], &classes);
	char *raw = render(cv, n), *html = small_ranks(raw);
	free(raw);
	sb_adds(&cv->body, "<div class=\"table-wrap\">\n");
	size_t k = 0;
	for (const char *p = html; *p;) {
		const char *td = strstr(p, "<td>");
		if (!td) {
			sb_adds(&cv->body, p);
			break;
		}
		sb_add(&cv->body, p, (size_t)(td - p));
		const char *cls = k < classes.n ? classes.items[k] : "";
		k++;
		if (*cls)
			sb_addf(&cv->body, "<td class=\"%s\">", cls);
		else
			sb_adds(&cv->body, "<td>");
		p = td + 4;
	}
	sb_adds(&cv->body, "</div>\n");
	if (cv->o && cv->o->csv_stem) {
		sb_adds(&cv->body, "<p class=\"csv\"><a href=\"");
		html_escape(&cv->body, cv->o->csv_stem);
		sb_addf(&cv->body, "%zu.csv\">Table as CSV</a></p>\n", d->n_tables);
	}
	free(html);
	sl_free(&classes);
}

/* A paragraph made only of chart images (and line breaks) whose SVGs the
 * caller provides becomes a row of inlined figures. */
static int emit_charts(struct conv *cv, cmark_node *para)
{
	if (!cv->o || !cv->o->inline_svg)
		return 0;
	struct strlist svgs = STRLIST_INIT;
	int ok = 1;
	for (cmark_node *c = cmark_node_first_child(para); c && ok; c = cmark_node_next(c)) {
		cmark_node_type t = cmark_node_get_type(c);
		if (t == CMARK_NODE_SOFTBREAK || t == CMARK_NODE_LINEBREAK)
			continue;
		if (t == CMARK_NODE_TEXT && !cmark_node_get_literal(c)[strspn(cmark_node_get_literal(c), " ")])
			continue;
		char *svg = NULL;
		if (t == CMARK_NODE_IMAGE) {
			char *alt = node_text(c);
			svg = cv->o->inline_svg(cv->o->ctx, cmark_node_get_url(c), alt);
			free(alt);
		}
		if (svg)
			sl_push_owned(&svgs, svg);
		else
			ok = 0;
	}
	int inlined = ok && svgs.n;
	if (inlined)
		for (size_t i = 0; i < svgs.n; i++)
			sb_addf(&cv->body, "<figure class=\"chart\">\n%s</figure>\n", svgs.items[i]);
	sl_free(&svgs);
	return inlined;
}

static int is_crumb(cmark_node *n)
{
	if (cmark_node_get_type(n) != CMARK_NODE_PARAGRAPH)
		return 0;
	char *t = node_text(n);
	int yes = strstr(t, "\xe2\x80\xba") != NULL;   /* › U+203A */
	free(t);
	return yes;
}

int html_convert(const char *md, size_t len, const struct html_opts *o, struct html_doc *d)
{
	memset(d, 0, sizeof *d);
	cmark_gfm_core_extensions_ensure_registered();
	cmark_syntax_extension *table = cmark_find_syntax_extension("table");
	cmark_parser *parser = cmark_parser_new(CMARK_OPTS);
	if (!table || !parser) {
		if (parser)
			cmark_parser_free(parser);
		return -1;
	}
	cmark_parser_attach_syntax_extension(parser, table);
	cmark_parser_feed(parser, md, len);
	cmark_node *doc = cmark_parser_finish(parser);
	rewrite_links(doc);
	struct conv cv = { o, cmark_parser_get_syntax_extensions(parser), d, STRBUF_INIT, STRLIST_INIT };
	int seen_heading = 0;
	for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
		cmark_node_type t = cmark_node_get_type(n);
		if (t == CMARK_NODE_HEADING) {
			seen_heading = 1;
			emit_heading(&cv, n);
		} else if (!seen_heading && !d->crumb && is_crumb(n)) {
			d->crumb = strip_wrapper(render(&cv, n));
		} else if (is_type(n, "table")) {
			emit_table(&cv, n);
		} else if (t == CMARK_NODE_PARAGRAPH && emit_charts(&cv, n)) {
			;
		} else {
			char *h = render(&cv, n);
			sb_adds(&cv.body, h);
			free(h);
		}
	}
	d->body = sb_detach(&cv.body);
	sl_free(&cv.ids);
	cmark_node_free(doc);
	cmark_parser_free(parser);
	return 0;
}

void html_doc_free(struct html_doc *d)
{
	for (size_t i = 0; i < d->n_tables; i++) {
		struct html_table *t = &d->tables[i];
		for (size_t r = 0; r < t->nrows; r++) {
			for (size_t c = 0; c < t->ncols; c++)
				free(t->rows[r][c]);
			free(t->rows[r]);
		}
		free(t->rows);
	}
	for (size_t i = 0; i < d->n_headings; i++) {
		free(d->headings[i].id);
		free(d->headings[i].text);
	}
	free(d->tables);
	free(d->headings);
	free(d->crumb);
	free(d->body);
	free(d->h1);
	memset(d, 0, sizeof *d);
}
