/*
 * test_levels.c — discovery of parameter sets that share one folder or one
 * code tree (the level-layout fixture packages of tests/fixtures/levels/),
 * the reading of Makefiles and CMakeLists.txt as data (package/buildfacts.h)
 * and the lexical questions asked of C text (package/cscan.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "package/buildfacts.h"
#include "package/cscan.h"
#include "discover_fixture.h"

static char *fixture(const char *name)
{
	return fixture_package("levels", name);
}

static int why_mentions(const struct found_instance *fi, const char *needle)
{
	return list_mentions(&fi->why, needle);
}

/* ---- discovery on the fixtures ---- */

static void test_include_path_levels(void **state)
{
	(void)state;
	char *root = fixture("IncPathKEM");
	struct discovery d;
	assert_int_equal(discover_package(root, "IncPathKEM", &d), 2);
	assert_null(d.error);
	const struct found_instance *a = by_label(&d, "IncPathKEM-48");
	assert_string_equal(a->level, "48");
	assert_string_equal(a->instance, "IncPath_48");
	assert_string_equal(a->source_dir, "Implementations/Reference_Implementation/common/48");
	static const char *const src[] = {
		"../lvl.c", "../../ref/kem.c", "../../../Lib/drng/drng.c", "../../../Lib/drng/sm3.c",
		"../../../Lib/auxfunc/auxfunc.c", NULL
	};
	assert_list(&a->sources, src, "IncPathKEM-48 sources");
	/* its own level's folders only: never ../80 or ../../ref/80 */
	static const char *const inc[] = {
		".", "..", "../../ref/48", "../../../Lib/drng", "../../../Lib/auxfunc", NULL
	};
	assert_list(&a->include_dirs, inc, "IncPathKEM-48 include folders");
	assert_true(a->own_drng && a->own_auxfunc);
	assert_string_equal(a->kat_reference, "Test_Vectors/KAT_KEM_IncPath_48.txt");
	const struct found_instance *b = by_label(&d, "IncPathKEM-80");
	assert_true(sl_contains(&b->include_dirs, "../../ref/80"));
	assert_false(sl_contains(&b->include_dirs, "../../ref/48"));
	assert_string_equal(b->kat_reference, "Test_Vectors/KAT_KEM_IncPath_80.txt");
	assert_string_not_equal(a->digest, b->digest);
	assert_int_equal(d.notes.n, 0);
	discovery_free(&d);
	free(root);
}

static void test_file_per_level(void **state)
{
	(void)state;
	char *root = fixture("FileLevelKEM");
	struct discovery d;
	assert_int_equal(discover_package(root, "FileLevelKEM", &d), 2);
	assert_null(d.error);
	const struct found_instance *a = by_label(&d, "FileLevel-96");
	static const char *const src[] = { "api_96.c", "lvl.c", "drng.c", "auxfunc.c", "sm3.c", NULL };
	assert_list(&a->sources, src, "FileLevel-96 sources"); /* not api.c, api_160.c, bench */
	static const char *const defs[] = { "LVL_TAG=7", NULL };
	assert_list(&a->defines, defs, "FileLevel-96 defines");
	static const char *const libs[] = { "-lgmp", NULL };
	assert_list(&a->libs, libs, "FileLevel-96 libs");
	assert_string_equal(a->api_header, "KEM_FileLevel.h");
	assert_true(a->placeholder);
	assert_string_equal(a->kat_reference, "Test_Vectors/96/KAT_KEM_AlgorithmInstance.txt");
	assert_true(why_mentions(a, "api.c (#included by api_160.c, api_96.c; it has an #error guard)"));
	/* where each fact came from */
	int origin = 0;
	for (size_t i = 0; i < a->facts.n; i++)
		origin |= strstr(a->facts.items[i], "define LVL_TAG=7: Implementations/Reference_"
						    "Implementation/FileLevel/Makefile:3") != NULL;
	assert_true(origin);
	const struct found_instance *b = by_label(&d, "FileLevel-160");
	assert_true(sl_contains(&b->sources, "api_160.c"));
	assert_false(sl_contains(&b->sources, "api_96.c"));
	assert_string_equal(b->kat_reference, "Test_Vectors/160/KAT_KEM_AlgorithmInstance.txt");
	discovery_free(&d);
	free(root);
}

static void test_sibling_and_macro_levels(void **state)
{
	(void)state;
	char *root = fixture("SiblingLevelKEM");
	struct discovery d;
	assert_int_equal(discover_package(root, "SiblingLevelKEM", &d), 2);
	const struct found_instance *a = by_label(&d, "SiblingLevel-48");
	assert_true(sl_contains(&a->sources, "kem48.c"));
	assert_false(sl_contains(&a->sources, "kem64.c"));
	assert_string_equal(a->kat_reference, "Test_Vectors/KAT_KEM_SiblingLevel-48.txt");
	discovery_free(&d);
	free(root);

	root = fixture("MacroLevelKEM");
	assert_int_equal(discover_package(root, "MacroLevelKEM", &d), 2);
	const struct found_instance *one = by_label(&d, "MacroLevel-1");
	const struct found_instance *five = by_label(&d, "MacroLevel-5");
	static const char *const d1[] = { "LVL_SET=1", NULL }, *const d5[] = { "LVL_SET=5", NULL };
	assert_list(&one->defines, d1, "MacroLevel-1 defines");
	assert_list(&five->defines, d5, "MacroLevel-5 defines");
	assert_string_equal(one->instance, "MacroLevel_1");
	assert_string_equal(five->instance, "MacroLevel_5");
	assert_string_equal(five->kat_reference, "Test_Vectors/KAT_KEM_MacroLevel_5.txt");
	discovery_free(&d);
	free(root);
}

static char *write_tree(const char *const (*files)[2], size_t n);

static void test_ambiguous_header_refused(void **state)
{
	(void)state;
	char *root = fixture("AmbiguousKEM");
	struct discovery d;
	discover_package(root, "AmbiguousKEM", &d);
	assert_non_null(d.error);
	assert_non_null(strstr(d.error, "header 'params.h'"));
	assert_non_null(strstr(d.error, "'include' and 'src'"));
	discovery_free(&d);
	free(root);
	/* byte-identical copies give the same compile whichever is taken */
	static const char *const files[][2] = {
		{ "Implementations/Reference_Implementation/Same-1/KEM_AlgorithmInstance.h",
		  "int kem_keygen(unsigned char *pk, unsigned char *sk);\n" },
		{ "Implementations/Reference_Implementation/Same-1/kem.c",
		  "#include \"params.h\"\nint kem_keygen(unsigned char *pk, unsigned char *sk) "
		  "{ (void)pk; (void)sk; return N; }\n" },
		{ "Implementations/Reference_Implementation/Same-1/include/params.h", "#define N 1\n" },
		{ "Implementations/Reference_Implementation/Same-1/src/params.h", "#define N 1\n" },
	};
	root = write_tree(files, 4);
	assert_int_equal(discover_package(root, "Same", &d), 1);
	assert_null(d.error);
	discovery_free(&d);
	rm_rf(root);
	free(root);
}

/* A package of one instance folder written here: its API header, one
 * source and a Makefile. */
static char *tiny_package(const char *source, const char *makefile)
{
	char tmpl[] = "/tmp/test_levels.XXXXXX";
	char *root = xstrdup(mkdtemp(tmpl));
	char *dir = path_join(root, "Implementations/Reference_Implementation/One");
	assert_int_equal(mkdir_p(dir, 0755), 0);
	static const char header[] =
		"#define ALGORITHM_INSTANCE \"One\"\n"
		"int kem_keygen(unsigned char *pk, unsigned long long *pkl,\n"
		"               unsigned char *sk, unsigned long long *skl);\n";
	const char *files[][2] = {
		{ "KEM_AlgorithmInstance.h", header },
		{ "KEM_AlgorithmInstance.c", source },
		{ "Makefile", makefile },
	};
	for (size_t i = 0; i < 3; i++) {
		char *p = path_join(dir, files[i][0]);
		assert_int_equal(write_file(p, files[i][1], strlen(files[i][1])), 0);
		free(p);
	}
	free(dir);
	return root;
}

/* Files (path, text) written below a new temporary folder, returned. */
static char *write_tree(const char *const (*files)[2], size_t n)
{
	char tmpl[] = "/tmp/test_levels.XXXXXX";
	char *root = xstrdup(mkdtemp(tmpl));
	for (size_t i = 0; i < n; i++) {
		char *p = path_join(root, files[i][0]);
		char *dir = path_dirname(p);
		assert_int_equal(mkdir_p(dir, 0755), 0);
		assert_int_equal(write_file(p, files[i][1], strlen(files[i][1])), 0);
		free(dir);
		free(p);
	}
	return root;
}

/* Levels by include path with a reference and an optimized code folder,
 * each declaring the API in a header of its own: one instance per level and
 * kind of code; the code folders are no instances of their own. */
static void test_include_path_variants(void **state)
{
	(void)state;
	static const char api[] = "int kem_keygen(unsigned char *pk, unsigned char *sk);\n";
	static const char kem[] = "#include \"api.h\"\n#include \"parameters.h\"\n"
				  "int kem_keygen(unsigned char *pk, unsigned char *sk) "
				  "{ (void)pk; (void)sk; return N; }\n";
	/* the avx2/ tree's code is AVX2 code: the code, not the folder, says so */
	static const char kem_avx2[] = "#include \"api.h\"\n#include \"parameters.h\"\n"
				       "#include <immintrin.h>\n"
				       "int kem_keygen(unsigned char *pk, unsigned char *sk) "
				       "{ __m256i z = _mm256_setzero_si256(); (void)pk; (void)sk; "
				       "return N + _mm256_testz_si256(z, z); }\n";
	static const char *const files[][2] = {
		{ "Implementations/Reference_Implementation/common/48/api.h", api },
		{ "Implementations/Reference_Implementation/common/80/api.h", api },
		{ "Implementations/Reference_Implementation/common/util.c", "int util(void) { return 1; }\n" },
		{ "Implementations/Reference_Implementation/ref/kem.c", kem },
		{ "Implementations/Reference_Implementation/ref/kem.h", api },
		{ "Implementations/Reference_Implementation/ref/48/parameters.h", "#define N 48\n" },
		{ "Implementations/Reference_Implementation/ref/80/parameters.h", "#define N 80\n" },
		{ "Implementations/Reference_Implementation/avx2/kem.c", kem_avx2 },
		{ "Implementations/Reference_Implementation/avx2/48/parameters.h", "#define N 48\n" },
		{ "Implementations/Reference_Implementation/avx2/80/parameters.h", "#define N 80\n" },
	};
	char *root = write_tree(files, sizeof files / sizeof files[0]);
	struct discovery d;
	assert_int_equal(discover_package(root, "Pkg", &d), 4);
	assert_null(d.error);
	const struct found_instance *r = by_label(&d, "Pkg-48");
	static const char *const rs[] = { "../util.c", "../../ref/kem.c", NULL };
	assert_list(&r->sources, rs, "Pkg-48 sources");
	static const char *const ri[] = { ".", "../../ref", "../../ref/48", NULL };
	assert_list(&r->include_dirs, ri, "Pkg-48 include folders");
	const struct found_instance *o = by_label(&d, "Pkg-80+avx2");
	assert_string_equal(o->variant, "optimized-avx2");
	static const char *const os[] = { "../util.c", "../../avx2/kem.c", NULL };
	assert_list(&o->sources, os, "Pkg-80+avx2 sources");
	assert_true(sl_contains(&o->include_dirs, "../../avx2/80"));
	int noted = 0;
	for (size_t i = 0; i < d.notes.n; i++)
		noted |= strstr(d.notes.items[i], "'Implementations/Reference_Implementation/ref' holds an API "
					  "header but its code is shared") != NULL;
	assert_true(noted);
	discovery_free(&d);
	rm_rf(root);
	free(root);
}

/* Only defines the code names can tell targets apart; a define the code
 * only tests with #ifdef (a switch) is not set; one it uses is. */
static void test_targets_and_switches(void **state)
{
	(void)state;
	char *root = tiny_package(
		"#include \"KEM_AlgorithmInstance.h\"\n"
		"#ifdef SYSTEM_RANDOM\nint use_urandom;\n#endif\n"
		"int kem_keygen(unsigned char *pk, unsigned long long *pkl,\n"
		"               unsigned char *sk, unsigned long long *skl)\n"
		"{ (void)pk; (void)sk; *pkl = *skl = USE_VALUE; return 0; }\n",
		"CFLAGS = -O2 -DSYSTEM_RANDOM\n"
		"kat: KEM_AlgorithmInstance.c\n\t$(CC) $(CFLAGS) -DKAT_ONLY -o $@ $^\n"
		"lib: KEM_AlgorithmInstance.c\n\t$(CC) $(CFLAGS) -DNDEBUG -DUSE_VALUE=3 -o $@ $^\n");
	struct discovery d;
	assert_int_equal(discover_package(root, "One", &d), 1); /* not split by kat/lib */
	const struct found_instance *fi = &d.inst[0];
	static const char *const defs[] = { "USE_VALUE=3", NULL };
	assert_list(&fi->defines, defs, "One defines");
	assert_true(why_mentions(fi, "define SYSTEM_RANDOM"));
	assert_true(why_mentions(fi, "never uses its value"));
	discovery_free(&d);
	rm_rf(root);
	free(root);
}

/* ---- build files as data ---- */

static const struct build_fact *fact(const struct build_fact *v, size_t n, enum fact_kind k,
				     const char *value)
{
	for (size_t i = 0; i < n; i++)
		if (v[i].kind == k && !strcmp(v[i].value, value))
			return &v[i];
	return NULL;
}

static void test_makefile_facts(void **state)
{
	(void)state;
	static const char mk[] =
		"# comment -DNOT_A_FACT\n"
		"ICCS ?= ../../API\n"
		"CFLAGS = -O2 -I. -Iinc \\\n"
		"\t-DPREFIX=\\\"abc\\\"\n"
		"LIBS = -lgmp -lquadmath\n"
		"all: kem128 kem256\n"
		"kem128: kem.c $(wildcard src/*.c)\n"
		"\t$(CC) $(CFLAGS) -DLEVEL=128 -o $@ $^ $(LIBS)\n"
		"kem256: kem.c\n"
		"\t@gcc $(CFLAGS) -D LEVEL=256 -I$(ICCS) -o $@ $^ $(LIBS) $(shell pkg-config --libs x)\n"
		"ntt.o: ntt.c\n"
		"\t$(CC) -c -DNTT_FAST ntt.c\n"
		"test: test.c\n"
		"\t$(CC) -DTESTING test.c\n"
		"clean:\n"
		"\trm -f *.o\n";
	struct build_facts f = { 0 };
	build_facts_parse("sub/Makefile", mk, &f);
	assert_int_equal(f.n_global, 0); /* recipes run the compiler: no implicit rules */
	assert_int_equal(f.n_rules, 3);  /* kem128, kem256, ntt.o (test is ignored) */
	const struct build_rule *r = &f.rules[0];
	assert_string_equal(r->target, "kem128");
	assert_false(r->compile_only);
	const struct build_fact *x = fact(r->facts, r->n_facts, FACT_DEFINE, "LEVEL=128");
	assert_non_null(x);
	assert_string_equal(x->origin, "sub/Makefile:8");
	x = fact(r->facts, r->n_facts, FACT_DEFINE, "PREFIX=\"abc\"");
	assert_non_null(x);
	assert_string_equal(x->origin, "sub/Makefile:3"); /* the variable's line */
	assert_non_null(fact(r->facts, r->n_facts, FACT_LIB, "-lquadmath"));
	assert_non_null(fact(r->facts, r->n_facts, FACT_INCLUDE, "inc"));
	assert_true(sl_contains(&r->files, "kem.c"));
	r = &f.rules[1];
	assert_non_null(fact(r->facts, r->n_facts, FACT_DEFINE, "LEVEL=256"));
	assert_non_null(fact(r->facts, r->n_facts, FACT_INCLUDE, "../../API"));
	r = &f.rules[2];
	assert_true(r->compile_only);
	assert_non_null(fact(r->facts, r->n_facts, FACT_DEFINE, "NTT_FAST"));
	for (size_t i = 0; i < f.n_rules; i++)
		assert_null(fact(f.rules[i].facts, f.rules[i].n_facts, FACT_DEFINE, "NOT_A_FACT"));
	build_facts_free(&f);

	/* a variable that refers to itself (make refuses it) expands once */
	build_facts_parse("Makefile", "CFLAGS = -DA $(CFLAGS) $(CFLAGS) $(CFLAGS)\n"
			  "k: k.c\n\t$(CC) $(CFLAGS) -o k k.c\n", &f);
	assert_int_equal(f.n_rules, 1);
	assert_int_equal(f.rules[0].n_facts, 1);
	build_facts_free(&f);

	/* implicit rules only: the flag variables are the facts */
	build_facts_parse("Makefile", "CPPFLAGS += -DUSE_X\nLDLIBS = -lm\nkem: kem.o\n", &f);
	assert_non_null(fact(f.global, f.n_global, FACT_DEFINE, "USE_X"));
	assert_non_null(fact(f.global, f.n_global, FACT_LIB, "-lm"));
	build_facts_free(&f);
}

static void test_cmake_facts(void **state)
{
	(void)state;
	static const char cm[] =
		"cmake_minimum_required(VERSION 3.10) # -DNOT\n"
		"set(SRC kem.c poly.c)\n"
		"add_definitions(-DGLOBAL_X=1)\n"
		"include_directories(include ${CMAKE_SOURCE_DIR}/other)\n"
		"add_library(iccs STATIC drng.c)\n"
		"add_executable(kem_l1 main.c ${SRC})\n"
		"target_compile_definitions(kem_l1 PRIVATE\n"
		"    LEVEL=1)\n"
		"target_link_libraries(kem_l1 PRIVATE iccs gmp Foo::Bar)\n";
	struct build_facts f = { 0 };
	build_facts_parse("CMakeLists.txt", cm, &f);
	assert_non_null(fact(f.global, f.n_global, FACT_DEFINE, "GLOBAL_X=1"));
	assert_non_null(fact(f.global, f.n_global, FACT_INCLUDE, "include"));
	const struct build_rule *r = NULL;
	for (size_t i = 0; i < f.n_rules; i++)
		if (!strcmp(f.rules[i].target, "kem_l1"))
			r = &f.rules[i];
	assert_non_null(r);
	const struct build_fact *x = fact(r->facts, r->n_facts, FACT_DEFINE, "LEVEL=1");
	assert_non_null(x);
	assert_string_equal(x->origin, "CMakeLists.txt:7");
	assert_non_null(fact(r->facts, r->n_facts, FACT_LIB, "-lgmp"));
	assert_null(fact(r->facts, r->n_facts, FACT_LIB, "-liccs")); /* its own target */
	assert_null(fact(r->facts, r->n_facts, FACT_LIB, "-lFoo::Bar"));
	assert_true(sl_contains(&r->files, "poly.c"));
	build_facts_free(&f);
}

/* ---- C text ---- */

static void test_cscan(void **state)
{
	(void)state;
	static const char src[] =
		"/* #include \"no.c\" */\n"
		"#include \"api.c\"\n"
		"#include <stdio.h>\n"
		"#ifdef SYSTEM_RANDOM\n"
		"int get_random(void) { return 4; }\n"
		"#endif\n"
		"static int helper(int x) { return x; }\n"
		"int level_n(void)\n{\n\treturn PARAM_N + helper(1);\n}\n"
		"const char *s = \"PREFIX in a string\";\n"
		"#if defined(ONLY_TESTED) && WIDTH == 4\n#endif\n";
	struct strlist inc = STRLIST_INIT, fns = STRLIST_INIT;
	cscan_quoted_includes(src, &inc);
	assert_int_equal(inc.n, 1);
	assert_string_equal(inc.items[0], "api.c");
	cscan_defined_functions(src, &fns);
	assert_int_equal(fns.n, 1); /* not the static one, not the one under #ifdef */
	assert_string_equal(fns.items[0], "level_n");
	assert_true(cscan_uses_value(src, "PARAM_N"));
	assert_true(cscan_uses_value(src, "WIDTH"));
	assert_false(cscan_uses_value(src, "SYSTEM_RANDOM"));
	assert_false(cscan_uses_value(src, "ONLY_TESTED"));
	assert_false(cscan_uses_value(src, "PREFIX"));
	assert_false(cscan_has_error_directive(src));
	assert_true(cscan_has_error_directive("#if !defined(N)\n# error compile api_1.c\n#endif\n"));
	sl_free(&inc);
	sl_free(&fns);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_include_path_levels),
		cmocka_unit_test(test_file_per_level),
		cmocka_unit_test(test_sibling_and_macro_levels),
		cmocka_unit_test(test_ambiguous_header_refused),
		cmocka_unit_test(test_targets_and_switches),
		cmocka_unit_test(test_include_path_variants),
		cmocka_unit_test(test_makefile_facts),
		cmocka_unit_test(test_cmake_facts),
		cmocka_unit_test(test_cscan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
