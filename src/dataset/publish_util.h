/*
 * publish_util.h — pieces shared by `publish` and `validate` (docs/method.md §2,
 * §9, §12): rendering every report page of a published dataset in memory
 * (docs/report-format.md §1), and writing and checking the size audit of each of
 * its systems.
 */
#ifndef NGCC_PUBLISH_UTIL_H
#define NGCC_PUBLISH_UTIL_H

#include <stddef.h>
#include <stdio.h>

#include "util/util.h"

/* One page rendered in memory; path relative to <dataset>/reports/. */
struct rendered_page {
	char *path;
	char *data;
	size_t len;
};

struct rendered_pages {
	struct rendered_page *v;
	size_t n;
};

/*
 * Render every Markdown page of the published dataset at dataset_dir from
 * the dataset alone (data/<SYS>/, the catalogs and report.json), in memory.
 * 0, or -1 with *err (malloc'd).
 */
int pages_render_dataset(const char *dataset_dir, struct rendered_pages *out, char **err);
void pages_free(struct rendered_pages *p);

/* Load <dataset>/data/<sys>/ with the dataset's catalogs and write its
 * size_audit.json there (publish; test fixtures).  0, or -1 with *err. */
int size_audit_write_published(const char *dataset_dir, const char *sys, char **err);

/*
 * Validation (docs/method.md §12 point 4): for each data/<SYS>/ of the published
 * dataset, recompute the audit from the dataset alone and compare it with
 * data/<SYS>/size_audit.json.  Prints one `PROBLEM data/<SYS>/size_audit.json:
 * <what>` line per problem to out and returns their number.
 */
size_t size_audit_check(const char *dataset_dir, FILE *out);

/* size_audit_check with the systems ids already loaded in ds (validate
 * loads a dataset once); a system not among them is loaded here. */
struct dataset;
size_t size_audit_check_loaded(const char *dataset_dir, const struct strlist *ids,
			       const struct dataset *ds, FILE *out);

#endif
