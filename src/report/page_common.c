/* page_common.c — pieces shared by several pages; see pages.h. */
#include "report/pages.h"

#include "model/variant.h"

#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "method/format.h"

/* The label as code, the variant's tag beside it (ds_variant_display). */
static char *variant_cell(const char *label, const struct ds_variant *v)
{
	char *code = md_code(label);
	char *s = ds_variant_display(code, v);
	free(code);
	return s;
}

char *instance_cell(const struct ds_instance *in)
{
	return variant_cell(in->label, in->variant);
}

char *stem_cell(const char *stem)
{
	char *label;
	const struct ds_variant *v = ds_variant_of_stem(stem, &label);
	char *s = variant_cell(label, v);
	free(label);
	return s;
}

char *system_switch(const struct dataset *ds, const char *page, const char *cand)
{
	struct strbuf sb = STRBUF_INIT;
	int seen_self = 0;
	for (size_t i = 0; i < ds->n_systems; i++) {
		const char *id = ds->systems[i].id;
		if (sb.len)
			sb_adds(&sb, " \xc2\xb7 ");
		if (!strcmp(id, ds->system_id)) {
			sb_addf(&sb, "**%s**", id);
			seen_self = 1;
		} else if (cand ? ds_system_has_candidate(ds, id, cand) : ds_system_rendered(ds, id)) {
			sb_addf(&sb, "[%s](../%s/%s)", id, id, page);
		} else {
			sb_adds(&sb, id);   /* registered, but no pages here to link */
		}
	}
	if (!seen_self) {
		if (sb.len)
			sb_adds(&sb, " \xc2\xb7 ");
		sb_addf(&sb, "**%s**", ds->system_id);
	}
	return sb_detach(&sb);
}

/* Visit the records of one candidate, or of all when c is NULL. */
static void each_record(const struct dataset *ds, const struct ds_candidate *c,
			void (*fn)(const struct ds_record *, void *), void *ctx)
{
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *x = &ds->cand[i];
		if (c && x != c)
			continue;
		for (size_t k = 0; k < x->n_inst; k++)
			for (size_t r = 0; r < x->inst[k].n_rec; r++)
				fn(&x->inst[k].rec[r], ctx);
	}
}

struct unfixed_acc {
	struct strlist problems;
	char *reason;
	int any;
};

static void collect_unfixed(const struct ds_record *r, void *ctx)
{
	struct unfixed_acc *a = ctx;
	const json_t *host = json_object_get(r->j, "host");
	if (!jget_bool(host, "unfixed", 0))
		return;
	a->any = 1;
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(host, "problems"), i, p)
		if (json_is_string(p) && !sl_contains(&a->problems, json_string_value(p)))
			sl_push(&a->problems, json_string_value(p));
	const char *why = jget_str(host, "override_reason", NULL);
	if (!a->reason && why)
		a->reason = xstrdup(why);
}

char *unfixed_text(const struct dataset *ds, const struct ds_candidate *c)
{
	struct unfixed_acc a = { STRLIST_INIT, NULL, 0 };
	each_record(ds, c, collect_unfixed, &a);
	if (!a.any) {
		sl_free(&a.problems);
		return xstrdup("");
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < a.problems.n; i++)
		sb_addf(&sb, "%s%s", i ? "; " : "", a.problems.items[i]);
	if (!a.problems.n)
		sb_adds(&sb, "problems not recorded");
	sb_addf(&sb, " (override: %s)", a.reason ? a.reason : "not given");
	free(a.reason);
	sl_free(&a.problems);
	return sb_detach(&sb);
}

char *unfixed_notice(const struct dataset *ds, const struct ds_candidate *c)
{
	char *t = unfixed_text(ds, c);
	if (!*t) {
		free(t);
		return NULL;
	}
	char *s = xasprintf("\xe2\x9a\xa0 Measured on a host that was not fixed: %s.", t);
	free(t);
	return s;
}

static char *join_notes(const json_t *notes)
{
	if (json_is_string(notes))
		return *json_string_value(notes) ? xstrdup(json_string_value(notes)) : NULL;
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *n;
	json_array_foreach(notes, i, n)
		if (json_is_string(n))
			sb_addf(&sb, "%s%s", sb.len ? "; " : "", json_string_value(n));
	if (!sb.len) {
		sb_free(&sb);
		return NULL;
	}
	return sb_detach(&sb);
}

void candidate_verdict(const struct dataset *ds, const struct ds_candidate *c,
		       char **verdict, char **notes)
{
	char **row = csv_find(&ds->survey_conf, c->id, NULL);
	*verdict = *notes = NULL;
	if (row && row[1] && *row[1]) {
		*verdict = xstrdup(row[1]);
		if (row[2] && *row[2])
			*notes = xstrdup(row[2]);
		return;
	}
	/* Without a survey.conf line now, the automatic verdict holds, even if
	 * survey.json was written while a (since removed) line overrode it. */
	const json_t *aut = json_object_get(c->survey, "automatic");
	const json_t *src = jget_str(aut, "verdict", NULL) ? aut : c->survey;
	const char *v = jget_str(src, "verdict", NULL);
	if (v) {
		*verdict = xstrdup(v);
		*notes = join_notes(json_object_get(src, "notes"));
	}
}

int rec_real(const json_t *r, const char *key, double *out)
{
	const json_t *v = json_object_get(r, key);
	if (!json_is_number(v))
		return 0;
	*out = json_number_value(v);
	return 1;
}

void profile_shares(const json_t *p, double *hash_share, double *drng_share)
{
	if (rec_real(p, "hash_share", hash_share)) {
		if (!rec_real(p, "drng_share", drng_share))
			*drng_share = 0;
		return;
	}
	const json_t *total = json_object_get(p, "total");
	double T = (double)jget_int(total, "ticks", 0);
	double h = 0, d = 0;
	size_t i;
	json_t *e;
	json_array_foreach(json_object_get(p, "calls"), i, e) {
		double t = (double)jget_int(e, "ticks", 0);
		if (!strcmp(jget_str(e, "fn", ""), "drng"))
			d += t;
		else
			h += t;
	}
	*hash_share = T > 0 ? h / T : 0;
	*drng_share = T > 0 ? d / T : 0;
}

char *profile_calls(const json_t *p)
{
	struct fn_calls v[16];
	size_t n = 0;
	const json_t *cpo = json_object_get(p, "calls_per_operation");
	const char *fn;
	json_t *x;
	if (json_is_object(cpo)) {
		json_object_foreach((json_t *)cpo, fn, x)
			if (n < 16 && json_is_number(x))
				v[n++] = (struct fn_calls){ fn, json_number_value(x) };
		return fmt_calls_per_op(v, n);
	}
	double ops = (double)jget_int(json_object_get(p, "total"), "operations", 0);
	size_t i;
	json_array_foreach(json_object_get(p, "calls"), i, x) {
		const char *name = jget_str(x, "fn", "");
		size_t k;
		for (k = 0; k < n && strcmp(v[k].fn, name); k++)
			;
		if (k == n && n < 16)
			v[n++] = (struct fn_calls){ name, 0 };
		if (k < 16 && ops > 0)
			v[k].per_op += (double)jget_int(x, "calls", 0);
	}
	for (size_t k = 0; k < n && ops > 0; k++)
		v[k].per_op /= ops;
	return fmt_calls_per_op(v, ops > 0 ? n : 0);
}
