/* cpufeat.c — see cpufeat.h. */
#include "host/cpufeat.h"

#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif
#if defined(__aarch64__)
#include <sys/auxv.h>
#include <asm/hwcap.h>
#endif

#if defined(__x86_64__) || defined(__i386__)
/* XCR0: which register states the OS saves on a context switch. */
static unsigned long long read_xcr0(void)
{
	unsigned eax, edx;
	__asm__ volatile("xgetbv" : "=a"(eax), "=d"(edx) : "c"(0));
	return ((unsigned long long)edx << 32) | eax;
}

/* A CPUID feature bit; need: the register state the OS must save for it
 * (0 none, NEED_YMM, NEED_ZMM). */
enum { NEED_YMM = 1, NEED_ZMM = 2 };
struct cpuid_bit {
	unsigned char bit, need;
	const char *name;
};

static const struct cpuid_bit leaf1_edx[] = { { 26, 0, "sse2" } };
static const struct cpuid_bit leaf1_ecx[] = {
	{ 19, 0, "sse4_1" }, { 20, 0, "sse4_2" }, { 23, 0, "popcnt" }, { 25, 0, "aes" },
	{ 1, 0, "pclmulqdq" }, { 28, NEED_YMM, "avx" }, { 12, NEED_YMM, "fma" },
};
static const struct cpuid_bit leaf7_ebx[] = {
	{ 3, 0, "bmi1" }, { 5, NEED_YMM, "avx2" }, { 8, 0, "bmi2" },
	{ 16, NEED_ZMM, "avx512f" }, { 17, NEED_ZMM, "avx512dq" }, { 30, NEED_ZMM, "avx512bw" },
	{ 31, NEED_ZMM, "avx512vl" }, { 29, 0, "sha" },
};

/* Push, in table order, the names of the bits set in reg whose state the OS
 * saves (saved: the NEED_ bits available). */
static void push_bits(struct strlist *f, unsigned reg, const struct cpuid_bit *t, size_t n,
		      unsigned saved)
{
	for (size_t i = 0; i < n; i++)
		if (((reg >> t[i].bit) & 1) && (t[i].need & saved) == t[i].need)
			sl_push(f, t[i].name);
}

#define PUSH_BITS(f, reg, t, saved) push_bits(f, reg, t, sizeof t / sizeof t[0], saved)

static void read_x86(struct strlist *f)
{
	unsigned a, b, c, d;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return;
	int osxsave = (c >> 27) & 1;
	unsigned long long xcr0 = osxsave ? read_xcr0() : 0;
	int ymm = (xcr0 & 0x6) == 0x6;            /* SSE and AVX state */
	int zmm = ymm && (xcr0 & 0xe0) == 0xe0;   /* opmask, ZMM_Hi256, Hi16_ZMM */
	unsigned saved = (ymm ? NEED_YMM : 0) | (zmm ? NEED_ZMM : 0);
	PUSH_BITS(f, d, leaf1_edx, saved);
	PUSH_BITS(f, c, leaf1_ecx, saved);
	if (__get_cpuid_max(0, NULL) < 7)
		return;
	__cpuid_count(7, 0, a, b, c, d);
	PUSH_BITS(f, b, leaf7_ebx, saved);
}
#endif

#if defined(__aarch64__)
static void read_aarch64(struct strlist *f)
{
	unsigned long hw = getauxval(AT_HWCAP);
	static const struct { unsigned long bit; const char *name; } bits[] = {
		{ HWCAP_ASIMD, "asimd" }, { HWCAP_AES, "aes" }, { HWCAP_PMULL, "pmull" },
		{ HWCAP_SHA1, "sha1" }, { HWCAP_SHA2, "sha2" }, { HWCAP_CRC32, "crc32" },
#ifdef HWCAP_SHA3
		{ HWCAP_SHA3, "sha3" },
#endif
#ifdef HWCAP_SVE
		{ HWCAP_SVE, "sve" },
#endif
	};
	for (size_t i = 0; i < sizeof bits / sizeof bits[0]; i++)
		if (hw & bits[i].bit)
			sl_push(f, bits[i].name);
}
#endif

static char *machine(void)
{
	struct utsname u;
	return xstrdup(uname(&u) == 0 ? u.machine : "unknown");
}

static void read_real(struct host_cpu *hc)
{
	hc->arch = machine();
	hc->source = "none";
#if defined(__x86_64__) || defined(__i386__)
	read_x86(&hc->features);
	hc->source = "cpuid";
#elif defined(__aarch64__)
	read_aarch64(&hc->features);
	hc->source = "hwcap";
#endif
}

int host_cpu_parse_override(const char *value, const char *real_arch, struct host_cpu *hc)
{
	memset(hc, 0, sizeof *hc);
	if (!value || !*value)
		return -1;
	const char *colon = strchr(value, ':');
	hc->arch = colon ? xstrndup(value, (size_t)(colon - value)) : xstrdup(real_arch);
	hc->source = "override";
	char *list = xstrdup(colon ? colon + 1 : value);
	for (char *save = NULL, *t = strtok_r(list, ", ", &save); t; t = strtok_r(NULL, ", ", &save))
		if (!sl_contains(&hc->features, t))
			sl_push(&hc->features, t);
	free(list);
	if (!*hc->arch) {
		host_cpu_free(hc);
		return -1;
	}
	return 0;
}

const struct host_cpu *host_cpu(void)
{
	static struct host_cpu hc;
	static int done;
	if (done)
		return &hc;
	done = 1;
	read_real(&hc);
	const char *ovr = getenv(CPUFEAT_OVERRIDE_ENV);
	struct host_cpu o;
	if (ovr && !host_cpu_parse_override(ovr, hc.arch, &o)) {
		host_cpu_free(&hc);
		hc = o;
	} else if (ovr) {
		ngcc_warning("%s='%s' is not ARCH:feature,... or feature,...; using the real "
			     "features", CPUFEAT_OVERRIDE_ENV, ovr);
	}
	return &hc;
}

void host_cpu_free(struct host_cpu *hc)
{
	free(hc->arch);
	sl_free(&hc->features);
	memset(hc, 0, sizeof *hc);
}

int host_cpu_other_arch(const struct host_cpu *hc, enum cpu_ext ext)
{
	const char *need = cpu_ext_arch(ext);
	return need && strcmp(need, hc->arch);
}

char *host_cpu_refusal(const struct host_cpu *hc, enum cpu_ext ext)
{
	const char *need = cpu_ext_arch(ext);
	if (!need)
		return NULL;
	if (host_cpu_other_arch(hc, ext))
		return xasprintf("needs %s, an %s extension; this host is %s", cpu_ext_display(ext),
				 need, hc->arch);
	struct strbuf all = STRBUF_INIT, missing = STRBUF_INIT;
	for (const char *const *f = cpu_ext_features(ext); *f; f++) {
		sb_addf(&all, "%s%s", all.len ? " " : "", *f);
		if (!sl_contains(&hc->features, *f))
			sb_addf(&missing, "%s%s", missing.len ? " " : "", *f);
	}
	char *why = NULL;
	if (missing.len)
		why = xasprintf("needs %s (%s); this %s host (%s) lacks %s", cpu_ext_display(ext),
				all.buf, hc->arch, hc->source, missing.buf);
	sb_free(&all);
	sb_free(&missing);
	return why;
}

json_t *host_cpu_json(const struct host_cpu *hc)
{
	json_t *f = json_array();
	for (size_t i = 0; i < hc->features.n; i++)
		json_array_append_new(f, json_string(hc->features.items[i]));
	return json_pack("{s:s, s:s, s:o}", "arch", hc->arch, "source", hc->source, "features", f);
}
