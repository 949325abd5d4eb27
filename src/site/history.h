/*
 * history.h — the site's change-history pages, from a published dataset's
 * history/ folder (report/history_page.h): history.md listing the
 * candidates with more than one package version, each one's history page
 * history/<ID>/index.md (its links made to the site's pages), its
 * what-changed pages and the archived pages of older versions, all
 * converted like the report's pages; the archived charts copied as they
 * are.  A candidate with one version has no page.
 */
#ifndef NGCC_SITE_HISTORY_H
#define NGCC_SITE_HISTORY_H

#include "site/files.h"

/* Append the Markdown pages to md and the other files to files; nothing
 * when the dataset has no history/.  0, or -1 with *err. */
int site_history_inputs(const char *dataset_dir, struct site_files *md, struct site_files *files,
			char **err);

#endif
