/*
 * pages.h — the Markdown pages only the site has (docs/report-format.md §10.3):
 * the equal-security pages and, with two or more systems, the comparison
 * page, each with its charts.
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
/* compare.md with two or more systems (sys[0] against each other one);
 * nothing when no instance was measured on two systems.  charts[i] gets
 * the ratio chart of sys[i]. */
void site_compare_page(const struct dataset *const *sys, size_t n, struct site_files *md,
		       struct site_charts *charts);

#endif
