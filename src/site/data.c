/*
 * data.c — the downloads below data/<SYS>/ (docs/report-format.md §11): the
 * evidence tree copied unchanged, summary.csv, profiles.csv, sizes.csv,
 * dataset.json, one JSON Schema per evidence kind, and SHA256SUMS over
 * every file of the directory.
 */
#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "charts/csv.h"
#include "evidence/json.h"
#include "site/data.h"
#include "util/untrusted.h"

#include <errno.h>

/* ---- schemas ---------------------------------------------------------------- */

struct schema_def {
	const char *kind;
	const char *required;   /* space-separated top-level keys (docs/method.md §11) */
};

static const struct schema_def schemas[] = {
	{ "campaign", "schema tool system_id run_id started_utc ended_utc "
		"environment_at_start host_problems planning options phases" },
	{ "build", "schema instances" },
	{ "record", "schema status candidate label instance variant operation op_key "
		"plan counter processes trials" },
	{ "profile", "schema status candidate label operation op_key meta total calls" },
	{ "check", "schema status verdict candidate label check library library_sha256 "
		"timed_library_sha256 plan tests findings suppressed operations findings_count" },
	{ "dataset", "schema system_id campaign build records profiles" },
};

static char *schema_doc(const struct schema_def *s)
{
	json_t *j = json_object();
	char *id = xasprintf("ngcc-perf/%s/1", s->kind);
	json_object_set_new(j, "$schema", json_string("https://json-schema.org/draft/2020-12/schema"));
	json_object_set_new(j, "$id", json_string(id));
	json_object_set_new(j, "title", json_string(s->kind));
	json_object_set_new(j, "type", json_string("object"));
	json_t *req = json_array(), *props = json_object();
	char *keys = xstrdup(s->required), *save = NULL;
	for (char *k = strtok_r(keys, " ", &save); k; k = strtok_r(NULL, " ", &save)) {
		json_array_append_new(req, json_string(k));
		json_object_set_new(props, k, json_object());
	}
	json_object_set_new(json_object_get(props, "schema"), "const", json_string(id));
	json_object_set_new(j, "required", req);
	json_object_set_new(j, "properties", props);
	char *text = evidence_dumps(j);
	json_decref(j);
	free(keys);
	free(id);
	return text;
}

/* ---- dataset.json ------------------------------------------------------------- */

static char *dataset_json(const struct dataset *ds)
{
	json_t *j = json_object(), *build = json_object(), *recs = json_array(),
		*profs = json_array();
	json_object_set_new(j, "schema", json_string("ngcc-perf/dataset/1"));
	json_object_set_new(j, "system_id", json_string(ds->system_id));
	json_object_set(j, "campaign", ds->campaign);
	for (size_t i = 0; i < ds->n_cand; i++) {
		const struct ds_candidate *c = &ds->cand[i];
		for (size_t k = 0; k < c->n_inst; k++) {
			const struct ds_instance *in = &c->inst[k];
			if (in->build) {
				char *key = xasprintf("%s/%s", c->id, in->stem);
				json_object_set(build, key, in->build);
				free(key);
			}
			for (size_t r = 0; r < in->n_rec; r++)
				json_array_append(recs, in->rec[r].j);
			for (size_t p = 0; p < in->n_prof; p++)
				json_array_append(profs, in->prof[p].j);
		}
	}
	json_t *b = json_object();
	json_object_set_new(b, "schema", json_string("ngcc-perf/build/1"));
	json_object_set_new(b, "instances", build);
	json_object_set_new(j, "build", b);
	json_object_set_new(j, "records", recs);
	json_object_set_new(j, "profiles", profs);
	char *text = evidence_dumps(j);
	json_decref(j);
	return text;
}

void site_data_downloads(const struct dataset *ds, const char *prefix, struct site_files *out)
{
	struct {
		const char *name;
		char *(*fn)(const struct dataset *, size_t *);
	} const tables[] = {
		{ "summary.csv", csv_summary }, { "profiles.csv", csv_profiles },
		{ "sizes.csv", csv_sizes },
	};
	for (size_t i = 0; i < sizeof tables / sizeof *tables; i++) {
		size_t len;
		char *data = tables[i].fn(ds, &len);
		char *p = xasprintf("%s%s", prefix, tables[i].name);
		site_files_add(out, p, data, len);
		free(p);
	}
	char *p = xasprintf("%sdataset.json", prefix);
	char *dj = dataset_json(ds);
	site_files_add(out, p, dj, strlen(dj));
	free(p);
	for (size_t i = 0; i < sizeof schemas / sizeof *schemas; i++) {
		char *sp = xasprintf("%sschema/%s.schema.json", prefix, schemas[i].kind);
		char *doc = schema_doc(&schemas[i]);
		site_files_add(out, sp, doc, strlen(doc));
		free(sp);
	}
}

char *site_sha256sums(const struct site_files *f, const char *prefix, size_t *len)
{
	struct strlist lines = STRLIST_INIT;
	size_t pl = strlen(prefix);
	for (size_t i = 0; i < f->n; i++) {
		const char *rel = f->v[i].path + pl;
		if (strncmp(f->v[i].path, prefix, pl) || !strcmp(rel, "SHA256SUMS"))
			continue;
		char hex[65];
		sha256_hex(f->v[i].data, f->v[i].len, hex);
		/* path first so that sorting the lines sorts by path */
		sl_push_owned(&lines, xasprintf("%s\t%s", rel, hex));
	}
	sl_sort(&lines);
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < lines.n; i++) {
		char *tab = strrchr(lines.items[i], '\t');
		*tab = '\0';
		sb_addf(&sb, "%s  %s\n", tab + 1, lines.items[i]);
	}
	sl_free(&lines);
	if (len)
		*len = sb.len;
	return sb_detach(&sb);
}

/* ---- evidence copy --------------------------------------------------------------- */

/* Files we generate; a copy found in the evidence is replaced, not kept. */
static int generated_name(const char *rel)
{
	static const char *const names[] = {
		"summary.csv", "profiles.csv", "sizes.csv", "dataset.json", "SHA256SUMS", NULL,
	};
	for (int i = 0; names[i]; i++)
		if (!strcmp(rel, names[i]))
			return 1;
	return str_starts_with(rel, "schema/");
}

/* fs_path (below base, never through a link) copied to site_path. */
static int add_file(struct site_files *out, const char *base, const char *fs_path,
		    const char *site_path, char **err)
{
	char *data;
	size_t len;
	if (read_file_below(base, fs_path, &data, &len)) {
		*err = xasprintf("%s: cannot read evidence file: %s", fs_path, io_strerror(errno));
		return -1;
	}
	site_files_add(out, site_path, data, len);
	return 0;
}

/* Byte order, whatever the locale (alphasort follows LC_COLLATE). */
static int name_cmp(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

/* Every regular file below fs_dir/rel, in byte order of names.  A link or
 * special file stops the copy: the site republishes only what the dataset
 * itself holds (docs/security.md). */
static int add_tree(struct site_files *out, const char *fs_dir, const char *rel,
		    const char *prefix, char **err)
{
	char *dir = *rel ? path_join(fs_dir, rel) : xstrdup(fs_dir);
	struct dirent **names = NULL;
	int n = scandir(dir, &names, NULL, name_cmp), rc = 0;
	for (int i = 0; i < n; i++) {
		const char *nm = names[i]->d_name;
		if (!rc && nm[0] != '.') {
			char *sub = *rel ? xasprintf("%s/%s", rel, nm) : xstrdup(nm);
			char *fs = path_join(fs_dir, sub);
			int kind = root_kind(fs_dir, sub);
			if (kind == 'd') {
				rc = add_tree(out, fs_dir, sub, prefix, err);
			} else if (kind != 'f') {
				char *shown = str_printable(fs, 0);
				*err = xasprintf("%s is a symbolic link or special file; a dataset "
						 "holds only regular files and folders, and links are "
						 "never followed: remove it", shown);
				free(shown);
				rc = -1;
			} else if (!generated_name(sub) && !strstr(nm, ".tmp.")) {
				char *sp = xasprintf("%s%s", prefix, sub);
				rc = add_file(out, fs_dir, fs, sp, err);
				free(sp);
			}
			free(fs);
			free(sub);
		}
		free(names[i]);
	}
	free(names);
	free(dir);
	return rc;
}

/* A run directory is not yet a published tree: take the evidence kinds
 * `publish` keeps, the KAT logs and check records from the workspace and
 * the candidates' build.json entries merged into one file. */
static int copy_run(const struct site_system *s, const char *prefix, struct site_files *out,
		    char **err)
{
	static const char *const top[] = { "campaign.json", "size_audit.json", NULL };
	static const char *const dirs[] = { "records", "profile", "memory", "samples", "pool", NULL };
	int rc = 0;
	for (int i = 0; top[i] && !rc; i++) {
		char *fs = path_join(s->evidence_dir, top[i]);
		char *sp = xasprintf("%s%s", prefix, top[i]);
		if (path_is_file(fs))
			rc = add_file(out, s->evidence_dir, fs, sp, err);
		free(fs);
		free(sp);
	}
	for (int i = 0; dirs[i] && !rc; i++) {
		char *fs = path_join(s->evidence_dir, dirs[i]);
		if (path_is_dir(fs))
			rc = add_tree(out, s->evidence_dir, dirs[i], prefix, err);
		free(fs);
	}
	const struct dataset *ds = s->ds;
	json_t *merged = json_object();
	for (size_t c = 0; c < ds->n_cand && !rc; c++) {
		for (size_t k = 0; k < ds->cand[c].n_inst && !rc; k++) {
			const struct ds_instance *in = &ds->cand[c].inst[k];
			if (in->build) {
				char *key = xasprintf("%s/%s", ds->cand[c].id, in->stem);
				json_object_set(merged, key, in->build);
				free(key);
			}
			for (int k = 0; k < CHECK_N && !rc; k++) {
				if (!in->check_rel[k])
					continue;
				char *wrel = check_record_path(ds->cand[c].id, in->stem, check_names[k]);
				char *fs = path_join(s->workspace, wrel);
				char *sp = xasprintf("%s%s", prefix, in->check_rel[k]);
				rc = add_file(out, s->workspace, fs, sp, err);
				free(sp);
				free(fs);
				free(wrel);
			}
			if (!in->kat_log_rel || rc)
				continue;
			char *fs = xasprintf("%s/build/%s/kat/%s.log", s->workspace, ds->cand[c].id,
					     in->stem);
			char *sp = xasprintf("%s%s", prefix, in->kat_log_rel);
			if (path_is_file(fs))
				rc = add_file(out, s->workspace, fs, sp, err);
			free(fs);
			free(sp);
		}
	}
	json_t *b = json_object();
	json_object_set_new(b, "schema", json_string("ngcc-perf/build/1"));
	json_object_set_new(b, "instances", merged);
	char *text = evidence_dumps(b);
	json_decref(b);
	char *sp = xasprintf("%sbuild.json", prefix);
	site_files_add(out, sp, text, strlen(text));
	free(sp);
	return rc;
}

int site_copy_evidence(const struct site_system *s, const char *prefix,
		       struct site_files *out, char **err)
{
	if (s->workspace)
		return copy_run(s, prefix, out, err);
	return add_tree(out, s->evidence_dir, "", prefix, err);
}
