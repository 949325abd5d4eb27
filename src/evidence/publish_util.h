/*
 * publish_util.h — pieces shared by `publish` and `validate` (method §2,
 * §11.1, §12): walking a dataset tree, finding absolute paths in evidence,
 * the known schema versions, and rendering every report page of a
 * published dataset in memory (report-format §1).
 */
#ifndef NGCC_PUBLISH_UTIL_H
#define NGCC_PUBLISH_UTIL_H

#include <jansson.h>
#include <stddef.h>

#include "util/util.h"

/* Every regular file below root/rel (rel may be ""), as paths relative to
 * root, in byte order.  Dot files are skipped. */
void tree_list_files(const char *root, const char *rel, struct strlist *out);
/* Copy the directory tree src to dst (created). 0, or -1 with errno. */
int tree_copy(const char *src, const char *dst);

/* "<stem>__<op>.json" → stem and op (malloc'd); 0 on success, -1 if the
 * name has another form (survey.json, …). */
int split_stem_op(const char *name, char **stem, char **op);

/*
 * First string value of j that is an absolute path (starts with '/') or
 * contains one of the needles (NULL-terminated list, may be NULL).  Returns
 * 1 and *where = "<json path>: <value>" (malloc'd, value shortened), or 0.
 */
int json_find_absolute(const json_t *j, const char *const *needles, char **where);

/*
 * Check "schema": "ngcc-perf/<kind>/<version>" against the kinds and
 * versions this tool reads.  0 if known; otherwise -1 and *why (malloc'd).
 */
int schema_known(const json_t *j, char **why);

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

/* Systems of a dataset: the folders of <dataset>/data/, byte order. */
void dataset_systems(const char *dataset_dir, struct strlist *out);

#endif
