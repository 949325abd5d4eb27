/*
 * site.h — the static HTML site of docs/report-format.md §10–§11, built in memory
 * from the Markdown pages of `report` and the loaded datasets, then written
 * out.  Output is a pure function of the inputs: no clock, no environment,
 * no random ids, so two builds are byte-identical.
 *
 * A site is a list of files (site/files.h):
 *  - every Markdown page converted to HTML and wrapped in one template;
 *  - the per-category pages of each summary, the equal-security pages and,
 *    with two or more systems, the comparison page (only when they have
 *    data);
 *  - `<page>-table<k>.csv` for every table, `style.css`, the charts
 *    `<SYS>/charts/<name>.svg` with the CSV each was drawn from;
 *  - `data/<SYS>/`: the evidence tree, summary.csv, profiles.csv,
 *    sizes.csv, dataset.json, schema/ and SHA256SUMS.
 */
#ifndef NGCC_SITE_SITE_H
#define NGCC_SITE_SITE_H

#include <stddef.h>

#include "charts/charts.h"
#include "model/dataset.h"
#include "site/css.h"
#include "site/data.h"
#include "site/files.h"
#include "site/pages.h"
#include "util/util.h"

struct site_input {
	struct site_system *sys;   /* registry order */
	size_t n_sys;
	const struct site_files *markdown;   /* the report's Markdown tree */
	const char *tool_version;  /* e.g. "0.1.0" */
};

/* Build every file of the site into out.  0, or -1 with *err. */
int site_build(const struct site_input *in, struct site_files *out, char **err);

/* The whole site of n loaded systems (sys[i].ds == &ds[i], peers set
 * here): their Markdown tree rendered with every extension, then
 * site_build.  The one path behind `site` and validate's site check.
 * 0, or -1 with *err. */
int site_render(struct site_system *sys, struct dataset *ds, size_t n,
		struct site_files *out, char **err);
/* The site of the report's Markdown tree `pages`, already rendered from
 * the n systems (report_render_systems with extensions). */
struct report_out;
int site_render_pages(struct site_system *sys, size_t n, const struct report_out *pages,
		      struct site_files *out, char **err);
/* The site of a published dataset whose systems (ids, in
 * dataset_published_systems order) are loaded in ds: from pages when they
 * are rendered already (validate), else rendering them. */
int site_render_loaded(const char *dataset_dir, const struct strlist *ids, struct dataset *ds,
		       const struct report_out *pages, struct site_files *out, char **err);
/* site_render for the published dataset at dataset_dir (data/<SYS>/ and
 * the catalogs), exactly what `ngcc-perf site --dataset DIR` writes to
 * DIR/site.  Nothing in it depends on dataset_dir's spelling. */
int site_render_published(const char *dataset_dir, struct site_files *out, char **err);

/* `site`: render the site of dir — a published dataset, or a run
 * directory (it holds campaign.json) read with the workspace's build/ and
 * catalogs like `report --run` — write it to out and check its links.
 * out NULL: dir/site for a dataset, <workspace>/site for a run.  Prints
 * `site: N file(s) in OUT`; returns an ngcc_exit code: 0 written, 1 a
 * local link does not resolve, 2 a refused out, 3 missing or corrupt
 * data, 4 cannot write. */
struct site_request {
	const char *workspace;   /* absolute */
	const char *dir;         /* absolute */
	const char *out;         /* absolute, or NULL */
	const char *system;      /* --system for a run directory, or NULL */
};
int site_make(const struct site_request *r);

/* Extra Markdown pages: per-category tables split from a summary page, each
 * with the chart that follows its table there. */
void site_category_pages(const char *sys, const char *summary_md, struct site_files *out,
			 struct strlist *names);

#endif
