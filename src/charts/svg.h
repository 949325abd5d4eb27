/*
 * svg.h — deterministic SVG charts (docs/report-format.md §10.4): coordinates with
 * `%.2f`, no timestamps or generated ids, a <title> and a <desc>, the
 * Okabe–Ito palette (safe for colour blindness), log axes labelled with SI
 * prefixes.  Text and axes use currentColor, so an inlined chart follows the
 * page's light or dark theme.
 *
 * Every data point is drawn as exactly one element with class "mark" (a
 * <g> when a point needs several shapes), so tests can count the points;
 * axes span every point, so none is ever left out.  Scatter points carry a
 * visible label (class "plabel") kept inside the viewBox.
 * `csv_href` (may be NULL) is the link to the CSV the chart was drawn from,
 * relative to where the SVG is shown.
 */
#ifndef NGCC_CHARTS_SVG_H
#define NGCC_CHARTS_SVG_H

#include <stddef.h>

#define SVG_PALETTE_N 7
extern const char *const svg_palette[SVG_PALETTE_N];

/* One row of a dot plot: a value with a whisker from lo to hi. */
struct svg_dot {
	const char *label;
	double value, lo, hi;   /* all > 0 (log axis) */
	int series;             /* colour index and legend entry */
};

/* One row of a stacked 0–100 % bar; parts are fractions (sum ≤ 1, the
 * remainder is drawn as the last part). */
struct svg_stack {
	const char *label;
	double part[2];
};

/* One row of grouped bars: up to three values (negative: not drawn). */
struct svg_bars {
	const char *label;
	double v[3];
};

struct svg_point {
	const char *label;
	double x, y;            /* > 0 (log-log) */
	int series;             /* scatter: which series (0 when there is one) */
};

struct svg_chart_text {
	const char *title, *desc, *xlabel, *ylabel, *csv_href;
};

/* Horizontal dot plot on a log x axis: one row per dot, whiskers lo–hi. */
char *svg_dotplot_log(const struct svg_chart_text *t, const struct svg_dot *d, size_t n,
		      const char *const *series, size_t n_series, size_t *len);
/* Horizontal stacked bars, 0–100 %: part[0], part[1], rest. */
char *svg_stacked(const struct svg_chart_text *t, const struct svg_stack *s, size_t n,
		  const char *const names[3], size_t *len);
/* Horizontal grouped bars on a linear axis from 0, values in bytes shown
 * as KiB; one mark per row. */
char *svg_grouped_bars(const struct svg_chart_text *t, const struct svg_bars *b, size_t n,
		       const char *const names[3], size_t *len);
/* One line of a line chart: points in x order. */
struct svg_line {
	const char *name;
	const struct svg_point *p;   /* labels unused */
	size_t n;
	int dashed;                  /* reference curve */
};

/* Log-log line chart: one polyline per line, one mark per point, each
 * line's name at its last point (nudged apart; the chart widens to fit). */
char *svg_lines_loglog(const struct svg_chart_text *t, const struct svg_line *l, size_t n,
		       size_t *len);
/* Log-log scatter, one marker per point labelled with its label (placed
 * so that labels do not overlap and stay inside the chart), axes spanning
 * every point.  The Pareto front (lower x and lower y are better) is drawn
 * as a line.  With one series (series NULL or n_series <= 1) front and
 * dominated points differ in colour, named in the legend; with several,
 * each series has its colour and marker shape, its own front line, and
 * its dominated points are drawn hollow. */
char *svg_scatter_loglog(const struct svg_chart_text *t, const struct svg_point *p,
			 size_t n, const char *const *series, size_t n_series, size_t *len);

/* SI label of a power of ten: 1, 10, 100, 1k, …, 100G, 1T. */
void svg_si_label(char *out, size_t size, int exp10);
/* Pareto flags (1 = on the front) for minimising both x and y. */
void svg_pareto(const struct svg_point *p, size_t n, int *front);

#endif
