/* render.c — the Markdown tree plus site_build, for `site` and
 * `validate` alike (report-format §10, §13.4). */
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "site/site.h"

#ifndef NGCC_VERSION
#define NGCC_VERSION "0.0.0"
#endif

int site_render(struct site_system *sys, struct dataset *ds, size_t n,
		struct site_files *out, char **err)
{
	struct report_out pages;
	struct site_files md = { NULL, 0 };
	*err = NULL;
	memset(out, 0, sizeof *out);
	if (report_render_systems(ds, n, 1, &pages)) {
		*err = xstrdup("no system to render");
		return -1;
	}
	for (size_t k = 0; k < pages.n; k++) {
		site_files_add(&md, pages.f[k].path, pages.f[k].data, pages.f[k].len);
		pages.f[k].data = NULL;
	}
	report_out_free(&pages);
	struct site_input in = { sys, n, &md, NGCC_VERSION };
	int rc = site_build(&in, out, err);
	site_files_free(&md);
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
	struct site_system *sys = xcalloc(ids.n, sizeof *sys);
	char **roots = xcalloc(ids.n, sizeof *roots);
	for (size_t i = 0; i < ids.n; i++) {
		roots[i] = xasprintf("%s/data/%s", dataset_dir, ids.items[i]);
		sys[i] = (struct site_system){ &ds[i], roots[i], NULL };
	}
	int rc = site_render(sys, ds, ids.n, out, err);
	for (size_t i = 0; i < ids.n; i++)
		free(roots[i]);
	free(roots);
	free(sys);
	datasets_free(ds, ids.n);
	sl_free(&ids);
	return rc;
}
