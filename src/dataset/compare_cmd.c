/*
 * compare_cmd.c — `ngcc-perf compare` (compare_cmd.h): each side loaded as
 * a run directory or a published dataset, the comparison computed once, and
 * its forms printed and written.
 */
#include "dataset/compare_cmd.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/compare_page.h"
#include "util/atomic.h"
#include "util/untrusted.h"

/* The workspace of a run directory: the closest folder above it holding
 * build/ (ws/runs/NAME), else the -C workspace. */
static char *run_workspace(const char *run, const char *workspace)
{
	char *dir = path_dirname(run);
	while (strcmp(dir, "/") && strcmp(dir, ".")) {
		char *build = path_join(dir, "build");
		int found = path_is_dir(build);
		free(build);
		if (found)
			return dir;
		char *up = path_dirname(dir);
		free(dir);
		dir = up;
	}
	free(dir);
	return xstrdup(workspace);
}

/* The system of a published dataset: the one given, else its only one. */
static int published_system(const char *dir, const char *given, char **system, char **err)
{
	if (given) {
		*system = xstrdup(given);
		return 0;
	}
	struct strlist ids = STRLIST_INIT;
	dataset_published_systems(dir, &ids);
	if (ids.n == 1) {
		*system = xstrdup(ids.items[0]);
		sl_free(&ids);
		return 0;
	}
	struct strbuf sb = STRBUF_INIT;
	for (size_t i = 0; i < ids.n; i++)
		sb_addf(&sb, "%s%s", i ? ", " : "", ids.items[i]);
	*err = ids.n ? xasprintf("%s holds %zu systems (%s): name one with --system ID (or "
				 "--system-a/--system-b)", dir, ids.n, sb.buf)
		     : xasprintf("%s/data holds no system: not a published dataset", dir);
	int rc = ids.n ? EXIT_USAGE : EXIT_INPUT;
	sb_free(&sb);
	sl_free(&ids);
	return rc;
}

int measurement_load(const char *dir, const char *workspace, int nearest, const char *system,
		     struct dataset *ds, char **err)
{
	char *campaign = path_join(dir, "campaign.json"), *data = path_join(dir, "data");
	int rc = 0;
	memset(ds, 0, sizeof *ds);
	if (path_exists(campaign)) {
		char *ws = nearest ? run_workspace(dir, workspace) : xstrdup(workspace);
		if (dataset_load_run(ds, ws, dir, system, err))
			rc = EXIT_INPUT;
		free(ws);
	} else if (path_is_dir(data)) {
		char *sys = NULL;
		rc = published_system(dir, system, &sys, err);
		if (!rc && dataset_load_published(ds, dir, sys, err))
			rc = EXIT_INPUT;
		free(sys);
	} else {
		*err = xasprintf("%s is neither a run directory (no campaign.json) nor a published "
				 "dataset (no data/)", dir);
		rc = EXIT_INPUT;
	}
	free(campaign);
	free(data);
	return rc;
}

static int load_side(const struct compare_request *r, const char *dir, const char *system,
		     struct dataset *ds)
{
	char *err = NULL;
	int rc = measurement_load(dir, r->workspace, 1, system, ds, &err);
	if (rc)
		ngcc_error("compare: %s", err ? err : "cannot load");
	free(err);
	return rc;
}

static int write_text(const char *path, const char *text)
{
	if (atomic_write(path, text, strlen(text))) {
		ngcc_error("compare: cannot write %s: %s", path, io_strerror(errno));
		return EXIT_SYSTEM;
	}
	return 0;
}

static int write_site(const struct compare_request *r, const struct cmp_result *res)
{
	struct site_files f = { NULL, 0 };
	char *err = NULL;
	char *title = xasprintf("Comparison: %s against %s", r->opts.name_b, r->opts.name_a);
	int rc = 0;
	if (site_compare_files(res, title, &f, &err)) {
		rc = EXIT_SYSTEM;
	} else {
		struct strlist problems = STRLIST_INIT;
		if (site_check_links(&f, &problems)) {
			err = xasprintf("a link of the page does not resolve: %s", problems.items[0]);
			rc = EXIT_SYSTEM;
		} else if ((rc = site_write(&f, r->out, &err)) == 0) {
			printf("compare: %zu file(s) in %s (open index.html)\n", f.n, r->out);
		}
		sl_free(&problems);
	}
	if (rc)
		ngcc_error("compare: %s", err ? err : "cannot write the page");
	free(err);
	free(title);
	site_files_free(&f);
	return rc;
}

static int write_outputs(const struct compare_request *r, const struct cmp_result *res)
{
	int rc = 0;
	if (r->markdown) {
		char *body = cmp_markdown(res, 2, NULL);
		char *md = xasprintf("# Comparison: %s against %s\n\n%s", r->opts.name_b,
				     r->opts.name_a, body);
		rc = write_text(r->markdown, md);
		free(md);
		free(body);
	}
	if (!rc && r->csv) {
		char *csv = cmp_csv(res);
		rc = write_text(r->csv, csv);
		free(csv);
	}
	if (!rc && r->out)
		rc = write_site(r, res);
	return rc;
}

int compare_make(const struct compare_request *r)
{
	struct dataset a, b;
	int rc = load_side(r, r->a, r->system_a, &a);
	if (rc)
		return rc;
	if ((rc = load_side(r, r->b, r->system_b, &b))) {
		dataset_free(&a);
		return rc;
	}
	struct cmp_result res;
	char *err = NULL;
	if (cmp_compute(&a, &b, &r->opts, &res, &err)) {
		ngcc_error("compare: %s", err);
		free(err);
		rc = EXIT_USAGE;
	} else {
		char *text = cmp_text(&res);
		fputs(text, stdout);
		free(text);
		rc = write_outputs(r, &res);
		if (!rc && !res.n_rows) {
			ngcc_error("compare: no instance and operation is measured on both sides "
				   "(%zu only in A, %zu only in B): nothing to compare",
				   res.only_a.n, res.only_b.n);
			rc = EXIT_INPUT;
		}
		if (!rc)
			rc = cmp_exit_status(&res) ? EXIT_FAILED : EXIT_OK;
		cmp_free(&res);
	}
	dataset_free(&a);
	dataset_free(&b);
	return rc;
}
