/* dataset.c — see dataset.h. */
#include "model/dataset.h"

#include <dirent.h>
#include <regex.h>
#include <strings.h>
#include <stdlib.h>
#include <string.h>

#include "evidence/accept.h"
#include "evidence/build_json.h"
#include "evidence/campaign_json.h"
#include "evidence/json.h"
#include "evidence/memory_json.h"
#include "method/arch.h"
#include "evidence/names.h"
#include "evidence/profile_json.h"
#include "evidence/record.h"
#include "kat/katlog.h"
#include "method/natsort.h"
#include "method/types.h"
#include "package/conf.h"
#include "util/fsutil.h"
#include "util/untrusted.h"
#include "util/util.h"

/*
 * Every file is read below the folder it belongs to (the run directory or
 * data/<SYS>/, the workspace or the dataset's top) without following a
 * link out of it, and every document is checked against its format's
 * table before anything uses it (docs/security.md).
 */

/* j as loaded from path below base, unless bad: then NULL, and *err (always
 * set to why, taken) names the path. */
static json_t *loaded(json_t *j, int bad, const char *path, char *why, char **err)
{
	if (j && bad) {
		*err = xasprintf("%s: %s", path, why);
		free(why);
		json_decref(j);
		return NULL;
	}
	*err = why;
	return j;
}

/* An evidence document of the run or dataset: loaded below base and
 * accepted by the rule validate applies (evidence/accept.h; rel is its
 * path below the run or data/<SYS>/, instances build.json's).  NULL with
 * *err naming the path. */
static json_t *load_accepted(const char *base, const char *path, const char *rel,
			     const json_t *instances, char **err)
{
	char *why = NULL;
	json_t *j = evidence_load_below(base, path, &why);
	int bad = j && evidence_accept(rel, j, instances, &why);
	return loaded(j, bad, path, why, err);
}

/* A document of one format: loaded below base, its schema and fields
 * checked by check().  NULL with *err naming the path. */
static json_t *load_checked(const char *base, const char *path,
			    int (*check)(const json_t *, char **), char **err)
{
	char *why = NULL;
	json_t *j = evidence_load_below(base, path, &why);
	int bad = j && check(j, &why);
	return loaded(j, bad, path, why, err);
}

/* Where the pieces of a dataset live; the two sources differ only here. */
struct ds_source {
	const char *root;        /* evidence: run dir or data/<SYS>/ */
	const char *catalogs;    /* workspace or dataset top */
	const char *workspace;   /* run mode: build/ and candidates/; else NULL */
	json_t *merged_build;    /* published mode: data/<SYS>/build.json */
	const char *base;        /* what root's files are read below: the run
	                            dir, or the dataset top (data/<SYS> may be
	                            a link planted in the dataset) */
};

/* ---- catalogs ------------------------------------------------------------- */

static char **split_fields(char *line, size_t *n)
{
	char **f = NULL;
	size_t cap = 0;
	*n = 0;
	for (char *p = line;;) {
		char *semi = strchr(p, ';');
		if (semi)
			*semi = '\0';
		if (*n + 2 > cap) {
			cap = cap ? 2 * cap : 8;
			f = xrealloc(f, cap * sizeof *f);
		}
		f[(*n)++] = xstrdup(str_trim(p));
		if (!semi)
			break;
		p = semi + 1;
	}
	f[*n] = NULL;
	return f;
}

static void csv_load(const char *dir, const char *name, struct csv_table *t)
{
	char *path = path_join(dir, name), *data = NULL;
	memset(t, 0, sizeof *t);
	if (read_file_below(dir, path, &data, NULL)) {
		free(path);
		return;
	}
	t->present = 1;
	char *save = NULL;
	for (char *line = strtok_r(data, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		line[strcspn(line, "\r")] = '\0';
		char *s = str_trim(line);
		if (!*s || *s == '#')
			continue;
		size_t nf;
		char **f = split_fields(s, &nf);
		if (!t->n && !strcasecmp(f[0], "ID") && nf > 1) {
			for (size_t i = 0; i < nf; i++)
				free(f[i]);
			free(f);
			continue;
		}
		t->rows = xrealloc(t->rows, (t->n + 1) * sizeof *t->rows);
		t->ncols = xrealloc(t->ncols, (t->n + 1) * sizeof *t->ncols);
		t->rows[t->n] = f;
		t->ncols[t->n++] = nf;
	}
	free(data);
	free(path);
}

static void csv_free(struct csv_table *t)
{
	for (size_t i = 0; i < t->n; i++) {
		for (char **f = t->rows[i]; *f; f++)
			free(*f);
		free(t->rows[i]);
	}
	free(t->rows);
	free(t->ncols);
	memset(t, 0, sizeof *t);
}

char **csv_find(const struct csv_table *t, const char *id, const char *label)
{
	for (size_t i = 0; i < t->n; i++) {
		char **r = t->rows[i];
		if (strcmp(r[0], id))
			continue;
		if (!label || (r[1] && !strcmp(r[1], label)))
			return r;
	}
	return NULL;
}

/* ---- instances ---------------------------------------------------------- */

static struct ds_instance *find_or_add_instance(struct ds_candidate *c, const char *stem)
{
	for (size_t i = 0; i < c->n_inst; i++)
		if (!strcmp(c->inst[i].stem, stem))
			return &c->inst[i];
	c->inst = xrealloc(c->inst, (c->n_inst + 1) * sizeof *c->inst);
	struct ds_instance *in = &c->inst[c->n_inst++];
	memset(in, 0, sizeof *in);
	in->stem = xstrdup(stem);
	in->variant = ds_variant_of_stem(stem, &in->label);
	in->optimized = in->variant != DS_REFERENCE;
	return in;
}

static int instance_cmp(const void *a, const void *b)
{
	const struct ds_instance *x = a, *y = b;
	int c = natural_cmp(x->label, y->label);
	return c ? c : ds_variant_rank(x->variant) - ds_variant_rank(y->variant);
}

static int op_entry_cmp(const void *a, const void *b)
{
	/* ds_record and ds_profile both start with `char *op`. */
	return op_cmp(*(char *const *)a, *(char *const *)b);
}

static int load_json_dir(const struct ds_source *src, const char *kind,
			 struct ds_candidate *c, const json_t *instances, char **err)
{
	char *dir = xasprintf("%s/%s/%s", src->root, kind, c->id);
	struct strlist names = STRLIST_INIT;
	int rc = 0;
	dir_list(dir, DIR_PICK_FILES, &names);
	for (size_t i = 0; i < names.n && !rc; i++) {
		char *stem, *op;
		if (split_stem_op(names.items[i], &stem, &op))
			continue;   /* survey.json, <label>__RELINK_FAILED handled below */
		char *path = path_join(dir, names.items[i]);
		char *why = NULL;
		char *frel = xasprintf("%s/%s/%s", kind, c->id, names.items[i]);
		json_t *j = load_accepted(src->base, path, frel, instances, &why);
		free(frel);
		if (!j) {
			*err = xasprintf("corrupt evidence file %s; re-run the phase that "
					 "wrote it or remove it", why ? why : path);
			rc = -1;
		} else if (!strcmp(kind, "profile") &&
			   evidence_check_schema(j, PROFILE_KIND, PROFILE_VERSION)) {
			json_decref(j); /* a relink-failure note, not a profile */
		} else {
			struct ds_instance *in = find_or_add_instance(c, stem);
			char *rel = xasprintf("%s/%s/%s", kind, c->id, names.items[i]);
			if (!strcmp(kind, "records")) {
				in->rec = xrealloc(in->rec, (in->n_rec + 1) * sizeof *in->rec);
				in->rec[in->n_rec++] = (struct ds_record){ op, rel, j };
			} else {
				in->prof = xrealloc(in->prof, (in->n_prof + 1) * sizeof *in->prof);
				in->prof[in->n_prof++] = (struct ds_profile){ op, rel, j };
			}
			op = NULL;
		}
		free(why);
		free(path);
		free(stem);
		free(op);
	}
	sl_free(&names);
	free(dir);
	return rc;
}

/* Extension records of one kind (memory, samples, pool): listed for A.9;
 * each is accepted like every other evidence file, and a memory record is
 * kept for its figures.  -1 with *err for one validate would reject. */
static int load_extra_dir(const struct ds_source *src, const char *kind,
			  struct ds_candidate *c, const json_t *instances, char **err)
{
	char *dir = xasprintf("%s/%s/%s", src->root, kind, c->id);
	struct strlist names = STRLIST_INIT;
	int rc = 0;
	dir_list(dir, DIR_PICK_FILES, &names);
	for (size_t i = 0; i < names.n && !rc; i++) {
		char *stem, *op, *why = NULL;
		if (split_stem_op(names.items[i], &stem, &op))
			continue;
		char *path = path_join(dir, names.items[i]);
		char *frel = xasprintf("%s/%s/%s", kind, c->id, names.items[i]);
		json_t *j = load_accepted(src->base, path, frel, instances, &why);
		free(frel);
		free(path);
		if (!j) {
			*err = xasprintf("corrupt evidence file %s; re-run the phase that "
					 "wrote it or remove it", why);
			free(why);
			free(stem);
			free(op);
			rc = -1;
			break;
		}
		if (strcmp(kind, "memory") && strcmp(kind, "pool") && strcmp(kind, "samples")) {
			json_decref(j);
			j = NULL;
		}
		struct ds_instance *in = find_or_add_instance(c, stem);
		in->extra_item = xrealloc(in->extra_item, (in->n_extra + 1) * sizeof(char *));
		in->extra_path = xrealloc(in->extra_path, (in->n_extra + 1) * sizeof(char *));
		in->extra_json = xrealloc(in->extra_json, (in->n_extra + 1) * sizeof(json_t *));
		in->extra_item[in->n_extra] = xasprintf("%s %s", kind, op);
		in->extra_path[in->n_extra] = xasprintf("%s/%s/%s", kind, c->id, names.items[i]);
		in->extra_json[in->n_extra++] = j;
		free(stem);
		free(op);
	}
	sl_free(&names);
	free(dir);
	return rc;
}

/* ---- check records ------------------------------------------------------ */

/* The instance's check records: from the workspace's build/<cand>/check/
 * in a run, from check/<cand>/ in a published dataset. */
static int load_checks(const struct ds_source *src, const struct ds_candidate *c,
		       struct ds_instance *in, const json_t *instances, char **err)
{
	for (int k = 0; k < CHECK_N; k++) {
		char *rel = check_record_published(c->id, in->stem, check_names[k]);
		char *path;
		if (src->workspace) {
			char *wrel = check_record_path(c->id, in->stem, check_names[k]);
			path = path_join(src->workspace, wrel);
			free(wrel);
		} else {
			path = path_join(src->root, rel);
		}
		/* below the folder it comes from, never through a link */
		const char *base = src->workspace ? src->workspace : src->base;
		char *why = NULL;
		json_t *j = path_exists(path) ? load_accepted(base, path, rel, instances, &why)
					      : NULL;
		if (!j && why) {
			*err = xasprintf("%s; run `ngcc-perf check %s --redo` (or remove it)", why,
					 c->id);
			free(why);
			free(rel);
			free(path);
			return -1;
		}
		in->check[k] = j;
		in->check_rel[k] = j ? rel : NULL;
		if (!j)
			free(rel);
		free(path);
	}
	return 0;
}

/* ---- KAT ---------------------------------------------------------------- */

/* The KAT log and the folder it must lie in. */
static char *kat_log_path(const struct ds_source *src, const struct ds_candidate *c,
			  const struct ds_instance *in, const char **base)
{
	*base = src->workspace ? src->workspace : src->base;
	if (!src->workspace)
		return xasprintf("%s/kat/%s/%s.log", src->root, c->id, in->stem);
	const char *rel = jget_str(in->build, "kat_log", NULL);
	if (rel)
		return path_join(src->workspace, rel); /* read below the workspace only */
	return xasprintf("%s/build/%s/kat/%s.log", src->workspace, c->id, in->stem);
}

static void load_kat(const struct ds_source *src, const struct ds_candidate *c,
		     struct ds_instance *in)
{
	const char *base;
	char *path = kat_log_path(src, c, in, &base), *log = NULL;
	size_t len = 0;
	char *status = NULL, *detail = NULL;
	if (!read_file_below(base, path, &log, &len)) {
		sha256_hex(log, len, in->kat_sha256);
		in->kat_log_rel = xasprintf("kat/%s/%s.log", c->id, in->stem);
		katlog_last_result(log, &status, &detail);
		in->kat_ref = (int)katlog_reference(log);
		if (!status)
			status = xstrdup("NORESULT");
	}
	const char *built = jget_str(in->build, "kat", NULL);
	if (built) {
		free(status);
		status = xstrdup(built);
	} else if (!status) {
		status = xstrdup(in->build && jget_str(in->build, "build_error", NULL) ?
				 "BUILDFAIL" : "NOLOG");
	}
	in->kat_status = status;
	in->kat_detail = detail;
	free(log);
	free(path);
}

/* ---- build.json ---------------------------------------------------------- */

/* The candidate's build.json (run mode) or the merged one (published);
 * NULL without error when there is none.  -1 with *err when corrupt. */
static int load_build_doc(const struct ds_source *src, const char *cand, json_t **doc,
			  char **err)
{
	*doc = NULL;
	if (!src->workspace) {
		*doc = json_incref(src->merged_build);
		return 0;
	}
	char *path = xasprintf("%s/build/%s/build.json", src->workspace, cand);
	char *why = NULL;
	int rc = 0;
	if (path_exists(path)) {
		*doc = load_checked(src->workspace, path, build_json_check, &why);
		if (!*doc) {
			*err = xasprintf("%s; remove it and run 'ngcc-perf build %s' and "
					 "'ngcc-perf kat %s' again", why, cand, cand);
			rc = -1;
		}
	}
	free(why);
	free(path);
	return rc;
}

/* Every build.json entry of the candidate becomes an instance, so
 * instances that were built but never timed still get a KAT row. */
static void attach_build(struct ds_candidate *c, const json_t *doc)
{
	json_t *insts = json_object_get(doc, "instances");
	const char *key;
	json_t *e;
	size_t idlen = strlen(c->id);
	json_object_foreach(insts, key, e) {
		if (strncmp(key, c->id, idlen) || key[idlen] != '/')
			continue;
		struct ds_instance *in = find_or_add_instance(c, key + idlen + 1);
		in->build = json_incref(e);
	}
}

/* ---- candidate identity -------------------------------------------------- */

/* The type of the first record whose operation says it (keygen does not);
 * a key no type lists is taken for a KEX step. */
static const char *type_from_ops(const struct ds_candidate *c)
{
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++) {
			int shared;
			const struct cand_type *t = cand_type_of_op(c->inst[i].rec[k].op, &shared);
			if (!shared)
				return t ? t->name : "kex";
		}
	return "kem";
}

static void identify(const struct ds_source *src, const struct dataset *ds,
		     struct ds_candidate *c)
{
	const char *alg = ds_cand_conf(ds, c->id, "algorithm");
	const char *type = ds_cand_conf(ds, c->id, "type");
	struct candidate_conf cc;
	int have_conf = 0;
	if (src->workspace && (!alg || !type)) {
		char *path = xasprintf("%s/candidates/%s/candidate.conf", src->workspace, c->id);
		char *err = NULL;
		have_conf = path_exists(path) && !conf_read(path, &cc, &err);
		free(err);
		free(path);
	}
	for (size_t i = 0; i < c->n_inst && (!alg || !type); i++) {
		if (!alg)
			alg = jget_str(c->inst[i].build, "algorithm", NULL);
		if (!type)
			type = jget_str(c->inst[i].build, "type", NULL);
	}
	if (!alg && have_conf && cc.algorithm)
		alg = cc.algorithm;
	if (!type && have_conf && cc.type)
		type = cc.type;
	c->algorithm = xstrdup(alg ? alg : c->id);
	c->type = xstrdup(type ? type : type_from_ops(c));
	if (have_conf)
		conf_free(&cc);
}

/* Candidates by type, in the order of method/types.h, unknown types last. */
static int category_rank(const char *type)
{
	const struct cand_type *t = cand_type_find(type);
	return t ? (int)(t - cand_types) : (int)n_cand_types;
}

static int candidate_cmp(const void *a, const void *b)
{
	const struct ds_candidate *x = a, *y = b;
	int c = category_rank(x->type) - category_rank(y->type);
	return c ? c : natural_cmp(x->id, y->id);
}

int ds_regex_match(const char *pattern, const char *s)
{
	regex_t re;
	if (regcomp(&re, pattern, REG_EXTENDED | REG_NOSUB))
		return 0;
	int hit = !regexec(&re, s, 0, NULL, 0);
	regfree(&re);
	return hit;
}

char **ds_kat_issue(const struct dataset *ds, const char *id, const char *label)
{
	for (size_t i = 0; i < ds->kat_issues.n; i++) {
		char **r = ds->kat_issues.rows[i];
		if (ds->kat_issues.ncols[i] >= 2 && !strcmp(r[0], id) && ds_regex_match(r[1], label))
			return r;
	}
	return NULL;
}

/* kat_issues.csv rows with Action exclude are never timed (docs/method.md §2.2). */
static int kat_issue_excludes(const struct dataset *ds, const char *id, const char *label)
{
	for (size_t i = 0; i < ds->kat_issues.n; i++) {
		char **r = ds->kat_issues.rows[i];
		if (ds->kat_issues.ncols[i] >= 3 && !strcmp(r[0], id) && !strcmp(r[2], "exclude") &&
		    ds_regex_match(r[1], label))
			return 1;
	}
	return 0;
}

static int load_candidate(const struct ds_source *src, struct dataset *ds,
			  struct ds_candidate *c, char **err)
{
	/* build.json first: every document is accepted against it */
	json_t *build;
	if (load_build_doc(src, c->id, &build, err))
		return -1;
	const json_t *instances = json_object_get(build, "instances");
	static const char *const extra[] = { "memory", "samples", "pool" };
	int rc = load_json_dir(src, "records", c, instances, err) ||
		 load_json_dir(src, "profile", c, instances, err);
	for (int k = 0; k < 3 && !rc; k++)
		rc = load_extra_dir(src, extra[k], c, instances, err);
	if (rc) {
		json_decref(build);
		return -1;
	}
	attach_build(c, build);
	if (c->n_inst)
		qsort(c->inst, c->n_inst, sizeof *c->inst, instance_cmp);
	for (size_t i = 0; i < c->n_inst; i++) {
		struct ds_instance *in = &c->inst[i];
		if (in->n_rec)
			qsort(in->rec, in->n_rec, sizeof *in->rec, op_entry_cmp);
		if (in->n_prof)
			qsort(in->prof, in->n_prof, sizeof *in->prof, op_entry_cmp);
		load_kat(src, c, in);
		if (load_checks(src, c, in, instances, err)) {
			json_decref(build);
			return -1;
		}
		if (in->build && kat_issue_excludes(ds, c->id, in->label))
			json_object_set_new(in->build, "excluded", json_true());
	}
	char *sp = xasprintf("%s/profile/%s/survey.json", src->root, c->id);
	c->survey = path_exists(sp) ? evidence_load_below(src->base, sp, NULL) : NULL;
	if (c->survey && evidence_check_schema(c->survey, "survey", 1)) {
		json_decref(c->survey);   /* another version: as if not surveyed */
		c->survey = NULL;
	}
	free(sp);
	identify(src, ds, c);
	json_decref(build);
	return 0;
}

/* ---- systems ------------------------------------------------------------ */

static void load_systems(struct dataset *ds, const char *dir)
{
	struct csv_table t;
	csv_load(dir, "systems.csv", &t);
	ds->systems = xcalloc(t.n ? t.n : 1, sizeof *ds->systems);
	for (size_t i = 0; i < t.n; i++) {
		char **r = t.rows[i];
		struct ds_system *s = &ds->systems[ds->n_systems++];
		s->id = xstrdup(r[0]);
		s->arch = xstrdup(t.ncols[i] > 1 ? r[1] : "");
		s->hostname = xstrdup(t.ncols[i] > 2 ? r[2] : "");
		s->desc = xstrdup(t.ncols[i] > 3 ? r[3] : "");
	}
	csv_free(&t);
}

const json_t *ds_environment(const struct dataset *ds)
{
	const json_t *e = json_object_get(ds->campaign, "environment_at_start");
	if (json_is_object(e))
		return e;
	for (size_t i = 0; i < ds->n_cand; i++) {
		const json_t *ce = ds_candidate_env(&ds->cand[i]);
		if (ce)
			return ce;
	}
	return NULL;
}

static char *resolve_system(const struct dataset *ds, const char *override)
{
	if (override)
		return xstrdup(override);
	const char *host = jget_str(ds_environment(ds), "hostname", NULL);
	const char *arch = jget_str(ds_environment(ds), "architecture", NULL);
	/* As at measuring time (campaign_system_id): a row naming an Arch
	 * matches runs of that architecture only. */
	for (size_t i = 0; host && i < ds->n_systems; i++)
		if (!strcmp(ds->systems[i].hostname, host) &&
		    (!*ds->systems[i].arch || !arch || arch_matches(ds->systems[i].arch, arch)))
			return xstrdup(ds->systems[i].id);
	const char *sys = jget_str(ds->campaign, "system_id", NULL);
	if (sys && *sys)
		return xstrdup(sys);
	if (host)
		return xstrndup(host, strcspn(host, "."));
	return xstrdup("unknown");
}

/* ---- loading ----------------------------------------------------------- */

/* repeat/<ID>/<file>.json (campaign/repeat.h) as read; model/repeat.c
 * checks and pairs them. */
static void load_repeat(struct dataset *ds, const struct ds_source *src)
{
	char *top = path_join(src->root, "repeat");
	struct strlist cands = STRLIST_INIT;
	ds->has_repeat = path_is_dir(top);
	dir_list(top, DIR_PICK_DIRS, &cands);
	sl_sort(&cands);
	for (size_t c = 0; c < cands.n; c++) {
		char *dir = path_join(top, cands.items[c]);
		struct strlist names = STRLIST_INIT;
		dir_list(dir, DIR_PICK_FILES, &names);
		sl_sort(&names);
		for (size_t i = 0; i < names.n; i++) {
			if (strstr(names.items[i], ".tmp."))
				continue;
			size_t k = ds->n_repeat++;
			ds->repeat_cand = xrealloc(ds->repeat_cand, ds->n_repeat * sizeof(char *));
			ds->repeat_name = xrealloc(ds->repeat_name, ds->n_repeat * sizeof(char *));
			ds->repeat_error = xrealloc(ds->repeat_error, ds->n_repeat * sizeof(char *));
			ds->repeat_json = xrealloc(ds->repeat_json, ds->n_repeat * sizeof(json_t *));
			char *path = path_join(dir, names.items[i]);
			ds->repeat_cand[k] = xstrdup(cands.items[c]);
			ds->repeat_name[k] = xstrdup(names.items[i]);
			ds->repeat_error[k] = NULL;
			ds->repeat_json[k] = evidence_load_below(src->base, path, &ds->repeat_error[k]);
			if (!ds->repeat_json[k] && !ds->repeat_error[k])
				ds->repeat_error[k] = xstrdup("unreadable");
			free(path);
		}
		sl_free(&names);
		free(dir);
	}
	sl_free(&cands);
	free(top);
}

static int load_common(struct dataset *ds, const struct ds_source *src,
		       const char *system, char **err)
{
	char *cpath = path_join(src->root, "campaign.json");
	char *why = NULL;
	ds->campaign = load_checked(src->base, cpath, campaign_check, &why);
	if (!ds->campaign) {
		*err = path_exists(cpath)
			? xasprintf("corrupt campaign file %s; restore it from the run",
				    why ? why : cpath)
			: xasprintf("%s: no campaign.json; is %s a run directory of "
				    "'ngcc-perf measure'?", cpath, src->root);
		free(why);
		free(cpath);
		return -1;
	}
	free(cpath);
	char *rpath = path_join(src->catalogs, "report.json");
	ds->conf = path_exists(rpath) ? evidence_load_below(src->catalogs, rpath, &why)
				      : json_object();
	if (!ds->conf) {
		*err = xasprintf("corrupt report configuration %s (%s)", rpath,
				 why ? why : "unreadable");
		free(why);
		free(rpath);
		return -1;
	}
	free(rpath);
	load_systems(ds, src->catalogs);
	csv_load(src->catalogs, "survey.conf", &ds->survey_conf);
	csv_load(src->catalogs, "external_sizes.csv", &ds->external_sizes);
	csv_load(src->catalogs, "kex_bandwidth.csv", &ds->kex_bandwidth);
	csv_load(src->catalogs, "security_targets.csv", &ds->security_targets);
	csv_load(src->catalogs, "summary_notes.csv", &ds->summary_notes);
	csv_load(src->catalogs, "kat_issues.csv", &ds->kat_issues);
	csv_load(src->catalogs, "size_notes.csv", &ds->size_notes);
	char *sa = path_join(src->root, "size_audit.json");
	ds->size_audit = path_exists(sa) ? evidence_load_below(src->base, sa, NULL) : NULL;
	free(sa);

	struct strlist ids = STRLIST_INIT;
	static const char *const kinds[] = { "records", "profile" };
	for (int k = 0; k < 2; k++) {
		struct strlist sub = STRLIST_INIT;
		char *d = path_join(src->root, kinds[k]);
		dir_list(d, DIR_PICK_DIRS, &sub);
		for (size_t i = 0; i < sub.n; i++)
			if (!sl_contains(&ids, sub.items[i]))
				sl_push(&ids, sub.items[i]);
		sl_free(&sub);
		free(d);
	}
	ds->cand = xcalloc(ids.n ? ids.n : 1, sizeof *ds->cand);
	int rc = 0;
	/* Folder names become page names and links (docs/security.md). */
	for (size_t i = 0; i < ids.n && !rc; i++) {
		char *problem = path_name_problem("candidate folder", ids.items[i]);
		if (problem) {
			*err = xasprintf("%s/records or profile: %s; rename or remove it", src->root,
					 problem);
			free(problem);
			rc = -1;
		}
	}
	for (size_t i = 0; i < ids.n && !rc; i++) {
		struct ds_candidate *c = &ds->cand[ds->n_cand++];
		c->id = xstrdup(ids.items[i]);
		rc = load_candidate(src, ds, c, err);
	}
	sl_free(&ids);
	if (rc)
		return -1;
	if (ds->n_cand)
		qsort(ds->cand, ds->n_cand, sizeof *ds->cand, candidate_cmp);
	load_repeat(ds, src);
	ds->system_id = resolve_system(ds, system);
	/* It becomes the folder of the pages, the site's and data/<SYS>/. */
	char *problem = path_name_problem("system id", ds->system_id);
	if (problem) {
		*err = xasprintf("%s (from --system, systems.csv or the run's campaign.json or "
				 "environment); give another with --system ID", problem);
		free(problem);
		return -1;
	}
	return 0;
}

int dataset_load_run(struct dataset *ds, const char *workspace, const char *run,
		     const char *system, char **err)
{
	memset(ds, 0, sizeof *ds);
	*err = NULL;
	if (!path_is_dir(run)) {
		*err = xasprintf("%s: run directory not found; give the --run DIR of a "
				 "measured campaign", run);
		return -1;
	}
	struct ds_source src = { run, workspace, workspace, NULL, run };
	return load_common(ds, &src, system, err);
}

int dataset_load_published(struct dataset *ds, const char *dataset_dir,
			   const char *system, char **err)
{
	memset(ds, 0, sizeof *ds);
	*err = NULL;
	char *root = xasprintf("%s/data/%s", dataset_dir, system);
	if (!path_is_dir(root)) {
		*err = xasprintf("%s: no published data for system %s", root, system);
		free(root);
		return -1;
	}
	char *bpath = path_join(root, "build.json");
	json_t *build = path_exists(bpath) ? load_checked(dataset_dir, bpath, build_json_check, err)
					   : json_object();
	free(bpath);
	if (!build) {
		free(root);
		return -1;
	}
	struct ds_source src = { root, dataset_dir, NULL, build, dataset_dir };
	int rc = load_common(ds, &src, system, err);
	json_decref(build);
	free(root);
	return rc;
}

static void free_peers(struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_peers; i++) {
		free(ds->peers[i]);
		sl_free(&ds->peer_cands[i]);
	}
	free(ds->peers);
	free(ds->peer_cands);
	ds->peers = NULL;
	ds->peer_cands = NULL;
	ds->n_peers = 0;
}

/* One record or profile entry (ds_record and ds_profile alike). */
static void entry_free(char *op, char *relpath, json_t *j)
{
	free(op);
	free(relpath);
	json_decref(j);
}

static void instance_free(struct ds_instance *in)
{
	for (size_t r = 0; r < in->n_rec; r++)
		entry_free(in->rec[r].op, in->rec[r].relpath, in->rec[r].j);
	for (size_t r = 0; r < in->n_prof; r++)
		entry_free(in->prof[r].op, in->prof[r].relpath, in->prof[r].j);
	for (size_t r = 0; r < in->n_extra; r++) {
		free(in->extra_item[r]);
		free(in->extra_path[r]);
		json_decref(in->extra_json[r]);
	}
	free(in->extra_item);
	free(in->extra_json);
	free(in->extra_path);
	for (int k = 0; k < CHECK_N; k++) {
		json_decref(in->check[k]);
		free(in->check_rel[k]);
	}
	free(in->rec);
	free(in->prof);
	json_decref(in->build);
	free(in->label);
	free(in->stem);
	free(in->kat_status);
	free(in->kat_detail);
	free(in->kat_log_rel);
}

static void candidate_free(struct ds_candidate *c)
{
	for (size_t k = 0; k < c->n_inst; k++)
		instance_free(&c->inst[k]);
	free(c->inst);
	free(c->id);
	free(c->algorithm);
	free(c->type);
	json_decref(c->survey);
}

/* ---- keeping a selection ------------------------------------------------ */

/* The operation of an extension item "<kind> <op>". */
static const char *extra_op(const char *item)
{
	const char *sp = strchr(item, ' ');
	return sp ? sp + 1 : item;
}

/* 1 if the entry's operation is kept; else the entry is freed. */
static int entry_kept(const struct ds_keep *k, char *op, char *relpath, json_t *j)
{
	if (k->keep_op(k->ctx, op))
		return 1;
	entry_free(op, relpath, j);
	return 0;
}

static void keep_ops(struct ds_instance *in, const struct ds_keep *k)
{
	size_t n = 0;
	for (size_t r = 0; r < in->n_rec; r++)
		if (entry_kept(k, in->rec[r].op, in->rec[r].relpath, in->rec[r].j))
			in->rec[n++] = in->rec[r];
	in->n_rec = n;
	n = 0;
	for (size_t r = 0; r < in->n_prof; r++)
		if (entry_kept(k, in->prof[r].op, in->prof[r].relpath, in->prof[r].j))
			in->prof[n++] = in->prof[r];
	in->n_prof = n;
	n = 0;
	for (size_t r = 0; r < in->n_extra; r++) {
		if (k->keep_op(k->ctx, extra_op(in->extra_item[r]))) {
			in->extra_item[n] = in->extra_item[r];
			in->extra_path[n] = in->extra_path[r];
			in->extra_json[n++] = in->extra_json[r];
			continue;
		}
		free(in->extra_item[r]);
		free(in->extra_path[r]);
		json_decref(in->extra_json[r]);
	}
	in->n_extra = n;
}

/* An instance is kept when it is selected and, with an operation filter,
 * still has a record or profile. */
static int keep_instance(const struct ds_candidate *c, struct ds_instance *in,
			 const struct ds_keep *k)
{
	if (!k->keep_instance(k->ctx, c->id, in->label, in->stem))
		return 0;
	if (!k->keep_op)
		return 1;
	keep_ops(in, k);
	return in->n_rec || in->n_prof;
}

void dataset_keep(struct dataset *ds, const struct ds_keep *k)
{
	size_t nc = 0;
	for (size_t i = 0; i < ds->n_cand; i++) {
		struct ds_candidate *c = &ds->cand[i];
		size_t ni = 0;
		for (size_t j = 0; j < c->n_inst; j++) {
			if (keep_instance(c, &c->inst[j], k))
				c->inst[ni++] = c->inst[j];
			else
				instance_free(&c->inst[j]);
		}
		c->n_inst = ni;
		if (ni)
			ds->cand[nc++] = *c;
		else
			candidate_free(c);
	}
	ds->n_cand = nc;
}

void dataset_free(struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		candidate_free(&ds->cand[i]);
	free(ds->cand);
	for (size_t i = 0; i < ds->n_systems; i++) {
		free(ds->systems[i].id);
		free(ds->systems[i].arch);
		free(ds->systems[i].hostname);
		free(ds->systems[i].desc);
	}
	free(ds->systems);
	csv_free(&ds->survey_conf);
	csv_free(&ds->external_sizes);
	csv_free(&ds->kex_bandwidth);
	csv_free(&ds->security_targets);
	csv_free(&ds->summary_notes);
	csv_free(&ds->kat_issues);
	csv_free(&ds->size_notes);
	json_decref(ds->campaign);
	json_decref(ds->conf);
	json_decref(ds->size_audit);
	for (size_t i = 0; i < ds->n_repeat; i++) {
		free(ds->repeat_cand[i]);
		free(ds->repeat_name[i]);
		free(ds->repeat_error[i]);
		json_decref(ds->repeat_json[i]);
	}
	free(ds->repeat_cand);
	free(ds->repeat_name);
	free(ds->repeat_error);
	free(ds->repeat_json);
	free(ds->system_id);
	free_peers(ds);
	memset(ds, 0, sizeof *ds);
}

void dataset_set_peers(struct dataset *ds, const struct dataset *const *all, size_t n)
{
	free_peers(ds);
	ds->peers = xcalloc(n ? n : 1, sizeof *ds->peers);
	ds->peer_cands = xcalloc(n ? n : 1, sizeof *ds->peer_cands);
	for (size_t i = 0; i < n; i++) {
		ds->peers[i] = xstrdup(all[i]->system_id);
		for (size_t k = 0; k < all[i]->n_cand; k++)
			sl_push(&ds->peer_cands[i], all[i]->cand[k].id);
	}
	ds->n_peers = n;
}

int ds_system_has_candidate(const struct dataset *ds, const char *id, const char *cand)
{
	if (!strcmp(id, ds->system_id))
		for (size_t k = 0; k < ds->n_cand; k++)
			if (!strcmp(ds->cand[k].id, cand))
				return 1;
	for (size_t i = 0; i < ds->n_peers; i++)
		if (!strcmp(ds->peers[i], id) && sl_contains(&ds->peer_cands[i], cand))
			return 1;
	return 0;
}

int ds_system_rendered(const struct dataset *ds, const char *id)
{
	if (!strcmp(id, ds->system_id))
		return 1;
	for (size_t i = 0; i < ds->n_peers; i++)
		if (!strcmp(ds->peers[i], id))
			return 1;
	return 0;
}

/* ---- lookups --------------------------------------------------------- */

int ds_has_checks(const struct dataset *ds)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		for (size_t k = 0; k < ds->cand[i].n_inst; k++)
			for (int c = 0; c < CHECK_N; c++)
				if (ds->cand[i].inst[k].check[c])
					return 1;
	return 0;
}

const struct ds_instance *ds_find_instance(const struct dataset *ds, const char *cand,
					    const char *stem)
{
	for (size_t i = 0; i < ds->n_cand; i++)
		if (!strcmp(ds->cand[i].id, cand))
			for (size_t k = 0; k < ds->cand[i].n_inst; k++)
				if (!strcmp(ds->cand[i].inst[k].stem, stem))
					return &ds->cand[i].inst[k];
	return NULL;
}

const struct ds_record *ds_find_record(const struct ds_instance *in, const char *op)
{
	for (size_t i = 0; i < in->n_rec; i++)
		if (!strcmp(in->rec[i].op, op))
			return &in->rec[i];
	return NULL;
}

const struct ds_profile *ds_find_profile(const struct ds_instance *in, const char *op)
{
	for (size_t i = 0; i < in->n_prof; i++)
		if (!strcmp(in->prof[i].op, op))
			return &in->prof[i];
	return NULL;
}

const json_t *ds_find_memory(const struct ds_instance *in, const char *op)
{
	return ds_find_extra(in, "memory", op);
}

const json_t *ds_find_extra(const struct ds_instance *in, const char *kind, const char *op)
{
	size_t kl = strlen(kind);
	for (size_t i = 0; i < in->n_extra; i++) {
		const json_t *j = in->extra_json[i];
		if (j && !strncmp(in->extra_item[i], kind, kl) && in->extra_item[i][kl] == ' ' &&
		    !strcmp(jget_str(j, "operation", ""), op) &&
		    !strcmp(jget_str(j, "status", ""), "complete"))
			return j;
	}
	return NULL;
}

/* The largest rss.<key> over a record's timing processes, or -1. */
static long long process_rss(const json_t *rec, const char *key)
{
	long long best = -1;
	size_t i;
	json_t *p;
	json_array_foreach(json_object_get(rec, "processes"), i, p) {
		long long v = jget_int(json_object_get(p, "rss"), key, -1);
		if (v > best)
			best = v;
	}
	return best;
}

const json_t *ds_operation_rss(const struct ds_instance *in, const struct ds_record *r,
			       long long *loaded, long long *op_peak)
{
	const json_t *mem = ds_find_memory(in, r->op);
	/* One source per operation: the memory pass, else the timing processes. */
	*loaded = mem ? jget_int(mem, "loaded_rss_bytes", -1) : process_rss(r->j, "loaded");
	*op_peak = mem ? jget_int(mem, "op_peak_rss_bytes", -1) : process_rss(r->j, "op_peak");
	return mem;
}

int ds_candidate_profiled(const struct ds_candidate *c)
{
	if (c->survey)
		return 1;
	for (size_t i = 0; i < c->n_inst; i++)
		if (!c->inst[i].optimized && c->inst[i].n_prof)
			return 1;
	return 0;
}

int ds_record_complete(const struct ds_record *r)
{
	return r && !strcmp(jget_str(r->j, "status", ""), "complete");
}

int ds_profile_complete(const struct ds_profile *p)
{
	return p && !strcmp(jget_str(p->j, "status", ""), "complete") &&
	       json_is_object(json_object_get(p->j, "total"));
}

static char *substitute(const char *s, const char *sys, const char *cand)
{
	struct strbuf sb = STRBUF_INIT;
	while (*s) {
		if (str_starts_with(s, "<SYS>")) {
			sb_adds(&sb, sys ? sys : "");
			s += 5;
		} else if (str_starts_with(s, "<cand>")) {
			sb_adds(&sb, cand ? cand : "");
			s += 6;
		} else {
			sb_addc(&sb, *s++);
		}
	}
	return sb_detach(&sb);
}

char *ds_conf_str(const struct dataset *ds, const char *key, const char *cand,
		  const char *def)
{
	const char *v = jget_str(ds->conf, key, NULL);
	if (!v)
		v = def;
	return v ? substitute(v, ds->system_id, cand) : NULL;
}

const char *ds_cand_conf(const struct dataset *ds, const char *cand, const char *key)
{
	const json_t *c = json_object_get(json_object_get(ds->conf, "candidates"), cand);
	return jget_str(c, key, NULL);
}

const json_t *ds_candidate_env(const struct ds_candidate *c)
{
	const json_t *best = NULL;
	long long best_cpu = 0;
	for (size_t i = 0; i < c->n_inst; i++)
		for (size_t k = 0; k < c->inst[i].n_rec; k++) {
			const struct ds_record *r = &c->inst[i].rec[k];
			const json_t *env = json_object_get(r->j, "environment");
			if (!ds_record_complete(r) || !json_is_object(env))
				continue;
			long long cpu = jget_int(env, "cpu_number", jget_int(r->j, "cpu", 0));
			if (!best || cpu < best_cpu) {
				best = env;
				best_cpu = cpu;
			}
		}
	return best;
}

const char *ds_emulated(const struct dataset *ds)
{
	size_t i;
	const json_t *p;
	json_array_foreach(json_object_get(ds->campaign, "host_problems"), i, p)
		if (json_is_string(p) && str_starts_with(json_string_value(p), "emulated ("))
			return json_string_value(p);
	return NULL;
}

int ds_is_arm(const struct dataset *ds)
{
	const char *a = jget_str(ds_environment(ds), "architecture", NULL);
	for (size_t i = 0; !a && i < ds->n_systems; i++)
		if (!strcmp(ds->systems[i].id, ds->system_id))
			a = ds->systems[i].arch;
	return arch_matches(a, "aarch64");
}

const char *ds_arch_name(const struct dataset *ds)
{
	return ds_is_arm(ds) ? "AArch64" : "x86-64";
}

/* ---- published datasets ---------------------------------------------- */

/* ---- systems and pages ------------------------------------------------------- */

void dataset_systems(const char *dataset_dir, struct strlist *out)
{
	char *data = path_join(dataset_dir, "data");
	struct strlist all = STRLIST_INIT;
	dir_list(data, DIR_PICK_DIRS, &all);
	for (size_t i = 0; i < all.n; i++)
		if (root_kind(data, all.items[i]) == 'd') /* a link is no system */
			sl_push(out, all.items[i]);
	sl_free(&all);
	free(data);
}

void dataset_published_systems(const char *dataset_dir, struct strlist *ids)
{
	struct strlist found = STRLIST_INIT;
	char *data = path_join(dataset_dir, "data");
	DIR *d = opendir(data);
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_name[0] != '.' && root_kind(data, e->d_name) == 'd')
			sl_push(&found, e->d_name);
	if (d)
		closedir(d);
	sl_sort(&found);
	char *reg = path_join(dataset_dir, "systems.csv"), *text = NULL;
	if (!read_file_below(dataset_dir, reg, &text, NULL)) {
		char *save = NULL;
		for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
			char *raw = xstrndup(line, strcspn(line, ";"));
			char *id = str_trim(raw);
			if (sl_contains(&found, id) && !sl_contains(ids, id))
				sl_push(ids, id);
			free(raw);
		}
	}
	for (size_t i = 0; i < found.n; i++)
		if (!sl_contains(ids, found.items[i]))
			sl_push(ids, found.items[i]);
	free(text);
	free(reg);
	free(data);
	sl_free(&found);
}

int dataset_load_all_published(const char *dataset_dir, struct strlist *ids,
			  struct dataset **out, char **err)
{
	*out = NULL;
	dataset_published_systems(dataset_dir, ids);
	if (!ids->n) {
		*err = xasprintf("%s: no data/<SYS>/ folder; not a published dataset", dataset_dir);
		return -1;
	}
	struct dataset *ds = xcalloc(ids->n, sizeof *ds);
	int rc = 0;
	size_t loaded = 0;
	for (; loaded < ids->n && !rc; loaded++)
		rc = dataset_load_published(&ds[loaded], dataset_dir, ids->items[loaded], err);
	if (rc) {
		datasets_free(ds, loaded);
		return -1;
	}
	*out = ds;
	return 0;
}

void datasets_free(struct dataset *ds, size_t n)
{
	for (size_t i = 0; i < n; i++)
		dataset_free(&ds[i]);
	free(ds);
}
