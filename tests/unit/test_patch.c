/*
 * test_patch.c — package/patch.h: unified diffs applied to a folder (change
 * with and without a shift, create, delete, a last line without a newline,
 * CRLF text, git's and diff -ru's folder prefixes), the refusals (a path
 * that leaves the folder, a link on the way, a hunk that does not match, a
 * rename, a binary patch) with nothing written, the record appended by
 * patch_apply_files, patch_verify, and the [patch FILE] section of
 * candidate.conf read back as written.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "package/conf.h"
#include "package/patch.h"
#include "util/util.h"

static char root[64];

static void put(const char *rel, const char *text)
{
	char *p = path_join(root, rel), *dir = path_dirname(p);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(dir);
	free(p);
}

static char *get(const char *rel)
{
	char *p = path_join(root, rel), *data = NULL;
	size_t len;
	if (read_file(p, &data, &len))
		data = NULL;
	free(p);
	return data;
}

static int setup(void **state)
{
	(void)state;
	strcpy(root, "/tmp/ngcc-test-patch.XXXXXX");
	if (!mkdtemp(root))
		return -1;
	put("src/a.c", "one\ntwo\nthree\nfour\nfive\n");
	put("src/b.c", "alpha\nbeta\n");
	put("win.c", "x\r\ny\r\n");
	put("noeol.c", "first\nlast");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(root);
	return 0;
}

static int apply(const char *text, struct strlist *touched, char **err)
{
	return patch_apply_text(root, "t.diff", text, strlen(text), touched, err);
}

static void expect_file(const char *rel, const char *want)
{
	char *got = get(rel);
	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void test_change_create_delete(void **state)
{
	(void)state;
	struct strlist touched = STRLIST_INIT;
	char *err = NULL;
	/* git style (a/ b/ dropped); the second hunk's line is off by two */
	const char *d = "diff --git a/src/a.c b/src/a.c\n"
			"index 1..2 100644\n"
			"--- a/src/a.c\n+++ b/src/a.c\n"
			"@@ -1,2 +1,2 @@\n-one\n+ONE\n two\n"
			"@@ -2,2 +2,3 @@\n three\n-four\n+FOUR\n+4\n five\n"
			"--- /dev/null\n+++ b/src/new/c.h\n@@ -0,0 +1,2 @@\n+#define C 1\n+\n";
	assert_int_equal(apply(d, &touched, &err), 0);
	expect_file("src/a.c", "ONE\ntwo\nthree\nFOUR\n4\nfive\n");
	expect_file("src/new/c.h", "#define C 1\n\n");
	assert_int_equal(touched.n, 2);
	assert_string_equal(touched.items[0], "src/a.c");
	assert_string_equal(touched.items[1], "src/new/c.h");
	sl_free(&touched);
	/* git deleting a file; diff -ruN creating one (the epoch-dated side) */
	const char *del = "--- a/src/b.c\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-alpha\n-beta\n"
			  "--- pkg.orig/src/d.c\t1970-01-01 00:00:00.000000000 +0000\n"
			  "+++ pkg/src/d.c\t2026-01-01 00:00:00.000000000 +0000\n"
			  "@@ -0,0 +1 @@\n+int d;\n";
	assert_int_equal(apply(del, NULL, &err), 0);
	char *gone = get("src/b.c");
	assert_null(gone);
	expect_file("src/d.c", "int d;\n");
	put("src/b.c", "alpha\nbeta\n");
	const char *ru = "Only in pkg: junk\n--- pkg.orig/src/b.c\t2026-01-01\n+++ pkg/src/b.c\t2026-01-02\n"
			 "@@ -1,2 +1,2 @@\n alpha\n-beta\n+BETA\n";
	assert_int_equal(apply(ru, NULL, &err), 0);
	expect_file("src/b.c", "alpha\nBETA\n");
}

static void test_line_ends(void **state)
{
	(void)state;
	char *err = NULL;
	/* CRLF content is matched as it is */
	const char *crlf = "--- a/win.c\r\n+++ b/win.c\r\n@@ -1,2 +1,2 @@\r\n x\r\n-y\r\n+z\r\n";
	assert_int_equal(apply(crlf, NULL, &err), 0);
	expect_file("win.c", "x\r\nz\r\n");
	/* the last line without a newline, on both sides */
	const char *noeol = "--- a/noeol.c\n+++ b/noeol.c\n@@ -1,2 +1,2 @@\n first\n-last\n"
			    "\\ No newline at end of file\n+LAST\n\\ No newline at end of file\n";
	assert_int_equal(apply(noeol, NULL, &err), 0);
	expect_file("noeol.c", "first\nLAST");
}

static void refused(const char *diff, const char *want)
{
	char *err = NULL;
	char *a = get("src/a.c");
	assert_int_equal(apply(diff, NULL, &err), -1);
	assert_non_null(err);
	if (!strstr(err, want))
		fail_msg("'%s' not in '%s'", want, err);
	free(err);
	char *after = get("src/a.c");
	assert_string_equal(a, after);   /* nothing written */
	free(a);
	free(after);
}

static void test_refusals(void **state)
{
	(void)state;
	/* the first file would apply, the second does not: neither is written */
	refused("--- a/src/a.c\n+++ b/src/a.c\n@@ -1,1 +1,1 @@\n-ONE\n+one\n"
		"--- a/src/b.c\n+++ b/src/b.c\n@@ -1,1 +1,1 @@\n-gamma\n+delta\n",
		"line 8: hunk 1 of src/b.c (@@ -1,1 +1,1 @@) does not apply");
	refused("--- /etc/passwd\n+++ /etc/passwd\n@@ -1 +1 @@\n-a\n+b\n",
		"is not a path below the package's top");
	refused("--- a/src/../../x.c\n+++ b/src/../../x.c\n@@ -0,0 +1 @@\n+x\n",
		"is not a path below the package's top");
	refused("diff --git a/src/a.c b/src/z.c\nrename from src/a.c\nrename to src/z.c\n",
		"'rename from': only changes to the text of regular files");
	refused("--- a/src/a.c\n+++ b/src/a.c\nGIT binary patch\nliteral 0\n",
		"'GIT binary patch'");
	refused("--- a/src/a.c\n+++ b/src/a.c\n@@ -1,3 +1,3 @@\n-ONE\n+one\n",
		"the hunk ends early");
	refused("just some text\n", "not a unified diff");
	refused("--- a/src/a.c\n+++ b/src/a.c\n@@ -1,1 +1,1 @@\n*ONE\n",
		"must start with ' ', '-' or '+'");
	refused("--- /dev/null\n+++ b/src/a.c\n@@ -0,0 +1 @@\n+x\n", "creates src/a.c, which already exists");
	refused("--- a/src/none.c\n+++ b/src/none.c\n@@ -1 +1 @@\n-a\n+b\n",
		"changes src/none.c, which is not in the package");
	/* a link on the way, and a link as the file, are never followed */
	char *outside = xasprintf("%s.out", root);
	assert_int_equal(mkdir_p(outside, 0755), 0);
	char *link = path_join(root, "via");
	assert_int_equal(symlink(outside, link), 0);
	refused("--- /dev/null\n+++ b/via/new.c\n@@ -0,0 +1 @@\n+x\n",
		"a folder on its way is a symbolic link");
	char *flink = path_join(root, "src/l.c");
	assert_int_equal(symlink("a.c", flink), 0);
	refused("--- a/src/l.c\n+++ b/src/l.c\n@@ -1 +1 @@\n-ONE\n+one\n", "is a symbolic link");
	char *escaped = path_join(outside, "new.c");
	assert_false(path_exists(escaped));
	unlink(flink);
	unlink(link);
	rm_rf(outside);
	free(escaped);
	free(flink);
	free(link);
	free(outside);
}

static void test_record_and_conf(void **state)
{
	(void)state;
	char *ws = xasprintf("%s/ws", root), *src = xasprintf("%s/ws/candidates/k/source", root);
	char *pdir = xasprintf("%s/ws/candidates/k/patches", root);
	char *file = xasprintf("%s/fix.diff", root), *err = NULL;
	assert_int_equal(mkdir_p(src, 0755), 0);
	char *f = path_join(src, "k.c");
	assert_int_equal(write_file(f, "int k = 1;\n", 11), 0);
	const char diff[] = "--- a/k.c\n+++ b/k.c\n@@ -1 +1 @@\n-int k = 1;\n+int k = 2;\n";
	assert_int_equal(write_file(file, diff, strlen(diff)), 0);
	struct candidate_conf c;
	memset(&c, 0, sizeof c);
	c.id = xstrdup("k");
	const char *files[] = { file };
	assert_int_equal(patch_apply_files(src, pdir, files, 1, &c, &err), 0);
	assert_int_equal(c.n_patches, 1);
	assert_string_equal(c.patches[0].file, "fix.diff");
	char hex[65];
	sha256_hex(diff, strlen(diff), hex);
	assert_string_equal(c.patches[0].sha256, hex);
	assert_string_equal(c.patches[0].touches.items[0], "k.c");
	assert_int_equal(patch_verify(ws, &c, &err), 0);
	/* candidate.conf keeps it */
	char *conf = path_join(root, "candidate.conf");
	assert_int_equal(conf_write(conf, &c), 0);
	struct candidate_conf back;
	assert_int_equal(conf_read(conf, &back, &err), 0);
	assert_int_equal(back.n_patches, 1);
	assert_string_equal(back.patches[0].file, "fix.diff");
	assert_string_equal(back.patches[0].sha256, hex);
	assert_string_equal(back.patches[0].touches.items[0], "k.c");
	conf_free(&back);
	/* a changed kept patch: verify names it */
	char *kept = path_join(pdir, "fix.diff");
	assert_int_equal(write_file(kept, "x", 1), 0);
	assert_int_equal(patch_verify(ws, &c, &err), -1);
	assert_non_null(strstr(err, "candidates/k/patches/fix.diff: SHA-256"));
	free(err);
	err = NULL;
	/* a second patch of the same name is refused */
	assert_int_equal(patch_apply_files(src, pdir, files, 1, &c, &err), -1);
	assert_non_null(strstr(err, "already given"));
	free(err);
	err = NULL;
	/* a malformed [patch] section */
	const char bad[] = "[candidate]\nid = k\n\n[patch x.diff]\nsha256 = 12\n";
	assert_int_equal(write_file(conf, bad, strlen(bad)), 0);
	assert_int_equal(conf_read(conf, &back, &err), -1);
	assert_non_null(strstr(err, ":5: sha256 must be 64 lowercase hex digits"));
	free(err);
	assert_false(conf_patch_name_valid(".hidden"));
	assert_false(conf_patch_name_valid("a b.diff"));
	assert_true(conf_patch_name_valid("0001-fix_include+x.patch"));
	conf_free(&c);
	free(kept);
	free(conf);
	free(f);
	free(file);
	free(pdir);
	free(src);
	free(ws);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_change_create_delete),
		cmocka_unit_test(test_line_ends),
		cmocka_unit_test(test_refusals),
		cmocka_unit_test(test_record_and_conf),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
