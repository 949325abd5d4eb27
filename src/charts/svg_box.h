/*
 * svg_box.h — a horizontal box plot on a logarithmic axis (docs/report-format.md
 * §10.4), for distributions of per-call times (the sampling pass, R11): per
 * row a whisker from P5 to P95, a box from P25 to P75, a line at the median
 * and a diamond at a reference value (the timing record's mean).  Same
 * conventions as svg.h: `%.2f` coordinates, one "mark" element per row.
 */
#ifndef NGCC_CHARTS_SVG_BOX_H
#define NGCC_CHARTS_SVG_BOX_H

#include <stddef.h>

#include "charts/svg.h"

struct svg_box {
	const char *label;
	double p5, p25, median, p75, p95;   /* > 0 */
	double mean;                        /* ≤ 0: not drawn */
};

char *svg_boxplot_log(const struct svg_chart_text *t, const struct svg_box *b, size_t n,
		      size_t *len);

#endif
