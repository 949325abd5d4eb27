/*
 * changes_cmd.c — see changes_cmd.h: `ngcc-perf changes`.
 */
#include "dataset/changes_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "dataset/compare_cmd.h"
#include "report/changes.h"
#include "util/atomic.h"
#include "util/fsutil.h"
#include "util/untrusted.h"

char *changes_compare_md(const struct dataset *a, const struct dataset *b, const char *id,
			 int from, int to, double threshold, int *regression, char **err)
{
	struct cmp_opts o = CMP_OPTS_DEFAULT;
	struct cmp_result r;
	char *na = xasprintf("version %d", from), *nb = xasprintf("version %d", to), *md = NULL;
	o.threshold = threshold;
	o.name_a = na;
	o.name_b = nb;
	o.only_candidate = id;
	if (!cmp_compute(a, b, &o, &r, err)) {
		md = cmp_markdown(&r, 3, NULL);
		*regression = cmp_exit_status(&r) != 0;
		cmp_free(&r);
	}
	free(na);
	free(nb);
	return md;
}

/* ---- a run of an older version ---------------------------------------------------- */

static int copy_matching(const char *from, const char *to, const char *suffix)
{
	struct strlist files = STRLIST_INIT;
	int rc = 0;
	dir_list(from, DIR_PICK_FILES, &files);
	for (size_t i = 0; i < files.n && !rc; i++) {
		if (suffix && !str_ends_with(files.items[i], suffix))
			continue;
		char *a = path_join(from, files.items[i]), *b = path_join(to, files.items[i]);
		rc = mkdir_p(to, 0755) || copy_file(a, b) ? -1 : 0;
		free(a);
		free(b);
	}
	sl_free(&files);
	return rc;
}

/* One candidate's records of a workspace-like folder `from` (build.json,
 * KAT logs, check records, candidate.conf) into the scratch workspace. */
static int copy_candidate(const char *build_from, const char *conf_from, const char *tmp,
			  const char *cand)
{
	char *b = path_joinf(tmp, "build/%s", cand), *kat_to = path_join(b, "kat");
	char *kat = path_join(build_from, "kat"), *check = path_join(build_from, "check");
	char *check_to = path_join(b, "check"), *c = path_joinf(tmp, "candidates/%s", cand);
	char *conf = path_join(conf_from, "candidate.conf"), *conf_to = path_join(c, "candidate.conf");
	int rc = copy_matching(build_from, b, "build.json") || copy_matching(kat, kat_to, ".log") ||
		 copy_matching(check, check_to, ".json") || mkdir_p(c, 0755) ||
		 (path_is_file(conf) && copy_file(conf, conf_to)) ? -1 : 0;
	free(conf_to);
	free(conf);
	free(c);
	free(check_to);
	free(check);
	free(kat);
	free(kat_to);
	free(b);
	return rc;
}

/* A scratch workspace in which version `number` of id is the current one:
 * the workspace's catalogs and every candidate's build records, id's
 * replaced by those kept with that version (package/versions.h), so that
 * a run measured before the next version was built reads as it was. */
static char *version_workspace(const char *ws, const char *id, int number, char **err)
{
	char tmpl[] = "/tmp/ngcc-perf-changes.XXXXXX";
	struct version_log log;
	struct strlist cands = STRLIST_INIT;
	char *cand_dir = path_joinf(ws, "candidates/%s", id), *builds = path_join(ws, "build");
	if (!mkdtemp(tmpl)) {
		*err = xasprintf("cannot create a scratch folder in /tmp: %s", strerror(errno));
		free(builds);
		free(cand_dir);
		return NULL;
	}
	char *tmp = xstrdup(tmpl), *vbuild = NULL, *vdir = NULL;
	int rc = copy_matching(ws, tmp, NULL);
	dir_list(builds, DIR_PICK_DIRS, &cands);
	for (size_t i = 0; i < cands.n && !rc; i++) {
		if (strcmp(cands.items[i], id)) {
			char *b = path_join(builds, cands.items[i]);
			char *c = path_joinf(ws, "candidates/%s", cands.items[i]);
			rc = copy_candidate(b, c, tmp, cands.items[i]);
			free(c);
			free(b);
		}
	}
	if (!rc && versions_load(cand_dir, &log, err) == 0) {
		vbuild = version_build_dir(ws, id, cand_dir, &log, number);
		vdir = version_dir(cand_dir, &log, number);
		if (!vbuild)
			*err = xasprintf("version %d of %s has no build records (it was not built "
					 "after it was added): its run cannot be read", number, id);
		else if (copy_candidate(vbuild, vdir, tmp, id))
			*err = xasprintf("cannot copy version %d's build records into %s: %s", number,
					 tmp, strerror(errno));
		versions_free(&log);
	} else if (!rc) {
		rc = -1;
	}
	if (rc && !*err)
		*err = xasprintf("cannot copy the workspace's records into %s: %s", tmp,
				 strerror(errno));
	if (rc || !vbuild || *err) {
		rm_rf(tmp);
		free(tmp);
		tmp = NULL;
	}
	sl_free(&cands);
	free(vbuild);
	free(vdir);
	free(builds);
	free(cand_dir);
	return tmp;
}

/* A measurement (dataset/compare_cmd.h) read with the -C workspace, or a
 * run of an older version with version_workspace(). */
static int load_measurement(const struct changes_request *r, const char *dir, int version,
			    int current, struct dataset *ds, char **err)
{
	char *campaign = path_join(dir, "campaign.json"), *ws = NULL;
	int rc = EXIT_OK;
	if (version != current && path_exists(campaign) &&
	    !(ws = version_workspace(r->workspace, r->id, version, err)))
		rc = EXIT_INPUT;
	if (!rc)
		rc = measurement_load(dir, ws ? ws : r->workspace, 0, r->system, ds, err);
	if (ws)
		rm_rf(ws);
	free(ws);
	free(campaign);
	return rc;
}

/* The timing section from --a and --b, or NULL (none given). */
static int timing(const struct changes_request *r, int from, int to, int current, char **md,
		  int *regr, char **err)
{
	struct dataset a, b;
	*md = NULL;
	if (!r->a && !r->b)
		return EXIT_OK;
	if (!r->a || !r->b) {
		*err = xstrdup("--a and --b go together: a measurement of each version");
		return EXIT_USAGE;
	}
	int rc = load_measurement(r, r->a, from, current, &a, err);
	if (rc)
		return rc;
	if ((rc = load_measurement(r, r->b, to, current, &b, err)) == 0) {
		*md = changes_compare_md(&a, &b, r->id, from, to, r->threshold, regr, err);
		rc = *md ? EXIT_OK : EXIT_INPUT;
		dataset_free(&b);
	}
	dataset_free(&a);
	return rc;
}

static int write_out(const char *path, const struct strbuf *md)
{
	if (!path) {
		fwrite(md->buf, 1, md->len, stdout);
		return EXIT_OK;
	}
	if (atomic_write(path, md->buf, md->len)) {
		ngcc_error("cannot write '%s': %s", path, strerror(errno));
		return EXIT_SYSTEM;
	}
	printf("changes: %s\n", path);
	return EXIT_OK;
}

int changes_make(const struct changes_request *r)
{
	struct version_log log;
	struct strbuf md = STRBUF_INIT;
	char *err = NULL, *timing_md = NULL;
	int regression = 0;
	int rc = changes_versions(r->workspace, r->id, &log, &err);
	int to = r->to, from = r->from, current = 0;
	if (!rc) {
		current = versions_current(&log)->number;
		to = to ? to : current;
		from = from ? from : to - 1;
		if (log.n < 2) {
			err = xasprintf("candidate '%s' has one package version: nothing to compare "
					"(add a newer package with `ngcc-perf add PACKAGE --id %s`)",
					r->id, r->id);
			rc = EXIT_USAGE;
		}
		versions_free(&log);
	}
	if (!rc)
		rc = timing(r, from, to, current, &timing_md, &regression, &err);
	if (!rc) {
		struct changes_input in = { r->workspace, r->id, from, to, timing_md, NULL };
		rc = changes_render(&in, &md, &err);
	}
	if (rc)
		ngcc_error("changes: %s", err ? err : "failed");
	else
		rc = write_out(r->output, &md);
	if (!rc && regression)
		rc = EXIT_FAILED;
	sb_free(&md);
	free(timing_md);
	free(err);
	return rc;
}
