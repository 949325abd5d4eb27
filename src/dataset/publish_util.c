/* publish_util.c — see publish_util.h. */
#include "dataset/publish_util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/json.h"
#include "model/dataset.h"
#include "model/size_audit.h"
#include "report/report.h"

int pages_render_dataset(const char *dataset_dir, struct rendered_pages *out, char **err)
{
	struct report_out r;
	out->v = NULL;
	out->n = 0;
	if (report_render_published(dataset_dir, &r, err)) {
		report_out_free(&r);
		return -1;
	}
	out->v = xcalloc(r.n ? r.n : 1, sizeof *out->v);
	for (size_t i = 0; i < r.n; i++)
		out->v[i] = (struct rendered_page){ r.f[i].path, r.f[i].data, r.f[i].len };
	out->n = r.n;
	free(r.f);   /* the strings now belong to out */
	return 0;
}

void pages_free(struct rendered_pages *p)
{
	for (size_t i = 0; i < p->n; i++) {
		free(p->v[i].path);
		free(p->v[i].data);
	}
	free(p->v);
	p->v = NULL;
	p->n = 0;
}

/* ---- size audits of a published dataset ---- */

/* ---- validation ------------------------------------------------------------- */

static const json_t *find_instance(const json_t *insts, const char *cand, const char *label)
{
	size_t i;
	json_t *e;
	json_array_foreach(insts, i, e)
		if (!strcmp(jget_str(e, "candidate", ""), cand) &&
		    !strcmp(jget_str(e, "label", ""), label))
			return e;
	return NULL;
}

/* Where the stored audit first departs from the recomputed one. */
static char *first_departure(const json_t *stored, const json_t *want)
{
	const json_t *si = json_object_get(stored, "instances");
	const json_t *wi = json_object_get(want, "instances");
	size_t i;
	json_t *w;
	json_array_foreach(wi, i, w) {
		const char *cand = jget_str(w, "candidate", ""), *label = jget_str(w, "label", "");
		const json_t *s = find_instance(si, cand, label);
		if (!s)
			return xasprintf("%s %s is missing", cand, label);
		size_t k;
		json_t *o;
		json_array_foreach(json_object_get(w, "objects"), k, o) {
			const json_t *so = json_array_get(json_object_get(s, "objects"), k);
			if (!json_equal(o, (json_t *)so))
				return xasprintf("%s %s %s differs", cand, label,
						 jget_str(o, "object", "?"));
		}
	}
	if (json_array_size(si) != json_array_size(wi))
		return xasprintf("it lists %zu instance(s), the dataset gives %zu",
				 json_array_size(si), json_array_size(wi));
	return xstrdup("a top-level field differs");
}

static size_t problem(FILE *out, const char *sys, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static size_t problem(FILE *out, const char *sys, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(out, "PROBLEM data/%s/%s: ", sys, SIZE_AUDIT_FILE);
	vfprintf(out, fmt, ap);
	fputc('\n', out);
	va_end(ap);
	return 1;
}

/* Compare the stored audit of a loaded system with the recomputed one. */
static size_t compare_stored(const struct dataset *ds, const char *path, const char *sys,
			     FILE *out)
{
	if (!path_exists(path))
		return problem(out, sys, "missing; 'ngcc-perf publish' writes it");
	char *err = NULL;
	json_t *stored = evidence_load(path, &err);
	if (!stored) {
		size_t n = problem(out, sys, "unreadable (%s)", err ? err : "?");
		free(err);
		return n;
	}
	json_t *want = size_audit_compute(ds);
	size_t n = 0;
	if (!json_equal(stored, want)) {
		char *where = first_departure(stored, want);
		n = problem(out, sys, "differs from the audit recomputed from the records and "
			    "catalog: %s", where);
		free(where);
	}
	json_decref(want);
	json_decref(stored);
	return n;
}

int size_audit_write_published(const char *dataset_dir, const char *sys, char **err)
{
	struct dataset ds;
	char *path = xasprintf("%s/data/%s/%s", dataset_dir, sys, SIZE_AUDIT_FILE);
	int rc = dataset_load_published(&ds, dataset_dir, sys, err);
	if (!rc)
		rc = size_audit_write(&ds, path, err);
	dataset_free(&ds);
	free(path);
	return rc;
}

/* One loaded system: its catalog, then the stored audit against the
 * recomputed one. */
static size_t check_loaded(const char *dataset_dir, const struct dataset *ds, const char *sys,
			   FILE *out)
{
	char *err = NULL, *path = xasprintf("%s/data/%s/%s", dataset_dir, sys, SIZE_AUDIT_FILE);
	size_t n;
	if (size_audit_catalog_check(ds, &err))
		n = problem(out, sys, "cannot be recomputed: %s", err);
	else
		n = compare_stored(ds, path, sys, out);
	free(err);
	free(path);
	return n;
}

static size_t check_system(const char *dataset_dir, const char *sys, FILE *out)
{
	struct dataset ds;
	char *err = NULL;
	size_t n;
	if (dataset_load_published(&ds, dataset_dir, sys, &err))
		n = problem(out, sys, "cannot be recomputed: %s", err ? err : "the dataset does not load");
	else
		n = check_loaded(dataset_dir, &ds, sys, out);
	dataset_free(&ds);
	free(err);
	return n;
}

size_t size_audit_check_loaded(const char *dataset_dir, const struct strlist *ids,
			       const struct dataset *ds, FILE *out)
{
	struct strlist systems = STRLIST_INIT;
	size_t n = 0;
	dataset_systems(dataset_dir, &systems);
	for (size_t i = 0; i < systems.n; i++) {
		const struct dataset *loaded = NULL;
		for (size_t k = 0; ids && ds && k < ids->n && !loaded; k++)
			if (!strcmp(ids->items[k], systems.items[i]))
				loaded = &ds[k];
		n += loaded ? check_loaded(dataset_dir, loaded, systems.items[i], out)
			    : check_system(dataset_dir, systems.items[i], out);
	}
	sl_free(&systems);
	return n;
}

size_t size_audit_check(const char *dataset_dir, FILE *out)
{
	return size_audit_check_loaded(dataset_dir, NULL, NULL, out);
}
