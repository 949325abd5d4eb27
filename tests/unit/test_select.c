/* test_select.c — the instance selectors every phase shares
 * (src/build/select.c): ID, ID/LABEL, a bare LABEL (ambiguity refused),
 * globs in either part, --op with a numbered family, the errors for what
 * matches nothing (and for an unreadable candidate.conf a selector names),
 * and the description recorded in messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "build/select.h"
#include "util/fsutil.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static char *ws;

static void put(const char *rel, const char *text)
{
	char *p = path_join(ws, rel), *dir = path_dirname(p);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(dir);
	free(p);
}

/* kem-a, Y-1 (enabled = no); kem-b: X-128; kex-c: K-1. */
static int setup(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/ngcc-test-select.XXXXXX";
	assert_non_null(mkdtemp(tmpl));
	ws = xstrdup(tmpl);
#define INST(label, type) "[instance " label "]\ntype = " type "\nsource_dir = " label \
	"\nsource = a.c\n"
	put("candidates/kem-a/candidate.conf",
	    "[candidate]\nid = kem-a\ntype = kem\n" INST("X-128", "kem") INST("X-256", "kem")
	    INST("Y-1", "kem") "enabled = no\n");
	put("candidates/kem-b/candidate.conf",
	    "[candidate]\nid = kem-b\ntype = kem\n" INST("X-128", "kem"));
	put("candidates/kex-c/candidate.conf",
	    "[candidate]\nid = kex-c\ntype = kex\n" INST("K-1", "kex"));
	put("candidates/zz-broken/candidate.conf", "[candidate]\nid = zz-broken\ncolour = red\n");
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(ws);
	free(ws);
	return 0;
}

/* Resolve the given selectors (NULL-terminated) and ops; the exit code. */
static int resolve(struct selection *s, const char *const *sel, const char *const *ops)
{
	selection_init(s);
	for (; sel && *sel; sel++)
		selection_add(s, *sel);
	for (; ops && *ops; ops++)
		selection_add_op(s, *ops);
	return selection_resolve(s, ws);
}

static void test_id_and_qualified(void **state)
{
	(void)state;
	struct selection s;
	assert_int_equal(resolve(&s, (const char *[]){ "kem-a", NULL }, NULL), 0);
	assert_int_equal(s.n_instances, 3);
	assert_true(selection_has_instance(&s, "kem-a", "X-256"));
	assert_false(selection_has_instance(&s, "kem-b", "X-128"));
	assert_int_equal(s.ids.n, 1);
	selection_free(&s);
	assert_int_equal(resolve(&s, (const char *[]){ "kem-b/X-128", NULL }, NULL), 0);
	assert_true(selection_has_instance(&s, "kem-b", "X-128"));
	assert_false(selection_has_instance(&s, "kem-a", "X-128"));
	assert_string_equal(s.ids.items[0], "kem-b");
	selection_free(&s);
}

static void test_bare_label(void **state)
{
	(void)state;
	struct selection s;
	assert_int_equal(resolve(&s, (const char *[]){ "X-256", NULL }, NULL), 0);
	assert_int_equal(s.n_instances, 1);
	assert_true(selection_has_instance(&s, "kem-a", "X-256"));
	selection_free(&s);
	/* two candidates have X-128: name one */
	assert_int_equal(resolve(&s, (const char *[]){ "X-128", NULL }, NULL), EXIT_USAGE);
	selection_free(&s);
}

static void test_globs(void **state)
{
	(void)state;
	struct selection s;
	/* a bare glob matches candidate ids first */
	assert_int_equal(resolve(&s, (const char *[]){ "kem-*", NULL }, NULL), 0);
	assert_int_equal(s.n_instances, 4);
	selection_free(&s);
	/* else labels, in every candidate (no ambiguity for a pattern) */
	assert_int_equal(resolve(&s, (const char *[]){ "X-*", NULL }, NULL), 0);
	assert_int_equal(s.n_instances, 3);
	assert_false(selection_has_instance(&s, "kem-a", "Y-1"));
	selection_free(&s);
	assert_int_equal(resolve(&s, (const char *[]){ "*/X-128", NULL }, NULL), 0);
	assert_int_equal(s.n_instances, 2);
	assert_int_equal(s.ids.n, 2);
	selection_free(&s);
}

static void test_unmatched(void **state)
{
	(void)state;
	struct selection s;
	assert_int_equal(resolve(&s, (const char *[]){ "kem-a", "nosuch", NULL }, NULL), EXIT_INPUT);
	assert_false(s.resolved);
	selection_free(&s);
	assert_int_equal(resolve(&s, (const char *[]){ "kem-a/Z-*", NULL }, NULL), EXIT_INPUT);
	selection_free(&s);
	/* an unreadable candidate.conf matters only to the selectors naming it */
	assert_int_equal(resolve(&s, (const char *[]){ "zz-broken", NULL }, NULL), EXIT_INPUT);
	selection_free(&s);
	/* a pattern leaves it out (with a warning) */
	assert_int_equal(resolve(&s, (const char *[]){ "*/X-128", NULL }, NULL), 0);
	assert_int_equal(s.n_instances, 2);
	selection_free(&s);
	assert_int_equal(resolve(&s, (const char *[]){ "kem-b", NULL }, NULL), 0);
	selection_free(&s);
}

static void test_ops(void **state)
{
	(void)state;
	struct selection s;
	assert_int_equal(resolve(&s, (const char *[]){ "kem-a", NULL },
				 (const char *[]){ "keygen", "d*", NULL }), 0);
	assert_true(selection_has_op(&s, "keygen"));
	assert_true(selection_has_op(&s, "dec"));
	assert_false(selection_has_op(&s, "enc"));
	selection_free(&s);
	/* an operation the selected instances do not have */
	assert_int_equal(resolve(&s, (const char *[]){ "kem-a", NULL },
				 (const char *[]){ "exchange", NULL }), EXIT_USAGE);
	selection_free(&s);
	/* a KEX's passes: pass*, pass2 and pass<N> */
	const char *const fams[] = { "pass*", "pass2", "pass<N>" };
	for (size_t i = 0; i < 3; i++) {
		assert_int_equal(resolve(&s, (const char *[]){ "kex-c", NULL },
					 (const char *[]){ fams[i], NULL }), 0);
		assert_true(selection_has_op(&s, "pass2"));
		assert_false(selection_has_op(&s, "exchange"));
		selection_free(&s);
	}
	/* no selector, no op: everything, nothing read */
	selection_init(&s);
	assert_true(selection_is_all(&s));
	assert_true(selection_has_instance(&s, "any", "thing"));
	assert_true(selection_has_op(&s, "keygen"));
	selection_free(&s);
}

static void test_describe(void **state)
{
	(void)state;
	struct selection s;
	assert_int_equal(resolve(&s, (const char *[]){ "X-256", NULL },
				 (const char *[]){ "keygen", NULL }), 0);
	char *d = selection_describe(&s);
	assert_string_equal(d, "X-256 (1 of 5 instances); operations keygen");
	free(d);
	selection_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_id_and_qualified),
		cmocka_unit_test(test_bare_label),
		cmocka_unit_test(test_globs),
		cmocka_unit_test(test_unmatched),
		cmocka_unit_test(test_ops),
		cmocka_unit_test(test_describe),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
