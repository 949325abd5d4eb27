/* toolchain.c — see toolchain.h. */
#include "method/toolchain.h"

#include <stdlib.h>
#include <string.h>

/* One word: the compiler runs through posix_spawnp with no shell, so a
 * value with spaces ("ccache gcc") would name a program that does not
 * exist; say so up front instead. */
static int usable(const char *v)
{
	return v && *v && !strpbrk(v, " \t\r\n");
}

static const char *setting(const char *var, const char *fallback)
{
	const char *v = getenv(var);
	return v && *v ? v : fallback;
}

const char *toolchain_cc(void)
{
	return setting("NGCC_PERF_CC", "cc");
}

const char *toolchain_cxx(void)
{
	return setting("NGCC_PERF_CXX", "c++");
}

const char *toolchain_problem(void)
{
	if (!usable(toolchain_cc()))
		return "NGCC_PERF_CC must name one compiler program (a name or a path, no arguments)";
	if (!usable(toolchain_cxx()))
		return "NGCC_PERF_CXX must name one compiler program (a name or a path, no arguments)";
	return NULL;
}
