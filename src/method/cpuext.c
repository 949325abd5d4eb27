/* cpuext.c — see cpuext.h. */
#include "method/cpuext.h"

#include <stddef.h>
#include <string.h>

static const char *const ext_names[CPU_EXT_COUNT] = { "none", "avx2", "avx512", "neon" };
static const char *const ext_display[CPU_EXT_COUNT] = { "portable", "AVX2", "AVX-512", "NEON" };

static const char *const no_features[] = { NULL };
static const char *const avx2_features[] = { "avx2", NULL };
/* The flags below allow the compiler all four, so the host needs all four. */
static const char *const avx512_features[] = { "avx512f", "avx512bw", "avx512dq", "avx512vl", NULL };
static const char *const neon_features[] = { "asimd", NULL };

static const char *const no_flags[] = { NULL };
static const char *const avx2_flags[] = { "-mavx2", NULL };
static const char *const avx512_flags[] = {
	"-mavx512f", "-mavx512bw", "-mavx512dq", "-mavx512vl", NULL
};

static const char *const variants[] = {
	"reference", "optimized-avx2", "optimized-avx512", "optimized-neon",
	"optimized-portable", "additional", "iccs-baseline", NULL
};

static int valid(enum cpu_ext e)
{
	return (unsigned)e < CPU_EXT_COUNT;
}

const char *cpu_ext_name(enum cpu_ext e)
{
	return valid(e) ? ext_names[e] : "none";
}

int cpu_ext_parse(const char *name)
{
	for (int i = 0; name && i < CPU_EXT_COUNT; i++)
		if (!strcmp(name, ext_names[i]))
			return i;
	return -1;
}

const char *cpu_ext_display(enum cpu_ext e)
{
	return valid(e) ? ext_display[e] : "portable";
}

const char *cpu_ext_arch(enum cpu_ext e)
{
	switch (e) {
	case CPU_EXT_AVX2:
	case CPU_EXT_AVX512:
		return "x86_64";
	case CPU_EXT_NEON:
		return "aarch64";
	case CPU_EXT_NONE:
		break;
	}
	return NULL;
}

const char *const *cpu_ext_features(enum cpu_ext e)
{
	switch (e) {
	case CPU_EXT_AVX2:
		return avx2_features;
	case CPU_EXT_AVX512:
		return avx512_features;
	case CPU_EXT_NEON:
		return neon_features;
	case CPU_EXT_NONE:
		break;
	}
	return no_features;
}

const char *const *cpu_ext_flags(enum cpu_ext e)
{
	switch (e) {
	case CPU_EXT_AVX2:
		return avx2_flags;
	case CPU_EXT_AVX512:
		return avx512_flags;
	case CPU_EXT_NEON:
	case CPU_EXT_NONE:
		break;
	}
	return no_flags;
}

const char *cpu_ext_optimized_variant(enum cpu_ext e)
{
	switch (e) {
	case CPU_EXT_AVX2:
		return "optimized-avx2";
	case CPU_EXT_AVX512:
		return "optimized-avx512";
	case CPU_EXT_NEON:
		return "optimized-neon";
	case CPU_EXT_NONE:
		break;
	}
	return "optimized-portable";
}

int variant_known(const char *v)
{
	for (const char *const *p = variants; v && *p; p++)
		if (!strcmp(v, *p))
			return 1;
	return 0;
}

const char *variant_tag(const char *v)
{
	if (!v)
		return NULL;
	if (!strcmp(v, "additional"))
		return "additional";
	if (!strncmp(v, "optimized-", 10) && variant_known(v))
		return v + 10;
	return NULL;
}

enum cpu_ext variant_implied_ext(const char *v)
{
	const char *tag = variant_tag(v);
	int e = tag ? cpu_ext_parse(tag) : -1;
	return e > 0 ? (enum cpu_ext)e : CPU_EXT_NONE;
}

int variant_is_alternative(const char *v)
{
	return variant_tag(v) != NULL;
}
