/*
 * cpuscan.h — which CPU extension an implementation's code needs, decided
 * from the code itself (issue #29): x86 intrinsics by name (_mm512_ and
 * __m512: AVX-512; _mm256_ and __m256: AVX2), AArch64 ones (arm_neon.h,
 * vld1q_, uint8x16_t ...: NEON), and in assembler files the vector
 * registers (zmm, ymm) and AArch64's SIMD loads and stores (ld1, st1 ...).  Comments and string literals are not code.  A folder
 * name (avx2/, neon/) is only a hint, used when the code holds evidence
 * of two extensions.
 */
#ifndef NGCC_PACKAGE_CPUSCAN_H
#define NGCC_PACKAGE_CPUSCAN_H

#include "method/cpuext.h"

struct cpu_evidence {
	unsigned hits[CPU_EXT_COUNT];   /* [CPU_EXT_NONE] unused */
	char *first[CPU_EXT_COUNT];     /* "poly.c: _mm256_add_epi16" (malloc'd) */
};

/* Add the evidence of one file's text; asm: an assembler file (.s, .S). */
void cpuscan_text(struct cpu_evidence *ev, const char *file, const char *text, int asm_file);

/* The extension the evidence says: the wider x86 one when both appear,
 * unless the hint names the narrower; between x86 and NEON evidence the
 * hint, else the more frequent.  *why (malloc'd) says how it was decided.
 * hint: -1 when the folder names no extension. */
enum cpu_ext cpuscan_decide(const struct cpu_evidence *ev, int hint, char **why);

void cpuscan_free(struct cpu_evidence *ev);

#endif
