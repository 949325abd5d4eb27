/* test_paths.c — hiding our own directories in what is written to
 * evidence (docs/method.md §11.1): whole path components only, the longest
 * directory first, every occurrence, and the reverse for our tree; finding
 * an absolute path left in a document (a --defer regular expression that
 * starts with '/' is not one). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "evidence/paths.h"
#include "util/util.h"

#include <stdlib.h>
#include <string.h>

static const struct path_rule home[] = { { "/opt/ngcc", NGCC_TREE_TAG } };

static void expect_hidden(const struct path_rule *rules, size_t n, const char *in,
			  const char *want)
{
	char *got = path_hide(in, rules, n);
	assert_string_equal(got, want);
	free(got);
}

static void our_tree_is_named_as_a_whole_path(void **state)
{
	(void)state;
	expect_hidden(home, 1, "/opt/ngcc/src/runtime/shim.c", "<ngcc-perf>/src/runtime/shim.c");
	expect_hidden(home, 1, "-I/opt/ngcc/src/runtime", "-I<ngcc-perf>/src/runtime");
	expect_hidden(home, 1, "/opt/ngcc", "<ngcc-perf>");
	expect_hidden(home, 1, "-Wl,--version-script=/opt/ngcc/src/runtime/exports.map",
		      "-Wl,--version-script=<ngcc-perf>/src/runtime/exports.map");
}

static void a_longer_name_is_not_our_tree(void **state)
{
	(void)state;
	/* the bug of a plain substring match: /opt/ngcc-old is not /opt/ngcc */
	expect_hidden(home, 1, "/opt/ngcc-old/x.c", "/opt/ngcc-old/x.c");
	expect_hidden(home, 1, "/opt/ngccx", "/opt/ngccx");
	/* and a false hit does not stop the search for the real ones */
	expect_hidden(home, 1, "/opt/ngcc-old/a:/opt/ngcc/b /opt/ngcc/c",
		      "/opt/ngcc-old/a:<ngcc-perf>/b <ngcc-perf>/c");
}

static void workspace_and_run_become_relative(void **state)
{
	(void)state;
	const struct path_rule rules[] = {
		{ "/ws", "" }, { "/ws/runs/r1", "" }, { "/opt/ngcc", NGCC_TREE_TAG },
	};
	/* the run lies inside the workspace: its own rule, the longer, wins */
	expect_hidden(rules, 3, "/ws/runs/r1/records/a.json", "records/a.json");
	expect_hidden(rules, 3, "/ws/build/kem/libX.so", "build/kem/libX.so");
	expect_hidden(rules, 3, "library = /ws/build/k/l.so; cc /opt/ngcc/src/x.c",
		      "library = build/k/l.so; cc <ngcc-perf>/src/x.c");
	/* a directory alone has no relative spelling: it stays */
	expect_hidden(rules, 3, "/ws", "/ws");
	expect_hidden(rules, 3, "/wsx/a", "/wsx/a");
}

static void empty_and_root_rules_are_ignored(void **state)
{
	(void)state;
	const struct path_rule rules[] = { { "", "" }, { "/", "" }, { NULL, "" } };
	expect_hidden(rules, 3, "/a/b", "/a/b");
}

static void the_usual_rules_and_their_reverse(void **state)
{
	(void)state;
	char *tree = xasprintf("%s/src/runtime/drng.c", ngcc_home());
	char *hidden = path_hide_ours(tree, "/nonexistent-ws", NULL);
	assert_string_equal(hidden, NGCC_TREE_TAG "/src/runtime/drng.c");
	char *back = path_unhide_ours(hidden);
	assert_string_equal(back, tree);
	free(back);
	free(hidden);
	hidden = path_hide_ours("/nonexistent-ws/runs/r/x.json", "/nonexistent-ws",
				"/nonexistent-ws/runs/r");
	assert_string_equal(hidden, "x.json");
	free(hidden);
	free(tree);
}

static char *absolute_in(const char *text, const char *const *needles)
{
	json_t *j = json_loads(text, 0, NULL);
	assert_non_null(j);
	char *where = NULL;
	int found = json_find_absolute(j, needles, &where);
	json_decref(j);
	assert_int_equal(found, where != NULL);
	return where;
}

static void absolute_paths_left_in_a_document(void **state)
{
	(void)state;
	static const char *const ws[] = { "/home/eval/ws", NULL };
	char *w = absolute_in("{\"a\": [1, {\"lib\": \"/tmp/x.so\"}]}", NULL);
	assert_string_equal(w, "a[1].lib: \"/tmp/x.so\"");
	free(w);
	w = absolute_in("{\"cmd\": \"cc -I/home/eval/ws/inc\"}", ws);
	assert_non_null(w);
	free(w);
	assert_null(absolute_in("{\"cmd\": \"cc -Iinc\", \"n\": 3}", ws));
	/* a pattern is no path, but may not carry our directories either */
	assert_null(absolute_in("{\"shards\": {\"defer\": \"/ExampleKEM-256$\"}}", ws));
	w = absolute_in("{\"shards\": {\"defer\": \"/home/eval/ws/x\"}}", ws);
	assert_non_null(w);
	free(w);
	w = absolute_in("{\"shards\": {\"deferred\": \"/ExampleKEM-256$\"}}", ws);
	assert_non_null(w);
	free(w);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(our_tree_is_named_as_a_whole_path),
		cmocka_unit_test(a_longer_name_is_not_our_tree),
		cmocka_unit_test(workspace_and_run_become_relative),
		cmocka_unit_test(empty_and_root_rules_are_ignored),
		cmocka_unit_test(the_usual_rules_and_their_reverse),
		cmocka_unit_test(absolute_paths_left_in_a_document),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
