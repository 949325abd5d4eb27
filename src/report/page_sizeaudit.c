/*
 * page_sizeaudit.c — size-audit.md (docs/report-format.md §9): where each size
 * figure comes from, the automatic audit of API, observed and catalog
 * lengths (only the rows that differ; computed by model/size_audit.h,
 * like size_audit.json), and curated notes.
 */
#include "report/pages.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "method/format.h"
#include "model/size_audit.h"

#define DASH FMT_DASH

static void audit_row(struct md_page *md, const struct dataset *ds, const json_t *inst,
		      const json_t *o)
{
	char a[FMT_MAX], ob[2 * FMT_MAX], ca[2 * FMT_MAX];
	const json_t *obs = json_object_get(o, "observed");
	long long api = jget_int(o, "api", -1), cat = jget_int(o, "catalog", -1);
	long long mn = jget_int(obs, "min", 0), mx = jget_int(obs, "max", 0);
	snprintf(a, sizeof a, "%lld", api);
	if (!json_is_object(obs))
		snprintf(ob, sizeof ob, "%s", DASH);
	else if (mn == mx)
		snprintf(ob, sizeof ob, "%lld", mn);
	else
		snprintf(ob, sizeof ob, "%lld\xe2\x80\x93%lld", mn, mx);
	if (cat >= 0)
		snprintf(ca, sizeof ca, "%lld (%s)", cat, jget_str(o, "basis", "encoded"));
	else
		snprintf(ca, sizeof ca, "%s", DASH);
	const char *cand = jget_str(inst, "candidate", "");
	char *id = xasprintf("[%s](%s/%s.md)", cand, ds->system_id, cand);
	char *label = md_code(jget_str(inst, "label", ""));
	const char *cells[7] = { id, label, size_audit_object_name(jget_str(o, "object", "")),
		api >= 0 ? a : DASH, ob, ca, jget_str(o, "classification", "") };
	md_row(md, cells);
	free(id);
	free(label);
}

/* The differing rows of the audit (model/size_audit.h, the same
 * computation as size_audit.json); returns their number. */
static int audit_rows(struct md_page *md, const struct dataset *ds)
{
	static const char *const hdr[] = { "id", "instance", "object", "API", "observed",
		"catalog (basis)", "classification" };
	json_t *audit = size_audit_compute(ds);
	int rows = 0;
	size_t i, k;
	json_t *inst, *o;
	json_array_foreach(json_object_get(audit, "instances"), i, inst) {
		json_array_foreach(json_object_get(inst, "objects"), k, o) {
			if (!json_is_string(json_object_get(o, "classification")))
				continue;
			if (!rows++)
				md_table(md, hdr, 7);
			audit_row(md, ds, inst, o);
		}
	}
	json_decref(audit);
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
