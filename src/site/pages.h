/*
 * pages.h — the Markdown pages only the site has (docs/report-format.md §10.3):
 * the equal-security pages, each with its charts, and the implementation
 * variants' pages.  (The comparison page of
 * two or more systems is a report page: report/pages.h, page_compare.)
 */
#ifndef NGCC_SITE_PAGES_H
#define NGCC_SITE_PAGES_H

#include <stddef.h>

#include "charts/charts.h"
#include "model/dataset.h"
#include "site/files.h"

/* <SYS>/equal-security-<bits>.md and its sorted copies, for each target of
 * security_targets.csv with eligible rows; their charts join charts. */
void site_equal_security_pages(const struct dataset *ds, struct site_files *md,
			       struct site_charts *charts);

/* <SYS>/variants.md (every timed build) and variants-<variant>.md (one
 * variant's builds), when a variant other than the reference was timed
 * (variant_pages.c). */
void site_variant_pages(const struct dataset *ds, struct site_files *md);
/* "variants.md" (v NULL: all builds) or "variants-<variant>.md". */
char *site_variant_page_name(const struct ds_variant *v);

#endif
