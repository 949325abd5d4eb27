/*
 * flags.h — the compiler flag profiles of docs/method.md §2.1 [C] (docs/iccs.md
 * §6.3): the guide's reference flags plus what a shared library needs, the
 * permissive harness-default fallback, and the assumed performance flags
 * of every variant beside the reference (optimized-*, additional).  Pure data: `build` compiles with them and
 * campaign.json records them (arch_config).
 */
#ifndef NGCC_METHOD_FLAGS_H
#define NGCC_METHOD_FLAGS_H

#include "util/util.h"

enum build_profile {
	PROFILE_GUIDE,             /* guide reference flags + harness additions */
	PROFILE_HARNESS_DEFAULT,   /* permissive fallback, docs/iccs.md §6.3 */
	PROFILE_GUIDE_PERFORMANCE, /* variants: -O3; their extension flags come on top */
};

/* "guide", "harness-default", "guide-performance" */
const char *build_profile_name(enum build_profile p);
/* Append the profile's compiler flags to out (cxx: for C++ sources). */
void build_profile_flags(enum build_profile p, int cxx, struct strlist *out);

#endif
