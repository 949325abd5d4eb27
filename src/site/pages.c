/*
 * pages.c — the site's own comparison pages (docs/report-format.md §10.2,
 * §10.3), written as Markdown and converted like every other page:
 *  - <SYS>/equal-security-<bits>.md: one row per candidate at a security
 *    target, its representative instance named, every metric with its rank
 *    as `(#r)`, the composite KEM cost, and pre-rendered copies sorted by
 *    the mean rank and by each ranked metric (-by-<key>.md).
 * A page is produced only when it has rows.  The comparison page of two or
 * more systems is a report page (report/page_compare.c), so it is in the
 * Markdown tree as well.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "charts/csv.h"
#include "charts/svg.h"
#include "method/format.h"
#include "method/natsort.h"
#include "model/size_audit.h"
#include "report/md.h"
#include "site/pages.h"

/* ---- metrics -------------------------------------------------------------------- */

/* M_BANDWIDTH: a key exchange's bandwidth (model/size_audit.h). */
enum metric_kind { M_CYCLES, M_BYTES, M_SUM_CYCLES, M_SUM_BYTES, M_BANDWIDTH };

struct metric {
	const char *key;       /* sort-copy suffix */
	const char *header;
	enum metric_kind kind;
	const char *a, *b, *c; /* ops (cycles) or size keys (bytes) */
	int ranked;            /* counts in the mean rank */
	int show_rank;
};

struct category {
	const char *type, *heading;
	const struct metric *m;
	size_t n;
	int first_sort, second_sort;   /* default row order: metric indices */
};

static const struct metric kem_metrics[] = {
	{ "keygen", "keygen cycles", M_CYCLES, "keygen", NULL, NULL, 0, 0 },
	{ "enc", "enc cycles", M_CYCLES, "enc", NULL, NULL, 1, 1 },
	{ "dec", "dec cycles", M_CYCLES, "dec", NULL, NULL, 1, 1 },
	{ "pk", "public key (B)", M_BYTES, "pk_bytes", NULL, NULL, 1, 1 },
	{ "ct", "ciphertext (B)", M_BYTES, "ct_bytes", NULL, NULL, 1, 1 },
	{ "kem-cycles", "KEM cycles (keygen + enc + dec)", M_SUM_CYCLES, "keygen", "enc", "dec", 0, 1 },
	{ "kem-bytes", "KEM bytes (pk + ct)", M_SUM_BYTES, "pk_bytes", "ct_bytes", NULL, 0, 1 },
};

static const struct metric sign_metrics[] = {
	{ "keygen", "keygen cycles", M_CYCLES, "keygen", NULL, NULL, 0, 0 },
	{ "sign", "sign cycles", M_CYCLES, "sign", NULL, NULL, 1, 1 },
	{ "verify", "verify cycles", M_CYCLES, "verify", NULL, NULL, 1, 1 },
	{ "pk", "public key (B)", M_BYTES, "pk_bytes", NULL, NULL, 1, 1 },
	{ "sig", "signature (B)", M_BYTES, "signature_bytes", NULL, NULL, 1, 1 },
};

static const struct metric kex_metrics[] = {
	{ "exchange", "exchange cycles", M_CYCLES, "exchange", NULL, NULL, 1, 1 },
	{ "bandwidth", "bandwidth (B)", M_BANDWIDTH, NULL, NULL, NULL, 1, 1 },
};

static const struct category es_categories[] = {
	{ "kem", "Key encapsulation", kem_metrics, sizeof kem_metrics / sizeof *kem_metrics, 1, 2 },
	{ "sign", "Digital signatures", sign_metrics, sizeof sign_metrics / sizeof *sign_metrics, 1, 2 },
	{ "kex", "Key exchange", kex_metrics, sizeof kex_metrics / sizeof *kex_metrics, 0, 1 },
};
#define N_ES_CATEGORIES (sizeof es_categories / sizeof *es_categories)

static double record_cycles(const struct ds_instance *in, const char *op)
{
	const struct ds_record *r = ds_find_record(in, op);
	if (!r || !ds_record_complete(r))
		return NAN;
	double v = json_number_value(json_object_get(r->j, "mean_cycles"));
	return v > 0 ? v : NAN;
}

/* Catalog column for a size key of external_sizes.csv, -1 for API only. */
static int catalog_col(const char *key)
{
	if (!strcmp(key, "pk_bytes"))
		return 2;
	if (!strcmp(key, "ct_bytes"))
		return 3;
	if (!strcmp(key, "signature_bytes"))
		return 4;
	return -1;
}

static double instance_bytes(const struct dataset *ds, const struct ds_candidate *c,
			     const struct ds_instance *in, const char *key)
{
	for (size_t r = 0; r < in->n_rec; r++) {
		if (!ds_record_complete(&in->rec[r]))
			continue;
		const json_t *sizes = json_object_get(in->rec[r].j, "sizes");
		char **row = csv_find(&ds->external_sizes, c->id, in->label);
		int col = catalog_col(key);
		for (int k = 0; row && k <= col; k++)
			if (!row[k])
				row = NULL;
		if (row && col >= 0 && *row[col] && !row[col][strspn(row[col], "0123456789")])
			return strtod(row[col], NULL);
		double v = json_number_value(json_object_get(sizes, key));
		return v > 0 ? v : NAN;
	}
	return NAN;
}

static double metric_value(const struct dataset *ds, const struct ds_candidate *c,
			   const struct ds_instance *in, const struct metric *m)
{
	switch (m->kind) {
	case M_CYCLES:
		return record_cycles(in, m->a);
	case M_BYTES:
		return instance_bytes(ds, c, in, m->a);
	case M_SUM_CYCLES:
		return record_cycles(in, m->a) + record_cycles(in, m->b) + record_cycles(in, m->c);
	case M_SUM_BYTES:
		return instance_bytes(ds, c, in, m->a) + instance_bytes(ds, c, in, m->b);
	case M_BANDWIDTH: {
		struct kex_sizes k;
		return !kex_instance_sizes(ds, c->id, in, &k) && k.bandwidth > 0
			? (double)k.bandwidth : NAN;
	}
	}
	return NAN;
}

/* Ascending ranks from 1, ties sharing the average rank. */
static void rank_values(const double *v, size_t n, double *rank)
{
	for (size_t i = 0; i < n; i++) {
		size_t below = 0, equal = 0;
		for (size_t j = 0; j < n; j++) {
			below += v[j] < v[i];
			equal += v[j] == v[i];
		}
		rank[i] = below + (equal + 1) / 2.0;
	}
}

/* ---- equal-security rows --------------------------------------------------------- */

#define MAX_METRICS 8

struct es_row {
	const struct ds_candidate *c;
	const struct ds_instance *in;
	double v[MAX_METRICS], rank[MAX_METRICS], mean_rank;
};

static int target_of(const struct dataset *ds, const struct ds_candidate *c,
		     const struct ds_instance *in)
{
	char **row = csv_find(&ds->security_targets, c->id, in->label);
	if (!row || !row[1] || !row[2] || !*row[2])
		return -1;
	return atoi(row[2]);
}

static int eligible(const struct dataset *ds, const struct ds_candidate *c,
		    const struct ds_instance *in, const struct category *cat, int bits,
		    double *v)
{
	if (in->optimized || target_of(ds, c, in) != bits)
		return 0;
	for (size_t k = 0; k < cat->n; k++) {
		v[k] = metric_value(ds, c, in, &cat->m[k]);
		if (!(v[k] > 0))
			return 0;
	}
	return 1;
}

/* The candidate's designated instance, else the eligible one with the
 * lowest mean rank over its cycle metrics (first in natural order on ties). */
static int representative(const struct dataset *ds, const struct ds_candidate *c,
			  const struct category *cat, int bits, struct es_row *out)
{
	const char *want = ds_cand_conf(ds, c->id, "representative");
	size_t n = 0;
	struct es_row *cand = xcalloc(c->n_inst + 1, sizeof *cand);
	for (size_t i = 0; i < c->n_inst; i++) {
		if (!eligible(ds, c, &c->inst[i], cat, bits, cand[n].v))
			continue;
		cand[n].c = c;
		cand[n].in = &c->inst[i];
		if (want && !strcmp(want, c->inst[i].label)) {
			*out = cand[n];
			free(cand);
			return 1;
		}
		n++;
	}
	size_t best = 0;
	double best_score = INFINITY;
	double *col = xcalloc(n + 1, sizeof *col), *rk = xcalloc(n + 1, sizeof *rk);
	double *score = xcalloc(n + 1, sizeof *score);
	for (size_t k = 0; k < cat->n; k++) {
		if (cat->m[k].kind != M_CYCLES || !cat->m[k].ranked)
			continue;
		for (size_t i = 0; i < n; i++)
			col[i] = cand[i].v[k];
		rank_values(col, n, rk);
		for (size_t i = 0; i < n; i++)
			score[i] += rk[i];
	}
	for (size_t i = 0; i < n; i++)
		if (score[i] < best_score)
			best_score = score[i], best = i;
	if (n)
		*out = cand[best];
	free(col);
	free(rk);
	free(score);
	free(cand);
	return n > 0;
}

static void rank_rows(struct es_row *rows, size_t n, const struct category *cat)
{
	double *col = xcalloc(n + 1, sizeof *col), *rk = xcalloc(n + 1, sizeof *rk);
	size_t ranked = 0;
	for (size_t i = 0; i < n; i++)
		rows[i].mean_rank = 0;
	for (size_t k = 0; k < cat->n; k++) {
		for (size_t i = 0; i < n; i++)
			col[i] = rows[i].v[k];
		rank_values(col, n, rk);
		for (size_t i = 0; i < n; i++) {
			rows[i].rank[k] = rk[i];
			if (cat->m[k].ranked)
				rows[i].mean_rank += rk[i];
		}
		ranked += cat->m[k].ranked;
	}
	for (size_t i = 0; i < n; i++)
		rows[i].mean_rank /= ranked ? ranked : 1;
	free(col);
	free(rk);
}

/* Sort key: a metric index, or -1 for the mean rank. */
static int sort_key, sort_second;

static int row_cmp(const void *a, const void *b)
{
	const struct es_row *x = a, *y = b;
	double p = sort_key < 0 ? x->mean_rank : x->v[sort_key];
	double q = sort_key < 0 ? y->mean_rank : y->v[sort_key];
	if (p != q)
		return p < q ? -1 : 1;
	p = x->v[sort_second], q = y->v[sort_second];
	if (p != q)
		return p < q ? -1 : 1;
	return natural_cmp(x->c->id, y->c->id);
}

static char *value_cell(const struct metric *m, double v, double rank)
{
	char buf[FMT_MAX], rb[32] = "";
	if (m->kind == M_CYCLES || m->kind == M_SUM_CYCLES)
		fmt_cycles(buf, &v);
	else
		fmt_uint(buf, (uint64_t)v);
	if (m->show_rank)
		snprintf(rb, sizeof rb, " (#%g)", rank);
	return xasprintf("%s%s", buf, rb);
}

/* [id](id.md) when the candidate page is in the tree, else the bare id. */
static char *cand_cell(const struct site_files *pages, const char *sys, const char *id,
		       const char *from_root)
{
	char *path = xasprintf("%s/%s.md", sys, id), *cell;
	if (site_files_find(pages, path)) {
		char *target = xasprintf("%s%s.md", from_root, id);
		cell = md_link(id, target);
		free(target);
	} else {
		cell = xstrdup(id);
	}
	free(path);
	return cell;
}

static void es_table(struct md_page *md, const struct category *cat, struct es_row *rows,
		     size_t n, int bits, const struct site_files *pages, const char *sys)
{
	const char *head[4 + MAX_METRICS];
	size_t nh = 0;
	head[nh++] = "mean rank";
	head[nh++] = "id";
	head[nh++] = "representative instance";
	head[nh++] = "target (bits)";
	for (size_t k = 0; k < cat->n; k++)
		head[nh++] = cat->m[k].header;
	md_table(md, head, nh);
	for (size_t i = 0; i < n; i++) {
		char *cells[4 + MAX_METRICS];
		size_t nc = 0;
		char *target = xasprintf("%d", bits);
		char *code = md_code(rows[i].in->label);
		cells[nc++] = xasprintf("%.2f", rows[i].mean_rank);
		cells[nc++] = cand_cell(pages, sys, rows[i].c->id, "");
		cells[nc++] = code;
		cells[nc++] = target;
		for (size_t k = 0; k < cat->n; k++)
			cells[nc++] = value_cell(&cat->m[k], rows[i].v[k], rows[i].rank[k]);
		md_row(md, (const char *const *)cells);
		for (size_t k = 0; k < nc; k++)
			free(cells[k]);
	}
}

struct es_section {
	const struct category *cat;
	struct es_row *rows;
	size_t n;
};

static void es_sort(struct es_section *s, const char *by)
{
	sort_key = s->cat->first_sort;
	sort_second = s->cat->second_sort;
	if (by && !strcmp(by, "rank"))
		sort_key = -1;
	for (size_t k = 0; by && k < s->cat->n; k++)
		if (!strcmp(by, s->cat->m[k].key) && s->cat->m[k].show_rank)
			sort_key = (int)k;
	qsort(s->rows, s->n, sizeof *s->rows, row_cmp);
}

/* The sort keys offered: the mean rank, then each ranked metric once. */
static void sort_keys(const struct es_section *secs, size_t ns, struct strlist *keys,
		      struct strlist *names)
{
	sl_push(keys, "rank");
	sl_push(names, "mean rank");
	for (size_t s = 0; s < ns; s++)
		for (size_t k = 0; k < secs[s].cat->n; k++) {
			const struct metric *m = &secs[s].cat->m[k];
			if (m->show_rank && !sl_contains(keys, m->key)) {
				sl_push(keys, m->key);
				sl_push(names, m->header);
			}
		}
}

static char *es_page(const struct dataset *ds, int bits, struct es_section *secs, size_t ns,
		     const char *by, const struct strlist *keys, const struct strlist *names,
		     const char *chart_md, const struct site_files *pages)
{
	struct md_page md = MD_PAGE_INIT;
	md_blockf(&md, "[Performance measurements](../index.md) \xe2\x80\xba [%s](index.md) "
		  "\xe2\x80\xba equal security %d", ds->system_id, bits);
	md_blockf(&md, "# Comparison at %d-bit security \xe2\x80\x94 system %s", bits, ds->system_id);
	md_blockf(&md, "One row per candidate with a complete reference instance whose target "
		  "in `security_targets.csv` is %d bits: its representative instance (the "
		  "designated one, else the one with the lowest mean rank over its cycle "
		  "metrics). Each metric is ranked ascending, ties sharing the average rank, "
		  "shown as `(#r)`; the mean rank averages the ranked raw metrics (key "
		  "generation is shown but not ranked; composite costs are ranked but not "
		  "averaged). Cycles are mean cycles per call on this system; sizes are "
		  "bytes (catalog where given, else API).", bits);
	struct strbuf line = STRBUF_INIT;
	sb_adds(&line, by ? "Sorted by " : "Sorted by the first operation's cycles, then the "
		"second's. Other orders:");
	for (size_t i = 0; by && i < keys->n; i++)
		if (!strcmp(keys->items[i], by))
			sb_addf(&line, "%s. Other orders:", names->items[i]);
	if (by)
		sb_addf(&line, " [default](equal-security-%d.md)", bits);
	for (size_t i = 0; i < keys->n; i++)
		if (!by || strcmp(keys->items[i], by))
			sb_addf(&line, "%s[%s](equal-security-%d-by-%s.md)",
				(by || i) ? " \xc2\xb7 " : " ", names->items[i], bits, keys->items[i]);
	md_block(&md, line.buf);
	sb_free(&line);
	for (size_t s = 0; s < ns; s++) {
		es_sort(&secs[s], by);
		md_blockf(&md, "## %s", secs[s].cat->heading);
		es_table(&md, secs[s].cat, secs[s].rows, secs[s].n, bits, pages, ds->system_id);
		if (!strcmp(secs[s].cat->type, "kem") && chart_md)
			md_block(&md, chart_md);
	}
	size_t len;
	return md_finish(&md, &len);
}

/* Distinct targets of security_targets.csv, ascending. */
static size_t targets(const struct dataset *ds, int *out, size_t max)
{
	size_t n = 0;
	for (size_t i = 0; i < ds->security_targets.n; i++) {
		char **r = ds->security_targets.rows[i];
		if (!r[0] || !r[1] || !r[2] || !*r[2])
			continue;
		int t = atoi(r[2]), seen = 0;
		for (size_t k = 0; k < n; k++)
			seen |= out[k] == t;
		if (!seen && t > 0 && n < max)
			out[n++] = t;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && out[j - 1] > out[j]; j--) {
			int x = out[j];
			out[j] = out[j - 1];
			out[j - 1] = x;
		}
	return n;
}

void site_equal_security_pages(const struct dataset *ds, struct site_files *md,
			       struct site_charts *charts)
{
	int tg[16];
	size_t nt = targets(ds, tg, 16);
	for (size_t t = 0; t < nt; t++) {
		struct es_section secs[N_ES_CATEGORIES];
		size_t ns = 0;
		for (size_t k = 0; k < N_ES_CATEGORIES; k++) {
			const struct category *cat = &es_categories[k];
			struct es_section s = { cat, xcalloc(ds->n_cand + 1, sizeof *s.rows), 0 };
			for (size_t i = 0; i < ds->n_cand; i++)
				if (!strcmp(ds->cand[i].type, cat->type) &&
				    representative(ds, &ds->cand[i], cat, tg[t], &s.rows[s.n]))
					s.n++;
			if (s.n) {
				rank_rows(s.rows, s.n, cat);
				secs[ns++] = s;
			} else {
				free(s.rows);
			}
		}
		if (!ns)
			continue;
		char *chart_md = NULL;
		if (!strcmp(secs[0].cat->type, "kem")) {
			struct svg_point *p = xcalloc(secs[0].n, sizeof *p);
			const char **labels = xcalloc(secs[0].n, sizeof *labels);
			for (size_t i = 0; i < secs[0].n; i++) {
				p[i] = (struct svg_point){ secs[0].rows[i].c->id,
					secs[0].rows[i].v[3] + secs[0].rows[i].v[4], secs[0].rows[i].v[1], 0 };
				labels[i] = secs[0].rows[i].in->label;
			}
			char *name = xasprintf("equal-security-%d-kem-cost", tg[t]);
			const struct site_chart *ch = site_add_scatter(ds, charts, name, p, labels,
				secs[0].n, "representative instance at this target");
			free(labels);
			chart_md = xasprintf("![%s](charts/%s.svg)", ch->title, name);
			free(name);
			free(p);
		}
		struct strlist keys = STRLIST_INIT, names = STRLIST_INIT;
		sort_keys(secs, ns, &keys, &names);
		char *page = es_page(ds, tg[t], secs, ns, NULL, &keys, &names, chart_md, md);
		char *path = xasprintf("%s/equal-security-%d.md", ds->system_id, tg[t]);
		site_files_add(md, path, page, strlen(page));
		free(path);
		for (size_t i = 0; i < keys.n; i++) {
			page = es_page(ds, tg[t], secs, ns, keys.items[i], &keys, &names, chart_md, md);
			path = xasprintf("%s/equal-security-%d-by-%s.md", ds->system_id, tg[t],
					 keys.items[i]);
			site_files_add(md, path, page, strlen(page));
			free(path);
		}
		sl_free(&keys);
		sl_free(&names);
		free(chart_md);
		for (size_t s = 0; s < ns; s++)
			free(secs[s].rows);
	}
}
