/* build_flags.c — flag profiles (method §2.1 [C], iccs-api.md §6.3), file
 * stems and the compiler's identity. */
#include "build/build.h"
#include "build/job.h"

#include <stdlib.h>
#include <string.h>

/* The guide's reference flags; the C++ twin swaps only the -std. */
static const char *const guide_flags[] = {
	"-std=c99", "-Wpedantic", "-Wall", "-Wextra", "-O2", NULL
};
/* Assumed performance flags for optimized-avx2 builds (the spec names the
 * profile, not its flags): the guide's, at -O3 for the build host. */
static const char *const guide_performance_flags[] = {
	"-std=c99", "-Wpedantic", "-Wall", "-Wextra", "-O3", "-march=native", NULL
};
/* What the harness adds to the guide's flags to build a shared library. */
static const char *const harness_additions[] = { "-fPIC", "-D_GNU_SOURCE", NULL };
/* The permissive fallback known to build legacy code. */
static const char *const harness_default_flags[] = {
	"-O2", "-fPIC", "-std=gnu11", "-fno-strict-aliasing", "-fwrapv",
	"-fcommon", "-D_GNU_SOURCE", NULL
};
/* GCC 14 turned these into errors; they are C-only switches. */
static const char *const permissive_c[] = {
	"-Wno-error=implicit-function-declaration",
	"-Wno-error=incompatible-pointer-types",
	"-Wno-error=int-conversion",
	"-Wno-error=implicit-int",
	NULL
};

const char *build_profile_name(enum build_profile p)
{
	switch (p) {
	case PROFILE_GUIDE:
		return "guide";
	case PROFILE_HARNESS_DEFAULT:
		return "harness-default";
	case PROFILE_GUIDE_PERFORMANCE:
		return "guide-performance";
	}
	return "unknown";
}

static void push_all(struct strlist *out, const char *const *flags, int cxx, int keep_std_cxx)
{
	for (; *flags; flags++) {
		if (cxx && str_starts_with(*flags, "-std=")) {
			if (keep_std_cxx)
				sl_push(out, "-std=c++11");
			continue;
		}
		sl_push(out, *flags);
	}
}

void build_profile_flags(enum build_profile p, int cxx, struct strlist *out)
{
	switch (p) {
	case PROFILE_GUIDE:
		push_all(out, guide_flags, cxx, 1);
		push_all(out, harness_additions, cxx, 1);
		break;
	case PROFILE_GUIDE_PERFORMANCE:
		push_all(out, guide_performance_flags, cxx, 1);
		push_all(out, harness_additions, cxx, 1);
		break;
	case PROFILE_HARNESS_DEFAULT:
		push_all(out, harness_default_flags, cxx, 0);
		break;
	}
	if (!cxx)
		push_all(out, permissive_c, 0, 0);
}

static int is_optimized(const struct instance_conf *ic)
{
	return ic->variant && !strcmp(ic->variant, "optimized-avx2");
}

enum build_profile build_first_profile(const struct instance_conf *ic)
{
	return is_optimized(ic) ? PROFILE_GUIDE_PERFORMANCE : PROFILE_GUIDE;
}

char *build_stem(const struct instance_conf *ic)
{
	if (is_optimized(ic) && !str_ends_with(ic->label, "+avx2"))
		return xasprintf("%s+avx2", ic->label);
	return xstrdup(ic->label);
}

static char *first_line(const char *s)
{
	while (*s == '\n' || *s == '\r')
		s++;
	size_t n = strcspn(s, "\r\n");
	return n ? xstrndup(s, n) : NULL;
}

const char *build_compiler_version(void)
{
	static char *version;
	if (version)
		return version;
	struct job j = { .argv = STRLIST_INIT };
	sl_push(&j.argv, "cc");
	sl_push(&j.argv, "--version");
	if (job_run_sync(&j) == 0 && j.output)
		version = first_line(j.output);
	if (!version)
		version = xstrdup("unknown");
	job_release(&j);
	return version;
}
