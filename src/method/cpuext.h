/*
 * cpuext.h — the CPU extensions an implementation variant may need
 * (issue #29; docs/method.md §2.1 "Implementation variants"): their names
 * in candidate.conf and build.json, the build-name tag and page wording of
 * each variant, the compiler flags an extension adds and the host features
 * it requires.  Pure data: `add` decides the extension from the code
 * (package/cpuscan.h), `build` compiles with the flags, and every stage that
 * runs candidate code checks the features (host/cpufeat.h) first.
 */
#ifndef NGCC_METHOD_CPUEXT_H
#define NGCC_METHOD_CPUEXT_H

enum cpu_ext {
	CPU_EXT_NONE,   /* portable C: runs on any host of the build's architecture */
	CPU_EXT_AVX2,   /* x86-64, 256-bit integer vectors */
	CPU_EXT_AVX512, /* x86-64, 512-bit vectors (F, BW, DQ, VL) */
	CPU_EXT_NEON,   /* AArch64 Advanced SIMD */
};
#define CPU_EXT_COUNT 4

/* "none", "avx2", "avx512", "neon" (candidate.conf `cpu_extension`). */
const char *cpu_ext_name(enum cpu_ext e);
/* The inverse; -1 for an unknown name. */
int cpu_ext_parse(const char *name);
/* "portable", "AVX2", "AVX-512", "NEON": how people write it. */
const char *cpu_ext_display(enum cpu_ext e);
/* The architecture the extension belongs to ("x86_64", "aarch64"), or NULL
 * for CPU_EXT_NONE. */
const char *cpu_ext_arch(enum cpu_ext e);
/* The host features (host/cpufeat.h names) the extension needs, NULL-ended. */
const char *const *cpu_ext_features(enum cpu_ext e);
/* The compiler flags that enable it, NULL-ended (empty for NONE and NEON,
 * which AArch64 compilers enable by default). */
const char *const *cpu_ext_flags(enum cpu_ext e);

/* Variants (candidate.conf `variant`) of an optimized tree, by extension:
 * "optimized-portable", "optimized-avx2", "optimized-avx512",
 * "optimized-neon". */
const char *cpu_ext_optimized_variant(enum cpu_ext e);
/* Is v a variant name candidate.conf accepts? */
int variant_known(const char *v);
/* The build-name tag of a variant without the '+' ("avx2", "portable",
 * "additional", ...), or NULL for reference and iccs-baseline. */
const char *variant_tag(const char *v);
/* The extension a variant name implies (optimized-avx2: AVX2); NONE for
 * reference, additional and the others. */
enum cpu_ext variant_implied_ext(const char *v);
/* Not the reference (and not our own baseline): compiled with the
 * performance profile and timed on KAT PASS only. */
int variant_is_alternative(const char *v);

#endif
