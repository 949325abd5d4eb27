/* site.c — see site.h: the page template and the build. */
#include "site/site.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts/csv.h"
#include "method/format.h"
#include "report/pages.h"
#include "site/html.h"

/* ---- build state ----------------------------------------------------------------- */

struct build {
	const struct site_input *in;
	struct site_files *out;
	struct site_files md;           /* the pages to convert (report + ours) */
	struct site_charts *charts;     /* per system */
	char css_version[9];
	char digest[FMT_MAX];           /* dataset digest prefix */
	char data_as_of[FMT_MAX];
};

static const struct site_system *system_of(const struct build *b, const char *path)
{
	size_t n = strcspn(path, "/");
	if (!path[n])
		return NULL;
	for (size_t i = 0; i < b->in->n_sys; i++) {
		const char *id = b->in->sys[i].ds->system_id;
		if (strlen(id) == n && !strncmp(id, path, n))
			return &b->in->sys[i];
	}
	return NULL;
}

static const struct site_chart *find_chart(const struct build *b, const char *path)
{
	for (size_t s = 0; s < b->in->n_sys; s++) {
		const char *id = b->in->sys[s].ds->system_id;
		for (size_t i = 0; i < b->charts[s].n; i++) {
			char *p = xasprintf("%s/charts/%s.svg", id, b->charts[s].v[i].name);
			int hit = !strcmp(p, path);
			free(p);
			if (hit)
				return &b->charts[s].v[i];
		}
	}
	return NULL;
}

/* ---- template ----------------------------------------------------------------------- */

static void nav_link(struct strbuf *sb, const struct build *b, const char *root,
		     const char *page, const char *target, const char *text, int *first)
{
	char *html = xasprintf("%.*s.html", (int)(strlen(target) - 3), target);
	if (site_files_find(&b->md, target)) {
		sb_adds(sb, *first ? "" : " \xc2\xb7 ");
		sb_addf(sb, "<a href=\"%s%s\"%s>%s</a>", root, html,
			!strcmp(page, target) ? " aria-current=\"page\"" : "", text);
		*first = 0;
	}
	free(html);
}

static void header_nav(struct strbuf *sb, const struct build *b, const char *page,
		       const char *root)
{
	int first = 1;
	sb_addf(sb, "<header class=\"site\">\n<a class=\"brand\" href=\"%sindex.html\">ngcc-perf</a>\n"
		"<nav class=\"top\">", root);
	nav_link(sb, b, root, page, "index.md", "Home", &first);
	/* Every system, not the first one: the landing page's systems table. */
	if (b->in->n_sys)
		sb_addf(sb, " \xc2\xb7 <a href=\"%sindex.html#systems\">Systems</a>", root);
	nav_link(sb, b, root, page, "symmetric-survey.md", "Survey", &first);
	nav_link(sb, b, root, page, "size-audit.md", "Size audit", &first);
	nav_link(sb, b, root, page, "history.md", "Versions", &first);
	if (b->in->n_sys >= 2)
		nav_link(sb, b, root, page, "compare.md", "Compare", &first);
	sb_adds(sb, "</nav>\n</header>\n");
}

/* A breadcrumb for pages whose Markdown has none. */
static void fallback_crumb(struct strbuf *sb, const struct build *b, const char *page,
			   const char *root, const char *h1)
{
	const struct site_system *s = system_of(b, page);
	if (!strcmp(page, "index.md")) {
		sb_adds(sb, "Performance measurements");
		return;
	}
	sb_addf(sb, "<a href=\"%sindex.html\">Performance measurements</a> \xe2\x80\xba ", root);
	if (s && strcmp(strchr(page, '/') + 1, "index.md")) {
		sb_adds(sb, "<a href=\"index.html\">");
		html_escape(sb, s->ds->system_id);
		sb_adds(sb, "</a> \xe2\x80\xba ");
	}
	html_escape(sb, h1 ? h1 : page);
}

static int is_summary(const struct build *b, const char *page)
{
	const struct site_system *s = system_of(b, page);
	return s && !strcmp(strchr(page, '/'), "/index.md");
}

/* The per-category page of a summary heading, "" when there is none. */
static const char *category_page(const struct build *b, const char *page, const char *heading);

/* " · Equal security: 128 · 256" for the pages that exist. */
static void equal_security_links(struct strbuf *sb, const struct build *b, const char *page)
{
	const struct site_system *s = system_of(b, page);
	char *prefix = xasprintf("%s/equal-security-", s->ds->system_id);
	int first = 1;
	for (size_t i = 0; i < b->md.n; i++) {
		const char *p = b->md.v[i].path, *bits = p + strlen(prefix);
		if (strncmp(p, prefix, strlen(prefix)) || strstr(bits, "-by-"))
			continue;
		int n = (int)strspn(bits, "0123456789");
		sb_addf(sb, "%s<a href=\"equal-security-%.*s.html\">%.*s</a>",
			first ? " \xc2\xb7 Equal security (bits): " : " \xc2\xb7 ", n, bits, n, bits);
		first = 0;
	}
	free(prefix);
}

/* " · Builds by variant: all builds · reference · optimized (AVX2)" for
 * the variant pages that exist (site/variant_pages.c). */
static void variant_links(struct strbuf *sb, const struct build *b, const char *page)
{
	const struct site_system *s = system_of(b, page);
	int first = 1;
	for (size_t v = 0; v <= n_ds_variants; v++) {
		const struct ds_variant *var = v ? &ds_variants[v - 1] : NULL;
		char *name = site_variant_page_name(var);
		char *path = xasprintf("%s/%s", s->ds->system_id, name);
		if (site_files_find(&b->md, path)) {
			sb_addf(sb, "%s<a href=\"%.*s.html\">", first ? " \xc2\xb7 Builds by "
				"variant: " : " \xc2\xb7 ", (int)(strlen(name) - 3), name);
			html_escape(sb, var ? var->version : "all builds");
			sb_adds(sb, "</a>");
			first = 0;
		}
		free(path);
		free(name);
	}
}

/* In-page navigation: on a summary, its category tables (with their own
 * pages); elsewhere the sections, when there are at least three. */
static void jump_list(struct strbuf *sb, const struct build *b, const char *page,
		      const struct html_doc *d)
{
	size_t n2 = 0;
	int summary = is_summary(b, page);
	for (size_t i = 0; i < d->n_headings; i++)
		n2 += d->headings[i].level == 2;
	if (n2 < (summary ? 1u : 3u))
		return;
	sb_adds(sb, "<nav class=\"jump\">On this page:");
	int first = 1;
	for (size_t i = 0; i < d->n_headings; i++) {
		const struct html_heading *h = &d->headings[i];
		if (h->level != 2)
			continue;
		sb_adds(sb, first ? " " : " \xc2\xb7 ");
		first = 0;
		sb_addf(sb, "<a href=\"#%s\">", h->id);
		html_escape(sb, h->text);
		sb_adds(sb, "</a>");
		const char *own = summary ? category_page(b, page, h->text) : "";
		if (*own)
			sb_addf(sb, " (<a href=\"%s.html\">own page</a>)", own);
	}
	if (summary) {
		equal_security_links(sb, b, page);
		variant_links(sb, b, page);
	}
	sb_adds(sb, "</nav>\n");
}

static char *wrap_page(const struct build *b, const char *page, const struct html_doc *d,
		       size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	char *root = site_root_of(page);
	sb_adds(&sb, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
		"<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
		"<meta name=\"color-scheme\" content=\"light dark\">\n<title>ngcc-perf: ");
	html_escape(&sb, d->h1 ? d->h1 : page);
	sb_addf(&sb, "</title>\n<link rel=\"stylesheet\" href=\"%sstyle.css?v=%s\">\n"
		"</head>\n<body>\n", root, b->css_version);
	header_nav(&sb, b, page, root);
	sb_adds(&sb, "<p class=\"crumb\">");
	if (d->crumb)
		sb_adds(&sb, d->crumb);
	else
		fallback_crumb(&sb, b, page, root, d->h1);
	sb_adds(&sb, "</p>\n");
	jump_list(&sb, b, page, d);
	sb_addf(&sb, "<main>\n%s</main>\n<footer>\n<p>", d->body);
	sb_adds(&sb, "Generated by ngcc-perf ");
	html_escape(&sb, b->in->tool_version);
	sb_addf(&sb, " \xc2\xb7 dataset sha256 <code>%s</code> \xc2\xb7 Data as of %s \xc2\xb7 "
		"<a href=\"%sdownloads.html\">Downloads</a></p>\n</footer>\n</body>\n</html>\n",
		b->digest, b->data_as_of, root);
	free(root);
	if (len)
		*len = sb.len;
	return sb_detach(&sb);
}

/* ---- page conversion ------------------------------------------------------------------ */

struct page_ctx {
	const struct build *b;
	const char *dir;        /* page directory, "" at the root */
};

static char *inline_chart(void *ctx, const char *url, const char *alt)
{
	const struct page_ctx *pc = ctx;
	(void)alt;
	if (strchr(url, ':') || !str_ends_with(url, ".svg"))
		return NULL;
	char *path = *pc->dir ? xasprintf("%s/%s", pc->dir, url) : xstrdup(url);
	const struct site_chart *c = find_chart(pc->b, path);
	free(path);
	if (!c)
		return NULL;
	/* The file links "<name>.csv" beside it; inlined, the link starts from
	 * the page, like the image URL. */
	char *from = xasprintf("href=\"%s.csv\"", c->name);
	char *to = xasprintf("href=\"%.*s%s.csv\"", (int)(strlen(url) - strlen(path_basename(url))),
			     url, c->name);
	const char *at = strstr(c->svg_file, from);
	char *svg = at ? xasprintf("%.*s%s%s", (int)(at - c->svg_file), c->svg_file, to,
				   at + strlen(from)) : xstrdup(c->svg_file);
	free(from);
	free(to);
	return svg;
}

/* Evidence paths shown as code spans on a system's pages (the raw evidence
 * index, §5.8) link to their copy under data/<SYS>/ when it is there. */
static char *link_evidence(const struct build *b, const char *page, char *body)
{
	const struct site_system *s = system_of(b, page);
	if (!s)
		return body;
	struct strbuf sb = STRBUF_INIT;
	const char *p = body;
	for (const char *c; (c = strstr(p, "<code>"));) {
		const char *start = c + 6, *end = strstr(start, "</code>");
		if (!end)
			break;
		char *rel = xstrndup(start, (size_t)(end - start));
		char *target = xasprintf("data/%s/%s", s->ds->system_id, rel);
		sb_add(&sb, p, (size_t)(c - p));
		if (strchr(rel, '/') && !strchr(rel, '<') && !strchr(rel, '"') &&
		    site_files_find(b->out, target))
			sb_addf(&sb, "<a href=\"../%s\"><code>%s</code></a>", target, rel);
		else
			sb_add(&sb, c, (size_t)(end + 7 - c));
		p = end + 7;
		free(target);
		free(rel);
	}
	sb_adds(&sb, p);
	free(body);
	return sb_detach(&sb);
}

static int convert_page(struct build *b, const struct site_file *md, char **err)
{
	char *dir = strchr(md->path, '/') ? path_dirname(md->path) : xstrdup("");
	const char *base = path_basename(md->path);
	char *stem = xstrndup(base, strlen(base) - 3);
	char *csv_stem = xasprintf("%s-table", stem);
	struct page_ctx pc = { b, dir };
	struct html_opts o = { csv_stem, inline_chart, &pc };
	struct html_doc d;
	int rc = 0;
	if (html_convert(md->data, md->len, &o, &d)) {
		*err = xasprintf("%s: Markdown conversion failed (cmark-gfm without the table "
				 "extension?)", md->path);
		rc = -1;
	} else {
		for (size_t k = 0; k < d.n_tables; k++) {
			size_t len;
			const struct html_table *t = &d.tables[k];
			char *csv = csv_from_cells(t->rows, t->nrows, t->ncols, &len);
			char *p = *dir ? xasprintf("%s/%s%zu.csv", dir, csv_stem, k + 1)
				: xasprintf("%s%zu.csv", csv_stem, k + 1);
			site_files_add(b->out, p, csv, len);
			free(p);
		}
		size_t len;
		d.body = link_evidence(b, md->path, d.body);
		char *html = wrap_page(b, md->path, &d, &len);
		char *hp = xasprintf("%.*s.html", (int)(strlen(md->path) - 3), md->path);
		site_files_add(b->out, hp, html, len);
		free(hp);
		html_doc_free(&d);
	}
	free(csv_stem);
	free(stem);
	free(dir);
	return rc;
}

/* ---- Markdown additions ------------------------------------------------------------------ */

static const struct { const char *heading, *file, *title; } categories[] = {
	{ "## Key encapsulation\n", "kem", "Key encapsulation" },
	{ "## Digital signatures\n", "sign", "Digital signatures" },
	{ "## Key exchange\n", "kex", "Key exchange" },
	{ "## ICCS baseline functions\n", "iccs-baseline", "ICCS baseline functions" },
	{ "## Hash functions\n", "hash", "Hash functions" },
};

static const char *category_page(const struct build *b, const char *page, const char *heading)
{
	const struct site_system *s = system_of(b, page);
	for (size_t i = 0; s && i < sizeof categories / sizeof *categories; i++) {
		if (strcmp(heading, categories[i].title))
			continue;
		char *p = xasprintf("%s/%s.md", s->ds->system_id, categories[i].file);
		int have = site_files_find(&b->md, p) != NULL;
		free(p);
		return have ? categories[i].file : "";
	}
	return "";
}

void site_category_pages(const char *sys, const char *summary_md, struct site_files *out,
			 struct strlist *names)
{
	for (size_t i = 0; i < sizeof categories / sizeof *categories; i++) {
		const char *h = strstr(summary_md, categories[i].heading);
		if (!h || (h != summary_md && h[-1] != '\n'))
			continue;
		const char *body = h + strlen(categories[i].heading);
		const char *end = strstr(body, "\n## ");
		const char *rule = strstr(body, "\n---\n");
		if (rule && (!end || rule < end))
			end = rule;
		size_t n = end ? (size_t)(end - body + 1) : strlen(body);
		char *section = xstrndup(body, n);
		if (!strstr(section, "\n|---")) {
			free(section);
			continue;
		}
		/* the section brings its chart (report.c puts it after the table) */
		char *page = xasprintf(
			"[Performance measurements](../index.md) \xe2\x80\xba [%s](index.md) \xe2\x80\xba %s\n\n"
			"# %s \xe2\x80\x94 system %s\n%s", sys, categories[i].title,
			categories[i].title, sys, section);
		char *path = xasprintf("%s/%s.md", sys, categories[i].file);
		site_files_add(out, path, page, strlen(page));
		if (names)
			sl_push(names, path);
		free(path);
		free(section);
	}
}

/* downloads.md: every data/<SYS>/ download, one list per system. */
static void downloads_page(struct build *b)
{
	struct strbuf sb = STRBUF_INIT;
	sb_adds(&sb, "[Performance measurements](index.md) \xe2\x80\xba Downloads\n\n# Downloads\n\n"
		"Every table of every page is also a CSV file linked under the table. The "
		"files below hold the whole dataset of each system; `SHA256SUMS` covers "
		"every file of the system's directory, including the raw evidence.\n");
	for (size_t i = 0; i < b->in->n_sys; i++) {
		const char *id = b->in->sys[i].ds->system_id;
		sb_addf(&sb, "\n## System %s\n\n", id);
		static const char *const f[][2] = {
			{ "summary.csv", "one row per build (reference and variants) and operation, "
			  "with each variant's speed-up and the fastest build marked" },
			{ "profiles.csv", "hash and DRNG profile calls" },
			{ "sizes.csv", "size audit rows" },
			{ "dataset.json", "campaign, build, records and profiles in one file" },
			{ "SHA256SUMS", "checksums of every file of the directory" },
			{ "campaign.json", "the campaign record" },
		};
		for (size_t k = 0; k < sizeof f / sizeof *f; k++)
			sb_addf(&sb, "- [%s](data/%s/%s): %s\n", f[k][0], id, f[k][0], f[k][1]);
		sb_addf(&sb, "- JSON Schemas: [campaign](data/%s/schema/campaign.schema.json), "
			"[build](data/%s/schema/build.schema.json), "
			"[record](data/%s/schema/record.schema.json), "
			"[profile](data/%s/schema/profile.schema.json), "
			"[dataset](data/%s/schema/dataset.schema.json)\n", id, id, id, id, id);
	}
	size_t len = sb.len;
	site_files_add(&b->md, "downloads.md", sb_detach(&sb), len);
}

/* ---- build ------------------------------------------------------------------------------- */

static int build_data(struct build *b, char **err)
{
	struct strbuf all = STRBUF_INIT;
	const char *latest = NULL;
	for (size_t i = 0; i < b->in->n_sys; i++) {
		const struct site_system *s = &b->in->sys[i];
		char *prefix = xasprintf("data/%s/", s->ds->system_id);
		if (site_copy_evidence(s, prefix, b->out, err)) {
			free(prefix);
			sb_free(&all);
			return -1;
		}
		site_data_downloads(s->ds, prefix, b->out);
		size_t len;
		char *sums = site_sha256sums(b->out, prefix, &len);
		char *p = xasprintf("%sSHA256SUMS", prefix);
		sb_add(&all, sums, len);
		site_files_add(b->out, p, sums, len);
		free(p);
		free(prefix);
		const char *ended = json_string_value(json_object_get(s->ds->campaign, "ended_utc"));
		if (ended && (!latest || strcmp(ended, latest) > 0))
			latest = ended;
	}
	char hex[65];
	sha256_hex(all.buf ? all.buf : "", all.len, hex);
	fmt_digest_prefix(b->digest, hex);
	if (latest)
		fmt_date(b->data_as_of, latest);
	else
		snprintf(b->data_as_of, sizeof b->data_as_of, "%s", FMT_DASH);
	sb_free(&all);
	return 0;
}

static void build_charts(struct build *b)
{
	b->charts = xcalloc(b->in->n_sys ? b->in->n_sys : 1, sizeof *b->charts);
	for (size_t i = 0; i < b->in->n_sys; i++) {
		const struct dataset *ds = b->in->sys[i].ds;
		for (size_t c = 0; c < ds->n_cand; c++)
			site_candidate_charts(ds, &ds->cand[c], &b->charts[i]);
		site_summary_charts(ds, &b->charts[i]);
	}
}

static void write_charts(struct build *b)
{
	for (size_t i = 0; i < b->in->n_sys; i++) {
		const struct dataset *ds = b->in->sys[i].ds;
		for (size_t k = 0; k < b->charts[i].n; k++) {
			const struct site_chart *ch = &b->charts[i].v[k];
			char *p = xasprintf("%s/charts/%s.svg", ds->system_id, ch->name);
			site_files_add_str(b->out, p, ch->svg_file);
			free(p);
			p = xasprintf("%s/charts/%s.csv", ds->system_id, ch->name);
			site_files_add_str(b->out, p, ch->csv);
			free(p);
		}
	}
}

static void collect_markdown(struct build *b)
{
	const struct site_files *md = b->in->markdown;
	for (size_t i = 0; md && i < md->n; i++) {
		const struct site_file *f = &md->v[i];
		if (!str_ends_with(f->path, ".md"))
			continue;
		const struct site_system *s = system_of(b, f->path);
		char *text = xstrndup(f->data, f->len);
		/* the report's own A.8 and summary link the charts */
		if (s && !strcmp(strchr(f->path, '/'), "/index.md"))
			site_category_pages(s->ds->system_id, text, &b->md, NULL);
		site_files_add(&b->md, f->path, text, f->len);
	}
	const struct dataset **dss = xcalloc(b->in->n_sys + 1, sizeof *dss);
	for (size_t i = 0; i < b->in->n_sys; i++) {
		dss[i] = b->in->sys[i].ds;
		/* linked from the system's summary, so only with one */
		char *summary = xasprintf("%s/index.md", dss[i]->system_id);
		if (site_files_find(&b->md, summary)) {
			site_equal_security_pages(dss[i], &b->md, &b->charts[i]);
			site_variant_pages(dss[i], &b->md);
		}
		free(summary);
	}
	/* compare.md came with the report's pages; its charts join ours */
	size_t len;
	free(page_compare(dss, b->in->n_sys, b->charts, &len));
	free(dss);
	downloads_page(b);
}

int site_build(const struct site_input *in, struct site_files *out, char **err)
{
	struct build b = { .in = in, .out = out };
	*err = NULL;
	site_css_version(b.css_version);
	if (build_data(&b, err))
		return -1;
	build_charts(&b);
	collect_markdown(&b);
	write_charts(&b);
	int rc = 0;
	site_files_sort(&b.md);
	for (size_t i = 0; i < b.md.n && !rc; i++)
		rc = convert_page(&b, &b.md.v[i], err);
	site_files_add_str(out, "style.css", site_css);
	site_files_add_str(out, SITE_MARKER, "ngcc-perf site: this directory is replaced "
			   "by the next `ngcc-perf site`.\n");
	for (size_t i = 0; i < in->n_sys; i++)
		site_charts_free(&b.charts[i]);
	free(b.charts);
	site_files_free(&b.md);
	site_files_sort(out);
	return rc;
}
