/*
 * history_page.h — the change history of a candidate in a published
 * dataset (docs/usage.md, "Package versions"):
 *
 *   <dataset>/history/<ID>/versions.conf    the candidate's versions when
 *                                           last published (package/versions.h)
 *   <dataset>/history/<ID>/pages.conf       "<SYS> = <N>": the version whose
 *                                           pages reports/<SYS>/ shows
 *   <dataset>/history/<ID>/<N>/<SYS>/<ID>.md and charts/<ID>-*
 *                                           the pages of an older version N
 *                                           as they were published (archived)
 *   <dataset>/history/<ID>/changes-<A>-<B>.md  what changed from A to B
 *   <dataset>/history/<ID>/index.md         the change-history page
 *   <dataset>/history/<ID>/SHA256SUMS       every file above but itself
 *
 * This module reads such a folder and renders its Markdown: the history
 * page (for the dataset and, with other link prefixes, for the site) and
 * the archived copy of a page.  Pure text; `publish` writes the folder
 * (dataset/history.c), `site` and `validate` read it.
 */
#ifndef NGCC_REPORT_HISTORY_PAGE_H
#define NGCC_REPORT_HISTORY_PAGE_H

#include <stddef.h>

#include "package/versions.h"
#include "util/util.h"

#define HISTORY_DIR "history"
#define HISTORY_PAGES_CONF "pages.conf"
#define HISTORY_SUMS "SHA256SUMS"

struct history_view {
	char *cand;
	struct version_log log;
	struct strlist shown_sys;     /* pages.conf: system … */
	int *shown_version;           /* … and the version its pages show */
	struct strlist archived;      /* "<N>/<SYS>" folders, natural order */
	struct strlist changes;       /* changes-<A>-<B>.md, natural order */
};

/* Read <hist_dir> (history/<ID>).  0, or -1 with *err. */
int history_scan(const char *hist_dir, const char *cand, struct history_view *h, char **err);
void history_view_free(struct history_view *h);

/* pages.conf's version for sys, or 0. */
int history_shown(const struct history_view *h, const char *sys);

/* The history page.  current_prefix leads from history/<ID>/ to the
 * current pages' folders ("../../reports/" in a dataset, "../../" in the
 * site). */
char *history_index_md(const struct history_view *h, const char *current_prefix);

/* The archived copy of a candidate page: a first line saying what it is,
 * then the page with every link that leaves it (to pages of that
 * publication, which are not kept) made plain text; links to its own
 * charts/ and anchors stay. */
char *history_archive_page(const char *md, size_t len, const char *cand, int version,
			   const char *sys);

/* pages.conf text of the view's systems. */
char *history_pages_conf(const struct history_view *h);
/* Set (or add) sys's shown version. */
void history_set_shown(struct history_view *h, const char *sys, int version);
void history_unset_shown(struct history_view *h, const char *sys);

#endif
