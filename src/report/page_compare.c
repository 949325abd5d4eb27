/*
 * page_compare.c — compare.md, with two or more systems in one tree
 * (docs/report-format.md §10.3): each reference instance and operation
 * measured on the first system and on another, with cycles, times and
 * their ratios, outliers flagged, and a ratio chart per other system;
 * then each implementation variant against the same variant there.
 * A report page like the others, so it is in the Markdown tree whenever
 * the site shows it.
 */
#include "report/pages.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts/charts.h"
#include "charts/csv.h"
#include "charts/svg.h"
#include "method/format.h"
#include "stats/stats.h"

/* ---- rows --------------------------------------------------------------------- */

struct cmp_row {
	const struct ds_candidate *c;
	const struct ds_instance *in;
	const char *op;
	double cyc[2], sec[2], ratio_c, ratio_t;
};

static int record_pair(const struct ds_instance *a, const struct ds_instance *b, const char *op,
		       struct cmp_row *r)
{
	const struct ds_instance *in[2] = { a, b };
	for (int s = 0; s < 2; s++) {
		const struct ds_record *rec = ds_find_record(in[s], op);
		if (!rec || !ds_record_complete(rec))
			return 0;
		r->cyc[s] = json_number_value(json_object_get(rec->j, "mean_cycles"));
		r->sec[s] = json_number_value(json_object_get(rec->j, "mean_seconds"));
		if (!(r->cyc[s] > 0) || !(r->sec[s] > 0))
			return 0;
	}
	r->ratio_c = r->cyc[1] / r->cyc[0];
	r->ratio_t = r->sec[1] / r->sec[0];
	return 1;
}

/* The median cycle ratio of a section (n >= 1), the outlier reference. */
static double median_ratio(const struct cmp_row *rows, size_t n)
{
	double *v = xcalloc(n, sizeof *v), m;
	for (size_t i = 0; i < n; i++)
		v[i] = rows[i].ratio_c;
	m = stats_median(v, n);
	free(v);
	return m;
}

static const char *const type_heading[][2] = {
	{ "kem", "Key encapsulation" }, { "sign", "Digital signatures" },
	{ "kex", "Key exchange" }, { "hash", "Hash functions" },
};

static void cmp_table(struct md_page *md, const struct cmp_row *rows, size_t n,
		      const char *type, const char *s0, const char *s1, double median)
{
	char h[6][64];
	snprintf(h[0], sizeof h[0], "cycles on %s", s0);
	snprintf(h[1], sizeof h[1], "cycles on %s", s1);
	snprintf(h[2], sizeof h[2], "cycle ratio %s / %s", s1, s0);
	snprintf(h[3], sizeof h[3], "time on %s", s0);
	snprintf(h[4], sizeof h[4], "time on %s", s1);
	snprintf(h[5], sizeof h[5], "time ratio %s / %s", s1, s0);
	const char *head[] = { "id", "instance", "operation", h[0], h[1], h[2], h[3], h[4], h[5],
			       "flag" };
	int any = 0;
	for (size_t i = 0; i < n; i++) {
		if (strcmp(rows[i].c->type, type))
			continue;
		if (!any) {
			for (size_t k = 0; k < sizeof type_heading / sizeof *type_heading; k++)
				if (!strcmp(type_heading[k][0], type))
					md_blockf(md, "### %s", type_heading[k][1]);
			md_table(md, head, 10);
			any = 1;
		}
		char c0[FMT_MAX], c1[FMT_MAX], t0[FMT_MAX], t1[FMT_MAX];
		char *page = xasprintf("%s/%s.md", s0, rows[i].c->id);
		char *cells[10] = {
			md_link(rows[i].c->id, page), instance_cell(rows[i].in), xstrdup(rows[i].op),
			xstrdup(fmt_cycles(c0, &rows[i].cyc[0])), xstrdup(fmt_cycles(c1, &rows[i].cyc[1])),
			xasprintf("%.2f", rows[i].ratio_c),
			xstrdup(fmt_time(t0, &rows[i].sec[0])), xstrdup(fmt_time(t1, &rows[i].sec[1])),
			xasprintf("%.2f", rows[i].ratio_t),
			xstrdup(fabs(log(rows[i].ratio_c / median)) > log(2) ? "outlier" : FMT_DASH),
		};
		md_row(md, (const char *const *)cells);
		for (int k = 0; k < 10; k++)
			free(cells[k]);
		free(page);
	}
}

/* The rows of base against other: every instance and operation complete on
 * both, of the reference builds (variants 0) or of the variant builds
 * (variants 1); of candidate cand only when it is not NULL.  A variant is
 * compared like with like (issue #29): against the build of the same stem
 * on other, i.e. the same parameter set and the same variant (AVX2 with
 * AVX2, portable with portable); never against the reference or another
 * variant. */
static struct cmp_row *collect_rows(const struct dataset *base, const struct dataset *other,
				    const char *cand, int variants, size_t *n)
{
	struct cmp_row *rows = NULL;
	*n = 0;
	for (size_t i = 0; i < base->n_cand; i++) {
		const struct ds_candidate *c = &base->cand[i];
		if (cand && strcmp(c->id, cand))
			continue;
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *a = &c->inst[k];
			const struct ds_instance *b = ds_find_instance(other, c->id, a->stem);
			if (!a->optimized != !variants || !b)
				continue;
			for (size_t r = 0; r < a->n_rec; r++) {
				struct cmp_row row = { c, a, a->rec[r].op, { 0, 0 }, { 0, 0 }, 0, 0 };
				if (!record_pair(a, b, a->rec[r].op, &row))
					continue;
				rows = xrealloc(rows, (*n + 1) * sizeof *rows);
				rows[(*n)++] = row;
			}
		}
	}
	return rows;
}

/* The variants' own section after the reference rows of one other
 * system, when any variant was measured on both; returns its rows. */
static size_t variant_section(struct md_page *md, const struct dataset *base,
			      const struct dataset *other, const char *cand)
{
	size_t n = 0;
	struct cmp_row *rows = collect_rows(base, other, cand, 1, &n);
	if (n) {
		md_blockf(md, "## %s against %s: implementation variants", other->system_id,
			  base->system_id);
		md_blockf(md, "Each variant build (the instance's tag names it) against the same "
			  "variant of the same parameter set on %s, never against the reference "
			  "or another variant; a variant measured on one system only has no row. "
			  "The outlier flag uses the median cycle ratio of these rows.",
			  other->system_id);
		double median = median_ratio(rows, n);
		for (size_t k = 0; k < sizeof type_heading / sizeof *type_heading; k++)
			cmp_table(md, rows, n, type_heading[k][0], base->system_id,
				  other->system_id, median);
	}
	free(rows);
	return n;
}

/* A system measured under user-mode emulation says so above its figures. */
static void emulation_notes(struct md_page *md, const struct dataset *base,
			    const struct dataset *other)
{
	for (size_t e = 0; e < 2; e++) {
		const struct dataset *d = e ? other : base;
		if (ds_emulated(d))
			md_blockf(md, "⚠ %s: %s. Its cycles and times are the emulator's, not the "
				  "machine's, and so are the ratios below.", d->system_id,
				  ds_emulated(d));
	}
}

/* The page's text, or NULL (and nothing) when it compares no row. */
static char *finish_unless_empty(struct md_page *page, size_t rows, size_t *len)
{
	char *text = md_finish(page, len);
	if (rows)
		return text;
	free(text);
	return NULL;
}

/* Does candidate c have a row against any other system (rows[s], nr[s]
 * of sys[s] for s >= 1)? */
static int compared(const struct ds_candidate *c, struct cmp_row *const *rows,
		    const size_t *nr, size_t n)
{
	for (size_t s = 1; s < n; s++)
		for (size_t i = 0; i < nr[s]; i++)
			if (rows[s][i].c == c)
				return 1;
	return 0;
}

/* "Per candidate: [a](compare-a.md) · …", the pages of page_compare_candidate. */
static void candidate_links(struct md_page *md, const struct dataset *base,
			    struct cmp_row *const *rows, const size_t *nr, size_t n)
{
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < base->n_cand; i++) {
		const char *cand = base->cand[i].id;
		if (!compared(&base->cand[i], rows, nr, n))
			continue;
		char *page = compare_candidate_page_name(cand), *link = md_link(cand, page);
		sb_addf(&sb, "%s%s", sb.len ? " \xc2\xb7 " : "Per candidate: ", link);
		free(link);
		free(page);
	}
	if (sb.len)
		md_block(md, sb.buf);
	sb_free(&sb);
}

static char *cmp_chart(const struct dataset *other, const char *base, const struct cmp_row *rows,
		       size_t n, struct site_charts *charts)
{
	struct svg_dot *d = xcalloc(n, sizeof *d);
	struct strlist labels = STRLIST_INIT, series = STRLIST_INIT;
	for (size_t i = 0; i < n; i++) {
		sl_push_owned(&labels, xasprintf("%s %s %s", rows[i].c->id, rows[i].in->label,
						 rows[i].op));
		size_t s = 0;
		while (s < series.n && strcmp(series.items[s], rows[i].op))
			s++;
		if (s == series.n)
			sl_push(&series, rows[i].op);
		d[i] = (struct svg_dot){ NULL, rows[i].ratio_c, rows[i].ratio_c, rows[i].ratio_c, (int)s };
	}
	for (size_t i = 0; i < n; i++)
		d[i].label = labels.items[i];
	struct csv_out csv = CSV_OUT_INIT;
	csv_header(&csv, "candidate,label,operation,cycles_base,cycles_other,cycle_ratio,"
		   "seconds_base,seconds_other,time_ratio");
	for (size_t i = 0; i < n; i++) {
		csv_str(&csv, rows[i].c->id);
		csv_str(&csv, rows[i].in->label);
		csv_str(&csv, rows[i].op);
		csv_double(&csv, rows[i].cyc[0]);
		csv_double(&csv, rows[i].cyc[1]);
		csv_double(&csv, rows[i].ratio_c);
		csv_double(&csv, rows[i].sec[0]);
		csv_double(&csv, rows[i].sec[1]);
		csv_double(&csv, rows[i].ratio_t);
		csv_end_row(&csv);
	}
	char *name = xasprintf("compare-%s", base);
	char *title = xasprintf("Cycle ratio %s / %s per instance and operation", other->system_id, base);
	struct svg_chart_text t = {
		title, "Ratio of the mean cycles on the second system to those on the first, one "
		"marker per reference instance and operation measured on both, on a "
		"logarithmic axis.", "cycle ratio (log scale)", NULL, NULL,
	};
	site_add_dotplot(charts, name, &t, d, n, (const char *const *)series.items, series.n,
			 csv_finish(&csv, NULL));
	char *img = xasprintf("![%s](%s/charts/%s.svg)", title, other->system_id, name);
	free(name);
	free(title);
	free(d);
	sl_free(&labels);
	sl_free(&series);
	return img;
}

char *page_compare(const struct dataset *const *sys, size_t n, struct site_charts *charts,
		   size_t *len)
{
	if (n < 2)
		return NULL;
	struct md_page page = MD_PAGE_INIT;
	const struct dataset *base = sys[0];
	size_t total = 0;
	md_block(&page, "[Performance measurements](index.md) \xe2\x80\xba Compare");
	md_block(&page, "# Cross-system comparison");
	md_blockf(&page, "Each reference instance and operation with a complete timing record "
		  "on system %s and on another system. Ratios are the other system's figure "
		  "divided by %s's; cycles count each system's own clock, so the time ratio "
		  "is the one to read across clocks. A ratio more than twice or less than half "
		  "the median cycle ratio of its section is flagged `outlier`. Like is compared "
		  "with like: reference builds with reference builds; an implementation variant "
		  "(AVX2, NEON, …) only with the same variant on the other system, in a section "
		  "of its own.", base->system_id, base->system_id);
	/* every system's rows first: the links name the candidates they hold */
	struct cmp_row **rows = xcalloc(n, sizeof *rows);
	size_t *nr = xcalloc(n, sizeof *nr);
	for (size_t s = 1; s < n; s++)
		rows[s] = collect_rows(base, sys[s], NULL, 0, &nr[s]);
	candidate_links(&page, base, rows, nr, n);
	for (size_t s = 1; s < n; s++) {
		if (!nr[s])
			continue;
		total += nr[s];
		md_blockf(&page, "## %s against %s", sys[s]->system_id, base->system_id);
		emulation_notes(&page, base, sys[s]);
		char *img = cmp_chart(sys[s], base->system_id, rows[s], nr[s], &charts[s]);
		md_block(&page, img);
		free(img);
		double median = median_ratio(rows[s], nr[s]);
		for (size_t k = 0; k < sizeof type_heading / sizeof *type_heading; k++)
			cmp_table(&page, rows[s], nr[s], type_heading[k][0], base->system_id,
				  sys[s]->system_id, median);
		variant_section(&page, base, sys[s], NULL);
	}
	for (size_t s = 1; s < n; s++)
		free(rows[s]);
	free(rows);
	free(nr);
	return finish_unless_empty(&page, total, len);
}

/* ---- one candidate on every system ------------------------------------------ */

char *compare_candidate_page_name(const char *cand)
{
	return xasprintf("compare-%s.md", cand);
}

char *page_compare_candidate(const struct dataset *const *sys, size_t n, const char *cand,
			     size_t *len)
{
	if (n < 2)
		return NULL;
	const struct dataset *base = sys[0];
	const struct ds_candidate *c = NULL;
	for (size_t i = 0; i < base->n_cand && !c; i++)
		if (!strcmp(base->cand[i].id, cand))
			c = &base->cand[i];
	if (!c)
		return NULL;
	struct md_page page = MD_PAGE_INIT;
	size_t total = 0;
	md_blockf(&page, "[Performance measurements](index.md) \xe2\x80\xba [Compare](compare.md) "
		  "\xe2\x80\xba %s", cand);
	md_blockf(&page, "# %s %s \xe2\x80\x94 on every system", cand, c->algorithm);
	md_blockf(&page, "Each reference instance and operation of %s with a complete timing "
		  "record on system %s and on another system, as on the [comparison page]"
		  "(compare.md). Ratios are the other system's figure divided by %s's; the time "
		  "ratio is the one to read across clocks.", cand, base->system_id, base->system_id);
	for (size_t s = 1; s < n; s++) {
		size_t nr = 0;
		struct cmp_row *rows = collect_rows(base, sys[s], cand, 0, &nr);
		if (nr) {
			char *a = xasprintf("%s/%s.md", base->system_id, cand);
			char *b = xasprintf("%s/%s.md", sys[s]->system_id, cand);
			md_blockf(&page, "## %s against %s", sys[s]->system_id, base->system_id);
			md_blockf(&page, "Pages: [%s on %s](%s), [%s on %s](%s).", cand,
				  base->system_id, a, cand, sys[s]->system_id, b);
			emulation_notes(&page, base, sys[s]);
			cmp_table(&page, rows, nr, c->type, base->system_id, sys[s]->system_id,
				  median_ratio(rows, nr));
			variant_section(&page, base, sys[s], cand);
			free(a);
			free(b);
			total += nr;
		}
		free(rows);
	}
	return finish_unless_empty(&page, total, len);
}
