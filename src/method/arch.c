/* arch.c — see arch.h. */
#include "method/arch.h"

#include <stddef.h>
#include <strings.h>

int arch_matches(const char *written, const char *machine)
{
	static const char *const aliases[][2] = {
		{ "arm64", "aarch64" }, { "x86-64", "x86_64" }, { "amd64", "x86_64" },
	};
	if (!written || !machine)
		return 0;
	if (!strcasecmp(written, machine))
		return 1;
	for (size_t i = 0; i < sizeof aliases / sizeof aliases[0]; i++)
		if (!strcasecmp(written, aliases[i][0]) && !strcasecmp(machine, aliases[i][1]))
			return 1;
	return 0;
}
