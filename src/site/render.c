/* render.c — the Markdown tree plus site_build, for `site` and
 * `validate` alike (docs/report-format.md §10, §13.4), and the `site` command:
 * render, write, check the links. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "site/history.h"
#include "site/site.h"

#ifndef NGCC_VERSION
#define NGCC_VERSION "0.0.0"
#endif

/* site_render_pages with the change history's inputs (may be NULL). */
static int render_pages_with(struct site_system *sys, size_t n, const struct report_out *pages,
			     const struct site_files *hist_md, const struct site_files *hist_files,
			     struct site_files *out, char **err)
{
	struct site_files md = { NULL, 0 };
	*err = NULL;
	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < pages->n; k++) {
		char *copy = xmalloc(pages->f[k].len + 1);
		memcpy(copy, pages->f[k].data, pages->f[k].len);
		copy[pages->f[k].len] = '\0';
		site_files_add(&md, pages->f[k].path, copy, pages->f[k].len);
	}
	/* the change history's pages go with the report's (site/history.h) */
	for (size_t k = 0; hist_md && k < hist_md->n; k++)
		site_files_add(&md, hist_md->v[k].path,
			       xstrndup(hist_md->v[k].data, hist_md->v[k].len), hist_md->v[k].len);
	struct site_input in = { sys, n, &md, NGCC_VERSION };
	int rc = site_build(&in, out, err);
	for (size_t k = 0; !rc && hist_files && k < hist_files->n; k++)
		site_files_add(out, hist_files->v[k].path,
			       xstrndup(hist_files->v[k].data, hist_files->v[k].len),
			       hist_files->v[k].len);
	site_files_sort(out);
	site_files_free(&md);
	return rc;
}

int site_render_pages(struct site_system *sys, size_t n, const struct report_out *pages,
		      struct site_files *out, char **err)
{
	return render_pages_with(sys, n, pages, NULL, NULL, out, err);
}

int site_render(struct site_system *sys, struct dataset *ds, size_t n,
		struct site_files *out, char **err)
{
	struct report_out pages;
	*err = NULL;
	memset(out, 0, sizeof *out);
	if (report_render_systems(ds, n, 1, &pages)) {
		*err = xstrdup("no system to render");
		return -1;
	}
	int rc = site_render_pages(sys, n, &pages, out, err);
	report_out_free(&pages);
	return rc;
}

int site_render_loaded(const char *dataset_dir, const struct strlist *ids, struct dataset *ds,
		       const struct report_out *pages, struct site_files *out, char **err)
{
	struct site_system *sys = xcalloc(ids->n ? ids->n : 1, sizeof *sys);
	char **roots = xcalloc(ids->n ? ids->n : 1, sizeof *roots);
	for (size_t i = 0; i < ids->n; i++) {
		roots[i] = xasprintf("%s/data/%s", dataset_dir, ids->items[i]);
		sys[i] = (struct site_system){ &ds[i], roots[i], NULL };
	}
	struct site_files hist_md = { NULL, 0 }, hist_files = { NULL, 0 };
	struct report_out rendered = { NULL, 0 };
	int rc = site_history_inputs(dataset_dir, &hist_md, &hist_files, err);
	if (!rc && !pages) {
		if (report_render_systems(ds, ids->n, 1, &rendered)) {
			*err = xstrdup("no system to render");
			rc = -1;
		}
		pages = &rendered;
	}
	if (!rc)
		rc = render_pages_with(sys, ids->n, pages, &hist_md, &hist_files, out, err);
	report_out_free(&rendered);
	site_files_free(&hist_md);
	site_files_free(&hist_files);
	for (size_t i = 0; i < ids->n; i++)
		free(roots[i]);
	free(roots);
	free(sys);
	return rc;
}

int site_render_published(const char *dataset_dir, struct site_files *out, char **err)
{
	struct strlist ids = STRLIST_INIT;
	struct dataset *ds;
	*err = NULL;
	memset(out, 0, sizeof *out);
	if (dataset_load_all_published(dataset_dir, &ids, &ds, err)) {
		sl_free(&ids);
		return -1;
	}
	int rc = site_render_loaded(dataset_dir, &ids, ds, NULL, out, err);
	datasets_free(ds, ids.n);
	sl_free(&ids);
	return rc;
}

/* ---- `site` ---- */

/* A run directory: one system read with the workspace's build/ and
 * catalogs, like `report --run`. */
static int render_run(const char *dir, const char *system, const char *workspace,
		      struct site_files *site, char **err)
{
	struct dataset ds;
	memset(&ds, 0, sizeof ds);
	int rc = dataset_load_run(&ds, workspace, dir, system, err);
	if (!rc && !ds.n_cand) {
		/* nothing to show is an error, not an empty site */
		*err = xasprintf("%s: nothing to show: the run has no timing records or profiles "
				 "(run `ngcc-perf measure --run` on it first)", dir);
		rc = -1;
	} else if (!rc) {
		struct site_system sys = { &ds, dir, workspace };
		rc = site_render(&sys, &ds, 1, site, err);
	}
	dataset_free(&ds);
	return rc;
}

static int write_and_check(const struct site_files *site, const char *out)
{
	char *err = NULL;
	int rc = site_write(site, out, &err);
	if (rc) {
		ngcc_error("%s", err);
		free(err);
		return rc;
	}
	struct strlist problems = STRLIST_INIT;
	size_t bad = site_check_links(site, &problems);
	for (size_t i = 0; i < problems.n; i++)
		ngcc_error("dangling link in %s/%s", out, problems.items[i]);
	if (bad) {
		ngcc_error("%zu local link(s) do not resolve; the site in %s is incomplete",
			   bad, out);
		rc = EXIT_FAILED;
	}
	sl_free(&problems);
	printf("site: %zu file(s) in %s\n", site->n, out);
	return rc;
}

int site_make(const struct site_request *r)
{
	const char *dir = r->dir;
	char *camp = path_join(dir, "campaign.json");
	int is_run = path_is_file(camp);
	char *out = r->out ? xstrdup(r->out)
		: is_run ? path_join(r->workspace, "site") : path_join(dir, "site");
	struct site_files site = { NULL, 0 };
	char *err = NULL;
	int rc;
	if (!path_is_dir(dir)) {
		ngcc_error("%s: dataset folder not found; give --dataset a published dataset or "
			   "a run directory", dir);
		rc = EXIT_INPUT;
	} else if (is_run ? render_run(dir, r->system, r->workspace, &site, &err)
		   : site_render_published(dir, &site, &err)) {
		ngcc_error("%s; give --dataset the folder that 'ngcc-perf measure --run' or "
			   "'publish' wrote", err ? err : dir);
		rc = EXIT_INPUT;
	} else {
		rc = write_and_check(&site, out);
		if (rc == EXIT_OK)
			printf("site: index page %s/index.html (open it in a browser)\n", out);
	}
	site_files_free(&site);
	free(err);
	free(camp);
	free(out);
	return rc;
}
