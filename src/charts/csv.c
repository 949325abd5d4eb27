/* csv.c — see csv.h. */
#include "charts/csv.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "model/dataset.h"
#include "model/variant_view.h"

/* ---- writer ---------------------------------------------------------------- */

static void field_sep(struct csv_out *c)
{
	if (c->fields++)
		sb_addc(&c->sb, ',');
}

void csv_str(struct csv_out *c, const char *s)
{
	field_sep(c);
	if (!strpbrk(s, ",\"\r\n")) {
		sb_adds(&c->sb, s);
		return;
	}
	sb_addc(&c->sb, '"');
	for (; *s; s++) {
		if (*s == '"')
			sb_addc(&c->sb, '"');
		sb_addc(&c->sb, *s);
	}
	sb_addc(&c->sb, '"');
}

void csv_str_or_null(struct csv_out *c, const char *s)
{
	if (s)
		csv_str(c, s);
	else
		csv_null(c);
}

void csv_null(struct csv_out *c)
{
	field_sep(c);
}

void csv_int(struct csv_out *c, int64_t v)
{
	field_sep(c);
	sb_addf(&c->sb, "%" PRId64, v);
}

void csv_uint(struct csv_out *c, uint64_t v)
{
	field_sep(c);
	sb_addf(&c->sb, "%" PRIu64, v);
}

/* %.17g round-trips every double; the C locale is assumed (the report
 * never calls setlocale). */
void csv_double(struct csv_out *c, double v)
{
	field_sep(c);
	sb_addf(&c->sb, "%.17g", v);
}

void csv_json(struct csv_out *c, const json_t *v)
{
	if (json_is_integer(v))
		csv_int(c, json_integer_value(v));
	else if (json_is_real(v))
		csv_double(c, json_real_value(v));
	else if (json_is_string(v))
		csv_str(c, json_string_value(v));
	else if (json_is_boolean(v))
		csv_str(c, json_is_true(v) ? "true" : "false");
	else
		csv_null(c);
}

void csv_end_row(struct csv_out *c)
{
	sb_addc(&c->sb, '\n');
	c->fields = 0;
}

void csv_header(struct csv_out *c, const char *names)
{
	sb_adds(&c->sb, names);
	csv_end_row(c);
}

char *csv_finish(struct csv_out *c, size_t *len)
{
	if (len)
		*len = c->sb.len;
	c->fields = 0;
	return sb_detach(&c->sb);
}

char *csv_from_cells(char ***rows, size_t nrows, size_t ncols, size_t *len)
{
	struct csv_out c = CSV_OUT_INIT;
	for (size_t i = 0; i < nrows; i++) {
		for (size_t j = 0; j < ncols; j++)
			csv_str(&c, rows[i][j] ? rows[i][j] : "");
		csv_end_row(&c);
	}
	return csv_finish(&c, len);
}

/* ---- reader (tests and checks) ------------------------------------------- */

size_t csv_parse(const char *text, char ****out, size_t **ncols)
{
	char ***rows = NULL;
	size_t *nc = NULL, n = 0;
	const char *p = text;
	while (*p) {
		struct strlist f = STRLIST_INIT;
		for (;;) {
			struct strbuf sb = STRBUF_INIT;
			if (*p == '"') {
				for (p++; *p; p++) {
					if (*p == '"' && p[1] == '"')
						sb_addc(&sb, *p++);
					else if (*p == '"')
						break;
					else
						sb_addc(&sb, *p);
				}
				if (*p == '"')
					p++;
			}
			while (*p && *p != ',' && *p != '\n')
				sb_addc(&sb, *p++);
			sl_push_owned(&f, sb_detach(&sb));
			if (*p != ',')
				break;
			p++;
		}
		if (*p == '\n')
			p++;
		rows = xrealloc(rows, (n + 1) * sizeof *rows);
		nc = xrealloc(nc, (n + 1) * sizeof *nc);
		rows[n] = f.items;
		nc[n++] = f.n;
	}
	*out = rows;
	*ncols = nc;
	return n;
}

void csv_rows_free(char ***rows, size_t *ncols, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < ncols[i]; j++)
			free(rows[i][j]);
		free(rows[i]);
	}
	free(rows);
	free(ncols);
}

/* ---- dataset downloads ----------------------------------------------------- */

static const json_t *jget(const json_t *o, const char *path)
{
	/* "a.b.c" lookup; NULL when any step is missing. */
	char buf[128];
	snprintf(buf, sizeof buf, "%s", path);
	const json_t *cur = o;
	for (char *save = NULL, *k = strtok_r(buf, ".", &save); k && cur;
	     k = strtok_r(NULL, ".", &save))
		cur = json_object_get(cur, k);
	return cur;
}

/* The largest value of rss.<key> over the kept processes, or NULL. */
static json_t *max_process_rss(const json_t *rec, const char *key)
{
	json_t *best = NULL, *p;
	size_t i;
	json_array_foreach(json_object_get(rec, "processes"), i, p) {
		json_t *v = json_object_get(json_object_get(p, "rss"), key);
		if (json_is_integer(v) && (!best || json_integer_value(v) > json_integer_value(best)))
			best = v;
	}
	return best;
}

/* Field i of a NULL-terminated catalog row, or NULL past its end or when
 * empty. */
static const char *cat_field(char **row, int i)
{
	if (!row || i < 0)
		return NULL;
	for (int k = 0; k < i; k++)
		if (!row[k])
			return NULL;
	return row[i] && *row[i] ? row[i] : NULL;
}

static const char *target_bits(const struct dataset *ds, const char *cand, const char *label)
{
	return cat_field(csv_find(&ds->security_targets, cand, label), 2);
}

/* A catalog size (column col of external_sizes.csv) or the API figure. */
static void size_field(struct csv_out *c, char **cat, int col, const json_t *api)
{
	const char *v = cat_field(cat, col);
	if (v && v[strspn(v, "0123456789")] == '\0')
		csv_str(c, v);
	else
		csv_json(c, api);
}

static void summary_row(struct csv_out *c, const struct dataset *ds,
			const struct ds_candidate *cand, const struct ds_instance *in,
			const struct ds_record *r)
{
	const json_t *j = r->j;
	const struct ds_profile *pf = ds_find_profile(in, r->op);
	const json_t *pj = pf && ds_profile_complete(pf) ? pf->j : NULL;
	const json_t *sizes = json_object_get(j, "sizes");
	char **cat = csv_find(&ds->external_sizes, cand->id, in->label);

	csv_str(c, ds->system_id);
	csv_str(c, cand->id);
	csv_str(c, in->label);
	csv_str(c, in->variant->name);
	csv_str(c, r->op);
	csv_json(c, json_object_get(j, "status"));
	csv_str_or_null(c, target_bits(ds, cand->id, in->label));
	static const char *const stat[] = {
		"mean_cycles", "mean_seconds", "operations_per_second",
		"median_trial_seconds", "min_trial_seconds", "max_trial_seconds",
		"dispersion.cv_trial_seconds", "measurements", "plan.trials",
		"plan.iterations_per_trial",
	};
	for (size_t i = 0; i < sizeof stat / sizeof *stat; i++)
		csv_json(c, jget(j, stat[i]));
	csv_json(c, pj ? json_object_get(pj, "hash_share") : NULL);
	csv_json(c, pj ? json_object_get(pj, "drng_share") : NULL);
	csv_json(c, in->build ? json_object_get(in->build, "elf_load_bytes") : NULL);
	csv_json(c, json_object_get(j, "baseline_rss_bytes"));
	csv_json(c, json_object_get(j, "peak_rss_bytes"));
	csv_json(c, max_process_rss(j, "op_peak"));
	const json_t *mem = ds_find_memory(in, r->op);   /* the memory pass's record */
	csv_json(c, mem ? json_object_get(mem, "stack_peak_bytes") : NULL);
	csv_json(c, mem ? json_object_get(mem, "heap_peak_bytes") : NULL);
	size_field(c, cat, 2, json_object_get(sizes, "pk_bytes"));
	csv_json(c, json_object_get(sizes, "sk_bytes"));
	size_field(c, cat, 3, json_object_get(sizes, "ct_bytes"));
	csv_json(c, json_object_get(sizes, "ss_bytes"));
	size_field(c, cat, 4, json_object_get(sizes, "signature_bytes"));
	csv_str(c, cat_field(cat, 5) ? cat_field(cat, 5) : "api");
	csv_str_or_null(c, in->kat_status);
	csv_json(c, jget(j, "counter.name"));
	/* model/variant_view.h: the same figures as the summary's "Fastest
	 * implementation" section */
	double s;
	const struct ds_instance *ref = ds_reference_of(cand, in);
	if (in->variant != DS_REFERENCE && ds_speedup(cand, in, r->op, &s))
		csv_double(c, s);
	else
		csv_null(c);
	csv_str(c, ref && ds_fastest_build(cand, ref, r->op) == in ? "true" : "false");
	csv_end_row(c);
}

char *csv_summary(const struct dataset *ds, size_t *len)
{
	struct csv_out c = CSV_OUT_INIT;
	csv_header(&c, CSV_SUMMARY_COLUMNS);
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *cand = &ds->cand[i];
		for (size_t k = 0; k < cand->n_inst; k++) {
			const struct ds_instance *in = &cand->inst[k];
			for (size_t r = 0; r < in->n_rec; r++)
				summary_row(&c, ds, cand, in, &in->rec[r]);
		}
	}
	return csv_finish(&c, len);
}

char *csv_profiles(const struct dataset *ds, size_t *len)
{
	struct csv_out c = CSV_OUT_INIT;
	csv_header(&c, CSV_PROFILES_COLUMNS);
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *cand = &ds->cand[i];
		for (size_t k = 0; k < cand->n_inst; k++) {
			const struct ds_instance *in = &cand->inst[k];
			for (size_t p = 0; p < in->n_prof; p++) {
				const json_t *pj = in->prof[p].j, *call;
				const json_t *share = json_object_get(pj, "share");
				size_t x;
				json_array_foreach(json_object_get(pj, "calls"), x, call) {
					const char *fn = json_string_value(json_object_get(call, "fn"));
					csv_str(&c, ds->system_id);
					csv_str(&c, cand->id);
					csv_str(&c, in->stem);
					csv_str(&c, in->prof[p].op);
					csv_str_or_null(&c, fn);
					csv_json(&c, json_object_get(call, "in_bits"));
					csv_json(&c, json_object_get(call, "out_bits"));
					csv_json(&c, json_object_get(call, "calls"));
					csv_json(&c, json_object_get(call, "ticks"));
					csv_json(&c, fn ? json_object_get(share, fn) : NULL);
					csv_end_row(&c);
				}
			}
		}
	}
	return csv_finish(&c, len);
}

/* The sizes of an instance as recorded by its first complete record. */
static const json_t *instance_sizes(const struct ds_instance *in)
{
	for (size_t r = 0; r < in->n_rec; r++)
		if (ds_record_complete(&in->rec[r]))
			return json_object_get(in->rec[r].j, "sizes");
	return NULL;
}

static void sizes_row(struct csv_out *c, const struct dataset *ds, const char *cand,
		      const char *label, const char *object, const json_t *sizes,
		      char **cat, int cat_col)
{
	char key[32];
	snprintf(key, sizeof key, "%s_bytes", object);
	const json_t *api = json_object_get(sizes, key);
	const json_t *obs = json_object_get(json_object_get(sizes, "observed"), object);
	const json_t *omin = json_object_get(obs, "min"), *omax = json_object_get(obs, "max");
	const char *catv = cat_field(cat, cat_col);
	if (!api && !omin && !catv)
		return;
	csv_str(c, ds->system_id);
	csv_str(c, cand);
	csv_str(c, label);
	csv_str(c, object);
	csv_json(c, api);
	csv_json(c, omin);
	csv_json(c, omax);
	csv_str_or_null(c, catv);
	csv_str_or_null(c, catv ? cat_field(cat, 5) : NULL);
	/* Same figure everywhere, or the first disagreement found. */
	long long a = json_is_integer(api) ? json_integer_value(api) : -1;
	const char *cls = "consistent";
	if (json_is_integer(omin) && a >= 0 &&
	    (json_integer_value(omin) != a || json_integer_value(omax) != a))
		cls = "observed differs from API";
	else if (catv && a >= 0 && strtoll(catv, NULL, 10) != a)
		cls = "catalog differs from API";
	csv_str(c, cls);
	csv_end_row(c);
}

char *csv_sizes(const struct dataset *ds, size_t *len)
{
	static const struct { const char *object; int cat_col; } objs[] = {
		{ "pk", 2 }, { "sk", -1 }, { "ct", 3 }, { "ss", -1 }, { "signature", 4 },
	};
	struct csv_out c = CSV_OUT_INIT;
	csv_header(&c, CSV_SIZES_COLUMNS);
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *cand = &ds->cand[i];
		for (size_t k = 0; k < cand->n_inst; k++) {
			const struct ds_instance *in = &cand->inst[k];
			const json_t *sizes = instance_sizes(in);
			if (in->optimized || !sizes)
				continue;
			char **cat = csv_find(&ds->external_sizes, cand->id, in->label);
			for (size_t o = 0; o < sizeof objs / sizeof *objs; o++)
				sizes_row(&c, ds, cand->id, in->label, objs[o].object, sizes,
					  cat, objs[o].cat_col);
		}
	}
	return csv_finish(&c, len);
}
