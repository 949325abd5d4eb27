/*
 * gate_variants.c — every implementation variant against its reference
 * (issue #29, docs/method.md §2.2): both are tested against the same
 * vectors, and the texts they generated from those vectors must be the
 * same.  A variant whose text (or status) differs is reported naming both,
 * and build.json records the verdict (reference_label, kat_vs_reference).
 */
#include "kat/gate_int.h"

#include "build/build.h"
#include "build/select.h"
#include "evidence/build_json.h"
#include "evidence/json.h"
#include "method/cpuext.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The reference instance of variant ic: the same label without "+<tag>"
 * and the same type, else the only reference with its ALGORITHM_INSTANCE. */
static const struct instance_conf *reference_of(const struct candidate_conf *conf,
						const struct instance_conf *ic)
{
	const char *tag = variant_tag(ic->variant);
	char *suffix = xasprintf("+%s", tag);
	size_t n = strlen(ic->label);
	char *base = str_ends_with(ic->label, suffix) ? xstrndup(ic->label, n - strlen(suffix))
						     : xstrdup(ic->label);
	free(suffix);
	const struct instance_conf *ref = NULL, *same_instance = NULL;
	size_t n_same = 0;
	for (size_t i = 0; i < conf->n_inst && !ref; i++) {
		const struct instance_conf *r = &conf->inst[i];
		if (strcmp(r->variant, "reference") || strcmp(r->type, ic->type))
			continue;
		if (!strcmp(r->label, base))
			ref = r;
		else if (r->instance && ic->instance && !strcmp(r->instance, ic->instance)) {
			same_instance = r;
			n_same++;
		}
	}
	free(base);
	/* a variant labelled apart (Foo-2+additional): the one reference of
	 * its ALGORITHM_INSTANCE */
	return ref ? ref : n_same == 1 ? same_instance : NULL;
}

static char *kat_text(const char *ws, const char *id, const char *stem, size_t *len)
{
	char *path = path_joinf(ws, "build/%s/kat/%s.txt", id, stem), *text = NULL;
	if (read_file(path, &text, len) != 0)
		text = NULL;
	free(path);
	return text;
}

/* "same", "differs" or "not compared"; *detail (malloc'd) says why. */
static const char *verdict(const char *ws, const char *id, const char *vstem, const char *rstem,
			   const char *vkat, const char *rkat, char **detail)
{
	size_t vn = 0, rn = 0;
	char *vt = kat_text(ws, id, vstem, &vn), *rt = kat_text(ws, id, rstem, &rn);
	const char *v;
	if (vt && rt && (vn != rn || memcmp(vt, rt, vn))) {
		v = "differs";
		*detail = xasprintf("its KAT output (build/%s/kat/%s.txt) differs from its reference "
				    "%s's (build/%s/kat/%s.txt) on the same vectors", id, vstem, rstem,
				    id, rstem);
	} else if (vt && rt && strcmp(vkat, rkat)) {
		v = "differs";
		*detail = xasprintf("same output as its reference %s, but KAT %s where the reference "
				    "has %s", rstem, vkat, rkat);
	} else if (vt && rt) {
		v = "same";
		*detail = xasprintf("KAT output identical to its reference %s's (%s)", rstem, vkat);
	} else if (!strcmp(rkat, "PASS") && strcmp(vkat, "PASS") && strcmp(vkat, "UNSUPPORTED_CPU")) {
		v = "differs";
		*detail = xasprintf("KAT %s where its reference %s PASSes on the same vectors", vkat,
				    rstem);
	} else {
		v = "not compared";
		*detail = xasprintf("not compared with its reference %s (KAT %s, reference %s)", rstem,
				    vkat, rkat);
	}
	free(vt);
	free(rt);
	return v;
}

void gate_compare_variants(const char *ws, const char *id, const struct candidate_conf *conf,
			   const struct selection *sel)
{
	int lock = build_json_lock(ws, id);
	char *err = NULL;
	json_t *doc = build_json_load(ws, id, &err);
	int changed = 0;
	for (size_t i = 0; doc && i < conf->n_inst; i++) {
		const struct instance_conf *ic = &conf->inst[i];
		if (!ic->enabled || !variant_is_alternative(ic->variant) || !strcmp(ic->type, "hash") ||
		    !selection_has_instance(sel, id, ic->label))
			continue;
		const struct instance_conf *ref = reference_of(conf, ic);
		char *vstem = build_stem(ic), *vkey = build_json_key(id, vstem);
		json_t *ve = build_json_entry(doc, vkey);
		if (ref && ve) {
			char *rstem = build_stem(ref), *rkey = build_json_key(id, rstem), *detail = NULL;
			json_t *re = build_json_entry(doc, rkey);
			const char *v = verdict(ws, id, vstem, rstem, jget_str(ve, "kat", "none"),
						re ? jget_str(re, "kat", "none") : "none", &detail);
			printf("VARIANT %s %s %s reference %s: %s\n", id, vstem,
			       !strcmp(v, "same") ? "SAME as" : !strcmp(v, "differs") ? "DIFFERS from" : "not compared with",
			       rstem, detail);
			if (!strcmp(v, "differs"))
				ngcc_warning("%s %s: %s", id, vstem, detail);
			json_object_set_new(ve, "reference_label", json_string(ref->label));
			json_object_set_new(ve, "kat_vs_reference", json_string(v));
			changed = 1;
			free(detail);
			free(rstem);
			free(rkey);
		} else if (ve) {
			json_object_set_new(ve, "reference_label", json_null());
			json_object_set_new(ve, "kat_vs_reference", json_string("no reference"));
			changed = 1;
		}
		free(vstem);
		free(vkey);
	}
	if (changed && build_json_save(ws, id, doc))
		ngcc_error("cannot write build/%s/build.json: %s", id, strerror(errno));
	if (!doc) {
		ngcc_error("%s", err);
		free(err);
	}
	json_decref(doc);
	build_json_unlock(lock);
}
