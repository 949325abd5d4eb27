/* svg.c — see svg.h. */
#include "charts/svg.h"
#include "charts/svg_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/util.h"

/* Okabe & Ito's eight colours without black (text is currentColor). */
const char *const svg_palette[SVG_PALETTE_N] = {
	"#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
};
#define REST_COLOUR "#999999"

/* Width of a text at the charts' 12 px (about 7 px a character): what the
 * layout reserves for labels, legends and names. */
static double text_width(const char *s)
{
	return 7.0 * strlen(s ? s : "");
}

#define FONT "font-family=\"system-ui,-apple-system,'Segoe UI',Roboto,sans-serif\""

/* A text element; anchor is start, middle or end. */
void text_at(struct strbuf *sb, double x, double y, const char *anchor,
		    const char *cls, const char *s)
{
	sb_addf(sb, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" class=\"%s\">", x, y,
		anchor, cls);
	html_escape(sb, s);
	sb_adds(sb, "</text>\n");
}

void open_svg(struct strbuf *sb, const struct svg_chart_text *t, double w, double h)
{
	sb_addf(sb, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"chart\" "
		"width=\"%.2f\" height=\"%.2f\" viewBox=\"0 0 %.2f %.2f\" role=\"img\" "
		FONT " font-size=\"12\" fill=\"currentColor\">\n", w, h, w, h);
	sb_adds(sb, "<title>");
	html_escape(sb, t->title);
	sb_adds(sb, "</title>\n<desc>");
	html_escape(sb, t->desc);
	sb_adds(sb, "</desc>\n");
	text_at(sb, 8, 18, "start", "ctitle", t->title);
}

/* The CSV link in the bottom-left corner, then the closing tag. */
char *close_svg(struct strbuf *sb, const struct svg_chart_text *t, double h, size_t *len)
{
	if (t->csv_href) {
		sb_adds(sb, "<a href=\"");
		html_escape(sb, t->csv_href);
		sb_adds(sb, "\" class=\"csvlink\">");
		text_at(sb, 8, h - 6, "start", "csv", "data (CSV)");
		sb_adds(sb, "</a>\n");
	}
	sb_adds(sb, "</svg>\n");
	if (len)
		*len = sb->len;
	return sb_detach(sb);
}

/* ---- log axis --------------------------------------------------------------- */

void svg_si_label(char *out, size_t size, int e)
{
	static const char prefix[] = "kMGTPE";
	if (e < 0) {
		snprintf(out, size, "%.*f", -e, pow(10, e));   /* 0.1, 0.01 */
		return;
	}
	int group = e / 3;
	if (group > 6)
		group = 6;
	const char *unit = group ? (char[]){ prefix[group - 1], '\0' } : "";
	long mant = 1;
	for (int i = 0; i < e - 3 * group; i++)
		mant *= 10;
	snprintf(out, size, "%ld%s", mant, unit);
}

struct log_axis {
	int lo, hi;          /* decades spanned */
	double p0, p1;       /* pixel range */
};

static void log_axis_fit(struct log_axis *a, double vmin, double vmax, double p0, double p1)
{
	if (!(vmin > 0))
		vmin = 1;
	if (!(vmax >= vmin))
		vmax = vmin;
	a->lo = (int)floor(log10(vmin));
	a->hi = (int)ceil(log10(vmax));
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->p0 = p0;
	a->p1 = p1;
}

static double log_pos(const struct log_axis *a, double v)
{
	double f = (log10(v) - a->lo) / (a->hi - a->lo);
	return a->p0 + f * (a->p1 - a->p0);
}

/* Grid lines and SI labels at each power of ten along x (vertical lines
 * from y0 to y1) or along y (horizontal lines from x0 to x1). */
static void log_grid(struct strbuf *sb, const struct log_axis *a, int vertical,
		     double from, double to)
{
	char lab[16];
	for (int e = a->lo; e <= a->hi; e++) {
		double p = log_pos(a, pow(10, e));
		svg_si_label(lab, sizeof lab, e);
		if (vertical) {
			sb_addf(sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
				"class=\"grid\" stroke=\"currentColor\" stroke-opacity=\"0.2\"/>\n",
				p, from, p, to);
			text_at(sb, p, to + 16, "middle", "tick", lab);
		} else {
			sb_addf(sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
				"class=\"grid\" stroke=\"currentColor\" stroke-opacity=\"0.2\"/>\n",
				from, p, to, p);
			text_at(sb, from - 6, p + 4, "end", "tick", lab);
		}
	}
}

/* The log-log charts' plot area, and their grids with both axis labels. */
#define LOGLOG_W 680.0
#define LOGLOG_H 460.0
#define LOGLOG_LEFT 70.0
#define LOGLOG_RIGHT 30.0
#define LOGLOG_TOP 52.0
#define LOGLOG_BOTTOM 60.0

/* Grids of both log axes over the plot [x0, x1] × [y0, y1] (y1 the
 * bottom), with both axis labels. */
static void loglog_axes_at(struct strbuf *sb, const struct svg_chart_text *t,
			   const struct log_axis *ax, const struct log_axis *ay, double x0,
			   double x1, double y0, double y1)
{
	log_grid(sb, ax, 1, y0, y1);
	log_grid(sb, ay, 0, x0, x1);
	text_at(sb, (x0 + x1) / 2, y1 + 34, "middle", "axis", t->xlabel);
	sb_addf(sb, "<text x=\"14\" y=\"%.2f\" text-anchor=\"middle\" class=\"axis\" "
		"transform=\"rotate(-90 14 %.2f)\">", (y0 + y1) / 2, (y0 + y1) / 2);
	html_escape(sb, t->ylabel);
	sb_adds(sb, "</text>\n");
}

static void loglog_axes(struct strbuf *sb, const struct svg_chart_text *t,
			const struct log_axis *ax, const struct log_axis *ay)
{
	loglog_axes_at(sb, t, ax, ay, LOGLOG_LEFT, LOGLOG_W - LOGLOG_RIGHT, LOGLOG_TOP,
		       LOGLOG_H - LOGLOG_BOTTOM);
}

static double legend_entry_width(const char *name)
{
	return 24 + text_width(name);
}

/* Legend entries from (x, y), wrapping to a new row 16 px lower before an
 * entry would pass max_x; returns the number of rows.  With sb NULL only
 * the rows are counted (colours may then be NULL). */
static int legend_wrapped(struct strbuf *sb, double x, double y, const char *const *names,
			  const char *const *colours, size_t n, double max_x)
{
	int rows = 1;
	double at = x;
	for (size_t i = 0; i < n; i++) {
		if (at > x && at + legend_entry_width(names[i]) - 10 > max_x) {
			rows++;
			y += 16;
			at = x;
		}
		if (sb) {
			sb_addf(sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"10\" height=\"10\" "
				"fill=\"%s\"/>\n", at, y - 9, colours[i]);
			text_at(sb, at + 14, y, "start", "legend", names[i]);
		}
		at += legend_entry_width(names[i]);
	}
	return rows;
}

void legend(struct strbuf *sb, double x, double y, const char *const *names,
		   const char *const *colours, size_t n)
{
	legend_wrapped(sb, x, y, names, colours, n, INFINITY);
}

/* ---- dot plot ------------------------------------------------------------------ */

#define ROW_H 22.0
#define TOP 52.0
#define LABEL_W 240.0      /* at least; longer labels widen the chart */
#define PLOT_W 496.0

/* The label column fits the longest label (about 7 px a character). */
static double label_width(const char *const *labels, size_t n, size_t stride)
{
	double w = LABEL_W;
	for (size_t i = 0; i < n; i++) {
		const char *l = *(const char *const *)((const char *)labels + i * stride);
		w = fmax(w, 16 + 7.0 * strlen(l ? l : ""));
	}
	return w;
}

char *svg_dotplot_log(const struct svg_chart_text *t, const struct svg_dot *d, size_t n,
		      const char *const *series, size_t n_series, size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	double vmin = INFINITY, vmax = 0;
	for (size_t i = 0; i < n; i++) {
		vmin = fmin(vmin, fmin(d[i].lo, d[i].value));
		vmax = fmax(vmax, fmax(d[i].hi, d[i].value));
	}
	double plot_h = n * ROW_H, h = TOP + plot_h + 58;
	double lw = n ? label_width(&d[0].label, n, sizeof *d) : LABEL_W;
	struct log_axis ax;
	log_axis_fit(&ax, vmin, vmax, lw, lw + PLOT_W);
	open_svg(&sb, t, lw + PLOT_W + 40, h);
	const char *colours[SVG_PALETTE_N];
	for (size_t i = 0; i < n_series && i < SVG_PALETTE_N; i++)
		colours[i] = svg_palette[i];
	legend(&sb, 8, 38, series, colours, n_series < SVG_PALETTE_N ? n_series : SVG_PALETTE_N);
	log_grid(&sb, &ax, 1, TOP, TOP + plot_h);
	text_at(&sb, (ax.p0 + ax.p1) / 2, TOP + plot_h + 34, "middle", "axis", t->xlabel);
	for (size_t i = 0; i < n; i++) {
		double y = TOP + i * ROW_H + ROW_H / 2;
		const char *col = svg_palette[d[i].series % SVG_PALETTE_N];
		text_at(&sb, lw - 8, y + 4, "end", "label", d[i].label);
		sb_adds(&sb, "<g class=\"mark\"><title>");
		html_escape(&sb, d[i].label);
		sb_addf(&sb, ": mean %.6g, min trial %.6g, max trial %.6g</title>",
			d[i].value, d[i].lo, d[i].hi);
		sb_addf(&sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
			"stroke-width=\"2\"/>", log_pos(&ax, d[i].lo), y, log_pos(&ax, d[i].hi), y, col);
		sb_addf(&sb, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"4.50\" fill=\"%s\"/></g>\n",
			log_pos(&ax, d[i].value), y, col);
	}
	return close_svg(&sb, t, h, len);
}

/* ---- stacked shares ------------------------------------------------------------ */

char *svg_stacked(const struct svg_chart_text *t, const struct svg_stack *s, size_t n,
		  const char *const names[3], size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	double plot_h = n * ROW_H, h = TOP + plot_h + 58;
	double x0 = n ? label_width(&s[0].label, n, sizeof *s) : LABEL_W, w = PLOT_W;
	const char *colours[3] = { svg_palette[0], svg_palette[1], REST_COLOUR };
	open_svg(&sb, t, x0 + w + 40, h);
	legend(&sb, 8, 38, names, colours, 3);
	for (int k = 0; k <= 4; k++) {
		char lab[8];
		double x = x0 + w * k / 4;
		snprintf(lab, sizeof lab, "%d%%", 25 * k);
		sb_addf(&sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" class=\"grid\" "
			"stroke=\"currentColor\" stroke-opacity=\"0.2\"/>\n", x, TOP, x, TOP + plot_h);
		text_at(&sb, x, TOP + plot_h + 16, "middle", "tick", lab);
	}
	text_at(&sb, x0 + w / 2, TOP + plot_h + 34, "middle", "axis", t->xlabel);
	for (size_t i = 0; i < n; i++) {
		double y = TOP + i * ROW_H + 3, x = x0;
		double part[3] = { fmax(0, s[i].part[0]), fmax(0, s[i].part[1]), 0 };
		part[2] = fmax(0, 1 - part[0] - part[1]);
		text_at(&sb, x0 - 8, y + 12, "end", "label", s[i].label);
		sb_adds(&sb, "<g class=\"mark\"><title>");
		html_escape(&sb, s[i].label);
		sb_addf(&sb, ": %s %.4g, %s %.4g, %s %.4g</title>", names[0], part[0],
			names[1], part[1], names[2], part[2]);
		for (int k = 0; k < 3; k++) {
			double pw = w * fmin(part[k], 1);
			sb_addf(&sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" "
				"fill=\"%s\"/>", x, y, pw, ROW_H - 6, colours[k]);
			x += pw;
		}
		sb_adds(&sb, "</g>\n");
	}
	return close_svg(&sb, t, h, len);
}

/* ---- grouped bars ------------------------------------------------------------- */

#define BAR_ROW_H 30.0

char *svg_grouped_bars(const struct svg_chart_text *t, const struct svg_bars *b, size_t n,
		       const char *const names[3], size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	double vmax = 0;
	for (size_t i = 0; i < n; i++)
		for (int k = 0; k < 3; k++)
			if (b[i].v[k] > vmax)
				vmax = b[i].v[k];
	/* The axis ends at the next power of two in KiB (at least 1 KiB), so
	 * small figures are not squeezed against a 256 KiB scale. */
	double top = 1024;
	while (top < vmax)
		top *= 2;
	double plot_h = n * BAR_ROW_H, h = TOP + plot_h + 58;
	double x0 = n ? label_width(&b[0].label, n, sizeof *b) : LABEL_W, w = PLOT_W;
	const char *colours[3] = { svg_palette[0], svg_palette[1], svg_palette[2] };
	open_svg(&sb, t, x0 + w + 40, h);
	legend(&sb, 8, 38, names, colours, 3);
	for (int k = 0; k <= 4; k++) {
		char lab[32];
		double x = x0 + w * k / 4;
		snprintf(lab, sizeof lab, "%.0f KiB", top * k / 4 / 1024);
		sb_addf(&sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" class=\"grid\" "
			"stroke=\"currentColor\" stroke-opacity=\"0.2\"/>\n", x, TOP, x, TOP + plot_h);
		text_at(&sb, x, TOP + plot_h + 16, "middle", "tick", lab);
	}
	text_at(&sb, x0 + w / 2, TOP + plot_h + 34, "middle", "axis", t->xlabel);
	for (size_t i = 0; i < n; i++) {
		double y = TOP + i * BAR_ROW_H + 3;
		text_at(&sb, x0 - 8, y + 15, "end", "label", b[i].label);
		sb_adds(&sb, "<g class=\"mark\"><title>");
		html_escape(&sb, b[i].label);
		sb_adds(&sb, ":");
		for (int k = 0; k < 3; k++)
			if (b[i].v[k] >= 0)
				sb_addf(&sb, " %s %.0f bytes;", names[k], b[i].v[k]);
		sb_adds(&sb, "</title>");
		for (int k = 0; k < 3; k++)
			if (b[i].v[k] >= 0)
				sb_addf(&sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"7.00\" "
					"fill=\"%s\"/>", x0, y + 8 * k, w * b[i].v[k] / top, colours[k]);
		sb_adds(&sb, "</g>\n");
	}
	return close_svg(&sb, t, h, len);
}

/* ---- point labels ------------------------------------------------------------ */

struct box {
	double x0, y0, x1, y1;
};

/* The boxes already taken (markers and placed labels) and the area labels
 * must stay in. */
struct label_space {
	struct box *b;
	size_t n;
	struct box area;
};

static void space_take(struct label_space *s, struct box b)
{
	s->b = xrealloc(s->b, (s->n + 1) * sizeof *s->b);
	s->b[s->n++] = b;
}

static int box_inside(const struct box *a, const struct box *area)
{
	return a->x0 >= area->x0 && a->x1 <= area->x1 && a->y0 >= area->y0 && a->y1 <= area->y1;
}

static int box_free(const struct label_space *s, const struct box *a)
{
	for (size_t i = 0; i < s->n; i++)
		if (a->x0 < s->b[i].x1 && s->b[i].x0 < a->x1 && a->y0 < s->b[i].y1 &&
		    s->b[i].y0 < a->y1)
			return 0;
	return 1;
}

struct placed {
	double x, y;            /* baseline point of the text */
	const char *anchor;
	int far;                /* moved off its marker: draw a leader line */
};

/* Where a marker's label goes: beside the marker, right then left, at
 * growing vertical offsets; the first place inside the area that covers
 * no marker and no other label, else the first inside the area (labels
 * may then overlap, but none leaves the chart). */
static struct placed place_label(struct label_space *s, double cx, double cy, const char *text)
{
	static const double dy[] = { -7, 9, -19, 21, -31, 33, -43, 45, -55, 57 };
	double tw = text_width(text);
	struct placed first = { 0, 0, NULL, 0 };
	for (size_t i = 0; i < sizeof dy / sizeof *dy; i++) {
		for (int side = 0; side < 2; side++) {
			double yc = cy + dy[i];
			struct box b = side ? (struct box){ cx - 8 - tw, yc - 8, cx - 8, yc + 5 }
					    : (struct box){ cx + 8, yc - 8, cx + 8 + tw, yc + 5 };
			if (!box_inside(&b, &s->area))
				continue;
			struct placed p = { side ? cx - 8 : cx + 8, yc + 4, side ? "end" : "start",
				i > 1 };
			if (!first.anchor)
				first = p;
			if (box_free(s, &b)) {
				space_take(s, b);
				return p;
			}
		}
	}
	if (first.anchor)
		return first;
	/* wider than the area: start at its left edge, on the marker's line */
	double y = fmin(fmax(cy + 4, s->area.y0 + 9), s->area.y1 - 4);
	return (struct placed){ s->area.x0, y, "start", 1 };
}

/* ---- lines -------------------------------------------------------------------- */

struct end_label {
	const char *name;
	double x, y;
	size_t line;
};

static int end_label_cmp(const void *a, const void *b)
{
	const struct end_label *x = a, *y = b;
	if (x->y != y->y)
		return x->y < y->y ? -1 : 1;
	return x->line < y->line ? -1 : x->line > y->line;
}

/* Each line's name beside its last point, moved apart vertically so that
 * no two overlap, and kept between top and bottom. */
static void end_labels(struct strbuf *sb, struct end_label *e, size_t n, double top, double bottom,
		       const char *const *colours)
{
	const double gap = 13;
	qsort(e, n, sizeof *e, end_label_cmp);
	for (size_t i = 0; i < n; i++)
		if (i && e[i].y < e[i - 1].y + gap)
			e[i].y = e[i - 1].y + gap;
	/* pushed below the bottom: shift the tail back up */
	for (size_t i = n; i-- > 0;) {
		double limit = i + 1 < n ? e[i + 1].y - gap : bottom;
		if (e[i].y > limit)
			e[i].y = limit;
	}
	for (size_t i = 0; i < n; i++) {
		if (e[i].y < top)
			e[i].y = top;
		sb_addf(sb, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"start\" class=\"plabel\" "
			"fill=\"%s\">", e[i].x, e[i].y + 4, colours[e[i].line]);
		html_escape(sb, e[i].name);
		sb_adds(sb, "</text>\n");
	}
}

char *svg_lines_loglog(const struct svg_chart_text *t, const struct svg_line *l, size_t n,
		       size_t *len)
{
	const double left = LOGLOG_LEFT, bottom = LOGLOG_BOTTOM;
	struct strbuf sb = STRBUF_INIT;
	double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0, name_w = 0;
	for (size_t i = 0; i < n; i++) {
		for (size_t k = 0; k < l[i].n; k++) {
			xmin = fmin(xmin, l[i].p[k].x), xmax = fmax(xmax, l[i].p[k].x);
			ymin = fmin(ymin, l[i].p[k].y), ymax = fmax(ymax, l[i].p[k].y);
		}
		name_w = fmax(name_w, text_width(l[i].name));
	}
	const char **names = xcalloc(n + 1, sizeof *names), **colours = xcalloc(n + 1, sizeof *colours);
	for (size_t i = 0; i < n; i++) {
		names[i] = l[i].name;
		colours[i] = svg_palette[i % SVG_PALETTE_N];
	}
	/* the plot keeps its size; the names at the line ends widen the chart
	 * and a legend of several rows makes it taller */
	double right = fmax(LOGLOG_RIGHT, 14 + name_w), plot_w = LOGLOG_W - LOGLOG_LEFT - LOGLOG_RIGHT;
	double w = left + plot_w + right;
	int rows = legend_wrapped(NULL, 8, 38, names, NULL, n, w - 8);
	double top = LOGLOG_TOP + 16.0 * (rows - 1), h = LOGLOG_H + 16.0 * (rows - 1);
	struct log_axis ax, ay;
	log_axis_fit(&ax, xmin, xmax, left, left + plot_w);
	log_axis_fit(&ay, ymin, ymax, h - bottom, top);
	open_svg(&sb, t, w, h);
	legend_wrapped(&sb, 8, 38, names, colours, n, w - 8);
	loglog_axes_at(&sb, t, &ax, &ay, left, left + plot_w, top, h - bottom);
	struct end_label *ends = xcalloc(n + 1, sizeof *ends);
	size_t n_ends = 0;
	for (size_t i = 0; i < n; i++) {
		sb_addf(&sb, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.50\"%s points=\"",
			colours[i], l[i].dashed ? " stroke-dasharray=\"5 3\"" : "");
		for (size_t k = 0; k < l[i].n; k++)
			sb_addf(&sb, "%s%.2f,%.2f", k ? " " : "", log_pos(&ax, l[i].p[k].x),
				log_pos(&ay, l[i].p[k].y));
		sb_adds(&sb, "\"/>\n");
		for (size_t k = 0; k < l[i].n; k++) {
			sb_adds(&sb, "<g class=\"mark\"><title>");
			html_escape(&sb, l[i].name);
			sb_addf(&sb, ": %.6g, %.6g</title><circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.50\" "
				"fill=\"%s\"/></g>\n", l[i].p[k].x, l[i].p[k].y,
				log_pos(&ax, l[i].p[k].x), log_pos(&ay, l[i].p[k].y), colours[i]);
		}
		if (l[i].n)
			ends[n_ends++] = (struct end_label){ l[i].name,
				log_pos(&ax, l[i].p[l[i].n - 1].x) + 7,
				log_pos(&ay, l[i].p[l[i].n - 1].y), i };
	}
	end_labels(&sb, ends, n_ends, top, h - bottom, colours);
	free(ends);
	free(names);
	free(colours);
	return close_svg(&sb, t, h, len);
}

/* ---- scatter ------------------------------------------------------------------- */

void svg_pareto(const struct svg_point *p, size_t n, int *front)
{
	for (size_t i = 0; i < n; i++) {
		front[i] = 1;
		for (size_t j = 0; j < n && front[i]; j++)
			if (j != i && p[j].series == p[i].series && p[j].x <= p[i].x &&
			    p[j].y <= p[i].y && (p[j].x < p[i].x || p[j].y < p[i].y))
				front[i] = 0;
	}
}

static int point_x_cmp(const void *a, const void *b)
{
	const struct svg_point *const *pa = a, *const *pb = b;
	if ((*pa)->x != (*pb)->x)
		return (*pa)->x < (*pb)->x ? -1 : 1;
	return (*pa)->y < (*pb)->y ? -1 : (*pa)->y > (*pb)->y;
}

/* The front of one series (or of all points, series < 0) as a dashed line. */
static void pareto_line(struct strbuf *sb, const struct svg_point *p, size_t n,
			const int *front, int series, const char *colour,
			const struct log_axis *ax, const struct log_axis *ay)
{
	const struct svg_point **f = xcalloc(n ? n : 1, sizeof *f);
	size_t nf = 0;
	for (size_t i = 0; i < n; i++)
		if (front[i] && (series < 0 || p[i].series == series))
			f[nf++] = &p[i];
	qsort(f, nf, sizeof *f, point_x_cmp);
	if (nf > 1) {
		sb_addf(sb, "<polyline class=\"front\" fill=\"none\" stroke=\"%s\" "
			"stroke-dasharray=\"4 3\" stroke-opacity=\"0.6\" points=\"", colour);
		for (size_t i = 0; i < nf; i++)
			sb_addf(sb, "%s%.2f,%.2f", i ? " " : "", log_pos(ax, f[i]->x),
				log_pos(ay, f[i]->y));
		sb_adds(sb, "\"/>\n");
	}
	free(f);
}

/* A marker: circle, square or triangle by shape; hollow draws the outline. */
static void marker(struct strbuf *sb, int shape, double cx, double cy, const char *colour,
		   int hollow)
{
	char paint[96];
	if (hollow)
		snprintf(paint, sizeof paint, "fill=\"none\" stroke=\"%s\" stroke-width=\"1.50\"", colour);
	else
		snprintf(paint, sizeof paint, "fill=\"%s\"", colour);
	switch (shape % 3) {
	case 0:
		sb_addf(sb, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"5.00\" %s/>", cx, cy, paint);
		break;
	case 1:
		sb_addf(sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"9.00\" height=\"9.00\" %s/>",
			cx - 4.5, cy - 4.5, paint);
		break;
	default:
		sb_addf(sb, "<polygon points=\"%.2f,%.2f %.2f,%.2f %.2f,%.2f\" %s/>", cx, cy - 5.5,
			cx + 5.5, cy + 4.5, cx - 5.5, cy + 4.5, paint);
		break;
	}
}

/* The legend of a scatter with several series: each series' marker and
 * name, then a hollow marker for "dominated" when a point is. */
static void series_legend(struct strbuf *sb, const char *const *series, size_t n_series,
			  int dominated)
{
	double x = 8, y = 38;
	for (size_t i = 0; i <= n_series; i++) {
		if (i == n_series && !dominated)
			break;
		const char *name = i < n_series ? series[i] : "dominated (hollow)";
		marker(sb, i < n_series ? (int)i : 0, x + 5, y - 4,
		       i < n_series ? svg_palette[i % SVG_PALETTE_N] : "currentColor", i == n_series);
		sb_adds(sb, "\n");
		text_at(sb, x + 14, y, "start", "legend", name);
		x += legend_entry_width(name);
	}
}

char *svg_scatter_loglog(const struct svg_chart_text *t, const struct svg_point *p,
			 size_t n, const char *const *series, size_t n_series, size_t *len)
{
	const double w = LOGLOG_W, h = LOGLOG_H, left = LOGLOG_LEFT, right = LOGLOG_RIGHT,
		     top = LOGLOG_TOP, bottom = LOGLOG_BOTTOM;
	int multi = series && n_series > 1;
	struct strbuf sb = STRBUF_INIT;
	double xmin = INFINITY, xmax = 0, ymin = INFINITY, ymax = 0;
	for (size_t i = 0; i < n; i++) {
		xmin = fmin(xmin, p[i].x), xmax = fmax(xmax, p[i].x);
		ymin = fmin(ymin, p[i].y), ymax = fmax(ymax, p[i].y);
	}
	struct log_axis ax, ay;
	log_axis_fit(&ax, xmin, xmax, left, w - right);
	log_axis_fit(&ay, ymin, ymax, h - bottom, top);
	int *front = xcalloc(n ? n : 1, sizeof *front);
	svg_pareto(p, n, front);
	open_svg(&sb, t, w, h);
	int dominated = 0;
	for (size_t i = 0; i < n; i++)
		dominated |= !front[i];
	if (multi) {
		series_legend(&sb, series, n_series, dominated);
	} else {
		const char *names[2] = { "Pareto front", "dominated" };
		const char *colours[2] = { svg_palette[0], svg_palette[1] };
		/* "dominated" only when some point is */
		legend(&sb, 8, 38, names, colours, dominated ? 2 : 1);
	}
	loglog_axes(&sb, t, &ax, &ay);
	if (multi)
		for (size_t s = 0; s < n_series; s++)
			pareto_line(&sb, p, n, front, (int)s, svg_palette[s % SVG_PALETTE_N], &ax, &ay);
	else
		pareto_line(&sb, p, n, front, -1, "currentColor", &ax, &ay);
	/* labels avoid every marker and each other, inside the plot */
	struct label_space space = { NULL, 0, { left + 2, top - 8, w - 4, h - bottom - 2 } };
	for (size_t i = 0; i < n; i++) {
		double cx = log_pos(&ax, p[i].x), cy = log_pos(&ay, p[i].y);
		space_take(&space, (struct box){ cx - 6, cy - 6, cx + 6, cy + 6 });
	}
	for (size_t i = 0; i < n; i++) {
		double cx = log_pos(&ax, p[i].x), cy = log_pos(&ay, p[i].y);
		int s = multi ? p[i].series : 0;
		const char *colour = multi ? svg_palette[s % SVG_PALETTE_N] : svg_palette[front[i] ? 0 : 1];
		sb_adds(&sb, "<g class=\"mark\"><title>");
		html_escape(&sb, p[i].label);
		if (multi) {
			sb_adds(&sb, " ");
			html_escape(&sb, series[s % n_series]);
		}
		sb_addf(&sb, ": %.6g bytes, %.6g cycles%s</title>", p[i].x, p[i].y,
			front[i] ? " (Pareto front)" : "");
		marker(&sb, multi ? s : 0, cx, cy, colour, multi && !front[i]);
		struct placed at = place_label(&space, cx, cy, p[i].label);
		if (at.far)
			sb_addf(&sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" "
				"stroke=\"currentColor\" stroke-opacity=\"0.4\"/>", cx, cy,
				at.x, at.y - 4);
		sb_addf(&sb, "<text x=\"%.2f\" y=\"%.2f\" text-anchor=\"%s\" class=\"plabel\">",
			at.x, at.y, at.anchor);
		html_escape(&sb, p[i].label);
		sb_adds(&sb, "</text></g>\n");
	}
	free(space.b);
	free(front);
	return close_svg(&sb, t, h, len);
}
