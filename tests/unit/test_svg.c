/*
 * test_svg.c — the chart primitives (docs/report-format.md §10.4): SI labels of
 * the log axes, one mark per data point, title and desc present, labels
 * escaped, positions on the log axis, the Pareto front, and byte-identical
 * output for the same input; every point drawn inside the viewBox with
 * its label (scatter: a visible label per point; lines: a name per line). 
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "charts/svg.h"
#include "util/util.h"

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *p = hay; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}

static void si_labels(void **state)
{
	(void)state;
	static const struct { int e; const char *s; } cases[] = {
		{ 0, "1" }, { 1, "10" }, { 2, "100" }, { 3, "1k" }, { 4, "10k" },
		{ 5, "100k" }, { 6, "1M" }, { 9, "1G" }, { 11, "100G" }, { 12, "1T" },
		{ -1, "0.1" }, { -2, "0.01" },
	};
	char buf[16];
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		svg_si_label(buf, sizeof buf, cases[i].e);
		assert_string_equal(buf, cases[i].s);
	}
}

static const struct svg_chart_text text = {
	"kem-1: mean cycles", "Mean cycles <per> call & whiskers", "cycles", NULL, "c.csv",
};

static void dotplot(void **state)
{
	(void)state;
	const char *series[] = { "keygen", "enc" };
	struct svg_dot d[] = {
		{ "A-128 keygen", 1000, 900, 1100, 0 },
		{ "A-128 enc", 100000, 99000, 101000, 1 },
		{ "A<&>", 5e6, 4e6, 6e6, 0 },
	};
	size_t len;
	char *a = svg_dotplot_log(&text, d, 3, series, 2, &len);
	char *b = svg_dotplot_log(&text, d, 3, series, 2, NULL);
	assert_string_equal(a, b);
	assert_int_equal(len, strlen(a));
	assert_int_equal(count(a, "class=\"mark\""), 3);
	assert_non_null(strstr(a, "<title>kem-1: mean cycles</title>"));
	assert_non_null(strstr(a, "<desc>Mean cycles &lt;per&gt; call &amp; whiskers</desc>"));
	assert_non_null(strstr(a, "A&lt;&amp;&gt;"));
	assert_non_null(strstr(a, "href=\"c.csv\""));
	assert_null(strstr(a, "nan"));
	/* axis 100..10M (decades 2..7) over x 240..736: 1e5 sits at 3/5 */
	assert_non_null(strstr(a, ">100</text>"));
	assert_non_null(strstr(a, ">10M</text>"));
	char want[64];
	snprintf(want, sizeof want, "cx=\"%.2f\"", 240 + (736.0 - 240) * 3 / 5);
	assert_non_null(strstr(a, want));
	free(a);
	free(b);
}

static void stacked(void **state)
{
	(void)state;
	const char *names[3] = { "hash", "DRNG", "rest" };
	struct svg_stack s[] = { { "x keygen", { 0.5, 0.25 } }, { "x enc", { 0, 0 } } };
	char *a = svg_stacked(&text, s, 2, names, NULL);
	assert_int_equal(count(a, "class=\"mark\""), 2);
	assert_int_equal(count(a, "<rect x="), 2 * 3 + 3);   /* segments + legend */
	/* plot 240..736 is 496 wide: the first row is 248 + 124 + 124 */
	assert_non_null(strstr(a, "width=\"248.00\""));
	assert_non_null(strstr(a, "width=\"124.00\""));
	assert_non_null(strstr(a, "width=\"496.00\""));
	free(a);
}

static void scatter(void **state)
{
	(void)state;
	struct svg_point p[] = {
		{ "slow-small", 100, 1e7, 0 }, { "fast-big", 1e4, 1e5, 0 }, { "dominated", 1e4, 1e7, 0 },
	};
	int front[3];
	svg_pareto(p, 3, front);
	assert_int_equal(front[0], 1);
	assert_int_equal(front[1], 1);
	assert_int_equal(front[2], 0);
	char *a = svg_scatter_loglog(&text, p, 3, NULL, 0, NULL);
	assert_int_equal(count(a, "class=\"mark\""), 3);
	assert_int_equal(count(a, "class=\"front\""), 1);
	assert_non_null(strstr(a, "dominated: 10000 bytes, 1e+07 cycles</title>"));
	assert_non_null(strstr(a, "slow-small: 100 bytes, 1e+07 cycles (Pareto front)"));
	assert_non_null(strstr(a, ">dominated</text>"));
	free(a);
	/* every point on the front: the legend does not name "dominated" */
	a = svg_scatter_loglog(&text, p, 2, NULL, 0, NULL);
	assert_non_null(strstr(a, ">Pareto front</text>"));
	assert_null(strstr(a, ">dominated</text>"));
	free(a);
}

/* The viewBox's width and height. */
static void view_box(const char *svg, double *w, double *h)
{
	const char *v = strstr(svg, "viewBox=\"0 0 ");
	assert_non_null(v);
	assert_int_equal(sscanf(v, "viewBox=\"0 0 %lf %lf\"", w, h), 2);
}

/* Attribute name="<number>" after p, within the element ending at '>'. */
static double attr(const char *p, const char *name)
{
	char *key = xasprintf(" %s=\"", name);
	const char *end = strchr(p, '>'), *a = strstr(p, key);
	assert_true(a && a < end);
	double v = strtod(a + strlen(key), NULL);
	free(key);
	return v;
}

/* Every mark of a scatter lies inside the viewBox and carries a visible
 * <text> label, wholly inside it too (about 7 px a character), naming its
 * point; returns the number of marks. */
static size_t check_scatter_marks(const char *svg, const struct svg_point *p, size_t n)
{
	double w, h;
	view_box(svg, &w, &h);
	size_t marks = 0;
	for (const char *m = svg; (m = strstr(m, "<g class=\"mark\">")); m++, marks++) {
		const char *end = strstr(m, "</g>");
		const char *shape = strstr(m, "</title>") + 8;
		double x, y;
		if (!strncmp(shape, "<circle", 7)) {
			x = attr(shape, "cx"), y = attr(shape, "cy");
		} else if (!strncmp(shape, "<rect", 5)) {
			x = attr(shape, "x") + 4.5, y = attr(shape, "y") + 4.5;
		} else {
			assert_int_equal(strncmp(shape, "<polygon points=\"", 17), 0);
			assert_int_equal(sscanf(shape + 17, "%lf,%lf", &x, &y), 2);
			y += 5.5;
		}
		assert_true(x >= 0 && x <= w && y >= 0 && y <= h);
		const char *t = strstr(m, "<text ");
		assert_true(t && t < end);
		double tx = attr(t, "x"), ty = attr(t, "y");
		const char *label = strchr(t, '>') + 1;
		size_t len = strcspn(label, "<");
		int found = 0;
		for (size_t i = 0; i < n; i++)
			found |= strlen(p[i].label) == len && !strncmp(label, p[i].label, len);
		assert_true(found);
		int end_anchor = strstr(t, "text-anchor=\"end\"") && strstr(t, "text-anchor=\"end\"") < label;
		double x0 = end_anchor ? tx - 7.0 * len : tx, x1 = end_anchor ? tx : tx + 7.0 * len;
		assert_true(x0 >= 0 && x1 <= w && ty - 10 >= 0 && ty <= h);
	}
	return marks;
}

/* Several series (the summary's cost charts): every point is drawn, over
 * six decades, inside the chart and labelled with its parameter set; each
 * series has its front line; the dominated points are hollow. */
static void scatter_series(void **state)
{
	(void)state;
	const char *ops[] = { "keygen", "enc", "dec" };
	struct svg_point p[] = {
		{ "A-128", 800, 2e4, 0 }, { "A-128", 800, 5e4, 1 }, { "A-128", 800, 6e4, 2 },
		{ "A-256", 1600, 9e4, 0 }, { "A-256", 1600, 1e5, 1 }, { "A-256", 1600, 2e5, 2 },
		{ "Big-Parameter-Set-9", 9e5, 3e9, 0 }, { "Big-Parameter-Set-9", 9e5, 1e7, 1 },
		{ "Big-Parameter-Set-9", 9e5, 4e7, 2 }, { "Tiny", 20, 900, 1 },
		{ "C-1", 100, 1e6, 0 }, { "C-1", 100, 500, 1 },
	};
	size_t n = sizeof p / sizeof *p;
	char *a = svg_scatter_loglog(&text, p, n, ops, 3, NULL);
	char *b = svg_scatter_loglog(&text, p, n, ops, 3, NULL);
	assert_string_equal(a, b);
	assert_int_equal(check_scatter_marks(a, p, n), n);
	assert_int_equal(count(a, "class=\"plabel\""), n);
	/* the axes span every point: 10 B … 1M B, 100 … 10G cycles */
	assert_non_null(strstr(a, ">10</text>"));
	assert_non_null(strstr(a, ">1M</text>"));
	assert_non_null(strstr(a, ">100</text>"));
	assert_non_null(strstr(a, ">10G</text>"));
	assert_non_null(strstr(a, ">keygen</text>"));
	assert_non_null(strstr(a, ">dominated (hollow)</text>"));
	assert_non_null(strstr(a, "<title>A-256 keygen: 1600 bytes, 90000 cycles</title>"));
	assert_non_null(strstr(a, "<title>Tiny enc: 20 bytes, 900 cycles (Pareto front)</title>"));
	/* keygen and enc have a front of two points (a line), dec of one */
	assert_int_equal(count(a, "class=\"front\""), 2);
	/* hollow: A-256 and Big at keygen and dec, A-128 too at enc (7), plus
	 * the two front lines, unfilled too */
	assert_int_equal(count(a, "fill=\"none\" stroke=\"#"), 7 + 2);
	assert_null(strstr(a, "nan"));
	free(a);
	free(b);
	/* a single point still gets axes around it */
	a = svg_scatter_loglog(&text, p, 1, ops, 3, NULL);
	assert_int_equal(check_scatter_marks(a, p, 1), 1);
	free(a);
}

/* Line charts: one mark per point, each line named at its end, inside the
 * chart even for long names, and the legend wraps instead of leaving it. */
static void lines_labelled(void **state)
{
	(void)state;
	struct svg_point a1[] = { { NULL, 32, 40, 0 }, { NULL, 1024, 8, 0 }, { NULL, 65536, 5, 0 } };
	struct svg_point a2[] = { { NULL, 32, 41, 0 }, { NULL, 65536, 5.1, 0 } };
	struct svg_line l[8];
	char names[8][64];
	for (int i = 0; i < 8; i++) {
		snprintf(names[i], sizeof names[i], "candidate-%d Parameter-Set-%d", i, i);
		l[i] = (struct svg_line){ names[i], i % 2 ? a2 : a1, i % 2 ? 2 : 3, i == 7 };
	}
	char *s = svg_lines_loglog(&text, l, 8, NULL);
	double w, h;
	view_box(s, &w, &h);
	assert_int_equal(count(s, "class=\"mark\""), 4 * 3 + 4 * 2);
	assert_int_equal(count(s, "class=\"plabel\""), 8);
	double last_y = -1;
	for (const char *t = s; (t = strstr(t, "class=\"plabel\"")); t++) {
		const char *el = t;
		while (strncmp(el, "<text", 5))
			el--;
		double x = attr(el, "x"), y = attr(el, "y");
		size_t len = strcspn(strchr(t, '>') + 1, "<");
		assert_true(x + 7.0 * len <= w && y <= h && y - 10 >= 0);
		/* labels of lines ending together are spread apart */
		assert_true(y >= last_y + 13 - 0.01);
		last_y = y;
	}
	for (const char *t = s; (t = strstr(t, "class=\"legend\"")); t++) {
		const char *el = t;
		while (strncmp(el, "<text", 5))
			el--;
		size_t len = strcspn(strchr(t, '>') + 1, "<");
		assert_true(attr(el, "x") + 7.0 * len <= w);
	}
	free(s);
}

static void bars(void **state)
{
	(void)state;
	const char *names[3] = { "baseline", "peak", "op peak" };
	struct svg_bars b[] = {
		{ "x keygen", { 131072, 262144, -1 } }, { "x enc", { 0, 65536, 65536 } },
	};
	char *a = svg_grouped_bars(&text, b, 2, names, NULL);
	assert_int_equal(count(a, "class=\"mark\""), 2);
	/* the axis ends at 256 KiB; the plot is 496 wide */
	assert_non_null(strstr(a, ">256 KiB</text>"));
	assert_non_null(strstr(a, "width=\"496.00\" height=\"7.00\""));
	assert_non_null(strstr(a, "width=\"248.00\" height=\"7.00\""));
	assert_non_null(strstr(a, "width=\"124.00\" height=\"7.00\""));
	/* 2 + 3 drawn bars, plus 3 legend squares */
	assert_int_equal(count(a, "height=\"7.00\""), 5);
	assert_null(strstr(a, "op peak -1"));
	free(a);
	/* small figures get a small axis: 20 KiB ends at 32 KiB, not 256 */
	struct svg_bars small[] = { { "x dec", { 20480, 6144, 0 } } };
	a = svg_grouped_bars(&text, small, 1, names, NULL);
	assert_non_null(strstr(a, ">32 KiB</text>"));
	assert_null(strstr(a, ">256 KiB</text>"));
	free(a);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(si_labels),
		cmocka_unit_test(dotplot),
		cmocka_unit_test(stacked),
		cmocka_unit_test(scatter),
		cmocka_unit_test(scatter_series),
		cmocka_unit_test(lines_labelled),
		cmocka_unit_test(bars),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
