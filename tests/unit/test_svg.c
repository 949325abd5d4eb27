/*
 * test_svg.c — the chart primitives (docs/report-format.md §10.4): SI labels of
 * the log axes, one mark per data point, title and desc present, labels
 * escaped, positions on the log axis, the Pareto front, and byte-identical
 * output for the same input.
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
		{ "slow-small", 100, 1e7 }, { "fast-big", 1e4, 1e5 }, { "dominated", 1e4, 1e7 },
	};
	int front[3];
	svg_pareto(p, 3, front);
	assert_int_equal(front[0], 1);
	assert_int_equal(front[1], 1);
	assert_int_equal(front[2], 0);
	char *a = svg_scatter_loglog(&text, p, 3, NULL);
	assert_int_equal(count(a, "class=\"mark\""), 3);
	assert_int_equal(count(a, "class=\"front\""), 1);
	assert_non_null(strstr(a, "dominated: 10000 bytes, 1e+07 cycles</title>"));
	assert_non_null(strstr(a, "slow-small: 100 bytes, 1e+07 cycles (Pareto front)"));
	assert_non_null(strstr(a, ">dominated</text>"));
	free(a);
	/* every point on the front: the legend does not name "dominated" */
	a = svg_scatter_loglog(&text, p, 2, NULL);
	assert_non_null(strstr(a, ">Pareto front</text>"));
	assert_null(strstr(a, ">dominated</text>"));
	free(a);
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
		cmocka_unit_test(bars),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
