/*
 * svg_int.h — the pieces of svg.c that the other chart drawers of charts/
 * (svg_box.c) share, so every chart opens, labels and closes the same way.
 * Not for use outside charts/.
 */
#ifndef NGCC_CHARTS_SVG_INT_H
#define NGCC_CHARTS_SVG_INT_H

#include <stddef.h>

#include "util/util.h"

struct svg_chart_text;   /* charts/svg.h (not included: svg.c includes this) */

/* A text element; anchor is start, middle or end. */
void text_at(struct strbuf *sb, double x, double y, const char *anchor, const char *cls,
	     const char *s);
/* The <svg> element with its <title>, <desc> and the title text. */
void open_svg(struct strbuf *sb, const struct svg_chart_text *t, double w, double h);
/* The CSV link in the bottom-left corner, then the closing tag; the
 * chart's bytes (*len set when len is not NULL). */
char *close_svg(struct strbuf *sb, const struct svg_chart_text *t, double h, size_t *len);
/* Legend entries in one row from (x, y). */
void legend(struct strbuf *sb, double x, double y, const char *const *names,
	    const char *const *colours, size_t n);

#endif
