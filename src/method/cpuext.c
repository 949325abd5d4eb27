/* cpuext.c — see cpuext.h. */
#include "method/cpuext.h"

#include <stddef.h>
#include <string.h>

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

/* One row per extension, indexed by enum cpu_ext. */
static const struct ext_info {
	const char *name, *display, *arch, *variant;
	const char *const *features, *const *flags;
} exts[CPU_EXT_COUNT] = {
	[CPU_EXT_NONE] = { "none", "portable", NULL, "optimized-portable", no_features, no_flags },
	[CPU_EXT_AVX2] = { "avx2", "AVX2", "x86_64", "optimized-avx2", avx2_features, avx2_flags },
	[CPU_EXT_AVX512] = { "avx512", "AVX-512", "x86_64", "optimized-avx512", avx512_features,
			     avx512_flags },
	[CPU_EXT_NEON] = { "neon", "NEON", "aarch64", "optimized-neon", neon_features, no_flags },
};

static const char *const variants[] = {
	"reference", "optimized-avx2", "optimized-avx512", "optimized-neon",
	"optimized-portable", "additional", "iccs-baseline", NULL
};

/* An out-of-range value reads as CPU_EXT_NONE. */
static const struct ext_info *info(enum cpu_ext e)
{
	return &exts[(unsigned)e < CPU_EXT_COUNT ? e : CPU_EXT_NONE];
}

const char *cpu_ext_name(enum cpu_ext e)
{
	return info(e)->name;
}

int cpu_ext_parse(const char *name)
{
	for (int i = 0; name && i < CPU_EXT_COUNT; i++)
		if (!strcmp(name, exts[i].name))
			return i;
	return -1;
}

const char *cpu_ext_display(enum cpu_ext e)
{
	return info(e)->display;
}

const char *cpu_ext_arch(enum cpu_ext e)
{
	return info(e)->arch;
}

const char *const *cpu_ext_features(enum cpu_ext e)
{
	return info(e)->features;
}

const char *const *cpu_ext_flags(enum cpu_ext e)
{
	return info(e)->flags;
}

const char *cpu_ext_optimized_variant(enum cpu_ext e)
{
	return info(e)->variant;
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
