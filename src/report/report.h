/*
 * report.h — render every Markdown page of a tree into memory
 * (docs/report-format.md §1): per system <SYS>/index.md, <SYS>/method.md and
 * <SYS>/<cand>.md; once for the tree index.md, symmetric-survey.md and
 * size-audit.md.  A pure function of the loaded data: no clock, no
 * environment, no absolute path, so `validate` can regenerate the pages
 * and compare them byte for byte.
 */
#ifndef NGCC_REPORT_REPORT_H
#define NGCC_REPORT_REPORT_H

#include <stddef.h>

#include "model/dataset.h"

struct report_file {
	char *path;     /* relative to the output root: index.md, x86_1/kem-12.md */
	char *data;
	size_t len;
};

struct report_out {
	struct report_file *f;
	size_t n;
};

/* One system's tree (report --run).  extensions: 1 normally; 0 renders
 * sections 1–7 plus A.0 only (isolation, docs/report-format.md §13.5).  0 on
 * success. */
int report_render(const struct dataset *ds, int extensions, struct report_out *out);
/* Several systems in one tree (publish, validate, site): the shared pages
 * come from ds[0]'s catalogs and list every system; pages link across
 * systems.  Sets each dataset's peers. */
int report_render_systems(struct dataset *ds, size_t n, int extensions, struct report_out *out);
/* Load every data/<SYS>/ of a published dataset (systems.csv order, then
 * by name) and render the tree.  0, or -1 with *err (malloc'd). */
int report_render_published(const char *dataset_dir, struct report_out *out, char **err);
void report_out_free(struct report_out *out);

struct site_charts;
/* The summary page md with each of its charts (charts/charts.h:
 * site_summary_charts) as an image paragraph right after the table of the
 * section it illustrates; a new string. */
char *report_summary_with_charts(const char *md, const struct site_charts *ch);

#endif
