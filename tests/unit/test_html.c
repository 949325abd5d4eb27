/*
 * test_html.c — Markdown to HTML (docs/report-format.md §10.1): heading ids and
 * their de-duplication, table wrapping, status classes, CSV links after
 * each table, `.md` links rewritten, breadcrumb split off, raw HTML never
 * passed through, chart images inlined.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "site/html.h"

static const char page[] =
	"[Performance measurements](../index.md) \xe2\x80\xba [x86_1](index.md) \xe2\x80\xba kem-12\n"
	"\n"
	"# kem-12 CTL \xe2\x80\x94 performance on x86-64 (system x86_1)\n"
	"\n"
	"## 3. Functional testing (KAT)\n"
	"\n"
	"| instance | build flags | KAT |\n"
	"|---|---|---|\n"
	"| `CTL-257-512` | guide | PASS |\n"
	"| `CTL-769-1024` | guide | MISMATCH [1] |\n"
	"| `CTL-3329-2048` | guide | PASS (not timed) |\n"
	"| `CTL-x` | guide | TIMEOUT |\n"
	"\n"
	"See the [size audit](../size-audit.md#automatic-audit) and [out](https://example.org/a.md).\n"
	"\n"
	"## 3. Functional testing (KAT)\n"
	"\n"
	"| a | b |\n"
	"|---|---|\n"
	"| 1 | failed |\n"
	"| 12.6 k (#2.5) | x (#1) y |\n"
	"\n"
	"<script>alert(1)</script>\n"
	"\n"
	"### A.8 Charts\n"
	"\n"
	"![Mean cycles](charts/c.svg)\n";

static char *fake_svg(void *ctx, const char *url, const char *alt)
{
	(void)ctx;
	if (strcmp(url, "charts/c.svg"))
		return NULL;
	return strdup(strcmp(alt, "Mean cycles") ? "<svg>wrong alt</svg>\n" : "<svg>chart</svg>\n");
}

static void converts_page(void **state)
{
	(void)state;
	struct html_opts o = { "kem-12-table", fake_svg, NULL };
	struct html_doc d;
	assert_int_equal(html_convert(page, strlen(page), &o, &d), 0);
	assert_non_null(d.crumb);
	assert_non_null(strstr(d.crumb, "<a href=\"../index.html\">Performance measurements</a>"));
	assert_non_null(strstr(d.crumb, "<a href=\"index.html\">x86_1</a>"));
	assert_null(strstr(d.body, "Performance measurements"));
	assert_string_equal(d.h1, "kem-12 CTL \xe2\x80\x94 performance on x86-64 (system x86_1)");
	assert_non_null(strstr(d.body, "<h1 id=\"kem-12-ctl--performance-on-x86-64-system-x86_1\">"));
	assert_non_null(strstr(d.body, "<h2 id=\"3-functional-testing-kat\">"));
	assert_non_null(strstr(d.body, "<h2 id=\"3-functional-testing-kat-1\">"));
	assert_non_null(strstr(d.body, "<h3 id=\"a8-charts\">"));
	assert_non_null(strstr(d.body, "<div class=\"table-wrap\">\n<table>"));
	assert_non_null(strstr(d.body, "<td class=\"ok\">PASS</td>"));
	assert_non_null(strstr(d.body, "<td class=\"bad\">MISMATCH [1]</td>"));
	assert_non_null(strstr(d.body, "<td class=\"muted\">PASS (not timed)</td>"));
	assert_non_null(strstr(d.body, "<td class=\"warn\">TIMEOUT</td>"));
	assert_non_null(strstr(d.body, "<td class=\"bad\">failed</td>"));
	assert_non_null(strstr(d.body, "<td>guide</td>"));
	assert_non_null(strstr(d.body, "<td>12.6 k <small class=\"rank\">(#2.5)</small></td>"));
	assert_non_null(strstr(d.body, "<td>x (#1) y</td>"));
	assert_non_null(strstr(d.body, "</table>\n</div>\n<p class=\"csv\"><a href=\"kem-12-table1.csv\">"));
	assert_non_null(strstr(d.body, "<a href=\"kem-12-table2.csv\">"));
	assert_non_null(strstr(d.body, "href=\"../size-audit.html#automatic-audit\""));
	assert_non_null(strstr(d.body, "href=\"https://example.org/a.md\""));
	assert_null(strstr(d.body, "<script>"));
	assert_non_null(strstr(d.body, "<figure class=\"chart\">\n<svg>chart</svg>\n</figure>"));
	assert_int_equal(d.n_tables, 2);
	assert_int_equal(d.tables[0].nrows, 5);
	assert_int_equal(d.tables[0].ncols, 3);
	assert_string_equal(d.tables[0].rows[0][2], "KAT");
	assert_string_equal(d.tables[0].rows[2][0], "CTL-769-1024");
	assert_int_equal(d.n_headings, 4);
	html_doc_free(&d);
}

static void heading_ids(void **state)
{
	(void)state;
	char *id = html_heading_id("A.0 Host and counter");
	assert_string_equal(id, "a0-host-and-counter");
	free(id);
	id = html_heading_id("Performance \xe2\x80\x94 x86-64, system x86_1");
	assert_string_equal(id, "performance--x86-64-system-x86_1");
	free(id);
}

static void status_classes(void **state)
{
	(void)state;
	assert_string_equal(html_status_class("PASS"), "ok");
	assert_string_equal(html_status_class("CRYPTOFAIL [2]"), "bad");
	assert_string_equal(html_status_class("NOKAT (not timed)"), "muted");
	/* check cells (page_checks.c) */
	assert_string_equal(html_status_class("clean (1000 rounds)"), "ok");
	assert_string_equal(html_status_class("2 findings (3 rounds)"), "bad");
	assert_string_equal(html_status_class("1 finding"), "bad");
	assert_string_equal(html_status_class("timeout"), "warn");
	assert_null(html_status_class("2 bytes"));
	assert_string_equal(html_status_class("PARTIAL"), "warn");
	assert_null(html_status_class("PASSED"));
	assert_null(html_status_class("12.63 M"));
}

static void url_rewrite(void **state)
{
	(void)state;
	char *u = html_rewrite_url("../x86_1/kem-12.md");
	assert_string_equal(u, "../x86_1/kem-12.html");
	free(u);
	u = html_rewrite_url("method.md#limitations");
	assert_string_equal(u, "method.html#limitations");
	free(u);
	u = html_rewrite_url("http://host/x.md");
	assert_string_equal(u, "http://host/x.md");
	free(u);
	u = html_rewrite_url("charts/x.svg");
	assert_string_equal(u, "charts/x.svg");
	free(u);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(converts_page),
		cmocka_unit_test(heading_ids),
		cmocka_unit_test(status_classes),
		cmocka_unit_test(url_rewrite),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
