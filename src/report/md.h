/*
 * md.h — Markdown page builder for the report (docs/report-format.md §2): blocks
 * separated by one blank line, GFM pipe tables with `|---|` delimiters,
 * cells with `|` escaped as `\|`, LF line ends and exactly one LF at the
 * end of the page.  Nothing here formats numbers (that is format.h).
 */
#ifndef NGCC_REPORT_MD_H
#define NGCC_REPORT_MD_H

#include <stddef.h>

#include "util/util.h"

struct md_page {
	struct strbuf sb;
	size_t ncols;   /* columns of the open table, 0 outside a table */
};
#define MD_PAGE_INIT { STRBUF_INIT, 0 }

/* One block (paragraph, heading, list line group) of text; a blank line
 * separates it from the previous block.  Trailing blanks are cut. */
void md_block(struct md_page *p, const char *text);
void md_blockf(struct md_page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start an empty block; md_linef() then adds its lines. */
void md_begin(struct md_page *p);
/* A line inside the current block (bullets of one list). */
void md_linef(struct md_page *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Start a table block: header row and delimiter. */
void md_table(struct md_page *p, const char *const *headers, size_t n);
/* A row of the open table; exactly as many cells as headers. */
void md_row(struct md_page *p, const char *const *cells);
/* The page text (LF-terminated once); resets p.  Caller frees. */
char *md_finish(struct md_page *p, size_t *len);

/* `s` as a code span (longer fence when s holds backticks). Caller frees. */
char *md_code(const char *s);
/* [text](target). Caller frees. */
char *md_link(const char *text, const char *target);

#endif
