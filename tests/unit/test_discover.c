/*
 * test_discover.c — discovery on every layout fixture package (generated
 * from tests/fixtures/layouts/), the C lexer's main() detection, names and ids,
 * and the safety of package import (zip-slip, absolute entries, symlinks,
 * size cap, nested archives) on archives written here with libarchive.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <archive.h>
#include <archive_entry.h>

#include "build/build.h"
#include "discover_fixture.h"
#include "package/extract.h"

static char *tmp_dir;

static int setup(void **state)
{
	(void)state;
	char tmpl[] = "/tmp/test_discover.XXXXXX";
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

static char *fixture(const char *name)
{
	return fixture_package("layouts", name);
}

static void assert_sources(const struct found_instance *fi, const char *const *want)
{
	assert_list(&fi->sources, want, fi->label);
}

static int notes_mention(const struct discovery *d, const char *needle)
{
	return list_mentions(&d->notes, needle);
}

static void test_toykem(void **state)
{
	(void)state;
	char *root = fixture("ToyKEM Submission v1.0");
	struct discovery d;
	assert_int_equal(discover_package(root, "ToyKEM", &d), 3);
	const struct found_instance *a = by_label(&d, "Toy-1-128");
	assert_string_equal(a->type, "kem");
	assert_string_equal(a->variant, "reference");
	assert_string_equal(a->instance, "TOY_1_128");
	assert_string_equal(a->source_dir, "Implementations/Reference_Implementation/Toy-1-128");
	assert_string_equal(a->api_header, "KEM_AlgorithmInstance.h");
	/* Junk excluded: KAT_KEM.c, demo.c (main), bench_kem.c, test/, bin/, .o;
	 * banner.c mentions main( only in a comment and a string. */
	static const char *const want_a[] = {
		"KEM_AlgorithmInstance.c", "auxfunc.c", "drng.c", "sm3.c",
		"src/banner.c", "src/toy.c", NULL
	};
	assert_sources(a, want_a);
	assert_true(sl_contains(&a->include_dirs, "."));
	assert_true(sl_contains(&a->include_dirs, "src"));
	assert_false(sl_contains(&a->include_dirs, "test"));
	assert_int_equal(a->own_drng, 1);
	assert_int_equal(a->own_auxfunc, 1);
	assert_int_equal(a->enabled, 1);
	assert_string_equal(a->kat_reference, "Test_Vectors/KAT_KEM_TOY_1_128.txt");

	/* an optimized tree without intrinsics: portable (issue #29) */
	const struct found_instance *o = by_label(&d, "Toy-1-128+portable");
	assert_string_equal(o->variant, "optimized-portable");
	assert_string_equal(o->source_dir, "Implementations/Optimized_Implementation/Toy-1-128");
	assert_int_equal(o->enabled, 1);

	/* Another header name; ALGORITHM_INSTANCE from src/params.h; per-instance KAT folder. */
	const struct found_instance *b = by_label(&d, "Toy-3-192");
	assert_string_equal(b->api_header, "KEM_toy192.h");
	assert_string_equal(b->instance, "TOY_3_192");
	static const char *const want_b[] = { "KEM_toy192.c", "src/toy.c", NULL };
	assert_sources(b, want_b);
	assert_int_equal(b->own_drng, 0);
	assert_int_equal(b->own_auxfunc, 0);
	assert_string_equal(b->kat_reference, "Test_Vectors/Toy-3-192/KAT_KEM_TOY_3_192.txt");

	/* The byte-identical 中文资料 copy is skipped, with a note. */
	assert_true(notes_mention(&d, "中文资料/源代码/Toy-1-128"));
	discovery_free(&d);
	free(root);
}

static void test_lwekem_merged_folder(void **state)
{
	(void)state;
	char *root = fixture("LWEKEM-v2");
	struct discovery d;
	assert_int_equal(discover_package(root, "LWEKEM", &d), 1);
	const struct found_instance *a = by_label(&d, "lwekem128");
	assert_string_equal(a->source_dir,
			    "Implementations and Test_Vectors/Reference_Implementation/lwekem128");
	assert_string_equal(a->api_header, "KEM_lwekem128.h");
	assert_string_equal(a->instance, "LWEKEM128");
	assert_string_equal(a->kat_reference,
			    "Implementations and Test_Vectors/Test_Vector/KAT_KEM_LWEKEM128.txt");
	discovery_free(&d);
	free(root);
}

static void test_doubled_common(void **state)
{
	(void)state;
	char *root = fixture("DoubledKEM");
	struct discovery d;
	assert_int_equal(discover_package(root, "DoubledKEM", &d), 2);
	const struct found_instance *r = by_label(&d, "DoubledKEM");
	assert_string_equal(r->variant, "reference");
	assert_string_equal(r->source_dir, "Implementations/Implementations/ref");
	assert_string_equal(r->api_header, "../common/KEM_AlgorithmInstance.h");
	assert_true(r->placeholder);
	static const char *const want[] = { "../common/KEM_AlgorithmInstance.c", "toy.c", NULL };
	assert_sources(r, want);
	assert_true(sl_contains(&r->include_dirs, "../common"));
	assert_string_equal(r->kat_reference, "Test_Vectors/KAT_KEM_AlgorithmInstance.txt");
	const struct found_instance *x = by_label(&d, "DoubledKEM+portable");
	assert_string_equal(x->variant, "optimized-portable");
	assert_true(notes_mention(&d, "placeholder"));
	discovery_free(&d);
	free(root);
}

static void test_others_only(void **state)
{
	(void)state;
	char *root = fixture("OthersOnlyKEM");
	struct discovery d;
	assert_int_equal(discover_package(root, "OthersOnlyKEM", &d), 1);
	const struct found_instance *a = by_label(&d, "Toy-5-256");
	assert_string_equal(a->source_dir, "Others/Toy-5-256");
	assert_int_equal(a->enabled, 1);
	assert_int_equal(a->own_drng, 1);
	assert_string_equal(a->kat_reference, "Others/KAT_KEM_TOY_5_256.txt");
	discovery_free(&d);
	free(root);
}

static void test_sig_supported(void **state)
{
	(void)state;
	char *root = fixture("ToySIG Submission");
	struct discovery d;
	assert_int_equal(discover_package(root, "ToySIG", &d), 1);
	const struct found_instance *a = by_label(&d, "ToySig-128");
	assert_string_equal(a->type, "sign");
	assert_string_equal(a->instance, "TOYSIG_128");
	assert_int_equal(a->enabled, 1);
	assert_false(notes_mention(&d, "not yet supported"));
	discovery_free(&d);
	free(root);
}

static void test_no_implementation(void **state)
{
	(void)state;
	char *root = fixture("NoImplementation");
	struct discovery d;
	assert_int_equal(discover_package(root, "x", &d), 0);
	discovery_free(&d);
	free(root);
}

/* Write a file below tmp_dir, creating folders. */
static void put_file(const char *rel, const char *text)
{
	char *p = path_join(tmp_dir, rel);
	char *dir = path_dirname(p);
	assert_int_equal(mkdir_p(dir, 0755), 0);
	assert_int_equal(write_file(p, text, strlen(text)), 0);
	free(dir);
	free(p);
}

/* KEX and hash packages are recognised by what their headers declare, even
 * under unusual names (both are measured, so enabled);
 * Additional_Implementations are kept but disabled. */
static void test_other_types_and_additional(void **state)
{
	(void)state;
	put_file("kinds/Implementations/Reference_Implementation/Kex-1/api.h",
		 "#define ALGORITHM_INSTANCE \"KEX_1\"\n"
		 "int kex_init_a(unsigned char *pka, unsigned long long *pka_len,\n"
		 "               unsigned char *ska, unsigned long long *ska_len,\n"
		 "               unsigned char *sta, unsigned long long *sta_len);\n");
	put_file("kinds/Implementations/Reference_Implementation/Kex-1/kex.c", "int kex_x;\n");
	put_file("kinds/Implementations/Reference_Implementation/Hash-256/CryptHash_h256.h",
		 "/* int kem_keygen( in a comment does not count */\n"
		 "int CryptHash(int digest_len_bits, const unsigned char *msg,\n"
		 "              unsigned long long msg_len_bits, unsigned char *digest);\n");
	put_file("kinds/Implementations/Reference_Implementation/Hash-256/h.c", "int h;\n");
	put_file("kinds/Implementations/Additional_Implementations/Kem-M4/KEM_m4.h",
		 "#define ALGORITHM_INSTANCE \"KEM_M4\"\nint kem_keygen(unsigned char *pk);\n");
	put_file("kinds/Implementations/Additional_Implementations/Kem-M4/m4.c", "int m4;\n");
	put_file("kinds/Test_Vectors/KAT_KEM_KEM_M4.txt", "Count = 0\n");
	char *root = path_join(tmp_dir, "kinds");
	struct discovery d;
	assert_int_equal(discover_package(root, "kinds", &d), 3);
	const struct found_instance *k = by_label(&d, "Kex-1");
	assert_string_equal(k->type, "kex");
	assert_string_equal(k->api_header, "api.h");
	assert_int_equal(k->enabled, 1);
	const struct found_instance *h = by_label(&d, "Hash-256");
	assert_string_equal(h->type, "hash");
	assert_null(h->instance);
	assert_int_equal(h->enabled, 1);
	assert_int_equal(h->digest_bits, 0);
	const struct found_instance *m = by_label(&d, "Kem-M4+additional");
	assert_string_equal(m->type, "kem");
	assert_string_equal(m->variant, "additional");
	assert_int_equal(m->enabled, 1); /* measured beside the reference (issue #29) */
	assert_string_equal(m->kat_reference, "Test_Vectors/KAT_KEM_KEM_M4.txt");
	assert_false(notes_mention(&d, "not yet supported"));
	assert_true(notes_mention(&d, "Hash-256: no #define ALGORITHM_INSTANCE"));
	assert_true(notes_mention(&d, "Hash-256: no #define DIGEST_BIT_LENGTH found in its headers; "
				  "set digest_bits = N in candidate.conf"));
	discovery_free(&d);
	free(root);
}

/* Hash packages as they come: CRLF lines, a UTF-8 byte-order mark and
 * Chinese comments, the API header under another name, DIGEST_BIT_LENGTH
 * in another header as the name of a further macro, no auxfunc, and the
 * four KAT files of each instance found in Test_Vectors/. */
/* Implementation variants (issue #29): the tree's kind from its folders
 * (vendor-named, x86_64 beside ref, Additional_* holding an arch folder),
 * the extension from the code, never from the folder name alone. */
static void put_kem(const char *dir, const char *inst, const char *code)
{
	char *h = xasprintf("variants/%s/KEM_AlgorithmInstance.h", dir);
	char *c = xasprintf("variants/%s/kem.c", dir);
	char *hdr = xasprintf("#define ALGORITHM_INSTANCE \"%s\"\nint kem_keygen(unsigned char *pk);\n",
			      inst);
	put_file(h, hdr);
	put_file(c, code);
	free(h);
	free(c);
	free(hdr);
}

static void test_variants(void **state)
{
	(void)state;
	const char *plain = "int kem_keygen(unsigned char *pk) { return pk[0]; }\n";
	put_kem("Implementations/Reference_Implementation/Var-128", "VAR_128", plain);
	put_kem("Implementations/Reference_Implementation/Var-256", "VAR_256", plain);
	/* vendor-named tree; AVX2 in the code */
	put_kem("Implementations/Var-x86-Optimized_Implementation/Var-128", "VAR_128",
		"#include <immintrin.h>\n/* _mm512_ in a comment is no code */\n"
		"int kem_keygen(unsigned char *pk) { __m256i x = _mm256_setzero_si256();\n"
		"  return _mm256_testz_si256(x, x) + pk[0]; }\n");
	/* the folder says avx2, the code is AVX-512: the code decides */
	put_kem("Implementations/Optimized_Implementation/Var-256-avx2", "VAR_256",
		"#include <immintrin.h>\nint kem_keygen(unsigned char *pk) {\n"
		"  __m512i x = _mm512_set1_epi32(pk[0]); return _mm512_reduce_add_epi32(x); }\n");
	/* an architecture folder inside an additional tree: additional, NEON */
	put_kem("Implementations/Additional_Implementation/neon/Var-128", "VAR_128",
		"#include <arm_neon.h>\nint kem_keygen(unsigned char *pk) {\n"
		"  uint8x16_t v = vld1q_u8(pk); return vgetq_lane_u8(v, 0); }\n");
	/* a second additional tree of the same parameter set: numbered before its tag */
	put_kem("Implementations/Additional_Implementation/aarch64/Var-128", "VAR_128",
		"#include <arm_neon.h>\nint kem_keygen(unsigned char *pk) {\n"
		"  uint8x16_t v = vld1q_u8(pk); return vgetq_lane_u8(v, 1); }\n");
	/* x86_64/ beside ref/ with no intrinsics: optimized, portable */
	put_kem("Implementations/Opt/x86_64/Var-256", "VAR_256",
		"int kem_keygen(unsigned char *pk) { return pk[1]; } /* \"_mm256_\" */\n");
	put_file("variants/Test_Vectors/KAT_KEM_VAR_128.txt", "Count = 0\n");
	char *root = path_join(tmp_dir, "variants");
	struct discovery d;
	assert_int_equal(discover_package(root, "Var", &d), 7);
	const struct found_instance *r = by_label(&d, "Var-128");
	assert_string_equal(r->variant, "reference");
	assert_int_equal(r->cpu_ext, CPU_EXT_NONE);
	const struct found_instance *a = by_label(&d, "Var-128+avx2");
	assert_string_equal(a->variant, "optimized-avx2");
	assert_int_equal(a->cpu_ext, CPU_EXT_AVX2);
	assert_true(list_mentions(&a->why, "first kem.c: __m256i"));
	const struct found_instance *w = by_label(&d, "Var-256+avx512");
	assert_string_equal(w->variant, "optimized-avx512");
	assert_true(list_mentions(&w->why, "its folder names AVX2 (the code decides)"));
	const struct found_instance *n = by_label(&d, "Var-128+additional");
	assert_string_equal(n->variant, "additional");
	assert_string_equal(n->source_dir, "Implementations/Additional_Implementation/aarch64/Var-128");
	assert_int_equal(n->cpu_ext, CPU_EXT_NEON);
	assert_int_equal(n->enabled, 1);
	/* the same vectors for every variant; two additional trees of one
	 * parameter set both claim them, rightly */
	assert_string_equal(n->kat_reference, "Test_Vectors/KAT_KEM_VAR_128.txt");
	assert_string_equal(a->kat_reference, "Test_Vectors/KAT_KEM_VAR_128.txt");
	assert_false(notes_mention(&d, "is claimed by both"));
	const struct found_instance *n2 = by_label(&d, "Var-128-2+additional");
	assert_string_equal(n2->source_dir, "Implementations/Additional_Implementation/neon/Var-128");
	assert_int_equal(n2->cpu_ext, CPU_EXT_NEON);
	const struct found_instance *p = by_label(&d, "Var-256+portable");
	assert_string_equal(p->variant, "optimized-portable");
	assert_int_equal(p->cpu_ext, CPU_EXT_NONE);
	by_label(&d, "Var-256");
	struct candidate_conf c;
	memset(&c, 0, sizeof c);
	discovery_to_conf(&d, &c);
	assert_string_equal(conf_find_instance(&c, "Var-128+additional")->cpu_extension, "neon");
	char *stem = build_stem(conf_find_instance(&c, "Var-128-2+additional"));
	assert_string_equal(stem, "Var-128-2+additional");
	free(stem);
	assert_null(conf_find_instance(&c, "Var-256+portable")->cpu_extension);
	assert_int_equal(conf_cpu_ext(conf_find_instance(&c, "Var-256+avx512")), CPU_EXT_AVX512);
	conf_free(&c);
	discovery_free(&d);
	free(root);
}

static void test_hash_quirks(void **state)
{
	(void)state;
#define HQ "hq/Implementations/Reference_Implementation/"
	put_file(HQ "QH-256/CryptHash_qh.h",
		 "\xEF\xBB\xBF#define ALGORITHM_INSTANCE \"QH_256\"\r\n"
		 "/* 哈希函数接口 */\r\n#include \"params.h\"\r\n"
		 "int CryptHash(int digest_len_bits, const unsigned char *msg,\r\n"
		 "              unsigned long long msg_len_bits, unsigned char *digest);\r\n");
	put_file(HQ "QH-256/params.h", "// 参数\r\n#define QH_OUT_BITS (256u) /* 输出长度 */\r\n"
		 "#  define DIGEST_BIT_LENGTH\tQH_OUT_BITS\r\n");
	put_file(HQ "QH-256/qh.c", "int qh;\r\n");
	put_file(HQ "QH-256/drng.c", "int get_random_number;\n");
	put_file(HQ "QH-Odd/CryptHash_AlgorithmInstance.h",
		 "#define ALGORITHM_INSTANCE \"QH_ODD\"\n#define DIGEST_BIT_LENGTH (QH_A + QH_B)\n"
		 "int CryptHash(int, const unsigned char *, unsigned long long, unsigned char *);\n");
	put_file(HQ "QH-Odd/odd.c", "int odd;\n");
#undef HQ
	static const char *const tags[] = { "KAT_2_12", "KAT_2_23", "KAT_2_33", "KAT_Loop" };
	for (int i = 0; i < 4; i++) {
		char *p = xasprintf("hq/Test_Vectors/%s_QH_256.txt", tags[i]);
		put_file(p, "Msg_Len = 0\r\n");
		free(p);
	}
	put_file("hq/Test_Vectors/KAT_2_12_QH_ODD.txt", "Msg_Len = 0\n");
	char *root = path_join(tmp_dir, "hq");
	struct discovery d;
	assert_int_equal(discover_package(root, "hq", &d), 2);
	const struct found_instance *h = by_label(&d, "QH-256");
	assert_string_equal(h->type, "hash");
	assert_string_equal(h->instance, "QH_256");
	assert_string_equal(h->api_header, "CryptHash_qh.h");
	assert_int_equal(h->digest_bits, 256);
	assert_true(h->enabled);
	assert_true(h->own_drng);
	assert_false(h->own_auxfunc);
	assert_null(h->kat_reference);
	assert_int_equal(h->kat_files.n, 4);
	for (int i = 0; i < 4; i++) {
		char *want = xasprintf("Test_Vectors/%s_QH_256.txt", tags[i]);
		assert_string_equal(h->kat_files.items[i], want);
		free(want);
	}
	const struct found_instance *o = by_label(&d, "QH-Odd");
	assert_int_equal(o->digest_bits, 0);
	assert_int_equal(o->kat_files.n, 1);
	assert_true(notes_mention(&d, "QH-Odd: DIGEST_BIT_LENGTH is '(QH_A + QH_B)', which is not a "
				  "number; set digest_bits = N in candidate.conf"));
	/* into candidate.conf */
	struct candidate_conf c;
	memset(&c, 0, sizeof c);
	discovery_to_conf(&d, &c);
	struct instance_conf *ic = conf_find_instance(&c, "QH-256");
	assert_int_equal(ic->digest_bits, 256);
	assert_int_equal(ic->kat_files.n, 4);
	conf_free(&c);
	discovery_free(&d);
	free(root);
}

/* A package that is just one instance folder. */
static void test_root_is_instance(void **state)
{
	(void)state;
	put_file("Solo-128/KEM_AlgorithmInstance.h",
		 "#define ALGORITHM_INSTANCE \"SOLO_128\"\nint kem_keygen(unsigned char *pk);\n");
	put_file("Solo-128/KEM_AlgorithmInstance.c", "int k;\n");
	put_file("Solo-128/src/a.c", "int a;\n");
	put_file("Solo-128/src/a.h", "int a;\n");
	char *root = path_join(tmp_dir, "Solo-128");
	struct discovery d;
	assert_int_equal(discover_package(root, "Solo-128", &d), 1);
	const struct found_instance *a = by_label(&d, "Solo-128");
	assert_string_equal(a->source_dir, ".");
	static const char *const want[] = { "KEM_AlgorithmInstance.c", "src/a.c", NULL };
	assert_sources(a, want);
	assert_true(sl_contains(&a->include_dirs, "src"));
	discovery_free(&d);
	free(root);
}

static void test_main_lexer(void **state)
{
	(void)state;
	assert_true(source_defines_main("int main(void) { return 0; }"));
	assert_true(source_defines_main("int\nmain (int argc, char **argv)\n{}"));
	assert_true(source_defines_main("int main /* c */ (void);"));
	assert_false(source_defines_main("/* int main(void) */ int f(void);"));
	assert_false(source_defines_main("// main(\nint f(void);"));
	assert_false(source_defines_main("const char *s = \"main(\";"));
	assert_false(source_defines_main("char c = 'm'; int domain(void); int main_loop(void);"));
	assert_false(source_defines_main("#define X main(\nint f(void);"));
	assert_false(source_defines_main("void f(struct s *p) { p->main(); s.main(); }"));
}

static void test_names(void **state)
{
	(void)state;
	char *s;
	s = algorithm_from_package_name("/x/NTRE Submission.zip");
	assert_string_equal(s, "NTRE");
	free(s);
	s = algorithm_from_package_name("ToyKEM Submission v1.0");
	assert_string_equal(s, "ToyKEM");
	free(s);
	s = algorithm_from_package_name("LWEKEM-v2.rar");
	assert_string_equal(s, "LWEKEM");
	free(s);
	s = algorithm_from_package_name("Mito_submission_V1.2/");
	assert_string_equal(s, "Mito");
	free(s);
	s = algorithm_from_package_name("Toy-1-128");
	assert_string_equal(s, "Toy-1-128");
	free(s);
	s = algorithm_from_package_name("Example KEM 提交");
	assert_string_equal(s, "Example KEM");
	free(s);
	s = algorithm_from_package_name("Foo 2.0.tar.gz");
	assert_string_equal(s, "Foo");
	free(s);
	s = slug_from_package_name("/a/NTRE Submission.zip");
	assert_string_equal(s, "ntre-submission");
	free(s);
	s = slug_from_package_name("中文.zip");
	assert_string_equal(s, "candidate");
	free(s);
	s = slug_from_package_name("Foo_中文_Bar v1.0");
	assert_string_equal(s, "foo-bar-v1-0");
	free(s);
	assert_true(valid_candidate_id("kem-27"));
	assert_true(valid_candidate_id("a.b_C-1"));
	assert_false(valid_candidate_id(""));
	assert_false(valid_candidate_id(".."));
	assert_false(valid_candidate_id("a/b"));
	assert_false(valid_candidate_id("a b"));
	assert_false(valid_candidate_id("中文"));
}

/* ---- import safety ---- */

struct entry_spec {
	const char *name;
	const char *data;  /* NULL: directory, unless link */
	const char *link;  /* symlink target */
};

static char *make_zip(const char *name, const struct entry_spec *e, size_t n)
{
	char *path = path_join(tmp_dir, name);
	struct archive *a = archive_write_new();
	assert_int_equal(archive_write_set_format_zip(a), ARCHIVE_OK);
	assert_int_equal(archive_write_open_filename(a, path), ARCHIVE_OK);
	for (size_t i = 0; i < n; i++) {
		struct archive_entry *ae = archive_entry_new();
		archive_entry_set_pathname_utf8(ae, e[i].name);
		if (e[i].link) {
			archive_entry_set_filetype(ae, AE_IFLNK);
			archive_entry_set_symlink(ae, e[i].link);
			archive_entry_set_perm(ae, 0777);
		} else if (!e[i].data) {
			archive_entry_set_filetype(ae, AE_IFDIR);
			archive_entry_set_perm(ae, 0755);
		} else {
			archive_entry_set_filetype(ae, AE_IFREG);
			archive_entry_set_perm(ae, 0644);
			archive_entry_set_size(ae, (la_int64_t)strlen(e[i].data));
		}
		assert_int_equal(archive_write_header(a, ae), ARCHIVE_OK);
		if (e[i].data && !e[i].link)
			archive_write_data(a, e[i].data, strlen(e[i].data));
		archive_entry_free(ae);
	}
	archive_write_close(a);
	archive_write_free(a);
	return path;
}

static enum import_status import_into(const char *pkg, const char *dest_name,
				      unsigned long long cap, struct import_result *res,
				      char **err)
{
	char *dest = path_join(tmp_dir, dest_name);
	struct import_opts o = { .max_bytes = cap };
	memset(res, 0, sizeof(*res));
	enum import_status st = package_import(pkg, dest, &o, res, err);
	free(dest);
	return st;
}

static void test_zip_slip_refused(void **state)
{
	(void)state;
	const struct entry_spec e[] = {
		{ "pkg/ok.txt", "fine", NULL },
		{ "pkg/../../evil.txt", "escaped", NULL },
	};
	char *zip = make_zip("slip.zip", e, 2);
	struct import_result res;
	char *err = NULL;
	assert_int_equal(import_into(zip, "slip", 0, &res, &err), IMPORT_BAD_INPUT);
	assert_non_null(strstr(err, "pkg/../../evil.txt"));
	assert_non_null(strstr(err, "'..'"));
	char *evil = path_join(tmp_dir, "evil.txt");
	assert_false(path_exists(evil));
	free(evil);
	free(err);
	import_result_free(&res);
	free(zip);
}

static void test_absolute_refused(void **state)
{
	(void)state;
	const struct entry_spec e[] = { { "/tmp/ngcc-absolute-evil.txt", "x", NULL } };
	char *zip = make_zip("abs.zip", e, 1);
	struct import_result res;
	char *err = NULL;
	assert_int_equal(import_into(zip, "abs", 0, &res, &err), IMPORT_BAD_INPUT);
	assert_non_null(strstr(err, "absolute"));
	free(err);
	import_result_free(&res);
	free(zip);
}

static void test_symlink_skipped_and_utf8(void **state)
{
	(void)state;
	const struct entry_spec e[] = {
		{ "pkg/", NULL, NULL },
		{ "pkg/中文资料/说明.txt", "hello", NULL },
		{ "pkg/link", NULL, "/etc/passwd" },
		{ "pkg/with space/a.c", "int a;", NULL },
	};
	char *zip = make_zip("links.zip", e, 4);
	struct import_result res;
	char *err = NULL;
	assert_int_equal(import_into(zip, "links", 0, &res, &err), IMPORT_OK);
	char *p = path_join(tmp_dir, "links/pkg/中文资料/说明.txt");
	assert_true(path_is_file(p));
	free(p);
	p = path_join(tmp_dir, "links/pkg/with space/a.c");
	assert_true(path_is_file(p));
	free(p);
	p = path_join(tmp_dir, "links/pkg/link");
	assert_false(path_exists(p));
	free(p);
	assert_int_equal(res.files, 2);
	assert_int_equal(res.notes.n, 1);
	assert_non_null(strstr(res.notes.items[0], "pkg/link"));
	import_result_free(&res);
	free(zip);
}

static void test_size_cap(void **state)
{
	(void)state;
	static char big[5000];
	memset(big, 'A', sizeof big - 1);
	const struct entry_spec e[] = { { "pkg/big.txt", big, NULL } };
	char *zip = make_zip("big.zip", e, 1);
	struct import_result res;
	char *err = NULL;
	assert_int_equal(import_into(zip, "big", 1000, &res, &err), IMPORT_BAD_INPUT);
	assert_non_null(strstr(err, "size limit"));
	free(err);
	import_result_free(&res);
	assert_int_equal(import_into(zip, "big-ok", 10000, &res, &err), IMPORT_OK);
	import_result_free(&res);
	free(zip);
}

static void test_nested_archive(void **state)
{
	(void)state;
	const struct entry_spec inner[] = { { "Impl/x.c", "int x;", NULL } };
	char *inner_zip = make_zip("inner.zip", inner, 1);
	char *data;
	size_t len;
	assert_int_equal(read_file(inner_zip, &data, &len), 0);
	/* An outer folder holding the inner zip. */
	char *outer = path_join(tmp_dir, "outer-pkg");
	char *sub = path_join(outer, "代码 bundle");
	assert_int_equal(mkdir_p(sub, 0755), 0);
	char *dst = path_join(sub, "inner.zip");
	assert_int_equal(write_file(dst, data, len), 0);
	/* A corrupt nested archive is noted, not fatal (it may be data). */
	char *junk = path_join(sub, "data.zip");
	assert_int_equal(write_file(junk, "not a zip", 9), 0);
	free(junk);
	struct import_result res;
	char *err = NULL;
	assert_int_equal(import_into(outer, "nested", 0, &res, &err), IMPORT_OK);
	char *x = path_join(tmp_dir, "nested/代码 bundle/inner/Impl/x.c");
	assert_true(path_is_file(x));
	assert_int_equal(res.nested, 1);
	int noted = 0;
	for (size_t i = 0; i < res.notes.n; i++)
		noted |= strstr(res.notes.items[i], "data.zip' not unpacked") != NULL;
	assert_true(noted);
	/* A nested zip-slip is still refused. */
	const struct entry_spec evil[] = { { "../../evil.c", "int e;", NULL } };
	char *evil_zip = make_zip("evil.zip", evil, 1);
	free(data);
	assert_int_equal(read_file(evil_zip, &data, &len), 0);
	char *dst2 = path_join(sub, "evil.zip");
	assert_int_equal(write_file(dst2, data, len), 0);
	import_result_free(&res);
	assert_int_equal(import_into(outer, "nested2", 0, &res, &err), IMPORT_BAD_INPUT);
	assert_non_null(strstr(err, "../../evil.c"));
	free(err);
	import_result_free(&res);
	free(dst2);
	free(evil_zip);
	free(x);
	free(data);
	free(dst);
	free(sub);
	free(outer);
	free(inner_zip);
}

static void test_unreadable_archive(void **state)
{
	(void)state;
	char *p = path_join(tmp_dir, "broken.zip");
	static const char garbage[] = "PK\003\004garbage";
	assert_int_equal(write_file(p, garbage, sizeof garbage - 1), 0);
	struct import_result res;
	char *err = NULL;
	assert_int_equal(import_into(p, "broken", 0, &res, &err), IMPORT_UNREADABLE);
	assert_non_null(strstr(err, "broken.zip"));
	free(err);
	import_result_free(&res);
	free(p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_toykem),
		cmocka_unit_test(test_lwekem_merged_folder),
		cmocka_unit_test(test_doubled_common),
		cmocka_unit_test(test_others_only),
		cmocka_unit_test(test_sig_supported),
		cmocka_unit_test(test_no_implementation),
		cmocka_unit_test(test_other_types_and_additional),
		cmocka_unit_test(test_variants),
		cmocka_unit_test(test_hash_quirks),
		cmocka_unit_test(test_root_is_instance),
		cmocka_unit_test(test_main_lexer),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_zip_slip_refused),
		cmocka_unit_test(test_absolute_refused),
		cmocka_unit_test(test_symlink_skipped_and_utf8),
		cmocka_unit_test(test_size_cap),
		cmocka_unit_test(test_nested_archive),
		cmocka_unit_test(test_unreadable_archive),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
