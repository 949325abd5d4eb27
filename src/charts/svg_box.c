/* svg_box.c — see svg_box.h. */
#include "charts/svg_box.h"
#include "charts/svg_int.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define BOX_ROW_H 26.0
#define BOX_TOP 56.0
#define BOX_PLOT_W 496.0
#define BOX_LABEL_W 200.0

struct box_axis {
	int lo, hi;          /* decades spanned */
	double p0, p1;
};

static double box_pos(const struct box_axis *a, double v)
{
	return a->p0 + (log10(v) - a->lo) / (a->hi - a->lo) * (a->p1 - a->p0);
}

/* Decades spanning every value of every row (values ≤ 0 left out). */
static void box_axis_fit(struct box_axis *a, const struct svg_box *b, size_t n, double p0)
{
	double vmin = INFINITY, vmax = 0;
	for (size_t i = 0; i < n; i++) {
		double v[6] = { b[i].p5, b[i].p25, b[i].median, b[i].p75, b[i].p95, b[i].mean };
		for (int k = 0; k < 6; k++)
			if (v[k] > 0) {
				vmin = fmin(vmin, v[k]);
				vmax = fmax(vmax, v[k]);
			}
	}
	if (!(vmin > 0 && vmax >= vmin))
		vmin = vmax = 1;
	a->lo = (int)floor(log10(vmin));
	a->hi = (int)ceil(log10(vmax));
	if (a->hi <= a->lo)
		a->hi = a->lo + 1;
	a->p0 = p0;
	a->p1 = p0 + BOX_PLOT_W;
}

/* Seconds with an SI prefix at each power of ten: 1 µs, 10 µs, … */
static void seconds_label(char *out, size_t size, int e)
{
	static const char *const unit[] = { "ns", "\xc2\xb5s", "ms", "s" };
	int g = (int)floor((e + 9) / 3.0);
	if (g < 0)
		g = 0;
	if (g > 3)
		g = 3;
	snprintf(out, size, "%g %s", pow(10, e - (3 * g - 9)), unit[g]);
}

static void box_grid(struct strbuf *sb, const struct box_axis *a, double top, double bottom)
{
	char lab[32];
	for (int e = a->lo; e <= a->hi; e++) {
		double x = box_pos(a, pow(10, e));
		seconds_label(lab, sizeof lab, e);
		sb_addf(sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" class=\"grid\" "
			"stroke=\"currentColor\" stroke-opacity=\"0.2\"/>\n", x, top, x, bottom);
		text_at(sb, x, bottom + 16, "middle", "tick", lab);
	}
}

static void box_row(struct strbuf *sb, const struct box_axis *a, const struct svg_box *b,
		    double y, double label_x)
{
	const char *col = svg_palette[0];
	double h = BOX_ROW_H - 10;
	text_at(sb, label_x, y + 4, "end", "label", b->label);
	sb_adds(sb, "<g class=\"mark\"><title>");
	html_escape(sb, b->label);
	sb_addf(sb, ": P5 %.6g s, P25 %.6g s, median %.6g s, P75 %.6g s, P95 %.6g s", b->p5,
		b->p25, b->median, b->p75, b->p95);
	if (b->mean > 0)
		sb_addf(sb, "; mean of the timed calls %.6g s", b->mean);
	sb_adds(sb, "</title>");
	sb_addf(sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"1.5\"/>", box_pos(a, b->p5), y, box_pos(a, b->p95), y, col);
	double x25 = box_pos(a, b->p25), x75 = box_pos(a, b->p75);
	sb_addf(sb, "<rect x=\"%.2f\" y=\"%.2f\" width=\"%.2f\" height=\"%.2f\" fill=\"%s\" "
		"fill-opacity=\"0.35\" stroke=\"%s\"/>", x25, y - h / 2, fmax(x75 - x25, 1), h, col,
		col);
	double xm = box_pos(a, b->median);
	sb_addf(sb, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" stroke=\"%s\" "
		"stroke-width=\"2.5\"/>", xm, y - h / 2, xm, y + h / 2, col);
	if (b->mean > 0) {
		double x = box_pos(a, b->mean);
		sb_addf(sb, "<path d=\"M%.2f %.2fL%.2f %.2fL%.2f %.2fL%.2f %.2fZ\" fill=\"%s\"/>",
			x, y - 5, x + 5, y, x, y + 5, x - 5, y, svg_palette[1]);
	}
	sb_adds(sb, "</g>\n");
}

char *svg_boxplot_log(const struct svg_chart_text *t, const struct svg_box *b, size_t n,
		      size_t *len)
{
	struct strbuf sb = STRBUF_INIT;
	double lw = BOX_LABEL_W;
	for (size_t i = 0; i < n; i++)
		lw = fmax(lw, 16 + 7.0 * strlen(b[i].label ? b[i].label : ""));
	double plot_h = n * BOX_ROW_H, h = BOX_TOP + plot_h + 58;
	struct box_axis a;
	box_axis_fit(&a, b, n, lw);
	open_svg(&sb, t, lw + BOX_PLOT_W + 40, h);
	static const char *const names[2] = { "P5\xe2\x80\x93P95, P25\xe2\x80\x93P75, median",
		"mean of the timed calls" };
	const char *colours[2] = { svg_palette[0], svg_palette[1] };
	legend(&sb, 8, 40, names, colours, 2);
	box_grid(&sb, &a, BOX_TOP, BOX_TOP + plot_h);
	text_at(&sb, (a.p0 + a.p1) / 2, BOX_TOP + plot_h + 34, "middle", "axis", t->xlabel);
	for (size_t i = 0; i < n; i++)
		box_row(&sb, &a, &b[i], BOX_TOP + i * BOX_ROW_H + BOX_ROW_H / 2, lw - 8);
	return close_svg(&sb, t, h, len);
}
