/*
 * test_cpuext.c — implementation variants' CPU extensions (issue #29): the
 * extension decided from code (package/cpuscan.h), the contract's variant
 * names and tags (method/cpuext.h), and the host feature check with its
 * test override (host/cpufeat.h).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "host/cpufeat.h"
#include "method/cpuext.h"
#include "package/cpuscan.h"

static enum cpu_ext decide(const char *file, const char *text, int hint, char **why)
{
	struct cpu_evidence ev;
	memset(&ev, 0, sizeof ev);
	cpuscan_text(&ev, file, text, str_ends_with(file, ".S"));
	enum cpu_ext e = cpuscan_decide(&ev, hint, why);
	cpuscan_free(&ev);
	return e;
}

static void test_decide_from_code(void **state)
{
	(void)state;
	assert_int_equal(decide("a.c", "__m256i x = _mm256_add_epi16(a, b);", -1, NULL), CPU_EXT_AVX2);
	assert_int_equal(decide("a.c", "__m512i z = _mm512_xor_si512(a, b); __m256i y;", -1, NULL),
			 CPU_EXT_AVX512);
	/* AVX-512 behind #ifdef beside AVX2 code: the avx2 folder decides */
	assert_int_equal(decide("a.c", "_mm512_add_epi32(a, b); _mm256_add_epi32(c, d);",
				CPU_EXT_AVX2, NULL), CPU_EXT_AVX2);
	assert_int_equal(decide("a.c", "#include <arm_neon.h>\nuint16x8_t v = vld1q_u16(p);", -1, NULL),
			 CPU_EXT_NEON);
	/* a NEON tree with an AVX2-to-NEON shim: its folder says NEON */
	assert_int_equal(decide("a.c", "#include <arm_neon.h>\n#define _mm256_add_epi16(a, b) vaddq_s16(a, b)\n",
				CPU_EXT_NEON, NULL), CPU_EXT_NEON);
	/* assembler: the registers say it */
	assert_int_equal(decide("f.S", "vpaddw %ymm0, %ymm1, %ymm2\n", -1, NULL), CPU_EXT_AVX2);
	assert_int_equal(decide("f.S", "vpaddd %zmm0, %zmm1, %zmm2\n", -1, NULL), CPU_EXT_AVX512);
	assert_int_equal(decide("f.S", "ld1 {v0.8h, v1.8h}, [x0]\nadd v0.8h, v0.8h, v1.8h\n", -1, NULL),
			 CPU_EXT_NEON);
	/* in C, ld1 is just a name */
	assert_int_equal(decide("a.c", "int ld1 = 0, st1 = 1;", -1, NULL), CPU_EXT_NONE);
	/* comments, strings, folder names and near-misses are no code */
	char *why = NULL;
	assert_int_equal(decide("a.c", "/* uses _mm256_ in the avx2 version */\n"
				"const char *s = \"_mm512_\"; // vld1q_u8\nint ymm0, my_mm256_x, uint8x16;\n",
				CPU_EXT_AVX2, &why), CPU_EXT_NONE);
	assert_non_null(strstr(why, "portable"));
	free(why);
	assert_int_equal(decide("a.c", "int v = _mm256_cmpeq_epi8(a, b);", -1, &why), CPU_EXT_AVX2);
	assert_non_null(strstr(why, "first a.c: _mm256_cmpeq_epi8"));
	free(why);
}

static void test_variant_names(void **state)
{
	(void)state;
	static const char *const ok[] = { "reference", "optimized-avx2", "optimized-avx512",
		"optimized-neon", "optimized-portable", "additional", "iccs-baseline", NULL };
	for (const char *const *v = ok; *v; v++)
		assert_true(variant_known(*v));
	assert_false(variant_known("optimized-sse"));
	assert_null(variant_tag("reference"));
	assert_null(variant_tag("iccs-baseline"));
	assert_string_equal(variant_tag("optimized-avx512"), "avx512");
	assert_string_equal(variant_tag("optimized-portable"), "portable");
	assert_string_equal(variant_tag("additional"), "additional");
	assert_int_equal(variant_implied_ext("optimized-neon"), CPU_EXT_NEON);
	assert_int_equal(variant_implied_ext("optimized-portable"), CPU_EXT_NONE);
	assert_int_equal(variant_implied_ext("additional"), CPU_EXT_NONE);
	assert_string_equal(cpu_ext_optimized_variant(CPU_EXT_NONE), "optimized-portable");
	assert_string_equal(cpu_ext_flags(CPU_EXT_AVX2)[0], "-mavx2");
	assert_null(cpu_ext_flags(CPU_EXT_NEON)[0]);
	assert_int_equal(cpu_ext_parse("avx512"), CPU_EXT_AVX512);
	assert_int_equal(cpu_ext_parse("AVX2"), -1);
}

static void test_feature_check(void **state)
{
	(void)state;
	struct host_cpu hc;
	assert_int_equal(host_cpu_parse_override("x86_64:sse2,avx2 bmi2", "aarch64", &hc), 0);
	assert_string_equal(hc.arch, "x86_64");
	assert_string_equal(hc.source, "override");
	assert_null(host_cpu_refusal(&hc, CPU_EXT_NONE));
	assert_null(host_cpu_refusal(&hc, CPU_EXT_AVX2));
	char *why = host_cpu_refusal(&hc, CPU_EXT_AVX512);
	assert_non_null(why);
	assert_non_null(strstr(why, "lacks avx512f avx512bw avx512dq avx512vl"));
	free(why);
	assert_false(host_cpu_other_arch(&hc, CPU_EXT_AVX512));
	assert_true(host_cpu_other_arch(&hc, CPU_EXT_NEON));
	why = host_cpu_refusal(&hc, CPU_EXT_NEON);
	assert_non_null(strstr(why, "needs NEON, an aarch64 extension; this host is x86_64"));
	free(why);
	host_cpu_free(&hc);
	/* only the architecture named: no features at all */
	assert_int_equal(host_cpu_parse_override("avx512f,avx512bw,avx512dq,avx512vl", "x86_64", &hc), 0);
	assert_null(host_cpu_refusal(&hc, CPU_EXT_AVX512));
	why = host_cpu_refusal(&hc, CPU_EXT_AVX2);
	assert_non_null(strstr(why, "lacks avx2"));
	free(why);
	host_cpu_free(&hc);
	assert_int_equal(host_cpu_parse_override("", "x86_64", &hc), -1);
	assert_int_equal(host_cpu_parse_override(":avx2", "x86_64", &hc), -1);
	/* the real host: read, and consistent with what it says it is */
	const struct host_cpu *me = host_cpu();
	assert_non_null(me->arch);
#if defined(__x86_64__)
	if (strcmp(me->source, "override")) {
		assert_string_equal(me->source, "cpuid");
		assert_true(sl_contains(&me->features, "sse2"));
		assert_int_equal(!!sl_contains(&me->features, "avx2"),
				 !!__builtin_cpu_supports("avx2"));
	}
#endif
	json_t *j = host_cpu_json(me);
	assert_string_equal(json_string_value(json_object_get(j, "arch")), me->arch);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_from_code),
		cmocka_unit_test(test_variant_names),
		cmocka_unit_test(test_feature_check),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
