/*
 * page_sizeaudit.c — size-audit.md (report-format §9): where each size
 * figure comes from, the automatic audit of API, observed and catalog
 * lengths (only the rows that differ), and curated notes.
 */
#include "report/pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "report/format.h"

#define DASH FMT_DASH

struct object {
	const char *key, *name;
	int catalog_col;   /* column in external_sizes.csv, 0 = none */
};

static const struct object objects[] = {
	{ "pk", "public key", 2 }, { "sk", "secret key", 0 }, { "ct", "ciphertext", 3 },
	{ "ss", "shared secret", 0 }, { "signature", "signature", 4 },
};

static size_t row_ncols(const struct csv_table *t, char **row)
{
	for (size_t i = 0; i < t->n; i++)
		if (t->rows[i] == row)
			return t->ncols[i];
	return 0;
}

/* API value, observed range over the instance's records; 0 when none. */
static int sizes_of(const struct ds_instance *in, const char *obj, long long *api,
		    long long *mn, long long *mx)
{
	char key[32];
	snprintf(key, sizeof key, "%s_bytes", obj);
	int seen = 0;
	*api = -1;
	for (size_t k = 0; k < in->n_rec; k++) {
		const json_t *s = json_object_get(in->rec[k].j, "sizes");
		const json_t *a = json_object_get(s, key);
		if (json_is_integer(a))
			*api = json_integer_value(a);
		const json_t *o = json_object_get(json_object_get(s, "observed"), obj);
		const json_t *lo = json_object_get(o, "min"), *hi = json_object_get(o, "max");
		if (!json_is_integer(lo) || !json_is_integer(hi))
			continue;
		if (!seen || json_integer_value(lo) < *mn)
			*mn = json_integer_value(lo);
		if (!seen || json_integer_value(hi) > *mx)
			*mx = json_integer_value(hi);
		seen = 1;
	}
	return seen || *api >= 0;
}

static const char *classify(long long api, int observed, long long mn, long long mx, long long cat)
{
	if (!observed)
		return "missing";
	if (api >= 0 && mx > api)
		return "wrong API length";
	if (cat >= 0 && (cat < mn || cat > mx))
		return "encoding differs";
	if (api >= 0 && mx < api)
		return "padded capacity";
	return NULL;
}

static int audit_rows(struct md_page *md, const struct dataset *ds)
{
	static const char *const hdr[] = { "id", "instance", "object", "API", "observed",
		"catalog (basis)", "classification" };
	int rows = 0;
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		if (!strcmp(c->type, "hash"))
			continue;
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *in = &c->inst[k];
			if (in->optimized)
				continue;
			char **row = csv_find(&ds->external_sizes, c->id, in->label);
			size_t nc = row_ncols(&ds->external_sizes, row);
			for (size_t o = 0; o < sizeof objects / sizeof *objects; o++) {
				long long api, mn = 0, mx = 0, cat = -1;
				if (!sizes_of(in, objects[o].key, &api, &mn, &mx))
					continue;
				int observed = mx > 0 || mn > 0;
				int col = objects[o].catalog_col;
				if (row && col && (size_t)col < nc && *row[col])
					cat = strtoll(row[col], NULL, 10);
				if (api < 0 && cat < 0 && !observed)
					continue;
				const char *cls = classify(api, observed, mn, mx, cat);
				if (!cls)
					continue;
				if (!rows++)
					md_table(md, hdr, 7);
				char a[FMT_MAX], ob[2 * FMT_MAX], ca[2 * FMT_MAX];
				snprintf(a, sizeof a, "%lld", api);
				if (!observed)
					snprintf(ob, sizeof ob, "%s", DASH);
				else if (mn == mx)
					snprintf(ob, sizeof ob, "%lld", mn);
				else
					snprintf(ob, sizeof ob, "%lld\xe2\x80\x93%lld", mn, mx);
				if (cat >= 0)
					snprintf(ca, sizeof ca, "%lld (%s)", cat, nc > 5 ? row[5] : "encoded");
				else
					snprintf(ca, sizeof ca, "%s", DASH);
				char *id = xasprintf("[%s](%s/%s.md)", c->id, ds->system_id, c->id);
				char *inst = md_code(in->label);
				const char *cells[7] = { id, inst, objects[o].name, api >= 0 ? a : DASH,
					ob, ca, cls };
				md_row(md, cells);
				free(id);
				free(inst);
			}
		}
	}
	return rows;
}

char *page_size_audit(const struct dataset *ds, size_t *len)
{
	struct md_page md = MD_PAGE_INIT;
	char *cat = ds_conf_str(ds, "size_catalog_path", NULL, "external_sizes.csv");
	char *code = md_code(cat);
	md_block(&md, "[Performance measurements](index.md) \xe2\x80\xba size audit");
	md_block(&md, "# External size accounting and audit");
	md_blockf(&md, "Public-key, ciphertext and signature bytes on the candidate and summary "
		  "pages come from the curated %s catalog when it lists the instance, otherwise "
		  "from the lengths the implementation's API declares; secret-key and "
		  "shared-secret lengths are always API figures. Key-exchange bandwidth is the "
		  "protocol messages plus public key A plus public key B, each key counted once. "
		  "Catalog bases: `encoded` is the exact encoded length; `maximum-variable` the "
		  "largest length a variable-length object can take; `nominal-variable` the "
		  "specification's representative length of a variable-length object.", code);
	free(code);
	free(cat);
	md_block(&md, "## Automatic audit");
	md_block(&md, "Each instance's API lengths are compared with the lengths observed in the "
		 "timing runs and with the catalog; only differing rows are listed.");
	if (!audit_rows(&md, ds))
		md_block(&md, "No differences: every observed length equals its API length and "
			 "catalog entry.");
	md_block(&md, "## Curated notes");
	static const char *const hdr[] = { "candidate", "externally relevant difference" };
	int notes = 0;
	for (size_t i = 0; i < ds->size_notes.n; i++) {
		char **r = ds->size_notes.rows[i];
		if (ds->size_notes.ncols[i] < 2)
			continue;
		if (!notes++)
			md_table(&md, hdr, 2);
		const char *cells[2] = { r[0], r[1] };
		md_row(&md, cells);
	}
	if (!notes)
		md_block(&md, "No curated notes.");
	return md_finish(&md, len);
}
