/* flags.c — see flags.h (docs/method.md §2.1 [C], docs/iccs.md §6.3). */
#include "method/flags.h"

#include <stddef.h>

/* The guide's reference flags; the C++ twin swaps only the -std. */
static const char *const guide_flags[] = {
	"-std=c99", "-Wpedantic", "-Wall", "-Wextra", "-O2", NULL
};
/* Assumed performance flags for the variants beside the reference (the
 * spec names the profile, not its flags): the guide's, at -O3.  The
 * variant's own extension is then switched on by name (-mavx2, ...:
 * method/cpuext.h), never by -march=native: a library for "this host"
 * needs whatever this host has, which no feature check can state, and
 * AVX-512 code that the variant never asked for would stop valgrind
 * (check's memcheck and consttime) with SIGILL. */
static const char *const guide_performance_flags[] = {
	"-std=c99", "-Wpedantic", "-Wall", "-Wextra", "-O3", NULL
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
