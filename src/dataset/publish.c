/* publish.c — see publish.h. */
#include "dataset/publish.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "campaign/inspect.h"
#include "dataset/history.h"
#include "dataset/publish_util.h"
#include "evidence/accept.h"
#include "evidence/build_json.h"
#include "evidence/campaign_json.h"
#include "evidence/check_json.h"
#include "evidence/json.h"
#include "evidence/names.h"
#include "evidence/paths.h"
#include "model/dataset.h"
#include "model/size_audit.h"
#include "package/conf.h"
#include "util/atomic.h"
#include "util/fsutil.h"
#include "util/untrusted.h"
#include "util/util.h"

/* Evidence folders of a run that are published; calibrate/, attempts/ and
 * locks/ are not. */
static const char *const evidence_kinds[] = {
	"records", "memory", "samples", "pool", "profile",
	"repeat",   /* the repeatability sample (campaign/repeat.h) */
};

/* Workspace catalogs copied to the dataset's top (docs/method.md §11.1). */
static const char *const catalogs[] = {
	"systems.csv", "survey.conf", "external_sizes.csv", "kex_bandwidth.csv",
	"security_targets.csv", "summary_notes.csv", "kat_issues.csv", "size_notes.csv",
	"report.json",
};

struct pub {
	const struct publish_opts *o;
	char *sys;
	json_t *campaign;
	regex_t defer;
	int have_defer;
	char *tmp;                  /* <dataset>.tmp.<pid> */
	char *root;                 /* tmp/data/<SYS> */
	const char *needles[6];     /* absolute paths that must not remain */
	struct strlist cands;       /* candidates with published evidence */
	struct strlist deferred;    /* "<cand>/<stem>" left out */
	struct strlist unfixed;     /* evidence files taken on an unfixed host */
	size_t n_records, n_profiles, n_kat, n_checks, n_pages;
	int bad_input;              /* a file of the run could not be read: exit 3, not 4 */
	json_t *builds;             /* cand -> its build.json, as loaded for the checks */
};

/* cand's build.json (from the workspace, loaded once: the checks and
 * publish_build share it), or NULL with a message printed. */
static const json_t *cand_build(struct pub *p, const char *cand)
{
	if (!p->builds)
		p->builds = json_object();
	json_t *b = json_object_get(p->builds, cand);
	if (!b) {
		char *err = NULL;
		b = build_json_load(p->o->workspace, cand, &err);
		if (!b) {
			ngcc_error("%s", err);
			free(err);
			return NULL;
		}
		json_object_set_new(p->builds, cand, b);
	}
	return b;
}

/* build.json's "instances" of cand, or NULL with a message printed. */
static const json_t *cand_instances(struct pub *p, const char *cand)
{
	const json_t *b = cand_build(p, cand);
	return b ? json_object_get(b, "instances") : NULL;
}

/* The rule validate applies to the document at rel (evidence/accept.h):
 * 0, or -1 with a message naming path. */
static int accept_or_refuse(struct pub *p, const char *cand, const char *rel, const char *path,
			    const json_t *j, const char *fix)
{
	const json_t *instances = cand_instances(p, cand);
	if (!instances)
		return -1;
	char *why = NULL;
	if (!evidence_accept(rel, j, instances, &why))
		return 0;
	ngcc_error("%s: %s; %s", path, why, fix);
	free(why);
	p->bad_input = 1;
	return -1;
}

/* The string with the run and workspace prefixes dropped and our own tree
 * written as <ngcc-perf>/ (docs/method.md §11.1); NULL when unchanged. */
static char *relative_text(const struct pub *p, const char *s)
{
	char *r = path_hide_ours(s, p->o->workspace, p->o->run);
	if (!strcmp(r, s)) {
		free(r);
		return NULL;
	}
	return r;
}

static int relativize(const struct pub *p, json_t *j);

/* v's replacement when it is a string relative_text changes (counted in
 * *n), else NULL after relativizing inside v. */
static json_t *relativized(const struct pub *p, json_t *v, int *n)
{
	char *r = json_is_string(v) ? relative_text(p, json_string_value(v)) : NULL;
	if (!r) {
		*n += relativize(p, v);
		return NULL;
	}
	json_t *s = json_string(r);
	free(r);
	(*n)++;
	return s;
}

/* Apply relative_text to every string of j, in place; returns the count. */
static int relativize(const struct pub *p, json_t *j)
{
	int n = 0;
	if (json_is_object(j)) {
		const char *k;
		json_t *v, *r;
		json_object_foreach(j, k, v)
			if ((r = relativized(p, v, &n)))
				json_object_set_new(j, k, r);
	} else if (json_is_array(j)) {
		size_t i;
		json_t *v, *r;
		json_array_foreach(j, i, v)
			if ((r = relativized(p, v, &n)))
				json_array_set_new(j, i, r);
	}
	return n;
}

/* ---- writing into the new tree ------------------------------------------------- */

static int write_bytes(struct pub *p, const char *rel, const void *data, size_t len)
{
	char *path = path_join(p->root, rel);
	char *dir = path_dirname(path);
	int rc = mkdir_p(dir, 0755);
	if (!rc)
		rc = atomic_write(path, data, len);
	if (rc)
		ngcc_error("cannot write %s: %s", path, strerror(errno));
	free(dir);
	free(path);
	return rc;
}

static int write_json(struct pub *p, const char *rel, const json_t *j)
{
	char *s = evidence_dumps(j);
	int rc = write_bytes(p, rel, s, strlen(s));
	free(s);
	return rc;
}

/* src (below base, never through a link: docs/security.md) copied to rel. */
static int copy_into(struct pub *p, const char *base, const char *src, const char *rel)
{
	char *data = NULL;
	size_t len = 0;
	if (read_file_below(base, src, &data, &len)) {
		ngcc_error("cannot read %s: %s; re-run the phase that wrote it, or remove it",
			   src, io_strerror(errno));
		p->bad_input = 1;
		return -1;
	}
	int rc = write_bytes(p, rel, data, len);
	free(data);
	return rc;
}

/* ---- deferral -------------------------------------------------------------------- */

static int is_deferred(struct pub *p, const char *cand, const char *stem)
{
	if (!p->have_defer)
		return 0;
	char *key = xasprintf("%s/%s", cand, stem);
	int hit = !regexec(&p->defer, key, 0, NULL, 0);
	if (hit && !sl_contains(&p->deferred, key))
		sl_push(&p->deferred, key);
	free(key);
	return hit;
}

/* ---- evidence files ---------------------------------------------------------------- */

struct evidence_file {
	char *rel;      /* relative to the run and to data/<SYS>/ */
	char *cand, *stem;
	json_t *j;
};

struct evidence_list {
	struct evidence_file *v;
	size_t n;
};

static void evidence_list_free(struct evidence_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		free(l->v[i].rel);
		free(l->v[i].cand);
		free(l->v[i].stem);
		json_decref(l->v[i].j);
	}
	free(l->v);
}

static void note_unfixed(struct pub *p, const char *rel, const json_t *j)
{
	if (jget_bool(json_object_get(j, "host"), "unfixed", 0))
		sl_push(&p->unfixed, rel);
}

/* Load every published evidence file of the run (deferred ones left out). */
static int load_evidence(struct pub *p, struct evidence_list *l)
{
	struct strlist files = STRLIST_INIT;
	int rc = 0;
	for (size_t k = 0; k < sizeof evidence_kinds / sizeof *evidence_kinds; k++)
		tree_list_files(p->o->run, evidence_kinds[k], &files);
	for (size_t i = 0; i < files.n && !rc; i++) {
		const char *rel = files.items[i];
		const char *name = path_basename(rel);
		char *dir = path_dirname(rel);
		const char *cand = path_basename(dir);
		char *stem = NULL, *op = NULL;
		/* <kind>/<cand>/<file>.json only; temporary files are not evidence. */
		if (!str_ends_with(name, ".json") || !strchr(dir, '/') ||
		    strchr(dir, '/') != strrchr(dir, '/') || strstr(name, ".tmp.")) {
			free(dir);
			continue;
		}
		if (!split_stem_op(name, &stem, &op) && is_deferred(p, cand, stem)) {
			free(stem);
			free(op);
			free(dir);
			continue;
		}
		char *path = path_join(p->o->run, rel), *err = NULL;
		json_t *j = evidence_load_below(p->o->run, path, &err);
		if (!j) {
			ngcc_error("corrupt evidence %s (%s); re-run the phase that wrote it, "
				   "or remove it and resume", path, err ? err : "unreadable");
			rc = -1;
		} else if (accept_or_refuse(p, cand, rel, path, j, "re-run the phase that wrote "
					    "it, or remove it and resume")) {
			json_decref(j);
			rc = -1;
		} else {
			l->v = xrealloc(l->v, (l->n + 1) * sizeof *l->v);
			l->v[l->n++] = (struct evidence_file){ xstrdup(rel), xstrdup(cand),
							       stem ? xstrdup(stem) : NULL, j };
			note_unfixed(p, rel, j);
			if (!sl_contains(&p->cands, cand))
				sl_push(&p->cands, cand);
		}
		free(err);
		free(path);
		free(stem);
		free(op);
		free(dir);
	}
	sl_free(&files);
	sl_sort(&p->cands);
	return rc;
}

static int write_evidence(struct pub *p, struct evidence_list *l)
{
	for (size_t i = 0; i < l->n; i++) {
		struct evidence_file *f = &l->v[i];
		/* A record names its KAT log; published, that is kat/<cand>/<stem>.log. */
		if (f->stem && json_is_string(json_object_get(f->j, "kat_log"))) {
			char *kl = xasprintf("kat/%s/%s.log", f->cand, f->stem);
			json_object_set_new(f->j, "kat_log", json_string(kl));
			free(kl);
		}
		relativize(p, f->j);
		if (write_json(p, f->rel, f->j))
			return -1;
		if (str_starts_with(f->rel, "records/"))
			p->n_records++;
		else if (str_starts_with(f->rel, "profile/") && f->stem)
			p->n_profiles++;
	}
	return 0;
}

/* ---- build.json and KAT logs ------------------------------------------------------ */

static char *workspace_file(const struct pub *p, const char *rel)
{
	return rel[0] == '/' ? xstrdup(rel) : path_join(p->o->workspace, rel);
}

/* Copy the instance's KAT log (and its recheck log) and point the entry at
 * the published copy. */
static int publish_kat(struct pub *p, const char *cand, const char *stem, json_t *e)
{
	const char *kl = jget_str(e, "kat_log", NULL);
	if (!kl)
		return 0;
	char *src = workspace_file(p, kl);
	char *rel = xasprintf("kat/%s/%s.log", cand, stem);
	int rc = 0;
	if (path_is_file(src)) {
		rc = copy_into(p, p->o->workspace, src, rel);
		p->n_kat++;
	} else {
		ngcc_warning("%s/%s: KAT log %s is missing; run 'ngcc-perf kat %s' again "
			     "(validate will report it)", cand, stem, src, cand);
	}
	char *base = str_ends_with(src, ".log") ? xstrndup(src, strlen(src) - 4) : xstrdup(src);
	char *recheck = xasprintf("%s.recheck.log", base);
	if (!rc && path_is_file(recheck)) {
		char *crel = xasprintf("katcheck/%s/%s.log", cand, stem);
		rc = copy_into(p, p->o->workspace, recheck, crel);
		free(crel);
	}
	json_object_set_new(e, "kat_log", json_string(rel));
	free(recheck);
	free(base);
	free(rel);
	free(src);
	return rc;
}

/* The patches the instance's source was patched with (add --patch), copied
 * from candidates/<cand>/patches/ to patches/<cand>/ (once: instances
 * share them), the entry pointing at the copies. */
static int publish_patches(struct pub *p, const char *cand, json_t *e)
{
	size_t i;
	json_t *pj;
	int rc = 0;
	json_array_foreach(json_object_get(e, "patches"), i, pj) {
		const char *file = jget_str(pj, "file", "");
		char *src = xasprintf("%s/candidates/%s/patches/%s", p->o->workspace, cand, file);
		char *rel = xasprintf("patches/%s/%s", cand, file);
		char *dst = path_join(p->root, rel);
		if (!strchr(file, '/') && *file && !path_exists(dst))
			rc = copy_into(p, p->o->workspace, src, rel);
		json_object_set_new(pj, "path", json_string(rel));
		free(dst);
		free(rel);
		free(src);
		if (rc)
			break;
	}
	return rc;
}

/* The instance's check records (build/<cand>/check/ in the workspace) as
 * check/<cand>/<stem>__<check>.json. */
static int publish_checks(struct pub *p, const char *cand, const char *stem)
{
	int rc = 0;
	for (int k = 0; k < CHECK_N && !rc; k++) {
		char *wrel = check_record_path(cand, stem, check_names[k]);
		char *src = workspace_file(p, wrel);
		if (path_is_file(src)) {
			char *err = NULL;
			json_t *j = evidence_load_below(p->o->workspace, src, &err);
			char *rel = check_record_published(cand, stem, check_names[k]);
			char *fix = xasprintf("run `ngcc-perf check %s --redo`", cand);
			if (!j) {
				ngcc_error("corrupt check record %s (%s); %s", src,
					   err ? err : "unreadable", fix);
				p->bad_input = 1;
				rc = -1;
			} else if (accept_or_refuse(p, cand, rel, src, j, fix)) {
				rc = -1;
			} else {
				relativize(p, j);
				rc = write_json(p, rel, j);
				p->n_checks++;
			}
			free(rel);
			free(fix);
			json_decref(j);
			free(err);
		}
		free(src);
		free(wrel);
	}
	return rc;
}

/* The candidate's algorithm name and type (candidate.conf), added to its
 * published entries: the dataset has no candidates/ folder, and the pages
 * name the algorithm. */
static void add_identity(const struct pub *p, const char *cand, json_t *e)
{
	char *path = xasprintf("%s/candidates/%s/candidate.conf", p->o->workspace, cand);
	struct candidate_conf cc;
	char *err = NULL;
	if (path_is_file(path) && !conf_read(path, &cc, &err)) {
		if (cc.algorithm && !jget_str(e, "algorithm", NULL))
			json_object_set_new(e, "algorithm", json_string(cc.algorithm));
		if (cc.type && !jget_str(e, "type", NULL))
			json_object_set_new(e, "type", json_string(cc.type));
		conf_free(&cc);
	}
	free(err);
	free(path);
}

/* The measured candidates' build.json entries in one document. */
static int publish_build(struct pub *p)
{
	json_t *doc = json_object();
	json_t *all = json_object();
	int rc = 0;
	json_object_set_new(doc, "schema", evidence_schema(BUILD_JSON_KIND, BUILD_JSON_VERSION));
	json_object_set_new(doc, "instances", all);
	for (size_t i = 0; i < p->cands.n && !rc; i++) {
		const char *cand = p->cands.items[i];
		const json_t *b = cand_build(p, cand);
		if (!b) {
			rc = -1;
			break;
		}
		if (!json_object_size(json_object_get(b, "instances")))
			ngcc_warning("candidate %s has no build.json entries in %s/build/%s/; "
				     "its records cannot be validated", cand, p->o->workspace, cand);
		const char *key;
		json_t *e;
		size_t clen = strlen(cand);
		json_object_foreach(json_object_get(b, "instances"), key, e) {
			const char *stem = key + clen + 1;
			if (strncmp(key, cand, clen) || key[clen] != '/' || is_deferred(p, cand, stem))
				continue;
			json_t *copy = json_deep_copy(e);
			rc = publish_kat(p, cand, stem, copy);
			if (!rc)
				rc = publish_patches(p, cand, copy);
			if (!rc)
				rc = publish_checks(p, cand, stem);
			add_identity(p, cand, copy);
			relativize(p, copy);
			json_object_set_new(all, key, copy);
			if (rc)
				break;
		}
	}
	if (!rc)
		rc = write_json(p, "build.json", doc);
	json_decref(doc);
	return rc;
}

/* ---- the rest of data/<SYS>/ -------------------------------------------------------- */

static int publish_campaign(struct pub *p)
{
	relativize(p, p->campaign);
	return write_json(p, "campaign.json", p->campaign);
}

/* size_audit.json is recomputed from what is published (deferred instances
 * left out), exactly as validate recomputes it; the run's copy is not used. */
static int publish_size_audit(struct pub *p)
{
	char *err = NULL;
	int rc = size_audit_write_published(p->tmp, p->sys, &err);
	if (rc)
		ngcc_error("cannot write the size audit of data/%s: %s", p->sys,
			   err ? err : "unknown error");
	free(err);
	return rc;
}

static json_t *strlist_json(const struct strlist *l)
{
	json_t *a = json_array();
	for (size_t i = 0; i < l->n; i++)
		json_array_append_new(a, json_string(l->items[i]));
	return a;
}

/* publish.json: the options of this publication (no clock: datasets built
 * from the same run are identical). */
static int publish_record(struct pub *p)
{
	json_t *j = json_object();
	sl_sort(&p->deferred);
	json_object_set_new(j, "schema", evidence_schema(PUBLISH_KIND, PUBLISH_VERSION));
	json_object_set_new(j, "tool", json_pack("{ssssss}", "name", "ngcc-perf",
						 "version", NGCC_VERSION,
						 "git_commit", NGCC_GIT_COMMIT));
	json_object_set_new(j, "system_id", json_string(p->sys));
	json_object_set_new(j, "run_id", json_deep_copy(json_object_get(p->campaign, "run_id")
							 ? json_object_get(p->campaign, "run_id")
							 : json_null()));
	json_object_set_new(j, "options", json_pack("{sbso}", "publish_unfixed",
						    p->o->publish_unfixed,
						    "defer", jstr_or_null(p->o->defer)));
	json_object_set_new(j, "deferred", strlist_json(&p->deferred));
	json_object_set_new(j, "unfixed_records", strlist_json(&p->unfixed));
	json_object_set_new(j, "counts", json_pack("{sIsIsI}",
						   "records", (json_int_t)p->n_records,
						   "profiles", (json_int_t)p->n_profiles,
						   "kat_logs", (json_int_t)p->n_kat));
	int rc = write_json(p, "publish.json", j);
	json_decref(j);
	return rc;
}

/* ---- dataset top: catalogs, other systems, pages -------------------------------------- */

static int copy_catalogs(struct pub *p)
{
	for (size_t i = 0; i < sizeof catalogs / sizeof *catalogs; i++) {
		char *src = path_join(p->o->workspace, catalogs[i]);
		char *dst = path_join(p->tmp, catalogs[i]);
		char *data = NULL;
		size_t len = 0;
		int rc = 0;
		if (path_is_file(src)) {
			rc = read_file(src, &data, &len);
			if (!rc)
				rc = atomic_write(dst, data, len);
			if (rc)
				ngcc_error("cannot copy catalog %s: %s", src, strerror(errno));
		}
		free(data);
		free(dst);
		free(src);
		if (rc)
			return -1;
	}
	return 0;
}

/* data/<X>/ of the other systems of an existing dataset. */
static int carry_other_systems(struct pub *p)
{
	struct strlist sys = STRLIST_INIT;
	int rc = 0;
	dataset_systems(p->o->dataset, &sys);
	for (size_t i = 0; i < sys.n && !rc; i++) {
		if (!strcmp(sys.items[i], p->sys))
			continue;
		char *from = xasprintf("%s/data/%s", p->o->dataset, sys.items[i]);
		char *to = xasprintf("%s/data/%s", p->tmp, sys.items[i]);
		rc = tree_copy(from, to);
		if (rc)
			ngcc_error("cannot copy %s: %s", from, strerror(errno));
		free(to);
		free(from);
	}
	sl_free(&sys);
	return rc;
}

static int render_pages(struct pub *p)
{
	struct rendered_pages pages;
	char *err = NULL;
	if (pages_render_dataset(p->tmp, &pages, &err)) {
		ngcc_error("cannot render the report pages: %s", err ? err : "?");
		free(err);
		return -1;
	}
	int rc = 0;
	char *reports = path_join(p->tmp, "reports");
	mkdir_p(reports, 0755);
	for (size_t i = 0; i < pages.n && !rc; i++) {
		char *path = path_join(reports, pages.v[i].path);
		char *dir = path_dirname(path);
		rc = mkdir_p(dir, 0755);
		if (!rc)
			rc = atomic_write(path, pages.v[i].data, pages.v[i].len);
		if (rc)
			ngcc_error("cannot write %s: %s", path, strerror(errno));
		free(dir);
		free(path);
	}
	p->n_pages = pages.n;
	free(reports);
	pages_free(&pages);
	return rc;
}

/* ---- the absolute-path scan ------------------------------------------------------------ */

static int text_has_needle(const struct pub *p, const char *data, const char **hit)
{
	for (int i = 0; p->needles[i]; i++)
		if (strlen(p->needles[i]) > 1 && strstr(data, p->needles[i])) {
			*hit = p->needles[i];
			return 1;
		}
	return 0;
}

/* 0 when no file written holds an absolute path; else -1 with a message. */
static int scan_absolute(struct pub *p)
{
	struct strlist files = STRLIST_INIT;
	char *data_rel = xasprintf("data/%s", p->sys);
	int rc = 0;
	tree_list_files(p->tmp, data_rel, &files);
	tree_list_files(p->tmp, "reports", &files);
	for (size_t i = 0; i < sizeof catalogs / sizeof *catalogs; i++) {
		char *c = path_join(p->tmp, catalogs[i]);
		if (path_is_file(c))
			sl_push(&files, catalogs[i]);
		free(c);
	}
	for (size_t i = 0; i < files.n && !rc; i++) {
		char *path = path_join(p->tmp, files.items[i]);
		char *data = NULL, *where = NULL;
		const char *hit = NULL;
		if (read_file(path, &data, NULL)) {
			ngcc_error("cannot read back %s: %s", path, strerror(errno));
			rc = -1;
		} else if (str_ends_with(files.items[i], ".json")) {
			json_t *j = json_loads(data, 0, NULL);
			if (j && json_find_absolute(j, p->needles, &where)) {
				ngcc_error("%s still holds an absolute path at %s; nothing was "
					   "published (make that path relative in the workspace "
					   "or run, then publish again)", files.items[i], where);
				rc = -1;
			}
			json_decref(j);
		} else if (text_has_needle(p, data, &hit)) {
			ngcc_error("%s still contains the absolute path %s; nothing was "
				   "published", files.items[i], hit);
			rc = -1;
		}
		free(where);
		free(data);
		free(path);
	}
	free(data_rel);
	sl_free(&files);
	return rc;
}

/* ---- swapping the new tree in -------------------------------------------------------------- */

static int swap_in(struct pub *p)
{
	const char *ds = p->o->dataset;
	int rc;
	if (!path_exists(ds)) {
		rc = rename(p->tmp, ds);
	} else if (!renameat2(AT_FDCWD, p->tmp, AT_FDCWD, ds, RENAME_EXCHANGE)) {
		rc = 0;  /* tmp now holds the old dataset: removed by the caller */
	} else if (errno == EINVAL || errno == ENOSYS) {
		char *old = xasprintf("%s.old.%ld", ds, (long)getpid());
		rc = rename(ds, old);
		if (!rc && (rc = rename(p->tmp, ds)))
			rename(old, ds);
		if (!rc)
			rm_rf(old);
		free(old);
	} else {
		rc = -1;
	}
	if (rc)
		ngcc_error("cannot move %s to %s: %s", p->tmp, ds, strerror(errno));
	fsync_parent_dir(ds);
	return rc;
}

/* Remove <dataset>.tmp.<pid> and <dataset>.old.<pid> trees left by a
 * publish that was killed (its process no longer runs). */
static void sweep_stale_trees(const char *dataset)
{
	char *parent = path_dirname(dataset);
	const char *base = path_basename(dataset);
	size_t blen = strlen(base);
	DIR *d = opendir(parent);
	struct dirent *e;
	while (d && (e = readdir(d))) {
		const char *rest = e->d_name + blen;
		if (strncmp(e->d_name, base, blen) ||
		    (strncmp(rest, ".tmp.", 5) && strncmp(rest, ".old.", 5)))
			continue;
		char *end = NULL;
		long pid = strtol(rest + 5, &end, 10);
		if (pid <= 0 || *end || !(kill((pid_t)pid, 0) && errno == ESRCH))
			continue;   /* not ours, or its writer still runs */
		char *stale = path_join(parent, e->d_name);
		rm_rf(stale);
		free(stale);
	}
	if (d)
		closedir(d);
	free(parent);
}

/* ---- checks before anything is written -------------------------------------------------------- */

/* 1 if a equals b or lies below it. */
static int path_within(const char *a, const char *b)
{
	size_t n = strlen(b);
	return !strncmp(a, b, n) && (a[n] == '\0' || a[n] == '/' || (n == 1 && b[0] == '/'));
}

static int check_target(const struct publish_opts *o)
{
	if (path_within(o->workspace, o->dataset) || path_within(o->run, o->dataset) ||
	    path_within(o->dataset, o->run)) {
		ngcc_error("the dataset %s would contain or replace the workspace or the run "
			   "%s; choose another --dataset folder", o->dataset, o->run);
		return EXIT_USAGE;
	}
	char *data = path_join(o->dataset, "data");
	int ok = !path_exists(o->dataset) || path_is_dir(data);
	if (!ok && path_is_dir(o->dataset)) {
		struct strlist f = STRLIST_INIT;
		tree_list_files(o->dataset, "", &f);
		ok = f.n == 0;
		sl_free(&f);
	}
	free(data);
	if (!ok) {
		ngcc_error("%s exists and is not a dataset (no data/ folder); publish into a "
			   "new or empty folder, or into an existing dataset", o->dataset);
		return EXIT_USAGE;
	}
	return EXIT_OK;
}

static int load_campaign(struct pub *p)
{
	char *err = NULL;
	p->campaign = campaign_load(p->o->run, &err);
	if (!p->campaign) {
		ngcc_error("%s: %s; is it the --run folder of 'ngcc-perf measure'?", p->o->run,
			   err ? err : "no campaign.json");
		free(err);
		return EXIT_INPUT;
	}
	const char *sys = jget_str(p->campaign, "system_id", NULL);
	char *problem = path_name_problem("system_id", sys ? sys : ""); /* evidence/names.h */
	if (problem) {
		ngcc_error("%s/campaign.json: %s (it names the data/<SYS>/ folder)", p->o->run,
			   sys ? problem : "system_id is missing");
		free(problem);
		return EXIT_INPUT;
	}
	p->sys = xstrdup(sys);
	return EXIT_OK;
}

static int refuse_unfixed(const struct pub *p)
{
	const char *first = p->unfixed.items[0];
	char *path = path_join(p->o->run, first), *problems = NULL;
	json_t *j = evidence_load(path, NULL);
	const json_t *host = json_object_get(j, "host");
	struct strbuf sb = STRBUF_INIT;
	size_t i;
	json_t *v;
	json_array_foreach(json_object_get(host, "problems"), i, v)
		sb_addf(&sb, "%s%s", i ? "; " : "", json_string_value(v) ? json_string_value(v) : "?");
	problems = sb_detach(&sb);
	ngcc_error("refusing to publish %zu evidence file(s) measured on an unfixed host "
		   "(e.g. %s: %s; override: %s); fix the host and measure again, or give "
		   "--publish-unfixed to publish them with the unfixed-host notice",
		   p->unfixed.n, first, *problems ? problems : "problems not recorded",
		   jget_str(host, "override_reason", "not given"));
	free(problems);
	json_decref(j);
	free(path);
	return EXIT_USAGE;
}

/* ---- main ---------------------------------------------------------------------------------- */

static int build_tree(struct pub *p, struct evidence_list *ev)
{
	if (rm_rf(p->tmp) || mkdir_p(p->root, 0755)) {
		ngcc_error("cannot create %s: %s", p->root, strerror(errno));
		return EXIT_SYSTEM;
	}
	if (carry_other_systems(p) || publish_campaign(p) || write_evidence(p, ev) ||
	    publish_build(p) || publish_record(p) || copy_catalogs(p))
		return p->bad_input ? EXIT_INPUT : EXIT_SYSTEM;
	if (publish_size_audit(p))
		return EXIT_INPUT;
	if (render_pages(p))
		return EXIT_INPUT;
	struct history_publish hp = { p->o->workspace, p->o->dataset, p->tmp, p->sys, &p->cands };
	if (history_publish_tree(&hp))
		return EXIT_SYSTEM;
	if (scan_absolute(p))
		return EXIT_INPUT;
	return EXIT_OK;
}

static void pub_free(struct pub *p)
{
	if (p->have_defer)
		regfree(&p->defer);
	json_decref(p->campaign);
	json_decref(p->builds);
	free(p->sys);
	free(p->tmp);
	free(p->root);
	sl_free(&p->cands);
	sl_free(&p->deferred);
	sl_free(&p->unfixed);
}

/* "host x86-64 vm" of a campaign's environment at start. */
static char *machine_of(const json_t *campaign)
{
	const json_t *env = json_object_get(campaign, "environment_at_start");
	return xasprintf("host %s, architecture %s", jget_str(env, "hostname", "?"),
			 jget_str(env, "architecture", "?"));
}

/* One system is one machine: a dataset's data/<SYS>/ measured on another
 * host or architecture is not replaced by this run (two machines would be
 * published under one name, or one's figures silently dropped). */
static int refuse_other_machine(const struct pub *p)
{
	char *path = xasprintf("%s/data/%s/campaign.json", p->o->dataset, p->sys);
	json_t *old = path_is_file(path) ? evidence_load(path, NULL) : NULL;
	char *was = old ? machine_of(old) : NULL, *now = machine_of(p->campaign);
	int rc = EXIT_OK;
	if (was && strcmp(was, now)) {
		ngcc_error("%s: system %s was measured on %s; this run (%s) is %s: give each "
			   "machine its own system id (workspace systems.csv: ID;Arch;Hostname;"
			   "Description) and measure again, or publish into another dataset",
			   p->o->dataset, p->sys, was, p->o->run, now);
		rc = EXIT_INPUT;
	}
	json_decref(old);
	free(was);
	free(now);
	free(path);
	return rc;
}

static int prepare(struct pub *p)
{
	int rc = check_target(p->o);
	if (rc)
		return rc;
	if (p->o->defer) {
		if (regcomp(&p->defer, p->o->defer, REG_EXTENDED | REG_NOSUB)) {
			ngcc_error("--defer '%s' is not a valid extended regular expression",
				   p->o->defer);
			return EXIT_USAGE;
		}
		p->have_defer = 1;
	}
	rc = load_campaign(p);
	return rc ? rc : refuse_other_machine(p);
}

/* A run whose phases were all given instance selectors or --op that left
 * units of its candidates out: refused, or (--allow-partial) published
 * with a warning that names what is missing. */
static int check_partial(const struct pub *p)
{
	const json_t *sel = json_object_get(json_object_get(p->campaign, "options"), "selections");
	if (!json_array_size(sel))
		return 0;
	struct strlist missing = STRLIST_INIT;
	int rc = inspect_unselected(p->o->workspace, p->o->run, &missing);
	if (rc || !missing.n) {
		sl_free(&missing);
		return rc;
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < missing.n && i < 8; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", missing.items[i]);
	if (missing.n > 8)
		sb_addf(&sb, ", … (`ngcc-perf status --run %s` lists them)", p->o->run);
	if (p->o->allow_partial) {
		ngcc_warning("publish: %zu unit(s) of the run's candidates were never selected and are "
			     "missing from the dataset (--allow-partial): %s", missing.n, sb.buf);
	} else {
		ngcc_error("publish: %zu unit(s) of the run's candidates were never selected (its "
			   "phases were given instance selectors or --op): %s; measure them with "
			   "`ngcc-perf measure --run %s` (and `profile`), or publish the part with "
			   "--allow-partial", missing.n, sb.buf, p->o->run);
		rc = EXIT_USAGE;
	}
	sb_free(&sb);
	sl_free(&missing);
	return rc;
}

int publish_dataset(const struct publish_opts *o)
{
	struct pub p;
	struct evidence_list ev = { NULL, 0 };
	if (!path_is_dir(o->run)) {
		ngcc_error("publish: run directory %s not found; give the --run DIR of "
			   "'ngcc-perf measure'", o->run);
		return EXIT_INPUT;
	}
	memset(&p, 0, sizeof p);
	p.o = o;
	int rc = prepare(&p);
	if (!rc)
		rc = check_partial(&p);
	if (!rc && load_evidence(&p, &ev))
		rc = EXIT_INPUT;
	if (!rc && p.unfixed.n && !o->publish_unfixed)
		rc = refuse_unfixed(&p);
	if (!rc) {
		sweep_stale_trees(o->dataset);
		p.tmp = xasprintf("%s.tmp.%ld", o->dataset, (long)getpid());
		p.root = xasprintf("%s/data/%s", p.tmp, p.sys);
		p.needles[0] = o->workspace;
		p.needles[1] = o->run;
		p.needles[2] = o->dataset;
		p.needles[3] = p.tmp;
		p.needles[4] = ngcc_home();
		rc = build_tree(&p, &ev);
		if (!rc)
			rc = swap_in(&p) ? EXIT_SYSTEM : EXIT_OK;
		rm_rf(p.tmp);
	}
	if (!rc)
		fprintf(o->out ? o->out : stdout,
			"publish: data/%s: %zu timing record(s), %zu profile(s), %zu KAT log(s), "
			"%zu check record(s), %zu instance(s) deferred%s; %zu page(s) in %s/reports\n",
			p.sys, p.n_records, p.n_profiles, p.n_kat, p.n_checks, p.deferred.n,
			p.unfixed.n ? " (unfixed host, published with --publish-unfixed)" : "",
			p.n_pages, o->dataset);
	evidence_list_free(&ev);
	pub_free(&p);
	return rc;
}
