/* test_layers.c — the include rule of docs/architecture.md: the real tree
 * passes scripts/check-layers, and the checker itself fails on a
 * deliberate upward include, an include of a child-program folder it may
 * not use, a folder missing from the layer table, and two files that use
 * each other. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "util/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

/* The source tree: $NGCC_SRC (tests/run-tests sets it), else ".". */
static const char *root(void)
{
	const char *r = getenv("NGCC_SRC");
	return r && *r ? r : ".";
}

/* Run the checker on tree; its exit code, stdout in *out (malloc'd). */
static int check(const char *tree, char **out)
{
	char *cmd = xasprintf("'%s/scripts/check-layers' '%s' 2>/dev/null", root(), tree);
	FILE *p = popen(cmd, "r");
	assert_non_null(p);
	struct strbuf sb = STRBUF_INIT;
	char buf[4096];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, p)) > 0)
		sb_add(&sb, buf, n);
	int st = pclose(p);
	free(cmd);
	*out = sb_detach(&sb);
	assert_true(WIFEXITED(st));
	return WEXITSTATUS(st);
}

static char *tmpdir(void)
{
	char tmpl[] = "/tmp/ngcc-test-layers.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	return xstrdup(tmpl);
}

static void put(const char *dir, const char *rel, const char *text)
{
	char *p = path_join(dir, rel);
	char *d = path_dirname(p);
	assert_int_equal(mkdir_p(d, 0755), 0);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(d);
	free(p);
}

/* A small tree: util (0) below stage (1), a child-program folder that may
 * use util only, and the table that says so. */
static char *small_tree(void)
{
	char *t = tmpdir();
	put(t, "docs/architecture.md",
	    "# Layers\n\n```layers\n# rank folder also\n0 util\n1 stage\n- child util\n```\n");
	put(t, "src/util/util.h", "/* util */\n");
	put(t, "src/util/util.c", "#include \"util/util.h\"\n");
	put(t, "src/stage/stage.h", "#include \"util/util.h\"\n");
	put(t, "src/stage/stage.c", "#include \"stage/stage.h\"\n#include <stdio.h>\n");
	put(t, "src/child/main.c", "#include \"util/util.h\"\n");
	return t;
}

static void drop(char *t)
{
	rm_rf(t);
	free(t);
}

static void the_source_tree_keeps_the_rule(void **state)
{
	(void)state;
	char *out;
	int rc = check(root(), &out);
	if (rc)
		print_error("%s", out);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "");
	free(out);
}

static void a_downward_tree_passes(void **state)
{
	(void)state;
	char *t = small_tree(), *out;
	assert_int_equal(check(t, &out), 0);
	free(out);
	drop(t);
}

static void an_upward_include_fails(void **state)
{
	(void)state;
	char *t = small_tree(), *out;
	put(t, "src/util/util.c", "#include \"util/util.h\"\n#include \"stage/stage.h\"\n");
	assert_int_equal(check(t, &out), 1);
	assert_non_null(strstr(out, "src/util/util.c:2: includes \"stage/stage.h\": util/ (rank 0) "
				    "may not include stage/ (rank 1)"));
	free(out);
	/* relative spellings resolve to the same folder */
	put(t, "src/util/util.c", "#include \"../stage/stage.h\"\n");
	assert_int_equal(check(t, &out), 1);
	assert_non_null(strstr(out, "src/util/util.c:1:"));
	free(out);
	drop(t);
}

static void a_child_program_folder_uses_only_what_is_listed(void **state)
{
	(void)state;
	char *t = small_tree(), *out;
	put(t, "src/child/main.c", "#include \"util/util.h\"\n#include \"stage/stage.h\"\n");
	assert_int_equal(check(t, &out), 1);
	assert_non_null(strstr(out, "src/child/main.c:2: includes \"stage/stage.h\": child/ (rank -)"));
	free(out);
	/* and no ranked folder may include it */
	put(t, "src/child/main.c", "#include \"util/util.h\"\n");
	put(t, "src/child/child.h", "\n");
	put(t, "src/stage/stage.c", "#include \"child/child.h\"\n");
	assert_int_equal(check(t, &out), 1);
	assert_non_null(strstr(out, "src/stage/stage.c:1:"));
	free(out);
	drop(t);
}

static void a_folder_missing_from_the_table_fails(void **state)
{
	(void)state;
	char *t = small_tree(), *out;
	put(t, "src/extra/x.c", "#include \"util/util.h\"\n");
	assert_int_equal(check(t, &out), 1);
	assert_non_null(strstr(out, "src/extra/: folder not in the layer table"));
	free(out);
	drop(t);
}

static void files_using_each_other_fail(void **state)
{
	(void)state;
	char *t = small_tree(), *out;
	put(t, "src/stage/other.h", "\n");
	put(t, "src/stage/other.c", "#include \"stage/other.h\"\n#include \"stage/stage.h\"\n");
	put(t, "src/stage/stage.c", "#include \"stage/stage.h\"\n#include \"stage/other.h\"\n");
	assert_int_equal(check(t, &out), 1);
	assert_non_null(strstr(out, "files use each other in a circle: stage/other, stage/stage"));
	free(out);
	drop(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_source_tree_keeps_the_rule),
		cmocka_unit_test(a_downward_tree_passes),
		cmocka_unit_test(an_upward_include_fails),
		cmocka_unit_test(a_child_program_folder_uses_only_what_is_listed),
		cmocka_unit_test(a_folder_missing_from_the_table_fails),
		cmocka_unit_test(files_using_each_other_fail),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
