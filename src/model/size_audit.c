/* size_audit.c — see size_audit.h. */
#include "model/size_audit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "util/util.h"

struct audit_object {
	const char *key;
	int catalog_col;   /* column of external_sizes.csv, 0 = the catalog has none */
};

static const struct audit_object objects[] = {
	{ "pk", 2 }, { "sk", 0 }, { "ct", 3 }, { "ss", 0 }, { "signature", 4 },
};

#define BASIS_COL 5

const char *size_audit_classify(long long api, int observed, long long mn, long long mx,
				long long cat)
{
	if (api < 0 || !observed)
		return SA_MISSING;
	if (mx > api)
		return SA_WRONG_API;
	if (cat >= 0 && (cat < mn || cat > mx))
		return SA_ENCODING;
	if (mx < api)
		return SA_PADDED;
	return NULL;
}

/* ---- gathering the figures -------------------------------------------------- */

struct figures {
	long long api, mn, mx, cat;
	int observed;
	const char *basis;
};

/* API length and observed range of obj over the instance's records. */
static void record_figures(const struct ds_instance *in, const char *obj, struct figures *f)
{
	char key[32];
	snprintf(key, sizeof key, "%s_bytes", obj);
	for (size_t k = 0; k < in->n_rec; k++) {
		const json_t *s = json_object_get(in->rec[k].j, "sizes");
		const json_t *a = json_object_get(s, key);
		if (f->api < 0 && json_is_integer(a))
			f->api = json_integer_value(a);
		const json_t *o = json_object_get(json_object_get(s, "observed"), obj);
		const json_t *lo = json_object_get(o, "min"), *hi = json_object_get(o, "max");
		if (!json_is_integer(lo) || !json_is_integer(hi))
			continue;
		if (!f->observed || json_integer_value(lo) < f->mn)
			f->mn = json_integer_value(lo);
		if (!f->observed || json_integer_value(hi) > f->mx)
			f->mx = json_integer_value(hi);
		f->observed = 1;
	}
}

static size_t row_ncols(const struct csv_table *t, char **row)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i] == row)
			return t->ncols[i];
	return 0;
}

/* A byte count of the catalog, -1 when the cell is empty or not a number. */
static long long catalog_bytes(const char *cell)
{
	char *end;
	errno = 0;
	long long v = strtoll(cell, &end, 10);
	return end == cell || *end || errno || v < 0 ? -1 : v;
}

static void catalog_figures(const struct dataset *ds, const char *cand, const char *label,
			    int col, struct figures *f)
{
	char **row = csv_find(&ds->external_sizes, cand, label);
	size_t nc = row_ncols(&ds->external_sizes, row);
	if (!row || !col || (size_t)col >= nc)
		return;
	f->cat = catalog_bytes(row[col]);
	if (f->cat >= 0)
		f->basis = nc > BASIS_COL && *row[BASIS_COL] ? row[BASIS_COL] : "encoded";
}

static json_t *int_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* One object's entry, or NULL when no source has a figure for it. */
static json_t *object_entry(const struct dataset *ds, const struct ds_candidate *c,
			    const struct ds_instance *in, const struct audit_object *ob)
{
	struct figures f = { -1, 0, 0, -1, 0, NULL };
	record_figures(in, ob->key, &f);
	catalog_figures(ds, c->id, in->label, ob->catalog_col, &f);
	if (f.api < 0 && f.cat < 0 && !f.observed)
		return NULL;
	const char *cls = size_audit_classify(f.api, f.observed, f.mn, f.mx, f.cat);
	json_t *e = json_object();
	json_object_set_new(e, "object", json_string(ob->key));
	json_object_set_new(e, "api", int_or_null(f.api));
	json_object_set_new(e, "observed", f.observed
			    ? json_pack("{sIsI}", "min", (json_int_t)f.mn, "max", (json_int_t)f.mx)
			    : json_null());
	json_object_set_new(e, "catalog", int_or_null(f.cat));
	json_object_set_new(e, "basis", jstr_or_null(f.basis));
	json_object_set_new(e, "classification", jstr_or_null(cls));
	return e;
}

json_t *size_audit_compute(const struct dataset *ds)
{
	json_t *doc = json_object(), *insts = json_array();
	json_object_set_new(doc, "schema", evidence_schema(SIZE_AUDIT_KIND, SIZE_AUDIT_VERSION));
	json_object_set_new(doc, "system_id", jstr_or_null(ds->system_id));
	json_object_set_new(doc, "catalog_present", json_boolean(ds->external_sizes.present));
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		if (c->type && !strcmp(c->type, "hash"))
			continue;
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *in = &c->inst[k];
			if (in->optimized)
				continue;
			json_t *objs = json_array();
			for (size_t o = 0; o < sizeof objects / sizeof *objects; o++) {
				json_t *e = object_entry(ds, c, in, &objects[o]);
				if (e)
					json_array_append_new(objs, e);
			}
			if (!json_array_size(objs)) {
				json_decref(objs);
				continue;
			}
			json_array_append_new(insts, json_pack("{sssssO}", "candidate", c->id,
							       "label", in->label, "objects", objs));
			json_decref(objs);
		}
	}
	json_object_set_new(doc, "instances", insts);
	return doc;
}

int size_audit_catalog_check(const struct dataset *ds, char **err)
{
	const struct csv_table *t = &ds->external_sizes;
	for (size_t i = 0; i < t->n; i++) {
		if (t->ncols[i] < 2) {
			*err = xasprintf("external_sizes.csv: row \"%s\" has no Instance field; "
					 "rows are ID;Instance;PublicKeyBytes;CiphertextBytes;"
					 "SignatureBytes;Basis", t->rows[i][0]);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (t->ncols[j] >= 2 && !strcmp(t->rows[i][0], t->rows[j][0]) &&
			    !strcmp(t->rows[i][1], t->rows[j][1])) {
				*err = xasprintf("external_sizes.csv lists %s %s twice; keep one "
						 "row per instance", t->rows[i][0], t->rows[i][1]);
				return -1;
			}
	}
	return 0;
}

int size_audit_write(const struct dataset *ds, const char *path, char **err)
{
	if (size_audit_catalog_check(ds, err))
		return -1;
	json_t *j = size_audit_compute(ds);
	int rc = evidence_write(path, j);
	json_decref(j);
	if (rc)
		*err = xasprintf("cannot write %s: %s", path, strerror(errno));
	return rc;
}
