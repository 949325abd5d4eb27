/* cpuscan.c — see cpuscan.h. */
#include "package/cpuscan.h"

#include "util/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

static int ident_char(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

static int starts(const char *s, size_t n, const char *prefix)
{
	size_t k = strlen(prefix);
	return n >= k && !strncmp(s, prefix, k);
}

/* NEON vector types: [u]int{8,16,32,64}x{N}_t, float32x4_t, poly8x16_t ... */
static int neon_type(const char *s, size_t n)
{
	static const char *const base[] = { "int", "uint", "float", "poly", NULL };
	for (const char *const *b = base; *b; b++) {
		size_t k = strlen(*b);
		if (n <= k + 4 || strncmp(s, *b, k) || !isdigit((unsigned char)s[k]))
			continue;
		const char *x = memchr(s + k, 'x', n - k);
		return x && x + 1 < s + n && isdigit((unsigned char)x[1]) &&
		       n >= 2 && s[n - 2] == '_' && s[n - 1] == 't';
	}
	return 0;
}

static int neon_intrinsic(const char *s, size_t n)
{
	static const char *const prefixes[] = {
		"vld1q_", "vst1q_", "vld1_", "vst1_", "vaddq_", "vsubq_", "vmulq_", "veorq_",
		"vandq_", "vorrq_", "vshlq_", "vshrq_", "vdupq_", "vmovq_", "vreinterpretq_",
		"vcombine_", "vget_low_", "vget_high_", "vqdmulhq_", "vmlaq_", "vzip1q_",
		"vuzp1q_", "vtrn1q_", "vextq_", "vbslq_", "vcgtq_", "vceqq_", NULL
	};
	for (const char *const *p = prefixes; *p; p++)
		if (starts(s, n, *p))
			return 1;
	return !strncmp(s, "arm_neon", n) && n == 8;
}

/* Register names zmm0..31 / ymm0..15 in assembler code. */
static int vector_register(const char *s, size_t n, const char *reg)
{
	if (n < 4 || n > 5 || strncmp(s, reg, 3))
		return 0;
	for (size_t i = 3; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return 0;
	return 1;
}

/* AArch64 assembler's Advanced SIMD loads and stores (ld1 {v0.8h}, ...):
 * no x86 mnemonic is spelled so. */
static int neon_mnemonic(const char *s, size_t n)
{
	static const char *const m[] = { "ld1", "ld1r", "ld2", "ld3", "ld4", "st1", "st2", "st3",
					 "st4", NULL };
	for (const char *const *p = m; *p; p++)
		if (strlen(*p) == n && !strncmp(s, *p, n))
			return 1;
	return 0;
}

static int classify(const char *s, size_t n, int asm_file)
{
	if (asm_file && neon_mnemonic(s, n))
		return CPU_EXT_NEON;
	if (starts(s, n, "_mm512_") || starts(s, n, "__m512") ||
	    (asm_file && vector_register(s, n, "zmm")))
		return CPU_EXT_AVX512;
	if (starts(s, n, "_mm256_") || starts(s, n, "__m256") ||
	    (asm_file && vector_register(s, n, "ymm")))
		return CPU_EXT_AVX2;
	if (neon_intrinsic(s, n) || neon_type(s, n))
		return CPU_EXT_NEON;
	return CPU_EXT_NONE;
}

static void note(struct cpu_evidence *ev, int ext, const char *file, const char *s, size_t n)
{
	ev->hits[ext]++;
	if (!ev->first[ext])
		ev->first[ext] = xasprintf("%s: %.*s", file, (int)n, s);
}

/* Past a comment or literal starting at p; p itself when there is none. */
static const char *skip_non_code(const char *p, int asm_file)
{
	if (p[0] == '/' && p[1] == '*') {
		const char *e = strstr(p + 2, "*/");
		return e ? e + 2 : p + strlen(p);
	}
	if ((p[0] == '/' && p[1] == '/') || (asm_file && (p[0] == ';' || p[0] == '@'))) {
		const char *e = strchr(p, '\n');
		return e ? e : p + strlen(p);
	}
	if (p[0] == '"' || p[0] == '\'') {
		char q = *p++;
		while (*p && *p != q && *p != '\n') {
			if (*p == '\\' && p[1])
				p++;
			p++;
		}
		return *p ? p + 1 : p;
	}
	return p;
}

void cpuscan_text(struct cpu_evidence *ev, const char *file, const char *text, int asm_file)
{
	const char *p = text;
	while (*p) {
		const char *q = skip_non_code(p, asm_file);
		if (q != p) {
			p = q;
			continue;
		}
		if (!ident_char(*p) || isdigit((unsigned char)*p)) {
			/* a number's digits and suffix are not an identifier */
			if (isdigit((unsigned char)*p))
				while (ident_char(*p))
					p++;
			else
				p++;
			continue;
		}
		const char *s = p;
		while (ident_char(*p))
			p++;
		int ext = classify(s, (size_t)(p - s), asm_file);
		if (ext != CPU_EXT_NONE)
			note(ev, ext, file, s, (size_t)(p - s));
	}
}

static char *evidence_text(const struct cpu_evidence *ev, int ext)
{
	return xasprintf("%s (%u use%s; first %s)", cpu_ext_display(ext), ev->hits[ext],
			 ev->hits[ext] == 1 ? "" : "s", ev->first[ext]);
}

enum cpu_ext cpuscan_decide(const struct cpu_evidence *ev, int hint, char **why)
{
	unsigned x86 = ev->hits[CPU_EXT_AVX512] + ev->hits[CPU_EXT_AVX2];
	unsigned arm = ev->hits[CPU_EXT_NEON];
	enum cpu_ext x86_ext = ev->hits[CPU_EXT_AVX512] ? CPU_EXT_AVX512 : CPU_EXT_AVX2;
	if (x86_ext == CPU_EXT_AVX512 && ev->hits[CPU_EXT_AVX2] && hint == CPU_EXT_AVX2)
		x86_ext = CPU_EXT_AVX2; /* the wider code is presumably behind #ifdef __AVX512F__ */
	enum cpu_ext e;
	if (!x86 && !arm)
		e = CPU_EXT_NONE;
	else if (!arm)
		e = x86_ext;
	else if (!x86)
		e = CPU_EXT_NEON;
	else if (hint == CPU_EXT_NEON)
		e = CPU_EXT_NEON;
	else if (hint == CPU_EXT_AVX2 || hint == CPU_EXT_AVX512)
		e = x86_ext;
	else
		e = arm > x86 ? CPU_EXT_NEON : x86_ext;
	if (!why)
		return e;
	struct strbuf sb = STRBUF_INIT;
	if (e == CPU_EXT_NONE)
		sb_adds(&sb, "no x86 or ARM vector intrinsics or vector registers in its code: portable");
	else {
		char *t = evidence_text(ev, e);
		sb_addf(&sb, "intrinsics in its code: %s", t);
		free(t);
	}
	for (int k = CPU_EXT_AVX2; k < CPU_EXT_COUNT; k++)
		if (k != (int)e && ev->hits[k]) {
			char *t = evidence_text(ev, k);
			sb_addf(&sb, "; also %s", t);
			free(t);
		}
	if (hint > 0)
		sb_addf(&sb, "; its folder names %s%s", cpu_ext_display(hint),
			(int)e == hint ? "" : " (the code decides)");
	*why = sb_detach(&sb);
	return e;
}

void cpuscan_free(struct cpu_evidence *ev)
{
	for (int k = 0; k < CPU_EXT_COUNT; k++)
		free(ev->first[k]);
	memset(ev, 0, sizeof *ev);
}
