/* build_flags.c — which flag profile an instance starts with, file stems
 * and the compiler's identity (the profiles themselves: method/flags.h). */
#include "build/build.h"
#include "build/job.h"
#include "method/cpuext.h"
#include "method/toolchain.h"

#include <stdlib.h>
#include <string.h>

/* Every variant beside the reference is compiled for speed (docs/method.md
 * §2.1): the guide's performance profile. */
enum build_profile build_first_profile(const struct instance_conf *ic)
{
	return variant_is_alternative(ic->variant) ? PROFILE_GUIDE_PERFORMANCE : PROFILE_GUIDE;
}

char *build_stem(const struct instance_conf *ic)
{
	const char *tag = variant_tag(ic->variant);
	if (!tag)
		return xstrdup(ic->label);
	char *suffix = xasprintf("+%s", tag);
	char *stem = str_ends_with(ic->label, suffix) ? xstrdup(ic->label)
						     : xasprintf("%s%s", ic->label, suffix);
	free(suffix);
	return stem;
}

void build_ext_flags(const struct instance_conf *ic, struct strlist *argv)
{
	for (const char *const *f = cpu_ext_flags(conf_cpu_ext(ic)); *f; f++)
		sl_push(argv, *f);
}

static char *first_line(const char *s)
{
	while (*s == '\n' || *s == '\r')
		s++;
	size_t n = strcspn(s, "\r\n");
	return n ? xstrndup(s, n) : NULL;
}

static char *compiler_says(const char *option)
{
	char *line = NULL;
	struct job j = { .argv = STRLIST_INIT };
	sl_push(&j.argv, toolchain_cc());
	sl_push(&j.argv, option);
	if (job_run_sync(&j) == 0 && j.output)
		line = first_line(j.output);
	job_release(&j);
	return line ? line : xstrdup("unknown");
}

const char *build_compiler_version(void)
{
	static char *version;
	if (!version)
		version = compiler_says("--version");
	return version;
}

const char *build_compiler_target(void)
{
	static char *target;
	if (!target)
		target = compiler_says("-dumpmachine");
	return target;
}
