/* prior.c — see prior.h: costs known from earlier datasets and runs. */
#include "campaign/prior.h"
#include "util/fsutil.h"
#include "evidence/json.h"
#include "evidence/record.h"
#include "util/untrusted.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

/* Index of the instance, or -1. */
static long instance_index(const struct prior *p, const char *key)
{
	for (size_t i = 0; i < p->n_instances; i++)
		if (!strcmp(p->instances[i].key, key))
			return (long)i;
	return -1;
}

static const struct prior_unit *find_unit_key(const struct prior *p, const char *key)
{
	for (size_t i = 0; i < p->n_units; i++)
		if (!strcmp(p->units[i].key, key))
			return &p->units[i];
	return NULL;
}

static double processes_wall(const json_t *rec)
{
	double s = 0;
	size_t i;
	json_t *proc;
	json_array_foreach(json_object_get(rec, "processes"), i, proc)
		s += jget_real(proc, "wall_s", 0);
	return s;
}

static void add_record(struct prior *p, const json_t *rec, const char *path)
{
	const char *cand = jget_str(rec, "candidate", NULL);
	const char *label = jget_str(rec, "label", NULL);
	const char *op = jget_str(rec, "op_key", NULL);
	const json_t *plan = json_object_get(rec, "plan");
	if (!cand || !label || !op || strcmp(jget_str(rec, "status", ""), ST_COMPLETE))
		return;
	p->n_records++;
	char *ikey = xasprintf("%s/%s", cand, label);
	long at = instance_index(p, ikey);
	if (at < 0) {
		p->instances = xrealloc(p->instances, (p->n_instances + 1) * sizeof *p->instances);
		at = (long)p->n_instances++;
		p->instances[at].key = ikey;
		p->instances[at].wall_s = 0;
	} else {
		free(ikey);
	}
	p->instances[at].wall_s += processes_wall(rec);
	char *ukey = xasprintf("%s/%s/%s", cand, label, op);
	if (find_unit_key(p, ukey) || !json_is_number(json_object_get(plan, "t1_s"))) {
		free(ukey);
		return;
	}
	p->units = xrealloc(p->units, (p->n_units + 1) * sizeof *p->units);
	struct prior_unit *u = &p->units[p->n_units++];
	u->key = ukey;
	u->t1_s = jget_real(plan, "t1_s", 0);
	u->setup_s = jget_real(plan, "setup_s", 0);
	u->source = xstrdup(path);
}

/* Every records/<cand>/<file>.json below records_dir, read below root
 * (the prior given) without following a link: a prior comes from someone
 * else (docs/security.md).  A link or special file is named and refused. */
static int load_records_dir(struct prior *p, const char *root, const char *records_dir, char **err)
{
	struct strlist odd = STRLIST_INIT;
	tree_list_unusual(records_dir, "", &odd);
	if (odd.n) {
		char *path = path_join(records_dir, odd.items[0]), *shown = str_printable(path, 0);
		*err = xasprintf("prior %s: a symbolic link or special file (a prior is read without "
				 "following links: remove it or give another prior)", shown);
		free(shown);
		free(path);
		sl_free(&odd);
		return -1;
	}
	sl_free(&odd);
	struct strlist cands = STRLIST_INIT;
	int rc = 0;
	dir_list(records_dir, DIR_PICK_DIRS, &cands);
	for (size_t c = 0; c < cands.n && !rc; c++) {
		char *cdir = path_join(records_dir, cands.items[c]);
		struct strlist files = STRLIST_INIT;
		dir_list(cdir, DIR_PICK_FILES, &files);
		for (size_t f = 0; f < files.n && !rc; f++) {
			if (!str_ends_with(files.items[f], ".json"))
				continue;
			char *path = path_join(cdir, files.items[f]), *why = NULL;
			json_t *rec = evidence_load_below(root, path, &why);
			if (!rec || evidence_check_schema(rec, RECORD_KIND, RECORD_VERSION)) {
				*err = xasprintf("prior %s: %s", path,
						 why ? why : "not an ngcc-perf timing record");
				rc = -1;
			} else {
				add_record(p, rec, path);
			}
			json_decref(rec);
			free(why);
			free(path);
		}
		sl_free(&files);
		free(cdir);
	}
	sl_free(&cands);
	return rc;
}

/* A run directory has records/; a published dataset data/<SYS>/records/. */
static int load_path(struct prior *p, const char *path, char **err)
{
	char *rec = path_join(path, "records");
	int rc = 0, found = 0;
	if (path_is_dir(rec)) {
		found = 1;
		rc = load_records_dir(p, path, rec, err);
	}
	free(rec);
	char *data = path_join(path, "data");
	struct strlist systems = STRLIST_INIT;
	dir_list(data, DIR_PICK_DIRS, &systems);
	for (size_t i = 0; i < systems.n && !rc; i++) {
		char *sys = path_join(data, systems.items[i]);
		char *r = path_join(sys, "records");
		if (path_is_dir(r)) {
			found = 1;
			rc = load_records_dir(p, path, r, err);
		}
		free(r);
		free(sys);
	}
	sl_free(&systems);
	free(data);
	if (!rc && !found) {
		*err = xasprintf("prior %s holds no timing records (neither records/ nor "
				 "data/<SYS>/records/); give a published dataset or a run directory", path);
		rc = -1;
	}
	return rc;
}

int prior_load(const char *const *paths, size_t n_paths, struct prior *out, char **err)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < n_paths; i++)
		if (load_path(out, paths[i], err)) {
			prior_free(out);
			return -1;
		}
	return 0;
}

void prior_free(struct prior *p)
{
	for (size_t i = 0; i < p->n_units; i++) {
		free(p->units[i].key);
		free(p->units[i].source);
	}
	for (size_t i = 0; i < p->n_instances; i++)
		free(p->instances[i].key);
	free(p->units);
	free(p->instances);
	memset(p, 0, sizeof *p);
}

const struct prior_unit *prior_find_unit(const struct prior *p, const char *cand,
					 const char *label, const char *op)
{
	char *key = xasprintf("%s/%s/%s", cand, label, op);
	const struct prior_unit *u = find_unit_key(p, key);
	free(key);
	return u;
}

double prior_instance_wall(const struct prior *p, const char *cand, const char *label)
{
	char *key = xasprintf("%s/%s", cand, label);
	long at = instance_index(p, key);
	free(key);
	return at < 0 ? -1 : p->instances[at].wall_s;
}
