/*
 * charts.c — the charts of docs/report-format.md §10.4 drawn from a dataset,
 * each with the CSV of exactly the points it draws.  The chart file links
 * the CSV beside it (an inlined copy is re-pointed by the page).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "charts/charts.h"
#include "charts/csv.h"
#include "charts/svg.h"
#include "evidence/json.h"
#include "method/natsort.h"
#include "model/baseline_view.h"
#include "model/size_audit.h"

void site_add_chart(struct site_charts *out, const char *name, const char *title,
		    char *(*draw)(const struct svg_chart_text *, const void *), const void *arg,
		    struct svg_chart_text *t, char *csv)
{
	out->v = xrealloc(out->v, (out->n + 1) * sizeof *out->v);
	struct site_chart *c = &out->v[out->n++];
	c->name = xstrdup(name);
	c->title = xstrdup(title);
	c->csv = csv;
	c->omitted = NULL;
	char *href = xasprintf("%s.csv", name);
	t->title = title;
	t->csv_href = href;
	c->svg_file = draw(t, arg);
	free(href);
}

char *site_instance_op(const struct ds_instance *in, const char *op)
{
	char *name = ds_variant_display(in->label, in->variant);
	char *s = xasprintf("%s %s", name, op);
	free(name);
	return s;
}

/* ---- cycles per operation ------------------------------------------------------ */

struct dots {
	struct svg_dot *d;
	size_t n;
	struct strlist series;
};

static char *draw_dots(const struct svg_chart_text *t, const void *arg)
{
	const struct dots *d = arg;
	return svg_dotplot_log(t, d->d, d->n, (const char *const *)d->series.items,
			       d->series.n, NULL);
}

/* Min and max of a record's per-trial mean cycles (cycles / calls). */
static void trial_range(const json_t *rec, double mean, double *lo, double *hi)
{
	const json_t *tr;
	size_t i;
	*lo = *hi = mean;
	int first = 1;
	json_array_foreach(json_object_get(rec, "trials"), i, tr) {
		double calls = json_number_value(json_object_get(tr, "calls"));
		double cyc = json_number_value(json_object_get(tr, "cycles"));
		if (!(calls > 0) || !(cyc > 0))
			continue;
		double v = cyc / calls;
		*lo = first ? v : fmin(*lo, v);
		*hi = first ? v : fmax(*hi, v);
		first = 0;
	}
}

static size_t series_index(struct strlist *s, const char *op)
{
	for (size_t i = 0; i < s->n; i++)
		if (!strcmp(s->items[i], op))
			return i;
	sl_push(s, op);
	return s->n - 1;
}

static void cycles_chart(const struct dataset *ds, const struct ds_candidate *c,
			 struct site_charts *out)
{
	struct dots d = { NULL, 0, STRLIST_INIT };
	struct strlist labels = STRLIST_INIT;
	struct csv_out csv = CSV_OUT_INIT;
	csv_header(&csv, "instance,operation,mean_cycles,min_trial_cycles,max_trial_cycles");
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		for (size_t r = 0; r < in->n_rec; r++) {
			const json_t *j = in->rec[r].j;
			double mean = json_number_value(json_object_get(j, "mean_cycles")), lo, hi;
			if (!ds_record_complete(&in->rec[r]) || !(mean > 0))
				continue;
			trial_range(j, mean, &lo, &hi);
			sl_push_owned(&labels, site_instance_op(in, in->rec[r].op));
			d.d = xrealloc(d.d, (d.n + 1) * sizeof *d.d);
			d.d[d.n++] = (struct svg_dot){ NULL, mean, lo, hi, 0 };
			d.d[d.n - 1].series = (int)series_index(&d.series, in->rec[r].op);
			char *iname = ds_variant_display(in->label, in->variant);
			csv_str(&csv, iname);
			free(iname);
			csv_str(&csv, in->rec[r].op);
			csv_double(&csv, mean);
			csv_double(&csv, lo);
			csv_double(&csv, hi);
			csv_end_row(&csv);
		}
	}
	for (size_t i = 0; i < d.n; i++)
		d.d[i].label = labels.items[i];
	if (d.n) {
		char *name = xasprintf("%s-cycles", c->id);
		char *title = xasprintf("%s: mean cycles per operation (system %s)", c->id,
					ds->system_id);
		struct svg_chart_text t = {
			NULL, "Mean cycles per call of each operation and instance on a "
			"logarithmic axis; the whisker spans the lowest and highest trial mean.",
			"cycles per operation (log scale)", NULL, NULL,
		};
		site_add_chart(out, name, title, draw_dots, &d, &t, csv_finish(&csv, NULL));
		free(name);
		free(title);
	} else {
		sb_free(&csv.sb);
	}
	free(d.d);
	sl_free(&d.series);
	sl_free(&labels);
}

/* ---- hash / DRNG shares ----------------------------------------------------------- */

struct stacks {
	struct svg_stack *s;
	size_t n;
};

static char *draw_stacks(const struct svg_chart_text *t, const void *arg)
{
	static const char *const names[3] = { "ICCS hash", "DRNG", "rest" };
	const struct stacks *s = arg;
	return svg_stacked(t, s->s, s->n, names, NULL);
}

static void shares_chart(const struct dataset *ds, const struct ds_candidate *c,
			 struct site_charts *out)
{
	struct stacks s = { NULL, 0 };
	struct strlist labels = STRLIST_INIT;
	struct csv_out csv = CSV_OUT_INIT;
	csv_header(&csv, "instance,operation,hash_share,drng_share,rest_share");
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		for (size_t p = 0; p < in->n_prof; p++) {
			const json_t *j = in->prof[p].j;
			const json_t *hs = json_object_get(j, "hash_share");
			const json_t *dr = json_object_get(j, "drng_share");
			if (!ds_profile_complete(&in->prof[p]) || !json_is_number(hs))
				continue;
			double h = json_number_value(hs), d = json_is_number(dr) ? json_number_value(dr) : 0;
			sl_push_owned(&labels, site_instance_op(in, in->prof[p].op));
			s.s = xrealloc(s.s, (s.n + 1) * sizeof *s.s);
			s.s[s.n++] = (struct svg_stack){ NULL, { h, d } };
			char *iname = ds_variant_display(in->label, in->variant);
			csv_str(&csv, iname);
			free(iname);
			csv_str(&csv, in->prof[p].op);
			csv_double(&csv, h);
			csv_double(&csv, d);
			csv_double(&csv, fmax(0, 1 - h - d));
			csv_end_row(&csv);
		}
	}
	for (size_t i = 0; i < s.n; i++)
		s.s[i].label = labels.items[i];
	if (s.n) {
		char *name = xasprintf("%s-shares", c->id);
		char *title = xasprintf("%s: share of ICCS hash and DRNG per operation (system %s)",
					c->id, ds->system_id);
		struct svg_chart_text t = {
			NULL, "Share of each operation's time spent in the ICCS placeholder hash "
			"functions (pseudohash, pseudoXOF, sm3hash), in the ICCS DRNG, and in the "
			"rest of the code, from the hash profile of the reference build.",
			"share of the operation", NULL, NULL,
		};
		site_add_chart(out, name, title, draw_stacks, &s, &t, csv_finish(&csv, NULL));
		free(name);
		free(title);
	} else {
		sb_free(&csv.sb);
	}
	free(s.s);
	sl_free(&labels);
}

const struct site_chart *site_add_dotplot(struct site_charts *out, const char *name,
					  struct svg_chart_text *t, const struct svg_dot *d,
					  size_t n, const char *const *series, size_t n_series,
					  char *csv)
{
	struct strlist sl = STRLIST_INIT;
	for (size_t i = 0; i < n_series; i++)
		sl_push(&sl, series[i]);
	struct dots dots = { (struct svg_dot *)d, n, sl };
	char *title = xstrdup(t->title);
	site_add_chart(out, name, title, draw_dots, &dots, t, csv);
	free(title);
	sl_free(&sl);
	return &out->v[out->n - 1];
}

/* ---- memory ------------------------------------------------------------------------ */

struct bars {
	struct svg_bars *b;
	size_t n;
};

static char *draw_bars(const struct svg_chart_text *t, const void *arg)
{
	static const char *const names[3] = { "operation peak above loaded RSS", "stack peak",
		"heap peak" };
	const struct bars *b = arg;
	return svg_grouped_bars(t, b->b, b->n, names, NULL);
}

/* What the operation itself adds: its peak RSS above the RSS after
 * loading, its stack and heap peaks; from the memory pass (as A.3), else
 * the timing processes' RSS and no stack or heap.  0 when nothing. */
static int memory_figures(const struct ds_instance *in, const struct ds_record *r, double v[3])
{
	long long loaded, peak;
	const json_t *mem = ds_operation_rss(in, r, &loaded, &peak);
	v[0] = loaded >= 0 && peak >= 0 ? fmax((double)peak - (double)loaded, 0) : -1;
	v[1] = (double)jget_int(mem, "stack_peak_bytes", -1);
	v[2] = (double)jget_int(mem, "heap_peak_bytes", -1);
	return v[0] >= 0 || v[1] >= 0 || v[2] >= 0;
}

static void memory_chart(const struct dataset *ds, const struct ds_candidate *c,
			 struct site_charts *out)
{
	struct bars b = { NULL, 0 };
	struct strlist labels = STRLIST_INIT;
	struct csv_out csv = CSV_OUT_INIT;
	csv_header(&csv, "instance,operation,op_peak_above_loaded_rss_bytes,stack_peak_bytes,"
		   "heap_peak_bytes");
	for (size_t i = 0; i < c->n_inst; i++) {
		const struct ds_instance *in = &c->inst[i];
		for (size_t r = 0; r < in->n_rec; r++) {
			double v[3];
			if (!ds_record_complete(&in->rec[r]) || !memory_figures(in, &in->rec[r], v))
				continue;
			sl_push_owned(&labels, site_instance_op(in, in->rec[r].op));
			b.b = xrealloc(b.b, (b.n + 1) * sizeof *b.b);
			b.b[b.n++] = (struct svg_bars){ NULL, { v[0], v[1], v[2] } };
			char *iname = ds_variant_display(in->label, in->variant);
			csv_str(&csv, iname);
			free(iname);
			csv_str(&csv, in->rec[r].op);
			for (int k = 0; k < 3; k++) {
				if (v[k] >= 0)
					csv_uint(&csv, (uint64_t)v[k]);
				else
					csv_null(&csv);
			}
			csv_end_row(&csv);
		}
	}
	for (size_t i = 0; i < b.n; i++)
		b.b[i].label = labels.items[i];
	if (b.n) {
		char *name = xasprintf("%s-memory", c->id);
		char *title = xasprintf("%s: memory each operation adds (system %s)", c->id,
					ds->system_id);
		struct svg_chart_text t = {
			NULL, "For each instance and operation: how far the resident set grew "
			"above its size after loading the library (operation peak above loaded "
			"RSS), the painted stack peak and the counted heap peak, from the memory "
			"pass (table A.3), on a linear axis. The process's own RSS, about the same "
			"for every operation, is left out.",
			"bytes", NULL, NULL,
		};
		site_add_chart(out, name, title, draw_bars, &b, &t, csv_finish(&csv, NULL));
		free(name);
		free(title);
	} else {
		sb_free(&csv.sb);
	}
	free(b.b);
	sl_free(&labels);
}

static void candidate_hash_chart(const struct dataset *ds, const struct ds_candidate *c,
				 struct site_charts *out);

void site_candidate_charts(const struct dataset *ds, const struct ds_candidate *c,
			   struct site_charts *out)
{
	cycles_chart(ds, c, out);
	candidate_hash_chart(ds, c, out);
	shares_chart(ds, c, out);
	memory_chart(ds, c, out);
	site_samples_chart(ds, c, out);
}

/* ---- KEM cost scatter ------------------------------------------------------------- */

struct points {
	struct svg_point *p;
	size_t n;
	const char *const *series;
	size_t n_series;
};

static char *draw_points(const struct svg_chart_text *t, const void *arg)
{
	const struct points *p = arg;
	return svg_scatter_loglog(t, p->p, p->n, p->series, p->n_series, NULL);
}

/* Catalog figure (column col of external_sizes.csv) when given, else API. */
static double size_of(const struct dataset *ds, const char *cand, const char *label,
		      int col, const json_t *sizes, const char *key)
{
	char **row = csv_find(&ds->external_sizes, cand, label);
	for (int k = 0; row && k <= col; k++)
		if (!row[k])
			row = NULL;
	if (row && *row[col] && row[col][strspn(row[col], "0123456789")] == '\0')
		return strtod(row[col], NULL);
	return json_number_value(json_object_get(sizes, key));
}

const struct site_chart *site_add_scatter(const struct dataset *ds, struct site_charts *out,
					  const char *name, const struct svg_point *p,
					  const char *const *labels, size_t n, const char *which)
{
	struct points pts = { (struct svg_point *)p, n, NULL, 0 };
	struct csv_out csv = CSV_OUT_INIT;
	int *front = xcalloc(n ? n : 1, sizeof *front);
	svg_pareto(p, n, front);
	csv_header(&csv, "candidate,label,pk_plus_ct_bytes,enc_mean_cycles,pareto_front");
	for (size_t k = 0; k < n; k++) {
		csv_str(&csv, p[k].label);
		csv_str(&csv, labels[k]);
		csv_double(&csv, p[k].x);
		csv_double(&csv, p[k].y);
		csv_str(&csv, front[k] ? "yes" : "no");
		csv_end_row(&csv);
	}
	free(front);
	char *title = xasprintf("KEM encapsulation cycles against public key + ciphertext "
				"bytes (system %s)", ds->system_id);
	char *desc = xasprintf("One marker per KEM candidate (its %s): mean encapsulation "
			       "cycles against public-key plus ciphertext bytes, both on "
			       "logarithmic axes. The dashed line joins the Pareto front (no "
			       "other candidate is both smaller and faster).", which);
	struct svg_chart_text t = {
		NULL, desc, "public key + ciphertext (bytes, log scale)",
		"encapsulation cycles (log scale)", NULL,
	};
	site_add_chart(out, name, title, draw_points, &pts, &t, csv_finish(&csv, NULL));
	free(title);
	free(desc);
	return &out->v[out->n - 1];
}

/* The cost chart of one public-key type on the summary: every operation's
 * mean cycles of every reference instance against the bytes the type
 * sends (docs/report-format.md §10.4). */
struct cost_chart {
	const char *type, *name, *what, *against, *xlabel, *bytes_csv;
	const char *ops[3];
	size_t n_ops;
	int cols[2];                 /* external_sizes.csv columns; -1: KEX bandwidth */
	const char *keys[2];
};

static const struct cost_chart cost_charts[] = {
	{ "kem", "kem-cost", "KEM", "public key + ciphertext bytes",
	  "public key + ciphertext (bytes, log scale)",
	  "pk_plus_ct_bytes", { "keygen", "enc", "dec" }, 3, { 2, 3 }, { "pk_bytes", "ct_bytes" } },
	{ "sign", "sign-cost", "Signature", "public key + signature bytes",
	  "public key + signature (bytes, log scale)",
	  "pk_plus_signature_bytes", { "keygen", "sign", "verify" }, 3, { 2, 4 },
	  { "pk_bytes", "signature_bytes" } },
	{ "kex", "kex-cost", "Key-exchange", "bandwidth", "bandwidth: messages + both public keys "
	  "(bytes, log scale)", "bandwidth_bytes", { "exchange" }, 1, { -1, -1 }, { NULL, NULL } },
};

/* The bytes an instance is charted at: catalog sizes where listed, else
 * the API's (as the summary's size columns); NAN when unknown. */
static double cost_bytes(const struct dataset *ds, const struct ds_candidate *c,
			 const struct ds_instance *in, const struct ds_record *r,
			 const struct cost_chart *cc)
{
	if (cc->cols[0] < 0) {
		struct kex_sizes k;
		return !kex_instance_sizes(ds, c->id, in, &k) && k.bandwidth > 0
			? (double)k.bandwidth : NAN;
	}
	const json_t *sizes = json_object_get(r->j, "sizes");
	double b = size_of(ds, c->id, in->label, cc->cols[0], sizes, cc->keys[0]) +
		size_of(ds, c->id, in->label, cc->cols[1], sizes, cc->keys[1]);
	return b > 0 ? b : NAN;
}

static void cost_chart(const struct dataset *ds, const struct cost_chart *cc,
		       struct site_charts *out)
{
	struct svg_point *p = NULL;
	size_t n = 0;
	struct strlist labels = STRLIST_INIT;
	struct csv_out csv = CSV_OUT_INIT;
	struct strbuf omitted = STRBUF_INIT;
	char *hdr = xasprintf("candidate,label,operation,%s,mean_cycles,pareto_front", cc->bytes_csv);
	csv_header(&csv, hdr);
	free(hdr);
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		if (!c->type || strcmp(c->type, cc->type))
			continue;
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *in = &c->inst[k];
			for (size_t o = 0; !in->optimized && o < cc->n_ops; o++) {
				const struct ds_record *r = ds_find_record(in, cc->ops[o]);
				double cyc = r ? json_number_value(json_object_get(r->j, "mean_cycles")) : 0;
				double bytes = r ? cost_bytes(ds, c, in, r, cc) : NAN;
				const char *why = !r ? "not measured" : !ds_record_complete(r) ? "failed"
					: !(cyc > 0) ? "no cycles" : !(bytes > 0) ? "no size" : NULL;
				if (why) {
					sb_addf(&omitted, "%s`%s` %s (%s)", omitted.len ? ", " : "",
						in->label, cc->ops[o], why);
					continue;
				}
				p = xrealloc(p, (n + 1) * sizeof *p);
				p[n++] = (struct svg_point){ in->label, bytes, cyc, (int)o };
				sl_push(&labels, c->id);
			}
		}
	}
	if (!n) {
		sb_free(&csv.sb);
		sb_free(&omitted);
		free(p);
		sl_free(&labels);
		return;
	}
	int *front = xcalloc(n, sizeof *front);
	svg_pareto(p, n, front);
	for (size_t k = 0; k < n; k++) {
		csv_str(&csv, labels.items[k]);
		csv_str(&csv, p[k].label);
		csv_str(&csv, cc->ops[p[k].series]);
		csv_double(&csv, p[k].x);
		csv_double(&csv, p[k].y);
		csv_str(&csv, front[k] ? "yes" : "no");
		csv_end_row(&csv);
	}
	free(front);
	char *title = xasprintf("%s cycles per operation against %s (system %s)", cc->what,
				cc->against, ds->system_id);
	char *desc = xasprintf("One marker per reference instance and operation, labelled with "
			       "its parameter set: mean cycles per call against %s, both on "
			       "logarithmic axes that span every point.%s", cc->xlabel,
			       cc->n_ops > 1 ? " Each operation has its colour and marker shape; "
			       "its dashed line joins its Pareto front (no other instance is both "
			       "smaller and faster at that operation), and hollow markers are "
			       "off it." : " The dashed line joins the Pareto front (no other "
			       "instance is both smaller and faster).");
	struct svg_chart_text t = { NULL, desc, cc->xlabel, "cycles per operation (log scale)",
				    NULL };
	struct points pts = { p, n, cc->ops, cc->n_ops };
	site_add_chart(out, cc->name, title, draw_points, &pts, &t, csv_finish(&csv, NULL));
	out->v[out->n - 1].omitted = omitted.len ? sb_detach(&omitted) : NULL;
	sb_free(&omitted);
	free(title);
	free(desc);
	free(p);
	sl_free(&labels);
}

static void hash_chart(const struct dataset *ds, const struct ds_candidate *only,
		       const char *name, const char *title, struct site_charts *out);

void site_summary_charts(const struct dataset *ds, struct site_charts *out)
{
	for (size_t i = 0; i < sizeof cost_charts / sizeof *cost_charts; i++)
		cost_chart(ds, &cost_charts[i], out);
	char *title = xasprintf("Hash cycles per byte against message length (system %s)",
				ds->system_id);
	hash_chart(ds, NULL, "hash-cycles-per-byte", title, out);
	free(title);
}

/* ---- hash cycles per byte -------------------------------------------------------------- */

struct lines {
	struct svg_line *l;
	size_t n;
};

static char *draw_lines(const struct svg_chart_text *t, const void *arg)
{
	const struct lines *l = arg;
	return svg_lines_loglog(t, l->l, l->n, NULL);
}

/* Points (message bytes, cycles per byte) of an instance's hash_<L>
 * records, in op order (so by L); rows go to the CSV. */
static struct svg_point *hash_points(const struct ds_candidate *c, const struct ds_instance *in,
				     size_t *n, struct csv_out *csv)
{
	struct svg_point *p = xcalloc(in->n_rec + 1, sizeof *p);
	*n = 0;
	for (size_t r = 0; r < in->n_rec; r++) {
		const char *op = in->rec[r].op;
		double L = str_starts_with(op, "hash_") ? strtod(op + 5, NULL) : 0;
		double cyc = json_number_value(json_object_get(in->rec[r].j, "mean_cycles"));
		if (!ds_record_complete(&in->rec[r]) || !(L > 0) || !(cyc > 0))
			continue;
		p[(*n)++] = (struct svg_point){ NULL, L, cyc / L, 0 };
		csv_str(csv, c->id);
		csv_str(csv, in->label);
		csv_double(csv, L);
		csv_double(csv, cyc);
		csv_double(csv, cyc / L);
		csv_end_row(csv);
	}
	return p;
}

/* A pseudoXOF curve belongs on the chart: ours (not a package copy), at a
 * width the drawn hash instances use (any width when widths is NULL). */
static int wanted_xof(const struct ds_instance *in, const int *widths, size_t n_widths)
{
	struct baseline_label id;
	if (baseline_label_parse(in->label, &id) || id.fn != ICCS_PSEUDOXOF || id.copy_of[0])
		return 0;
	for (size_t i = 0; widths && i < n_widths; i++)
		if (widths[i] == id.bits)
			return 1;
	return !widths;
}

struct hash_lines {
	struct lines ls;
	struct strlist names;
	struct csv_out csv;
	size_t hash_lines;
	int widths[64];
	size_t n_widths;
};

static void add_hash_line(struct hash_lines *h, const struct ds_candidate *c,
			  const struct ds_instance *in, int baseline)
{
	size_t n;
	struct svg_point *p = hash_points(c, in, &n, &h->csv);
	if (!n) {
		free(p);
		return;
	}
	sl_push_owned(&h->names, baseline ? xstrdup(in->label) : xasprintf("%s %s", c->id, in->label));
	h->ls.l = xrealloc(h->ls.l, (h->ls.n + 1) * sizeof *h->ls.l);
	h->ls.l[h->ls.n++] = (struct svg_line){ NULL, p, n, baseline };
	h->hash_lines += !baseline;
	int bits = ds_hash_digest_bits(in);
	if (!baseline && bits && h->n_widths < sizeof h->widths / sizeof h->widths[0])
		h->widths[h->n_widths++] = bits;
}

/* The cycles-per-byte chart of one hash candidate (only) or of all of
 * them, with our pseudoXOF at their widths (all of ours for all). */
static void hash_chart(const struct dataset *ds, const struct ds_candidate *only,
		       const char *name, const char *title, struct site_charts *out)
{
	struct hash_lines h;
	memset(&h, 0, sizeof h);
	h.csv = (struct csv_out)CSV_OUT_INIT;
	csv_header(&h.csv, "candidate,label,message_bytes,mean_cycles,cycles_per_byte");
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		if (strcmp(c->type, "hash") || ds_is_baseline(c) || (only && c != only))
			continue;
		for (size_t k = 0; k < c->n_inst; k++)
			if (!c->inst[k].optimized)
				add_hash_line(&h, c, &c->inst[k], 0);
	}
	const struct ds_candidate *b = ds_baseline(ds);
	for (size_t k = 0; b && h.hash_lines && k < b->n_inst; k++)
		if (wanted_xof(&b->inst[k], only ? h.widths : NULL, h.n_widths))
			add_hash_line(&h, b, &b->inst[k], 1);
	for (size_t i = 0; i < h.ls.n; i++)
		h.ls.l[i].name = h.names.items[i];
	if (h.hash_lines) {
		struct svg_chart_text t = {
			NULL, "Mean cycles per byte of each hash instance at each measured "
			"message length, both axes logarithmic; dashed lines are ngcc-perf's ICCS "
			"pseudoXOF at the same output widths (the baseline).",
			"message length (bytes, log scale)", "cycles per byte (log scale)", NULL,
		};
		site_add_chart(out, name, title, draw_lines, &h.ls, &t, csv_finish(&h.csv, NULL));
	} else {
		sb_free(&h.csv.sb);
	}
	for (size_t i = 0; i < h.ls.n; i++)
		free((void *)h.ls.l[i].p);
	free(h.ls.l);
	sl_free(&h.names);
}

static void candidate_hash_chart(const struct dataset *ds, const struct ds_candidate *c,
				 struct site_charts *out)
{
	if (strcmp(c->type, "hash") || ds_is_baseline(c))
		return;
	char *name = xasprintf("%s-cycles-per-byte", c->id);
	char *title = xasprintf("%s: cycles per byte against message length (system %s)",
				c->id, ds->system_id);
	hash_chart(ds, c, name, title, out);
	free(title);
	free(name);
}

void site_charts_free(struct site_charts *c)
{
	for (size_t i = 0; i < c->n; i++) {
		free(c->v[i].name);
		free(c->v[i].title);
		free(c->v[i].svg_file);
		free(c->v[i].csv);
		free(c->v[i].omitted);
	}
	free(c->v);
	c->v = NULL;
	c->n = 0;
}
