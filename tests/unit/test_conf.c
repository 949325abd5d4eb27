/* test_conf.c — candidate.conf round trip, hand edits and error messages. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "package/conf.h"

static char *tmp_dir;

static int setup(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test_conf.XXXXXX";
	tmp_dir = xstrdup(mkdtemp(tmpl));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rm_rf(tmp_dir);
	free(tmp_dir);
	return 0;
}

static char *write_tmp(const char *name, const char *text)
{
	char *p = path_join(tmp_dir, name);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	return p;
}

static void fill_example(struct candidate_conf *c)
{
	memset(c, 0, sizeof(*c));
	c->id = xstrdup("kem-27");
	c->algorithm = xstrdup("NTRE");
	c->type = xstrdup("kem");
	c->package = xstrdup("NTRE Submission 中文.zip");
	struct instance_conf *in = conf_add_instance(c, "NTRE-128");
	in->type = xstrdup("kem");
	in->variant = xstrdup("reference");
	in->instance = xstrdup("NTRE_128");
	in->source_dir = xstrdup("Implementations and Test_Vectors/Reference_Implementation/NTRE-128");
	in->api_header = xstrdup("KEM_AlgorithmInstance.h");
	sl_push(&in->sources, "KEM_AlgorithmInstance.c");
	sl_push(&in->sources, "src/poly with space.c");
	sl_push(&in->include_dirs, ".");
	sl_push(&in->include_dirs, "src");
	sl_push(&in->cflags, "-DFOO");
	sl_push(&in->defines, "BAR=1");
	sl_push(&in->libs, "-lm");
	in->own_drng = 1;
	in->kat_reference = xstrdup("Test_Vectors/KAT_KEM_NTRE_128.txt");
	in = conf_add_instance(c, "NTRE-H256");
	in->type = xstrdup("hash");
	in->variant = xstrdup("reference");
	in->source_dir = xstrdup("Implementations/Reference_Implementation/NTRE-H256");
	sl_push(&in->sources, "CryptHash_AlgorithmInstance.c");
	in->digest_bits = 256;
	sl_push(&in->kat_files, "Test_Vectors/KAT_2_12_NTRE_H256.txt");
	sl_push(&in->kat_files, "Test_Vectors/KAT_Loop_NTRE_H256.txt");
	in = conf_add_instance(c, "NTRE-128+avx2");
	in->type = xstrdup("kem");
	in->variant = xstrdup("optimized-avx2");
	in->cpu_extension = xstrdup("avx2");
	in->source_dir = xstrdup("Implementations/Optimized_Implementation/NTRE-128");
	in->enabled = 0;
}

static void assert_lists_equal(const struct strlist *a, const struct strlist *b)
{
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++)
		assert_string_equal(a->items[i], b->items[i]);
}

static void test_round_trip(void **state)
{
	(void)state;
	struct candidate_conf c, back;
	char *err = NULL;
	fill_example(&c);
	char *path = path_join(tmp_dir, "candidate.conf");
	assert_int_equal(conf_write(path, &c), 0);
	assert_int_equal(conf_read(path, &back, &err), 0);
	assert_null(err);
	assert_string_equal(back.id, "kem-27");
	assert_string_equal(back.package, c.package);
	assert_int_equal(back.n_inst, 3);
	struct instance_conf *a = &c.inst[0], *b = conf_find_instance(&back, "NTRE-128");
	assert_non_null(b);
	assert_string_equal(b->source_dir, a->source_dir);
	assert_string_equal(b->instance, "NTRE_128");
	assert_lists_equal(&b->sources, &a->sources);
	assert_lists_equal(&b->include_dirs, &a->include_dirs);
	assert_lists_equal(&b->cflags, &a->cflags);
	assert_lists_equal(&b->defines, &a->defines);
	assert_lists_equal(&b->libs, &a->libs);
	assert_int_equal(b->own_drng, 1);
	assert_int_equal(b->own_auxfunc, 0);
	assert_int_equal(b->enabled, 1);
	assert_int_equal(b->digest_bits, 0);
	assert_int_equal(b->kat_files.n, 0);
	struct instance_conf *h = conf_find_instance(&back, "NTRE-H256");
	assert_int_equal(h->digest_bits, 256);
	assert_lists_equal(&h->kat_files, &c.inst[1].kat_files);
	assert_null(h->kat_reference);
	struct instance_conf *o = conf_find_instance(&back, "NTRE-128+avx2");
	assert_non_null(o);
	assert_int_equal(o->enabled, 0);
	assert_null(o->instance);
	assert_null(o->kat_reference);
	assert_string_equal(o->variant, "optimized-avx2");
	assert_string_equal(o->cpu_extension, "avx2");
	assert_int_equal(conf_cpu_ext(o), CPU_EXT_AVX2);
	assert_null(b->cpu_extension);
	assert_int_equal(conf_cpu_ext(b), CPU_EXT_NONE);
	/* Writing what was read gives the same bytes. */
	char *path2 = path_join(tmp_dir, "again.conf");
	assert_int_equal(conf_write(path2, &back), 0);
	char *t1, *t2;
	assert_int_equal(read_file(path, &t1, NULL), 0);
	assert_int_equal(read_file(path2, &t2, NULL), 0);
	assert_string_equal(t1, t2);
	assert_non_null(strstr(t1, "# candidate.conf"));
	free(t1);
	free(t2);
	free(path);
	free(path2);
	conf_free(&c);
	conf_free(&back);
}

static void test_hand_edits(void **state)
{
	(void)state;
	char *p = write_tmp("edited.conf",
		"\xEF\xBB\xBF# my notes\r\n"
		"\n"
		"  [instance Foo 1]  \n"
		"source = b.c   \n"
		"\t# indented comment\n"
		"source_dir=Impl/Foo 1\n"
		"  type   =   kem\n"
		"enabled = Yes\n"
		"define = X=1=2\n"
		"\n"
		"[candidate]\n"
		"type = kem\n"
		"id = foo\r\n");
	struct candidate_conf c;
	char *err = NULL;
	assert_int_equal(conf_read(p, &c, &err), 0);
	assert_string_equal(c.id, "foo");
	struct instance_conf *in = conf_find_instance(&c, "Foo 1");
	assert_non_null(in);
	assert_string_equal(in->source_dir, "Impl/Foo 1");
	assert_string_equal(in->sources.items[0], "b.c");
	assert_string_equal(in->defines.items[0], "X=1=2");
	assert_string_equal(in->variant, "reference"); /* the default */
	assert_int_equal(in->enabled, 1);
	conf_free(&c);
	free(p);
}

/* Each bad file must fail with "path:line: <needle>". */
static void expect_error(const char *text, int line, const char *needle)
{
	char *p = write_tmp("bad.conf", text);
	struct candidate_conf c;
	char *err = NULL;
	assert_int_equal(conf_read(p, &c, &err), -1);
	assert_non_null(err);
	char *prefix = xasprintf("%s:%d: ", p, line);
	if (!str_starts_with(err, prefix) || !strstr(err, needle))
		fail_msg("got '%s', want prefix '%s' and '%s'", err, prefix, needle);
	free(prefix);
	free(err);
	free(p);
}

#define INST "[candidate]\nid = x\n[instance A]\ntype = kem\nsource_dir = d\nsource = a.c\n"

#define HINST "[candidate]\nid = x\n[instance A]\ntype = hash\nsource_dir = d\nsource = a.c\n"

static void test_errors(void **state)
{
	(void)state;
	expect_error("[candidate]\nid = x\nfoo = 1\n", 3, "unknown key 'foo'");
	expect_error(INST "colour = red\n", 7, "unknown key 'colour' in [instance A]");
	expect_error(INST "enabled = maybe\n", 7, "must be yes or no");
	expect_error(INST "variant = fast\n", 7, "variant 'fast'");
	expect_error(INST "cpu_extension = sse9\n", 7, "cpu_extension 'sse9' is not one of none, avx2");
	expect_error(INST "type = kem\n", 7, "duplicate key 'type'");
	expect_error(INST "[instance A]\n", 7, "defined twice");
	expect_error("id = x\n", 1, "outside any section");
	expect_error("[candidate]\nid = x\nnonsense\n", 3, "expected 'key = value'");
	expect_error("[candidate\n", 1, "closing ']'");
	expect_error("[candidates]\n", 1, "unknown section");
	expect_error("[candidate]\nid = x\n\n[instance B]\nsource_dir = d\nsource = a.c\n", 4, "has no 'type'");
	expect_error("[candidate]\nid = x\n[instance B]\ntype = kem\nsource = a.c\n", 3, "has no 'source_dir'");
	expect_error("[candidate]\nid = x\n[instance B]\ntype = kem\nsource_dir = d\n", 3, "lists no 'source'");
	expect_error(INST "source =\n", 7, "needs a value");
	expect_error("[candidate]\nalgorithm = y\n", 1, "has no 'id'");
	expect_error("# empty\n", 1, "no [candidate] section");
	expect_error("[candidate]\nid = a\n[candidate]\n", 3, "given twice");
	/* a label names files: the path-name rule (evidence/names.h) */
	expect_error("[candidate]\nid = x\n[instance .hidden]\n", 3, "invalid instance label '.hidden'");
	expect_error("[candidate]\nid = x\n[instance ..]\n", 3, "invalid instance label");
	expect_error("[candidate]\nid = x\n[instance a/b]\n", 3, "invalid instance label");
	/* hash-only keys */
	expect_error(INST "digest_bits = 256\n", 3, "'kat_file' and 'digest_bits' are for hash instances");
	expect_error(INST "kat_file = K.txt\n", 3, "'kat_file' and 'digest_bits' are for hash instances");
	expect_error(HINST "kat_reference = K.txt\n", 3, "lists its KAT files with 'kat_file' lines");
	expect_error(HINST "digest_bits = 25x\n", 7, "digest_bits must be a number of bits");
	expect_error(HINST "digest_bits = 0\n", 7, "digest_bits must be a number of bits");
	expect_error(HINST "digest_bits = 256\ndigest_bits = 512\n", 8, "duplicate key 'digest_bits'");
	expect_error(HINST "kat_file =\n", 7, "needs a value");
}

/* Findings 6 and 8 of issue 16: a NUL byte does not end the file early,
 * a bare CR (or another control character) inside a value is refused by
 * the reader as it is by the writer; CRLF line ends stay fine. */
static void test_nul_and_control_characters(void **state)
{
	(void)state;
	static const char nul[] = INST "\n\0[instance B]\ntype = kem\nsource_dir = d\n";
	char *p = path_join(tmp_dir, "nul.conf");
	assert_int_equal(write_file(p, nul, sizeof nul - 1), 0);
	struct candidate_conf c;
	char *err = NULL;
	assert_int_equal(conf_read(p, &c, &err), -1);
	char *want = xasprintf("%s:8: a NUL byte", p);
	assert_true(str_starts_with(err, want));
	free(want);
	free(err);
	free(p);
	expect_error(INST "define = A\rB\n", 7, "control character 0x0d");
	expect_error(INST "define = A\x1b[2J\n", 7, "control character 0x1b");
	p = write_tmp("crlf.conf", "[candidate]\r\nid = x\r\n[instance A]\r\ntype = kem\r\n"
		      "source_dir = d\r\nsource = a.c\r\n");
	assert_int_equal(conf_read(p, &c, &err), 0);
	assert_string_equal(c.inst[0].sources.items[0], "a.c");
	conf_free(&c);
	free(p);
}

static void test_missing_file(void **state)
{
	(void)state;
	struct candidate_conf c;
	char *err = NULL;
	char *p = path_join(tmp_dir, "nope.conf");
	assert_int_equal(conf_read(p, &c, &err), -1);
	assert_non_null(strstr(err, "cannot read"));
	free(err);
	free(p);
}

static void test_unwritable_value(void **state)
{
	(void)state;
	struct candidate_conf c;
	fill_example(&c);
	free(c.algorithm);
	c.algorithm = xstrdup("two\nlines");
	char *p = path_join(tmp_dir, "nl.conf");
	assert_int_equal(conf_write(p, &c), -1);
	assert_false(path_exists(p));
	free(p);
	conf_free(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_hand_edits),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_missing_file),
		cmocka_unit_test(test_nul_and_control_characters),
		cmocka_unit_test(test_unwritable_value),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
