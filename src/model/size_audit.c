/* size_audit.c — see size_audit.h. */
#include "model/size_audit.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "util/util.h"

enum catalog { CAT_NONE, CAT_EXTERNAL, CAT_KEX };

struct audit_object {
	const char *key;      /* sizes.observed.<key> and the audit's "object" */
	const char *api_key;  /* sizes.<api_key>; NULL: the API has no such figure */
	enum catalog catalog; /* external_sizes.csv or kex_bandwidth.csv */
	int catalog_col;      /* its column; 0 = the catalog has none */
};

/* What each type's audit covers, in order.  A KEX's public keys are
 * counted for both parties; "messages" is the sum of its protocol
 * messages (the record's kex.protocol_message_bytes), which the API
 * gives only as a per-message buffer capacity. */
static const struct audit_object kem_objects[] = {
	{ "pk", "pk_bytes", CAT_EXTERNAL, 2 }, { "sk", "sk_bytes", CAT_NONE, 0 },
	{ "ct", "ct_bytes", CAT_EXTERNAL, 3 }, { "ss", "ss_bytes", CAT_NONE, 0 },
	{ "signature", "signature_bytes", CAT_EXTERNAL, 4 }, { NULL, NULL, CAT_NONE, 0 },
};
static const struct audit_object sig_objects[] = {
	{ "pk", "pk_bytes", CAT_EXTERNAL, 2 }, { "sk", "sk_bytes", CAT_NONE, 0 },
	{ "signature", "signature_bytes", CAT_EXTERNAL, 4 }, { NULL, NULL, CAT_NONE, 0 },
};
static const struct audit_object kex_objects[] = {
	{ "pk_a", "pk_bytes", CAT_KEX, 2 }, { "pk_b", "pk_bytes", CAT_KEX, 3 },
	{ "sk_a", "sk_bytes", CAT_NONE, 0 }, { "sk_b", "sk_bytes", CAT_NONE, 0 },
	{ "ss", "ss_bytes", CAT_NONE, 0 }, { "messages", NULL, CAT_KEX, 4 },
	{ NULL, NULL, CAT_NONE, 0 },
};

static const struct audit_object *objects_of(const char *type)
{
	if (type && !strcmp(type, "sign"))
		return sig_objects;
	if (type && !strcmp(type, "kex"))
		return kex_objects;
	return kem_objects;
}

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
	double mean;          /* of the memory pass's signatures; < 0: none */
	long long count;      /* how many signatures that mean is of */
	const char *basis;
};

static void widen(struct figures *f, long long lo, long long hi)
{
	if (!f->observed || lo < f->mn)
		f->mn = lo;
	if (!f->observed || hi > f->mx)
		f->mx = hi;
	f->observed = 1;
}

/* The observed range of obj in one record: sizes.observed.<obj>, or for
 * a KEX's messages its protocol-message total. */
static int record_range(const json_t *rec, const char *obj, long long *lo, long long *hi)
{
	const json_t *a, *b;
	if (!strcmp(obj, "messages")) {
		a = b = json_object_get(json_object_get(rec, "kex"), "protocol_message_bytes");
	} else {
		const json_t *o = json_object_get(json_object_get(json_object_get(rec, "sizes"),
								  "observed"), obj);
		a = json_object_get(o, "min");
		b = json_object_get(o, "max");
	}
	if (!json_is_integer(a) || !json_is_integer(b))
		return 0;
	*lo = json_integer_value(a);
	*hi = json_integer_value(b);
	return 1;
}

/* API length and observed range of obj over the instance's records, and
 * the lengths the memory pass observed (the 100 signatures of sign). */
static void record_figures(const struct ds_instance *in, const struct audit_object *ob,
			   struct figures *f)
{
	for (size_t k = 0; k < in->n_rec; k++) {
		const json_t *a = ob->api_key ? json_object_get(json_object_get(in->rec[k].j, "sizes"),
								 ob->api_key) : NULL;
		if (f->api < 0 && json_is_integer(a))
			f->api = json_integer_value(a);
		long long lo, hi;
		if (record_range(in->rec[k].j, ob->key, &lo, &hi))
			widen(f, lo, hi);
	}
	for (size_t k = 0; k < in->n_extra; k++) {
		const json_t *o = json_object_get(json_object_get(in->extra_json[k], "observed"), ob->key);
		const json_t *lo = json_object_get(o, "min"), *hi = json_object_get(o, "max");
		if (strcmp(jget_str(in->extra_json[k], "status", ""), "complete") ||
		    !json_is_integer(lo) || !json_is_integer(hi))
			continue;
		widen(f, json_integer_value(lo), json_integer_value(hi));
		f->mean = jget_real(o, "mean", -1);
		f->count = jget_int(o, "count", 0);
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
			    const struct audit_object *ob, struct figures *f)
{
	const struct csv_table *t = ob->catalog == CAT_KEX ? &ds->kex_bandwidth : &ds->external_sizes;
	char **row = ob->catalog_col ? csv_find(t, cand, label) : NULL;
	size_t nc = row_ncols(t, row);
	if (!row || (size_t)ob->catalog_col >= nc)
		return;
	f->cat = catalog_bytes(row[ob->catalog_col]);
	if (f->cat >= 0)
		f->basis = ob->catalog == CAT_EXTERNAL && nc > BASIS_COL && *row[BASIS_COL]
			? row[BASIS_COL] : "encoded";
}

static json_t *int_or_null(long long v)
{
	return v < 0 ? json_null() : json_integer(v);
}

/* An object the API has no figure for (a KEX's message total) differs
 * only when the catalog lies outside the observed range. */
static const char *classify(const struct audit_object *ob, const struct figures *f)
{
	if (!ob->api_key)
		return f->cat >= 0 && f->observed && (f->cat < f->mn || f->cat > f->mx)
			? SA_ENCODING : NULL;
	return size_audit_classify(f->api, f->observed, f->mn, f->mx, f->cat);
}

/* One object's entry, or NULL when no source has a figure for it. */
static json_t *object_entry(const struct dataset *ds, const struct ds_candidate *c,
			    const struct ds_instance *in, const struct audit_object *ob)
{
	struct figures f = { -1, 0, 0, -1, 0, -1, 0, NULL };
	record_figures(in, ob, &f);
	catalog_figures(ds, c->id, in->label, ob, &f);
	if (f.api < 0 && f.cat < 0 && !f.observed)
		return NULL;
	const char *cls = classify(ob, &f);
	json_t *e = json_object();
	json_object_set_new(e, "object", json_string(ob->key));
	json_object_set_new(e, "api", int_or_null(f.api));
	json_t *obs = f.observed ? json_pack("{sIsI}", "min", (json_int_t)f.mn, "max", (json_int_t)f.mx)
				 : json_null();
	if (f.observed && f.mean >= 0) {
		json_object_set_new(obs, "mean", json_real(f.mean));
		json_object_set_new(obs, "count", json_integer(f.count));
	}
	json_object_set_new(e, "observed", obs);
	json_object_set_new(e, "catalog", int_or_null(f.cat));
	json_object_set_new(e, "basis", jstr_or_null(f.basis));
	json_object_set_new(e, "classification", jstr_or_null(cls));
	return e;
}

json_t *size_audit_instance(const struct dataset *ds, const struct ds_candidate *c,
			    const struct ds_instance *in)
{
	json_t *objs = json_array();
	for (const struct audit_object *ob = objects_of(c->type); ob->key; ob++) {
		json_t *e = object_entry(ds, c, in, ob);
		if (e)
			json_array_append_new(objs, e);
	}
	return objs;
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
			json_t *objs = size_audit_instance(ds, c, in);
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

const char *size_audit_object_name(const char *key)
{
	static const char *const names[][2] = {
		{ "pk", "public key" }, { "sk", "secret key" }, { "ct", "ciphertext" },
		{ "ss", "shared secret" }, { "signature", "signature" },
		{ "pk_a", "public key A" }, { "pk_b", "public key B" }, { "sk_a", "secret key A" },
		{ "sk_b", "secret key B" }, { "messages", "protocol messages" },
	};
	for (size_t i = 0; i < sizeof names / sizeof *names; i++)
		if (!strcmp(names[i][0], key))
			return names[i][1];
	return key;
}

/* ---- key-exchange sizes for the pages ------------------------------------------ */

/* The record an instance's key-exchange facts come from: its exchange
 * record, else the first record with any; NULL without. */
static const json_t *kex_record(const struct ds_instance *in)
{
	const json_t *any = NULL;
	for (size_t k = 0; k < in->n_rec; k++) {
		if (!json_is_object(json_object_get(in->rec[k].j, "kex")))
			continue;
		if (!strcmp(in->rec[k].op, "exchange"))
			return in->rec[k].j;
		if (!any)
			any = in->rec[k].j;
	}
	return any;
}

/* The catalog's figure in column col, else the record's. */
static long long catalog_or_record(char **row, size_t nc, int col, const json_t *facts,
				   const char *key)
{
	long long v = row && (size_t)col < nc ? catalog_bytes(row[col]) : -1;
	return v >= 0 ? v : jget_int(facts, key, -1);
}

int kex_instance_sizes(const struct dataset *ds, const char *cand,
		       const struct ds_instance *in, struct kex_sizes *k)
{
	const json_t *rec = kex_record(in);
	memset(k, 0, sizeof *k);
	if (!rec)
		return -1;
	const json_t *x = json_object_get(rec, "kex"), *sizes = json_object_get(rec, "sizes");
	char **row = csv_find(&ds->kex_bandwidth, cand, in->label);
	size_t nc = row_ncols(&ds->kex_bandwidth, row);
	k->passes = jget_int(x, "passes", -1);
	k->messages = json_is_array(json_object_get(x, "message_bytes"))
		? json_object_get(x, "message_bytes") : NULL;
	k->pk_a = catalog_or_record(row, nc, 2, x, "pk_a_bytes");
	k->pk_b = catalog_or_record(row, nc, 3, x, "pk_b_bytes");
	k->protocol = catalog_or_record(row, nc, 4, x, "protocol_message_bytes");
	k->bandwidth = k->pk_a < 0 || k->pk_b < 0 || k->protocol < 0 ? -1
		       : k->protocol + k->pk_a + k->pk_b;
	k->sk = jget_int(sizes, "sk_bytes", -1);
	k->ss = jget_int(sizes, "ss_bytes", -1);
	return 0;
}

/* Every row names an instance, none twice. */
static int catalog_check(const struct csv_table *t, const char *file, const char *fields,
			 char **err)
{
	for (size_t i = 0; i < t->n; i++) {
		if (t->ncols[i] < 2) {
			*err = xasprintf("%s: row \"%s\" has no Instance field; rows are %s",
					 file, t->rows[i][0], fields);
			return -1;
		}
		for (size_t j = 0; j < i; j++)
			if (t->ncols[j] >= 2 && !strcmp(t->rows[i][0], t->rows[j][0]) &&
			    !strcmp(t->rows[i][1], t->rows[j][1])) {
				*err = xasprintf("%s lists %s %s twice; keep one row per instance",
						 file, t->rows[i][0], t->rows[i][1]);
				return -1;
			}
	}
	return 0;
}

int size_audit_catalog_check(const struct dataset *ds, char **err)
{
	return catalog_check(&ds->external_sizes, "external_sizes.csv",
			     "ID;Instance;PublicKeyBytes;CiphertextBytes;SignatureBytes;Basis", err) ||
	       catalog_check(&ds->kex_bandwidth, "kex_bandwidth.csv",
			     "ID;Instance;PkABytes;PkBBytes;ProtocolMessageBytes", err) ? -1 : 0;
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
