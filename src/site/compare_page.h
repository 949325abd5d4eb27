/*
 * compare_page.h — a comparison of two datasets (compare/compare.h) as a
 * small site of its own, for `ngcc-perf compare --out DIR`.
 */
#ifndef NGCC_SITE_COMPARE_PAGE_H
#define NGCC_SITE_COMPARE_PAGE_H

#include "compare/compare.h"
#include "site/files.h"

/* index.html (title as its H1; the sections of cmp_markdown() with the
 * ratio chart inlined), style.css, compare.md, compare.csv,
 * compare-table<k>.csv per table, compare-ratio.svg and .csv (when a row
 * has a ratio), added to out.  0, or -1 with *err. */
int site_compare_files(const struct cmp_result *r, const char *title, struct site_files *out,
		       char **err);

#endif
