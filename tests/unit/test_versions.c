/* test_versions.c — the pieces of package versions: added/removed line
 * counts (util/linediff.h), the package file listing and its digest
 * (package/pkgdigest.h), versions.conf (package/versions.h) and the
 * archived copy of a page (report/history_page.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "package/pkgdigest.h"
#include "package/versions.h"
#include "report/history_page.h"
#include "util/linediff.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/ngcc-test-versions.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = path_join(dir, rel), *d = path_dirname(p);
	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(d);
	free(p);
}

static void counts(const char *a, const char *b, size_t max, size_t added, size_t removed,
		   int approximate)
{
	struct line_counts c;
	line_diff_count(a, strlen(a), b, strlen(b), max, &c);
	assert_int_equal(c.added, added);
	assert_int_equal(c.removed, removed);
	assert_int_equal(c.approximate, approximate);
}

static void line_counts_are_those_of_a_shortest_edit(void **state)
{
	(void)state;
	counts("a\nb\nc\n", "a\nb\nc\n", 0, 0, 0, 0);
	counts("a\nb\nc\n", "a\nx\nc\n", 0, 1, 1, 0);          /* one line replaced */
	counts("a\nb\n", "a\nn1\nn2\nb\n", 0, 2, 0, 0);         /* two inserted */
	counts("", "x\ny\nz\n", 0, 3, 0, 0);                   /* file added */
	counts("x\ny\nz\n", "", 0, 0, 3, 0);                   /* file removed */
	counts("a\nb", "a\nb\n", 0, 1, 1, 0);                  /* last line without \n */
	counts("1\n2\n3\n4\n", "4\n1\n2\n3\n", 0, 1, 1, 0);    /* a line moved */
	counts("a\r\nb\r\n", "a\nb\n", 0, 2, 2, 0);            /* CRLF differs */
	/* beyond the bound: lines missing from the other text */
	counts("a\nb\nc\nd\n", "w\nx\ny\nz\n", 2, 4, 4, 1);
	counts("a\nb\nc\nd\n", "d\nq\nb\na\n", 2, 1, 1, 1);
	assert_true(text_is_binary("ab\0c", 4));
	assert_false(text_is_binary("abc\n", 4));
}

static void listing_and_digest(void **state)
{
	(void)state;
	char *d = tmpdir(), *listing = NULL, *err = NULL, hex[65], want_hex[65];
	size_t n = 0;
	put(d, "b.txt", "two\n");
	put(d, "a/z.c", "int z;\n");
	put(d, ".hidden", "dot files count\n");
	put(d, "A.h", "#pragma once\n");
	assert_int_equal(package_listing(d, &listing, &n, &err), 0);
	assert_int_equal(n, 4);
	char a_h[65], dot[65], az[65], b[65], *want;
	sha256_hex("#pragma once\n", 13, a_h);
	sha256_hex("dot files count\n", 16, dot);
	sha256_hex("int z;\n", 7, az);
	sha256_hex("two\n", 4, b);
	/* byte order of the path: '.' < 'A' < 'a' < 'b' */
	want = xasprintf("%s  .hidden\n%s  A.h\n%s  a/z.c\n%s  b.txt\n", dot, a_h, az, b);
	assert_string_equal(listing, want);
	package_digest(listing, hex);
	sha256_hex(want, strlen(want), want_hex);
	assert_string_equal(hex, want_hex);

	struct strlist paths = STRLIST_INIT, digests = STRLIST_INIT;
	assert_int_equal(package_listing_parse(listing, &paths, &digests), 0);
	assert_int_equal(paths.n, 4);
	assert_string_equal(paths.items[2], "a/z.c");
	assert_string_equal(digests.items[2], az);
	assert_int_equal(package_listing_parse("abc  x\n", &paths, &digests), -1);
	char *one_space = xasprintf("%s x\n", b);
	assert_int_equal(package_listing_parse(one_space, &paths, &digests), -1);
	free(one_space);
	sl_free(&paths);
	sl_free(&digests);
	free(want);
	free(listing);
	rm_rf(d);
	free(d);
}

static void versions_conf_round_trip(void **state)
{
	(void)state;
	char *d = tmpdir(), *err = NULL;
	struct version_log log = { 0 }, back;
	struct pkg_version v = { 0, "2026-12-04T10:00:00Z", "Pkg v1.zip", "ab", 29, "Alg", "kem", 0 };
	assert_int_equal(versions_append(&log, &v), 1);
	v.package = "Pkg v2.zip";
	v.files = 30;
	assert_int_equal(versions_append(&log, &v), 2);
	assert_int_equal(versions_save(d, &log), 0);
	assert_int_equal(versions_load(d, &back, &err), 0);
	assert_int_equal(back.n, 2);
	assert_string_equal(back.v[1].package, "Pkg v2.zip");
	assert_int_equal(back.v[1].files, 30);
	assert_int_equal(versions_current(&back)->number, 2);
	char *cur = version_dir(d, &back, 2), *old = version_dir(d, &back, 1);
	assert_string_equal(cur, d);
	char *want = path_join(d, "versions/1");
	assert_string_equal(old, want);
	free(want);
	free(cur);
	free(old);
	versions_free(&back);
	versions_free(&log);

	/* numbers must follow each other; keys must be known */
	put(d, VERSIONS_CONF, "[version 1]\nadded = x\npackage = p\npackage_sha256 = s\n"
			      "algorithm = a\ntype = kem\n[version 3]\n");
	assert_int_equal(versions_load(d, &back, &err), -1);
	assert_non_null(strstr(err, "not the next number"));
	free(err);
	put(d, VERSIONS_CONF, "[version 1]\ncolour = blue\n");
	assert_int_equal(versions_load(d, &back, &err), -1);
	assert_non_null(strstr(err, "unknown key 'colour'"));
	free(err);
	put(d, VERSIONS_CONF, "[version 1]\nadded = x\n");
	assert_int_equal(versions_load(d, &back, &err), -1);
	assert_non_null(strstr(err, "lacks"));
	free(err);
	rm_rf(d);
	free(d);
}

static void archived_page_keeps_only_its_own_links(void **state)
{
	(void)state;
	const char *md = "[Home](../index.md) › [vm](index.md) › x\n\n"
			 "See [the method](method.md#s2) and [A.3](#a3).\n\n"
			 "![cycles](charts/x-cycles.svg)\n\n"
			 "[data](charts/x-cycles.csv) and [`y`](https://example.org/)\n";
	char *out = history_archive_page(md, strlen(md), "x", 1, "vm");
	assert_non_null(strstr(out, "*Archived page of package version 1 of `x` on system vm"));
	assert_non_null(strstr(out, "\nHome › vm › x\n"));
	assert_non_null(strstr(out, "See the method and [A.3](#a3)."));
	assert_non_null(strstr(out, "![cycles](charts/x-cycles.svg)"));
	assert_non_null(strstr(out, "[data](charts/x-cycles.csv) and `y`\n"));
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(line_counts_are_those_of_a_shortest_edit),
		cmocka_unit_test(listing_and_digest),
		cmocka_unit_test(versions_conf_round_trip),
		cmocka_unit_test(archived_page_keeps_only_its_own_links),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
